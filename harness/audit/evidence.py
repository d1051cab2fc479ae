"""The evidence an audit reads: the governed calls of an attempt, as the trace stores them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from semantic_layer.results import Result


@dataclass(frozen=True)
class Call:
    """One governed call: a handle and result when it succeeded, a reason when it did not."""

    tool: str
    arguments: Any
    handle: int | None
    result: Result | None
    error: str | None
    """The blocked or failed call's reason."""
    error_code: str | None = None


@dataclass(frozen=True)
class Evidence:
    calls: tuple[Call, ...]

    @classmethod
    def from_json(cls, calls: list[dict[str, Any]]) -> Evidence:
        out = []
        for c in calls:
            result = Result.from_json(c["result"]) if c.get("result") else None
            err = c.get("error") or {}
            out.append(Call(c.get("tool", "?"), c.get("arguments"), c.get("handle"), result,
                            err.get("message") if err else None, err.get("code") if err else None))
        return cls(tuple(out))

    @classmethod
    def from_calls(cls, calls: Any) -> Evidence:
        """From the trace's call records (objects with tool, arguments, handle, result, error)."""
        return cls(tuple(Call(c.tool, c.arguments, c.handle,
                              Result.from_json(c.result) if c.result else None,
                              (c.error or {}).get("message"), (c.error or {}).get("code"))
                         for c in calls))

    @cached_property
    def results(self) -> dict[int, Result]:
        return {c.handle: c.result for c in self.calls if c.handle and c.result is not None}

    def blocked(self) -> list[tuple[int, Call]]:
        """(position among all calls, 1-based; call) for calls that got no handle."""
        return [(i, c) for i, c in enumerate(self.calls, 1) if c.handle is None]
