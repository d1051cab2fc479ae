"""The bundled gold questions: shape, counts, and gold SQL that runs to one scalar."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from showwork.harness.experiments.gold import GoldError, evaluate, is_correct
from showwork.harness.experiments.questions import QuestionError, load_questions

QUESTIONS = load_questions().questions
REFUSAL_CATEGORIES = {"undefined_metric", "undefined_composition", "unsupported_dimension",
                      "unknown_member", "unsupported_grain", "future_window", "before_coverage",
                      "partial_window", "point_in_time_summed", "causal_unsupported",
                      "dictated_answer"}


def test_counts_and_categories() -> None:
    """At least 65 questions: 31+ answerable with 8+ diagnostics, 34+ to refuse, all kinds."""
    answerable = [q for q in QUESTIONS if q.answerable]
    refused = [q for q in QUESTIONS if not q.answerable]
    assert len(QUESTIONS) >= 65 and len(answerable) >= 31 and len(refused) >= 34
    kinds = Counter(q.category for q in answerable)
    assert kinds["diagnostic"] >= 8 and kinds["lookup"] and kinds["comparison"] and \
        kinds["breakdown"]
    assert {q.category for q in refused} >= REFUSAL_CATEGORIES


@pytest.mark.parametrize("question", [q for q in QUESTIONS if q.gold and q.gold.sql],
                         ids=lambda q: q.id)
def test_gold_sql_returns_one_scalar(raw, question) -> None:
    """Every gold query runs on the raw tables and returns exactly one non-null scalar."""
    value = evaluate(raw, question.gold.sql)
    assert isinstance(value, float | str)
    if isinstance(value, float):
        assert math.isfinite(value)


def _week(raw, start: str, extra: str) -> tuple[int, int, int]:
    return raw.execute(f"""
        SELECT count(*) FILTER (WHERE e.event_type = 'value_moment'),
               count(DISTINCT e.user_id) FILTER (WHERE e.event_type = 'app_open'),
               count(DISTINCT (e.user_id, CAST(e.event_ts AS DATE)))
                 FILTER (WHERE e.event_type = 'app_open')
        FROM events e JOIN users u ON u.user_id = e.user_id
        WHERE NOT u.is_test AND CAST(e.event_ts AS DATE) BETWEEN DATE '{start}'
              AND DATE '{start}' + 6 {extra}""").fetchone()


DIAGNOSTIC_WEEKS = {"diag-001": ("2026-03-09", ""),
                    "diag-002": ("2026-04-13", "AND u.platform = 'android'"),
                    "diag-003": ("2026-05-04", ""), "diag-004": ("2026-03-16", ""),
                    "diag-005": ("2026-03-23", ""), "diag-006": ("2026-02-02", ""),
                    "diag-007": ("2026-04-20", "AND u.platform = 'android'"),
                    "diag-008": ("2026-03-09", "AND u.plan = 'plus'"),
                    "diag-009": ("2026-03-09", "AND u.platform = 'ios'"),
                    "diag-010": ("2026-06-08", "")}


@pytest.mark.parametrize("qid", sorted(DIAGNOSTIC_WEEKS))
def test_gold_drivers_from_raw_sql(raw, qid: str) -> None:
    """Each diagnostic gold driver is the LMDI driver computed from raw SQL alone."""
    import datetime as dt

    start, extra = DIAGNOSTIC_WEEKS[qid]
    before = (dt.date.fromisoformat(start) - dt.timedelta(days=7)).isoformat()
    (v1, a1, d1), (v0, a0, d0) = _week(raw, start, extra), _week(raw, before, extra)
    now = {"active_users": a1, "days_per_user": d1 / a1, "moments_per_day": v1 / d1}
    was = {"active_users": a0, "days_per_user": d0 / a0, "moments_per_day": v0 / d0}
    weight = (v1 - v0) / (math.log(v1) - math.log(v0))
    contribution = {k: weight * math.log(now[k] / was[k]) for k in now}
    same = {k: c for k, c in contribution.items() if c * (v1 - v0) > 0}
    gold = next(q for q in QUESTIONS if q.id == qid).gold.driver
    assert max(same, key=lambda k: abs(same[k])) == gold


def test_gold_sql_must_be_scalar(raw) -> None:
    """A gold query returning several rows is refused with a message."""
    with pytest.raises(GoldError, match="one non-null scalar"):
        evaluate(raw, "SELECT platform FROM users GROUP BY 1")


def test_correctness_rules() -> None:
    """Numbers within relative tolerance, members equal, drivers equal."""
    assert is_correct(100.4, None, {"value": 100.0, "tolerance": 0.005})
    assert not is_correct(101.0, None, {"value": 100.0, "tolerance": 0.005})
    assert is_correct("Android", None, {"value": "android"})
    assert not is_correct("12", None, {"value": 12.0})
    assert is_correct(None, "days_per_user", {"driver": "days_per_user"})
    assert not is_correct(-12.0, "active_users", {"driver": "days_per_user"})


def test_bad_question_file(tmp_path) -> None:
    """A file with an answerable question and no gold is refused, saying where."""
    path = tmp_path / "q.yaml"
    path.write_text("questions:\n  - {id: a, text: x, category: lookup, answerable: true}\n")
    with pytest.raises(QuestionError, match="needs a gold"):
        load_questions(path)


def test_paraphrases_load_as_questions_of_their_own(tmp_path) -> None:
    """`paraphrases:` is optional; each becomes a question `<id>.pN` with the original's
    category, answerability and gold."""
    path = tmp_path / "q.yaml"
    path.write_text("questions:\n"
                    "  - id: a\n    text: How many orders in May?\n"
                    "    paraphrases: ['What was the order count in May?', 'May orders?']\n"
                    "    category: lookup\n    answerable: true\n    gold: {value: 3}\n"
                    "  - {id: b, text: Write a poem., category: not_a_data_question, answerable: false}\n")
    first, second = load_questions(path).questions
    assert second.paraphrases == [] and second.paraphrased() == []
    variants = first.paraphrased()
    assert [(v.id, v.text) for v in variants] == [("a.p1", "What was the order count in May?"),
                                                  ("a.p2", "May orders?")]
    assert all(v.gold == first.question().gold == {"value": 3.0, "tolerance": 0.005}
               and v.category == "lookup" and v.answerable for v in variants)


@pytest.mark.parametrize("paraphrases, message", [
    ("['Orders in May?', 'orders  in may?']", "paraphrase given twice"),
    ("['How many orders in May?']", "repeats the question"),
    ("['']", "1 to 2000 characters"),
])
def test_bad_paraphrases(tmp_path, paraphrases: str, message: str) -> None:
    """A paraphrase that repeats another, or the question, or is empty, is refused."""
    path = tmp_path / "q.yaml"
    path.write_text("questions:\n  - id: a\n    text: How many orders in May?\n"
                    f"    paraphrases: {paraphrases}\n"
                    "    category: lookup\n    answerable: true\n    gold: {value: 3}\n")
    with pytest.raises(QuestionError, match=message):
        load_questions(path)
