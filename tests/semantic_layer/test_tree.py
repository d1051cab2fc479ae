"""LMDI attribution is exact and picks the driver by sign and magnitude."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showwork.semantic_layer.tree import driver, lmdi, log_mean

positive = st.floats(min_value=0.01, max_value=1e6, allow_nan=False)


@given(st.lists(st.tuples(positive, positive), min_size=1, max_size=4))
def test_contributions_sum_to_change(pairs) -> None:
    """For any positive factors, the contributions add up to the change in their product."""
    now = {f"f{i}": a for i, (a, _) in enumerate(pairs)}
    before = {f"f{i}": b for i, (_, b) in enumerate(pairs)}
    y1, y0 = math.prod(now.values()), math.prod(before.values())
    total = sum(lmdi(now, before, y1, y0).values())
    assert math.isclose(total, y1 - y0, rel_tol=1e-6, abs_tol=1e-6 * max(abs(y1), abs(y0), 1))


def test_driver_takes_sign_of_move() -> None:
    """A large positive factor is not the driver of a fall."""
    assert driver({"a": 50.0, "b": -30.0, "c": -10.0}, -5.0) == "b"
    assert driver({"a": 1.0}, -1.0) is None


def test_log_mean_rejects_non_positive() -> None:
    """LMDI is undefined for zero or negative values; the error says so."""
    with pytest.raises(ValueError, match="positive"):
        log_mean(0.0, 1.0)


# -- edges from the model ------------------------------------------------------------------------
def _metric(name, type_, **kw):
    from showwork.semantic_layer.model import Metric, MetricInput

    inputs = tuple(MetricInput(n) if isinstance(n, str) else n for n in kw.pop("inputs", ()))
    for side in ("numerator", "denominator"):
        if isinstance(kw.get(side), str):
            kw[side] = MetricInput(kw[side])
    return Metric(name, type_, name, origin=None, inputs=inputs, **kw)


def test_ratio_and_derived_metrics_become_edges() -> None:
    """A ratio is numerator / denominator; a derived product, quotient or mixed product is
    that, constants dropped; a sum, an offset or a filtered input is no edge."""
    from showwork.semantic_layer.model import MetricInput, Offset
    from showwork.semantic_layer.tree import model_edges

    metrics = [
        _metric("aov", "ratio", numerator="revenue", denominator="orders"),
        _metric("mrr", "derived", expr="subs * price", inputs=["subs", "price"]),
        _metric("per_head", "derived", expr="100 * (revenue / heads)", inputs=["revenue", "heads"]),
        _metric("mixed", "derived", expr="revenue * margin / orders",
                inputs=["revenue", "margin", "orders"]),
        _metric("net", "derived", expr="revenue - refunds", inputs=["revenue", "refunds"]),
        _metric("growth", "derived", expr="revenue / revenue_prev",
                inputs=["revenue", MetricInput("revenue", alias="revenue_prev",
                                               offset_window=Offset(1, "month"))]),
        _metric("paid_rate", "ratio", numerator=MetricInput("orders", filters=("x",)),
                denominator="orders"),
    ]
    edges = {e.parent: (e.op, e.factors, e.exponents) for e in model_edges(metrics)}
    assert edges == {"aov": ("divide", ["revenue", "orders"], None),
                     "mrr": ("multiply", ["subs", "price"], None),
                     "per_head": ("divide", ["revenue", "heads"], None),
                     "mixed": ("multiply", ["revenue", "margin", "orders"], [1, 1, -1])}


def test_hand_written_edge_overrides() -> None:
    """A parent with a hand-written edge keeps it; a ratio restating a hand-written product
    (aov = revenue / orders beside revenue = orders × aov) is added too."""
    from showwork.semantic_layer.governance import ExactEdge, MetricTree
    from showwork.semantic_layer.tree import with_model_edges

    hand = MetricTree(exact=[ExactEdge(parent="revenue", factors=["orders", "aov"]),
                             ExactEdge(parent="rate", factors=["a", "b"])])
    metrics = [_metric("aov", "ratio", numerator="revenue", denominator="orders"),
               _metric("rate", "ratio", numerator="x", denominator="y"),
               _metric("ctr", "ratio", numerator="clicks", denominator="views")]
    tree = with_model_edges(hand, metrics)
    assert [(e.parent, e.factors) for e in tree.exact] == [
        ("revenue", ["orders", "aov"]), ("rate", ["a", "b"]), ("aov", ["revenue", "orders"]),
        ("ctr", ["clicks", "views"])]


@given(st.lists(st.tuples(positive, positive), min_size=2, max_size=4),
       st.lists(st.sampled_from([1, -1]), min_size=4, max_size=4))
def test_signed_powers_add_up_to_the_change(pairs, signs) -> None:
    """For y = Π xi^pi (pi = ±1), the signed contributions still add up to the change; a factor
    that divides and rose contributes a fall."""
    from showwork.semantic_layer.tree import lmdi

    powers = {f"f{i}": signs[i] for i in range(len(pairs))}
    now = {f"f{i}": a for i, (a, _) in enumerate(pairs)}
    before = {f"f{i}": b for i, (_, b) in enumerate(pairs)}
    y1 = math.prod(v ** powers[k] for k, v in now.items())
    y0 = math.prod(v ** powers[k] for k, v in before.items())
    parts = lmdi(now, before, y1, y0, powers)
    assert math.isclose(sum(parts.values()), y1 - y0, rel_tol=1e-6,
                        abs_tol=1e-6 * max(abs(y1), abs(y0), 1))
    for k in parts:
        if powers[k] == -1 and now[k] > before[k] * 1.01:
            assert parts[k] < 0
