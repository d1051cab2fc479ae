"""Exact attribution of a change across multiplicative factors (LMDI).

For y = x1 · x2 · … · xn, the LMDI-I contribution of factor i to Δy is
L(y1, y0) · ln(xi1 / xi0), where L is the logarithmic mean; the contributions sum to Δy exactly.
"""

from __future__ import annotations

import math


def log_mean(a: float, b: float) -> float:
    """The logarithmic mean L(a, b) = (a - b) / (ln a - ln b), with L(a, a) = a.

    >>> round(log_mean(2.0, 1.0), 6)
    1.442695
    """
    if a <= 0 or b <= 0:
        raise ValueError("LMDI needs positive values")
    return a if math.isclose(a, b, rel_tol=1e-12) else (a - b) / (math.log(a) - math.log(b))


def lmdi(current: dict[str, float], previous: dict[str, float], total_now: float,
         total_before: float) -> dict[str, float]:
    """Each factor's additive contribution to total_now - total_before.

    >>> c = lmdi({"a": 4.0, "b": 3.0}, {"a": 2.0, "b": 3.0}, 12.0, 6.0)
    >>> round(c["a"], 9), round(c["b"], 9)
    (6.0, 0.0)
    """
    weight = log_mean(total_now, total_before)
    return {f: weight * math.log(current[f] / previous[f]) for f in current}


def driver(contributions: dict[str, float], change: float) -> str | None:
    """The factor whose contribution has the sign of the change and the largest magnitude."""
    same_sign = {f: c for f, c in contributions.items() if c * change > 0}
    return max(same_sign, key=lambda f: abs(same_sign[f])) if same_sign else None
