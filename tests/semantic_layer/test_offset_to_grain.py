"""offset_to_grain at every grain, and an offset metric's last day, as MetricFlow 0.210 reads
them (its SQL for these queries, run through conformance/mf_driver.py; conformance/public.py's
every-metric-by-every-grain pass on conformance/project asks them against MetricFlow itself).

MetricFlow joins an offset_to_grain input's aggregate to its time spine: by day, day d reads the
day its `to` period starts; by the `to` grain itself, that whole period; by any other grain, one
day: the start of the `to` period holding the bucket's own start (the spine's period starts
joined to the day they truncate to). Rows come from either side (a FULL OUTER JOIN): a bucket
whose read day has sales but which has none of its own shows a null.

An offset_window input joins each spine day to day − offset, a calendar shift clamping to the
month's last day: with no window, the last day is the last whose day − offset is the sources'
last day (Jul 31 − 1 month = Jun 30), not the last day shifted forward (Jul 30)."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest
from test_mf_regressions import _rows

from showwork.semantic_layer import SemanticLayer, load_model

MODELS = """
semantic_models:
  - name: sales
    model: ref('sales')
    defaults: {agg_time_dimension: sold_on}
    entities:
      - {name: sale, type: primary, expr: sale_id}
    dimensions:
      - {name: sold_on, type: time, type_params: {time_granularity: day}}
    measures:
      - {name: amount, agg: sum}
metrics:
  - {name: amount, label: Amount, type: simple, type_params: {measure: amount}}
  - name: since_month
    label: Amount against the month's first day
    type: derived
    type_params:
      expr: amount - first
      metrics: [{name: amount}, {name: amount, alias: first, offset_to_grain: month}]
  - name: since_week
    label: Amount against the week's first day
    type: derived
    type_params:
      expr: amount - first
      metrics: [{name: amount}, {name: amount, alias: first, offset_to_grain: week}]
  - name: since_quarter
    label: Amount against the quarter's first day
    type: derived
    type_params:
      expr: amount - first
      metrics: [{name: amount}, {name: amount, alias: first, offset_to_grain: quarter}]
  - name: amount_mom
    label: Amount against a month before
    type: derived
    type_params:
      expr: amount - before
      metrics: [{name: amount}, {name: amount, alias: before, offset_window: 1 month}]
"""

SPINE = """
project_configuration:
  time_spines:
    - node_relation: {alias: metricflow_time_spine, schema_name: main}
      primary_column: {name: date_day, time_granularity: day}
"""

SALES = [  # sale_id, sold_on, amount: powers of two, so every sum says which sales it holds
    (1, "2024-01-01", 1.0),    # a Monday: month, quarter and year start
    (2, "2024-01-03", 2.0),
    (3, "2024-02-01", 4.0),    # a Thursday: a month's start in the week of Jan 29
    (4, "2024-02-05", 8.0),
    (5, "2024-02-26", 16.0),   # the week holding Mar 1
    (6, "2024-04-01", 32.0),   # a Monday: month and quarter start
    (7, "2024-04-10", 64.0),
    (8, "2024-05-01", 128.0),  # a Wednesday
    (9, "2024-06-30", 256.0),  # the sources' last day, a month's last
]


def setup_db(con: duckdb.DuckDBPyConnection) -> None:
    """The sales and the day spine (also what a check against MetricFlow itself reads)."""
    con.execute("CREATE TABLE sales (sale_id INT, sold_on DATE, amount DOUBLE)")
    con.executemany("INSERT INTO sales VALUES (?, ?, ?)", SALES)
    con.execute("CREATE TABLE metricflow_time_spine AS SELECT d::DATE AS date_day FROM "
                "range(DATE '2023-01-01', DATE '2026-01-01', INTERVAL 1 DAY) t(d)")


@pytest.fixture(scope="module")
def sales(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SemanticLayer]:
    yield from sales_layer(tmp_path_factory)


def sales_layer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SemanticLayer]:
    """The layer over the sales and the day spine (closed after the caller's tests)."""
    root = tmp_path_factory.mktemp("to_grain")
    (root / "models").mkdir()
    (root / "models" / "sales.yml").write_text(MODELS)
    (root / "models" / "spine.yml").write_text(SPINE)
    db = root / "sales.duckdb"
    con = duckdb.connect(str(db))
    setup_db(con)
    con.close()
    layer = SemanticLayer(load_model(root / "models", database=db), db)
    yield layer
    layer.close()


class TestOffsetToGrain:
    """An input read at the start of its period, at grains finer, equal and coarser (no window:
    MetricFlow 0.210's own SQL for a one-day read under a time constraint does not bind)."""

    def test_by_its_own_grain_reads_the_whole_period(self, sales: SemanticLayer) -> None:
        """By month, the month's start as a month is the month: every value is 0."""
        got = _rows(sales, {"metrics": ["since_month"], "grain": "month"})
        assert got == [("2024-01-01", 0.0), ("2024-02-01", 0.0), ("2024-04-01", 0.0),
                       ("2024-05-01", 0.0), ("2024-06-01", 0.0)]

    def test_by_a_finer_grain_reads_the_first_such_period(self, sales: SemanticLayer) -> None:
        """By month, a quarter's start is its first month, whole: January (3) for Q1's months,
        April (96) for Q2's; March has no sale of its own but a row (null)."""
        got = _rows(sales, {"metrics": ["since_quarter"], "grain": "month"})
        assert got == [("2024-01-01", 0.0), ("2024-02-01", 28.0 - 3.0), ("2024-03-01", None),
                       ("2024-04-01", 0.0), ("2024-05-01", 128.0 - 96.0),
                       ("2024-06-01", 256.0 - 96.0)]

    def test_by_week_reads_one_day_the_month_start(self, sales: SemanticLayer) -> None:
        """By week (which MetricFlow never aggregates before this join), each week reads the
        first day of the month holding its Monday: the week of Jan 29 (Feb 1's 4) reads Jan 1
        (1); the week of Feb 26 reads Feb 1 (4); Apr 29's (May 1's 128) reads Apr 1 (32). Weeks
        with no sale of their own whose day has one: null."""
        got = dict(_rows(sales, {"metrics": ["since_month"], "grain": "week"}))
        assert got["2024-01-01"] == 3.0 - 1.0
        assert got["2024-01-29"] == 4.0 - 1.0
        assert got["2024-02-05"] == 8.0 - 4.0
        assert got["2024-02-26"] == 16.0 - 4.0
        assert got["2024-04-01"] == 32.0 - 32.0
        assert got["2024-04-08"] == 64.0 - 32.0
        assert got["2024-04-29"] == 128.0 - 32.0
        assert got["2024-06-24"] is None  # Jun 30's week reads Jun 1: no sale
        for week in ("2024-01-08", "2024-02-12", "2024-04-15"):  # the day read has a sale
            assert got[week] is None
        assert "2024-03-04" not in got  # no sale of its own, and Mar 1 has none

    def test_by_week_its_own_grain_is_one_day_too(self, sales: SemanticLayer) -> None:
        """The week of Jan 1 reads Monday Jan 1 (1), not the whole week (3); the week of Jan 29
        reads Jan 29 (none)."""
        got = dict(_rows(sales, {"metrics": ["since_week"], "grain": "week"}))
        assert got["2024-01-01"] == 3.0 - 1.0 and got["2024-04-01"] == 0.0
        assert got["2024-01-29"] is None and got["2024-04-08"] is None

    def test_by_a_coarser_grain_reads_one_day_the_period_start(self, sales: SemanticLayer) -> None:
        """By quarter, Jan 1 (1) and Apr 1 (32); by year, Jan 1 only: not every day's
        start-of-month value added up."""
        quarters = _rows(sales, {"metrics": ["since_month"], "grain": "quarter"})
        assert quarters == [("2024-01-01", 31.0 - 1.0), ("2024-04-01", 480.0 - 32.0)]
        year = _rows(sales, {"metrics": ["since_month"], "grain": "year"})
        assert year == [("2024-01-01", 511.0 - 1.0)]

    def test_a_week_start_by_month_can_fall_in_the_month_before(self, sales: SemanticLayer) -> None:
        """By month, a week's start: the Monday of the week holding the month's first day:
        February reads Jan 29 (none), March Feb 26 (16: a row, though March has no sale), April
        Apr 1 (32), May Apr 29 (none)."""
        got = _rows(sales, {"metrics": ["since_week"], "grain": "month"})
        assert got == [("2024-01-01", 3.0 - 1.0), ("2024-02-01", None), ("2024-03-01", None),
                       ("2024-04-01", 96.0 - 32.0), ("2024-05-01", None), ("2024-06-01", None)]

    def test_by_day_reads_the_month_start(self, sales: SemanticLayer) -> None:
        got = dict(_rows(sales, {"metrics": ["since_month"], "grain": "day"}))
        assert got["2024-04-01"] == 0.0 and got["2024-04-10"] == 64.0 - 32.0
        assert got["2024-01-03"] == 2.0 - 1.0 and got["2024-02-05"] == 8.0 - 4.0


class TestOffsetLastDay:
    """An offset metric with no window ends on the last spine day reading the sources."""

    def test_by_day_runs_to_the_month_end_whose_month_back_is_the_last_day(
            self, sales: SemanticLayer) -> None:
        got = _rows(sales, {"metrics": ["amount_mom"], "grain": "day"})
        assert got[-1] == ("2024-07-31", None)  # Jul 31 − 1 month = Jun 30: no amount, null
        assert max(k for k, _ in got) == "2024-07-31"

    def test_by_year_reads_the_last_day_as_often_as_days_shift_onto_it(
            self, sales: SemanticLayer) -> None:
        """Each sale is read a month later once (Feb 1 reads Jan 1, …), Jun 30's twice: by Jul
        30 and by Jul 31."""
        got = _rows(sales, {"metrics": ["amount_mom"], "grain": "year"})
        assert got == [("2024-01-01", 511.0 - (511.0 + 256.0))]
