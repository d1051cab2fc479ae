"""The analyst loop: the model calls governed tools until it answers, within budgets.

A session keeps the conversation so a repair round can continue it: handles carry on (r5, r6, …)
and every turn and call is recorded for the trace. Whatever the model sends, the session never
raises: a bad turn is handed back where a retry makes sense, else it ends with a stop reason.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from showwork.analyst import clock
from showwork.analyst.client import ModelClient, Request, Turn, Usage
from showwork.analyst.errors import ModelCallError
from showwork.analyst.tools import Toolbox
from showwork.protocol.answer import Answer, parse_answer
from showwork.protocol.errors import AnswerError
from showwork.protocol.prompts import system_prompt
from showwork.protocol.sanitize import clean_for_model
from showwork.protocol.schemas import answer_schema, tool_schemas
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.traces import TurnRecord, UsageRecord


@dataclass(frozen=True)
class Budgets:
    """Limits of one attempt; reaching one ends it with that stop reason."""

    max_steps: int = 16
    """Model turns, repairs included."""
    max_tool_calls: int = 16
    max_tokens: int = 200_000
    """Input plus output tokens over the attempt."""
    wall_time_s: float = 180.0
    format_retries: int = 2
    """Malformed answers handed back to the model before giving up."""


@dataclass
class Outcome:
    """How a stretch of the conversation ended: an answer, or a stop reason."""

    raw: str | None
    answer: Answer | None = None
    stop_reason: str | None = None
    """None when an answer arrived; else why the session stopped."""
    error: str | None = None


@dataclass
class Session:
    client: ModelClient
    layer: SemanticLayer
    protocol: Protocol
    question: str
    catalog: dict[str, Any]
    diagnostic: bool = False
    budgets: Budgets = field(default_factory=Budgets)
    messages: list[dict[str, Any]] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    round: int = 0
    started: float = field(default_factory=time.monotonic)
    observer: Any = None
    """Told of each model turn and governed call as it ends (harness/otel.py's spans)."""
    queries_s: float = 0.0
    """Seconds inside governed calls so far."""
    query_imports_s: float = 0.0
    """The part of `queries_s` spent importing modules (analyst/clock.py)."""

    def __post_init__(self) -> None:
        self.toolbox = Toolbox(self.layer, require_purpose=self.protocol.purpose)
        prompt = system_prompt(self.catalog, self.protocol, self.diagnostic)
        question, removed = clean_for_model(self.question)
        self.notes: list[str] = []
        if removed:
            self.notes.append(f"{removed} control, bidi or zero-width character(s) removed from "
                              "the question in the model's copy (the trace keeps it raw)")
        self.messages = [{"role": "system", "content": prompt},
                         {"role": "user", "content": question}]
        self.request_tools = tool_schemas(self.protocol)
        self.schema = answer_schema(self.protocol)

    def repair(self, message: str) -> None:
        """Continue the conversation with a repair message (the next round).

        The message quotes the model's own citations; the model's copy drops control, bidi and
        zero-width characters (the trace keeps the message as the audit wrote it)."""
        self.round += 1
        self.messages.append({"role": "user", "content": clean_for_model(message)[0]})

    def next_answer(self) -> Outcome:
        retries = self.budgets.format_retries
        while True:
            stop = self._over_budget()
            if stop:
                return Outcome(None, stop_reason=stop, error=f"budget reached: {stop}")
            try:
                turn = self._complete()
            except ModelCallError as exc:
                return Outcome(None, stop_reason=exc.reason, error=exc.message)
            if turn.tool_calls:
                self._run_tools(turn)
                continue
            outcome, handed_back = self._read_answer(turn, retries)
            if outcome is not None:
                return outcome
            retries -= 1 if handed_back else 0

    # -- one model turn ----------------------------------------------------------------------
    def _complete(self) -> Turn:
        started = time.monotonic()
        context = {"catalog": self.catalog, "config": self.protocol.name, "round": self.round}
        turn = self.client.complete(Request(list(self.messages), self.request_tools, self.schema,
                                            context))
        self.usage = self.usage + turn.usage
        self.turns.append(TurnRecord(
            index=len(self.turns) + 1, round=self.round, kind=_kind(turn), summary=_summary(turn),
            finish_reason=turn.finish_reason, usage=UsageRecord(**turn.usage.__dict__),
            elapsed_s=time.monotonic() - started, raw=turn.to_json()))
        if self.observer is not None:
            self.observer.model_call(self.client.name, turn, self.turns[-1].elapsed_s)
        return turn

    def _over_budget(self) -> str | None:
        b = self.budgets
        if len(self.turns) >= b.max_steps:
            return "max_steps"
        if self.usage.input_tokens + self.usage.output_tokens >= b.max_tokens:
            return "token_budget"
        if time.monotonic() - self.started >= b.wall_time_s:
            return "wall_time"
        return None

    def _run_tools(self, turn: Turn) -> None:
        self.messages.append({"role": "assistant", "content": turn.content, "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in turn.tool_calls]})
        for call in turn.tool_calls:
            if len(self.toolbox.calls) >= self.budgets.max_tool_calls:
                content = json.dumps({"blocked": True, "code": "tool_budget", "handle": None,
                                      "reason": f"The budget of {self.budgets.max_tool_calls} "
                                      "governed calls is used up; give your answer now."})
            else:
                started, imported = time.perf_counter(), clock.seconds()
                content, record = self.toolbox.dispatch(call.name, call.arguments, self.round)
                self.queries_s += time.perf_counter() - started
                self.query_imports_s += clock.seconds() - imported
                if self.observer is not None:
                    self.observer.tool_call(record)
            self.messages.append({"role": "tool", "tool_call_id": call.id, "content": content})

    def _read_answer(self, turn: Turn, retries: int) -> tuple[Outcome | None, bool]:
        """(outcome when the stretch ends, whether the turn was handed back for a retry)."""
        text = turn.content or ""
        if turn.refusal:
            return Outcome(turn.refusal, stop_reason="model_refusal", error=turn.refusal), False
        if turn.finish_reason == "length":
            return Outcome(text, stop_reason="length",
                           error="The model hit its output limit mid-answer."), False
        if turn.finish_reason == "content_filter":
            return Outcome(text, stop_reason="content_filter", error="Content filtered."), False
        try:
            if not text.strip():
                raise AnswerError("The reply was empty; reply with the answer JSON object.")
            return Outcome(text, answer=parse_answer(text)), False
        except AnswerError as exc:
            if retries <= 0:
                return Outcome(text, stop_reason="malformed_answer", error=exc.message), False
            self.messages.append({"role": "assistant", "content": text})
            self.messages.append({"role": "user", "content": f"{exc.message} Return the whole "
                                  "answer again as one JSON object, with no other text."})
            return None, True

    @property
    def calls(self):
        return self.toolbox.calls


def _kind(turn: Turn) -> str:
    if turn.tool_calls:
        return "tool_calls"
    if turn.refusal:
        return "refusal"
    return "answer" if (turn.content or "").strip() else "empty"


def _summary(turn: Turn) -> str:
    if turn.tool_calls:
        return "; ".join(f"{c.name}({c.arguments[:120]})" for c in turn.tool_calls)
    text = turn.refusal or turn.content or ""
    return text[:300]
