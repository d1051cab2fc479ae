"""Calendar arithmetic for periods: ISO weeks (Monday first), months, quarters, halves, years."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

_MONTHS_IN = {"month": 1, "quarter": 3, "half": 6, "year": 12}
BASIS_DAYS = {"week": (7, 7), "month": (28, 31), "quarter": (89, 92), "year": (364, 366)}
"""Days from a comparison's previous window start to its current's that each stated basis
('week over week', 'year over year') allows: a month after February starts 28 days on, a year
of ISO weeks is 52 weeks (364 days). The audit's basis check and the adversary's basis lie share
it."""


@dataclass(frozen=True, order=True)
class Period:
    """An inclusive date range a text names."""

    start: dt.date
    """First day in the period."""
    end: dt.date
    """Last day in the period (inclusive)."""
    grain: str | None = None
    """What the words named: day, week, month, quarter, half, year or range."""

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def __str__(self) -> str:
        return f"{self.start.isoformat()}..{self.end.isoformat()}"


def add_months(day: dt.date, months: int) -> dt.date:
    """The first day of the month `months` after the month of `day`."""
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def months(start: dt.date, count: int, grain: str) -> Period:
    """`count` whole months from the month of `start`."""
    first = start.replace(day=1)
    return Period(first, add_months(first, count) - dt.timedelta(days=1), grain)


def iso_week(day: dt.date) -> Period:
    """The ISO week (Monday to Sunday) holding `day`.

    >>> str(iso_week(dt.date(2026, 3, 15)))
    '2026-03-09..2026-03-15'
    """
    monday = day - dt.timedelta(days=day.weekday())
    return Period(monday, monday + dt.timedelta(days=6), "week")


def weeks_before(day: dt.date, count: int) -> Period:
    """The `count` whole ISO weeks before the week holding `day`."""
    monday = iso_week(day).start
    return Period(monday - dt.timedelta(weeks=count), monday - dt.timedelta(days=1), "week")


def quarter(year: int, number: int) -> Period:
    return months(dt.date(year, 3 * number - 2, 1), 3, "quarter")


def quarter_of(day: dt.date) -> Period:
    return quarter(day.year, (day.month - 1) // 3 + 1)


def year(number: int) -> Period:
    return months(dt.date(number, 1, 1), 12, "year")


def _whole_months(period: Period) -> int | None:
    """How many whole calendar months the period spans, or None when it is not month-aligned."""
    after = period.end + dt.timedelta(days=1)
    if period.start.day != 1 or after.day != 1:
        return None
    return (after.year - period.start.year) * 12 + after.month - period.start.month


def previous_period(period: Period) -> Period:
    """The period of the same length just before: the week before a week, the month before a
    month, the three months before a quarter, the same number of days before a range.

    >>> str(previous_period(Period(dt.date(2026, 3, 1), dt.date(2026, 3, 31), "month")))
    '2026-02-01..2026-02-28'
    """
    count = _whole_months(period) if period.grain in _MONTHS_IN else None
    if count:
        return months(add_months(period.start, -count), count, period.grain or "month")
    shift = dt.timedelta(days=period.days)
    return Period(period.start - shift, period.end - shift, period.grain)
