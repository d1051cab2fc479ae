"""A DuckDB file as the warehouse: read-only, no external access, locked (execute.connect)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from showwork.semantic_layer.duck import duckdb, full
from showwork.semantic_layer.execute import Limits, Statements, connect, run

COLUMNS = """SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
WHERE table_catalog = current_database() AND table_schema NOT IN ('information_schema', 'pg_catalog')
ORDER BY table_schema, table_name, ordinal_position"""


class DuckDBEngine:
    """A governed DuckDB connection; `connection` is open for hand-written SQL over it."""

    name = "duckdb"
    dialect = "duckdb"

    def __init__(self, path: Path, limits: Limits) -> None:
        self.path = path
        self._connection: duckdb.DuckDBPyConnection | None = connect(path, limits)
        self.statements = Statements()

    @property
    def connection(self) -> duckdb.DuckDBPyConnection | None:
        """The open connection (None once closed), with DuckDB's whole Python API."""
        full()
        return self._connection

    def run(self, sql: str, limits: Limits) -> list[tuple[Any, ...]]:
        return run(self._open(), sql, limits, self.statements)

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        return columns_of(self._open())

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _open(self) -> duckdb.DuckDBPyConnection:
        if self._connection is None:
            raise RuntimeError(f"The DuckDB engine over {self.path} is closed.")
        return self._connection

    def __repr__(self) -> str:
        return f"DuckDBEngine({str(self.path)!r})"


def columns_of(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, str]]]:
    """Table → [(column, type)] of a DuckDB database (`schema.table` outside `main`)."""
    cursor = con.cursor()
    try:
        rows = cursor.execute(COLUMNS).fetchall()
    finally:
        cursor.close()
    out: dict[str, list[tuple[str, str]]] = {}
    for schema, table, column, kind in rows:
        out.setdefault(table if schema == "main" else f"{schema}.{table}", []).append((column, kind))
    return out
