"""The comparison basis a text states ('year over year', 'MoM', 'than the previous week'), read
by harness/audit/basis.py and held to a cited comparison's windows."""

from __future__ import annotations

import pytest

from showwork.harness.audit.basis import SHIFTS, read_basis


@pytest.mark.parametrize(("text", "grains"), [
    ("Revenue rose 12 % year over year.", ["year"]),
    ("Orders grew 3 % month-on-month and 1 % WoW.", ["month", "week"]),
    ("up 4 % y/y, down 2 % q/q", ["year", "quarter"]),
    ("Flights fell 3 % from a year earlier.", ["year"]),
    ("Sales were higher than the previous month.", ["month"]),
    ("down 5 % compared with the prior week", ["week"]),
    ("the same week last year", ["year"]),
    ("against the week before", ["week"]),
])
def test_a_stated_basis_is_read(text: str, grains: list[str]) -> None:
    assert [g for g, _words in read_basis(text)] == grains


@pytest.mark.parametrize("text", [
    "Mom bought more this week.",                 # a word, not MoM
    "Active users rose over the last month.",     # a window, not a basis
    "Revenue in the week of 2026-03-09 fell 9 %.",
    "Orders per month rose.",
])
def test_no_basis_where_none_is_stated(text: str) -> None:
    assert read_basis(text) == ()


def test_each_basis_allows_its_calendar_shifts() -> None:
    """A month after February starts 28 days on, one after July 31; a year of ISO weeks is 364
    days, a leap year 366: each basis allows exactly those, and no two overlap."""
    assert SHIFTS["week"] == (7, 7) and SHIFTS["month"] == (28, 31)
    assert SHIFTS["quarter"] == (89, 92) and SHIFTS["year"] == (364, 366)
    spans = sorted(SHIFTS.values())
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:], strict=False))
