"""Execution on DuckDB: read-only, no external access, locked configuration, bounded."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from showwork.semantic_layer.duck import duckdb
from showwork.semantic_layer.errors import ExecutionError, QueryTimeout, RowCapExceeded, WarehouseMissing


@dataclass(frozen=True)
class Limits:
    """Resource limits for the governed connection."""

    memory: str = "2GB"
    """DuckDB memory_limit."""
    threads: int = 2
    timeout_s: float = 30.0
    """A query still running after this is interrupted."""
    row_cap: int = 5000
    """More rows than this is an error, never a silent truncation."""


def settings(limits: Limits) -> dict[str, Any]:
    """The DuckDB configuration of a governed connection (locked once it is set)."""
    return {"memory_limit": limits.memory, "threads": limits.threads,
            "autoload_known_extensions": False, "autoinstall_known_extensions": False}


def connect(path: Path, limits: Limits) -> duckdb.DuckDBPyConnection:
    if not path.exists():
        raise WarehouseMissing(f"No warehouse at {path}; run `showwork warehouse build` first.")
    config = {**settings(limits), "enable_external_access": False, "lock_configuration": True}
    return duckdb.connect(str(path), read_only=True, config=config)


def lock(con: duckdb.DuckDBPyConnection) -> None:
    """Close a connection that was loaded from files to the host, and freeze its configuration:
    what `connect` sets at open for a file, set after the load for an in-memory database."""
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


class Statements:
    """Each SQL text's one SELECT, parsed and checked by DuckDB once per connection.

    Only the text is kept, never rows: a kept statement is planned and run against the
    warehouse afresh on every call, so a changed warehouse gives fresh rows. DuckDB runs a
    copy of a kept statement, so calls on other cursors and threads may share it."""

    KEPT = 256
    """Statements kept (cleared when full)."""

    def __init__(self) -> None:
        self._kept: dict[str, Any] = {}

    def get(self, cursor: duckdb.DuckDBPyConnection, sql: str) -> Any:
        found = self._kept.get(sql)
        if found is None:
            if len(self._kept) >= self.KEPT:
                self._kept.clear()
            found = self._kept[sql] = _one_select(cursor, sql)
        return found


def run(con: duckdb.DuckDBPyConnection, sql: str, limits: Limits,
        statements: Statements | None = None) -> list[tuple[Any, ...]]:
    """Run one SELECT on its own cursor; interrupt it past the timeout."""
    cursor = con.cursor()
    timed_out = threading.Event()

    def interrupt() -> None:
        timed_out.set()
        cursor.interrupt()

    timer = threading.Timer(limits.timeout_s, interrupt)
    timer.start()
    try:
        statement = statements.get(cursor, sql) if statements else _one_select(cursor, sql)
        rows = cursor.execute(statement).fetchmany(limits.row_cap + 1)
    except duckdb.Error as exc:
        if timed_out.is_set():
            raise QueryTimeout(f"Query interrupted after {limits.timeout_s:g} s.") from exc
        raise ExecutionError(f"The warehouse could not run the query: {exc}") from exc
    finally:
        timer.cancel()
        cursor.close()
    return within_cap(rows, limits)


def _one_select(cursor: duckdb.DuckDBPyConnection, sql: str) -> Any:
    """The SQL's only statement, parsed once by DuckDB itself, if it is a SELECT."""
    statements = cursor.extract_statements(sql)
    kinds = [s.type.name for s in statements]
    if kinds != ["SELECT"]:
        raise ExecutionError(f"The governed connection runs exactly one SELECT; got "
                             f"{', '.join(kinds) or 'no statement'}.")
    return statements[0]


def within_cap(rows: list[tuple[Any, ...]], limits: Limits) -> list[tuple[Any, ...]]:
    """The rows, or RowCapExceeded when there are more than the cap (every engine's rule)."""
    if len(rows) > limits.row_cap:
        raise RowCapExceeded(f"The query returns more than {limits.row_cap} rows; "
                             "narrow it with filters, a coarser grain or a limit.")
    return rows
