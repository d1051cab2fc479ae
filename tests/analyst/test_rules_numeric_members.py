"""A ranking whose winner is a numeric member ('What hour of the day saw the most cancellations
at Newark?': hour 16) was withheld: the audit read the headline '16' as a number no claim
states (issue 42, session 6, found by the read-whole check on the new flights questions). A
governed dimension's listed member that a cited row's key holds is a label; a number no
dimension lists stays checked (tests/harness/test_entity_keys.py)."""

from __future__ import annotations

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol


def test_an_hour_ranking_is_served(flights_layer) -> None:
    trace = run_attempt(Question("t", "What hour of the day saw the most cancellations at Newark?"),
                        RulesClient(), flights_layer, Protocol.parse("claims"))
    audit = trace.served().audit
    assert audit["status"] == "answered" and audit["value"] == "16"
    assert audit["decision"] == "serve", audit["defects"]


def test_an_engine_count_ranking_is_served(flights_layer) -> None:
    """Another numeric dimension (number of engines), its members listed by the catalog."""
    trace = run_attempt(Question("t", "Which number of engines had the most flights in 2013?"),
                        RulesClient(), flights_layer, Protocol.parse("claims"))
    audit = trace.served().audit
    assert audit["status"] == "answered" and audit["value"] == "2"
    assert audit["decision"] == "serve", audit["defects"]
