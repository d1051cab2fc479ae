"""The trace: one schema-versioned record per attempt, appended to traces.jsonl.

Everything the audit needs is here (calls with typed results, the catalog snapshot, every
answer), so a stored trace re-audits with no model and no database.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UsageRecord(_Record):
    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0


class TurnRecord(_Record):
    """One model turn."""

    index: int
    round: int = 0
    kind: str
    """tool_calls, answer, refusal, empty, error"""
    summary: str
    finish_reason: str | None = None
    usage: UsageRecord = UsageRecord()
    elapsed_s: float = 0.0
    raw: dict[str, Any] | None = None
    """The response as JSON, for replay:."""


class CallRecord(_Record):
    """One governed call: a handle and typed result, or the reason it was blocked."""

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


class RoundRecord(_Record):
    """One answer and its audit; round 0 is the first answer, 1 and 2 are repairs."""

    round: int
    answer_raw: str | None
    audit: dict[str, Any] | None = None
    repair_message: str | None = None
    """The message sent back after this round's audit (None when no repair followed)."""


class QuestionRecord(_Record):
    id: str
    text: str
    category: str | None = None
    answerable: bool | None = None
    gold: dict[str, Any] | None = None


class TraceRecord(_Record):
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
    turns: list[TurnRecord] = []
    calls: list[CallRecord] = []
    rounds: list[RoundRecord] = []
    served_round: int | None = None
    stop_reason: str
    error: str | None = None
    usage: UsageRecord = UsageRecord()
    elapsed_s: float = 0.0
    notes: list[str] = Field(default_factory=list)
    """What fell back or was adjusted (e.g. structured outputs unsupported by the server)."""

    def served(self) -> RoundRecord | None:
        if self.served_round is None:
            return None
        return next(r for r in self.rounds if r.round == self.served_round)


class _View(BaseModel):
    model_config = ConfigDict(extra="ignore")


class RoundView(_View):
    round: int
    answer_raw: str | None


class AuditView(_View):
    """The part of a trace record a re-audit reads: the rest (turns, stored audits, timings) is
    skipped while parsing, which makes re-auditing a large run cheap."""

    attempt_id: str
    question: QuestionRecord
    config: str
    catalog_digest: str
    """The catalog itself is read only when no catalog with this digest has been read yet."""
    calls: list[CallRecord] = []
    rounds: list[RoundView] = []
    served_round: int | None = None

    def served(self) -> RoundView | None:
        if self.served_round is None:
            return None
        return next(r for r in self.rounds if r.round == self.served_round)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def append(path: Path, record: TraceRecord) -> None:
    """Append one record as one line, flushed and fsynced, so a crash loses at most that line."""
    line = record.model_dump_json() + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())


class TornLine(ValueError):
    """The last line of a trace file is incomplete (a crash mid-write)."""


def read(path: Path, *, repair: bool = False) -> list[TraceRecord]:
    """Read every record; a torn last line raises TornLine unless `repair` drops it."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    complete, tail = lines[:-1], lines[-1]
    records = [TraceRecord.model_validate_json(line) for line in complete if line.strip()]
    if tail.strip():
        if not repair:
            raise TornLine(f"{path}: the last line is incomplete ({len(tail)} bytes, no newline); "
                           "a run was interrupted while writing it. Resume the run to repair it.")
        path.write_text("\n".join(complete) + ("\n" if complete else ""), encoding="utf-8")
    return records
