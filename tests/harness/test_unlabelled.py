"""`unlabelled`: a number written right after a dimension's label as (the start of) a cited
row's member is the member, not a claim; any other number stays a claim, whatever the other
cited rows' members are (the label is looked at only for a member the number could start)."""

from __future__ import annotations

from showwork.harness.audit.context import Cited
from showwork.harness.audit.numbers import Support, unlabelled
from showwork.protocol.citations import parse_citation
from showwork.protocol.numbers import claims_in
from showwork.semantic_layer.results import Result, Row

DIMS = {"flights__engines": {"label": "number of engines"}, "flights__origin": {},
        "flights__hour": {}}


def _support(members: dict[str, str], value: int) -> Support:
    row = Row(members, {"flights": {"value": value}})
    result = Result("query", ("flights",), tuple(members), (row,), (), "", "v1")
    text = "r1:flights.value"
    return Support(value, "number", text, Cited(text, parse_citation(text), result, row, value,
                                                "flights"))


def _kept(text: str, *supports: Support) -> list[str]:
    return [n.text for n in unlabelled(text, claims_in(text), supports, {"dimensions": DIMS})]


def test_member_after_its_label_is_not_a_claim() -> None:
    two = _support({"flights__engines": "2"}, 24045)
    assert _kept("Flights for number of engines 2: 24,045", two) == ["24,045"]
    # without a label, the dimension's name (its last part) reads as one
    five = _support({"flights__hour": "5"}, 1200)
    assert _kept("Flights at departure hour 5: 1,200", five) == ["1,200"]


def test_other_numbers_stay_claims() -> None:
    three = _support({"flights__engines": "3"}, 24045)
    jfk = _support({"flights__origin": "JFK"}, 24045)
    assert _kept("Flights for number of engines 2: 24,045", three, jfk) == ["2", "24,045"]
    # the member, but not after its label: a claim
    two = _support({"flights__engines": "2"}, 24045)
    assert _kept("Flights rose to 2: 24,045", two) == ["2", "24,045"]


def test_a_list_of_cited_members_is_labels() -> None:
    """A grouped claim listing its premises' rows ('37929; 40344; 41025', an order id each) names
    rows: no number. A listed number that is no cited row's member stays a claim, as does a
    member beside it that is no list of members ('rose to 2; 24,045')."""
    orders = [_support({"order": key}, 90) for key in ("37929", "40344", "41025")]
    assert _kept("37929; 40344; 41025", *orders) == []
    assert _kept("37929; 40344; 51025", *orders) == ["51025"]
    two = _support({"flights__engines": "2"}, 24045)
    assert _kept("Flights rose to 2; 24,045", two) == ["2", "24,045"]
