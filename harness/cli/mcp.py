"""`showwork mcp`: the governed tools and the audit as an MCP server."""

from __future__ import annotations

import os

import typer

from showwork.harness import otel as otel_spans
from showwork.harness.cli.common import ProjectOpt
from showwork.harness.cli.params import OTEL
from showwork.harness.project import ENV_VAR, locate


def mcp(http: int | None = typer.Option(
        None, "--http", min=1, max=65535, metavar="PORT",
        help="Serve streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio."),
        project: str | None = ProjectOpt, otel: bool = OTEL.typer()) -> None:
    """Serve catalog, query, compare and submit_answer over MCP; one trace per MCP session,
    appended to $SHOWWORK_HOME/mcp/traces.jsonl."""
    if otel:
        otel_spans.enable()
    from showwork.harness.mcp import serve  # the MCP SDK loads only for this command

    if project is not None:
        # the server opens the project SHOWWORK_PROJECT names; --project is that, for this process
        os.environ[ENV_VAR] = str(locate(project).resolve())
    serve(http)
