"""'How many X <verb>': the word after the metric is read as its own predicate only when it can
be a verb (a verb of moving, a past form: 'how much rain fell', 'how many orders shipped'),
never a noun naming something else (issue 44, held-out texas: 'How many Black women were in
prison in Texas in 1995?' was answered with the number of Black men, 'women' read as the
metric's verb). On the flights and the shop."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "text", "noun"), [
    ("flights", "How many flights attendants were there in 2013?", "attendants"),
    ("shop", "How many orders complaints were there in May 2019?", "complaints"),
])
def test_a_noun_after_the_metric_stays_unread(request, name: str, text: str, noun: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert noun in " ".join(reading.unread)


@pytest.mark.parametrize(("name", "text", "verb"), [
    ("flights", "How much rain fell at JFK in 2013?", "fell"),
    ("shop", "How many orders shipped in May 2019?", "shipped"),
])
def test_the_metric_own_verb_is_read(request, name: str, text: str, verb: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.metrics and verb not in " ".join(reading.unread)
