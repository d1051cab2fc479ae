"""The rules analyst's plans: a generator that yields governed calls and returns an answer.

The plan is replayed from the start on every turn with the outcomes so far, so the client keeps
no state between turns: the conversation is the state.
"""

from __future__ import annotations

from typing import Any

from showwork.analyst.rules import catalog as cat
from showwork.analyst.rules.calls import Call, Outcome, Plan, begun, to_date, window_json
from showwork.analyst.rules.claims import (
    AnswerBuilder,
    cite,
    fmt,
    is_value,
    members,
    moved,
    subject,
    unit_of,
)
from showwork.analyst.rules.dates import AllData
from showwork.analyst.rules.diagnose import diagnose
from showwork.analyst.rules.period_shares import period_share
from showwork.analyst.rules.shares import share
from showwork.analyst.rules.tables import scope, table
from showwork.analyst.rules.understand import Understood
from showwork.protocol.periods import in_period, window_words
from showwork.semantic_layer.windows import Window, periods

__all__ = ["Call", "Outcome", "Plan", "plan"]


def plan(q: Understood, catalog: dict[str, Any], claims_on: bool) -> Plan:
    out = AnswerBuilder(claims_on, notes=q.notes)
    if q.refusal:
        return out.refused(q.refusal)
    assert q.window is not None
    if q.unknown_metric:
        probe = yield Call("query", {"metrics": [q.unknown_metric],
                                     "window": window_json(q.window)},
                           f"check whether {q.unknown_metric!r} is a governed metric")
        if probe.blocked:
            return out.refused(probe.reason or "the metric is not governed")
        return out.refused(f"{q.unknown_metric!r} is not a metric I can read reliably.")
    steps = {"diagnostic": diagnose, "compare": compare, "table": table, "share": share,
             "period_share": period_share, "running": running}
    return (yield from steps.get(q.intent, lookup)(q, catalog, out))


def lookup(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    """One level per metric (a sum over a grain when asked: 'summed over the weeks')."""
    args: dict[str, Any] = {"metrics": q.metrics, "window": window_json(q.window)}
    for key, value in (("where", q.filters), ("grain", q.grain), ("aggregate", q.aggregate)):
        if value:
            args[key] = value
    r = yield Call("query", args, f"measure {', '.join(q.metrics)} over {q.window}")
    if why := r.unusable("query", begun=not q.grain, to_date=not q.grain):
        return out.refused(why)
    out = begun(out, r, q.window)
    rows = r.rows()
    if q.guessed and not any(row["values"][m]["value"] is not None for row in rows
                             for m in q.metrics):
        # 'Boston' read as the one name holding it, a station nobody flew to: no answer
        said = "; ".join(f"{w!r} read as {d} = {m}" for w, d, m in q.guessed)
        return out.refused(f"no data for {', '.join(q.metrics)} in "
                           f"{window_words(str(q.window))} where {said}; "
                           "name the member as the data does.")
    for row in rows[:12]:
        for metric in q.metrics:
            value = row["values"][metric]["value"]
            where = members(catalog, row["key"])
            segment = f" ({where})" if where else scope(q, catalog)
            label = cat.label(catalog, metric)
            out.measure(f"{subject(label)}{segment} "
                        f"{is_value(label, value, unit_of(catalog, metric))} {_when(q, catalog, metric, r)}",
                        cite(r.handle, metric, "value", row["key"]), value)
    first = rows[0]["values"][q.metrics[0]]["value"] if len(rows) == 1 else None
    summary = "; ".join(c["text"] for c in out.claims[:3]) or "No rows."
    return out.answered(summary + ".", first)


def _when(q: Understood, catalog: dict[str, Any], metric: str, r: Outcome) -> str:
    """The window a level is for, to date when the data ends inside it ('in June 2026 to date,
    through 17 June 2026')."""
    if cat.point_in_time(catalog, metric) and q.window is not None:
        return f"at the end of {q.window}{to_date(r)}"
    return f"in {q.window}{to_date(r)}"


def compare(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    """Each metric's change between the two windows (per member when split by a dimension)."""
    assert q.previous is not None
    args: dict[str, Any] = {"metrics": q.metrics, "current_window": window_json(q.window),
                            "previous_window": window_json(q.previous)}
    if q.group_by:
        args["by"] = q.group_by[0]
    if q.filters:
        args["where"] = q.filters
    r = yield Call("compare", args, f"compare {', '.join(q.metrics)}: {q.window} vs {q.previous}")
    if why := r.unusable("comparison"):
        return out.refused(why)
    rows = r.rows()[:12]
    field = "delta" if q.difference else "pct_change"  # 'how many more …': the difference
    if q.difference and any(unit_of(catalog, m) == "fraction" for m in q.metrics):
        return out.refused("a rate's difference is in percentage points, not 'how many more'; "
                           "ask how the rate changed between the two periods.")
    for row in rows:
        for metric in q.metrics:
            _change_claim(q, catalog, out, r, row, metric)
    listed = None
    if q.group_by and rows:
        listed = [{"key": str(next(iter(row["key"].values()), "")),
                   "value": row["values"][q.metrics[0]][field]} for row in rows]
    value = rows[0]["values"][q.metrics[0]][field] if len(rows) == 1 else None
    return out.answered("; ".join(c["text"] for c in out.claims[:3]) + ".", value, values=listed)


def _change_claim(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, r: Outcome,
                  row: dict[str, Any], metric: str) -> str:
    f = row["values"][metric]
    where = members(catalog, row["key"]) or scope(q, catalog).strip(" ()")
    segment = f" ({where})" if where else ""
    frac = unit_of(catalog, metric)
    ends = " at the end of each period" if cat.point_in_time(catalog, metric) else ""
    if q.difference and f["delta"] is not None:  # 'how many more': by how much, then from → to
        way = "rose" if f["delta"] > 0 else "fell" if f["delta"] < 0 else "did not move"
        by = f" by {fmt(abs(f['delta']), frac)}" if f["delta"] else ""
        return out.measure(f"{subject(cat.label(catalog, metric))}{segment} {way}{by} "
                           f"({fmt(f['previous'], frac)} → {fmt(f['value'], frac)}{ends}), "
                           f"{q.window} versus {q.previous}",
                           cite(r.handle, metric, "delta", row["key"]), f["delta"],
                           cite(r.handle, metric, "previous", row["key"]),
                           cite(r.handle, metric, "value", row["key"]))
    return out.measure(f"{subject(cat.label(catalog, metric))}{segment} "
                       f"{moved(f['pct_change'], cat.label(catalog, metric))} "
                       f"({fmt(f['previous'], frac)} → "
                       f"{fmt(f['value'], frac)}{ends}), {q.window} versus {q.previous}",
                       cite(r.handle, metric, "pct_change", row["key"]), f["pct_change"],
                       cite(r.handle, metric, "previous", row["key"]),
                       cite(r.handle, metric, "value", row["key"]))


MAX_SPOKEN = 12
MAX_RUNNING = 12
"""Periods a running-total series reads at most (one governed call each, within the budget)."""


def running(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    """A running total period by period ('a running total of flights by month in 2013'): the
    metric from the window's start to the end of each period of the grain, one governed query
    each, so every listed value is a cited level, keyed by the period's start."""
    assert q.window is not None and q.grain is not None
    metric = q.metrics[0]
    if isinstance(q.window, AllData):  # no dates to run through
        return out.refused(f"a running total by {q.grain} needs dates, and the time column of "
                           f"{metric} holds none: it has no periods to add up.")
    covered = cat.coverage(catalog, [metric])
    # a period that ends before the data begins has no total yet: the series starts where the
    # data does (docs/serving.md, "A window the data begins inside"), and says so
    ends = [p for p in periods(q.window, q.grain) if p.end <= q.window.end
            and (covered is None or p.end >= covered.start)]
    if not ends or len(ends) > MAX_RUNNING:
        return out.refused(f"a running total by {q.grain} over {q.window} would take "
                           f"{len(ends)} queries; ask for a coarser grain or a shorter window.")
    label, frac, listed = cat.label(catalog, metric), unit_of(catalog, metric), []
    for p in ends:
        args: dict[str, Any] = {"metrics": [metric],
                                "window": window_json(Window(q.window.start, p.end))}
        if q.filters:
            args["where"] = q.filters
        r = yield Call("query", args, f"{metric} from {q.window.start} to {p.end}")
        if why := r.unusable("query", begun=True):
            return out.refused(why)
        if p is ends[0]:
            out = begun(out, r, q.window)
        rows = r.rows()
        if len(rows) != 1:
            return out.refused(f"no single value for {metric} from {q.window.start} to {p.end}.")
        value = rows[0]["values"][metric]["value"]
        out.measure(f"{subject(label)}{scope(q, catalog)} {'were' if label.endswith('s') else 'was'} "
                    f"{fmt(value, frac)} {in_period(q.window.start, p.end)}",
                    cite(r.handle, metric, "value", rows[0]["key"]), value)
        listed.append({"key": p.start.isoformat(), "value": value})
    said = "; ".join(c["text"] for c in out.claims[-len(listed):][:MAX_SPOKEN])
    # each claim says its window from the same start: the words say it is a running total
    return out.answered(f"{said}.", listed[-1]["value"],
                        values=listed)
