"""`showwork ask` (its re-audit sibling, `showwork audit`, is harness/cli/audit.py)."""

from __future__ import annotations

import typer

from showwork.analyst.registry import make_client
from showwork.harness import otel as otel_spans
from showwork.harness.cli.common import (
    ProjectOpt,
    open_layer,
    open_project,
)
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.home import home
from showwork.protocol.switches import Protocol
from showwork.traces import append


def ask(question: str = typer.Argument(..., help="The business question."),
        model: str = typer.Option("rules", help="rules, noisy:rules?…, openai:MODEL, "
                                  "replay:PATH"),
        config: str = typer.Option("claims+repair", help="Protocol switches, e.g. "
                                   "claims+repair+purpose."),
        as_json: bool = typer.Option(False, "--json", help="Print the trace as JSON."),
        project: str | None = ProjectOpt, otel: bool = otel_spans.option()) -> None:
    """Ask one question; print the answer, each claim's support, and the serving decision."""
    if otel:
        otel_spans.enable()
    protocol = Protocol.parse(config)
    client = make_client(model)
    layer = open_layer(open_project(project))
    try:
        trace = run_attempt(Question("ask", question), client, layer, protocol)
    finally:
        layer.close()
    trace = append(home() / "asks" / "traces.jsonl", trace)
    if as_json:
        print(trace.model_dump_json(indent=2))
        return
    from rich.console import Console  # here: a --json ask prints no rich output

    from showwork.harness.present.display import show_trace

    show_trace(Console(highlight=False), trace)
