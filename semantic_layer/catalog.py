"""The catalog: a plain description of what can be asked, for prompts, audit and people."""

from __future__ import annotations

from typing import Any

from semantic_layer.model import GRAINS, SemanticModelFile


def build_catalog(model: SemanticModelFile) -> dict[str, Any]:
    """A JSON-ready snapshot of the model: metrics, dimensions, grains, tree, coverage."""
    metrics = {}
    for m in model.metrics:
        start, through = model.coverage(m.name)
        metrics[m.name] = {
            "label": m.label, "synonyms": list(m.synonyms), "description": m.description,
            "type": m.type, "grains": list(m.grains),
            "dimensions": model.supported_dimensions(m.name),
            "point_in_time": model.point_in_time(m.name),
            "coverage": {"start": start.isoformat(), "end": through.isoformat()},
            "version": m.version, "previous_names": list(m.previous_names), "owner": m.owner,
            "unit": "fraction" if m.type == "ratio" and "rate" in m.name else None,
            "formula": _formula(m),
        }
    dims = {d.name: {"label": d.label or d.name.replace("_", " "), "members": d.members,
                     "pattern": d.pattern} for d in model.dimensions.values()}
    tree = {
        "exact": [e.model_dump() for e in model.metric_tree.exact],
        "influence": [i.model_dump() for i in model.metric_tree.influence],
    }
    return {"model_version": model.version, "as_of": model.as_of.isoformat(),
            "grains": list(GRAINS), "metrics": metrics, "dimensions": dims, "tree": tree}


def _formula(m) -> dict[str, Any] | None:
    p = m.type_params
    if m.type == "ratio":
        return {"op": "divide", "numerator": p.numerator, "denominator": p.denominator}
    if m.type == "derived":
        return {"op": "expr", "expr": p.expr, "metrics": list(p.metrics or [])}
    return None
