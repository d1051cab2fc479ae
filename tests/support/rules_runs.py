"""A question file answered by the rules analyst under claims+repair and scored against its gold
over a layer's warehouse, as the new-user question files' tests measure it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gold_sql import resolved

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.harness.experiments.scores import ANSWERED, Attempt, attempt_from_trace, score
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer


def rules_attempts(layer: SemanticLayer, path: Path) -> list[Attempt]:
    """Every question of the file, answered and scored."""
    out = []
    for spec in load_questions(path).questions:
        q = spec.question()
        trace = run_attempt(q, RulesClient(), layer, Protocol.parse("claims+repair"))
        out.append(attempt_from_trace(trace, resolved(layer, q.gold), {}))
    return out


def wrong_served_clean(attempts: list[Attempt]) -> set[str]:
    """The ids of answers served with no caveat that are wrong or should have been refusals."""
    return {a.question_id for a in attempts if a.status == ANSWERED and a.decision == "serve"
            and not (a.answerable and a.correct)}


def file_tests(files: dict[str, Path], held: dict[str, tuple[int, float, set[str]]],
               layers: dict[str, str]) -> dict[str, Any]:
    """A fresh question file's tests, one pair per domain: every question answered or refused
    with a balanced accuracy at least the one held, and no wrong answer served clean beyond the
    ones listed (`held`: domain -> how many questions, the floor, those ids). Each domain's
    attempts are answered once per module (a domain whose layer skips skips alone). Put in the
    test module's namespace: `globals().update(file_tests(FILES, HELD, LAYERS))`."""
    runs: dict[str, list[Attempt]] = {}

    def attempts(request: pytest.FixtureRequest, domain: str) -> list[Attempt]:
        if domain not in runs:
            runs[domain] = rules_attempts(request.getfixturevalue(layers[domain]), files[domain])
        return runs[domain]

    @pytest.mark.parametrize("domain", list(held))
    def test_balanced_accuracy_held(request: pytest.FixtureRequest, domain: str) -> None:
        """Every question answered or refused, and a balanced accuracy at least the floor."""
        n, floor, _known = held[domain]
        got = attempts(request, domain)
        assert len(got) == n
        assert score(got)["balanced_accuracy"] >= floor

    @pytest.mark.parametrize("domain", list(held))
    def test_no_new_wrong_answer_served_clean(request: pytest.FixtureRequest,
                                              domain: str) -> None:
        """No wrong answer served clean beyond the ones listed."""
        assert wrong_served_clean(attempts(request, domain)) <= held[domain][2]

    return {"test_balanced_accuracy_held": test_balanced_accuracy_held,
            "test_no_new_wrong_answer_served_clean": test_no_new_wrong_answer_served_clean}
