"""Trace records, the re-audit view, the hash chain and the store (traces.jsonl + manifest).

The bottom layer: imports nothing of ours, so analyst and harness both build on it. Names load on
first use: the errors alone (what the CLI maps to exit codes) cost no pydantic models.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_MODULES = {
    "traces.chain": ("GENESIS", "canonical_json", "chain_hash", "digest"),
    "traces.errors": ("DamagedTrace", "TornLine", "TraceError"),
    "traces.records": ("SCHEMA_VERSION", "CallRecord", "QuestionRecord", "RoundRecord",
                       "TraceRecord", "TurnRecord", "UsageRecord"),
    "traces.store": ("TraceWriter", "append", "manifest_path", "read", "read_views",
                     "verify_chain"),
    "traces.views": ("AuditView", "CallView", "QuestionView", "RoundView"),
}
_LAZY = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "GENESIS", "SCHEMA_VERSION", "AuditView", "CallRecord", "CallView", "DamagedTrace", "QuestionRecord",
    "QuestionView", "RoundRecord", "RoundView", "TornLine", "TraceError", "TraceRecord",
    "TraceWriter", "TurnRecord", "UsageRecord", "append", "canonical_json", "chain_hash",
    "digest", "manifest_path", "read", "read_views", "verify_chain",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'traces' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
