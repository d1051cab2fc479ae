"""Each row's share of the total: `query(..., group_by=[d], share=True)`.

A share is a number derived from results, so it must be a field someone can cite
(`r1[origin=EWR]:flights.share_of_total`). It is computed honestly: the member's value over the
same metric with the same filters, window, grain and aggregate but without the grouping (and
without order or limit), so a distinct count's total is the distinct count over everything,
never the sum of its members' rows. Like every rate it is a fraction (0.42). One statement
gives both (Compiler.compile_shares): where the members' rows make up the total (sums and counts
of plain scans) it is their sum over the period, a window before the order and limit; else the
total query is joined to the grouped rows by period.

A share is meaningful only for a metric whose value over a set of members is the amount those
members hold together: a simple or cumulative metric that counts or sums (count, count_distinct,
sum, sum_boolean), point in time or not (a snapshot of subscribers at the end of the window is
shared among plans). A ratio, a derived metric, an average, a median, a percentile, a min or a
max is refused: its members' values do not make up its total.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from showwork.semantic_layer.errors import InvalidArguments, NoShare, SemanticError
from showwork.semantic_layer.reading import Reading
from showwork.semantic_layer.requests import QueryArgs, parse_args
from showwork.semantic_layer.results import Number, Result, Row

if TYPE_CHECKING:
    from showwork.semantic_layer.layer import SemanticLayer
    from showwork.semantic_layer.model import SemanticModelFile

FIELD = "share_of_total"
"""The field each row's metric gets: its value over the total, a fraction."""
SHARED_AGGREGATIONS = ("sum", "count", "count_distinct", "sum_boolean")
"""Aggregations whose value over members is the amount the members hold together."""
_WHOLE_ONLY = ("share", "group_by", "order_by", "limit")
"""Arguments the total is asked without."""


def unshareable(model: SemanticModelFile, metric: str) -> str | None:
    """Why a share of the metric's total means nothing (None when it means something)."""
    m = model.metric_index[metric]
    if _plain_sum(model, metric):
        return None
    if m.type not in ("simple", "cumulative"):
        return (f"{metric} is a {m.type} metric (a rate or a combination of metrics), whose "
                "members' values do not make up its total")
    aggs = sorted({model.measures[x][1].agg for x in model.base_measures(metric)}
                  - set(SHARED_AGGREGATIONS))
    if aggs:
        return (f"{metric} is aggregated as {', '.join(aggs)}, so its members' values do not "
                "make up its total")
    return None


def _plain_sum(model: SemanticModelFile, metric: str) -> bool:
    """A derived metric that adds up metrics whose members make up their totals, none offset
    (`total_loss_amount: loss_payment_amount + loss_reserve_amount`): its members' values make
    up its total too."""
    m = model.metric_index[metric]
    refs = re.split(r"\s*\+\s*", (m.expr or "").strip())
    inputs = {i.ref: i for i in m.inputs}
    return m.type == "derived" and len(refs) > 1 and all(
        r in inputs and inputs[r].offset_window is None and inputs[r].offset_to_grain is None
        and shareable(model, inputs[r].name) for r in refs)


def shareable(model: SemanticModelFile, metric: str) -> bool:
    return unshareable(model, metric) is None


def query_with_shares(layer: SemanticLayer, raw: dict[str, Any]) -> Result:
    """The grouped query's result with `share_of_total` on every row's metrics, and the total it
    was divided by (`totals`: its SQL and rows). One statement computes both (the total's SQL,
    asked alone, is the one kept in `totals`)."""
    args = parse_args("query", raw)
    assert isinstance(args, QueryArgs)
    asked = {k: v for k, v in raw.items() if k != "share"}
    if not args.share:
        return layer.call("query", asked)
    check(layer.model, args)
    part, total = _prepared(layer, raw, asked)
    rows = layer.engine.run(part.sql, layer.limits)
    return with_shares(part.result(rows), total.result(_total_rows(part, rows)))


def _prepared(layer: SemanticLayer, raw: dict[str, Any], asked: dict[str, Any]
              ) -> tuple[Reading, Reading]:
    """(the grouped query with its totals, the total alone), prepared once per layer."""
    from showwork.semantic_layer.layer import _wire_key

    wire = _wire_key(raw)
    keys = [("shares", part, wire, layer.dialect) for part in ("grouped", "total")] if wire else []
    found = [layer._prepared.get(k) for k in keys]
    if keys and found[0] is not None and found[1] is not None:
        return found[0], found[1]
    plan = layer.plan("query", asked)
    layer._check_time(plan)
    try:
        total = layer._planned(layer.plan("query", {k: v for k, v in raw.items()
                                                    if k not in _WHOLE_ONLY}))
    except SemanticError as exc:
        raise type(exc)(f"The total for share_of_total could not be measured: {exc.message}"
                        ) from exc
    compiled = layer.compiler.compile_shares(plan, total.plan, layer.dialect)
    point_in_time = tuple(m for m in plan.metrics if layer.model.point_in_time(m))
    part = Reading(plan, compiled, layer.model.version, point_in_time, layer._exact_edges)
    for key, reading in zip(keys, (part, total), strict=True):
        layer._keep(key, reading)
    return part, total


def _total_rows(part: Reading, rows: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The total's rows as the total alone returns them (its period, if any, then its metrics),
    one per period of the grouped rows, from the columns after the grouped row's metrics."""
    width = (part.bucket is not None) + len(part.dims) + len(part.values)
    by_period: dict[Any, tuple[Any, ...]] = {}
    for row in rows:
        period = row[part.bucket] if part.bucket is not None else None
        if period not in by_period:
            by_period[period] = ((period,) if part.bucket is not None else ()) + tuple(
                row[width:width + len(part.values)])
    return [by_period[p] for p in sorted(by_period, key=lambda p: (p is None, p))]


def check(model: SemanticModelFile, args: QueryArgs) -> None:
    """A share needs rows to share (group_by) and metrics whose total its members make up."""
    if not args.group_by:
        raise InvalidArguments("share=true gives each row's share of the total over the "
                               "group_by dimensions; give group_by (the dimension whose members "
                               "share the total).")
    from showwork.semantic_layer.validate import resolve_metrics

    metrics, _ = resolve_metrics(model, args.metrics)
    problems = [why for m in metrics if (why := unshareable(model, m))]
    if problems:
        fine = [m.name for m in model.metrics if shareable(model, m.name)]
        raise NoShare(f"A share of the total means nothing here: {'; '.join(problems)}. "
                      "Shares are given for metrics that count or sum: "
                      f"{', '.join(fine) or 'none in this model'}.")


def with_shares(part: Result, total: Result) -> Result:
    """`part`'s rows with each metric's share of the total row of its period (the one total
    row when the total has no period key)."""
    by_period = {tuple(r.key.get(k, "") for k in total.keys): r for r in total.rows}
    rows = []
    for row in part.rows:
        whole = by_period.get(tuple(row.key.get(k, "") for k in total.keys))
        values = {m: {**f, FIELD: _share(f.get("value"), _value(whole, m))}
                  for m, f in row.values.items()}
        rows.append(Row(row.key, values, row.partial))
    totals = {"sql": total.sql, "keys": list(total.keys),
              "rows": [r.to_json() for r in total.rows]}
    return replace(part, rows=tuple(rows), totals=totals)


def _value(row: Row | None, metric: str) -> Number:
    return None if row is None else row.values.get(metric, {}).get("value")


def _share(value: Number, total: Number) -> Number:
    """value / total; None when either is missing or the total is zero.

    >>> _share(3, 12), _share(3, 0), _share(None, 5)
    (0.25, None, None)
    """
    if value is None or total is None or total == 0:
        return None
    return value / total
