"""The catalog `audit_answer` takes: `build_catalog`'s plain dict, or any part of it.

Every key is optional; what is left out gets a neutral default (no synonyms, no tree, no
metadata), so a partial catalog audits what it can: metric names and synonyms enable
`mislabelled_metric`, `previous_names` enable `superseded_metric`, `point_in_time` enables
`point_in_time_as_period`, ratio `formula`s license compositions, and `tree` edges make
`tree:` statements resolve. Keys the audit does not read are kept as given.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from showwork._at import At, kind_of

METRIC_DEFAULTS: dict[str, Any] = {
    "synonyms": [], "description": "", "type": "simple", "grains": [], "dimensions": [],
    "point_in_time": False, "coverage": None, "version": None, "previous_names": [],
    "owner": None, "unit": None, "formula": None, "additive": False,
}
"""A metric's keys in `build_catalog`'s catalog, besides `label` (default: the name, spaced)."""
LISTS = ("synonyms", "grains", "dimensions", "previous_names")


def normalize(catalog: Any) -> dict[str, Any]:
    """A complete catalog from a whole or partial one; AuditInputError naming a bad key."""
    at = At("catalog")
    if not isinstance(catalog, Mapping):
        raise at.error(f"is {kind_of(catalog)}, expected a dict like build_catalog's")
    metrics = _named(catalog.get("metrics"), at.attr("metrics"), _metric)
    return {**catalog, "model_version": str(catalog.get("model_version") or ""),
            "as_of": catalog.get("as_of"), "grains": list(catalog.get("grains") or []),
            "metrics": metrics,
            "dimensions": _named(catalog.get("dimensions"), at.attr("dimensions"), _dimension),
            "tree": _tree(catalog.get("tree"), at.attr("tree"))}


def with_metrics(catalog: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """The catalog, plus a default entry for each metric the results carry that it lacks."""
    at = At("catalog").attr("metrics")
    missing = {n: _metric(n, None, at.key(n)) for n in names if n not in catalog["metrics"]}
    return {**catalog, "metrics": {**catalog["metrics"], **missing}} if missing else catalog


def _named(raw: Any, at: At, one: Any) -> dict[str, Any]:
    """name → entry, from a mapping or a plain list of names."""
    if raw is None:
        return {}
    if isinstance(raw, list) and all(isinstance(n, str) for n in raw):
        raw = dict.fromkeys(raw)
    if not isinstance(raw, Mapping):
        raise at.error(f"is {kind_of(raw)}; give a mapping of name to entry, or a list of names")
    return {str(name): one(name, entry, at.key(name)) for name, entry in raw.items()}


def _metric(name: str, entry: Any, at: At) -> dict[str, Any]:
    entry = _entry(entry, at)
    out = {"label": name.replace("_", " "), **copy.deepcopy(METRIC_DEFAULTS), **entry}
    for key in LISTS:
        if not isinstance(out[key], list) or not all(isinstance(v, str) for v in out[key]):
            raise at.error(f"{key} is {kind_of(out[key])}, expected a list of names", key)
    if not isinstance(out["label"], str):
        raise at.error(f"label is {kind_of(out['label'])}, expected a string", "label")
    _formula(out["formula"], at.attr("formula"))
    out["point_in_time"] = bool(out["point_in_time"])
    return out


def _formula(raw: Any, at: At) -> None:
    if raw is None:
        return
    if not isinstance(raw, Mapping):
        raise at.error(f"is {kind_of(raw)}, expected null or an object with op")
    if raw.get("op") == "divide" and not all(isinstance(raw.get(k), str)
                                             for k in ("numerator", "denominator")):
        raise at.error("a divide formula names its numerator and denominator metrics")


def _dimension(name: str, entry: Any, at: At) -> dict[str, Any]:
    entry = _entry(entry, at)
    out = {"label": name.replace("_", " "), "members": [], "pattern": None, **entry}
    members = out["members"]
    if members is not None and (not isinstance(members, list)
                                or not all(isinstance(v, str) for v in members)):
        raise at.error(f"members is {kind_of(members)}, expected a list of strings or null "
                       "(an open list, e.g. months)", "members")
    return out


def _entry(entry: Any, at: At) -> dict[str, Any]:
    if entry is None:
        return {}
    if not isinstance(entry, Mapping):
        raise at.error(f"is {kind_of(entry)}, expected an object (or null for the defaults)")
    return dict(entry)


def _tree(raw: Any, at: At) -> dict[str, list[dict[str, Any]]]:
    if raw is None:
        return {"exact": [], "influence": []}
    if not isinstance(raw, Mapping):
        raise at.error(f"is {kind_of(raw)}, expected {{'exact': [...], 'influence': [...]}}")
    exact = _edges(raw.get("exact"), at.attr("exact"), {"parent": str, "factors": list})
    influence = _edges(raw.get("influence"), at.attr("influence"),
                       {"source": str, "target": str})
    return {**raw, "exact": exact, "influence": influence}


def _edges(raw: Any, at: At, needs: dict[str, type]) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise at.error(f"is {kind_of(raw)}, expected a list of edges")
    for i, edge in enumerate(raw):
        bad = [k for k, t in needs.items()
               if not isinstance(edge, Mapping) or not isinstance(edge.get(k), t)]
        if bad:
            raise at.key(i).error(f"an edge needs {', '.join(needs)}; {bad[0]} is missing or "
                                  "of the wrong type", bad[0])
    return [dict(e) for e in raw]
