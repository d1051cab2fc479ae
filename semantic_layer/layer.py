"""The governed semantic layer: validate, compile, execute, type the result.

sqlglot loads with the first call this layer compiles: a call prepared before and read back from
the caller's `prepared` store (harness/cache.py, the project cache) runs its SQL and types its
rows without a parser.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showwork.semantic_layer.catalog import build_catalog
from showwork.semantic_layer.duck import duckdb
from showwork.semantic_layer.engines import Engine
from showwork.semantic_layer.errors import SemanticError, WarehouseMismatch
from showwork.semantic_layer.execute import Limits
from showwork.semantic_layer.infer import infer_from_duckdb, infer_from_engine, needs_inference
from showwork.semantic_layer.model import SemanticModel, SemanticModelFile, load_model
from showwork.semantic_layer.reading import Reading
from showwork.semantic_layer.requests import CompareArgs, QueryArgs, parse_args
from showwork.semantic_layer.results import Result
from showwork.semantic_layer.validate import Plan, plan_compare, plan_query

if TYPE_CHECKING:
    from showwork.semantic_layer.compile import Compiled, Compiler

PREPARED_KEPT = 1024
"""Prepared calls a layer keeps, by wire arguments and by plan (cleared when full)."""
Store = Callable[[tuple[str, ...], Callable[[], Reading]], Reading]
"""A caller's store of prepared calls beyond this layer's life: (key, build) → the Reading kept
under key, else build()'s, kept. The key is the call's kind, wire arguments and dialect; the
store adds what else the Reading depends on (the model and the code that prepared it)."""


class SemanticLayer:
    """What the analyst may ask: `query` and `compare`, both validated before they run.

    The warehouse is an `engine` (engines.open_engine: DuckDB, files, Spark), checked against
    the model when the layer opens, or a DuckDB file at `database`, opened at the first call."""

    def __init__(self, model: SemanticModelFile, database: Path | None = None,
                 limits: Limits | None = None, engine: Engine | None = None,
                 checked: WarehouseCheck | None = None, prepared: Store | None = None) -> None:
        self.limits = limits or Limits()
        self._time_problems: dict[tuple[str, str], str] | None = None
        """(semantic model, time dimension) → why its column cannot be read as a date."""
        self.skipped: tuple[str, ...] = ()
        """Semantic models left out because the warehouse lacks what they read and no metric
        reads their measures, each with its problems (the rest loads, as dbt's does)."""
        if engine is not None:
            checked = checked or inspect_warehouse(model, engine.tables())
            model, self.skipped, problems = without_broken(model, checked)
            _raise_mismatch(problems, engine)
            for text in self.skipped:
                import structlog  # here: a warm ask never logs, so never loads structlog

                structlog.get_logger(__name__).warning("semantic model skipped", problem=text)
            self._time_problems = dict(checked.time_problems)
            model = infer_from_engine(model, engine, self.limits)
        elif database is not None and needs_inference(model) and Path(database).exists():
            model = infer_from_duckdb(model, Path(database))
        self.model = model
        self.database = database
        self._prepared: dict[tuple[str, ...], Reading] = {}
        """Calls validated and compiled, with how to type their rows, by wire arguments and by
        plan: the model does not change under a layer, so a call asked again (repeats,
        configurations, a rerun) is prepared once. No rows are kept: every call runs its SQL."""
        self._store = prepared
        """Where calls prepared by an earlier process are kept (None: this layer's own only)."""
        self._exact_edges = [e.model_dump() for e in model.metric_tree.exact]
        self._engine = engine
        self._owned = engine is None

    @classmethod
    def open(cls, database: Path | None, model_path: Path | None = None,
             limits: Limits | None = None) -> SemanticLayer:
        return cls(load_model(model_path), database, limits)

    @cached_property
    def compiler(self) -> Compiler:
        from showwork.semantic_layer.compile import Compiler

        return Compiler(self.model)

    @property
    def engine(self) -> Engine:
        """Where governed SQL runs (a DuckDB file at `database` is opened on first use)."""
        if self._engine is None:
            if self.database is None:
                raise ValueError("This semantic layer has no warehouse; it can only compile.")
            from showwork.semantic_layer.engines.duckdb import DuckDBEngine

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

    def run_sql(self, sql: str, dialect: str | None = None) -> list[tuple[Any, ...]]:
        """Rows of hand-written SQL (gold queries) on the warehouse, whatever its engine, under
        the layer's limits; written in `dialect` (default: DuckDB's, as gold SQL is),
        transpiled by sqlglot to the engine's."""
        from showwork.semantic_layer.sql import HAND_DIALECT, to_dialect

        engine = self.engine
        return engine.run(to_dialect(sql, engine.dialect, dialect or HAND_DIALECT), self.limits)

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
    def plan(self, kind: str, raw: Any, refuse_empty: bool = True) -> Plan:
        """The validated call (refuse_empty: see call)."""
        args = parse_args(kind, raw)  # type: ignore[arg-type]
        if isinstance(args, QueryArgs):
            return plan_query(self.model, args, refuse_empty)
        assert isinstance(args, CompareArgs)
        return plan_compare(self.model, args)

    def compile(self, kind: str, raw: Any, dialect: str = "duckdb",
                refuse_empty: bool = True) -> Compiled:
        """The call's SQL (refuse_empty: see call). An empty plan's too, as `mf query --explain`
        gives it: the SQL over the window asked, which reads no row there (call runs none);
        none when the bounds leave the window no day at all (start after end: no period)."""
        plan = self.plan(kind, raw, refuse_empty)
        window = plan.windows[0]
        if plan.empty and window.start > window.end:
            return _nothing(plan, dialect)
        return self.compiler.compile(plan, dialect)

    # -- the governed tools ------------------------------------------------------------------
    def query(self, **args: Any) -> Result:
        return self.call("query", args)

    def compare(self, **args: Any) -> Result:
        return self.call("compare", args)

    def call(self, kind: str, raw: Any, refuse_empty: bool = True) -> Result:
        """Run a governed call from raw (wire) arguments; raise a SemanticError if blocked.

        refuse_empty (the analyst's tool): a query no day of whose window is read, or naming a
        member outside a dimension's closed list, is refused, so a model can repair it and an
        empty result never reads as a 0. False (`semantic query`, the public API): answered as
        MetricFlow answers it, with no rows (or the rows of the members there are) and
        Result.notes saying why.

        Its SQL runs against the warehouse every time; only what follows from the arguments
        and the model (validation, SQL, how to type the rows) is prepared once."""
        if kind == "query" and isinstance(raw, dict) and "share" in raw:
            from showwork.semantic_layer.shares import query_with_shares

            return query_with_shares(self, raw)  # the grouped call and its total, divided
        reading = self._prepare(kind, raw, refuse_empty)
        if reading.plan.empty:
            return reading.result(())  # no day, so no period: nothing to run
        return reading.result(self.engine.run(reading.sql, self.limits))

    def _prepare(self, kind: str, raw: Any, refuse_empty: bool = True) -> Reading:
        """The call prepared: found by its wire arguments when they were asked before, else
        validated now and found by its plan."""
        wire = _wire_key(raw)
        key = ((kind, wire, self.dialect) + (() if refuse_empty else ("answer_empty",))
               if wire is not None else None)
        found = self._prepared.get(key) if key else None
        if found is None:
            def build() -> Reading:
                return self._planned(self.plan(kind, raw, refuse_empty))

            found = self._store(key, build) if key and self._store else build()
            if key:
                self._keep(key, found)
        return found

    def _planned(self, plan: Plan) -> Reading:
        """The plan's SQL and typing, prepared once per plan (other wire arguments, such as a
        metric's previous name, may validate to a plan already prepared)."""
        key = (repr(plan), self.dialect)
        found = self._prepared.get(key)
        if found is None:
            self._check_time(plan)
            self._check_spines(plan)
            compiled = _nothing(plan, self.dialect) if plan.empty else \
                self.compiler.compile(plan, self.dialect)
            point_in_time = tuple(m for m in plan.metrics if self.model.point_in_time(m))
            found = Reading(plan, compiled, self.model.version, point_in_time, self._exact_edges)
            self._keep(key, found)
        return found

    def _check_time(self, plan: Plan) -> None:
        """A SemanticError naming file, model, dimension and column when the plan reads time
        (a window, a grain, an offset or cumulative window) from a time dimension whose column
        the warehouse holds as something other than a date or timestamp (text, an integer
        year), rather than the engine's own cast or binder error. Without a window or a grain a
        plain metric reads no time, as in MetricFlow, and runs."""
        if self._engine is None and self.database is None:
            return  # compile only
        if self._time_problems is None:
            self._time_problems = time_problems(self.model, self.engine.tables())
        if not self._time_problems:
            return
        reads_time = plan.bounded or plan.grain is not None or any(
            _shifts_time(self.model, m) for m in plan.metrics)
        if not reads_time:
            return
        for metric in plan.metrics:
            for name in self.model.base_measures(metric):
                sm, measure = self.model.measures[name]
                problem = self._time_problems.get((sm.name, measure.agg_time_dimension))
                if problem:
                    raise SemanticError(f"Metric {metric!r}: {problem}; query it without a "
                                        "window or grain, or cast the column in the dimension's "
                                        "expr.")

    def _check_spines(self, plan: Plan) -> None:
        """A SemanticError naming the table, the granularity and the project when the plan reads
        a custom granularity whose time spine table the warehouse lacks, rather than the
        engine's own error on a missing table."""
        if self._engine is None and self.database is None:
            return  # compile only
        named = [plan.grain or "", *plan.group_by]
        grains = sorted({n.rsplit("__", 1)[-1] for n in named} & set(self.model.custom_grains))
        if not grains:
            return
        tables = {t.lower() for t in self.engine.tables()}
        for grain in grains:
            spine = self.model.custom_grains[grain][0]
            table = spine.table if not spine.schema or spine.schema == "main" else \
                f"{spine.schema}.{spine.table}"
            if table.lower() not in tables:
                raise SemanticError(
                    f"The custom granularity {grain!r} reads the time spine table {table!r}, "
                    f"which the warehouse lacks (project {self.model.source or '?'}, warehouse "
                    f"{self.engine!r}); build the time spine model (dbt run) or fix its name.")

    def _keep(self, key: tuple[str, ...], reading: Reading) -> None:
        if len(self._prepared) >= PREPARED_KEPT:
            self._prepared.clear()
        self._prepared[key] = reading


def _nothing(plan: Plan, dialect: str) -> Compiled:
    """An empty plan's columns (the period, then the dimensions) and no SQL: no day is read, so
    there is no period."""
    from showwork.semantic_layer.compile import BUCKET, Compiled

    return Compiled("", dialect, (BUCKET, *plan.group_by), plan.metrics, True)


def _wire_key(raw: Any) -> str | None:
    """Wire arguments as canonical JSON (types kept: 1, 1.0, true and "1" differ), or None when
    they are not plain JSON and only their validated plan can key them."""
    try:
        return json.dumps(raw, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class WarehouseCheck:
    """The model checked against the warehouse's tables: a function of the two alone, so a
    caller may keep it by the model and the warehouse's fingerprint (harness/cache.py) and a
    warm start reads no catalog and parses no expr."""

    problems: tuple[str, ...]
    """What `warehouse_problems` found (the layer skips the semantic models they are in when
    no metric reads their measures, and refuses to open otherwise)."""
    time_problems: tuple[tuple[tuple[str, str], str], ...]
    """What `time_problems` found, as (semantic model, time dimension) → why, in order."""
    by_model: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """The problems again, by the semantic model each is in."""


def inspect_warehouse(model: SemanticModelFile, tables: dict[str, list[tuple[str, str]]]
                      ) -> WarehouseCheck:
    found = _model_problems(model, tables)
    return WarehouseCheck(tuple(p for ps in found.values() for p in ps),
                          tuple(time_problems(model, tables).items()),
                          tuple((name, tuple(ps)) for name, ps in found.items()))


def without_broken(model: SemanticModelFile, checked: WarehouseCheck
                   ) -> tuple[SemanticModelFile, tuple[str, ...], tuple[str, ...]]:
    """(the model without the semantic models the warehouse breaks that no metric's measure
    reads, what was skipped, the problems left). A metric whose filter names a skipped model's
    dimension is withdrawn with the reason, as a metric showwork cannot compute. When a model a
    metric reads is broken too, nothing is skipped: the layer is refused with every problem."""
    read = {sm.name for m in model.metrics for sm in model.base_models(m.name)}
    broken = {name: ps for name, ps in checked.by_model if ps and name not in read}
    if not broken or any(ps and name in read for name, ps in checked.by_model):
        return model, (), checked.problems  # refused: every problem said at once
    skipped = tuple(f"{p}; semantic model {name!r} skipped (no metric reads its measures)"
                    for name, ps in broken.items() for p in ps)
    kept = tuple(sm for sm in model.semantic_models if sm.name not in broken)
    return _withdraw_filtered(replace(model, semantic_models=kept), set(broken)), skipped, ()


def _withdraw_filtered(model: SemanticModelFile, skipped: set[str]) -> SemanticModelFile:
    """The model without the metrics whose filters name a dimension only a skipped semantic
    model held (refused when asked, naming it)."""
    from showwork.semantic_layer.compile import check_metric_filters
    from showwork.semantic_layer.project import withdraw

    reasons = {}
    for m in model.metrics:
        try:
            check_metric_filters(model, m.name)
        except SemanticError as exc:
            reasons[m.name] = (f"its filter reads a semantic model the warehouse breaks "
                               f"({', '.join(sorted(skipped))}): {exc.message}")
    return withdraw(model, reasons) if reasons else model


def check_warehouse(model: SemanticModelFile, engine: Engine) -> None:
    _raise_mismatch(warehouse_problems(model, engine.tables()), engine)


def _raise_mismatch(problems: Sequence[str], engine: Engine) -> None:
    if problems:
        raise WarehouseMismatch([f"{p} (warehouse: {engine!r})" for p in problems])


def warehouse_problems(model: SemanticModelFile, tables: dict[str, list[tuple[str, str]]]
                       ) -> list[str]:
    """Each table the model reads and each column its exprs name that `tables` lacks, naming
    the semantic model and its entity, dimension or measure (names compare case-insensitively,
    as DuckDB and Spark resolve them)."""
    return list(dict.fromkeys(p for ps in _model_problems(model, tables).values() for p in ps))


def _model_problems(model: SemanticModelFile, tables: dict[str, list[tuple[str, str]]]
                    ) -> dict[str, list[str]]:
    """`warehouse_problems` by semantic model (those with none left out)."""
    columns = {t.lower(): {c.lower() for c, _ in cols} for t, cols in tables.items()}
    out: dict[str, list[str]] = {}
    for sm in model.semantic_models:
        problems = out.setdefault(sm.name, [])
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
        out[sm.name] = list(dict.fromkeys(problems))
    return {name: ps for name, ps in out.items() if ps}


def _shifts_time(model: SemanticModelFile, metric: str) -> bool:
    """Cumulative, offset or point in time somewhere in the metric: it reads time by day."""
    m = model.metric_index[metric]
    if m.type == "cumulative" or model.point_in_time(metric):
        return True
    return any(i.offset_window or i.offset_to_grain or _shifts_time(model, i.name)
               for i in m.input_metrics)


TEMPORAL = ("date", "timestamp", "datetime")


def time_problems(model: SemanticModelFile, tables: dict[str, list[tuple[str, str]]]
                  ) -> dict[tuple[str, str], str]:
    """Time dimensions whose expr is a bare column the warehouse holds as neither a date nor a
    timestamp, with a message naming the file, the semantic model, the dimension, the column
    and its type."""
    types = {t.lower(): {c.lower(): ty for c, ty in cols} for t, cols in tables.items()}
    out: dict[tuple[str, str], str] = {}
    from sqlglot import exp

    from showwork.semantic_layer.sql import parse_trusted

    for sm in model.semantic_models:
        table = sm.table if not sm.schema or sm.schema == "main" else f"{sm.schema}.{sm.table}"
        for d in sm.dimensions:
            tree = parse_trusted(d.expr)
            if d.type != "time" or not isinstance(tree, exp.Column):
                continue
            kind = types.get(table.lower(), {}).get(tree.name.lower())
            if kind and not kind.lower().startswith(TEMPORAL):
                out[(sm.name, d.name)] = (
                    f"{sm.origin}: semantic model {sm.name!r}, time dimension {d.name!r}: column "
                    f"{tree.name!r} of table {table!r} is {kind}, not a date or timestamp")
    return out


def _named_columns(sm: SemanticModel) -> list[tuple[str, str, str]]:
    """(kind, name, column) for every column an entity, dimension or measure expr reads."""
    from sqlglot import exp

    from showwork.semantic_layer.sql import parse_trusted

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
