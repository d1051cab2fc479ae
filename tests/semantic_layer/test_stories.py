"""The four stories of DESIGN.md are in the generated data, read through governed calls."""

from __future__ import annotations

import math

from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.tree import driver, lmdi

WEEK = {"2026-03-09": ("2026-03-09", "2026-03-15"), "2026-03-02": ("2026-03-02", "2026-03-08")}


def _compare(layer: SemanticLayer, metrics, cur, prev, by=None):
    args = {"metrics": metrics, "current_window": {"start": cur[0], "end": cur[1]},
            "previous_window": {"start": prev[0], "end": prev[1]}}
    if by:
        args["by"] = by
    return layer.call("compare", args)


def test_story1_days_per_user_is_largest_negative_lmdi_contributor(layer: SemanticLayer) -> None:
    """Week of 2026-03-09: active users rise, days per user falls more, and drives the drop."""
    factors = ["active_users", "days_per_user", "moments_per_day"]
    result = _compare(layer, ["weekly_value_moments", *factors],
                      WEEK["2026-03-09"], WEEK["2026-03-02"])
    (row,) = result.rows
    v = row.values
    total = v["weekly_value_moments"]
    assert total["pct_change"] < -5
    assert v["active_users"]["pct_change"] > 0
    assert abs(v["days_per_user"]["pct_change"]) > v["active_users"]["pct_change"]
    contrib = lmdi({f: v[f]["value"] for f in factors}, {f: v[f]["previous"] for f in factors},
                   total["value"], total["previous"])
    assert math.isclose(sum(contrib.values()), total["delta"], rel_tol=1e-9)
    assert driver(contrib, total["delta"]) == "days_per_user"
    assert min(contrib, key=contrib.get) == "days_per_user"


def test_story1_price_rise_and_campaign(layer: SemanticLayer) -> None:
    """The plus price rises to 12.99 that week and paid_search signups jump."""
    price = _compare(layer, ["plus_price"], WEEK["2026-03-09"], WEEK["2026-03-02"])
    assert price.rows[0].values["plus_price"] == {
        "value": 12.99, "previous": 9.99, "delta": price.rows[0].values["plus_price"]["delta"],
        "pct_change": price.rows[0].values["plus_price"]["pct_change"]}
    signups = _compare(layer, ["new_users"], WEEK["2026-03-09"], WEEK["2026-03-02"], by="channel")
    paid = next(r for r in signups.rows if r.key == {"channel": "paid_search"})
    assert paid.values["new_users"]["value"] > 5 * paid.values["new_users"]["previous"]


def test_story2_android_reminder_open_rate_collapses(layer: SemanticLayer) -> None:
    """Week of 2026-04-13: android open rate collapses and android days per user dips most."""
    result = _compare(layer, ["reminder_open_rate", "days_per_user"], ("2026-04-13", "2026-04-19"),
                      ("2026-04-06", "2026-04-12"), by="platform")
    rows = {r.key["platform"]: r.values for r in result.rows}
    assert rows["android"]["reminder_open_rate"]["value"] < 0.1
    assert rows["android"]["reminder_open_rate"]["previous"] > 0.3
    assert rows["ios"]["reminder_open_rate"]["value"] > 0.3
    dips = {p: rows[p]["days_per_user"]["pct_change"] for p in rows}
    assert min(dips, key=dips.get) == "android" and dips["android"] < 0


def test_story3_test_accounts_flood_legacy_value_moments(layer: SemanticLayer) -> None:
    """Week of 2026-05-04: legacy value_moments jumps, real_value_moments does not."""
    result = _compare(layer, ["value_moments", "real_value_moments"],
                      ("2026-05-04", "2026-05-10"), ("2026-04-27", "2026-05-03"))
    v = result.rows[0].values
    assert v["value_moments"]["pct_change"] > 50
    assert abs(v["real_value_moments"]["pct_change"]) < 5


def test_story4_partial_week_is_flagged(layer: SemanticLayer) -> None:
    """The week of 2026-06-15 has data through Wednesday only and says so."""
    result = _compare(layer, ["active_users"], ("2026-06-15", "2026-06-21"),
                      ("2026-06-08", "2026-06-14"))
    current, previous = result.coverage
    assert current["partial"] and current["covered"] == {"start": "2026-06-15", "end": "2026-06-17"}
    assert not previous["partial"]
    weekly = layer.call("query", {"metrics": ["weekly_value_moments"], "grain": "week",
                                  "window": {"start": "2026-06-01", "end": "2026-06-21"}})
    assert [r.partial for r in weekly.rows] == [False, False, True]
