"""One attempt: the analyst session, the audit of each answer, repair rounds, the served answer.

The served attempt is never worse by audit than an earlier one: the round with the fewest
defects is served, a tie going to the latest. A round that makes things worse is recorded, not
served.
"""

from __future__ import annotations

import datetime as dt
import time
import uuid
from dataclasses import dataclass
from typing import Any

from showwork.analyst import clock
from showwork.analyst.client import ModelClient
from showwork.analyst.session import Budgets, Outcome, Session
from showwork.harness import otel
from showwork.harness.audit import AuditReport, Evidence, audit
from showwork.harness.audit.scope import read_as
from showwork.harness.experiments.reaudit import _guess_category, reaudit  # noqa: F401 (callers import reaudit from here)
from showwork.harness.project import stamp_of
from showwork.protocol.prompts import repair_message
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.traces import (
    QuestionRecord,
    RoundRecord,
    TraceRecord,
    UsageRecord,
    digest,
)

MAX_REPAIR_ROUNDS = 2


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    category: str | None = None
    answerable: bool | None = None
    gold: dict[str, Any] | None = None

    @property
    def diagnostic(self) -> bool:
        return self.category == "diagnostic"

    def record(self) -> QuestionRecord:
        return QuestionRecord(id=self.id, text=self.text, category=self.category,
                              answerable=self.answerable, gold=self.gold)


def run_attempt(question: Question, client: ModelClient, layer: SemanticLayer,
                protocol: Protocol, repeat: int = 0, budgets: Budgets | None = None,
                attempt_id: str | None = None, project: dict[str, str] | None = None
                ) -> TraceRecord:
    """Run one question under one configuration; return its complete trace.

    The trace records `project` (name, model digest), by default the project the layer was
    opened for."""
    started = time.monotonic()
    clock.install()
    catalog = layer.catalog()
    category = question.category or _guess_category(question.text)
    attempt_id = attempt_id or uuid.uuid4().hex[:12]
    project = project or stamp_of(layer)
    spans = otel.attempt_spans(attempt_id, question, protocol.name, client.name, project)
    try:
        session = Session(client, layer, protocol, question.text, catalog,
                          diagnostic=category == "diagnostic", budgets=budgets or Budgets(),
                          observer=spans)
        rounds: list[RoundRecord] = []
        reports: list[AuditReport | None] = []
        stop: str | None = None
        error: str | None = None
        audit_s = audit_imports_s = 0.0
        for round_no in range(MAX_REPAIR_ROUNDS + 1):
            spans.begin_round(round_no)
            outcome = session.next_answer()
            audited, imported = time.monotonic(), clock.seconds()
            report = _audit(outcome, session, catalog, question, category, protocol)
            audit_s += time.monotonic() - audited
            audit_imports_s += clock.seconds() - imported
            spans.audit(report, time.monotonic() - audited)
            reports.append(report)
            rounds.append(RoundRecord(round=round_no, answer_raw=outcome.raw,
                                      audit=report.to_json() if report else None))
            if outcome.stop_reason:
                stop, error = outcome.stop_reason, outcome.error
                break
            problems = [d.message for d in report.defects] if report else []
            if report and report.protocol_error:
                problems = [report.protocol_error]
            if not (protocol.repair and problems and round_no < MAX_REPAIR_ROUNDS):
                stop = "answered" if report and report.status != "malformed" else "malformed_answer"
                break
            message = repair_message(problems, round_no + 1, MAX_REPAIR_ROUNDS,
                                     report.not_checked if report else ())
            rounds[-1] = rounds[-1].model_copy(update={"repair_message": message})
            session.repair(message)
        served = choose_served(reports)
        record = TraceRecord(
            attempt_id=attempt_id, question=question.record(),
            config=protocol.name, model=client.name, simulated=client.simulated, repeat=repeat,
            started_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), catalog=catalog,
            catalog_digest=digest(catalog), model_version=catalog["model_version"],
            project=project, turns=session.turns, calls=session.calls,
            rounds=rounds, served_round=served, stop_reason=stop or "answered", error=error,
            usage=UsageRecord(**session.usage.__dict__), elapsed_s=time.monotonic() - started,
            timing=_timing(session, audit_s, audit_imports_s),
            notes=[read_as(question.text, catalog), *session.notes, *getattr(client, "notes", [])])
    except BaseException as exc:  # the attempt's span ends, marked failed, and is sent
        spans.fail(exc)
        raise
    spans.finish(record)
    return record


def _timing(session: Session, audit_s: float, audit_imports_s: float) -> dict[str, float]:
    """The attempt's time inside governed calls and the audit, and the imports within them
    (omitted where the import clock cannot run: an unknown is not a zero)."""
    timing = {"queries_s": session.queries_s, "audit_s": audit_s}
    if clock.installed():
        timing["imports_s"] = session.query_imports_s + audit_imports_s
    return timing


def _audit(outcome: Outcome, session: Session, catalog: dict[str, Any], question: Question,
           category: str | None, protocol: Protocol) -> AuditReport | None:
    if outcome.raw is None or outcome.stop_reason in ("model_refusal", "length",
                                                      "content_filter"):
        return None
    evidence = Evidence.from_calls(session.calls)
    return audit(outcome.answer or outcome.raw, evidence, catalog, category, protocol.rendered,
                 question=question.text)


def choose_served(reports: list[AuditReport | None]) -> int | None:
    """The round to serve: fewest defects (a parsed answer beats a malformed one), latest on ties."""
    best: tuple[int, int] | None = None
    served = None
    for i, report in enumerate(reports):
        if report is None:
            continue
        score = (0 if report.status != "malformed" else 1, len(report.defects))
        if best is None or score <= best:
            best, served = score, i
    return served
