"""Governed calls a plan yields, and what each returned."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from showwork.protocol.periods import period_words
from showwork.semantic_layer.windows import Window


@dataclass(frozen=True)
class Call:
    tool: str
    arguments: dict[str, Any]
    purpose: str


@dataclass(frozen=True)
class Outcome:
    """What a governed call returned: a handle and result, or the blocked reason."""

    handle: int | None
    result: dict[str, Any] | None
    reason: str | None

    @property
    def blocked(self) -> bool:
        return self.handle is None

    def rows(self) -> list[dict[str, Any]]:
        return (self.result or {}).get("rows", [])

    @property
    def partial(self) -> bool:
        return bool((self.result or {}).get("partial"))

    def partial_reason(self) -> str:
        for cov in (self.result or {}).get("coverage", []):
            if cov["partial"]:
                req, got = cov["requested"], cov["covered"]
                covered = period_words(got["start"], got["end"]) if got else "none of it"
                return (f"{period_words(req['start'], req['end'])} is only partly covered by data "
                        f"(covered: {covered}); a partial period would read as a fake change.")
        return "the window is only partly covered by data."

    def unusable(self, what: str) -> str | None:
        """Why this result cannot answer (blocked, or a partly covered window), else None."""
        if self.blocked:
            return self.reason or f"the governed layer refused the {what}"
        return self.partial_reason() if self.partial else None


Plan = Generator[Call, Outcome, dict[str, Any]]


def window_json(w: Window | None) -> dict[str, str]:
    if w is None:
        raise ValueError("a governed call needs a window; the question reader gives one")
    return w.to_json()
