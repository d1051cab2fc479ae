"""'Compare the X in A and B' with two named periods is a change from A to B (init's public sets,
issue 44: "Compare the cigarette price in 1985 and 1995." left "Compare" unread and was refused,
though "compare X between A and B" read). With one period, or members set side by side, the
imperative asks no change of periods. On the shop and the flights."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "text", "windows"), [
    ("shop", "Compare revenue in April 2019 and May 2019.", ["2019-04-01..2019-04-30",
                                                              "2019-05-01..2019-05-31"]),
    ("shop", "Compare the number of orders in March 2019 with April 2019",
     ["2019-03-01..2019-03-31", "2019-04-01..2019-04-30"]),
    ("flights", "Compare the cancellation rate in 2013 Q1 and Q2.",
     ["2013-01-01..2013-03-31", "2013-04-01..2013-06-30"]),
])
def test_compare_two_named_periods_is_a_change(request, name: str, text: str,
                                               windows: list[str]) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.change and reading.asks.compare == "explicit"
    assert [str(p.period) for p in reading.periods] == windows and reading.unread == []


@pytest.mark.parametrize(("name", "text"), [
    ("shop", "Compare Brooklyn and Philadelphia revenue in May 2019"),
    ("flights", "Compare JFK and LGA flights in May 2013"),
    ("shop", "Compare revenue in May 2019"),
])
def test_compare_without_two_periods_asks_no_change(request, name: str, text: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert not reading.asks.change and reading.asks.compare is None
