"""Trace records: one schema-versioned record per attempt, appended to traces.jsonl.

Everything the audit needs is here (calls with typed results, the catalog snapshot, every
answer), so a stored trace re-audits with no model and no database. The records are plain
dataclasses (a warm ask builds one without importing pydantic); a stored line is read back
through pydantic's validation of the same classes (`showwork._plain`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from showwork._plain import Plain

SCHEMA_VERSION = 1
_CONFIG = {"extra": "forbid"}
"""pydantic's model config of each record when a stored line is read (`showwork._plain`).
Records are keyword-only dataclasses: fields keep the order they are written (and dumped) in."""


@dataclass(slots=True, kw_only=True)
class UsageRecord(Plain):
    __pydantic_config__ = _CONFIG
    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0


@dataclass(slots=True, kw_only=True)
class TurnRecord(Plain):
    """One model turn."""

    __pydantic_config__ = _CONFIG
    index: int
    round: int = 0
    kind: str
    """tool_calls, answer, refusal, empty, error"""
    summary: str
    finish_reason: str | None = None
    usage: UsageRecord = field(default_factory=UsageRecord)
    elapsed_s: float = 0.0
    raw: dict[str, Any] | None = None
    """The response as JSON, for replay:."""

    def __post_init__(self) -> None:
        self.elapsed_s = float(self.elapsed_s)  # as pydantic stored a float field: 2 is 2.0


@dataclass(slots=True, kw_only=True)
class CallRecord(Plain):
    """One governed call: a handle and typed result, or the reason it was blocked."""

    __pydantic_config__ = _CONFIG
    index: int
    """1-based position among all calls of the attempt."""
    round: int = 0
    tool: str
    arguments_raw: str
    arguments: Any = None
    purpose: str | None = None
    handle: int | None = None
    result: dict[str, Any] | None = None
    error: dict[str, str] | None = None
    """{"code": …, "message": …} when blocked or failed."""
    sql: str | None = None
    elapsed_s: float = 0.0

    def __post_init__(self) -> None:
        self.elapsed_s = float(self.elapsed_s)  # as pydantic stored a float field: 2 is 2.0


@dataclass(slots=True, kw_only=True)
class RoundRecord(Plain):
    """One answer and its audit; round 0 is the first answer, 1 and 2 are repairs."""

    __pydantic_config__ = _CONFIG
    round: int
    answer_raw: str | None
    audit: dict[str, Any] | None = None
    repair_message: str | None = None
    """The message sent back after this round's audit (None when no repair followed)."""


@dataclass(slots=True, kw_only=True)
class QuestionRecord(Plain):
    __pydantic_config__ = _CONFIG
    id: str
    text: str
    category: str | None = None
    answerable: bool | None = None
    gold: dict[str, Any] | None = None


@dataclass(slots=True, kw_only=True)
class TraceRecord(Plain):
    __pydantic_config__ = _CONFIG
    schema_version: int = SCHEMA_VERSION
    attempt_id: str
    question: QuestionRecord
    config: str
    model: str
    simulated: bool = False
    """True when the model is a simulator (noisy:); every surface says so."""
    repeat: int = 0
    started_at: str
    catalog: dict[str, Any]
    catalog_digest: str
    model_version: str
    project: dict[str, Any] | None = None
    """The project the attempt ran on: {"name": …, "digest": …} (None in older traces)."""
    turns: list[TurnRecord] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    rounds: list[RoundRecord] = field(default_factory=list)
    served_round: int | None = None
    stop_reason: str
    error: str | None = None
    usage: UsageRecord = field(default_factory=UsageRecord)
    elapsed_s: float = 0.0
    timing: dict[str, float] | None = None
    """Where `elapsed_s` went: {"queries_s": inside governed calls, "audit_s": inside the audit,
    "imports_s": the part of those two spent importing modules (start-up, not work)}."""
    notes: list[str] = field(default_factory=list)
    """What fell back or was adjusted (e.g. structured outputs unsupported by the server)."""
    chain: dict[str, str] | None = None
    """{"prev": …, "hash": …}: SHA-256 over this record's canonical JSON (without `chain`) and
    the previous record's hash, so an edited, deleted, reordered or added line is detected."""

    def __post_init__(self) -> None:
        self.elapsed_s = float(self.elapsed_s)  # as pydantic stored a float field: 2 is 2.0
        if self.timing is not None:
            self.timing = {k: float(v) for k, v in self.timing.items()}
        # a model took copies of the lists it was given: the session's own lists may grow on
        self.turns, self.calls, self.rounds = list(self.turns), list(self.calls), list(self.rounds)

    def served(self) -> RoundRecord | None:
        if self.served_round is None:
            return None
        return next((r for r in self.rounds if r.round == self.served_round), None)

    def catalog_snapshot(self) -> dict[str, Any]:
        return self.catalog
