"""Readings a fresh set of new-user questions found wrong (issue 42, session 12:
conformance/questions/intro_s12.yaml, on a public dbt project nobody here tuned for, written from
its catalog and data before reading the reader). Each on two domains."""

from __future__ import annotations

import copy
import datetime as dt

from showwork.protocol.reading import read_text
from showwork.protocol.reading.account import read_as_line


def _days(reading) -> list[tuple[dt.date, dt.date]]:
    return [(p.period.start, p.period.end) for p in reading.periods]


def _renamed(catalog: dict, old: str, new: str) -> dict:
    """The catalog with one metric under another name, its label and synonyms dropped."""
    out = copy.deepcopy(catalog)
    info = out["metrics"].pop(old)
    out["metrics"][new] = {**info, "label": None, "synonyms": []}
    return out


class TestATotalByWhatItCounts:
    """'revenue' for total_revenue, 'orders' for total_orders or order_count: a metric named by
    what its name says it sums or counts, the word that says so left out, where those words
    name one metric; an entry that spells them wins, and two metrics that both sum them leave
    the words unread."""

    def test_the_intro_project(self, intro_layer) -> None:
        catalog = intro_layer.catalog()  # total_revenue, total_orders, average_order_value
        reading = read_text("What was revenue in February 2023?", catalog)
        assert reading.metric_names() == ["total_revenue"] and reading.unread == []
        reading = read_text("how many orders did we get in march?", catalog)
        assert reading.metric_names() == ["total_orders"] and reading.unread == []

    def test_the_shop(self, shop_layer) -> None:
        catalog = _renamed(shop_layer.catalog(), "revenue", "total_revenue")
        reading = read_text("revenue in June 2019", catalog)
        assert reading.metric_names() == ["total_revenue"] and reading.unread == []
        # 'orders' is order_count's own label: the entry wins over total_orders' counted form
        assert read_text("orders in June 2019", catalog).metric_names() == ["order_count"]
        both = _renamed(catalog, "product_revenue", "sum_of_revenue")
        assert "revenue" in read_text("revenue in June 2019", both).unread

    def test_flights(self, flights_layer) -> None:
        catalog = _renamed(flights_layer.catalog(), "flights", "flight_count")
        reading = read_text("how many flights left JFK in July?", catalog)
        assert reading.metric_names() == ["flight_count"] and reading.unread == []


class TestTopOfAnEntity:
    """'top 3 customers by revenue': a ranking of the entity the words after 'top N' name, as
    'which 3 customers' is; a name no entity has stays unread."""

    def test_the_intro_project(self, intro_layer) -> None:
        catalog = intro_layer.catalog()
        reading = read_text("top 3 customers by revenue", catalog)
        assert reading.asks.ranking is not None and reading.asks.ranking.dimension == "customer"
        assert reading.asks.ranking.n == 3 and reading.unread == []
        assert "reasons" in read_text("top 3 reasons by revenue", catalog).unread

    def test_flights(self, flights_layer) -> None:
        reading = read_text("top 3 planes by flights in July", flights_layer.catalog())
        assert reading.asks.ranking is not None and reading.asks.ranking.dimension == "plane"
        assert reading.unread == []


class TestEachThing:
    """'How many orders did each customer place': 'each' before an entity's name, a verb after
    it, is a breakdown by the entity; 'each' before a word nothing names is no breakdown
    ('android and ios each have': each of the members named)."""

    def test_the_intro_project(self, intro_layer) -> None:
        reading = read_text("How many orders did each customer place in Q1?", intro_layer.catalog())
        assert reading.asks.breakdown == ("customer",) and reading.unread == []

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("how many flights did each plane fly in July", catalog)
        assert reading.asks.breakdown == ("plane",) and reading.unread == []
        assert read_text("flights every time in July", catalog).asks.breakdown == ()

    def test_the_demo(self, layer) -> None:
        reading = read_text("How many active users did android and ios each have in May 2026?",
                            layer.catalog())
        assert reading.asks.breakdown == () and reading.unread == []


class TestMembersOfTheThingsTogether:
    """'Revenue from completed and shipped orders': members joined by 'and' right before the
    things another metric is of are one set, one filter keeping both (summed), not members
    side by side; said apart ('at JFK and LGA') they stay side by side."""

    def test_the_intro_project(self, intro_layer) -> None:
        reading = read_text("revenue from completed and shipped orders in february",
                            intro_layer.catalog())
        assert reading.metric_names() == ["total_revenue"] and reading.members == ()
        assert {(m.name, m.member) for m in reading.ranges} == {
            ("order__status", "completed"), ("order__status", "shipped")}
        assert "order__status in completed, shipped" in read_as_line(reading)

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("total distance of United and Delta flights in July", catalog)
        assert reading.metric_names() == ["total_distance"] and reading.members == ()
        assert reading.asks.shape == "level"  # 'Delta' is a member here, never a change
        assert len(reading.ranges) == 2 and reading.unread == []
        apart = read_text("average departure delay at JFK and LGA in July", catalog)
        assert apart.ranges == () and apart.member_keys() == [("origin", "JFK"), ("origin", "LGA")]


class TestThroughAPeriod:
    """'revenue through April', 'running total by month through April': 'through', 'until' or
    'up to' right before a period is where a running total ends, from the start of the data,
    by a grain too; 'through' that no rule reads ('flights through the hub') is unread."""

    def test_the_intro_project(self, intro_layer) -> None:
        catalog = intro_layer.catalog()  # the data runs from 2023-01-01
        reading = read_text("running total of revenue by month through April", catalog)
        assert _days(reading) == [(dt.date(2023, 1, 1), dt.date(2023, 4, 30))]
        assert reading.asks.cumulative and reading.asks.grain == "month" and reading.unread == []
        within = read_text("cumulative revenue by month in Q1", catalog)  # runs within Q1
        assert _days(within) == [(dt.date(2023, 1, 1), dt.date(2023, 3, 31))]

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("cancelled flights through April", catalog)
        assert _days(reading) == [(dt.date(2013, 1, 1), dt.date(2013, 4, 30))]
        assert reading.asks.cumulative and reading.unread == []
        assert "through" in read_text("flights through the hub in July", catalog).unread


class TestAMetricOverItself:
    """'quick buy transactions per quick buy transaction', 'flights for every flight': a metric
    over itself is no ratio anyone asks; 'per' ('every') stays unread (a generated mutant of the
    metamorphic invariant read as the original, session 12)."""

    def test_the_tutorial(self, tutorial_layer) -> None:
        reading = read_text("quick buy transactions per quick buy transaction in March",
                            tutorial_layer.catalog())
        assert "per" in reading.unread

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        assert "every" in " ".join(read_text("flights for every flight in July", catalog).unread)

    def test_the_demo_keeps_two_metrics_over_each_other(self, layer) -> None:
        reading = read_text("value moments per new user in the week of 2026-03-02", layer.catalog())
        assert reading.unread == []


class TestAMonthRangeWithADash:
    """'April–June' without a year: a bare month is read after a preposition, and the month
    after a dash now counts as after one, so the range is one period of three months (the lead's
    held-out edit 'reached 669 in April–June' read 'April' alone and withheld it)."""

    def test_flights_and_the_shop(self, flights_layer, shop_layer) -> None:
        for layer, year in ((flights_layer, 2013), (shop_layer, 2019)):
            catalog = layer.catalog()
            for text in ("How many orders were there in April–June?", "Flights in April-June"):
                reading = read_text(text, catalog)
                assert _days(reading) == [(dt.date(year, 4, 1), dt.date(year, 6, 30))], text
            reading = read_text("Flights in Jan–Mar", catalog)
            assert _days(reading) == [(dt.date(year, 1, 1), dt.date(year, 3, 31))]
