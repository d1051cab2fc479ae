"""Offsets and cumulative windows read each day's aggregate, not each row (compile.py `_by_day`):
the same numbers as reading every row against every range, on a generated warehouse of every
aggregation and on the projects' own cumulative and offset metrics. The row reading is the one
MetricFlow's answers were checked against (`make conformance`); `ROLLS_UP` emptied forces it."""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Any

import duckdb
import pytest
import yaml

from showwork.semantic_layer import SemanticLayer, load_model
from showwork.semantic_layer import compile as compile_module
from showwork.semantic_layer.errors import SemanticError

AGGS = ("sum", "count", "count_distinct", "min", "max", "sum_boolean", "average")
GRAINS = ("day", "week", "month")


def _rows(layer: SemanticLayer, args: dict[str, Any]) -> list[tuple[Any, ...]]:
    sql = layer.compile("query", args).sql
    out = layer.connection.execute(sql).fetchall()
    return sorted(out, key=repr)


def _same(left: list[tuple[Any, ...]], right: list[tuple[Any, ...]]) -> bool:
    if len(left) != len(right):
        return False
    for a, b in zip(left, right, strict=True):
        for x, y in zip(a, b, strict=True):
            if isinstance(x, float | int) and isinstance(y, float | int) and not isinstance(x, bool):
                if not math.isclose(float(x), float(y), rel_tol=1e-9, abs_tol=1e-9):
                    return False
            elif x != y:
                return False
    return True


def both_ways(layer: SemanticLayer, args: dict[str, Any],
              monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    """(rows read by day, rows read by row) of one query."""
    by_day = _rows(layer, args)
    with monkeypatch.context() as m:
        m.setattr(compile_module, "ROLLS_UP", {})
        by_row = _rows(layer, args)
    return by_day, by_row


def range_metrics(layer: SemanticLayer) -> list[str]:
    """The metrics read over ranges of days: cumulative ones and those with an offset input."""
    model = layer.model
    return [name for name, m in model.metric_index.items()
            if m.type == "cumulative" or any(i.offset_window or i.offset_to_grain
                                              for i in m.inputs or ())]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    """Sales over four years (several rows a day, some days none, NULL amounts), each
    aggregation as an all-time, a 7-day, a month-to-date (first and last day) cumulative and a
    week-ago offset."""
    path = tmp_path_factory.mktemp("by_day")
    rng = random.Random(20261205)
    start = dt.date(2020, 1, 1)
    rows = []
    for i in range(3000):
        day = start + dt.timedelta(days=rng.randrange(1460))
        amount = None if rng.random() < 0.05 else round(rng.uniform(-5, 100), 2)
        rows.append((i, day, rng.choice("abc"), rng.randrange(40), amount, rng.random() < 0.3))
    con = duckdb.connect(str(path / "w.duckdb"))
    con.execute("CREATE TABLE sales (sale_id INT, sold_on DATE, kind TEXT, customer INT, "
                "amount DECIMAL(10, 2), returned BOOLEAN)")
    con.executemany("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?)", rows)
    con.execute("CREATE TABLE metricflow_time_spine AS SELECT CAST(d AS DATE) AS date_day FROM "
                "range(DATE '2019-06-01', DATE '2024-06-01', INTERVAL 1 DAY) t(d)")
    con.close()
    exprs = {"count_distinct": "customer", "sum_boolean": "returned", "count": "amount"}
    measures = [{"name": f"m_{a}", "agg": a, "expr": exprs.get(a, "amount")} for a in AGGS]
    metrics: list[dict[str, Any]] = []
    for a in AGGS:
        metrics += [
            {"name": a, "type": "simple", "type_params": {"measure": f"m_{a}"}},
            {"name": f"{a}_all", "type": "cumulative", "type_params": {"measure": f"m_{a}"}},
            {"name": f"{a}_7d", "type": "cumulative", "type_params": {
                "measure": f"m_{a}", "cumulative_type_params": {"window": "7 days"}}},
            {"name": f"{a}_mtd_last", "type": "cumulative", "type_params": {
                "measure": f"m_{a}", "cumulative_type_params": {"grain_to_date": "month",
                                                                "period_agg": "last"}}},
            {"name": f"{a}_week_ago", "type": "derived", "type_params": {
                "expr": "ago", "metrics": [{"name": a, "alias": "ago", "offset_window": "1 week"}]}}]
    doc = {"semantic_models": [{
        "name": "sales", "model": "ref('sales')", "defaults": {"agg_time_dimension": "sold_on"},
        "entities": [{"name": "sale", "type": "primary", "expr": "sale_id"}],
        "dimensions": [{"name": "sold_on", "type": "time", "type_params": {"time_granularity": "day"}},
                       {"name": "kind", "type": "categorical"}],
        "measures": measures}], "metrics": metrics}
    (path / "models.yml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    layer = SemanticLayer(load_model(path / "models.yml"), path / "w.duckdb")
    yield layer
    layer.close()


class TestGenerated:
    @pytest.mark.parametrize("grain", GRAINS)
    @pytest.mark.parametrize("agg", AGGS)
    def test_every_aggregation_reads_the_same_by_day(self, generated: SemanticLayer, agg: str,
                                                     grain: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
        """Each range metric of the aggregation, by the grain, alone and by a dimension under a
        filter: the rows read by day are the rows read by row."""
        names = [f"{agg}_{kind}" for kind in ("all", "7d", "mtd_last", "week_ago")]
        assert set(names) <= set(range_metrics(generated))
        for name in names:
            for extra in ({}, {"group_by": ["sale__kind"], "where": [
                    {"dimension": "sale__kind", "op": "not_in", "values": ["c"]}]}):
                args = {"metrics": [name], "grain": grain, **extra}
                by_day, by_row = both_ways(generated, args, monkeypatch)
                assert by_day, (name, args)
                assert _same(by_day, by_row), (name, args)

    def test_an_all_time_cumulative_by_day_reads_days_not_rows(self, generated: SemanticLayer
                                                               ) -> None:
        """The range join of an all-time sum by day reads the sales grouped by day first."""
        sql = generated.compile("query", {"metrics": ["sum_all"], "grain": "day"}).sql
        assert "GROUP BY CAST(sales.sold_on AS DATE)" in sql
        assert "SUM(d.__v)" in sql


@pytest.mark.parametrize("project", ["shop", "tutorial"])
def test_the_projects_range_metrics_read_the_same_by_day(project: str, request: pytest.FixtureRequest,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Every cumulative and offset metric of the shop and of dbt-metricflow's tutorial project,
    by each grain: the rows read by day are the rows read by row."""
    layer: SemanticLayer = request.getfixturevalue(
        "shop_layer" if project == "shop" else "tutorial_layer")
    names = range_metrics(layer)
    assert names
    for name in names:
        for grain in GRAINS:
            by_day, by_row = both_ways(layer, {"metrics": [name], "grain": grain}, monkeypatch)
            assert _same(by_day, by_row), (project, name, grain)


def test_the_conformance_project_reads_the_same(shop: SemanticLayer,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The conformance project's range metrics (checked against `mf query` by conformance/run.py)
    by each grain and by their first dimension: the same rows either way."""
    compared = 0
    for name in range_metrics(shop):
        dims = shop.model.supported_dimensions(name)[:1]
        for grain in GRAINS:
            for group_by in ([], dims):
                args = {"metrics": [name], "grain": grain, "group_by": group_by}
                try:
                    by_day, by_row = both_ways(shop, args, monkeypatch)
                except SemanticError:  # refused when validated, whichever way it is read
                    continue
                assert _same(by_day, by_row), (name, args)
                compared += 1
    assert compared >= 10
