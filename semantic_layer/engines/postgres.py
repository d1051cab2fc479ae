"""PostgreSQL as the warehouse, through psycopg 3 (the optional extra `showwork[postgres]`).

showwork.yaml: `warehouse: {postgres: {dsn_env: SHOWWORK_PG_DSN, schema: public}}` — a libpq DSN
read from that variable; without `dsn_env`, libpq's own PGHOST/PGPORT/PGDATABASE/PGUSER/
PGPASSWORD. A dbt profile's postgres target gives the same settings (host, port, dbname, user,
password). No secret is ever written in a message: errors name host, port, database and user.

The same limits as DuckDB's, enforced by the server as well as here:
- one SELECT (sqlglot's postgres parser; no data-modifying CTE), sent with the extended query
  protocol, which runs one statement only;
- every call in a READ ONLY transaction, with `default_transaction_read_only` set for the
  session too, rolled back at the end (a role with SELECT grants only is the third wall);
- `statement_timeout` set per call (`SET LOCAL`), so the server cancels a query past it;
- a row cap read by fetching cap + 1 rows.

Why psycopg rather than ADBC: its rows are the Python values DuckDB's are (Decimal, date,
datetime), so a result types the same on both; it maps SQLSTATE codes to exception classes (a
timeout, a missing column and a refused write are told apart without parsing text); it reads
libpq DSNs and PG* variables as libpq does.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlglot
from sqlglot import exp

from showwork.semantic_layer.errors import (
    EngineUnavailable,
    ExecutionError,
    QueryTimeout,
    WarehouseSpecError,
)
from showwork.semantic_layer.execute import Limits, within_cap

SPEC_KEYS = ("dsn_env", "schema", "host", "port", "dbname", "user", "password_env",
             "connect_timeout", "sslmode")
"""What `warehouse: {postgres: …}` may say; a password only ever through an environment variable
(or a dbt profile, whose reader hands it over as a Secret)."""
CONNECT_TIMEOUT_S = 5
IDLE_KEPT = 4
KEPT = 256
"""Checked SQL texts kept (cleared when full)."""
"""Open connections kept for the next calls (one call uses one connection at a time)."""
WRITES = (exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Create, exp.Drop, exp.Alter,
          exp.Command, exp.Into, exp.Lock)
"""Statement nodes a governed SELECT may not hold anywhere (a data-modifying CTE, SELECT INTO)."""
COLUMNS = """SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
WHERE table_schema NOT IN ('information_schema', 'pg_catalog', 'pg_toast')
ORDER BY table_schema, table_name, ordinal_position"""


@dataclass(frozen=True)
class PostgresSpec:
    """The connection settings; `secrets` are kept apart so nothing prints them."""

    params: dict[str, str] = field(default_factory=dict)
    """libpq keywords other than the password (host, port, dbname, user, sslmode, …)."""
    dsn: str = ""
    """A libpq DSN from the environment (it may hold a password: never shown)."""
    password: str | None = field(default=None, repr=False)
    schema: str = "public"
    """The schema whose tables are the model's bare table names."""
    project: str | None = None
    """The project this warehouse serves, named in every error."""

    @classmethod
    def parse(cls, value: Any, project: str | None = None) -> PostgresSpec:
        if value is None:
            value = {}
        if not isinstance(value, Mapping):
            raise WarehouseSpecError("warehouse.postgres: expected a mapping such as {dsn_env: "
                                     f"SHOWWORK_PG_DSN, schema: public}}; got {type(value).__name__}.")
        from showwork.semantic_layer.dbt_project import Secret

        given = value.get("password")
        unknown = sorted(set(value) - set(SPEC_KEYS) - ({"password"} if isinstance(
            given, Secret) else set()))
        if "password" in unknown:
            raise WarehouseSpecError("warehouse.postgres: a password is never written in "
                                     "showwork.yaml; name the variable that holds it with "
                                     "password_env: (or use PGPASSWORD).")
        if unknown:
            raise WarehouseSpecError(f"warehouse.postgres: unknown key {unknown[0]!r}; supported: "
                                     f"{', '.join(SPEC_KEYS)}.")
        dsn = ""
        if value.get("dsn_env"):
            name = str(value["dsn_env"])
            if name not in os.environ:
                raise WarehouseSpecError(f"warehouse.postgres.dsn_env: the environment variable "
                                         f"{name} is not set; set it to a libpq DSN "
                                         "(postgresql://user@host:port/db).")
            dsn = os.environ[name]
            _check_dsn(dsn, name)
        password = str(given) if isinstance(given, Secret) else None  # from a dbt profile
        if value.get("password_env"):
            name = str(value["password_env"])
            if name not in os.environ:
                raise WarehouseSpecError(f"warehouse.postgres.password_env: the environment "
                                         f"variable {name} is not set.")
            password = os.environ[name]
        params = {k: str(value[k]) for k in ("host", "port", "dbname", "user", "sslmode",
                                               "connect_timeout") if value.get(k) is not None}
        return cls(params=params, dsn=dsn, password=password,
                   schema=str(value.get("schema") or "public"), project=project)

    @property
    def where(self) -> str:
        """`project P, PostgreSQL at user@host:port/db` — never the password."""
        info = self._info()
        at = (f"{info.get('user', '')}{'@' if info.get('user') else ''}"
              f"{info.get('host', 'localhost')}:{info.get('port', '5432')}/"
              f"{info.get('dbname', info.get('user', ''))}")
        return f"{f'project {self.project}, ' if self.project else ''}PostgreSQL at {at}"

    def _info(self) -> dict[str, str]:
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict
        except ImportError:  # no psycopg: the engine says so; the DSN is not read here
            return {**self.params}
        try:
            info = {k: str(v) for k, v in conninfo_to_dict(self.dsn).items() if v is not None}
        except psycopg.Error:  # refused at parse (_check_dsn), never shown
            info = {}
        env = {"host": "PGHOST", "port": "PGPORT", "dbname": "PGDATABASE", "user": "PGUSER"}
        for key, var in env.items():
            if key not in info and os.environ.get(var):
                info[key] = os.environ[var]
        return {**info, **self.params}

    def secrets(self) -> list[str]:
        """Every secret value the settings hold, to scrub from messages."""
        import psycopg  # the engine needs it to have opened at all
        from psycopg.conninfo import conninfo_to_dict

        found = [self.password or "", os.environ.get("PGPASSWORD", "")]
        try:
            found.append(str(conninfo_to_dict(self.dsn).get("password") or ""))
        except psycopg.Error:  # unreadable: scrub the whole DSN instead
            found.append(self.dsn)
        return [s for s in found if s]


class PostgresEngine:
    """Governed SQL on PostgreSQL: each call on a connection of its own, read-only, bounded."""

    name = "postgres"
    dialect = "postgres"

    def __init__(self, spec: PostgresSpec, limits: Limits) -> None:
        _require_psycopg(spec)
        self.spec = spec
        self.limits = limits
        self._idle: list[Any] = []
        self._checked: dict[str, str] = {}
        """SQL text → the text sent, checked once (only text is kept, never rows)."""
        self._lock = threading.Lock()
        self._closed = False
        self._timestamp_columns: frozenset[tuple[str, str]] | None = None
        self._give_back(self._connect())  # fail at open, not at the first question

    @classmethod
    def open(cls, value: Any, limits: Limits, project: str | None = None) -> PostgresEngine:
        return cls(PostgresSpec.parse(value, project), limits)

    # -- the Engine interface -------------------------------------------------------------------
    def run(self, sql: str, limits: Limits) -> list[tuple[Any, ...]]:
        """Rows of one SELECT, in a read-only transaction the server cancels past the timeout."""
        checked = self._checked.get(sql)
        if checked is None:
            if len(self._checked) >= KEPT:
                self._checked.clear()
            checked = self._checked[sql] = one_select(sql, self.spec.where,
                                                      timestamps=self._timestamps())
        return self._in_transaction(checked, limits)

    def _timestamps(self) -> frozenset[tuple[str, str]]:
        """(table, column) of every timestamp column, read from the catalog once."""
        if self._timestamp_columns is None:
            self._timestamp_columns = frozenset(
                (table, column) for table, columns in self.tables().items()
                for column, kind in columns if kind.startswith("timestamp"))
        return self._timestamp_columns

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for schema, table, column, kind in self._in_transaction(COLUMNS, self.limits, cap=False):
            name = table if schema == self.spec.schema else f"{schema}.{table}"
            out.setdefault(name, []).append((column, kind))
        return out

    def close(self) -> None:
        with self._lock:
            self._closed, idle, self._idle = True, self._idle, []
        for con in idle:
            con.close()

    def __repr__(self) -> str:
        return f"PostgresEngine({self.spec.where})"

    # -- connections ------------------------------------------------------------------------
    def _connect(self) -> Any:
        import psycopg

        spec = self.spec
        options = f"-c default_transaction_read_only=on -c search_path={spec.schema}"
        kwargs: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT_S, **spec.params,
                                  "options": options, "application_name": "showwork"}
        if spec.password is not None:
            kwargs["password"] = spec.password
        try:
            con = psycopg.connect(spec.dsn, autocommit=False, **kwargs)
        except psycopg.Error as exc:
            raise EngineUnavailable(f"{spec.where}: could not connect: {self._reason(exc)}; "
                                    "check the server is up and the settings and credentials "
                                    "(warehouse.postgres, or the dbt profile).") from None
        con.read_only = True
        return con

    def _borrow(self) -> Any:
        with self._lock:
            if self._closed:
                raise ExecutionError(f"{self.spec.where}: the engine is closed.")
            if self._idle:
                return self._idle.pop()
        return self._connect()

    def _give_back(self, con: Any) -> None:
        with self._lock:
            if not self._closed and not con.closed and len(self._idle) < IDLE_KEPT:
                self._idle.append(con)
                return
        con.close()

    def _in_transaction(self, sql: str, limits: Limits, cap: bool = True
                        ) -> list[tuple[Any, ...]]:
        import psycopg
        from psycopg import errors as pg

        con, kept = self._borrow(), False
        try:
            with con.cursor() as cur:
                cur.execute("SELECT set_config('statement_timeout', %s, true)",
                            (f"{max(1, int(limits.timeout_s * 1000))}ms",))
                cur.execute(sql)
                rows = cur.fetchmany(limits.row_cap + 1) if cap else cur.fetchall()
            con.rollback()
            kept = True
        except pg.QueryCanceled as exc:
            raise QueryTimeout(f"{self.spec.where}: the server cancelled the query after "
                               f"{limits.timeout_s:g} s (statement_timeout).") from exc
        except pg.ReadOnlySqlTransaction as exc:
            raise ExecutionError(f"{self.spec.where}: refused a write: the governed connection "
                                 "is read-only.") from exc
        except psycopg.OperationalError as exc:
            raise EngineUnavailable(f"{self.spec.where}: the connection failed: "
                                    f"{self._reason(exc)}") from None
        except psycopg.Error as exc:
            raise ExecutionError(f"{self.spec.where}: the server could not run the query: "
                                 f"{self._reason(exc)}") from exc
        finally:  # a connection whose call failed is not reused: its state is unknown
            if kept:
                self._give_back(con)
            else:
                con.close()
        return within_cap(rows, limits) if cap else rows

    def _reason(self, exc: BaseException) -> str:
        """The server's or libpq's first line, with every secret the settings hold scrubbed."""
        diag = getattr(exc, "diag", None)
        primary = getattr(diag, "message_primary", None) if diag is not None else None
        lines = [line.strip() for line in str(primary or exc).splitlines() if line.strip()]
        text = " ".join(lines[:2])[:500] or type(exc).__name__
        for secret in self.spec.secrets():
            text = text.replace(secret, "***")
        return text


def one_select(sql: str, where: str, dialect: str = "postgres",
               timestamps: frozenset[tuple[str, str]] = frozenset()) -> str:
    """`sql` if it is exactly one query with no write anywhere in it, else ExecutionError.

    For PostgreSQL, what sqlglot's transpiling of hand-written DuckDB SQL leaves unrunnable is
    fixed: a derived table without an alias (PostgreSQL 16 allows it, 15 does not) gets one,
    and DATE_FROM_PARTS is PostgreSQL's MAKE_DATE. A window on a day dimension cast from a
    timestamp column (`timestamps`: its (table, column) pairs) is compared on the column
    itself (`by_timestamp`)."""
    try:
        statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise ExecutionError(f"{where}: the governed connection runs exactly one SELECT; this "
                             f"did not parse: {str(exc).splitlines()[0][:200]}") from None
    if len(statements) != 1 or not isinstance(statements[0], exp.Query):
        kinds = ", ".join(type(s).__name__.upper() for s in statements) or "no statement"
        raise ExecutionError(f"{where}: the governed connection runs exactly one SELECT; got "
                             f"{kinds}.")
    (query,) = statements
    write = next(iter(query.find_all(*WRITES)), None)
    if write is not None:
        raise ExecutionError(f"{where}: the governed connection runs exactly one SELECT; this "
                             f"one holds a {type(write).__name__.upper()}.")
    if dialect != "postgres":
        return sql
    bare = [q for q in query.find_all(exp.Subquery) if not q.alias
            and isinstance(q.parent, exp.From | exp.Join)]
    for i, sub in enumerate(bare):
        sub.set("alias", exp.TableAlias(this=exp.to_identifier(f"_derived{i}")))
    # sqlglot writes DuckDB's make_date as DATE_FROM_PARTS, which PostgreSQL lacks
    dates = list(query.find_all(exp.DateFromParts))
    for node in dates:
        node.replace(exp.Anonymous(this="MAKE_DATE", expressions=[
            node.args[k] for k in ("year", "month", "day") if node.args.get(k) is not None]))
    ranged = by_timestamp(query, timestamps)
    return query.sql(dialect) if bare or dates or ranged else sql


def by_timestamp(query: exp.Expr, timestamps: frozenset[tuple[str, str]]) -> bool:
    """`CAST(t.c AS DATE) >= CAST('d' AS DATE)` becomes `t.c >= CAST('d' AS TIMESTAMP)`, and
    `<` likewise, where t.c is a timestamp column (True when any was). The same rows: a
    timestamp's date is on or after d exactly when the timestamp is at or after d's midnight,
    and before d exactly when the timestamp is before it (with time zone, both in the session's
    zone). PostgreSQL casts every row otherwise: on the flights' weather table that is a third
    of the query's time (issue 31's level-014 and level-015)."""
    if not timestamps:
        return False
    tables = {t.alias_or_name: t.name for t in query.find_all(exp.Table)}
    changed = False
    for node in list(query.find_all(exp.GTE, exp.LT)):
        column, bound = node.this, node.expression
        if not (_cast_to_date(column) and _cast_to_date(bound)
                and isinstance(column.this, exp.Column) and bound.this.is_string):
            continue
        col = column.this
        if (tables.get(col.table, col.table), col.name) not in timestamps:
            continue
        node.set("this", col.copy())
        node.set("expression", exp.cast(bound.this.copy(), exp.DataType.Type.TIMESTAMP))
        changed = True
    return changed


def _cast_to_date(node: exp.Expr) -> bool:
    return isinstance(node, exp.Cast) and node.to.is_type(exp.DataType.Type.DATE)


def _check_dsn(dsn: str, variable: str) -> None:
    """WarehouseSpecError unless libpq can read the DSN; its text is never shown (it may hold a
    password, and libpq quotes the part it could not read)."""
    try:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict
    except ImportError:  # reported when the engine opens
        return
    try:
        conninfo_to_dict(dsn)
    except psycopg.Error:
        raise WarehouseSpecError(f"warehouse.postgres.dsn_env: {variable} is not a libpq "
                                 "connection string (postgresql://user@host:port/db, or "
                                 "key=value pairs); its text is not shown, as it may hold a "
                                 "password.") from None


def _require_psycopg(spec: PostgresSpec) -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise EngineUnavailable(f"{spec.where} needs psycopg: pip install "
                                "'showwork[postgres]'.") from exc
