"""A ranking's size written in words (issue 42, item 3 of this stop): one to twenty, 'a dozen',
'top ten' read as the size, the word consumed, on the shop and the flights; the rules analyst
lists that many members."""

from __future__ import annotations

import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}
CASES = [
    ("shop", "What were the three best products by units sold in June 2019?", 3),
    ("shop", "Top twelve products by revenue in June 2019", 12),
    ("shop", "What were the top dozen products by revenue in June 2019?", 12),
    ("shop", "Which fifteen products had the most units sold in June 2019?", 15),
    ("flights", "Which three airlines had the most flights in July 2013?", 3),
    ("flights", "What were the top ten destinations by flights in July 2013?", 10),
    ("flights", "What were the dozen busiest destinations by flights in July 2013?", 12),
    ("flights", "What were the twenty busiest destinations by flights in July 2013?", 20),
]


@pytest.mark.parametrize(("name", "text", "size"), CASES)
def test_the_size_is_read_from_its_word(request, name: str, text: str, size: int) -> None:
    """The ranking asks for `size` members and no word of the question is left unread."""
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert reading.asks.ranking is not None and reading.asks.ranking.n == size
    assert reading.unread == []


@pytest.mark.parametrize(("name", "text", "size"), [CASES[0], CASES[3], CASES[4], CASES[6]])
def test_the_answer_lists_that_many(request, name: str, text: str, size: int) -> None:
    """The rules analyst's ranking lists exactly `size` members, grounded."""
    served = run_attempt(Question("t", text), RulesClient(), request.getfixturevalue(LAYER[name]),
                         Protocol.parse("claims+repair")).served()
    assert served.audit["status"] == "answered" and served.audit["grounded"] is True
    assert len(json.loads(served.answer_raw)["values"]) == size


def test_the_best_without_polarity_still_reads_its_size(flights_layer) -> None:
    """'the three best' of a metric with no polarity: the size is read, 'best' stays unread."""
    catalog = flights_layer.catalog()
    metric = next(m for m, info in catalog["metrics"].items() if not info.get("polarity")
                  and info.get("label"))
    label = catalog["metrics"][metric]["label"]
    reading = read_text(f"What were the three best airlines by {label} in July 2013?", catalog)
    assert reading.asks.ranking is not None and reading.asks.ranking.n == 3
    assert reading.unread == ["best"]
