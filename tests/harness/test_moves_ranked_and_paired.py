"""Two readings of a breakdown of changes, read as an adversary would edit one (issue 43).

A superlative of a move ('JFK fell the most', 'Toronto had the biggest drop', 'Online rose the
least') ranks the members by the move's size among those that moved that way: before, the
signed change was ranked, so every true sentence of a fall was withheld (the biggest fall is the
most negative change, ranked last) and 'LGA fell the most' (the smallest fall) was served with a
caveat. And a list of members with a list of as many numbers ('Online and Brooklyn had 1,378 and
269 orders', '… 10.3 % and 5.39 % respectively') pairs them in order: before, each number was
the last member's named before it, so the true sentence was withheld and the swapped one
('Online and Brooklyn had 269 and 1,378 orders') served clean.

The sentences are generated from the cited rows of each domain's answer, not hand-picked."""

from __future__ import annotations

import pytest
from appended import clean_answer, decision_with

CHANGES = [
    ("shop_layer", "How did orders change from June to July 2019 at each store?", "store"),
    ("flights_layer", "How did flights change from January to February 2013 at each origin "
                      "airport?", "origin"),
]


def _changes(calls: list, dimension: str) -> dict[str, float]:
    """Each member's cited change (the comparison's pct_change), by its key."""
    result = next(c["result"] for c in calls if c["tool"] in ("query", "compare")
                  and c.get("result"))
    metric = result["metrics"][0]
    return {str(r["key"][dimension]): r["values"][metric]["pct_change"] for r in result["rows"]}


@pytest.mark.parametrize(("fixture", "question", "dimension"), CHANGES)
def test_a_superlative_of_a_move_ranks_its_size(request, fixture: str, question: str,
                                                dimension: str) -> None:
    answer, evidence, catalog, calls = clean_answer(request.getfixturevalue(fixture), question)
    changes = _changes(calls, dimension)
    falls = {m: v for m, v in changes.items() if v < 0}
    rises = {m: v for m, v in changes.items() if v > 0}
    assert len(falls) >= 2 or len(rises) >= 2
    truths = {}
    if len(falls) >= 2:
        truths[f"{min(falls, key=falls.__getitem__)} fell the most."] = True
        truths[f"{max(falls, key=falls.__getitem__)} had the smallest drop."] = True
        truths[f"{max(falls, key=falls.__getitem__)} fell the most."] = False
        truths[f"{min(falls, key=falls.__getitem__)} had the smallest drop."] = False
    if len(rises) >= 2:
        truths[f"{max(rises, key=rises.__getitem__)} rose the most."] = True
        truths[f"{min(rises, key=rises.__getitem__)} rose the most."] = False
    if falls:  # a member that fell said to have risen the most
        truths[f"{next(iter(falls))} rose the most."] = False
    for sentence, true in truths.items():
        decision = decision_with(answer, evidence, catalog, question, sentence)
        assert decision == ("serve" if true else "withhold"), (sentence, decision)


@pytest.mark.parametrize(("fixture", "question", "dimension"), [
    *CHANGES,
    ("shop_layer", "How many orders did each store take in July 2019?", "store"),
    ("flights_layer", "number of flights by origin airport in 2013", "origin"),
])
def test_two_lists_pair_in_order(request, fixture: str, question: str, dimension: str) -> None:
    answer, evidence, catalog, calls = clean_answer(request.getfixturevalue(fixture), question)
    result = next(c["result"] for c in calls if c["tool"] in ("query", "compare") and c.get("result"))
    metric = result["metrics"][0]
    field = "pct_change" if "pct_change" in result["rows"][0]["values"][metric] else "value"
    rows = {str(r["key"][dimension]): r["values"][metric][field] for r in result["rows"]}
    a, b = sorted(rows, key=lambda m: abs(rows[m]), reverse=True)[:2]

    def said(x: float) -> str:
        return f"{abs(x):.3g} %" if field == "pct_change" else f"{x:,.0f}"

    verb = "moved" if field == "pct_change" else "had"
    for tail in ("", " respectively"):
        true = f"{a} and {b} {verb} {said(rows[a])} and {said(rows[b])}{tail}."
        swapped = f"{a} and {b} {verb} {said(rows[b])} and {said(rows[a])}{tail}."
        assert decision_with(answer, evidence, catalog, question, true) != "withhold", true
        assert decision_with(answer, evidence, catalog, question, swapped) == "withhold", swapped


@pytest.mark.parametrize(("fixture", "question", "sentence"), [
    ("shop_layer", "How many orders did each store take in July 2019?", "Online had the biggest drop."),
    ("flights_layer", "number of flights by origin airport in 2013", "EWR had the biggest decline."),
])
def test_a_move_word_beside_levels_is_not_read(request, fixture: str, question: str,
                                               sentence: str) -> None:
    """Where no change is cited, the word of motion beside a superlative is held by nothing: it
    stays unread (a caveat), and the superlative of the levels is held as before (a metric named
    'Loss Payment Amount' after 'the highest' is no fall: the s17 corpus's rank swap)."""
    answer, evidence, catalog, _calls = clean_answer(request.getfixturevalue(fixture), question)
    assert decision_with(answer, evidence, catalog, question, sentence) == "serve_with_caveats"
