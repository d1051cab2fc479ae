"""fill_nulls_with and join_to_timespine with MetricFlow's semantics: a simple metric's null is
its fill value (in its rows and as an input); joined to its time spine, every period of the
query's range is a row (the whole spine with no window). On the conformance project and the
shop example, each against the raw tables."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from showwork.semantic_layer import SemanticLayer, load_model, parse_where
from showwork.semantic_layer.project import load_project

ROOT = Path(__file__).resolve().parents[2]
EXTRA = [
    {"name": "web_revenue_filled", "label": "web revenue filled", "type": "simple",
     "filter": "{{ Dimension('transaction__channel') }} = 'web'",
     "type_params": {"measure": {"name": "revenue", "fill_nulls_with": 0}}},
    {"name": "revenue_spined", "label": "revenue spined", "type": "simple",
     "type_params": {"measure": {"name": "revenue", "fill_nulls_with": -1,
                                 "join_to_timespine": True}}},
    {"name": "revenue_spined_only", "label": "revenue spined only", "type": "simple",
     "type_params": {"measure": {"name": "revenue", "join_to_timespine": True}}},
    {"name": "web_share_filled", "label": "web share filled", "type": "ratio",
     "type_params": {"numerator": "web_revenue_filled", "denominator": "revenue"}},
    {"name": "web_doubled", "label": "web doubled", "type": "derived",
     "type_params": {"expr": "wr * 2", "metrics": [{"name": "web_revenue_filled",
                                                    "alias": "wr"}]}},
    {"name": "web_plus_orders", "label": "web plus orders", "type": "derived",
     "type_params": {"expr": "wr + oo", "metrics": [
         {"name": "web_revenue_filled", "alias": "wr"}, {"name": "orders", "alias": "oo"}]}},
]


@pytest.fixture(scope="module")
def conformance(shop_db: Path, tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    folder = tmp_path_factory.mktemp("fill") / "models"
    shutil.copytree(ROOT / "conformance" / "project" / "models", folder)
    metrics = folder / "metrics.yml"
    doc = yaml.safe_load(metrics.read_text(encoding="utf-8"))
    doc["metrics"] += EXTRA
    metrics.write_text(yaml.safe_dump(doc), encoding="utf-8")
    layer = SemanticLayer(load_model(folder), shop_db)
    yield layer
    layer.close()


def _months(start: str, end: str) -> list[str]:
    out, day = [], dt.date.fromisoformat(start)
    while day <= dt.date.fromisoformat(end):
        out.append(day.isoformat())
        day = (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return out


class TestFillNullsWith:
    def test_a_group_without_rows_is_the_fill(self, conformance: SemanticLayer, shop_sql) -> None:
        """By channel: web revenue is 0 (not null) for store and phone, the web sum for web."""
        rows = conformance.query(metrics=["web_revenue_filled", "orders"],
                                 group_by=["transaction__channel"]).rows
        got = {r.key["transaction__channel"]: r.values["web_revenue_filled"]["value"]
               for r in rows}
        (web,) = shop_sql.execute("SELECT sum(amount) FROM transactions WHERE channel = 'web'"
                                  ).fetchone()
        assert got == {"phone": 0, "store": 0, "web": pytest.approx(web, rel=1e-9)}

    def test_an_input_is_filled_too(self, conformance: SemanticLayer, shop_sql) -> None:
        """A ratio over the filled metric: 0 (0 / revenue) where the input has no rows."""
        rows = conformance.query(metrics=["web_share_filled"],
                                 group_by=["transaction__channel"]).rows
        got = {r.key["transaction__channel"]: r.values["web_share_filled"]["value"] for r in rows}
        assert got["store"] == 0 and got["phone"] == 0 and got["web"] == pytest.approx(1.0)


    def test_a_lone_input_is_filled_only_where_it_has_rows(self, conformance: SemanticLayer,
                                                           shop_sql) -> None:
        """The only input of a derived metric: null where it has no rows of its own (MetricFlow
        fills inputs where it combines two or more); with two inputs, filled."""
        rows = conformance.query(metrics=["web_doubled", "web_plus_orders", "orders"],
                                 group_by=["transaction__channel"]).rows
        got = {r.key["transaction__channel"]: (r.values["web_doubled"]["value"],
                                               r.values["web_plus_orders"]["value"],
                                               r.values["orders"]["value"]) for r in rows}
        (web,) = shop_sql.execute("SELECT sum(amount) FROM transactions WHERE channel = 'web'"
                                  ).fetchone()
        assert got["store"][0] is None and got["store"][1] == got["store"][2]
        assert got["web"][0] == pytest.approx(2 * web, rel=1e-9)

    def test_a_lone_input_without_groups_is_filled(self, conformance: SemanticLayer) -> None:
        """With no group, MetricFlow's one row over no rows holds the lone input's fill too
        (found by differential.py's time_where cases): store orders only, web_doubled 0."""
        args = parse_where("{{ Dimension('transaction__channel') }} = 'store'").apply(
            {"metrics": ["web_doubled"], "window": {"start": "2024-01-01", "end": "2024-06-30"}})
        (row,) = conformance.call("query", args).rows
        assert row.values["web_doubled"]["value"] == 0


class TestJoinToTimeSpine:
    def test_every_month_of_the_window(self, conformance: SemanticLayer, shop_sql) -> None:
        """A window wider than the data (2023-11..2024-08): each month is a row, the fill where
        there is no data, the sum where there is."""
        rows = conformance.query(metrics=["revenue_spined"], grain="month",
                                 window={"start": "2023-11-01", "end": "2024-08-31"}).rows
        sums = dict(shop_sql.execute(
            "SELECT strftime(date_trunc('month', ordered_at), '%Y-%m-%d'), sum(amount) FROM "
            "transactions GROUP BY 1").fetchall())
        assert [r.key["month"] for r in rows] == _months("2023-11-01", "2024-08-01")
        for r in rows:
            want = sums.get(r.key["month"], -1)
            assert r.values["revenue_spined"]["value"] == pytest.approx(want, rel=1e-9)

    def test_no_window_is_the_whole_spine(self, conformance: SemanticLayer) -> None:
        """No window: every month of the spine (2023-01..2025-12), null where no data."""
        rows = conformance.query(metrics=["revenue_spined_only"], grain="month").rows
        assert [r.key["month"] for r in rows] == _months("2023-01-01", "2025-12-01")
        assert rows[0].values["revenue_spined_only"]["value"] is None

    def test_by_a_dimension_a_month_without_data_is_one_row(self, conformance: SemanticLayer
                                                          ) -> None:
        """Grouped by channel too: a month without data is one row with no channel ("", the spine's
        row), months with data keep their channels."""
        rows = conformance.query(metrics=["revenue_spined"], grain="month",
                                 group_by=["transaction__channel"],
                                 window={"start": "2023-12-01", "end": "2024-01-31"}).rows
        assert [(r.key["month"], r.key["transaction__channel"]) for r in rows] == [
            ("2023-12-01", ""), ("2024-01-01", "phone"), ("2024-01-01", "store"),
            ("2024-01-01", "web")]

    def test_a_filter_on_its_time_dimension_filters_the_spine(self, conformance: SemanticLayer
                                                             ) -> None:
        """A filter naming only the measure's own time dimension bounds the spine too (MetricFlow
        applies it to the spine): no window, ordered_at >= 2024-03-15 by month starts in March."""
        rows = conformance.query(metrics=["revenue_spined_only"], grain="month", where=[
            {"dimension": "transaction__ordered_at__day", "op": "ge", "values": ["2024-03-15"]}
        ]).rows
        assert [r.key["month"] for r in rows] == _months("2024-03-01", "2025-12-01")

    def test_without_a_grain_nothing_is_joined(self, conformance: SemanticLayer, shop_sql
                                               ) -> None:
        """No metric_time asked: the total, as MetricFlow skips the spine join."""
        (row,) = conformance.query(metrics=["revenue_spined"]).rows
        (want,) = shop_sql.execute("SELECT sum(amount) FROM transactions").fetchone()
        assert row.values["revenue_spined"]["value"] == pytest.approx(want, rel=1e-9)

    def test_filter_on_a_grouped_dimension(self, conformance: SemanticLayer) -> None:
        """A filter naming only grouped dimensions is applied again to the spine's rows, as
        MetricFlow does: a month without data (null channel) is dropped by channel = 'web',
        kept by channel IS NULL; a filter on another dimension keeps it."""
        window = {"start": "2023-12-01", "end": "2024-01-31"}

        def months(where: dict) -> list[str]:
            return [r.key["month"] for r in conformance.query(
                metrics=["revenue_spined"], grain="month", group_by=["transaction__channel"],
                where=[where], window=window).rows]

        assert months({"dimension": "transaction__channel", "values": ["web"]}) == [
            "2024-01-01"]
        assert months({"dimension": "transaction__channel", "op": "is_null"})[0] == "2023-12-01"
        assert months({"dimension": "customer__segment", "values": ["consumer"]})[0] == "2023-12-01"


def test_shop_example(tmp_path: Path) -> None:
    """The shop: revenue joined to a time spine by week over a window before the data starts
    has a row per week, the fill in each; a derived metric over a lone filled input, with no
    group under a filter no order passes, is its fill doubled (MetricFlow's one row over no
    rows)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_conversion_spine_mf import shop_with_spine

    folder, db = shop_with_spine(tmp_path)
    metrics = folder / "models" / "metrics.yml"
    doc = yaml.safe_load(metrics.read_text(encoding="utf-8"))
    revenue = next(m for m in doc["metrics"] if m["name"] == "revenue")
    doc["metrics"].append({**revenue, "name": "revenue_weekly_spine", "label": "weekly",
                           "type_params": {
        "measure": {"name": "order_total", "fill_nulls_with": 0, "join_to_timespine": True}}})
    doc["metrics"] += [  # a lone filled input: with no group, filled over no rows
        {**revenue, "name": "revenue_filled", "label": "filled",
         "type_params": {"measure": {"name": "order_total", "fill_nulls_with": 0}}},
        {"name": "revenue_filled_twice", "label": "twice", "type": "derived",
         "type_params": {"expr": "rf * 2", "metrics": [{"name": "revenue_filled", "alias": "rf"}]}}]
    metrics.write_text(yaml.safe_dump(doc), encoding="utf-8")
    layer = SemanticLayer(load_project(folder, database=db), db)
    try:
        first = layer.connection.execute("SELECT min(ordered_at) FROM orders").fetchone()[0]
        start = (first.date() - dt.timedelta(days=first.weekday() + 21)).isoformat()
        rows = layer.query(metrics=["revenue_weekly_spine"], grain="week",
                           window={"start": start, "end": (dt.date.fromisoformat(start)
                                                           + dt.timedelta(days=34)).isoformat()},
                           whole_periods=True).rows
        (before,) = layer.call("query", parse_where(  # a filter no order passes
            "{{ TimeDimension('customer__signup_date', 'day') }} > '2030-01-01'").apply(
            {"metrics": ["revenue_filled_twice"],
             "window": {"start": "2019-01-01", "end": "2019-01-31"}})).rows
    finally:
        layer.close()
    assert before.values["revenue_filled_twice"]["value"] == 0
    assert len(rows) == 5
    assert [r.values["revenue_weekly_spine"]["value"] for r in rows[:3]] == [0, 0, 0]
    assert rows[3].values["revenue_weekly_spine"]["value"] > 0


class TestApproximatePercentile:
    """use_approximate_percentile: the dialect's approximate quantile as MetricFlow renders it,
    the exact one where the dialect has none for the kind asked (documented)."""

    def _model(self, tmp_path: Path, discrete: bool):
        folder = tmp_path / f"models-{discrete}"
        shutil.copytree(ROOT / "conformance" / "project" / "models", folder)
        activity = folder / "activity.yml"
        doc = yaml.safe_load(activity.read_text(encoding="utf-8"))
        fact = next(sm for sm in doc["semantic_models"] if sm["name"] == "transactions")
        fact["measures"].append({"name": "p80_approx", "agg": "percentile", "expr": "amount",
                                 "agg_params": {"percentile": 0.8,
                                                "use_approximate_percentile": True,
                                                "use_discrete_percentile": discrete}})
        activity.write_text(yaml.safe_dump(doc), encoding="utf-8")
        metrics = folder / "metrics.yml"
        doc = yaml.safe_load(metrics.read_text(encoding="utf-8"))
        doc["metrics"].append({"name": "p80_approx", "label": "p80 approx", "type": "simple",
                               "type_params": {"measure": "p80_approx"}})
        metrics.write_text(yaml.safe_dump(doc), encoding="utf-8")
        return load_model(folder)

    @pytest.mark.parametrize(("dialect", "discrete", "want"), [
        ("duckdb", False, "APPROX_QUANTILE(transactions.amount, 0.8)"),
        ("snowflake", False, "APPROX_PERCENTILE(transactions.amount, 0.8)"),
        ("bigquery", False, "APPROX_QUANTILES(transactions.amount, 5)[OFFSET(4)]"),
        ("spark", True, "PERCENTILE_APPROX(transactions.amount, 0.8)"),
        ("postgres", False, "PERCENTILE_CONT(0.8) WITHIN GROUP (ORDER BY transactions.amount"),
        ("duckdb", True, "QUANTILE_DISC(transactions.amount, 0.8)"),
    ])
    def test_each_dialect(self, tmp_path: Path, dialect: str, discrete: bool, want: str) -> None:
        layer = SemanticLayer(self._model(tmp_path, discrete))
        sql = layer.compile("query", {"metrics": ["p80_approx"], "grain": "month"}, dialect).sql
        assert want.upper() in sql.replace("`", "").replace('"', "").upper()

    def test_duckdb_runs_its_own_approx_quantile(self, tmp_path: Path, shop_db: Path) -> None:
        """On DuckDB the value is approx_quantile's over the same rows, by month."""
        layer = SemanticLayer(self._model(tmp_path, False), shop_db)
        try:
            rows = layer.query(metrics=["p80_approx"], grain="month").rows
            want = dict(layer.connection.execute(
                "SELECT strftime(date_trunc('month', ordered_at), '%Y-%m-%d'), "
                "approx_quantile(amount, 0.8) FROM transactions GROUP BY 1").fetchall())
        finally:
            layer.close()
        assert len(rows) == 6
        for r in rows:
            assert r.values["p80_approx"]["value"] == pytest.approx(want[r.key["month"]],
                                                                    rel=1e-9)
