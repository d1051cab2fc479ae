"""A question file answered by the rules analyst under claims+repair and scored against its gold,
as the fresh-file tests of issue 42 measure it."""

from __future__ import annotations

from pathlib import Path

from gold_sql import resolved

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.harness.experiments.scores import ANSWERED, Attempt, attempt_from_trace
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer


def rules_attempts(layer: SemanticLayer, path: Path) -> list[Attempt]:
    """Every question of the file, answered by the rules analyst under claims+repair and scored
    against its gold over the layer's warehouse."""
    out = []
    for spec in load_questions(path).questions:
        q = spec.question()
        trace = run_attempt(q, RulesClient(), layer, Protocol.parse("claims+repair"))
        out.append(attempt_from_trace(trace, resolved(layer, q.gold), {}))
    return out


def wrong_served_clean(attempts: list[Attempt]) -> list[str]:
    """The ids of answers served clean that are wrong, or that should have been refusals."""
    return [a.question_id for a in attempts if a.status == ANSWERED and a.decision == "serve"
            and not (a.answerable and a.correct)]
