"""A ranking whose winner is a numeric member ('What hour of the day saw the most cancellations
at Newark?': hour 16) was withheld: the audit read the headline '16' as a number no claim
states (issue 42, session 6, found by the read-whole check on the new flights questions). A
governed dimension's listed member that a cited row's key holds is a label; a number no
dimension lists stays checked (tests/harness/test_entity_keys.py)."""

from __future__ import annotations

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol


@pytest.mark.parametrize(("text", "winner"), [
    ("What hour of the day saw the most cancellations at Newark?", "16"),
    ("Which number of engines had the most flights in 2013?", "2"),  # another numeric dimension
])
def test_a_numeric_winner_is_served(flights_layer, text: str, winner: str) -> None:
    trace = run_attempt(Question("t", text), RulesClient(), flights_layer, Protocol.parse("claims"))
    audit = trace.served().audit
    assert audit["status"] == "answered" and audit["value"] == winner
    assert audit["decision"] == "serve", audit["defects"]
