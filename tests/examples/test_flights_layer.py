"""The flights example's governed layer answers its own gold: for each question, the governed
call a right reading makes returns the number (or table, or ranking) that the question's raw-SQL
gold gives. So a wrong answer on examples/flights is a misreading, never a model the gold does
not match."""

from __future__ import annotations

import math
import shutil
from typing import Any

import pytest
import yaml
from flights_data import FLIGHTS, flights_db

from showwork.harness.experiments.gold import evaluate, evaluate_table
from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.project import load_project

QUESTIONS = {q["id"]: q for q in
             yaml.safe_load((FLIGHTS / "questions.yaml").read_text(encoding="utf-8"))["questions"]}


@pytest.fixture(scope="module")
def flights(tmp_path_factory) -> SemanticLayer:
    """The layer over a copy of the cached warehouse (other modules hold the cache open under
    another DuckDB configuration)."""
    copy = tmp_path_factory.mktemp("flights") / "warehouse.duckdb"
    shutil.copy(flights_db(), copy)
    layer = SemanticLayer(load_project(FLIGHTS, database=copy), copy)
    yield layer
    layer.close()


def _w(start: str, end: str) -> dict[str, str]:
    return {"start": start, "end": end}


def _in(dimension: str, *values: str) -> dict[str, Any]:
    return {"dimension": dimension, "op": "in", "values": list(values)}


YEAR, H1, Q1 = _w("2013-01-01", "2013-12-31"), _w("2013-01-01", "2013-06-30"), _w("2013-01-01", "2013-03-31")
MONTH = {m: _w(f"2013-{m:02d}-01", f"2013-{m:02d}-{d}") for m, d in
         ((1, 31), (2, 28), (3, 31), (5, 31), (6, 30), (7, 31), (8, 31), (9, 30), (11, 30), (12, 31))}
UNITED, JETBLUE, DELTA = "United Air Lines Inc.", "JetBlue Airways", "Delta Air Lines Inc."

# qid -> (call, arguments): the reading a right analyst makes of the question.
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "level-001": ("query", {"metrics": ["flights"], "window": MONTH[7], "where": [_in("destination", "LAX")]}),
    "todate-001": ("query", {"metrics": ["flights"], "window": _w("2013-12-30", "2014-01-05")}),
    "level-002": ("query", {"metrics": ["flights"], "window": MONTH[3],
                            "where": [_in("airline", UNITED), _in("origin", "EWR")]}),
    "level-003": ("query", {"metrics": ["cancellation_rate"], "window": MONTH[2], "where": [_in("origin", "LGA")]}),
    "level-004": ("query", {"metrics": ["average_departure_delay"], "window": MONTH[6],
                            "where": [_in("airline", JETBLUE)]}),
    "level-005": ("query", {"metrics": ["average_arrival_delay"], "window": MONTH[12],
                            "where": [_in("airline", DELTA)]}),
    "level-006": ("query", {"metrics": ["cancelled_flights"], "window": YEAR}),
    "level-007": ("query", {"metrics": ["total_distance"], "window": _w("2013-07-01", "2013-09-30"),
                            "where": [_in("origin", "JFK")]}),
    "level-008": ("query", {"metrics": ["average_distance"], "window": H1,
                            "where": [_in("destination_airport_name", "San Francisco Intl")]}),
    "level-009": ("query", {"metrics": ["delayed_flights"], "window": _w("2013-04-01", "2013-06-30"),
                            "where": [_in("airline", "American Airlines Inc."), _in("origin", "JFK")]}),
    "level-010": ("query", {"metrics": ["delayed_share"], "window": MONTH[7]}),
    "level-011": ("query", {"metrics": ["flights"], "window": MONTH[5],
                            "where": [_in("manufacturer", "BOEING"), _in("origin", "JFK")]}),
    "level-012": ("query", {"metrics": ["average_air_time"], "window": YEAR,
                            "where": [_in("destination_airport_name", "Honolulu Intl")]}),
    "level-013": ("query", {"metrics": ["delayed_flights"], "window": MONTH[3],
                            "where": [_in("destination_airport_name", "Chicago Ohare Intl")]}),
    "level-014": ("query", {"metrics": ["average_temperature"], "window": MONTH[1],
                            "where": [_in("origin_airport_name", "John F Kennedy Intl")]}),
    "level-015": ("query", {"metrics": ["precipitation"], "window": MONTH[6],
                            "where": [_in("origin_airport_name", "Newark Liberty Intl")]}),
    "level-016": ("query", {"metrics": ["average_departure_delay"], "window": YEAR}),
    "level-017": ("query", {"metrics": ["cancelled_flights"], "window": _w("2013-02-08", "2013-02-08"),
                            "where": [_in("airline", "Envoy Air")]}),
    "level-018": ("query", {"metrics": ["flights"], "window": _w("2013-11-25", "2013-12-01"),
                            "where": [_in("destination", "ATL")]}),
    "level-019": ("query", {"metrics": ["flights"], "window": MONTH[12],
                            "where": [_in("airline", "Southwest Airlines Co."), _in("origin", "LGA")]}),
    "cumulative-001": ("query", {"metrics": ["flights"], "window": _w("2013-01-01", "2013-05-31")}),
    "cumulative-002": ("query", {"metrics": ["cancelled_flights"], "window": Q1,
                                 "where": [_in("airline", JETBLUE)]}),
    "cumulative-003": ("query", {"metrics": ["delayed_flights"], "window": _w("2013-01-01", "2013-08-31")}),
    "share-001": ("query", {"metrics": ["cancellation_rate"], "window": YEAR, "where": [_in("origin", "EWR")]}),
}
CHANGES: dict[str, dict[str, Any]] = {
    "change-001": {"metrics": ["cancelled_flights"], "current_window": MONTH[6], "previous_window": MONTH[5]},
    "change-002": {"metrics": ["average_departure_delay"], "current_window": MONTH[6],
                   "previous_window": MONTH[5]},
    "change-003": {"metrics": ["delayed_flights"], "current_window": MONTH[6], "previous_window": MONTH[5]},
    "change-004": {"metrics": ["flights"], "current_window": _w("2013-04-01", "2013-06-30"),
                   "previous_window": Q1, "where": [_in("origin", "EWR")]},
    "change-005": {"metrics": ["cancellation_rate"], "current_window": MONTH[12], "previous_window": MONTH[11]},
    "change-006": {"metrics": ["average_departure_delay"], "current_window": MONTH[9],
                   "previous_window": MONTH[8], "where": [_in("airline", UNITED)]},
    "change-007": {"metrics": ["flights"], "current_window": _w("2013-07-01", "2013-12-31"),
                   "previous_window": H1},
}
TABLES: dict[str, dict[str, Any]] = {
    "breakdown-001": {"metrics": ["cancelled_flights"], "window": MONTH[2], "group_by": ["airline"]},
    "breakdown-002": {"metrics": ["average_departure_delay"], "window": MONTH[7], "group_by": ["origin"]},
    "breakdown-003": {"metrics": ["cancellation_rate"], "window": YEAR, "group_by": ["origin"]},
    "breakdown-004": {"metrics": ["flights"], "window": MONTH[3], "group_by": ["airline"],
                      "where": [_in("origin", "JFK")]},
    "breakdown-005": {"metrics": ["delayed_share"], "window": MONTH[12], "group_by": ["origin"]},
    "breakdown-006": {"metrics": ["average_arrival_delay"], "window": YEAR, "group_by": ["airline"]},
    "breakdown-007": {"metrics": ["average_air_time"], "window": YEAR, "group_by": ["origin"],
                      "where": [_in("destination", "LAX")]},
    "breakdown-008": {"metrics": ["flights"], "window": YEAR, "group_by": ["origin"],
                      "where": [_in("destination_airport_name", "Chicago Ohare Intl")]},
    "series-001": {"metrics": ["flights"], "window": YEAR, "grain": "month"},
    "series-002": {"metrics": ["cancellation_rate"], "window": H1, "grain": "month",
                   "where": [_in("origin", "LGA")]},
    "series-003": {"metrics": ["cancelled_flights"], "window": _w("2013-02-04", "2013-03-03"), "grain": "week"},
    "series-004": {"metrics": ["flights"], "window": _w("2013-07-01", "2013-07-07"), "grain": "day",
                   "where": [_in("origin", "EWR")]},
    "series-005": {"metrics": ["average_arrival_delay"], "window": YEAR, "grain": "quarter"},
    "series-006": {"metrics": ["flights"], "window": H1, "grain": "month", "where": [_in("airline", UNITED)]},
}
RANKINGS: dict[str, tuple[dict[str, Any], bool]] = {  # (arguments, most first)
    "ranking-001": ({"metrics": ["cancelled_flights"], "window": MONTH[2], "group_by": ["airline"]}, True),
    "ranking-002": ({"metrics": ["flights"], "window": YEAR, "group_by": ["destination"]}, True),
    "ranking-003": ({"metrics": ["average_departure_delay"], "window": MONTH[7], "group_by": ["airline"]}, True),
    "ranking-004": ({"metrics": ["cancellation_rate"], "window": YEAR, "group_by": ["origin"]}, False),
    "ranking-005": ({"metrics": ["flights"], "window": YEAR, "group_by": ["destination"],
                     "where": [_in("origin", "LGA")]}, True),
    "ranking-006": ({"metrics": ["average_distance"], "window": YEAR, "group_by": ["airline"]}, True),
    "ranking-007": ({"metrics": ["flights"], "window": YEAR, "group_by": ["airline"]}, False),
}

SHARES: dict[str, tuple[dict[str, Any], str]] = {  # (arguments with share: true, the part's member)
    "share-002": ({"metrics": ["flights"], "window": YEAR, "group_by": ["airline"]}, UNITED),
    "share-003": ({"metrics": ["flights"], "window": YEAR, "group_by": ["destination"],
                   "where": [_in("origin", "JFK")]}, "LAX"),
    "share-004": ({"metrics": ["flights"], "window": Q1, "group_by": ["airline"],
                   "where": [_in("destination", "BOS")]}, JETBLUE),
    "share-005": ({"metrics": ["flights"], "window": YEAR, "group_by": ["airline"],
                   "where": [_in("origin", "LGA")]}, DELTA),
}


def _gold(layer: SemanticLayer, qid: str) -> Any:
    cursor = layer.connection.cursor()
    try:
        gold = QUESTIONS[qid]["gold"]
        if "sql" in gold:
            return evaluate(cursor, gold["sql"])
        return {str(k): v for k, v in evaluate_table(cursor, gold["table_sql"])}
    finally:
        cursor.close()


def _value(row: dict[str, Any], metric: str, field: str = "value") -> float:
    return float(row["values"][metric][field])


def test_every_answerable_shape_is_covered() -> None:
    """Every answerable question has its reading here but the ratio diagnostic (re-checked by
    LMDI in test_flights_data)."""
    covered = set(LEVELS) | set(CHANGES) | set(TABLES) | set(RANKINGS) | set(DIAGNOSTICS) | \
        set(SHARES)
    expected = {i for i, q in QUESTIONS.items() if q["answerable"]}
    assert covered <= expected
    assert expected - covered == {"diag-007"}


@pytest.mark.parametrize("qid", sorted(SHARES))
def test_member_shares_of_a_total(flights: SemanticLayer, qid: str) -> None:
    """The member's row of the grouped call with share: true carries the share the gold gives."""
    args, member = SHARES[qid]
    rows = flights.query(**args, share=True).to_json()["rows"]
    (row,) = [r for r in rows if r["key"][args["group_by"][0]] == member]
    assert math.isclose(_value(row, "flights", "share_of_total"), _gold(flights, qid),
                        rel_tol=1e-9)


@pytest.mark.parametrize("qid", sorted(LEVELS))
def test_levels(flights: SemanticLayer, qid: str) -> None:
    kind, args = LEVELS[qid]
    (row,) = flights.call(kind, args).to_json()["rows"]
    got = _value(row, args["metrics"][0])
    assert math.isclose(got, _gold(flights, qid), rel_tol=QUESTIONS[qid]["gold"]["tolerance"] / 10)


@pytest.mark.parametrize("qid", sorted(CHANGES))
def test_changes_are_the_later_period_against_the_earlier(flights: SemanticLayer, qid: str) -> None:
    (row,) = flights.compare(**CHANGES[qid]).to_json()["rows"]
    got = _value(row, CHANGES[qid]["metrics"][0], "pct_change")
    assert math.isclose(got, _gold(flights, qid), rel_tol=1e-6)


@pytest.mark.parametrize("qid", sorted(TABLES))
def test_breakdowns_and_series(flights: SemanticLayer, qid: str) -> None:
    args = TABLES[qid]
    result = flights.query(**args).to_json()
    key = (args.get("group_by") or [args.get("grain")])[0]
    got = {str(r["key"][key]): _value(r, args["metrics"][0]) for r in result["rows"]}
    gold = _gold(flights, qid)
    assert got.keys() == gold.keys()
    assert all(math.isclose(got[k], gold[k], rel_tol=1e-6) for k in gold)


@pytest.mark.parametrize("qid", sorted(RANKINGS))
def test_rankings(flights: SemanticLayer, qid: str) -> None:
    args, most = RANKINGS[qid]
    rows = flights.query(**args).to_json()["rows"]
    metric, key = args["metrics"][0], args["group_by"][0]
    ranked = sorted(rows, key=lambda r: _value(r, metric), reverse=most)
    members = QUESTIONS[qid]["gold"]["members"]
    assert [r["key"][key] for r in ranked[:len(members)]] == members


# Each diagnostic whose metric the governed tree decomposes: (metric, factors, month, filters).
TREE = {"cancelled_flights": ["flights", "cancellation_rate"],
        "delayed_flights": ["departed_flights", "delayed_share"],
        "total_distance": ["flights", "average_distance"]}
DIAGNOSTICS = {
    "diag-001": ("cancelled_flights", 6, []),
    "diag-002": ("delayed_flights", 7, []),
    "diag-003": ("cancelled_flights", 2, []),
    "diag-004": ("total_distance", 3, []),
    "diag-005": ("delayed_flights", 9, []),
    "diag-006": ("cancelled_flights", 12, [_in("origin", "LGA")]),
}


@pytest.mark.parametrize("qid", sorted(DIAGNOSTICS))
def test_the_layers_attribution_names_the_gold_driver(flights: SemanticLayer, qid: str) -> None:
    """The layer's exact attribution over the governed tree, the month against the month
    before, gives the gold driver: the factor contributing most in the direction of the move.
    (diag-007 asks about a ratio metric, which the hand-written tree does not decompose.)"""
    metric, month, where = DIAGNOSTICS[qid]
    windows = dict(MONTH) | {4: _w("2013-04-01", "2013-04-30"),
                                                  10: _w("2013-10-01", "2013-10-31")}
    (row,) = flights.compare(metrics=[metric, *TREE[metric]], current_window=windows[month],
                             previous_window=windows[month - 1], where=where).to_json()["rows"]
    move = _value(row, metric, "delta")
    parts = {f: _value(row, f, "contribution") for f in TREE[metric]}
    assert math.isclose(sum(parts.values()), move, rel_tol=1e-9)
    same = {f: c for f, c in parts.items() if c * move > 0}
    assert max(same, key=lambda f: abs(same[f])) == QUESTIONS[qid]["gold"]["driver"]
