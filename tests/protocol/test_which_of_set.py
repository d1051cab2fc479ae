"""'Which of the three airports had the lowest …' asks for one member of a set of three, not for
three (issue 42: the size of the set was read as the ranking's, so the question was answered as
a top 3, or refused); 'which three stores had the most …' still asks for three. On the flights
and the shop."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "text", "order", "size"), [
    ("flights", "Which of the three airports had the lowest average wind speed in 2013?", "least", 1),
    ("shop", "Which of the six stores had the most orders in May 2019?", "most", 1),
    ("shop", "Which three stores had the most orders in May 2019?", "most", 3),
    ("flights", "Which two airlines had the most cancelled flights in February 2013?", "most", 2),
])
def test_which_of_a_set_ranks_one(request, name: str, text: str, order: str, size: int) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.ranking is not None and reading.unread == [], reading.unread
    assert (reading.asks.ranking.order, reading.asks.ranking.n) == (order, size)
