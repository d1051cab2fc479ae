"""Trace records, the re-audit view, the hash chain and the store (traces.jsonl + manifest).

The bottom layer: imports nothing of ours but `showwork._plain`, so analyst and harness both
build on it. Names load on first use: the errors alone (what the CLI maps to exit codes) load no
records.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from showwork.traces.chain import GENESIS, canonical_json, chain_hash, digest
    from showwork.traces.errors import DamagedTrace, TornLine, TraceError
    from showwork.traces.records import (
        SCHEMA_VERSION,
        CallRecord,
        QuestionRecord,
        RoundRecord,
        TraceRecord,
        TurnRecord,
        UsageRecord,
    )
    from showwork.traces.store import TraceWriter, append, manifest_path, read, read_views, verify_chain
    from showwork.traces.views import AuditView, CallView, QuestionView, RoundView

_MODULES = {
    "showwork.traces.chain": ("GENESIS", "canonical_json", "chain_hash", "digest"),
    "showwork.traces.errors": ("DamagedTrace", "TornLine", "TraceError"),
    "showwork.traces.records": ("SCHEMA_VERSION", "CallRecord", "QuestionRecord", "RoundRecord",
                       "TraceRecord", "TurnRecord", "UsageRecord"),
    "showwork.traces.store": ("TraceWriter", "append", "manifest_path", "read", "read_views",
                     "verify_chain"),
    "showwork.traces.views": ("AuditView", "CallView", "QuestionView", "RoundView"),
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

if not __name__.startswith("showwork."):  # one import name: the folders live under showwork
    raise ImportError(f"import showwork.{__name__}, not {__name__} (see showwork/__init__.py)")
