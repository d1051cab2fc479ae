"""Readings the lead's fresh set of new-user questions found wrong, each an answer to another
question served clean or a refusal (issue 42, session 13: examples/*/questions_s13.yaml, written
from the catalog and the data before reading the reader). Each on two domains."""

from __future__ import annotations

import copy

import pytest

from showwork.protocol.reading import read_text


def _with_unit(catalog: dict, metric: str, unit: str) -> dict:
    out = copy.deepcopy(catalog)
    out["metrics"][metric] = {**out["metrics"][metric], "unit": unit}
    return out


class TestPaceByTheMetricsUnit:
    """'which month was the slowest for revenue' asked for the least revenue and was answered
    with the most ('slowest' was a superlative of the most, as of a delay). Which way is slow
    is the one metric's unit: the most of a duration, the least of an amount (a count, a
    currency) or a speed; any other unit leaves the word unread."""

    CASES = [  # (fixture, question, the metric's unit or None to keep it, order)
        ("shop_layer", "which month of 2018 was the slowest for the Philadelphia store, by "
         "revenue?", None, "least"),
        ("shop_layer", "which month of 2018 was fastest for revenue?", None, "most"),
        ("flights_layer", "which month was the slowest for flights?", None, "least"),
        ("flights_layer", "which month was the slowest by average departure delay?", None,
         "most"),
        ("flights_layer", "which airport had the fastest average departure delay in 2013?",
         None, "least"),
        ("shop_layer", "which month was slowest for revenue?", "minutes", "most"),
    ]

    @pytest.mark.parametrize(("fixture", "question", "unit", "order"), CASES)
    def test_the_way_is_the_units(self, request, fixture, question, unit, order) -> None:
        catalog = request.getfixturevalue(fixture).catalog()
        if unit is not None:
            catalog = _with_unit(catalog, "revenue", unit)
        reading = read_text(question, catalog)
        assert reading.asks.ranking is not None and reading.asks.ranking.order == order, question
        assert reading.unread == [], question

    def test_another_unit_leaves_it_unread(self, flights_layer, shop_layer) -> None:
        reading = read_text("which month was the slowest for total distance?",
                            flights_layer.catalog())
        assert "slowest" in reading.unread
        catalog = _with_unit(shop_layer.catalog(), "revenue", "fraction")
        assert "slowest" in read_text("which month was slowest for revenue?", catalog).unread


class TestAShareOfAllOfAMetric:
    """'What fraction of all cancelled flights were at LaGuardia?' was answered with LGA's
    cancellation rate (the rate whose numerator is the metric named): with 'all' before the
    metric, or a member said to hold some of it ('… were at', '… came from'), the metric is
    the whole and the member the part; 'what share of flights were cancelled at LaGuardia' is
    still the rate."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        for text in ("What fraction of all cancelled flights were at LaGuardia?",
                     "what share of cancelled flights were from JFK in 2013?"):
            reading = read_text(text, catalog)
            assert reading.metric_names() == ["cancelled_flights"], text
            assert reading.asks.share is not None and reading.unread == [], text
        rate = read_text("What share of flights were cancelled at LaGuardia?", catalog)
        assert rate.metric_names() == ["cancellation_rate"] and rate.asks.share is None

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        for text in ("what share of all cancelled orders were at the Philadelphia store in 2018?",
                     "what share of cancelled orders came from the Philadelphia store in 2018?"):
            reading = read_text(text, catalog)
            assert reading.metric_names() == ["cancelled_orders"], text
            assert reading.asks.share is not None and reading.unread == [], text
        rate = read_text("what was the share of cancelled orders at the Philadelphia store?", catalog)
        assert rate.metric_names() == ["cancellation_rate"] and rate.asks.share is None


class TestWordsThatSetAQuestionUp:
    """'hey, quick one: how many flights left newark in march?', "I'm looking at JetBlue. Which
    month …", 'Looking at the 5th Ave store. What was its revenue …' were refused for their
    opening words. An opener at the question's start closed by a mark states nothing; 'looking
    at' opening a sentence is read where a metric or member is named right after it (the focus
    the rest asks about) — elsewhere both stay unread."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        opened = read_text("hey, quick one: how many flights left newark in march?", catalog)
        assert opened.unread == [] and ("origin", "EWR") in opened.member_keys()
        focus = read_text("I'm looking at JetBlue. Which month did they have the fewest flights?",
                          catalog)
        assert focus.unread == [] and focus.member_keys()[0][1] == "JetBlue Airways"
        assert "quick" in read_text("quick flights from JFK in March 2013?", catalog).unread

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        focus = read_text("Looking at the 5th Ave store. What was its revenue in the first half "
                          "of 2019?", catalog)
        assert focus.unread == [] and ("store", "New York 5th Ave") in focus.member_keys()
        assert read_text("ok so, revenue in June 2019?", catalog).unread == []
        vague = read_text("I'm looking at stuff. What was revenue in June 2019?", catalog)
        assert "stuff" in vague.unread and any("looking" in w for w in vague.unread)


class TestTheOrderAsked:
    """'rank the 3 NYC airports by cancellation rate, highest first' was refused ('first'
    unread): '<superlative> first', 'from lowest to highest', 'in ascending order' set the
    order of a ranking, or rank a breakdown's rows whole; with neither asked, they stay
    unread."""

    CASES = [("flights_layer", "rank the 3 NYC airports by cancellation rate, highest first",
              "most", 3),
             ("flights_layer", "flights by origin in 2013, sorted from lowest to highest",
              "least", None),
             ("shop_layer", "revenue by store in June 2019 in ascending order", "least", None),
             ("shop_layer", "top 3 stores by revenue in June 2019, lowest first", "least", 3)]

    @pytest.mark.parametrize(("fixture", "question", "order", "n"), CASES)
    def test_read(self, request, fixture, question, order, n) -> None:
        reading = read_text(question, request.getfixturevalue(fixture).catalog())
        assert reading.unread == [], question
        assert reading.asks.ranking is not None, question
        assert (reading.asks.ranking.order, reading.asks.ranking.n) == (order, n), question

    def test_unread_without_a_ranking_or_breakdown(self, flights_layer, shop_layer) -> None:
        assert "highest first" in read_text("flights in 2013, highest first",
                                            flights_layer.catalog()).unread
        assert "lowest first" in read_text("revenue in June 2019, lowest first",
                                           shop_layer.catalog()).unread


class TestThoseKeptOut:
    """'delta flights to atlanta, excluding the ones from laguardia': 'the ones from' between
    the cue and the member was read as a phrase of its own, so LaGuardia was read as kept in
    (and 'excluding' unread). A pronoun for the things counted with the member's role is the
    phrase kept out."""

    def test_flights(self, flights_layer) -> None:
        reading = read_text("delta flights to ATL, excluding the ones from laguardia",
                            flights_layer.catalog())
        assert reading.unread == [] and ("origin", "LGA") not in reading.member_keys()
        assert [(m.name, m.member) for m in reading.excluded] == [("origin", "LGA")]
        kept = read_text("flights without a delay by Delta in 2013", flights_layer.catalog())
        assert ("airline", "Delta Air Lines Inc.") in kept.member_keys()  # another phrase

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("revenue in June 2019, excluding the ones from the Philadelphia store",
                            shop_layer.catalog())
        assert reading.unread == [] and not reading.member_keys()
        assert {m.member for m in reading.excluded} == {"Philadelphia"}
