"""`showwork mcp --http PORT`: streamable HTTP on 127.0.0.1 only, for this machine's clients.

Binding 127.0.0.1 does not keep web pages out: a page the user visits can point its own name at
127.0.0.1 (DNS rebinding) or post from its own origin. So before anything else runs, a request
must name this server in Host (else 421) and, if it carries an Origin, come from this server's
own origin (else 403). The SDK's transport security is set to the same exact names as a second
check. A session the client ends (DELETE) writes its trace before the reply goes out.
"""

from __future__ import annotations

import anyio.to_thread
import uvicorn
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from showwork.harness.mcp.server import SESSION_HEADER, Sessions, ShowworkMcp

HOST = "127.0.0.1"
NAMES = ("127.0.0.1", "localhost")
"""What a local client may call this server in Host (it listens on 127.0.0.1 only)."""
PATH = "/mcp"


def serve_http(app: ShowworkMcp, port: int) -> None:
    """Serve until interrupted; open sessions end (and write their traces) on shutdown."""
    config = uvicorn.Config(http_app(app, port), host=HOST, port=port, log_level="warning",
                            lifespan="on")
    uvicorn.Server(config).run()


def http_app(app: ShowworkMcp, port: int) -> ASGIApp:
    hosts = [f"{name}:{port}" for name in NAMES]
    security = TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                         allowed_hosts=hosts,
                                         allowed_origins=[f"http://{h}" for h in hosts])
    inner = app.server.streamable_http_app(streamable_http_path=PATH, host=HOST,
                                           transport_security=security)
    return LocalOnly(EndOnDelete(inner, app.sessions), port)


class LocalOnly:
    """Refuses a foreign Host (421) or Origin (403) before routing: no tool can run for it."""

    def __init__(self, app: ASGIApp, port: int) -> None:
        self.app = app
        self.port = port
        self.hosts = frozenset(f"{name}:{port}" for name in NAMES)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self.refusal(Headers(scope=scope)) if scope["type"] == "http" else None
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refusal(self, headers: Headers) -> PlainTextResponse | None:
        hosts = headers.getlist("host")
        if len(hosts) != 1 or hosts[0].lower() not in self.hosts:
            return PlainTextResponse(f"This server answers only at http://{HOST}:{self.port}"
                                     f"{PATH} or http://localhost:{self.port}{PATH}.", 421)
        origins = headers.getlist("origin")
        own = {f"http://{h}" for h in self.hosts}
        if len(origins) > 1 or (origins and origins[0].lower() not in own):
            return PlainTextResponse("Requests from other sites are refused.", 403)
        return None


class EndOnDelete:
    """The client ended its session (DELETE accepted): write the session's trace first."""

    def __init__(self, app: ASGIApp, sessions: Sessions) -> None:
        self.app = app
        self.sessions = sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = Headers(scope=scope).get(SESSION_HEADER) if scope["type"] == "http" else None
        if scope["type"] != "http" or scope["method"] != "DELETE" or not key:
            await self.app(scope, receive, send)
            return

        async def ending(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                await anyio.to_thread.run_sync(self.sessions.end, key)
            await send(message)

        await self.app(scope, receive, ending)
