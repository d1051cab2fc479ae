"""`showwork bench reading`: how fast the question reader reads, with the member index built.

Every bundled question file (the demo's, and each example project's whose warehouse is built)
and its paraphrases are read against their project's catalog, each question `repeats` times;
the figures are questions read per second, one reading's p50 and p95, and how long each
project's member index (the warehouse's own values of its dimensions) takes to build, uncached.
Targets (issue 27): p95 under 5 ms (the reading's own CPU time; the wall time, which on a shared
machine also holds waits for a core, is shown beside it); the flights index under 2 s.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from showwork.protocol.reading import read_text, split_instruction

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("shop", "flights")
TARGETS = {"p95_ms": 5.0, "flights_index_s": 2.0}


def texts(path: Path) -> list[str]:
    """A question file's questions and their paraphrases (a question's `paraphrases:` list)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    out: list[str] = []
    for q in data.get("questions") or []:
        out.append(str(q["text"]))
        out += [str(p) for p in q.get("paraphrases") or ()]
    return out


def projects() -> list[tuple[str, str, Path]]:
    """(name, project folder or 'demo', question file) of every bundled project at hand."""
    from showwork.harness.project import bundled_path

    out = [("demo", "demo", bundled_path())]
    for name in EXAMPLES:
        folder = ROOT / "examples" / name
        if (folder / "warehouse.duckdb").exists() and (folder / "questions.yaml").exists():
            out.append((name, str(folder), folder / "questions.yaml"))
    return out


def index_seconds(project: Any) -> float:
    """Seconds to build the member index (and coverage) from the warehouse, no cache."""
    from showwork.semantic_layer.engines.duckdb import DuckDBEngine
    from showwork.semantic_layer.execute import Limits
    from showwork.semantic_layer.infer import infer_from_engine

    spec = project.warehouse()
    path = Path(spec["duckdb"])
    engine = DuckDBEngine(path if path.is_absolute() else project.root / path, Limits())
    try:
        start = time.perf_counter()
        infer_from_engine(project.model, engine)
        return time.perf_counter() - start
    finally:
        engine.close()


def read_all(questions: list[str], catalog: dict[str, Any], repeats: int
             ) -> tuple[list[float], list[float]]:
    """(wall seconds, CPU seconds of this thread) of each reading (the data question as the
    analyst and the audit read it). On a shared machine the wall time also holds the waits for
    a core; the CPU time is the reading's own cost."""
    wall, cpu = [], []
    for _ in range(repeats):
        for text in questions:
            start, own = time.perf_counter(), time.thread_time()
            asked, _instruction = split_instruction(" ".join(text.split()))
            read_text(asked or text, catalog)
            cpu.append(time.thread_time() - own)
            wall.append(time.perf_counter() - start)
    return wall, cpu


def run(repeats: int = 5, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    from showwork.harness.project import Project

    say = progress or (lambda _m: None)
    figures: dict[str, Any] = {}
    every: list[float] = []
    every_cpu: list[float] = []
    for name, where, path in projects():
        say(f"reading {name}")
        with Project.open(where) as project:
            catalog = project.catalog
            built = index_seconds(project) if "duckdb" in project.warehouse() else None
        questions = texts(path)
        read_all(questions, catalog, 1)  # the catalog's scanners are built once, not timed
        times, cpu = read_all(questions, catalog, repeats)
        every += times
        every_cpu += cpu
        figures[name] = {"questions": len(questions), "readings": len(times),
                         "per_second": len(times) / sum(times),
                         "p50_ms": statistics.median(times) * 1000,
                         "p95_ms": _p95(times) * 1000, "cpu_p95_ms": _p95(cpu) * 1000,
                         "index_s": built}
    p95 = _p95(every_cpu) * 1000
    flights = figures.get("flights", {}).get("index_s")
    return {"figures": figures, "per_second": len(every) / sum(every), "p95_ms": p95,
            "wall_p95_ms": _p95(every) * 1000, "targets": TARGETS,
            "met": {"p95_ms": p95 < TARGETS["p95_ms"],
                    "flights_index_s": None if flights is None else
                    flights < TARGETS["flights_index_s"]}}


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
