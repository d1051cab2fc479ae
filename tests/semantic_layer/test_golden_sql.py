"""Compiled SQL per dialect matches the golden files (SHOWWORK_UPDATE_GOLDEN=1 rewrites them):
the demo's queries, and a dbt MetricFlow project's (conformance/project: multi-hop LEFT joins,
metric filters, ratios across models, offsets, cumulative windows, quarters)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sqlglot

from showwork.semantic_layer import SemanticLayer, load_model
from showwork.semantic_layer.compile import DIALECTS

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "sql"
PROJECT = Path(__file__).resolve().parents[2] / "conformance" / "project" / "models"
QUERIES = {
    "weekly_active_users_by_platform": ("query", {
        "metrics": ["active_users"], "grain": "week", "group_by": ["platform"],
        "window": {"start": "2026-03-02", "end": "2026-03-29"}}),
    "value_moment_tree_compare": ("compare", {
        "metrics": ["weekly_value_moments", "active_users", "days_per_user", "moments_per_day"],
        "current_window": {"start": "2026-03-09", "end": "2026-03-15"},
        "previous_window": {"start": "2026-03-02", "end": "2026-03-08"}}),
    "open_rate_android_filter": ("query", {
        "metrics": ["reminder_open_rate"], "where": [
            {"dimension": "platform", "op": "in", "values": ["android"]}],
        "window": {"start": "2026-04-13", "end": "2026-04-19"}}),
    "mrr_by_month": ("query", {
        "metrics": ["mrr_usd"], "grain": "month",
        "window": {"start": "2026-01-01", "end": "2026-03-31"}}),
    "new_users_by_signup_month_top": ("query", {
        "metrics": ["new_users"], "group_by": ["signup_month"], "limit": 3,
        "order_by": {"field": "new_users", "desc": True},
        "window": {"start": "2026-01-01", "end": "2026-03-31"}}),
}


H1 = {"start": "2024-01-01", "end": "2024-06-30"}
PROJECT_QUERIES = {
    "mf_multi_hop_region_by_quarter": ("query", {
        "metrics": ["revenue", "revenue_north_america"], "grain": "quarter", "window": H1,
        "group_by": ["customer__country__region", "transaction__channel"]}),
    "mf_ratio_across_models": ("query", {
        "metrics": ["revenue_per_visit", "web_share"], "grain": "month",
        "window": H1, "group_by": ["customer__segment"]}),
    "mf_offset_and_cumulative": ("query", {
        "metrics": ["revenue_wow", "revenue_7d", "revenue_mtd"], "grain": "week",
        "window": {"start": "2024-01-08", "end": "2024-02-04"}}),
    "mf_semi_additive_compare": ("compare", {
        "metrics": ["closing_balance", "account_closing_balance"], "by": "customer__segment",
        "current_window": {"start": "2024-03-01", "end": "2024-03-31"},
        "previous_window": {"start": "2024-02-01", "end": "2024-02-29"}}),
    "mf_aggregations_where_or": ("query", {
        "metrics": ["average_order", "gift_orders", "buyers", "largest_order"], "grain": "year",
        "window": H1, "where": [{"any_of": [
            {"dimension": "transaction__channel", "values": ["web"]},
            {"dimension": "customer__country__region", "op": "not_in", "values": ["Europe"]}]}]}),
}


@pytest.fixture(scope="module")
def compiler_layer() -> SemanticLayer:
    return SemanticLayer(load_model())


@pytest.fixture(scope="module")
def project_layer() -> SemanticLayer:
    return SemanticLayer(load_model(PROJECT))


CASES = [(n, "demo") for n in sorted(QUERIES)] + [(n, "project") for n in sorted(PROJECT_QUERIES)]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(("name", "source"), CASES, ids=[c[0] for c in CASES])
def test_golden_sql(compiler_layer: SemanticLayer, project_layer: SemanticLayer, name: str,
                    source: str, dialect: str) -> None:
    """The compiled SQL is exactly the reviewed golden text and parses as one SELECT."""
    layer, queries = (compiler_layer, QUERIES) if source == "demo" else (project_layer, PROJECT_QUERIES)
    kind, args = queries[name]
    sql = layer.compile(kind, args, dialect).sql
    path = GOLDEN / f"{name}.{dialect}.sql"
    if os.environ.get("SHOWWORK_UPDATE_GOLDEN"):
        path.write_text(sql + "\n", encoding="utf-8")
    assert sql + "\n" == path.read_text(encoding="utf-8")
    (statement,) = sqlglot.parse(sql, read=dialect)
    assert isinstance(statement, sqlglot.exp.Select)


def test_iso_weeks_in_every_dialect(compiler_layer: SemanticLayer) -> None:
    """Week buckets start on Monday in every dialect, not on the engine's default."""
    kind, args = QUERIES["weekly_active_users_by_platform"]
    sql = {d: compiler_layer.compile(kind, args, d).sql for d in DIALECTS}
    assert "ISOWEEK" in sql["bigquery"]
    assert "DAYOFWEEKISO" in sql["snowflake"]
    assert "DATE_TRUNC('WEEK'" in sql["duckdb"] and "DATE_TRUNC('WEEK'" in sql["trino"]
