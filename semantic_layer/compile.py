"""Compile a validated Plan to SQL with sqlglot expression builders.

Identifiers come from the semantic model; values (members, dates) are literals built by sqlglot.
The only SQL text ever parsed is the model's own trusted `expr`/`filter` configuration. After
compiling, the SQL is re-parsed and checked to be a single SELECT over the model's tables.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache

import sqlglot
from sqlglot import exp

from semantic_layer.errors import SemanticError
from semantic_layer.model import Measure, SemanticModel, SemanticModelFile
from semantic_layer.validate import Plan
from semantic_layer.windows import Window, periods

DIALECTS = ("duckdb", "spark", "trino", "bigquery", "snowflake")
BUCKET = "__bucket"


@dataclass(frozen=True)
class Compiled:
    """SQL for one governed call, with how to read its rows."""

    sql: str
    dialect: str
    keys: tuple[str, ...]
    """Output key columns, in order (bucket first when present, then dimensions)."""
    metrics: tuple[str, ...]
    bucketed: bool


def _conjuncts(text: str | None) -> list[str]:
    """The AND-ed parts of a trusted filter, as SQL text."""
    if not text:
        return []
    tree = _parse(text)
    parts = list(tree.flatten()) if isinstance(tree, exp.And) else [tree]
    return [p.sql(dialect="duckdb") for p in parts]


def _split_filters(measures: list[Measure]) -> tuple[list[str], dict[str, str | None]]:
    """(conditions every measure shares, each measure's remaining condition or None).

    Shared conditions go to WHERE once; only what differs stays inside the aggregates, which
    is what a person writing the SQL by hand would do."""
    parts = {m.name: _conjuncts(m.filter) for m in measures}
    common = [c for c in parts[measures[0].name] if all(c in p for p in parts.values())]
    residual = {name: " AND ".join(c for c in p if c not in common) or None
                for name, p in parts.items()}
    return common, residual


@lru_cache(maxsize=512)
def _parse(text: str) -> exp.Expr:
    return sqlglot.parse_one(text, read="duckdb")


def _trusted(text: str) -> exp.Expr:
    """A copy of a parsed fragment of the model's own configuration."""
    return _parse(text).copy()


def _date(day: dt.date) -> exp.Expr:
    return exp.cast(exp.Literal.string(day.isoformat()), exp.DataType.Type.DATE)


def _in_window(col: exp.Expr, w: Window) -> exp.Expr:
    return exp.and_(col.copy() >= _date(w.start), col.copy() < _date(w.end_exclusive))


def week_start(col: exp.Expr, dialect: str) -> exp.Expr:
    """The Monday of the ISO week holding `col`, as a DATE, in every dialect."""
    day = exp.cast(col, exp.DataType.Type.DATE)
    if dialect == "bigquery":
        return exp.DateTrunc(this=day, unit=exp.var("ISOWEEK"))
    if dialect == "snowflake":
        # DATE_TRUNC('WEEK') follows the WEEK_START session parameter there; this does not.
        offset = exp.Sub(this=exp.Literal.number(1), expression=exp.DayOfWeekIso(this=day.copy()))
        return exp.DateAdd(this=day, expression=offset, unit=exp.var("DAY"))
    return exp.cast(exp.DateTrunc(this=day, unit=exp.Literal.string("WEEK")), "DATE")


def _truncate(col: exp.Expr, grain: str, dialect: str) -> exp.Expr:
    if grain == "day":
        return exp.cast(col, exp.DataType.Type.DATE)
    if grain == "week":
        return week_start(col, dialect)
    trunc = exp.DateTrunc(this=exp.cast(col, "DATE"), unit=exp.Literal.string("MONTH"))
    return exp.cast(trunc, "DATE")


class Compiler:
    """Compiles plans of one semantic model file."""

    def __init__(self, model: SemanticModelFile) -> None:
        self.model = model
        self.tables = {sm.model for sm in model.semantic_models}

    def compile(self, plan: Plan, dialect: str = "duckdb") -> Compiled:
        if dialect not in DIALECTS:
            raise SemanticError(f"Unknown dialect {dialect!r}; supported: {', '.join(DIALECTS)}.")
        bucketed = plan.kind == "compare" or plan.grain is not None
        keys = ([BUCKET] if bucketed else []) + list(plan.group_by)
        ctes = self._measure_ctes(plan, dialect, bucketed)
        select = self._outer(plan, ctes, keys)
        if plan.aggregate:
            select = self._summed(plan, select)
        sql = select.sql(dialect=dialect)
        self._check(sql, dialect, [name for name, _ in ctes])
        out_keys = tuple(keys)
        if plan.aggregate:
            out_keys = tuple(plan.group_by)
            bucketed = False
        return Compiled(sql, dialect, out_keys, plan.metrics, bucketed)

    # -- measures -------------------------------------------------------------------------
    def _measure_ctes(self, plan: Plan, dialect: str,
                      bucketed: bool) -> list[tuple[str, exp.Select]]:
        needed: dict[str, list[Measure]] = {}
        for metric in plan.metrics:
            for name in self.model.base_measures(metric):
                sm, measure = self.model.measures[name]
                group = sm.name if not measure.point_in_time else f"{sm.name}__{name}"
                if measure not in needed.setdefault(group, []):
                    needed[group].append(measure)
        ctes = []
        for group, measures in needed.items():
            sm = self.model.measures[measures[0].name][0]
            build = self._pit_select if measures[0].point_in_time else self._additive_select
            ctes.append((f"m_{group}", build(sm, measures, plan, dialect, bucketed)))
        return ctes

    def _from(self, sm: SemanticModel) -> exp.Select:
        select = exp.select().from_(exp.to_table(sm.model), copy=False)
        if sm.joins_users:
            users = self.model.semantic_model(self.model.default_join)
            key = next(e.expr for e in users.entities if e.type == "primary")
            fk = next(e.expr for e in sm.entities if e.name == "user")
            cond = exp.column(fk, sm.model).eq(exp.column(key, users.model))
            select = select.join(exp.to_table(users.model), on=cond, copy=False)
        return select

    def _dim_expr(self, name: str) -> exp.Expr:
        dim = self.model.dimensions[name]
        if dim.expr:
            return _trusted(dim.expr)
        return exp.column(name, self.model.semantic_model(self.model.default_join).model)

    def _dims(self, select: exp.Select, plan: Plan, sm: SemanticModel) -> exp.Select:
        has_dims = sm.joins_users or sm.name == self.model.default_join
        if not has_dims:
            return select
        for dim in plan.group_by:
            select = select.select(exp.alias_(self._dim_expr(dim), dim), copy=False).group_by(
                self._dim_expr(dim), copy=False)
        for f in plan.filters:
            cond = exp.In(this=self._dim_expr(f.dimension),
                          expressions=[exp.Literal.string(v) for v in f.values])
            select = select.where(exp.not_(cond) if f.op == "not_in" else cond, copy=False)
        return select

    def _time_col(self, sm: SemanticModel) -> exp.Expr:
        return exp.column(sm.defaults.agg_time_dimension, sm.model)

    def _additive_select(self, sm: SemanticModel, measures: list[Measure], plan: Plan,
                         dialect: str, bucketed: bool) -> exp.Select:
        select, col = self._from(sm), self._time_col(sm)
        if plan.kind == "compare":
            cur, prev = plan.windows
            bucket: exp.Expr | None = exp.Case().when(
                _in_window(col, cur), exp.Literal.string("current")).else_(
                exp.Literal.string("previous"))
            # one bounding range the engine can push into the scan, then the two windows
            span = Window(min(cur.start, prev.start), max(cur.end, prev.end))
            select = select.where(_in_window(col, span), copy=False)
            if span.days != cur.days + prev.days:
                select = select.where(exp.or_(_in_window(col, cur), _in_window(col, prev)),
                                      copy=False)
        else:
            select = select.where(_in_window(col, plan.windows[0]), copy=False)
            bucket = _truncate(col.copy(), plan.grain, dialect) if plan.grain else None
        if bucket is not None:
            select = select.select(exp.alias_(bucket, BUCKET), copy=False).group_by(bucket.copy(), copy=False)
        common, residual = _split_filters(measures)
        for cond in common:
            select = select.where(_trusted(cond), copy=False)
        residuals = list(dict.fromkeys(r for r in residual.values() if r))
        if residuals and all(residual[m.name] for m in measures):
            ors = [_trusted(r) for r in residuals]
            select = select.where(exp.or_(*ors) if len(ors) > 1 else ors[0], copy=False)
        # a residual shared by every measure is already the WHERE clause: no CASE needed then
        uniform = len(residuals) == 1 and all(residual[m.name] for m in measures)
        for m in measures:
            condition = None if uniform else residual[m.name]
            select = select.select(exp.alias_(self._aggregate(m, condition), f"m__{m.name}"),
                                   copy=False)
        return self._dims(select, plan, sm)

    def _aggregate(self, m: Measure, condition: str | None) -> exp.Expr:
        value = _trusted(m.expr)
        if condition:
            value = exp.Case().when(_trusted(condition), value)
        if m.agg == "count_distinct":
            return exp.Count(this=exp.Distinct(expressions=[value]))
        agg = {"count": exp.Count, "sum": exp.Sum, "max": exp.Max, "min": exp.Min}[m.agg]
        return agg(this=value)

    def _pit_ends(self, plan: Plan) -> list[tuple[str | None, dt.date]]:
        """(bucket, date the value is taken at) for a point-in-time measure."""
        if plan.kind == "compare":
            return [("current", plan.windows[0].end), ("previous", plan.windows[1].end)]
        window = plan.windows[0]
        if plan.grain is None:
            return [(None, window.end)]
        return [(p.start.isoformat(), min(p.end, window.end)) for p in periods(window, plan.grain)]

    def _pit_select(self, sm: SemanticModel, measures: list[Measure], plan: Plan,
                    dialect: str, bucketed: bool) -> exp.Select:
        (m,) = measures
        nad = m.non_additive_dimension
        assert nad is not None
        select = self._from(sm)
        ends = self._pit_ends(plan)
        rows = [exp.tuple_(exp.Literal.string(b or ""), _date(e)) for b, e in ends]
        select = select.join(exp.Values(expressions=rows, alias=exp.TableAlias(
            this=exp.to_identifier("p"),
            columns=[exp.to_identifier(BUCKET), exp.to_identifier("__at")])), join_type="cross",
            copy=False)
        at = exp.column("__at", "p")
        since = exp.column(nad.name, sm.model)
        select = select.where(since <= at.copy(), copy=False)
        if m.filter:
            select = select.where(_trusted(m.filter), copy=False)
        if nad.valid_to:
            until = exp.column(nad.valid_to, sm.model)
            select = select.where(exp.or_(until.is_(exp.null()), until > at.copy()), copy=False)
            value = self._aggregate(m, None)
        else:
            value = exp.ArgMax(this=_trusted(m.expr), expression=since.copy())
        select = select.select(exp.alias_(value, f"m__{m.name}"), copy=False)
        if bucketed:
            bucket: exp.Expr = exp.column(BUCKET, "p")
            if plan.grain:
                bucket = exp.cast(bucket, "DATE")
            select = select.select(exp.alias_(bucket, BUCKET), copy=False).group_by(bucket.copy(), copy=False)
        return self._dims(select, plan, sm)

    # -- metrics ---------------------------------------------------------------------------
    def metric_expr(self, metric: str) -> exp.Expr:
        m = self.model.metric_index[metric]
        p = m.type_params
        if m.type == "simple":
            return exp.column(f"m__{p.measure}")
        if m.type == "ratio":
            num = exp.cast(self.metric_expr(p.numerator or ""), "DOUBLE")
            den = exp.Nullif(this=self.metric_expr(p.denominator or ""),
                             expression=exp.Literal.number(0))
            return exp.Div(this=num, expression=den)
        tree = _trusted(p.expr or "")
        return tree.transform(lambda node: exp.paren(self.metric_expr(node.name))
                              if isinstance(node, exp.Column) else node)

    def _outer(self, plan: Plan, ctes: list[tuple[str, exp.Select]],
               keys: list[str]) -> exp.Select:
        first, *rest = ctes
        select = exp.select().from_(exp.to_table(first[0]), copy=False)
        available = {name: self._keys_of(cte, keys) for name, cte in ctes}
        for name, _ in rest:
            using = available[name]
            if using:
                select = select.join(exp.to_table(name), using=tuple(using), join_type="full outer",
                                     copy=False)
            else:
                select = select.join(exp.to_table(name), join_type="cross", copy=False)
        for name, cte in ctes:
            select = select.with_(name, as_=cte, copy=False)
        for k in keys:
            select = select.select(exp.column(k), copy=False)
        for metric in plan.metrics:
            select = select.select(exp.alias_(self.metric_expr(metric), metric), copy=False)
        return self._order(select, plan, keys)

    @staticmethod
    def _keys_of(cte: exp.Select, keys: list[str]) -> list[str]:
        names = {s.alias_or_name for s in cte.expressions}
        return [k for k in keys if k in names]

    def _order(self, select: exp.Select, plan: Plan, keys: list[str]) -> exp.Select:
        order: list[exp.Expression] = []
        if plan.order_by:
            name, desc = plan.order_by
            name = BUCKET if name == plan.grain else name
            order.append(exp.Ordered(this=exp.column(name), desc=desc, nulls_first=False))
        order += [exp.Ordered(this=exp.column(k), nulls_first=False) for k in keys]
        if order and not plan.aggregate:
            select = select.order_by(*order, copy=False)
        if plan.limit and not plan.aggregate:
            select = select.limit(plan.limit, copy=False)
        return select

    def _summed(self, plan: Plan, inner: exp.Select) -> exp.Select:
        select = exp.select().from_(inner.subquery("per_period"), copy=False)
        for k in plan.group_by:
            select = select.select(exp.column(k), copy=False).group_by(exp.column(k), copy=False)
        for metric in plan.metrics:
            select = select.select(exp.alias_(exp.Sum(this=exp.column(metric)), metric), copy=False)
        if plan.group_by:
            select = select.order_by(*[exp.column(k) for k in plan.group_by], copy=False)
        if plan.limit:
            select = select.limit(plan.limit, copy=False)
        return select

    def _check(self, sql: str, dialect: str, ctes: list[str]) -> None:
        """Re-parse the compiled SQL: one SELECT, reading only the model's tables."""
        statements = sqlglot.parse(sql, read=dialect)
        if len(statements) != 1 or not isinstance(statements[0], exp.Select):
            raise SemanticError("Compiled SQL is not a single SELECT; refusing to run it.")
        allowed = self.tables | set(ctes) | {"p", "per_period"}
        for table in statements[0].find_all(exp.Table):
            if table.name and table.name not in allowed:
                raise SemanticError(f"Compiled SQL reads {table.name!r}, not a model table.")
