"""How a governed call's rows become a typed Result.

Everything that depends only on the validated plan and its SQL (column positions, the fields
every result of the call shares, whether a period is wholly covered) is worked out once per
plan, so typing a call asked again costs little more than reading its fresh rows.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from showwork.semantic_layer.attribution import attribute
from showwork.semantic_layer.results import Number, Result, Row, member_text
from showwork.semantic_layer.windows import Window, period_end

if TYPE_CHECKING:  # a Reading read back from the project cache types rows with neither loaded
    from showwork.semantic_layer.compile import Compiled
    from showwork.semantic_layer.validate import Plan


class Reading:
    """The typing of one compiled plan's rows; `result(rows)` for each run of its SQL.

    Nothing here depends on the data: the rows are read afresh on every call."""

    def __init__(self, plan: Plan, compiled: Compiled, model_version: str,
                 point_in_time: tuple[str, ...], exact_edges: list[dict[str, Any]]) -> None:
        from showwork.semantic_layer.compile import BUCKET  # compiling loaded it; reading back need not

        self.plan, self.sql, self.exact_edges = plan, compiled.sql, exact_edges
        position = {c: i for i, c in enumerate((*compiled.keys, *plan.metrics))}
        self.dims = tuple((d, position[d]) for d in plan.group_by)
        """(dimension, column) of each key dimension."""
        self.values = tuple((m, position[m]) for m in plan.metrics)
        """(metric, column) of each metric."""
        self.bucket = position.get(BUCKET) if compiled.bucketed else None
        """The column of the period (query) or of current (TRUE) / previous (compare), if any."""
        self.keys = tuple(plan.group_by) if plan.kind == "compare" else (
            ((plan.grain,) if self.bucket is not None and plan.grain else ()) + tuple(plan.group_by))
        self.shared: dict[str, Any] = {
            "kind": plan.kind, "metrics": plan.metrics, "sql": compiled.sql,
            "model_version": model_version, "point_in_time": point_in_time,
            "renamed": plan.renamed, "grain": plan.grain, "notes": plan.notes}
        """Result fields every run of the call has (coverage is added fresh per result)."""
        self._partial: dict[dt.date, bool] = {}
        """Period start → the period is not wholly covered (the plan's coverage decides)."""

    def result(self, rows: Sequence[tuple[Any, ...]]) -> Result:
        plan = self.plan
        common = dict(self.shared, coverage=tuple(c.to_json() for c in plan.coverage))
        if plan.requested is not None:
            common["widened"] = {"requested": plan.requested.to_json(),
                                 "window": plan.windows[0].to_json(),
                                 "note": f"widened to whole {plan.grain}s, as MetricFlow does"}
        if plan.kind == "compare":
            typed = attribute(self._compare_rows(rows), plan.metrics, self.exact_edges)
        else:
            typed = tuple(self._query_row(r) for r in rows)
        return Result(keys=self.keys, rows=typed, **common)

    def _query_row(self, raw: tuple[Any, ...]) -> Row:
        key = {d: member_text(raw[i]) for d, i in self.dims}
        partial = False
        if self.bucket is not None and self.plan.grain:
            start = _day(raw[self.bucket])
            # rows whose time is null group under an empty period (no window asked)
            partial = start is not None and self._partial_period(start)
            key = {self.plan.grain: start.isoformat() if start is not None else "", **key}
        return Row(key, {m: {"value": _number(raw[i])} for m, i in self.values}, partial)

    def _partial_period(self, start: dt.date) -> bool:
        found = self._partial.get(start)
        if found is None:
            grain, covered = self.plan.grain, self.plan.coverage[0].covered
            assert grain is not None
            period = Window(start, period_end(start, grain))
            found = self._partial[start] = covered is None or not covered.covers(period)
        return found

    def _compare_rows(self, rows: Sequence[tuple[Any, ...]]) -> tuple[Row, ...]:
        assert self.bucket is not None
        by_key: dict[tuple[str, ...], dict[bool, tuple[Any, ...]]] = {}
        for raw in rows:
            key = tuple(member_text(raw[i]) for _, i in self.dims)
            by_key.setdefault(key, {})[raw[self.bucket]] = raw
        out = []
        for key in sorted(by_key):
            current, previous = by_key[key].get(True), by_key[key].get(False)
            values = {m: _fields(current[i] if current else None,
                                 previous[i] if previous else None) for m, i in self.values}
            out.append(Row(dict(zip(self.plan.group_by, key, strict=True)), values))
        return tuple(out)


def _day(value: Any) -> dt.date:
    """A period start as the engine returns it (a date, a timestamp or ISO text) as a date."""
    if isinstance(value, dt.datetime):
        return value.date()
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def _number(v: Any) -> Number:
    if v is None:
        return None
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, bool):
        return int(v)
    return v if isinstance(v, int | float) else float(v)


def _fields(current: Any, previous: Any) -> dict[str, Number]:
    cur, prev = _number(current), _number(previous)
    delta = cur - prev if cur is not None and prev is not None else None
    pct = delta / prev * 100 if delta is not None and prev else None
    return {"value": cur, "previous": prev, "delta": delta, "pct_change": pct}
