"""Scope faults injected into clean answers (issue 27): the rules analyst misreads the question
one way at a time — a level for a change, a dropped filter, one span for two named periods, a
level for a breakdown, series, ranking or share of a total, a ranking cut short — or the
question carries words nobody can read. Each is caught, and the clean answers raise no scope finding, through the
stored audit, the re-audit of the stored trace, the `showwork audit` command, an MCP session's
`submit_answer` and `showwork.audit_answer(question=…)` alike."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from showwork import audit_answer
from showwork._results import ACCEPTED, public
from showwork.analyst.rules import RulesClient
from showwork.analyst.rules.understand import Understood, understand
from showwork.errors import AuditInputError
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.harness.experiments.reaudit import reaudit
from showwork.harness.mcp.session import McpSession
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol
from showwork.semantic_layer.windows import Window
from showwork.traces import AuditView, TraceRecord, TraceWriter

ROOT = Path(__file__).resolve().parents[2]
_DAY = dt.timedelta(days=1)
WATCHED = ("off_question_metric", "off_question_window", "off_question_filter",
           "off_question_shape", "unread_question")
UNREAD = ("among left-handed customers", "for loyalty tier gold members",
          "excluding hailstorm days")
"""Words no catalog here governs, put into a question the answer does not change for."""


def _level(q: Understood) -> bool:
    if q.intent != "compare" or q.previous is None:
        return False
    q.intent, q.previous = "lookup", None
    return True


def _drop_filter(q: Understood) -> bool:
    if not q.filters or q.intent == "refuse" or any(f["dimension"] in q.group_by
                                                    for f in q.filters):
        return False  # members set side by side stay split by their dimension
    q.filters = []
    return True


def _one_span(q: Understood) -> bool:
    if q.intent != "compare" or not q.explicit or q.previous is None:
        return False
    span = Window(q.previous.start, q.window.end)  # type: ignore[union-attr]
    q.window, q.previous = span, Window(span.start - (span.end - span.start) - _DAY,
                                        span.start - _DAY)
    return True


def _no_breakdown(q: Understood) -> bool:
    if q.intent != "table" or not q.group_by or q.grain:
        return False
    q.intent, q.group_by, q.rank, q.top = "lookup", [], None, None
    return True


def _no_series(q: Understood) -> bool:
    if q.intent != "table" or q.group_by or not q.grain:
        return False
    q.intent, q.grain = "lookup", None
    return True


def _short_ranking(q: Understood) -> bool:
    if not q.rank or not q.top or q.top < 2:
        return False
    q.top = 1
    return True


def _no_share(q: Understood) -> bool:
    """The member's level where its share of the total was asked."""
    if q.intent != "share" or q.part is None:
        return False
    q.filters = [*q.filters, {"dimension": q.group_by[0], "op": "in", "values": [q.part]}]
    q.intent, q.group_by, q.part = "lookup", [], None
    return True


FAULTS: dict[str, Callable[[Understood], bool]] = {
    "level for a change": _level, "dropped filter": _drop_filter,
    "one span for two periods": _one_span, "level for a breakdown": _no_breakdown,
    "level for a series": _no_series, "ranking cut short": _short_ranking,
    "level for a share": _no_share}


@dataclass
class Case:
    domain: str
    question: str
    fault: str | None
    trace: TraceRecord


def _questions(domain: str) -> list[str]:
    if domain == "demo":
        return [q.text for q in load_questions().questions if q.answerable]
    path = ROOT / "examples" / domain / "questions.yaml"
    return [q["text"] for q in yaml.safe_load(path.read_text())["questions"]
            if q.get("answerable", True)]


def _attempt(layer, question: str, misread: Callable[[Understood], bool] | None,
             asked: str | None = None) -> TraceRecord:
    def edit(q: Understood) -> None:
        if asked is not None:  # the answer to the question without the unread words
            fresh = understand(asked, layer.catalog())
            q.__dict__.update({k: v for k, v in fresh.__dict__.items() if k != "text"})
        if misread is not None:
            misread(q)
    return run_attempt(Question("q", question), RulesClient(edit), layer,
                       Protocol.parse("claims"))


def cases(layer, domain: str) -> list[Case]:
    """Clean answers, each fault where the question allows it, and unread words added."""
    catalog = layer.catalog()
    out: list[Case] = []
    for i, text in enumerate(_questions(domain)):
        clean = _attempt(layer, text, None)
        if clean.served().audit["status"] != "answered":
            continue
        # a member that begins other members' names too ('Chai'): the reader holds it in
        # doubt, so its answer is flagged by design (unread_question), as a fault is
        doubt = "member in doubt" if read_text(text, catalog).doubts else None
        out.append(Case(domain, text, doubt, clean))
        for name, fault in FAULTS.items():
            q = understand(text, catalog)
            if fault(q):
                out.append(Case(domain, text, name, _attempt(layer, text, fault)))
        said = f"{text.rstrip('?.')} {UNREAD[i % len(UNREAD)]}?"
        out.append(Case(domain, said, "unread words", _attempt(layer, said, None, asked=text)))
    return [c for c in out if c.trace.served().audit["status"] == "answered"]


def _codes(findings: list[Any]) -> list[str]:
    return sorted({f["code"] if isinstance(f, dict) else f.code for f in findings} & set(WATCHED))


def by_mcp(layer, case: Case) -> list[str]:
    """The same calls and answer through an MCP session's submit_answer."""
    session = McpSession(layer, case.trace.catalog)
    for call in case.trace.calls:
        session.call(call.tool, call.arguments)
    served = case.trace.served()
    reply = session.submit(served.answer_raw, case.question)
    return _codes(reply["findings"])


def by_api(case: Case) -> list[str]:
    """The same answer and results through showwork.audit_answer(question=…)."""
    results = {}
    for c in case.trace.calls:
        if c.handle is not None and c.result is not None:
            results[f"r{c.handle}"] = public(c.result)
            if "filters" in ACCEPTED:
                where = (c.arguments or {}).get("where") or []
                results[f"r{c.handle}"]["filters"] = {  # type: ignore[typeddict-unknown-key]
                    w["dimension"]: w["values"] for w in where if w.get("op", "in") == "in"}
    report = audit_answer(case.trace.served().answer_raw, results, case.trace.catalog,
                          question=case.question)
    return _codes(report.findings)


missed: list[tuple[str | None, str, list[str]]] = []
"""The answers a path got wrong (a fault not caught, a clean answer flagged), for the message."""


def _check(layer, all_cases: list[Case], tmp_path: Path) -> dict[str, tuple[int, int]]:
    missed.clear()
    store = tmp_path / "traces.jsonl"
    writer = TraceWriter(store)
    for c in all_cases:
        writer.append(c.trace)
    cli = subprocess.run([sys.executable, "-m", "showwork", "audit", "--json", str(store)],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert cli.returncode in (0, 1), cli.stderr
    by_cli = [_codes(a["findings"]) for a in _cli_audits(cli.stdout)]
    assert len(by_cli) == len(all_cases)
    tally: dict[str, tuple[int, int]] = {}
    for c, cli_codes in zip(all_cases, by_cli, strict=True):
        stored = _codes(c.trace.served().audit["findings"])
        again = reaudit(AuditView.decode(c.trace.model_dump_json()))
        assert again is not None
        paths = {"stored": stored, "reaudit": _codes(again.findings), "cli": cli_codes,
                 "mcp": by_mcp(layer, c)}
        if c.fault != "dropped filter" or "filters" in ACCEPTED:
            try:
                paths["audit_answer"] = by_api(c)
            except AuditInputError as exc:  # a grain the public input does not take yet
                assert "grain" in str(exc), exc
        assert len({tuple(v) for v in paths.values()}) == 1, (c.question, c.fault, paths)
        caught, n = tally.get(c.fault or "clean", (0, 0))
        tally[c.fault or "clean"] = (caught + bool(stored), n + 1)
        if bool(stored) != bool(c.fault):
            missed.append((c.fault, c.question, stored))
    return tally


def _cli_audits(stdout: str) -> list[dict[str, Any]]:
    data = json.loads(stdout)
    assert data["mismatches"] in (0, []), data["mismatches"]
    return data["attempts"]


def _assert_rates(tally: dict[str, tuple[int, int]]) -> None:
    print(tally)  # the figures, shown with -s
    caught, n = tally.pop("clean")
    assert caught == 0, ("false alarms on clean answers", missed)
    assert n >= 30
    for fault, (found, injected) in tally.items():
        assert found / injected >= 0.99, (fault, found, injected, missed)


@pytest.mark.slow
def test_scope_faults_demo(layer, tmp_path) -> None:
    """Every fault on the demo's questions caught (≥ 99 %), none on its clean answers, the five
    paths agreeing answer by answer."""
    tally = _check(layer, cases(layer, "demo"), tmp_path)
    assert {"level for a change", "dropped filter", "one span for two periods",
            "unread words"} <= set(tally)
    _assert_rates(tally)


@pytest.mark.slow
def test_scope_faults_shop(shop_layer, tmp_path) -> None:
    """The same on the shop's questions."""
    tally = _check(shop_layer, cases(shop_layer, "shop"), tmp_path)
    assert {"level for a change", "dropped filter", "one span for two periods",
            "level for a breakdown", "ranking cut short", "unread words"} <= set(tally)
    _assert_rates(tally)



@pytest.mark.slow
def test_scope_faults_flights(flights_layer, tmp_path) -> None:
    """The same on the flights example's questions (real data nobody tuned the reader for)."""
    tally = _check(flights_layer, cases(flights_layer, "flights"), tmp_path)
    assert {"level for a change", "dropped filter", "one span for two periods",
            "level for a share", "unread words"} <= set(tally)
    _assert_rates(tally)
