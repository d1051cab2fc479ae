"""Governed calls a plan yields, and what each returned."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from showwork.protocol.periods import period_words, window_words
from showwork.semantic_layer.windows import Window

if TYPE_CHECKING:
    from showwork.analyst.rules.claims import AnswerBuilder


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

    def data_begins(self) -> str | None:
        """The day the data begins when it cuts the window only at its start (covered through
        the window's end), else None. Such a window is answered for its covered part and says
        so (docs/serving.md, "A window the data begins inside"); a window cut at its end (a
        period still running, data that stops inside it) is no such window."""
        cut = [cov for cov in (self.result or {}).get("coverage", []) if cov["partial"]]
        if not self.partial or not cut:
            return None
        for cov in cut:
            req, got = cov["requested"], cov["covered"]
            if not got or got["start"] <= req["start"] or got["end"] < req["end"]:
                return None
        return max(cov["covered"]["start"] for cov in cut)

    def unusable(self, what: str, begun: bool = False) -> str | None:
        """Why this result cannot answer (blocked, or a partly covered window), else None.
        `begun`: a window the data begins inside is usable (a level, breakdown, ranking or
        share of it, never a change across it)."""
        if self.blocked:
            return self.reason or f"the governed layer refused the {what}"
        if not self.partial or (begun and self.data_begins()):
            return None
        return self.partial_reason()


def begun(out: AnswerBuilder, r: Outcome, window: Window | None) -> AnswerBuilder:
    """The answer builder, saying where the data begins when it begins inside the window."""
    day = r.data_begins()
    if day is None or window is None:
        return out
    said = f"(The data begins {day}: {window_words(str(window))} is answered from that day.)"
    return replace(out, notes=[*out.notes, said])


Plan = Generator[Call, Outcome, dict[str, Any]]


def window_json(w: Window | None) -> dict[str, str]:
    if w is None:
        raise ValueError("a governed call needs a window; the question reader gives one")
    return w.to_json()
