"""The MCP server: `catalog`, `query`, `compare` and `submit_answer`, one trace per MCP session.

Built on the official SDK's low-level `Server`, so arguments reach the analyst's own governed
dispatcher exactly as a model sent them (it checks, records and refuses them; the SDK does not
pre-validate). The contract text (instructions, tool descriptions and schemas) is the text the
analyst loop gives a model, from `protocol.prompts` and `protocol.schemas`.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any

import anyio.to_thread
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from showwork.harness.mcp.session import McpSession, Refused
from showwork.protocol.prompts import CLAIMS, CONTRACT, render_catalog, render_tree, system_prompt
from showwork.protocol.reading.members import search_members
from showwork.protocol.schemas import answer_schema, tool_schemas
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.traces import TraceRecord, TraceWriter

if sys.platform != "win32":
    import fcntl

TOOLS = ("catalog", "query", "compare", "dimension_values", "submit_answer")
STDIO = "stdio"
"""The session key over stdio: one client per server process."""
SESSION_HEADER = "mcp-session-id"
MAX_CLIENT_NAME = 100

OVER_MCP = """\
Over MCP: learn about the data only through `query` and `compare` (`catalog` shows the catalog
again). Handles r1, r2, … belong to this MCP session only. Do not reply with the answer: send the
answer object to `submit_answer`, with the user's question. It returns the audit: each defect
with its exact repair message, findings, each claim's evidence state, and the decision. Fix what
it lists (more governed calls are allowed) and submit again; after two repairs, or a clean
answer, the answer is final and served, and the session takes nothing more."""
CATALOG_TOOL = """\
The governed catalog: metrics (label, grains, data coverage, point in time, previous names),
dimensions and their members, the metric tree, and the as-of date relative dates resolve
against."""
VALUES_TOOL = """\
Search a dimension's members as the data holds them (the reader's member index): case-insensitive
and fuzzy; on a miss the closest values; `complete` says whether the list is every value or was
cut at its bound. Use it to spell a filter's member exactly before `query` or `compare`."""
VALUES_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["dimension"],
                 "properties": {"dimension": {"type": "string", "description": "A dimension of "
                                              "the catalog, e.g. customer__region."},
                                "search": {"type": ["string", "null"], "description": "Words of "
                                           "the member (empty: list the members)."},
                                "limit": {"type": ["integer", "null"], "minimum": 1,
                                          "maximum": 200}}}
SUBMIT_TOOL = """\
Submit the answer for audit (the answer object described below, not a reply). Returns defects
with their repair messages, findings, evidence states and the serving decision; submit again to
repair, at most twice."""
QUESTION = ("The user's question this answer answers: the audit skips its own numbers and checks "
            "the answer's scope against it. Fixed by the first submission.")


class Sessions:
    """The open MCP sessions of one server, and the hash-chained store their traces join."""

    def __init__(self, layer: SemanticLayer, store: Path) -> None:
        self.layer = layer
        self.store = store
        self.catalog = layer.catalog()
        self.open: dict[str, McpSession] = {}
        self.lock = threading.Lock()
        """One DuckDB connection and one trace file: one request at a time touches them."""

    def get(self, key: str, client: str) -> McpSession:
        session = self.open.get(key)
        if session is None:
            session = self.open[key] = McpSession(self.layer, self.catalog, client)
        elif session.client == "unknown":
            session.client = client
        return session

    def settle(self, session: McpSession) -> None:
        """A final answer's trace is written at once."""
        if session.final and not session.written:
            self.write(session)

    def end(self, key: str) -> TraceRecord | None:
        """The session ended (the client left): write its trace if it did anything."""
        with self.lock:
            session = self.open.pop(key, None)
            if session is None or session.written or not session.used:
                return None
            return self.write(session)

    def end_all(self) -> None:
        for key in list(self.open):
            self.end(key)

    def write(self, session: McpSession) -> TraceRecord:
        session.written = True
        return _append(self.store, session.record())


def _append(path: Path, record: TraceRecord) -> TraceRecord:
    """Append under an exclusive file lock: several stdio servers may share one store."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a", encoding="utf-8") as lock:
        if sys.platform != "win32":
            fcntl.flock(lock, fcntl.LOCK_EX)
        return TraceWriter(path).append(record)


class ShowworkMcp:
    """The server object: the SDK's low-level `Server` wired to the sessions."""

    def __init__(self, layer: SemanticLayer, store: Path, *, http: bool = False) -> None:
        self.protocol = Protocol.parse("claims+repair")
        self.sessions = Sessions(layer, store)
        self.tools = tool_list(self.protocol)
        self.server: Server[dict[str, Any]] = Server(
            "showwork", version=version("showwork"),
            instructions=instructions(self.sessions.catalog, self.protocol),
            on_list_tools=self._list_tools, on_call_tool=self._call_tool, lifespan=self._lifespan)
        if http:
            self.server.middleware.append(_handshake_only)

    async def _list_tools(self, ctx: ServerRequestContext[dict[str, Any]],
                          params: PaginatedRequestParams | None) -> ListToolsResult:
        return ListToolsResult(tools=self.tools)

    async def _call_tool(self, ctx: ServerRequestContext[dict[str, Any]],
                         params: CallToolRequestParams) -> CallToolResult:
        if params.name not in TOOLS:
            raise MCPError(INVALID_PARAMS, f"Unknown tool {params.name[:100]!r}; the tools are: "
                           f"{', '.join(TOOLS)}.")
        key, client = _who(ctx)
        return await anyio.to_thread.run_sync(self._run, key, client, params.name,
                                              params.arguments or {})

    def _run(self, key: str, client: str, name: str, args: dict[str, Any]) -> CallToolResult:
        with self.sessions.lock:
            session = self.sessions.get(key, client)
            try:
                return self._tool(session, name, args)
            except Refused as exc:
                return _result(json.dumps({"refused": True, "reason": exc.message}), error=True)

    def _tool(self, session: McpSession, name: str, args: dict[str, Any]) -> CallToolResult:
        if name == "catalog":
            text = f"{render_catalog(session.catalog)}\n\n{render_tree(session.catalog)}"
            return _result(text, structured=session.catalog)
        if name == "dimension_values":
            found = dimension_values(session.catalog, args)
            return _result(json.dumps(found), structured=found)
        if name == "submit_answer":
            reply = session.submit(*_submission(args))
            self.sessions.settle(session)
            return _result(json.dumps(reply), structured=reply)
        view, blocked = session.call(name, args)
        return _result(view, error=blocked)

    @asynccontextmanager
    async def _lifespan(self, server: Server[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
        """When the server stops (stdin closed, HTTP shut down), open sessions end."""
        try:
            yield {}
        finally:
            self.sessions.end_all()


def instructions(catalog: dict[str, Any], protocol: Protocol) -> str:
    """The contract as the analyst loop states it (catalog and tree included), plus MCP use."""
    return f"{system_prompt(catalog, protocol, diagnostic=True)}\n\n{OVER_MCP}"


def tool_list(protocol: Protocol) -> list[Tool]:
    """catalog, the governed tools as the loop describes them, and submit_answer."""
    governed = [Tool(name=f["function"]["name"], description=f["function"]["description"],
                     input_schema=relaxed(f["function"]["parameters"]))
                for f in tool_schemas(protocol)]
    answer = relaxed(answer_schema(protocol)["schema"])
    submit = {"type": "object", "additionalProperties": False, "required": ["answer"],
              "properties": {"answer": {"anyOf": [answer, {"type": "string"}],
                                        "description": "The answer object (or its JSON text)."},
                             "question": {"type": ["string", "null"], "description": QUESTION}}}
    return [Tool(name="catalog", description=CATALOG_TOOL,
                 input_schema={"type": "object", "properties": {}}),
            *governed,
            Tool(name="dimension_values", description=VALUES_TOOL, input_schema=VALUES_SCHEMA),
            Tool(name="submit_answer", description=f"{SUBMIT_TOOL}\n\n{CONTRACT % CLAIMS}",
                 input_schema=submit)]


def relaxed(schema: Any) -> Any:
    """A strict-mode schema with its nullable properties optional (MCP clients may omit them)."""
    if isinstance(schema, list):
        return [relaxed(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: relaxed(v) for k, v in schema.items()}
    if "properties" in out:
        out["required"] = [k for k, v in out["properties"].items() if not _nullable(v)]
    return out


def _nullable(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    options = schema.get("anyOf") or []
    return (isinstance(kinds, list) and "null" in kinds) or {"type": "null"} in options


def dimension_values(catalog: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    """The `dimension_values` tool: search one dimension's members (protocol.reading.members)."""
    extra = [k for k in args if k not in ("dimension", "search", "limit")]
    dimension, limit = args.get("dimension"), args.get("limit") or 20
    if extra or not isinstance(dimension, str) or not isinstance(limit, int) or limit < 1:
        raise Refused("dimension_values takes `dimension` (a catalog dimension), optionally "
                      f"`search` (words) and `limit` (1–200); got: {', '.join(sorted(args))}.")
    try:
        return search_members(catalog, dimension, str(args.get("search") or ""), min(limit, 200))
    except KeyError as exc:
        raise Refused(str(exc.args[0])) from None


def _submission(args: dict[str, Any]) -> tuple[Any, str | None]:
    extra = [k for k in args if k not in ("answer", "question")]
    if extra or "answer" not in args:
        raise Refused("submit_answer takes `answer` (the answer object) and optionally "
                      f"`question`; got: {', '.join(sorted(args)) or 'nothing'}.")
    answer = args["answer"]
    if not isinstance(answer, dict | str):
        raise Refused("`answer` must be the answer object (or its JSON text).")
    return answer, args.get("question")


def _who(ctx: ServerRequestContext[dict[str, Any]]) -> tuple[str, str]:
    """(session key, client name): the HTTP session id, or the one stdio client."""
    params = ctx.session.client_params
    client = params.client_info.name[:MAX_CLIENT_NAME] if params else "unknown"
    headers = getattr(ctx.request, "headers", None)
    if headers is None:
        return STDIO, client
    key = headers.get(SESSION_HEADER)
    if not key:
        raise MCPError(INVALID_REQUEST, "No MCP session: initialize first.")
    return key, client


async def _handshake_only(ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
    """Over HTTP a trace is an MCP session, which the stateless 2026 protocol does not have."""
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        raise MCPError(INVALID_REQUEST, "showwork mcp over HTTP keeps one trace per MCP session; "
                       "connect with the initialize handshake (protocol 2025-11-25 or earlier). "
                       "SDK clients in mode 'auto' fall back to it by themselves.")
    return await call_next(ctx)


def _result(text: str, *, error: bool = False, structured: Any = None) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=text)], structured_content=structured,
                          is_error=error)
