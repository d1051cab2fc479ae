"""A point-in-time metric's value over a span no one name says is given as of its last day:
'Monthly recurring revenue was $61,988.28 as of 17 June 2026', not '… at the end of 1 January
2025 to 17 June 2026' (what the rules analyst wrote for 'what is our mrr right now'); a named
period keeps 'at the end of May 2026'. Served clean on two domains."""

from __future__ import annotations

import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol


@pytest.mark.parametrize(("fixture", "question", "said"), [
    ("layer", "what is our mrr right now", "as of 17 June 2026"),
    ("layer", "mrr from march to may 2026", "as of 31 May 2026"),
    ("layer", "mrr at the end of may 2026", "at the end of May 2026"),
    ("shop_layer", "customer base now", "as of 14 August 2019"),
])
def test_a_level_over_a_span_is_as_of_its_last_day(request, fixture: str, question: str,
                                                   said: str) -> None:
    record = run_attempt(Question("ask", question), RulesClient(),
                         request.getfixturevalue(fixture), Protocol.parse("claims"))
    served = record.served()
    answer = json.loads(served.answer_raw)
    assert said in answer["answer"] and " to " not in answer["answer"].split("(")[0]
    assert served.audit["decision"] == "serve" and not served.audit["findings"]
