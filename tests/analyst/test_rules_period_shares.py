"""A share of a whole across periods (issue 42): 'what fraction of the year's cancellations
happened in February' is the part period's value over the whole period's, one metric with the
same filters. The rules analyst asks for both and cites both; the audit holds the quotient to
them, and only when the part period lies inside the whole, the filters agree and the metric adds
up over time — on the flights, the shop and the demo."""

from __future__ import annotations

import copy
import json
import math

import pytest

from showwork import audit_answer
from showwork._results import public
from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.gold import evaluate
from showwork.protocol.rendered import say
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.traces import TraceRecord

FLIGHTS_FEBRUARY = "What fraction of the year's cancellations happened in February?"
FLIGHTS_SQL = """
    SELECT count(*) FILTER (WHERE month(flight_date) = 2)::DOUBLE / count(*) FROM flights
    WHERE dep_time IS NULL AND flight_date BETWEEN DATE '2013-01-01' AND DATE '2013-12-31'"""
FLIGHTS_JFK = "What share of 2013's departed flights from JFK were in the second quarter?"
FLIGHTS_JFK_SQL = """
    SELECT count(*) FILTER (WHERE quarter(flight_date) = 2)::DOUBLE / count(*) FROM flights
    WHERE dep_delay IS NOT NULL AND origin = 'JFK'
    AND flight_date BETWEEN DATE '2013-01-01' AND DATE '2013-12-31'"""
SHOP_MARCH = "What share of Q1's orders came in March?"
SHOP_SQL = """
    SELECT count(*) FILTER (WHERE month(ordered_at) = 3)::DOUBLE / count(*) FROM orders
    WHERE NOT is_test AND status <> 'cancelled'
    AND CAST(ordered_at AS DATE) BETWEEN DATE '2019-01-01' AND DATE '2019-03-31'"""
FLIGHTS_ALL = "What fraction of all cancellations happened in February?"
FLIGHTS_ALL_SQL = """
    SELECT count(*) FILTER (WHERE month(flight_date) = 2)::DOUBLE / count(*) FROM flights
    WHERE dep_time IS NULL"""
TUTORIAL_ALL = "What fraction of all alterations happened in the week of March 21?"
TUTORIAL_ALL_SQL = """
    SELECT sum(transaction_amount_usd) FILTER (WHERE ds BETWEEN '2022-03-21' AND '2022-03-27')
    / sum(transaction_amount_usd) FROM transactions WHERE transaction_type_name = 'alteration'"""
DEMO_DECEMBER = "What percentage of 2025's new users signed up in December?"
DEMO_SQL = """
    SELECT count(*) FILTER (WHERE month(signup_date) = 12)::DOUBLE / count(*) FROM users
    WHERE NOT is_test AND signup_date BETWEEN DATE '2025-01-01' AND DATE '2025-12-31'"""


@pytest.fixture(scope="module")
def flights(flights_layer: SemanticLayer) -> SemanticLayer:
    return flights_layer


def attempt(layer: SemanticLayer, text: str) -> TraceRecord:
    return run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims+repair"))


def gold(layer: SemanticLayer, sql: str) -> float:
    """The raw-SQL gold, on the governed connection's database (one DuckDB configuration)."""
    cursor = layer.connection.cursor()
    value = evaluate(cursor, sql)
    cursor.close()
    return float(value)


def results_of(trace: TraceRecord) -> dict[str, dict]:
    """The trace's results in the public shape, each with its call's filters."""
    return {f"r{c.handle}": {**public(c.result), "where": c.arguments.get("where") or []}
            for c in trace.calls if c.handle and c.result}


def share_claim(answer: dict) -> dict:
    (claim,) = [c for c in answer["claims"] if len(c["sources"]) == 2]
    return claim


def audited(trace: TraceRecord, answer: dict, results: dict | None = None):
    return audit_answer(answer, results if results is not None else results_of(trace),
                        trace.catalog, question=trace.question.text)


class TestAnswered:
    @pytest.mark.parametrize(("fixture", "text", "sql"), [
        ("flights", FLIGHTS_FEBRUARY, FLIGHTS_SQL),
        ("flights", FLIGHTS_JFK, FLIGHTS_JFK_SQL),
        ("shop_layer", SHOP_MARCH, SHOP_SQL),
        ("layer", DEMO_DECEMBER, DEMO_SQL),
        # 'of all X': the whole of the metric's data, never the rate of the period named
        ("flights", FLIGHTS_ALL, FLIGHTS_ALL_SQL),
        ("tutorial_layer", TUTORIAL_ALL, TUTORIAL_ALL_SQL),
    ])
    def test_equal_to_the_raw_sql_and_served_clean(self, request, fixture, text, sql) -> None:
        """Each share of a whole period is answered grounded, served clean, equal to its
        raw-SQL gold."""
        layer = request.getfixturevalue(fixture)
        audit = attempt(layer, text).served().audit
        assert audit["status"] == "answered" and audit["grounded"]
        assert audit["decision"] == "serve" and audit["findings"] == []
        assert math.isclose(audit["value"], gold(layer, sql), rel_tol=1e-9)

    def test_the_year_is_the_year_holding_february(self, flights) -> None:
        """'The year's cancellations … in February': two queries of cancelled flights (not the
        cancellation rate), 2013 and February 2013, with the same filters; the share claim cites
        the part first and the whole second."""
        trace = attempt(flights, FLIGHTS_FEBRUARY)
        whole, part = trace.calls
        assert whole.arguments["metrics"] == part.arguments["metrics"] == ["cancelled_flights"]
        assert whole.arguments["window"] == {"start": "2013-01-01", "end": "2013-12-31"}
        assert part.arguments["window"] == {"start": "2013-02-01", "end": "2013-02-28"}
        claim = share_claim(json.loads(trace.served().answer_raw))
        assert claim["sources"] == [f"r{part.handle}:cancelled_flights.value",
                                    f"r{whole.handle}:cancelled_flights.value"]

    def test_the_whole_keeps_the_filters(self, flights) -> None:
        """'2013's departed flights from JFK': both periods are asked with origin = JFK."""
        trace = attempt(flights, FLIGHTS_JFK)
        wheres = [c.arguments["where"] for c in trace.calls]
        assert wheres == [[{"dimension": "origin", "op": "in", "values": ["JFK"]}]] * 2

    def test_one_period_is_still_the_rate(self, flights) -> None:
        """'What share of flights were cancelled in February' names one period: the governed
        cancellation rate, one query."""
        (call,) = attempt(flights, "What share of flights were cancelled in February 2013?").calls
        assert call.arguments["metrics"] == ["cancellation_rate"]

    def test_a_ratio_is_no_share_of_a_period(self, flights) -> None:
        """A ratio's value over February is no part of its value over the year: refused, saying
        why."""
        audit = attempt(flights, "What fraction of the year's average departure delay was in "
                                 "February?").served().audit
        assert audit["status"] == "refused" and "ratio" in audit["refusal_reason"]


class TestAWholeTheDataEndsInside:
    """'What fraction of the year's revenue came in March', the year covered only to the data's
    last day: the share of the covered part, to date, and the answer says through which day
    (a caveat of the partial whole, never a refusal); a part the data ends inside is still
    refused."""

    @pytest.mark.parametrize(("fixture", "text", "sql", "through"), [
        ("intro_layer", "What fraction of the year's revenue came in March?",
         "SELECT sum(amount) FILTER (WHERE month(order_date::DATE) = 3) / sum(amount) "
         "FROM raw_orders WHERE order_date::DATE BETWEEN '2023-01-01' AND '2023-12-31'",
         "2023 to date, through 15 May 2023"),
        ("layer", "what fraction of this year's signups happened in March?",
         "SELECT count(*) FILTER (WHERE month(signup_date) = 3)::DOUBLE / count(*) FROM users "
         "WHERE NOT is_test AND signup_date BETWEEN DATE '2026-01-01' AND DATE '2026-12-31'",
         "2026 to date, through 17 June 2026"),
    ])
    def test_the_covered_part_said_so(self, request, fixture, text, sql, through) -> None:
        layer = request.getfixturevalue(fixture)
        trace = attempt(layer, text)
        audit = trace.served().audit
        assert audit["status"] == "answered" and audit["grounded"]
        assert math.isclose(audit["value"], gold(layer, sql), rel_tol=1e-9)
        assert through in json.loads(trace.served().answer_raw)["answer"]
        assert {f["code"] for f in audit["findings"]} <= {"partial_period"}

    def test_a_part_the_data_ends_inside_is_refused(self, intro_layer) -> None:
        audit = attempt(intro_layer, "What fraction of the year's revenue came in "
                                     "May?").served().audit
        assert audit["status"] == "refused" and "partly covered" in audit["refusal_reason"]


@pytest.fixture(scope="module")
def served(flights) -> tuple[TraceRecord, dict]:
    trace = attempt(flights, FLIGHTS_FEBRUARY)
    return trace, json.loads(trace.served().answer_raw)


def codes(report) -> set[str]:
    return {d.code for d in report.defects} | {f.code for f in report.findings}


class TestAudited:
    def test_audit_answer_serves_it_clean(self, served) -> None:
        """showwork.audit_answer over the results and their filters: grounded, served clean,
        as the stored audit."""
        trace, answer = served
        report = audited(trace, answer)
        assert report.grounded and report.decision == "serve" and not report.findings

    def test_an_edited_share_is_withheld(self, served) -> None:
        """A share 5 points off the quotient of its sources is a value mismatch."""
        trace, answer = served
        lie = copy.deepcopy(answer)
        claim = share_claim(lie)
        said = say(claim["value"], "fraction")
        claim["value"] = round(claim["value"] + 0.05, 4)
        claim["text"] = claim["text"].replace(said, say(claim["value"], "fraction"))
        lie["answer"] = lie["answer"].replace(said, say(claim["value"], "fraction"))
        lie["value"] = claim["value"]
        report = audited(trace, lie)
        assert report.decision == "withhold" and "value_mismatch" in codes(report)

    def test_other_filters_are_no_share(self, served) -> None:
        """The part asked with a filter the whole lacks (JFK's February over every airport's
        year) is no share of that whole: a value mismatch."""
        trace, answer = served
        results = results_of(trace)
        part = share_claim(answer)["sources"][0].split(":")[0]
        results[part]["where"] = [{"dimension": "origin", "op": "in", "values": ["JFK"]}]
        report = audited(trace, answer, results)
        assert report.decision == "withhold" and "value_mismatch" in codes(report)

    def test_filters_not_given_are_not_assumed_equal(self, served) -> None:
        """Results given without their filters cannot show the two were asked alike."""
        trace, answer = served
        results = {h: {k: v for k, v in r.items() if k != "where"}
                   for h, r in results_of(trace).items()}
        assert "value_mismatch" in codes(audited(trace, answer, results))

    def test_a_part_outside_the_whole_is_no_share(self, served) -> None:
        """The 'part' window moved outside the whole's (February 2014 over 2013) makes the
        quotient no share."""
        trace, answer = served
        results = results_of(trace)
        part = share_claim(answer)["sources"][0].split(":")[0]
        results[part]["window"] = {"start": "2014-02-01", "end": "2014-02-28"}
        assert "value_mismatch" in codes(audited(trace, answer, results))

    def test_a_share_across_metrics_stays_unlicensed(self, served) -> None:
        """The licence is for one metric's own share: the same quotient of two metrics is still
        a composition the model does not define."""
        trace, answer = served
        results = results_of(trace)
        part = share_claim(answer)["sources"][0].split(":")[0]
        renamed = copy.deepcopy(answer)
        results[part] = json.loads(json.dumps(results[part]).replace("cancelled_flights",
                                                                     "departed_flights"))
        for claim in renamed["claims"]:
            claim["sources"] = [s.replace(f"{part}:cancelled_flights", f"{part}:departed_flights")
                                for s in claim["sources"]]
        report = audited(trace, renamed, results)
        assert "unlicensed_composition" in codes(report) and report.decision == "withhold"

    def test_a_level_where_a_share_was_asked(self, served) -> None:
        """Citing February's count alone for the share question is the wrong shape."""
        trace, answer = served
        level = copy.deepcopy(answer)
        level["claims"] = level["claims"][:1]
        level["value"] = level["claims"][0]["value"]
        level["answer"] = level["claims"][0]["text"] + "."
        assert "off_question_shape" in codes(audited(trace, level))


class TestTheRateAnswered:
    def test_the_rate_for_the_share_is_not_served_clean(self, flights) -> None:
        """An answerer that gives February's cancellation rate (the issue's 5.1 %) for 'what
        fraction of the year's cancellations happened in February' is not served clean: the
        audit reads the question as the share of cancelled flights, as the analyst does, and
        says the answer gives another metric and shape (it used to read 'the year's' as unread
        and the rate as the metric asked)."""
        result = flights.query(metrics=["cancellation_rate"],
                               window={"start": "2013-02-01", "end": "2013-02-28"})
        rate = result.rows[0].values["cancellation_rate"]["value"]
        said = say(rate, "fraction")
        answer = {"status": "answered", "answer": f"{said} of flights in February 2013 were "
                  "cancelled.", "value": rate,
                  "claims": [{"text": f"The cancellation rate was {said} in February 2013",
                              "kind": "measurement", "sources": ["r1:cancellation_rate.value"],
                              "value": rate}]}
        report = audit_answer(answer, {"r1": {**public(result.to_json()), "where": []}},
                              flights.catalog(), question=FLIGHTS_FEBRUARY)
        assert report.decision != "serve" or report.findings
        assert {"off_question_shape", "off_question_metric"} & codes(report)
