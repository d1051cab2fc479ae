"""Aggregate before the join: one scan's fact grouped by its join keys first, then the joined
models read over those groups and the aggregates taken again.

A scan `SELECT agg(f.x), d.name FROM f LEFT JOIN d ON f.k = d.k WHERE … GROUP BY d.name` reads
every fact row through the join. When each aggregate can be taken again over partial results
exactly (a sum of sums, a sum of counts, a min of mins, a max of maxes) and reads only the fact's
columns, the same rows come from

    SELECT agg2(s.m), d.name
    FROM (SELECT agg(f.x) AS m, f.k AS __k0 FROM f WHERE <the fact's conditions> GROUP BY f.k) s
    LEFT JOIN d ON s.__k0 = d.k WHERE <the joined models' conditions> GROUP BY d.name

for every join (a joined row is a function of the key: it meets all of a key's fact rows or
none, a fan-out repeating each as it repeats the key's partial result), so the join reads one
row per key. It is left out (the plan kept as built) wherever that is not exactly so: a distinct
count, an average or a percentile; an aggregate, condition or grouping mixing the fact's columns
with a joined model's; a slowly changing dimension (its join reads the fact's time); a custom
granularity's time spine. And where it would not pay:
- a first join to a model with measures of its own (users, orders: hardly fewer keys than fact
  rows), rather than to a lookup table (airlines, airports, stores);
- a joined model read only by conditions, none of its columns grouped by: a probe of its few
  matching rows costs less than the finer grouping by key.
and a count with no GROUP BY at all (over no rows the plain plan's is 0, a sum of no partial
counts NULL).
"""

from __future__ import annotations

from sqlglot import exp

from showwork.semantic_layer.joins import Hop
from showwork.semantic_layer.scan import Scan
from showwork.semantic_layer.sql import DType, cast, conjuncts, named, qualify

AGAIN = {"sum": exp.Sum, "count": exp.Sum, "integer": exp.Sum, "min": exp.Min, "max": exp.Max}
"""How a partial result is aggregated again, by how the scan aggregated it: a count (0 over no
rows) or a sum of integers (NULL over none) summed again and kept BIGINT, the plain plan's type."""
PAYS = ("postgres", "duckdb")
"""Dialects where it is done, measured: on the flights example a count by airline takes 0.66 of
the plain plan's time on PostgreSQL and 0.48 on DuckDB (each probes its hash join once per fact
row). Spark and the warehouses not run here keep the plain plan."""


def again(agg: str, integral: bool) -> str | None:
    """How a measure's partial results are aggregated again (None: they cannot be, exactly).
    `integral`: the measure's value is an integer literal (SUM(1): a count of rows)."""
    if agg == "sum_boolean" or (agg == "sum" and integral):
        return "integer"
    return agg if agg in ("count", "sum", "min", "max") else None


def aggregated_first(scan: Scan, select: exp.Select, how: dict[str, str | None]) -> exp.Select:
    """`select` (the scan's grouped query, FROM and joins built) aggregated before its joins,
    or `select` itself where that would not give exactly its rows or would not pay. `how`: each
    aggregate column → again()'s answer."""
    hops = [p for p in scan.aliases if p]
    groups = list(select.args["group"].expressions) if select.args.get("group") else []
    if scan.dialect not in PAYS or not hops or not _exact(scan, hops, groups, how):
        return select
    fact = scan.fact.name
    split = _split(fact, _conjuncts(select.args["where"].this) if select.args.get("where") else [],
                   groups, [e for e in select.expressions if e.alias not in how],
                   [e for e in select.expressions if e.alias in how])
    if split is None or not pays(scan, hops, len(split[2]) < len(groups)):
        return select
    inner_where, outer_where, local_groups = split
    keys = _unique([qualify(scan.model.models_by_name[p[0].source].entity(p[0].entity).expr,  # type: ignore[union-attr]
                            fact, scan.fact.table) for p in hops if len(p) == 1] + local_groups)
    # a key by the tree's structural hash (sqlglot's equality): each node `read` visits is
    # looked up without writing its SQL, which took a third of a compile
    names = {k: f"__k{i}" for i, k in enumerate(keys)}
    inner = exp.select(*[named(k.copy(), names[k]) for k in keys],
                       *[e.copy() for e in select.expressions if e.alias in how])
    inner = inner.from_(select.args["from_"].this.copy(), copy=False)
    for cond in inner_where:
        inner = inner.where(cond.copy(), copy=False)
    inner = inner.group_by(*[k.copy() for k in keys], copy=False)
    kinds = tuple({type(k) for k in keys})

    def read(node: exp.Expr) -> exp.Expr:
        """A key or the fact's own grouping, read from the inner query's column."""
        column = names.get(node) if isinstance(node, kinds) else None
        return exp.column(column, fact) if column else node

    outer = exp.select().from_(inner.subquery(fact, copy=False), copy=False)
    for j in select.args.get("joins") or []:
        outer.append("joins", j.transform(read))
    for e in select.expressions:
        if e.alias in how:
            value: exp.Expr = AGAIN[how[e.alias]](this=exp.column(e.alias, fact))  # type: ignore[index]
            value = cast(value, DType.BIGINT) if how[e.alias] in ("count", "integer") else value
            outer = outer.select(named(value, e.alias), copy=False)
        else:
            outer = outer.select(e.transform(read), copy=False)
    for cond in outer_where:
        outer = outer.where(cond.transform(read), copy=False)
    outer = outer.group_by(*[g.transform(read) for g in groups], copy=False)
    left = {c.name for part in (outer.expressions, outer.args.get("joins") or [],
                                [outer.args.get("where")], [outer.args.get("group")])
            for tree in part if tree is not None
            for c in tree.find_all(exp.Column) if c.table == fact}
    return outer if left <= set(names.values()) | set(how) else select


def _exact(scan: Scan, hops: list[tuple[Hop, ...]], groups: list[exp.Expr],
           how: dict[str, str | None]) -> bool:
    """Partial results per key give exactly the plain plan's rows (the conditions and grouping
    are split after, in _split)."""
    models = scan.model.models_by_name
    return not (scan.spines or any(models[h.target].validity for p in hops for h in p)
                or any(v is None for v in how.values())
                or (not groups and "count" in how.values()))


def pays(scan: Scan, hops: list[tuple[Hop, ...]], joined_grouped: bool) -> bool:
    """Grouping by key first pays: a joined column is grouped by, and every first join is to a
    lookup table (a model with no measures of its own). A test may make it always pay to check
    the rows where it does not."""
    models = scan.model.models_by_name
    return joined_grouped and not any(models[p[0].target].measures for p in hops)


def _split(fact: str, where: list[exp.Expr], groups: list[exp.Expr], shown: list[exp.Expr],
           aggregates: list[exp.Expr]
           ) -> tuple[list[exp.Expr], list[exp.Expr], list[exp.Expr]] | None:
    """(conditions on the fact's rows, conditions on the joined rows, the fact's own grouping),
    or None where an aggregate reads a joined model or a condition or grouping mixes both."""
    if any(_reads(a, fact) != "fact" for a in aggregates):
        return None
    sides = [_reads(w, fact) for w in where]
    if "both" in sides or any(_reads(g, fact) == "both" for g in groups):
        return None
    local = [g for g in groups if _reads(g, fact) == "fact"]
    if any(_reads(e.unalias(), fact) == "fact" and not any(e.unalias() == g for g in local)
           for e in shown):
        return None  # a fact column shown but not grouped by: not read through a key
    return ([w for w, s in zip(where, sides, strict=True) if s == "fact"],
            [w for w, s in zip(where, sides, strict=True) if s != "fact"], local)


def _conjuncts(tree: exp.Expr) -> list[exp.Expr]:
    """The AND-ed conditions, through parentheses ((a AND b) AND c: a, b and c)."""
    return [c for p in conjuncts(tree)
            for c in (_conjuncts(p) if isinstance(p, exp.Paren | exp.And) else [p])]


def _reads(tree: exp.Expr, fact: str) -> str:
    """fact (only the fact's columns, or none), joined (only joined models') or both."""
    tables = {c.table for c in tree.find_all(exp.Column)}
    if "" in tables or any(isinstance(n, exp.Window | exp.Subquery) for n in tree.walk()):
        return "both"  # an unqualified column or a window: not split
    if tables <= {fact}:
        return "fact"
    return "both" if fact in tables else "joined"


def _unique(trees: list[exp.Expr]) -> list[exp.Expr]:
    return list(dict.fromkeys(trees))
