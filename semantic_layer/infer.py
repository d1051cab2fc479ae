"""Governance defaults inferred from the warehouse (DESIGN.md, "Projects").

What the governance leaves out: each semantic model's coverage (first..last day of its
agg_time_dimension in the data), each small dimension's closed member list (its distinct values,
when there are at most MAX_MEMBERS), and the as-of date (the end of coverage).

Every other categorical dimension (open, or open with a pattern, joined tables' columns
included) gets a member index: its distinct values up to INDEX_BOUND, with a flag saying whether
that is all of them. The question reader matches members against it; `member_index(model)` is
the one place it is read (a cache by the model's digest can sit there).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showwork.semantic_layer.errors import ModelError
from showwork.semantic_layer.execute import Limits
from showwork.semantic_layer.governance import DimensionGovernance
from showwork.semantic_layer.model import Coverage, Dimension, SemanticModel, SemanticModelFile
from showwork.semantic_layer.results import citable, member_text

if TYPE_CHECKING:
    from sqlglot import exp

    from showwork.semantic_layer.engines import Engine

MAX_MEMBERS = 50
INDEX_BOUND = 2000
RARE = 1000
"""Distinct values indexed per open dimension at most."""
Run = Callable[[str], list[tuple[Any, ...]]]


@dataclass(frozen=True)
class MemberList:
    """The members of an open dimension found in the data."""

    values: tuple[str, ...]
    complete: bool
    """False when the dimension has more than INDEX_BOUND distinct values (the list is cut)."""
    rare: tuple[str, ...] = ()
    """Values the data holds on a handful of rows: fewer than 1/RARE of its most common value's
    (one 2013 flight went to LGA; LGA is an origin of 100,000). A member named with no role word
    is read in the dimension that holds it commonly."""
    with_facts: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(fact model, the values its rows reach), for a dimension joined from another table,
    where some values reach no fact ('Boston Back Bay Station' is an airport with no flights):
    a place named is matched among the values the asked metric's facts hold."""
    named: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    """(qualified name dimension, (member, its name)) where the dimension's column is the key
    of an entity whose table names it (`origin` JFK: origin_airport__airport_name 'John F
    Kennedy Intl'): a metric read only by the name reads the member named by its code."""


def member_index(model: SemanticModelFile) -> dict[str, MemberList]:
    """Qualified dimension → its indexed members, for a model `infer` filled in (else none).
    The one place the index is read: it travels with the model, so a cached model has it."""
    return model.member_index


def _indexed_dimensions(model: SemanticModelFile) -> list[str]:
    """Categorical dimensions without a closed member list (a pattern allowed)."""
    out = []
    for info in model.dimensions.values():
        g = model.dimension_governance.get(info.qualified)
        closed = info.members is not None or (g is not None and g.members is not None)
        if not closed and info.dimension.type.lower() == "categorical":
            out.append(info.qualified)
    return out


def needs_inference(model: SemanticModelFile) -> bool:
    missing_cov = any(sm.name not in model.coverage_by_model for sm in model.semantic_models
                      if sm.measures)
    return missing_cov or bool(_open_dimensions(model))


def _open_dimensions(model: SemanticModelFile) -> list[str]:
    """Dimensions with no member list yet: not declared, not governed, not indexed by `infer`
    (a dimension of more than MAX_MEMBERS values is indexed instead of listed, so a model
    `infer` filled in needs no inference again, however many values a dimension has)."""
    out = []
    for info in model.dimensions.values():
        g = model.dimension_governance.get(info.qualified)
        if info.members is None and info.pattern is None and not (g and g.members is not None) \
                and info.qualified not in model.member_index:
            out.append(info.qualified)
    return out


def infer(model: SemanticModelFile, run: Run, dialect: str = "duckdb") -> SemanticModelFile:
    """The model with missing coverage and member lists filled in from the data."""
    from sqlglot import exp  # here: a warm start reads the inferred model from the cache

    from showwork.semantic_layer.sql import qualify

    coverage = dict(model.coverage_by_model)
    for sm in model.semantic_models:
        if sm.name in coverage or not sm.measures:
            continue
        time = sm.dimension(sm.measures[0].agg_time_dimension)
        if time is None:
            continue
        found = _time_coverage(sm, time, run, dialect)
        if found is not None:
            coverage[sm.name] = found
    spine = model.spine_coverage or _spine_coverage(model, run, dialect)
    governance = dict(model.dimension_governance)
    wanted = set(_open_dimensions(model))
    indexed = set(_indexed_dimensions(model))
    index: dict[str, MemberList] = {}
    done: set[str] = set()
    for info in model.dimensions.values():
        if info.qualified in done or info.qualified not in wanted | indexed:
            continue
        done.add(info.qualified)
        owner = model.models_by_name[info.owner]
        value = qualify(info.dimension.expr, owner.table)
        sql = (exp.select(exp.alias_(value, "v"), exp.alias_(exp.Count(this=exp.Star()), "n"))
               .from_(_table(owner)).where(exp.not_(value.copy().is_(exp.null())))
               .group_by(exp.column("v")).order_by(exp.column("v")).limit(INDEX_BOUND + 1)
               .sql(dialect))
        rows = run(sql)
        values = [_text(r[0]) for r in rows]
        most = max((int(r[1]) for r in rows), default=0)
        rare = tuple(_text(r[0]) for r in rows if int(r[1]) * RARE < most)
        # a value no citation can name is never offered as a member (nor accepted in a filter)
        members = [v for v in values if citable(v)]
        if len(values) <= MAX_MEMBERS and info.qualified in wanted:
            old = governance.get(info.qualified) or DimensionGovernance()
            governance[info.qualified] = old.model_copy(update={"members": members})
        else:
            index[info.qualified] = MemberList(tuple(members[:INDEX_BOUND]),
                                               len(values) <= INDEX_BOUND,
                                               tuple(v for v in rare if citable(v)),
                                               _with_facts(model, info, members, run, dialect))
    for qualified, names in _named(model, run, dialect).items():
        listed = index.get(qualified)
        index[qualified] = replace(listed, named=names) if listed is not None else \
            MemberList((), True, named=names)
    through = [c.through for c in coverage.values()]
    as_of = model.as_of
    if as_of == dt.date.max and through:
        as_of = max(through)
    return replace(model, coverage_by_model=coverage, dimension_governance=governance,
                   as_of=as_of, member_index=index, spine_coverage=spine)


def _with_facts(model: SemanticModelFile, info: Any, members: list[str], run: Run, dialect: str
                ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(fact model, values its rows reach) of a dimension one entity away from the facts
    (`origin_airport__airport_name`: the airports whose key some flight holds), kept for the
    fact models that reach fewer values than the table holds; () for any other dimension."""
    from sqlglot import exp

    from showwork.semantic_layer.sql import qualify

    entity, _, _ = info.qualified.partition("__")
    owner = model.models_by_name[info.owner]
    key = owner.entity(entity) if "__" in info.qualified else None
    if key is None or not key.joinable:
        return ()
    out = []
    for sm in model.semantic_models:
        held = sm.entity(entity) if sm.measures and sm.name != owner.name else None
        if held is None:
            continue
        value = qualify(info.dimension.expr, owner.table)
        reached = exp.select(qualify(held.expr, sm.table)).from_(_table(sm))
        sql = (exp.select(exp.alias_(value, "v")).distinct().from_(_table(owner))
               .where(exp.and_(exp.not_(value.copy().is_(exp.null())),
                               qualify(key.expr, owner.table).isin(query=reached)))
               .order_by(exp.column("v")).limit(INDEX_BOUND + 1).sql(dialect))
        found = {_text(r[0]) for r in run(sql)}
        kept = tuple(v for v in members if v in found)
        if len(kept) < len(members):
            out.append((sm.name, kept))
    return tuple(out)


def _named(model: SemanticModelFile, run: Run, dialect: str
           ) -> dict[str, tuple[tuple[str, tuple[tuple[str, str], ...]], ...]]:
    """Qualified dimension → (qualified name dimension, (member, name)) of each categorical
    dimension of a fact model whose column is also the expr of an entity that another model
    keys (flights' `origin` is the entity origin_airport, keyed by airports.faa): each member's
    name in every categorical dimension of that model, where each member has exactly one."""
    from sqlglot import exp

    from showwork.semantic_layer.sql import qualify

    out: dict[str, tuple[tuple[str, tuple[tuple[str, str], ...]], ...]] = {}
    for info in model.dimensions.values():
        sm = model.models_by_name[info.owner]
        if not sm.measures or info.dimension.type.lower() != "categorical":
            continue
        for entity in sm.entities:
            owner = next((o for o in model.semantic_models if o.name != sm.name
                          and (k := o.entity(entity.name)) is not None and k.joinable), None)
            if owner is None or entity.expr.strip().lower() != info.dimension.expr.strip().lower():
                continue
            key = owner.entity(entity.name)
            assert key is not None
            found = []
            for name in model.dimensions.values():
                if name.owner != owner.name or not name.qualified.startswith(f"{entity.name}__") \
                        or name.dimension.type.lower() != "categorical":
                    continue
                code = qualify(key.expr, owner.table)
                value = qualify(name.dimension.expr, owner.table)
                sql = (exp.select(exp.alias_(code, "k"), exp.alias_(value, "v")).distinct()
                       .from_(_table(owner)).where(code.copy().isin(
                           query=exp.select(qualify(entity.expr, sm.table)).from_(_table(sm))))
                       .limit(INDEX_BOUND + 1).sql(dialect))
                rows = [(_text(a), _text(b)) for a, b in run(sql) if a is not None and b is not None]
                # a name: one per member and no two alike (a time zone holds many airports)
                if rows and len({a for a, _ in rows}) == len({b for _, b in rows}) == len(rows) \
                        <= INDEX_BOUND:
                    found.append((name.qualified, tuple(sorted(rows))))
            if found:
                out[info.qualified] = tuple(found)
    return out


def _time_coverage(sm: SemanticModel, time: Dimension, run: Run, dialect: str
                   ) -> Coverage | None:
    """The first and last day of a semantic model's time dimension, from its values as the
    warehouse holds them: a date or timestamp; an integer year or a text date (`2024`,
    `2024-03`, `2024-03-05`, as dbt projects store them) as the days it spans. None when the
    values are neither (the layer refuses a query reading that time, naming the column); a
    ModelError naming the file, model, dimension and column when the warehouse cannot read them
    at all (never the engine's bare cast error)."""
    from sqlglot import exp

    from showwork.semantic_layer.sql import qualify

    value = qualify(time.expr, sm.table)
    sql = exp.select(exp.Min(this=value), exp.Max(this=value.copy())).from_(_table(sm)).sql(dialect)
    where = (f"{sm.origin}: semantic model {sm.name!r}, time dimension {time.name!r} "
             f"(expr {time.expr!r} of table {sm.table!r})")
    try:
        ((lo, hi),) = run(sql)
    except Exception as exc:  # noqa: BLE001 - any engine's error, named where it comes from
        raise ModelError([f"{where}: its first and last day could not be read: "
                          f"{' '.join(str(exc).split())[:300]}"]) from exc
    if lo is None:
        return None
    first, last = _day_bounds(lo), _day_bounds(hi)
    if first is None or last is None:
        import structlog  # here: a warm start infers nothing and loads no logging

        structlog.get_logger(__name__).warning(
            "coverage unknown", detail=f"{where}: values such as {lo!r} are neither dates nor "
            "years; a query reading its time is refused")
        return None
    return Coverage(first[0], last[1])


def _day_bounds(v: Any) -> tuple[dt.date, dt.date] | None:
    """(first, last day) a stored time value spans: a date, a timestamp's day, an integer year
    or a year's text, a month's text (YYYY-MM), an ISO date's text; None for anything else."""
    if isinstance(v, dt.datetime):
        return v.date(), v.date()
    if isinstance(v, dt.date):
        return v, v
    text = str(v).strip()
    if isinstance(v, int | float) and not isinstance(v, bool) and float(v).is_integer():
        text = str(int(v))
    try:
        if len(text) == 4 and text.isdigit():
            return dt.date(int(text), 1, 1), dt.date(int(text), 12, 31)
        if len(text) == 7 and text[4] == "-":
            first = dt.date(int(text[:4]), int(text[5:]), 1)
            return first, (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - \
                dt.timedelta(days=1)
        day = dt.date.fromisoformat(text[:10])
    except ValueError:
        return None
    return day, day


def _spine_coverage(model: SemanticModelFile, run: Run, dialect: str) -> Coverage | None:
    """The first and last day of the day-grain time spine; None without one, or when the
    warehouse lacks its table (a query then names it, as MetricFlow's own would fail)."""
    from sqlglot import exp

    spine = next((s for s in model.time_spines if s.grain == "day"), None)
    if spine is None:
        return None
    day = exp.cast(exp.column(spine.column), "DATE")
    sql = exp.select(exp.Min(this=day), exp.Max(this=day.copy())).from_(_table(spine)).sql(dialect)
    try:
        ((lo, hi),) = run(sql)
    except Exception:  # noqa: BLE001 - a missing spine table: the spine is not known
        return None
    return Coverage(_date(lo), _date(hi)) if lo is not None else None


def infer_from_engine(model: SemanticModelFile, engine: Engine,
                      limits: Limits | None = None) -> SemanticModelFile:
    """`infer` over any engine, in its dialect."""
    if not needs_inference(model):
        return model
    bound = limits or Limits()
    return infer(model, lambda sql: engine.run(sql, bound), engine.dialect)


def infer_from_duckdb(model: SemanticModelFile, database: Path) -> SemanticModelFile:
    if not needs_inference(model):
        return model
    from showwork.semantic_layer.engines.duckdb import DuckDBEngine

    engine = DuckDBEngine(database, Limits())
    try:
        return infer_from_engine(model, engine)
    finally:
        engine.close()


def _table(sm: Any) -> exp.Table:
    from sqlglot import exp

    return exp.to_table(f"{sm.schema}.{sm.table}" if sm.schema and sm.schema != "main" else sm.table)


def _date(v: Any) -> dt.date:
    if isinstance(v, dt.datetime):
        return v.date()
    if isinstance(v, dt.date):
        return v
    return dt.date.fromisoformat(str(v)[:10])


def _text(v: Any) -> str:
    return member_text(v)
