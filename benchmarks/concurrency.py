"""Concurrency benchmark: experiment throughput against a loopback OpenAI-compatible server that
answers every request after a fixed latency, at several concurrency limits, in one run.

The server answers as the rules analyst would (so attempts make real governed calls on the demo
warehouse); only the latency is artificial. Throughput should grow close to linearly with the
limit while the model's latency dominates.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from showwork.analyst.client import Request
from showwork.analyst.openai_client import OpenAIClient
from showwork.analyst.rules import RulesClient
from showwork.benchmarks.loopback import FakeOpenAI
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.semantic_layer import SemanticLayer, load_model
from showwork.semantic_layer import warehouse as demo_warehouse
from showwork.semantic_layer.catalog import build_catalog


def _responder(catalog: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Answers as rules would; each distinct conversation is computed once, so the server's own
    CPU (on this machine, unlike a real model server) does not compete with the harness."""
    cache: dict[str, dict[str, Any]] = {}

    def answer(body: dict[str, Any]) -> dict[str, Any]:
        key = json.dumps(body["messages"], sort_keys=True)
        if key not in cache:
            turn = RulesClient().complete(Request(body["messages"], body.get("tools", []), {},
                                                  {"catalog": catalog, "config": "claims"}))
            cache[key] = ({"tool_calls": [(c.name, c.arguments) for c in turn.tool_calls]}
                          if turn.tool_calls else {"content": turn.content})
        return cache[key]
    return answer


def _mark(marks: list[float], _done: int, _total: int) -> None:
    marks.append(time.perf_counter())


def run(home: Path, limits: tuple[int, ...] = (1, 2, 4, 8, 16), latency_s: float = 0.2,
        attempts: int = 160, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    database = home / "demo.duckdb"
    if not database.exists():
        say("building the demo warehouse")
        demo_warehouse.build(database)
    # 16 questions × repeats: every limit up to 16 runs whole waves, so the last, part-empty
    # wave does not masquerade as lost concurrency
    simple = [q for q in load_questions().questions
              if q.answerable and q.category != "diagnostic"][:16]
    questions = QuestionFile(questions=simple)
    repeats = max(1, attempts // len(simple))
    catalog = build_catalog(load_model())
    rows: list[dict[str, Any]] = []
    with FakeOpenAI(responder=_responder(catalog), latency_s=latency_s) as server:
        for limit in (limits[-1], *limits):  # a first, fast pass warms the answer cache
            warmup = not rows
            say(f"concurrency {limit}")
            layer = SemanticLayer(load_model(), database)
            client = OpenAIClient("bench", base_url=server.base_url, api_key="bench")
            with tempfile.TemporaryDirectory() as tmp:
                e = exp.Experiment(questions, ["claims"], "openai:bench", Path(tmp) / "run",
                                   repeats=repeats, concurrency=limit)
                marks: list[float] = []
                started = time.perf_counter()
                # the clock stops at the last finished attempt: scoring afterwards is not
                # part of the throughput
                results = exp.run(e, client, layer, on_progress=partial(_mark, marks))
                elapsed = marks[-1] - started
            layer.close()
            n = results["configs"]["claims"]["attempts"]
            if warmup:
                rows.append({"warmup": True})
                continue
            rows.append({"concurrency": limit, "attempts": n, "seconds": elapsed,
                         "attempts_per_s": n / elapsed,
                         "errored": results["configs"]["claims"]["errored"]})
    rows = [r for r in rows if not r.get("warmup")]
    base = rows[0]["attempts_per_s"]
    for row in rows:
        row["speedup"] = row["attempts_per_s"] / base
        row["efficiency"] = row["speedup"] / row["concurrency"]
    return {"latency_s": latency_s, "rows": rows}
