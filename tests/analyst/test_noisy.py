"""The noisy simulator: labelled, seeded, injecting faults at the rate asked, fixing on repair."""

from __future__ import annotations

import json
import math

import pytest

from showwork.analyst.errors import ModelSpecError
from showwork.analyst.noisy import NoisyClient
from showwork.analyst.registry import make_client
from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol

QUESTIONS = [
    "How many active users did we have in the week of 2026-03-02?",
    "Weekly active users by platform in March 2026",
    "Compare reminder open rate by platform in the week of 2026-04-13 with the prior week",
    "Which platform had the most active users in March 2026?",
    "Daily reminders sent between April 13 and April 16, 2026",
    "How did days per user change in the week of 2026-03-09 compared with the week before?",
    "Active users by country in April 2026",
    "New users by channel in the week of 2026-03-09",
]


def _attempt(layer, client, text: str, config: str = "claims"):
    return run_attempt(Question("n", text), client, layer, Protocol.parse(config))


def test_rate_zero_equals_rules(layer) -> None:
    """At fault rate 0 the simulator's answers are exactly the rules analyst's."""
    noisy = NoisyClient(0.0, 1.0, seed=4)
    for text in QUESTIONS + ["Why did weekly value moments drop in the week of 2026-03-09?"]:
        a = _attempt(layer, noisy, text).served().answer_raw
        b = _attempt(layer, RulesClient(), text).served().answer_raw
        assert a == b


@pytest.mark.slow
@pytest.mark.parametrize("rate", [0.1, 0.3])
def test_measured_fault_rate_matches(layer, rate: float) -> None:
    """Across many seeds the share of corrupted claims is within sampling error of the rate."""
    noisy = NoisyClient(rate, 0.0, seed=0)
    for seed in range(20):
        noisy.seed = seed
        for text in QUESTIONS:
            _attempt(layer, noisy, text)
    claims = sum(i.claims for i in noisy.injections)
    faults = sum(1 for i in noisy.injections for k in i.faults if k >= 0)
    error = math.sqrt(rate * (1 - rate) / claims)
    assert claims > 500
    assert abs(faults / claims - rate) < 3 * error, (faults, claims)


@pytest.mark.slow
def test_every_defect_kind_is_injected(layer) -> None:
    """At a high rate the simulator produces each defect kind the audit knows."""
    from showwork.harness.audit import DEFECT_CODES

    noisy = NoisyClient(0.9, 0.0, seed=0)
    for seed in range(12):
        noisy.seed = seed
        for text in QUESTIONS + ["Why did weekly value moments drop in the week of 2026-03-09?"]:
            _attempt(layer, noisy, text)
    kinds = {k for i in noisy.injections for k in i.faults.values()}
    assert set(DEFECT_CODES) | {"mislabelled_metric", "flat_reasoning"} <= kinds


def test_same_seed_same_traces(layer) -> None:
    """Two runs with one seed give identical answers; another seed differs somewhere."""
    def answers(seed: int) -> list[str]:
        client = NoisyClient(0.5, 0.5, seed)
        return [_attempt(layer, client, t, "claims+repair").served().answer_raw for t in QUESTIONS]

    assert answers(7) == answers(7)
    assert answers(7) != answers(8)


def test_repair_fixes_named_faults(layer) -> None:
    """With fix rate 1, every injected citation fault is fixed in the first repair round."""
    client = NoisyClient(0.6, 1.0, seed=2)
    broken = 0
    for text in QUESTIONS:
        trace = _attempt(layer, client, text, "claims+repair")
        first = trace.rounds[0].audit
        broken += len(first["defects"])
        assert trace.served().audit["defects"] == []
    assert broken > 0


def test_labelled_as_simulated(layer) -> None:
    """Traces of the simulator say so; the spec is validated."""
    trace = _attempt(layer, make_client("noisy:rules?fault_rate=0.2&seed=1"), QUESTIONS[0])
    assert trace.simulated is True and trace.model.startswith("noisy:rules?")
    with pytest.raises(ModelSpecError, match="fault_rate must be between 0 and 1"):
        make_client("noisy:rules?fault_rate=2")
    with pytest.raises(ModelSpecError, match="Unknown noisy parameter"):
        make_client("noisy:rules?rate=0.2")


@pytest.mark.slow
def test_label_faults_are_injected_and_found(layer) -> None:
    """The simulator names a neighbouring member, period or metric in claims' texts; a claim
    carrying one (whose premises the simulator left whole) carries that finding."""
    from showwork.analyst.faults.findings import LABEL_KINDS

    noisy = NoisyClient(0.3, 0.0, seed=0)
    found: dict[str, list[bool]] = {k: [] for k in LABEL_KINDS}
    for seed in range(20):
        noisy.seed = seed
        for text in QUESTIONS + ["Why did weekly value moments for android users dip in the week "
                                 "of 2026-04-13?"]:
            audit = _attempt(layer, noisy, text).served().audit
            faults = noisy.injections[-1].faults
            for index, kind in faults.items():
                premises = audit["claims"][index]["premises"] if index >= 0 else []
                if kind in LABEL_KINDS and not any(f"c{i + 1}" in premises for i in faults):
                    codes = [f["code"] for f in audit["claims"][index]["findings"]]
                    found[kind].append(kind in codes)
    for kind, hits in found.items():
        assert len(hits) >= 5, kind
        assert sum(hits) / len(hits) >= 0.95, (kind, hits)


def test_scope_fault_answers_a_neighbouring_question(layer) -> None:
    """With scope rate 1 the simulator answers a neighbouring question, says which, and the
    audit holds the answer to the question asked."""
    client = NoisyClient(0.0, 0.0, seed=3, scope_rate=1.0)
    text = "How did days per user change in the week of 2026-03-09 compared with the week before?"
    audit = _attempt(layer, client, text).served().audit
    injection = client.injections[-1]
    assert injection.asked and injection.asked != text and injection.question == text
    assert injection.faults[-4] in [f["code"] for f in audit["findings"]]
    assert audit["grounded"] is True and audit["defects"] == []


def test_scope_rate_in_the_spec(layer) -> None:
    """scope_rate is a spec parameter, validated like the others, and named in the model."""
    client = make_client("noisy:rules?fault_rate=0&scope_rate=0.3&seed=1")
    assert client.scope_rate == 0.3 and client.name.endswith("&scope_rate=0.3")
    assert make_client("noisy:rules?seed=1").name == "noisy:rules?fault_rate=0.2&fix_rate=0.7&seed=1"
    with pytest.raises(ModelSpecError, match="scope_rate must be between 0 and 1"):
        make_client("noisy:rules?scope_rate=1.5")


def test_listed_value_faults_are_injected_and_caught(layer) -> None:
    """On breakdown, ranking and series questions the simulator changes listed values of the
    table answer among its number faults; each changed value is flagged unsupported_number at
    its index in answer.values."""
    tables = ["Weekly active users by platform in March 2026",
              "Which platform had the most active users in March 2026?",
              "Daily reminders sent between April 13 and April 16, 2026",
              "Active users by country in April 2026",
              "What were monthly new users from February to April 2026?"]
    clean = {t: json.loads(_attempt(layer, RulesClient(), t).served().answer_raw) for t in tables}
    tables = [t for t in tables if clean[t].get("values")]
    assert len(tables) >= 3
    noisy = NoisyClient(0.5, 0.0, seed=0)
    changed = flagged = 0
    for seed in range(12):
        noisy.seed = seed
        for text in tables:
            served = _attempt(layer, noisy, text).served()
            listed = json.loads(served.answer_raw).get("values") or []
            wrong = {f"answer.values[{i}]" for i, (a, b) in
                     enumerate(zip(listed, clean[text]["values"], strict=True)) if a != b}
            assert not wrong or noisy.injections[-1].faults.get(-2) == "unsupported_number"
            changed += len(wrong)
            flagged += len(wrong & {d["claim"] for d in served.audit["defects"]
                                    if d["code"] == "unsupported_number"})
    assert changed >= 5 and flagged == changed, (flagged, changed)
