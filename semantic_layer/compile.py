"""Compile a validated Plan to SQL with sqlglot expression builders.

Identifiers come from the semantic model; values (members, dates) are literals built by sqlglot.
The only SQL text ever parsed is the model's own trusted configuration (exprs and metric
filters). After compiling, the SQL is re-parsed and checked to be a single SELECT over the
model's tables.

Each metric is reduced to leaves: a measure, the filters that reach it (the metric's own, its
parents', its inputs'), and how its time window is read (as asked, shifted by an offset, or
accumulated). Leaves of one semantic model read the same way share one scan; the metric
expressions (ratios, derived formulas) are computed over the joined leaves.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from sqlglot import exp

from showwork.semantic_layer.errors import SemanticError
from showwork.semantic_layer.joins import resolve_any
from showwork.semantic_layer.model import (
    GRAINS,
    Conversion,
    Measure,
    Offset,
    SemanticModel,
    SemanticModelFile,
)
from showwork.semantic_layer.pushdown import again, aggregated_first
from showwork.semantic_layer.requests import AnyOf, Filter
from showwork.semantic_layer.scan import Scan, with_from
from showwork.semantic_layer.sql import (
    DATE,
    DOUBLE,
    binary,
    cast,
    coalesce,
    conjuncts,
    date_literal,
    date_part,
    in_window,
    join,
    literal,
    named,
    non_null_of,
    parse_trusted,
    qualify,
    shift,
    table,
    truncate,
    write,
)
from showwork.semantic_layer.validate import (
    PartPeriod,
    Plan,
    agg_time_period,
    finest_grain,
    flat,
    part_period,
    period_row_bounds,
    shifts_rows,
    time_read,
    unbounded_span,
)
from showwork.semantic_layer.where import Ref, references, render
from showwork.semantic_layer.windows import DIALECTS, Window, period_end, period_start, periods

BUCKET = "__bucket"
"""The period column of a query by grain; of a comparison, TRUE in the current window and FALSE
in the previous one (a boolean: DuckDB groups it far faster than a text label)."""
ONE_DAY = dt.timedelta(days=1)
TOTAL = "__total__"
"""A share query's column of a metric's total: TOTAL + the metric (Compiler.compile_shares)."""
ADDITIVE = ("sum", "count", "sum_boolean")
"""Aggregations whose total over a partition of the rows is the sum of the parts' values."""
ROLLS_UP: dict[str, type[exp.AggFunc]] = {"sum": exp.Sum, "sum_boolean": exp.Sum, "count": exp.Sum,
                                         "min": exp.Min, "max": exp.Max, "count_distinct": exp.Count}
"""Aggregations a range reads from each day's aggregate (the sum of the days' sums, counts;
the least of their least; a distinct count from each day's distinct values)."""
ONE_PASS_COMPARE = ("postgres",)
COMPARE: dict[str, type[exp.Binary]] = {"ge": exp.GTE, "gt": exp.GT, "le": exp.LTE,
                                        "lt": exp.LT}
"""A filter's comparison op as SQL."""
"""Dialects whose comparison reads both windows in one pass of FILTERed aggregates rather
than grouped by the window (see _both_windows)."""


@dataclass(frozen=True)
class Compiled:
    """SQL for one governed call, with how to read its rows."""

    sql: str
    dialect: str
    keys: tuple[str, ...]
    """Output key columns, in order (bucket first when present, then dimensions)."""
    metrics: tuple[str, ...]
    bucketed: bool


@dataclass(frozen=True)
class Mode:
    """How a leaf reads time: as asked, shifted, aligned to a grain, or accumulated."""

    kind: str = "plain"
    """plain, offset, to_grain or cumulative."""
    offset: Offset | None = None
    """offset: the shift back; cumulative: the trailing window (None: all time)."""
    grain: str | None = None
    """to_grain: the grain to align to; cumulative: grain_to_date."""
    period_agg: str = "first"
    conversion: Conversion | None = None
    """conversion: the conversion metric whose conversions the leaf counts."""
    every_day: bool = False
    """cumulative joined to the time spine (join_to_timespine), grouped by no dimension: each
    spine day has a row, so a period's value is its first (last) day's, data or not, not its
    first day with data (by a dimension, each group's days are its days with data, and the
    spine's rows are the days no group has: Build._days_lacking)."""


PLAIN = Mode()


@dataclass(frozen=True)
class Leaf:
    """One aggregate the SQL computes."""

    measure: str
    filters: tuple[str, ...]
    mode: Mode = PLAIN


@dataclass
class _Cte:
    name: str
    fact: SemanticModel
    leaves: list[Leaf] = field(default_factory=list)
    kind: str = "additive"
    """additive (one pass, grouped by period), pit (value as of dates) or range (per-bucket
    date ranges: offsets and cumulative windows)."""


@dataclass(frozen=True)
class _Source:
    """Where a range leaf (offsets, cumulative windows) reads its rows: the scan's rows, or
    the scan aggregated by day first (Compiler._by_day)."""

    time: exp.Expr
    """The time compared with each range's bounds."""
    day: exp.Expr
    """The row's day."""
    value: exp.Expr
    """The row's value, aggregated by `aggregate`."""
    dims: list[tuple[str, exp.Expr]]
    """The asked dimensions, each as the source reads it."""
    aggregate: Callable[[exp.Expr | None], exp.Expr]
    """The leaf's aggregate over a group's rows (of the given column; None: the source's own)."""
    read: Callable[[exp.Select], exp.Select]
    """The select over the source (its FROM, its joins, the rows it keeps)."""


class Compiler:
    """Compiles plans of one semantic model."""

    def __init__(self, model: SemanticModelFile) -> None:
        self.model = model
        self.tables = {sm.table for sm in model.semantic_models} | {
            s.table for s in model.time_spines}  # a custom granularity reads its spine

    def compile(self, plan: Plan, dialect: str = "duckdb") -> Compiled:
        if dialect not in DIALECTS:
            raise SemanticError(f"Unknown dialect {dialect!r}; supported: {', '.join(DIALECTS)}.")
        period = agg_time_period(self.model, plan.metrics, plan.group_by, plan.grain) if (
            plan.kind == "query" and not plan.aggregate and time_read(self.model, plan.metrics)
        ) else None
        if period is not None:
            return self._by_agg_time(plan, *period, dialect)
        by_part = part_period(self.model, plan.metrics, plan.group_by, plan.grain) if (
            plan.kind == "query" and not plan.aggregate) else None
        if by_part is not None:
            return self._by_agg_time(plan, "", "day", dialect, by_part)
        return _Build(self.model, plan, dialect).compiled(self.tables)

    def _by_agg_time(self, plan: Plan, dim: str, grain: str, dialect: str,
                     by_part: PartPeriod | None = None) -> Compiled:
        """A query grouped by its metrics' aggregation time dimension at a grain, which
        MetricFlow reads as metric_time (spine joins, offsets, cumulative windows on it):
        compiled by that grain, the period named as the dimension. With date parts (offset
        metrics by `metric_time__extract_month`, part_period): compiled by day, each day's
        ranges read as by day, and grouped by the parts of the day they are read for (and by
        its period at the query's grain, if any)."""
        parts = dict(by_part.parts) if by_part else {}
        agg_time = by_part.agg_time if by_part else True
        inner = replace(plan, grain=grain, group_by=tuple(
            d for d in plan.group_by if d != dim and d not in parts), order_by=None, limit=None)
        if by_part and by_part.agg_time:  # the rows bounded as by the dimension at a grain
            dim = next(iter(parts)).rsplit("__", 1)[0]
        if agg_time and plan.bounded and shifts_rows(self.model, plan.metrics):
            # MetricFlow bounds the input rows by the window before the offset shifts them, and
            # groups the shifted periods unbounded (as with no window)
            inner = replace(inner, bounded=False, requested=None, windows=(
                unbounded_span(self.model, plan.metrics, True),), filters=(*plan.filters, *(
                    period_row_bounds(self.model, plan.metrics, dim, plan.windows[0]))))
        build = _Build(self.model, inner, dialect)
        build.parts, build.part_grain = parts, plan.grain if by_part else None
        if agg_time and inner.bounded and grain == finest_grain(self.model, plan.metrics):
            # MetricFlow reads no metric_time then, and bounds the rows themselves by the window
            # (a cumulative range is not widened back); by a coarser grain it reads metric_time
            # by day too (to pick each period's day), and widens as by a grain
            build.clipped = plan.windows[0].start
        select = build.select(self.tables)
        ctes = select.args.get("with_")
        select.set("with_", None)
        keys = ([BUCKET] if build.part_grain else []) + list(plan.group_by)
        outer = exp.select(*[named(exp.column(BUCKET), d) if d == dim else exp.column(d)
                             for d in keys], *[exp.column(m) for m in plan.metrics])
        outer = outer.from_(select.subquery("by_period", copy=False), copy=False)
        outer.set("with_", ctes)
        outer = _Build(self.model, plan, dialect)._order(outer, plan, keys)
        sql = write(outer, dialect)
        for placeholder, rows in build.spliced.items():
            sql = sql.replace(placeholder, rows)
        return Compiled(sql, dialect, tuple(keys), plan.metrics, build.part_grain is not None)

    def compile_shares(self, part: Plan, whole: Plan, dialect: str = "duckdb") -> Compiled:
        """One statement: the grouped query `part` with, after its metrics, each metric's total
        (column `__total__<metric>`): `whole`'s value for the row's period, `whole` being the
        same query without the grouping, order and limit (shares.py)."""
        if dialect not in DIALECTS:
            raise SemanticError(f"Unknown dialect {dialect!r}; supported: {', '.join(DIALECTS)}.")
        build = _Build(self.model, part, dialect)
        select = build.select(self.tables)
        if build.members_add_up():
            return build._written(build.with_window_totals(select))
        total = _Build(self.model, whole, dialect)
        total.spliced = build.spliced  # its VALUES placeholders numbered after the part's
        return build._written(build.with_joined_totals(select, total.select(self.tables)))

    def metric_expr(self, metric: str) -> exp.Expr:
        """The metric over its leaf columns (for inspection)."""
        build = _Build(self.model, None, "duckdb")
        return build.metric(metric)


class _Build:
    """One compilation."""

    def __init__(self, model: SemanticModelFile, plan: Plan | None, dialect: str) -> None:
        self.model, self.plan, self.dialect = model, plan, dialect
        self.leaves: dict[Leaf, str] = {}
        self.spliced: dict[str, str] = {}
        """A VALUES table's placeholder row → its rows as SQL text (see _values)."""
        self.spined: dict[Leaf, bool] = {}
        """The leaves of metrics joined to their time spine (join_to_timespine), in order, each
        with whether the query's filter on its time thins the spine too (a simple metric's;
        not a conversion metric's base events: MetricFlow filters them before the join)."""
        self.counted: dict[Leaf, None] = {}
        """Leaves whose rows are counted too (column + ROWS): a lone filled input's."""
        self.touched: list[set[Leaf]] = []
        """The leaves each metric being computed reads (a stack, derived metrics nesting)."""
        self.parts: dict[str, str] = {}
        """Group-by name → the date part of the day-grain bucket it is (Compiler._by_agg_time):
        each scan keys its rows by those, not by the day."""
        self.part_grain: str | None = None
        """With parts: the grain of the day the query groups by too (as BUCKET)."""
        self.clipped: dt.date | None = None
        """The first day a range leaf reads, when the window bounds the rows it reads (a
        cumulative metric grouped by its aggregation time dimension: Compiler._by_agg_time)."""

    # -- metrics → leaves ----------------------------------------------------------------------
    def metric(self, name: str, extra: tuple[str, ...] = (), mode: Mode = PLAIN,
               alone: bool = False) -> exp.Expr:
        """The metric's value over its leaf columns. `alone`: the only input of a derived
        metric, whose fill_nulls_with holds only where it has rows of its own (MetricFlow
        fills an input where it combines two or more, not a lone input's missing rows)."""
        m = self.model.metric_index[name]
        filters = tuple(dict.fromkeys((*m.filters, *extra)))
        if m.type == "simple":
            if m.join_to_timespine and self.plan is not None and self.plan.grain:
                # joined from the spine: a row whose metric_time is null meets no spine day
                filters = (*filters, TIMED)
            leaf = Leaf(m.measure or "", filters, mode)
            if TIMED in filters:
                self.spined.setdefault(leaf, True)
            column = self._leaf(leaf, name, m.filters == filters and mode == PLAIN)
            grouped = self.plan is not None and bool(self.plan.grain or self.plan.group_by)
            if alone and grouped and m.fill_nulls_with is not None and TIMED not in filters:
                # (without groups MetricFlow's one row over no rows is filled too)
                self.counted.setdefault(leaf, None)
                rows = exp.column(f"{self.leaves[leaf]}{ROWS}")
                return exp.Case().when(binary(exp.GT, rows, exp.Literal.number(0)),
                                       _filled(m.fill_nulls_with, column), copy=False)
            return _filled(m.fill_nulls_with, column)
        if m.type == "cumulative":
            if mode != PLAIN:
                raise SemanticError(f"Metric {name!r}: an offset of a cumulative metric is not "
                                    "supported yet.")
            measure = m.measure
            if measure is None:  # a cumulative metric over a simple metric
                (inp,) = m.inputs
                inner = self.model.metric_index[inp.name]
                measure = inner.measure or ""
                filters = tuple(dict.fromkeys((*inner.filters, *inp.filters, *filters)))
            if m.join_to_timespine and self.plan is not None and self.plan.grain:
                filters = (*filters, TIMED)  # MetricFlow joins the cumulated values to the spine
            dims = bool(self.plan and self.plan.group_by and
                        self.model.measures[measure][0].entities)
            leaf = Leaf(measure, filters, Mode("cumulative", m.window, m.grain_to_date,
                                               m.period_agg, every_day=TIMED in filters and not dims))
            if TIMED in filters:
                self.spined.setdefault(leaf, True)
            column = self._picked(leaf, self._leaf(leaf, name, True))
            return self._own_rows(_filled(m.fill_nulls_with, column), {leaf})
        if m.type == "conversion":
            return self._conversion_metric(m.name, filters, mode)
        if m.type == "ratio":
            assert m.numerator and m.denominator
            num = self.metric(m.numerator.name, (*filters, *m.numerator.filters), mode)
            den = self.metric(m.denominator.name, (*filters, *m.denominator.filters), mode)
            return exp.Div(this=cast(num, DOUBLE),
                           expression=exp.Nullif(this=den, expression=exp.Literal.number(0)))
        inputs = {i.ref: i for i in m.inputs}

        def swap(node: exp.Expr) -> exp.Expr:
            if isinstance(node, exp.Column) and not node.table and node.name in inputs:
                i = inputs[node.name]
                return exp.paren(self.metric(i.name, (*filters, *i.filters), _combine(name, mode, i),
                                             alone=len(m.inputs) == 1), copy=False)
            return node

        self.touched.append(set())
        value = parse_trusted(m.expr or "").transform(swap)  # a copy
        return self._own_rows(value, self.touched.pop())

    def _picked(self, leaf: Leaf, column: exp.Expr) -> exp.Expr:
        """A spined cumulative leaf by dimensions: null in a group of null members whose period
        has a day without a value in any group before (period_agg last: after) its own picked
        day. MetricFlow's spine rows of such days carry null members too, so the group's first
        (last) row by day is the spine's, null (Build._days_lacking)."""
        if TIMED not in leaf.filters or leaf.mode.every_day:
            return column
        lack, at = exp.column(self.leaves[leaf] + LACK), exp.column(self.leaves[leaf] + AT)
        before = (binary(exp.LTE, lack, at) if leaf.mode.period_agg == "first"
                  else binary(exp.GT, lack, at))
        return exp.Case().when(before, exp.null(), copy=False).else_(column, copy=False)

    def _own_rows(self, value: exp.Expr, leaves: set[Leaf]) -> exp.Expr:
        """A filled value (a COALESCE in it) null in a group none of its leaves has a row in
        (nor its spine a period): MetricFlow fills a cumulative metric, and a derived metric's
        inputs, inside the metric's own subquery, so a group only another metric of the query
        has stays null there. As it is without groups (MetricFlow's one row is filled), or
        when a leaf's rows cannot be counted (a snapshot, a conversion: their own rules)."""
        plan = self.plan
        if plan is None or not (plan.grain or plan.group_by) or not value.find(exp.Coalesce) \
                or not all(self._countable(leaf) for leaf in leaves):
            return value
        own: exp.Expr | None = None
        for leaf in sorted(leaves, key=lambda x: self.leaves[x]):
            self.counted.setdefault(leaf, None)
            has = binary(exp.GT, exp.column(f"{self.leaves[leaf]}{ROWS}"), exp.Literal.number(0))
            if leaf in self.spined:
                has = exp.or_(has, exp.column(f"{self.leaves[leaf]}{SPINE}").is_(exp.true()),
                              copy=False)
            own = has if own is None else exp.or_(own, has, copy=False)
        return value if own is None else exp.Case().when(own, value, copy=False)

    def _countable(self, leaf: Leaf) -> bool:
        """The leaf's scan can count its rows per group (Build.counted): a plain additive
        scan's, a shifted or cumulated range's."""
        measure = self.model.measures[leaf.measure][1]
        if leaf.mode.conversion is not None or measure.point_in_time:
            return False
        return leaf.mode != PLAIN or not (measure.non_additive and
                                          not measure.non_additive.showwork)

    def _conversion_metric(self, name: str, filters: tuple[str, ...], mode: Mode) -> exp.Expr:
        """A conversion metric over two leaves: its base measure's events (the rows of every
        group, as MetricFlow's full outer join of the two) and their conversions."""
        c = self.model.metric_index[name].conversion
        assert c is not None
        if mode != PLAIN:
            raise SemanticError(f"Metric {name!r}: a conversion metric shifted in time (an offset "
                                "or a cumulative window over it) is not supported yet.")
        if self.plan is not None and self.plan.kind == "compare":
            raise SemanticError(f"Metric {name!r}: comparing two windows of a conversion metric "
                                "is not supported yet; ask each window as its own query.")
        by_grain = self.plan is not None and bool(self.plan.grain)
        events = Leaf(c.base_measure, (*filters, TIMED) if c.base_spined and by_grain else filters)
        if c.base_spined and by_grain:  # MetricFlow joins the base events' aggregate to the spine
            self.spined.setdefault(events, False)
        base = _filled(c.base_fill, self._leaf(events, name if c.calculation != "conversions"
                                               else f"{name}__base", False))
        found = Leaf(c.conversion_measure, filters, Mode("conversion", conversion=c))
        conversions = _filled(c.conversion_fill, self._leaf(found, name, True))
        if c.conversion_spined and by_grain:  # and the conversions' aggregate to the whole spine
            self.spined.setdefault(found, False)
        value = conversions if c.calculation == "conversions" else exp.Div(
            this=cast(conversions, DOUBLE), expression=exp.Nullif(
                this=cast(base, DOUBLE), expression=exp.Literal.number(0)))
        grouped = self.plan is not None and (self.plan.grain or self.plan.group_by)
        if not grouped or (c.base_fill is None and c.conversion_fill is None):
            return value  # without groups MetricFlow's one row (a CROSS JOIN) is filled too
        # MetricFlow fills each side inside the metric's own join of base events and
        # conversions (and the spine periods either side's spine join adds): a group only
        # another metric of the query has stays null
        self.counted.setdefault(events, None)
        own = binary(exp.GT, exp.column(f"{self.leaves[events]}{ROWS}"), exp.Literal.number(0))
        for leaf in (events, found):
            if leaf in self.spined:
                own = exp.or_(own, exp.column(f"{self.leaves[leaf]}{SPINE}").is_(exp.true()),
                              copy=False)
        return exp.Case().when(own, value, copy=False)

    def _conversion_cte(self, leaf: Leaf) -> str:
        """The name of the scan finding a conversion leaf's conversions."""
        assert leaf.mode.conversion is not None
        base = self.model.measures[leaf.mode.conversion.base_measure][0]
        return f"c_{base.name}__{self.leaves[leaf][3:]}"

    def _leaf(self, leaf: Leaf, name: str, canonical: bool) -> exp.Expr:
        for touched in self.touched:
            touched.add(leaf)
        if leaf not in self.leaves:
            wanted = f"m__{name}" if canonical else f"m__{leaf.measure}"
            column, n = wanted, 2
            while column in self.leaves.values():
                column, n = f"{wanted}_{n}", n + 1
            self.leaves[leaf] = column
        return exp.column(self.leaves[leaf])

    # -- leaves → scans ------------------------------------------------------------------------
    def _ctes(self) -> list[_Cte]:
        ctes: dict[str, _Cte] = {}
        for leaf in self.leaves:
            sm, measure = self.model.measures[leaf.measure]
            if leaf.mode.conversion is not None:
                key = self._conversion_cte(leaf)
                base = self.model.measures[leaf.mode.conversion.base_measure][0]
                ctes[key] = _Cte(key, base, [leaf], kind="conversion")
                continue
            if leaf.mode != PLAIN:
                if measure.point_in_time:
                    raise SemanticError(f"Measure {measure.name!r} is read at a point in time; "
                                        "offsets and cumulative windows over it are not supported yet.")
                key, kind = f"m_{sm.name}__{self.leaves[leaf][3:]}", "range"
            elif measure.non_additive and not measure.non_additive.showwork:
                key, kind = f"m_{sm.name}__{self.leaves[leaf][3:]}", "semi"
            elif measure.point_in_time:
                key, kind = f"m_{sm.name}__{measure.name}", "pit"
            else:
                own = measure.agg_time_dimension
                key = f"m_{sm.name}" if own == sm.agg_time_dimension else f"m_{sm.name}__{own}"
                kind = "additive"
            if leaf in self.counted and kind not in ("additive", "range"):
                raise SemanticError(f"Measure {measure.name!r} (fill_nulls_with) read as the only "
                                    "input of a derived metric is not supported yet here.")
            cte = ctes.setdefault(key, _Cte(key, sm, kind=kind))
            if kind == "pit" and cte.leaves and cte.leaves[0].filters != leaf.filters:
                cte = ctes.setdefault(f"{key}__{self.leaves[leaf][3:]}",
                                      _Cte(f"{key}__{self.leaves[leaf][3:]}", sm, kind="pit"))
            cte.leaves.append(leaf)
        return list(ctes.values())

    def compiled(self, tables: set[str]) -> Compiled:
        return self._written(self.select(tables))

    def select(self, tables: set[str]) -> exp.Select:
        """The plan's query, checked to read only the model's tables (not yet written)."""
        plan = self.plan
        assert plan is not None
        exprs = {m: self.metric(m) for m in plan.metrics}
        built = []
        for cte in self._ctes():
            build = {"additive": self._additive, "pit": self._pit, "range": self._range,
                     "semi": self._semi, "conversion": self._conversion}[cte.kind]
            built.append((cte.name, build(cte, self._bucketed)))
        keys = ([BUCKET] if self._bucketed and (not self.parts or self.part_grain) else []) + [
            *self.parts, *plan.group_by]
        if plan.kind == "query" and plan.grain and self.spined:
            kept = self._spine_rows_kept()
            for leaf in self.spined:
                if not kept and leaf.mode.conversion is None:
                    continue  # (conversions' spine rows: MetricFlow filters them not again)
                rows = self._spine_rows(leaf)
                if rows is not None:  # None: the filter keeps no spine day of the range
                    built.append((f"s_{self.leaves[leaf][3:]}", rows))
        exprs = {m: _unspined(e, {c for _, cte in built for c in cte.named_selects})
                 for m, e in exprs.items()}
        select = self._outer(plan, built, keys, exprs)
        if plan.aggregate:
            select = self._summed(plan, select)
        _check(select, tables | {name for name, _ in built})
        return select

    def _spine_rows(self, leaf: Leaf) -> exp.Select | None:
        """The rows MetricFlow's LEFT JOIN from the time spine adds to a metric's own: each
        period of the query's range the day spine covers in which the metric has no row, its
        dimensions null (the spine filtered to the range, joined on metric_time only); for a
        conversion measure's conversions, each period of the whole spine (MetricFlow plans
        that side with neither the query's window nor its filters)."""
        plan = self.plan
        assert plan is not None
        spine = self.model.spine_coverage
        found = leaf.mode.conversion is not None
        sm = self.model.measures[leaf.measure][0]
        keep = self._spine_days(sm, self.model.measures[leaf.measure][1]) if self.spined.get(
            leaf, True) else None
        days = Window(spine.from_, spine.through) if found and spine is not None else plan.spine
        buckets: list[tuple[str | bool, Window]] = self._buckets() if days is None else [
            (p.start.isoformat(), p) for p in periods(days, plan.grain or "day")]
        rows = [(label,) for label, w in buckets
                if (spine is None or (w.start <= spine.through and w.end >= spine.from_))
                and (keep is None or any(keep(d) for d in _days(w, spine)))]
        if not rows:
            return None
        if leaf.mode.kind == "cumulative" and plan.grain not in (None, "day") and \
                not leaf.mode.every_day:
            kept = {label for (label,) in rows}
            return self._days_lacking(leaf, [(label, d) for label, w in buckets if label in kept
                                             for d in _days(w, spine) if keep is None or keep(d)])
        own = (self._conversion_periods(leaf) if found else self._range_periods(leaf)
               if leaf.mode != PLAIN else self._periods_with_rows(sm, leaf))
        bucket = cast(exp.column(BUCKET, "p"), DATE)
        keys = self._bucket_keys(bucket)
        has = exp.select(exp.Literal.number(1)).from_(own.subquery("h"), copy=False).where(
            exp.and_(*[exp.column(k, "h").eq(v.copy()) for k, v in keys], copy=False),
            copy=False)
        select = exp.select(*[named(v, k) for k, v in keys]).from_(
            self._values(rows, [BUCKET]), copy=False)
        if self.parts:  # the spine's days, one row per part (and period) none of them has
            select = select.group_by(*[v.copy() for _, v in keys], copy=False)
        for name in plan.group_by:
            select = select.select(named(exp.Null(), name), copy=False)
        select = select.select(named(exp.true(), f"{self.leaves[leaf]}{SPINE}"), copy=False)
        if not self.spined.get(leaf, True) and not found:
            select = select.where(self._filters_again(leaf), copy=False)
        return select.where(exp.not_(exp.Exists(this=has)), copy=False)

    def _days_lacking(self, leaf: Leaf, days: list[tuple[str | bool, dt.date]]) -> exp.Select:
        """A cumulative leaf's spine rows by dimensions at a grain coarser than a day: MetricFlow
        joins the spine to the cumulated values by day, before it picks each period's first
        (last) day per group, so a period has a row of null dimensions when any of its days has
        no value in any group (no row of the leaf's in that day's trailing range); with the
        first (last) such day after (LACK), which a group of null members with data shares
        (_picked)."""
        plan = self.plan
        assert plan is not None
        sm, measure = self.model.measures[leaf.measure]
        scan = Scan(self.model, sm, self.dialect)
        col = scan.time(measure)
        trailing = [(label, _trailing(leaf.mode, d), d + ONE_DAY) for label, d in days]
        bounded = all(lo is not None for _, lo, _ in trailing)
        rows: list[tuple[Cell, ...]] = [(b, *([lo] if bounded else []), hi)
                                        for b, lo, hi in trailing]
        pick = exp.Min if leaf.mode.period_agg == "first" else exp.Max
        found = exp.select(exp.Literal.number(1)).where(
            binary(exp.LT, col.copy(), exp.column("__hi", "p")), copy=False)
        if bounded:
            found = found.where(binary(exp.GTE, col.copy(), exp.column("__lo", "p")), copy=False)
        for cond in self._filters(scan, leaf):
            found = found.where(cond, copy=False)
        if scan.fact.entities:
            for f in plan.filters:
                found = found.where(self._condition(scan, f), copy=False)
        bucket = cast(exp.column(BUCKET, "p"), DATE)
        select = exp.select(named(bucket, BUCKET)).group_by(bucket.copy(), copy=False).from_(
            self._values(rows, [BUCKET, *(["__lo"] if bounded else []), "__hi"]), copy=False)
        for name in plan.group_by:
            select = select.select(named(exp.Null(), name), copy=False)
        select = select.select(named(exp.true(), f"{self.leaves[leaf]}{SPINE}"),
                               named(pick(this=exp.column("__hi", "p")), self.leaves[leaf] + LACK),
                               copy=False)
        return select.where(exp.not_(exp.Exists(this=with_from(scan, found))), copy=False)

    def _conversion_periods(self, leaf: Leaf) -> exp.Select:
        """The periods in which a conversion metric has conversions: its conversions' scan."""
        return exp.select(*self._key_columns()).from_(table(self._conversion_cte(leaf)),
                                                       copy=False)

    def _range_periods(self, leaf: Leaf) -> exp.Select:
        """The periods in which a shifted or cumulated leaf has a value: its range scan's rows
        (MetricFlow joins the time spine to them after they are aggregated)."""
        sm = self.model.measures[leaf.measure][0]
        return exp.select(*self._key_columns()).from_(
            table(f"m_{sm.name}__{self.leaves[leaf][3:]}"), copy=False)

    def _key_columns(self) -> list[exp.Expr]:
        """The columns a scan keys its periods by (_keyed)."""
        return [exp.column(k) for k, _ in self._bucket_keys(exp.Null())]

    def _filters_again(self, leaf: Leaf) -> exp.Expr:
        """A conversion metric's own filters on the rows its base events' spine join adds:
        MetricFlow applies each again after the join when the query groups by every dimension
        it names, so a spine row (its dimensions null) stays only where the filter holds on
        nulls (`IS NULL`); TRUE when none is applied again."""
        assert self.plan is not None
        grouped = {self.model.qualified_name(d) for d in self.plan.group_by}
        out: exp.Expr = exp.true()
        for template in leaf.filters:
            names = {self.model.qualified_name(r.name) for r in references(template)[1]}
            if template != TIMED and names and names <= grouped:
                out = exp.and_(out, render(template, lambda _ref: exp.Null()), copy=False)
        return out

    def _periods_with_rows(self, sm: SemanticModel, leaf: Leaf) -> exp.Select:
        """The periods of the query's window in which the leaf's scan has a row (its filters
        and the query's): the rows its own scan groups, read for their periods alone (no
        aggregate, no dimension, no aggregate-first rewrite: a third of such a compile)."""
        plan = self.plan
        assert plan is not None and plan.grain is not None
        scan = Scan(self.model, sm, self.dialect)
        col = scan.time(self.model.measures[leaf.measure][1])
        select = self._keyed(exp.select(), truncate(col.copy(), plan.grain, self.dialect))
        if plan.bounded:
            select = select.where(in_window(col, plan.windows[0]), copy=False)
        for cond in self._filters(scan, leaf):
            select = select.where(cond, copy=False)
        if scan.fact.entities:  # as _dims: a model without entities holds for every member
            for f in plan.filters:
                select = select.where(self._condition(scan, f), copy=False)
        return with_from(scan, select)

    def _spine_days(self, sm: SemanticModel, measure: Measure
                    ) -> Callable[[dt.date], bool] | None:
        """Which spine days the filter keeps, when it names only the measure's own time
        dimension (MetricFlow applies such a filter to the time spine too); None otherwise."""
        plan = self.plan
        assert plan is not None
        tests = []
        for item in plan.filters:
            parts = item.any_of if isinstance(item, AnyOf) else [item]
            reads = []
            for f in parts:
                ref = resolve_any(self.model, sm, self.model.qualified_name(f.dimension))
                if ref.path or ref.owner != sm.name or ref.dimension.name != \
                        measure.agg_time_dimension:
                    return None
                reads.append((f, ref.grain or "day"))
            tests.append(reads)
        if not tests:
            return None
        return lambda day: all(any(_holds(f, period_start(day, g)) for f, g in reads)
                               for reads in tests)

    def _spine_rows_kept(self) -> bool:
        """A period the spine adds (no data: its dimensions null) is kept: MetricFlow filters the
        spine-joined rows again when the filter names only dimensions the query groups by, so
        such a row stays only if the filter holds on nulls (IS NULL)."""
        plan = self.plan
        assert plan is not None
        grouped = {self.model.qualified_name(d) for d in plan.group_by}
        named = {self.model.qualified_name(f.dimension) for f in flat(list(plan.filters))}
        if not named or not named <= grouped or plan.spine is not None:
            # (plan.spine: the filter names metric_time at a grain the query does not group by)
            return True
        return all(any(x.op == "is_null" for x in (f.any_of if isinstance(f, AnyOf) else [f]))
                   for f in plan.filters)

    @property
    def _bucketed(self) -> bool:
        """The scans key their rows by a period or a window."""
        assert self.plan is not None
        return self.plan.kind == "compare" or self.plan.grain is not None

    @property
    def _layout(self) -> tuple[tuple[str, ...], bool]:
        """(the result's key columns, whether the first is the period or window)."""
        plan = self.plan
        assert plan is not None
        if plan.aggregate:
            return tuple(plan.group_by), False
        return ((BUCKET,) if self._bucketed else ()) + tuple(plan.group_by), self._bucketed

    def _written(self, select: exp.Select) -> Compiled:
        plan = self.plan
        assert plan is not None
        sql = write(select, self.dialect)
        for placeholder, rows in self.spliced.items():
            assert sql.count(placeholder) == 1, placeholder
            sql = sql.replace(placeholder, rows)
        keys, bucketed = self._layout
        return Compiled(sql, self.dialect, keys, plan.metrics, bucketed)

    # -- the pieces of one scan ----------------------------------------------------------------
    def _filters(self, scan: Scan, leaf: Leaf) -> list[exp.Expr]:
        """The leaf's filter conjuncts as SQL of this scan."""
        measure = self.model.measures[leaf.measure][1]
        out: list[exp.Expr] = []
        for template in leaf.filters:
            out += conjuncts(render(template, lambda ref: scan.reference(ref, measure)))
        return out

    def _dims(self, select: exp.Select, scan: Scan) -> exp.Select:
        """GROUP BY the asked dimensions and apply the asked filters (not for a model without
        entities: its values hold for every member, as prices do)."""
        plan = self.plan
        assert plan is not None
        if not scan.fact.entities:
            return select
        for name in plan.group_by:
            value = scan.dimension(name)
            select = select.select(named(value, name), copy=False).group_by(value.copy(), copy=False)
        for f in plan.filters:
            select = select.where(self._condition(scan, f), copy=False)
        return select

    def _grouped(self, scan: Scan) -> bool:
        """The scan groups its rows by the asked dimensions (not a model without entities)."""
        assert self.plan is not None
        return bool(self.plan.group_by) and bool(scan.fact.entities)

    def _condition(self, scan: Scan, f: Filter | AnyOf) -> exp.Expr:
        if isinstance(f, AnyOf):
            return exp.paren(exp.or_(*[self._condition(scan, x) for x in f.any_of], copy=False),
                             copy=False)
        ref = resolve_any(self.model, scan.fact, self.model.qualified_name(f.dimension))
        is_time = ref.dimension.type == "time"
        col = scan.column(ref)  # an expression dimension (a = 'x') in parentheses, as render does
        col = col if isinstance(col, exp.Column | exp.Cast | exp.Func | exp.Literal | exp.Paren) \
            else exp.paren(col, copy=False)
        if f.op in ("is_null", "not_null"):
            cond: exp.Expr = exp.Is(this=col, expression=exp.Null())
            return exp.not_(cond, copy=False) if f.op == "not_null" else cond
        if f.op in COMPARE:
            return COMPARE[f.op](this=col, expression=literal(f.values[0], is_time))
        cond = exp.In(this=col, expressions=[literal(v, is_time) for v in f.values])
        return exp.not_(cond, copy=False) if f.op == "not_in" else cond

    def _value(self, leaf: Leaf, scan: Scan) -> exp.Expr:
        m = self.model.measures[leaf.measure][1]
        return qualify(m.expr, scan.fact.name, scan.fact.table)

    def _aggregate(self, leaf: Leaf, condition: exp.Expr | None, scan: Scan,
                   value: exp.Expr | None = None, grouped: bool = False,
                   windows: bool = False) -> exp.Expr:
        """The leaf's aggregate over the rows meeting `condition` (None: every row of the scan),
        per group of the query (`grouped`: by a period or a dimension, each group with rows),
        per window of a comparison (`windows`: each read as its own query, a window without
        rows has no row), or over all the rows, perhaps none. Over no rows, as MetricFlow reads
        it: a count is null (dbt-semantic-interfaces' ConvertCountToSumRule makes it a SUM of
        1s and 0s: 0 only where there are rows, every value null); a distinct count is 0
        without groups (MetricFlow's one-row subquery) and null in a group only the condition
        leaves empty (the metric's own subquery lacks the group another metric's rows bring
        to the full outer join)."""
        m = self.model.measures[leaf.measure][1]
        every_row = (grouped or windows) and condition is None  # each row read has rows
        if m.agg == "count" and value is None and _counts_rows(m, scan.fact):
            rows = _count_rows(condition)
            return rows if every_row else exp.Nullif(this=rows, expression=exp.Literal.number(0))
        value = value if value is not None else self._value(leaf, scan)
        if m.agg == "sum_boolean":
            # MetricFlow's: a null counts 0 (a group of nulls sums to 0, not null)
            value = exp.Case().when(value, exp.Literal.number(1), copy=False).else_(
                exp.Literal.number(0), copy=False)
        if condition is not None:
            value = exp.Case().when(condition, value, copy=False)
        if m.agg in ("count", "count_distinct"):
            distinct = m.agg == "count_distinct"
            counted = exp.Count(this=exp.Distinct(expressions=[value]) if distinct else value)
            # null over no rows: a count always, a distinct count in a group only (0 without)
            none_is_null = (grouped and condition is not None) if distinct else not every_row
            if not none_is_null:
                return counted
            return _unless_no_rows(_count_rows(None if condition is None else condition.copy()),
                                   counted)
        if m.agg in ("median", "percentile"):
            return self._percentile(m, value)
        if m.agg == "average" and self.dialect == "spark":
            # Spark's AVG of a DECIMAL(p, s) is a DECIMAL rounded to s + 4 places; DuckDB's is a
            # DOUBLE. One answer on both engines: average as DOUBLE.
            value = cast(value, DOUBLE)
        agg = {"sum": exp.Sum, "sum_boolean": exp.Sum, "max": exp.Max, "min": exp.Min,
               "average": exp.Avg}[m.agg]
        return agg(this=value)

    def _percentile(self, m: Measure, value: exp.Expr) -> exp.Expr:
        p = exp.Literal.number(m.percentile if m.percentile is not None else 0.5)
        approximate = _approximate(m, value, self.dialect)
        if approximate is not None:
            return approximate
        if self.dialect == "duckdb":
            name = "quantile_disc" if m.discrete else "quantile_cont"
            return exp.Anonymous(this=name, expressions=[value, p])
        if self.dialect in ("snowflake", "postgres"):
            fn = exp.PercentileDisc if m.discrete else exp.PercentileCont
            return exp.WithinGroup(this=fn(this=p), expression=exp.Order(
                expressions=[exp.Ordered(this=value, nulls_first=False)]))
        if self.dialect == "spark" and not m.discrete:
            return exp.Anonymous(this="percentile", expressions=[value, p])
        raise SemanticError(f"Measure {m.name!r}: an exact {'discrete ' if m.discrete else ''}"
                            f"percentile is not available in {self.dialect}; showwork does not "
                            "swap in an approximate one.")

    # -- additive: one pass, buckets by truncation ---------------------------------------------
    def _keyed(self, select: exp.Select, bucket: exp.Expr) -> exp.Select:
        """The select grouped by its bucket (BUCKET), or by the bucket's date parts (and its
        period at the query's grain, if any)."""
        for name, value in self._bucket_keys(bucket):
            select = select.select(named(value, name), copy=False).group_by(value.copy(), copy=False)
        return select

    def _bucket_keys(self, bucket: exp.Expr) -> list[tuple[str, exp.Expr]]:
        """(column, value) a scan keys a bucket by: BUCKET itself, or with date parts (Compiler.
        _by_agg_time) each part of the day, and the day's period at the query's grain."""
        keys = [(name, date_part(bucket.copy(), part, self.dialect))
                for name, part in self.parts.items()]
        if not self.parts:
            keys.insert(0, (BUCKET, bucket))
        elif self.part_grain:
            keys.insert(0, (BUCKET, truncate(bucket.copy(), self.part_grain, self.dialect)))
        return keys

    def _additive(self, cte: _Cte, bucketed: bool) -> exp.Select:
        plan = self.plan
        assert plan is not None
        scan = Scan(self.model, cte.fact, self.dialect)
        measure = self.model.measures[cte.leaves[0].measure][1]
        col = scan.time(measure)
        conds = {leaf: self._filters(scan, leaf) for leaf in cte.leaves}
        select = exp.select()
        if plan.kind == "compare":
            cur, prev = plan.windows
            bucket: exp.Expr | None = in_window(col, cur)
            # one bounding range the engine can push into the scan, then the two windows
            span = Window(min(cur.start, prev.start), max(cur.end, prev.end))
            select = select.where(in_window(col, span), copy=False)
            if span.days != cur.days + prev.days:
                select = select.where(exp.or_(in_window(col, cur), in_window(col, prev),
                                              copy=False), copy=False)
        else:
            if plan.bounded:
                select = select.where(in_window(col, plan.windows[0]), copy=False)
            bucket = truncate(col.copy(), plan.grain, self.dialect) if plan.grain else None
        one_pass = plan.kind == "compare" and self.dialect in ONE_PASS_COMPARE
        if bucket is not None and not one_pass:
            select = self._keyed(select, bucket)
        common, residual = _split(cte.leaves, conds)
        for cond in common:
            select = select.where(cond.copy(), copy=False)
        residuals = list({write(r): r for r in residual.values() if r is not None}.values())
        every = all(residual[leaf] is not None for leaf in cte.leaves)
        if residuals and every:
            ors = [r.copy() for r in residuals]
            select = select.where(exp.or_(*ors, copy=False) if len(ors) > 1 else ors[0], copy=False)
        # a residual shared by every leaf is already the WHERE clause: no CASE needed then
        uniform = len(residuals) == 1 and every
        grouped = (bucket is not None and plan.kind != "compare") or self._grouped(scan)
        aggregates = {self.leaves[leaf]: self._aggregate(
            leaf, None if uniform else residual[leaf], scan, grouped=grouped,
            windows=plan.kind == "compare") for leaf in cte.leaves}
        how = {self.leaves[leaf]: self._again(leaf) for leaf in cte.leaves}
        for leaf in cte.leaves:
            if leaf in self.counted:
                aggregates[self.leaves[leaf] + ROWS] = _count_rows(
                    None if uniform else residual[leaf])
                how[self.leaves[leaf] + ROWS] = "count"
        if one_pass:
            return self._both_windows(select, scan, _windows_split(plan, col), aggregates, how)
        for column, aggregate in aggregates.items():
            select = select.select(named(aggregate, column), copy=False)
        select = self._dims(select, scan)
        return aggregated_first(scan, with_from(scan, select), how)

    # -- conversion: each conversion event credited to its latest base event ------------------
    def _conversion(self, cte: _Cte, bucketed: bool) -> exp.Select:
        """The conversions of a conversion metric per group, as MetricFlow finds them: the base
        measure's rows (the query's window and filters and the metric's filter on them) joined
        to the conversion measure's rows of the same entity and constant properties whose day is
        the base row's or later, within the window; each conversion row kept once, with the
        latest such base row (MetricFlow's FIRST_VALUE by the base day, descending), whose
        period and dimensions it is grouped by; then the conversion measure aggregated."""
        plan = self.plan
        assert plan is not None
        (leaf,) = cte.leaves
        c = leaf.mode.conversion
        assert c is not None
        base_sm, base_m = self.model.measures[c.base_measure]
        conv_sm, conv_m = self.model.measures[c.conversion_measure]
        scan = Scan(self.model, base_sm, self.dialect)
        time = scan.time(base_m)
        base = exp.select(named(truncate(time.copy(), "day", self.dialect), "__day"),
                          named(_element(base_sm, c.entity, "entity"), "__entity"))
        conv_time = conv_sm.dimension(conv_m.agg_time_dimension)
        if conv_time is None:
            raise SemanticError(f"Measure {conv_m.name!r} has no time dimension "
                                f"{conv_m.agg_time_dimension!r} in {conv_sm.name!r}.")
        conversions = exp.select(
            named(truncate(qualify(conv_time.expr, conv_sm.name, conv_sm.table), "day",
                           self.dialect), "__day"),
            named(_element(conv_sm, c.entity, "entity"), "__entity"),
            named(qualify(conv_m.expr, conv_sm.name, conv_sm.table), "__value"),
            named(exp.Window(this=exp.RowNumber()), "__id"))
        on = [binary(exp.EQ, exp.column("__entity", "b"), exp.column("__entity", "c"))]
        for i, (base_prop, conv_prop) in enumerate(c.constant_properties):
            base = base.select(named(_element(base_sm, base_prop), f"__p{i}"), copy=False)
            conversions = conversions.select(named(_element(conv_sm, conv_prop), f"__p{i}"),
                                             copy=False)
            on.append(binary(exp.EQ, exp.column(f"__p{i}", "b"), exp.column(f"__p{i}", "c")))
        conversions = conversions.from_(Scan._table(conv_sm, conv_sm.name), copy=False)
        if plan.bounded:
            base = base.where(in_window(time, plan.windows[0]), copy=False)
        keys = []
        if plan.grain:
            for k, v in self._bucket_keys(truncate(time.copy(), plan.grain, self.dialect)):
                base = base.select(named(v, k), copy=False)
                keys.append(k)
        for name in plan.group_by:
            base = base.select(named(scan.dimension(name), name), copy=False)
            keys.append(name)
        for cond in self._filters(scan, Leaf(c.base_measure, leaf.filters)):
            base = base.where(cond, copy=False)
        for f in plan.filters:
            base = base.where(self._condition(scan, f), copy=False)
        base = with_from(scan, base)
        day, since = exp.column("__day", "b"), exp.column("__day", "c")
        on.append(binary(exp.LTE, day, since))
        if c.window is not None:
            on.append(binary(exp.GT, day.copy(), _days_before(since.copy(), c.window)))
        rank = exp.Window(this=exp.RowNumber(), partition_by=[exp.column("__id", "c")],
                          order=exp.Order(expressions=[exp.Ordered(this=day.copy(), desc=True)]))
        matched = exp.select(named(exp.column("__value", "c"), "__value"),
                             *[named(exp.column(k, "b"), k) for k in keys],
                             named(rank, "__rank")).from_(base.subquery("b"), copy=False)
        join(matched, conversions.subquery("c"), "inner", exp.and_(*on, copy=False))
        out = exp.select(*[exp.column(k) for k in keys]).from_(
            matched.subquery("matched"), copy=False).where(
            binary(exp.EQ, exp.column("__rank"), exp.Literal.number(1)), copy=False)
        scan_c = Scan(self.model, conv_sm, self.dialect)
        value = self._aggregate(Leaf(c.conversion_measure, ()), None, scan_c,
                                value=exp.column("__value"), grouped=bool(keys))
        out = out.select(named(value, self.leaves[leaf]), copy=False)
        for k in keys:
            out = out.group_by(exp.column(k), copy=False)
        return out

    def _again(self, leaf: Leaf) -> str | None:
        """How the leaf's partial results are aggregated again (pushdown.again)."""
        m = self.model.measures[leaf.measure][1]
        value = parse_trusted(m.expr)
        return again(m.agg, isinstance(value, exp.Literal) and value.is_int)

    def _both_windows(self, select: exp.Select, scan: Scan,
                      windows: tuple[exp.Expr, exp.Expr], aggregates: dict[str, exp.Expr],
                      how: dict[str, str | None]) -> exp.Select:
        """A comparison's scan in one pass, each aggregate twice (FILTER on the current window
        and on the rest), then one row per window with data, as grouping by `current` gives:
        PostgreSQL hashes a grouping by an expression, and the pass is the cost of the call."""
        current, previous = windows
        counts = [c for c, a in aggregates.items() if a.find(exp.Count)]
        rows = next((c for c in counts if isinstance(aggregates[c], exp.Count)
                     and isinstance(aggregates[c].this, exp.Star)), None)
        if counts and rows is None:  # a count is 0 over no rows, where a window without rows has none
            rows = "__rows"
            aggregates = {**aggregates, rows: exp.Count(this=exp.Star())}
        for column, aggregate in aggregates.items():
            for suffix, where in (("current", current), ("previous", previous)):
                select = select.select(named(_in_rows(aggregate, where), f"{column}__{suffix}"),
                                       copy=False)
        select = aggregated_first(scan, with_from(scan, self._dims(select, scan)), {
            f"{c}__{suffix}": how.get(c, "count") for c in aggregates  # __rows: a count
            for suffix in ("current", "previous")})
        is_current = exp.column(BUCKET, "p")

        def pick(column: str) -> exp.Expr:
            return exp.If(this=is_current.copy(), true=exp.column(f"{column}__current", "s"),
                          false=exp.column(f"{column}__previous", "s"))

        dims = self.plan.group_by if self.plan and scan.fact.entities else ()
        out = exp.select(is_current.copy(), *[exp.column(d, "s") for d in dims],
                         *[named(pick(c), c) for c in aggregates if c != "__rows"])
        out = out.from_(select.subquery("s", copy=False), copy=False)
        if rows is not None:
            out = out.where(binary(exp.GT, pick(rows), exp.Literal.number(0)), copy=False)
        return join(out, self._values([(True,), (False,)], [BUCKET]), "cross")

    # -- semi-additive (MetricFlow): rows at the last (or first) day of each period -------------
    def _semi(self, cte: _Cte, bucketed: bool) -> exp.Select:
        """MetricFlow's non_additive_dimension: per period (and window grouping), only the rows
        whose non-additive day is the period's max (or min), then aggregated as asked."""
        plan = self.plan
        assert plan is not None
        (leaf,) = cte.leaves
        scan = Scan(self.model, cte.fact, self.dialect)
        measure = self.model.measures[leaf.measure][1]
        nad = measure.non_additive
        assert nad is not None
        col = scan.time(measure)
        inner = exp.select()
        bucket: exp.Expr | None = None
        if plan.kind == "compare":
            cur, prev = plan.windows
            bucket = in_window(col, cur)
            inner = inner.where(exp.or_(in_window(col, cur), in_window(col, prev), copy=False),
                                copy=False)
        else:
            if plan.bounded:
                inner = inner.where(in_window(col, plan.windows[0]), copy=False)
            bucket = truncate(col.copy(), plan.grain, self.dialect) if plan.grain else None
        for cond in self._filters(scan, leaf):
            inner = inner.where(cond, copy=False)
        names: list[str] = []
        if scan.fact.entities:
            for name in plan.group_by:
                inner = inner.select(named(scan.dimension(name), name), copy=False)
                names.append(name)
            for f in plan.filters:
                inner = inner.where(self._condition(scan, f), copy=False)
        day = truncate(qualify(scan.fact.dimension(nad.name).expr, scan.fact.name,  # type: ignore[union-attr]
                               scan.fact.table), "day", self.dialect)
        partition = ([bucket.copy()] if bucket is not None else []) + [
            qualify(scan.fact.entity(e).expr, scan.fact.name, scan.fact.table)  # type: ignore[union-attr]
            for e in nad.window_groupings]
        pick = exp.Min if nad.window_choice == "min" else exp.Max
        at = exp.Window(this=pick(this=day.copy()), partition_by=partition)
        inner = inner.select(named(self._value(leaf, scan), "__value"),
                             named(day, "__day"), named(at, "__day_at"), copy=False)
        if bucket is not None:
            inner = inner.select(named(bucket, BUCKET), copy=False)
        inner = with_from(scan, inner)
        outer = exp.select().from_(inner.subquery("snapshots", copy=False), copy=False).where(
            binary(exp.EQ, exp.column("__day"), exp.column("__day_at")), copy=False)
        if bucket is not None and bucketed:
            outer = outer.select(exp.column(BUCKET), copy=False).group_by(exp.column(BUCKET), copy=False)
        for name in names:
            outer = outer.select(exp.column(name), copy=False).group_by(exp.column(name), copy=False)
        value = self._aggregate(leaf, None, scan, exp.column("__value"),
                                grouped=bucketed or bool(names))
        return outer.select(named(value, self.leaves[leaf]), copy=False)

    # -- point in time: the value as of each date ----------------------------------------------
    def _pit_ends(self) -> list[tuple[str | bool | None, dt.date]]:
        """(bucket, date the value is taken at) for a point-in-time measure."""
        plan = self.plan
        assert plan is not None
        _finite(plan)
        if plan.kind == "compare":
            return [(True, plan.windows[0].end), (False, plan.windows[1].end)]
        window = plan.windows[0]
        if plan.grain is None:
            return [(None, window.end)]
        return [(p.start.isoformat(), min(p.end, window.end)) for p in periods(window, plan.grain)]

    def _pit(self, cte: _Cte, bucketed: bool) -> exp.Select:
        scan = Scan(self.model, cte.fact, self.dialect)
        m = self.model.measures[cte.leaves[0].measure][1]
        nad = m.non_additive
        assert nad is not None
        rows: list[tuple[Cell, ...]] = [(b, e) for b, e in self._pit_ends()]
        select = exp.select()
        at = exp.column("__at", "p")
        since = qualify(scan.fact.dimension(nad.name).expr, scan.fact.name, scan.fact.table)  # type: ignore[union-attr]
        select = select.where(since <= at.copy(), copy=False)
        for cond in self._filters(scan, cte.leaves[0]):
            select = select.where(cond, copy=False)
        if nad.valid_to:
            until = qualify(scan.fact.dimension(nad.valid_to).expr, scan.fact.name, scan.fact.table)  # type: ignore[union-attr]
            select = select.where(exp.or_(until.is_(exp.null()), until > at.copy()), copy=False)
            values = [(leaf, self._aggregate(leaf, None, scan,
                                             grouped=bucketed or self._grouped(scan)))
                      for leaf in cte.leaves]
        else:
            values = [(leaf, _arg_pick(nad.window_choice, qualify(
                m.expr, scan.fact.name, scan.fact.table), since.copy(), self.dialect))
                for leaf in cte.leaves]
        for leaf, value in values:
            select = select.select(named(value, self.leaves[leaf]), copy=False)
        if bucketed:
            bucket: exp.Expr = exp.column(BUCKET, "p")
            if self.plan and self.plan.grain:
                bucket = cast(bucket, DATE)
            select = select.select(named(bucket, BUCKET), copy=False).group_by(bucket.copy(), copy=False)
        select = self._dims(select, scan)
        select = with_from(scan, select)
        return join(select, self._values(rows, [BUCKET, "__at"]), "cross")

    # -- ranges: offsets and cumulative windows ------------------------------------------------
    def _buckets(self) -> list[tuple[str | bool, Window]]:
        """Each output bucket and the days it reads when nothing is shifted."""
        plan = self.plan
        assert plan is not None
        _finite(plan)
        if plan.kind == "compare":
            return [(True, plan.windows[0]), (False, plan.windows[1])]
        window = plan.windows[0]
        if plan.grain is None:
            return [("", window)]
        return [(p.start.isoformat(), Window(max(p.start, window.start), min(p.end, window.end)))
                for p in periods(window, plan.grain)]

    def _spine_buckets(self) -> list[tuple[str | bool, Window]]:
        """The buckets of a shifted or cumulative read: by a grain, only the days the time
        spine holds, as MetricFlow joins its spine's days to the days they read (a window
        running past the spine's last day has no row there)."""
        plan, spine = self.plan, self.model.spine_coverage
        assert plan is not None
        if spine is None or plan.kind != "query" or plan.grain is None:
            return self._buckets()
        return [(label, Window(max(w.start, spine.from_), min(w.end, spine.through)))
                for label, w in self._buckets()
                if w.start <= spine.through and w.end >= spine.from_]

    def _ranges(self, mode: Mode) -> list[tuple[str | bool, dt.date | None, dt.date]]:
        """(bucket, first day read or None for all time, day after the last day read)."""
        plan = self.plan
        assert plan is not None
        out: list[tuple[str | bool, dt.date | None, dt.date]] = []
        lo: dt.date | None
        for label, w in self._spine_buckets():
            if mode.kind == "offset":
                assert mode.offset
                lo = shift(w.start, -mode.offset.count, mode.offset.grain)
                if (plan.grain not in (None, "day") and isinstance(label, str)
                        and GRAINS.index(mode.offset.grain) >= GRAINS.index(plan.grain)):
                    # MetricFlow, for an offset no finer than the grain: the whole period whose
                    # start is this period's start shifted back, even when the window (a
                    # metric_time bound) cuts this period; none when the shift lands inside a
                    # period (a week back by a month). A finer offset shifts each day.
                    lo = shift(period_start(w.start, plan.grain), -mode.offset.count,
                               mode.offset.grain)
                    hi = (period_end(lo, plan.grain) + ONE_DAY if period_start(lo, plan.grain) == lo
                          else lo)
                    out.append((label, lo, hi))
                    continue
                if plan.grain == "day":  # MetricFlow: day − offset, one day (Mar 30 and 31 → Feb 29)
                    out.append((label, lo, lo + ONE_DAY))
                    continue
                if mode.offset.grain in ("month", "quarter"):
                    # a calendar shift finer than the grain: MetricFlow reads day − offset for
                    # every day of the period, so a day two days shift onto (May 30 and 31 →
                    # Apr 30) counts twice and one none shifts onto (May 31) not at all
                    # (the days read, as runs of consecutive days: a few rows a month, not 31)
                    runs: list[list[dt.date]] = []
                    day = w.start
                    while day <= w.end:
                        src = shift(day, -mode.offset.count, mode.offset.grain)
                        if runs and runs[-1][1] == src:
                            runs[-1][1] = src + ONE_DAY
                        else:
                            runs.append([src, src + ONE_DAY])
                        day += ONE_DAY
                    out += [(label, lo_, hi_) for lo_, hi_ in runs]
                    continue
                out.append((label, lo, shift(w.end_exclusive, -mode.offset.count,
                                             mode.offset.grain)))
            elif mode.kind == "to_grain":
                assert mode.grain
                out.append((label, *_to_grain(plan.grain, mode.grain, w)))
            elif _last_day(plan, mode):
                # every day of the period, its own trailing range: the last with data per group
                # is picked in the SQL (_last_with_data)
                day = w.start
                while day <= w.end:
                    out.append((label, _trailing(mode, day), day + ONE_DAY))
                    day += ONE_DAY
            else:
                at = w.start if plan.grain and mode.period_agg == "first" else w.end
                # the first day with data: read to the period's end, cut per group (_first_day)
                out.append((label, _trailing(mode, at),
                            w.end_exclusive if _first_day(plan, mode) else at + ONE_DAY))
        return out

    def _range(self, cte: _Cte, bucketed: bool) -> exp.Select:
        (leaf,) = cte.leaves
        scan = Scan(self.model, cte.fact, self.dialect)
        measure = self.model.measures[leaf.measure][1]
        col = scan.time(measure)
        ranges = self._ranges(leaf.mode)
        if self.clipped is not None:
            clip = self.clipped
            ranges = [(b, clip if lo is None else max(lo, clip), hi) for b, lo, hi in ranges]
        bounded = all(lo is not None for _, lo, _ in ranges)
        rows: list[tuple[Cell, ...]] = [(b, *([lo] if bounded and lo else []), hi)
                                        for b, lo, hi in ranges]
        columns = [BUCKET, *(["__lo"] if bounded else []), "__hi"]
        kept: list[exp.Expr] = []  # the rows any range reads
        if bounded:
            first = min(lo for _, lo, _ in ranges if lo)
            kept.append(binary(exp.GTE, col.copy(), date_literal(first)))
        last = max(hi for _, _, hi in ranges)
        kept += [binary(exp.LT, col.copy(), date_literal(last)), *self._filters(scan, leaf)]
        source = (self._by_day(leaf, scan, col, kept) if bucketed and measure.agg in ROLLS_UP
                  else self._by_row(leaf, scan, col, kept))
        select = exp.select()
        if bounded:
            select = select.where(binary(exp.GTE, source.time.copy(), exp.column("__lo", "p")),
                                  copy=False)
        select = select.where(binary(exp.LT, source.time.copy(), exp.column("__hi", "p")),
                              copy=False)
        if _first_day(self.plan, leaf.mode):  # type: ignore[arg-type]
            starts = [w.start for _, w in self._spine_buckets()]
            rows = [(*r, start) for r, start in zip(rows, starts, strict=True)]
            return self._first_with_data(leaf, source, select, rows, [*columns, "__start"])
        if _last_day(self.plan, leaf.mode):  # type: ignore[arg-type]
            return self._last_with_data(leaf, source, select, rows, columns)
        value = (source.aggregate(None) if bucketed else
                 self._aggregate(leaf, None, scan, grouped=self._grouped(scan)))
        select = select.select(named(value, self.leaves[leaf]), copy=False)
        if leaf in self.counted:  # a group here has rows in its range (Build.counted)
            select = select.select(named(exp.Count(this=exp.Star()), self.leaves[leaf] + ROWS),
                                   copy=False)
        if bucketed:
            bucket: exp.Expr = exp.column(BUCKET, "p")
            if self.plan and self.plan.grain:
                bucket = cast(bucket, DATE)
            select = self._keyed(select, bucket)
        for name, value in source.dims:
            select = select.select(named(value, name), copy=False).group_by(value.copy(), copy=False)
        return join(source.read(select), self._values(rows, columns), "cross")

    def _by_row(self, leaf: Leaf, scan: Scan, col: exp.Expr, kept: list[exp.Expr]) -> _Source:
        """The range leaf's rows read as they are: every row crosses every range."""
        plan = self.plan
        assert plan is not None
        dims = [(n, scan.dimension(n)) for n in plan.group_by] if scan.fact.entities else []

        def read(select: exp.Select) -> exp.Select:
            for cond in kept:
                select = select.where(cond, copy=False)
            if scan.fact.entities:  # as _dims: a model without entities holds for every member
                for f in plan.filters:
                    select = select.where(self._condition(scan, f), copy=False)
            return with_from(scan, select)

        return _Source(col, truncate(col.copy(), "day", self.dialect), self._value(leaf, scan),
                       dims, lambda v: self._aggregate(leaf, None, scan, v, grouped=True), read)

    def _by_day(self, leaf: Leaf, scan: Scan, col: exp.Expr, kept: list[exp.Expr]) -> _Source:
        """The range leaf's rows aggregated by day (and the asked dimensions) before they cross
        the ranges: a range of days then reads its days, not its rows (an all-time cumulative by
        day over years of orders joins spine × days, not spine × rows). For aggregates whose
        value over many days is rolled up from each day's (ROLLS_UP); a distinct count keeps
        each day's distinct values."""
        measure = self.model.measures[leaf.measure][1]
        day = truncate(col.copy(), "day", self.dialect)
        inner = exp.select(named(day, "__day"), copy=False).group_by(day.copy(), copy=False)
        if measure.agg == "count_distinct":
            value = self._value(leaf, scan)
            inner = inner.select(named(value, "__v"), copy=False).group_by(value.copy(), copy=False)
        else:
            inner = inner.select(named(self._aggregate(leaf, None, scan, grouped=True), "__v"),
                                 copy=False)
        for cond in kept:
            inner = inner.where(cond, copy=False)
        inner = with_from(scan, self._dims(inner, scan))
        names = list(self.plan.group_by) if self.plan and scan.fact.entities else []

        def aggregate(value: exp.Expr | None) -> exp.Expr:
            value = value if value is not None else exp.column("__v", "d")
            if measure.agg == "count_distinct":
                return self._aggregate(leaf, None, scan, value, grouped=True)
            return ROLLS_UP[measure.agg](this=value)

        day_of = exp.column("__day", "d")
        return _Source(day_of, day_of.copy(), exp.column("__v", "d"),
                       [(n, exp.column(n, "d")) for n in names], aggregate,
                       lambda select: select.from_(inner.subquery("d", copy=False), copy=False))

    def _first_with_data(self, leaf: Leaf, source: _Source, select: exp.Select,
                         rows: Sequence[tuple[Cell, ...]], columns: list[str]) -> exp.Select:
        """A cumulative metric by a grain coarser than a day, read as MetricFlow reads its
        `period_agg: first`: the value on the first day of the period whose trailing range has
        rows (per group; a day with no rows in its range has no value). That day is the
        period's start when its range has rows, else the group's first day with rows, whose
        range then holds only that day's rows: so the rows kept are those from the start's
        range up to the later of the start and the group's first day."""
        partition: list[exp.Expr] = [exp.column(BUCKET, "p")]
        for name, value in source.dims:
            select = select.select(named(value, name), copy=False)
            partition.append(value.copy())
        first = exp.Window(this=exp.Min(this=source.day.copy()), partition_by=partition)
        select = select.select(named(source.value, "__value"),
                               named(source.day, "__day"), named(first, "__first"),
                               named(cast(exp.column("__start", "p"), DATE), "__start"),
                               named(cast(exp.column(BUCKET, "p"), DATE), BUCKET),
                               copy=False)
        inner = join(source.read(select), self._values(rows, columns), "cross")
        last = exp.Greatest(this=exp.column("__start"), expressions=[exp.column("__first")])
        outer = exp.select().from_(inner.subquery("days", copy=False), copy=False).where(
            exp.column("__day") <= last, copy=False)
        for name in [BUCKET, *(n for n, _ in source.dims)]:
            outer = outer.select(exp.column(name), copy=False).group_by(exp.column(name), copy=False)
        value = source.aggregate(exp.column("__value"))
        if TIMED in leaf.filters:  # the day picked, for a spined leaf's null members (_picked)
            outer = outer.select(named(exp.Max(this=last.copy()), self.leaves[leaf] + AT),
                                 copy=False)
        if leaf in self.counted:  # a group here has rows (Build.counted)
            outer = outer.select(named(exp.Count(this=exp.Star()), self.leaves[leaf] + ROWS),
                                 copy=False)
        return outer.select(named(value, self.leaves[leaf]), copy=False)

    def _last_with_data(self, leaf: Leaf, source: _Source, select: exp.Select,
                        rows: Sequence[tuple[Cell, ...]], columns: list[str]) -> exp.Select:
        """A cumulative metric by a grain coarser than a day, read as MetricFlow reads its
        `period_agg: last`: the value on the last day of the period whose trailing range has
        rows, per group (a day with no rows in its range has no value). Each day of the period
        is read over its own range (one row of `p` a day, `__hi` the day after it), then the
        latest day with rows of each period and group is kept."""
        day, bucket = exp.column("__hi", "p"), cast(exp.column(BUCKET, "p"), DATE)
        select = select.select(named(source.aggregate(None), self.leaves[leaf]),
                               named(bucket, BUCKET), named(day, "__day"), copy=False).group_by(
            bucket.copy(), day.copy(), copy=False)
        for name, value in source.dims:
            select = select.select(named(value, name), copy=False).group_by(value.copy(), copy=False)
        inner = join(source.read(select), self._values(rows, columns), "cross")
        keys = [exp.column(name) for name in [BUCKET, *(n for n, _ in source.dims)]]
        latest = exp.Window(this=exp.RowNumber(), partition_by=[k.copy() for k in keys],
                            order=exp.Order(expressions=[exp.Ordered(this=exp.column("__day"),
                                                                     desc=True)]))
        days = [exp.column("__day")] if TIMED in leaf.filters else []
        ranked = exp.select(*keys, exp.column(self.leaves[leaf]), *days,
                            named(latest, "__latest")).from_(
            inner.subquery("days", copy=False), copy=False)
        counted = [named(exp.Literal.number(1), self.leaves[leaf] + ROWS)] if leaf in \
            self.counted else []  # each group here has rows (Build.counted)
        picked = [named(exp.column("__day"), self.leaves[leaf] + AT)] if TIMED in leaf.filters \
            else []  # the day after the day picked, for a spined leaf's null members (_picked)
        return exp.select(*[k.copy() for k in keys], exp.column(self.leaves[leaf]),
                          *picked, *counted).from_(
            ranked.subquery("ranked", copy=False), copy=False).where(
            binary(exp.EQ, exp.column("__latest"), exp.Literal.number(1)), copy=False)

    def _values(self, rows: Sequence[tuple[Cell, ...]], columns: list[str]) -> exp.Values:
        """The VALUES table `p(columns)` of the rows. Its rows are written as text and set into
        the SQL once generated (a placeholder row holds their place): a reading by day over
        months has hundreds of literals, which as sqlglot nodes took most of its compile. Not in
        BigQuery, where sqlglot writes VALUES as an array of structs."""
        if self.dialect == "bigquery":
            body = [exp.Tuple(expressions=[_cell(v) for v in row]) for row in rows]
        else:
            token = f"__showwork_rows_{len(self.spliced)}__"
            self.spliced[f"('{token}')"] = ", ".join(
                f"({', '.join(_cell_sql(v) for v in row)})" for row in rows)
            body = [exp.Tuple(expressions=[exp.Literal.string(token)])]
        return exp.Values(expressions=body, alias=exp.TableAlias(
            this=exp.to_identifier("p"), columns=[exp.to_identifier(c) for c in columns]))

    # -- the outer query -----------------------------------------------------------------------
    def _outer(self, plan: Plan, ctes: list[tuple[str, exp.Select]], keys: list[str],
               exprs: dict[str, exp.Expr]) -> exp.Select:
        first, *rest = ctes
        select = exp.select().from_(table(first[0]), copy=False)
        # key → the scans holding it; a null member (an unmatched join) meets its null
        # counterpart in another scan, as MetricFlow's coalesced keys do
        holders: dict[str, list[str]] = {k: [first[0]] for k in _keys_of(first[1], keys)}
        for name, cte in rest:
            using = _keys_of(cte, keys)
            shared = [k for k in using if k in holders]
            if shared:
                on = exp.and_(*[_same_key(coalesce(k, holders[k]), exp.column(k, name),
                                          self.dialect) for k in shared], copy=False)
                join(select, table(name), "full outer", on)
            else:
                join(select, table(name), "cross")
            for k in using:
                holders.setdefault(k, []).append(name)
        select.set("with_", exp.With(expressions=[
            exp.CTE(this=cte, alias=exp.TableAlias(this=exp.to_identifier(name)))
            for name, cte in ctes]))
        for k in keys:
            value = exp.column(k) if len(ctes) == 1 else named(coalesce(k, holders[k]), k)
            select = select.select(value, copy=False)
        for metric, value in exprs.items():
            select = select.select(named(value, metric), copy=False)
        return self._order(select, plan, keys)

    def _order(self, select: exp.Select, plan: Plan, keys: list[str]) -> exp.Select:
        order: list[exp.Expr] = []
        if plan.order_by:
            name, desc = plan.order_by
            name = BUCKET if name == plan.grain else name
            order.append(exp.Ordered(this=exp.column(name), desc=desc, nulls_first=False))
        order += [exp.Ordered(this=exp.column(k), nulls_first=False) for k in keys]
        # a comparison's rows are paired by key and sorted when typed: no sort in the engine
        if order and not plan.aggregate and plan.kind == "query":
            select = select.order_by(*order, copy=False)
        if plan.limit and not plan.aggregate:
            select = select.limit(plan.limit, copy=False)
        return select

    # -- shares: each row's metric and its total ------------------------------------------------
    def members_add_up(self) -> bool:
        """The metrics' totals are the sums of the grouped rows' values: plain sums and counts
        of scans grouped by their members (not a distinct count, whose members overlap; not a
        reading at a day per member, as a snapshot or a cumulative first day is; not a model
        without entities, whose value every member repeats)."""
        plan = self.plan
        assert plan is not None
        if plan.aggregate or any(self.model.metric_index[m].type != "simple" for m in plan.metrics):
            return False
        return all(cte.kind == "additive" and cte.fact.entities
                   and self.model.measures[leaf.measure][1].agg in ADDITIVE
                   for cte in self._ctes() for leaf in cte.leaves)

    def with_window_totals(self, select: exp.Select) -> exp.Select:
        """`select` with each metric's sum over the rows of its period, a window computed
        before the order and limit."""
        plan = self.plan
        assert plan is not None
        columns = {e.alias_or_name: e.unalias() for e in select.expressions}
        period = [columns[BUCKET].copy()] if self._bucketed else []
        for m in plan.metrics:
            total = exp.Window(this=exp.Sum(this=columns[m].copy()), partition_by=period)
            select = select.select(named(total, f"{TOTAL}{m}"), copy=False)
        return select

    def with_joined_totals(self, select: exp.Select, whole: exp.Select) -> exp.Select:
        """`select`'s rows, in its order, each with its period's row of `whole`."""
        plan = self.plan
        assert plan is not None
        whole.set("order", None)
        order = select.args.get("order")
        out = exp.select(exp.Column(this=exp.Star(), table=exp.to_identifier("part")), *[
            named(exp.column(m, "total"), f"{TOTAL}{m}") for m in plan.metrics])
        out = out.from_(select.subquery("part", copy=False), copy=False)
        on = (_same_key(exp.column(BUCKET, "part"), exp.column(BUCKET, "total"), self.dialect)
              if self._layout[1] else exp.true())
        join(out, whole.subquery("total", copy=False), "left", on)
        if order is not None:
            order = order.copy()
            for col in order.find_all(exp.Column):
                col.set("table", exp.to_identifier("part"))
            out.set("order", order)
        return out

    def _summed(self, plan: Plan, inner: exp.Select) -> exp.Select:
        select = exp.select().from_(inner.subquery("per_period", copy=False), copy=False)
        for k in plan.group_by:
            select = select.select(exp.column(k), copy=False).group_by(exp.column(k), copy=False)
        for metric in plan.metrics:
            select = select.select(named(exp.Sum(this=exp.column(metric)), metric), copy=False)
        if plan.group_by:
            select = select.order_by(*[exp.column(k) for k in plan.group_by], copy=False)
        if plan.limit:
            select = select.limit(plan.limit, copy=False)
        return select


def _element(sm: SemanticModel, name: str, kind: str = "") -> exp.Expr:
    """A semantic model's own entity or dimension `name` as SQL of its table (a conversion
    metric's entity and constant properties)."""
    entity = sm.entity(name) if kind != "dimension" else None
    dimension = sm.dimension(name) if kind != "entity" and entity is None else None
    expr = entity.expr if entity else dimension.expr if dimension else None
    if expr is None:
        raise SemanticError(f"Semantic model {sm.name!r} has no {kind or 'entity or dimension'} "
                            f"{name!r}, which its conversion metric names.")
    return qualify(expr, sm.name, sm.table)


def _days_before(day: exp.Expr, window: Offset) -> exp.Expr:
    """`day` minus the window, in calendar units (a month back from Mar 31 is Feb 29)."""
    count, unit = window.count, window.grain
    if unit == "week":
        count, unit = count * 7, "day"
    elif unit == "quarter":
        count, unit = count * 3, "month"
    return exp.DateSub(this=day, expression=exp.Literal.number(count), unit=exp.var(unit.upper()))


def _approximate(m: Measure, value: exp.Expr, dialect: str) -> exp.Expr | None:
    """An approximate percentile (use_approximate_percentile) in the dialect's own approximate
    quantile, as MetricFlow renders it: DuckDB approx_quantile and Snowflake APPROX_PERCENTILE
    (continuous), Spark/Databricks percentile_approx (discrete), BigQuery
    APPROX_QUANTILES(x, n)[OFFSET(k)]. None where the dialect has none for the kind asked
    (PostgreSQL; a discrete one in DuckDB or Snowflake, a continuous one in Spark): the exact
    percentile is computed instead (MetricFlow refuses those)."""
    if not m.approximate:
        return None
    p = m.percentile if m.percentile is not None else 0.5
    if dialect == "duckdb" and not m.discrete:
        return exp.Anonymous(this="approx_quantile", expressions=[value, exp.Literal.number(p)])
    if dialect == "snowflake" and not m.discrete:
        return exp.Anonymous(this="APPROX_PERCENTILE", expressions=[value, exp.Literal.number(p)])
    if dialect == "spark" and m.discrete:
        return exp.Anonymous(this="percentile_approx", expressions=[value, exp.Literal.number(p)])
    if dialect == "bigquery":
        from fractions import Fraction

        f = Fraction(p).limit_denominator()
        quantiles = exp.Anonymous(this="APPROX_QUANTILES",
                                  expressions=[value, exp.Literal.number(f.denominator)])
        return exp.Bracket(this=quantiles, expressions=[exp.Anonymous(
            this="OFFSET", expressions=[exp.Literal.number(f.numerator)])])
    return None


TIMED = "{{ TimeDimension('metric_time') }} IS NOT NULL"
ROWS = "__rows"
"""The suffix of a leaf's count of rows (Build.counted)."""
LACK = "__lack"
"""The suffix of a cumulative leaf's first (last) spine day + 1 without a value in any group, on
the rows its spine adds by dimensions at a coarser grain (Build._days_lacking)."""
AT = "__at"
"""The suffix of the day a cumulative leaf's value is picked at per period and group (period_agg
first: that day; last: the day after it), by a grain coarser than a day (Build._picked)."""
SPINE = "__spine"
"""The suffix of the column true on the rows a leaf's time spine join adds (Build._spine_rows)."""
"""The filter a metric joined to its time spine reads its rows under when grouped by time."""


def _unspined(value: exp.Expr, columns: set[str]) -> exp.Expr:
    """A metric's value with the marker of a time spine's rows (SPINE) false where no scan
    adds them (no grain, or the query's filter keeps no period the spine adds), and a lacking
    or picked day (LACK, AT) null where no scan reads it."""
    def absent(node: exp.Expr) -> exp.Expr:
        if not isinstance(node, exp.Column) or node.name in columns:
            return node
        if node.name.endswith(SPINE):
            return exp.false()
        return exp.null() if node.name.endswith((LACK, AT)) else node

    return value.transform(absent)


def _days(w: Window, spine: Any) -> list[dt.date]:
    """The days of a bucket the spine holds."""
    start = max(w.start, spine.from_) if spine else w.start
    end = min(w.end, spine.through) if spine else w.end
    return [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]


def _holds(f: Filter, day: dt.date) -> bool:
    """A filter on a time dimension, of a day (the period's start at the filter's grain)."""
    if f.op in ("is_null", "not_null"):
        return f.op == "not_null"
    values = [dt.date.fromisoformat(str(v)[:10]) for v in f.values]
    tests = {"in": lambda: day in values, "not_in": lambda: day not in values,
             "ge": lambda: day >= values[0], "gt": lambda: day > values[0],
             "le": lambda: day <= values[0], "lt": lambda: day < values[0]}
    return tests[f.op]()


def _filled(value: int | float | None, column: exp.Expr) -> exp.Expr:
    """A metric's value with MetricFlow's fill_nulls_with (COALESCE), or as it is."""
    if value is None:
        return column
    return exp.Coalesce(this=column, expressions=[exp.Literal.number(value)])


def _combine(name: str, mode: Mode, i: object) -> Mode:
    """The time reading of a derived metric's input: the parent's, or the input's offset."""
    offset, to_grain = getattr(i, "offset_window", None), getattr(i, "offset_to_grain", None)
    if not offset and not to_grain:
        return mode
    if mode != PLAIN:
        raise SemanticError(f"Metric {name!r}: an offset inside an offset is not supported yet.")
    return Mode("offset", offset) if offset else Mode("to_grain", grain=to_grain)


def _windows_split(plan: Plan, col: exp.Expr) -> tuple[exp.Expr, exp.Expr]:
    """(in the current window, in the previous one) for a row of a comparison's scan, which
    reads only the two windows: one bound each when they meet (a day splits the span), else
    the current window and the rest (a day in both is current, as grouping by it gives)."""
    cur, prev = plan.windows
    if cur.start == prev.end_exclusive:
        return (binary(exp.GTE, col.copy(), date_literal(cur.start)),
                binary(exp.LT, col.copy(), date_literal(cur.start)))
    if prev.start == cur.end_exclusive:
        return (binary(exp.LT, col.copy(), date_literal(prev.start)),
                binary(exp.GTE, col.copy(), date_literal(prev.start)))
    current = in_window(col, cur)
    return current, exp.not_(exp.paren(current.copy(), copy=False), copy=False)


def _split(leaves: list[Leaf], conds: dict[Leaf, list[exp.Expr]]
           ) -> tuple[list[exp.Expr], dict[Leaf, exp.Expr | None]]:
    """(conditions every leaf shares, each leaf's remaining condition or None).

    Shared conditions go to WHERE once; only what differs stays inside the aggregates, which
    is what a person writing the SQL by hand would do."""
    # the text of a condition compares it (written without a copy: nothing is rewritten)
    texts = {leaf: [write(c) for c in cs] for leaf, cs in conds.items()}
    first = leaves[0]
    common = [c for c, t in zip(conds[first], texts[first], strict=True)
              if all(t in texts[leaf] for leaf in leaves)]
    shared = {t for t in texts[first] if all(t in texts[leaf] for leaf in leaves)}
    residual: dict[Leaf, exp.Expr | None] = {}
    for leaf in leaves:
        rest = [c.copy() for c, t in zip(conds[leaf], texts[leaf], strict=True) if t not in shared]
        residual[leaf] = exp.and_(*rest, copy=False) if rest else None
    return common, residual








Cell = str | bool | dt.date | None
"""A value of a VALUES row: a bucket label (a period's start as text, a comparison's TRUE or
FALSE, '' for none) or a day."""


def _cell(value: Cell) -> exp.Expr:
    return date_literal(value) if isinstance(value, dt.date) else _label(value)


def _cell_sql(value: Cell) -> str:
    """_cell(value) as every dialect but BigQuery writes it (compile tests hold them equal)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.date):
        return f"CAST('{value.isoformat()}' AS DATE)"
    assert value is None or "'" not in value and "\\" not in value
    return f"'{value or ''}'"


def _first_day(plan: Plan, mode: Mode) -> bool:
    """A cumulative leaf read at the first day with data of periods coarser than a day."""
    return (mode.kind == "cumulative" and mode.period_agg == "first" and not mode.every_day
            and plan.grain not in (None, "day") and plan.kind == "query")


def _last_day(plan: Plan, mode: Mode) -> bool:
    """A cumulative leaf with a trailing range (a window or grain_to_date) read at the last day
    with data of periods coarser than a day. Over all time a period's last day has data as soon
    as any day before it has: its range is read as it is."""
    return (mode.kind == "cumulative" and mode.period_agg == "last" and not mode.every_day
            and (mode.offset is not None or mode.grain is not None)
            and plan.grain not in (None, "day") and plan.kind == "query")


def _trailing(mode: Mode, day: dt.date) -> dt.date | None:
    """The first day a cumulative leaf reads on `day` (None: all time)."""
    if mode.offset:
        return shift(day, -mode.offset.count, mode.offset.grain) + ONE_DAY
    return period_start(day, mode.grain) if mode.grain else None


def _to_grain(grain: str | None, to: str, w: Window) -> tuple[dt.date, dt.date]:
    """(first day, day after the last) an offset_to_grain input reads for a bucket, as
    MetricFlow 0.210 joins its time spine (dataflow_plan_builder): by a grain no coarser than
    `to` (week aside), after aggregating, the bucket-long period starting where the bucket's
    `to` period starts (by day: that day; by month to a quarter: its first month; by `to`
    itself: the whole period); by a coarser grain or by week, before aggregating, one day: the
    start of the `to` period holding the bucket's start (the spine's period starts joined to the
    day they truncate to)."""
    if grain in (None, "day"):
        start = period_start(w.start, to)
        return start, start + (w.end_exclusive - w.start)
    start = period_start(period_start(w.start, grain), to)
    if grain != "week" and GRAINS.index(grain) <= GRAINS.index(to):
        return start, period_end(start, grain) + ONE_DAY
    return start, start + ONE_DAY


def _finite(plan: Plan) -> None:
    """Per-period readings enumerate the window's periods: without a window asked, the sources'
    coverage, which must then be known."""
    w = plan.windows[0]
    if not plan.bounded and (w.start == dt.date.min or w.end == dt.date.max):
        raise SemanticError(f"Metrics {', '.join(plan.metrics)}: an offset, cumulative or "
                            "point-in-time reading needs a window (or a known coverage of its "
                            "sources); give one.")


def _label(bucket: str | bool | None) -> exp.Expr:
    """A bucket as a literal: a comparison's TRUE or FALSE, else a period's start as text."""
    return exp.Boolean(this=bucket) if isinstance(bucket, bool) else exp.Literal.string(bucket or "")


def _keys_of(cte: exp.Select, keys: list[str]) -> list[str]:
    names = {s.alias_or_name for s in cte.expressions}
    return [k for k in keys if k in names]


def _check(select: exp.Expr, allowed: set[str]) -> None:
    """The built query is one SELECT, reading only the model's tables. Its SQL text is checked
    again where it runs (DuckDB's own parser, or sqlglot's for Spark: one SELECT), so it is not
    parsed back here, which took 40 % of a compile."""
    if not isinstance(select, exp.Select):
        raise SemanticError("Compiled SQL is not a single SELECT; refusing to run it.")
    allowed = allowed | {"p", "per_period", "snapshots"}
    for read in select.find_all(exp.Table):
        if read.name and read.name not in allowed:
            raise SemanticError(f"Compiled SQL reads {read.name!r}, not a model table.")


def _reference(scan: Scan, measure: Measure, ref: Ref) -> exp.Expr:
    return scan.reference(ref, measure)


def check_metric_filters(model: SemanticModelFile, metric: str) -> None:
    """Resolve every reference of the metric's filters from each of its semantic models;
    raise the first problem (unknown, dangling, ambiguous, cyclic)."""
    m = model.metric_index[metric]
    templates = list(m.filters) + [f for i in m.input_metrics for f in i.filters]
    for sm in model.base_models(metric):
        scan = Scan(model, sm, "duckdb")
        measure = next(x for x in sm.measures if x.name in model.base_measures(metric))
        for template in templates:
            render(template, partial(_reference, scan, measure))


def _count_rows(condition: exp.Expr | None) -> exp.Expr:
    """COUNT(*), or of the rows meeting the condition: COUNT(e) for `e IS NOT NULL`, else of a
    constant under it. The engine reads no column it does not need."""
    if condition is None:
        return exp.Count(this=exp.Star())
    counted = non_null_of(condition)
    if counted is not None:
        return exp.Count(this=counted.copy())
    return exp.Count(this=exp.Case().when(condition, exp.Literal.number(1), copy=False))


def _in_rows(aggregate: exp.Expr, where: exp.Expr) -> exp.Expr:
    """`aggregate` over the rows meeting `where`: FILTER on each aggregate function in it."""
    def filtered(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.AggFunc):
            return exp.Filter(this=node.copy(), expression=exp.Where(this=where.copy()))
        return node

    return aggregate.copy().transform(filtered)


def _unless_no_rows(rows: exp.Expr, aggregate: exp.Expr) -> exp.Expr:
    """`aggregate`, or null where `rows` (a count of the rows it reads) is 0."""
    some = binary(exp.GT, rows, exp.Literal.number(0))
    return exp.Case().when(some, aggregate, copy=False)


def _counts_rows(m: Measure, sm: SemanticModel) -> bool:
    """A count of the semantic model's primary entity counts its rows: a primary entity is
    never null (dbt's definition of primary), so COUNT(pk) and COUNT(*) agree on every engine."""
    expr = parse_trusted(m.expr)
    return any(e.type == "primary" and parse_trusted(e.expr) == expr for e in sm.entities)


def _arg_pick(choice: str | None, value: exp.Expr, since: exp.Expr, dialect: str) -> exp.Expr:
    """`value` at the first (min) or last (max) `since`; PostgreSQL has no ARG_MIN/ARG_MAX, so
    there it is the first element of the values ordered by `since`."""
    if dialect != "postgres":
        return (exp.ArgMin if choice == "min" else exp.ArgMax)(this=value, expression=since)
    order = exp.Ordered(this=since, desc=choice != "min", nulls_first=False)
    agg = exp.ArrayAgg(this=exp.Order(this=value, expressions=[order]))
    # sqlglot writes index 0 as PostgreSQL's first element, [1]
    return exp.Bracket(this=exp.Paren(this=agg), expressions=[exp.Literal.number(0)])


def _same_key(left: exp.Expr, right: exp.Expr, dialect: str) -> exp.Expr:
    """Keys equal, a null meeting a null. PostgreSQL cannot FULL JOIN on IS NOT DISTINCT FROM
    (not hash- or merge-joinable); one-element arrays compare nulls as equal and hash-join."""
    if dialect != "postgres":
        return exp.NullSafeEQ(this=left, expression=right)
    return exp.EQ(this=exp.Array(expressions=[left]), expression=exp.Array(expressions=[right]))
