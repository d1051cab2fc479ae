"""A quantifier over a breakdown is said of every row the analyst asked for, not of the rows it
chose to cite (issue 43, read as an adversary: 'every store took more than 250 orders', citing
only the four stores above 250 of the six the cited result holds, was served clean). The rows of
the cited result, cited or not, are held to the bound; 'all four' (a count: the rows named)
stays with the cited ones."""

from __future__ import annotations

import json
import math

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol

CASES = [
    ("shop_layer", "orders by store in March 2019", "store", "orders", "took more than"),
    ("flights_layer", "number of flights by origin airport in 2013", "airport", "flights",
     "had more than"),
    ("layer", "active users by platform in the week of 2 March 2026", "platform",
     "active users", "had more than"),
]


def _answer(layer, question: str):
    record = run_attempt(Question("ask", question), RulesClient(), layer, Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw and served.audit["decision"] == "serve"
    calls = [c.model_dump(mode="json") for c in record.calls if c.round <= served.round]
    return json.loads(served.answer_raw), Evidence.from_json(calls), record.catalog


@pytest.mark.parametrize(("fixture", "question", "thing", "things", "verb"), CASES)
def test_every_row_of_the_cited_result_is_held(request, fixture: str, question: str,
                                               thing: str, things: str, verb: str) -> None:
    answer, evidence, catalog = _answer(request.getfixturevalue(fixture), question)
    measured = [c for c in answer["claims"] if c["kind"] == "measurement"]
    values = sorted((c["value"] for c in measured), reverse=True)
    assert len(values) >= 3
    kept = measured[:len(values) - 1]  # every row but the smallest (listed largest first)
    assert sorted(c["value"] for c in kept) == sorted(values[:-1])
    head = answer["answer"].split(":")[0]

    def said(bound: float, claims: list) -> str:
        edited = {**answer, "claims": claims, "values": None,
                  "answer": f"{head}: every {thing} {verb} {bound:,.0f} {things}."}
        return audit(edited, evidence, catalog, None, question=question).decision

    # true of the cited rows, false of the one left uncited: withheld
    assert said(math.floor(values[-2]) - 1 if values[-2] > values[-1] + 1 else values[-1],
                kept) == "withhold"
    # true of every row, the smallest uncited: served clean
    assert said(math.floor(values[-1]) - 1, kept) == "serve"
    # all rows cited, as the analyst wrote them: the same
    assert said(math.floor(values[-1]) - 1, measured) == "serve"


SUMS = [
    ("shop_layer", "orders by store in March 2019", "stores", "took", "orders"),
    ("flights_layer", "number of flights by origin airport in 2013", "airports", "had", "flights"),
    ("layer", "reminders sent by platform in March 2026", "platforms", "had", "reminders sent"),
]


@pytest.mark.parametrize(("fixture", "question", "things", "verb", "metric"), SUMS)
def test_a_sum_and_a_share_of_the_whole_are_of_every_row(request, fixture: str, question: str,
                                                         things: str, verb: str,
                                                         metric: str) -> None:
    """'All stores together took N', 'Online took P % of the orders': the whole is every row of
    the cited result; a sum (or share) of the cited rows alone, said of the whole, is withheld."""
    answer, evidence, catalog = _answer(request.getfixturevalue(fixture), question)
    measured = [c for c in answer["claims"] if c["kind"] == "measurement"]
    kept = measured[:-1]  # the smallest row left uncited
    every, cited = sum(c["value"] for c in measured), sum(c["value"] for c in kept)
    top = answer["values"][0]["key"]
    head = answer["answer"].split(":")[0]

    def said(sentence: str) -> str:
        edited = {**answer, "claims": kept, "values": None, "answer": f"{head}: {sentence}"}
        return audit(edited, evidence, catalog, None, question=question).decision

    assert said(f"all {things} together {verb} {cited:,} {metric}.") == "withhold"
    assert said(f"all {things} together {verb} {every:,} {metric}.") == "serve"
    lie, true = 100 * kept[0]["value"] / cited, 100 * kept[0]["value"] / every
    assert abs(lie - true) > 1
    assert said(f"{top} {verb} {lie:.0f} % of the {metric}.") == "withhold"
    assert said(f"{top} {verb} {true:.0f} % of the {metric}.") == "serve"
    # a range of the whole: from the smallest row of the result, not of the cited ones
    low, high = kept[-1]["value"], kept[0]["value"]
    assert said(f"the {things} ranged from {low:,} to {high:,} {metric}.") == "withhold"
    assert said(f"the {things} ranged from {measured[-1]['value']:,} to {high:,} {metric}.") \
        == "serve"


@pytest.mark.parametrize(("fixture", "question", "thing", "things", "verb"), CASES)
def test_k_of_m_counts_the_results_rows(request, fixture: str, question: str, thing: str,
                                        things: str, verb: str) -> None:
    """'k of the M stores' with M the rows of the cited result, fewer of them cited: held to
    the result's rows (it was read of no breakdown, and its bound as a stray number)."""
    answer, evidence, catalog = _answer(request.getfixturevalue(fixture), question)
    measured = [c for c in answer["claims"] if c["kind"] == "measurement"]
    kept, m = measured[:-1], len(measured)
    bound = math.floor(measured[-1]["value"]) - 1 if measured[-1]["value"] > 1 else 0
    head = answer["answer"].split(":")[0]

    def said(k: int) -> str:
        sentence = f"{k} of the {m} {thing}s {verb} {bound:,} {things}."
        edited = {**answer, "claims": kept, "values": None, "answer": f"{head}: {sentence}"}
        return audit(edited, evidence, catalog, None, question=question).decision

    assert said(m) == "serve"       # every row meets it, the uncited one too
    assert said(m - 1) == "withhold"
