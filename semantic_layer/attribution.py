"""Attribution fields on comparisons: each factor's `contribution` and `share` of its parent's move.

A comparison that holds the parent of an exact tree edge and all its factors gets, per factor,
`contribution` (in the parent's units; LMDI for a product or quotient — a denominator that rose
pulled the parent down —, the factor's own delta for a sum; contributions add up to the
parent's delta exactly) and `share` (percent of the parent's delta).
So an attribution a model states is a field it can cite, not a number nothing supports.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from showwork.semantic_layer.results import Number, Row
from showwork.semantic_layer.tree import lmdi, powers

ATTRIBUTION_FIELDS = ("contribution", "share")


def attribute(rows: tuple[Row, ...], metrics: Iterable[str],
              edges: Iterable[dict[str, Any]]) -> tuple[Row, ...]:
    """The rows, with attribution fields on the factors of every exact edge held whole. A factor
    of several such edges (orders, in revenue = orders × aov and aov = revenue / orders) is
    attributed to the edge whose parent the comparison asks for first."""
    order = list(dict.fromkeys(metrics))
    held = set(order)
    whole = sorted((e for e in edges if e["parent"] in held and set(e["factors"]) <= held),
                   key=lambda e: order.index(e["parent"]))
    if not whole:
        return rows
    return tuple(_row(row, whole) for row in rows)


def _row(row: Row, edges: list[dict[str, Any]]) -> Row:
    values = {m: dict(f) for m, f in row.values.items()}
    for edge in edges:
        for factor, (contribution, share) in _split(values, edge).items():
            values[factor].setdefault("contribution", contribution)
            values[factor].setdefault("share", share)
    return replace(row, values=values)


def _split(values: dict[str, dict[str, Number]],
           edge: dict[str, Any]) -> dict[str, tuple[Number, Number]]:
    parent, factors = values[edge["parent"]], edge["factors"]
    parts = (_sum(values, factors) if edge.get("op") == "sum"
             else _product(values, parent, factors, powers(edge)))
    delta = parent["delta"]
    return {f: (c, _share(c, delta)) for f, c in zip(factors, parts, strict=True)}


def _product(values: dict[str, dict[str, Number]], parent: dict[str, Number],
             factors: list[str], exponents: dict[str, int]) -> list[Number]:
    now = {f: values[f]["value"] for f in factors}
    before = {f: values[f]["previous"] for f in factors}
    totals = (parent["value"], parent["previous"])
    numbers = [*now.values(), *before.values(), *totals]
    if not all(isinstance(v, int | float) and v > 0 for v in numbers):
        return [None] * len(factors)  # LMDI needs positive values on both sides
    contributions = lmdi(now, before, float(totals[0]), float(totals[1]),  # type: ignore[arg-type]
                         exponents)
    return [contributions[f] for f in factors]


def _sum(values: dict[str, dict[str, Number]], factors: list[str]) -> list[Number]:
    return [values[f]["delta"] for f in factors]


def _share(contribution: Number, delta: Number) -> Number:
    if contribution is None or delta is None or delta == 0 or not math.isfinite(contribution):
        return None
    return contribution / delta * 100


def mix_rate(members: list[tuple[float, float, float, float]]) -> list[tuple[float, float]]:
    """A ratio's move across a dimension's members, split per member into mix and rate.

    Each member is (weight now, weight before, level now, level before): the ratio's
    denominator and the ratio within the member. The mix part is the weight moving toward or
    away from the member (at its midpoint level against the average level), the rate part the
    level moving within it (at its midpoint share). Together they add up to the change in the
    weighted average exactly.

    >>> parts = mix_rate([(30.0, 10.0, 2.0, 2.0), (10.0, 10.0, 1.0, 1.0)])
    >>> round(sum(m + r for m, r in parts), 9) == round((30 * 2 + 10) / 40 - 1.5, 9)
    True
    """
    now = sum(w1 for w1, _, _, _ in members) or 1.0
    then = sum(w0 for _, w0, _, _ in members) or 1.0
    shares = [(w1 / now, w0 / then, r1, r0) for w1, w0, r1, r0 in members]
    average = sum(s1 * r1 + s0 * r0 for s1, s0, r1, r0 in shares) / 2
    return [((s1 - s0) * ((r1 + r0) / 2 - average), (s1 + s0) / 2 * (r1 - r0))
            for s1, s0, r1, r0 in shares]
