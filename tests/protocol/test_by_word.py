"""'by' is read only where a rule used it (issue 42): before a date it is a deadline, the running
total up to that date ('How many transactions in total had there been by March 15, 2022' had been
answered with March 15's own count, served clean: 'by' was a listed filler word); before a member
it says who did it, before a ranking's metric what is ranked by, before 'what' or 'how' the size of
a change asked. 'by' before anything else no rule reads is shown unread. On the mf tutorial, the
flights and the shop."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "flights": "flights_layer", "tutorial": "tutorial_layer"}


def _read(request: pytest.FixtureRequest, name: str, text: str):  # type: ignore[no-untyped-def]
    return read_text(text, request.getfixturevalue(LAYER[name]).catalog())


@pytest.mark.parametrize(("name", "by", "on", "window"), [
    ("tutorial", "How many transactions in total had there been by March 15, 2022?",
     "How many transactions were there on March 15, 2022?", "2022-03-07..2022-03-15"),
    ("flights", "How many flights had been cancelled by March 15, 2013?",
     "How many flights were cancelled on March 15, 2013?", "2013-01-01..2013-03-15"),
    ("shop", "How many orders had been placed by June 2019?",
     "How many orders were placed in June 2019?", None),
])
def test_by_a_date_is_a_running_total(request, name: str, by: str, on: str,
                                      window: str | None) -> None:
    deadline, day = _read(request, name, by), _read(request, name, on)
    assert deadline.asks.cumulative and deadline.unread == []
    assert not day.asks.cumulative
    # a question that says more is never read as the same question
    assert [str(p.period) for p in deadline.periods] != [str(p.period) for p in day.periods]
    if window is not None:
        assert [str(p.period) for p in deadline.periods] == [window]


@pytest.mark.parametrize(("name", "text"), [
    ("flights", "Total distance flown by Delta in June 2013?"),
    ("flights", "Top 5 destinations by number of flights in 2013"),
    ("flights", "By what percent did cancelled flights change from May 2013 to June 2013?"),
    ("shop", "Rank the stores by revenue in July 2019."),
    ("shop", "By how much did revenue change from April 2019 to May 2019?"),
    # 'what percentage did X grow' asks the size of a change, not a share
    ("flights", "By what percentage did flights out of LaGuardia grow from Q1 2013 to Q2 2013?"),
    ("shop", "By what percentage did orders grow from April 2019 to May 2019?"),
    ("tutorial", "Top 2 countries by cancellations in March 2022"),
])
def test_by_read_where_a_rule_uses_it(request, name: str, text: str) -> None:
    reading = _read(request, name, text)
    assert reading.unread == [], reading.unread
    assert reading.asks.share is None
    assert any(s.words.lower() == "by" or s.words.lower().startswith("by ")
               for s in reading.spans)


@pytest.mark.parametrize(("name", "text"), [
    ("flights", "How many flights left JFK in 2013 by and large?"),
    ("shop", "What was revenue in May 2019, by any chance of rounding?"),
])
def test_by_that_no_rule_uses_is_unread(request, name: str, text: str) -> None:
    unread = " ".join(_read(request, name, text).unread).lower()
    assert "by" in unread.split(), unread
