"""Writing and reading traces.jsonl: fsynced appends, the manifest, the chain check, torn lines."""

from __future__ import annotations

import json
import os
from pathlib import Path

from showwork.traces.chain import GENESIS, chain_hash
from showwork.traces.errors import TornLine
from showwork.traces.records import TraceRecord
from showwork.traces.views import AuditView


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


def _complete_lines(path: Path, *, repair: bool) -> list[str]:
    """The file's complete lines; a torn last line raises TornLine unless `repair` drops it."""
    lines = path.read_text(encoding="utf-8").split("\n")
    complete, tail = [line for line in lines[:-1] if line.strip()], lines[-1]
    if tail.strip():
        if not repair:
            raise TornLine(f"{path}: the last line is incomplete ({len(tail)} bytes, no newline); "
                           "a run was interrupted while writing it. Resume the run to repair it.")
        import structlog  # here, not at import: most commands never log (harness/logs.py)

        structlog.get_logger("showwork.trace").warning(
            "torn last line dropped", file=str(path), bytes=len(tail), kept=len(complete))
        path.write_text("".join(line + "\n" for line in complete), encoding="utf-8")
    return complete


def read(path: Path, *, repair: bool = False) -> list[TraceRecord]:
    """Read every record; a torn last line raises TornLine unless `repair` drops it."""
    return [TraceRecord.model_validate_json(line)
            for line in _complete_lines(path, repair=repair)]


def read_views(path: Path, *, repair: bool = False) -> list[AuditView]:
    """Read every record's audit view; a torn last line raises TornLine unless `repair`."""
    return [AuditView.decode(line) for line in _complete_lines(path, repair=repair)]
