"""Warehouse engines: where governed SQL runs (DESIGN.md, "Projects": showwork.yaml's `warehouse:`).

- `{"duckdb": "warehouse.duckdb"}` (or a bare path): a DuckDB file, read-only and locked;
- `{"files": "data/"}`: every *.csv and *.parquet of a folder, one table per file named by its
  stem, loaded into an in-memory DuckDB at open and then locked the same way;
- `{"spark": {"master": "local[2]", "tables": {"orders": "data/orders.parquet"}}}` or
  `{"spark": {"remote": "sc://127.0.0.1:15002"}}`: Spark, local or over Spark Connect, tables
  from Parquet paths or the session catalog (pyspark is the optional extra `showwork[spark]`);
- `{"postgres": {"dsn_env": "SHOWWORK_PG_DSN", "schema": "public"}}`: PostgreSQL over psycopg
  (the optional extra `showwork[postgres]`), read-only on the server too;
- `{"snowflake": {...}}`, `{"bigquery": {...}}`, `{"databricks": {...}}`: their maintained drivers
  (engines/cloud.py; the extras of the same names), secrets from the environment only.

Every engine runs one governed SELECT at a time under the same `Limits`: a timeout that cancels
the query, and a row cap that is an error, never a truncation.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from showwork.semantic_layer.errors import WarehouseMissing, WarehouseSpecError
from showwork.semantic_layer.execute import Limits

KINDS = ("duckdb", "files", "spark", "postgres", "snowflake", "bigquery", "databricks")


class Engine(Protocol):
    """A warehouse the semantic layer compiles for and runs on."""

    name: str
    """duckdb, files, spark or postgres."""
    dialect: str
    """The sqlglot dialect the compiler targets: duckdb, spark or postgres."""

    def run(self, sql: str, limits: Limits) -> list[tuple[Any, ...]]:
        """Rows of one SELECT; QueryTimeout past the timeout (the query is cancelled),
        RowCapExceeded past the row cap, ExecutionError for anything but one SELECT."""
        ...

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        """Table → [(column, type)], types in the engine's own names (`schema.table` outside
        the default schema)."""
        ...

    def close(self) -> None:
        """Release the warehouse; closing twice is harmless."""
        ...


def open_engine(spec: Mapping[str, Any] | Path | str | None, base: Path,
                limits: Limits | None = None, project: str | None = None) -> Engine:
    """The engine showwork.yaml's `warehouse:` value names; relative paths resolve against
    `base`, the folder of showwork.yaml. A bare path is a DuckDB file. A server's errors name
    `project`."""
    limits = limits or Limits()
    if spec is None:
        raise WarehouseMissing("The project names no warehouse: add `warehouse:` to showwork.yaml "
                               "with duckdb: FILE, files: FOLDER, spark: {master: …} / "
                               "{remote: sc://…}, postgres: {dsn_env: VAR}, snowflake: {…}, "
                               "bigquery: {…} or databricks: {…}.")
    if isinstance(spec, Path | str):
        spec = {"duckdb": spec}
    if not isinstance(spec, Mapping) or len(spec) != 1 or next(iter(spec)) not in KINDS:
        keys = ", ".join(map(str, spec)) if isinstance(spec, Mapping) else type(spec).__name__
        raise WarehouseSpecError(f"warehouse: expected one of {', '.join(KINDS)} as its only key; "
                                 f"got {keys or 'nothing'}.")
    ((kind, value),) = spec.items()
    if kind == "duckdb":
        from showwork.semantic_layer.engines.duckdb import DuckDBEngine

        path = resolve(base, value, "warehouse.duckdb")
        if not path.is_file():
            raise WarehouseMissing(f"No DuckDB file at {path} (warehouse: duckdb:); build it or "
                                   "fix the path.")
        return DuckDBEngine(path, limits)
    if kind == "files":
        from showwork.semantic_layer.engines.files import FilesEngine

        return FilesEngine(resolve(base, value, "warehouse.files"), limits)
    if kind == "postgres":
        from showwork.semantic_layer.engines.postgres import PostgresEngine

        return PostgresEngine.open(value, limits, project)
    if kind in ("snowflake", "bigquery", "databricks"):
        from showwork.semantic_layer.engines.cloud import CloudEngine

        return CloudEngine.open(kind, value, limits, project, base)
    from showwork.semantic_layer.engines.spark import SparkEngine

    return SparkEngine.open(value, base)


def resolve(base: Path, value: Any, where: str) -> Path:
    """`value` as a path, relative to `base` unless absolute."""
    if not isinstance(value, str | Path) or not str(value).strip():
        raise WarehouseSpecError(f"{where}: expected a path, got {value!r}.")
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path
