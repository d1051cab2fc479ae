"""Experiments: configurations × questions × repeats, concurrent, resumable, never losing one.

Each finished attempt is appended to traces.jsonl at once (one fsynced line), so a killed run
loses at most the attempts in flight; `--resume` reruns exactly those. An attempt that raises is
recorded as errored with its reason, never dropped.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from showwork.analyst.client import ModelClient
from showwork.analyst.session import Budgets
from showwork.harness.errors import RunFolderError
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.gold import gold_values
from showwork.harness.experiments.questions import QuestionFile
from showwork.harness.experiments.results import build_results
from showwork.harness.experiments.scores import attempt_from_trace, load_prices
from showwork.harness.project import sql_rows, stamp_of
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.traces import QuestionRecord, TraceRecord, TraceWriter, digest, read

TRACES = "traces.jsonl"
RUN_FILE = "run.json"


@dataclass
class Experiment:
    questions: QuestionFile
    configs: list[str]
    model: str
    out: Path
    repeats: int = 1
    concurrency: int = 4
    budgets: Budgets = field(default_factory=Budgets)
    prices_path: Path | None = None
    project: dict[str, str] | None = None
    """The project the run uses (name, model digest): part of its identity."""

    def __post_init__(self) -> None:
        self.protocols = {c: Protocol.parse(c) for c in self.configs}
        self.by_name = {p.name: p for p in self.protocols.values()}
        if self.repeats < 1 or self.concurrency < 1:
            raise ValueError("repeats and concurrency must be at least 1")

    def identity(self) -> dict[str, Any]:
        """What a resumed run must share with the run it resumes."""
        identity: dict[str, Any] = {
            "model": self.model, "configs": [self.protocols[c].name for c in self.configs],
            "repeats": self.repeats,
            "questions": digest([q.model_dump() for q in self.questions.questions])}
        if self.project is not None:
            identity["project"] = self.project
        return identity

    def plan(self) -> list[tuple[str, str, Question, int]]:
        """(attempt id, configuration, question, repeat) for every attempt, in a stable order."""
        out = []
        for config in self.configs:
            name = self.protocols[config].name
            for spec in self.questions.questions:
                for repeat in range(self.repeats):
                    key = f"{self.model}|{name}|{spec.id}|{repeat}"
                    out.append((hashlib.sha256(key.encode()).hexdigest()[:16], name,
                                spec.question(), repeat))
        return out


def prepare_folder(exp: Experiment, resume: bool) -> set[str]:
    """Create or check the run folder; return the attempt ids already done."""
    exp.out.mkdir(parents=True, exist_ok=True)
    run_file, traces = exp.out / RUN_FILE, exp.out / TRACES
    if run_file.exists():
        stored = json.loads(run_file.read_text(encoding="utf-8"))
        if not resume:
            raise RunFolderError(f"{exp.out} already holds a run; pass --resume to finish it, "
                                 "or choose another --out.")
        differ = _differences(stored.get("identity") or {}, exp.identity())
        if differ:
            raise RunFolderError(f"{exp.out} holds a different run (its {', '.join(differ)} "
                                 "differ); choose another --out.")
    else:
        run_file.write_text(json.dumps({"identity": exp.identity(), "started_at": _now()},
                                       indent=2), encoding="utf-8")
    if not traces.exists():
        return set()
    return {r.attempt_id for r in read(traces, repair=True)}


def _differences(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """The identity keys that differ; a run from before projects were recorded has none."""
    keys = [k for k in current if k != "project" or "project" in stored]
    return [k for k in keys if stored.get(k) != current[k]]


def run(exp: Experiment, client: ModelClient, layer: SemanticLayer, resume: bool = False,
        on_progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    done = prepare_folder(exp, resume)
    pending = [a for a in exp.plan() if a[0] not in done]
    total = len(exp.plan())
    writer = TraceWriter(exp.out / TRACES)
    lock = threading.Lock()
    finished = len(done)
    _ = layer.engine  # open before the workers share it (a DuckDB file opens on first use)
    if on_progress:
        on_progress(finished, total)

    def one(attempt: tuple[str, str, Question, int]) -> TraceRecord:
        attempt_id, config, question, repeat = attempt
        try:
            return run_attempt(question, client, layer, exp.by_name[config], repeat,
                               exp.budgets, attempt_id, exp.project)
        except Exception as exc:  # noqa: BLE001 — recorded as an errored attempt, never lost
            return errored(attempt_id, config, question, repeat, client, layer, exc,
                           exp.project)

    with ThreadPoolExecutor(max_workers=exp.concurrency) as pool:
        for future in as_completed([pool.submit(one, a) for a in pending]):
            record = future.result()
            with lock:
                writer.append(record)
                finished += 1
                if on_progress:
                    on_progress(finished, total)
    return finish(exp, layer)


def errored(attempt_id: str, config: str, question: Question, repeat: int, client: ModelClient,
            layer: SemanticLayer, exc: BaseException,
            project: dict[str, str] | None = None) -> TraceRecord:
    catalog = layer.catalog()
    return TraceRecord(
        attempt_id=attempt_id, question=QuestionRecord(**question.record().model_dump()),
        config=config, model=client.name, simulated=client.simulated, repeat=repeat,
        started_at=_now(), catalog=catalog, catalog_digest=digest(catalog),
        model_version=catalog["model_version"], project=project or stamp_of(layer),
        stop_reason="errored",
        error=f"{type(exc).__name__}: {exc}",
        notes=["".join(traceback.format_exception_only(type(exc), exc)).strip()])


def finish(exp: Experiment, layer: SemanticLayer) -> dict[str, Any]:
    """Score every recorded attempt and write results.json."""
    records = read(exp.out / TRACES)
    golds = {q.id: q.gold.model_dump(exclude_none=True) for q in exp.questions.questions if q.gold}
    golds = gold_values(sql_rows(layer), golds)
    prices = load_prices(exp.prices_path)
    order = {c: i for i, c in enumerate(p.name for p in exp.protocols.values())}
    attempts = sorted((attempt_from_trace(r, golds.get(r.question.id), prices) for r in records),
                      key=lambda a: (order.get(a.config, 99), a.question_id, a.repeat))
    results = build_results(attempts, [p.name for p in exp.protocols.values()], exp.model)
    (exp.out / "results.json").write_text(json.dumps(results, indent=2, default=str),
                                          encoding="utf-8")
    return results


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
