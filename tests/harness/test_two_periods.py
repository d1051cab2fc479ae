"""Two periods named side by side with no word of change ('How many measles cases were
reported in Georgia in 1970 and 1980?', issue 44's public diseases set): both are answered, set
side by side, never the first alone (the second had been dropped without a word and the first
year's count served). On the shop and the flights; one period, or a month within its year,
stays one window."""

from __future__ import annotations

import pytest

from showwork.benchmarks.init_questions import _ask

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.mark.parametrize(("name", "both", "first", "second"), [
    ("shop", "How many orders were there in May 2019 and July 2019?",
     "How many orders were there in May 2019?", "How many orders were there in July 2019?"),
    ("flights", "How many flights left JFK in March 2013 and May 2013?",
     "How many flights left JFK in March 2013?", "How many flights left JFK in May 2013?"),
])
def test_both_periods_are_answered(request, name: str, both: str, first: str,
                                   second: str) -> None:
    layer = request.getfixturevalue(LAYER[name])
    answer, trace = _ask(layer, "b", both)
    values = [c.get("value") for c in answer.get("claims") or []]
    cited = " ".join(s for c in answer.get("claims") or [] for s in c.get("sources") or [])
    one, _ = _ask(layer, "1", first)
    two, _ = _ask(layer, "2", second)
    assert "previous" in cited and "value" in cited, answer
    text = answer["answer"]
    assert f"{one['value']:,.0f}" in text and f"{two['value']:,.0f}" in text, (text, values)
    assert trace.served().audit["decision"] == "serve"


def test_one_period_within_another_is_one_window(shop_layer) -> None:
    """'In May 2019' alone is one window, no comparison."""
    answer, _ = _ask(shop_layer, "o", "How many orders were there in May 2019?")
    assert "versus" not in answer["answer"] and answer["value"] is not None
