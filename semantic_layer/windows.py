"""Date windows (inclusive) and calendar periods (ISO weeks start on Monday)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

DIALECTS = ("duckdb", "spark", "trino", "bigquery", "snowflake", "postgres")
"""The SQL dialects the layer compiles to (here, not in compile.py: the CLI names them in its
help without loading sqlglot)."""
UNKNOWN_DAY = dt.date.max
"""as_of when neither the project nor the warehouse says (compile-only use)."""


@dataclass(frozen=True, order=True)
class Window:
    """An inclusive date window."""

    start: dt.date
    """First day in the window."""
    end: dt.date
    """Last day in the window (inclusive)."""

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    @property
    def end_exclusive(self) -> dt.date:
        return self.end + dt.timedelta(days=1)

    def intersect(self, other: Window) -> Window | None:
        start, end = max(self.start, other.start), min(self.end, other.end)
        return Window(start, end) if start <= end else None

    def covers(self, other: Window) -> bool:
        return self.start <= other.start and other.end <= self.end

    def to_json(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}

    @classmethod
    def from_json(cls, data: dict[str, str]) -> Window:
        return cls(dt.date.fromisoformat(data["start"]), dt.date.fromisoformat(data["end"]))

    def __str__(self) -> str:
        return f"{self.start.isoformat()}..{self.end.isoformat()}"


def period_start(day: dt.date, grain: str) -> dt.date:
    """The first day of the period holding `day`.

    >>> period_start(dt.date(2026, 3, 15), "week")
    datetime.date(2026, 3, 9)
    >>> period_start(dt.date(2026, 5, 15), "quarter"), period_start(dt.date(2026, 5, 15), "year")
    (datetime.date(2026, 4, 1), datetime.date(2026, 1, 1))
    """
    if grain == "day":
        return day
    if grain == "week":
        return day - dt.timedelta(days=day.weekday())
    if grain == "quarter":
        return day.replace(month=(day.month - 1) // 3 * 3 + 1, day=1)
    if grain == "year":
        return day.replace(month=1, day=1)
    return day.replace(day=1)


def period_end(start: dt.date, grain: str) -> dt.date:
    """The last day of the period starting at `start`.

    >>> period_end(dt.date(2026, 4, 1), "quarter"), period_end(dt.date(2024, 2, 1), "month")
    (datetime.date(2026, 6, 30), datetime.date(2024, 2, 29))
    """
    if grain == "day":
        return start
    if grain == "week":
        return start + dt.timedelta(days=6)
    months = {"quarter": 3, "year": 12}.get(grain, 1)
    index = start.year * 12 + start.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1) - dt.timedelta(days=1)


def periods(window: Window, grain: str) -> list[Window]:
    """The whole calendar periods that touch the window, in order."""
    out, start = [], period_start(window.start, grain)
    while start <= window.end:
        out.append(Window(start, period_end(start, grain)))
        start = out[-1].end + dt.timedelta(days=1)
    return out


def aligned(window: Window, grain: str) -> bool:
    """True when the window is a union of whole periods of the grain."""
    return period_start(window.start, grain) == window.start and period_end(
        period_start(window.end, grain), grain) == window.end


def iso_week(day: dt.date) -> Window:
    start = period_start(day, "week")
    return Window(start, start + dt.timedelta(days=6))
