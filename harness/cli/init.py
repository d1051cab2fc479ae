"""`showwork init`: a starter project from a warehouse, with what was inferred and why;
`showwork init --review DIR`: the draft decisions still to sign off."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from showwork.harness.cli.common import err
from showwork.harness.init import DraftInvalid, DraftMark, InitResult, Role, init_project, review


def init(folder: Path = typer.Argument(Path("."), help="Where to write the project (default: "
                                       "here); with --review, the project to review."),
         source: Path | None = typer.Option(None, "--from", help="A DuckDB file, or a folder "
                                            "of CSV/Parquet files (one table per file)."),
         name: str | None = typer.Option(None, help="Project name (default: the folder's)."),
         force: bool = typer.Option(False, "--force", help="Replace an earlier draft "
                                    "(showwork.yaml, governance.yaml, models/)."),
         review_: bool = typer.Option(False, "--review", help="List every metric and "
                                      "dimension still marked as drafted, with the inference "
                                      "it rests on, for sign-off.")
         ) -> None:
    """Draft a project from a warehouse's tables: showwork.yaml, dbt semantic models and a
    governance draft, written only when the draft validates."""
    if review_:
        marks = review(folder)
        err.print(review_table(marks))
        err.print(f"{len(marks)} draft decision(s) to review; sign one off by deleting its "
                  "config.meta.showwork.draft mark", highlight=False)
        return
    if source is None:
        raise typer.BadParameter("give --from PATH (a DuckDB file or a folder of CSV/Parquet "
                                 "files), or --review to list a draft's decisions")
    try:
        with err.status(f"drafting a project from {source}"):
            result = init_project(folder, source, name, force)
    except DraftInvalid as exc:  # nothing written: still show what was inferred, then why not
        err.print(roles_table(exc.roles))
        _warn(exc.warnings)
        raise
    err.print(roles_table(result.roles))
    _warn(result.warnings)
    for path in result.written:
        print(path)
    where = "" if folder == Path(".") else f" --project {folder}"
    err.print(f"drafted {len(result.written)} files; review models/ and governance.yaml "
              f"(showwork init --review {folder}), then: showwork semantic validate{where} · "
              f"showwork semantic catalog{where}", highlight=False)


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        err.print(f"[yellow]warning:[/yellow] {warning}", highlight=False)


def roles_table(roles: list[Role] | InitResult) -> Table:
    """column → role → reason, for every column init read."""
    if isinstance(roles, InitResult):
        roles = roles.roles
    table = Table("column", "role", "reason", title="What init inferred", title_justify="left")
    for r in roles:
        table.add_row(f"{r.table}.{r.column}", r.role, r.reason)
    return table


def review_table(marks: list[DraftMark]) -> Table:
    """kind → name → the inference, for every draft mark."""
    table = Table("kind", "name", "drafted on", title="Draft decisions to review",
                  title_justify="left")
    for mark in marks:
        table.add_row(mark.kind, mark.name, mark.inference)
    return table
