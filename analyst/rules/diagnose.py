"""Why a metric moved: the exact tree edge's attribution, the drill into members, and influence
edges as hypotheses.

The drill splits the driver's move across each small dimension's members into a mix part (the
weight moved between members: more users from a channel whose users come back less) and a rate
part (the driver moved within a member). The weight is the driver's denominator when it is a
ratio (days per user: active users), else the edge's count factor; a driver that adds up across
members has only rate parts (each member's delta). The layer has no mix or rate field, so the
claims state the per-member fields those parts are computed from, and the numbers they say are
those fields.

A member is named ("most of all for plan free") only when it stands out: its share of the move
(its rate part over the driver's move) exceeds its share of the base (its share of the weight,
or of the driver for one that adds up, in the earlier window) by at least STANDS_OUT (10
points). Every member moving in step takes about its base share, so a move no member stands out
in is said as spread evenly, one claim per dimension checked citing the fields the shares are
computed from.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from showwork.analyst.rules import catalog as cat
from showwork.analyst.rules.calls import Call, Outcome, Plan, window_json
from showwork.analyst.rules.claims import (
    AnswerBuilder,
    agree,
    cite,
    fmt,
    is_value,
    members,
    moved,
    percent,
    plural,
    signed,
    subject,
    unit_of,
)
from showwork.analyst.rules.tables import kept_words, scope
from showwork.analyst.rules.understand import Understood
from showwork.protocol.answer import MAX_CITATIONS
from showwork.semantic_layer.attribution import mix_rate
from showwork.semantic_layer.tree import driver as pick_driver
from showwork.semantic_layer.windows import Window, aligned, period_end, period_start, periods

INFLUENCE_NOTABLE_PCT = 10.0
MIX_NOTABLE = 0.05
"""A dimension's mix part is stated when it is at least this share of the driver's move."""
STANDS_OUT = 0.10
"""A member is named when its share of the move exceeds its share of the base by this much."""


@dataclass(frozen=True)
class Part:
    """One member's share of the driver's move."""

    dim: str
    member: str
    handle: int | None
    key: dict[str, str]
    fields: dict[str, Any]
    """The member's row: metric → field → value."""
    mix: float
    """The move from the weight shifting toward (or away from) this member."""
    rate: float
    """The move from the driver changing within this member, at its average weight."""
    base: float = 0.0
    """Its share of the base: of the weight (or of the driver, one that adds up) before."""

    def excess(self, move: float) -> float:
        """How far its share of the move exceeds its share of the base (0.25: 25 points)."""
        return self.rate / move - self.base if move else 0.0

    @property
    def labelled(self) -> bool:
        """Whether the member has a label to name it by (not a missing value)."""
        return self.member not in ("", "None")


@dataclass(frozen=True)
class Drill:
    """What the drill found and claimed."""

    premises: list[str]
    because: str
    """The words the causal sentence adds ('most of all for plan free; …')."""
    segment: tuple[str, str, dict[str, str]] | None
    """The rate part's claim, its words and its row key (influence edges are checked there)."""


def _exact_edge(catalog: dict[str, Any], metric: str) -> dict[str, Any] | None:
    return next((e for e in catalog["tree"]["exact"] if e["parent"] == metric), None)


def diagnose(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    parent = q.metrics[0]
    edge = _exact_edge(catalog, parent)
    if edge is None:
        exact = ", ".join(cat.label(catalog, e["parent"]) for e in catalog["tree"]["exact"])
        named = cat.label(catalog, parent)
        has = "have" if plural(named) else "has"
        return out.refused(f"{subject(named)} {has} no exact decomposition in the governed "
                           f"metric tree (decomposed metrics: {exact or 'none'}), so its move "
                           "cannot be attributed; influence edges are correlational only.")
    factors = list(edge["factors"])
    assert q.previous is not None
    windows = {"current_window": window_json(q.window), "previous_window": window_json(q.previous)}
    where = {"where": q.filters} if q.filters else {}
    r = yield Call("compare", {"metrics": [parent, *factors], **windows, **where},
                   f"{parent} and its factors, {q.window} vs {q.previous}")
    if why := r.unusable("comparison"):
        return out.refused(why)
    yield from _context(q, catalog, parent, where)
    v = r.rows()[0]["values"]
    if any(v[m]["value"] in (None, 0) or v[m]["previous"] in (None, 0) for m in [parent, *factors]):
        return out.refused(f"{subject(cat.label(catalog, parent))} or one of its factors has no "
                           "data in one window, so the change cannot be attributed.")
    total = v[parent]
    label = subject(cat.label(catalog, parent)) + scope(q, catalog)
    c_parent = out.measure(f"{label} {moved(total['pct_change'], label)}, {q.window} versus "
                           f"{q.previous}", cite(r.handle, parent, "pct_change"),
                           total["pct_change"])
    factor_claims = {m: out.measure(f"{subject(cat.label(catalog, m))}{scope(q, catalog)} "
                                    f"{moved(v[m]['pct_change'], cat.label(catalog, m))}",
                                    cite(r.handle, m, "pct_change"), v[m]["pct_change"])
                     for m in factors}
    driver = pick_driver({m: v[m]["contribution"] for m in factors}, total["delta"])
    if driver is None:
        return out.answered(f"{label} did not move.", total["pct_change"])
    drill = yield from _drill(q, catalog, out, edge, driver, windows, r)
    hypotheses = yield from _influences(q, catalog, out, driver, windows,
                                        drill.segment if drill else None)
    attribution = _attribution(catalog, out, r.handle, parent, factors, v, driver)
    named = cat.label(catalog, driver)
    because = (f"{label} {moved(total['pct_change'], label)} mainly because "
               f"{named} {moved(v[driver]['pct_change'], named)}"
               + (drill.because if drill else ""))
    premises = [c_parent, factor_claims[driver], *(drill.premises if drill else [])]
    out.argue(because, [*premises, f"tree:{parent}>{driver}"], kind="causal")
    text = (f"{because} ({attribution})."
            + "".join(f" Hypothesis, correlational only: {h}." for h in hypotheses))
    return out.answered(text, total["pct_change"], driver)


CONTEXT = {"week": (6, 2), "month": (4, 1), "quarter": (3, 1)}
"""Grain → whole periods before and after the move that the context series shows."""


def _context(q: Understood, catalog: dict[str, Any], parent: str, where: dict[str, Any]
             ) -> Generator[Call, Outcome, None]:
    """The parent by its period around the move, same filters, for the reader to see whether
    the move is unusual (the report charts it). Not cited; nothing is lost when it fails."""
    assert q.window is not None
    grain = next((g for g in CONTEXT if aligned(q.window, g) and len(periods(q.window, g)) == 1
                  and g in (cat.info(catalog, parent).get("grains") or CONTEXT)), None)
    covered = cat.coverage(catalog, [parent])
    if grain is None or covered is None:
        return
    before, after = CONTEXT[grain]
    start, end = q.window.start, q.window.end
    for _ in range(before):
        start = period_start(start - dt.timedelta(days=1), grain)
    for _ in range(after):
        end = period_end(end + dt.timedelta(days=1), grain)
    inside = [p for p in periods(Window(start, end), grain) if covered.covers(p)]
    if len(inside) > 2:
        yield Call("query", {"metrics": [parent], "grain": grain,
                             "window": window_json(Window(inside[0].start, inside[-1].end)),
                             **where}, f"{parent} by {grain} around the move, for context")


def _attribution(catalog: dict[str, Any], out: AnswerBuilder, handle: int | None, parent: str,
                 factors: list[str], v: dict[str, Any], driver: str) -> str:
    """Each factor's exact contribution and the driver's share, as claims citing the fields the
    layer computed; returns the sentence that states them."""
    whole, units = cat.label(catalog, parent), unit_of(catalog, parent)
    share, named = v[driver]["share"], cat.label(catalog, driver)
    out.measure(f"{subject(named)} {agree(named, 'accounts')} for {percent(share)} of the "
                f"change in {whole} (exact LMDI attribution)", cite(handle, driver, "share"), share)
    parts = []
    for m in factors:
        amount = v[m]["contribution"]
        out.measure(f"{subject(cat.label(catalog, m))} contributed {signed(amount, units)} to "
                    f"{whole}", cite(handle, m, "contribution"), amount)
        parts.append(f"{cat.label(catalog, m)} {signed(amount, units)}")
    return (f"exact LMDI attribution: {named} {percent(share)} of the change; "
            + ", ".join(parts))


def _drill(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, edge: dict[str, Any],
           driver: str, windows: dict[str, Any], whole: Outcome
           ) -> Generator[Call, Outcome, Drill | None]:
    """The member that stands out in the driver's move (rate), or the move said as spread
    evenly, and the dimension whose mix moved it."""
    weight = cat.weight_of(catalog, driver, edge)
    by_dim = yield from _split(q, catalog, driver, weight, windows)
    move = whole.rows()[0]["values"][driver]["delta"] or 0.0
    if not by_dim:
        return None
    rate = _standing_out([p for parts in by_dim.values() for p in parts], move)
    if rate is None:
        evenly = [_evenly_claim(q, catalog, out, driver, weight, parts, whole)
                  for parts in by_dim.values()]
        dims = _and([_dim(catalog, d) for d in by_dim])
        premises, because = [c for cs in evenly for c in cs], f", spread evenly across {dims}"
        segment = None
    else:
        c_rate = _rate_claim(q, catalog, out, driver, weight, rate, by_dim[rate.dim], whole)
        premises, because = [c_rate], f", most of all for {members(catalog, rate.key)}"
        segment = (c_rate, members(catalog, rate.key), rate.key)
    mix = _mix(by_dim, move) if weight is not None else None
    if mix is not None and weight is not None:
        c_mix = _mix_claim(q, catalog, out, driver, weight, mix, whole)
        toward = "toward" if _shift(mix, weight) > 0 else "away from"
        within = (f"moved within {members(catalog, rate.key)} (a rate effect)" if rate else
                  "moved in step within its members (a rate effect)")
        said = (f"the {_dim(catalog, mix.dim)} mix shifted {toward} "
                f"{_mix_member(catalog, mix)} (a mix effect) while "
                f"{cat.label(catalog, driver)} {within}")
        premises.append(out.argue(f"{subject(cat.label(catalog, driver))} moved both because "
                                  f"{said}", [c_mix, *premises]))
        because += f"; {said}"
    return Drill(premises, because, segment)


def _mix_member(catalog: dict[str, Any], part: Part) -> str:
    """The member the mix shifted toward: bare ('paid_search'), or after its dimension's label
    when it starts with a digit ('number of engines 2'), which is then read as a label, not a
    number."""
    return members(catalog, part.key) if part.member[:1].isdigit() else part.member


def _standing_out(parts: list[Part], move: float) -> Part | None:
    """The labelled member whose share of the move most exceeds its share of the base, when
    that is at least STANDS_OUT; None when no member stands out."""
    out = [p for p in parts if p.labelled and p.excess(move) >= STANDS_OUT]
    return max(out, key=lambda p: p.excess(move), default=None)


def _and(words: list[str]) -> str:
    """'plan', 'plan and country', 'plan, country and platform'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _dim(catalog: dict[str, Any], dim: str) -> str:
    """A dimension's label ('acquisition channel'), never its id."""
    return members(catalog, {dim: ""}).strip()


def _split(q: Understood, catalog: dict[str, Any], driver: str, weight: str | None,
           windows: dict[str, Any]) -> Generator[Call, Outcome, dict[str, list[Part]]]:
    """The driver (and its weight) compared by each small dimension, as members' parts."""
    metrics = [driver] if weight is None else [driver, weight]
    by_dim: dict[str, list[Part]] = {}
    for dim in cat.drill_dimensions(catalog, metrics, {f["dimension"] for f in q.filters}):
        args: dict[str, Any] = {"metrics": metrics, **windows, "by": dim}
        if q.filters:
            args["where"] = q.filters
        r = yield Call("compare", args, f"which {dim} explains the move in {driver}")
        parts = [] if r.blocked or r.partial else _parts(r, dim, driver, weight)
        if len(parts) > 1:  # one member with data splits nothing
            by_dim[dim] = parts
    return by_dim


def _parts(r: Outcome, dim: str, driver: str, weight: str | None) -> list[Part]:
    """Each member's mix and rate parts (attribution.mix_rate: they add up to the driver's
    move)."""
    rows = r.rows()
    if weight is None:
        rows = [row for row in rows if row["values"][driver]["delta"] is not None]
        bases = _shares([row["values"][driver]["previous"] for row in rows])
        return [Part(dim, str(row["key"][dim]), r.handle, row["key"], row["values"], 0.0,
                     row["values"][driver]["delta"], base)
                for row, base in zip(rows, bases, strict=True)]
    members = [(float(row["values"][weight]["value"] or 0),
                float(row["values"][weight]["previous"] or 0),
                *_levels(row["values"][driver])) for row in rows]
    bases = _shares([row["values"][weight]["previous"] for row in rows])
    return [Part(dim, str(row["key"][dim]), r.handle, row["key"], row["values"], mix, rate, base)
            for row, (mix, rate), base in zip(rows, mix_rate(members), bases, strict=True)]


def _shares(values: list[Any]) -> list[float]:
    """Each value's share of their sum (a missing value is none of it)."""
    total = sum(float(v or 0) for v in values)
    return [float(v or 0) / total if total else 0.0 for v in values]


def _levels(f: dict[str, Any]) -> tuple[float, float]:
    """(current, previous) of a member's driver; a member missing from one window takes the
    other's level (its move there is all mix)."""
    now, then = f.get("value"), f.get("previous")
    now = then if now is None else now
    then = now if then is None else then
    return float(now or 0.0), float(then or 0.0)


def _largest(parts: list[Part], move: float, part: str) -> Part | None:
    """The part of the move's sign with the largest size."""
    same = [p for p in parts if p.labelled and getattr(p, part) * move > 0]
    return max(same, key=lambda p: abs(getattr(p, part)), default=None)


def _mix(by_dim: dict[str, list[Part]], move: float) -> Part | None:
    """In the dimension whose mix moved the driver most (the move's way, at least MIX_NOTABLE of
    it), the member whose weight shift did."""
    totals = {dim: sum(p.mix for p in parts) for dim, parts in by_dim.items()}
    notable = [dim for dim, total in totals.items()
               if total * move > 0 and abs(total) >= MIX_NOTABLE * abs(move)]
    if not notable:
        return None
    dim = max(notable, key=lambda d: abs(totals[d]))
    return _largest(by_dim[dim], move, "mix")


def _shift(part: Part, weight: str) -> float:
    w = part.fields[weight]
    return (w["value"] or 0) - (w["previous"] or 0)


def _base_field(driver: str, weight: str | None) -> tuple[str, str]:
    """(metric, field) a member's share of the base is computed from."""
    return (weight, "previous") if weight is not None else (driver, "previous")


def _share_sources(driver: str, weight: str | None, parts: list[Part], whole: Outcome
                   ) -> list[str]:
    """The fields the members' shares are computed from: the whole's move and each member's
    base (their sum is the base)."""
    metric, field_ = _base_field(driver, weight)
    return [cite(whole.handle, driver, "delta"),
            *(cite(p.handle, metric, field_, p.key) for p in parts)]


def _base_words(catalog: dict[str, Any], driver: str, weight: str | None) -> str:
    """What a member's share of the base is a share of: 'active users in the earlier window'."""
    return f"{cat.label(catalog, weight if weight is not None else driver)} in the earlier window"


def _rate_claim(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, driver: str,
                weight: str | None, p: Part, parts: list[Part], whole: Outcome) -> str:
    """The member's move, and that its share of the driver's move clearly exceeds its share of
    the base (citing the fields both shares are computed from)."""
    f = p.fields[driver]
    named, units = cat.label(catalog, driver), unit_of(catalog, driver)
    who = f"{subject(named)} for {members(catalog, p.key)}{scope(q, catalog)}"
    stands = (f": its share of the change in {named} clearly exceeds its share of "
              f"{_base_words(catalog, driver, weight)}")
    shares = _share_sources(driver, weight, parts, whole)
    if f["pct_change"] is None:
        return out.measure(f"{who} {is_value(named, f['value'], units)}{stands}",
                           cite(p.handle, driver, "value", p.key), f["value"], *shares)
    text = (f"{who} {moved(f['pct_change'], named)} ({fmt(f['previous'], units)} → "
            f"{fmt(f['value'], units)}){stands}")
    return out.measure(text, cite(p.handle, driver, "pct_change", p.key), f["pct_change"],
                       cite(p.handle, driver, "previous", p.key),
                       cite(p.handle, driver, "value", p.key), *shares)


def _evenly_claim(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, driver: str,
                  weight: str | None, parts: list[Part], whole: Outcome) -> list[str]:
    """That no member of one dimension stands out: claims citing, per member, its move in the
    driver and its base (members in groups that fit the citation limit)."""
    named, dim = cat.label(catalog, driver), _dim(catalog, parts[0].dim)
    metric, field_ = _base_field(driver, weight)
    each = 3 if weight is not None else 2  # a rate part needs the level's two ends
    size = max(1, (MAX_CITATIONS - 1) // each)
    claims = []
    for at in range(0, len(parts), size):
        group = parts[at:at + size]
        sources = [cite(whole.handle, driver, "delta")]
        for p in group:  # its base, and what its rate part is computed from
            sources.append(cite(p.handle, metric, field_, p.key))
            sources += ([cite(p.handle, weight, "value", p.key),
                         cite(p.handle, driver, "delta", p.key)] if weight is not None
                        else [cite(p.handle, driver, "delta", p.key)])
        named_ = [members(catalog, p.key) for p in group if p.labelled] or [dim]
        which = ("" if len(group) == len(parts) else f" ({named_[0]} through {named_[-1]})"
                 if len(named_) > 1 else f" ({named_[0]})")
        claims.append(out.measure(
            f"Across {dim}{which}{scope(q, catalog)}, no member's share of the change in {named} "
            f"clearly exceeds its share of {_base_words(catalog, driver, weight)}",
            sources[0], whole.rows()[0]["values"][driver]["delta"], *sources[1:]))
    return claims


def _mix_claim(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, driver: str,
               weight: str, p: Part, whole: Outcome) -> str:
    """The weight that moved toward the member, and its driver level against everyone's: the
    fields the mix part is computed from."""
    w, f = p.fields[weight], p.fields[driver]
    overall = whole.rows()[0]["values"][driver]["value"]
    heavy, named = cat.label(catalog, weight), cat.label(catalog, driver)
    wu, du = unit_of(catalog, weight), unit_of(catalog, driver)
    shift = (f"{moved(w['pct_change'], heavy)} ({fmt(w['previous'], wu)} → "
             f"{fmt(w['value'], wu)})"
             if w["pct_change"] is not None else is_value(heavy, w["value"], wu))
    first = "pct_change" if w["pct_change"] is not None else "value"
    text = (f"{subject(heavy)} for {members(catalog, p.key)}{scope(q, catalog)} {shift}, "
            f"and their {named} {is_value(named, f['value'], du)} against {fmt(overall, du)} "
            f"for all{scope(q, catalog)}")
    also = [cite(p.handle, weight, x, p.key) for x in ("previous", "value")] \
        if first == "pct_change" else []
    return out.measure(text, cite(p.handle, weight, first, p.key), w[first], *also,
                       cite(p.handle, driver, "value", p.key),
                       cite(whole.handle, driver, "value"))


def _influences(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, driver: str,
                windows: dict[str, Any], segment: tuple[str, str, dict] | None
                ) -> Generator[Call, Outcome, list[str]]:
    """Influence edges into the driver, checked and stated as hypotheses when they moved."""
    said: list[str] = []
    for edge in catalog["tree"]["influence"]:
        if edge["target"] != driver:
            continue
        source = edge["source"]
        dims = cat.info(catalog, source).get("dimensions") or []
        args: dict[str, Any] = {"metrics": [source], **windows}
        key: dict[str, str] = {}
        if segment and next(iter(segment[2])) in dims:
            args["by"] = next(iter(segment[2]))
            key = segment[2]
        if q.filters and all(f["dimension"] in dims for f in q.filters):
            args["where"] = q.filters
        r = yield Call("compare", args, f"did {source} move (influence edge into {driver})")
        if r.blocked or r.partial:
            continue
        row = next((x for x in r.rows() if all(x["key"].get(k) == v for k, v in key.items())),
                   None)
        if row is None:
            continue
        f = row["values"][source]
        if f["pct_change"] is None or abs(f["pct_change"]) < INFLUENCE_NOTABLE_PCT:
            continue
        parts = [members(catalog, {w["dimension"]: kept_words(w)})
                 for w in args.get("where", [])]
        parts += [members(catalog, key)] if key else []
        segment_words = f" ({'; '.join(parts)})" if parts else ""
        c = out.measure(f"{subject(cat.label(catalog, source))}{segment_words} "
                        f"{moved(f['pct_change'], cat.label(catalog, source))}",
                        cite(r.handle, source, "pct_change", key),
                        f["pct_change"])
        hypothesis = (f"{cat.label(catalog, source)}{segment_words} "
                      f"{moved(f['pct_change'], cat.label(catalog, source))}, "
                      f"which may have moved {cat.label(catalog, driver)} (an influence edge: "
                      "correlational, not attributed)")
        out.argue(f"Hypothesis: {hypothesis}", [c, f"tree:{source}>{driver}"])
        said.append(hypothesis)
    return said
