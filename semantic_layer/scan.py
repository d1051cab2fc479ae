"""One scan: a semantic model's table and the LEFT joins its dimensions and filters need."""

from __future__ import annotations

from sqlglot import exp

from showwork.semantic_layer.dateparts import date_part_of
from showwork.semantic_layer.errors import UnsupportedDimension
from showwork.semantic_layer.joins import METRIC_TIME, DimensionRef, Hop, resolve, resolve_any
from showwork.semantic_layer.model import GRAINS, Measure, SemanticModel, SemanticModelFile, TimeSpine
from showwork.semantic_layer.sql import (
    binary,
    date_part,
    join,
    named,
    null_on_null,
    qualify,
    table,
    truncate,
    write,
)
from showwork.semantic_layer.where import Ref

HIT = "__hit"
"""A column TRUE on every row of a joined model whose key expr alone cannot tell a match."""


class Scan:
    """The FROM clause of one scan: the measure's semantic model and the LEFT joins its
    dimensions and filters need, each join path once.

    Every expr of a joined model is read as MetricFlow reads it, in that model's own scope (its
    subquery per semantic model): NULL on a row the join found no match for, even a constant
    flag (`expr: "1"`), a CASE or a COALESCE."""

    def __init__(self, model: SemanticModelFile, fact: SemanticModel, dialect: str) -> None:
        self.model, self.fact, self.dialect = model, fact, dialect
        self.aliases: dict[tuple[Hop, ...], str] = {(): fact.name}
        self.used = {fact.name}
        self.marked: set[tuple[Hop, ...]] = set()
        """Join paths read through a subquery adding the HIT column."""
        self.at: str | None = None
        """The measure's time dimension (its metric_time): a slowly changing dimension's row is
        the one in force then."""
        self.read: set[tuple[Hop, ...]] = set()
        """Join paths a column is read from."""
        self.spines: dict[str, tuple[str, exp.Expr, TimeSpine]] = {}
        """A day's SQL → (alias, the day, the time spine) joined for a custom granularity."""

    def alias(self, path: tuple[Hop, ...]) -> str:
        for i in range(1, len(path) + 1):
            prefix = path[:i]
            if prefix not in self.aliases:
                name, n = prefix[-1].target, 2
                while name in self.used:
                    name, n = f"{prefix[-1].target}_{n}", n + 1
                self.aliases[prefix] = name
                self.used.add(name)
        return self.aliases[path]

    def column(self, ref: DimensionRef) -> exp.Expr:
        owner = self.model.models_by_name[ref.owner]
        self.read.add(ref.path)
        expr = ref.dimension.expr
        if ref.dimension.name == METRIC_TIME and not ref.path and self.at:
            expr = self.fact.dimension(self.at).expr  # type: ignore[union-attr]  # its measure's
        value = self.scoped(qualify(expr, self.alias(ref.path), owner.table), ref.path)
        if ref.dimension.type == "time" and ref.grain in self.model.custom_grains:
            return self.custom(value, ref.grain)
        part = date_part_of(ref.grain or "")
        if ref.dimension.type == "time" and part:
            return date_part(value, part, self.dialect)
        if ref.dimension.type == "time":
            return truncate(value, ref.grain or "day", self.dialect)
        return value

    def custom(self, value: exp.Expr, grain: str) -> exp.Expr:
        """A time at a custom granularity, as MetricFlow reads it: the time spine's column for
        it, on the spine's row for the time's day (LEFT joined: null on a day the spine lacks)."""
        spine, column = self.model.custom_grains[grain]
        day = truncate(value, "day", self.dialect)
        key = write(day)
        if key not in self.spines:
            alias, n = spine.table, 2
            while alias in self.used:
                alias, n = f"{spine.table}_{n}", n + 1
            self.used.add(alias)
            self.spines[key] = (alias, day, spine)
        return exp.column(column, self.spines[key][0])

    def scoped(self, value: exp.Expr, path: tuple[Hop, ...]) -> exp.Expr:
        """An expr read from the model at the end of `path`: NULL where a join found no row."""
        if not path or null_on_null(value):
            return value
        return exp.Case().when(self.matched(path), value, copy=False)

    def matched(self, path: tuple[Hop, ...]) -> exp.Expr:
        """TRUE on the rows whose join along `path` found a match: the target's key is not
        null (it equalled the source's), or, for a key expr that may be non-null on an
        unmatched row, the HIT column of a subquery over the target."""
        hop = path[-1]
        target = self.model.models_by_name[hop.target]
        alias = self.alias(path)
        key = qualify(target.entity(hop.entity).expr, alias, target.table)  # type: ignore[union-attr]
        if not null_on_null(key):
            self.marked.add(path)
            key = exp.column(HIT, alias)
        return exp.not_(exp.Is(this=key, expression=exp.Null()), copy=False)

    def time(self, measure: Measure) -> exp.Expr:
        dim = self.fact.dimension(measure.agg_time_dimension)
        assert dim is not None  # checked when the model loaded
        self.at = self.at or dim.name
        return qualify(dim.expr, self.fact.name, self.fact.table)

    def dimension(self, name: str) -> exp.Expr:
        return self.column(resolve_any(self.model, self.fact, self.model.qualified_name(name)))

    def reference(self, ref: Ref, measure: Measure) -> exp.Expr:
        """A `{{ Dimension(…) }}` of a metric filter, read in this scan."""
        if ref.name.split("__")[0] == "metric_time":
            grain = ref.grain or (ref.name.split("__")[1] if "__" in ref.name else "day")
            return truncate(self.time(measure), grain, self.dialect)
        kind = "entity" if ref.kind == "entity" else "dimension"
        dref = resolve(self.model, self.fact, ref.name, kind)
        if ref.grain:
            dref = DimensionRef(dref.name, dref.path, dref.owner, dref.dimension, ref.grain)
        return self.column(dref)

    def select(self) -> exp.Select:
        select = exp.select().from_(self._table(self.fact, self.fact.name), copy=False)
        # every ON first: a key read under an earlier join's match may mark that join
        ons = {path: self._on(path, alias) for path, alias in self.aliases.items() if path}
        for path, on in ons.items():
            target = self.model.models_by_name[path[-1].target]
            alias = self.aliases[path]
            source: exp.Expr = self._table(target, alias)
            if path in self.marked:
                inner = exp.select(exp.Star(), named(exp.true(), HIT)).from_(
                    self._table(target, target.table), copy=False)
                source = inner.subquery(alias, copy=False)
            join(select, source, "left", on)
        for alias, day, spine in self.spines.values():
            join(select, _relation(spine.schema, spine.table, alias), "left",
                 binary(exp.EQ, day.copy(), exp.column(spine.column, alias)))
        return select

    def _on(self, path: tuple[Hop, ...], alias: str) -> exp.Expr:
        """source's key (read in its own scope) = target's key."""
        hop = path[-1]
        source, target = self.model.models_by_name[hop.source], self.model.models_by_name[hop.target]
        left = self.scoped(qualify(source.entity(hop.entity).expr, self.aliases[path[:-1]],  # type: ignore[union-attr]
                                   source.table), path[:-1])
        right = qualify(target.entity(hop.entity).expr, alias, target.table)  # type: ignore[union-attr]
        on = binary(exp.EQ, left, right)
        if target.validity is None:
            return on
        return exp.and_(on, validity_condition(self, path, alias), copy=False)

    @staticmethod
    def _table(sm: SemanticModel, alias: str) -> exp.Table:
        return _relation(sm.schema, sm.table, alias)


def _relation(schema: str | None, name: str, alias: str) -> exp.Table:
    """The warehouse table (in its schema unless that is the default), read as `alias`."""
    read = table(f"{schema}.{name}" if schema and schema != "main" else name)
    if alias != name:
        read.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    return read


def validity_condition(scan: Scan, path: tuple[Hop, ...], alias: str) -> exp.Expr:
    """A join to a slowly changing dimension's table matches the row in force at the measure's
    time, as MetricFlow joins one: its metric_time at its own grain within [start, end) of the
    row, each bound at its own grain, a null end open."""
    target = scan.model.models_by_name[path[-1].target]
    start, end = target.validity  # type: ignore[misc]
    fact_time = scan.fact.dimension(scan.at) if scan.at else None
    where = f"Dimensions of {target.name!r} (a slowly changing dimension, validity_params)"
    if fact_time is None:
        raise UnsupportedDimension(f"{where} join on the measure's time; this reading of "
                                   f"{scan.fact.name!r} has none, which is not supported yet.")
    if any(h.target != target.name and scan.model.models_by_name[h.target].validity
           for h in path):
        raise UnsupportedDimension(f"{where} reached through another slowly changing dimension "
                                   "are not supported (MetricFlow joins one at a time).")
    if any(p and p != path and path[:len(p)] == p for p in scan.read):
        raise UnsupportedDimension(f"{where} read along with a column of a model joined on the "
                                   "way to it are not supported yet: MetricFlow joins that "
                                   "model through the slowly changing one.")
    grains = [d.granularity or "day" for d in (fact_time, start, end)]
    if any(g not in GRAINS for g in grains):
        raise UnsupportedDimension(f"{where} with a time finer than a day ({', '.join(grains)}) "
                                   f"are not supported yet; supported grains: {', '.join(GRAINS)}.")
    at = truncate(qualify(fact_time.expr, scan.fact.name, scan.fact.table), grains[0], scan.dialect)
    low = truncate(qualify(start.expr, alias, target.table), grains[1], scan.dialect)
    high = truncate(qualify(end.expr, alias, target.table), grains[2], scan.dialect)
    open_end = exp.or_(binary(exp.LT, at.copy(), high.copy()),
                       exp.Is(this=high, expression=exp.Null()), copy=False)
    return exp.and_(binary(exp.GTE, at, low), exp.paren(open_end, copy=False), copy=False)


def with_from(scan: Scan, select: exp.Select) -> exp.Select:
    """`select` over the scan's FROM and joins (built last: filters and dimensions add joins)."""
    base = scan.select()
    for key in ("expressions", "where", "group"):
        if select.args.get(key):
            base.set(key, select.args[key])
    return base
