"""One clean rules answer and the audit's decision on it with a sentence appended to its prose:
the harness of the tests that generate lies and honest sentences from an answer's cited rows."""

from __future__ import annotations

import json
from typing import Any

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol


def clean_answer(layer: Any, question: str) -> tuple[dict[str, Any], Evidence, dict[str, Any],
                                                      list[dict[str, Any]]]:
    """The rules analyst's answer (claims), served clean: the answer, its evidence, the catalog,
    and the calls as stored."""
    record = run_attempt(Question("ask", question), RulesClient(), layer, Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw and served.audit["decision"] == "serve"
    calls = [c.model_dump(mode="json") for c in record.calls if c.round <= served.round]
    return json.loads(served.answer_raw), Evidence.from_json(calls), record.catalog, calls


def decision_with(answer: dict[str, Any], evidence: Evidence, catalog: dict[str, Any],
                  question: str, sentence: str) -> str:
    """The audit's decision on the answer with `sentence` appended to its prose."""
    edited = {**answer, "answer": f"{answer['answer'].rstrip()} {sentence}"}
    return audit(edited, evidence, catalog, None, question=question).decision
