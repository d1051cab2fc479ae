"""Snowflake, BigQuery and Databricks SQL as the warehouse, through their maintained drivers:
the ADBC drivers for Snowflake and BigQuery (`adbc-driver-snowflake`, `adbc-driver-bigquery`:
one Arrow interface) and `databricks-sql-connector`, each an optional extra (`showwork[snowflake]`,
`showwork[bigquery]`, `showwork[databricks]`), imported only when such an engine opens.

showwork.yaml (or a dbt profile's target) names the settings; a secret only ever comes from the
environment (`password_env`, `token_env`, `credentials_env`) or a dbt profile, and is scrubbed
from every message:
    snowflake:  {account, user, password_env, warehouse, database, schema, role}
    bigquery:   {project, dataset, location, credentials_env (service-account JSON)}
    databricks: {host, http_path, token_env, catalog, schema, tls_ca_file (a CA bundle for a
                 host whose certificate the system does not trust, e.g. behind a TLS proxy)}

The same limits as DuckDB's: one SELECT (sqlglot, in the engine's dialect, with no write in it),
a timeout that cancels the query (the driver's cancel from a timer; Snowflake's session
STATEMENT_TIMEOUT_IN_SECONDS as well), a row cap read by fetching cap + 1 rows. These services
have no read-only transaction: the server-side wall is a role or service account with SELECT
grants only, which the README asks for.
"""

from __future__ import annotations

import logging
import os
import threading
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from showwork.semantic_layer.engines.postgres import one_select
from showwork.semantic_layer.errors import (
    EngineUnavailable,
    ExecutionError,
    QueryTimeout,
    WarehouseSpecError,
)
from showwork.semantic_layer.execute import Limits, within_cap

LOGIN_TIMEOUT_S = 10
"""A service that does not answer the login within this is reported, not waited for."""
PROBE = "SELECT 1 AS reachable"
"""What a lazily connecting driver (BigQuery's) is asked at open, so no network shows there."""


@dataclass(frozen=True)
class CloudSpec:
    """One warehouse's driver settings, its secrets kept apart."""

    kind: str
    """snowflake, bigquery or databricks."""
    settings: dict[str, str]
    """Non-secret settings, as showwork.yaml names them."""
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    project: str | None = None

    @property
    def where(self) -> str:
        s = self.settings
        at = {"snowflake": lambda: f"account {s.get('account', '?')}"
                                   f"{', warehouse ' + s['warehouse'] if s.get('warehouse') else ''}",
              "bigquery": lambda: f"project {s.get('project', '?')}"
                                  f"{', dataset ' + s['dataset'] if s.get('dataset') else ''}",
              "databricks": lambda: f"{s.get('host', '?')}{s.get('http_path', '')}"}[self.kind]()
        name = {"snowflake": "Snowflake", "bigquery": "BigQuery", "databricks": "Databricks SQL"}
        return f"{f'project {self.project}, ' if self.project else ''}{name[self.kind]} ({at})"


KEYS = {
    "snowflake": (("account", "user", "warehouse", "database", "schema", "role", "host", "port",
                   "protocol", "authenticator"), {"password_env": "password",
                                                  "private_key_env": "private_key"}),
    "bigquery": (("project", "dataset", "location"), {"credentials_env": "credentials"}),
    "databricks": (("host", "http_path", "catalog", "schema", "port", "tls_ca_file"),
                   {"token_env": "token"}),
}
"""Per warehouse: its settings, and its `*_env` keys → the secret each names."""
REQUIRED = {"snowflake": ("account", "user"), "bigquery": ("project",),
            "databricks": ("host", "http_path")}
DIALECTS = {"snowflake": "snowflake", "bigquery": "bigquery", "databricks": "spark"}
"""The sqlglot dialect each is compiled for (Databricks SQL is Spark SQL)."""


def parse(kind: str, value: Any, project: str | None = None, base: Path | None = None
          ) -> CloudSpec:
    """showwork.yaml's `warehouse: {KIND: {...}}`; a dbt profile's secrets arrive as Secret; a
    relative file setting resolves against `base`, showwork.yaml's folder."""
    from showwork.semantic_layer.dbt_project import Secret

    if not isinstance(value, Mapping):
        raise WarehouseSpecError(f"warehouse.{kind}: expected a mapping of settings; got "
                                 f"{type(value).__name__}.")
    plain, envs = KEYS[kind]
    secrets = {k: str(v) for k, v in value.items() if isinstance(v, Secret)}
    unknown = sorted(set(value) - set(plain) - set(envs) - set(secrets))
    if unknown:
        hint = (" (a secret is never written in showwork.yaml: name its variable with "
                f"{', '.join(envs)})" if set(unknown) & set(envs.values()) else "")
        raise WarehouseSpecError(f"warehouse.{kind}: unknown key {unknown[0]!r}; supported: "
                                 f"{', '.join((*plain, *envs))}{hint}.")
    for env_key, secret in envs.items():
        if value.get(env_key):
            name = str(value[env_key])
            if name not in os.environ:
                raise WarehouseSpecError(f"warehouse.{kind}.{env_key}: the environment variable "
                                         f"{name} is not set.")
            secrets[secret] = os.environ[name]
    missing = [k for k in REQUIRED[kind] if not value.get(k)]
    if missing:
        raise WarehouseSpecError(f"warehouse.{kind}: {', '.join(missing)} must be given.")
    settings = {k: str(value[k]) for k in plain if value.get(k) is not None}
    if settings.get("tls_ca_file") and base is not None:
        settings["tls_ca_file"] = str(base / Path(settings["tls_ca_file"]).expanduser())
    return CloudSpec(kind, settings, secrets, project)


# -- what each driver is given ------------------------------------------------------------------
def snowflake_kwargs(spec: CloudSpec) -> dict[str, str]:
    """The ADBC Snowflake driver's database options."""
    s, names = spec.settings, {"account": "adbc.snowflake.sql.account", "user": "username",
                               "warehouse": "adbc.snowflake.sql.warehouse",
                               "database": "adbc.snowflake.sql.db",
                               "schema": "adbc.snowflake.sql.schema",
                               "role": "adbc.snowflake.sql.role",
                               "host": "adbc.snowflake.sql.uri.host",
                               "port": "adbc.snowflake.sql.uri.port",
                               "protocol": "adbc.snowflake.sql.uri.protocol",
                               "authenticator": "adbc.snowflake.sql.auth_type"}
    out = {names[k]: v for k, v in s.items()}
    out["adbc.snowflake.sql.client_option.login_timeout"] = f"{LOGIN_TIMEOUT_S}s"
    out["adbc.snowflake.sql.client_option.app_name"] = "showwork"
    if "password" in spec.secrets:
        out["password"] = spec.secrets["password"]
    if "private_key" in spec.secrets:
        out["adbc.snowflake.sql.auth_type"] = "auth_jwt"
        out["adbc.snowflake.sql.client_option.jwt_private_key_pkcs8_value"] = (
            spec.secrets["private_key"])
    return out


def bigquery_kwargs(spec: CloudSpec) -> dict[str, str]:
    """The ADBC BigQuery driver's database options (service-account JSON from the environment,
    else Google's application-default credentials)."""
    s = spec.settings
    out = {"adbc.bigquery.sql.project_id": s["project"]}
    if s.get("dataset"):
        out["adbc.bigquery.sql.dataset_id"] = s["dataset"]
    if s.get("location"):
        out["adbc.bigquery.sql.location"] = s["location"]
    if "credentials" in spec.secrets:
        out["adbc.bigquery.sql.auth_type"] = "adbc.bigquery.sql.auth_type.json_credential_string"
        out["adbc.bigquery.sql.auth_credentials"] = spec.secrets["credentials"]
    return out


def databricks_kwargs(spec: CloudSpec) -> dict[str, Any]:
    """databricks.sql.connect's arguments (retries bounded so a silent host fails fast)."""
    s = spec.settings
    out: dict[str, Any] = {"server_hostname": s["host"], "http_path": s["http_path"],
                           "_retry_stop_after_attempts_count": 1,
                           "_socket_timeout": LOGIN_TIMEOUT_S,
                           "_retry_stop_after_attempts_duration": LOGIN_TIMEOUT_S}
    if s.get("port"):
        out["_port"] = int(s["port"])
    for key in ("catalog", "schema"):
        if s.get(key):
            out[key] = s[key]
    if s.get("tls_ca_file"):
        out["_tls_trusted_ca_file"] = s["tls_ca_file"]
    if "token" in spec.secrets:
        out["access_token"] = spec.secrets["token"]
    return out


def _driver(kind: str) -> tuple[Callable[..., Any], tuple[type[BaseException], ...]]:
    """(connect, the driver's error classes) — ImportError names the extra."""
    if kind == "snowflake":
        import adbc_driver_manager
        import adbc_driver_snowflake.dbapi as sf

        return (lambda spec: sf.connect(db_kwargs=snowflake_kwargs(spec)),
                (adbc_driver_manager.Error,))
    if kind == "bigquery":
        import adbc_driver_bigquery.dbapi as bq
        import adbc_driver_manager

        return (lambda spec: bq.connect(db_kwargs=bigquery_kwargs(spec)),
                (adbc_driver_manager.Error,))
    import urllib3
    from databricks import sql as dbsql
    from databricks.sql import exc as dberr

    logging.getLogger("databricks").setLevel(logging.CRITICAL)  # the error says it, once
    return (lambda spec: dbsql.connect(**databricks_kwargs(spec)),
            (dberr.Error, OSError, urllib3.exceptions.HTTPError))


SECRET_WORD = {"snowflake": "password or key", "bigquery": "service-account credentials",
               "databricks": "access token"}


def _refusal(exc: BaseException) -> str | None:
    """"HTTP 403: why" when the driver's error is an HTTP 401/403 answer to the login (the
    Databricks connector keeps the status in its RequestError's context, and its message says
    only "Error during request to server")."""
    context = getattr(exc, "context", None)
    if not isinstance(context, Mapping):
        return None
    code = context.get("http-code")
    if code not in (401, 403):
        return None
    said = str(context.get("error-message") or "").strip()
    return f"HTTP {code}{': ' + said if said else ''}"


class _Cancel(threading.Event):
    """Set once the cursor was cancelled; `timer` is what cancels it."""

    timer: threading.Timer


def _cancel_after(cursor: Any, seconds: float) -> _Cancel:
    """Start a timer that cancels `cursor` (ADBC's adbc_cancel, else DB-API cancel)."""
    fired = _Cancel()

    def cancel() -> None:
        fired.set()
        (getattr(cursor, "adbc_cancel", None) or cursor.cancel)()

    fired.timer = threading.Timer(seconds, cancel)
    fired.timer.daemon = True
    fired.timer.start()
    return fired


class CloudEngine:
    """Governed SQL on Snowflake, BigQuery or Databricks SQL over one driver connection."""

    def __init__(self, spec: CloudSpec, limits: Limits,
                 connect: Callable[[CloudSpec], Any] | None = None,
                 errors: tuple[type[BaseException], ...] | None = None) -> None:
        self.spec = spec
        self.name = spec.kind
        self.dialect = DIALECTS[spec.kind]
        if connect is None or errors is None:
            try:
                connect, errors = _driver(spec.kind)
            except ImportError as exc:
                raise EngineUnavailable(f"{spec.where} needs its driver: pip install "
                                        f"'showwork[{spec.kind}]'.") from exc
        self._errors = errors
        self._login_timeout_s = min(LOGIN_TIMEOUT_S, limits.timeout_s)
        self._lock = threading.Lock()
        try:
            with warnings.catch_warnings():  # ADBC's "cannot disable autocommit": read-only SQL
                warnings.simplefilter("ignore")
                self.connection: Any = connect(spec)
        except errors as exc:
            refused = _refusal(exc)
            if refused:
                raise EngineUnavailable(f"{spec.where}: the server refused the credentials "
                                        f"({self._scrub(refused)}); check the {SECRET_WORD[spec.kind]} and "
                                        "its access to the warehouse.") from None
            raise EngineUnavailable(f"{spec.where}: could not connect: {self._reason(exc)}; "
                                    "check the network, the settings and the credentials.") from None
        if spec.kind == "bigquery":  # its driver connects lazily: ask once, so that no
            self._execute_plain(PROBE, "could not connect: ")  # network is said at open
        if spec.kind == "snowflake":  # the server cancels a statement past the timeout too
            self._execute_plain(f"ALTER SESSION SET STATEMENT_TIMEOUT_IN_SECONDS = "
                                f"{max(1, int(limits.timeout_s))}")
        self._checked: dict[str, str] = {}

    @classmethod
    def open(cls, kind: str, value: Any, limits: Limits, project: str | None = None,
             base: Path | None = None) -> CloudEngine:
        return cls(parse(kind, value, project, base), limits)

    def run(self, sql: str, limits: Limits) -> list[tuple[Any, ...]]:
        checked = self._checked.get(sql)
        if checked is None:
            checked = self._checked[sql] = one_select(sql, self.spec.where, self.dialect)
        cursor = self._open().cursor()
        timed_out = _cancel_after(cursor, limits.timeout_s)
        try:
            cursor.execute(checked)
            rows = [tuple(r) for r in cursor.fetchmany(limits.row_cap + 1)]
        except self._errors as exc:
            if timed_out.is_set():
                raise QueryTimeout(f"{self.spec.where}: query cancelled after "
                                   f"{limits.timeout_s:g} s.") from None
            raise ExecutionError(f"{self.spec.where}: the warehouse could not run the query: "
                                 f"{self._reason(exc)}") from None
        finally:
            timed_out.timer.cancel()
            cursor.close()
        return within_cap(rows, limits)

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        """Table → columns of the configured schema (information_schema, as each exposes it)."""
        from sqlglot import exp

        schema = self.spec.settings.get("schema") or self.spec.settings.get("dataset")
        source = exp.to_table("information_schema.columns")
        query = exp.select("table_name", "column_name", "data_type")
        if self.spec.kind == "bigquery" and schema:  # a dataset's own information_schema
            source = exp.Table(this=exp.to_identifier("columns"), db=exp.to_identifier(
                "information_schema"), catalog=exp.to_identifier(schema, quoted=True))
        elif schema:
            query = query.where(exp.func("lower", exp.column("table_schema")).eq(
                exp.Literal.string(schema.lower())))
        sql = query.from_(source).order_by("table_name", "ordinal_position").sql(self.dialect)
        out: dict[str, list[tuple[str, str]]] = {}
        for table, column, kind in self._execute_plain(sql):
            out.setdefault(str(table).lower(), []).append((str(column).lower(), str(kind)))
        return out

    def close(self) -> None:
        con, self.connection = self.connection, None
        if con is not None:
            con.close()

    def __repr__(self) -> str:
        return f"CloudEngine({self.spec.where})"

    def _open(self) -> Any:
        if self.connection is None:
            raise ExecutionError(f"{self.spec.where}: the engine is closed.")
        return self.connection

    def _execute_plain(self, sql: str, doing: str = "") -> list[tuple[Any, ...]]:
        """The engine's own statements (session settings, the catalog), not governed SQL; a
        service that does not answer within the login timeout is reported, not waited for (the
        BigQuery driver connects lazily and retries a refused request until cancelled)."""
        cursor = self._open().cursor()
        timed_out = _cancel_after(cursor, self._login_timeout_s)
        try:
            cursor.execute(sql)
            return [tuple(r) for r in cursor.fetchall()] if cursor.description else []
        except self._errors as exc:
            silent = (f"no answer within {self._login_timeout_s:g} s: "
                      if timed_out.is_set() else "")
            raise EngineUnavailable(f"{self.spec.where}: {doing}{silent}{self._reason(exc)}; check "
                                    "the network, the settings and the credentials.") from None
        finally:
            timed_out.timer.cancel()
            cursor.close()

    def _reason(self, exc: BaseException) -> str:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        return self._scrub(" ".join(lines[:2])[:500] or type(exc).__name__)

    def _scrub(self, text: str) -> str:
        for secret in self.spec.secrets.values():
            if secret:
                text = text.replace(secret, "***")
        return text
