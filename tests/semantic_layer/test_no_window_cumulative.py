"""A cumulative metric by a grain with no window asked: the rows MetricFlow gives, as `mf query`
gives them with none. MetricFlow joins the measure's rows to its time spine, each spine day
reading its trailing range: so its rows start at the first day with data and run on while a
day's range still holds a day with data — a trailing window's length past the last day with
data (7 days: to 6 days after it), to the end of the last grain_to_date period, and for all
time to the time spine's last day. A day whose range holds no row has no row.

The expected rows are MetricFlow 0.210's, from conformance/mf_driver.py over the same project
and data (fixtures/no_window_cumulative_mf.json); `make conformance` checks the conformance
project's against `mf query` itself (conformance/run.py, the no_window_cum_* queries)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from showwork.semantic_layer import SemanticLayer, load_model

HERE = Path(__file__).resolve().parent
EXPECTED = json.loads((HERE / "fixtures" / "no_window_cumulative_mf.json").read_text())["queries"]

MODELS = """
semantic_models:
  - name: sales
    model: ref('sales')
    defaults: {agg_time_dimension: sold_on}
    entities:
      - {name: sale, type: primary, expr: sale_id}
    dimensions:
      - {name: sold_on, type: time, type_params: {time_granularity: day}}
      - {name: kind, type: categorical}
    measures:
      - {name: amount, agg: sum}
metrics:
  - {name: amount, label: Amount, type: simple, type_params: {measure: amount}}
  - {name: amount_7d, label: Amount 7d, type: cumulative,
     type_params: {measure: amount, cumulative_type_params: {window: 7 days}}}
  - {name: amount_2w, label: Amount 2w, type: cumulative,
     type_params: {measure: amount, cumulative_type_params: {window: 2 weeks}}}
  - {name: amount_mtd, label: Amount MTD, type: cumulative,
     type_params: {measure: amount, cumulative_type_params: {grain_to_date: month}}}
  - {name: amount_all_time, label: Amount to date, type: cumulative,
     type_params: {measure: amount}}
  - {name: amount_7d_last, label: Amount 7d at the last day, type: cumulative,
     type_params: {measure: amount, cumulative_type_params: {window: 7 days, period_agg: last}}}
"""

SPINE = """
version: 2
models:
  - name: metricflow_time_spine
    time_spine: {standard_granularity_column: date_day}
    columns:
      - {name: date_day, granularity: day}
"""


def _build(root: Path, spine: bool) -> SemanticLayer:
    (root / "models").mkdir(parents=True)
    (root / "models" / "sales.yml").write_text(MODELS)
    (root / "models" / "time_spine.yml").write_text(SPINE)
    db = root / "sales.duckdb"
    con = duckdb.connect(str(db))
    con.execute("""CREATE TABLE sales AS SELECT * FROM (VALUES
        (1, DATE '2025-01-29', 'a', 10.0), (2, DATE '2025-01-30', 'b', 5.0),
        (3, DATE '2025-02-03', 'a', 7.5), (4, DATE '2025-02-14', 'b', 2.0),
        (5, DATE '2025-02-14', 'a', 1.0), (6, DATE '2025-02-27', 'a', 4.0),
        (7, DATE '2025-03-03', 'b', 3.0)) t(sale_id, sold_on, kind, amount)""")
    if spine:  # the spine runs past the data: all time ends at its last day, 2025-04-19
        con.execute("CREATE TABLE metricflow_time_spine AS SELECT CAST(range AS DATE) AS date_day "
                    "FROM range(DATE '2025-01-01', DATE '2025-04-20', INTERVAL 1 DAY)")
    con.close()
    return SemanticLayer(load_model(root / "models", database=db), db)


@pytest.fixture(scope="module")
def sales(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    layer = _build(tmp_path_factory.mktemp("sales"), spine=True)
    yield layer
    layer.close()


def _rows(layer: SemanticLayer, args: dict) -> list[list]:
    result = layer.call("query", args)
    return sorted(([row.key[k] for k in result.keys] + [row.values[m]["value"]
                                                         for m in result.metrics])
                  for row in result.rows)


CASES = [key for key, rows in EXPECTED.items() if "error" not in rows and "|none" not in key]


@pytest.mark.parametrize("case", CASES)
def test_no_window_cumulative_rows_are_metricflows(sales: SemanticLayer, case: str) -> None:
    metric, grain, *by = case.split("|")
    got = _rows(sales, {"metrics": [metric], "grain": grain,
                        "group_by": [f"sale__{b}" for b in by]})
    want = EXPECTED[case]
    assert [r[:-1] for r in got] == [r[:-1] for r in want]
    assert [r[-1] for r in got] == pytest.approx([r[-1] for r in want], rel=1e-12)


def test_no_window_cumulative_runs_past_the_last_day_with_data(sales: SemanticLayer) -> None:
    """The kind, named: the last row of each reading (the data's last day is 2025-03-03)."""
    last = {m: _rows(sales, {"metrics": [m], "grain": "day"})[-1]
            for m in ("amount_7d", "amount_2w", "amount_mtd", "amount_all_time")}
    assert last == {"amount_7d": ["2025-03-09", 3.0], "amount_2w": ["2025-03-16", 3.0],
                    "amount_mtd": ["2025-03-31", 3.0], "amount_all_time": ["2025-04-19", 32.5]}


def test_ungrouped_cumulative_without_window_unchanged(sales: SemanticLayer) -> None:
    """Without a grain the reading stays at the sources' last day: over all time MetricFlow's
    total; a trailing window MetricFlow refuses, answered here at the last day with data."""
    assert EXPECTED["amount_all_time|none"] == [[32.5]]
    assert "error" in EXPECTED["amount_7d|none"]
    assert _rows(sales, {"metrics": ["amount_all_time"]}) == [[32.5]]
    assert _rows(sales, {"metrics": ["amount_7d"]}) == [[7.0]]  # Feb 25 .. Mar 3


def test_without_the_spine_table_all_time_ends_at_the_data(tmp_path: Path) -> None:
    """A spine the warehouse lacks: its days unknown, all time ends at the last day with data
    (a trailing window still runs its length on)."""
    layer = _build(tmp_path, spine=False)
    try:
        assert _rows(layer, {"metrics": ["amount_all_time"], "grain": "day"})[-1] == [
            "2025-03-03", 32.5]
        assert _rows(layer, {"metrics": ["amount_7d"], "grain": "day"})[-1] == ["2025-03-09", 3.0]
    finally:
        layer.close()


@pytest.mark.parametrize(("metric", "grain", "count", "last"), [
    # MetricFlow 0.210's `mf query` on conformance/project (conformance/run.py, no window)
    ("revenue_7d", "day", 188, ["2024-07-06", 514.07]),
    ("revenue_14d", "week", 28, ["2024-07-08", 3244.39]),
    ("revenue_mtd", "day", 182, ["2024-06-30", 13528.65]),
    ("refunds_mtd", "day", 199, ["2024-07-31", 2]),
    ("refunds_7d", "month", 7, ["2024-07-01", 334.06]),
    ("revenue_all_time", "month", 24, ["2025-12-01", 84614.07]),
    ("orders_7d_last_day", "week", 27, ["2024-07-01", 7]),
])
def test_conformance_project_no_window_cumulative(shop: SemanticLayer, metric, grain, count,
                                                  last) -> None:
    rows = _rows(shop, {"metrics": [metric], "grain": grain})
    assert len(rows) == count
    assert rows[-1][0] == last[0] and rows[-1][1] == pytest.approx(last[1], rel=1e-9)


@pytest.mark.parametrize("case", ["amount_7d|week", "amount_mtd|day", "amount_all_time|month"])
def test_semantic_query_without_window_equals_mf_query(tmp_path: Path, case: str) -> None:
    """`showwork semantic query` (the real entry point, over a project folder) with no
    --start/--end gives MetricFlow's rows with none."""
    _build(tmp_path / "project", spine=True).close()
    (tmp_path / "project" / "showwork.yaml").write_text(
        "name: sales\nsemantic_models: models/\nwarehouse:\n  duckdb: sales.duckdb\n")
    metric, grain = case.split("|")
    done = subprocess.run([sys.executable, "-m", "showwork", "semantic", "query", "-m", metric,
                           "--grain", grain, "--project", str(tmp_path / "project"), "--json"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "SHOWWORK_HOME": str(tmp_path / "home")})
    assert done.returncode == 0, done.stderr
    got = sorted([r["key"][grain], r["values"][metric]["value"]]
                 for r in json.loads(done.stdout)["rows"])
    want = EXPECTED[case]
    assert [r[0] for r in got] == [r[0] for r in want]
    assert [r[1] for r in got] == pytest.approx([r[1] for r in want], rel=1e-12)
