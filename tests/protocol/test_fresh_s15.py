"""Readings the fresh set of session 15 found wrong, each an answer to another question served
clean or a refusal (issue 42: examples/flights/questions_s15.yaml, conformance/questions/
acme_s15.yaml and mf_tutorial_s15.yaml, written from the catalogs and the data before reading
the reader). Each on two domains, and each with a question that says more left unread."""

from __future__ import annotations

import copy
from typing import Any

from calls import CALLS as _CALLS
from calls import STORES as _STORES

from showwork.protocol.reading import read_text


def _hours(reading) -> list[int]:
    return sorted({int(m.member or 0) for m in reading.ranges})


class TestAShareOfAllOfAMetricWithAPeriod:
    """'What share of all 2013 cancellations were American Airlines flights' was answered with
    AA's cancellation rate: a period between 'all' and the metric, or between the metric and
    'were', still makes the metric the whole; a count named right after the member ('American
    Airlines flights', 'Philadelphia store orders') is what the member is said of, not the
    rate's denominator, and a member said to have some of it ('did American Airlines have')
    makes it the whole too. 'What share of flights were cancelled at LaGuardia' and 'what share
    of flights did United cancel' are still the rate."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        for text in ("what share of all 2013 cancellations were american airlines flights",
                     "what share of cancellations in 2013 were american airlines flights",
                     "what share of cancelled flights in 2013 were at JFK",
                     "what share of 2013 cancellations did american airlines have"):
            reading = read_text(text, catalog)
            assert reading.metric_names() == ["cancelled_flights"], text
            assert reading.asks.share is not None and reading.unread == [], text
        rate = read_text("What share of flights were cancelled at LaGuardia?", catalog)
        assert rate.metric_names() == ["cancellation_rate"] and rate.asks.share is None
        rate = read_text("what share of all united flights were cancelled in 2013", catalog)
        assert rate.metric_names() == ["cancellation_rate"] and rate.asks.share is None
        rate = read_text("what share of flights did united cancel in 2013", catalog)
        assert rate.metric_names() == ["cancellation_rate"] and rate.asks.share is None

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        for text in ("what share of all 2018 cancelled orders were philadelphia orders",
                     "what share of all cancelled orders in 2018 were philadelphia store orders",
                     "what share of cancelled orders did the philadelphia store have in 2018"):
            reading = read_text(text, catalog)
            assert reading.metric_names() == ["cancelled_orders"], text
            assert reading.asks.share is not None and reading.unread == [], text


class TestFromAnHourOn:
    """'From 6pm on in May' was read as the 6pm hour alone: 'from 6pm on', '9pm onwards', 'at
    9pm and later' are that hour and every later one, as 'after 9pm' is; 'from 6am to 9am'
    stays the span, and a phrase that says more ('from 6pm on … before 9pm') narrows it."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        for text, hours in (
                ("how many flights were scheduled to leave newark from 6pm on in may", [18, 23]),
                ("how many flights left JFK 9pm onwards in May 2013", [21, 23]),
                ("how many flights left JFK at 9pm and later in May 2013", [21, 23]),
                ("flights from JFK from 6pm onward, before 9pm, in May 2013", [18, 20])):
            reading = read_text(text, catalog)
            got = _hours(reading)
            assert (got[0], got[-1]) == tuple(hours) and reading.unread == [], text
            assert all(m.name != "departure_hour" for m in reading.members), text
        day = read_text("How many flights were scheduled to leave at 6pm on July 4, 2013?", catalog)
        assert day.member_keys() == [("departure_hour", "18")] and day.ranges == ()

    def test_calls(self) -> None:
        reading = read_text("How many calls came in from 7pm on in May 2024?", _CALLS)
        assert _hours(reading) == [19, 20, 21, 22, 23] and reading.unread == []
        said = read_text("How many calls came in at 7pm in May 2024?", _CALLS)
        assert said.ranges == () and [m.member for m in said.members] == ["19"]


class TestByHowMany:
    """'By how many flights did LGA's flights change from Jan to Feb' was answered with the
    percent change: 'by how many' asks the difference in the metric's unit, the later period's
    value less the earlier's, with two periods named or one (against the one before)."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        for text in ("by how many flights did lga's scheduled flights change from jan to feb",
                     "by how many did cancellations at laguardia change from Q3 to Q4",
                     "by how many did flights at lga change in march 2013"):
            reading = read_text(text, catalog)
            assert reading.asks.difference and reading.asks.change and reading.unread == [], text
        assert not read_text("how did flights at lga change from jan to feb",
                             catalog).asks.difference

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("by how many orders did the Brooklyn store's orders change from "
                            "March 2019 to April 2019?", catalog)
        assert reading.asks.difference and reading.unread == []


class TestHowMuchHigherWasAPeriod:
    """'Policy amount 2016 vs 2015, how much higher was 2016' and 'how many dollars higher was
    March 14-20' were refused: the period said after 'how much higher (lower) was', one of the
    two compared, asks that period's value less the other's; a difference whose sign the
    answer's `delta` does not give ('how much lower was' the later) stays unread, and a unit
    word must be the metric's own (its catalog unit, or a code its label ends with)."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        reading = read_text("policy amount 2016 vs 2015, how much higher was 2016", catalog)
        assert reading.asks.difference and reading.unread == []
        lower = read_text("policy amount 2016 vs 2015, how much lower was 2016", catalog)
        assert not lower.asks.difference and "lower" in " ".join(lower.unread)

    def test_tutorial(self, tutorial_layer) -> None:
        catalog = tutorial_layer.catalog()
        reading = read_text("transaction amount march 7-13 vs march 14-20: how many dollars "
                            "higher was march 14-20", catalog)
        assert reading.asks.difference and reading.unread == []
        euros = read_text("transaction amount march 7-13 vs march 14-20: how many euros "
                          "higher was march 14-20", catalog)
        assert "euros" in euros.unread

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("revenue in March 2019 vs April 2019: how many dollars higher was "
                            "April 2019", shop_layer.catalog())
        assert reading.asks.difference and reading.unread == []


class TestPerWhatAnAverageIsOver:
    """'Average air time per flight to LAX' was refused ('per flight' read as a breakdown by
    flight): 'per X' right after a quotient whose denominator counts X is the average's own
    words; 'per airline', 'per store' stay breakdowns and 'revenue per order' (a sum) unread."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        for text, metric in (("average air time per flight to LAX", "average_air_time"),
                             ("average distance per flight for hawaiian airlines",
                              "average_distance")):
            reading = read_text(text, catalog)
            assert reading.metric_names() == [metric] and reading.asks.breakdown == (), text
            assert reading.unread == [], text
        by = read_text("average departure delay per airline in 2013", catalog)
        assert by.asks.breakdown == ("airline",)

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("average order value per order in 2019", catalog)
        assert reading.asks.breakdown == () and reading.unread == []
        assert read_text("average order value per store in 2019", catalog).asks.breakdown == (
            "store",)
        assert "per order" in read_text("revenue per order in 2019", catalog).unread


class TestAKeptOutClauseOpeningTheQuestion:
    """'Excluding cancelled flights, how many United flights …' was refused ('excluding' read
    as nothing, 'cancelled flights' as the metric): a cue's clause opening the question keeps
    its things out of the first metric named after it, as 'flights, excluding cancelled ones'
    does."""

    def test_flights(self, flights_layer) -> None:
        reading = read_text("excluding cancelled flights, how many united flights were there in "
                            "july", flights_layer.catalog())
        assert reading.metric_names() == ["departed_flights"] and reading.unread == []

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("not counting cancellations, how many orders did the brooklyn "
                            "store have in 2019?", catalog)
        assert reading.metric_names() == ["order_count"] and reading.unread == []
        mid = read_text("how many orders, not counting cancellations at brooklyn, in 2019?",
                        catalog)
        assert mid.metric_names() != ["cancelled_orders"]


class TestTopWithNoMeasure:
    """'Top 5 destinations from Newark in December' was refused (no metric read): 'top' with
    no measure is ranked by the count of rows as 'the most common' is, in doubt (never served
    clean); with a measure named it ranks by that measure."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("top 5 destinations from newark in december", catalog)
        assert reading.metric_names() == ["flights"] and reading.unread == ["top"]
        assert [d.words for d in reading.doubts] == ["top"]
        named = read_text("top 3 airlines by cancelled flights", catalog)
        assert named.metric_names() == ["cancelled_flights"] and named.doubts == ()

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("top 3 stores in 2019", shop_layer.catalog())
        assert reading.metric_names() == ["order_count"] and reading.unread == ["top"]


def _with_amounts(catalog: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(catalog)
    out["metrics"]["refund_amount"] = {**out["metrics"]["revenue"], "label": "Refund Amount",
                                       "synonyms": [], "description": None}
    return out


class TestAnAmountByWhatItIsOf:
    """'Loss payments by claim number' was refused (no metric read from 'loss payments'): a
    metric named '<X> amount' is named by X, singular or plural, where X's last word is no
    other metric's ('Transaction Amount' beside 'Transactions' is not 'transactions')."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        for text, metric in (("loss payments by claim number", "loss_payment_amount"),
                             ("loss reserve by claim number", "loss_reserve_amount"),
                             ("which claim had the largest loss payment", "loss_payment_amount")):
            reading = read_text(text, catalog)
            assert reading.metric_names() == [metric] and reading.unread == [], text

    def test_the_shop(self, shop_layer) -> None:
        catalog = _with_amounts(shop_layer.catalog())
        reading = read_text("refunds in 2019 by store", catalog)
        assert reading.metric_names() == ["refund_amount"] and reading.unread == []

    def test_tutorial(self, tutorial_layer) -> None:
        reading = read_text("how many transactions in march", tutorial_layer.catalog())
        assert reading.metric_names() == ["transactions"]


class TestAPartNamedAsMemberAndThings:
    """'What share of the transaction amount came from quick buy transactions' was refused (a
    second metric, Quick Buy Transactions, read as the part): where the part is said, a metric's
    words that are a member of a dimension the whole carries and then what the member is said
    of ('transactions') are that member, the share of the whole by it."""

    def test_tutorial(self, tutorial_layer) -> None:
        reading = read_text("what share of the transaction amount came from quick buy "
                            "transactions", tutorial_layer.catalog())
        assert reading.metric_names() == ["transaction_amount"] and reading.unread == []
        assert reading.member_keys() == [("transaction__quick_buy_transaction", "Quick Buy")]
        assert reading.asks.share is not None

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("what share of raw orders came from cancelled orders in 2019", catalog)
        assert reading.metric_names() == ["total_orders"] and reading.unread == []
        assert reading.member_keys() == [("order_status", "cancelled")]
        rate = read_text("what share of gross orders were cancelled orders in 2019", catalog)
        assert rate.metric_names() == ["cancellation_rate"]


class TestForTheThingsMeasured:
    """'Loss payment amount for claims from the fire catastrophe' read 'claims' as a second
    metric (and the query failed): a count of rows named after 'for' another metric is what is
    measured, as after 'of' ('the mean air time of Delta flights'), the count's governed unit
    or, with none, the catalog's `counts` saying it counts."""

    def test_acme(self, acme_layer) -> None:
        reading = read_text("loss payment amount for claims from the fire catastrophe",
                            acme_layer.catalog())
        assert reading.metric_names() == ["loss_payment_amount"] and reading.unread == []

    def test_flights(self, flights_layer) -> None:
        reading = read_text("total distance for flights from JFK in 2013", flights_layer.catalog())
        assert reading.metric_names() == ["total_distance"] and reading.unread == []

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("revenue for orders from the brooklyn store in 2019",
                            shop_layer.catalog())
        assert reading.metric_names() == ["revenue"] and reading.unread == []


class TestAPlaceWordBeforeItsCode:
    """'Cancelled flights from Newark to chicago ORD' was refused ('chicago' unread: two
    airports are named so): words right before a code that are words of the name the data
    gives that code (`named_by`: ORD is Chicago Ohare Intl) are read with it; a word of no such
    name ('boston ORD') stays unread."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("Please give me the number of cancelled flights from newark to "
                            "chicago ORD in 2013", catalog)
        assert ("destination", "ORD") in reading.member_keys() and reading.unread == []
        assert "boston" in read_text("cancelled flights from newark to boston ORD in 2013",
                                     catalog).unread

    def test_stores(self) -> None:
        reading = read_text("sales at the brooklyn heights BKH store in May 2024", _STORES)
        assert reading.member_keys() == [("store_code", "BKH")]
        assert not any("brooklyn" in w for w in reading.unread)
        assert "soho" in " ".join(read_text("sales at the soho BKH store in May 2024",
                                            _STORES).unread).lower()
