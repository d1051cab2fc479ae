"""Trace records, the re-audit view, the hash chain and the store (traces.jsonl + manifest).

The bottom layer: imports nothing of ours, so analyst and harness both build on it.
"""

from traces.chain import GENESIS, canonical_json, chain_hash, digest
from traces.errors import DamagedTrace, TornLine, TraceError
from traces.records import (
    SCHEMA_VERSION,
    CallRecord,
    QuestionRecord,
    RoundRecord,
    TraceRecord,
    TurnRecord,
    UsageRecord,
)
from traces.store import TraceWriter, append, manifest_path, read, read_views, verify_chain
from traces.views import AuditView, CallView, QuestionView, RoundView

__all__ = [
    "GENESIS", "SCHEMA_VERSION", "AuditView", "CallRecord", "CallView", "DamagedTrace", "QuestionRecord",
    "QuestionView", "RoundRecord", "RoundView", "TornLine", "TraceError", "TraceRecord",
    "TraceWriter", "TurnRecord", "UsageRecord", "append", "canonical_json", "chain_hash",
    "digest", "manifest_path", "read", "read_views", "verify_chain",
]
