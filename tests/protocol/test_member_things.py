"""A count of rows named right after a member says what the member filters (issue 44, public
pizza set: 'What share of revenue came from chicken pizzas in 2015?' was refused as a share of
two metrics, revenue and pizzas): with another metric named, 'chicken pizzas' is the member's
rows, not a second metric; alone ('how many chicken pizzas') the count is the metric asked.
On the shop ('Online orders') and the trap warehouse's draft ('S01 sales', test_init_meaning)."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text


@pytest.mark.parametrize("text", [
    "What share of revenue came from Online orders in June 2019?",
    "What was revenue from Online orders in June 2019?",
])
def test_a_count_after_a_member_is_what_it_filters(shop_layer, text: str) -> None:
    reading = read_text(text, shop_layer.catalog())
    assert [m.name for m in reading.metrics] == ["revenue"]
    assert reading.unread == [] and any(m.member == "Online" for m in reading.members)


def test_a_count_alone_is_the_metric(shop_layer) -> None:
    reading = read_text("How many Online orders were there in June 2019?", shop_layer.catalog())
    assert [m.name for m in reading.metrics] == ["order_count"]
