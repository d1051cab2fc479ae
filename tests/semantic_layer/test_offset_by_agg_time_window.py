"""An offset metric grouped by its aggregation time dimension (no metric_time) under a window,
at a grain coarser than the offset, as MetricFlow 0.210 plans it (dataflow_plan_builder joins
the offset input to its time spine before aggregating, and applies the window to the input
rows' own `metric_time__day`): the window bounds the rows before they are shifted, and the
shifted periods are grouped unbounded. The current input's rows are bounded by the window too.

Checked against SQL written here after MetricFlow's own (conformance/differential.py's
`spine_reads` cases ask the same of MetricFlow itself), on two domains: the sales of
test_offset_to_grain and the conformance project's transactions. Windows are drawn by a seeded
generator."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from test_mf_regressions import _rows
from test_offset_to_grain import sales_layer, setup_db

from showwork.semantic_layer import SemanticLayer

# metric → (the offset: ("window", count, unit) or ("to", grain), grains coarser than it)
SALES = {"amount_mom": (("window", 1, "month"), ("quarter", "year")),
         "since_week": (("to", "week"), ("month", "quarter", "year")),
         "since_month": (("to", "month"), ("week", "quarter", "year")),
         "since_quarter": (("to", "quarter"), ("week", "year"))}
SHOP = {"revenue_wow": (("window", 1, "week"), ("month", "quarter", "year")),
        "revenue_mom": (("window", 1, "month"), ("quarter", "year")),
        "revenue_since_month_start": (("to", "month"), ("week", "quarter", "year"))}


@pytest.fixture(scope="module")
def sales(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SemanticLayer]:
    yield from sales_layer(tmp_path_factory)


def expected(con: duckdb.DuckDBPyConnection, source: str, offset: tuple, grain: str,
             window: tuple[str, str]) -> list[tuple]:
    """`value − value shifted` by period: each side's rows (`source`: day d, value v) bounded
    by the window by their own day; the shifted side joined to the spine before grouping (spine
    day s reads day s − offset, or the start of s's `to` period where s starts a period)."""
    rows = f"SELECT d, v FROM ({source}) WHERE d BETWEEN DATE '{window[0]}' AND DATE '{window[1]}'"
    if offset[0] == "window":
        join, keep = f"s.date_day - INTERVAL {offset[1]} {offset[2]} = r.d", "TRUE"
    else:
        join = f"date_trunc('{offset[1]}', s.date_day) = r.d"
        keep = f"date_trunc('{grain}', s.date_day) = s.date_day"
    sql = f"""
        WITH cur AS (SELECT date_trunc('{grain}', d) AS p, SUM(v) AS v FROM ({rows}) GROUP BY 1),
        prev AS (SELECT date_trunc('{grain}', s.date_day) AS p, SUM(r.v) AS v
                 FROM metricflow_time_spine s JOIN ({rows}) r ON {join} WHERE {keep} GROUP BY 1)
        SELECT strftime(COALESCE(cur.p, prev.p), '%Y-%m-%d'), cur.v - prev.v
        FROM cur FULL JOIN prev ON cur.p = prev.p"""
    return sorted(con.execute(sql).fetchall())


def windows(seed: int, first: str, days: int, n: int) -> list[tuple[str, str]]:
    """`n` windows inside `days` days from `first`, drawn from `seed`."""
    rng, day0 = random.Random(seed), dt.date.fromisoformat(first)
    out = []
    for _ in range(n):
        a = rng.randrange(days)
        b = min(days - 1, a + rng.randrange(1, 120))
        out.append((str(day0 + dt.timedelta(days=a)), str(day0 + dt.timedelta(days=b))))
    return out


def check(layer: SemanticLayer, con: duckdb.DuckDBPyConnection, metrics: dict, dim: str,
          source: str, cases: list[tuple[str, str]]) -> int:
    asked = 0
    for metric, (offset, grains) in metrics.items():
        for grain in grains:
            for window in cases:
                got = _rows(layer, {"metrics": [metric], "group_by": [f"{dim}__{grain}"],
                                    "window": {"start": window[0], "end": window[1]}})
                want = expected(con, source, offset, grain, window)
                assert [(k, None if v is None else round(v, 6)) for k, v in got] == \
                    [(k, None if v is None else round(v, 6)) for k, v in want], \
                    (metric, grain, window)
                asked += 1
    return asked


def test_sales_by_their_own_day_bound_the_rows_before_the_shift(sales: SemanticLayer,
                                                                 tmp_path: Path) -> None:
    """Every offset of the sales model by every coarser grain of `sold_on`, over 12 windows:
    the rows the window holds, shifted and grouped, whatever period they land in."""
    con = duckdb.connect()
    setup_db(con)
    asked = check(sales, con, SALES, "sale__sold_on", "SELECT sold_on AS d, amount AS v FROM sales",
                  windows(45, "2024-01-01", 182, 12))
    assert asked == 12 * 10


def test_transactions_by_their_own_day_bound_the_rows_before_the_shift(
        shop: SemanticLayer, shop_sql: duckdb.DuckDBPyConnection) -> None:
    """The conformance project's week and month offsets and its offset to the month's start, by
    every coarser grain of `ordered_at`, over 8 windows."""
    source = "SELECT CAST(ordered_at AS DATE) AS d, amount AS v FROM transactions"
    asked = check(shop, shop_sql, SHOP, "transaction__ordered_at", source,
                  windows(7, "2024-01-01", 182, 8))
    assert asked == 8 * 8


def test_a_window_moves_periods_only_through_the_rows_it_holds(sales: SemanticLayer) -> None:
    """Sale 9 (Jun 30, 256) a month on is Jul 30 and 31 (each less a month is Jun 30), in Q3: a
    window holding only Jun 30 gives Q2 (its own 256, nothing shifted in: null) and Q3 (shifted
    in, no sale of its own: null), past the window's end."""
    by = {"metrics": ["amount_mom"], "group_by": ["sale__sold_on__quarter"]}
    got = _rows(sales, {**by, "window": {"start": "2024-06-30", "end": "2024-06-30"}})
    assert got == [("2024-04-01", None), ("2024-07-01", None)]
    held = _rows(sales, {"metrics": ["amount"], "group_by": ["sale__sold_on__quarter"],
                         "window": {"start": "2024-06-30", "end": "2024-06-30"}})
    assert held == [("2024-04-01", 256.0)]
