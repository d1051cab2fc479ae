"""A share of a whole across periods: 'what fraction of the year's cancellations happened in
February' is February's cancelled flights over the year's, one metric with the same filters.
A whole the data ends inside (a year still running) is its covered part, to date, and the
answer says through which day; the part must be covered whole.

Two governed queries, the whole period's and the part's; the answer cites both values, and its
share claim cites the part first and the whole second (the audit holds the quotient to them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from showwork.analyst.rules import catalog as cat
from showwork.analyst.rules.calls import Call, Plan, begun, to_date, window_json
from showwork.analyst.rules.claims import AnswerBuilder, be, cite, fmt, is_value, subject, unit_of
from showwork.analyst.rules.dates import window_of
from showwork.analyst.rules.tables import scope
from showwork.protocol.reading import Reading
from showwork.protocol.reading.part_periods import part_and_whole

if TYPE_CHECKING:
    from showwork.analyst.rules.understand import Understood


def read_period_share(q: Understood, reading: Reading) -> bool:
    """Set up a share of a whole period (the intent 'period_share', the whole as the window,
    the part as `part_window`), or refuse when the metric does not add up over time; False
    when the question does not name a period inside another."""
    found = part_and_whole(reading.periods)
    if found is None:
        return False
    part, whole = found
    q.window, q.part_window = window_of(whole.period), window_of(part.period)
    q.intent = "period_share"
    return True


def addable(catalog: dict[str, Any], metric: str) -> str | None:
    """Why `metric`'s value over a part period is no share of its value over the whole (a
    ratio, a snapshot), else None."""
    info = cat.info(catalog, metric) or {}
    if info.get("formula"):
        return f"{metric} is a ratio or derived metric: its value over a period is no sum of its parts"
    if cat.point_in_time(catalog, metric):
        return f"{metric} is taken at a point in time: a period's value is no part of a longer one's"
    return None


def period_share(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    """The part period's value over the whole period's, both cited."""
    metric = q.metrics[0]
    assert q.part_window is not None
    if why := addable(catalog, metric):
        return out.refused(f"The question asks for the share of {q.window}'s {metric} that fell "
                           f"in {q.part_window}; {why}. Ask for each period's value.")
    args: dict[str, Any] = {"metrics": [metric]}
    if q.filters:
        args["where"] = q.filters
    whole = yield Call("query", {**args, "window": window_json(q.window)},
                       f"the whole: {metric} over {q.window}")
    if why := whole.unusable("query", begun=True, to_date=True):
        return out.refused(why)  # a whole the data ends inside: its covered part, said so
    out = begun(out, whole, q.window)
    so_far = to_date(whole)
    part = yield Call("query", {**args, "window": window_json(q.part_window)},
                      f"the part: {metric} over {q.part_window}")
    if why := part.unusable("query"):
        return out.refused(why)
    whole_value, part_value = _value(whole.rows(), metric), _value(part.rows(), metric)
    if not whole_value or part_value is None:
        return out.refused(f"no {cat.label(catalog, metric)} in {q.window}, so no share of it.")
    label, unit, said = cat.label(catalog, metric), unit_of(catalog, metric), scope(q, catalog)
    part_cite, whole_cite = cite(part.handle, metric, "value"), cite(whole.handle, metric, "value")
    out.measure(f"{subject(label)}{said} {is_value(label, part_value, unit)} in {q.part_window}",
                part_cite, part_value)
    out.measure(f"{subject(label)}{said} {is_value(label, whole_value, unit)} in {q.window}"
                f"{so_far}", whole_cite, whole_value)
    share = part_value / whole_value
    out.measure(f"The share of {label}{said} in {q.window}{so_far} that {be(label)} in "
                f"{q.part_window} was {fmt(share, True)}", part_cite, share, whole_cite)
    return out.answered(f"{fmt(share, True)} of {label}{said} in {q.window}{so_far} {be(label)} "
                        f"in {q.part_window}: {fmt(part_value, unit)} of "
                        f"{fmt(whole_value, unit)}.", share)


def _value(rows: list[dict[str, Any]], metric: str) -> float | None:
    value = rows[0]["values"][metric]["value"] if len(rows) == 1 else None
    return float(value) if isinstance(value, int | float) else None
