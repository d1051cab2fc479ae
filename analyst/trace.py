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

import msgspec
import structlog
from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1
log = structlog.get_logger("showwork.trace")


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
    chain: dict[str, str] | None = None
    """{"prev": …, "hash": …}: SHA-256 over this record's canonical JSON (without `chain`) and
    the previous record's hash, so an edited, deleted, reordered or added line is detected."""

    def served(self) -> RoundRecord | None:
        if self.served_round is None:
            return None
        return next((r for r in self.rounds if r.round == self.served_round), None)

    def catalog_snapshot(self) -> dict[str, Any]:
        return self.catalog


class QuestionView(msgspec.Struct):
    id: str
    text: str
    category: str | None = None


class CallView(msgspec.Struct):
    tool: str
    round: int = 0
    handle: int | None = None
    result: msgspec.Raw = msgspec.Raw()
    """The typed result's JSON, decoded only when a claim cites its handle."""
    error: dict[str, str] | None = None


class RoundView(msgspec.Struct):
    round: int
    answer_raw: str | None = None
    audit: msgspec.Raw = msgspec.Raw()
    """The stored audit's JSON, decoded only when it is compared with a fresh one."""

    def stored_audit(self) -> dict[str, Any] | None:
        return msgspec.json.decode(self.audit) if self.audit else None


class AuditView(msgspec.Struct, kw_only=True):
    """The part of a trace record a re-audit reads.

    Decoded with msgspec, which skips what a re-audit does not read (turns, SQL, timings) and
    keeps the catalog, call results and stored audits as raw JSON until they are needed: a large
    run re-audits at about the cost of parsing it (`showwork bench audit`).
    """

    attempt_id: str
    question: QuestionView
    config: str
    catalog_digest: str
    catalog: msgspec.Raw = msgspec.Raw()
    """Decoded only the first time a re-audit meets this catalog digest."""
    calls: list[CallView] = []
    rounds: list[RoundView] = []
    served_round: int | None = None

    @classmethod
    def decode(cls, line: str | bytes) -> AuditView:
        """One trace line; ValueError (msgspec's) names the field when the line is not a trace."""
        return _VIEW_DECODER.decode(line)

    def served(self) -> RoundView | None:
        if self.served_round is None:
            return None
        return next((r for r in self.rounds if r.round == self.served_round), None)

    def catalog_snapshot(self) -> dict[str, Any] | None:
        return msgspec.json.decode(self.catalog) if self.catalog else None


_VIEW_DECODER = msgspec.json.Decoder(AuditView)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


GENESIS = "0" * 64


def chain_hash(prev: str, body: dict[str, Any]) -> str:
    """The hash of one record: SHA-256 of the previous hash and the record's canonical JSON."""
    body = {k: v for k, v in body.items() if k != "chain"}
    return hashlib.sha256((prev + canonical_json(body)).encode("utf-8")).hexdigest()


def manifest_path(path: Path) -> Path:
    return path.with_name(path.stem + ".manifest.json")


class TraceWriter:
    """Appends records to a traces file with a hash chain and keeps its manifest up to date.

    Opening repairs a torn last line (a crash mid-write) and continues the chain from the last
    complete record; each append is one fsynced line, then the manifest (head hash, count) is
    replaced atomically.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = _complete_lines(path, repair=True) if path.exists() else []
        self.count = len(lines)
        last = json.loads(lines[-1]) if lines else {}
        self.head = (last.get("chain") or {}).get("hash", GENESIS)
        self._write_manifest()

    def append(self, record: TraceRecord) -> TraceRecord:
        body = record.model_dump(mode="json", exclude={"chain"})
        sealed = record.model_copy(update={"chain": {"prev": self.head,
                                                     "hash": chain_hash(self.head, body)}})
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(sealed.model_dump_json() + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self.count += 1
        self.head = sealed.chain["hash"]  # type: ignore[index]
        self._write_manifest()
        return sealed

    def _write_manifest(self) -> None:
        target = manifest_path(self.path)
        tmp = target.with_suffix(".tmp")
        tmp.write_text(json.dumps({"count": self.count, "head": self.head}), encoding="utf-8")
        os.replace(tmp, target)


def append(path: Path, record: TraceRecord) -> TraceRecord:
    """Append one record (hash-chained, fsynced) to a traces file."""
    return TraceWriter(path).append(record)


def verify_chain(path: Path) -> list[str]:
    """Every place the file breaks its hash chain or its manifest; empty when intact."""
    problems: list[str] = []
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        problems.append(f"line {len(lines)}: incomplete (no newline): the file was truncated "
                        "or a write was interrupted")
    prev = GENESIS
    for number, line in enumerate(lines, 1):
        try:
            body = json.loads(line)
            chain = body.get("chain") or {}
        except (json.JSONDecodeError, AttributeError):
            problems.append(f"line {number}: not valid JSON (edited or torn)")
            prev = "?"
            continue
        if chain.get("prev") != prev and prev != "?":
            problems.append(f"line {number}: does not follow line {number - 1} (a line was "
                            "deleted, inserted or reordered before it)")
        if chain.get("hash") != chain_hash(chain.get("prev", ""), body):
            problems.append(f"line {number}: content does not match its hash (edited)")
        prev = chain.get("hash", "?")
    manifest = manifest_path(path)
    if not manifest.exists():
        problems.append(f"{manifest.name} is missing: the line count and head cannot be checked")
        return problems
    expected = json.loads(manifest.read_text(encoding="utf-8"))
    if len(lines) > expected["count"]:
        problems.append(f"lines {expected['count'] + 1}..{len(lines)}: not covered by the "
                        f"manifest (appended, or written by a run that was killed)")
    elif len(lines) < expected["count"]:
        problems.append(f"the file has {len(lines)} lines but the manifest says "
                        f"{expected['count']}: truncated or lines deleted at the end")
    elif prev != expected["head"]:
        problems.append("the last line's hash is not the manifest's head: the end of the file "
                        "was replaced")
    return problems


class TornLine(ValueError):
    """The last line of a trace file is incomplete (a crash mid-write)."""


def _complete_lines(path: Path, *, repair: bool) -> list[str]:
    """The file's complete lines; a torn last line raises TornLine unless `repair` drops it."""
    lines = path.read_text(encoding="utf-8").split("\n")
    complete, tail = [line for line in lines[:-1] if line.strip()], lines[-1]
    if tail.strip():
        if not repair:
            raise TornLine(f"{path}: the last line is incomplete ({len(tail)} bytes, no newline); "
                           "a run was interrupted while writing it. Resume the run to repair it.")
        log.warning("torn last line dropped", file=str(path), bytes=len(tail),
                    kept=len(complete))
        path.write_text("".join(line + "\n" for line in complete), encoding="utf-8")
    return complete


def read(path: Path, *, repair: bool = False) -> list[TraceRecord]:
    """Read every record; a torn last line raises TornLine unless `repair` drops it."""
    return [TraceRecord.model_validate_json(line)
            for line in _complete_lines(path, repair=repair)]


def read_views(path: Path, *, repair: bool = False) -> list[AuditView]:
    """Read every record's audit view; a torn last line raises TornLine unless `repair`."""
    return [AuditView.decode(line) for line in _complete_lines(path, repair=repair)]
