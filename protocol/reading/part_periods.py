"""A share of a whole across periods: 'what fraction of the year's cancellations happened in
February', 'what share of Q1's orders came in March'. Two periods are named, one inside the
other: the outer one is the whole, the inner one the part, of one metric."""

from __future__ import annotations

import datetime as dt
import re

from showwork.protocol.reading._calendar import Period, months
from showwork.protocol.reading._words import overlaps
from showwork.protocol.reading.periods import PeriodMention, Periods

_THE_WHOLE = re.compile(r"\b(?:(?:the|that)\s+(year|quarter)(?:'s|’s)?|(annual|yearly|quarterly))"
                        r"(?![\w-])", re.IGNORECASE)
"""'the year's', 'that quarter', 'annual': the year or quarter that holds the other period
named."""


def with_enclosing(text: str, periods: Periods) -> Periods:
    """'The year's cancellations … in February': 'the year' is the year that holds the one
    other period named (2013 for February 2013), read as a period of its own."""
    if len(periods.found) != 1:
        return periods
    (other,) = periods.found
    for said in _THE_WHOLE.finditer(text):
        if overlaps(said.span(), [other.span]):
            continue
        unit = (said.group(1) or ("quarter" if said.group(2).lower() == "quarterly" else "year"))
        whole = _holding(other.period, unit.lower())
        if whole is not None:
            found = sorted((*periods.found, PeriodMention(whole, said.group(0), said.span())),
                           key=lambda p: p.span)
            return Periods(tuple(found), periods.compare, periods.problems)
    return periods


def _holding(part: Period, unit: str) -> Period | None:
    """The year or quarter holding the whole of `part`, when it is larger than `part`."""
    if unit == "year":
        whole = Period(dt.date(part.start.year, 1, 1), dt.date(part.start.year, 12, 31), "year")
    else:
        first = part.start.replace(month=(part.start.month - 1) // 3 * 3 + 1, day=1)
        whole = months(first, 3, "quarter")
    return whole if inside(part, whole) else None


def inside(part: Period, whole: Period) -> bool:
    """`part` lies within `whole` and is smaller than it.

    >>> inside(Period(dt.date(2013, 2, 1), dt.date(2013, 2, 28)),
    ...        Period(dt.date(2013, 1, 1), dt.date(2013, 12, 31)))
    True
    """
    return whole.start <= part.start and part.end <= whole.end and part != whole


def part_and_whole(found: tuple[PeriodMention, ...] | list[PeriodMention]
                   ) -> tuple[PeriodMention, PeriodMention] | None:
    """(part, whole) when exactly two periods are named and one lies inside the other."""
    if len(found) != 2:
        return None
    a, b = found
    if inside(a.period, b.period):
        return a, b
    if inside(b.period, a.period):
        return b, a
    return None
