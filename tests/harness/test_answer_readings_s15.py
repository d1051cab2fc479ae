"""What session 15's held-out edits (tests/harness/data/held_out_s15.yaml) found in the
answer's words, each case generated from the rules analyst's clean answers on two domains or
more (the quantifiers' and the gaps' new shapes: test_quantifier_exceptions.py and
test_member_gaps.py; a currency read from column names: tests/semantic_layer/
test_currency_names.py).

- A month written by its place in the year ('in the third month of 2026'): read as that month
  (protocol/periods.py `written_dates`), held to the cited window like any other.
- A change's ends written in the prose the other way round ('fell 16.0 % (2.35 → 2.80)' of a
  fall from 2.80): served clean, while a claim's text was held; now `direction_mismatch`.
"""

from __future__ import annotations

import re

import pytest
from answer_words import clean_cases

from showwork.benchmarks.audit import case_report

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth", "eleventh", "twelfth")
_MONTH = re.compile(r"in ((January|February|March|April|May|June|July|August|September|"
                    r"October|November|December) (\d{4}))")
_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


@pytest.mark.parametrize(("domain", "fixture", "qid"), [
    ("demo", "layer", "lookup-002"), ("shop", "shop_layer", "lookup-002"),
    ("flights", "flights_layer", "level-001")])
def test_a_month_by_its_place_in_the_year(request, domain: str, fixture: str, qid: str) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    prose = case.answer["answer"]
    found = _MONTH.search(prose)
    assert found is not None, prose
    place = _NAMES.index(found.group(2))
    honest = prose.replace(found.group(1), f"the {_ORDINALS[place]} month of {found.group(3)}")
    report = case_report(case, {**case.answer, "answer": honest})
    assert report.decision == "serve", (honest, report.not_checked)
    other = _ORDINALS[(place + 1) % 12]
    lie = prose.replace(found.group(1), f"the {other} month of {found.group(3)}")
    report = case_report(case, {**case.answer, "answer": lie})
    assert report.decision == "withhold"
    assert "mislabelled_window" in {f.code for f in report.findings}


_ENDS = re.compile(r"\((?P<a>[^()→]+?) → (?P<b>[^()→]+?)\)")


@pytest.mark.parametrize(("domain", "fixture", "qid"), [
    ("demo", "layer", "compare-001"), ("shop", "shop_layer", "compare-002"),
    ("flights", "flights_layer", "change-002")])
def test_a_changes_ends_the_other_way_round_in_the_prose(request, domain: str, fixture: str,
                                                         qid: str) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    prose = case.answer["answer"]
    ends = _ENDS.search(prose)
    assert ends is not None, prose
    swapped = prose.replace(ends.group(0), f"({ends['b']} → {ends['a']})")
    report = case_report(case, {**case.answer, "answer": swapped})
    assert report.decision == "withhold"
    assert "direction_mismatch" in {f.code for f in report.findings}
    words = prose.replace(ends.group(0), f"(from {ends['a']} to {ends['b']})")
    assert case_report(case, {**case.answer, "answer": words}).decision != "withhold"


_ROW = re.compile(r"\[\w+=(\"?)(?P<member>.*?)\1\]")


@pytest.mark.parametrize(("domain", "fixture", "qid", "noun"), [
    ("shop", "shop_layer", "breakdown-002", "orders"),
    ("flights", "flights_layer", "breakdown-004", "flights")])
def test_two_members_share_of_the_whole_together(request, domain: str, fixture: str, qid: str,
                                                  noun: str) -> None:
    """'A and B together made up 77.2 % of the orders': the two rows' sum over the whole the
    breakdown adds to (sums.py `_shares`, which held one member only)."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = sorted(((m["member"], float(c["value"])) for c in case.answer["claims"]
                   if c["kind"] == "measurement" and (m := _ROW.search(c["sources"][0]))),
                  key=lambda r: -r[1])
    (a, va), (b, vb) = rows[0], rows[1]
    share = (va + vb) / sum(v for _, v in rows) * 100
    prose = case.answer["answer"]
    for sentence, served in ((f"{a} and {b} together made up {share:.1f} % of the {noun}.", True),
                             (f"{a} and {b} combined accounted for {share + 8:.1f} % of the "
                              f"{noun}.", False)):
        report = case_report(case, {**case.answer, "answer": f"{prose} {sentence}"})
        assert (report.decision == "serve") == served, (sentence, report.not_checked)
        assert served or report.decision == "withhold"


_PARTS = {1 / 4: "a quarter", 1 / 3: "a third", 1 / 2: "half", 2 / 3: "two thirds",
          3 / 4: "three quarters"}


@pytest.mark.parametrize(("domain", "fixture", "qid", "noun"), [
    ("shop", "shop_layer", "breakdown-002", "orders"),
    ("shop", "shop_layer", "breakdown-001", "revenue"),
    ("flights", "flights_layer", "breakdown-004", "flights")])
def test_a_part_of_the_whole_is_the_nearest_common_part(request, domain: str, fixture: str,
                                                        qid: str, noun: str) -> None:
    """'Online took about two thirds of the orders' (68.6 %) is read; 'three quarters' of the
    same share is withheld, though within the part's tolerance: two thirds is nearer
    (protocol/numbers.py COMMON_PARTS). The rows' largest share and its two nearest parts."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = sorted(((m["member"], float(c["value"])) for c in case.answer["claims"]
                   if c["kind"] == "measurement" and (m := _ROW.search(c["sources"][0]))),
                  key=lambda r: -r[1])
    top, value = rows[0]
    share = value / sum(v for _, v in rows)
    nearest, second = sorted(_PARTS, key=lambda p: abs(p - share))[:2]
    if abs(nearest - share) > 0.25 * nearest:
        pytest.skip(f"{top}'s share {share:.1%} is near no common part")
    prose = case.answer["answer"]

    def decided(part: float) -> str:
        sentence = f"{top} took about {_PARTS[part]} of the {noun}."
        return case_report(case, {**case.answer, "answer": f"{prose} {sentence}"}).decision

    assert decided(nearest) == "serve", (share, _PARTS[nearest])
    assert decided(second) == "withhold", (share, _PARTS[second])
