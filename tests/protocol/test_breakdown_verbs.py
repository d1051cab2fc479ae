"""The verb of a breakdown ('break down X by Y', 'split out X by Y', 'a breakdown of X by Y') is
read where the question asks for a breakdown by a dimension, and only there (issue 42): 'Break
down' was left unread and the question refused. On the flights and the shop."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "text", "dimension"), [
    ("flights", "Break down cancelled flights by origin airport for January 2013.", "origin"),
    ("flights", "Can you split out flights by airline for March 2013?", "airline"),
    ("shop", "Give me a breakdown of revenue by store for June 2019", "store"),
    ("shop", "Break revenue down by store for June 2019", "store"),
])
def test_the_verb_of_a_breakdown_is_read(request, name: str, text: str, dimension: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.breakdown == (dimension,) and reading.unread == []


@pytest.mark.parametrize(("name", "text"), [
    ("shop", "Did revenue break down in June 2019?"),
    ("flights", "Did the cancellation rate break down in June 2013?"),
])
def test_without_a_breakdown_it_stays_unread(request, name: str, text: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert not reading.asks.breakdown
    assert any("break" in u.lower() for u in reading.unread)
