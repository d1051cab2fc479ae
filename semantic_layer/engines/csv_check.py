"""showwork's own word on a CSV file DuckDB cannot read as a table, or reads as something other
than the table the file means: the file, the line and what is wrong with it, instead of DuckDB's
sniffer report (which names options showwork cannot pass) or a silent table. DuckDB reads a file
with a ragged row as one text column, an unclosed quote as a literal `"`, and a file with no
header line as columns `column0…`, all without complaint; those are caught here."""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SAMPLE = 64_000
"""Characters read to guess the delimiter."""
DELIMITERS = ",;\t|"
GENERATED = re.compile(r"column\d+")
"""The names DuckDB gives the columns of a file it read as having no header line."""


def csv_problem(path: Path) -> str | None:
    """The first thing wrong with a CSV's shape, as 'FILE:LINE: what is wrong; the fix', or
    None when every row has the header's number of fields and every quote is closed."""
    try:
        with path.open(newline="", encoding="utf-8") as f:
            sample = f.read(SAMPLE)
            f.seek(0)
            try:
                dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, DELIMITERS)
            except csv.Error:
                dialect = csv.excel
            return _rows_problem(path, csv.reader(f, dialect, strict=True), dialect.delimiter)
    except UnicodeDecodeError as exc:
        return f"{path}: byte {exc.start} is not UTF-8; save the file as UTF-8."


def _rows_problem(path: Path, reader: Any, delimiter: str) -> str | None:
    started = 1  # the line the record being read starts on
    try:
        header = next(reader, None)
        if not header:
            return f"{path}:1: the file is empty; a table file starts with a header line."
        started = reader.line_num + 1
        for row in reader:
            if row and len(row) != len(header):
                return _ragged(path, started, row, header, delimiter)
            started = reader.line_num + 1
    except csv.Error as exc:
        if "end of data" in str(exc) or "EOF" in str(exc):
            return (f"{path}:{started}: a quoted field opened on this line is never closed; "
                    "close the quote (or double a quote inside a quoted field: \"\").")
        return f"{path}:{reader.line_num}: {exc}; fix the quoting on that line."
    return None


def _ragged(path: Path, line: int, row: Sequence[str], header: Sequence[str],
            delimiter: str) -> str:
    where = f"{path}:{line}: this row has {len(row)} field{'s' if len(row) != 1 else ''}, " \
            f"the header has {len(header)} ({', '.join(header)})"
    text = delimiter.join(row)
    other = next((d for d in DELIMITERS if d != delimiter
                  and text.count(d) == len(header) - 1), None)
    if other is not None:
        return (f"{where}: this row is separated by {other!r}, the header by {delimiter!r}; "
                "use one delimiter throughout the file.")
    return f"{where}; fix or remove the row."


def header_problem(path: Path, columns: Sequence[str]) -> str | None:
    """The file has no header line (DuckDB named its columns column0, column1, …)."""
    if not columns or not all(GENERATED.fullmatch(c) for c in columns):
        return None
    with path.open(encoding="utf-8", errors="replace") as f:
        first = f.readline().strip()
    if all(GENERATED.fullmatch(c.strip().strip('"')) for c in re.split(r"[,;\t|]", first)):
        return None  # the header really says column0, column1, …
    return (f"{path}:1: the first line ({first[:80]}) holds data, not column names; add a "
            "header line naming each column.")


def first_line(exc: BaseException) -> str:
    """An error's first line: DuckDB's message without its sniffer report."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
