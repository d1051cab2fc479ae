"""A real PostgreSQL server for tests and the benchmark: Debian's binaries, a temporary cluster
(initdb) started on a free loopback port with its unix socket in the cluster's folder, stopped at
the end.

The server refuses to run as root; as root the cluster belongs to the `postgres` OS user (Debian's
package makes it) and every server command runs through `runuser`. Two roles: an admin that loads
the warehouses, and `showwork_reader`, which may only connect and SELECT (what the engine uses).
DuckDB files are loaded table by table: DuckDB writes CSV, the server reads it with COPY.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import duckdb

ADMIN, ADMIN_PASSWORD = "showwork_admin", "admin-pw-0b7e"
READER, READER_PASSWORD = "showwork_reader", "reader-pw-5c21"
START_TIMEOUT_S = 60


def pg_bin() -> Path | None:
    """The folder of initdb and pg_ctl (Debian's /usr/lib/postgresql/N/bin, else PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


def postgres_missing() -> str | None:
    if pg_bin() is None:
        return "no PostgreSQL binaries (initdb, pg_ctl); apt-get install postgresql"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    return None


def skip_without_postgres() -> None:
    """Skip the calling module when PostgreSQL cannot run here; under CI that is an error."""
    import pytest

    why = postgres_missing()
    if why is None:
        return
    if os.environ.get("CI"):
        raise RuntimeError(f"CI must run the PostgreSQL tests: {why} (.ci/run installs it)")
    pytest.skip(why, allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One temporary cluster; `dsn(db)` connects as the read-only role over TCP."""

    def __init__(self) -> None:
        bin_dir = pg_bin()
        assert bin_dir is not None
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="showwork-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        (self.root / "pw").write_text(ADMIN_PASSWORD + "\n", encoding="utf-8")
        if self.as_postgres:
            shutil.chown(self.root / "pw", "postgres", "postgres")
        self._server(["initdb", "-D", str(self.data), "-U", ADMIN, "--pwfile",
                      str(self.root / "pw"), "--auth=scram-sha-256", "-E", "UTF8",
                      "--locale=C.UTF-8" if _has_c_utf8() else "--locale=C"])
        self.start()
        self._admin_sql("postgres", f"CREATE ROLE {READER} LOGIN PASSWORD '{READER_PASSWORD}'")

    def _server(self, argv: list[str]) -> None:
        cmd = [str(self.bin / argv[0]), *argv[1:]]
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=START_TIMEOUT_S)

    def start(self) -> None:
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                f"-c unix_socket_directories={self.root} -c fsync=off "
                "-c full_page_writes=off -c synchronous_commit=off")
        self._server(["pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", opts,
                      "-w", "-t", str(START_TIMEOUT_S), "start"])

    def stop(self) -> None:
        self._server(["pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def close(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    # -- connecting -----------------------------------------------------------------------------
    def dsn(self, db: str, user: str = READER, password: str = READER_PASSWORD) -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{db}"

    def admin(self, db: str = "postgres") -> Any:
        """An autocommit connection as the admin (psycopg)."""
        import psycopg

        return psycopg.connect(self.dsn(db, ADMIN, ADMIN_PASSWORD), autocommit=True)

    def _admin_sql(self, db: str, sql: str) -> None:
        with self.admin(db) as con:
            con.execute(sql)

    def rows(self, db: str, sql: str) -> list[tuple[object, ...]]:
        """Rows of `sql` as the admin (to check what the server holds)."""
        with self.admin(db) as con:
            return con.execute(sql).fetchall()

    # -- loading --------------------------------------------------------------------------------
    def load_duckdb(self, source: Path, db: str) -> list[str]:
        """A new database `db` holding every table of DuckDB file `source` (schema public),
        readable by the reader role only; the table names."""
        self._admin_sql("postgres", f'CREATE DATABASE "{db}"')
        work = Path(tempfile.mkdtemp(prefix="showwork-pg-load-"))
        try:
            copy = work / "source.duckdb"  # the original may be open under a locked configuration
            shutil.copy(source, copy)
            con = duckdb.connect(str(copy), read_only=True)
            try:
                tables = _duck_tables(con)
                with self.admin(db) as pg:
                    for table, columns in tables.items():
                        _copy_table(con, pg, table, columns, work)
                    pg.execute(f"GRANT CONNECT ON DATABASE \"{db}\" TO {READER}")
                    pg.execute(f"GRANT USAGE ON SCHEMA public TO {READER}")
                    pg.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {READER}")
                    pg.execute("ANALYZE")
            finally:
                con.close()
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return sorted(tables)


def _has_c_utf8() -> bool:
    out = subprocess.run(["locale", "-a"], capture_output=True, text=True, check=False).stdout
    return any(line.lower() in ("c.utf8", "c.utf-8") for line in out.split())


def _duck_tables(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, str]]]:
    rows = con.execute("SELECT table_name, column_name, data_type FROM information_schema.columns "
                       "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
                       ).fetchall()
    out: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in rows:
        out.setdefault(table, []).append((column, kind))
    return out


def _copy_table(con: duckdb.DuckDBPyConnection, pg: Any, table: str,
                columns: list[tuple[str, str]], work: Path) -> None:
    from sqlglot import exp

    types = ", ".join(f'"{c}" {exp.DataType.build(k, dialect="duckdb").sql("postgres")}'
                      for c, k in columns)
    pg.execute(f'CREATE TABLE "{table}" ({types})')
    path = work / f"{table}.csv"
    con.execute(f"COPY \"{table}\" TO '{path}' (FORMAT csv, HEADER false)")
    with pg.cursor() as cur, cur.copy(f'COPY "{table}" FROM STDIN (FORMAT csv)') as copy, \
            path.open("rb") as f:
        while block := f.read(1 << 20):
            copy.write(block)
    path.unlink()
