"""The governed semantic layer: validate, compile, execute, type the result."""

from __future__ import annotations

import datetime as dt
import decimal
from pathlib import Path
from typing import Any

import duckdb

from semantic_layer.attribution import attribute
from semantic_layer.catalog import build_catalog
from semantic_layer.compile import BUCKET, Compiled, Compiler
from semantic_layer.execute import Limits, connect, run
from semantic_layer.infer import infer_from_duckdb, needs_inference
from semantic_layer.model import SemanticModelFile, load_model
from semantic_layer.requests import CompareArgs, QueryArgs, parse_args
from semantic_layer.results import Number, Result, Row, member_text
from semantic_layer.validate import Coverage, Plan, plan_compare, plan_query
from semantic_layer.windows import Window, period_end


class SemanticLayer:
    """What the analyst may ask: `query` and `compare`, both validated before they run."""

    def __init__(self, model: SemanticModelFile, database: Path | None = None,
                 limits: Limits | None = None) -> None:
        if database is not None and needs_inference(model) and Path(database).exists():
            model = infer_from_duckdb(model, Path(database))
        self.model = model
        self.database = database
        self.limits = limits or Limits()
        self.compiler = Compiler(model)
        self._exact_edges = [e.model_dump() for e in model.metric_tree.exact]
        self._con: duckdb.DuckDBPyConnection | None = None

    @classmethod
    def open(cls, database: Path | None, model_path: Path | None = None,
             limits: Limits | None = None) -> SemanticLayer:
        return cls(load_model(model_path), database, limits)

    @property
    def connection(self) -> duckdb.DuckDBPyConnection:
        if self._con is None:
            if self.database is None:
                raise ValueError("This semantic layer has no warehouse; it can only compile.")
            self._con = connect(self.database, self.limits)
        return self._con

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def catalog(self) -> dict[str, Any]:
        return build_catalog(self.model)

    # -- planning and compiling --------------------------------------------------------------
    def plan(self, kind: str, raw: Any) -> Plan:
        args = parse_args(kind, raw)  # type: ignore[arg-type]
        if isinstance(args, QueryArgs):
            return plan_query(self.model, args)
        assert isinstance(args, CompareArgs)
        return plan_compare(self.model, args)

    def compile(self, kind: str, raw: Any, dialect: str = "duckdb") -> Compiled:
        return self.compiler.compile(self.plan(kind, raw), dialect)

    # -- the governed tools ------------------------------------------------------------------
    def query(self, **args: Any) -> Result:
        return self.call("query", args)

    def compare(self, **args: Any) -> Result:
        return self.call("compare", args)

    def call(self, kind: str, raw: Any) -> Result:
        """Run a governed call from raw (wire) arguments; raise a SemanticError if blocked."""
        plan = self.plan(kind, raw)
        compiled = self.compiler.compile(plan, "duckdb")
        rows = run(self.connection, compiled.sql, self.limits)
        return self._typed(plan, compiled, rows)

    def _typed(self, plan: Plan, compiled: Compiled, raw_rows: list[tuple]) -> Result:
        records = [dict(zip((*compiled.keys, *plan.metrics), r, strict=True)) for r in raw_rows]
        coverage = tuple(c.to_json() for c in plan.coverage)
        common: dict[str, Any] = {"kind": plan.kind, "metrics": plan.metrics, "coverage": coverage,
                  "sql": compiled.sql, "model_version": self.model.version,
                  "point_in_time": tuple(m for m in plan.metrics if self.model.point_in_time(m)),
                  "renamed": plan.renamed, "grain": plan.grain}
        if plan.requested is not None:
            common["widened"] = {"requested": plan.requested.to_json(),
                                 "window": plan.windows[0].to_json(),
                                 "note": f"widened to whole {plan.grain}s, as MetricFlow does"}
        if plan.kind == "compare":
            rows = attribute(_compare_rows(plan, records), plan.metrics, self._exact_edges)
            return Result(keys=tuple(plan.group_by), rows=rows, **common)
        grain_key = (plan.grain,) if compiled.bucketed and plan.grain else ()
        rows = tuple(_query_row(plan, rec, plan.coverage[0]) for rec in records)
        return Result(keys=grain_key + tuple(plan.group_by), rows=rows, **common)


def _number(v: Any) -> Number:
    if v is None:
        return None
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, bool):
        return int(v)
    return v if isinstance(v, int | float) else float(v)


def _query_row(plan: Plan, rec: dict[str, Any], cov: Coverage) -> Row:
    key = {d: member_text(rec[d]) for d in plan.group_by}
    partial = False
    if plan.grain and BUCKET in rec:
        start = rec[BUCKET]
        start = start.date() if isinstance(start, dt.datetime) else start
        start = dt.date.fromisoformat(start) if isinstance(start, str) else start
        period = Window(start, period_end(start, plan.grain))
        partial = cov.covered is None or not cov.covered.covers(period)
        key = {plan.grain: start.isoformat(), **key}
    values = {m: {"value": _number(rec[m])} for m in plan.metrics}
    return Row(key, values, partial)


def _compare_rows(plan: Plan, records: list[dict[str, Any]]) -> tuple[Row, ...]:
    by_key: dict[tuple[str, ...], dict[str, dict[str, Any]]] = {}
    for rec in records:
        key = tuple(member_text(rec[d]) for d in plan.group_by)
        by_key.setdefault(key, {})[rec[BUCKET]] = rec
    rows = []
    for key in sorted(by_key):
        buckets = by_key[key]
        values = {m: _fields(buckets.get("current", {}).get(m), buckets.get("previous", {}).get(m))
                  for m in plan.metrics}
        rows.append(Row(dict(zip(plan.group_by, key, strict=True)), values))
    return tuple(rows)


def _fields(current: Any, previous: Any) -> dict[str, Number]:
    cur, prev = _number(current), _number(previous)
    delta = cur - prev if cur is not None and prev is not None else None
    pct = delta / prev * 100 if delta is not None and prev else None
    return {"value": cur, "previous": prev, "delta": delta, "pct_change": pct}
