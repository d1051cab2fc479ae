"""A stored attempt audited again from its trace alone: no model, no database.

Kept apart from harness/experiments/attempt.py (which runs attempts) so `showwork audit` loads the audit and
the trace reader only, never the analyst, the semantic layer or a database engine.
"""

from __future__ import annotations

from functools import lru_cache

from showwork.harness.audit import AuditReport, Evidence, audit
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.errors import StoredResultError
from showwork.protocol.switches import Protocol
from showwork.traces import AuditView, DamagedTrace, TraceRecord, digest


def reaudit(record: TraceRecord | AuditView) -> AuditReport | None:
    """Audit the served answer again from the trace alone: no model, no database.

    Audits of many traces share one catalog index per catalog digest; a catalog is checked
    against its digest before an index is built from it. A trace whose catalog or cited result
    was damaged raises DamagedTrace naming the attempt.
    """
    served = record.served()
    if served is None or served.answer_raw is None:
        return None
    protocol = _protocol(record.config)
    evidence = Evidence.from_calls([c for c in record.calls if c.round <= served.round])
    category = record.question.category or _guess_category(record.question.text)
    index = CatalogIndex.cached(record.catalog_digest)
    if index is None:
        snapshot = record.catalog_snapshot()
        if snapshot is None or digest(snapshot) != record.catalog_digest:
            raise DamagedTrace(f"attempt {record.attempt_id}: the catalog does not match its "
                               "recorded digest (the trace was edited)")
        index = CatalogIndex.build(snapshot, record.catalog_digest)
    try:
        return audit(served.answer_raw, evidence, index, category, protocol.rendered,
                     question=record.question.text)
    except StoredResultError as exc:
        raise DamagedTrace(f"attempt {record.attempt_id}: {exc}") from exc


@lru_cache(maxsize=64)
def _protocol(config: str) -> Protocol:
    """A run holds a handful of configurations; each is parsed once."""
    return Protocol.parse(config)


_WHY = ("why", "what drove", "what caused", "explain", "reason for", "driver", "drivers")


def _guess_category(text: str) -> str | None:
    """Questions asked ad hoc carry no category; a why-question is diagnostic."""
    lowered = text.lower()
    return "diagnostic" if any(w in lowered for w in _WHY) else None
