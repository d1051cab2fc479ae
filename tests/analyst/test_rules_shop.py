"""The rules analyst on a second domain, the shop (examples/shop): its gold questions answered
from its own catalog, with members that need quoting and dimensions reached by two joins."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml
from gold_sql import resolved

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.gold import is_correct
from showwork.protocol.citations import parse_citation
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
QUESTIONS = yaml.safe_load((SHOP / "questions.yaml").read_text(encoding="utf-8"))["questions"]


@pytest.fixture(scope="module")
def shop(shop_layer: SemanticLayer) -> SemanticLayer:
    """The shop's governed layer over its warehouse (tests/conftest.py)."""
    return shop_layer


def _run(layer: SemanticLayer, text: str):
    return run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims"))


@pytest.fixture(scope="module")
def scored(shop) -> list[tuple[dict, dict, bool]]:
    """(question, served audit, correct) for every shop question."""
    out = []
    for q in QUESTIONS:
        trace = _run(shop, q["text"])
        audit, answer = trace.served().audit, json.loads(trace.served().answer_raw)
        correct = audit["status"] == "answered" and is_correct(
            audit["value"], audit["driver"], resolved(shop, q.get("gold") or {}),
            values=answer["values"])
        out.append((q, audit, correct))
    return out


def test_balanced_accuracy_on_the_shop(scored) -> None:
    """Balanced accuracy is at least 0.9 (answerable questions answered correctly, the rest
    refused), with at most 5 % of the questions missed."""
    answerable = [c for q, _a, c in scored if q["answerable"]]
    refused = [a["status"] == "refused" for q, a, _c in scored if not q["answerable"]]
    balanced = (sum(answerable) / len(answerable) + sum(refused) / len(refused)) / 2
    assert balanced >= 0.9, balanced
    missed = Counter(q["category"] for q, a, c in scored
                     if not (c if q["answerable"] else a["status"] == "refused"))
    assert sum(missed.values()) <= 0.05 * len(scored), missed


def test_every_shop_answer_is_grounded(scored) -> None:
    """Every answer, tables included, is grounded: no defect in any claim, listed value or
    headline."""
    answered = [(q, a) for q, a, _c in scored if a["status"] == "answered"]
    assert len(answered) >= 55
    assert [q["id"] for q, a in answered if a["grounded"] is not True or a["defects"]] == []


def _to_date(audit: dict) -> bool:
    """A period the data is still inside, answered to date: its partial_period caveat alone,
    by design (docs/serving.md)."""
    return "(The data ends " in audit["answer_text"] and \
        {f["code"] for f in audit["findings"]} == {"partial_period"}


def test_no_finding_on_a_right_shop_answer(scored) -> None:
    """On the second catalog, no right answer carries a finding (a mislabelled metric, member or
    window, a question-scope finding, …), and each answer's scope is checked in full: the shared
    reader reads every answered shop question. The one finding kept: 'Chai' is also the start
    of 'Chai Latte' and 'chai and mighty', so its answer is never served clean."""
    flagged = [(q["id"], [f["code"] for f in a["findings"]]) for q, a, c in scored
               if c and a["findings"] and not _to_date(a)]
    assert flagged == [("lookup-007", ["unread_question"])]
    [doubt] = [f for q, a, _c in scored if q["id"] == "lookup-007" for f in a["findings"]]
    assert "also has Chai Latte, chai and mighty" in doubt["evidence"]["read_as"]
    unchecked = [(q["id"], a["scope_note"]) for q, a, _c in scored
                 if a["status"] == "answered" and not a["scope_checked"]]
    assert unchecked == []


def test_tables_list_values_for_breakdowns_rankings_and_series(scored) -> None:
    """Breakdown, ranking and series questions are answered with graphs whose claims cite a row
    each (quoted members included)."""
    for q, audit, correct in scored:
        if q["category"] in ("breakdown", "ranking", "series"):
            rows = {c["sources"][0] for c in audit["claims"] if c["kind"] == "measurement"}
            assert correct and len(rows) >= 2, q["id"]


def test_quoted_members_are_cited_and_resolve(shop) -> None:
    """Stores with spaces and an apostrophe are cited as quoted members that resolve."""
    audit = _run(shop, "What was revenue by store in June 2019?").served().audit
    sources = [c["sources"][0] for c in audit["claims"]]
    assert 'r1[store="O\'Hare Airport"]:revenue.value' in sources
    assert 'r1[store="Toronto (Queen St. W)"]:revenue.value' in sources
    assert dict(parse_citation(sources[1]).selector)["store"] == "New York 5th Ave"
    assert audit["grounded"] is True


def test_member_filters_use_a_dimension_the_metric_supports(shop) -> None:
    """'the Brooklyn store' filters items sold through the order's store, revenue through its own
    store dimension: the same member, the dimension each metric supports."""
    items = _run(shop, "How many items did the Brooklyn store sell in July 2019?")
    revenue = _run(shop, "What was revenue at the Brooklyn store in July 2019?")
    assert items.calls[0].arguments["where"][0]["dimension"] == "order__store__store_name"
    assert revenue.calls[0].arguments["where"][0]["dimension"] == "store"


def test_drill_weights_come_from_the_catalog(shop) -> None:
    """Why revenue fell in May 2019: the drill weighs average order value by its denominator,
    order count, over the shop's small dimensions, and names the store mix moving online."""
    trace = _run(shop, "Why did revenue fall in May 2019?")
    drills = [c.arguments for c in trace.calls if c.arguments.get("by")]
    assert drills and all(a["metrics"][:2] == ["average_order_value", "order_count"]
                          for a in drills[:-1])
    assert {"store", "region", "segment"} <= {a["by"] for a in drills}
    audit = trace.served().audit
    assert audit["driver"] == "average_order_value" and audit["grounded"] is True
    assert "the store mix shifted toward Online" in audit["answer_text"]


def test_a_count_over_no_rows_is_said_to_have_no_value(shop) -> None:
    """Toronto's only real order on 2018-02-08 was cancelled: orders there have no value (a count
    over no rows is null, as MetricFlow's). The answer says so, served grounded, and writes no 0."""
    trace = _run(shop, "How many orders did Toronto (Queen St. W) have on 2018-02-08?")
    served = trace.served()
    answer = json.loads(served.answer_raw)
    (claim,) = answer["claims"]
    assert claim["value"] is None and "had no value" in claim["text"]
    assert " 0" not in answer["answer"] and served.audit["grounded"] is True


@pytest.mark.parametrize(("text", "codes"), [
    ("Orders (store Toronto) were 0 on 2018-02-08", ["unsupported_number"]),
    ("Orders (store Toronto) had no value on 2018-02-08", []),
])
def test_a_zero_for_a_null_count_is_not_grounded(text: str, codes: list[str]) -> None:
    """The audit on a cited null: '0' is a number no field says (the field is null), 'no value'
    is what it says."""
    import showwork

    results = {"r1": {"metrics": ["orders"], "rows": [{"store": "Toronto", "orders": None}]}}
    answer = {"status": "answered", "answer": text + ".", "value": None, "claims": [
        {"text": text, "kind": "measurement", "value": None,
         "sources": ["r1[store=Toronto]:orders.value"]}]}
    report = showwork.audit_answer(answer, results=results)
    assert report.grounded is (not codes) and sorted(d.code for d in report.defects) == codes
