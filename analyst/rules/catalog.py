"""What the rules analyst looks up in the catalog: dimensions a metric supports, coverage, the
ratio a composition names, how a metric splits across members. No demo words: everything comes
from the plain catalog dict (`semantic_layer.catalog.build_catalog`)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from showwork.semantic_layer.windows import Window

MAX_DRILL_MEMBERS = 12
"""A dimension is drilled into when its members are a closed list this small."""
_DIVISION = re.compile(r"\s*([A-Za-z_]\w*)\s*/\s*([A-Za-z_]\w*)\s*")


def info(catalog: dict[str, Any], metric: str) -> dict[str, Any]:
    return (catalog.get("metrics") or {}).get(metric) or {}


def label(catalog: dict[str, Any], metric: str) -> str:
    return info(catalog, metric).get("label") or metric.replace("_", " ")


def fraction(catalog: dict[str, Any], metric: str) -> bool:
    return info(catalog, metric).get("unit") == "fraction"


def supports(catalog: dict[str, Any], metrics: list[str], dimension: str) -> bool:
    """Every metric (of those the catalog knows) can be split or filtered by the dimension."""
    known = [info(catalog, m) for m in metrics if info(catalog, m)]
    return all(dimension in (m.get("dimensions") or ()) for m in known)


def same_attribute(catalog: dict[str, Any], a: str, b: str) -> bool:
    """Two dimensions that name one attribute reached by different joins ('store' and
    'order__store__store_name'): one's qualified name ends with the other's."""
    qa, qb = (_qualified(catalog, d) for d in (a, b))
    return qa != qb and (qa.endswith(f"__{qb}") or qb.endswith(f"__{qa}"))


def _qualified(catalog: dict[str, Any], dim: str) -> str:
    return ((catalog.get("dimensions") or {}).get(dim) or {}).get("qualified") or dim


def ratio_of(catalog: dict[str, Any], numerator: str, denominator: str) -> str | None:
    """The governed metric defined as numerator / denominator, if any ('active days per active
    user' is days_per_user)."""
    for name in catalog.get("metrics") or {}:
        if division(catalog, name) == (numerator, denominator):
            return name
    return None


def division(catalog: dict[str, Any], metric: str) -> tuple[str, str] | None:
    """(numerator, denominator) of a ratio metric, or of a derived one written `a / b`."""
    formula = info(catalog, metric).get("formula") or {}
    if formula.get("op") == "divide":
        return formula["numerator"], formula["denominator"]
    m = _DIVISION.fullmatch(formula.get("expr") or "") if formula.get("op") == "expr" else None
    return (m.group(1), m.group(2)) if m else None


def weight_of(catalog: dict[str, Any], metric: str, edge: dict[str, Any] | None) -> str | None:
    """What a metric's members are weighted by when its change is split into mix and rate: a
    ratio's denominator, else (a level that does not add up across members) the tree edge's
    count factor. None when the metric adds up across members (each member's delta is its part).
    """
    ratio = division(catalog, metric)
    if ratio is not None:
        return ratio[1]
    if info(catalog, metric).get("type") in ("simple", "cumulative", None):
        return None
    factors = (edge or {}).get("factors") or []
    return next((f for f in factors if f != metric and info(catalog, f).get("type") == "simple"),
                None)


def drill_dimensions(catalog: dict[str, Any], metrics: list[str], skip: set[str]) -> list[str]:
    """Dimensions every metric supports whose members are a small closed list, without
    dimensions in `skip` (already filtered) or another path to one of them."""
    out: list[str] = []
    for name, dim in (catalog.get("dimensions") or {}).items():
        members = dim.get("members") or []
        if not 2 <= len(members) <= MAX_DRILL_MEMBERS or name in skip:
            continue
        if not supports(catalog, metrics, name):
            continue
        if any(same_attribute(catalog, name, other) for other in [*skip, *out]):
            continue
        out.append(name)
    return out


def coverage(catalog: dict[str, Any], metrics: list[str]) -> Window | None:
    """The range every metric's data covers (None when the catalog does not say)."""
    spans = [info(catalog, m).get("coverage") or {} for m in metrics]
    if not spans or any(not s.get("start") or not s.get("end") for s in spans):
        return None
    start = max(dt.date.fromisoformat(s["start"]) for s in spans)
    end = min(dt.date.fromisoformat(s["end"]) for s in spans)
    return Window(start, end) if start <= end else None


def finest_grain(catalog: dict[str, Any], metrics: list[str]) -> str | None:
    """The finest grain every metric offers, when none offers days (weekly-only metrics)."""
    order = ("day", "week", "month", "quarter", "year")
    offered = [set(info(catalog, m).get("grains") or order) for m in metrics]
    common = set.intersection(*offered) if offered else set(order)
    finest = next((g for g in order if g in common), None)
    return None if finest == "day" else finest


def point_in_time(catalog: dict[str, Any], metric: str) -> bool:
    return bool(info(catalog, metric).get("point_in_time"))
