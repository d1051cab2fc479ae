"""Audit benchmark: claims per second, and re-audit time over plain JSON parsing of the traces.

The traces are real trace records: the rules analyst and the noisy simulator answer every
answerable bundled question under `claims` and `claims+repair` on the demo warehouse. Those
records are then repeated (each copy with its own attempt id) until the set holds the requested
number of claims, as a long experiment with repeats would. Both passes read the same JSONL text in
one process: `parse` is json.loads of every line; `audit` is what `showwork audit` does per line
(decode the line's audit view, then re-audit its served answer; the comparison with the stored
audit is not timed).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from analyst.noisy import NoisyClient
from analyst.rules import RulesClient
from harness.attempt import reaudit, run_attempt
from harness.audit.index import CatalogIndex
from harness.questions import load_questions
from protocol.switches import Protocol
from semantic_layer import SemanticLayer, load_model
from semantic_layer import warehouse as demo_warehouse
from traces import AuditView


def real_traces(database: Path) -> list[str]:
    layer = SemanticLayer(load_model(), database)
    lines = []
    try:
        for client in (RulesClient(), NoisyClient(0.25, 0.7, 7)):
            for config in ("claims", "claims+repair"):
                for spec in load_questions().questions:
                    if spec.answerable:
                        record = run_attempt(spec.question(), client, layer,
                                             Protocol.parse(config))
                        lines.append(record.model_dump_json())
    finally:
        layer.close()
    return lines


def _claims(line: str) -> int:
    record = json.loads(line)
    served = next((r for r in record["rounds"] if r["round"] == record["served_round"]), None)
    return len(served["audit"]["claims"]) if served and served["audit"] else 0


def replicate(lines: list[str], total_claims: int) -> tuple[list[str], int]:
    counts = [_claims(line) for line in lines]
    out, claims, i = [], 0, 0
    while claims < total_claims:
        j = i % len(lines)
        record = json.loads(lines[j])
        record["attempt_id"] = f"{record['attempt_id']}-{i}"
        out.append(json.dumps(record))
        claims += counts[j]
        i += 1
    return out, claims


def _parse(lines: list[str]) -> None:
    for line in lines:
        json.loads(line)


def _audit(lines: list[str]) -> int:
    claims = 0
    for line in lines:
        report = reaudit(AuditView.decode(line))
        claims += len(report.claims) if report else 0
    return claims


def _time(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = fn()
    return time.perf_counter() - started, value


def run(home: Path, total_claims: int = 100_000, repeats: int = 3,
        progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    database = home / "demo.duckdb"
    if not database.exists():
        say("building the demo warehouse")
        demo_warehouse.build(database)
    say("recording real traces")
    distinct = real_traces(database)
    lines, claims = replicate(distinct, total_claims)
    size = sum(map(len, lines))
    parse_s, audit_s = [], []
    for i in range(repeats):
        say(f"timing, round {i + 1} of {repeats}")
        CatalogIndex.clear()  # each audit pass starts cold: the first trace reads its catalog
        parse_s.append(_time(lambda: _parse(lines))[0])
        seconds, audited = _time(lambda: _audit(lines))
        if audited != claims:
            raise RuntimeError(f"the audit pass audited {audited} claims of {claims}")
        audit_s.append(seconds)
    p, a = statistics.median(parse_s), statistics.median(audit_s)
    simulated = sum(1 for line in distinct if json.loads(line).get("simulated"))
    return {"claims": claims, "traces": len(lines), "distinct_traces": len(distinct),
            "distinct_simulated": simulated,
            "megabytes": size / 1e6, "parse_s": p, "audit_s": a, "claims_per_s": claims / a,
            "ratio": a / p, "target_ratio": 2.0}
