"""'The last 7 days as of 31 March 2022': a relative period anchored at the day named after it.

A relative period ('the last 7 days', 'the past 2 weeks', 'last month') resolves against the
project's as-of day; followed by 'as of DAY', the user has said which day it runs from, so it
resolves against that day instead. 'The last N days' as of a day are the N days up to and
including it (the day named is the last one the user counts). The two are read as one window,
said by all their words.
"""

from __future__ import annotations

import datetime as dt
import re

from showwork.protocol.reading._calendar import Period
from showwork.protocol.reading.periods import PeriodMention, Periods, find_periods

_AS_OF_BETWEEN = re.compile(r"\s*,?\s*as\s+(?:of|at)\s+(?:the\s+)?", re.IGNORECASE)
"""The words between a relative period and the day it is anchored at."""

_LAST_DAYS = re.compile(r"(?:the\s+)?(?:last|past|previous|prior)\s+\S+\s+days?", re.IGNORECASE)
"""'The last N days' (periods.py `_last_n`): the N days before the day it resolves against."""

_FAR = dt.timedelta(days=400)
"""Another as-of day far enough away that every relative period moves with it."""


def at_day_named(text: str, named: Periods, skip: re.Pattern[str]) -> Periods:
    """Each relative period followed by 'as of DAY' resolved against that day and merged with
    it into one window; a period whose words `skip` matches is left for the reader's own
    anchoring ('this year as of June 15').

    >>> found = find_periods("orders in the last 7 days as of 31 march 2022", dt.date(2026, 1, 1))
    >>> [(p.words, str(p.period)) for p in at_day_named(
    ...     "orders in the last 7 days as of 31 march 2022", found, re.compile("x^")).found]
    [('the last 7 days as of 31 march 2022', '2022-03-25..2022-03-31')]
    """
    found: list[PeriodMention | None] = list(named.found)
    merged = False
    for i in range(len(found) - 1):
        rel, day = found[i], found[i + 1]
        if rel is None or day is None or day.period.start != day.period.end or rel.parts \
                or skip.search(rel.words) \
                or not _AS_OF_BETWEEN.fullmatch(text, rel.span[1], day.span[0]):
            continue
        period = _resolved(text, rel, day.period.end)
        if period is None:
            continue
        span = (rel.span[0], day.span[1])
        found[i], found[i + 1] = PeriodMention(period, text[span[0]:span[1]], span), None
        merged = True
    if not merged:
        return named
    kept = tuple(p for p in found if p is not None)
    compare = named.compare and ("explicit" if len(kept) > 1 else "previous")
    return Periods(kept, compare, named.problems)


def _resolved(text: str, rel: PeriodMention, day: dt.date) -> Period | None:
    """The relative period's dates as of `day`, never past it; None where its words name the
    same dates whatever the as-of day (they are not relative)."""
    there = _same_span(find_periods(text, day), rel)
    away = _same_span(find_periods(text, day + _FAR), rel)
    if there is None or away is None or there == away:
        return None
    if _LAST_DAYS.fullmatch(rel.words.strip()):
        size = (there.end - there.start).days + 1
        return Period(day - dt.timedelta(days=size - 1), day, "range")
    if there.end <= day:
        return there
    return Period(there.start, day, "range")


def _same_span(periods: Periods, rel: PeriodMention) -> Period | None:
    return next((p.period for p in periods.found if p.span == rel.span), None)


_ANCHOR_WORDS = re.compile(r"\bas\s+(?:of|at)\b", re.IGNORECASE)


def anchor_spans(found: tuple[PeriodMention, ...]) -> list[tuple[int, int]]:
    """The 'as of' inside each window `at_day_named` merged: there it says which day the window
    runs from, never a running total to that day (the window's own words read it)."""
    spans = []
    for p in found:
        said = _AS_OF_BETWEEN.search(p.words)
        if said and said.start() > 0 and not p.parts:
            at = _ANCHOR_WORDS.search(p.words, said.start())
            if at:
                spans.append((p.span[0] + at.start(), p.span[0] + at.end()))
    return spans
