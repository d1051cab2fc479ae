"""Two periods set side by side with 'or' are compared whatever article the second carries
('higher in the week of March 14 or the week of March 21': was read as two unrelated periods,
'higher' unread and the question refused). Generated on each domain's first summable metric and
two whole weeks inside its coverage, written with and without the article."""

from __future__ import annotations

import datetime as dt

import pytest

from showwork.protocol.reading import read_text

LAYER = {"demo": "layer", "shop": "shop_layer", "flights": "flights_layer",
         "mf_tutorial": "tutorial_layer"}


@pytest.mark.parametrize("name", sorted(LAYER))
@pytest.mark.parametrize("joint", ["or the", "or in the", ", or the", "or"])
def test_two_weeks_joined_by_or_are_compared(request, name: str, joint: str) -> None:
    catalog = request.getfixturevalue(LAYER[name]).catalog()
    metric, info = next((n, m) for n, m in catalog["metrics"].items()
                        if m["type"] == "simple" and not m["point_in_time"])
    start = dt.date.fromisoformat(info["coverage"]["start"])
    monday = start + dt.timedelta(days=(7 - start.weekday()) % 7)
    first, second = monday, monday + dt.timedelta(days=7)
    label = info.get("label") or metric
    text = (f"Was {label} higher in the week of {first.isoformat()} {joint} "
            f"week of {second.isoformat()}?").replace(" ,", ",")
    reading = read_text(text, catalog)
    assert reading.asks.compare == "explicit", (text, reading.periods)
    assert "higher" not in reading.unread, (text, reading.unread)
