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
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlglot
import yaml

from showwork.semantic_layer import SemanticError, SemanticLayer
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.sql import shift
from showwork.semantic_layer.windows import DIALECTS

ROOT = Path(__file__).resolve().parents[2]
Key = tuple[object, ...]


def credited(base: list[tuple[object, dt.date, Key]], conversions: list[tuple[object, dt.date]],
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
    ]
    metrics.write_text(yaml.safe_dump(doc), encoding="utf-8")
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
