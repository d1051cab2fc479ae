"""The rules analyst never drops a span (issue 27): words nobody reads are refused, quoted, with
what the catalog offers; a member of two dimensions is asked back unless 'to'/'from' names its
role; members come from the warehouse; shares, running totals and two named periods answered as
asked — on the shop and on a trips project whose members only the data has."""

from __future__ import annotations

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer


@pytest.fixture(scope="module")
def trips(tmp_path_factory) -> SemanticLayer:
    from trips_project import build

    from showwork.harness.project import Project

    project = Project.open(build(tmp_path_factory.mktemp("trips")))
    layer = project.layer()
    yield layer
    layer.close()


def served(layer: SemanticLayer, text: str) -> tuple[dict, list]:
    trace = run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims"))
    return trace.served().audit, trace.calls


class TestNeverDropsASpan:
    @pytest.mark.parametrize(("fixture", "text", "words", "offered"), [
        ("shop_layer", "How many orders did customers in the loyalty scheme place in May 2019?",
         "loyalty scheme", "store"),
        ("shop_layer", "Did the price change cause orders to fall in May 2019?", "price",
         "segment"),
        ("trips", "How many flights were lax in July 2013?", "lax", "trip__dest = LAX"),
    ])
    def test_unread_words_are_refused_naming_them(self, request, fixture, text, words,
                                                  offered) -> None:
        """The refusal quotes the words and says what the catalog offers instead (the closest
        member as a hint); no governed call answers a neighbouring question."""
        audit, calls = served(request.getfixturevalue(fixture), text)
        assert audit["status"] == "refused" and calls == []
        assert f"I could not read {words!r}" in audit["refusal_reason"]
        assert offered in audit["refusal_reason"]

    def test_a_share_is_the_layer_s_field(self, shop_layer) -> None:
        """A share is never a level nor a quotient of the analyst's own: the layer's
        share_of_total for the member's row is what the answer cites
        (tests/analyst/test_rules_shares.py has the rest)."""
        audit, calls = served(shop_layer, "What share of orders came from the Online store in "
                                          "May 2019?")
        assert audit["status"] == "answered" and audit["decision"] == "serve"
        assert calls[0].arguments["share"] is True
        assert calls[0].arguments["group_by"] == ["store"]


class TestMembersFromTheData:
    def test_an_open_dimension_filters(self, trips) -> None:
        """'to LAX' filters the open destination dimension (65 values, none governed)."""
        audit, calls = served(trips, "How many flights went to LAX in July 2013?")
        assert audit["status"] == "answered" and audit["decision"] == "serve"
        assert calls[0].arguments["where"] == [{"dimension": "trip__dest", "op": "in",
                                                "values": ["LAX"]}]

    @pytest.mark.parametrize(("text", "dimension"), [
        ("How many flights went to JFK in May 2013?", "trip__dest"),
        ("How many flights left from JFK in May 2013?", "trip__origin"),
    ])
    def test_a_role_named_by_its_preposition(self, trips, text, dimension) -> None:
        """One code in two roles: 'to' names the destination, 'from' the origin."""
        audit, calls = served(trips, text)
        assert audit["status"] == "answered"
        assert calls[0].arguments["where"][0]["dimension"] == dimension

    def test_a_member_of_two_dimensions_is_asked_back(self, trips) -> None:
        """Without a role word the analyst asks which dimension, naming both."""
        audit, calls = served(trips, "How many JFK flights were there in May 2013?")
        assert audit["status"] == "refused" and calls == []
        assert "trip__origin" in audit["refusal_reason"]
        assert "trip__dest" in audit["refusal_reason"]

    def test_a_joined_name_without_its_legal_suffix(self, trips) -> None:
        """'United Air Lines' is the carriers table's 'United Air Lines Inc.'."""
        audit, calls = served(trips, "How many flights did United Air Lines run in March 2013?")
        assert audit["status"] == "answered"
        assert calls[0].arguments["where"][0]["values"] == ["United Air Lines Inc."]


class TestShapesAsAsked:
    @pytest.mark.parametrize(("fixture", "text", "window"), [
        ("shop_layer", "How many orders had we taken in total by the end of May 2019?",
         {"start": "2018-02-01", "end": "2019-05-31"}),
        ("trips", "How many flights had there been year to date at the end of August 2013?",
         {"start": "2013-01-01", "end": "2013-08-31"}),
    ])
    def test_a_running_total(self, request, fixture, text, window) -> None:
        """A cumulative runs from the start of the data (or of the year) to the period named."""
        audit, calls = served(request.getfixturevalue(fixture), text)
        assert audit["status"] == "answered" and audit["decision"] == "serve"
        assert calls[0].arguments["window"] == window

    @pytest.mark.parametrize("fixture", ["shop_layer", "trips"])
    def test_two_named_periods(self, request, fixture) -> None:
        """'from May to June' compares June with May, not May..June with the span before."""
        metric = "revenue" if fixture == "shop_layer" else "flights"
        year = 2019 if fixture == "shop_layer" else 2013
        audit, calls = served(request.getfixturevalue(fixture),
                              f"How did {metric} change from May to June {year}?")
        args = calls[0].arguments
        assert audit["status"] == "answered" and calls[0].tool == "compare"
        assert (args["current_window"]["start"], args["previous_window"]["start"]) == (
            f"{year}-06-01", f"{year}-05-01")
