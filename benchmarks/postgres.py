"""The PostgreSQL side of `showwork bench semantic --engine postgres`: the project's own
PostgreSQL warehouse, or, for a DuckDB (or files) project, the same tables loaded into a
temporary cluster of the machine's PostgreSQL (benchmarks/pg_cluster.py), stopped at exit.

Both SQL texts of a case then run through the same PostgresEngine.run (one read-only
transaction with its statement_timeout per call), so the ratio is governed over hand-written
SQL on the same server."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from showwork.semantic_layer.engines import Engine, open_engine
from showwork.semantic_layer.errors import EngineUnavailable
from showwork.semantic_layer.execute import Limits

DSN_ENV = "SHOWWORK_BENCH_PG_DSN"
"""Where the engine reads the temporary cluster's DSN from (never printed: it holds a password)."""


def postgres_engine(name: str, warehouse: dict[str, Any], root: Path, limits: Limits) -> Engine:
    """The project's PostgreSQL, else its DuckDB tables on a temporary local cluster."""
    if "postgres" in warehouse:
        return open_engine(warehouse, root, limits, project=name)
    from showwork.benchmarks.pg_cluster import PostgresServer, postgres_missing

    why = postgres_missing()
    if why is not None:
        raise EngineUnavailable(f"PostgreSQL: {why}.")
    server = PostgresServer()
    atexit.register(server.close)
    server.load_duckdb(_duckdb_file(warehouse, root), "bench")
    os.environ[DSN_ENV] = server.dsn("bench")
    return open_engine({"postgres": {"dsn_env": DSN_ENV}}, root, limits, project=name)


def _duckdb_file(warehouse: dict[str, Any], root: Path) -> Path:
    """The warehouse as one DuckDB file (a files folder is loaded into a temporary one)."""
    if "duckdb" in warehouse:
        path = Path(warehouse["duckdb"])
        return path if path.is_absolute() else root / path
    import duckdb

    from showwork.semantic_layer.engines.files import load, table_files

    work = Path(tempfile.mkdtemp(prefix="showwork-bench-files-"))
    atexit.register(shutil.rmtree, work, True)
    out = work / "files.duckdb"
    con = duckdb.connect(str(out))
    try:
        for table, path in table_files(root / warehouse["files"]).items():
            load(con, table, path)
    finally:
        con.close()
    return out
