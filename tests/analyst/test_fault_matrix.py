"""Faults from the model server: each ends the attempt with the right stop reason, the run goes
on, and a 50-attempt run against a server failing 30 % of requests accounts for every attempt."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from showwork.analyst.client import Request
from showwork.analyst.openai_client import OpenAIClient
from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import load_model
from showwork.semantic_layer.catalog import build_catalog
from showwork.traces import read

CATALOG = build_catalog(load_model())
LOOKUP = Question("l", "How many active users did we have in the week of 2026-03-02?")


def rules_step(body: dict) -> dict:
    """Answer a chat request the way the rules analyst would, as a server step."""
    turn = RulesClient().complete(Request(body["messages"], body.get("tools", []), {},
                                          {"catalog": CATALOG, "config": "claims"}))
    if turn.tool_calls:
        return {"tool_calls": [(c.name, c.arguments) for c in turn.tool_calls]}
    return {"content": turn.content}


TIMEOUT_S = 3.0
"""Read timeout under test. A timeout fault hangs until the client gives up (not a fixed
sleep), so an answer that is merely slow on a loaded machine is never taken for one."""


def client(fake: FakeOpenAI, **kw) -> OpenAIClient:
    return OpenAIClient("test", base_url=fake.base_url, api_key="sk-test", **kw)


@pytest.mark.parametrize(("fault", "reason"), [
    ({"hang": True}, "timeout"),
    ({"reset": True}, "connection_error"),
    ({"reset_mid": True}, "connection_error"),
    ({"status": 503}, "server_error"),
    ({"status": 429, "retry_after": 0}, "rate_limited"),
])
def test_persistent_faults_end_with_reason(layer, fault: dict, reason: str) -> None:
    """A fault that outlasts the SDK's retries ends the attempt with its stop reason."""
    with FakeOpenAI(responder=lambda body: fault) as fake:
        trace = run_attempt(LOOKUP, client(fake, timeout_s=TIMEOUT_S, max_retries=1), layer,
                            Protocol.parse("claims"))
    assert trace.stop_reason == reason and trace.error
    assert trace.served() is None


@pytest.mark.parametrize("fault", [{"hang": True}, {"reset": True}, {"reset_mid": True},
                                   {"status": 500}])
def test_transient_faults_are_retried(layer, fault: dict) -> None:
    """A fault once, then a good answer: the SDK retries and the attempt is answered."""
    seen = {"n": 0}

    def responder(body: dict) -> dict:
        seen["n"] += 1
        return fault if seen["n"] == 1 else rules_step(body)

    with FakeOpenAI(responder=responder) as fake:
        trace = run_attempt(LOOKUP, client(fake, timeout_s=TIMEOUT_S, max_retries=2), layer,
                            Protocol.parse("claims"))
    assert trace.stop_reason == "answered" and trace.served().audit["grounded"] is True


def test_oversize_response_is_handed_back(layer) -> None:
    """A 2 MB answer is refused as too large and handed back; the retry is used."""
    steps = iter([{"content": '{"answer": "' + "x" * 2_000_000 + '"}'}])

    def responder(body: dict) -> dict:
        return next(steps, None) or rules_step(body)

    with FakeOpenAI(responder=responder) as fake:
        trace = run_attempt(LOOKUP, client(fake), layer, Protocol.parse("claims"))
    assert trace.stop_reason == "answered"
    assert any("larger than" in (m.get("content") or "") for m in
               fake.requests[1]["messages"] if m["role"] == "user")


FAULTS = [{"status": 500}, {"status": 503}, {"status": 429, "retry_after": 0}, {"reset": True},
          {"reset_mid": True}, {"hang": True},
          {"raw_body": "{not json"}, {"refusal": "I won't."},
          {"content": '{"status": "answ', "finish_reason": "length"},
          {"tool_calls": [("run_sql", '{"sql": "SELECT 1"}')]},
          {"tool_calls": [("query", '{"metrics": ["active_us')]},
          {"content": '{"answer": "' + "x" * 1_100_000 + '"}'}]


def test_matrix_fifty_attempts_thirty_percent_faults(layer, tmp_path: Path) -> None:
    """Every one of 50 attempts is scored or recorded as errored with its reason; counts add up."""
    rng = random.Random(30)
    lock = threading.Lock()

    def responder(body: dict) -> dict:
        with lock:
            faulty = rng.random() < 0.3
            fault = rng.choice(FAULTS)
        return fault if faulty else rules_step(body)

    questions = [q for q in load_questions().questions if q.answerable][:25]
    with FakeOpenAI(responder=responder) as fake:
        e = exp.Experiment(QuestionFile(questions=questions), ["claims", "claims+repair"],
                           "openai:test", tmp_path / "run", concurrency=4)
        results = exp.run(e, client(fake, timeout_s=TIMEOUT_S, max_retries=1), layer)
    records = read(tmp_path / "run" / "traces.jsonl")
    assert len(records) == 50 and len({r.attempt_id for r in records}) == 50
    total = errored = 0
    for name, s in results["configs"].items():
        total += s["attempts"]
        errored += s["errored"]
        statuses = [a["status"] for a in results["attempts"] if a["config"] == name]
        assert s["attempts"] == len(statuses) == 25
        assert s["errored"] == sum(1 for x in statuses if x in ("errored", "malformed"))
        assert sum(s["errored_reasons"].values()) == s["errored"]
    assert total == 50 and 0 < errored < 50
    for r in records:
        assert r.stop_reason and (r.served() is not None or r.error)


@pytest.mark.slow
def test_api_key_never_in_traces_logs_or_reports(demo_db: Path, tmp_path: Path) -> None:
    """With a key in the environment, no trace, result, report or log line contains it."""
    (tmp_path / "demo.duckdb").symlink_to(demo_db)
    secret = "sk-live-DO-NOT-LEAK-0123456789"
    qpath = tmp_path / "q.yaml"
    q = load_questions().questions[0]
    qpath.write_text(json.dumps({"questions": [q.model_dump(exclude_none=True)]}))
    with FakeOpenAI(responder=rules_step) as fake:
        env = {**os.environ, "SHOWWORK_HOME": str(tmp_path), "OPENAI_API_KEY": secret,
               "OPENAI_BASE_URL": fake.base_url}
        run = subprocess.run([sys.executable, "-m", "showwork", "experiment", "--questions",
                              str(qpath), "--configs", "claims", "--model", "openai:test",
                              "--out", str(tmp_path / "run")], capture_output=True, text=True,
                             env=env, timeout=120)
        ask = subprocess.run([sys.executable, "-m", "showwork", "ask", q.text, "--model",
                              "openai:test"], capture_output=True, text=True, env=env,
                             timeout=120)
    assert run.returncode == 0 and ask.returncode == 0, run.stderr + ask.stderr
    assert fake.requests, "the server was used"
    for path in tmp_path.rglob("*"):
        if path.is_file() and path.suffix in (".jsonl", ".json", ".html"):
            assert secret not in path.read_text(errors="ignore"), path
    assert secret not in run.stdout + run.stderr + ask.stdout + ask.stderr
