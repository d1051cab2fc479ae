"""'All' before the things a catalog's rows are (issue 44, held-out loans: 'the total current
balance of all loans' was refused, 'all' unread, closest member AL): every one of them, no
filter, as 'of loans' alone is read. Read only before the noun of an entity the catalog's
dimensions belong to; 'which of all X' still picks one out, and 'all' before a word no entity
names stays unread. On the shop (orders, customers) and the flights (flights, planes)."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "text", "metric"), [
    ("shop", "What was revenue of all orders in June 2019?", "revenue"),
    ("shop", "What was revenue of all the customers in June 2019?", "revenue"),
    ("flights", "What was the average departure delay of all flights in July 2013?",
     "average_departure_delay"),
    ("flights", "What was the average departure delay of all planes in July 2013?",
     "average_departure_delay"),
])
def test_all_of_the_things_is_the_whole(request, name: str, text: str, metric: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert [m.name for m in reading.metrics] == [metric]
    assert reading.members == () and reading.unread == []
    assert reading.asks.ranking is None and not reading.asks.breakdown


@pytest.mark.parametrize(("name", "text", "unread"), [
    ("shop", "What was revenue of all widgets in June 2019?", "all widgets"),  # no entity
    ("flights", "What was the average departure delay of all gliders in July 2013?",
     "all gliders"),
])
def test_all_before_no_entity_stays_unread(request, name: str, text: str, unread: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert unread in reading.unread


def test_which_of_all_picks_one_out(flights_layer) -> None:
    """'Which of all planes': one picked out of them, never their whole ('all' is left for
    the ranking to read, as before)."""
    reading = read_text("Which of all planes had the highest average departure delay in "
                        "July 2013?", flights_layer.catalog())
    assert not [s for s in reading.spans if "every one, no filter" in s.detail]
    assert "all" in reading.unread
