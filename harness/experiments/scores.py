"""Scores over attempts (DESIGN.md, "Scores"), per configuration."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from showwork.harness.audit.types import SCOPE_CODES
from showwork.harness.experiments.gold import is_correct, values_of
from showwork.harness.experiments.stats import stdev, wilson
from showwork.traces import TraceRecord

ANSWERED, REFUSED, MALFORMED, ERRORED = "answered", "refused", "malformed", "errored"


@dataclass(frozen=True)
class Attempt:
    """One question × repeat × configuration, as scored."""

    question_id: str
    config: str
    repeat: int
    answerable: bool
    category: str | None
    status: str
    """answered, refused, malformed or errored (no served answer: the stop reason says why)."""
    value: Any
    driver: str | None
    correct: bool
    graphed: bool
    grounded: bool | None
    claims: int
    broken_citations: int
    findings: list[str]
    decision: str | None
    stop_reason: str
    input_tokens: int
    cached_tokens: int
    output_tokens: int
    cost_usd: float | None
    latency_s: float
    simulated: bool
    scope_checked: bool | None = None
    """The served answer's scope was checked in full against the question (None: no audit)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def load_prices(path: Path | None = None) -> dict[str, dict[str, float]]:
    path = path or Path(str(resources.files("showwork.harness.experiments") / "prices.yaml"))
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def cost(model: str, input_tokens: int, cached: int, output: int,
         prices: dict[str, dict[str, float]]) -> float | None:
    key = model.removeprefix("openai:").split("?")[0].split(":")[0]
    price = prices.get(key)
    if price is None:
        return None
    fresh = max(0, input_tokens - cached)
    return (fresh * price["input"] + cached * price.get("cached_input", price["input"])
            + output * price["output"]) / 1e6


def attempt_from_trace(trace: TraceRecord, gold: dict[str, Any] | None,
                       prices: dict[str, dict[str, float]]) -> Attempt:
    served = trace.served()
    audit = served.audit if served else None
    if audit is None:
        status = ERRORED
    else:
        status = {"answered": ANSWERED, "refused": REFUSED}.get(audit["status"], MALFORMED)
    value = audit.get("value") if audit else None
    driver = audit.get("driver") if audit else None
    findings = [f["code"] for f in audit["findings"]] if audit else []
    u = trace.usage
    return Attempt(
        question_id=trace.question.id, config=trace.config, repeat=trace.repeat,
        answerable=bool(trace.question.answerable), category=trace.question.category,
        status=status, value=value, driver=driver,
        correct=status == ANSWERED and is_correct(
            value, driver, gold, values=values_of(served.answer_raw if served else None)),
        graphed=bool(audit and audit["graphed"]), grounded=audit["grounded"] if audit else None,
        claims=len(audit["claims"]) if audit else 0,
        broken_citations=len(audit["defects"]) if audit else 0, findings=findings,
        decision=audit["decision"] if audit else None, stop_reason=trace.stop_reason,
        input_tokens=u.input_tokens, cached_tokens=u.cached_tokens, output_tokens=u.output_tokens,
        cost_usd=cost(trace.model, u.input_tokens, u.cached_tokens, u.output_tokens, prices),
        latency_s=trace.elapsed_s, simulated=trace.simulated,
        scope_checked=audit.get("scope_checked") if audit else None)


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"rate": k / n if n else None, "k": k, "n": n, "low": low, "high": high}


def score(attempts: Sequence[Attempt]) -> dict[str, Any]:
    """All scores of one configuration's attempts."""
    n = len(attempts)
    answerable = [a for a in attempts if a.answerable]
    unanswerable = [a for a in attempts if not a.answerable]
    answered_ok = [a for a in answerable if a.status == ANSWERED]
    correct = sum(1 for a in answered_ok if a.correct)
    wrong = len(answered_ok) - correct
    answered_bad = sum(1 for a in unanswerable if a.status == ANSWERED)
    refused_bad = sum(1 for a in unanswerable if a.status == REFUSED)
    graphed = [a for a in attempts if a.status == ANSWERED and a.graphed]
    grounded = sum(1 for a in graphed if a.grounded)
    diagnostic = [a for a in attempts if a.status == ANSWERED and
                  (a.category == "diagnostic" or a.driver)]
    latencies = sorted(a.latency_s for a in attempts)
    costs = [a.cost_usd for a in attempts]
    balanced = _balanced(correct, len(answerable), refused_bad, len(unanswerable))
    return {
        "attempts": n, "answerable": len(answerable), "unanswerable": len(unanswerable),
        "coverage": _rate(len(answered_ok), len(answerable)),
        "silent_error": _rate(wrong + answered_bad, n),
        "balanced_accuracy": balanced,
        "balanced_accuracy_by_repeat": _by_repeat(attempts),
        "balanced_accuracy_spread": stdev(list(_by_repeat(attempts).values())),
        "grounded_answer_rate": _rate(grounded, len(graphed)),
        "graphed_answers": len(graphed),
        "broken_citations": sum(a.broken_citations for a in attempts),
        "mislabelled_answers": sum(1 for a in attempts if "mislabelled_metric" in a.findings),
        "scope_answers": sum(1 for a in attempts if off_question(a)),
        "scope_unchecked": sum(1 for a in attempts
                               if a.status == ANSWERED and a.scope_checked is False),
        "flat_reasoning": _rate(sum(1 for a in diagnostic if "flat_reasoning" in a.findings),
                                len(diagnostic)),
        "refusals": sum(1 for a in attempts if a.status == REFUSED),
        "errored": sum(1 for a in attempts if a.status in (ERRORED, MALFORMED)),
        "errored_reasons": _count(a.stop_reason for a in attempts
                                  if a.status in (ERRORED, MALFORMED)),
        "tokens_per_attempt": {k: _mean([getattr(a, f"{k}_tokens") for a in attempts])
                               for k in ("input", "cached", "output")},
        "cost_per_attempt_usd": (None if any(c is None for c in costs) or not costs
                                 else sum(costs) / len(costs)),  # type: ignore[arg-type]
        "latency_p50_s": statistics.median(latencies) if latencies else None,
        "latency_p90_s": latencies[int(0.9 * (len(latencies) - 1))] if latencies else None,
        "simulated": any(a.simulated for a in attempts),
    }


def off_question(a: Attempt) -> bool:
    """The served answer carries a question-scope finding (it answers another question)."""
    return any(code in SCOPE_CODES for code in a.findings)


def _balanced(correct: int, answerable: int, refused: int, unanswerable: int) -> float | None:
    parts = []
    if answerable:
        parts.append(correct / answerable)
    if unanswerable:
        parts.append(refused / unanswerable)
    return sum(parts) / len(parts) if parts else None


def _by_repeat(attempts: Sequence[Attempt]) -> dict[int, float]:
    out = {}
    for repeat in sorted({a.repeat for a in attempts}):
        group = [a for a in attempts if a.repeat == repeat]
        ans = [a for a in group if a.answerable]
        una = [a for a in group if not a.answerable]
        value = _balanced(sum(1 for a in ans if a.status == ANSWERED and a.correct), len(ans),
                          sum(1 for a in una if a.status == REFUSED), len(una))
        if value is not None:
            out[repeat] = value
    return out


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out


def right(a: Attempt) -> float:
    """The per-attempt outcome behind balanced accuracy: a correct answer or a due refusal."""
    if a.answerable:
        return 1.0 if a.status == ANSWERED and a.correct else 0.0
    return 1.0 if a.status == REFUSED else 0.0
