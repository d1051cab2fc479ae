"""Periods named as people write them ('March 2013', 'Q1 2013', 'the week of 9 March 2026')
read back, by the question reader the audit uses, to exactly the dates they name."""

from __future__ import annotations

import datetime as dt
import random

from showwork.protocol.periods import in_period, period_words, window_words
from showwork.protocol.reading._calendar import add_months, iso_week
from showwork.protocol.reading.periods import find_periods


def _periods() -> list[tuple[dt.date, dt.date]]:
    """Every month, quarter, half and year of 2012–2026, every ISO week of 2019 and 2026, and
    300 seeded random ranges and days."""
    out = []
    for year in range(2012, 2027):
        for months in (1, 3, 6, 12):
            for first in range(1, 13, months):
                start = dt.date(year, first, 1)
                out.append((start, add_months(start, months) - dt.timedelta(days=1)))
    for year in (2019, 2026):
        day = dt.date(year, 1, 1)
        while day.year == year:
            week = iso_week(day)
            out.append((week.start, week.end))
            day += dt.timedelta(weeks=1)
    rng = random.Random(47)
    for _ in range(300):
        start = dt.date(2013, 1, 1) + dt.timedelta(days=rng.randrange(5000))
        out.append((start, start + dt.timedelta(days=rng.choice([0, rng.randrange(1, 700)]))))
    return out


def test_every_period_reads_back_to_its_dates() -> None:
    """The words for each period, in an answer's sentence, are read as that one period."""
    wrong = []
    for start, end in _periods():
        said = f"Revenue was 5 {in_period(start, end)}."
        found = find_periods(said).found
        if [(p.period.start, p.period.end) for p in found] != [(start, end)]:
            wrong.append(said)
    assert wrong == []


def test_no_iso_range_is_left_in_the_words() -> None:
    """No period is named as an ISO range; window_words replaces each range in a text."""
    assert not any(".." in period_words(a, b) for a, b in _periods())
    assert window_words("asked 2013-03-01..2013-03-31, covered 2013-01-01..2013-03-31") == \
        "asked March 2013, covered Q1 2013"
