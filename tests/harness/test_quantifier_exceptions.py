"""An exception to a quantifier over a cited breakdown is held to the rows too
(harness/audit/quantifiers.py): 'every store but Online took fewer than 300 orders' says every
other row meets the bound and Online does not; 'no store but Online took more than 300' the
same from the other side. Before, the exception was not read: the bound was held to every row,
Online's too, and the true sentence was withheld.

Generated on the rules analyst's rankings of the shop and the flights: the largest member
excepted, a bound between it and the next, is served (its words read); the second-largest
excepted instead, or the bound on the wrong side, is withheld."""

from __future__ import annotations

import re

import pytest
from answer_words import appended, clean_cases

_MEMBER = re.compile(r"\[\w+=(\"?)(?P<member>.*?)\1\]")


def _rows(answer: dict) -> list[tuple[str, float]]:
    out = []
    for claim in answer["claims"]:
        if claim["kind"] == "measurement":
            m = _MEMBER.search(claim["sources"][0])
            assert m is not None
            out.append((m["member"], claim["value"]))
    return sorted(out, key=lambda r: -r[1])


@pytest.mark.parametrize(("domain", "fixture", "qid", "noun", "unit"), [
    ("shop", "shop_layer", "ranking-005", "store", "orders"),
    ("flights", "flights_layer", "breakdown-004", "airline", "flights"),
    ("flights", "flights_layer", "ranking-002", "destination", "flights"),
])
def test_an_exception_is_held_to_the_rows(request, domain: str, fixture: str, qid: str,
                                          noun: str, unit: str) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case.answer)
    (top, high), (second, next_high) = rows[0], rows[1]
    bound = f"{(high + next_high) / 2:,.0f}"
    honest = [f"Every {noun} but {top} had fewer than {bound} {unit}.",
              f"All the others except {top} had fewer than {bound} {unit}.",
              f"No {noun} but {top} had more than {bound} {unit}."]
    lies = [f"Every {noun} but {second} had fewer than {bound} {unit}.",
            f"Every {noun} but {top} had more than {bound} {unit}.",
            f"No {noun} but {second} had more than {bound} {unit}."]

    for sentence in honest:
        report = appended(case, sentence)
        assert report.decision != "withhold", (sentence, report.to_json()["defects"])
        assert not any(w in " ".join(report.not_checked) for w in ("but", "except", bound)), \
            (sentence, report.not_checked)
    for sentence in lies:
        assert appended(case, sentence).decision == "withhold", sentence


@pytest.mark.parametrize(("domain", "fixture", "qid", "said", "truth"), [
    ("shop", "shop_layer", "ranking-003", "Revenue for every store was at least ${low}.", "honest"),
    ("shop", "shop_layer", "ranking-003", "Revenue for every store was at least €{low}.", "lie"),
    ("shop", "shop_layer", "ranking-005", "Orders for every store were at least ${low}.", "lie"),
    ("flights", "flights_layer", "breakdown-004", "Flights for every airline were at least ${low}.",
     "lie"),
])
def test_a_bound_in_another_currency_holds_no_row(request, domain: str, fixture: str, qid: str,
                                                  said: str, truth: str) -> None:
    """A quantified bound written in a currency the cited metric is not in (euros of a dollar
    metric, dollars of a count) is held false on every row; it had been held to the values
    alone and served clean."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    low = f"{_rows(case.answer)[-1][1] // 10 * 10:,.0f}"
    decision = appended(case, said.format(low=low)).decision
    assert (decision == "withhold") == (truth == "lie"), (said, low, decision)


@pytest.mark.parametrize(("domain", "fixture", "qid", "noun", "unit"), [
    ("shop", "shop_layer", "ranking-005", "store", "orders"),
    ("flights", "flights_layer", "breakdown-004", "airline", "flights"),
])
def test_all_but_k_is_a_count_of_the_rows(request, domain: str, fixture: str, qid: str,
                                           noun: str, unit: str) -> None:
    """'All but one store had fewer than N': every row less one meets the bound (the largest
    one above it), held to how many rows do; 'all but two' of the same bound is false."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case.answer)
    (_top, high), (_second, next_high) = rows[0], rows[1]
    bound = f"{(high + next_high) / 2:,.0f}"
    honest = appended(case, f"All but one {noun} had fewer than {bound} {unit}.")
    assert honest.decision != "withhold", honest.to_json()["defects"]
    assert not any(w in " ".join(honest.not_checked) for w in ("but", "one", bound))
    for lie in (f"All but two {noun}s had fewer than {bound} {unit}.",
                f"All but one {noun} had more than {bound} {unit}."):
        assert appended(case, lie).decision == "withhold", lie


@pytest.mark.parametrize(("domain", "fixture", "qid", "noun", "unit"), [
    ("shop", "shop_layer", "ranking-005", "store", "orders"),
    ("flights", "flights_layer", "breakdown-004", "airline", "flights"),
])
def test_a_word_that_says_which_rows_leaves_the_bound_unproven(
        request, domain: str, fixture: str, qid: str, noun: str, unit: str) -> None:
    """'Every physical store had fewer than N' (N below the largest row): which stores are
    physical no reading knows, so the bound is not proven false while some row meets it —
    served with the word shown unread, never clean; where no row meets it, it is false of any
    rows the word may mean. Without the word, the bound is held to every row."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case.answer)
    (_top, high), (_second, next_high), (_last, low) = rows[0], rows[1], rows[-1]
    bound = f"{(high + next_high) / 2:,.0f}"
    restricted = appended(case, f"Every regional {noun} had fewer than {bound} {unit}.")
    assert restricted.decision == "serve_with_caveats", restricted.to_json()
    assert "regional" in " ".join(restricted.not_checked)
    assert appended(case, f"Every {noun} had fewer than {bound} {unit}.").decision == "withhold"
    below = f"{low * 0.5:,.0f}"
    assert appended(case, f"Every regional {noun} had fewer than {below} {unit}."
                    ).decision == "withhold"

