"""Our compile time against MetricFlow's own, query by query, in one run (issue: compile ≤ ½).

The queries are conformance/run.py's (the project MetricFlow and showwork are held equal on) and
generated ones (conformance/differential.py's models and queries, a fixed seed). Our side
compiles in this process; MetricFlow's runs in conformance/.venv (its own packages) through
benchmarks/mf_compile.py, timing `explain` (plan + SQL, no execution). Each query is timed on
both sides back to back, so both see the same machine load: each side warms it once, then takes
the median of `repeats` compiles. Ours is the whole compile (validation, plan, SQL) every time:
only what does not depend on the query (parsed model exprs, filter templates) is kept between
compiles. Needs `make conformance` to have run once (it installs dbt + MetricFlow and writes the
semantic manifest); otherwise says so and measures nothing.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
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
    from showwork.semantic_layer.where import parse_where

    args: dict[str, Any] = {"metrics": list(q.metrics), "group_by": list(q.group_by)}
    if q.start and q.end:
        args["window"] = {"start": q.start, "end": q.end}
    if q.grain:
        args.update(grain=q.grain, whole_periods=bool(q.start))
    return parse_where(q.where).apply(args, refuse_empty=False) if q.where else args


class _MetricFlow:
    """benchmarks/mf_compile.py in conformance/.venv, timing MetricFlow's explain of one query
    at a time as asked (so each of our compiles is timed right beside MetricFlow's)."""

    def __init__(self, spec: dict[str, Any], scratch: Path) -> None:
        scratch.mkdir(parents=True, exist_ok=True)
        path = scratch / "metricflow_spec.json"
        path.write_text(json.dumps(spec, default=str))
        self.log = (scratch / "metricflow.log").open("w")  # MetricFlow logs a lot on stderr
        self.process = subprocess.Popen([str(MF_PYTHON), str(ROOT / "benchmarks" / "mf_compile.py"),
                                         str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.log, text=True)
        self._reply()  # ready: every engine built

    def _reply(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            self.log.flush()
            tail = Path(self.log.name).read_text()[-1500:]
            raise RuntimeError(f"MetricFlow's compile failed: {tail}")
        return dict(json.loads(line))

    def seconds(self, query_id: str, repeats: int) -> list[float] | None:
        """MetricFlow's explain times of the query (warmed once first); None when it refuses."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"id": query_id, "repeats": repeats}) + "\n")
        self.process.stdin.flush()
        reply = self._reply()
        return reply.get("seconds")

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=60)
        self.log.close()


def _ours(layer: Any, args: dict[str, Any], repeats: int) -> list[float] | None:
    """Our compile times (plan + SQL, warmed once first); None when the layer refuses."""
    from showwork.semantic_layer import SemanticError

    try:  # as `semantic query` compiles it (a window of no day, a member no row has: answered)
        layer.compile("query", args, refuse_empty=False)
    except SemanticError:
        return None
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        layer.compile("query", args, refuse_empty=False)
        times.append(time.perf_counter() - started)
    return times


def _side_by_side(mf: _MetricFlow, cases: list[tuple[str, Any, dict[str, Any], str]],
                  repeats: int) -> list[dict[str, Any]]:
    """Each case timed on both sides back to back (which side goes first alternates), so both
    see the same machine load; a case either side refuses is left out."""
    out = []
    for i, (case, layer, args, shape) in enumerate(cases):
        if i % 2:
            ours, theirs = _ours(layer, args, repeats), mf.seconds(case, repeats)
        else:
            theirs, ours = mf.seconds(case, repeats), _ours(layer, args, repeats)
        if ours is None or theirs is None:
            continue
        o, t = statistics.median(ours), statistics.median(theirs)
        # each side's fastest run too: on a shared machine a preemption only adds, and one
        # scheduler slice (milliseconds) multiplies a 2 ms compile where it hardly moves
        # MetricFlow's 20-100 ms: the medians' ratio of a fast case is mostly that noise
        out.append({"case": case, "shape": shape, "ours_ms": 1000 * o, "metricflow_ms": 1000 * t,
                    "ratio": o / t, "ours_min_ms": 1000 * min(ours),
                    "metricflow_min_ms": 1000 * min(theirs), "ratio_min": min(ours) / min(theirs)})
    return out


def _shape(layer: Any, q: dict[str, Any]) -> str:
    """What a case asks, in a few words: its metrics and their kinds, grain, window, group-by."""
    index = layer.model.metric_index
    parts = [", ".join(f"{m} ({index[m].type})" for m in q["metrics"])]
    if q.get("grain"):
        parts.append(f"by {q['grain']}")
    if q.get("start") and q.get("end"):
        days = (dt.date.fromisoformat(q["end"][:10]) - dt.date.fromisoformat(q["start"][:10])).days + 1
        parts.append(f"{days} days")
    if q["group_by"]:
        parts.append("per " + ", ".join(q["group_by"]))
    if q.get("where"):
        parts.append("where")
    return "; ".join(parts)


def _conformance(repeats: int, scratch: Path) -> list[dict[str, Any]]:
    from showwork.semantic_layer import SemanticLayer, load_model

    queries = _queries()
    layer = SemanticLayer(load_model(MANIFEST))
    wire = [{"id": q.id, "metrics": list(q.metrics), "start": q.start, "end": q.end,
             "group_by": ([f"metric_time__{q.grain}"] if q.grain else []) + list(q.group_by),
             "where": q.where} for q in queries]
    mf = _MetricFlow({"manifest": str(MANIFEST), "queries": wire}, scratch)
    try:
        return _side_by_side(mf, [(q.id, layer, _our_args(q), _shape(layer, {
            "metrics": q.metrics, "grain": q.grain, "start": q.start, "end": q.end,
            "group_by": q.group_by, "where": q.where})) for q in queries], repeats)
    finally:
        mf.close()


GENERATED_SEED = 20261201
GENERATED_WORLDS = 10
"""Generated worlds timed (conformance/differential.py's, 20 queries each)."""


def _generated(repeats: int, worlds: int, scratch: Path) -> list[dict[str, Any]]:
    """Our compile and MetricFlow's over generated models and queries (differential.py's, fixed
    seed), each case where both compile."""
    import random

    import yaml

    sys.path.insert(0, str(ROOT))
    from conformance import differential as gen
    from showwork.semantic_layer import SemanticError, SemanticLayer, load_model

    rng = random.Random(GENERATED_SEED)
    made = []
    for i in range(worlds):
        w = gen.generate_world(rng, i)
        gen.generate_queries(rng, w, gen.QUERIES_PER_WORLD)
        made.append(w)
    cases, features = [], {}
    for w in made:
        (scratch / w.id).mkdir(parents=True)
        (scratch / w.id / "semantic.yml").write_text(yaml.safe_dump(
            {"semantic_models": w.semantic_models, "metrics": w.metrics}, allow_unicode=True))
        (scratch / w.id / "spine.yml").write_text(yaml.safe_dump(  # join_to_timespine's spine
            {"project_configuration": gen.spine_configuration(w.spine)}))
        layer = SemanticLayer(load_model(scratch / w.id))
        for q in w.queries:
            try:  # (a case the layer refuses, a dimension three joins away, is not timed)
                args = gen.layer_args(q, layer.model)
                features[q["id"]] = _features(layer.model, args, w.spine) + (
                    ["empty answer"] if _empty_answer(layer, args) else []) + (
                    ["window outside the data"] if q["kind"].startswith("outside_") else [])
            except SemanticError:
                continue
            cases.append((q["id"], layer, args, _shape(layer, q)))
    mf = _MetricFlow({"database": "", "worlds": [
        {"id": w.id, "semantic_models": w.semantic_models, "metrics": w.metrics,
         "spine": gen.spine_configuration(w.spine),
         "queries": [dict(q, group_by=([f"metric_time__{q['grain']}"] if q.get("grain") else [])
                          + list(q["group_by"])) for q in w.queries]} for w in made]}, scratch)
    try:
        timed = _side_by_side(mf, cases, repeats)
    finally:
        mf.close()
    return [dict(c, features=features[c["case"]]) for c in timed]


FEATURES = ("conversion", "fill_nulls_with", "join_to_timespine", "spine: time_spines",
            "spine: legacy", "range filter, non-time", "range filter, time", "null filter",
            "spined cumulative", "spined or filled through an offset",
            "by the aggregation time dimension", "empty answer", "date part",
            "window outside the data")
"""The features issue 45 added, each case's named by what its metrics and filter use ("empty
answer": a window no day of which is read, or a member outside a closed list, answered as
`semantic query` answers it; "window outside the data": differential.py's `outside_*` cases)."""


def _features(model: Any, args: dict[str, Any], spine: str) -> list[str]:
    """The FEATURES a generated case uses: its metrics' (and their inputs') kinds, its spine's
    form when a metric joins it, its filter's range and null tests by the dimension's type."""
    from showwork.semantic_layer.dateparts import date_part_of
    from showwork.semantic_layer.validate import agg_time_period, joins_time_spine

    out = set()
    todo = list(args["metrics"])
    while todo:
        m = model.metric_index[todo.pop()]
        c = m.conversion
        out |= {"conversion"} if c else set()
        if m.fill_nulls_with is not None or (c and {c.base_fill, c.conversion_fill} != {None}):
            out.add("fill_nulls_with")
        if m.type == "cumulative" and m.join_to_timespine:
            out.add("spined cumulative")
        for i in m.input_metrics:
            inner = model.metric_index[i.name]
            if (i.offset_window or i.offset_to_grain) and (
                    inner.join_to_timespine or inner.fill_nulls_with is not None):
                out.add("spined or filled through an offset")
        todo += [i.name for i in m.input_metrics]
    if any(date_part_of(d.rsplit("__", 1)[-1]) for d in args.get("group_by", [])):
        out.add("date part")
    period = agg_time_period(model, args["metrics"], args.get("group_by", []), args.get("grain"))
    if period:
        out.add("by the aggregation time dimension")
    if (args.get("grain") or period) and joins_time_spine(model, args["metrics"]):
        out |= {"join_to_timespine", "spine: legacy" if spine == "legacy" else "spine: time_spines"}
    for item in args.get("where", []):
        for f in item.get("any_of", [item]):
            timed = f["dimension"].startswith("metric_time") or _is_time(model, f["dimension"])
            if f["op"] in ("ge", "gt", "le", "lt"):
                out.add("range filter, time" if timed else "range filter, non-time")
            elif f["op"] in ("is_null", "not_null"):
                out.add("null filter")
    return [f for f in FEATURES if f in out]


def _empty_answer(layer: Any, args: dict[str, Any]) -> bool:
    """The case is answered with a note rather than refused only as `semantic query` asks it."""
    from showwork.semantic_layer import SemanticError

    try:
        return bool(layer.plan("query", args, refuse_empty=False).notes)
    except SemanticError:
        return False


def _is_time(model: Any, name: str) -> bool:
    """The filter's dimension (a grain may end its name) is a time dimension, as the first
    metric reaching it resolves it."""
    from showwork.semantic_layer import SemanticError
    from showwork.semantic_layer.validate import dimension_for

    for metric in model.metric_index:
        for candidate in (name, name.rsplit("__", 1)[0]):
            try:
                return dimension_for(model, metric, candidate).dimension.type == "time"
            except SemanticError:  # not a dimension of that name (an entity, a grain's suffix)
                continue
    return False


def _by_feature(cases: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per feature: its cases, their maximum and median ratio (medians of each side's runs),
    and the maximum of each side's fastest runs' ratio (scheduler noise taken out)."""
    out = {}
    for feature in FEATURES:
        mine = [c for c in cases if feature in c.get("features", ())]
        if mine:
            ratios = [c["ratio"] for c in mine]
            out[feature] = {"cases": len(mine), "max_ratio": max(ratios),
                            "median_ratio": statistics.median(ratios),
                            "max_ratio_min": max(c["ratio_min"] for c in mine),
                            "worst": max(mine, key=lambda c: c["ratio"])["case"]}
    return out


def _summary(cases: list[dict[str, Any]]) -> dict[str, Any]:
    ratios = sorted(c["ratio"] for c in cases)
    if not ratios:
        return {"cases": 0}
    return {"cases": len(ratios), "max_ratio": ratios[-1], "median_ratio": statistics.median(ratios),
            "max_ratio_min": max(c["ratio_min"] for c in cases),
            "p90_ratio": ratios[int(0.9 * (len(ratios) - 1))],
            "worst": sorted(cases, key=lambda c: -c["ratio"])[:8]}


def run(repeats: int = 9, generated_worlds: int = GENERATED_WORLDS) -> dict[str, Any]:
    """Per query: our compile, MetricFlow's, and their ratio (target ≤ 0.5 on every query), over
    the conformance project's queries and over generated models and queries; each query timed
    on both sides back to back, both warm, medians of `repeats` (half of it, at least 5, for
    the generated ones). The machine's load average is recorded before and after."""
    import tempfile

    why = available()
    if why:
        return {"available": False, "reason": why}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="showwork-bench-") as scratch:
        cases = _conformance(repeats, Path(scratch) / "conformance")
        generated = (_generated(max(5, repeats // 2), generated_worlds, Path(scratch) / "generated")
                     if generated_worlds else [])
    every = cases + generated
    return {"available": True, "repeats": repeats, "cases": cases,
            "conformance": _summary(cases), "generated": _summary(generated),
            "generated_cases": len(generated), "features": _by_feature(generated),
            "generated_max_ratio": max((c["ratio"] for c in generated), default=None),
            "max_ratio": max(c["ratio"] for c in every),
            "median_ratio": statistics.median(c["ratio"] for c in every), "target_ratio": 0.5,
            "load_average": {"before": load_before, "after": os.getloadavg()}}


def main() -> None:
    """`python -m showwork.benchmarks.compile_vs_mf [worlds] [repeats]`: this bench alone (no
    engines), its summary and per-feature ratios as JSON on stdout."""
    worlds = int(sys.argv[1]) if len(sys.argv) > 1 else GENERATED_WORLDS
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    report = run(repeats, worlds)
    report.pop("cases", None)
    print(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
