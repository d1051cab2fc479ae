"""Comparisons over an exact tree edge carry each factor's contribution and share, exactly."""

from __future__ import annotations

import math

from semantic_layer.attribution import attribute
from semantic_layer.results import Row

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
