"""Issue 28's lies the audit served clean and the honest rounding it withheld, on rules answers of
the demo and the shop: the headline's shape (a change; the top member's value), a series'
universals of direction, superlatives over time, and hedged or bounded numbers."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from showwork.benchmarks.adversary import ends
from showwork.benchmarks.audit import Case, case_report, cases_of, rules_traces
from showwork.harness.experiments.questions import load_questions

ROOT = Path(__file__).resolve().parents[2]
CATEGORIES = ("lookup", "comparison", "series", "ranking", "breakdown")


def _by_category(layer: Any, questions: list[Any]) -> dict[str, list[Case]]:
    picked = [q.question() for q in questions if q.answerable and q.category in CATEGORIES]
    out: dict[str, list[Case]] = {}
    for case in cases_of(rules_traces(layer, picked)):
        out.setdefault(case.category or "", []).append(case)
    return out


@pytest.fixture(scope="module")
def demo(layer) -> dict[str, list[Case]]:
    return _by_category(layer, load_questions().questions)


@pytest.fixture(scope="module")
def shop(shop_layer) -> dict[str, list[Case]]:
    return _by_category(shop_layer, load_questions(
        ROOT / "examples" / "shop" / "questions.yaml").questions)


@pytest.fixture(scope="module", params=["demo", "shop"])
def domain(request, demo, shop) -> dict[str, list[Case]]:
    return {"demo": demo, "shop": shop}[request.param]


def _audited(case: Case, edit: Callable[[dict[str, Any]], Any]) -> tuple[str, set[str]]:
    answer = copy.deepcopy(case.answer)
    edit(answer)
    report = case_report(case, answer)
    return report.decision, {d.code for d in report.defects} | {f.code for f in report.findings}


def _prefix(words: str) -> Callable[[dict[str, Any]], None]:
    def edit(answer: dict[str, Any]) -> None:
        answer["answer"] = f"{words} {answer['answer']}"
    return edit


def _series_moves(case: Case) -> list[float]:
    values = [v["value"] for v in sorted(case.answer["values"], key=lambda v: v["key"])]
    return [b - a for a, b in zip(values, values[1:], strict=False)]


def _metric_words(case: Case) -> str:
    return case.answer["answer"].split(" by ")[0]


def test_a_comparisons_headline_set_to_a_level_is_off_shape(domain) -> None:
    """A comparison whose headline is its previous or current level (cited fields both) is
    off_question_shape; its change as the headline is served."""
    checked = 0
    for case in domain["comparison"]:
        for a, b in ends(case.answer["answer"]):
            if a.percent or b.percent:
                continue  # a rate's ends are written in percent, its level is a fraction
            for value in (a.value, b.value):
                decision, codes = _audited(case, lambda x, v=value: x.__setitem__("value", v))
                assert decision != "serve" and "off_question_shape" in codes, (case.question, value)
                checked += 1
        assert _audited(case, lambda a: None) == ("serve", set())
    assert checked >= 4


def test_a_rankings_headline_is_its_top_members_value(domain) -> None:
    """A ranking's or breakdown's headline that is another listed member's value is
    off_question_shape; the top member's value is served."""
    cases = [c for key in ("ranking", "breakdown") for c in domain.get(key, [])
             if len(c.answer.get("values") or []) >= 2]
    assert cases
    for case in cases:
        top, second = case.answer["values"][:2]
        if top["value"] == second["value"]:
            continue
        decision, codes = _audited(case, lambda a, v=second["value"]: a.__setitem__("value", v))
        assert decision != "serve" and "off_question_shape" in codes, case.question
        assert _audited(case, lambda a, v=top["value"]: a.__setitem__("value", v)) == (
            "serve", set()), case.question


def test_a_series_said_to_move_against_its_rows_is_withheld(domain) -> None:
    """'fell every week' of a series with a rise (or 'rose steadily' of one with a fall) is a
    direction_mismatch, withheld; the true universal is served."""
    checked = 0
    for case in domain["series"]:
        moves = _series_moves(case)
        metric = _metric_words(case)
        for word, against in (("rose", lambda m: m <= 0), ("fell", lambda m: m >= 0)):
            for phrase in (f"{word} every week.", f"{word} steadily.", f"{word} month after month."):
                decision, codes = _audited(case, _prefix(f"{metric} {phrase}"))
                if any(against(m) for m in moves):
                    assert decision == "withhold" and "direction_mismatch" in codes, phrase
                    checked += 1
                else:
                    assert (decision, codes) == ("serve", set()), (case.question, phrase)
    assert checked >= 3


def test_a_universal_over_rows_not_cited_is_unbacked(domain) -> None:
    """A universal of direction or a superlative over time in an answer citing one period is
    unbacked_comparison (never served clean)."""
    for case in domain["lookup"][:4]:
        for words in ("It rose every week.", "It was an all-time high.", "It was a record.",
                      "That is the highest ever."):
            decision, codes = _audited(case, _prefix(words))
            assert decision != "serve" and "unbacked_comparison" in codes, (case.question, words)


def test_hedged_and_bounded_levels(domain) -> None:
    """A level hedged at the precision of its zeros ('about 11,000' of 11,343) and a bound it
    meets ('more than 11,000') are served; a bare rounded '11,000', a bound it does not meet
    ('more than 12,000', 'under 11,000') are withheld."""
    checked = 0
    for case in domain["lookup"]:
        value = case.answer.get("value")
        text = case.answer["answer"]
        if not isinstance(value, int) or value < 1000 or f"{value:,}" not in text:
            continue
        unit = 10 ** (len(str(value)) - 2)  # two significant digits
        if value % unit == 0:
            continue  # written round already: no bound of it is true at its precision
        down, up = value // unit * unit, (value // unit + 1) * unit
        near = down if value - down < up - value else up

        def said(words: str, text: str = text, value: int = value
                 ) -> Callable[[dict[str, Any]], None]:
            return lambda a: a.__setitem__("answer", text.replace(f"{value:,}", words, 1))

        for words in (f"about {near:,}", f"roughly {near:,}", f"more than {down:,}",
                      f"under {up:,}", f"~{near:,}"):
            assert _audited(case, said(words)) == ("serve", set()), (case.question, words)
        for words in (f"{near:,}", f"more than {up:,}", f"under {down:,}",
                      f"about {near + 2 * unit + unit // 10:,}"):
            assert _audited(case, said(words))[0] == "withhold", (case.question, words)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("text", [
    "Active users fell every week", "rose each  month", "grew week after week",
    "declined steadily", "rose consistently", "fell continuously", "rose continually",
    "rose without a break", "rose for 3 weeks in\na row", "fell 4 straight months",
    "rose 3 consecutive weeks", "an all-time high of 5", "an ALL TIME low",
    "the highest ever", "the lowest on record", "the most in history", "a record 171,793",
    "never been higher"])
def test_the_prefilter_hides_no_phrase_the_readers_match(text: str) -> None:
    """Every phrase family of the two readers passes the cue prefilter and matches."""
    from showwork.harness.audit.trends import _RECORD, _UNIVERSAL, _speaks_of_periods
    assert _UNIVERSAL.search(text) or _RECORD.search(text)
    assert _speaks_of_periods(text)
