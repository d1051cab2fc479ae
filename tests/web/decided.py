"""Traces with each of the four decisions, made by the rules analyst on a domain's layer (for
the browser tests of the decisions and the review queue)."""

from __future__ import annotations

import json
from typing import Any

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol
from showwork.traces import RoundRecord, TraceRecord

QUESTIONS = {
    "demo": {"clean": "How many active users did we have in the week of 2026-03-02?",
             "refused": "What was the average age of active users last month?"},
    "shop": {"clean": "What was revenue in July 2019?",
             "refused": "What was revenue by city in Q2 2019?"},
}


def contradicted(trace: TraceRecord) -> TraceRecord:
    """The clean answer with its first measurement claim's value doubled, re-audited against
    the same evidence: a value its citation does not hold, so the audit withholds it."""
    answer = json.loads(trace.served().answer_raw)
    claim = next(c for c in answer["claims"] if isinstance(c.get("value"), int | float))
    claim["value"] = claim["value"] * 2 + 1
    return reaudited(trace, answer, "w")


def reaudited(trace: TraceRecord, answer: dict[str, Any], suffix: str) -> TraceRecord:
    """`trace` serving `answer` instead, audited against the same evidence, as a new attempt."""
    report = audit(answer, Evidence.from_calls(trace.calls), trace.catalog, "lookup",
                   question=trace.question.text)
    served = RoundRecord(round=0, answer_raw=json.dumps(answer), audit=report.to_json())
    return trace.model_copy(update={"rounds": [served], "served_round": 0,
                                    "attempt_id": trace.attempt_id + suffix})


def with_prose(trace: TraceRecord, sentence: str) -> TraceRecord:
    """The served answer with `sentence` added to its prose, re-audited."""
    answer = json.loads(trace.served().answer_raw)
    answer["answer"] = f"{answer['answer']} {sentence}"
    return reaudited(trace, answer, "u")


def four(layer: Any, domain: str) -> dict[str, TraceRecord]:
    """One trace per decision on `layer`: refused, withheld, served with caveats (the baseline
    protocol: no claim graph to check), served clean."""
    rules = RulesClient()
    qs = QUESTIONS[domain]
    clean = run_attempt(Question(f"{domain}-clean", qs["clean"]), rules, layer,
                        Protocol.parse("claims+repair"))
    return {
        "refused": run_attempt(Question(f"{domain}-refused", qs["refused"]), rules, layer,
                               Protocol.parse("claims+repair")),
        "withhold": contradicted(clean),
        "serve_with_caveats": run_attempt(Question(f"{domain}-baseline", qs["clean"]), rules,
                                          layer, Protocol.parse("baseline")),
        "serve": clean,
    }
