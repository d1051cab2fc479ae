"""What `showwork ask` does once its parameters are read (by typer or by the lean entry)."""

from __future__ import annotations

from showwork.analyst.registry import make_client
from showwork.harness import otel as otel_spans
from showwork.harness.cli.common import open_layer, open_project
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.home import home
from showwork.protocol.switches import Protocol
from showwork.traces import append


def ask(question: str, model: str, config: str, as_json: bool, project: str | None,
        otel: bool) -> None:
    """Run one attempt, append its trace to $SHOWWORK_HOME/asks, and print it."""
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
    from showwork.harness.present.display import show_trace  # here: --json prints no display
    from showwork.harness.present.plain import stdout_console

    show_trace(stdout_console(), trace)
