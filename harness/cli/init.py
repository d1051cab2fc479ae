"""`showwork init`: a starter project from a warehouse, with what was inferred and why."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from showwork.harness.cli.common import err
from showwork.harness.init import InitResult, init_project


def init(folder: Path = typer.Argument(Path("."), help="Where to write the project (default: "
                                       "here)."),
         source: Path = typer.Option(..., "--from", help="A DuckDB file, or a folder of "
                                     "CSV/Parquet files (one table per file)."),
         name: str | None = typer.Option(None, help="Project name (default: the folder's)."),
         force: bool = typer.Option(False, "--force", help="Replace an earlier draft "
                                    "(showwork.yaml, governance.yaml, models/).")
         ) -> None:
    """Draft a project from a warehouse's tables: showwork.yaml, dbt semantic models and a
    governance draft, written only when the draft validates."""
    with err.status(f"drafting a project from {source}"):
        result = init_project(folder, source, name, force)
    err.print(roles_table(result))
    for warning in result.warnings:
        err.print(f"[yellow]warning:[/yellow] {warning}", highlight=False)
    for path in result.written:
        print(path)
    where = "" if folder == Path(".") else f" --project {folder}"
    err.print(f"drafted {len(result.written)} files; review models/ and governance.yaml, then: "
              f"showwork semantic validate{where} · showwork semantic catalog{where}",
              highlight=False)


def roles_table(result: InitResult) -> Table:
    """column → role → reason, for every column init read."""
    table = Table("column", "role", "reason", title="What init inferred", title_justify="left")
    for r in result.roles:
        table.add_row(f"{r.table}.{r.column}", r.role, r.reason)
    return table
