"""Spans of time said as people say them (issue 43: units of time converted from the metric's
unit; 'withhold only what is proven false').

- Weeks convert as seven days ('was under 1 week' of 35.5 hours), as days and hours do.
- A bound on a duration after 'was' ('was just under 13 minutes', 'was under 1 week') is the
  subject's value, held like 'about 13 minutes' (it had been taken for a window's length:
  unread, the lie 'just over 13 minutes' of 12.6 served with a caveat).
Tested on the flights (minutes) and a support desk governed in hours (tests/support)."""

from __future__ import annotations

import copy
import json
import re

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.project import load_project


@pytest.fixture(scope="module")
def tickets_layer(tmp_path_factory) -> SemanticLayer:
    """A second project timed in hours (tests/support/tickets_project.py)."""
    from tickets_project import build

    folder = build(tmp_path_factory.mktemp("tickets"))
    return SemanticLayer(load_project(folder), folder / "warehouse.duckdb")


def _edits(layer, question: str, edits: list[tuple[str, str]]) -> dict[str, str]:
    """The audit's decision on each edit (old words → new) of the rules analyst's answer."""
    record = run_attempt(Question("ask", question), RulesClient(), layer, Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.audit["decision"] == "serve"
    answer = json.loads(served.answer_raw)
    calls = [c.model_dump(mode="json") for c in record.calls if c.round <= served.round]
    out = {}
    for old, new in edits:
        edited = copy.deepcopy(answer)
        assert old in edited["answer"], (old, edited["answer"])
        edited["answer"] = edited["answer"].replace(old, new)
        out[new] = audit(edited, Evidence.from_json(calls), record.catalog, None,
                         question=question).decision
    return out


def test_tickets_hours_said_in_days(tickets_layer) -> None:
    question = "what was the average time to resolve in february 2024?"
    record = run_attempt(Question("ask", question), RulesClient(), tickets_layer,
                         Protocol.parse("claims"))
    answer = json.loads(record.served().answer_raw)
    hours = answer["claims"][0]["value"]
    said = re.search(rf"{hours:.3g} h(?:ours)?\b", answer["answer"])  # the analyst's unit
    assert said is not None, answer["answer"]
    days = hours / 24
    got = _edits(tickets_layer, question, [(said.group(), f"about {days:.1f} days"),
                                           (said.group(), f"about {days * 1.5:.1f} days"),
                                           (f"was {said.group()}", "was under 1 week"),
                                           (f"was {said.group()}", "was over 1 week")])
    assert list(got.values()) == ["serve", "withhold", "serve", "withhold"], got


@pytest.mark.parametrize(("fixture", "question", "old", "true", "false"), [
    ("flights_layer", "What was the average departure delay in 2013?", "was 12.6 min",
     "was just under 13 minutes", "was just over 13 minutes"),
    ("flights_layer", "What was the average departure delay in 2013?", "was 12.6 min",
     "was less than 13 minutes", "was more than 13 minutes"),
])
def test_a_bound_on_a_duration_after_was_is_held(request, fixture: str, question: str,
                                                 old: str, true: str, false: str) -> None:
    got = _edits(request.getfixturevalue(fixture), question, [(old, true), (old, false)])
    assert got == {true: "serve", false: "withhold"}
