"""Statistics for comparing configurations: Wilson intervals, paired bootstrap, exact McNemar,
Holm correction."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion.

    >>> tuple(round(x, 4) for x in wilson(8, 10))
    (0.4902, 0.9433)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts b and c.

    >>> round(mcnemar_exact(1, 9), 4)
    0.0215
    """
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    m = len(p_values)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = round(running, 12)
    return adjusted


def paired_bootstrap(a: Sequence[float], b: Sequence[float], resamples: int = 2000,
                     seed: int = 0, level: float = 0.95) -> tuple[float, float, float]:
    """(mean difference b − a, low, high): questions resampled with replacement, pairs kept."""
    if len(a) != len(b) or not a:
        raise ValueError("paired bootstrap needs two equal, non-empty samples")
    rng = random.Random(seed)
    n = len(a)
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    tail = (1 - level) / 2
    low = means[int(tail * resamples)]
    high = means[min(resamples - 1, int((1 - tail) * resamples))]
    return sum(diffs) / n, low, high


def stdev(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
