"""Two readings init's public sets asked for (issue 44): 'the total X of all states' names the
whole (as 'in all' and 'across all' do), and 'total' before a ratio that counts things (a level
counted once per member it repeats across: unit count) asks for its sum, while 'total' before a
rate still reads nothing."""

from __future__ import annotations

from typing import Any

import pytest

from showwork.protocol.reading import read_text
from showwork.protocol.reading.account import read_as_line
from showwork.semantic_layer import load_model
from showwork.semantic_layer.catalog import build_catalog


@pytest.fixture(scope="module")
def demo() -> dict[str, Any]:
    return build_catalog(load_model())


@pytest.fixture(scope="module")
def shop(shop_layer) -> dict[str, Any]:
    return shop_layer.catalog()


CASES = {"as_of": "2011-12-31", "metrics": {
    "population": {"label": "population", "unit": "count", "type": "ratio",
                   "point_in_time": True, "synonyms": ["state population"]},
    "positive_rate": {"label": "positive rate", "unit": "fraction", "type": "ratio"}},
    "dimensions": {"state": {"label": "state", "members": ["Ohio", "Utah", "Iowa"]}}}
"""A panel's catalog: a state's population counted once per disease (a ratio in count units)
beside a rate."""


class TestOfAll:
    @pytest.mark.parametrize(("domain", "text"), [
        ("demo", "How many active users were there of all platforms in May 2026?"),
        ("shop", "What was the revenue of all stores in May 2019?"),
    ])
    def test_of_all_members_is_the_whole(self, request, domain: str, text: str) -> None:
        """'of all platforms' reads as every member, no filter, and leaves nothing unread."""
        reading = read_text(text, request.getfixturevalue(domain))
        assert reading.unread == []
        assert "no filter" in read_as_line(reading)

    def test_of_a_named_member_is_still_a_filter(self, shop) -> None:
        """Without 'all' the member named is the filter ('of the Brooklyn store')."""
        reading = read_text("What was the revenue of the Brooklyn store in May 2019?", shop)
        assert "no filter" not in read_as_line(reading)


class TestTotalOfACount:
    def test_total_before_a_ratio_in_count_units_is_read(self) -> None:
        """'the total population of all states': a sum of a count, read; nothing unread."""
        reading = read_text("What was the total population of all states in 2000?", CASES)
        assert (reading.metric_names(), reading.unread) == (["population"], [])

    def test_total_before_a_rate_stays_unread(self) -> None:
        """'the total positive rate': no sum of a rate, 'total' stays unread."""
        reading = read_text("What was the total positive rate in 2000?", CASES)
        assert [u.lower() for u in reading.unread] == ["total"]
