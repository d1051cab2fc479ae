"""Readings a fresh set of new-user questions found wrong (issue 42, session 10:
examples/*/questions_s10.yaml, written from the catalog and the data before reading the reader).
Each on two domains."""

from __future__ import annotations

from showwork.protocol.reading import read_text


class TestHowMuchIsAnAmount:
    """'How much did the O'Hare store sell': 'how much' asks an amount, so the verb never names
    a metric that counts (units sold): it stays unread, and the answer is never served clean."""

    def test_the_shop_never_answers_units_for_how_much(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("How much did the O'Hare store sell in May 2019?", catalog)
        assert "items_sold" not in reading.metric_names()
        assert any("sell" in w for w in reading.unread)
        counted = read_text("How many did the O'Hare store sell in May 2019?", catalog)
        assert counted.metric_names() == ["items_sold"] and counted.unread == []

    def test_flights_never_answers_a_count_for_how_much(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("How much did Delta operate in 2013?", catalog)
        assert reading.metric_names() == []  # no metric: refused, never a count of departures
        counted = read_text("How many did Delta operate in 2013?", catalog)
        assert counted.metric_names() == ["departed_flights"] and counted.unread == []
