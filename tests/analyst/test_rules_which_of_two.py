"""'Which airport had more cancellations, JFK or LGA?' (issue 42, session 6): the one of the two
members named with more (or fewer) of the metric, ranked among those two only. Before, the
question was refused ('which', 'more' unread); and a ranking by a dimension dropped the filter
on its members, so read as a ranking it answered EWR, named by neither — the analyst now keeps
two or more members of the ranked dimension as the filter. On the flights and the tutorial."""

from __future__ import annotations

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol


def _answer(layer, text: str) -> str:
    trace = run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims"))
    audit = trace.served().audit
    assert audit["status"] == "answered", audit
    return " ".join(c["text"] for c in audit["claims"])


def test_flights_ranks_the_two_named(flights_layer) -> None:
    text = _answer(flights_layer, "Which airport had more cancellations in February 2013, "
                                  "JFK or LGA?")
    assert "JFK had the most" in text and "LGA were 369" in text and "EWR" not in text


def test_fewer_ranks_the_least(flights_layer) -> None:
    reading = read_text("Which had fewer delayed flights in 2013, JFK or Newark?",
                        flights_layer.catalog())
    assert reading.asks.ranking is not None
    assert (reading.asks.ranking.order, reading.asks.ranking.dimension) == ("least", "origin")
    assert reading.unread == []


def test_tutorial_countries(tutorial_layer) -> None:
    reading = read_text("Which country had more transactions, US or CA?", tutorial_layer.catalog())
    assert reading.asks.ranking is not None
    assert reading.asks.ranking.dimension == "customer__customer_country"
    assert reading.unread == []
    text = _answer(tutorial_layer, "Which country had more transactions, US or CA?")
    assert "CA" in text and "US" in text and "MX" not in text and "FR" not in text


def test_asked_with_an_auxiliary(flights_layer) -> None:
    """'Did JFK or LGA have more flights': asked of the two with an auxiliary, which of them
    (issue 42, s11); with no comparative ('did JFK or LGA have flights') no ranking is read."""
    catalog = flights_layer.catalog()
    reading = read_text("Did JFK or LGA have more flights in 2013?", catalog)
    assert reading.asks.ranking is not None and reading.asks.ranking.order == "most"
    assert reading.unread == []
    assert read_text("Did JFK or LGA have flights in 2013?", catalog).asks.ranking is None
