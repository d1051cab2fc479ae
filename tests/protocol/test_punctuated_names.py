"""Members named across punctuation and in the plural, metrics named by their verb, and rows
with no member (issue 42, item 4), on the shop and the flights: "O'Hare" is the part of one
closed-list or open member's name ("O'Hare Airport", "Chicago Ohare Intl"), "ohare airport" the
whole name without its apostrophe, "Chai Lattes" the plural of Chai Latte, "did we sell" the
one summed metric of that verb, and a breakdown's row with no member is left out of the listed
members and said to be."""

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
    says they are left out: served, never withheld, the note read (held to the cited row with
    no member). The shop's 2018 keeps the caveat of a window the data begins inside."""
    layer = request.getfixturevalue(LAYER[name])
    served = run_attempt(Question("t", text), RulesClient(), layer,
                         Protocol.parse("claims+repair")).served()
    audit, answer = served.audit, json.loads(served.answer_raw)
    codes = {f["code"] for f in audit["findings"]}
    assert audit["status"] == "answered" and "unread_answer" not in codes
    assert audit["decision"] == ("serve_with_caveats" if name == "shop" else "serve"), codes
    keys = [v["key"] for v in answer["values"]]
    assert "" not in keys and all(keys)
    if members is not None:
        assert len(keys) == members
    assert f"The rows with no {dimension} recorded are left out of the list." in audit["answer_text"]


@pytest.mark.parametrize(("name", "text", "member"), [
    ("shop", "How many Chai Lattes did we sell in July 2019?", "Chai Latte"),
    ("flights", "How many flights did Turbo-props fly in July 2013?", "Turbo-prop"),
])
def test_a_name_of_several_words_in_the_plural(request, name: str, text: str, member: str
                                               ) -> None:
    """The plural of a member's last word names the member: 'Chai Lattes' is Chai Latte (not
    Chai), 'Turbo-props' is the engine type Turbo-prop."""
    reading = read_text(text, _catalog(request, name))
    assert {m.member for m in reading.members} == {member}
    assert reading.unread == []


@pytest.mark.parametrize(("name", "text", "metric"), [
    ("shop", "How many Chai Lattes did we sell in July 2019?", "items_sold"),
    ("flights", "How many were cancelled at JFK in July 2013?", "cancelled_flights"),
])
def test_the_verb_of_a_question_of_quantity_names_its_metric(request, name: str, text: str,
                                                             metric: str) -> None:
    """No metric named: the verb ('sell', 'cancelled') names the one summed metric whose own
    name, label or synonyms hold a form of it."""
    reading = read_text(text, _catalog(request, name))
    assert reading.metric_names() == [metric] and reading.unread == []


@pytest.mark.parametrize(("name", "text"), [
    ("shop", "How many did we have in July 2019?"),
    ("flights", "How many did we see at JFK in July 2013?"),
])
def test_a_verb_of_no_metric_names_none(request, name: str, text: str) -> None:
    """'have', 'see' are no metric's own verb: no metric is read."""
    assert read_text(text, _catalog(request, name)).metric_names() == []


def test_a_noun_of_the_verb_and_the_metric_named_so_alone(tutorial_layer) -> None:
    """On dbt's own tutorial project: 'was cancelled' and 'was altered' name Cancellations and
    Alterations (nouns of the verbs), and of Cancellations and 'Cancellations in Mexico' the
    one named by the verb alone."""
    catalog = tutorial_layer.catalog()
    for text, metric in (("How much was cancelled in the week of 14 March 2022?", "cancellations"),
                         ("How much was altered in March 2022?", "alterations")):
        reading = read_text(text, catalog)
        assert reading.metric_names() == [metric] and reading.unread == [], text


def test_several_metrics_of_one_verb_are_no_guess(flights_layer) -> None:
    """'delayed' is a form of delayed flights and of the delay totals, none named by it alone:
    no metric is read, and the verb stays unread."""
    reading = read_text("How many were delayed at JFK in July 2013?", flights_layer.catalog())
    assert reading.metric_names() == [] and reading.unread
