"""Joins as MetricFlow makes them: from a measure's semantic model along entities.

A dimension is named by its entity path and its name: `customer__country` is the dimension
`country` of the semantic model that has `customer` as its primary (or unique, or natural) entity,
reached from the measure's model through its own `customer` entity; `customer__country__region`
goes one hop further. A dimension of the measure's own model is named by that model's primary
entity (`transaction__is_large`). Every join is a LEFT join on a key that matches at most one
row, so a fact row never multiplies and never disappears (an unmatched key groups under null).
"""

from __future__ import annotations

from dataclasses import dataclass

from showwork.semantic_layer.dateparts import EXTRACT, date_part_of, part_allowed
from showwork.semantic_layer.errors import AmbiguousDimension, UnsupportedDimension
from showwork.semantic_layer.model import GRAINS, Dimension, Entity, SemanticModel, SemanticModelFile

METRIC_TIME = "metric_time"
MAX_HOPS = 2
"""Longest entity path accepted in a name: MetricFlow's own limit (it refuses a dimension three
joins away), which the catalog lists too."""


@dataclass(frozen=True)
class Hop:
    """One LEFT join: from `source` on its entity to `target`, where the entity is a key."""

    entity: str
    source: str
    target: str


@dataclass(frozen=True)
class DimensionRef:
    """A dimension (or entity) resolved for one measure's semantic model."""

    name: str
    """The MetricFlow name: entity path and element (user__platform)."""
    path: tuple[Hop, ...]
    """Joins from the measure's model; empty for its own columns."""
    owner: str
    """The semantic model holding the column."""
    dimension: Dimension
    """The column (for an entity reference: a categorical stand-in with the entity's expr)."""
    grain: str | None = None
    """A time dimension named with a grain suffix (metric_time__month)."""


def split_name(name: str) -> tuple[tuple[str, ...], str]:
    """(entity path, element) of a dundered name.

    >>> split_name("customer__country__region")
    (('customer', 'country'), 'region')
    """
    parts = name.split("__")
    return tuple(parts[:-1]), parts[-1]


def _where(model: SemanticModelFile, sm: SemanticModel) -> str:
    return f"semantic model {sm.name!r} ({sm.origin})"


def targets(model: SemanticModelFile, source: SemanticModel, entity: str) -> list[SemanticModel]:
    """Other semantic models `source` can join to on `entity` (where it is a key there)."""
    out = []
    for sm in model.semantic_models:
        e = sm.entity(entity)
        if sm.name != source.name and e is not None and e.joinable:
            out.append(sm)
    return out


def resolve(model: SemanticModelFile, fact: SemanticModel, name: str,
            kind: str = "dimension") -> DimensionRef:
    """Resolve a MetricFlow element name from `fact`; raise naming what is wrong and where.

    `kind` is dimension (categorical or time) or entity."""
    path, element = split_name(name)
    grain = None
    if kind == "entity":
        return _entity_ref(model, fact, name, path, element)
    if path == (METRIC_TIME,) and element in model.custom_grains:
        return _metric_time(fact, name, element)
    if element in model.custom_grains and len(path) > 1:
        # customer__signup_date__fiscal_quarter: a custom granularity of the time spine (or,
        # if that names no time dimension, a dimension of that name)
        try:
            ref = resolve(model, fact, "__".join(path))
        except UnsupportedDimension:
            ref = None
        if ref is not None and ref.dimension.type == "time" and ref.grain is None:
            return DimensionRef(name, ref.path, ref.owner, ref.dimension, element)
    part = date_part_of(element)
    if part and path:
        # metric_time__extract_dow, booking__ds__extract_year: MetricFlow's column names
        return _date_part(model, fact, name, path, part)
    if element in GRAINS and path:
        # metric_time__month, customer__signup_date__week
        grain, (path, element) = element, split_name("__".join(path))
    if not path:
        raise UnsupportedDimension(
            f"{kind.capitalize()} {name!r} has no entity prefix; name it as MetricFlow does, "
            f"entity__{element} (e.g. {fact.primary_entity or 'entity'}__{element}).")
    if len(path) > MAX_HOPS:
        raise UnsupportedDimension(f"{kind.capitalize()} {name!r} crosses {len(path)} joins; "
                                   f"at most {MAX_HOPS} are supported.")
    if repeats((*path, element)):
        raise UnsupportedDimension(_REPEATED.format(what=kind.capitalize(), name=name))
    local = len(path) == 1 and fact.primary_entity == path[0] and fact.dimension(element)
    if local:
        return DimensionRef(name, (), fact.name, fact.dimension(element), grain)  # type: ignore[arg-type]
    hops, owner = _walk(model, fact, name, path, lambda sm: sm.dimension(element) is not None,
                        f"dimension {element!r}")
    return DimensionRef(name, hops, owner.name, owner.dimension(element), grain)  # type: ignore[arg-type]


def _date_part(model: SemanticModelFile, fact: SemanticModel, name: str,
               path: tuple[str, ...], part: str) -> DimensionRef:
    """A time dimension's date part (its `grain` is `extract_<part>`), for a time whose
    granularity has it."""
    if path == (METRIC_TIME,):
        ref = _metric_time(fact, name, EXTRACT + part)
    else:
        ref = resolve(model, fact, "__".join(path))
        if ref.dimension.type != "time" or ref.grain is not None:
            raise UnsupportedDimension(f"Dimension {name!r}: a date part is read of a time "
                                       "dimension named without a grain (entity__time__extract_year).")
        ref = DimensionRef(name, ref.path, ref.owner, ref.dimension, EXTRACT + part)
    if not part_allowed(part, ref.dimension.granularity):
        raise UnsupportedDimension(f"Dimension {name!r}: the {part!r} of a time of granularity "
                                   f"{ref.dimension.granularity!r} is not defined.")
    return ref


def _metric_time(fact: SemanticModel, name: str, grain: str) -> DimensionRef:
    """metric_time at a custom granularity: the measure's own time dimension (a Scan reads the
    one of the measure it aggregates; this is the model's default)."""
    time = fact.agg_time_dimension or next((m.agg_time_dimension for m in fact.measures), None)
    dim = fact.dimension(time) if time else None
    if dim is None:
        raise UnsupportedDimension(f"Dimension {name!r}: {fact.name!r} has no time dimension.")
    return DimensionRef(name, (), fact.name, Dimension(METRIC_TIME, "time", dim.expr,
                                                         dim.granularity), grain)


def resolve_any(model: SemanticModelFile, fact: SemanticModel, name: str) -> DimensionRef:
    """A dimension, or else an entity (MetricFlow lets both group and filter)."""
    try:
        return resolve(model, fact, name)
    except AmbiguousDimension:
        raise
    except UnsupportedDimension:
        try:
            return resolve(model, fact, name, "entity")
        except UnsupportedDimension:
            pass
        raise


def repeats(parts: tuple[str, ...]) -> bool:
    """A name element repeated (policy__policy__policy_number): MetricFlow names no element
    so, blocking the join path that would (it never joins one entity twice)."""
    return len(set(parts)) != len(parts)


_REPEATED = ("{what} {name!r} repeats a name element; MetricFlow names no element so (a join "
             "path through one entity twice); name it by its shortest path.")


def _entity_ref(model: SemanticModelFile, fact: SemanticModel, name: str, path: tuple[str, ...],
                element: str) -> DimensionRef:
    path = (*path, element)
    if repeats(path):
        raise UnsupportedDimension(_REPEATED.format(what="Entity", name=name))
    if len(path) == 1 or (len(path) == 2 and path[0] == fact.primary_entity):
        e = fact.entity(path[-1])
        if e is None:
            raise UnsupportedDimension(f"Entity {name!r}: {_where(model, fact)} has no entity "
                                       f"{path[-1]!r}.")
        return DimensionRef(name, (), fact.name, _as_dimension(e))
    hops, owner = _walk(model, fact, name, path[:-1],
                        lambda sm: sm.entity(element) is not None, f"entity {element!r}")
    return DimensionRef(name, hops, owner.name, _as_dimension(owner.entity(element)))  # type: ignore[arg-type]


def _as_dimension(e: Entity) -> Dimension:
    return Dimension(name=e.name, type="categorical", expr=e.expr)


def _walk(model: SemanticModelFile, fact: SemanticModel, name: str, path: tuple[str, ...],
          has: object, what: str) -> tuple[tuple[Hop, ...], SemanticModel]:
    """Follow the entity path from `fact`; the last model must have `what`."""
    current, hops, seen = fact, [], [fact.name]
    for i, entity in enumerate(path):
        if current.entity(entity) is None:
            raise UnsupportedDimension(
                f"Dimension {name!r}: {_where(model, current)} has no entity {entity!r} to join "
                f"on; its entities: {', '.join(e.name for e in current.entities) or 'none'}.")
        found = targets(model, current, entity)
        if not found:
            raise UnsupportedDimension(
                f"Dimension {name!r}: entity {entity!r} of {_where(model, current)} joins no "
                "semantic model: none has it as a primary, unique or natural entity (a dangling "
                "entity).")
        last = i == len(path) - 1
        if last:
            found = [sm for sm in found if has(sm)]  # type: ignore[operator]
        else:
            found = [sm for sm in found if sm.entity(path[i + 1]) is not None] or found
        if not found:
            raise UnsupportedDimension(
                f"Dimension {name!r}: no semantic model joined on {entity!r} has {what}.")
        if len(found) > 1:
            raise AmbiguousDimension(
                f"Dimension {name!r} is ambiguous: entity {entity!r} joins "
                + " and ".join(_where(model, sm) for sm in found)
                + f"; both have {what}. Make the entity a key of one model only.")
        target = found[0]
        if target.name in seen:
            trail = " → ".join([*seen, target.name])
            raise UnsupportedDimension(
                f"Dimension {name!r}: the join path {trail} comes back to {target.name!r} "
                "(a cycle of joins); name a path that visits each semantic model once.")
        hops.append(Hop(entity, current.name, target.name))
        seen.append(target.name)
        current = target
    return tuple(hops), current


def reachable(model: SemanticModelFile, fact: SemanticModel,
              max_hops: int = 2) -> dict[str, DimensionRef]:
    """Every dimension name usable from `fact` (own columns, then joins up to `max_hops`),
    leaving out names more than one model could mean."""
    out: dict[str, DimensionRef] = {}
    ambiguous: set[str] = set()
    if fact.primary_entity:
        for d in fact.dimensions:
            if d.name != fact.primary_entity:
                out[f"{fact.primary_entity}__{d.name}"] = DimensionRef(
                    f"{fact.primary_entity}__{d.name}", (), fact.name, d)
    frontier: list[tuple[SemanticModel, tuple[Hop, ...]]] = [(fact, ())]
    for _ in range(max_hops):
        nxt = []
        for current, hops in frontier:
            seen = {fact.name, *(h.target for h in hops)}
            for e in current.entities:
                found = [t for t in targets(model, current, e.name) if t.name not in seen]
                for target in found:
                    path = (*hops, Hop(e.name, current.name, target.name))
                    prefix = "__".join(h.entity for h in path)
                    for d in target.dimensions:
                        name = f"{prefix}__{d.name}"
                        if repeats(tuple(name.split("__"))):
                            continue
                        if name in out and out[name].owner != target.name:
                            ambiguous.add(name)
                        out.setdefault(name, DimensionRef(name, path, target.name, d))
                    nxt.append((target, path))
        frontier = nxt
    return {k: v for k, v in out.items() if k not in ambiguous}
