"""`rules` — the built-in deterministic analyst: the offline default and the rule-only baseline.

It reads the question against the catalog, plans governed calls through the same tools a model
uses (so every number it states has a handle), and writes its argument as claims.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from showwork.analyst.client import Request, ToolCall, Turn
from showwork.analyst.rules.engine import Call, Outcome, plan
from showwork.analyst.rules.understand import Understood, understand
from showwork.protocol.switches import Protocol


class RulesClient:
    name = "rules"
    simulated = False

    def __init__(self, misread: Callable[[Understood], None] | None = None) -> None:
        self._local = threading.local()
        self.misread = misread
        """A labelled reading fault (the scope-fault corpus): it edits what the question was
        read as before the plan runs, so the answer answers a neighbouring question."""

    @property
    def notes(self) -> list[str]:
        """What the last question answered in this thread ignored (the trace records it)."""
        return list(getattr(self._local, "notes", []))

    def complete(self, request: Request) -> Turn:
        catalog = request.context["catalog"]
        protocol = Protocol.parse(request.context.get("config", "claims"))
        q = understand(question_of(request.messages), catalog)
        if self.misread is not None:
            self.misread(q)
        self._local.notes = ([f"rules: ignored an instruction in the question: {q.ignored!r}"]
                             if q.ignored else [])
        action = next_action(request.messages, catalog, protocol, q)
        if isinstance(action, Call):
            args = dict(action.arguments)
            if protocol.purpose:
                args["purpose"] = action.purpose
            call_id = f"call_{sum(1 for m in request.messages if m['role'] == 'tool') + 1}"
            return Turn(None, (ToolCall(call_id, action.tool, json.dumps(args)),), "tool_calls")
        return Turn(json.dumps(action), (), "stop")


def question_of(messages: list[dict[str, Any]]) -> str:
    return next(m["content"] for m in messages if m["role"] == "user")


def outcomes_of(messages: list[dict[str, Any]]) -> list[Outcome]:
    out = []
    for m in messages:
        if m["role"] != "tool":
            continue
        data = json.loads(m["content"])
        handle = data.get("handle")
        if isinstance(handle, str) and handle.startswith("r"):
            out.append(Outcome(int(handle[1:]), data, None))
        else:
            out.append(Outcome(None, None, data.get("reason") or "blocked"))
    return out


def next_action(messages: list[dict[str, Any]], catalog: dict[str, Any],
                protocol: Protocol, q: Understood | None = None) -> Call | dict[str, Any]:
    """Replay the plan over the outcomes so far; return the next call or the answer."""
    q = q if q is not None else understand(question_of(messages), catalog)
    steps = plan(q, catalog, protocol.claims)
    try:
        action = next(steps)
        for outcome in outcomes_of(messages):
            action = steps.send(outcome)
    except StopIteration as done:
        return done.value
    return action
