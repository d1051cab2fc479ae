"""The analyst loop through the real openai SDK against a scripted server on loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from showwork.analyst.openai_client import OpenAIClient
from showwork.analyst.session import Budgets
from showwork.harness.experiments.attempt import Question, reaudit, run_attempt
from showwork.protocol.switches import Protocol
from showwork.traces import TornLine, append, read

STORY1 = json.dumps({"metrics": ["weekly_value_moments", "active_users", "days_per_user",
                                 "moments_per_day"],
                     "current_window": {"start": "2026-03-09", "end": "2026-03-15"},
                     "previous_window": {"start": "2026-03-02", "end": "2026-03-08"},
                     "by": None, "where": None, "purpose": "the tree, week over week"})
AGE = json.dumps({"metrics": ["active_users"], "group_by": ["age"],
                  "window": {"start": "2026-03-02", "end": "2026-03-08"}})
WHY = Question("diag-1", "Why did weekly value moments drop in the week of 2026-03-09?",
               "diagnostic", True, {"driver": "days_per_user"})


def answer(claims: list[dict], **top) -> dict:
    return {"content": json.dumps({"status": "answered", "answer": "It fell.", "value": None,
                                   "driver": None, "refusal_reason": None,
                                   "claims": claims, **top})}


def measure(source: str, value: float | None = None, text: str = "Days per user fell") -> dict:
    return {"text": text, "kind": "measurement", "sources": [source], "premises": None,
            "value": value}


def client(fake: FakeOpenAI, **kw) -> OpenAIClient:
    return OpenAIClient("test-model", base_url=fake.base_url, api_key="sk-test-secret", **kw)


def run(layer, script, config="claims", budgets=None, question=WHY, **kw):
    with FakeOpenAI(script) as fake:
        trace = run_attempt(question, client(fake, **kw), layer, Protocol.parse(config),
                            budgets=budgets)
    return trace, fake


def test_tool_calls_handles_answer_and_usage(layer) -> None:
    """A call gets r1, the model sees it under r1, the answer's citation resolves, usage adds up."""
    trace, fake = run(layer, [{"tool_calls": [("compare", STORY1)]},
                              answer([measure("r1:days_per_user.delta")])])
    (call,) = trace.calls
    assert call.handle == 1 and call.purpose == "the tree, week over week"
    tool_message = fake.requests[1]["messages"][-1]
    assert tool_message["role"] == "tool" and json.loads(tool_message["content"])["handle"] == "r1"
    assert fake.requests[0]["parallel_tool_calls"] is False
    assert fake.requests[0]["response_format"]["type"] == "json_schema"
    assert all(t["function"]["strict"] for t in fake.requests[0]["tools"])
    assert trace.usage.model_dump() == {"input_tokens": 200, "cached_tokens": 40,
                                        "output_tokens": 20}
    audit = trace.rounds[0].audit
    assert trace.stop_reason == "answered" and audit["grounded"] is True
    assert reaudit(trace).to_json() == audit


def test_blocked_call_gets_no_handle_and_citing_it_names_the_reason(layer) -> None:
    """A blocked call returns its reason and no handle; citing its would-be handle says why."""
    trace, fake = run(layer, [{"tool_calls": [("compare", STORY1)]},
                              {"tool_calls": [("query", AGE)]},
                              answer([measure("r2:active_users.value", 5, "Active users")])])
    assert [c.handle for c in trace.calls] == [1, None]
    seen = json.loads(fake.requests[2]["messages"][-1]["content"])
    assert seen["blocked"] is True and seen["handle"] is None
    assert "Unknown dimension 'age'" in seen["reason"]
    (defect,) = trace.rounds[0].audit["defects"]
    assert defect["code"] == "unknown_handle"
    assert "Governed call 2 (query) was blocked: Unknown dimension 'age'" in defect["message"]


@pytest.mark.parametrize(("name", "args", "code", "text"), [
    ("unknown tool", ("run_sql", '{"sql": "SELECT 1"}'), "unknown_tool", "the tools are: query"),
    ("truncated arguments", ("query", STORY1[:40]), "invalid_arguments", "look truncated"),
    ("malformed arguments", ("query", "{metrics: active_users}"), "invalid_arguments",
     "not valid JSON"),
    ("extra keys", ("query", json.dumps({"metrics": ["active_users"], "sql": "DROP",
                                         "window": {"start": "2026-03-02", "end": "2026-03-08"}})),
     "invalid_arguments", "Extra inputs"),
])
def test_bad_tool_calls_are_recorded_and_handed_back(layer, name, args, code, text) -> None:
    """Each bad call is recorded with its reason, shown to the model, and the loop goes on."""
    trace, fake = run(layer, [{"tool_calls": [args]}, {"tool_calls": [("compare", STORY1)]},
                              answer([measure("r1:days_per_user.delta")])])
    assert trace.calls[0].handle is None and trace.calls[0].error["code"] == code
    assert text in json.loads(fake.requests[1]["messages"][-1]["content"])["reason"]
    assert trace.calls[1].handle == 1 and trace.stop_reason == "answered"


def test_repeated_call_is_detected(layer) -> None:
    """The same call twice is not run again; the model is told the handle it already has."""
    trace, fake = run(layer, [{"tool_calls": [("compare", STORY1)]},
                              {"tool_calls": [("compare", STORY1)]},
                              answer([measure("r1:days_per_user.delta")])])
    assert [c.handle for c in trace.calls] == [1, None]
    assert trace.calls[1].error == {"code": "repeated_call",
                                    "message": "This call repeats call 1; its result is r1."}


@pytest.mark.parametrize(("bad", "hint"), [
    ({"content": "Weekly value moments fell because of days per user."}, "not valid JSON"),
    ({"content": ""}, "empty"),
    ({"content": "```json\n{}\n```"}, "code fence"),
])
def test_bad_answers_are_handed_back(layer, bad, hint) -> None:
    """Prose, empty content or a fenced answer is handed back once and the retry is used."""
    trace, fake = run(layer, [bad, answer([], status="refused", refusal_reason="no",
                                          driver=None)], config="claims")
    assert hint in fake.requests[1]["messages"][-1]["content"]
    assert trace.stop_reason == "answered" and trace.rounds[0].audit["status"] == "refused"


def test_malformed_answers_exhaust_format_retries(layer) -> None:
    """Three prose replies end the attempt as malformed_answer, with the text recorded."""
    trace, _ = run(layer, [{"content": "no"}] * 3)
    assert trace.stop_reason == "malformed_answer"
    assert trace.rounds[0].audit["protocol_error"].startswith("The answer is not valid JSON")


@pytest.mark.parametrize(("step", "reason"), [
    ({"refusal": "I can't help with that."}, "model_refusal"),
    ({"content": '{"status": "answ', "finish_reason": "length"}, "length"),
    ({"raw_body": "{not json"}, "invalid_response"),
])
def test_ending_turns(layer, step, reason) -> None:
    """A refusal, a cut-off answer, or an unreadable body end the attempt with that reason."""
    trace, _ = run(layer, [step])
    assert trace.stop_reason == reason and trace.error


def test_step_budget(layer) -> None:
    """A model that only ever calls tools is stopped by the step budget."""
    calls = [{"tool_calls": [("query", json.dumps({"metrics": ["active_users"], "window": {
        "start": "2026-03-02", "end": f"2026-03-0{i}"}}))]} for i in range(2, 9)]
    trace, _ = run(layer, calls, budgets=Budgets(max_steps=4))
    assert trace.stop_reason == "max_steps" and len(trace.turns) == 4
    assert [c.handle for c in trace.calls] == [1, 2, 3, 4]


def test_token_budget(layer) -> None:
    """Usage past the token budget stops the attempt."""
    trace, _ = run(layer, [{"tool_calls": [("compare", STORY1)],
                            "usage": {"prompt": 5000, "cached": 0, "completion": 100}}],
                   budgets=Budgets(max_tokens=1000))
    assert trace.stop_reason == "token_budget"


def test_tool_call_budget(layer) -> None:
    """Past the tool-call budget calls are refused with a request to answer now."""
    trace, fake = run(layer, [{"tool_calls": [("compare", STORY1)]},
                              {"tool_calls": [("query", AGE)]},
                              answer([measure("r1:days_per_user.delta")])],
                      budgets=Budgets(max_tool_calls=1))
    assert len(trace.calls) == 1
    assert "give your answer now" in fake.requests[2]["messages"][-1]["content"]


@pytest.mark.parametrize("status", [400, 422, 500])
def test_structured_output_fallback_is_noted(layer, status) -> None:
    """A server that rejects response_format (400; 422 from a FastAPI server; 500 naming the
    parameter from llama-cpp-python's) gets the prompt-only path, and the trace says so."""
    trace, fake = run(layer, [{"reject": "response_format", "reject_status": status},
                              {"tool_calls": [("compare", STORY1)]},
                              answer([measure("r1:days_per_user.delta")])], max_retries=0)
    assert "response_format" in fake.requests[0] and "response_format" not in fake.requests[1]
    assert any("structured outputs" in n for n in trace.notes)
    assert trace.stop_reason == "answered"


def test_server_errors_retried_by_the_sdk(layer) -> None:
    """503 then 429 (retry-after 0) then success: the SDK's retries carry the attempt through."""
    trace, fake = run(layer, [{"status": 503}, {"status": 429, "retry_after": 0},
                              {"tool_calls": [("compare", STORY1)]},
                              answer([measure("r1:days_per_user.delta")])])
    assert trace.stop_reason == "answered" and len(fake.requests) == 4


def test_persistent_server_error_is_recorded(layer) -> None:
    """A server that keeps failing ends the attempt with server_error, not an exception."""
    trace, _ = run(layer, [{"status": 500}] * 3, max_retries=2)
    assert trace.stop_reason == "server_error" and "failed after retries" in trace.error


def test_api_key_never_in_trace(layer) -> None:
    """The key sent to the server is nowhere in the recorded trace."""
    trace, fake = run(layer, [{"tool_calls": [("compare", STORY1)]},
                              answer([measure("r1:days_per_user.delta")])])
    assert "sk-test-secret" not in trace.model_dump_json()


def test_trace_file_round_trip_and_torn_line(layer, tmp_path: Path) -> None:
    """Records append one per line; a torn last line is detected, and repaired on request."""
    trace, _ = run(layer, [{"tool_calls": [("compare", STORY1)]},
                           answer([measure("r1:days_per_user.delta")])])
    path = tmp_path / "traces.jsonl"
    append(path, trace)
    append(path, trace)
    with open(path, "a") as fh:
        fh.write(trace.model_dump_json()[:100])
    with pytest.raises(TornLine, match="last line is incomplete"):
        read(path)
    assert len(read(path, repair=True)) == 2
    assert len(read(path)) == 2


def test_replay_reproduces_the_attempt(layer, tmp_path: Path) -> None:
    """replay: gives back the recorded turns: same calls, same answer, same audit, no server."""
    from showwork.analyst.replay import ReplayClient

    trace, _ = run(layer, [{"tool_calls": [("compare", STORY1)]},
                           answer([measure("r1:days_per_user.delta")])])
    path = tmp_path / "traces.jsonl"
    append(path, trace)
    again = run_attempt(WHY, ReplayClient(str(path)), layer, Protocol.parse("claims"))
    assert [c.result for c in again.calls] == [c.result for c in trace.calls]
    assert again.rounds[0].audit == trace.rounds[0].audit
