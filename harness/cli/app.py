"""The `showwork` app, built explicitly: each command module is registered here, by name.

A command's module is imported only when that command runs (or its own `--help` is asked), so
`showwork --help` and `showwork audit` never load DuckDB, sqlglot, dbt-semantic-interfaces or
the benchmarks. The command list shows each command's help read from its source (`lazy.py`).
"""

from __future__ import annotations

import errno
import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING

from showwork.harness.cli.lazy import Lazy, import_paused, lazy_group

if TYPE_CHECKING:  # typer loads where the app is built (after the CLI's code cache is in place)
    import typer

HELP = ("showwork: claim-audit middleware for analytics agents. A tick means the support link "
        "resolves; it does not mean the conclusion is true.")

COMMANDS = (
    Lazy("ask", "showwork.harness.cli.ask", "ask"),
    Lazy("audit", "showwork.harness.cli.audit", "audit_cmd"),
    Lazy("mcp", "showwork.harness.cli.mcp", "mcp"),
    Lazy("init", "showwork.harness.cli.init", "init"),
    Lazy("experiment", "showwork.harness.cli.experiment", "experiment"),
    Lazy("demo", "showwork.harness.cli.experiment", "demo"),
    Lazy("report", "showwork.harness.cli.experiment", "report"),
    Lazy("findings", "showwork.harness.cli.experiment", "findings"),
    Lazy("serve", "showwork.harness.cli.experiment", "serve"),
    Lazy("semantic", "showwork.harness.cli.semantic", "semantic_app"),
    Lazy("warehouse", "showwork.harness.cli.semantic", "warehouse_app"),
    Lazy("cache", "showwork.harness.cli.cache", "cache_app"),
)


def build_app(extra: tuple[Lazy, ...] = ()) -> typer.Typer:
    """A fresh app with every harness command; callers may add more (the bench commands)."""
    import typer

    app = typer.Typer(help=HELP, no_args_is_help=True, pretty_exceptions_enable=False,
                      cls=lazy_group(COMMANDS + extra))

    @app.callback()
    def _root() -> None:
        pass  # a callback makes the app a group even before any command has loaded

    return app


def run(app: typer.Typer, args: list[str] | None = None) -> None:
    """Run the app; an error of ours becomes its message on stderr and an exit code."""
    words = sys.argv[1:] if args is None else args
    guarded(lambda: app(args=args), logs=bool(words) and "--help" not in words)


def run_lean(words: list[str]) -> bool:
    """Run `showwork ask …` without typer when its parameters parse plainly (params.py), as
    typer would run it; False (nothing run) where typer must parse them."""
    if words[:1] != ["ask"]:
        return False
    from showwork.harness.cli.params import ASK, parse

    if (values := parse(ASK, words[1:])) is None:
        return False
    asking = import_paused("showwork.harness.cli.asking")
    guarded(lambda: _as_typer_would(lambda: asking.ask(**values)), logs=True)
    return True


def _as_typer_would(call: Callable[[], None]) -> None:
    """What typer's main adds around a command: ^C exits 130 and a closed pipe exits 1, both
    silently; an end of input is its 'Aborted' (typer's own words, which load typer)."""
    try:
        call()
    except KeyboardInterrupt:
        sys.exit(130)
    except EOFError:
        print(file=sys.stderr)
        from typer import rich_utils

        rich_utils.rich_abort_error()
        sys.exit(1)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        from typer._click.utils import PacifyFlushWrapper  # what typer's main wraps them in

        sys.stdout = PacifyFlushWrapper(sys.stdout)
        sys.stderr = PacifyFlushWrapper(sys.stderr)
        sys.exit(1)


def guarded(call: Callable[[], None], logs: bool) -> None:
    """Run a command; an error of ours becomes its message on stderr and an exit code."""
    from showwork.harness.cli.errors import INTERNAL, ROOTS, describe, exit_code

    if logs:  # help never logs: it need not load structlog
        from showwork.harness.logs import configure

        configure()
    try:
        call()
    except ROOTS as exc:
        from rich.console import Console

        err = Console(stderr=True, highlight=False, soft_wrap=True)
        for line in describe(exc):
            err.print(line, markup=False)
        sys.exit(exit_code(exc))
    except Exception:  # a bug: said as one, with its traceback, under its own exit code
        traceback.print_exc()
        print("internal error: this is a bug in showwork, not in your project or question; "
              "please report it with the traceback above.", file=sys.stderr)
        sys.exit(INTERNAL)
