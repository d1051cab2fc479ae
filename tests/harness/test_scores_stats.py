"""Scores on hand-built attempt sets, and statistics against textbook values."""

from __future__ import annotations

import pytest

from showwork.harness.experiments.results import compare_all
from showwork.harness.experiments.scores import Attempt, score
from showwork.harness.experiments.stats import holm, mcnemar_exact, paired_bootstrap, wilson


def attempt(qid: str, *, answerable: bool, status: str, correct: bool = False,
            graphed: bool = True, grounded: bool | None = True, repeat: int = 0,
            config: str = "claims", findings: list[str] | None = None,
            category: str = "lookup", latency: float = 1.0) -> Attempt:
    return Attempt(qid, config, repeat, answerable, category, status, None, None, correct,
                   graphed, grounded, 2, 1 if grounded is False else 0, findings or [], None,
                   "answered", 100, 20, 10, 0.001, latency, False)


def pile() -> list[Attempt]:
    """10 answerable: 6 correct answers, 2 wrong answers, 1 refusal, 1 errored;
    5 unanswerable: 3 refused, 2 answered. Of the 10 answers, 8 carry a graph, 6 grounded."""
    a = [attempt(f"a{i}", answerable=True, status="answered", correct=True) for i in range(6)]
    a += [attempt("a6", answerable=True, status="answered", grounded=False),
          attempt("a7", answerable=True, status="answered", graphed=False, grounded=None),
          attempt("a8", answerable=True, status="refused", graphed=False, grounded=None),
          attempt("a9", answerable=True, status="errored", graphed=False, grounded=None)]
    a += [attempt(f"u{i}", answerable=False, status="refused", graphed=False, grounded=None)
          for i in range(3)]
    a += [attempt("u3", answerable=False, status="answered", grounded=False),
          attempt("u4", answerable=False, status="answered", graphed=False, grounded=None)]
    return a


def test_scores_on_known_pile() -> None:
    """coverage 8/10, silent error 4/15, balanced ½(6/10+3/5), grounded 6/8 (ungraphed out)."""
    s = score(pile())
    assert s["attempts"] == 15
    assert s["coverage"]["rate"] == pytest.approx(8 / 10)
    assert s["silent_error"]["rate"] == pytest.approx((2 + 2) / 15)
    assert s["balanced_accuracy"] == pytest.approx(0.5 * (6 / 10 + 3 / 5))
    assert (s["grounded_answer_rate"]["k"], s["grounded_answer_rate"]["n"]) == (6, 8)
    assert s["graphed_answers"] == 8
    assert s["refusals"] == 4 and s["errored"] == 1
    assert s["broken_citations"] == 2


def test_ungraphed_answers_are_not_failed_audits() -> None:
    """A baseline pile (no graphs) has no grounded-answer rate, not zero."""
    s = score([attempt("a", answerable=True, status="answered", correct=True, graphed=False,
                       grounded=None)])
    assert s["grounded_answer_rate"]["rate"] is None and s["graphed_answers"] == 0


def test_flat_reasoning_rate_over_answered_diagnostics() -> None:
    """Flat reasoning counts diagnostic answers only."""
    pile_ = [attempt("d1", answerable=True, status="answered", correct=True,
                     category="diagnostic", findings=["flat_reasoning"]),
             attempt("d2", answerable=True, status="answered", correct=True,
                     category="diagnostic"),
             attempt("l1", answerable=True, status="answered", correct=True)]
    assert score(pile_)["flat_reasoning"]["rate"] == pytest.approx(0.5)


def test_spread_across_repeats() -> None:
    """Balanced accuracy per repeat, and its standard deviation."""
    pile_ = [attempt("a", answerable=True, status="answered", correct=True, repeat=0),
             attempt("a", answerable=True, status="answered", correct=False, repeat=1)]
    s = score(pile_)
    assert s["balanced_accuracy_by_repeat"] == {0: 1.0, 1: 0.0}
    assert s["balanced_accuracy_spread"] == pytest.approx(0.7071, abs=1e-4)


def test_wilson_textbook() -> None:
    """Wilson 95% for 8/10 is (0.490, 0.943); for 0/10 the lower bound is 0."""
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 3) == 0.278


def test_mcnemar_exact_textbook() -> None:
    """Exact two-sided McNemar: b=1, c=9 gives 0.0215; b=c gives 1."""
    assert mcnemar_exact(1, 9) == pytest.approx(0.021484375)
    assert mcnemar_exact(5, 5) == 1.0 and mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(0, 6) == pytest.approx(0.03125)


def test_holm_textbook() -> None:
    """Holm: sorted p × (m − rank), made monotone, capped at 1."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == [0.03, 0.06, 0.06, 0.02]
    assert holm([0.5, 0.9]) == [1.0, 1.0]


def test_paired_bootstrap() -> None:
    """A constant improvement has a degenerate interval at that value; noise widens it."""
    diff, low, high = paired_bootstrap([0.0] * 20, [1.0] * 20)
    assert (diff, low, high) == (1.0, 1.0, 1.0)
    diff, low, high = paired_bootstrap([0, 1] * 10, [1, 1] * 10, seed=3)
    assert diff == 0.5 and low < 0.5 < high


def test_comparisons_pair_questions_and_holm() -> None:
    """Comparisons pair by question (repeats averaged) and carry Holm-adjusted p-values."""
    a = [attempt(f"q{i}", answerable=True, status="answered", correct=i < 3, config="a")
         for i in range(10)]
    b = [attempt(f"q{i}", answerable=True, status="answered", correct=True, config="b")
         for i in range(10)]
    (row,) = compare_all({"a": a, "b": b})
    assert (row["mcnemar_b"], row["mcnemar_c"]) == (0, 7)
    assert row["p_value"] == pytest.approx(mcnemar_exact(0, 7))
    assert row["difference"] == pytest.approx(0.7) and row["p_holm"] == row["p_value"]
