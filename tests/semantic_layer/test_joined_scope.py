"""A joined semantic model's exprs are read in that model's own scope, as MetricFlow's subquery
per semantic model reads them: a constant flag, a CASE, a COALESCE — and a join key whose expr
is not null on an unmatched row — are all NULL where the LEFT JOIN found no match.

The shape of the report behind issue 33: premiums joined to policies, a constant flag
`expr: "1"` on policies filtered; most premium rows match no policy. Before, the flag compiled
to the bare literal and the filter `1 IN (1)` counted every row."""

from __future__ import annotations

import duckdb
import pytest

from showwork.semantic_layer import SemanticLayer, load_model

MODELS = """
semantic_models:
  - name: premiums
    model: ref('premiums')
    defaults: {agg_time_dimension: paid_on}
    entities:
      - {name: premium, type: primary, expr: premium_id}
      - {name: policy, type: foreign, expr: policy_id}
    dimensions:
      - {name: paid_on, type: time, type_params: {time_granularity: day}}
    measures:
      - {name: premium_usd, agg: sum, expr: amount}
      - {name: premium_rows, agg: count, expr: premium_id}
  - name: policies
    model: ref('policies')
    entities:
      - {name: policy, type: primary, expr: policy_id}
      - {name: broker, type: foreign, expr: "COALESCE(broker_code, 'direct')"}
    dimensions:
      - {name: in_force, type: categorical, expr: "1"}
      - {name: size, type: categorical, expr: "CASE WHEN sum_insured > 500 THEN 'big' ELSE 'small' END"}
  - name: brokers
    model: ref('brokers')
    entities:
      - {name: broker, type: primary, expr: "COALESCE(broker_code, 'direct')"}
    dimensions:
      - {name: is_broker, type: categorical, expr: "true"}
      - {name: broker_name, type: categorical, expr: "COALESCE(name, 'unnamed')"}
metrics:
  - {name: premium_usd, label: Premiums, type: simple, type_params: {measure: premium_usd}}
  - {name: premium_rows, label: Premium rows, type: simple, type_params: {measure: premium_rows}}
  - name: premiums_in_force
    label: Premiums of policies in force
    type: simple
    type_params: {measure: premium_usd}
    filter: "{{ Dimension('policy__in_force') }} = 1"
"""

WINDOW = {"start": "2024-01-01", "end": "2024-12-31"}


@pytest.fixture(scope="module")
def insurance(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    root = tmp_path_factory.mktemp("insurance")
    (root / "models").mkdir()
    (root / "models" / "semantic.yml").write_text(MODELS)
    db = root / "insurance.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE policies AS SELECT * FROM (VALUES (1, 'B1', 100), (2, NULL, 900), "
                "(3, 'B9', 50)) v(policy_id, broker_code, sum_insured)")
    con.execute("CREATE TABLE brokers AS SELECT * FROM (VALUES ('B1', 'Acme'), (NULL, NULL)) "
                "v(broker_code, name)")
    # 1,000 premiums, most on policies the table lacks (ids 4..)
    con.execute("CREATE TABLE premiums AS SELECT i AS premium_id, (i % 50) + 1 AS policy_id, "
                "(i % 7) * 10.0 + 1000 AS amount, DATE '2024-01-01' + INTERVAL (i % 300) DAY "
                "AS paid_on FROM range(1000) t(i)")
    con.close()
    layer = SemanticLayer(load_model(root / "models", database=db), db)
    layer.sql = layer.connection.cursor()  # type: ignore[attr-defined]
    yield layer
    layer.sql.close()  # type: ignore[attr-defined]
    layer.close()


def _one(layer: SemanticLayer, args: dict) -> list[tuple]:
    result = layer.call("query", {"window": WINDOW, **args})
    return sorted((tuple(row.key[k] for k in result.keys)
                   + tuple(row.values[m]["value"] for m in result.metrics)) for row in result.rows)


def test_constant_flag_filter_keeps_only_matched_rows(insurance: SemanticLayer) -> None:
    got = _one(insurance, {"metrics": ["premium_usd", "premium_rows"],
                           "where": [{"dimension": "policy__in_force", "values": [1]}]})
    want = insurance.sql.execute(  # type: ignore[attr-defined]
        "SELECT sum(amount), count(*) FROM premiums WHERE policy_id IN (SELECT policy_id FROM "
        "policies)").fetchone()
    assert got == [tuple(want)] and want[1] == 60  # 3 of 50 policy ids, 20 premiums each


def test_metric_filter_on_constant_flag(insurance: SemanticLayer) -> None:
    (got,) = _one(insurance, {"metrics": ["premiums_in_force", "premium_usd"]})
    matched, total = insurance.sql.execute(  # type: ignore[attr-defined]
        "SELECT sum(amount) FILTER (WHERE policy_id <= 3), sum(amount) FROM premiums").fetchone()
    assert got == (matched, total) and matched < total / 10


def test_case_and_flag_group_under_null_where_unmatched(insurance: SemanticLayer) -> None:
    got = _one(insurance, {"metrics": ["premium_rows"], "group_by": ["policy__size",
                                                                      "policy__in_force"]})
    assert got == [("", "", 940), ("big", "1", 20), ("small", "1", 40)]  # "" is null


def test_key_expr_not_null_when_unmatched_does_not_join_on(insurance: SemanticLayer) -> None:
    """policy → broker on COALESCE(broker_code, 'direct'): a premium with no policy has no
    broker (MetricFlow: the policy subquery's key is NULL there), even though the expr of an
    unmatched policy row would read 'direct'."""
    got = _one(insurance, {"metrics": ["premium_rows"],
                           "group_by": ["policy__broker__broker_name", "policy__broker__is_broker"]})
    assert got == [("", "", 960), ("Acme", "true", 20), ("unnamed", "true", 20)]
