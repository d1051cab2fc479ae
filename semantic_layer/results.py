"""Typed results of governed calls: the fields claims cite.

A plain query row has the field `value` per metric, and `share_of_total` (a fraction) when the
query asked for shares (shares.py); a comparison row has `value`, `previous`, `delta` and
`pct_change` (percent units), and the factors of an exact tree edge also `contribution`
(parent's units) and `share` (percent of the parent's delta). Rates and ratios are fractions.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

QUERY_FIELDS = ("value",)
SHARED_FIELDS = (*QUERY_FIELDS, "share_of_total")
"""A query that asked for each row's share of the total (shares.py)."""
COMPARE_FIELDS = ("value", "previous", "delta", "pct_change")
ATTRIBUTED_FIELDS = (*COMPARE_FIELDS, "contribution", "share")
"""A factor of an exact tree edge in a comparison that holds the edge whole (attribution.py)."""

Number = int | float | None
MAX_MEMBER = 200


def member_text(v: Any) -> str:
    """A member as rows and filters name it: dates in ISO form, null as the empty string.

    >>> member_text(dt.datetime(2026, 3, 9, 12)), member_text(None), member_text(True)
    ('2026-03-09', '', 'true')
    """
    if isinstance(v, dt.datetime):
        return v.date().isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, bool):
        return "true" if v else "false"
    return "" if v is None else str(v)


def citable(member: object) -> bool:
    """A member a citation can name: printable text (quoted when it has spaces or punctuation).

    >>> citable("nutellaphone who dis?"), citable("a\\nb")
    (True, False)
    """
    text = member if isinstance(member, str) else member_text(member)
    return 0 < len(text) <= MAX_MEMBER and text.isprintable()


@dataclass(frozen=True)
class Row:
    """One row of a result: its selector keys and the fields of each metric."""

    key: dict[str, str]
    """Selector key → member (dimension members; grain periods as ISO start dates)."""
    values: dict[str, dict[str, Number]]
    """Metric → field → value."""
    partial: bool = False
    """The row's period is not wholly covered by data."""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "values": self.values, "partial": self.partial}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Row:
        return cls(dict(d["key"]), {m: dict(f) for m, f in d["values"].items()},
                   bool(d.get("partial", False)))


@dataclass(frozen=True)
class Result:
    """A governed call's typed result, with what it covers and how it was computed."""

    kind: str
    """query or compare"""
    metrics: tuple[str, ...]
    """Current names of the metrics, in the order asked."""
    keys: tuple[str, ...]
    """Row selector keys (dimensions, or the grain name)."""
    rows: tuple[Row, ...]
    coverage: tuple[dict[str, Any], ...]
    """Per window: requested, covered, partial (query: one; compare: current, previous)."""
    sql: str
    model_version: str
    point_in_time: tuple[str, ...] = ()
    """Metrics whose values are taken at the end of the window or period."""
    renamed: dict[str, str] = field(default_factory=dict)
    """Previous metric name asked → current name."""
    grain: str | None = None
    widened: dict[str, Any] | None = None
    """When the window was widened to whole periods: {"requested": …, "window": …}."""
    totals: dict[str, Any] | None = None
    """A query with shares: the total each row was divided by ({"sql", "keys", "rows"})."""
    notes: tuple[str, ...] = ()
    """Why the result has no rows, or none for a member asked: a window no day of which is read,
    a member outside a dimension's closed list. Only a caller answering as MetricFlow does
    (SemanticLayer.call's refuse_empty=False: `semantic query`, the public API) gets such a
    result; the analyst's tool refuses the call instead."""
    partial: bool = field(init=False, default=False)
    """Some window or row is not wholly covered by data."""
    _by_key: dict[tuple, list[Row]] = field(init=False, repr=False, compare=False,
                                            default_factory=dict)
    """Rows by their full selector key, filled on the first full-key look-up."""

    def __post_init__(self) -> None:
        # loops, not any(generator): every stored result a re-audit cites is built here
        partial = False
        for c in self.coverage:
            if c["partial"]:
                partial = True
                break
        else:
            for r in self.rows:
                if r.partial:
                    partial = True
                    break
        object.__setattr__(self, "partial", partial)
        object.__setattr__(self, "_by_key", {})

    @property
    def fields(self) -> tuple[str, ...]:
        """Every field some metric of this result has."""
        if self.kind != "compare":
            shared = any("share_of_total" in f for r in self.rows[:1] for f in r.values.values())
            return SHARED_FIELDS if shared else QUERY_FIELDS
        attributed = any("contribution" in f for r in self.rows[:1] for f in r.values.values())
        return ATTRIBUTED_FIELDS if attributed else COMPARE_FIELDS

    def fields_of(self, metric: str) -> tuple[str, ...]:
        """The fields this metric has here (contribution and share only on attributed factors,
        share_of_total only in a query that asked for shares)."""
        first = self.rows[0].values.get(metric, {}) if self.rows else {}
        if self.kind != "compare":
            return SHARED_FIELDS if "share_of_total" in first else QUERY_FIELDS
        return ATTRIBUTED_FIELDS if "contribution" in first else COMPARE_FIELDS

    def find_rows(self, selector: dict[str, str]) -> list[Row]:
        if not selector:
            return list(self.rows)
        keys = self.keys
        if len(selector) == len(keys):
            by_key = self._by_key
            if not by_key:  # built once per result: a re-audit builds each cited result anew
                if len(keys) == 1:  # most results: one dimension or grain
                    k = keys[0]
                    for r in self.rows:
                        by_key.setdefault((r.key.get(k),), []).append(r)
                else:
                    for r in self.rows:
                        by_key.setdefault(tuple([r.key.get(k) for k in keys]), []).append(r)
            return by_key.get(tuple([selector.get(k) for k in keys]), [])
        return [r for r in self.rows if all(r.key.get(k) == v for k, v in selector.items())]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "metrics": list(self.metrics), "keys": list(self.keys),
            "grain": self.grain, "rows": [r.to_json() for r in self.rows],
            "coverage": list(self.coverage), "partial": self.partial, "sql": self.sql,
            "model_version": self.model_version, "point_in_time": list(self.point_in_time),
            "renamed": self.renamed,
            **({"widened": self.widened} if self.widened else {}),
            **({"totals": self.totals} if self.totals is not None else {}),
            **({"notes": list(self.notes)} if self.notes else {}),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Result:
        return cls(
            kind=d["kind"], metrics=tuple(d["metrics"]), keys=tuple(d["keys"]),
            rows=tuple(Row.from_json(r) for r in d["rows"]), coverage=tuple(d["coverage"]),
            sql=d["sql"], model_version=d["model_version"],
            point_in_time=tuple(d.get("point_in_time", ())), renamed=dict(d.get("renamed", {})),
            grain=d.get("grain"), widened=d.get("widened"), totals=d.get("totals"),
            notes=tuple(d.get("notes", ())))
