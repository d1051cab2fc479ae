"""Repair rounds: exact faults handed back, at most two rounds, never serve a worse round."""

from __future__ import annotations

from scripted import Scripted, call, say

from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol

WEEK = {"start": "2026-03-09", "end": "2026-03-15"}
PREV = {"start": "2026-03-02", "end": "2026-03-08"}
Q = Question("q", "Why did weekly value moments drop in the week of 2026-03-09?", "diagnostic")


def compare(*metrics: str):
    return call("compare", metrics=list(metrics), current_window=WEEK, previous_window=PREV)


def answer(*sources: str, values: list | None = None, argue: bool = True) -> dict:
    claims = [{"text": "Days per user fell", "kind": "measurement", "sources": [s],
               "premises": None, "value": (values or [None] * len(sources))[i]}
              for i, s in enumerate(sources)]
    if argue:
        claims.append({"text": "Weekly value moments moved because days per user fell",
                       "kind": "causal", "sources": None,
                       "premises": ["c1", "tree:weekly_value_moments>days_per_user"],
                       "value": None})
    return {"status": "answered", "answer": "Days per user fell.", "value": None,
            "driver": "days_per_user",
            "refusal_reason": None, "claims": claims}


def run(layer, turns, config="claims+repair"):
    client = Scripted(turns)
    return run_attempt(Q, client, layer, Protocol.parse(config)), client


def test_broken_then_fixed_in_round_one(layer) -> None:
    """A broken citation is handed back with its exact message; the fixed round is served."""
    trace, client = run(layer, [compare("days_per_user"), say(answer("r1:paid_search")),
                                say(answer("r1:days_per_user.delta"))])
    assert [len(r.audit["defects"]) for r in trace.rounds] == [1, 0]
    assert trace.served_round == 1 and trace.served().audit["decision"] == "serve"
    message = trace.rounds[0].repair_message
    assert message.startswith("Repair round 1 of 2.")
    assert ("- Claim c1 cites r1:paid_search, but r1 has no field paid_search. Fix the citation "
            "or remove the claim.") in message
    assert client.requests[-1].messages[-1]["content"] == message


def test_worse_round_is_recorded_not_served(layer) -> None:
    """A repair that breaks more is recorded, and round 0 stays served."""
    bad = answer("r1:paid_search")
    worse = answer("r9:x.value", "r1:nope", "r1::days_per_user.value")
    trace, _ = run(layer, [compare("days_per_user"), say(bad), say(worse), say(worse)])
    assert [len(r.audit["defects"]) for r in trace.rounds] == [1, 3, 3]
    assert trace.served_round == 0
    assert trace.served().audit["decision"] == "withhold"


def test_still_broken_after_two_rounds_is_withheld(layer) -> None:
    """Two failed repairs: three rounds recorded, the answer withheld, no third repair."""
    bad = say(answer("r1:paid_search"))
    trace, client = run(layer, [compare("days_per_user"), bad, bad, bad])
    assert len(trace.rounds) == 3 and trace.rounds[2].repair_message is None
    assert trace.served_round == 2 and trace.served().audit["decision"] == "withhold"
    assert client.turns == []


def test_findings_alone_do_not_trigger_repair(layer) -> None:
    """A mislabelled but resolving claim is a finding; no repair round follows."""
    mislabelled = answer("r1:days_per_user.delta")
    mislabelled["claims"][0]["text"] = "Active users fell"
    trace, _ = run(layer, [compare("days_per_user"), say(mislabelled)])
    assert len(trace.rounds) == 1 and trace.rounds[0].repair_message is None
    assert [f["code"] for f in trace.rounds[0].audit["findings"]] == [
        "mislabelled_metric", "unread_answer"]  # 'fell' of a metric no cited change holds
    assert trace.served().audit["decision"] == "serve_with_caveats"


def test_handles_continue_across_rounds(layer) -> None:
    """A repair round may call again; its handles go on from the last one (r2 after r1)."""
    trace, _ = run(layer, [compare("days_per_user"), say(answer("r2:active_users.delta")),
                           compare("active_users"), say(answer("r2:active_users.delta"))])
    assert [(c.round, c.handle) for c in trace.calls] == [(0, 1), (1, 2)]
    assert trace.served_round == 1 and trace.served().audit["grounded"] is True


def test_no_repair_without_the_switch(layer) -> None:
    """With claims only, a broken answer is audited and served as it is."""
    trace, _ = run(layer, [compare("days_per_user"), say(answer("r1:paid_search"))],
                   config="claims")
    assert len(trace.rounds) == 1 and trace.served().audit["decision"] == "withhold"


def test_rendered_and_repair_together(layer) -> None:
    """With rendered on, the served round's measurement text is the harness's own sentence."""
    trace, _ = run(layer, [compare("days_per_user"), say(answer("r1:paid_search")),
                           say(answer("r1:days_per_user.pct_change"))],
                   config="claims+repair+rendered")
    claim = trace.served().audit["claims"][0]
    assert claim["rendered_text"].startswith("Days per user fell ")
    assert "2026-03-09..2026-03-15 versus 2026-03-02..2026-03-08" in claim["rendered_text"]
