"""What session 17's held-out edits (tests/harness/data/held_out_s17.yaml) found in the answer's
words, each reading tested with a lie and an honest rewrite on two domains or more, on the rules
analyst's clean answers to the bundled questions.

- A period written right after a number inside a comparison's parenthesis ('(12,980 in March →
  17,209 in February)') is the period that number is stated of, whatever else the sentence
  names: the ends moved between the periods are mislabelled_window (withheld).
- A member written right after a dimension's words is held to that dimension ('origin airport
  LAX; destination airport JFK' of JFK → LAX is mislabelled_member, withheld).
- A percent in brackets after a cited change ('rose by 686 (about 18 %)'): its hedge is read
  inside the bracket, and the change over the previous value is derivable (not withheld).
- A period to date ('year to date', 'ytd', 'so far this year') names a cited window from its
  start to the as-of date or the day before (data to date is data through yesterday).
- An amount of money written as a count of things ('There were 1,452 cancellations' of
  Cancellations in usd, 1,452.4): a number in one unit (things counted) states no value in
  another (withheld).
"""

from __future__ import annotations

from typing import Any

import pytest

from showwork.benchmarks.audit import Case, case_report, cases_of, rules_traces
from showwork.harness.experiments.attempt import Question


def _asked(layer: Any, text: str) -> Case:
    """The rules analyst's clean answer to a question."""
    cases = cases_of(rules_traces(layer, [Question("q", text)]))
    assert cases, text
    return cases[0]


def _edited(case: Case, old: str, new: str) -> Any:
    """The audit of the clean answer with `old` replaced by `new` in the prose and every claim's
    text."""
    answer = dict(case.answer)
    assert old in answer["answer"], (old, answer["answer"])
    answer["answer"] = answer["answer"].replace(old, new)
    answer["claims"] = [{**c, "text": c["text"].replace(old, new)} for c in answer["claims"]]
    return case_report(case, answer)


def _held(request: Any, fixture: str, question: str, old: str, honest: str, lie: str,
          clean: bool = True) -> None:
    """The question's clean answer with `old` rewritten as `honest` is served (clean, or with
    caveats at most when `clean` is false); as `lie`, it is withheld."""
    case = _asked(request.getfixturevalue(fixture), question)
    assert case_report(case, case.answer).decision == "serve", case.answer["answer"]
    report = _edited(case, old, honest)
    assert report.decision == "serve" if clean else report.decision != "withhold", (
        honest, report.decision, [f.code for f in report.findings])
    report = _edited(case, old, lie)
    assert report.decision == "withhold", (lie, report.decision)


@pytest.mark.parametrize(("fixture", "question", "old", "honest", "lie"), [
    ("layer", "compare active users between february and march", "(12,980 → 17,209)",
     "(12,980 in February → 17,209 in March)", "(12,980 in March → 17,209 in February)"),
    ("shop_layer", "compare revenue between q1 and q2 2019", "($177,842.50 → $173,854.60)",
     "($177,842.50 in Q1 → $173,854.60 in Q2)", "($177,842.50 in Q2 → $173,854.60 in Q1)"),
    ("flights_layer", "compare cancellations at newark between q1 and q2", "(1,104 → 886)",
     "(1,104 in Q1 → 886 in Q2)", "(1,104 in Q2 → 886 in Q1)"),
])
def test_a_period_written_after_a_comparisons_end(request, fixture: str, question: str,
                                                  old: str, honest: str, lie: str) -> None:
    _held(request, fixture, question, old, honest, lie)


@pytest.mark.parametrize(("fixture", "question", "old", "honest", "lie"), [
    ("tutorial_layer", "cancellations in mexico, in usd", "Cancellations in Mexico were 1,452.4",
     "Cancellations in Mexico were 1,452", "There were 1,452 cancellations in Mexico"),
    ("tutorial_layer", "alterations in the week of march 14", "Alterations were 460.8",
     "Alterations were 461", "There were 461 alterations"),
    ("shop_layer", "what was the average order value in march 2019",
     "Average order value was $23.12", "Average order value was 23.12",
     "Average order value was 23.12 orders"),
])
def test_an_amount_of_money_said_as_a_count(request, fixture: str, question: str, old: str,
                                           honest: str, lie: str) -> None:
    _held(request, fixture, question, old, honest, lie)


@pytest.mark.parametrize(("fixture", "question", "old", "honest", "lie"), [
    ("flights_layer", "average air time from jfk to LAX in q3",
     "(origin airport JFK; destination airport LAX)",
     "(destination airport LAX; origin airport JFK)",
     "(origin airport LAX; destination airport JFK)"),
    ("layer", "how many active users did we have in germany last month", "(country DE)",
     "(country: DE)", "(platform DE)"),
])
def test_a_member_written_after_its_dimensions_words(request, fixture: str, question: str,
                                                     old: str, honest: str, lie: str) -> None:
    """'origin airport LAX' names origin = LAX, whichever dimension LAX alone is read as: a
    route written backwards, or a member put under another dimension, is mislabelled_member."""
    _held(request, fixture, question, old, honest, lie)


@pytest.mark.parametrize(("fixture", "question", "old", "honest", "lie"), [
    ("layer", "by how many did paid subscribers change from the end of feb to the end of april",
     "rose by 686", "rose by 686 (about 18 %)", "rose by 686 (about 28 %)"),
    ("shop_layer", "by how many dollars did revenue at the philly store change from may to june "
     "2019", "rose by $1,013.50", "rose by $1,013.50 (about 27 %)",
     "rose by $1,013.50 (about 72 %)"),
    ("flights_layer", "by how many flights did united's schedule out of ewr grow from march to "
     "april", "rose by 112", "rose by 112 (about 3 %)", "rose by 112 (about 5 %)"),
])
def test_a_changes_percent_in_brackets_after_its_difference(request, fixture: str,
                                                             question: str, old: str,
                                                             honest: str, lie: str) -> None:
    """'rose by 686 (about 18 %)' where only the change is cited: the hedge inside the bracket
    is read, and the percent is the cited row's change over its previous value (derivable.py):
    not withheld (served with caveats: the percent's words are not checked); a wrong one is."""
    _held(request, fixture, question, old, honest, lie, clean=False)


@pytest.mark.parametrize(("fixture", "question", "old", "honest", "lie"), [
    ("layer", "new users ytd", "from 1 January to 17 June 2026", "year to date",
     "month to date"),
    ("shop_layer", "sales ytd", "from 1 January to 14 August 2019",
     "year to date (1 January to 14 August 2019)", "so far this month"),
])
def test_a_period_to_date_is_data_through_the_day_before(request, fixture: str, question: str,
                                                         old: str, honest: str,
                                                         lie: str) -> None:
    """'year to date' (to the as-of date) names a cited window from the year's start to the
    as-of date or the day before (the as-of day has not closed); 'month to date' does not."""
    _held(request, fixture, question, old, honest, lie)
