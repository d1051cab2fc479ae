"""Every surface names the words no check of the audit read (issue 47, item 2): MCP's
`submit_answer` reply, `audit_answer`'s report, `showwork ask`'s print-out and `showwork
audit` (text and --json) list them as not checked; a clean answer lists none. On the demo and
the shop, with the rules analyst's own answer and that answer with a sentence added."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from test_cli_semantic import showwork as cli

import showwork
from showwork import Project
from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.mcp.session import McpSession
from showwork.harness.present.display import show_trace
from showwork.protocol.switches import Protocol
from showwork.traces import RoundRecord, TraceRecord, TraceWriter

CLEAN = {"demo": "How many active users did we have in the week of 2026-03-02?",
         "shop": "What was revenue in July 2019?"}
ADDED = "The team celebrated wildly."


def _layer(request: pytest.FixtureRequest, domain: str):
    return request.getfixturevalue("layer" if domain == "demo" else "shop_layer")


def _answers(trace: TraceRecord) -> dict[str, dict]:
    clean = json.loads(trace.served().answer_raw)
    return {"clean": clean, "edited": {**clean, "answer": f"{clean['answer']} {ADDED}"}}


def _unread(words: list[str]) -> set[str]:
    return set(" ".join(words).lower().replace(".", "").split())


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_mcp_and_audit_answer_name_the_words_not_checked(request: pytest.FixtureRequest,
                                                         domain: str) -> None:
    """The analyst's governed calls replayed through an MCP session, then its answer
    submitted: the clean one's reply says not_checked [], the edited one's names the added
    words, as the session's report does; `audit_answer` on the same calls made through
    `showwork.Project` says the same."""
    layer = _layer(request, domain)
    trace = run_attempt(Question("q", CLEAN[domain]), RulesClient(), layer,
                        Protocol.parse("claims"))
    for key, answer in _answers(trace).items():
        session = McpSession(layer, layer.catalog())
        for call in trace.calls:
            session.call(call.tool, call.arguments)
        reply = session.submit(answer, CLEAN[domain])
        assert reply["not_checked"] == session.reports[-1].not_checked
        if key == "clean":
            assert reply["not_checked"] == [] and reply["decision"] == "serve"
        else:
            assert _unread(reply["not_checked"]) >= {"team", "celebrated", "wildly"}
            assert reply["decision"] == "serve_with_caveats"
        public = Project(layer)
        for call in trace.calls:
            if call.handle is not None:
                getattr(public, call.tool)(**call.arguments)
        report = showwork.audit_answer(answer, public.results, public.catalog,
                                       question=CLEAN[domain])
        assert report.not_checked == reply["not_checked"]


def _edited_trace(trace: TraceRecord) -> TraceRecord:
    """The trace serving its answer with the sentence added (its stored audit re-made)."""
    from showwork.harness.experiments.reaudit import reaudit

    edited = json.dumps(_answers(trace)["edited"])
    draft = trace.model_copy(update={
        "rounds": [RoundRecord(round=0, answer_raw=edited, audit={})], "served_round": 0,
        "attempt_id": trace.attempt_id + "e"})
    report = reaudit(draft)
    assert report is not None
    return draft.model_copy(update={"rounds": [RoundRecord(
        round=0, answer_raw=edited, audit=report.to_json())]})


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_the_terminal_names_the_words_not_checked(request: pytest.FixtureRequest, domain: str,
                                                  tmp_path: Path) -> None:
    """`ask`'s print-out (80 columns) and `showwork audit` (text and --json) say "not checked"
    with the added words for the edited answer, and nothing of the kind for the clean one."""
    layer = _layer(request, domain)
    clean = run_attempt(Question("q", CLEAN[domain]), RulesClient(), layer,
                        Protocol.parse("claims"))
    edited = _edited_trace(clean)
    for trace, want in ((clean, False), (edited, True)):
        console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        show_trace(console, trace)
        printed = console.export_text()
        assert ("not checked:" in printed) == want, printed
        if want:
            line = " ".join(printed.split("not checked:")[1].split("\n")[:2])
            assert {"celebrated", "wildly"} <= set(line.replace("'", " ").split())
    path = tmp_path / "traces.jsonl"
    writer = TraceWriter(path)
    writer.append(clean)
    writer.append(edited)
    out = cli("audit", str(path))
    assert out.returncode == 0, out.stderr
    lines = [x for x in out.stdout.splitlines() if x.strip().startswith("not checked:")]
    assert len(lines) == 1 and "celebrated" in lines[0]
    rows = json.loads(cli("audit", str(path), "--json").stdout)["attempts"]
    assert rows[0]["not_checked"] == []
    assert _unread(rows[1]["not_checked"]) >= {"team", "celebrated", "wildly"}
