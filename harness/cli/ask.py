"""`showwork ask` (its re-audit sibling, `showwork audit`, is harness/cli/audit.py).

The command's parameters are `params.ASK`, read here by typer and by the lean entry
(`showwork.cli.main`) without it; what the command does is `asking.ask`, which both call.
"""

from __future__ import annotations

from showwork.harness.cli import asking
from showwork.harness.cli.params import ASK, by_name

_P = by_name(ASK)


def ask(question: str = _P["question"].typer(), model: str = _P["model"].typer(),
        config: str = _P["config"].typer(), as_json: bool = _P["as_json"].typer(),
        project: str | None = _P["project"].typer(), otel: bool = _P["otel"].typer()) -> None:
    """Ask one question; print the answer, each claim's support, and the serving decision."""
    asking.ask(question, model, config, as_json, project, otel)
