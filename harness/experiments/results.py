"""results.json: scores per configuration, comparisons between them, and every attempt."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from showwork.harness.experiments.scores import Attempt, right, score
from showwork.harness.experiments.stats import holm, mcnemar_exact, paired_bootstrap


def build_results(attempts: list[Attempt], configs: list[str], model: str) -> dict[str, Any]:
    by_config = {c: [a for a in attempts if a.config == c] for c in configs}
    return {
        "model": model,
        "simulated": any(a.simulated for a in attempts),
        "configs": {c: score(group) for c, group in by_config.items() if group},
        "comparisons": compare_all(by_config),
        "attempts": [_attempt_row(a) for a in attempts],
    }


def _attempt_row(a: Attempt) -> dict[str, Any]:
    row = a.to_json()
    return {k: row[k] for k in ("question_id", "config", "repeat", "status", "value", "driver",
                                "correct", "grounded", "claims", "broken_citations", "findings",
                                "decision", "stop_reason", "answerable", "category",
                                "latency_s", "simulated", "scope_checked")}


def per_question(attempts: list[Attempt], outcome: Callable[[Attempt], float]
                 ) -> dict[str, float]:
    """Question id → mean outcome over its repeats (repeats kept together)."""
    sums: dict[str, list[float]] = {}
    for a in attempts:
        sums.setdefault(a.question_id, []).append(outcome(a))
    return {q: sum(v) / len(v) for q, v in sums.items()}


def _grounded(a: Attempt) -> float:
    return 1.0 if a.graphed and a.grounded else 0.0


def compare_all(by_config: dict[str, list[Attempt]]) -> list[dict[str, Any]]:
    """Every pair of configurations on the questions both ran."""
    rows: list[dict[str, Any]] = []
    for a_name, b_name in combinations([c for c, g in by_config.items() if g], 2):
        a_q, b_q = per_question(by_config[a_name], right), per_question(by_config[b_name], right)
        shared = sorted(set(a_q) & set(b_q))
        if not shared:
            continue
        xs, ys = [a_q[q] for q in shared], [b_q[q] for q in shared]
        diff, low, high = paired_bootstrap(xs, ys)
        b_count = sum(1 for x, y in zip(xs, ys, strict=True) if x >= 0.5 > y)
        c_count = sum(1 for x, y in zip(xs, ys, strict=True) if y >= 0.5 > x)
        ga = per_question(by_config[a_name], _grounded)
        gb = per_question(by_config[b_name], _grounded)
        gdiff, glow, ghigh = paired_bootstrap([ga[q] for q in shared], [gb[q] for q in shared])
        rows.append({
            "a": a_name, "b": b_name, "questions": len(shared), "outcome": "right",
            "difference": diff, "ci_low": low, "ci_high": high,
            "grounded_difference": gdiff, "grounded_ci_low": glow, "grounded_ci_high": ghigh,
            "mcnemar_b": b_count, "mcnemar_c": c_count, "p_value": mcnemar_exact(b_count, c_count),
        })
    for row, adjusted in zip(rows, holm([r["p_value"] for r in rows]), strict=True):
        row["p_holm"] = adjusted
    return rows
