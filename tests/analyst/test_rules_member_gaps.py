"""'How many more flights went to LAX than to SFO', 'the difference in revenue between Brooklyn
and Philadelphia' (issue 42, session 11's fresh questions): two members of one dimension set
apart. They were refused ('more', 'difference', 'between' unread); now the first member's value
less the second's is the headline, both rows cited, the prose saying how far the larger is above
the other, and the audit holds it: a headline that is one member's level is
`off_question_shape`.

Generated from each domain's catalog: its first dimension with closed members that every
counted (non-rate) metric can be split by, its first two members, each metric; the value is
checked against the layer's own two levels."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from showwork.analyst.rules import RulesClient
from showwork.benchmarks.audit import case_report, cases_of
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol

DOMAINS = {"shop_layer": ("store", "June 2019", "2019-06-01", "2019-06-30"),
           "flights_layer": ("origin", "July 2013", "2013-07-01", "2013-07-31")}


def _cases(layer, dim: str) -> list[tuple[str, str, str, str]]:
    catalog = layer.catalog()
    first, second = catalog["dimensions"][dim]["members"][:2]
    return [(name, m.get("label") or name, first, second)
            for name, m in catalog["metrics"].items()
            if m.get("unit") == "count" and dim in m.get("dimensions", ())
            and not m.get("point_in_time")][:3]


def _ask(layer, text: str):
    record = run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims"))
    return record, record.served()


def _level(layer, metric: str, dim: str, member: str, start: str, end: str) -> float:
    result = layer.query(metrics=[metric], window={"start": start, "end": end},
                         where=[{"dimension": dim, "op": "in", "values": [member]}])
    return float(result.rows[0].values[metric]["value"])


@pytest.mark.parametrize("fixture", sorted(DOMAINS))
def test_the_first_member_less_the_second(request, fixture) -> None:
    layer = request.getfixturevalue(fixture)
    dim, year, start, end = DOMAINS[fixture]
    cases = _cases(layer, dim)
    assert cases
    for metric, label, first, second in cases:
        want = _level(layer, metric, dim, first, start, end) - _level(layer, metric, dim, second,
                                                                      start, end)
        for text, value in ((f"How many more {label} did {first} have than {second} in {year}?",
                             want),
                            (f"What was the difference in {label} between {second} and {first} "
                             f"in {year}?", -want)):
            _, served = _ask(layer, text)
            answer = json.loads(served.answer_raw)
            assert answer["status"] == "answered", (text, answer.get("refusal_reason"))
            assert answer["value"] == pytest.approx(value), text
            assert served.audit["decision"] in ("serve", "serve_with_caveats"), text
            assert not [f for f in served.audit["findings"]
                        if f["code"] == "off_question_shape"], text


@pytest.mark.parametrize("fixture", sorted(DOMAINS))
def test_a_breakdown_does_not_answer_a_difference(request, fixture) -> None:
    """The two members' breakdown (its headline the top member's level), audited as the answer
    to 'how many more': off_question_shape, never served clean."""
    layer = request.getfixturevalue(fixture)
    dim, year, _start, _end = DOMAINS[fixture]
    metric, label, first, second = _cases(layer, dim)[0]
    plain, _ = _ask(layer, f"{label} for {first} and {second} in {year}")
    case = cases_of([plain.model_dump_json()])[0]
    asked = f"How many more {label} did {first} have than {second} in {year}?"
    report = case_report(replace(case, question=asked), case.answer)
    assert "off_question_shape" in {f.code for f in report.findings}
    assert report.decision != "serve"


SHARES = {"shop_layer": ("share of orders from the Brooklyn store in June 2019", "store",
                         "Brooklyn", "2019-06-01", "2019-06-30", "order_count"),
          "flights_layer": ("share of flights out of LGA in 2013", "origin", "LGA",
                            "2013-01-01", "2013-12-31", "flights")}


@pytest.mark.parametrize("fixture", sorted(SHARES))
def test_a_share_whose_one_member_is_in_the_whole(request, fixture) -> None:
    """'share of flights out of LGA in 2013': a whole whose only named member would be all of
    itself; that member is the part, its share of every member's total (was refused: no part
    named)."""
    layer = request.getfixturevalue(fixture)
    text, dim, member, start, end, metric = SHARES[fixture]
    window = {"start": start, "end": end}
    part = _level(layer, metric, dim, member, start, end)
    whole = float(layer.query(metrics=[metric], window=window).rows[0].values[metric]["value"])
    _, served = _ask(layer, text)
    answer = json.loads(served.answer_raw)
    assert answer["status"] == "answered", answer.get("refusal_reason")
    assert answer["value"] == pytest.approx(part / whole)
    assert served.audit["decision"] == "serve"
