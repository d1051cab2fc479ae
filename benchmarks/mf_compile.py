"""MetricFlow's own compile time, run inside conformance/.venv (its Python, its packages).

    conformance/.venv/bin/python benchmarks/mf_compile.py SPEC.json

SPEC is either {"manifest": dbt's semantic_manifest.json, "queries": [...]} (the conformance
project) or a batch as conformance/mf_driver.py reads it ({"worlds": [...]}: the generated worlds
of conformance/differential.py, each world's manifest built by MetricFlow's own parser). Each
query holds metrics, group_by (metric_time__grain included), start, end and where.

It then serves timings, so that the caller can time its own compile of the same query right
after, under the same machine load: for each line {"id": query id, "repeats": n} read on stdin
it warms the query once (what a long-running server would have cached), times `explain` (plan +
SQL, no execution) n times and writes one line {"id", "seconds": [...]} — or {"id", "error"}
for a query MetricFlow refuses. The engine renders DuckDB SQL through a client that never
connects. It imports nothing of showwork's.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Any

from metricflow.engine.metricflow_engine import MetricFlowEngine, MetricFlowQueryRequest
from metricflow.protocols.sql_client import SqlEngine
from metricflow.sql.render.duckdb_renderer import DuckDbSqlPlanRenderer
from metricflow_semantics.model.dbt_manifest_parser import parse_manifest_from_dbt_generated_manifest
from metricflow_semantics.model.semantic_manifest_lookup import SemanticManifestLookup


class RenderOnly:
    """A SqlClient for explain: the DuckDB renderer, and no connection at all."""

    sql_engine_type = SqlEngine.DUCKDB
    sql_plan_renderer = DuckDbSqlPlanRenderer()

    def query(self, *_a: Any, **_k: Any) -> Any:  # pragma: no cover - explain never runs SQL
        raise RuntimeError("render-only client")

    execute = dry_run = query

    def close(self) -> None:
        return None


def request(q: dict[str, Any], objects: list[Any] | None) -> MetricFlowQueryRequest:
    """The query as MetricFlow's API takes it; `objects`: its group-by objects when it groups
    by a date part (mf_driver._group_by_objects), else None."""
    def day(v: str | None) -> dt.datetime | None:
        return dt.datetime.fromisoformat(v) if v else None

    return MetricFlowQueryRequest.create(
        metric_names=q["metrics"], group_by_names=None if objects else q["group_by"] or None,
        group_by=objects,
        time_constraint_start=day(q.get("start")), time_constraint_end=day(q.get("end")),
        where_constraints=[q["where"]] if q.get("where") else None)


def engines(spec: dict[str, Any]) -> dict[str, tuple[MetricFlowEngine, dict[str, Any]]]:
    """Query id → (the engine of its model, the query)."""
    out: dict[str, tuple[MetricFlowEngine, dict[str, Any]]] = {}
    if "worlds" in spec:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
        from mf_driver import manifest

        for world in spec["worlds"]:
            engine = MetricFlowEngine(semantic_manifest_lookup=SemanticManifestLookup(
                manifest(world)), sql_client=RenderOnly())
            out.update((q["id"], (engine, q)) for q in world["queries"])
        return out
    lookup = SemanticManifestLookup(parse_manifest_from_dbt_generated_manifest(
        Path(spec["manifest"]).read_text()))
    engine = MetricFlowEngine(semantic_manifest_lookup=lookup, sql_client=RenderOnly())
    return {q["id"]: (engine, q) for q in spec["queries"]}


def timed(engine: MetricFlowEngine, q: dict[str, Any], repeats: int) -> list[float]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
    from mf_driver import _group_by_objects  # date parts: MetricFlow's group-by objects

    objects = _group_by_objects(engine, list(q["group_by"]))
    engine.explain(request(q, objects))  # warm
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        engine.explain(request(q, objects))
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    known = engines(json.loads(Path(sys.argv[1]).read_text()))
    print(json.dumps({"ready": len(known)}), flush=True)
    for line in sys.stdin:
        ask = json.loads(line)
        engine, q = known[ask["id"]]
        try:
            reply: dict[str, Any] = {"id": ask["id"], "seconds": timed(engine, q, ask["repeats"])}
        except Exception as exc:  # noqa: BLE001 - a query MetricFlow refuses has no compile time
            reply = {"id": ask["id"], "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
