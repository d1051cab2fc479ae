"""What makes a compile fast does not change what it compiles: VALUES rows written as text are
the SQL sqlglot writes for them, and what a compile keeps between compiles (parsed exprs, filter
templates, table names) is never altered by one — on a dbt MetricFlow project
(conformance/project), the shop example and the demo."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

from showwork.semantic_layer import SemanticLayer, load_model, where
from showwork.semantic_layer import sql as sql_module
from showwork.semantic_layer.compile import DIALECTS, _cell, _cell_sql

ROOT = Path(__file__).resolve().parents[2]
LONG = {"start": "2024-01-01", "end": "2024-07-18"}  # 200 days
SHOP_LONG = {"start": "2018-01-01", "end": "2018-07-19"}
DEMO_LONG = {"start": "2026-01-05", "end": "2026-06-14"}

# (source, call, arguments): per-day readings (one VALUES row a day), joins, metric filters,
# ratios, point in time
CASES = [
    ("project", "query", {"metrics": ["revenue_7d"], "grain": "day", "window": LONG}),
    ("project", "query", {"metrics": ["revenue_mom"], "grain": "day", "window": LONG}),
    ("project", "query", {"metrics": ["revenue_all_time", "revenue_mtd"], "grain": "week",
                          "window": LONG}),
    ("project", "query", {"metrics": ["refunds_mtd", "refunds_7d"], "grain": "month",
                          "window": LONG}),
    ("project", "query", {"metrics": ["revenue", "orders"], "group_by": ["customer__country__region", "customer__is_vip"],
                          "grain": "month", "window": LONG}),
    ("project", "compare", {"metrics": ["revenue", "revenue_wow"], "by": "transaction__channel",
                            "current_window": {"start": "2024-03-01", "end": "2024-03-31"},
                            "previous_window": {"start": "2024-02-01", "end": "2024-02-29"}}),
    ("shop", "query", {"metrics": ["customer_base"], "grain": "day", "window": SHOP_LONG}),
    ("shop", "query", {"metrics": ["revenue"], "grain": "month", "window": SHOP_LONG}),
    ("demo", "query", {"metrics": ["mrr_usd"], "grain": "week", "window": DEMO_LONG}),
    ("demo", "query", {"metrics": ["active_users"], "grain": "week", "group_by": ["platform"],
                       "window": DEMO_LONG}),
]


def _layer(source: str) -> SemanticLayer:
    if source == "demo":
        return SemanticLayer(load_model())
    folder = {"project": ROOT / "conformance" / "project" / "models",
              "shop": ROOT / "examples" / "shop" / "models"}[source]
    return SemanticLayer(load_model(folder))


@pytest.fixture(scope="module")
def layers() -> dict[str, SemanticLayer]:
    return {source: _layer(source) for source in ("project", "shop", "demo")}


@pytest.mark.parametrize("dialect", [d for d in DIALECTS if d != "bigquery"])
def test_values_rows_as_text_are_what_sqlglot_writes(dialect: str) -> None:
    rows = [("2024-02-29", dt.date(2024, 2, 1), dt.date(2024, 3, 1)), (True, dt.date(2023, 12, 31)),
            (False, dt.date(2024, 1, 1)), (None, dt.date(1999, 1, 1)), ("", dt.date(2024, 7, 4))]
    for row in rows:
        nodes = exp.Tuple(expressions=[_cell(v) for v in row]).sql(dialect=dialect)
        assert nodes == f"({', '.join(_cell_sql(v) for v in row)})"


@pytest.mark.parametrize("dialect", ["duckdb", "spark", "postgres"])
def test_a_daily_reading_has_a_values_row_per_day_read_back_unchanged(
        layers: dict[str, SemanticLayer], dialect: str) -> None:
    """The spliced SQL is what sqlglot writes for the same tree: parsed back and written again,
    it is the same text, and its VALUES table has one row per day of the 200."""
    for source, args in (("project", CASES[0][2]), ("project", CASES[1][2]),
                         ("shop", CASES[6][2])):
        sql = layers[source].compile("query", args, dialect).sql
        tree = sqlglot.parse_one(sql, read=dialect)
        assert tree.sql(dialect=dialect) == sql
        (values,) = list(tree.find_all(exp.Values))
        assert len(values.expressions) == 200
        assert "__showwork_rows" not in sql


def test_compiles_leave_what_they_keep_unchanged(layers: dict[str, SemanticLayer]) -> None:
    """Every case in every dialect, compiled after all the others (whose generation may rewrite
    its tree in place), equals its compile on a freshly loaded model with nothing kept."""
    first = {(i, d): layers[s].compile(kind, args, d).sql
             for i, (s, kind, args) in enumerate(CASES) for d in DIALECTS}
    again = {(i, d): layers[s].compile(kind, args, d).sql
             for i, (s, kind, args) in reversed(list(enumerate(CASES))) for d in DIALECTS}
    assert again == first
    for kept in (sql_module.parse_trusted, sql_module._table, where._parsed):
        kept.cache_clear()
    fresh = {source: _layer(source) for source in ("project", "shop", "demo")}
    for (i, d), sql in first.items():
        source, kind, args = CASES[i]
        assert fresh[source].compile(kind, args, d).sql == sql, (CASES[i], d)
