"""A window the data begins inside (docs/serving.md): a level, breakdown, ranking or share is
answered for the covered part, says where the data begins and is served with the audit's
`partial_period` caveat; a change across a cut window and a series stay refused (a window
cut at its end is answered to date: test_rules_to_date.py). On the shop (data from 2018-02-01) and the demo (events from 2026-01-05)."""

from __future__ import annotations

import pytest
from gold_sql import scalar

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer

SHOP_2018 = ("SELECT sum(order_total) FROM orders WHERE NOT is_test AND status <> 'cancelled' "
             "AND CAST(ordered_at AS DATE) BETWEEN DATE '2018-01-01' AND DATE '2018-12-31'")
DEMO_Q1 = ("SELECT count(*) FROM events JOIN users USING (user_id) WHERE NOT is_test "
           "AND event_type = 'value_moment' AND event_ts >= TIMESTAMP '2026-01-01' "
           "AND event_ts < TIMESTAMP '2026-04-01'")


def _audit(layer: SemanticLayer, text: str) -> dict:
    return run_attempt(Question("t", text), RulesClient(), layer,
                       Protocol.parse("claims+repair")).served().audit


def _caveated(audit: dict, begins: str) -> None:
    """Answered, saying where the data begins, with the partial-period caveat, never clean."""
    assert audit["status"] == "answered", audit.get("refusal_reason")
    assert f"The data begins {begins}" in audit["answer_text"]
    assert audit["decision"] == "serve_with_caveats"
    assert "partial_period" in {f["code"] for f in audit["findings"]}
    # the note is read (held to the cited coverage's first day), so the caveat is that alone
    assert "unread_answer" not in {f["code"] for f in audit["findings"]}
    assert audit["grounded"] is True


class TestShop:
    def test_a_level_is_the_covered_part(self, shop_layer) -> None:
        """Revenue in 2018 is February to December's, as the raw orders give it, with a caveat."""
        audit = _audit(shop_layer, "What was revenue in 2018?")
        _caveated(audit, "2018-02-01")
        assert audit["value"] == pytest.approx(scalar(shop_layer, SHOP_2018), rel=1e-6)

    @pytest.mark.parametrize("text", ["Which store had the most orders in 2018?",
                                      "What share of 2018 revenue came from each store?",
                                      "What fraction of 2018's revenue came in December?"])
    def test_rankings_and_shares_are_caveated(self, shop_layer, text: str) -> None:
        """A ranking, a share by member and a share of the year are answered with the caveat."""
        _caveated(_audit(shop_layer, text), "2018-02-01")

    @pytest.mark.parametrize("text", ["How did revenue change from Q1 2018 to Q2 2018?",
                                      "What was monthly revenue in 2018?"])
    def test_changes_and_series_stay_refused(self, shop_layer, text: str) -> None:
        """A change across a cut window and a series (whose missing months would read as whole
        ones) are refused as partly covered."""
        audit = _audit(shop_layer, text)
        assert audit["status"] == "refused"
        assert "only partly covered" in audit["refusal_reason"]


class TestDemo:
    def test_a_quarter_the_events_begin_inside(self, layer) -> None:
        """Real value moments in Q1 2026 are those from 5 January, the events' first day."""
        audit = _audit(layer, "What were real value moments in Q1 2026?")
        _caveated(audit, "2026-01-05")
        assert audit["value"] == pytest.approx(scalar(layer, DEMO_Q1), rel=1e-6)

    def test_a_breakdown_the_events_begin_inside(self, layer) -> None:
        """Active users by platform in January 2026 are answered with the caveat."""
        _caveated(_audit(layer, "Active users by platform in January 2026"), "2026-01-05")

    @pytest.mark.parametrize("text", ["How did active users change from January 2026 to "
                                      "February 2026?",
                                      "How did active users change from last week to this week?"])
    def test_changes_stay_refused(self, layer, text: str) -> None:
        """A change from a cut month, or to the running week (data through 17 June), is
        refused."""
        audit = _audit(layer, text)
        assert audit["status"] == "refused"
        assert "only partly covered" in audit["refusal_reason"]


@pytest.mark.parametrize(("text", "layer_name", "first", "sql"), [
    ("weekly revenue from 2018-01-29 to 2018-02-25", "shop_layer", "2018-01-29",
     "SELECT sum(order_total) FROM orders WHERE NOT is_test AND status <> 'cancelled' "
     "AND CAST(ordered_at AS DATE) BETWEEN DATE '2018-01-29' AND DATE '2018-02-04'"),
    ("monthly active users for each month from January to May 2026", "layer", "2026-01-01",
     "SELECT count(DISTINCT e.user_id) FROM events e JOIN users u USING (user_id) "
     "WHERE NOT u.is_test AND e.event_type = 'app_open' AND e.event_ts < TIMESTAMP '2026-02-01'")])
def test_a_series_the_data_begins_inside_its_first_period(request, text, layer_name, first,
                                                          sql) -> None:
    """No whole period is missing before the data's first day: the first period is a partial
    row, answered with its claim caveated (the other rows are whole and clean)."""
    layer = request.getfixturevalue(layer_name)
    audit = _audit(layer, text)
    assert audit["status"] == "answered", audit.get("refusal_reason")
    assert audit["decision"] == "serve_with_caveats"
    partial = {f["claim"] for f in audit["findings"] if f["code"] == "partial_period"}
    assert partial == {f["claim"] for f in audit["findings"]} == {"c1"}
    row = next(c for c in audit["claims"] if c["id"] == "c1")
    assert first in str(row) and row["value"] == pytest.approx(scalar(layer, sql), rel=1e-6)
