"""showwork as an MCP server: the governed tools and the audit for any agent (`showwork mcp`)."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp.server.stdio import stdio_server

from showwork.harness.cli.common import open_layer
from showwork.harness.home import home
from showwork.harness.mcp.server import ShowworkMcp


def trace_store() -> Path:
    """Where every MCP session's trace goes: $SHOWWORK_HOME/mcp/traces.jsonl."""
    return home() / "mcp" / "traces.jsonl"


def serve(port: int | None = None) -> None:
    """Serve stdio (one client, one session), or streamable HTTP on 127.0.0.1:PORT."""
    layer = open_layer()
    try:
        app = ShowworkMcp(layer, trace_store(), http=port is not None)
        if port is None:
            anyio.run(serve_stdio, app)
        else:
            from showwork.harness.mcp.http import serve_http  # uvicorn and starlette only for HTTP

            serve_http(app, port)
    finally:
        layer.close()


async def serve_stdio(app: ShowworkMcp) -> None:
    async with stdio_server() as (read, write):
        await app.server.run(read, write, app.server.create_initialization_options())


__all__ = ["ShowworkMcp", "serve", "serve_stdio", "trace_store"]
