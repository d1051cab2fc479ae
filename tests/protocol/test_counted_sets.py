"""A count of a dimension's members said of the set, not as a ranking's size (issue 42): 'which
of the three NYC airports had the most' ranks them all and names one; 'flights from the three
NYC airports', 'the total population of the 48 states' name the whole (no filter, no ranking)
when the count is all the members, and leave the count unread when it is not (which ones is not
said). Before, each was read as a ranking of that size (held-out s5-007 refused, 'from the
three airports' answered as a ranking). On the flights (3 origins) and the shop (6 stores)."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "text", "dimension"), [
    ("flights", "Which of the three NYC airports had the most delayed departures in 2013?", "origin"),
    ("shop", "Which of the six stores took the most orders in May 2019?", "store"),
])
def test_which_of_the_n_ranks_them_all(request, name: str, text: str, dimension: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.ranking is not None and reading.asks.ranking.dimension == dimension
    assert reading.unread == []


@pytest.mark.parametrize(("name", "text"), [
    ("flights", "How many flights left from the three NYC airports in May 2013?"),
    ("shop", "What was revenue across all the six stores in June 2019?"),
])
def test_all_the_members_are_the_whole(request, name: str, text: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.ranking is None and not reading.asks.breakdown
    assert reading.members == () and reading.unread == []


@pytest.mark.parametrize(("name", "text", "count"), [
    ("flights", "How many flights left from the two NYC airports in May 2013?", "two"),
    ("shop", "What was revenue from the four stores in June 2019?", "four"),
    ("shop", "What was revenue across the four stores in June 2019?", "four"),  # a by-phrase
])
def test_a_count_short_of_all_is_unread(request, name: str, text: str, count: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.ranking is None and count in " ".join(reading.unread)


@pytest.mark.parametrize(("name", "text"), [
    ("flights", "How many flights left each of the three NYC airports in May 2013?"),
    ("shop", "What was revenue at each of the six stores in June 2019?"),
])
def test_a_by_phrase_counting_all_is_read(request, name: str, text: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.breakdown and reading.unread == []


@pytest.mark.parametrize(("name", "text"), [
    ("flights", "What was the average departure delay across airlines in July 2013?"),
    ("flights", "What was the mean air time across the origin airports in 2013?"),
    ("shop", "What was the average order value across stores in May 2019?"),
])
def test_an_average_across_members_is_one_average(request, name: str, text: str) -> None:
    """'The average X across states' (init's public sets, issue 44: four answers listed every
    state): after an average, 'across X' says what it is taken over, so one value is asked."""
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.ranking is None and not reading.asks.breakdown
    assert reading.unread == []


@pytest.mark.parametrize(("name", "text", "dimension"), [
    ("flights", "Compare the average departure delay across airlines in July 2013", "airline"),
    ("shop", "What was revenue across stores in May 2019?", "store"),
    ("shop", "Which store had the highest average order value across stores in May 2019?", "store"),
])
def test_across_members_apart_stays_a_breakdown(request, name: str, text: str,
                                                dimension: str) -> None:
    """With no average, or with a word that sets the members apart, 'across X' breaks down."""
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert dimension in reading.asks.breakdown or (
        reading.asks.ranking is not None and reading.asks.ranking.dimension == dimension)
