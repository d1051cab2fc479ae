"""A scripted offline client: returns the turns it is given, one per request."""

from __future__ import annotations

import json
from typing import Any

from showwork.analyst.client import Request, ToolCall, Turn


def call(tool: str, **args: Any) -> Turn:
    return Turn(None, (ToolCall("call_1", tool, json.dumps(args)),), "tool_calls")


def say(answer: dict[str, Any]) -> Turn:
    return Turn(json.dumps(answer), (), "stop")


class Scripted:
    name = "scripted"
    simulated = False

    def __init__(self, turns: list[Turn]) -> None:
        self.turns = list(turns)
        self.requests: list[Request] = []

    def complete(self, request: Request) -> Turn:
        self.requests.append(request)
        if not self.turns:
            raise AssertionError("the script ran out of turns")
        return self.turns.pop(0)
