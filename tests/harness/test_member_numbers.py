"""A number that names a member beside its dimension's words ("number of engines 2",
"scheduled departure hour 5") is the member, not a claim: the audit never holds it to the cited
values (issue 28: three flights diagnostic answers were withheld by the engine count "2"). A
number standing alone, or beside other words, still is one. On the flights example, whose
dimensions have numeric members (engine counts, departure hours, years built)."""

from __future__ import annotations

import json

import pytest
from flights_data import FLIGHTS

from showwork.analyst.rules import RulesClient
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.numbers import read_claims
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.protocol.switches import Protocol


@pytest.fixture(scope="module")
def index(flights_layer) -> CatalogIndex:
    return CatalogIndex.build(flights_layer.catalog())


def _texts(numbers) -> list[str]:
    return [n.text for n in numbers]


@pytest.mark.slow
@pytest.mark.parametrize(("text", "claims"), [
    ("Flights rose 4.43%, most of all for number of engines 2.", ["4.43%"]),
    ("Flights rose 4.43%, most of all for number of engines 2 (23,134 → 24,159)",
     ["4.43%", "23,134", "24,159"]),
    ("Departed flights for scheduled departure hour 5 rose 3.1%", ["3.1%"]),
    # not beside its dimension's words: a number the user reads
    ("Flights rose by 2 overall, most of all for engines.", ["2"]),
    ("Flights for number of engines 2 rose 2%", ["2%"]),
])
def test_a_member_beside_its_dimension_is_not_a_claim(index, text: str, claims: list[str]
                                                       ) -> None:
    assert _texts(read_claims(index, text)) == claims


@pytest.mark.slow
def test_rules_answers_naming_an_engine_count_are_served(flights_layer) -> None:
    """The diagnostic answers that name a numeric member ("most of all for number of engines
    2") are grounded and served clean."""
    specs = [q for q in load_questions(FLIGHTS / "questions.yaml").questions
             if q.category == "diagnostic" and q.answerable]
    named = 0
    for spec in specs:
        record = run_attempt(spec.question(), RulesClient(), flights_layer,
                             Protocol.parse("claims"))
        served = record.served()
        assert served is not None and served.audit is not None
        answer = json.loads(served.answer_raw or "{}")
        if "number of engines" in answer.get("answer", ""):
            named += 1
        assert served.audit["decision"] == "serve", (spec.id, served.audit["defects"],
                                                     served.audit["findings"])
    assert named >= 3
