"""A word of another metric is read only where the reading uses it (issue 42): the words of a
metric whose label holds the named one's ('quick buy transactions' beside 'transactions',
'gross orders' beside 'orders') were quieted as the named metric's own, so 'How many
transactions excluding quick buys …' read as every transaction, no word unread, and the rules
analyst served the quick buys alone, clean: the opposite. Now such words are unread unless a
rule takes them (the sibling metric named, a member, an exclusion the reader reads). On the mf
tutorial and the shop."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "tutorial": "tutorial_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "text", "word"), [
    # 'quick buys' is the plural of the member Quick Buy (session 10): read as it, the word that
    # sets it apart stays unread unless the exclusion reads it (below)
    ("tutorial", "How many transactions besides quick buys were there in March 2022?", "besides"),
    ("shop", "How many orders, leaving out legacy ones, were there in May 2019?", "legacy"),
    ("shop", "How many orders besides gross ones were there in May 2019?", "gross"),
])
def test_a_sibling_metrics_word_is_not_the_named_metrics_own(request, name: str, text: str,
                                                             word: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    unread = " ".join(reading.unread).lower()
    assert word in unread.split(), (reading.unread, [m.name for m in reading.metrics])


def test_quick_buys_excluded_are_every_other_transaction(tutorial_layer) -> None:
    """'Excluding quick buys': the member Quick Buy kept out, never the quick buys alone."""
    reading = read_text("How many transactions excluding quick buys were there in March 2022?",
                        tutorial_layer.catalog())
    assert [(m.name, m.member) for m in reading.excluded] == [
        ("transaction__quick_buy_transaction", "Quick Buy")]
    assert reading.member_keys() == [] and reading.unread == []


@pytest.mark.parametrize(("name", "text", "metric"), [
    ("tutorial", "How many quick buy transactions were there in March 2022?",
     "quick_buy_transactions"),
    ("shop", "How many cancelled orders were there in May 2019?", "cancelled_orders"),
])
def test_the_sibling_named_whole_is_read(request, name: str, text: str, metric: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert [m.name for m in reading.metrics] == [metric] and reading.unread == []


@pytest.mark.parametrize(("name", "text", "unread"), [
    # a metric named as the things another is taken over: a condition no rule applies (both
    # had been answered side by side, served clean)
    ("flights", "What was the average arrival delay in May 2013 for late flights?",
     ["late flights"]),
    ("flights", "What was the cancellation rate among late flights in 2013?", ["late flights"]),
    ("shop", "What was revenue from new customers in May 2019?", ["new customers"]),
    # a condition in a clause after the noun points it at no sibling
    ("flights", "What was the average arrival delay in May 2013 for flights that were late?",
     ["late"]),
])
def test_a_metric_named_as_a_condition_is_unread(request, name: str, text: str,
                                                 unread: list[str]) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.unread == unread


@pytest.mark.parametrize(("name", "text"), [
    ("flights", "What was the average departure delay for flights from JFK in May 2013?"),
    ("shop", "What were revenue and orders in May 2019?"),
])
def test_the_things_a_metric_is_about_stay_read(request, name: str, text: str) -> None:
    assert read_text(text, request.getfixturevalue(LAYER[name]).catalog()).unread == []
