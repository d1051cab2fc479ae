"""DuckDB's engine for governed connections, without its Python package's relational API.

`import duckdb` (2.x) runs the package's pure-Python relational and expression layer (about
4,600 lines and 30 dataclasses) before its first `connect`, about two thirds of the import; a
governed connection only executes SQL and fetches rows, which the engine module `_duckdb` does
alone, with the same classes, results and errors. DuckDB 1.x has no such module and imports
whole. Hand-written SQL gets the whole package (`full()`): its import adds the relational API
to the same connection class, so a connection opened here has it too.
"""

from __future__ import annotations

from types import ModuleType

try:
    import _duckdb as duckdb
except ImportError:  # DuckDB 1.x: the engine is the package
    import duckdb  # type: ignore[no-redef]

__all__ = ["duckdb", "full"]


def full() -> ModuleType:
    """The `duckdb` package, imported (so every connection has its relational API)."""
    import duckdb as package

    return package
