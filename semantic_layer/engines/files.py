"""A folder of CSV and Parquet files as the warehouse: one table per file, named by its stem,
loaded into an in-memory DuckDB at open; then the connection is locked as a file's is (no
external access, configuration frozen), so governed SQL reads the loaded tables and nothing else.

CSV types are inferred from the whole file (`sample_size=-1`). A column whose values are mostly of
one type but not all (`12.5`, `n/a`) would silently become text; that is refused instead, naming
the file, the column and the first value that does not fit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
from sqlglot import exp

from showwork.semantic_layer.engines.csv_check import csv_problem, first_line, header_problem
from showwork.semantic_layer.engines.duckdb import columns_of
from showwork.semantic_layer.errors import FileLoadError, MixedTypes, WarehouseMissing
from showwork.semantic_layer.execute import Limits, Statements, lock, run, settings

SUFFIXES = (".csv", ".parquet")
TYPES = ("DOUBLE", "TIMESTAMP", "BOOLEAN")
"""What a text column is tested against: numbers, dates and times, booleans."""
MOSTLY = 0.5
"""A text column is mixed when more than this share of its values are of one other type."""


class FilesEngine:
    """Tables loaded from files into an in-memory DuckDB; `connection` is open for hand-written
    SQL over them."""

    name = "files"
    dialect = "duckdb"

    def __init__(self, folder: Path, limits: Limits) -> None:
        self.folder = folder
        files = table_files(folder)
        con = duckdb.connect(":memory:", config=settings(limits))
        try:
            for table, path in files.items():
                load(con, table, path)
            lock(con)
        except BaseException:
            con.close()
            raise
        self.connection: duckdb.DuckDBPyConnection | None = con
        self.statements = Statements()

    def run(self, sql: str, limits: Limits) -> list[tuple[Any, ...]]:
        return run(self._open(), sql, limits, self.statements)

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        return columns_of(self._open())

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def _open(self) -> duckdb.DuckDBPyConnection:
        if self.connection is None:
            raise RuntimeError(f"The files engine over {self.folder} is closed.")
        return self.connection

    def __repr__(self) -> str:
        return f"FilesEngine({str(self.folder)!r})"


def table_files(folder: Path) -> dict[str, Path]:
    """Table name → file, for every CSV and Parquet file directly in `folder`."""
    if not folder.is_dir():
        raise WarehouseMissing(f"No folder at {folder} (warehouse: files:).")
    out: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.suffix.lower() not in SUFFIXES:
            continue
        if path.stem in out:
            raise FileLoadError(f"{out[path.stem].name} and {path.name} would both be table "
                                f"{path.stem!r}; keep one of them in {folder}.")
        out[path.stem] = path
    if not out:
        raise WarehouseMissing(f"{folder} holds no .csv or .parquet file (warehouse: files:).")
    return out


def load(con: duckdb.DuckDBPyConnection, table: str, path: Path) -> None:
    """Create `table` from one file; FileLoadError naming the file if DuckDB cannot read it."""
    try:
        if path.suffix.lower() == ".parquet":
            con.read_parquet(str(path)).create(table)
            return
        con.read_csv(str(path), sample_size=-1).create(table)
    except duckdb.Error as exc:
        raise FileLoadError(csv_problem(path) or f"{path}: could not be loaded as table "
                            f"{table!r}: {first_line(exc)}") from exc
    # DuckDB reads a ragged file as one text column, an unclosed quote as a literal, and a file
    # without a header as column0…: each is a table the file does not mean
    if problem := csv_problem(path) or header_problem(path, con.table(table).columns):
        raise FileLoadError(problem)
    check_types(con, table, path)


def check_types(con: duckdb.DuckDBPyConnection, table: str, path: Path) -> None:
    """MixedTypes for the first text column of `table` that is mostly, not wholly, one type."""
    for column, kind, n, present in _typed(con, table):
        if MOSTLY * present < n < present:
            raise _mixed(con, table, path, column, kind, (n, present))


def kept_as_text(con: duckdb.DuckDBPyConnection, table: str, path: Path) -> list[str]:
    """A note for each text column some of whose values (but at most half) read as another
    type: it stays text (no sums, no dates), which a person may not expect."""
    notes: dict[str, str] = {}
    for column, kind, n, present in _typed(con, table):
        if kind != "BOOLEAN" and 0 < n <= MOSTLY * present and column not in notes:
            notes[column] = (f"{path}: column {column!r} kept as text: {n} of its {present} "
                             f"values read as {kind}, the rest do not")
    return list(notes.values())


def _typed(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[str, str, int, int]]:
    """(column, type, values of that type, values present) for each text column and type."""
    texts = [name for name, kind in columns_of(con)[table] if kind == "VARCHAR"]
    if not texts:
        return []
    counts = _select(con, exp.select(*[agg for c in texts for agg in _counts(c)]).from_(
        _table(table)))[0]
    width = 1 + len(TYPES)
    out = []
    for i, column in enumerate(texts):
        present, *typed = counts[i * width:(i + 1) * width]
        out += [(column, kind, int(n), int(present)) for kind, n in zip(TYPES, typed, strict=True)
                if present]
    return out


def _counts(column: str) -> list[exp.Expr]:
    col = exp.column(exp.to_identifier(column, quoted=True))
    casts = [exp.TryCast(this=col.copy(), to=exp.DataType.build(t)) for t in TYPES]
    return [exp.Count(this=c) for c in (col, *casts)]


def _mixed(con: duckdb.DuckDBPyConnection, table: str, path: Path, column: str, kind: str,
           counts: tuple[int, int]) -> MixedTypes:
    col = exp.column(exp.to_identifier(column, quoted=True))
    cast = exp.TryCast(this=col.copy(), to=exp.DataType.build(kind))
    query = (exp.select(exp.column("rowid"), col).from_(_table(table))
             .where(exp.and_(exp.not_(col.copy().is_(exp.null())), cast.is_(exp.null())))
             .order_by(exp.column("rowid")).limit(1))
    ((row, value),) = _select(con, query)
    typed, present = counts
    # line: the header is line 1 and a record is one line (a quoted newline would shift it)
    return MixedTypes(f"{path}:{row + 2}: column {column!r} could not be typed: {typed} of its "
                      f"{present} values read as {kind} but {present - typed} do not, the first "
                      f"{value!r} (data row {row + 1}); fix those values (leave a missing value "
                      "empty), or write the file as Parquet with the column's type declared.")


def _table(name: str) -> exp.Table:
    return exp.Table(this=exp.to_identifier(name, quoted=True))


def _select(con: duckdb.DuckDBPyConnection, query: exp.Select) -> list[tuple[Any, ...]]:
    cursor = con.cursor()
    try:
        return cursor.execute(query.sql("duckdb")).fetchall()
    finally:
        cursor.close()
