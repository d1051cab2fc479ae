"""`showwork init`: a starter project from a warehouse."""

from __future__ import annotations

from pathlib import Path

import typer

from harness.cli.common import err
from harness.init import init_project


def init(folder: Path = typer.Argument(Path("."), help="Where to write the project (default: "
                                       "here)."),
         source: Path = typer.Option(..., "--from", help="A DuckDB file, or a folder of "
                                     "CSV/Parquet files (one table per file)."),
         name: str | None = typer.Option(None, help="Project name (default: the folder's).")
         ) -> None:
    """Draft a project from a warehouse's tables: showwork.yaml and dbt semantic models to review."""
    with err.status(f"drafting a project from {source}"):
        written = init_project(folder, source, name)
    for path in written:
        print(path)
    where = "" if folder == Path(".") else f" --project {folder}"
    err.print(f"drafted {len(written)} files; review models/, then: showwork semantic validate"
              f"{where} · showwork semantic catalog{where}", highlight=False)
