"""A dbt MetricFlow project (conformance/project) answers as SQL written by hand over its tables:
joins along entities (multi-hop, LEFT, any names), the fact table's own dimensions, every
aggregation, every metric type, metric filters, grains from day to year, a text time column.

conformance/run.py checks the same project against MetricFlow itself."""

from __future__ import annotations

import math
from typing import Any

import pytest

from showwork.semantic_layer import SemanticLayer, errors

H1 = {"start": "2024-01-01", "end": "2024-06-30"}
WINDOW = "t.ordered_at >= DATE '2024-01-01' AND t.ordered_at < DATE '2024-07-01'"
JOINED = ("transactions t LEFT JOIN customers c ON t.customer_id = c.customer_id "
          "LEFT JOIN countries k ON c.country_code = k.country_code")

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("multi_hop_left_join", {"metrics": ["revenue"], "group_by": ["customer__country__region"]},
     f"SELECT coalesce(k.region, ''), sum(amount) FROM {JOINED} WHERE {WINDOW} GROUP BY 1"),
    ("fact_table_dimension", {"metrics": ["revenue", "orders"], "group_by": ["transaction__channel"]},
     f"SELECT channel, sum(amount), count(*) FROM transactions t WHERE {WINDOW} GROUP BY 1"),
    ("fact_expr_dimension", {"metrics": ["orders"], "group_by": ["transaction__is_large"]},
     f"SELECT CASE WHEN amount >= 100 THEN 'large' ELSE 'small' END, count(*) "
     f"FROM transactions t WHERE {WINDOW} GROUP BY 1"),
    ("aggregations_by_month", {"metrics": ["buyers", "average_order", "largest_order",
                                           "smallest_order", "gift_orders", "median_order",
                                           "p90_order", "p90_order_discrete"], "grain": "month"},
     f"SELECT strftime(ordered_at, '%Y-%m-01'), count(DISTINCT customer_id), avg(amount), "
     f"max(amount), min(amount), sum(is_gift::INT), median(amount), quantile_cont(amount, 0.9), "
     f"quantile_disc(amount, 0.9) FROM transactions t WHERE {WINDOW} GROUP BY 1"),
    ("quarter_grain", {"metrics": ["items"], "grain": "quarter"},
     f"SELECT date_trunc('quarter', ordered_at)::DATE::VARCHAR, sum(quantity) "
     f"FROM transactions t WHERE {WINDOW} GROUP BY 1"),
    ("year_grain", {"metrics": ["revenue"], "grain": "year"},
     f"SELECT '2024-01-01', sum(amount) FROM transactions t WHERE {WINDOW}"),
    ("metric_filter_two_joins", {"metrics": ["revenue_north_america"], "grain": "month"},
     f"SELECT strftime(ordered_at, '%Y-%m-01'), sum(amount) FROM {JOINED} "
     f"WHERE {WINDOW} AND k.region = 'North America' GROUP BY 1"),
    ("metric_filter_list", {"metrics": ["europe_enterprise_revenue"]},
     f"SELECT sum(amount) FROM {JOINED} WHERE {WINDOW} AND k.region = 'Europe' "
     "AND c.segment = 'enterprise'"),
    ("ratio_across_models_null_member", {"metrics": ["revenue_per_visit"],
                                         "group_by": ["customer__country__region"]},
     f"""WITH r AS (SELECT k.region, sum(amount) v FROM {JOINED} WHERE {WINDOW} GROUP BY 1),
         v AS (SELECT k.region, count(*) n FROM visits x LEFT JOIN customers c USING (customer_id)
               LEFT JOIN countries k ON c.country_code = k.country_code
               WHERE visited_on BETWEEN '2024-01-01' AND '2024-06-30' GROUP BY 1)
         SELECT coalesce(r.region, v.region, ''), r.v / v.n FROM r FULL JOIN v
           ON r.region IS NOT DISTINCT FROM v.region"""),
    ("ratio_with_input_filter", {"metrics": ["web_share"]},
     f"SELECT sum(amount) FILTER (WHERE channel = 'web') / sum(amount) FROM transactions t "
     f"WHERE {WINDOW}"),
    ("text_time_dimension", {"metrics": ["refunds_usd"], "grain": "month"},
     "SELECT strftime(CAST(refunded_on AS DATE), '%Y-%m-01'), sum(refund_amount) FROM refunds "
     "WHERE CAST(refunded_on AS DATE) BETWEEN '2024-01-01' AND '2024-06-30' GROUP BY 1"),
    ("two_hops_from_refunds", {"metrics": ["refund_count"],
                               "group_by": ["transaction__customer__segment"]},
     "SELECT coalesce(c.segment, ''), count(*) FROM refunds r LEFT JOIN transactions t "
     "USING (transaction_id) LEFT JOIN customers c ON t.customer_id = c.customer_id "
     "WHERE CAST(refunded_on AS DATE) BETWEEN '2024-01-01' AND '2024-06-30' GROUP BY 1"),
    ("derived_across_models", {"metrics": ["net_revenue"]},
     f"SELECT (SELECT sum(amount) FROM transactions t WHERE {WINDOW}) - (SELECT "
     "sum(refund_amount) FROM refunds WHERE CAST(refunded_on AS DATE) <= '2024-06-30')"),
    ("offset_one_week", {"metrics": ["revenue_wow"], "grain": "week",
                         "window": {"start": "2024-01-08", "end": "2024-03-31"}},
     """WITH w AS (SELECT date_trunc('week', ordered_at)::DATE wk, sum(amount) v FROM transactions
                   GROUP BY 1)
        SELECT a.wk::VARCHAR, a.v - b.v FROM w a JOIN w b ON b.wk = a.wk - INTERVAL 7 DAY
        WHERE a.wk BETWEEN '2024-01-08' AND '2024-03-25'"""),
    ("offset_to_month_start", {"metrics": ["revenue_since_month_start"], "grain": "day",
                               "window": {"start": "2024-03-01", "end": "2024-03-10"}},
     """WITH d AS (SELECT ordered_at::DATE d, sum(amount) v FROM transactions GROUP BY 1)
        SELECT a.d::VARCHAR, a.v - b.v FROM d a JOIN d b ON b.d = DATE '2024-03-01'
        WHERE a.d BETWEEN '2024-03-01' AND '2024-03-10'"""),
    ("cumulative_trailing_week", {"metrics": ["revenue_7d"], "grain": "day",
                                  "window": {"start": "2024-03-01", "end": "2024-03-10"}},
     """SELECT s.d::DATE::VARCHAR, sum(t.amount) FROM range(DATE '2024-03-01', DATE '2024-03-11',
          INTERVAL 1 DAY) s(d) JOIN transactions t ON t.ordered_at::DATE <= s.d
          AND t.ordered_at::DATE > s.d - INTERVAL 7 DAY GROUP BY 1"""),
    ("cumulative_month_to_date", {"metrics": ["revenue_mtd"], "grain": "day",
                                  "window": {"start": "2024-02-26", "end": "2024-03-03"}},
     """SELECT s.d::DATE::VARCHAR, sum(t.amount) FROM range(DATE '2024-02-26', DATE '2024-03-04',
          INTERVAL 1 DAY) s(d) JOIN transactions t ON t.ordered_at::DATE <= s.d
          AND t.ordered_at::DATE >= date_trunc('month', s.d) GROUP BY 1"""),
    ("cumulative_all_time_first_day", {"metrics": ["revenue_all_time"], "grain": "month"},
     """SELECT m.d::DATE::VARCHAR, sum(t.amount) FROM range(DATE '2024-01-01', DATE '2024-07-01',
          INTERVAL 1 MONTH) m(d) JOIN transactions t ON t.ordered_at::DATE <= m.d GROUP BY 1"""),
    ("cumulative_by_quarter", {"metrics": ["revenue_all_time", "revenue_mtd"], "grain": "quarter"},
     """SELECT q.d::DATE::VARCHAR, sum(t.amount), sum(t.amount) FILTER (WHERE t.ordered_at::DATE
          >= date_trunc('month', q.d)) FROM (VALUES (DATE '2024-01-01'), (DATE '2024-04-01')) q(d)
          JOIN transactions t ON t.ordered_at::DATE <= q.d GROUP BY 1"""),
    ("semi_additive_last_day", {"metrics": ["closing_balance", "opening_balance"], "grain": "month"},
     """WITH b AS (SELECT *, date_trunc('month', balance_date)::DATE m FROM balances
                   WHERE balance_date BETWEEN '2024-01-01' AND '2024-06-30')
        SELECT m::VARCHAR, sum(balance) FILTER (WHERE balance_date = (SELECT max(balance_date)
          FROM b b2 WHERE b2.m = b.m)), sum(balance) FILTER (WHERE balance_date = (SELECT
          min(balance_date) FROM b b2 WHERE b2.m = b.m)) FROM b GROUP BY m"""),
    ("semi_additive_per_account", {"metrics": ["account_closing_balance"],
                                   "group_by": ["customer__segment"]},
     """WITH b AS (SELECT * FROM balances WHERE balance_date BETWEEN '2024-01-01' AND '2024-06-30'),
        last AS (SELECT account_id, max(balance_date) d FROM b GROUP BY 1)
        SELECT coalesce(c.segment, ''), sum(balance) FROM b JOIN last l ON b.account_id = l.account_id
          AND b.balance_date = l.d LEFT JOIN customers c USING (customer_id) GROUP BY 1"""),
    # a joined model's exprs in its own scope, as MetricFlow's subquery per semantic model reads
    # them: a constant flag, a CASE, a COALESCE are null on a row the join found no match for
    ("constant_flag_of_joined_model_filtered", {
        "metrics": ["revenue", "orders"],
        "where": [{"dimension": "customer__is_customer", "values": [1]}]},
     f"SELECT sum(amount), count(*) FROM transactions t LEFT JOIN (SELECT customer_id, 1 AS flag "
     f"FROM customers) c USING (customer_id) WHERE {WINDOW} AND c.flag = 1"),
    ("constant_flag_two_hops_grouped", {"metrics": ["revenue"],
                                        "group_by": ["customer__country__is_listed"]},
     f"SELECT coalesce(k.flag::VARCHAR, ''), sum(amount) FROM transactions t LEFT JOIN customers c "
     f"USING (customer_id) LEFT JOIN (SELECT country_code, 1 AS flag FROM countries) k "
     f"ON c.country_code = k.country_code WHERE {WINDOW} GROUP BY 1"),
    ("constant_flag_metric_filters", {"metrics": ["revenue_listed_country", "orders_of_customers"]},
     f"SELECT sum(amount) FILTER (WHERE k.country_code IS NOT NULL), "
     f"count(*) FILTER (WHERE c.customer_id IS NOT NULL) FROM {JOINED} WHERE {WINDOW}"),
    ("case_and_coalesce_of_joined_models", {
        "metrics": ["revenue"],
        "group_by": ["customer__country__region_class", "customer__segment_or_none"]},
     f"SELECT coalesce(k.rc, ''), coalesce(c.s, ''), sum(amount) FROM transactions t LEFT JOIN "
     f"(SELECT customer_id, country_code, coalesce(segment, 'none') s FROM customers) c "
     f"USING (customer_id) LEFT JOIN (SELECT country_code, CASE WHEN region = 'Europe' THEN 'eu' "
     f"ELSE 'elsewhere' END rc FROM countries) k ON c.country_code = k.country_code "
     f"WHERE {WINDOW} GROUP BY 1, 2"),
    ("customers_from_their_model", {"metrics": ["customers", "vip_customers"],
                                    "group_by": ["country__region"],
                                    "window": {"start": "2023-01-01", "end": "2024-12-31"}},
     "SELECT coalesce(k.region, ''), count(DISTINCT customer_id), sum(is_vip::INT) FROM customers c "
     "LEFT JOIN countries k USING (country_code) GROUP BY 1"),
]


def _rows(result) -> list[tuple]:
    return [tuple(row.key[k] for k in result.keys) + tuple(row.values[m]["value"] for m in result.metrics)
            for row in result.rows]


def _same(a: object, b: object) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
    return str(a if a is not None else "") == str(b if b is not None else "")


@pytest.mark.parametrize(("case_id", "args", "sql"), CASES, ids=[c[0] for c in CASES])
def test_project_equals_hand_sql(shop: SemanticLayer, shop_sql, case_id, args, sql) -> None:
    """The governed result has exactly the rows and values of the hand-written query."""
    result = shop.call("query", {"window": H1, **args})
    got = sorted(_rows(result), key=str)
    expected = sorted((tuple(float(v) if isinstance(v, float) else v for v in r)
                       for r in shop_sql.execute(sql).fetchall()), key=str)
    assert len(got) == len(expected) and got, (got, expected)
    for g, e in zip(got, expected, strict=True):
        assert len(g) == len(e) and all(_same(x, y) for x, y in zip(g, e, strict=True)), (g, e)


def test_orphan_foreign_key_counts_under_a_null_member(shop: SemanticLayer, shop_sql) -> None:
    """A fact row whose customer matches nothing still counts: the groups add up to the total."""
    by_region = shop.call("query", {"metrics": ["orders"], "window": H1,
                                    "group_by": ["customer__country__region"]})
    total = shop.call("query", {"metrics": ["orders"], "window": H1}).rows[0].values["orders"]["value"]
    assert sum(r.values["orders"]["value"] for r in by_region.rows) == total
    (null,) = [r for r in by_region.rows if r.key["customer__country__region"] == ""]
    (orphans,) = shop_sql.execute(
        "SELECT count(*) FROM transactions t LEFT JOIN customers c USING (customer_id) LEFT JOIN "
        f"countries k ON c.country_code = k.country_code WHERE k.region IS NULL AND {WINDOW}").fetchone()
    assert null.values["orders"]["value"] == orphans == 20 + shop_sql.execute(
        f"SELECT count(*) FROM transactions t WHERE customer_id = 60 AND {WINDOW}").fetchone()[0]


def test_filter_on_a_member_with_punctuation(shop: SemanticLayer) -> None:
    """A member with an apostrophe and a non-ASCII letter filters and comes back unchanged."""
    result = shop.call("query", {"metrics": ["orders"], "window": H1,
                                 "group_by": ["customer__country__country_name"],
                                 "where": [{"dimension": "customer__country__country_name",
                                            "values": ["Côte d'Ivoire"]}]})
    assert [r.key for r in result.rows] == [{"customer__country__country_name": "Côte d'Ivoire"}]
    assert "IN ('Côte d''Ivoire')" in result.sql


def test_members_are_inferred_from_the_data(shop: SemanticLayer) -> None:
    """With no governance, small dimensions get their distinct values as a closed list."""
    assert shop.model.dimensions["transaction__channel"].members == ("phone", "store", "web")
    with pytest.raises(errors.UnknownMember, match="members: phone, store, web"):
        shop.call("query", {"metrics": ["revenue"], "window": H1,
                            "where": [{"dimension": "transaction__channel", "values": ["fax"]}]})
    cov = shop.model.coverage("revenue")
    assert (cov[0].isoformat(), cov[1].isoformat()) == ("2024-01-01", "2024-06-30")


def test_whole_periods_widen_as_metricflow_and_say_so(shop: SemanticLayer) -> None:
    """--start/--end inside weeks widen to whole ISO weeks; the result records it."""
    result = shop.call("query", {"metrics": ["orders"], "grain": "week", "whole_periods": True,
                                 "window": {"start": "2024-01-03", "end": "2024-01-10"}})
    assert result.widened["requested"] == {"start": "2024-01-03", "end": "2024-01-10"}
    assert result.widened["window"] == {"start": "2024-01-01", "end": "2024-01-14"}
    assert [r.key["week"] for r in result.rows] == ["2024-01-01", "2024-01-08"]
    assert result.to_json()["widened"]["note"].startswith("widened to whole weeks")
    plain = shop.call("query", {"metrics": ["orders"], "grain": "week",
                                "window": {"start": "2024-01-03", "end": "2024-01-10"}})
    assert plain.widened is None and "widened" not in plain.to_json()


def test_widening_to_quarters(shop: SemanticLayer) -> None:
    """A window inside quarters widens to whole quarters; rows are keyed by the quarter start."""
    result = shop.call("query", {"metrics": ["orders"], "grain": "quarter", "whole_periods": True,
                                 "window": {"start": "2024-02-10", "end": "2024-04-02"}})
    assert result.widened["window"] == {"start": "2024-01-01", "end": "2024-06-30"}
    assert [r.key["quarter"] for r in result.rows] == ["2024-01-01", "2024-04-01"]
    assert not any(r.partial for r in result.rows)


def test_unqualified_or_unknown_names_are_refused(shop: SemanticLayer) -> None:
    """A dimension must be named as MetricFlow names it; the refusal lists what is supported."""
    with pytest.raises(errors.UnsupportedDimension, match="supported: customer__country__country_name"):
        shop.call("query", {"metrics": ["revenue"], "window": H1, "group_by": ["region"]})
    with pytest.raises(errors.UnsupportedDimension, match="transaction__channel"):
        shop.call("query", {"metrics": ["visits"], "window": H1,
                            "group_by": ["transaction__channel"]})


def test_exact_percentiles_only_where_the_engine_has_them(shop: SemanticLayer) -> None:
    """A median compiles for duckdb, snowflake and spark; trino and bigquery refuse it
    instead of swapping in an approximate percentile."""
    args = {"metrics": ["median_order"], "window": H1}
    assert "QUANTILE_CONT" in shop.compile("query", args, "duckdb").sql
    assert "WITHIN GROUP" in shop.compile("query", args, "snowflake").sql
    assert "PERCENTILE(" in shop.compile("query", args, "spark").sql
    for dialect in ("trino", "bigquery"):
        with pytest.raises(errors.SemanticError, match=f"not available in {dialect}"):
            shop.compile("query", args, dialect)
