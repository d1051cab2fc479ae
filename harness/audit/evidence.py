"""The evidence an audit reads: the governed calls of an attempt, as the trace stores them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from semantic_layer.results import Result


@dataclass(frozen=True)
class Call:
    """One governed call: a handle and its stored result when it succeeded, a reason if not."""

    tool: str
    arguments: Any
    handle: int | None
    result_json: dict[str, Any] | None
    """The typed result as stored; built into a Result only when a claim cites it."""
    error: str | None
    """The blocked or failed call's reason."""
    error_code: str | None = None


class _Results(Mapping[int, Result]):
    """handle → Result, each built from its stored JSON on first use."""

    def __init__(self, calls: tuple[Call, ...]) -> None:
        self._raw = {c.handle: c.result_json for c in calls
                     if c.handle and c.result_json is not None}
        self._built: dict[int, Result] = {}

    def __getitem__(self, handle: int) -> Result:
        if handle not in self._built:
            self._built[handle] = Result.from_json(self._raw[handle])
        return self._built[handle]

    def __contains__(self, handle: object) -> bool:
        return handle in self._raw

    def __iter__(self) -> Iterator[int]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


@dataclass(frozen=True)
class Evidence:
    calls: tuple[Call, ...]

    @classmethod
    def from_json(cls, calls: list[dict[str, Any]]) -> Evidence:
        out = []
        for c in calls:
            err = c.get("error") or {}
            out.append(Call(c.get("tool", "?"), c.get("arguments"), c.get("handle"),
                            c.get("result") or None, err.get("message"), err.get("code")))
        return cls(tuple(out))

    @classmethod
    def from_calls(cls, calls: Any) -> Evidence:
        """From the trace's call records (objects with tool, arguments, handle, result, error)."""
        return cls(tuple(Call(c.tool, c.arguments, c.handle, c.result or None,
                              (c.error or {}).get("message"), (c.error or {}).get("code"))
                         for c in calls))

    @cached_property
    def results(self) -> Mapping[int, Result]:
        return _Results(self.calls)

    def blocked(self) -> list[tuple[int, Call]]:
        """(position among all calls, 1-based; call) for calls that got no handle."""
        return [(i, c) for i, c in enumerate(self.calls, 1) if c.handle is None]
