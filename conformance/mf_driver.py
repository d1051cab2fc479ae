"""MetricFlow in-process over a batch of generated cases (runs in conformance/.venv).

    conformance/.venv/bin/python conformance/mf_driver.py batch.json > results.jsonl

The batch (written by differential.py) holds a DuckDB file and worlds, each with its semantic
models and metrics in dbt's YAML shape and its queries. Per world the semantic manifest is built
by MetricFlow's own copy of dbt-semantic-interfaces (metricflow_semantic_interfaces: its
parser and transformations), then per query
MetricFlow's engine plans and renders its DuckDB SQL — what `mf query` would run — and the SQL runs
on the DuckDB file. One JSON line per query: {"id", "columns", "rows"} or {"id", "error"}.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from decimal import Decimal
from typing import Any

import duckdb
import yaml
from metricflow.engine.metricflow_engine import MetricFlowEngine, MetricFlowQueryRequest
from metricflow.protocols.sql_client import SqlEngine
from metricflow.sql.render.duckdb_renderer import DuckDbSqlPlanRenderer
from metricflow_semantic_interfaces.parsing.dir_to_model import (
    parse_yaml_files_to_validation_ready_semantic_manifest,
)
from metricflow_semantic_interfaces.parsing.objects import YamlConfigFile
from metricflow_semantics.model.semantic_manifest_lookup import SemanticManifestLookup

SPINE = {"time_spines": [{"node_relation": {"alias": "metricflow_time_spine",
                                            "schema_name": "main"},
                          "primary_column": {"name": "date_day", "time_granularity": "day"}}]}


def _row_ids(sql: str) -> str:
    """MetricFlow's SQL with each GEN_RANDOM_UUID() of a conversion metric as the rowid of the
    one table its SELECT reads beside subqueries (or of the one table a CTE it reads reads):
    the id of the conversion row (see _query)."""
    import sqlglot
    from sqlglot import exp

    def one_table(select: exp.Select, beside: exp.Expr | None = None) -> exp.Table | None:
        sources = [select.args.get("from_") or select.args.get("from"),
                   *(select.args.get("joins") or [])]
        tables = [s.this for s in sources if s is not None and isinstance(s.this, exp.Table)]
        window = beside.find_ancestor(exp.Window) if beside is not None else None
        if len(tables) > 1 and window is not None:  # the table the partition's columns are of
            named = {c.table for p in window.args.get("partition_by") or [] for c in
                     p.find_all(exp.Column)}
            tables = [t for t in tables if t.alias_or_name in named]
        return tables[0] if len(tables) == 1 else None

    tree = sqlglot.parse_one(sql, read="duckdb")
    ctes = {c.alias: c.this for c in tree.find_all(exp.CTE)}
    uuids = [u for u in tree.find_all(exp.Uuid, exp.Anonymous)
             if not isinstance(u, exp.Anonymous) or u.name.upper() == "GEN_RANDOM_UUID"]
    chosen: dict[int, exp.Table] = {}  # a SELECT → the table its partitions read the id of
    for uuid in sorted(uuids, key=lambda u: u.find_ancestor(exp.Window) is None):
        select = uuid.find_ancestor(exp.Select)
        read = one_table(select, uuid) or chosen.get(id(select))
        if read is None:
            continue
        chosen[id(select)] = read
        if read.name in ctes:
            inner = one_table(ctes[read.name])
            if inner is None:
                continue
            if "mf_row_id" not in ctes[read.name].named_selects:
                ctes[read.name].select(exp.alias_(exp.column("rowid", inner.alias_or_name),
                                                  "mf_row_id"), copy=False)
            uuid.replace(exp.column("mf_row_id", read.alias_or_name))
        else:
            uuid.replace(exp.column("rowid", read.alias_or_name))
    return tree.sql(dialect="duckdb")


class ExplainOnlyClient:
    """A SqlClient that only gives MetricFlow its DuckDB dialect (the SQL runs here)."""

    sql_engine_type = SqlEngine.DUCKDB
    sql_plan_renderer = DuckDbSqlPlanRenderer()

    def render_bind_parameter_key(self, key: str) -> str:
        return f"${key}"

    def query(self, *a: Any, **k: Any) -> Any:
        raise NotImplementedError

    execute = dry_run = query

    def close(self) -> None:
        pass


def manifest(world: dict[str, Any]) -> Any:
    """dbt YAML items as dbt-semantic-interfaces documents (model: ref('x') → node_relation)."""
    docs = [{"project_configuration": world.get("spine") or SPINE}]
    for sm in world["semantic_models"]:
        sm = dict(sm)
        table = sm.pop("model").split("'")[1]
        docs.append({"semantic_model": {**sm, "node_relation": {"alias": table,
                                                                "schema_name": "main"}}})
    for m in world["metrics"]:
        tp = dict(m.get("type_params", {}))
        for side in ("numerator", "denominator"):  # dbt takes a name; the YAML spec a mapping
            if isinstance(tp.get(side), str):
                tp[side] = {"name": tp[side]}
        docs.append({"metric": {**m, "type_params": tp}})
    text = "\n---\n".join(yaml.safe_dump(d, sort_keys=False) for d in docs)
    built = parse_yaml_files_to_validation_ready_semantic_manifest(
        [YamlConfigFile(filepath=f"{world['id']}.yml", contents=text)])
    return built.semantic_manifest


def _cell(v: Any) -> Any:
    if isinstance(v, dt.datetime | dt.date):
        return v.isoformat()[:10]
    if isinstance(v, Decimal):
        return float(v)
    return v


def manifest_folder(folder: str) -> Any:
    """One of MetricFlow's own test manifests (a folder of YAML), `$source_schema` as `main`."""
    from pathlib import Path

    files = [YamlConfigFile(filepath=str(f), contents=f.read_text(encoding="utf-8").replace(
        "$source_schema", "main")) for f in sorted(Path(folder).rglob("*.yaml"))]
    return parse_yaml_files_to_validation_ready_semantic_manifest(files).semantic_manifest


def dbt_manifest(path: str) -> Any:
    """A dbt-written target/semantic_manifest.json, parsed as `mf` parses it."""
    from metricflow_semantics.model.dbt_manifest_parser import (
        parse_manifest_from_dbt_generated_manifest,
    )

    with open(path, encoding="utf-8") as f:
        return parse_manifest_from_dbt_generated_manifest(manifest_json_string=f.read())


def run(batch: dict[str, Any]) -> None:
    con = duckdb.connect(batch["database"], read_only=True)
    client = ExplainOnlyClient()
    if "manifest" in batch or "semantic_manifest" in batch:
        # conformance/mf_itests.py: MetricFlow's own manifest and cases; conformance/public.py:
        # a dbt project's target/semantic_manifest.json, as `mf query` reads it
        batch = {"worlds": [{**batch, "id": batch.get("manifest") or batch["semantic_manifest"]}]}
    for world in batch["worlds"]:
        try:
            built = (dbt_manifest(world["semantic_manifest"]) if "semantic_manifest" in world
                     else manifest_folder(world["manifest"]) if "manifest" in world
                     else manifest(world))
            engine = MetricFlowEngine(SemanticManifestLookup(built), client)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001 - reported per query
            for q in world["queries"]:
                print(json.dumps({"id": q["id"], "error": f"manifest: {str(exc)[:600]}"}))
            continue
        for q in world["queries"]:
            print(json.dumps(_query(engine, con, q)), flush=True)


def _query(engine: MetricFlowEngine, con: Any, q: dict[str, Any]) -> dict[str, Any]:
    group_by = q.get("group_by_names") or (  # an itest's own names, as MetricFlow reads them
        [f"metric_time__{q['grain']}"] if q.get("grain") else []) + list(q["group_by"])
    start = dt.datetime.fromisoformat(q["start"]) if q.get("start") else None
    end = dt.datetime.fromisoformat(q["end"]) if q.get("end") else None
    try:
        objects = _group_by_objects(engine, group_by)
        request = MetricFlowQueryRequest.create(
            metric_names=q["metrics"], group_by_names=None if objects else group_by or None,
            group_by=objects,
            time_constraint_start=start, time_constraint_end=end,
            where_constraints=[q["where"]] if q.get("where") else None,
            order_by_names=q.get("order_by") or None, limit=q.get("limit"))
        sql = engine.explain(request).sql_statement.sql
    except Exception as exc:  # noqa: BLE001 - MetricFlow refusing is a result
        return {"id": q["id"], "error": " ".join(str(exc).split())[:600]}
    if "GEN_RANDOM_UUID()" in sql:
        # A conversion metric's rows are told apart by a generated UUID that a window
        # partitions by and a DISTINCT then dedupes the fanout by. MetricFlow's optimizer
        # inlines the column, so each use draws a new UUID: DuckDB 1.2+ refuses the volatile
        # PARTITION BY ("cannot be volatile"), and one in the select list makes every joined row
        # distinct (the fanout counted). One id per conversion row, as MetricFlow means it: the
        # rowid of the conversion model's table (_row_ids).
        sql = _row_ids(sql)
    try:
        cursor = con.execute(sql)
        columns = [d[0] for d in cursor.description]
        rows = [[_cell(v) for v in row] for row in cursor.fetchall()]
    except Exception as exc:  # noqa: BLE001
        return {"id": q["id"], "error": "sql: " + " ".join(str(exc).split())[:600], "sql": sql}
    return {"id": q["id"], "columns": columns, "rows": rows}


def _group_by_objects(engine: MetricFlowEngine, names: list[str]) -> list[Any] | None:
    """The group-by objects MetricFlow's API takes for names with a date part
    (`metric_time__extract_dow`, `booking__ds__extract_year`: the columns it outputs, which its
    `--group-by` parser refuses), the other names beside them as objects of the same meaning;
    None when no name has a date part (the names are passed as they are)."""
    from metricflow_semantic_interfaces.type_enums.date_part import DatePart
    from metricflow_semantic_interfaces.type_enums.time_granularity import TimeGranularity
    from metricflow_semantics.specs.query_param_implementations import (
        DimensionOrEntityParameter,
        TimeDimensionParameter,
    )

    parts = {f"extract_{p.value}": p for p in DatePart}
    if not any(n.rsplit("__", 1)[-1] in parts for n in names):
        return None
    lookup = engine._semantic_manifest_lookup.semantic_model_lookup  # noqa: SLF001
    grains = {g.value for g in TimeGranularity} | set(lookup.custom_granularity_names)
    out: list[Any] = []
    for name in names:
        head, _, last = name.rpartition("__")
        if head and last in parts:
            out.append(TimeDimensionParameter(name=head, date_part=parts[last]))
        elif head and last in grains:
            out.append(TimeDimensionParameter(name=head, grain=last))
        else:
            out.append(DimensionOrEntityParameter(name=name))
    return out


def run_sql(database: str, sql_file: str, csv_file: str) -> None:
    """`mf query --explain`'s SQL run on the DuckDB file, its rows written as `mf query --csv`
    writes them (run.py, for the conversion metrics `mf query` cannot run on DuckDB)."""
    import csv

    sql = open(sql_file, encoding="utf-8").read()  # noqa: SIM115 - read once
    con = duckdb.connect(database, read_only=True)
    cursor = con.execute(_row_ids(sql) if "GEN_RANDOM_UUID()" in sql else sql)
    with open(csv_file, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([d[0] for d in cursor.description])
        writer.writerows(cursor.fetchall())


if __name__ == "__main__":
    if sys.argv[1] == "--sql":
        run_sql(*sys.argv[2:5])
    else:
        with open(sys.argv[1], encoding="utf-8") as f:
            run(json.load(f))
