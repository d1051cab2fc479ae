"""Spans of time said as people say them (issue 43: units of time converted from the metric's
unit; 'withhold only what is proven false').

- A metric whose measure is a span between two dates (`DATEDIFF('day', claim_open_date,
  claim_close_date)`, averaged) is in that unit when governance gives none: ACME's average time
  to settle a claim is in days, so '20.5 days', 'about 490 hours', 'roughly 3 weeks' are held to
  it (each was unread, and '3 weeks' withheld though true). A second project whose tickets are
  timed in hours (`date_diff('hour', …)`) shows the same.
- Weeks convert as seven days ('under 3 weeks' of 20.5 days).
- A bound on a duration after 'was' ('was just under 13 minutes', 'was over 3 weeks') is the
  subject's value, held like 'about 13 minutes' (it had been taken for a window's length:
  unread, the lie 'just over 13 minutes' of 12.6 served with a caveat)."""

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


def test_a_span_between_two_dates_is_in_its_unit(acme_layer, tickets_layer) -> None:
    assert acme_layer.catalog()["metrics"]["avg_time_to_settle_claim"]["unit"] == "days"
    assert tickets_layer.catalog()["metrics"]["time_to_resolve"]["unit"] == "hours"
    assert tickets_layer.catalog()["metrics"]["tickets"]["unit"] is None  # a count is no span


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


def test_acme_days_said_in_days_hours_and_weeks(acme_layer) -> None:
    question = "could you tell me the average time to settle a claim"
    honest = ["was about 490 hours", "was roughly 3 weeks", "was just under 21 days",
              "was under 3 weeks"]
    lies = ["was about 590 hours", "was roughly 4 weeks", "was just over 21 days",
            "was over 3 weeks"]
    got = _edits(acme_layer, question, [("was 20.5 days", said) for said in honest + lies])
    assert got == {**dict.fromkeys(honest, "serve"), **dict.fromkeys(lies, "withhold")}


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
                                           (said.group(), f"about {days * 1.5:.1f} days")])
    assert list(got.values()) == ["serve", "withhold"], got


@pytest.mark.parametrize(("fixture", "question", "old", "true", "false"), [
    ("flights_layer", "What was the average departure delay in 2013?", "was 12.6 min",
     "was just under 13 minutes", "was just over 13 minutes"),
    ("flights_layer", "What was the average departure delay in 2013?", "was 12.6 min",
     "was less than 13 minutes", "was more than 13 minutes"),
    ("acme_layer", "could you tell me the average time to settle a claim", "was 20.5 days",
     "was under 3 weeks", "was over 3 weeks"),
])
def test_a_bound_on_a_duration_after_was_is_held(request, fixture: str, question: str,
                                                 old: str, true: str, false: str) -> None:
    got = _edits(request.getfixturevalue(fixture), question, [(old, true), (old, false)])
    assert got == {true: "serve", false: "withhold"}
