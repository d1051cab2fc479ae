"""Shares of a total: which member is the part, which members make the whole, and the answer
that cites the layer's `share_of_total`.

'What share of the flights to BOS in Q1 came from JetBlue Airways?': the members named inside
the whole's phrase ('the flights to BOS in Q1') filter the whole; the member named after it
('came from JetBlue Airways'), or before a possessive share ('Delta's share of …'), is the part.
The part's dimension is grouped with `share: true`, so the layer divides the member's value by
the same metric, filters and window without the grouping; the answer cites that field, never a
quotient of its own.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from showwork.analyst.rules import catalog as cat
from showwork.analyst.rules.calls import Call, Plan, begun, window_json
from showwork.analyst.rules.claims import AnswerBuilder, cite, fmt, is_value, plural, subject, unit_of
from showwork.analyst.rules.period_shares import read_period_share
from showwork.analyst.rules.tables import MAX_LISTED, MAX_SPOKEN, scope
from showwork.protocol.reading import Reading

if TYPE_CHECKING:
    from showwork.analyst.rules.understand import Understood

FIELD = "share_of_total"
_WORD = re.compile(r"[A-Za-z0-9]+")
_JOINING = {"the", "all", "our", "of", "to", "from", "out", "at", "in", "on", "for", "into",
            "s", "a", "an", "that", "those", "these", "every", "total"}
"""Words inside a whole's phrase ('of all the flights out of LGA in 2013'), besides the
metric, members and periods it names: the phrase ends at the first other word ('did', 'came')."""
_POSSESSIVE = re.compile(r"\s*(?:'s|’s|'|’)?\s*$")


def read_share(q: Understood, reading: Reading) -> None:
    """Set the share question up (intent 'share', the part's dimension grouped, the whole's
    members as filters), or refuse saying which share the layer cannot give."""
    if q.previous is not None or reading.asks.why:
        q.intent, q.refusal = "refuse", (
            "The question asks how a share of a total moved; the governed layer gives a share "
            "of the total per window (share_of_total), not its change. Ask for the share in "
            "each period.")
        return
    if len(q.metrics) != 1:
        q.intent, q.refusal = "refuse", (
            f"The question asks for a share of a total of {', '.join(q.metrics)}; a share is of "
            "one metric at a time. Ask for one.")
        return
    parts = _parts(q, reading)
    dims = sorted({d for d, _ in parts})
    if len(dims) > 1 or len(parts) > 1:
        named = ", ".join(f"{d} = {m}" for d, m in parts)
        q.intent, q.refusal = "refuse", (
            f"The question asks for the share of more than one member ({named}); the governed "
            "layer gives each member's share of the total, not a combined one. Ask for one "
            "member's share.")
        return
    if parts:
        dim, member = parts[0]
        q.filters = [f for f in q.filters if f["dimension"] != dim]
        q.group_by, q.part = [dim], member
    elif not q.group_by and read_period_share(q, reading):
        return
    elif not q.group_by and _one_member(q):
        # 'share of revenue from EU customers': a whole whose one member is named would be all
        # of itself; that member is the part
        dim, member = q.filters[0]["dimension"], q.filters[0]["values"][0]
        q.filters, q.group_by, q.part = [], [dim], member
    elif not q.group_by:
        q.intent, q.refusal = "refuse", (
            "The question asks for a share of a total but names no member whose share it is "
            "(nor a dimension to split the total by).")
        return
    if q.grain or len(q.group_by) > 1:
        q.intent, q.refusal = "refuse", (
            "The question asks for shares split further (by a period or a second dimension); "
            "the rules analyst answers one member's share or one dimension's shares.")
        return
    q.intent = "share"


def _parts(q: Understood, reading: Reading) -> list[tuple[str, str]]:
    """(dimension, member) of each filter named as the part rather than in the whole."""
    share = reading.asks.share
    assert share is not None
    end = _whole_end(reading)
    out = []
    for f in q.filters:
        for member in f["values"]:
            span = next((m.span for m in (*reading.members, *reading.ranges)  # 'LAX or SFO'
                         if m.name == f["dimension"] and m.member == member), None)
            if span is None:
                continue  # a member read from a dimension's slot: it stays a filter
            if _possessive(reading, span) or span[0] >= end:
                out.append((f["dimension"], member))
    return out


def _one_member(q: Understood) -> bool:
    """The question's one filter keeps one member ('EU'), nothing else."""
    return len(q.filters) == 1 and q.filters[0]["op"] == "in" and len(q.filters[0]["values"]) == 1


def _possessive(reading: Reading, span: tuple[int, int]) -> bool:
    """The member owns the share: 'Delta's share of', 'the Online store's share of' (a
    dimension's name may stand between the member and the possessive)."""
    share = reading.asks.share
    assert share is not None
    if span[1] > share.span[0]:
        return False
    gap = reading.text[span[1]:share.span[0]]
    for d in reading.dimensions:
        if span[1] <= d.span[0] and d.span[1] <= share.span[0]:
            start, end = d.span[0] - span[1], d.span[1] - span[1]
            gap = gap[:start] + " " * (end - start) + gap[end:]
    return _POSSESSIVE.fullmatch(gap) is not None


def _whole_end(reading: Reading) -> int:
    """Where the whole's phrase after 'share of' ends: the first word that is no metric,
    member or period named, nor a joining word."""
    share = reading.asks.share
    assert share is not None
    taken = [m.span for m in (*reading.metrics, *reading.members, *reading.ranges, *reading.dimensions)]
    taken += [p.span for p in reading.periods]
    for word in _WORD.finditer(reading.text, share.span[1]):
        inside = any(s <= word.start() < e for s, e in taken)
        if not inside and word.group(0).lower() not in _JOINING:
            return word.start()
    return len(reading.text)


def share(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    """One member's share of the total (its value too), or every member's share."""
    metric, dim = q.metrics[0], q.group_by[0]
    args: dict[str, Any] = {"metrics": [metric], "window": window_json(q.window),
                            "group_by": [dim], "share": True}
    if q.filters:
        args["where"] = q.filters
    r = yield Call("query", args, f"each {dim}'s share of {metric} over {q.window}")
    if why := r.unusable("query", begun=True, to_date=True):
        return out.refused(why)
    out = begun(out, r, q.window)
    rows = [row for row in r.rows() if row["values"][metric].get(FIELD) is not None]
    if q.part is not None:
        row = next((row for row in rows if row["key"].get(dim) == q.part), None)
        if row is None:
            return out.refused(f"no {cat.label(catalog, metric)} for {dim} {q.part} in "
                               f"{q.window}, so it has no share of the total.")
        return _one(q, catalog, out, r.handle, row)
    return _all(q, catalog, out, r.handle, rows)


def _one(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, handle: int | None,
         row: dict[str, Any]) -> dict[str, Any]:
    metric, dim = q.metrics[0], q.group_by[0]
    label, fields = cat.label(catalog, metric), row["values"][metric]
    whole = scope(q, catalog)
    value, part = fields["value"], fields[FIELD]
    when = _when(q, catalog, metric)
    out.measure(f"{subject(label)} ({_label(catalog, dim)} {q.part}{_and(whole)}) "
                f"{is_value(label, value, unit_of(catalog, metric))} {when}",
                cite(handle, metric, "value", row["key"]), value)
    out.measure(f"The share of {label}{whole} {when} for {_label(catalog, dim)} "
                f"{q.part} was {fmt(part, True)}", cite(handle, metric, FIELD, row["key"]), part)
    of = "them" if plural(label) else "it"
    return out.answered(f"{subject(_label(catalog, dim))} {q.part} had {fmt(part, True)} of "
                        f"{label}{whole} {when}: "
                        f"{fmt(value, unit_of(catalog, metric))} of {of}.", part)


def _all(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, handle: int | None,
         rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Every member's share, largest first (smallest first for 'least'); a ranking's headline
    is its top member."""
    metric, dim = q.metrics[0], q.group_by[0]
    if not rows:
        return out.refused(f"no {cat.label(catalog, metric)} by {dim} in {q.window}.")
    rows = sorted(rows, key=lambda row: row["values"][metric][FIELD], reverse=q.rank != "least")
    rows = rows[:q.top or MAX_LISTED]
    label, whole = cat.label(catalog, metric), scope(q, catalog)
    listed = []
    for row in rows:
        member, part = str(row["key"][dim]), row["values"][metric][FIELD]
        out.measure(f"The share of {label}{whole} {_when(q, catalog, metric)} for "
                    f"{_label(catalog, dim)} {member} was {fmt(part, True)}",
                    cite(handle, metric, FIELD, row["key"]), part)
        listed.append({"key": member, "value": part})
    said = "; ".join(f"{v['key']} {fmt(v['value'], True)}" for v in listed[:MAX_SPOKEN])
    more = "; … (the rest are listed with the answer)" if len(listed) > MAX_SPOKEN else ""
    top = listed[0]["key"] if q.rank else None
    return out.answered(f"Share of {label}{whole} by {_label(catalog, dim)} "
                        f"{_when(q, catalog, metric)}: "
                        f"{said}{more}.", top, values=listed)


def _when(q: Understood, catalog: dict[str, Any], metric: str) -> str:
    """'in the window', or 'at the end of' it for a point-in-time metric (a snapshot)."""
    return f"{'at the end of' if cat.point_in_time(catalog, metric) else 'in'} {q.window}"


def _label(catalog: dict[str, Any], dim: str) -> str:
    return ((catalog.get("dimensions") or {}).get(dim) or {}).get("label") or dim


def _and(whole: str) -> str:
    """The whole's filters after the part's member: ' (origin LGA)' → '; origin LGA'."""
    return f"; {whole.strip(' ()')}" if whole else ""
