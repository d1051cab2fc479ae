"""On Spark too, a joined model's constant flag, CASE and COALESCE are null where the LEFT JOIN
found no match, and a count its filter leaves no row is null: the conformance project's flag
cases and its count_of_nothing query (equal to MetricFlow there, see conformance/run.py) give on
a local Spark the numbers DuckDB gives."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from shop_data import export_tables
from spark_env import skip_without_spark

from showwork.semantic_layer import SemanticLayer, load_model
from showwork.semantic_layer.engines import open_engine

skip_without_spark()

PROJECT = Path(__file__).resolve().parents[2] / "conformance" / "project"

pytestmark = pytest.mark.slow

H1 = {"start": "2024-01-01", "end": "2024-06-30"}
CASES = {
    "flag-where": {"metrics": ["revenue", "orders"], "grain": "month", "window": H1,
                   "where": [{"dimension": "customer__is_customer", "values": [1]}]},
    "flag-two-hops": {"metrics": ["revenue"], "window": H1,
                      "group_by": ["customer__country__is_listed"],
                      "where": [{"dimension": "customer__country__is_listed", "values": [1]}]},
    "flag-metric-filters": {"metrics": ["revenue_listed_country", "orders_of_customers"],
                            "grain": "quarter", "window": H1},
    "case-and-coalesce": {"metrics": ["revenue"], "window": H1,
                          "group_by": ["customer__country__region_class",
                                       "customer__segment_or_none"]},
    "no-window": {"metrics": ["revenue_listed_country"], "group_by": ["customer__segment"]},
    "count-of-nothing": {"metrics": ["orders", "completed_orders"], "grain": "day",
                         "group_by": ["transaction__channel"],
                         "window": {"start": "2024-01-01", "end": "2024-01-31"}},
}


@pytest.fixture(scope="module")
def spark(tmp_path_factory: pytest.TempPathFactory, shop_db: Path) -> Iterator[SemanticLayer]:
    root = tmp_path_factory.mktemp("conformance-spark")
    tables = {t: f"shop/{t}.parquet" for t in export_tables(shop_db, root / "shop", "parquet")}
    engine = open_engine({"spark": {"master": "local[2]", "tables": tables}}, root)
    layer = SemanticLayer(load_model(PROJECT / "models"), engine=engine)
    yield layer
    layer.close()


@pytest.mark.parametrize("case", list(CASES))
def test_spark_equals_duckdb(spark: SemanticLayer, shop: SemanticLayer, case: str) -> None:
    want = shop.call("query", CASES[case])
    got = spark.call("query", CASES[case])
    assert [r.key for r in got.rows] == [r.key for r in want.rows] and want.rows
    for g, w in zip(got.rows, want.rows, strict=True):
        for m in want.metrics:
            a, b = g.values[m]["value"], w.values[m]["value"]
            assert (a is None) == (b is None) and (a is None or math.isclose(a, b, rel_tol=1e-9)), (
                case, g.key, m, a, b)
