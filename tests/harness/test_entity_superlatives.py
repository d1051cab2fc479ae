"""A superlative over an entity's rows ('By plane, N328AA had the most flights', 'By order,
36175 had the highest revenue') is held as one over a dimension is (comparisons.py): the entity
is what it ranks, a cited row's key the member it names; the cited result must compare every
key, and the key named must hold the extreme. Shown on the rules analyst's own rankings by an
entity's key on two domains (the flights' tail number, the shop's order id), edited."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import showwork
from showwork.benchmarks.audit import case_report, cases_of, rules_traces
from showwork.harness.experiments.attempt import Question

QUESTIONS = {"flights": "Which tail number flew the most flights out of JFK in 2013?",
             "shop": "Which order id had the highest revenue in June 2019?"}
LAYERS = {"flights": "flights_layer", "shop": "shop_layer"}


@pytest.fixture(params=sorted(QUESTIONS))
def ranking(request) -> Any:
    """(the rules answer's case, its entity's name, the keys it lists, its superlative)."""
    domain = request.param
    layer = request.getfixturevalue(LAYERS[domain])
    (case,) = cases_of(rules_traces(layer, [Question(id="t", text=QUESTIONS[domain])]))
    (call,) = [c for c in case.calls if c.get("tool") == "query"]
    entity = call["arguments"]["group_by"][0]
    keys = [v["key"] for v in case.answer["values"]]
    word = "most" if "the most" in case.answer["answer"] else "highest"
    return case, entity, keys, word


def _said(case: Any, old: str, new: str) -> Any:
    answer = copy.deepcopy(case.answer)
    assert old in answer["answer"], (old, answer["answer"][:120])
    answer["answer"] = answer["answer"].replace(old, new, 1)
    return case_report(case, answer)


def test_the_rules_ranking_is_read_whole(ranking) -> None:
    """The answer as the rules analyst writes it is served clean: 'the most' is read."""
    case, _entity, _keys, _word = ranking
    report = case_report(case, case.answer)
    assert report.decision == "serve", [f.message for f in report.findings]


@pytest.mark.parametrize("place", [1, 2, 5])
def test_another_key_said_to_hold_the_extreme_is_withheld(ranking, place: int) -> None:
    """Naming a lower-ranked key as the one with the most: mislabelled_member, withheld, and
    the message names the key the cited rows put first."""
    case, entity, keys, word = ranking
    report = _said(case, f"{entity}, {keys[0]} had the {word}",
                   f"{entity}, {keys[place]} had the {word}")
    assert report.decision == "withhold"
    (found,) = [f for f in report.findings if f.code == "mislabelled_member"]
    assert found.evidence["cited"] == [keys[0]] and found.evidence["said"] == keys[place]


def test_the_opposite_extreme_is_withheld(ranking) -> None:
    """'had the fewest' / 'the lowest' of the top key: the cited rows rank another key last."""
    case, entity, keys, word = ranking
    other = {"most": "fewest", "highest": "lowest"}[word]
    report = _said(case, f"{keys[0]} had the {word}", f"{keys[0]} had the {other}")
    assert report.decision == "withhold"
    assert "mislabelled_member" in {f.code for f in report.findings}


def test_honest_rewrites_are_served(ranking) -> None:
    """The same ranking said otherwise, the entity's name before its key or after the
    superlative, and another superlative word: served clean."""
    case, entity, keys, word = ranking
    metric = case.answer["answer"].split(f"the {word} ", 1)[1].split(" ", 1)[0]
    for new in (f"{entity.capitalize()} {keys[0]} had the largest {metric}",
                f"By {entity}, {keys[0]} had the greatest {metric}",
                f"{entity.capitalize()} {keys[0]} had the {word} {metric} of any {entity}"):
        report = _said(case, f"By {entity}, {keys[0]} had the {word} {metric}", new)
        assert report.decision == "serve", (new, [f.message for f in report.findings])


ROWS = {"flights": ("plane", "flights", [("N725MQ", 575), ("N722MQ", 513), ("N723MQ", 507)]),
        "shop": ("order", "revenue", [("36175", 99.0), ("40671", 97.0), ("40973", 92.0)])}


@pytest.mark.parametrize("domain", sorted(ROWS))
def test_a_result_filtered_to_the_keys_named_backs_no_superlative(domain: str) -> None:
    """A result filtered to two keys compares only those: 'the most' of its first is
    unbacked_comparison, never served clean; the same rows unfiltered back it."""
    entity, metric, rows = ROWS[domain]
    kept = rows[1:]

    def report(where: list[dict[str, Any]]) -> Any:
        results = {"r1": {"metrics": [metric], "where": where,
                          "rows": [{entity: key, metric: v} for key, v in kept]}}
        catalog = {"entities": {entity: {"column": f"{entity}_id", "metrics": [metric]}},
                   "metrics": {metric: {"label": metric}}}
        claims = [{"kind": "measurement", "value": v,
                   "text": f"{metric.capitalize()} for {entity} {key} was {v:,}",
                   "sources": [f"r1[{entity}={key}]:{metric}.value"]} for key, v in kept]
        answer = {"status": "answered", "claims": claims, "value": kept[0][0],
                  "answer": f"{entity.capitalize()} {kept[0][0]} had the most {metric}."}
        return showwork.audit_answer(answer, results, catalog)

    filtered = report([{"dimension": entity, "op": "in", "values": [k for k, _ in kept]}])
    assert filtered.decision != "serve"
    assert "unbacked_comparison" in {f.code for f in filtered.findings}
    unfiltered = report([])
    assert "unbacked_comparison" not in {f.code for f in unfiltered.findings}
    assert "unread_answer" not in {f.code for f in unfiltered.findings}
