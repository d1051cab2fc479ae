"""Table answers: breakdowns, rankings, series and members side by side.

Each row the answer lists is a measurement claim citing its row, and a `values` entry (DESIGN.md,
Answer shape): keyed by the member, or by the period start for a series, in the order the answer
gives them. The headline `value` is a ranking's top member, else null.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from showwork.analyst.rules import catalog as cat
from showwork.analyst.rules.calls import Call, Outcome, Plan, begun, to_date, window_json
from showwork.analyst.rules.claims import AnswerBuilder, be, cite, fmt, members, plural, subject, unit_of
from showwork.protocol.citations import GRAIN_KEYS
from showwork.protocol.periods import window_words
from showwork.protocol.rendered import period
from showwork.semantic_layer.windows import Window, periods

if TYPE_CHECKING:
    from showwork.analyst.rules.understand import Understood

MAX_LISTED = 100
"""Rows listed at most (each is a claim; an answer holds at most 200)."""
MAX_SPOKEN = 12
"""Rows the answer's prose names; the rest are in `values` and the claims."""


def scope(q: Understood, catalog: dict[str, Any]) -> str:
    """The filters the question applies, in words (' (platform android)'), without those its
    rows are keyed by."""
    parts = [" or ".join(members(catalog, {f["dimension"]: v}) for v in f["values"])
             if all(str(v).isdigit() for v in f["values"]) and f["op"] == "in"
             else members(catalog, {f["dimension"]: kept_words(f)}) for f in q.filters
             if f["dimension"] not in q.group_by or f["op"] == "not_in"]
    # numbers each after their dimension's words ('scheduled departure hour 21 or scheduled
    # departure hour 22'): a bare number is a count, not a member
    return f" ({'; '.join(parts)})" if parts else ""


def kept_words(f: dict[str, Any]) -> str:
    """A filter's members in words: 'Delta Air Lines Inc.', 'other than Delta Air Lines Inc.'
    (a `not_in` filter: every other member)."""
    said = ", ".join(f["values"])
    return f"other than {said}" if f["op"] == "not_in" else said


def table(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    """Rows of one metric by a dimension or a grain, each listed and cited."""
    metric = q.metrics[0]
    args: dict[str, Any] = {"metrics": [metric], "window": window_json(q.window)}
    if q.group_by:
        args["group_by"] = q.group_by
        args["order_by"] = {"field": metric, "desc": q.rank != "least"}
    for key, value in (("where", q.filters), ("grain", q.grain)):
        if value:
            args[key] = value
    r = yield Call("query", args, f"{metric} by {', '.join(q.group_by or [str(q.grain)])} over "
                                  f"{q.window}")
    # a breakdown or ranking by members over a window the data begins or ends inside is
    # answered and says so; a series when its first and last periods are the partial rows the
    # audit caveats (whole periods missing before the data begins would read as none); a ranking
    # of periods over the whole periods the data covers only (a partial period would read as a
    # small one: it is left out, and the answer says so)
    series = bool(q.grain and not q.rank)
    periods_ranked = bool(q.grain and q.rank and not q.group_by)
    if why := r.unusable("query", begun=not q.grain or periods_ranked
                         or (series and _begins_in_first(q, r)),
                         to_date=not q.grain or series or periods_ranked):
        return out.refused(why)
    if periods_ranked and (lead := _partial_lead(q, catalog, metric, r)) is not None:
        out = replace(out, notes=[*out.notes, lead])
    elif periods_ranked and any(row.get("partial") for row in r.rows()):
        # asked again over the whole periods the data covers
        whole = _whole_periods(q, r)
        if whole is None:
            return out.refused(r.partial_reason())
        out = replace(out, notes=[_default_window(n, q.window, whole) for n in out.notes])
        q = replace(q, window=whole)
        r = yield Call("query", {**args, "window": window_json(whole)},
                       f"{metric} by {q.grain} over the whole {q.grain}s the data covers, {whole}")
        if why := r.unusable("query"):
            return out.refused(why)
        out = replace(out, notes=[*out.notes, f"(Ranked over the {q.grain}s the data covers "
                                              f"whole: {window_words(str(whole))}.)"])
    out = begun(out, r, q.window)
    keys = (r.result or {}).get("keys") or []
    rows = [row for row in r.rows() if row["values"][metric]["value"] is not None]
    if not rows:
        return out.refused(f"no data for {metric} by {', '.join(keys) or 'row'} in "
                           f"{window_words(str(q.window))}.")
    if len(keys) != 1:
        return _grid(q, catalog, out, r.handle, metric, rows, to_date(r))
    unnamed = [] if q.grain else [row for row in rows if not _named(row, keys[0])]
    rows = _ordered(q, [row for row in rows if row not in unnamed], keys[0])[:q.top or MAX_LISTED]
    listed = _list(q, catalog, out, r.handle, metric, keys[0], rows, to_date(r))
    if q.rank:
        return _ranked(q, catalog, out, metric, keys[0], listed, to_date(r))
    if q.gap is not None:
        return _gap(q, catalog, out, metric, listed, to_date(r))
    said = _spoken(q, catalog, metric, keys[0], listed, len(r.rows()) - len(unnamed))
    return out.answered(said + _unnamed(catalog, keys[0], unnamed),
                        None, values=listed)


def _default_window(note: str, asked: Window | None, whole: Window) -> str:
    """The note of the window taken when none was named, for the whole periods ranked: the
    cited results are asked for those (the periods the covered range reaches into were asked
    first, to see whether a partial one already leads)."""
    return note.replace(f"the whole covered range, {asked}.", f"the whole covered range, {whole}.")


def _partial_lead(q: Understood, catalog: dict[str, Any], metric: str, r: Outcome
                  ) -> str | None:
    """The note for a ranking of periods whose highest is a partly covered period, when the
    days it lacks could only raise it: a sum or count (additive) of values none below zero, the
    most asked. It leads whatever those days hold, so it is ranked, not left out."""
    rows = [row for row in r.rows() if row["values"][metric]["value"] is not None]
    values = [row["values"][metric]["value"] for row in rows]
    if q.rank == "least" or not rows or not cat.info(catalog, metric).get("additive") \
            or unit_of(catalog, metric) == "fraction" or min(values) < 0:
        return None
    top = max(rows, key=lambda row: row["values"][metric]["value"])
    others = [row["values"][metric]["value"] for row in rows if row is not top]
    if not top.get("partial") or any(v >= top["values"][metric]["value"] for v in others):
        return None
    ((grain, start),) = top["key"].items()
    return (f"(The {grain} starting {str(start)[:10]} is covered by data only in part, and is "
            "already the highest: the days it lacks could only add to it.)")


def _whole_periods(q: Understood, r: Outcome) -> Window | None:
    """The periods of the grain the data covers whole, within a window it covers in part: from
    the first whole period's start to the last whole one's end; None when none is whole."""
    key = ((r.result or {}).get("keys") or [None])[0]
    starts = sorted(dt.date.fromisoformat(str(row["key"][key])[:10]) for row in r.rows()
                    if key and not row.get("partial"))
    if not starts or q.grain is None:
        return None
    return Window(starts[0], periods(Window(starts[-1], starts[-1]), q.grain)[0].end)


def _begins_in_first(q: Understood, r: Outcome) -> bool:
    """The data begins inside the series' first period: that period is a partial row (the
    audit's `partial_period` caveats its claim), and no whole period is missing before it."""
    day = r.data_begins()
    if day is None or q.grain is None or q.window is None:
        return False
    first = periods(q.window, q.grain)[:1]
    return bool(first) and dt.date.fromisoformat(day) <= first[0].end




def _unnamed(catalog: dict[str, Any], key: str, rows: list[dict[str, Any]]) -> str:
    """The row a breakdown's data holds with no member (orders of a customer with no region):
    never listed as a member (a listed value's key is a member), and said to be left out."""
    if not rows:
        return ""
    return f" The rows with no {_dimension_label(catalog, key)} recorded are left out of the list."


def _ordered(q: Understood, rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """A series in time order; members by value, largest first (smallest first for 'least')."""
    if q.grain and not q.group_by and not q.rank:
        return sorted(rows, key=lambda row: str(row["key"][key]))
    ordered = sorted(rows, key=lambda row: row["values"][q.metrics[0]]["value"],
                     reverse=q.rank != "least")
    # a row with no member (a customer with no region) is no member to rank: not ranked
    return [r for r in ordered if _named(r, key)] if q.rank else ordered


def _named(row: dict[str, Any], key: str) -> bool:
    return row["key"].get(key) not in (None, "")


def _list(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, handle: int | None,
          metric: str, key: str, rows: list[dict[str, Any]], through: str = ""
          ) -> list[dict[str, Any]]:
    """A claim citing each row, and the row as a listed value; `through` (' to date, through
    14 August 2019') where the data ends inside the window: on every member's claim, and on
    the partial period's of a series."""
    label, frac = cat.label(catalog, metric), unit_of(catalog, metric)
    listed = []
    for row in rows:
        member, value = str(row["key"][key]), row["values"][metric]["value"]
        where = (f" {period(key, member)}" if key in GRAIN_KEYS
                 else f" for {_dimension_label(catalog, key)} {member}")
        when = ((through if row.get("partial") else "") if key in GRAIN_KEYS
                else f" in {q.window}{through}")
        out.measure(f"{subject(label)}{where}{scope(q, catalog)} {be(label)} "
                    f"{fmt(value, frac)}{when}", cite(handle, metric, "value", row["key"]), value)
        listed.append({"key": member, "value": value})
    return listed


def _dimension_label(catalog: dict[str, Any], key: str) -> str:
    return ((catalog.get("dimensions") or {}).get(key) or {}).get("label") or key


def _spoken(q: Understood, catalog: dict[str, Any], metric: str, key: str,
            listed: list[dict[str, Any]], found: int) -> str:
    frac = unit_of(catalog, metric)
    shown = "; ".join(f"{v['key']} {fmt(v['value'], frac)}" for v in listed[:MAX_SPOKEN])
    # counts of rows are not fields a claim can cite: said in words, not numbers
    more = "; … (the rest are listed with the answer)" if len(listed) > MAX_SPOKEN else ""
    cut = " Only the first rows are listed; the result has more." if found > len(listed) else ""
    by = _dimension_label(catalog, key)
    return (f"{subject(cat.label(catalog, metric))}{scope(q, catalog)} by {by}, {q.window}: "
            f"{shown}{more}.{cut}")


def _ranked(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, metric: str, key: str,
            listed: list[dict[str, Any]], through: str = "") -> dict[str, Any]:
    """The members in order, argued from the listed claims; the headline is the top member."""
    label = cat.label(catalog, metric)
    word = (("fewest" if plural(label) else "lowest") if q.rank == "least"
            else ("most" if plural(label) else "highest"))
    top = listed[0]["key"]
    cited = [f"c{i}" for i in range(len(out.claims) - len(listed) + 1, len(out.claims) + 1)]
    by = _dimension_label(catalog, key)
    said = f"By {by}, {top} had the {word} {label}{scope(q, catalog)} in {q.window}{through}"
    if len(listed) > 1:
        out.argue_all(said, cited, [v["key"] for v in listed])
    frac = unit_of(catalog, metric)
    order = "; ".join(f"{v['key']} {fmt(v['value'], frac)}" for v in listed[:MAX_SPOKEN])
    more = "; … (the rest are listed with the answer)" if len(listed) > MAX_SPOKEN else ""
    return out.answered(f"{said} ({word} first: {order}{more}).", top, values=listed)


def _gap(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, metric: str,
         listed: list[dict[str, Any]], through: str = "") -> dict[str, Any]:
    """'How many more flights went to LAX than to SFO': the two rows listed, and the first's
    value less the second's as the headline (signed), said as how far the larger is above the
    other."""
    assert q.gap is not None
    value = {str(v["key"]): v["value"] for v in listed}
    first, second = q.gap
    if first not in value or second not in value:
        return out.refused(f"no data for {first if first not in value else second} "
                           f"in {window_words(str(q.window))}.")
    if unit_of(catalog, metric) == "fraction":
        return out.refused("a rate's difference is in percentage points, not 'how many more'; "
                           "ask for the rate of each.")
    gap = value[first] - value[second]
    label = cat.label(catalog, metric)
    high, low = (first, second) if gap > 0 else (second, first)  # said as how far above
    said = (f"{subject(label)}{scope(q, catalog)} in {q.window}{through}: {high} "
            f"{fmt(abs(gap), unit_of(catalog, metric))} more than {low}" if gap else
            f"{subject(label)}{scope(q, catalog)} in {q.window}{through}: {first} the same as "
            f"{second}")
    return out.answered(f"{said} ({'; '.join(c['text'] for c in out.claims[-len(listed):])}).",
                        gap, values=listed)


def _grid(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, handle: int | None,
          metric: str, rows: list[dict[str, Any]], through: str = "") -> dict[str, Any]:
    """Rows keyed by more than one column (a grain and a dimension): each claimed (all of
    them: a grid cut at a dozen rows had been served clean with the rest missing), none listed
    (a listed value has one key); the prose speaks the first three, the claims every row."""
    frac = unit_of(catalog, metric)
    for row in rows[:MAX_LISTED]:
        where = members(catalog, row["key"])
        label = cat.label(catalog, metric)
        out.measure(f"{subject(label)} ({where}) {be(label)} "
                    f"{fmt(row['values'][metric]['value'], frac)} in {q.window}{through}",
                    cite(handle, metric, "value", row["key"]), row["values"][metric]["value"])
    return out.answered("; ".join(c["text"] for c in out.claims[:3]) + ".", None)
