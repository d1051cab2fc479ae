"""Days people name by a holiday's name ('Christmas Eve', 'Black Friday 2018', 'Independence
Day'): the calendar's, never a domain's. Each is one day, fixed in the year or the nth weekday
of a month (the US holidays where countries differ: Thanksgiving is November's fourth
Thursday); a holiday written without a year is the latest one begun by the as-of date, as a
month written without one is. The answer says the day it read ('on 28 November 2013')."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable

__all__ = ["HOLIDAY_RE", "WORDS", "holiday"]


def _fixed(month: int, day: int) -> Callable[[int], dt.date]:
    return lambda year: dt.date(year, month, day)


def _nth(month: int, weekday: int, n: int, shift: int = 0) -> Callable[[int], dt.date]:
    """The nth weekday of the month (n = -1: the last), shifted by `shift` days."""
    def day(year: int) -> dt.date:
        days = [d for d in calendar.Calendar().itermonthdates(year, month)
                if d.month == month and d.weekday() == weekday]
        return days[n] + dt.timedelta(days=shift)
    return day


_MON, _THU = 0, 3
_DAYS: dict[str, Callable[[int], dt.date]] = {
    r"new\s+year['’]?s\s+day": _fixed(1, 1),
    r"new\s+year['’]?s\s+eve": _fixed(12, 31),
    r"(?:martin\s+luther\s+king(?:\s+jr\.?)?|mlk)\s+day": _nth(1, _MON, 2),
    r"valentine['’]?s\s+day": _fixed(2, 14),
    r"presidents['’]?\s+day": _nth(2, _MON, 2),
    r"(?:st\.?|saint)\s+patrick['’]?s\s+day": _fixed(3, 17),
    r"memorial\s+day": _nth(5, _MON, -1),
    r"independence\s+day|(?:the\s+)?fourth\s+of\s+july": _fixed(7, 4),
    r"labor\s+day": _nth(9, _MON, 0),  # the US spelling: 'Labour Day' is 1 May in much of the world
    r"halloween": _fixed(10, 31),
    r"veterans['’]?\s+day": _fixed(11, 11),
    r"thanksgiving(?:\s+day)?": _nth(11, _THU, 3),
    r"black\s+friday": _nth(11, _THU, 3, 1),
    r"cyber\s+monday": _nth(11, _THU, 3, 4),
    r"christmas\s+eve": _fixed(12, 24),
    r"christmas\s+day": _fixed(12, 25),
    r"boxing\s+day": _fixed(12, 26),
}
HOLIDAY_RE = "|".join(f"(?:{p})" for p in _DAYS)
"""Any holiday's name, for a period pattern."""
WORDS = ("year", "king", "mlk", "valentine", "president", "patrick", "memorial", "independence",
         "july", "labor", "halloween", "veteran", "thanksgiving", "friday", "monday",
         "christmas", "boxing")
"""Every holiday's name holds one of these (the period scan's prefilter reads them in the
lower-cased text)."""


def holiday(name: str, year: int) -> dt.date:
    """The day a holiday's name says in a year.

    >>> holiday("Black Friday", 2018), holiday("christmas eve", 2013)
    (datetime.date(2018, 11, 23), datetime.date(2013, 12, 24))
    """
    for pattern, day in _DAYS.items():
        if re.fullmatch(pattern, name.strip(), re.IGNORECASE):
            return day(year)
    raise KeyError(name)
