"""One MCP session: governed calls under handles, submitted answers and their audits, a trace.

An MCP session is one attempt. Its calls go through the analyst's own dispatcher (handles r1,
r2, …; a blocked call gets its reason and no handle), each `submit_answer` is a round audited
exactly as `run_attempt` audits one (same evidence, category and question), and its record
carries the catalog, calls and rounds, so `showwork audit --verify` re-audits it to the same
verdict. After a clean answer, or the second repair, the answer is final: it is served and the
session takes no more calls or submissions.
"""

from __future__ import annotations

import datetime as dt
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from showwork.analyst.session import Budgets
from showwork.analyst.tools import Toolbox
from showwork.harness import otel
from showwork.harness.audit import AuditReport, Evidence, audit
from showwork.harness.audit.scope import read_as
from showwork.harness.experiments.attempt import MAX_REPAIR_ROUNDS, _guess_category, choose_served
from showwork.harness.present.decisions import decision_key, shown
from showwork.harness.present.display import TICK_NOTE
from showwork.harness.project import stamp_of
from showwork.protocol.answer import MAX_TEXT
from showwork.protocol.prompts import repair_message
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.traces import QuestionRecord, RoundRecord, TraceRecord, digest

CONFIG = "claims+repair"
"""The contract an MCP client follows: claims with citations, up to two repair rounds."""
MAX_CALLS = Budgets().max_tool_calls
"""Governed calls per session, as for one attempt of the analyst loop."""


class Refused(Exception):
    """A request the session refuses (the answer is final, a bad argument); nothing ran."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


@dataclass
class McpSession:
    """One MCP session: its governed calls, its submitted rounds, and the trace they make."""

    layer: SemanticLayer
    catalog: dict[str, Any]
    client: str = "unknown"
    """The client's name from `initialize` (the trace's model is mcp:<client>)."""
    protocol: Protocol = field(default_factory=lambda: Protocol.parse(CONFIG))
    attempt_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    started_at: str = field(default_factory=_now)
    started: float = field(default_factory=time.monotonic)
    question: str | None = None
    """The question the answer answers; fixed by the first submission."""
    rounds: list[RoundRecord] = field(default_factory=list)
    reports: list[AuditReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    final: bool = False
    """A clean answer or the last repair arrived: it is served, and nothing more is taken."""
    written: bool = False

    def __post_init__(self) -> None:
        self.toolbox = Toolbox(self.layer, require_purpose=self.protocol.purpose)
        self.spans = otel.attempt_spans(self.attempt_id, None, self.protocol.name,
                                        f"mcp:{self.client}", stamp_of(self.layer))
        self.spans.begin_round(0)

    @property
    def used(self) -> bool:
        """Worth a trace: something governed ran or an answer came in."""
        return bool(self.toolbox.calls or self.rounds)

    def call(self, tool: str, arguments: dict[str, Any] | None) -> tuple[str, bool]:
        """Run one governed call; (what the client sees, whether it was blocked)."""
        self._open("governed calls")
        if len(self.toolbox.calls) >= MAX_CALLS:
            return json.dumps({"blocked": True, "code": "tool_budget", "handle": None,
                               "reason": f"The budget of {MAX_CALLS} governed calls is used "
                               "up; submit your answer now."}), True
        view, record = self.toolbox.dispatch(tool, json.dumps(arguments or {}),
                                             min(len(self.rounds), MAX_REPAIR_ROUNDS))
        self.spans.tool_call(record)
        return view, record.handle is None

    def submit(self, answer: Any, question: str | None) -> dict[str, Any]:
        """Audit one submitted answer: the audit, and the repair message when one is due."""
        self._open("submissions")
        self._fix_question(question)
        raw = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        round_no = len(self.rounds)
        audited = time.monotonic()
        report = self._audit(raw)
        self.spans.audit(report, time.monotonic() - audited)
        problems = [d.message for d in report.defects]
        if report.protocol_error:
            problems = [report.protocol_error]
        repair = bool(problems) and round_no < MAX_REPAIR_ROUNDS
        message = (repair_message(problems, round_no + 1, MAX_REPAIR_ROUNDS, report.not_checked)
                   if repair else None)
        self.rounds.append(RoundRecord(round=round_no, answer_raw=raw, audit=report.to_json(),
                                       repair_message=message))
        self.reports.append(report)
        self.final = not repair
        if repair:
            self.spans.begin_round(round_no + 1)
        return self._reply(report, round_no, message)

    def record(self) -> TraceRecord:
        """The session as one trace record (what `run_attempt` would have written)."""
        last = self.reports[-1] if self.reports else None
        stop = ("no_answer" if last is None else
                "malformed_answer" if last.status == "malformed" else "answered")
        record = TraceRecord(
            attempt_id=self.attempt_id, question=QuestionRecord(id="mcp", text=self.question or ""),
            config=self.protocol.name, model=f"mcp:{self.client}", started_at=self.started_at,
            catalog=self.catalog, catalog_digest=digest(self.catalog),
            model_version=self.catalog["model_version"], calls=list(self.toolbox.calls),
            rounds=list(self.rounds), served_round=choose_served(list(self.reports)),
            stop_reason=stop, error=None if last else "The MCP session ended before an answer "
            "was submitted.", elapsed_s=time.monotonic() - self.started,
            notes=[read_as(self.question or "", self.catalog), *self.notes],
            project=stamp_of(self.layer))
        self.spans.finish(record)  # once: the attempt span ends with its first record
        self.spans = otel.OFF
        return record

    def _open(self, what: str) -> None:
        if self.final:
            served = choose_served(list(self.reports))
            decision = shown(_shown_of(self.reports[served]) if served is not None else None).word
            raise Refused(f"The answer of this session is final (round {served} is served, "
                          f"decision {decision}); it takes no more {what}. Two repairs at "
                          "most: open a new MCP session for a new answer.")

    def _fix_question(self, question: str | None) -> None:
        if question is not None and (not isinstance(question, str) or len(question) > MAX_TEXT):
            raise Refused(f"question must be the user's question as text, at most {MAX_TEXT:,} "
                          "characters.")
        if not self.rounds:
            self.question = question
        elif question is not None and question != self.question:
            self.notes.append(f"round {len(self.rounds)} named another question; the first "
                              "submission's question is kept")

    def _audit(self, raw: str) -> AuditReport:
        """Exactly the audit `run_attempt` runs on a round (and `reaudit` repeats)."""
        text = self.question or ""
        return audit(raw, Evidence.from_calls(self.toolbox.calls), self.catalog,
                     _guess_category(text), self.protocol.rendered, question=text)

    def _reply(self, report: AuditReport, round_no: int, message: str | None) -> dict[str, Any]:
        served = choose_served(list(self.reports)) if self.final else None
        return {
            "round": round_no, "final": self.final, "status": report.status,
            "read_as": read_as(self.question or "", self.catalog),
            "grounded": report.grounded, "decision": decision_key(_shown_of(report)),
            "decision_label": shown(_shown_of(report)).word,
            "protocol_error": report.protocol_error,
            "defects": [{"code": d.code, "claim": d.claim, "citation": d.citation,
                         "message": d.message} for d in report.defects],
            "findings": [{"code": f.code, "claim": f.claim, "message": f.message,
                          "suggestion": f.suggestion} for f in report.findings],
            "not_checked": report.not_checked,
            "claims": [{"id": c.id, "state": c.state, "text": c.text} for c in report.claims],
            "repair_message": message,
            "repairs_left": MAX_REPAIR_ROUNDS - round_no if message else 0,
            "served": None if served is None else {
                "round": served, "decision": decision_key(_shown_of(self.reports[served])),
                "decision_label": shown(_shown_of(self.reports[served])).word,
                "grounded": self.reports[served].grounded, "trace": self.attempt_id},
            "note": TICK_NOTE,
        }


def _shown_of(report: AuditReport) -> dict[str, Any]:
    """What the decision a person sees reads from a report: its status and the audit's word."""
    return {"status": report.status, "decision": report.decision}
