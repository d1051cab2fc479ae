"""`replay:PATH` — give back the model responses recorded in a trace, in order."""

from __future__ import annotations

from pathlib import Path

from showwork.analyst.client import Request, ToolCall, Turn, Usage
from showwork.analyst.errors import ReplayExhausted
from showwork.traces import TraceRecord, read


class ReplayClient:
    simulated = False

    def __init__(self, path: str, attempt: str | None = None) -> None:
        self.name = f"replay:{path}"
        records = read(Path(path))
        if attempt:
            records = [r for r in records if r.attempt_id == attempt]
        if not records:
            raise ReplayExhausted(f"No recorded attempt to replay in {path}.")
        self.record: TraceRecord = records[0]
        self.simulated = self.record.simulated
        self.position = 0

    def complete(self, request: Request) -> Turn:
        turns = self.record.turns
        if self.position >= len(turns):
            raise ReplayExhausted(f"The trace recorded {len(turns)} model turns; the replay asked "
                                  "for more (the run diverged from the recording).")
        turn = turns[self.position]
        self.position += 1
        raw = turn.raw or {}
        return Turn(content=raw.get("content"), tool_calls=tuple(
            ToolCall(c["id"], c["name"], c["arguments"]) for c in raw.get("tool_calls", [])),
            finish_reason=turn.finish_reason or "stop", refusal=raw.get("refusal"),
            usage=Usage(**turn.usage.model_dump()))
