"""Aggregate before the join (semantic_layer/pushdown.py): the compiled SQL groups the fact by its
join keys first where that gives exactly the plain plan's rows and pays (PostgreSQL, DuckDB), keeps
the plain plan everywhere else, and both plans give the same rows on the demo, the shop and the
flights example."""

from __future__ import annotations

import math
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from flights_data import FLIGHTS, flights_db

from showwork.semantic_layer import SemanticLayer, pushdown
from showwork.semantic_layer.project import load_project

YEAR = {"start": "2013-01-01", "end": "2013-12-31"}
SEP = {"start": "2013-09-01", "end": "2013-09-30"}
AUG = {"start": "2013-08-01", "end": "2013-08-31"}
MARCH = {"start": "2026-03-02", "end": "2026-03-29"}
Q2_2019 = {"start": "2019-04-01", "end": "2019-06-30"}


@pytest.fixture(scope="module")
def flights(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SemanticLayer]:
    """The flights layer over a copy of the cached warehouse (other modules hold the cache open
    under another DuckDB configuration)."""
    copy = tmp_path_factory.mktemp("flights") / "warehouse.duckdb"
    shutil.copy(flights_db(), copy)
    layer = SemanticLayer(load_project(FLIGHTS, database=copy), copy)
    yield layer
    layer.close()


def sql(layer: SemanticLayer, kind: str = "query", dialect: str = "postgres", **args: Any) -> str:
    return layer.compile(kind, args, dialect).sql


def first_aggregated(text: str) -> bool:
    return "__k0" in text


class TestWhereItApplies:
    """PostgreSQL groups the fact by the join key, joins the groups, aggregates again."""

    def test_grouped_by_a_joined_dimension(self, flights: SemanticLayer) -> None:
        """Flights by airline: counted per carrier, then the airlines' names joined to 16 rows
        and the counts summed again (kept BIGINT, the plain count's type)."""
        text = sql(flights, metrics=["flights"], window=YEAR, group_by=["airline"])
        assert ("SELECT CAST(SUM(flights.m__flights) AS BIGINT) AS m__flights, airlines.name AS "
                "airline FROM (SELECT flights.carrier AS __k0, SUM(1) AS m__flights FROM flights "
                "WHERE") in text
        assert ("GROUP BY flights.carrier) AS flights LEFT JOIN airlines ON flights.__k0 = "
                "airlines.carrier GROUP BY airlines.name") in text

    def test_local_dimension_grouped_inside(self, flights: SemanticLayer) -> None:
        """A dimension of the fact itself and the period are grouped by in the inner query and
        read from it outside."""
        text = sql(flights, metrics=["total_departure_delay"], window=YEAR, grain="month",
                   group_by=["airline", "origin"])
        inner = text[text.index("FROM (SELECT"):text.index(") AS flights LEFT JOIN")]
        assert "flights.origin AS __k" in inner and "DATE_TRUNC('MONTH'" in inner
        assert "GROUP BY flights.__k" in text.replace(", airlines.name", "")

    def test_joined_filter_read_after_the_join(self, flights: SemanticLayer) -> None:
        """Flights by airline to O'Hare: the window inside, the destination's name on the
        joined rows outside, the fact grouped by both keys (carrier, destination)."""
        text = sql(flights, metrics=["flights"], window=YEAR, group_by=["airline"],
                   where=[{"dimension": "destination_airport_name", "op": "in",
                           "values": ["Chicago Ohare Intl"]}])
        inner = text[text.index("FROM (SELECT"):text.index(") AS flights LEFT JOIN")]
        assert "flights.carrier AS __k0" in inner and "flights.dest AS __k1" in inner
        assert "flight_date" in inner and "Ohare" not in inner
        assert "WHERE dest_airports.name IN ('Chicago Ohare Intl')" in text

    def test_a_comparison_in_one_pass(self, flights: SemanticLayer) -> None:
        """PostgreSQL's one-pass comparison by airline: the FILTERed aggregates per carrier,
        summed again per airline."""
        text = sql(flights, "compare", metrics=["average_departure_delay"], current_window=SEP,
                   previous_window=AUG, by="airline")
        inner = text[text.index("FROM (SELECT flights.carrier"):text.index(") AS flights LEFT JOIN")]
        assert "COUNT(flights.dep_delay) FILTER(WHERE flights.flight_date >=" in inner
        assert "CAST(SUM(flights.m__departed_flights__current) AS BIGINT)" in text

    def test_shop_revenue_by_store(self, shop_layer: SemanticLayer) -> None:
        """The shop's orders by store, its metric filters (not a test, not cancelled) on the
        orders themselves: inside, before the groups."""
        text = sql(shop_layer, metrics=["revenue"], window=Q2_2019, group_by=["store"])
        inner = text[text.index("FROM (SELECT"):text.index(") AS orders LEFT JOIN")]
        assert "orders.store_id AS __k0" in inner and "is_test" in inner


class TestWhereItMustNot:
    """The plain plan is kept wherever partial results would not add up exactly."""

    def test_spark_keeps_the_plain_plan(self, flights: SemanticLayer) -> None:
        """Measured on PostgreSQL and DuckDB only: Spark (and the warehouses not run here) keep
        the plain plan; DuckDB aggregates first as PostgreSQL does."""
        args = {"metrics": ["flights"], "window": YEAR, "group_by": ["airline"]}
        assert not first_aggregated(sql(flights, dialect="spark", **args))
        assert first_aggregated(sql(flights, dialect="duckdb", **args))

    def test_distinct_count(self, layer: SemanticLayer) -> None:
        """Active users (a distinct count) by platform: a user counted in two keys' parts."""
        assert not first_aggregated(sql(layer, metrics=["active_users"], window=MARCH,
                                        group_by=["platform"]))

    def test_average(self, flights: SemanticLayer) -> None:
        """An average is not the average of averages."""
        assert not first_aggregated(sql(flights, metrics=["average_temperature"], window=YEAR,
                                        group_by=["origin_airport__airport_name"]))

    def test_cumulative(self, shop_layer: SemanticLayer) -> None:
        """A cumulative metric reads per-bucket ranges of days, not one grouped pass."""
        assert not first_aggregated(sql(shop_layer, metrics=["customer_base"], window=Q2_2019,
                                        grain="month", group_by=["region__region_name"]))

    def test_a_joined_model_only_filtering(self, flights: SemanticLayer) -> None:
        """Filtered on the airline, grouped by nothing joined: the join probes one airline's
        row, cheaper than grouping by carrier first (kept plain, as it does not pay)."""
        assert not first_aggregated(sql(flights, "compare", metrics=["average_departure_delay"],
                                        current_window=SEP, previous_window=AUG,
                                        where=[{"dimension": "airline", "op": "in",
                                                "values": ["United Air Lines Inc."]}]))

    def test_a_model_with_measures_of_its_own(self, layer: SemanticLayer,
                                              shop_layer: SemanticLayer) -> None:
        """Joined first to users (the demo) or orders (the shop's items), tables with measures
        of their own: about as many keys as rows, so grouping by key first would not pay."""
        assert not first_aggregated(sql(layer, metrics=["real_value_moments"], window=MARCH,
                                        group_by=["platform"]))
        assert not first_aggregated(sql(shop_layer, metrics=["items_sold"], window=Q2_2019,
                                        group_by=["order__store__store_name"]))


# -- the same rows either way ---------------------------------------------------------------------
FLIGHTS_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("query", {"metrics": ["flights"], "window": YEAR, "group_by": ["airline"]}),
    ("query", {"metrics": ["cancelled_flights", "flights", "cancellation_rate"], "window": YEAR,
               "grain": "month", "group_by": ["airline", "origin"]}),
    ("query", {"metrics": ["average_departure_delay", "delayed_share"], "window": YEAR,
               "group_by": ["destination_airport_name"]}),
    ("query", {"metrics": ["total_air_time", "timed_flights"], "window": YEAR,
               "group_by": ["manufacturer", "airline"],
               "where": [{"dimension": "origin", "op": "in", "values": ["JFK"]}]}),
    ("query", {"metrics": ["flights"], "window": YEAR, "group_by": ["origin"],
               "where": [{"dimension": "airline", "op": "not_in",
                          "values": ["United Air Lines Inc."]}]}),
    ("query", {"metrics": ["total_distance"], "window": YEAR,
               "where": [{"dimension": "manufacturer", "op": "in", "values": ["BOEING"]}]}),
    ("compare", {"metrics": ["average_departure_delay", "flights"], "current_window": SEP,
                 "previous_window": AUG, "by": "airline"}),
    ("compare", {"metrics": ["departed_flights"], "current_window": SEP, "previous_window": AUG,
                 "where": [{"dimension": "airline", "op": "in", "values": ["Hawaiian Airlines Inc."]},
                           {"dimension": "origin", "op": "in", "values": ["LGA"]}]}),  # no rows
]
SHOP_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("query", {"metrics": ["revenue", "order_count"], "grain": "quarter", "group_by": ["region"],
               "window": {"start": "2018-04-01", "end": "2019-06-30"}}),
    ("query", {"metrics": ["items_sold"], "grain": "month", "group_by": ["order__store__store_name"],
               "window": {"start": "2019-01-01", "end": "2019-06-30"}}),
    ("query", {"metrics": ["cancelled_orders", "gross_orders"], "window": Q2_2019,
               "group_by": ["store"]}),
    ("compare", {"metrics": ["revenue", "order_count", "average_order_value"], "by": "store",
                 "current_window": {"start": "2019-05-01", "end": "2019-05-31"},
                 "previous_window": {"start": "2019-04-01", "end": "2019-04-30"}}),
]
DEMO_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("query", {"metrics": ["reminder_open_rate"], "window": {"start": "2026-04-01",
                                                             "end": "2026-04-30"},
               "group_by": ["platform"]}),
    ("query", {"metrics": ["real_value_moments"], "window": MARCH, "grain": "week",
               "group_by": ["country", "plan"]}),
    ("query", {"metrics": ["real_value_moments"], "window": MARCH}),  # a count, no GROUP BY
    ("compare", {"metrics": ["real_value_moments"], "by": "platform",
                 "current_window": {"start": "2026-03-09", "end": "2026-03-15"},
                 "previous_window": {"start": "2026-03-02", "end": "2026-03-08"}}),
]


def _sorted(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return sorted(rows, key=lambda r: tuple((v is not None, str(v)) for v in r))


def _equal(a: Any, b: Any) -> bool:
    if a is None or b is None or isinstance(a, str | bool) or isinstance(b, str | bool):
        return a == b
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
    except (TypeError, ValueError):
        return a == b


def both_plans(layer: SemanticLayer, kind: str, args: dict[str, Any],
               monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, list[tuple[Any, ...]],
                                                         list[tuple[Any, ...]]]:
    """The call's SQL and rows on DuckDB, plain and aggregated first wherever that is exact
    (as if it paid everywhere: the exactness is what is checked)."""
    with monkeypatch.context() as m:
        m.setattr(pushdown, "PAYS", ())
        plain = sql(layer, kind, "duckdb", **args)
    with monkeypatch.context() as m:
        m.setattr(pushdown, "pays", lambda *_: True)
        first = sql(layer, kind, "duckdb", **args)
    return (plain, first, _sorted(layer.engine.run(plain, layer.limits)),
            _sorted(layer.engine.run(first, layer.limits)))


def _check(layer: SemanticLayer, calls: list[tuple[str, dict[str, Any]]],
           monkeypatch: pytest.MonkeyPatch) -> int:
    changed = 0
    for kind, args in calls:
        plain, first, want, got = both_plans(layer, kind, args, monkeypatch)
        assert len(got) == len(want), (kind, args)
        for w, g in zip(want, got, strict=True):
            assert all(_equal(x, y) for x, y in zip(w, g, strict=True)), (kind, args, w, g)
        changed += plain != first
    return changed


class TestSameRows:
    """Row for row, both plans agree (DuckDB made to aggregate first, as PostgreSQL does)."""

    def test_flights(self, flights: SemanticLayer, monkeypatch: pytest.MonkeyPatch) -> None:
        assert _check(flights, FLIGHTS_CALLS, monkeypatch) == len(FLIGHTS_CALLS)

    def test_shop(self, shop_layer: SemanticLayer, monkeypatch: pytest.MonkeyPatch) -> None:
        assert _check(shop_layer, SHOP_CALLS, monkeypatch) == len(SHOP_CALLS)

    def test_demo(self, layer: SemanticLayer, monkeypatch: pytest.MonkeyPatch) -> None:
        # kept plain: the count with no GROUP BY (0 over no rows, a sum of no counts NULL)
        assert _check(layer, DEMO_CALLS, monkeypatch) == len(DEMO_CALLS) - 1

    def test_shares(self, flights: SemanticLayer, monkeypatch: pytest.MonkeyPatch) -> None:
        """A share of the total by airline: each row's share and the total alike."""
        args = {"metrics": ["flights"], "window": YEAR, "group_by": ["airline"], "share": True,
                "where": [{"dimension": "origin", "op": "in", "values": ["LGA"]}]}
        with monkeypatch.context() as m:
            m.setattr(pushdown, "PAYS", ())
            flights._prepared.clear()
            plain = flights.call("query", args).to_json()
        flights._prepared.clear()
        first = flights.call("query", args)
        assert first.to_json()["rows"] == plain["rows"]
        assert first_aggregated(first.sql)
