"""Ordinary words that are also members (issue 42, session 7's held-out sets). A member of one
word that is a participle ('placed', 'shipped'), said of a count's things after 'were', may be the
member (a status) or only the event every one of them had: read as the member but flagged, never
served clean ('How many orders were placed on August 13, 2019?' was answered as the orders whose
status is still 'placed', served clean). 'Of all X' is the whole of X, as 'across all X' is ('the
total income of all states' had left 'all' unread); 'which of all X' still picks members out. On
the shop and the flights, with a status or a state dimension added where the data has none."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol


def _with_dimension(catalog: dict[str, Any], name: str, members: list[str]) -> dict[str, Any]:
    """The catalog with one more closed dimension every metric has."""
    out = copy.deepcopy(catalog)
    out["dimensions"][name] = {"label": name, "members": members, "pattern": None,
                               "qualified": name, "synonyms": [], "member_synonyms": {}}
    for info in out["metrics"].values():
        info["dimensions"] = [*info["dimensions"], name]
    return out


def _with_states(catalog: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The catalog with a state dimension of codes ('AL': the word 'all' in capitals), and its
    first metric's label."""
    first = next(iter(catalog["metrics"].values()))
    return _with_dimension(catalog, "state", ["AL", "AK", "CA", "NY"]), first["label"]


def _doubts(reading) -> list[str]:
    return [d.words for d in reading.doubts]


class TestParticipleMembers:
    def test_placed_after_were_is_a_doubt_on_the_shop(self, shop_layer) -> None:
        """'Orders were placed' reads the status placed, in doubt; 'placed orders' does not."""
        catalog = shop_layer.catalog()
        said = read_text("How many orders were placed on August 13, 2019?", catalog)
        assert said.member_keys() == [("order_status", "placed")]
        assert _doubts(said) == ["placed"] and said.unread == ["placed"]
        before = read_text("How many placed orders were there on August 13, 2019?", catalog)
        assert before.member_keys() == [("order_status", "placed")] and before.unread == []

    def test_the_shop_answer_is_never_served_clean(self, shop_layer) -> None:
        """The rules analyst's answer carries the doubt as a caveat, not a clean serve."""
        served = run_attempt(Question("t", "How many orders were placed on August 13, 2019?"),
                             RulesClient(), shop_layer, Protocol.parse("claims")).served()
        assert served is not None and served.audit["decision"] == "serve_with_caveats"

    def test_cancelled_orders_stay_their_own_count(self, shop_layer) -> None:
        """A participle whose words with the noun make a count's label is that count, no doubt."""
        said = read_text("How many orders were cancelled in May 2019?", shop_layer.catalog())
        assert said.metric_names() == ["cancelled_orders"] and said.doubts == ()

    def test_a_status_said_as_a_verb_on_the_flights(self, flights_layer) -> None:
        """The same on another domain: 'flights were diverted' with a status dimension."""
        catalog = _with_dimension(flights_layer.catalog(), "status",
                                  ["scheduled", "diverted", "landed"])
        said = read_text("How many flights were diverted in May 2013?", catalog)
        assert said.member_keys() == [("status", "diverted")] and _doubts(said) == ["diverted"]
        plain = read_text("How many diverted flights were there in May 2013?", catalog)
        assert plain.member_keys() == [("status", "diverted")] and plain.doubts == ()


class TestOfAll:
    @pytest.mark.parametrize("layer", ["shop_layer", "flights_layer"])
    def test_of_all_is_the_whole(self, request, layer) -> None:
        """'The total X of all states' reads every state, no filter and no breakdown."""
        with_states, label = _with_states(request.getfixturevalue(layer).catalog())
        said = read_text(f"What was the {label} of all states in 2013?", with_states)
        assert said.unread == [] and said.members == () and said.dimensions == ()
        assert any(s.detail == "every state: no filter" for s in said.spans)
        assert said.asks.breakdown == () and said.asks.ranking is None

    @pytest.mark.parametrize("layer", ["shop_layer", "flights_layer"])
    def test_which_of_all_still_ranks(self, request, layer) -> None:
        """'Which of all the states had the most X' ranks the states: no whole read there."""
        with_states, label = _with_states(request.getfixturevalue(layer).catalog())
        said = read_text(f"Which of all the states had the highest {label} in 2013?", with_states)
        assert said.asks.ranking is not None and said.asks.ranking.dimension == "state"


class TestEveryDimensionNamedIsUsed:
    @pytest.mark.parametrize(("domain", "text", "dims"), [
        ("layer", "Active users in May 2026 by platform and country", ("platform", "country")),
        ("shop_layer", "Revenue by store, segment and country in 2018",
         ("store", "segment", "country")),
    ])
    def test_dimensions_joined_to_a_by_phrase(self, request, domain, text, dims) -> None:
        """'By platform and country' breaks down by both (it had been by platform alone, served
        clean, 'country' counted as read because it names a dimension)."""
        said = read_text(text, request.getfixturevalue(domain).catalog())
        assert said.asks.breakdown == dims and said.unread == []

    @pytest.mark.parametrize(("domain", "text", "dim"), [
        ("layer", "Active users in May 2026 by platform, with country", "country"),
        ("shop_layer", "Revenue by store in 2018 with the region", "region"),
    ])
    def test_a_dimension_no_part_uses_is_unread(self, request, domain, text, dim) -> None:
        """A dimension named that no breakdown, ranking or filter uses is unread, whatever its
        word: the reading used it nowhere."""
        said = read_text(text, request.getfixturevalue(domain).catalog())
        assert dim not in said.asks.breakdown and dim in said.unread


class TestVerbAfterItsSubject:
    @pytest.mark.parametrize(("domain", "text", "metric", "breakdown"), [
        ("shop_layer", "How many jaffles did each store sell in 2019?", "items_sold", ("store",)),
        ("shop_layer", "How many jaffles did the Brooklyn store sell in 2019?", "items_sold", ()),
        ("flights_layer", "How many did each airline cancel in May 2013?", "cancelled_flights",
         ("airline",)),
        ("flights_layer", "How many did the JFK airport cancel in May 2013?", "cancelled_flights",
         ()),
    ])
    def test_the_verb_after_a_subject_the_catalog_reads(self, request, domain, text, metric,
                                                        breakdown) -> None:
        """'How many jaffles did each store sell': the subject is read by the catalog, so the
        verb names the metric (it had been unread, and the question refused)."""
        said = read_text(text, request.getfixturevalue(domain).catalog())
        assert said.metric_names() == [metric] and said.unread == []
        assert said.asks.breakdown == breakdown

    def test_a_subject_read_by_nothing_stays_unread(self, shop_layer) -> None:
        """'The Boston store' names no store: the verb still names the metric (it takes only
        itself), and 'Boston' stays unread, so the question is never answered as if it were
        every store (issue 42, session 14: 'did Canadian customers cancel')."""
        said = read_text("How many jaffles did the Boston store sell in 2019?",
                         shop_layer.catalog())
        assert said.metric_names() == ["items_sold"] and "Boston" in said.unread


class TestWhatALevelAndAGrainCannotSay:
    @pytest.mark.parametrize(("domain", "text", "word"), [
        ("layer", "How many paid subscribers were added in April 2026?", "added"),
        ("layer", "How many paying subscribers started in April 2026?", "started"),
        ("shop_layer", "How many customer accounts were created in 2018?", "created"),
        ("shop_layer", "How many total customers joined in 2018?", "joined"),
    ])
    def test_an_event_said_of_a_level_is_unread(self, request, domain, text, word) -> None:
        """Subscribers 'added' in April are the new ones; a point-in-time metric gives those at
        April's end (answered so, served clean): the event word is unread."""
        said = read_text(text, request.getfixturevalue(domain).catalog())
        assert said.unread == [word]

    @pytest.mark.parametrize(("domain", "text"), [
        ("layer", "How many new users signed up in April 2026?"),
        ("shop_layer", "How many orders were received at the Online store in March 2019?"),
    ])
    def test_the_same_event_of_a_count_of_events_is_neutral(self, request, domain, text) -> None:
        """Of a count of events the same words add nothing ('orders received' are orders)."""
        said = read_text(text, request.getfixturevalue(domain).catalog())
        assert said.unread == [] and len(said.metric_names()) == 1

    @pytest.mark.parametrize(("domain", "text", "metric"), [
        ("layer", "Which day of the week has the most active users?", "active users"),
        ("flights_layer", "Which day of the week has the most flights?", "flights"),
    ])
    def test_a_day_of_the_week_is_no_day(self, request, domain, text, metric) -> None:
        """'Which day of the week' asks for a weekday across weeks (answered as the one busiest
        date, served clean): 'week' stays unread; 'which hour of the day' still reads."""
        catalog = request.getfixturevalue(domain).catalog()
        assert read_text(text, catalog).unread == ["week"]
        assert read_text(text.replace("day of the week", "day"), catalog).unread == []


class TestAllButAndJoinPaths:
    @pytest.mark.parametrize(("domain", "text", "dim", "member"), [
        ("shop_layer", "What was revenue in March 2019 for all stores but Brooklyn?", "store",
         "Brooklyn"),
        ("layer", "What was the reminder open rate in April 2026 for all countries but India?",
         "country", "IN"),
    ])
    def test_all_but_keeps_the_member_out(self, request, domain, text, dim, member) -> None:
        """'All stores but Brooklyn' is every store except Brooklyn (it had been read as Brooklyn
        beside the whole, and answered with Brooklyn's revenue, served clean)."""
        said = read_text(text, request.getfixturevalue(domain).catalog())
        assert said.members == () and said.unread == []
        assert (dim, member) in [(m.name, m.member) for m in said.excluded]

    def test_a_join_word_is_no_dimension_on_the_shop(self, shop_layer) -> None:
        """'Revenue per order at each store': 'order' is the entity store is reached through
        (order__store__store_name), no breakdown; it had been read as by store, served clean."""
        said = read_text("What was revenue per order in March 2019 at each store?",
                         shop_layer.catalog())
        assert said.unread == ["per order"] and "order__store__store_name" not in said.asks.breakdown

    def test_a_join_word_is_no_dimension_on_the_flights(self, flights_layer) -> None:
        """The same with a dimension reached through the plane: 'per plane' names no dimension."""
        catalog = copy.deepcopy(flights_layer.catalog())
        catalog["dimensions"]["plane__engine_type"] = {
            **catalog["dimensions"]["engine_type"], "label": "engine type"}
        said = read_text("How many flights were there per plane in May 2013 by engine type?",
                         catalog)
        assert "per plane" in said.unread


class TestRelativeClauses:
    @pytest.mark.parametrize(("domain", "text", "unread"), [
        ("flights_layer", "What was the average arrival delay in May 2013 for flights that left late?",
         ["left", "late"]),
        ("shop_layer", "What was the average order value in March 2019 for orders that shipped late?",
         ["late"]),
    ])
    def test_a_condition_no_rule_applied_is_unread(self, request, domain, text, unread) -> None:
        """'Flights that left late' sets a condition on what is averaged: 'late' is a word of the
        delay's own entry and 'left' a listed verb, yet no filter used them (the plain average
        had been served clean)."""
        said = read_text(text, request.getfixturevalue(domain).catalog())
        assert said.unread == unread

    @pytest.mark.parametrize(("domain", "text"), [
        ("flights_layer", "How many flights that were cancelled in May 2013 were from JFK?"),
        ("shop_layer", "How many orders that were cancelled in May 2019 came from Brooklyn?"),
    ])
    def test_a_clause_the_reading_takes_stays_read(self, request, domain, text) -> None:
        """A clause whose words a metric or member took ('that were cancelled') adds nothing."""
        said = read_text(text, request.getfixturevalue(domain).catalog())
        assert "cancelled" not in said.unread


@pytest.mark.parametrize(("domain", "text"), [
    ("flights_layer", "Which month of 2013 had the fewest flights per day?"),
    ("shop_layer", "Which week of 2018 had the highest revenue per day?"),
])
def test_a_ranking_of_periods_by_a_value_per_smaller_period(request, domain, text) -> None:
    """'Which month had the fewest flights per day' ranks months by a daily average, which no
    rule reads: 'per day' is unread (a day had been answered, served clean); without it the
    ranking of months reads whole."""
    catalog = request.getfixturevalue(domain).catalog()
    assert read_text(text, catalog).unread == ["per day"]
    assert read_text(text.replace(" per day", ""), catalog).unread == []
