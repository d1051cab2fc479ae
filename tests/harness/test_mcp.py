"""`showwork mcp`: an MCP client from the official SDK runs whole sessions against the real server
(a subprocess, over stdio and over HTTP on 127.0.0.1), and each session's trace verifies and
re-audits to its stored verdict. An attacker-style corpus gets clear errors and runs nothing but
governed SELECTs; the HTTP transport refuses foreign Host and Origin headers before any tool runs.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, Implementation
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from showwork.harness.experiments.attempt import reaudit
from showwork.protocol.prompts import repair_message
from showwork.traces import TraceRecord, read, verify_chain

ROOT = Path(__file__).resolve().parents[2]
WEEK = {"start": "2026-03-09", "end": "2026-03-15"}
BEFORE = {"start": "2026-03-02", "end": "2026-03-08"}
TREE = ["weekly_value_moments", "active_users", "days_per_user", "moments_per_day"]
QUESTION = "Why did weekly value moments drop in the week of 2026-03-09?"
AGENT = Implementation(name="pytest-agent", version="1.0")


# -- fixtures: a SHOWWORK_HOME on the cached warehouse, the server as a subprocess --------------
@pytest.fixture
def home(tmp_path: Path, demo_db: Path) -> Path:
    """A SHOWWORK_HOME whose demo warehouse is a symlink to the tests' cached one."""
    (tmp_path / "demo.duckdb").symlink_to(demo_db)
    return tmp_path


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "SHOWWORK_HOME": str(home)}


def _traces(home: Path) -> list[TraceRecord]:
    return read(home / "mcp" / "traces.jsonl")


def _served_audit(record: TraceRecord) -> dict[str, Any] | None:
    served = record.served()
    assert served is not None
    return served.audit


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class HttpServer:
    """`showwork mcp --http PORT` as a subprocess."""

    port: int
    proc: subprocess.Popen[str]

    def stop(self) -> int:
        """Interrupt it (as Ctrl-C does) and wait; kill it only if it hangs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def _serve_http(home: Path) -> Iterator[HttpServer]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "showwork", "mcp", "--http", str(port)],
                            env=_env(home), cwd=ROOT, stderr=subprocess.PIPE, text=True)
    server = HttpServer(port, proc)
    try:
        _wait_until_listening(proc, port)
        yield server
    finally:
        server.stop()


@pytest.fixture
def http_server(home: Path) -> Iterator[HttpServer]:
    """The HTTP server, yielded once it accepts connections, stopped after the test."""
    yield from _serve_http(home)


@pytest.fixture(scope="module")
def shared_port(tmp_path_factory: pytest.TempPathFactory, demo_db: Path) -> Iterator[int]:
    """One HTTP server for the checks that leave no session behind."""
    home = tmp_path_factory.mktemp("mcp-home")
    (home / "demo.duckdb").symlink_to(demo_db)
    for server in _serve_http(home):
        yield server.port


@pytest.fixture
def http_port(http_server: HttpServer) -> int:
    return http_server.port


def _wait_until_listening(proc: subprocess.Popen[str], port: int, limit: float = 90) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listened on 127.0.0.1:{port} within {limit}s")


def _stdio(home: Path) -> Client:
    params = StdioServerParameters(command=sys.executable, args=["-m", "showwork", "mcp"],
                                   env=_env(home), cwd=ROOT)
    return Client(params, client_info=AGENT, read_timeout_seconds=120)


def _http(port: int, agent: Implementation = AGENT) -> Client:
    return Client(f"http://127.0.0.1:{port}/mcp", client_info=agent, read_timeout_seconds=120)


def _run(script: Callable[[], Awaitable[Any]]) -> Any:
    return anyio.run(script)


# -- a whole session: catalog, a blocked call, two queries, broken answer, repair, grounded ------
def _text(result: CallToolResult) -> dict[str, Any]:
    return json.loads(result.content[0].text)  # type: ignore[union-attr]


async def _call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await client.call_tool(tool, args)
    return result.is_error, _text(result)


def _says(label: str, pct: float) -> str:
    return f"{label} {'rose' if pct > 0 else 'fell'} {abs(pct):.2f}%"


def _answer(row: dict[str, Any], broken: str | None = None) -> dict[str, Any]:
    """The diagnosis from the comparison r1; `broken` breaks claim c2 (a field or a value)."""
    pct = {m: round(row[m]["pct_change"], 2) for m in TREE}
    claims = [
        {"text": _says("Weekly value moments", pct["weekly_value_moments"]), "kind": "measurement",
         "sources": ["r1:weekly_value_moments.pct_change"], "value": pct["weekly_value_moments"]},
        {"text": _says("Days per user", pct["days_per_user"]), "kind": "measurement",
         "sources": ["r1:days_per_user.pct_change"], "value": pct["days_per_user"]},
        {"text": _says("Active users", pct["active_users"]), "kind": "measurement",
         "sources": ["r1:active_users.pct_change"], "value": pct["active_users"]},
        {"text": "Weekly value moments moved because users came back on fewer days",
         "kind": "causal", "premises": ["c1", "c2", "c3", "tree:weekly_value_moments>days_per_user"]}]
    if broken == "field":
        claims[1]["sources"] = ["r1:paid_search"]
    elif broken == "value":
        claims[1]["value"] = -99.0
    return {"status": "answered", "answer": "Users came back on fewer days.",
            "value": pct["weekly_value_moments"], "driver": "days_per_user",
            "refusal_reason": None, "claims": claims}


async def whole_session(client: Client) -> dict[str, Any]:
    """Drive one session and return what the server answered at each step."""
    catalog = await client.call_tool("catalog", {})
    blocked = await _call(client, "query", {"metrics": ["active_users"], "window": WEEK,
                                            "group_by": ["age"]})
    compared = await _call(client, "compare", {"metrics": TREE, "current_window": WEEK,
                                               "previous_window": BEFORE})
    split = await _call(client, "query", {"metrics": ["active_users"], "window": WEEK,
                                          "group_by": ["platform"]})
    values = [await _call(client, "dimension_values", {"dimension": "platform", "search": word})
              for word in ("ANDR", "andriod")]
    row = compared[1]["rows"][0]["values"]
    replies = []
    for broken in ("field", "value", None):
        result = await client.call_tool("submit_answer", {"answer": _answer(row, broken),
                                                          "question": QUESTION})
        replies.append(_text(result))
    return {"catalog": catalog.structured_content, "blocked": blocked, "compared": compared,
            "split": split, "replies": replies, "protocol": client.protocol_version,
            "values": values}


def _check_whole_session(seen: dict[str, Any], home: Path) -> None:
    assert "weekly_value_moments" in seen["catalog"]["metrics"]
    error, view = seen["blocked"]
    assert error and view["handle"] is None and "'age'" in view["reason"]
    assert (seen["compared"][1]["handle"], seen["split"][1]["handle"]) == ("r1", "r2")
    (hit_error, hit), (miss_error, miss) = seen["values"]
    assert not hit_error and (hit["matches"], hit["complete"]) == (["android"], True)
    assert not miss_error and (miss["matches"], miss["closest"]) == ([], ["android"])
    _check_repairs(seen["replies"])
    assert seen["replies"][-1]["read_as"] == ("Read as: weekly_value_moments · week of "
                                              "2026-03-09 · why")
    [record] = _traces(home)
    _check_record(record, home)
    assert [c.handle for c in record.calls] == [None, 1, 2]
    assert [r.repair_message is not None for r in record.rounds] == [True, True, False]


def _check_repairs(replies: list[dict[str, Any]]) -> None:
    first, second, last = replies
    for number, (reply, code) in enumerate(((first, "unknown_field"),
                                            (second, "value_mismatch")), 1):
        assert [d["code"] for d in reply["defects"]] == [code] and not reply["final"]
        problems = [d["message"] for d in reply["defects"]]
        unread = reply["not_checked"]  # the repair names the words no check read
        assert reply["repair_message"] == repair_message(problems, number, 2, unread)
    assert first["defects"][0]["message"].startswith("Claim c2 cites r1:paid_search, but r1 has "
                                                     "no field paid_search")
    assert (last["final"], last["grounded"], last["defects"]) == (True, True, [])
    assert last["served"]["round"] == 2
    assert last["decision"] in ("serve", "serve_with_caveats")
    assert {c["state"] for c in last["claims"]} <= {"SUPPORTED", "STALE"}


def _check_record(record: TraceRecord, home: Path) -> None:
    """The trace names the client, verifies, and re-audits (in-process and by the CLI) the same."""
    assert record.model == "mcp:pytest-agent" and record.config == "claims+repair"
    assert verify_chain(home / "mcp" / "traces.jsonl") == []
    fresh = reaudit(record)
    assert fresh is not None and fresh.to_json() == _served_audit(record)
    out = subprocess.run([sys.executable, "-m", "showwork", "audit", "--verify",
                          str(home / "mcp" / "traces.jsonl")], env=_env(home), cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 differ from the stored audit" in out.stdout


class TestWholeSession:
    def test_over_stdio(self, home: Path) -> None:
        """A stdio session runs end to end and leaves one verified trace that re-audits equal."""
        async def script() -> dict[str, Any]:
            async with _stdio(home) as client:
                tools = await client.list_tools()
                assert [t.name for t in tools.tools] == ["catalog", "query", "compare",
                                                         "dimension_values", "submit_answer"]
                return await whole_session(client)

        _check_whole_session(_run(script), home)

    def test_over_http(self, home: Path, http_port: int) -> None:
        """The same session over streamable HTTP (an auto-mode client falls back to the
        handshake, which keeps one session per trace)."""
        async def script() -> dict[str, Any]:
            async with _http(http_port) as client:
                return await whole_session(client)

        seen = _run(script)
        assert seen["protocol"] in HANDSHAKE_PROTOCOL_VERSIONS
        _check_whole_session(seen, home)

    def test_a_session_that_ends_unanswered_is_traced(self, home: Path, http_port: int) -> None:
        """A session that leaves (DELETE) before answering still gets its trace, no answer."""
        async def script() -> None:
            async with _http(http_port) as client:
                await _call(client, "query", {"metrics": ["active_users"], "window": WEEK})

        _run(script)
        [record] = _traces(home)
        assert (record.stop_reason, record.served_round, len(record.calls)) == ("no_answer",
                                                                                 None, 1)
        assert verify_chain(home / "mcp" / "traces.jsonl") == []

    def test_open_sessions_are_traced_at_shutdown(self, home: Path,
                                                  http_server: HttpServer) -> None:
        """A session still open when the server stops gets its trace on the way out."""
        code, got, _ = _request(http_server.port, "POST", INIT)
        session = {"Mcp-Session-Id": got["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
        _request(http_server.port, "POST", INITIALIZED, **session)
        assert _request(http_server.port, "POST", CALL, **session)[0] == 200
        assert not (home / "mcp" / "traces.jsonl").exists()
        http_server.stop()
        [record] = _traces(home)
        assert (record.model, record.stop_reason, len(record.calls)) == ("mcp:raw-http",
                                                                         "no_answer", 1)


# -- the attacker corpus ------------------------------------------------------------------------
SQL_ARGS: list[tuple[str, dict[str, Any], str]] = [
    ("query", {"metrics": ["active_users; DROP TABLE users"], "window": WEEK}, "unknown_metric"),
    ("query", {"metrics": ["active_users"], "window": WEEK, "sql": "SELECT * FROM users"},
     "invalid_arguments"),
    ("compare", {"metrics": ["active_users"], "current_window": WEEK, "previous_window": BEFORE,
                 "where": [{"dimension": "platform", "values": ["ios' OR 1=1 --"]}]},
     "unknown_member"),
    ("query", {"metrics": ["x" * 30_000], "window": WEEK}, "invalid_arguments"),
]


async def attacker(port: int) -> dict[str, Any]:
    """Session A makes two results; session B tries SQL, oversize and unknown tools, cites A's
    handle, and repairs three times."""
    seen: dict[str, Any] = {}
    async with _http(port, Implementation(name="agent-a", version="1")) as a, \
            _http(port, Implementation(name="agent-b", version="1")) as b:
        await _call(a, "query", {"metrics": ["active_users"], "window": WEEK})
        await _call(a, "query", {"metrics": ["new_users"], "window": WEEK})
        seen["sql"] = [await _call(b, tool, args) for tool, args, _code in SQL_ARGS]
        with pytest.raises(MCPError) as unknown:
            await b.call_tool("run_sql", {"sql": "DROP TABLE users"})
        seen["unknown"] = unknown.value.message
        await _call(b, "query", {"metrics": ["active_users"], "window": WEEK})
        stolen = {"status": "answered", "answer": "New users.", "claims": [
            {"text": "New users", "kind": "measurement", "sources": ["r2:new_users.value"]}]}
        seen["answers"] = [await _call(b, "submit_answer", {"answer": stolen}) for _ in range(4)]
        seen["after"] = await _call(b, "query", {"metrics": ["new_users"], "window": WEEK})
    return seen


class TestAttackerCorpus:
    def test_clear_errors_and_nothing_but_governed_selects(self, home: Path,
                                                           http_port: int) -> None:
        """SQL in arguments, oversize arguments, an unknown tool, another session's handle and a
        third repair are refused clearly; the traces hold only governed results or reasons."""
        warehouse = (home / "demo.duckdb").resolve()
        before = warehouse.stat().st_mtime_ns
        seen = _run(lambda: attacker(http_port))
        for (error, view), (_tool, _args, code) in zip(seen["sql"], SQL_ARGS, strict=True):
            assert error and view["handle"] is None and view["code"] == code, view
        assert "longer than 20,000 characters" in seen["sql"][-1][1]["reason"]
        assert "Unknown tool 'run_sql'; the tools are: catalog, query" in seen["unknown"]
        _check_stolen_handle(seen["answers"])
        error, view = seen["after"]
        assert error and view["refused"] and "final" in view["reason"]
        records = {r.model: r for r in _traces(home)}
        assert set(records) == {"mcp:agent-a", "mcp:agent-b"}
        for record in records.values():
            _check_only_governed(record)
        stolen = records["mcp:agent-b"]
        fresh = reaudit(stolen)
        assert fresh is not None and fresh.to_json() == _served_audit(stolen)
        assert [c.handle for c in records["mcp:agent-b"].calls] == [None] * 4 + [1]
        assert verify_chain(home / "mcp" / "traces.jsonl") == []
        assert warehouse.stat().st_mtime_ns == before


def _check_stolen_handle(answers: list[tuple[bool, dict[str, Any]]]) -> None:
    first = answers[0][1]
    assert [d["code"] for d in first["defects"]] == ["unknown_handle"]
    assert "there is no result r2 (results: r1)" in first["defects"][0]["message"]
    assert [a[1].get("final") for a in answers[:3]] == [False, False, True]
    assert answers[2][1]["repairs_left"] == 0 and answers[2][1]["repair_message"] is None
    error, refused = answers[3]
    assert error and refused["refused"] and "final" in refused["reason"]


def _check_only_governed(record: TraceRecord) -> None:
    """Every call is a governed query/compare: a SELECT with a handle, or a reason and none."""
    for call in record.calls:
        assert call.tool in ("query", "compare")
        if call.handle is None:
            assert call.result is None and call.error and call.error["message"]
        else:
            sql = call.result["sql"] if call.result else ""
            assert call.error is None and sql.lstrip().upper().startswith(("SELECT", "WITH"))
            assert "DROP" not in sql.upper()


# -- the HTTP transport refuses other sites -------------------------------------------------------
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "raw-http", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
    "name": "query", "arguments": {"metrics": ["active_users"], "window": WEEK}}}


def _request(port: int, method: str, body: dict[str, Any] | None = None,
             **headers: str) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.putrequest(method, "/mcp", skip_host=True, skip_accept_encoding=True)
    sent = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream", **headers}
    data = json.dumps(body).encode() if body is not None else b""
    for name, value in {**sent, "Content-Length": str(len(data))}.items():
        conn.putheader(name, value)
    conn.endheaders(data)
    response = conn.getresponse()
    out = response.status, {k.lower(): v for k, v in response.getheaders()}, \
        response.read().decode()
    conn.close()
    return out


def _rpc(text: str) -> dict[str, Any]:
    """The JSON-RPC message of a JSON or server-sent-events reply."""
    data = [line[5:] for line in text.splitlines() if line.startswith("data:")]
    return json.loads(data[-1] if data else text)


FOREIGN: list[tuple[dict[str, str], int]] = [
    ({"Host": "evil.example"}, 421),
    ({"Host": "localhost.evil.example:{port}"}, 421),
    ({"Host": "127.0.0.1:{wrong}"}, 421),
    ({"Origin": "http://evil.example"}, 403),
    ({"Origin": "null"}, 403),
    ({"Origin": "http://127.0.0.1:{wrong}"}, 403),
]


class TestHttpTransport:
    def test_listens_on_127_0_0_1_only(self, shared_port: int) -> None:
        """The port answers on 127.0.0.1 and not on another loopback address."""
        socket.create_connection(("127.0.0.1", shared_port), timeout=2).close()
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.2", shared_port), timeout=2).close()

    @pytest.mark.parametrize(("headers", "status"), FOREIGN,
                             ids=[f"{next(iter(h))}={next(iter(h.values()))}" for h, _ in FOREIGN])
    def test_foreign_host_or_origin_is_refused(self, shared_port: int, headers: dict[str, str],
                                               status: int) -> None:
        """An initialize naming another host or coming from another origin gets a 4xx, no session."""
        filled = {k: v.format(port=shared_port, wrong=shared_port + 1) for k, v in headers.items()}
        code, got, _body = _request(shared_port, "POST", INIT, **filled)
        assert code == status and "mcp-session-id" not in got

    def test_a_foreign_tool_call_never_runs(self, home: Path, http_port: int) -> None:
        """Inside a real session, a tools/call from another origin is refused and not run; the
        same call from the client runs once, and the session's trace holds only that call."""
        code, got, _ = _request(http_port, "POST", INIT)
        session = {"Mcp-Session-Id": got["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
        _request(http_port, "POST", INITIALIZED, **session)
        refused = _request(http_port, "POST", CALL, Origin="http://evil.example", **session)
        rebound = _request(http_port, "POST", CALL, Host="evil.example", **session)
        assert (code, refused[0], rebound[0]) == (200, 403, 421)
        ran = _rpc(_request(http_port, "POST", CALL, **session)[2])
        assert json.loads(ran["result"]["content"][0]["text"])["handle"] == "r1"
        assert _request(http_port, "DELETE", None, **session)[0] == 200
        [record] = _traces(home)
        assert [(c.tool, c.handle) for c in record.calls] == [("query", 1)]
        assert record.model == "mcp:raw-http"
