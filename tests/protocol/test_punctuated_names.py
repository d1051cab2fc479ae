"""Members named across punctuation and rows with no member (issue 42, item 4), on the shop and
the flights: "O'Hare" is the part of one closed-list or open member's name ("O'Hare Airport",
"Chicago Ohare Intl"), "ohare airport" is the whole name without its apostrophe, and a
breakdown's row with no member is left out of the listed members and said to be."""

from __future__ import annotations

import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


def _catalog(request, name: str) -> dict:
    return request.getfixturevalue(LAYER[name]).catalog()


@pytest.mark.parametrize(("name", "text", "member"), [
    ("shop", "How much revenue did the O'Hare store make in June 2019?", "O'Hare Airport"),
    ("shop", "revenue at ohare airport in july 2019", "O'Hare Airport"),
    ("flights", "How many flights went to O'Hare in July 2013?", "Chicago Ohare Intl"),
])
def test_a_name_read_across_its_apostrophe(request, name: str, text: str, member: str) -> None:
    """The words name the one member, apostrophes aside, and nothing is left unread."""
    reading = read_text(text, _catalog(request, name))
    assert {m.member for m in reading.members} == {member}
    assert reading.unread == []


@pytest.mark.parametrize(("name", "text"), [
    ("shop", "How much revenue did the Hare store make in June 2019?"),
    ("flights", "How many flights went to Hare in July 2013?"),
])
def test_a_fragment_is_no_name(request, name: str, text: str) -> None:
    """'Hare' alone is no whole word of any name: unread, never a member."""
    reading = read_text(text, _catalog(request, name))
    assert reading.members == ()
    assert "Hare" in reading.unread


@pytest.mark.parametrize(("name", "text", "members", "dimension"), [
    ("shop", "Orders by region in 2018", 8, "region"),
    ("flights", "Flights by destination airport name in July 2013", None,
     "destination airport name"),
])
def test_a_row_with_no_member_is_not_listed(request, name: str, text: str, members, dimension
                                            ) -> None:
    """The rows without a member (orders of customers missing from the customers table,
    flights to airports missing from the airports table) are no listed member, and the answer
    says they are left out: served, with a caveat, never withheld."""
    layer = request.getfixturevalue(LAYER[name])
    served = run_attempt(Question("t", text), RulesClient(), layer,
                         Protocol.parse("claims+repair")).served()
    audit, answer = served.audit, json.loads(served.answer_raw)
    assert audit["status"] == "answered" and audit["decision"] == "serve_with_caveats"
    keys = [v["key"] for v in answer["values"]]
    assert "" not in keys and all(keys)
    if members is not None:
        assert len(keys) == members
    assert f"The rows with no {dimension} recorded are left out of the list." in audit["answer_text"]
