"""showwork's own word on a CSV file DuckDB cannot read as a table: the file, the line and what
is wrong with it, instead of DuckDB's sniffer report (which names options showwork cannot
pass). DuckDB may also read a file with a ragged row as one text column without complaint;
that is caught here too."""

from __future__ import annotations

import csv
from pathlib import Path

SAMPLE = 64_000
"""Characters read to guess the delimiter."""
DELIMITERS = ",;\t|"


def csv_problem(path: Path) -> str | None:
    """The first thing wrong with a CSV's shape, as 'FILE:LINE: what is wrong; the fix', or
    None when every row has the header's number of fields."""
    try:
        with path.open(newline="", encoding="utf-8") as f:
            sample = f.read(SAMPLE)
            f.seek(0)
            try:
                dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, DELIMITERS)
            except csv.Error:
                dialect = csv.excel
            reader = csv.reader(f, dialect)
            header = next(reader, None)
            if not header:
                return f"{path}:1: the file is empty; a table file starts with a header line."
            for row in reader:
                if row and len(row) != len(header):
                    return (f"{path}:{reader.line_num}: this row has {len(row)} field"
                            f"{'s' if len(row) != 1 else ''}, the header has {len(header)} "
                            f"({', '.join(header)}); fix or remove the row.")
    except UnicodeDecodeError as exc:
        return f"{path}: byte {exc.start} is not UTF-8; save the file as UTF-8."
    except csv.Error as exc:
        return f"{path}: {exc}; fix the quoting on that line."
    return None


def first_line(exc: BaseException) -> str:
    """An error's first line: DuckDB's message without its sniffer report."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
