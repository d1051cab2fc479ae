"""The difference between two cited members is held to their rows (harness/audit/gaps.py).

Generated from the rules analyst's own rankings on the flights and the shop: for each pair of
listed members, the gap their cited values give, written in the shapes a model writes it ("A
outsold B by N", "A was N ahead of B", "A had N more … than B", "B was N behind A"), exact
and hedged, is read and served; the same sentence with a gap half as large again, or the two
members swapped, is withheld. Before gaps.py every honest one was withheld as an unsupported
number (or shown unread when small: '18 flights ahead of')."""

from __future__ import annotations

import re
from itertools import combinations

import pytest
from answer_words import appended, clean_cases

_MEMBER = re.compile(r"\[\w+=(\"?)(?P<member>.*?)\1\]")

CASES = [
    ("flights", "flights_layer", "ranking-002", "flights"),  # destinations by flights
    ("flights", "flights_layer", "ranking-007", "flights"),  # carriers by flights
    ("shop", "shop_layer", "ranking-001", "units"),  # products by items sold
    ("shop", "shop_layer", "ranking-005", "orders"),  # stores by orders
]


def _rows(answer: dict) -> list[tuple[str, float]]:
    """The listed members and their cited values, largest first."""
    out = []
    for claim in answer["claims"]:
        if claim["kind"] != "measurement":
            continue
        m = _MEMBER.search(claim["sources"][0])
        assert m is not None
        out.append((m["member"], claim["value"]))
    return sorted(out, key=lambda r: -r[1])


def _say(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def _shapes(a: str, b: str, gap: str, unit: str) -> list[str]:
    return [f"{a} was ahead of {b} by {gap}.", f"{a} was {gap} {unit} ahead of {b}.",
            f"{a} had {gap} more {unit} than {b}.", f"{b} was {gap} {unit} behind {a}.",
            f"{b} had {gap} fewer {unit} than {a}."]


@pytest.mark.parametrize(("domain", "fixture", "qid", "unit"), CASES)
def test_gaps_between_cited_members(request, domain: str, fixture: str, qid: str,
                                    unit: str) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case.answer)
    assert len(rows) >= 3
    checked = 0
    for (a, va), (b, vb) in combinations(rows[:4], 2):
        if va == vb:
            continue
        gap = va - vb
        honest = _shapes(a, b, _say(gap), unit) + [
            f"{a} was about {_say(float(f'{gap:.2g}'))} {unit} ahead of {b}."]  # within 5 %
        lies = _shapes(a, b, _say(gap * 1.5 + 1), unit) + _shapes(b, a, _say(gap), unit) + [
            f"{a} was €{_say(gap)} ahead of {b}."]  # a currency the metric is not in
        for sentence in honest:
            report = appended(case, sentence)
            assert report.decision != "withhold", (sentence, report.to_json()["defects"])
            assert not any(_say(gap) in w for w in report.not_checked), (sentence,
                                                                         report.not_checked)
            checked += 1
        for sentence in lies:
            report = appended(case, sentence)
            assert report.decision == "withhold", (sentence, report.not_checked)
            checked += 1
    assert checked >= 40


def test_a_relative_gap_is_not_read_as_a_difference(shop_layer) -> None:
    """'N % more than B' is a relative gap, not a difference of values: not this reading (a
    true one is not withheld as a wrong difference)."""
    case = clean_cases(shop_layer, "shop", {"ranking-005"})["ranking-005"]
    rows = _rows(case.answer)
    (a, va), (b, vb) = rows[1], rows[2]
    said = f"{a} took {(va / vb - 1) * 100:.0f} % more orders than {b}."
    report = appended(case, said)
    assert not any("apart" in d["message"] for d in report.to_json()["defects"])


def _two_row_cases(request, domain: str, fixture: str) -> list[tuple[object, list]]:
    """The domain's clean rules answers whose measurements cite exactly two members of one
    breakdown."""
    from answer_words import QUESTIONS

    from showwork.harness.experiments.questions import load_questions

    path = QUESTIONS[domain]
    ids = {s.id for s in (load_questions(path) if path else load_questions()).questions
           if s.category in ("breakdown", "ranking", "comparison")}
    out = []
    for case in clean_cases(request.getfixturevalue(fixture), domain, ids).values():
        measured = [c for c in case.answer["claims"] if c["kind"] == "measurement"]
        found = [_MEMBER.search(c["sources"][0]) for c in measured]
        if len(measured) == 2 and all(found):
            rows = sorted(((m["member"], c["value"]) for m, c in zip(found, measured, strict=True)),
                          key=lambda r: -r[1])
            if rows[0][1] != rows[1][1]:
                out.append((case, rows))
    return out


@pytest.mark.parametrize(("domain", "fixture", "unit"), [
    ("demo", "layer", "users"), ("flights", "flights_layer", "flights"),
    ("shop", "shop_layer", "orders")])
def test_a_gap_of_two_rows_needs_no_second_member(request, domain: str, fixture: str,
                                                   unit: str) -> None:
    """'Android was ahead by 81', 'iOS trailed by 81' of a breakdown of two rows: the other row
    is the second member, and the gap is held to the two; the wrong size, or the order the
    other way, is withheld."""
    cases = _two_row_cases(request, domain, fixture)
    if not cases:
        pytest.skip(f"no clean answer of {domain} cites a breakdown of two rows")
    for case, ((a, va), (b, vb)) in cases:
        gap = _say(va - vb)
        for sentence in (f"{a} was ahead by {gap}.", f"{b} trailed by {gap}.",
                         f"{a} led by {gap}."):
            report = appended(case, sentence)
            assert report.decision != "withhold", (sentence, report.to_json()["defects"])
            assert not any(gap in w for w in report.not_checked), (sentence, report.not_checked)
        for sentence in (f"{a} was ahead by {_say((va - vb) * 1.5 + 1)}.",
                         f"{b} was ahead by {gap}.", f"{a} trailed by {gap}."):
            assert appended(case, sentence).decision == "withhold", sentence

