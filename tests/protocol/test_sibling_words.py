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

LAYER = {"shop": "shop_layer", "tutorial": "tutorial_layer"}


@pytest.mark.parametrize(("name", "text", "word"), [
    ("tutorial", "How many transactions excluding quick buys were there in March 2022?", "quick"),
    ("tutorial", "How many transactions besides quick buys were there in March 2022?", "quick"),
    ("shop", "How many orders, leaving out legacy ones, were there in May 2019?", "legacy"),
    ("shop", "How many orders besides gross ones were there in May 2019?", "gross"),
])
def test_a_sibling_metrics_word_is_not_the_named_metrics_own(request, name: str, text: str,
                                                             word: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    unread = " ".join(reading.unread).lower()
    assert word in unread.split(), (reading.unread, [m.name for m in reading.metrics])


@pytest.mark.parametrize(("name", "text", "metric"), [
    ("tutorial", "How many quick buy transactions were there in March 2022?",
     "quick_buy_transactions"),
    ("shop", "How many cancelled orders were there in May 2019?", "cancelled_orders"),
])
def test_the_sibling_named_whole_is_read(request, name: str, text: str, metric: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert [m.name for m in reading.metrics] == [metric] and reading.unread == []
