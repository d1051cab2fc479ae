"""The metric tree's exact edges and their attribution (LMDI).

For y = k · x1^p1 · x2^p2 · … (p = +1 for a factor that multiplies, -1 for one that divides),
the LMDI-I contribution of factor i to Δy is L(y1, y0) · pi · ln(xi1 / xi0), where L is the
logarithmic mean; the contributions sum to Δy exactly (a constant k moves nothing). So for a
quotient the denominator's contribution has the opposite sign of its move.

Edges come for free from the model: every MetricFlow `ratio` metric is numerator / denominator,
and every `derived` metric whose expression is a product or quotient of its input metrics is
that product or quotient (`model_edges`). A hand-written edge for the same parent overrides.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from showwork.semantic_layer.governance import ExactEdge, MetricTree
    from showwork.semantic_layer.model import Metric, MetricInput


def log_mean(a: float, b: float) -> float:
    """The logarithmic mean L(a, b) = (a - b) / (ln a - ln b), with L(a, a) = a.

    >>> round(log_mean(2.0, 1.0), 6)
    1.442695
    """
    if a <= 0 or b <= 0:
        raise ValueError("LMDI needs positive values")
    return a if math.isclose(a, b, rel_tol=1e-12) else (a - b) / (math.log(a) - math.log(b))


def lmdi(current: dict[str, float], previous: dict[str, float], total_now: float,
         total_before: float, powers: Mapping[str, int] | None = None) -> dict[str, float]:
    """Each factor's additive contribution to total_now - total_before.

    >>> c = lmdi({"a": 4.0, "b": 3.0}, {"a": 2.0, "b": 3.0}, 12.0, 6.0)
    >>> round(c["a"], 9), round(c["b"], 9)
    (6.0, 0.0)
    >>> q = lmdi({"n": 6.0, "d": 3.0}, {"n": 4.0, "d": 1.0}, 2.0, 4.0, {"d": -1})
    >>> round(q["n"] + q["d"], 9)
    -2.0
    """
    weight = log_mean(total_now, total_before)
    powers = powers or {}
    return {f: weight * powers.get(f, 1) * math.log(current[f] / previous[f]) for f in current}


def driver(contributions: dict[str, float], change: float) -> str | None:
    """The factor whose contribution has the sign of the change and the largest magnitude."""
    same_sign = {f: c for f, c in contributions.items() if c is not None and c * change > 0}
    return max(same_sign, key=lambda f: abs(same_sign[f])) if same_sign else None


def powers(edge: Mapping[str, Any]) -> dict[str, int]:
    """Factor → +1 (multiplies) or -1 (divides) for a product or quotient edge.

    >>> powers({"parent": "aov", "op": "divide", "factors": ["revenue", "orders"]})
    {'revenue': 1, 'orders': -1}
    """
    factors = list(edge["factors"])
    if edge.get("op") == "divide":
        return {f: (1 if i == 0 else -1) for i, f in enumerate(factors)}
    given = edge.get("exponents") or [1] * len(factors)
    return dict(zip(factors, given, strict=True))


# -- edges from the model ------------------------------------------------------------------------
def with_model_edges(tree: MetricTree, metrics: Iterable[Metric]) -> MetricTree:
    """The tree plus an edge for every ratio and product/quotient derived metric that has no
    hand-written edge. An edge may restate a hand-written one (revenue = orders × aov, and the
    ratio aov = revenue / orders): both are true, and a comparison attributes over the edge of
    the first metric it asks for (attribution.attribute)."""
    exact = list(tree.exact)
    for edge in model_edges(metrics):
        if edge.parent not in {e.parent for e in exact}:
            exact.append(edge)
    return tree.model_copy(update={"exact": exact})


def model_edges(metrics: Iterable[Metric]) -> list[ExactEdge]:
    """The exact edges the model states itself, in metric order."""
    out = []
    for m in metrics:
        edge = _ratio_edge(m) if m.type == "ratio" else _derived_edge(m) if m.type == "derived" \
            else None
        if edge is not None:
            out.append(edge)
    return out


def _plain(i: MetricInput | None) -> bool:
    """An input that is its metric as it stands: no added filter, no offset."""
    return i is not None and not i.filters and i.offset_window is None \
        and i.offset_to_grain is None


def _ratio_edge(m: Metric) -> ExactEdge | None:
    from showwork.semantic_layer.governance import ExactEdge

    n, d = m.numerator, m.denominator
    if m.filters or not _plain(n) or not _plain(d) or n is None or d is None or n.name == d.name:
        return None
    return ExactEdge(parent=m.name, op="divide", factors=[n.name, d.name])


def _derived_edge(m: Metric) -> ExactEdge | None:
    from showwork.semantic_layer.governance import ExactEdge

    if m.filters or not m.expr or not all(_plain(i) for i in m.inputs):
        return None
    refs = {i.ref: i.name for i in m.inputs}
    terms = product_terms(m.expr)
    if terms is None or not terms or any(name not in refs for name, _ in terms):
        return None
    exponents: dict[str, int] = {}
    for name, p in terms:
        exponents[refs[name]] = exponents.get(refs[name], 0) + p
    if any(p not in (1, -1) for p in exponents.values()) or len(exponents) < 2:
        return None  # a square or a metric over itself is not a decomposition into factors
    factors = list(exponents)
    if all(exponents[f] == 1 for f in factors):
        return ExactEdge(parent=m.name, op="multiply", factors=factors)
    if exponents[factors[0]] == 1 and all(exponents[f] == -1 for f in factors[1:]):
        return ExactEdge(parent=m.name, op="divide", factors=factors)
    signs: list[Literal[1, -1]] = [1 if exponents[f] > 0 else -1 for f in factors]
    return ExactEdge(parent=m.name, op="multiply", factors=factors, exponents=signs)


def product_terms(expr: str) -> list[tuple[str, int]] | None:
    """The names a product/quotient expression multiplies (+1) and divides (-1) by, numeric
    constants dropped; None for anything else (a sum, a function, a comparison).

    >>> product_terms("revenue / (orders * 1.0)")
    [('revenue', 1), ('orders', -1)]
    >>> product_terms("a - b") is None
    True
    """
    import sqlglot  # here: the attribution that imports this module runs without a parser

    try:
        tree = sqlglot.parse_one(expr, read="duckdb")
    except sqlglot.errors.ParseError:
        return None
    return _terms(tree, 1)


def _terms(node: Any, sign: int) -> list[tuple[str, int]] | None:
    from sqlglot import exp

    if isinstance(node, exp.Paren):
        return _terms(node.this, sign)
    if isinstance(node, exp.Column) and not node.table:
        return [(node.name, sign)]
    if isinstance(node, exp.Literal) and not node.is_string:
        return []
    if isinstance(node, exp.Cast):
        return _terms(node.this, sign)
    if isinstance(node, exp.Mul | exp.Div):
        left = _terms(node.this, sign)
        right = _terms(node.expression, sign if isinstance(node, exp.Mul) else -sign)
        return None if left is None or right is None else left + right
    return None
