"""Readings the fresh set of session 16 found refused (issue 42: examples/flights/
questions_s16.yaml, examples/shop/questions_s16.yaml, harness/questions/demo_s16.yaml, written
from the catalogs and the data before reading the reader). Each on two domains, and each with a
question that says more left unread."""

from __future__ import annotations

from showwork.protocol.reading import read_text


def _in(reading) -> dict[str, set[str]]:
    """Each dimension of a range or set said, and its members."""
    out: dict[str, set[str]] = {}
    for m in reading.ranges:
        out.setdefault(m.name, set()).add(m.member or "")
    return out


class TestPoliteness:
    """'hi, could you tell me … ? thanks' was refused over 'thanks': greetings and thanks say
    nothing about data, and are read as the question's politeness ('please' already was)."""

    def test_flights(self, flights_layer) -> None:
        reading = read_text("hi, could you tell me the average visibility at lga in january? "
                            "thanks", flights_layer.catalog())
        assert reading.metric_names() == ["average_visibility"] and reading.unread == []

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("hello! how many orders did philadelphia have in march 2019? thank "
                            "you", shop_layer.catalog())
        assert reading.metric_names() == ["order_count"] and reading.unread == []
        assert "widgets" in read_text("hello, how many widgets in march 2019? thanks",
                                      shop_layer.catalog()).unread
