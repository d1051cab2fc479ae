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
