"""The `showwork` app, built explicitly: each command module is registered here, by name."""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from harness.cli import ask, experiment, init, mcp, semantic
from harness.cli.errors import ROOTS, describe, exit_code
from harness.logs import configure

HELP = ("showwork: claim-audit middleware for analytics agents. A tick means the support link "
        "resolves; it does not mean the conclusion is true.")


def build_app() -> typer.Typer:
    """A fresh app with every harness command; callers may add more (the bench commands)."""
    app = typer.Typer(help=HELP, no_args_is_help=True, pretty_exceptions_enable=False)
    app.command("ask")(ask.ask)
    app.command("audit")(ask.audit_cmd)
    app.command("mcp")(mcp.mcp)
    app.command("init")(init.init)
    for command in (experiment.experiment, experiment.demo, experiment.report,
                    experiment.findings, experiment.serve):
        app.command()(command)
    app.add_typer(semantic.semantic_app, name="semantic")
    app.add_typer(semantic.warehouse_app, name="warehouse")
    return app


def run(app: typer.Typer, args: list[str] | None = None) -> None:
    """Run the app; an error of ours becomes its message on stderr and an exit code."""
    configure()
    try:
        app(args=args)
    except ROOTS as exc:
        err = Console(stderr=True, highlight=False, soft_wrap=True)
        for line in describe(exc):
            err.print(line, markup=False)
        sys.exit(exit_code(exc))
