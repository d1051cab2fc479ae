"""Audit benchmark: claims per second, and audit time over plain JSON parsing of the same traces.

Traces are generated deterministically: each carries its governed calls (typed results with SQL
and coverage), the catalog snapshot and an answer of about twenty claims, like a stored run.
Both passes read the same JSONL text in one process, so the ratio is measured side by side.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from harness.audit import Evidence, audit
from semantic_layer import load_model
from semantic_layer.catalog import build_catalog
from semantic_layer.results import Result, Row

PLATFORMS = ("android", "ios", "web")


def _cmp(rng: random.Random) -> dict[str, float]:
    now, before = rng.uniform(1, 5e4), rng.uniform(1, 5e4)
    return {"value": now, "previous": before, "delta": now - before,
            "pct_change": (now - before) / before * 100}


def _calls(rng: random.Random) -> list[dict[str, Any]]:
    cov = {"requested": {"start": "2026-03-09", "end": "2026-03-15"},
           "covered": {"start": "2026-03-09", "end": "2026-03-15"}, "partial": False}
    metrics = ("weekly_value_moments", "active_users", "days_per_user", "moments_per_day")
    tree = Result("compare", metrics, (), (Row({}, {m: _cmp(rng) for m in metrics}),),
                  (cov, cov), "SELECT … " * 60, "demo-2026.06")
    split = Result("compare", ("days_per_user", "reminder_open_rate"), ("platform",), tuple(
        Row({"platform": p}, {"days_per_user": _cmp(rng), "reminder_open_rate": _cmp(rng)})
        for p in PLATFORMS), (cov, cov), "SELECT … " * 60, "demo-2026.06")
    return [{"tool": r.kind, "arguments": {"metrics": list(r.metrics)}, "handle": i,
             "result": r.to_json(), "error": None} for i, r in enumerate((tree, split), 1)]


def _answer(rng: random.Random, calls: list[dict[str, Any]], n_claims: int) -> dict[str, Any]:
    claims: list[dict[str, Any]] = []
    tree_row = calls[0]["result"]["rows"][0]["values"]
    split_rows = calls[1]["result"]["rows"]
    while len(claims) < n_claims - 1:
        if rng.random() < 0.5:
            metric = rng.choice(list(tree_row))
            field = rng.choice(["value", "previous", "delta", "pct_change"])
            value, source = tree_row[metric][field], f"r1:{metric}.{field}"
        else:
            row = rng.choice(split_rows)
            metric = rng.choice(["days_per_user", "reminder_open_rate"])
            value = row["values"][metric]["pct_change"]
            source = f"r2[platform={row['key']['platform']}]:{metric}.pct_change"
        label = metric.replace("_", " ")
        claims.append({"text": f"{label.capitalize()} moved", "kind": "measurement",
                       "sources": [source], "value": _stated(value)})
    claims.append({"text": "Weekly value moments moved because of days per user",
                   "kind": "causal", "premises": [f"c{i}" for i in range(1, len(claims) + 1)][:5]
                   + ["tree:weekly_value_moments>days_per_user"]})
    return {"status": "answered", "answer": "…", "value": None, "driver": "days_per_user",
            "refusal_reason": None, "claims": claims}


def _stated(value: float) -> float:
    """How an analyst would write the value: two decimals, or four significant digits."""
    return round(value, 2) if abs(value) >= 1 else float(f"{value:.4g}")


def make_traces(total_claims: int, claims_per_trace: int = 20, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    catalog = build_catalog(load_model())
    lines = []
    for i in range(max(1, total_claims // claims_per_trace)):
        calls = _calls(rng)
        record = {"schema_version": 1, "attempt_id": f"bench-{i}", "catalog": catalog,
                  "question": {"id": f"q{i}", "text": "Why did it move?",
                               "category": "diagnostic"},
                  "calls": calls, "answer": _answer(rng, calls, claims_per_trace)}
        lines.append(json.dumps(record))
    return lines


def _parse_only(lines: list[str]) -> int:
    return sum(len(json.loads(line)["answer"]["claims"]) for line in lines)


def _audit_all(lines: list[str]) -> int:
    claims = 0
    for line in lines:
        record = json.loads(line)
        report = audit(record["answer"], Evidence.from_json(record["calls"]), record["catalog"],
                       record["question"]["category"])
        if report.defects:
            raise AssertionError(f"benchmark traces must be clean: {report.defects[0].message}")
        claims += len(report.claims)
    return claims


def _time(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def run(total_claims: int = 100_000, repeats: int = 3,
        progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    say(f"generating traces with {total_claims:,} claims")
    lines = make_traces(total_claims)
    claims = _parse_only(lines)
    parse_s, audit_s = [], []
    for i in range(repeats):
        say(f"round {i + 1} of {repeats}")
        parse_s.append(_time(lambda: _parse_only(lines)))
        audit_s.append(_time(lambda: _audit_all(lines)))
    p, a = statistics.median(parse_s), statistics.median(audit_s)
    return {"claims": claims, "traces": len(lines), "bytes": sum(map(len, lines)),
            "parse_s": p, "audit_s": a, "claims_per_s": claims / a, "ratio": a / p,
            "target_ratio": 2.0}
