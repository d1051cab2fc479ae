"""Comparisons over an exact tree edge carry each factor's contribution and share, exactly."""

from __future__ import annotations

import json
import math
import shutil

import duckdb

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.attribution import attribute, mix_rate
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.results import Row

WEEK = {"start": "2026-03-09", "end": "2026-03-15"}
BEFORE = {"start": "2026-03-02", "end": "2026-03-08"}
TREE = ["weekly_value_moments", "active_users", "days_per_user", "moments_per_day"]


def _compare(layer, metrics, **extra):
    return layer.compare(metrics=metrics, current_window=WEEK, previous_window=BEFORE, **extra)


def test_story_one_contributions_add_up(layer) -> None:
    """Story 1: the factors' contributions add to the parent's delta and their shares to 100 %;
    days_per_user is the largest negative contributor; the parent has no such field."""
    result = _compare(layer, TREE)
    values = result.rows[0].values
    parts = {m: values[m]["contribution"] for m in TREE[1:]}
    assert math.isclose(sum(parts.values()), values[TREE[0]]["delta"], rel_tol=1e-9)
    assert math.isclose(sum(values[m]["share"] for m in TREE[1:]), 100.0, rel_tol=1e-9)
    assert min(parts, key=parts.get) == "days_per_user" and parts["active_users"] > 0
    assert "contribution" not in values[TREE[0]]
    assert result.fields_of("days_per_user")[-2:] == ("contribution", "share")
    assert "contribution" not in result.fields_of(TREE[0])


def test_by_dimension_every_row_attributed(layer) -> None:
    """Grouped by platform, each platform's row is attributed on its own and adds up."""
    result = _compare(layer, TREE, by="platform")
    assert len(result.rows) == 3
    for row in result.rows:
        total = sum(row.values[m]["contribution"] for m in TREE[1:])
        assert math.isclose(total, row.values[TREE[0]]["delta"], rel_tol=1e-9)


def test_partial_edge_gets_no_attribution(layer) -> None:
    """A comparison missing one factor of the edge has no contribution fields at all."""
    result = _compare(layer, TREE[:3])
    assert all("contribution" not in f for f in result.rows[0].values.values())
    assert result.fields == ("value", "previous", "delta", "pct_change")


def _row(values: dict[str, tuple[float | None, float | None]]) -> Row:
    return Row({}, {m: {"value": v, "previous": p,
                        "delta": None if v is None or p is None else v - p,
                        "pct_change": None} for m, (v, p) in values.items()})


def test_non_positive_values_give_none_not_a_crash() -> None:
    """LMDI needs positive values: a zero on either side gives None fields, never an error."""
    rows = attribute((_row({"y": (0.0, 6.0), "a": (0.0, 2.0), "b": (3.0, 3.0)}),), ["y", "a", "b"],
                     [{"parent": "y", "op": "multiply", "factors": ["a", "b"]}])
    assert rows[0].values["a"]["contribution"] is None and rows[0].values["b"]["share"] is None


def test_sum_edge_contributions_are_deltas() -> None:
    """For a sum, each part's contribution is its own delta, and the shares add to 100 %."""
    rows = attribute((_row({"y": (10.0, 4.0), "a": (7.0, 2.0), "b": (3.0, 2.0)}),), ["y", "a", "b"],
                     [{"parent": "y", "op": "sum", "factors": ["a", "b"]}])
    a, b = rows[0].values["a"], rows[0].values["b"]
    assert (a["contribution"], b["contribution"]) == (5.0, 1.0)
    assert math.isclose(a["share"] + b["share"], 100.0)


# -- ratio and derived metrics are exact edges for free --------------------------------------
def _hand_lmdi(num: tuple[float, float], den: tuple[float, float]) -> dict[str, float]:
    """LMDI-I for y = n / d, written out: L(y1, y0) · ln(n1/n0) and −L(y1, y0) · ln(d1/d0)."""
    (n1, n0), (d1, d0) = num, den
    y1, y0 = n1 / d1, n0 / d0
    weight = (y1 - y0) / (math.log(y1) - math.log(y0))
    return {"numerator": weight * math.log(n1 / n0), "denominator": -weight * math.log(d1 / d0)}


def _hand_driver(parts: dict[str, float], move: float) -> str:
    return max((k for k in parts if parts[k] * move > 0), key=lambda k: abs(parts[k]))


def _diagnose(layer, text: str):
    """The rules analyst's served answer to a why-question, and its parent comparison."""
    trace = run_attempt(Question("why", text), RulesClient(), layer, Protocol.parse("claims"))
    answer = json.loads(trace.served().answer_raw)
    first = next(c for c in trace.calls if c.tool == "compare" and c.result)
    return answer, first.result


def _check(layer, text: str, parent: str, numerator: str, denominator: str,
           num: tuple[float, float], den: tuple[float, float]) -> None:
    answer, result = _diagnose(layer, text)
    values = result["rows"][0]["values"]
    hand = _hand_lmdi(num, den)
    move = num[0] / den[0] - num[1] / den[1]
    assert math.isclose(values[parent]["delta"], move, rel_tol=1e-9)
    assert math.isclose(values[numerator]["contribution"], hand["numerator"], rel_tol=1e-9)
    assert math.isclose(values[denominator]["contribution"], hand["denominator"], rel_tol=1e-9)
    expected = {"numerator": numerator, "denominator": denominator}[_hand_driver(hand, move)]
    assert answer["status"] == "answered" and answer["driver"] == expected
    assert any(f"tree:{parent}>{expected}" in (c.get("premises") or []) for c in answer["claims"])


def test_model_states_its_own_edges(layer, shop_layer) -> None:
    """Ratio and product/quotient derived metrics become exact edges; a hand-written edge stays
    first, and shop's aov = revenue / orders restates its revenue = orders × aov."""
    demo = {e.parent: e for e in layer.model.metric_tree.exact}
    assert (demo["days_per_user"].op, demo["days_per_user"].factors) == \
        ("divide", ["active_days", "active_users"])
    assert (demo["mrr_usd"].op, demo["mrr_usd"].factors) == \
        ("multiply", ["paid_subscribers", "plus_price"])
    assert demo["weekly_value_moments"].factors == ["active_users", "days_per_user",
                                                    "moments_per_day"]
    shop = {e.parent: e for e in shop_layer.model.metric_tree.exact}
    assert shop["revenue_per_customer"].factors == ["revenue", "ordering_customers"]
    assert shop["revenue"].factors == ["order_count", "average_order_value"]
    assert shop["average_order_value"].factors == ["revenue", "order_count"]


def test_demo_ratio_driver_matches_hand_lmdi(layer, raw) -> None:
    """Demo: days per user = active days / active users; the driver and both contributions are
    the LMDI of the raw tables' counts (the denominator's rise pulls the ratio down)."""
    sql = """SELECT count(DISTINCT (e.user_id, CAST(e.event_ts AS DATE))),
                    count(DISTINCT e.user_id)
             FROM events e JOIN users u USING (user_id)
             WHERE e.event_type = 'app_open' AND NOT u.is_test
               AND CAST(e.event_ts AS DATE) BETWEEN ? AND ?"""
    now = raw.execute(sql, ["2026-03-09", "2026-03-15"]).fetchone()
    then = raw.execute(sql, ["2026-03-02", "2026-03-08"]).fetchone()
    _check(layer, "Why did days per user drop in the week of 2026-03-09?", "days_per_user",
           "active_days", "active_users", (now[0], then[0]), (now[1], then[1]))


def test_shop_ratio_driver_matches_hand_lmdi(shop_layer) -> None:
    """Shop: cancellation rate = cancelled / gross orders, March 2019 against February."""
    sql = """SELECT count(*) FILTER (WHERE status = 'cancelled'), count(*) FROM orders
             WHERE NOT is_test AND CAST(ordered_at AS DATE) BETWEEN ? AND ?"""
    cursor = shop_layer.connection.cursor()
    now = cursor.execute(sql, ["2019-03-01", "2019-03-31"]).fetchone()
    then = cursor.execute(sql, ["2019-02-01", "2019-02-28"]).fetchone()
    _check(shop_layer, "Why did the cancellation rate rise in March 2019?", "cancellation_rate",
           "cancelled_orders", "gross_orders", (now[0], then[0]), (now[1], then[1]))


def test_flights_average_delay_driver_matches_hand_lmdi(tmp_path) -> None:
    """A third domain, a flights project of its own: the average departure delay is a ratio
    (total delay / flights) and nobody wrote a tree; June's rise is explained by its driver."""
    layer = _flights_layer(tmp_path)
    try:
        cursor = layer.connection.cursor()
        sql = "SELECT sum(dep_delay), count(*) FROM flights WHERE flight_date BETWEEN ? AND ?"
        now = cursor.execute(sql, ["2013-06-01", "2013-06-30"]).fetchone()
        then = cursor.execute(sql, ["2013-05-01", "2013-05-31"]).fetchone()
        _check(layer, "Why did the average departure delay rise in June 2013?", "avg_dep_delay",
               "total_dep_delay", "flight_count", (now[0], then[0]), (now[1], then[1]))
    finally:
        layer.close()


FLIGHTS_MODEL = """
semantic_models:
  - name: flights
    model: ref('flights')
    defaults: {agg_time_dimension: flight_date}
    entities:
      - {name: flight, type: primary, expr: flight_id}
    dimensions:
      - {name: flight_date, type: time, type_params: {time_granularity: day}}
      - {name: carrier, type: categorical}
    measures:
      - {name: dep_delay_minutes, agg: sum, expr: dep_delay}
      - {name: flights, agg: count, expr: flight_id}
metrics:
  - {name: flight_count, label: flights, type: simple, type_params: {measure: flights}}
  - {name: total_dep_delay, label: total departure delay, type: simple,
     type_params: {measure: dep_delay_minutes}}
  - name: avg_dep_delay
    label: average departure delay
    type: ratio
    type_params: {numerator: total_dep_delay, denominator: flight_count}
"""


def _flights_layer(tmp_path):
    """May and June 2013: June has a few more flights and a longer delay on one carrier."""
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "flights.yml").write_text(FLIGHTS_MODEL)
    (tmp_path / "showwork.yaml").write_text(
        "name: flights\nsemantic_models: models\nwarehouse: {duckdb: warehouse.duckdb}\n")
    con = duckdb.connect(str(tmp_path / "warehouse.duckdb"))
    con.execute("""CREATE TABLE flights AS
        SELECT i AS flight_id, DATE '2013-05-01' + CAST(i % 61 AS INTEGER) AS flight_date,
               CASE WHEN i % 3 = 0 THEN 'UA' ELSE 'AA' END AS carrier,
               CAST(5 + i % 7 + CASE WHEN i % 61 >= 31 AND i % 3 = 0 THEN 14 ELSE 0 END
                    AS DOUBLE) AS dep_delay
        FROM range(4000) t(i)""")
    con.close()
    db = tmp_path / "warehouse.duckdb"
    return SemanticLayer(load_project(tmp_path, database=db), db)


def _mix_rate_adds_up(layer, ratio: str, weight: str, by: str, current, previous) -> None:
    whole = layer.compare(metrics=[ratio], current_window=current, previous_window=previous)
    split = layer.compare(metrics=[ratio, weight], current_window=current,
                          previous_window=previous, by=by)
    members = [(r.values[weight]["value"], r.values[weight]["previous"],
                r.values[ratio]["value"], r.values[ratio]["previous"]) for r in split.rows]
    parts = mix_rate(members)
    assert len(parts) > 1
    total = sum(m + r for m, r in parts)
    assert math.isclose(total, whole.rows[0].values[ratio]["delta"], rel_tol=1e-9)
    assert any(abs(m) > 0 for m, _ in parts) and any(abs(r) > 0 for _, r in parts)


def test_mix_and_rate_add_up_to_the_ratio_move(layer, shop_layer) -> None:
    """Across a dimension, a ratio's move splits into mix and rate parts per member that add up
    to the whole move exactly: days per user by channel (demo), cancellation rate by store (shop)."""
    _mix_rate_adds_up(layer, "days_per_user", "active_users", "channel", WEEK, BEFORE)
    _mix_rate_adds_up(shop_layer, "cancellation_rate", "gross_orders", "store",
                      {"start": "2019-03-01", "end": "2019-03-31"},
                      {"start": "2019-02-01", "end": "2019-02-28"})


def test_restated_edges_attribute_to_the_metric_asked_first(shop_layer) -> None:
    """revenue = orders × aov and aov = revenue / orders share factors: a comparison asking for
    revenue first attributes to revenue, one asking for aov first to aov; each adds up."""
    window = {"start": "2019-05-01", "end": "2019-05-31"}
    before = {"start": "2019-04-01", "end": "2019-04-30"}
    for first, factors in (("revenue", ("order_count", "average_order_value")),
                           ("average_order_value", ("revenue", "order_count"))):
        others = [m for m in ("revenue", "order_count", "average_order_value") if m != first]
        values = shop_layer.compare(metrics=[first, *others], current_window=window,
                                    previous_window=before).rows[0].values
        total = sum(values[f]["contribution"] for f in factors)
        assert math.isclose(total, values[first]["delta"], rel_tol=1e-9)


def test_flights_example_ratio_matches_hand_lmdi(tmp_path) -> None:
    """The flights example as written: its average departure delay is a ratio beside a
    hand-written product, and June's comparison attributes the rise over numerator and
    denominator exactly as an LMDI on the raw table does, naming the driver its gold names."""
    from flights_data import FLIGHTS, flights_db

    db = tmp_path / "warehouse.duckdb"  # a copy: other modules hold the cache open
    shutil.copy(flights_db(), db)
    layer = SemanticLayer(load_project(FLIGHTS, database=db), db)
    try:
        sql = ("SELECT sum(dep_delay), count(dep_delay) FROM flights WHERE flight_date "
               "BETWEEN ? AND ?")
        cursor = layer.connection.cursor()
        now = cursor.execute(sql, ["2013-06-01", "2013-06-30"]).fetchone()
        then = cursor.execute(sql, ["2013-05-01", "2013-05-31"]).fetchone()
        hand = _hand_lmdi((now[0], then[0]), (now[1], then[1]))
        values = layer.compare(
            metrics=["average_departure_delay", "total_departure_delay", "departed_flights"],
            current_window={"start": "2013-06-01", "end": "2013-06-30"},
            previous_window={"start": "2013-05-01", "end": "2013-05-31"}).rows[0].values
        assert math.isclose(values["total_departure_delay"]["contribution"], hand["numerator"],
                            rel_tol=1e-9)
        assert math.isclose(values["departed_flights"]["contribution"], hand["denominator"],
                            rel_tol=1e-9)
        move = values["average_departure_delay"]["delta"]
        assert _hand_driver(hand, move) == "numerator"  # the gold: total_departure_delay
    finally:
        layer.close()
