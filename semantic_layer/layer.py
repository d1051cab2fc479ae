"""The governed semantic layer: validate, compile, execute, type the result."""

from __future__ import annotations

import datetime as dt
import decimal
from pathlib import Path
from typing import Any

import duckdb
from sqlglot import exp

from semantic_layer.attribution import attribute
from semantic_layer.catalog import build_catalog
from semantic_layer.compile import BUCKET, Compiled, Compiler
from semantic_layer.engines import Engine
from semantic_layer.errors import SemanticError, WarehouseMismatch
from semantic_layer.execute import Limits
from semantic_layer.infer import infer_from_duckdb, infer_from_engine, needs_inference
from semantic_layer.model import SemanticModel, SemanticModelFile, load_model
from semantic_layer.requests import CompareArgs, QueryArgs, parse_args
from semantic_layer.results import Number, Result, Row, member_text
from semantic_layer.sql import HAND_DIALECT, parse_trusted, to_dialect
from semantic_layer.validate import Coverage, Plan, plan_compare, plan_query
from semantic_layer.windows import Window, period_end

COMPILED_KEPT = 1024
"""Compiled calls a layer keeps (cleared when full)."""


class SemanticLayer:
    """What the analyst may ask: `query` and `compare`, both validated before they run.

    The warehouse is an `engine` (engines.open_engine: DuckDB, files, Spark), checked against
    the model when the layer opens, or a DuckDB file at `database`, opened at the first call."""

    def __init__(self, model: SemanticModelFile, database: Path | None = None,
                 limits: Limits | None = None, engine: Engine | None = None) -> None:
        self.limits = limits or Limits()
        if engine is not None:
            check_warehouse(model, engine)
            model = infer_from_engine(model, engine, self.limits)
        elif database is not None and needs_inference(model) and Path(database).exists():
            model = infer_from_duckdb(model, Path(database))
        self.model = model
        self.database = database
        self.compiler = Compiler(model)
        self._compiled: dict[tuple[str, str], Compiled] = {}
        """A validated plan's SQL: the model does not change under a layer, so a call asked
        again (repeats, configurations, a rerun) compiles once."""
        self._exact_edges = [e.model_dump() for e in model.metric_tree.exact]
        self._engine = engine
        self._owned = engine is None

    @classmethod
    def open(cls, database: Path | None, model_path: Path | None = None,
             limits: Limits | None = None) -> SemanticLayer:
        return cls(load_model(model_path), database, limits)

    @property
    def engine(self) -> Engine:
        """Where governed SQL runs (a DuckDB file at `database` is opened on first use)."""
        if self._engine is None:
            if self.database is None:
                raise ValueError("This semantic layer has no warehouse; it can only compile.")
            from semantic_layer.engines.duckdb import DuckDBEngine

            self._engine = DuckDBEngine(Path(self.database), self.limits)
        return self._engine

    @property
    def dialect(self) -> str:
        return self._engine.dialect if self._engine is not None else "duckdb"

    @property
    def connection(self) -> duckdb.DuckDBPyConnection:
        """The governed DuckDB connection (DuckDB and files engines), for hand-written SQL."""
        con = getattr(self.engine, "connection", None)
        if not isinstance(con, duckdb.DuckDBPyConnection):
            raise SemanticError(f"The warehouse runs on {self.engine.name}, not DuckDB; run SQL "
                                "with layer.run_sql(sql).")
        return con

    def run_sql(self, sql: str, dialect: str = HAND_DIALECT) -> list[tuple[Any, ...]]:
        """Rows of hand-written SQL (gold queries) on the warehouse, whatever its engine, under
        the layer's limits; written in `dialect`, transpiled by sqlglot to the engine's."""
        engine = self.engine
        return engine.run(to_dialect(sql, engine.dialect, dialect), self.limits)

    def check_warehouse(self) -> None:
        """WarehouseMismatch unless every table and column the model names is in the warehouse."""
        check_warehouse(self.model, self.engine)

    def close(self) -> None:
        """Close the warehouse (a given engine too); a `database` file reopens on the next call."""
        if self._engine is not None:
            self._engine.close()
            if self._owned:
                self._engine = None

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
        engine = self.engine
        key = (repr(plan), engine.dialect)
        compiled = self._compiled.get(key)
        if compiled is None:
            if len(self._compiled) >= COMPILED_KEPT:
                self._compiled.clear()
            compiled = self._compiled[key] = self.compiler.compile(plan, engine.dialect)
        rows = engine.run(compiled.sql, self.limits)
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


def check_warehouse(model: SemanticModelFile, engine: Engine) -> None:
    problems = warehouse_problems(model, engine.tables())
    if problems:
        raise WarehouseMismatch([f"{p} (warehouse: {engine!r})" for p in problems])


def warehouse_problems(model: SemanticModelFile, tables: dict[str, list[tuple[str, str]]]
                       ) -> list[str]:
    """Each table the model reads and each column its exprs name that `tables` lacks, naming
    the semantic model and its entity, dimension or measure (names compare case-insensitively,
    as DuckDB and Spark resolve them)."""
    columns = {t.lower(): {c.lower() for c, _ in cols} for t, cols in tables.items()}
    problems: list[str] = []
    for sm in model.semantic_models:
        table = sm.table if not sm.schema or sm.schema == "main" else f"{sm.schema}.{sm.table}"
        where = f"{sm.origin}: semantic model {sm.name!r}"
        if table.lower() not in columns:
            problems.append(f"{where} reads table {table!r}, which the warehouse lacks; its "
                            f"tables: {', '.join(sorted(tables)) or 'none'}")
            continue
        have = columns[table.lower()]
        for kind, name, column in _named_columns(sm):
            if column.lower() not in have:
                problems.append(f"{where}, {kind} {name!r}: column {column!r} is not in table "
                                f"{table!r}; its columns: "
                                f"{', '.join(c for c, _ in tables[_key(tables, table)])}")
    return list(dict.fromkeys(problems))


def _named_columns(sm: SemanticModel) -> list[tuple[str, str, str]]:
    """(kind, name, column) for every column an entity, dimension or measure expr reads."""
    items = [("entity", e.name, e.expr) for e in sm.entities]
    items += [("dimension", d.name, d.expr) for d in sm.dimensions]
    items += [("measure", m.name, m.expr) for m in sm.measures]
    out = []
    for kind, name, text in items:
        for col in parse_trusted(text).find_all(exp.Column):
            if col.name and (not col.table or col.table in (sm.table, sm.name)):
                out.append((kind, name, col.name))
    return out


def _key(tables: dict[str, Any], table: str) -> str:
    return next(t for t in tables if t.lower() == table.lower())


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
