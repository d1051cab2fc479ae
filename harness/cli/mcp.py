"""`showwork mcp`: the governed tools and the audit as an MCP server."""

from __future__ import annotations

import typer


def mcp(http: int | None = typer.Option(
        None, "--http", min=1, max=65535, metavar="PORT",
        help="Serve streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio.")) -> None:
    """Serve catalog, query, compare and submit_answer over MCP; one trace per MCP session,
    appended to $SHOWWORK_HOME/mcp/traces.jsonl."""
    from harness.mcp import serve  # the MCP SDK loads only for this command

    serve(http)
