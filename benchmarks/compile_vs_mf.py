"""Our compile time against MetricFlow's own, query by query, in one run (issue: compile ≤ ½).

The queries are conformance/run.py's (the project MetricFlow and showwork are held equal on). Our
side compiles in this process; MetricFlow's runs in conformance/.venv (its own packages) through
benchmarks/mf_compile.py, timing `explain` (plan + SQL, no execution). Both warm each query
once, then take the median of `repeats` compiles. Needs `make conformance` to have run once (it
installs dbt + MetricFlow and writes the semantic manifest); otherwise says so and measures
nothing.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONFORMANCE = ROOT / "conformance"
MANIFEST = CONFORMANCE / "project" / "target" / "semantic_manifest.json"
MF_PYTHON = CONFORMANCE / ".venv" / "bin" / "python"


def available() -> str | None:
    """None when MetricFlow can be measured; else why not."""
    if not MF_PYTHON.exists():
        return "MetricFlow is not installed (run `make conformance` once)"
    if not MANIFEST.exists():
        return f"{MANIFEST} is missing (run `make conformance` once)"
    return None


def _queries() -> list[Any]:
    spec = importlib.util.spec_from_file_location("conformance_run", CONFORMANCE / "run.py")
    assert spec and spec.loader
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules["conformance_run"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return list(module.QUERIES)


def _our_args(q: Any) -> dict[str, Any]:
    from semantic_layer.where import parse_where

    args: dict[str, Any] = {"metrics": list(q.metrics), "group_by": list(q.group_by)}
    if q.start and q.end:
        args["window"] = {"start": q.start, "end": q.end}
    if q.grain:
        args.update(grain=q.grain, whole_periods=bool(q.start))
    return parse_where(q.where).apply(args) if q.where else args


def _ours(queries: list[Any], repeats: int) -> dict[str, float]:
    from semantic_layer import SemanticLayer, load_model

    layer = SemanticLayer(load_model(MANIFEST))
    out = {}
    for q in queries:
        args = _our_args(q)
        layer.compile("query", args)
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            layer.compile("query", args)
            times.append(time.perf_counter() - started)
        out[q.id] = statistics.median(times)
    return out


def _metricflow(queries: list[Any], repeats: int) -> dict[str, float]:
    payload = [{"id": q.id, "metrics": list(q.metrics), "start": q.start, "end": q.end,
                "group_by": ([f"metric_time__{q.grain}"] if q.grain else []) + list(q.group_by),
                "where": q.where} for q in queries]
    done = subprocess.run([str(MF_PYTHON), str(ROOT / "benchmarks" / "mf_compile.py"),
                           str(MANIFEST), str(repeats)], input=json.dumps(payload),
                          capture_output=True, text=True, timeout=1800, check=False)
    if done.returncode:
        raise RuntimeError(f"MetricFlow's compile failed: {done.stderr[-1500:]}")
    return {k: statistics.median(v) for k, v in json.loads(done.stdout).items()}


GENERATED_SEED = 20261201
GENERATED_WORLDS = 10
"""Generated worlds timed (conformance/differential.py's, 20 queries each)."""


def _generated(repeats: int, worlds: int) -> list[dict[str, Any]]:
    """Our compile and MetricFlow's over generated models and queries (differential.py's, fixed
    seed), each case where both compile."""
    import random
    import tempfile

    import yaml

    sys.path.insert(0, str(ROOT))
    from conformance import differential as gen
    from semantic_layer import SemanticError, SemanticLayer, load_model, parse_where

    rng = random.Random(GENERATED_SEED)
    made = []
    for i in range(worlds):
        w = gen.generate_world(rng, i)
        gen.generate_queries(rng, w, gen.QUERIES_PER_WORLD)
        made.append(w)
    with tempfile.TemporaryDirectory(prefix="showwork-bench-") as scratch:
        folder = Path(scratch)
        batch = folder / "batch.json"
        batch.write_text(json.dumps({"database": "", "worlds": [
            {"id": w.id, "semantic_models": w.semantic_models, "metrics": w.metrics,
             "queries": w.queries} for w in made]}, default=str))
        done = subprocess.run([str(MF_PYTHON), str(ROOT / "benchmarks" / "mf_compile.py"),
                               str(batch), str(repeats)], capture_output=True, text=True,
                              timeout=3600, check=False)
        if done.returncode:
            raise RuntimeError(f"MetricFlow's compile failed: {done.stderr[-1500:]}")
        mf = {k: statistics.median(v) for k, v in json.loads(done.stdout).items()}
        cases = []
        for w in made:
            (folder / w.id).mkdir()
            (folder / w.id / "semantic.yml").write_text(yaml.safe_dump(
                {"semantic_models": w.semantic_models, "metrics": w.metrics}, allow_unicode=True))
            layer = SemanticLayer(load_model(folder / w.id))
            for q in w.queries:
                if q["id"] not in mf:
                    continue
                args: dict[str, Any] = {"metrics": q["metrics"], "group_by": q["group_by"]}
                if q.get("start"):
                    args["window"] = {"start": q["start"], "end": q["end"]}
                if q["grain"]:
                    args.update(grain=q["grain"], whole_periods=bool(q.get("start")))
                try:
                    args = parse_where(q["where"]).apply(args) if q["where"] else args
                    layer.compile("query", args)
                except SemanticError:
                    continue
                times = []
                for _ in range(repeats):
                    started = time.perf_counter()
                    layer.compile("query", args)
                    times.append(time.perf_counter() - started)
                ours = statistics.median(times)
                cases.append({"case": q["id"], "ours_ms": 1000 * ours,
                              "metricflow_ms": 1000 * mf[q["id"]], "ratio": ours / mf[q["id"]]})
    return cases


def run(repeats: int = 9, generated_worlds: int = GENERATED_WORLDS) -> dict[str, Any]:
    """Per query: our compile, MetricFlow's, and their ratio (target ≤ 0.5 on every query), over
    the conformance project's queries and over generated models and queries."""
    why = available()
    if why:
        return {"available": False, "reason": why}
    queries = _queries()
    mf = _metricflow(queries, repeats)
    ours = _ours(queries, repeats)
    cases = [{"case": q.id, "ours_ms": 1000 * ours[q.id], "metricflow_ms": 1000 * mf[q.id],
              "ratio": ours[q.id] / mf[q.id]} for q in queries]
    generated = _generated(max(3, repeats // 3), generated_worlds) if generated_worlds else []
    every = cases + generated
    return {"available": True, "repeats": repeats, "cases": cases,
            "generated_cases": len(generated),
            "generated_max_ratio": max((c["ratio"] for c in generated), default=None),
            "max_ratio": max(c["ratio"] for c in every),
            "median_ratio": statistics.median(c["ratio"] for c in every), "target_ratio": 0.5}
