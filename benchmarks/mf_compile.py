"""MetricFlow's own compile time, run inside conformance/.venv (its Python, its packages).

    conformance/.venv/bin/python benchmarks/mf_compile.py MANIFEST REPEATS < queries.json

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
    day = dt.datetime.fromisoformat
    return MetricFlowQueryRequest.create(
        metric_names=q["metrics"], group_by_names=q["group_by"] or None,
        time_constraint_start=day(q["start"]), time_constraint_end=day(q["end"]),
        where_constraints=[q["where"]] if q.get("where") else None)


def main() -> None:
    manifest, repeats = Path(sys.argv[1]), int(sys.argv[2])
    lookup = SemanticManifestLookup(parse_manifest_from_dbt_generated_manifest(manifest.read_text()))
    engine = MetricFlowEngine(semantic_manifest_lookup=lookup, sql_client=RenderOnly())
    out = {}
    for q in json.load(sys.stdin):
        engine.explain(request(q))  # warm: what a long-running server would have cached
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            engine.explain(request(q))
            times.append(time.perf_counter() - started)
        out[q["id"]] = times
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
