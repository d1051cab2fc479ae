"""Readings the ACME insurance question file missed (conformance/questions/acme_s14.yaml,
session 14: another team's dbt project nobody here tuned for). Each on two domains: the ACME
project and the demo, the shop or a catalog of theirs with one entry the rule is about."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
from shop_data import shop_db

import showwork
from showwork.analyst.rules import RulesClient
from showwork.analyst.rules.calls import Outcome
from showwork.analyst.rules.dates import ALL_DATA
from showwork.analyst.rules.engine import plan
from showwork.analyst.rules.tables import _partial_lead
from showwork.analyst.rules.understand import Understood, understand
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import Question
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.shares import shareable
from showwork.traces import TraceRecord

ROOT = Path(__file__).resolve().parents[2]


def attempt(layer: SemanticLayer, text: str) -> TraceRecord:
    return run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims+repair"))


def served(trace: TraceRecord) -> dict:
    sv = trace.served()
    assert sv is not None and sv.audit is not None
    return sv.audit


def answer(trace: TraceRecord) -> dict:
    sv = trace.served()
    assert sv is not None and sv.answer_raw is not None
    return json.loads(sv.answer_raw)


def listed(trace: TraceRecord) -> dict[str, float]:
    return {v["key"]: v["value"] for v in answer(trace).get("values") or []}


class TestNoWindowNobodyAskedFor:
    """A question that names no period, about a metric whose data has no covered range (its time
    column holds no dates), reads all the data, as `mf query` does, and says so: it was asked
    over the last week of the as-of date and refused."""

    def test_acme(self, acme_layer) -> None:
        trace = attempt(acme_layer, "How many claims do we have?")
        audit = served(trace)
        assert (audit["status"], audit["value"], audit["decision"]) == ("answered", 2, "serve")
        assert [c.arguments.get("window") for c in trace.calls] == [None]
        assert "(Assumed no window named: all the data.)" in answer(trace)["answer"]

    def test_the_demo(self, layer) -> None:
        catalog = copy.deepcopy(layer.catalog())
        catalog["metrics"]["new_users"]["coverage"] = {"start": None, "end": None}
        assert understand("How many new users signed up?", catalog).window is ALL_DATA
        running = understand("running total of new users by month", catalog)
        assert running.window is ALL_DATA and running.intent == "running"
        with pytest.raises(StopIteration) as done:  # refused before any call: no periods
            next(plan(running, catalog, True))
        assert done.value.value["status"] == "refused"
        dated = understand("How many new users signed up?", layer.catalog()).window
        assert dated is not None and dated is not ALL_DATA and dated.end.isoformat() <= \
            layer.catalog()["as_of"]


class TestAnEntitysNumberColumn:
    """'By claim number', 'which policy': an entity's number column (`company_claim_number` of
    the claim, `policy_number` of the policy) is how people name the thing; a breakdown by it
    was dropped as an unknown dimension, a ranking keyed by the surrogate id."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        reading = read_text("Show total loss amount by claim number", catalog)
        assert reading.asks.breakdown == ("claim_identifier__company_claim_number",)
        assert reading.unread == []
        trace = attempt(acme_layer, "Which policy had the highest total policy amount?")
        assert served(trace)["value"] == "31003000336"
        assert served(trace)["decision"] == "serve"
        assert listed(trace) == {"31003000336": 5_086_000, "31003000337": 612_000}

    def test_the_shop(self, shop_layer) -> None:
        catalog = copy.deepcopy(shop_layer.catalog())
        catalog["dimensions"]["order__company_order_number"] = {"members": ["A-1", "A-2"]}
        for metric in ("revenue", "order_count"):
            catalog["metrics"][metric]["dimensions"].append("order__company_order_number")
        for text in ("revenue by order number", "Which order had the most revenue?"):
            reading = read_text(text, catalog)
            assert reading.asks.breakdown == ("order__company_order_number",), text
            assert reading.unread == [], text
        assert read_text("revenue by store", catalog).asks.breakdown != (
            "order__company_order_number",)


class TestACalendarWordMember:
    """A member that is a calendar word (an amount type `Year`) is a member only beside its
    dimension's words, or written as a code in capitals: 'by year' was read as that member's
    filter and served as one total."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        reading = read_text("Total policy amount by year", catalog)
        assert reading.members == () and reading.asks.grain == "year"
        beside = read_text("total policy amount with amount type code Year", catalog)
        assert beside.member_keys() == [("policy_amount__amount_type_code", "Year")]

    def test_the_demo(self, layer) -> None:
        catalog = copy.deepcopy(layer.catalog())
        catalog["dimensions"]["plan"]["members"] = [*catalog["dimensions"]["plan"]["members"],
                                                    "Month"]
        reading = read_text("active users by month", catalog)
        assert reading.members == () and reading.asks.grain == "month"

    def test_a_code_in_capitals_is_a_member(self, flights_layer) -> None:
        """The airport `DAY` (Dayton) written as its code is the member, anywhere."""
        catalog = flights_layer.catalog()
        reading = read_text("How many flights went to DAY in 2013?", catalog)
        assert [m.member for m in reading.members] == ["DAY"] and reading.unread == []


class TestASeriesOverTheCoveredRange:
    """A series with no window named lists every period the covered range reaches into, the
    partial ones caveated: snapped to whole periods, 'the whole covered range' had left out a
    year the data reaches into, unsaid."""

    def test_acme(self, acme_layer) -> None:
        trace = attempt(acme_layer, "Total policy amount by year")
        assert served(trace)["decision"] == "serve_with_caveats"
        assert listed(trace)["2019-01-01"] == 1_632_000 and len(listed(trace)) == 5

    def test_the_demo(self, layer) -> None:
        trace = attempt(layer, "Active users by week")
        (call,) = [c for c in trace.calls if c.handle]
        coverage = layer.catalog()["metrics"]["active_users"]["coverage"]
        window = call.arguments["window"]
        assert window["start"] <= coverage["start"] and window["end"] >= coverage["end"]
        assert served(trace)["status"] == "answered"


class TestAPartialPeriodThatAlreadyLeads:
    """A ranking of periods keeps a partly covered period that already has the most of a sum
    whose values are none below zero (the days it lacks could only add); it is left out of a
    'least' ranking, and of any ranking of a metric that does not add up."""

    @staticmethod
    def _rows(metric: str, values: dict[str, float], partial: str) -> Outcome:
        rows = [{"key": {"year": k}, "values": {metric: {"value": v}}, "partial": k == partial}
                for k, v in values.items()]
        return Outcome(1, {"keys": ["year"], "rows": rows}, None)

    def test_acme(self, acme_layer) -> None:
        trace = attempt(acme_layer, "Which year had the highest total policy amount?")
        assert served(trace)["value"] == "2019-01-01"
        lowest = attempt(acme_layer, "Which year had the lowest total policy amount?")
        assert served(lowest)["value"] == "2015-01-01"

    def test_the_demo(self, layer) -> None:
        catalog = layer.catalog()
        q = Understood(text="t", metrics=["real_value_moments"], rank="most")
        leads = self._rows("real_value_moments", {"2025-01-01": 5, "2026-01-01": 9}, "2026-01-01")
        assert _partial_lead(q, catalog, "real_value_moments", leads) is not None
        trails = self._rows("real_value_moments", {"2025-01-01": 9, "2026-01-01": 5},
                            "2026-01-01")
        assert _partial_lead(q, catalog, "real_value_moments", trails) is None
        rate = Understood(text="t", metrics=["days_per_user"], rank="most")
        assert _partial_lead(rate, catalog, "days_per_user", self._rows(
            "days_per_user", {"2025-01-01": 1, "2026-01-01": 2}, "2026-01-01")) is None


class TestTheSumOfAMetricThatAddsUp:
    """'The sum of all policy amounts' is the metric's own total over the covered range: read
    as a sum over weeks, its window cut to whole weeks had dropped the range's first and last
    days and was served clean."""

    def test_acme(self, acme_layer) -> None:
        trace = attempt(acme_layer, "What's the sum of all policy amounts?")
        assert served(trace)["value"] == 5_698_000
        assert all("aggregate" not in c.arguments for c in trace.calls)

    def test_the_demo(self, layer) -> None:
        summed = attempt(layer, "What is the sum of all real value moments?")
        plain = attempt(layer, "How many real value moments were there?")
        assert served(summed)["value"] == served(plain)["value"] is not None
        weekly = understand("What were total paid subscribers summed over the weeks of "
                            "March 2026?", layer.catalog())
        assert weekly.aggregate == "sum"  # a value at a point in time: summed week by week


class TestAShareOfADerivedSum:
    """A derived metric that adds up metrics whose members make up their totals (`a + b`, none
    offset) has shares of its total too; one with a difference or an offset has none."""

    def test_acme(self, acme_layer) -> None:
        trace = attempt(acme_layer, "What share of the total loss amount comes from claim "
                                    "12312702?")
        assert served(trace)["value"] == pytest.approx(4400 / 6600)

    def test_the_shop(self, tmp_path: Path) -> None:
        shop = tmp_path / "shop"
        shutil.copytree(ROOT / "examples" / "shop", shop, ignore=shutil.ignore_patterns(
            "questions*.yaml"))
        (shop / "models" / "sums.yml").write_text(
            "metrics:\n  - name: all_order_lines\n    type: derived\n    type_params:\n"
            "      expr: order_count + cancelled_orders\n      metrics: [order_count, "
            "cancelled_orders]\n", encoding="utf-8")
        db = shop_db()
        layer = SemanticLayer(load_project(shop, database=db), db)
        try:
            assert shareable(layer.model, "all_order_lines")
            assert not shareable(layer.model, "revenue_per_customer")
            result = layer.call("query", {"metrics": ["all_order_lines"],
                                          "group_by": ["region"], "share": True})
            shares = [r.values["all_order_lines"]["share_of_total"] for r in result.rows]
            assert sum(shares) == pytest.approx(1.0)
        finally:
            layer.close()


class TestADurationMetric:
    """A metric named as the time something takes (`avg_time_to_settle_claim`) is named by what
    takes the time: 'how many days does it take to settle a claim', 'which claim took the
    longest to settle', 'on average' (its name's `avg`)."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        for text in ("On average, how many days does it take to settle a claim?",
                     "How long does it take to settle a claim?"):
            reading = read_text(text, catalog)
            assert reading.metric_names() == ["avg_time_to_settle_claim"], text
            assert reading.unread == [], text
        assert served(attempt(acme_layer, "Which claim took the longest to settle?"))[
            "value"] == "12312702"
        assert served(attempt(acme_layer, "How many days did claim 12312701 take to settle?"))[
            "value"] == 16

    def test_the_demo(self, layer) -> None:
        catalog = copy.deepcopy(layer.catalog())
        catalog["metrics"]["avg_days_to_convert"] = {
            **catalog["metrics"]["days_per_user"], "label": "avg_days_to_convert",
            "description": None, "synonyms": []}
        reading = read_text("How many days does it take to convert?", catalog)
        assert reading.metric_names() == ["avg_days_to_convert"] and reading.unread == []
        assert read_text("How many days does it take to convert?", layer.catalog()).unread


class TestACauseNamedAsAMember:
    """'How many claims were caused by fire': a cause named as a member, with no change asked,
    is that member's filter (it was read as a why question and refused); with a change asked
    ('did active users drop because of android') it is still a why question."""

    def test_acme(self, acme_layer) -> None:
        audit = served(attempt(acme_layer, "How many claims were caused by fire?"))
        assert (audit["status"], audit["value"]) == ("answered", 2)

    def test_the_demo(self, layer) -> None:
        catalog = layer.catalog()
        q = understand("How many new users came because of paid search in May 2026?", catalog)
        assert q.intent == "lookup" and q.refusal is None
        assert q.filters == [{"dimension": "channel", "op": "in", "values": ["paid_search"]}]
        why = understand("Did active users drop because of android in April 2026?", catalog)
        assert why.intent == "diagnostic"


class TestABreakdownOfOneMember:
    """A breakdown whose data holds one member (every claim's catastrophe is Fire) is the whole
    breakdown: no off_question_shape caveat; a breakdown that cites one member of several, or a
    result filtered to one member, is still caveated."""

    def test_acme(self, acme_layer) -> None:
        audit = served(attempt(acme_layer, "How many claims are there by catastrophe name?"))
        assert audit["decision"] == "serve" and listed_codes(audit) == []

    @staticmethod
    def _shape(layer, rows: list[str], where: list[dict] | None = None) -> list[str]:
        results = {"r1": {"metrics": ["active_users"], "where": where or [],
                          "window": {"start": "2026-03-02", "end": "2026-03-08"},
                          "rows": [{"platform": p, "active_users": 10 + i}
                                   for i, p in enumerate(rows)]}}
        answer = {"status": "answered", "answer": "Active users by platform: ios 10.",
                  "value": None, "values": [{"key": "ios", "value": 10}],
                  "claims": [{"kind": "measurement", "value": 10,
                              "text": "Active users on ios were 10",
                              "sources": ["r1[platform=ios]:active_users.value"]}]}
        report = showwork.audit_answer(answer, results, layer.catalog(),
                                       question="Active users by platform in the week of "
                                                "2026-03-02")
        return [f.code for f in report.findings if f.code == "off_question_shape"]

    def test_the_demo(self, layer) -> None:
        assert self._shape(layer, ["ios"]) == []
        assert self._shape(layer, ["ios", "android"]) == ["off_question_shape"]
        kept = [{"dimension": "platform", "op": "in", "values": ["ios"]}]
        assert self._shape(layer, ["ios"], kept) == ["off_question_shape"]


def listed_codes(audit: dict) -> list[str]:
    return [f["code"] for f in audit["findings"]]
