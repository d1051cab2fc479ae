"""One scan: a semantic model's table and the LEFT joins its dimensions and filters need."""

from __future__ import annotations

from sqlglot import exp

from semantic_layer.joins import DimensionRef, Hop, resolve, resolve_any
from semantic_layer.model import Measure, SemanticModel, SemanticModelFile
from semantic_layer.sql import binary, join, named, null_on_null, qualify, table, truncate
from semantic_layer.where import Ref

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
        value = self.scoped(qualify(ref.dimension.expr, self.alias(ref.path), owner.table),
                            ref.path)
        if ref.dimension.type == "time":
            return truncate(value, ref.grain or "day", self.dialect)
        return value

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
        return select

    def _on(self, path: tuple[Hop, ...], alias: str) -> exp.Expr:
        """source's key (read in its own scope) = target's key."""
        hop = path[-1]
        source, target = self.model.models_by_name[hop.source], self.model.models_by_name[hop.target]
        left = self.scoped(qualify(source.entity(hop.entity).expr, self.aliases[path[:-1]],  # type: ignore[union-attr]
                                   source.table), path[:-1])
        right = qualify(target.entity(hop.entity).expr, alias, target.table)  # type: ignore[union-attr]
        return binary(exp.EQ, left, right)

    @staticmethod
    def _table(sm: SemanticModel, alias: str) -> exp.Table:
        name = f"{sm.schema}.{sm.table}" if sm.schema and sm.schema != "main" else sm.table
        read = table(name)
        if alias != sm.table:
            read.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
        return read


def with_from(scan: Scan, select: exp.Select) -> exp.Select:
    """`select` over the scan's FROM and joins (built last: filters and dimensions add joins)."""
    base = scan.select()
    for key in ("expressions", "where", "group"):
        if select.args.get(key):
            base.set(key, select.args[key])
    return base
