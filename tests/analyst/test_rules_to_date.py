"""A period the data is still inside (docs/serving.md): a level, breakdown or ranking by
members is answered to date, through the last covered day, says so in its claim and in a note,
and is served with the audit's `partial_period` caveat; a series by a grain is answered with its
last, partial period caveated; a change across a cut window and a ranking of periods stay
refused. The audit holds the words: another day is not read. On the shop (orders through
2019-08-14) and the demo (events and signups through 2026-06-17)."""

from __future__ import annotations

import json

import pytest
from gold_sql import scalar

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer

SHOP_2019 = ("SELECT sum(order_total) FROM orders WHERE NOT is_test AND status <> 'cancelled' "
             "AND CAST(ordered_at AS DATE) BETWEEN DATE '2019-01-01' AND DATE '2019-12-31'")
DEMO_JUNE = ("SELECT count(*) FROM users WHERE NOT is_test "
             "AND signup_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30'")


def _served(layer: SemanticLayer, text: str) -> tuple[dict, dict]:
    """The served round's audit and the attempt's record."""
    record = json.loads(run_attempt(Question("t", text), RulesClient(), layer,
                                    Protocol.parse("claims+repair")).model_dump_json())
    served = next(r for r in record["rounds"] if r["round"] == record["served_round"])
    return served["audit"], record


def _to_date(audit: dict, through: str, day: str) -> None:
    """Answered to date, each claim saying through which day, with the partial-period caveat
    alone (the words are read), never clean."""
    assert audit["status"] == "answered", audit.get("refusal_reason")
    assert f"(The data ends {day}: " in audit["answer_text"]
    assert all(f"to date, through {through}" in c["text"] for c in audit["claims"])
    assert audit["decision"] == "serve_with_caveats"
    codes = {d["code"] for d in audit["defects"]} | {f["code"] for f in audit["findings"]}
    assert codes == {"partial_period"}, codes
    assert audit["grounded"] is True


def _first(layer: SemanticLayer, sql: str) -> object:
    """The one value a raw SQL returns."""
    cursor = layer.connection.cursor()
    try:
        (value,) = cursor.execute(sql).fetchone()
    finally:
        cursor.close()
    return value


def _reaudit(record: dict, old: str, new: str) -> set[str]:
    """Codes of the served answer re-audited with `old` written `new` in its prose and claims."""
    served = next(r for r in record["rounds"] if r["round"] == record["served_round"])
    answer = json.loads(served["answer_raw"])
    assert old in answer["answer"]
    answer["answer"] = answer["answer"].replace(old, new)
    for claim in answer["claims"]:
        claim["text"] = claim["text"].replace(old, new)
    calls = [c for c in record["calls"] if c.get("round", 0) <= served["round"]]
    report = audit(answer, Evidence.from_json(calls), record["catalog"],
                   record["question"].get("category"), question=record["question"]["text"])
    return ({d.code for d in report.defects} | {f.code for f in report.findings})


CASES = {"shop": ("What was revenue in 2019?", "14 August 2019", "2019-08-14", SHOP_2019),
         "demo": ("How many new users did we get in June 2026?", "17 June 2026", "2026-06-17",
                  DEMO_JUNE)}


@pytest.fixture(params=sorted(CASES))
def domain(request, layer, shop_layer) -> tuple[SemanticLayer, tuple[str, str, str, str]]:
    return {"demo": layer, "shop": shop_layer}[request.param], CASES[request.param]


def test_a_level_is_answered_to_date(domain) -> None:
    """The level through the last covered day, as the raw tables give the whole period (the
    data holds nothing after that day), with the caveat."""
    layer, (text, through, day, sql) = domain
    got, _ = _served(layer, text)
    _to_date(got, through, day)
    assert got["value"] == pytest.approx(scalar(layer, sql), rel=1e-6)


@pytest.mark.parametrize("edit", [("through", "ends"), ("day", "other")])
def test_the_audit_holds_the_day(domain, edit) -> None:
    """Another day in the claim or in the note is not read: the answer is no longer caveated
    by the partial period alone."""
    layer, (text, through, day, _) = domain
    _, record = _served(layer, text)
    if edit[0] == "through":
        d, month, year = through.split()
        codes = _reaudit(record, f"through {through}", f"through {int(d) - 3} {month} {year}")
    else:
        codes = _reaudit(record, f"(The data ends {day}:", f"(The data ends {day[:-2]}01:")
    assert codes - {"partial_period"}, codes


@pytest.mark.parametrize(("text", "layer_name"), [
    ("What was revenue by store in 2019?", "shop_layer"),
    ("Which country had the most new users in June 2026?", "layer")])
def test_a_breakdown_or_ranking_by_members_is_answered_to_date(request, text, layer_name) -> None:
    got, _ = _served(request.getfixturevalue(layer_name), text)
    assert got["status"] == "answered", got.get("refusal_reason")
    assert "(The data ends " in got["answer_text"]
    assert got["decision"] == "serve_with_caveats"
    assert "partial_period" in {f["code"] for f in got["findings"]}


@pytest.mark.parametrize(("text", "layer_name", "last"), [
    ("What was monthly revenue in 2019?", "shop_layer", "2019-08-01"),
    ("new users by week in June 2026", "layer", "2026-06-15")])
def test_a_series_is_answered_with_its_last_period_caveated(request, text, layer_name,
                                                             last) -> None:
    got, _ = _served(request.getfixturevalue(layer_name), text)
    assert got["status"] == "answered", got.get("refusal_reason")
    assert got["decision"] == "serve_with_caveats"
    partial = [f for f in got["findings"] if f["code"] == "partial_period"]
    assert partial and all(f["claim"] == partial[0]["claim"] for f in partial)
    claim = next(c for c in got["claims"] if c["id"] == partial[0]["claim"])
    assert last in json.dumps(claim) and "to date, through " in claim["text"]


@pytest.mark.parametrize(("text", "layer_name"), [
    ("How did revenue change from 2018 to 2019?", "shop_layer"),
    ("How did new users change from May 2026 to June 2026?", "layer")])
def test_changes_stay_refused(request, text, layer_name) -> None:
    """A partial period against a full one would read as a fall."""
    got, _ = _served(request.getfixturevalue(layer_name), text)
    assert got["status"] == "refused"
    assert "only partly covered" in got["refusal_reason"]


@pytest.mark.parametrize(("text", "layer_name", "covered", "least"), [
    ("Which month of 2019 had the least revenue?", "shop_layer",
     "months the data covers whole: January to July 2019",
     "SELECT strftime(date_trunc('month', ordered_at), '%Y-%m-%d') FROM orders WHERE NOT is_test "
     "AND status <> 'cancelled' AND ordered_at >= DATE '2019-01-01' AND ordered_at < DATE "
     "'2019-08-01' GROUP BY 1 ORDER BY sum(order_total) LIMIT 1"),
    ("Which week of June 2026 had the fewest new users?", "layer",
     "weeks the data covers whole: 1 to 14 June 2026",
     "SELECT strftime(date_trunc('week', signup_date), '%Y-%m-%d') FROM users WHERE NOT is_test "
     "AND signup_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-14' GROUP BY 1 "
     "ORDER BY count(*) LIMIT 1")])
def test_a_ranking_of_periods_ranks_the_whole_ones(request, text, layer_name, covered,
                                                   least) -> None:
    """Issue 42: the periods the data covers whole are ranked, asked again over them (a partial
    one would read as a small one), and the answer says so; never served clean (the cited
    window is not the question's)."""
    layer = request.getfixturevalue(layer_name)
    got, _ = _served(layer, text)
    assert got["status"] == "answered", got.get("refusal_reason")
    assert f"(Ranked over the {covered}.)" in got["answer_text"]
    assert got["decision"] == "serve_with_caveats"
    assert "off_question_window" in {f["code"] for f in got["findings"]}
    assert got["value"] == _first(layer, least)


@pytest.mark.parametrize(("text", "layer_name", "top"), [
    ("what was the best day for orders in 2019", "shop_layer",
     "SELECT strftime(CAST(ordered_at AS DATE), '%Y-%m-%d') FROM orders WHERE NOT is_test "
     "AND status <> 'cancelled' AND year(ordered_at) = 2019 GROUP BY 1 ORDER BY count(*) DESC "
     "LIMIT 1"),
    ("Which day had the most real value moments in June 2026?", "layer",
     "SELECT strftime(CAST(e.event_ts AS DATE), '%Y-%m-%d') FROM events e JOIN users u "
     "USING (user_id) WHERE NOT u.is_test AND e.event_type = 'value_moment' AND e.event_ts >= "
     "TIMESTAMP '2026-06-01' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")])
def test_a_ranking_of_whole_periods_is_answered_to_date(request, text, layer_name, top) -> None:
    """The data ends on the last day of a period of the grain (a day): every period ranked is
    whole, so none reads as a small one; the answer says to date, through which day."""
    layer = request.getfixturevalue(layer_name)
    got, _ = _served(layer, text)
    assert got["status"] == "answered", got.get("refusal_reason")
    assert "to date, through " in got["answer_text"]
    assert got["value"] == _first(layer, top)
    assert "unread_answer" not in {f["code"] for f in got["findings"]}
