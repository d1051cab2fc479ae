"""The `showwork` command line. Errors become one clear line on stderr and a non-zero exit."""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from analyst.errors import AnalystError
from harness.cli_semantic import semantic_app, warehouse_app
from harness.logs import configure
from protocol.errors import ProtocolError
from semantic_layer.errors import SemanticError

app = typer.Typer(help="showwork: claim-audit middleware for analytics agents. A tick means the "
                  "support link resolves; it does not mean the conclusion is true.",
                  no_args_is_help=True, pretty_exceptions_enable=False)
app.add_typer(semantic_app, name="semantic")
app.add_typer(warehouse_app, name="warehouse")
err = Console(stderr=True)


def main() -> None:
    configure()
    from harness import cli_ask, cli_bench, cli_experiment  # noqa: F401  (register commands)
    try:
        app()
    except SemanticError as exc:
        err.print(f"[red]blocked:[/red] {exc.message}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except (AnalystError, ProtocolError) as exc:
        err.print(f"[red]error:[/red] {exc.message}", highlight=False, soft_wrap=True)
        sys.exit(2)
