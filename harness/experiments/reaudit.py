"""A stored attempt audited again from its trace alone: no model, no database.

Kept apart from harness/experiments/attempt.py (which runs attempts) so `showwork audit` loads the audit and
the trace reader only, never the analyst, the semantic layer or a database engine.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from showwork.harness.audit import AuditReport, Evidence, audit
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.errors import StoredResultError
from showwork.protocol.switches import Protocol
from showwork.traces import AuditView, DamagedTrace, TraceRecord, digest


def reaudit(record: TraceRecord | AuditView) -> AuditReport | None:
    """Audit the served answer again from the trace alone: no model, no database.

    Audits of many traces share one catalog index per catalog digest; a catalog is checked
    against its digest before an index is built from it. A trace whose catalog or cited result
    was damaged raises DamagedTrace naming the attempt. A re-audit view whose answer, question,
    configuration and calls another view already had (a run's repeats) gets that view's report:
    the audit is a pure function of them (`_inputs`), kept with the catalog index's readings.
    """
    served = record.served()
    if served is None or served.answer_raw is None:
        return None
    calls = [c for c in record.calls if c.round <= served.round]
    category = record.question.category or _guess_category(record.question.text)
    index = CatalogIndex.cached(record.catalog_digest)
    if index is None:
        snapshot = record.catalog_snapshot()
        if snapshot is None or digest(snapshot) != record.catalog_digest:
            raise DamagedTrace(f"attempt {record.attempt_id}: the catalog does not match its "
                               "recorded digest (the trace was edited)")
        index = CatalogIndex.build(snapshot, record.catalog_digest)
    rendered = _protocol(record.config).rendered
    answer, question = served.answer_raw, record.question.text
    try:
        if isinstance(record, AuditView):
            key = _inputs(answer, calls, category, rendered, question)
            return index.read(AUDITS, key, lambda _key: _audit(answer, calls, index, category,
                                                              rendered, question))
        return _audit(answer, calls, index, category, rendered, question)
    except StoredResultError as exc:
        raise DamagedTrace(f"attempt {record.attempt_id}: {exc}") from exc


AUDITS = "reaudit"
"""The catalog index's kind of reading that holds whole re-audits, by `_inputs`."""


def _audit(answer: str, calls: list[Any], index: CatalogIndex, category: str | None,
           rendered: bool, question: str) -> AuditReport:
    return audit(answer, Evidence.from_calls(calls), index, category, rendered,
                 question=question)


def _inputs(answer: str, calls: list[Any], category: str | None, rendered: bool,
            question: str) -> tuple[Any, ...]:
    """Everything `audit` reads of a re-audit view besides its catalog (the index is the
    catalog's): the answer's text, the question's, its category, whether claims are rendered,
    and each call as the evidence takes it (not the attempt's id, timings or turns). A view's
    results and arguments are raw JSON, compared byte for byte: a key may miss an equal result
    written otherwise, never match another."""
    return (answer, question, category, rendered,
            tuple((c.tool, c.handle, bytes(c.result), bytes(c.arguments),
                   None if c.error is None else tuple(sorted(c.error.items())))
                  for c in calls))


@lru_cache(maxsize=64)
def _protocol(config: str) -> Protocol:
    """A run holds a handful of configurations; each is parsed once."""
    return Protocol.parse(config)


_WHY = ("why", "what drove", "what caused", "explain", "reason for", "driver", "drivers")


def _guess_category(text: str) -> str | None:
    """Questions asked ad hoc carry no category; a why-question is diagnostic."""
    lowered = text.lower()
    return "diagnostic" if any(w in lowered for w in _WHY) else None
