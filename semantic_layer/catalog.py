"""The catalog: a plain description of what can be asked, for prompts, audit and people."""

from __future__ import annotations

import datetime as dt
from typing import Any

from showwork.semantic_layer.model import Metric, SemanticModelFile


def build_catalog(model: SemanticModelFile) -> dict[str, Any]:
    """A JSON-ready snapshot of the model: metrics, dimensions, grains, tree, coverage."""
    metrics = {}
    for m in model.metrics:
        start, through = model.coverage(m.name)
        metrics[m.name] = {
            "label": m.label, "synonyms": list(m.synonyms), "description": m.description,
            "type": m.type, "grains": list(model.allowed_grains(m.name)),
            "dimensions": model.supported_dimensions(m.name),
            "point_in_time": model.point_in_time(m.name),
            "coverage": {"start": _day(start), "end": _day(through)},
            "version": m.version, "previous_names": list(m.previous_names), "owner": m.owner,
            "unit": m.unit, "formula": _formula(m), "additive": model.additive(m.name),
        }
        if m.draft:  # only then: a reviewed model's catalog (and its digest) is unchanged
            metrics[m.name]["draft"] = m.draft
        if m.unit is None:  # only then: a governed unit says it (and the digest is unchanged)
            counted = model.counts(m.name)
            if counted is not None:
                metrics[m.name]["counts"] = counted
            currency = model.currency(m.name)
            if currency:  # '€831.6' of a sum of 'amount_usd' states no value of it
                metrics[m.name]["currency"] = currency
        if m.polarity:  # likewise: a model without the key keeps its catalog and digest
            metrics[m.name]["polarity"] = m.polarity
    dims: dict[str, dict[str, Any]] = {}
    from showwork.semantic_layer.infer import member_index  # infer loads sqlglot: not at import

    index = member_index(model)
    public = {d.qualified: n for n, d in model.dimensions.items()}
    for name, d in model.dimensions.items():
        dims[name] = {"label": d.label, "members": list(d.members) if d.members is not None else None,
                      "pattern": d.pattern}
        if d.qualified != name:
            dims[name]["qualified"] = d.qualified
        if d.synonyms:
            dims[name]["synonyms"] = list(d.synonyms)
        if d.member_synonyms:
            dims[name]["member_synonyms"] = dict(d.member_synonyms)
        found = index.get(d.qualified)
        named = {public[q]: dict(rows) for q, rows in getattr(found, "named", ()) if q in public}
        if named:  # 'JFK' for a metric read only by the airport's name
            dims[name]["named_by"] = named
        if found is not None and d.members is None:
            # the data's own values of an open dimension: the reader matches members in them
            dims[name]["values"] = list(found.values)
            dims[name]["values_complete"] = found.complete
            rare = getattr(found, "rare", ())  # a model cached before counts were kept
            if rare:
                dims[name]["values_rare"] = list(rare)
            facts = _with_facts(model, name, dict(getattr(found, "with_facts", ())))
            if facts:
                dims[name]["with_facts"] = facts
    tree = {
        "exact": [e.model_dump() for e in model.metric_tree.exact],
        "influence": [i.model_dump() for i in model.metric_tree.influence],
    }
    out = {"model_version": model.version, "as_of": _day(model.as_of),
           "grains": list(model.grains), "metrics": metrics, "dimensions": dims, "tree": tree}
    if model.name:  # 'the shop': the business itself, never one store
        out["project"] = model.name
    entities = _entities(model)
    if entities:  # 'by order id': a breakdown by an entity's key, its members labels
        out["entities"] = entities
    return out


def _entities(model: SemanticModelFile) -> dict[str, dict[str, Any]]:
    """Each entity keyed by one column, and the metrics whose every source holds it (a query
    may group them by it): {"order": {"column": "order_id", "metrics": [...]}}."""
    import re

    columns: dict[str, set[str]] = {}
    for sm in model.semantic_models:
        for e in sm.entities:
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", e.expr.strip()):
                columns.setdefault(e.name, set()).add(e.expr.strip().lower())
    out: dict[str, dict[str, Any]] = {}
    for name, cols in sorted(columns.items()):
        held = [m.name for m in model.metrics if (bases := model.base_models(m.name))
                and all(sm.entity(name) is not None for sm in bases)]
        if len(cols) == 1 and held and name not in model.dimensions:  # else 'store' is a name
            out[name] = {"column": next(iter(cols)), "metrics": held}
    return out


def _with_facts(model: SemanticModelFile, dimension: str, reached: dict[str, tuple[str, ...]]
                ) -> list[dict[str, list[str]]]:
    """The values each metric's facts reach, where fewer than the dimension's table holds:
    [{"metrics": [...], "values": [...]}], one entry per set of values."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for m in model.metrics:
        names = [sm.name for sm in model.base_models(m.name)]
        if not reached or dimension not in model.supported_dimensions(m.name) \
                or not all(n in reached for n in names):
            continue
        values = tuple(sorted({v for n in names for v in reached[n]}))
        groups.setdefault(values, []).append(m.name)
    return [{"metrics": ms, "values": list(vs)} for vs, ms in groups.items()]


def _day(day: dt.date) -> str | None:
    return None if day in (dt.date.min, dt.date.max) else day.isoformat()


def _formula(m: Metric) -> dict[str, Any] | None:
    if m.type == "ratio":
        assert m.numerator and m.denominator
        return {"op": "divide", "numerator": m.numerator.name, "denominator": m.denominator.name}
    if m.type == "derived":
        return {"op": "expr", "expr": m.expr, "metrics": [i.name for i in m.inputs]}
    if m.type == "conversion" and m.conversion:
        c = m.conversion
        return {"op": c.calculation, "base_measure": c.base_measure,
                "conversion_measure": c.conversion_measure, "entity": c.entity,
                "window": str(c.window) if c.window else None,
                "constant_properties": [list(p) for p in c.constant_properties]}
    if m.type == "cumulative":
        return {"op": "cumulative", "measure": m.measure,
                "window": str(m.window) if m.window else None, "grain_to_date": m.grain_to_date}
    return None
