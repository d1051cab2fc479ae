"""'By how many … change from A to B' asks the difference in the metric's unit (issue 42,
session 15: s15f-023 and s15f-039 were answered with the percent change as the headline and
served clean). The rules analyst heads its answer with the cited `delta`, and the audit holds
the headline to it: the same answer headed by the percent change is not served clean."""

from __future__ import annotations

import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol

CASES = [
    ("flights_layer", "by how many flights did lga's scheduled flights change from jan to feb"),
    ("flights_layer", "by how many did cancellations at laguardia change from Q3 to Q4"),
    ("shop_layer", "by how many orders did the Brooklyn store's orders change from March 2019 "
                   "to April 2019?"),
]


@pytest.mark.parametrize(("fixture", "question"), CASES)
def test_the_headline_is_the_difference(request, fixture: str, question: str) -> None:
    """Served clean with the delta as the headline; with the percent change as the headline,
    never served clean."""
    record = run_attempt(Question("ask", question), RulesClient(), request.getfixturevalue(fixture),
                         Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw
    answer = json.loads(served.answer_raw)
    calls = [c.model_dump(mode="json") for c in record.calls if c.round <= served.round]
    compared = next(c for c in calls if c["tool"] == "compare")["result"]
    fields = compared["rows"][0]["values"][next(iter(compared["rows"][0]["values"]))]
    assert answer["status"] == "answered" and answer["value"] == fields["delta"]
    assert served.audit["decision"] == "serve"
    answer["value"] = fields["pct_change"]
    report = audit(answer, Evidence.from_json(calls), record.catalog, None, question=question)
    assert report.decision != "serve"
    assert "off_question_shape" in {f.code for f in report.findings}
