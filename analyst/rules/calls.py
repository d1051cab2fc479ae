"""Governed calls a plan yields, and what each returned."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from showwork.analyst.rules.dates import AllData
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

    def _edges(self) -> tuple[str | None, str | None] | None:
        """Where the data cuts a partly covered window: (the day it begins, when that is inside
        the window; the day it ends, when that is inside the window), or None when the window
        is not partly covered or some cut window holds no data at all."""
        cut = [cov for cov in (self.result or {}).get("coverage", []) if cov["partial"]]
        if not self.partial or not cut or any(not cov["covered"] for cov in cut):
            return None
        starts = [str(cov["covered"]["start"]) for cov in cut
                  if str(cov["covered"]["start"]) > str(cov["requested"]["start"])]
        ends = [str(cov["covered"]["end"]) for cov in cut
                if str(cov["covered"]["end"]) < str(cov["requested"]["end"])]
        return (max(starts) if starts else None), (min(ends) if ends else None)

    def data_begins(self) -> str | None:
        """The day the data begins when it cuts the window at its start, else None. Such a
        window is answered for its covered part and says so (docs/serving.md, "A window the
        data begins inside")."""
        edges = self._edges()
        return edges[0] if edges else None

    def data_ends(self) -> str | None:
        """The last day with data when it cuts the window at its end (a period still running,
        data that stops inside it), else None. A level over such a window is answered to date,
        through that day, and says so (docs/serving.md, "A period the data is still inside")."""
        edges = self._edges()
        return edges[1] if edges else None

    def unusable(self, what: str, begun: bool = False, to_date: bool = False) -> str | None:
        """Why this result cannot answer (blocked, or a partly covered window), else None.
        `begun`: a window the data begins inside is usable (a level, breakdown, ranking or
        share of it, never a change across it); `to_date`: a window the data ends inside is
        usable, answered through its last day (a level, breakdown, ranking by members or share,
        a series by a grain whose last period is the partial one; never a change across it,
        never a ranking of periods, where the partial period would read as a small one)."""
        if self.blocked:
            return self.reason or f"the governed layer refused the {what}"
        if not self.partial:
            return None
        edges = self._edges()
        if edges and (edges[0] is None or begun) and (edges[1] is None or to_date):
            return None
        return self.partial_reason()


def to_date(r: Outcome) -> str:
    """' to date, through 17 June 2026' when the data ends inside the window, else ''."""
    day = r.data_ends()
    return f" to date, through {period_words(day, day)}" if day else ""


def begun(out: AnswerBuilder, r: Outcome, window: Window | None) -> AnswerBuilder:
    """The answer builder, saying where the data begins when it begins inside the window, and
    where it ends when it ends inside it (the window answered to date, through that day)."""
    if window is None:
        return out
    said = []
    if day := r.data_begins():
        said.append(f"(The data begins {day}: {window_words(str(window))} is answered from "
                    "that day.)")
    if day := r.data_ends():
        said.append(f"(The data ends {day}: {window_words(str(window))} is answered to date, "
                    "through that day.)")
    return replace(out, notes=[*out.notes, *said]) if said else out


Plan = Generator[Call, Outcome, dict[str, Any]]


def window_json(w: Window | None) -> dict[str, str] | None:
    """A call's window; None (no time constraint) for all the data."""
    if w is None:
        raise ValueError("a governed call needs a window; the question reader gives one")
    return None if isinstance(w, AllData) else w.to_json()
