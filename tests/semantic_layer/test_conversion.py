"""Conversion metrics with MetricFlow's semantics (conversion_type_params): each conversion
event is credited to the latest base event of the same entity on its day or within the window
before it (and equal constant properties), grouped by that base event's period and dimensions;
conversion_rate divides by the base events. Checked against a reading of the raw rows written
here, on two domains: the conformance project (visits converting to orders) and the shop
example (sign-ups converting to orders). MetricFlow itself: conformance/differential.py and
run.py's conversion queries."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
import sqlglot
import yaml

from showwork.semantic_layer import SemanticError, SemanticLayer, load_model, parse_where
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.sql import shift
from showwork.semantic_layer.windows import DIALECTS

ROOT = Path(__file__).resolve().parents[2]
Key = tuple[object, ...]


def credited(base: Sequence[tuple[object, dt.date, Key]], conversions: list[tuple[object, dt.date]],
             since: Callable[[dt.date], dt.date] | None) -> tuple[dict[Key, int], dict[Key, int]]:
    """(base events per key, conversions per key): each conversion to the latest base event of
    its entity on its day or after `since(day)` (None: any earlier day)."""
    events: dict[Key, int] = {}
    for _, _, key in base:
        events[key] = events.get(key, 0) + 1
    converted: dict[Key, int] = {}
    for entity, day in conversions:
        if entity is None:
            continue
        earlier = [(d, key) for e, d, key in base if e == entity and d <= day
                   and (since is None or d > since(day))]
        if earlier:
            key = max(earlier, key=lambda x: x[0])[1]
            converted[key] = converted.get(key, 0) + 1
    return events, converted


def _day(value: object) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value  # type: ignore[return-value]


def _month(day: dt.date) -> str:
    return day.replace(day=1).isoformat()


class TestConformanceProject:
    """visit_to_order_rate (7 days), visit_to_order_count (a month, enterprise visits only),
    visit_to_buyer_rate (any time later, a distinct count) of conformance/project."""

    H1 = {"start": "2024-01-01", "end": "2024-06-30"}

    def _base(self, shop_sql, segment: str | None = None) -> list[tuple[object, dt.date, str]]:
        sql = ("SELECT v.customer_id, v.visited_on, c.segment FROM visits v "
               "LEFT JOIN customers c USING (customer_id) "
               "WHERE v.visited_on BETWEEN DATE '2024-01-01' AND DATE '2024-06-30'")
        return [(e, _day(d), s) for e, d, s in shop_sql.execute(sql).fetchall()
                if segment is None or s == segment]

    def _orders(self, shop_sql) -> list[tuple[object, dt.date]]:
        return [(e, _day(d)) for e, d in shop_sql.execute(
            "SELECT customer_id, ordered_at FROM transactions WHERE ordered_at IS NOT NULL"
        ).fetchall()]

    def test_rate_by_month(self, shop: SemanticLayer, shop_sql) -> None:
        base = [(e, d, (_month(d),)) for e, d, _ in self._base(shop_sql)]
        events, converted = credited(base, self._orders(shop_sql),
                                     lambda day: day - dt.timedelta(days=7))
        rows = shop.query(metrics=["visit_to_order_rate"], grain="month", window=self.H1,
                          whole_periods=True).rows
        got = {r.key["month"]: r.values["visit_to_order_rate"]["value"] for r in rows}
        assert got == pytest.approx({k[0]: converted.get(k, 0) / n for k, n in events.items()})
        assert any(v for v in got.values())

    def test_filtered_count_by_segment_a_month_back(self, shop: SemanticLayer, shop_sql) -> None:
        base = [(e, d, (s,)) for e, d, s in self._base(shop_sql, "enterprise")]
        _, converted = credited(base, self._orders(shop_sql),
                                lambda day: shift(day, -1, "month"))
        rows = shop.query(metrics=["visit_to_order_count"], group_by=["customer__segment"],
                          window=self.H1).rows
        got = {r.key["customer__segment"]: r.values["visit_to_order_count"]["value"]
               for r in rows}
        assert got == {k[0]: n for k, n in converted.items()}
        assert got["enterprise"] > 0

    def test_distinct_conversions_without_a_window(self, shop: SemanticLayer, shop_sql) -> None:
        """A distinct count of converting customers, any time after the visit."""
        base = [(e, d, (s,)) for e, d, s in self._base(shop_sql)]
        buyers: dict[tuple[Key, object], None] = {}
        for entity, day in self._orders(shop_sql):
            earlier = [(d, k) for e, d, k in base if e == entity and d <= day]
            if earlier:
                buyers[(max(earlier, key=lambda x: x[0])[1], entity)] = None
        visits = {}
        for _, _, k in base:
            visits[k] = visits.get(k, 0) + 1
        rows = shop.query(metrics=["visit_to_buyer_rate"], group_by=["customer__segment"],
                          window=self.H1).rows
        got = {r.key["customer__segment"]: r.values["visit_to_buyer_rate"]["value"] for r in rows}
        want = {k[0]: sum(1 for b, _ in buyers if b == k) / n for k, n in visits.items()}
        assert got == pytest.approx(want)

    @pytest.mark.parametrize("dialect", DIALECTS)
    def test_compiles_in_every_dialect(self, shop: SemanticLayer, dialect: str) -> None:
        sql = shop.compile("query", {"metrics": ["visit_to_order_rate", "visit_to_order_count"],
                                     "grain": "week", "group_by": ["customer__segment"],
                                     "window": self.H1}, dialect).sql
        (statement,) = sqlglot.parse(sql, read=dialect)
        assert statement is not None and "ROW_NUMBER" in sql.upper()

    def test_compare_is_refused_with_the_reason(self, shop: SemanticLayer) -> None:
        with pytest.raises(SemanticError, match="conversion metric"):
            shop.compare(metrics=["visit_to_order_rate"],
                         current_window={"start": "2024-03-01", "end": "2024-03-31"},
                         previous_window={"start": "2024-02-01", "end": "2024-02-29"})


@pytest.fixture(scope="module")
def shop_example(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    """examples/shop with two conversion metrics: a sign-up ordering within 30 days, and the
    orders of the same store's customers (a constant property: the region)."""
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    from shop_data import shop_db

    folder = tmp_path_factory.mktemp("conversion") / "shop"
    shutil.copytree(ROOT / "examples" / "shop", folder,
                    ignore=shutil.ignore_patterns("warehouse.duckdb"))
    db = folder.parent / "shop.duckdb"
    shutil.copy(shop_db(), db)
    metrics = folder / "models" / "metrics.yml"
    doc = yaml.safe_load(metrics.read_text(encoding="utf-8"))
    doc["metrics"] += [
        {"name": "signup_to_order_rate", "label": "sign-up to order rate", "type": "conversion",
         "type_params": {"conversion_type_params": {
             "base_measure": {"name": "customers"}, "conversion_measure": {"name": "orders"},
             "entity": "customer", "window": "30 days"}}},
        {"name": "signup_orders", "label": "orders after sign-up", "type": "conversion",
         "type_params": {"conversion_type_params": {
             "base_measure": {"name": "customers"}, "conversion_measure": {"name": "orders"},
             "entity": "customer", "calculation": "conversions"}}},
        {"name": "signup_orders_filled", "label": "orders within a week of sign-up",
         "type": "conversion", "type_params": {"conversion_type_params": {
             "base_measure": {"name": "customers"},
             "conversion_measure": {"name": "orders", "fill_nulls_with": 0},
             "entity": "customer", "calculation": "conversions", "window": "7 days"}}},
        {"name": "signup_orders_spined", "label": "orders after sign-up, every month",
         "type": "conversion", "type_params": {"conversion_type_params": {
             "base_measure": {"name": "customers", "join_to_timespine": True},
             "conversion_measure": {"name": "orders"}, "entity": "customer",
             "calculation": "conversions"}}},
    ]
    metrics.write_text(yaml.safe_dump(doc), encoding="utf-8")
    import duckdb

    con = duckdb.connect(str(db))  # the day spine signup_orders_spined joins
    con.execute("CREATE TABLE metricflow_time_spine AS SELECT CAST(range AS DATE) AS date_day "
                "FROM range(DATE '2017-01-01', DATE '2020-01-01', INTERVAL 1 DAY)")
    con.close()
    (folder / "models" / "metricflow_time_spine.sql").write_text("select 1\n", encoding="utf-8")
    layer = SemanticLayer(load_project(folder, database=db), db)
    yield layer
    layer.close()


class TestShopExample:
    def _data(self, layer: SemanticLayer) -> tuple[list, list]:
        con = layer.connection
        base = [(e, _day(d), s) for e, d, s in con.execute(
            "SELECT customer_id, signup_date, segment FROM customers").fetchall()]
        orders = [(e, _day(d)) for e, d in con.execute(
            "SELECT customer_id, ordered_at FROM orders WHERE ordered_at IS NOT NULL").fetchall()]
        return base, orders

    def test_rate_by_segment(self, shop_example: SemanticLayer) -> None:
        base, orders = self._data(shop_example)
        events, converted = credited([(e, d, (s,)) for e, d, s in base], orders,
                                     lambda day: day - dt.timedelta(days=30))
        rows = shop_example.query(metrics=["signup_to_order_rate"],
                                  group_by=["customer__segment"]).rows
        got = {r.key["customer__segment"]: r.values["signup_to_order_rate"]["value"]
               for r in rows}
        assert got == pytest.approx({k[0]: converted.get(k, 0) / n for k, n in events.items()})
        assert any(got.values())

    def test_conversions_by_month_any_time_later(self, shop_example: SemanticLayer) -> None:
        base, orders = self._data(shop_example)
        events, converted = credited([(e, d, (_month(d),)) for e, d, _ in base], orders, None)
        rows = shop_example.query(metrics=["signup_orders"], grain="month").rows
        got = {r.key["month"]: r.values["signup_orders"]["value"] for r in rows}
        # a month with sign-ups and no conversions is null, as MetricFlow's MAX over none
        assert got == {k[0]: converted.get(k) for k in events}

    def test_filled_conversions_are_zero_where_no_sign_up_converted(
            self, shop_example: SemanticLayer) -> None:
        """fill_nulls_with on the conversion measure: a month of sign-ups without an order in
        the week after is 0 (null without the fill)."""
        base, orders = self._data(shop_example)
        events, converted = credited([(e, d, (_month(d),)) for e, d, _ in base], orders,
                                     lambda day: day - dt.timedelta(days=7))
        rows = shop_example.query(metrics=["signup_orders_filled"], grain="month").rows
        got = {r.key["month"]: r.values["signup_orders_filled"]["value"] for r in rows}
        want = {k[0]: converted.get(k, 0) for k in events}
        assert got == want
        assert 0 in want.values() and any(want.values())


class TestFilledConformanceProject:
    """fill_nulls_with on a conversion metric's base and conversion measures, over the
    conformance project's visits converting to orders."""

    @pytest.fixture(scope="class")
    @classmethod
    def filled(cls, shop_db: Path, tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
        folder = tmp_path_factory.mktemp("filled") / "models"
        shutil.copytree(ROOT / "conformance" / "project" / "models", folder)
        metrics = folder / "metrics.yml"
        doc = yaml.safe_load(metrics.read_text(encoding="utf-8"))
        doc["metrics"].append(
            {"name": "visit_to_order_rate_filled", "label": "visit to order rate, filled",
             "type": "conversion", "type_params": {"conversion_type_params": {
                 "base_measure": {"name": "visits", "fill_nulls_with": 1},
                 "conversion_measure": {"name": "orders", "fill_nulls_with": 0},
                 "entity": "customer", "window": "1 day"}}})
        metrics.write_text(yaml.safe_dump(doc), encoding="utf-8")
        layer = SemanticLayer(load_model(folder), shop_db)
        yield layer
        layer.close()

    def test_rate_is_zero_where_no_visit_converted(self, filled: SemanticLayer,
                                                   shop_sql) -> None:
        base = [(e, d, ((d - dt.timedelta(days=d.weekday())).isoformat(), s))
                for e, d, s in TestConformanceProject()._base(shop_sql)]
        orders = TestConformanceProject()._orders(shop_sql)
        events, converted = credited(base, orders, lambda day: day - dt.timedelta(days=1))
        rows = filled.query(metrics=["visit_to_order_rate_filled", "revenue"], grain="week",
                            group_by=["customer__segment"], window=TestConformanceProject.H1,
                            whole_periods=True).rows
        got = {(r.key["week"], r.key["customer__segment"]):
               r.values["visit_to_order_rate_filled"]["value"] for r in rows}
        # a group only revenue has stays null: MetricFlow fills inside the conversion
        # metric's own join of base events and conversions
        assert {k: v for k, v in got.items() if k in events} == pytest.approx(
            {k: converted.get(k, 0) / n for k, n in events.items()})
        assert {v for k, v in got.items() if k not in events} == {None}
        assert any(k not in converted for k in events) and converted

    def test_over_no_visits_the_rate_is_the_fills(self, filled: SemanticLayer,
                                                  shop_sql) -> None:
        """A query without groups over a day without an enterprise visit: MetricFlow's one
        row, each side its fill (0 conversions over 1 base event)."""
        visited = {_day(d) for _, d, s in TestConformanceProject()._base(shop_sql)
                   if s == "enterprise"}
        day = next(d for d in (dt.date(2024, 1, 1) + dt.timedelta(days=i) for i in range(180))
                   if d not in visited).isoformat()
        rows = filled.query(metrics=["visit_to_order_rate_filled"],
                            window={"start": day, "end": day}, where=[
                                {"dimension": "customer__segment", "values": ["enterprise"]}]).rows
        assert [r.values["visit_to_order_rate_filled"]["value"] for r in rows] == [0.0]


SPINED = [
    {"name": "visit_to_order_rate_spined", "label": "visit to order rate, every week",
     "type": "conversion", "type_params": {"conversion_type_params": {
         "base_measure": {"name": "visits", "join_to_timespine": True},
         "conversion_measure": {"name": "orders"}, "entity": "customer", "window": "7 days"}}},
    {"name": "enterprise_orders_spined", "label": "orders after an enterprise visit, every week",
     "type": "conversion", "filter": "{{ Dimension('customer__segment') }} = 'enterprise'",
     "type_params": {"conversion_type_params": {
         "base_measure": {"name": "visits", "join_to_timespine": True},
         "conversion_measure": {"name": "orders"}, "entity": "customer",
         "calculation": "conversions", "window": "1 month"}}},
]


class TestSpinedConversionProject:
    """join_to_timespine on a conversion metric's base measure (MetricFlow LEFT JOINs the time
    spine's periods to the base events' groups, then the conversions): every period of the
    range is a row, null where no visit; the visits converting to orders of the conformance
    project (conformance/differential.py's `conversion_spine` cases and public.py's pass ask
    MetricFlow itself)."""

    @pytest.fixture(scope="class")
    @classmethod
    def spined(cls, shop_db: Path, tmp_path_factory: pytest.TempPathFactory
               ) -> Iterator[SemanticLayer]:
        folder = tmp_path_factory.mktemp("spined") / "models"
        shutil.copytree(ROOT / "conformance" / "project" / "models", folder)
        metrics = folder / "metrics.yml"
        doc = yaml.safe_load(metrics.read_text(encoding="utf-8"))
        doc["metrics"] += SPINED
        metrics.write_text(yaml.safe_dump(doc), encoding="utf-8")
        layer = SemanticLayer(load_model(folder), shop_db)
        yield layer
        layer.close()

    def _visits(self, shop_sql) -> list[tuple[object, dt.date, str]]:
        return [(e, _day(d), s) for e, d, s in shop_sql.execute(
            "SELECT v.customer_id, v.visited_on, c.segment FROM visits v "
            "LEFT JOIN customers c USING (customer_id)").fetchall()]

    def test_every_month_of_the_window_is_a_row(self, spined: SemanticLayer, shop_sql) -> None:
        """Oct 2023 – Sep 2024: the visits' months as the reading gives, the months before and
        after them null rows of the spine."""
        base = [(e, d, (_month(d),)) for e, d, _ in self._visits(shop_sql)
                if dt.date(2023, 10, 1) <= d <= dt.date(2024, 9, 30)]
        events, converted = credited(base, TestConformanceProject()._orders(shop_sql),
                                     lambda day: day - dt.timedelta(days=7))
        rows = spined.query(metrics=["visit_to_order_rate_spined"], grain="month",
                            window={"start": "2023-10-01", "end": "2024-09-30"}).rows
        got = {r.key["month"]: r.values["visit_to_order_rate_spined"]["value"] for r in rows}
        months = [(dt.date(2023, 10, 1) + dt.timedelta(days=31 * i)).replace(day=1).isoformat()
                  for i in range(12)]
        assert sorted(got) == months
        assert {k: v for k, v in got.items() if (k,) in events} == pytest.approx(
            {k[0]: converted.get(k, 0) / n for k, n in events.items()})
        assert {v for k, v in got.items() if (k,) not in events} == {None}
        assert len(events) == 6

    def test_no_window_is_the_whole_spine(self, spined: SemanticLayer) -> None:
        rows = spined.query(metrics=["visit_to_order_rate_spined"], grain="month").rows
        assert [r.key["month"] for r in rows][::12] == ["2023-01-01", "2024-01-01", "2025-01-01"]
        assert len(rows) == 36

    def test_a_bound_on_one_side_runs_the_spine_to_its_end(self, spined: SemanticLayer) -> None:
        """metric_time >= 2024-03-15 with no window: March to the spine's last month (the
        sources' coverage does not close the other side)."""
        args = parse_where("{{ TimeDimension('metric_time', 'day') }} >= '2024-03-15'").apply(
            {"metrics": ["visit_to_order_rate_spined"], "grain": "month"}, spined.model)
        keys = [r.key["month"] for r in spined.call("query", args).rows]
        assert keys[0] == "2024-03-01" and keys[-1] == "2025-12-01" and len(keys) == 22

    def test_a_bound_mixed_with_a_filter_keeps_the_asked_windows_spine(
            self, spined: SemanticLayer, shop_sql) -> None:
        """One --where with a segment and a day bound (a grain the query does not group by):
        MetricFlow filters the visits with it, not the spine, whose months stay the window's."""
        where = ("{{ Dimension('customer__segment') }} = 'consumer' AND "
                 "{{ TimeDimension('metric_time', 'day') }} <= '2024-02-20'")
        args = parse_where(where).apply(
            {"metrics": ["visit_to_order_rate_spined"], "grain": "month", "whole_periods": True,
             "window": {"start": "2023-11-10", "end": "2024-05-02"}}, spined.model)
        got = {r.key["month"]: r.values["visit_to_order_rate_spined"]["value"]
               for r in spined.call("query", args).rows}
        base = [(e, d, (_month(d),)) for e, d, s in self._visits(shop_sql)
                if s == "consumer" and d <= dt.date(2024, 2, 20)]
        events, converted = credited(base, TestConformanceProject()._orders(shop_sql),
                                     lambda day: day - dt.timedelta(days=7))
        assert sorted(got) == ["2023-11-01", "2023-12-01", "2024-01-01", "2024-02-01",
                               "2024-03-01", "2024-04-01", "2024-05-01"]
        assert got["2024-02-01"] == pytest.approx(converted.get(("2024-02-01",), 0)
                                                  / events[("2024-02-01",)])
        assert got["2023-12-01"] is None and got["2024-04-01"] is None

    def test_its_filter_drops_the_spines_rows_when_grouped_by_what_it_names(
            self, spined: SemanticLayer) -> None:
        """By segment, the metric's own filter (segment = enterprise) is applied again after
        the spine join: no null-segment month is left. By region it is not: the months
        without an enterprise visit are rows with no region."""
        window = {"start": "2023-11-01", "end": "2024-08-31"}
        by_segment = spined.query(metrics=["enterprise_orders_spined"], grain="month",
                                  group_by=["customer__segment"], window=window).rows
        assert {r.key["customer__segment"] for r in by_segment} == {"enterprise"}
        by_region = spined.query(metrics=["enterprise_orders_spined"], grain="month",
                                 group_by=["customer__country__region"], window=window).rows
        empty = [r.key["month"] for r in by_region if r.key["customer__country__region"] in
                 (None, "")]
        assert "2023-11-01" in empty and "2024-08-01" in empty


def test_spined_conversions_in_the_shop_example(shop_example: SemanticLayer) -> None:
    """The shop's sign-ups converting to orders, the sign-ups joined to a time spine: by month
    from the month of the last sign-up's month before to the spine's last, the months after it
    are null rows, the others the reading's."""
    con = shop_example.connection
    (last,) = map(_day, con.execute("SELECT max(signup_date) FROM customers").fetchall()[0])
    start = (last.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    base, orders = TestShopExample()._data(shop_example)
    events, converted = credited([(e, d, (_month(d),)) for e, d, _ in base if d >= start],
                                 orders, None)
    rows = shop_example.query(metrics=["signup_orders_spined"], grain="month", window={
        "start": start.isoformat(), "end": "2019-12-31"}).rows
    got = {r.key["month"]: r.values["signup_orders_spined"]["value"] for r in rows}
    assert sorted(got) == [_month(start), _month(last), *(
        f"2019-{m:02d}-01" for m in range(last.month + 1, 13))]
    assert {k: v for k, v in got.items() if (k,) in events} == {
        k[0]: converted.get(k) for k in events}
    assert {v for k, v in got.items() if (k,) not in events} == {None}
    assert len(events) == 2 and len(got) > 2
