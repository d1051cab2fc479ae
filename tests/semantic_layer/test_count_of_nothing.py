"""A count over no rows has no value (null), as in MetricFlow: dbt-semantic-interfaces'
ConvertCountToSumRule makes a count a SUM of CASE WHEN x IS NOT NULL THEN 1 ELSE 0 END, and each
metric is its own subquery, full-outer-joined (cross-joined without groups). So:

- a count whose filter leaves a group (a period, a member) no row, next to a metric with rows
  there, is null; so is a ratio or derived metric over it;
- a count over no rows at all in a query without groups is null; a count of rows whose counted
  expression is null on each is 0;
- a distinct count is null in a group its filter leaves empty, and 0 over no rows in a query
  without groups (MetricFlow's one-row subquery: COUNT(DISTINCT) of nothing).

Every expected value below is MetricFlow 0.210's for the same model, data and query (run through
conformance/mf_driver.py); the cases need no MetricFlow. The conformance project's
`count_of_nothing` query (conformance/run.py) and the shop's governed counts are checked too."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from shop_data import shop_db

from showwork.semantic_layer import SemanticLayer, load_model, parse_where
from showwork.semantic_layer.project import load_project

MODELS = """
semantic_models:
  - name: sales
    model: ref('sales')
    defaults: {agg_time_dimension: ts}
    entities:
      - {name: sale, type: primary, expr: sale_id}
      - {name: shop, type: foreign, expr: shop_id}
    dimensions:
      - {name: ts, type: time, type_params: {time_granularity: day}}
      - {name: channel, type: categorical}
    measures:
      - {name: rows_count, agg: count, expr: sale_id}
      - {name: amount_count, agg: count, expr: amount}
      - {name: channels, agg: count_distinct, expr: channel}
      - {name: gifts, agg: sum_boolean, expr: is_gift}
  - name: shops
    model: ref('shops')
    entities:
      - {name: shop, type: primary, expr: shop_id}
    dimensions:
      - {name: color, type: categorical}
metrics:
  - {name: rows_count, label: Rows, type: simple, type_params: {measure: rows_count}}
  - {name: amount_count, label: Amounts, type: simple, type_params: {measure: amount_count}}
  - {name: channels, label: Channels, type: simple, type_params: {measure: channels}}
  - name: web_rows
    label: Web rows
    type: simple
    type_params: {measure: rows_count}
    filter: "{{ Dimension('sale__channel') }} = 'web'"
  - name: web_amounts
    label: Web amounts
    type: simple
    type_params: {measure: amount_count}
    filter: "{{ Dimension('sale__channel') }} = 'web'"
  - name: web_channels
    label: Web channels
    type: simple
    type_params: {measure: channels}
    filter: "{{ Dimension('sale__channel') }} = 'web'"
  - name: web_gifts
    label: Web gifts
    type: simple
    type_params: {measure: gifts}
    filter: "{{ Dimension('sale__channel') }} = 'web'"
  - name: red_rows
    label: Rows of red shops
    type: simple
    type_params: {measure: rows_count}
    filter: "{{ Dimension('shop__color') }} = 'red'"
  - name: web_share
    label: Web share
    type: ratio
    type_params: {numerator: web_rows, denominator: rows_count}
  - name: web_share_input
    label: Web share (an input's filter)
    type: ratio
    type_params:
      numerator: {name: rows_count, filter: "{{ Dimension('sale__channel') }} = 'web'"}
      denominator: rows_count
  - name: web_and_all
    label: Web rows and all rows
    type: derived
    type_params:
      expr: web + every
      metrics: [{name: web_rows, alias: web}, {name: rows_count, alias: every}]
  - name: web_change
    label: Web rows against a month before
    type: derived
    type_params:
      expr: cur - prev
      metrics: [{name: web_rows, alias: cur}, {name: web_rows, alias: prev, offset_window: 1 month}]
"""

SALES = [  # sale_id, ts, amount, is_gift, channel, shop_id
    (1, "2024-01-05", 10.0, True, "web", 1), (2, "2024-01-06", 20.0, False, "store", 2),
    (3, "2024-02-07", None, None, "store", 1), (4, "2024-03-08", 30.0, True, "web", 3),
]


@pytest.fixture(scope="module")
def sales(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    root = tmp_path_factory.mktemp("count-of-nothing")
    (root / "models").mkdir()
    (root / "models" / "sales.yml").write_text(MODELS)
    db = root / "sales.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE sales (sale_id INT, ts DATE, amount DOUBLE, is_gift BOOLEAN, "
                "channel VARCHAR, shop_id INT)")
    con.executemany("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?)", SALES)
    con.execute("CREATE TABLE shops AS SELECT * FROM (VALUES (1, 'red'), (2, 'blue')) "
                "v(shop_id, color)")
    con.close()
    layer = SemanticLayer(load_model(root / "models", database=db), db)
    yield layer
    layer.close()


def _rows(layer: SemanticLayer, args: dict, where: str | None = None) -> list[tuple]:
    if where:
        args = parse_where(where).apply(args, layer.model)
    result = layer.call("query", args)
    return sorted((tuple(row.key[k] for k in result.keys)
                   + tuple(row.values[m]["value"] for m in result.metrics)) for row in result.rows)


STORE = "{{ Dimension('sale__channel') }} = 'store'"


@pytest.mark.parametrize(("metric", "web"), [("web_rows", 2), ("web_amounts", 2),
                                             ("web_channels", 1), ("web_gifts", 2)])
def test_a_group_its_filter_leaves_empty_has_no_value(sales: SemanticLayer, metric: str,
                                                      web: int) -> None:
    """By channel, the web-only metric has no value for the store (whose rows the other metric
    counts): a count, a count of an expression, a distinct count and a sum_boolean alike."""
    got = _rows(sales, {"metrics": ["rows_count", metric], "group_by": ["sale__channel"]})
    assert got == [("store", 2, None), ("web", 2, web)]


def test_a_period_its_filter_leaves_empty_has_no_value(sales: SemanticLayer) -> None:
    got = _rows(sales, {"metrics": ["rows_count", "web_amounts", "web_channels"], "grain": "month"})
    assert got == [("2024-01-01", 2, 1, 1), ("2024-02-01", 1, None, None),
                   ("2024-03-01", 1, 1, 1)]


def test_a_filter_on_a_joined_dimension_leaving_a_group_empty(sales: SemanticLayer) -> None:
    got = _rows(sales, {"metrics": ["red_rows", "rows_count"], "group_by": ["sale__channel"]},
                "{{ Dimension('shop__color') }} = 'blue'")
    assert got == [("store", None, 1)]


def test_without_groups_a_count_of_nothing_is_null_a_distinct_count_zero(
        sales: SemanticLayer) -> None:
    """Without groups: the web count under a --where keeping only the store's rows has no value;
    the web distinct count is 0 (one row, COUNT(DISTINCT) of nothing)."""
    assert _rows(sales, {"metrics": ["web_rows"]}, STORE) == [(None,)]
    assert _rows(sales, {"metrics": ["rows_count", "web_rows"]}, STORE) == [(2, None)]
    assert _rows(sales, {"metrics": ["rows_count", "web_channels"]}, STORE) == [(2, 0)]


def test_a_count_of_null_values_is_zero(sales: SemanticLayer) -> None:
    """Rows whose counted expression is null count 0, with groups and without."""
    one = "{{ Entity('sale') }} = 3"
    assert _rows(sales, {"metrics": ["amount_count"]}, one) == [(0,)]
    assert _rows(sales, {"metrics": ["amount_count", "web_amounts"],
                         "group_by": ["sale__channel"]}, one) == [("store", 0, None)]


@pytest.mark.parametrize("metric", ["web_share", "web_share_input", "web_and_all"])
def test_a_ratio_or_derived_metric_over_a_null_count_is_null(sales: SemanticLayer,
                                                             metric: str) -> None:
    got = dict(_rows(sales, {"metrics": [metric], "group_by": ["sale__channel"]}))
    assert got["store"] is None and got["web"] == {"web_and_all": 4}.get(metric, 1.0)
    assert _rows(sales, {"metrics": ["web_share"]}, STORE) == [(None,)]


def test_an_offset_of_a_null_count_is_null(sales: SemanticLayer) -> None:
    """February has no web row: the web rows against January's are null (not 0 - 1)."""
    got = _rows(sales, {"metrics": ["web_change", "rows_count"], "grain": "month",
                        "window": {"start": "2024-01-01", "end": "2024-03-31"}})
    assert got == [("2024-01-01", None, 2), ("2024-02-01", None, 1), ("2024-03-01", None, 1)]


@pytest.mark.parametrize("dialect", ["duckdb", "postgres", "spark", "snowflake", "bigquery"])
def test_the_sql_of_every_dialect_reads_no_rows_as_null(sales: SemanticLayer,
                                                        dialect: str) -> None:
    """The null comes from the SQL itself (NULLIF / CASE over the rows counted), in each
    dialect the compiler writes."""
    sql = sales.compile("query", {"metrics": ["rows_count", "web_rows", "web_amounts",
                                              "web_channels"], "group_by": ["sale__channel"]},
                        dialect).sql.upper()
    assert sql.count("NULLIF(COUNT(") == 1  # the web rows: a count of the rows the filter keeps
    assert sql.count("CASE WHEN COUNT(") == 2  # the web amounts and channels: none where no row


# -- the conformance project (dbt MetricFlow's format) and the shop ----------------------------
def test_the_conformance_projects_count_of_nothing(shop: SemanticLayer, shop_sql) -> None:
    """conformance/run.py's count_of_nothing query: completed orders by day and channel are null
    exactly where the day and channel have orders but none completed (MetricFlow's cells)."""
    got = _rows(shop, {"metrics": ["orders", "completed_orders"], "grain": "day",
                       "group_by": ["transaction__channel"],
                       "window": {"start": "2024-01-01", "end": "2024-01-31"}})
    want = shop_sql.execute(
        "SELECT strftime(ordered_at, '%Y-%m-%d'), channel, COUNT(*), "
        "NULLIF(COUNT(*) FILTER (WHERE status = 'completed'), 0) FROM transactions "
        "WHERE ordered_at >= DATE '2024-01-01' AND ordered_at < DATE '2024-02-01' "
        "GROUP BY ALL").fetchall()
    assert sorted(got, key=str) == sorted(want, key=str)
    nulls = [r for r in got if r[3] is None]
    assert nulls and all(r[2] > 0 for r in nulls) and not any(r[3] == 0 for r in got)


@pytest.fixture(scope="module")
def shop_example() -> SemanticLayer:
    layer = SemanticLayer(load_project(Path(__file__).resolve().parents[2] / "examples" / "shop"),
                          shop_db())
    yield layer
    layer.close()


def test_the_shops_orders_of_a_customer_who_only_cancelled_have_no_value(
        shop_example: SemanticLayer) -> None:
    """On a day, a customer whose only real order was cancelled has gross orders and no value
    for orders (not 0); a comparison's window reads it the same way."""
    day = {"start": "2019-03-28", "end": "2019-03-28"}
    got = _rows(shop_example, {"metrics": ["order_count", "gross_orders"], "group_by": ["customer"],
                               "window": day})
    cancelled = [r for r in got if r[1] is None]
    assert cancelled and all(r[2] >= 1 for r in cancelled)
    assert not any(r[1] == 0 for r in got)
    compared = shop_example.call("compare", {
        "metrics": ["order_count", "gross_orders"], "by": "customer", "current_window": day,
        "previous_window": {"start": "2019-03-27", "end": "2019-03-27"}})
    now = {tuple(r.key.values())[-1]: r.values for r in compared.rows}
    for customer, _, gross in cancelled:
        assert now[customer]["order_count"]["value"] is None
        assert now[customer]["gross_orders"]["value"] == gross
