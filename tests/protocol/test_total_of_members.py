"""'Total' said of a metric with members naming its part in between ('What was the total number
of mumps cases in New York?', issue 44's public diseases set: refused, 'total' unread): the
members are passed over and 'total' is read of the metric, as 'the total number of cases' is.
A rate is still never totalled. On the shop and the flights."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "text", "metric"), [
    ("shop", "What was the total number of Online orders in June 2019?", "order_count"),
    ("flights", "What was the total number of JFK flights in July 2013?", "flights"),
])
def test_total_before_members_and_a_metric(request, name: str, text: str, metric: str) -> None:
    reading = read_text(text, request.getfixturevalue(LAYER[name]).catalog())
    assert [m.name for m in reading.metrics] == [metric]
    assert reading.members and reading.unread == []


def test_a_rate_is_never_totalled(flights_layer) -> None:
    reading = read_text("What was the total cancellation rate of JFK flights in July 2013?",
                        flights_layer.catalog())
    assert "total" in " ".join(reading.unread) or not [
        s for s in reading.spans if s.detail.startswith("total ")]
