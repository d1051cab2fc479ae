"""Shares of a total, answered from the governed field `share_of_total` (issue 27): the rules
analyst reads which member is the part and which members make the whole, asks the layer with
share: true and cites the member's row; the answer is grounded and equals the hand SQL; a lie
about the share is withheld; MCP's `submit_answer` and `showwork.audit_answer` resolve the
field — on flights, the shop and the demo."""

from __future__ import annotations

import copy
import json
import math
import shutil

import pytest
import yaml
from flights_data import FLIGHTS, flights_db

from showwork import audit_answer
from showwork._results import public
from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.gold import evaluate
from showwork.harness.mcp.server import tool_list
from showwork.harness.mcp.session import McpSession
from showwork.protocol.rendered import say
from showwork.protocol.schemas import strict_problems, tool_schemas
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.project import load_project
from showwork.traces import TraceRecord

FLIGHT_QUESTIONS = {q["id"]: q for q in yaml.safe_load(
    (FLIGHTS / "questions.yaml").read_text(encoding="utf-8"))["questions"]}
SHOP_SHARE = "What share of revenue in May 2019 came from the Online store?"
SHOP_SQL = """
    SELECT sum(i.quantity * i.unit_price) FILTER (WHERE s.store_name = 'Online')
           / sum(i.quantity * i.unit_price)
    FROM order_items i JOIN orders o ON o.order_id = i.order_id JOIN stores s ON s.store_id = o.store_id
    WHERE NOT o.is_test AND o.status <> 'cancelled'
    AND CAST(o.ordered_at AS DATE) BETWEEN DATE '2019-05-01' AND DATE '2019-05-31'"""


@pytest.fixture(scope="module")
def flights(tmp_path_factory) -> SemanticLayer:
    db = tmp_path_factory.mktemp("flights") / "warehouse.duckdb"
    shutil.copy(flights_db(), db)
    layer = SemanticLayer(load_project(FLIGHTS, database=db), db)
    yield layer
    layer.close()


def attempt(layer: SemanticLayer, text: str) -> TraceRecord:
    return run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims+repair"))


def gold(layer: SemanticLayer, sql: str) -> float:
    cursor = layer.connection.cursor()
    try:
        return float(evaluate(cursor, sql))
    finally:
        cursor.close()


def results_of(trace: TraceRecord) -> dict[str, dict]:
    return {f"r{c.handle}": public(c.result) for c in trace.calls if c.handle and c.result}


def share_claim(answer: dict) -> dict:
    (claim,) = [c for c in answer["claims"] if c["sources"][0].endswith(".share_of_total")]
    return claim


class TestAnswered:
    @pytest.mark.parametrize("qid", ["share-002", "share-003", "share-004", "share-005"])
    def test_flights_member_shares(self, flights, qid) -> None:
        """Each flights share question is answered with the layer's share_of_total, grounded,
        served clean, equal to its raw-SQL gold."""
        q = FLIGHT_QUESTIONS[qid]
        trace = attempt(flights, q["text"])
        audit = trace.served().audit
        assert audit["status"] == "answered" and audit["grounded"]
        assert audit["decision"] == "serve" and audit["findings"] == []
        assert math.isclose(audit["value"], gold(flights, q["gold"]["sql"]), rel_tol=1e-9)
        (call,) = trace.calls
        assert call.arguments["share"] is True and len(call.arguments["group_by"]) == 1

    @pytest.mark.parametrize(("qid", "part", "whole"), [
        ("share-003", ("destination", "LAX"), [("origin", ["JFK"])]),
        ("share-004", ("airline", "JetBlue Airways"), [("destination", ["BOS"])]),
        ("share-005", ("airline", "Delta Air Lines Inc."), [("origin", ["LGA"])]),
    ])
    def test_the_whole_is_filtered_and_the_part_grouped(self, flights, qid, part, whole) -> None:
        """Members inside the whole's phrase filter the total; the part's dimension is grouped
        and its row cited."""
        trace = attempt(flights, FLIGHT_QUESTIONS[qid]["text"])
        (call,) = trace.calls
        assert call.arguments["group_by"] == [part[0]]
        assert [(f["dimension"], f["values"]) for f in call.arguments["where"]] == whole
        answer = json.loads(trace.served().answer_raw)
        assert f"{part[0]}=" in share_claim(answer)["sources"][0]

    @pytest.mark.parametrize("text", [SHOP_SHARE,
                                      "What was the Online store's share of revenue in May 2019?"])
    def test_shop_revenue_share(self, shop_layer, text) -> None:
        """'X's share of' and 'what share of … came from X' on the shop, against hand SQL."""
        audit = attempt(shop_layer, text).served().audit
        assert audit["decision"] == "serve" and audit["grounded"]
        assert math.isclose(audit["value"], gold(shop_layer, SHOP_SQL), rel_tol=1e-9)

    def test_every_member_s_share(self, layer) -> None:
        """'What share … were on each platform': every member's share listed and cited; the
        demo's distinct users share out to their distinct total."""
        trace = attempt(layer, "What share of active users were on each platform in the week "
                               "of 2026-03-09?")
        audit, answer = trace.served().audit, json.loads(trace.served().answer_raw)
        assert audit["decision"] == "serve" and audit["grounded"]
        assert {v["key"] for v in answer["values"]} == {"android", "ios", "web"}
        assert math.isclose(sum(v["value"] for v in answer["values"]), 1.0)
        assert all(c["sources"][0].endswith(".share_of_total") for c in answer["claims"])


class TestRefused:
    @pytest.mark.parametrize(("fixture", "text", "why"), [
        ("shop_layer", "What share of the average order value came from the Online store in "
                       "May 2019?", "ratio metric"),
        ("layer", "How did android's share of active users change in the week of 2026-03-09?",
         "not its change"),
        ("flights", "What share of flights in 2013 went to LAX or SFO?", "more than one member"),
    ])
    def test_a_share_the_layer_cannot_give(self, request, fixture, text, why) -> None:
        """No quotient of the analyst's own: a share of a ratio, the move of a share, or two
        members' combined share is refused, saying why."""
        audit = attempt(request.getfixturevalue(fixture), text).served().audit
        assert audit["status"] == "refused" and why in audit["refusal_reason"]


@pytest.fixture(scope="module")
def served(flights) -> tuple[TraceRecord, dict]:
    """The rules analyst's answer to 'What was Delta's share of the flights out of LaGuardia in
    2013?' and its trace."""
    trace = attempt(flights, FLIGHT_QUESTIONS["share-005"]["text"])
    return trace, json.loads(trace.served().answer_raw)


class TestAudited:
    def test_audit_answer_resolves_the_field(self, flights, served) -> None:
        """showwork.audit_answer over the trace's results in the public shape gives the stored
        audit: grounded, served clean."""
        trace, answer = served
        report = audit_answer(answer, results_of(trace), trace.catalog,
                              question=trace.question.text)
        assert report.grounded and report.decision == "serve" and not report.findings
        assert report.decision == trace.served().audit["decision"]

    def test_an_edited_share_is_withheld(self, served) -> None:
        """A lie about the share — the claim's value and text edited — does not match the cited
        field, and the answer is withheld."""
        trace, answer = served
        lie = copy.deepcopy(answer)
        claim = share_claim(lie)
        said = say(claim["value"], "fraction")
        assert claim["text"].endswith(said)
        claim["value"] = round(claim["value"] + 0.05, 4)
        claim["text"] = claim["text"].replace(said, say(claim["value"], "fraction"))
        report = audit_answer(lie, results_of(trace), trace.catalog,
                              question=trace.question.text)
        assert report.decision == "withhold"
        assert "value_mismatch" in {d.code for d in report.defects}

    def test_an_edited_headline_is_withheld(self, served) -> None:
        """The prose stating another share than any claim supports is an unsupported number."""
        trace, answer = served
        lie = copy.deepcopy(answer)
        said = say(share_claim(answer)["value"], "fraction")  # as the analyst writes it
        assert said in lie["answer"]
        lie["answer"] = lie["answer"].replace(said, "31.0%")
        report = audit_answer(lie, results_of(trace), trace.catalog,
                              question=trace.question.text)
        assert report.decision == "withhold"
        assert "unsupported_number" in {d.code for d in report.defects}

    def test_a_level_where_a_share_was_asked(self, served) -> None:
        """Citing the member's count alone for a share question is the wrong shape."""
        trace, answer = served
        level = copy.deepcopy(answer)
        level["claims"] = [c for c in level["claims"] if c["sources"][0].endswith(".value")]
        level["value"] = level["claims"][0]["value"]
        level["answer"] = level["claims"][0]["text"] + "."
        report = audit_answer(level, results_of(trace), trace.catalog,
                              question=trace.question.text)
        assert "off_question_shape" in {f.code for f in report.findings}

    def test_a_percent_states_the_fraction(self, shop_layer) -> None:
        """'36.1 %' states a share_of_total of 0.3612 (fractions read as percents, at the
        written precision); '36.5 %' does not."""
        results = {"r1": {"metrics": ["revenue"], "rows": [
            {"store": "Online", "revenue": {"value": 3612.0, "share_of_total": 0.3612}},
            {"store": "Brooklyn", "revenue": {"value": 6388.0, "share_of_total": 0.6388}}],
            "window": {"start": "2019-05-01", "end": "2019-05-31"}}}

        def said(text: str) -> bool:
            answer = {"status": "answered", "answer": f"Online had {text} of revenue.",
                      "value": 0.3612, "claims": [
                          {"text": f"Online's share of revenue was {text}", "kind": "measurement",
                           "sources": ["r1[store=Online]:revenue.share_of_total"],
                           "value": 0.3612}]}
            return audit_answer(answer, results, shop_layer.catalog()).grounded

        assert said("36.1 %") and said("36.12%")
        assert not said("36.5 %")


class TestOverMcp:
    def test_the_tool_schema_offers_shares(self) -> None:
        """The query tool (OpenAI's function and MCP's tool alike) takes share, strict-valid."""
        protocol = Protocol.parse("claims+repair")
        query = next(t for t in tool_schemas(protocol) if t["function"]["name"] == "query")
        assert "share_of_total" in query["function"]["parameters"]["properties"]["share"][
            "description"]
        assert strict_problems(query) == []
        mcp = next(t for t in tool_list(protocol) if t.name == "query")
        assert "share" in mcp.input_schema["properties"]

    def test_submit_answer_resolves_the_field(self, shop_layer) -> None:
        """An MCP client's shares query and its answer citing share_of_total: grounded, clean;
        the same answer stating another share is withheld."""
        session = McpSession(shop_layer, shop_layer.catalog())
        view, blocked = session.call("query", {
            "metrics": ["revenue"], "window": {"start": "2019-05-01", "end": "2019-05-31"},
            "group_by": ["store"], "share": True})
        assert not blocked
        (row,) = [r for r in json.loads(view)["rows"] if r["key"]["store"] == "Online"]
        share = row["values"]["revenue"]["share_of_total"]
        assert math.isclose(share, gold(shop_layer, SHOP_SQL), rel_tol=1e-9)

        def answer(pct: float) -> dict:
            return {"status": "answered", "answer": f"The Online store had {pct:.1f}% of revenue "
                    "in May 2019.", "value": share, "claims": [
                        {"text": f"The Online store's share of revenue in May 2019 was "
                                 f"{pct:.1f}%", "kind": "measurement",
                         "sources": ["r1[store=Online]:revenue.share_of_total"],
                         "value": share}]}

        lie = session.submit(answer(share * 100 + 5), SHOP_SHARE)
        assert lie["decision"] == "withhold"
        reply = session.submit(answer(share * 100), SHOP_SHARE)
        assert reply["grounded"] and reply["decision"] == "serve" and reply["findings"] == []
