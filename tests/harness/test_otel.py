"""OpenTelemetry spans: with OTEL_EXPORTER_OTLP_ENDPOINT set, `showwork ask` sends one span tree
per attempt over OTLP/HTTP to a loopback receiver that decodes it (opentelemetry-proto): the
attempt, its rounds, each model call (gen_ai.*), each governed call, the audit, repairs; checked
field by field against the trace the same command printed. The MCP session emits the same tree.
Off by default, and then the SDK is never imported."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml
from shop_data import shop_db

pytest.importorskip("opentelemetry.sdk", reason="the otel extra: pip install -e '.[otel]'")
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"


class Receiver:
    """An OTLP/HTTP trace receiver on 127.0.0.1: every span it was sent, decoded."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []
        self.paths: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 — http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                outer.take(self.path, body)
                reply = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def take(self, path: str, body: bytes) -> None:
        request = trace_service_pb2.ExportTraceServiceRequest.FromString(body)
        self.paths.append(path)
        for rs in request.resource_spans:
            resource = _attrs(rs.resource.attributes)
            for ss in rs.scope_spans:
                for s in ss.spans:
                    self.spans.append({
                        "name": s.name, "trace": s.trace_id.hex(), "id": s.span_id.hex(),
                        "parent": s.parent_span_id.hex(), "kind": s.kind,
                        "start": s.start_time_unix_nano, "end": s.end_time_unix_nano,
                        "status": s.status.code, "status_message": s.status.message,
                        "attrs": _attrs(s.attributes), "resource": resource,
                        "scope": ss.scope.name})

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _value(v: Any) -> Any:
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    return getattr(v, kind) if kind else None


def _attrs(kvs: Any) -> dict[str, Any]:
    return {kv.key: _value(kv.value) for kv in kvs}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """The shop project over a copy of its warehouse."""
    root = tmp_path / "shop"
    shutil.copytree(SHOP / "models", root / "models")
    shutil.copy(SHOP / "governance.yaml", root / "governance.yaml")
    shutil.copy(shop_db(), root / "warehouse.duckdb")
    settings = yaml.safe_load((SHOP / "showwork.yaml").read_text(encoding="utf-8"))
    settings.update(warehouse={"duckdb": "warehouse.duckdb"}, questions=None)
    (root / "showwork.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return root


def _ask(question: str, project: Path, receiver: Receiver | None, tmp_path: Path,
         *extra: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env |= {"SHOWWORK_HOME": str(tmp_path / "home"), "SHOWWORK_SOURCES": "1"}
    if receiver is not None:
        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = receiver.url
    proc = subprocess.run([sys.executable, "-m", "showwork", "ask", question, "--project",
                           str(project), "--json", *extra], capture_output=True, text=True,
                          env=env, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _tree(spans: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """(the attempt span, parent id → its children in start order)."""
    (root,) = [s for s in spans if s["name"] == "showwork.attempt"]
    children: dict[str, list[dict[str, Any]]] = {}
    for s in sorted(spans, key=lambda s: s["start"]):
        children.setdefault(s["parent"], []).append(s)
    return root, children


OK, ERROR = 0, 2  # StatusCode UNSET and ERROR in the protobuf
CLIENT = 3  # SpanKind CLIENT


class TestAsk:
    def test_one_ask_field_by_field(self, shop: Path, receiver: Receiver, tmp_path: Path) -> None:
        """One answered ask: attempt → round → (chat, execute_tool, chat, audit), every field as
        the printed trace has it."""
        trace = _ask("What was revenue in June 2019?", shop, receiver, tmp_path)
        assert receiver.paths and set(receiver.paths) == {"/v1/traces"}
        spans = receiver.spans
        assert {s["trace"] for s in spans} == {spans[0]["trace"]}
        root, children = _tree(spans)
        assert root["parent"] == "" and root["status"] == OK
        assert root["resource"]["service.name"] == "showwork" and root["scope"] == "showwork"
        a = root["attrs"]
        assert a["showwork.attempt_id"] == trace["attempt_id"]
        assert a["showwork.question.text"] == "What was revenue in June 2019?"
        assert (a["showwork.config"], a["showwork.model"]) == ("claims+repair", "rules")
        assert a["showwork.project.name"] == "shop"
        assert a["showwork.project.digest"] == trace["project"]["digest"]
        assert a["showwork.stop_reason"] == "answered" and a["showwork.served_round"] == 0
        assert (a["showwork.grounded"], a["showwork.decision"]) == (True, "serve")
        assert (a["showwork.rounds"], a["showwork.calls"]) == (1, len(trace["calls"])) == (1, 1)

        (round0,) = children[root["id"]]
        assert round0["name"] == "showwork.round" and round0["attrs"]["showwork.round"] == 0
        steps = children[round0["id"]]
        assert [s["name"] for s in steps] == ["chat rules", "execute_tool query", "chat rules",
                                              "showwork.audit"]
        for turn, span in zip(trace["turns"], [steps[0], steps[2]], strict=True):
            g = span["attrs"]
            assert span["kind"] == CLIENT
            assert (g["gen_ai.operation.name"], g["gen_ai.provider.name"],
                    g["gen_ai.request.model"]) == ("chat", "showwork", "rules")
            assert g["gen_ai.usage.input_tokens"] == turn["usage"]["input_tokens"]
            assert g["gen_ai.usage.output_tokens"] == turn["usage"]["output_tokens"]
            assert g["gen_ai.response.finish_reasons"] == [turn["finish_reason"]]
            assert span["end"] - span["start"] == pytest.approx(turn["elapsed_s"] * 1e9, abs=2e3)
        call, t = steps[1], trace["calls"][0]
        c = call["attrs"]
        assert (c["gen_ai.operation.name"], c["gen_ai.tool.name"]) == ("execute_tool", "query")
        assert c["showwork.metrics"] == t["arguments"]["metrics"] == ["revenue"]
        assert c["showwork.window"] == "2019-06-01..2019-06-30"
        assert c["showwork.dimensions"] == []
        assert c["showwork.handle"] == "r1" and c["showwork.rows"] == len(t["result"]["rows"])
        assert c["showwork.duration_s"] == pytest.approx(t["elapsed_s"])
        assert call["status"] == OK and "showwork.blocked.code" not in c
        audit, want = steps[3]["attrs"], trace["rounds"][0]["audit"]
        assert audit["showwork.audit.grounded"] is want["grounded"] is True
        assert audit["showwork.audit.decision"] == want["decision"] == "serve"
        assert audit["showwork.audit.defect_codes"] == [] and audit["showwork.audit.claims"] == 1
        assert audit["showwork.audit.claims.supported"] == 1
        assert root["start"] <= round0["start"] <= steps[0]["start"]
        assert steps[-1]["end"] <= round0["end"] <= root["end"]

    def test_blocked_call_and_withheld_answer(self, shop: Path, receiver: Receiver,
                                              tmp_path: Path) -> None:
        """A blocked governed call is an error span with its code and reason; an answer not
        served marks the attempt span as an error, as a failed request is."""
        trace = _ask("What was revenue by customer age in June 2019?", shop, receiver, tmp_path)
        root, children = _tree(receiver.spans)
        blocked = [c for c in trace["calls"] if c["handle"] is None]
        tools = [s for s in receiver.spans if s["name"].startswith("execute_tool")]
        assert len(tools) == len(trace["calls"])
        for span, call in zip(tools, trace["calls"], strict=True):
            if call["handle"] is None:
                assert span["status"] == ERROR
                assert span["attrs"]["showwork.blocked.code"] == call["error"]["code"]
                assert span["attrs"]["showwork.blocked.reason"] == call["error"]["message"]
        served = trace["served_round"]
        decision = trace["rounds"][served]["audit"]["decision"] if served is not None else "none"
        assert root["attrs"]["showwork.decision"] == decision
        assert (root["status"] == ERROR) == (decision != "serve")
        assert blocked, "the question asks for a dimension the shop lacks: its call is blocked"

    def test_repair_rounds_are_spans(self, shop: Path, receiver: Receiver, tmp_path: Path) -> None:
        """A faulty answer repaired: one showwork.repair span per repair round, each with its
        audit, whose defect codes are the trace's."""
        trace = _ask("What was revenue in June 2019?", shop, receiver, tmp_path, "--model",
                     "noisy:rules?fault_rate=1&seed=3")
        root, children = _tree(receiver.spans)
        rounds = children[root["id"]]
        assert [s["name"] for s in rounds] == ["showwork.round"] + ["showwork.repair"] * (
            len(trace["rounds"]) - 1)
        assert len(rounds) >= 2
        for span, rec in zip(rounds, trace["rounds"], strict=True):
            assert span["attrs"]["showwork.round"] == rec["round"]
            (audit,) = [s for s in children[span["id"]] if s["name"] == "showwork.audit"]
            assert audit["attrs"]["showwork.audit.defect_codes"] == [
                d["code"] for d in rec["audit"]["defects"]]

    def test_off_sends_nothing_and_imports_no_sdk(self, shop: Path, tmp_path: Path) -> None:
        """Without the variable or --otel, an attempt imports nothing of OpenTelemetry."""
        code = ("import sys; from showwork.harness.project import Project; from showwork.harness.experiments.attempt import "
                "Question, run_attempt; from showwork.analyst.rules import RulesClient; "
                "from showwork.protocol.switches import Protocol; "
                f"p = Project.open({str(shop)!r}); layer = p.layer(); "
                "t = run_attempt(Question('q', 'What was revenue in June 2019?'), RulesClient(), "
                "layer, Protocol.parse('claims+repair')); assert t.stop_reason == 'answered'; "
                "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))")
        env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**env, "SHOWWORK_SOURCES": "1"}, timeout=300, check=False)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == "[]"


class TestMcp:
    def test_mcp_session_emits_the_same_tree(self, shop: Path, receiver: Receiver,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
        """An MCP session (a governed call, a submitted answer) is one attempt span tree: the
        round, the tool call and the audit, with the same fields as an ask's."""
        from showwork.harness import otel
        from showwork.harness.mcp.session import McpSession
        from showwork.harness.project import Project

        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
        monkeypatch.setattr(otel, "_provider", None)
        project = Project.open(shop)
        layer = project.layer()
        try:
            session = McpSession(layer, layer.catalog(), client="pytest")
            session.call("query", {"metrics": ["revenue"],
                                   "window": {"start": "2019-06-01", "end": "2019-06-30"}})
            value = session.toolbox.calls[0].result["rows"][0]["values"]["revenue"]["value"]
            reply = session.submit({"status": "answered", "answer": "Revenue was "
                                    f"{value:,.0f} in June 2019.", "value": value, "claims": [
                                        {"text": f"Revenue was {value:,.0f} in June 2019",
                                         "kind": "measurement", "sources": ["r1:revenue.value"],
                                         "value": value}]}, "What was revenue in June 2019?")
            record = session.record()
            otel.flush()
        finally:
            layer.close()
            if otel._provider is not None:
                otel._provider.shutdown()
        assert reply["decision"] == "serve"
        root, children = _tree(receiver.spans)
        assert root["attrs"]["showwork.attempt_id"] == record.attempt_id
        assert root["attrs"]["showwork.model"] == "mcp:pytest"
        assert root["attrs"]["showwork.question.text"] == "What was revenue in June 2019?"
        assert root["attrs"]["showwork.decision"] == "serve" and root["status"] == OK
        (round0,) = children[root["id"]]
        steps = children[round0["id"]]
        assert [s["name"] for s in steps] == ["execute_tool query", "showwork.audit"]
        assert steps[0]["attrs"]["showwork.handle"] == "r1"
        assert steps[1]["attrs"]["showwork.audit.grounded"] is True


class TestFailedAttempt:
    def test_an_attempt_that_raises_still_sends_its_span(self, shop: Path, receiver: Receiver,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
        """A model client that raises mid-attempt: the attempt span still ends and is sent,
        marked ERROR with the exception, its open round ended too."""
        from showwork.analyst.rules import RulesClient
        from showwork.harness import otel
        from showwork.harness.experiments.attempt import Question, run_attempt
        from showwork.harness.project import Project
        from showwork.protocol.switches import Protocol

        class Broken(RulesClient):
            def complete(self, request: Any) -> Any:
                raise RuntimeError("the model server went away")

        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
        monkeypatch.setattr(otel, "_provider", None)
        project = Project.open(shop)
        layer = project.layer()
        try:
            with pytest.raises(RuntimeError, match="went away"):
                run_attempt(Question("q1", "What was revenue in June 2019?"), Broken(), layer,
                            Protocol.parse("claims"))
            otel.flush()
        finally:
            layer.close()
            if otel._provider is not None:
                otel._provider.shutdown()
        root, children = _tree(receiver.spans)
        assert root["status"] == ERROR
        assert "RuntimeError: the model server went away" in root["status_message"]
        assert [s["name"] for s in children[root["id"]]] == ["showwork.round"]
