"""MetricFlow's own compile time, run inside conformance/.venv (its Python, its packages).

    conformance/.venv/bin/python benchmarks/mf_compile.py MANIFEST REPEATS < queries.json
    conformance/.venv/bin/python benchmarks/mf_compile.py BATCH.json REPEATS

The second form times the generated worlds of conformance/differential.py (a batch as
conformance/mf_driver.py reads it; each world's manifest built by MetricFlow's own parser); a
query MetricFlow refuses is left out.

Reads the queries (metrics, group_by, start, end, where) as JSON on stdin, builds MetricFlow's
engine from dbt's semantic_manifest.json with a SQL client that only renders (DuckDB dialect,
never connects), warms each query once, then times `explain` (plan + SQL, no execution) REPEATS
times and prints {query id: [seconds, …]} as JSON. It imports nothing of showwork's.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from pathlib import Path

from metricflow.engine.metricflow_engine import MetricFlowEngine, MetricFlowQueryRequest
from metricflow.protocols.sql_client import SqlEngine
from metricflow.sql.render.duckdb_renderer import DuckDbSqlPlanRenderer
from metricflow_semantics.model.dbt_manifest_parser import parse_manifest_from_dbt_generated_manifest
from metricflow_semantics.model.semantic_manifest_lookup import SemanticManifestLookup


class RenderOnly:
    """A SqlClient for explain: the DuckDB renderer, and no connection at all."""

    sql_engine_type = SqlEngine.DUCKDB
    sql_plan_renderer = DuckDbSqlPlanRenderer()

    def query(self, *_a, **_k):  # pragma: no cover - explain never runs SQL
        raise RuntimeError("render-only client")

    execute = dry_run = query

    def close(self) -> None:
        return None


def request(q: dict) -> MetricFlowQueryRequest:
    def day(v: str | None) -> dt.datetime | None:
        return dt.datetime.fromisoformat(v) if v else None

    return MetricFlowQueryRequest.create(
        metric_names=q["metrics"], group_by_names=q["group_by"] or None,
        time_constraint_start=day(q.get("start")), time_constraint_end=day(q.get("end")),
        where_constraints=[q["where"]] if q.get("where") else None)


def timed(engine: MetricFlowEngine, queries: list[dict], repeats: int, out: dict) -> None:
    for q in queries:
        try:
            engine.explain(request(q))  # warm: what a long-running server would have cached
        except Exception:  # noqa: BLE001 - a query MetricFlow refuses has no compile time
            continue
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            engine.explain(request(q))
            times.append(time.perf_counter() - started)
        out[q["id"]] = times


def main() -> None:
    source, repeats = Path(sys.argv[1]), int(sys.argv[2])
    out: dict = {}
    data = json.loads(source.read_text())
    if isinstance(data, dict) and "worlds" in data:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
        from mf_driver import manifest

        for world in data["worlds"]:
            engine = MetricFlowEngine(semantic_manifest_lookup=SemanticManifestLookup(
                manifest(world)), sql_client=RenderOnly())
            timed(engine, [dict(q, group_by=([f"metric_time__{q['grain']}"] if q.get("grain")
                                             else []) + list(q["group_by"]))
                           for q in world["queries"]], repeats, out)
    else:
        lookup = SemanticManifestLookup(parse_manifest_from_dbt_generated_manifest(data if isinstance(
            data, str) else source.read_text()))
        engine = MetricFlowEngine(semantic_manifest_lookup=lookup, sql_client=RenderOnly())
        timed(engine, json.load(sys.stdin), repeats, out)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
