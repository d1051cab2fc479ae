"""The rules analyst on a public dbt project nobody here tuned for (conformance/projects/
dbt-metricflow-intro), over the new-user questions written from its catalog and data before
reading the reader (conformance/questions/intro_s12.yaml, issue 42): the figures measured on
them are held."""

from __future__ import annotations

from pathlib import Path

import pytest
from gold_sql import resolved

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.harness.experiments.scores import ANSWERED, Attempt, attempt_from_trace, score
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "conformance" / "questions" / "intro_s12.yaml"


@pytest.fixture(scope="module")
def attempts(intro_layer: SemanticLayer) -> list[Attempt]:
    """Every question of the file, answered by the rules analyst under claims+repair."""
    out = []
    for spec in load_questions(QUESTIONS).questions:
        q = spec.question()
        trace = run_attempt(q, RulesClient(), intro_layer, Protocol.parse("claims+repair"))
        out.append(attempt_from_trace(trace, resolved(intro_layer, q.gold), {}))
    return out


def test_balanced_accuracy_on_the_intro_questions(attempts) -> None:
    """Balanced accuracy is at least 0.88 (0.61 before session 12: the project's metrics are
    named total_revenue and total_orders, and 'revenue' and 'orders' named neither)."""
    assert len(attempts) == 61
    assert score(attempts)["balanced_accuracy"] >= 0.88


def test_no_wrong_answer_is_served_clean(attempts) -> None:
    """No answer that is wrong, or that should have been a refusal, is served clean."""
    wrong = [a.question_id for a in attempts if a.status == ANSWERED and a.decision == "serve"
             and not (a.answerable and a.correct)]
    assert wrong == []
