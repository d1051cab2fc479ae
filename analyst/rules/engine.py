"""The rules analyst's plans: a generator that yields governed calls and returns an answer.

The plan is replayed from the start on every turn with the outcomes so far, so the client keeps
no state between turns: the conversation is the state.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from analyst.rules.claims import AnswerBuilder, cite, fmt, moved, signed
from analyst.rules.understand import Understood
from semantic_layer.tree import driver as pick_driver
from semantic_layer.windows import Window, periods

DRILL_DIMENSIONS = ("platform", "plan", "channel", "country")
INFLUENCE_NOTABLE_PCT = 10.0


@dataclass(frozen=True)
class Call:
    tool: str
    arguments: dict[str, Any]
    purpose: str


@dataclass(frozen=True)
class Outcome:
    """What a governed call returned: a handle and result, or the blocked reason."""

    handle: int | None
    result: dict[str, Any] | None
    reason: str | None

    @property
    def blocked(self) -> bool:
        return self.handle is None

    def rows(self) -> list[dict[str, Any]]:
        return (self.result or {}).get("rows", [])

    @property
    def partial(self) -> bool:
        return bool((self.result or {}).get("partial"))

    def partial_reason(self) -> str:
        for cov in (self.result or {}).get("coverage", []):
            if cov["partial"]:
                req, got = cov["requested"], cov["covered"]
                covered = f"{got['start']}..{got['end']}" if got else "none of it"
                return (f"the window {req['start']}..{req['end']} is only partly covered by data "
                        f"(covered: {covered}); a partial period would read as a fake change.")
        return "the window is only partly covered by data."

    def unusable(self, what: str) -> str | None:
        """Why this result cannot answer (blocked, or a partly covered window), else None."""
        if self.blocked:
            return self.reason or f"the governed layer refused the {what}"
        return self.partial_reason() if self.partial else None


Plan = Generator[Call, Outcome, dict[str, Any]]


def _window(w: Window | None) -> dict[str, str]:
    if w is None:
        raise ValueError("a governed call needs a window; the question reader gives one")
    return w.to_json()


def plan(q: Understood, catalog: dict[str, Any], claims_on: bool) -> Plan:
    out = AnswerBuilder(claims_on)
    if q.refusal:
        return out.refused(q.refusal)
    assert q.window is not None
    if q.unknown_metric:
        probe = yield Call("query", {"metrics": [q.unknown_metric], "window": _window(q.window)},
                           f"check whether {q.unknown_metric!r} is a governed metric")
        if probe.blocked:
            return out.refused(probe.reason or "the metric is not governed")
        return out.refused(f"{q.unknown_metric!r} is not a metric I can read reliably.")
    if q.intent == "diagnostic":
        return (yield from diagnose(q, catalog, out))
    if q.intent == "compare":
        return (yield from compare(q, catalog, out))
    if q.intent == "breakdown":
        return (yield from breakdown(q, catalog, out))
    return (yield from lookup(q, catalog, out))


def _label(catalog: dict[str, Any], metric: str) -> str:
    return catalog["metrics"].get(metric, {}).get("label", metric.replace("_", " "))


def _fraction(catalog: dict[str, Any], metric: str) -> bool:
    return catalog["metrics"].get(metric, {}).get("unit") == "fraction"


def _scope(q: Understood) -> str:
    parts = [f"{f['dimension']} {', '.join(f['values'])}" for f in q.filters]
    return f" ({'; '.join(parts)})" if parts else ""


def _whole_periods(window: Window | None, grain: str | None) -> Window | None:
    """The whole periods of the grain inside the window ('weekly … in March' → its full weeks)."""
    if window is None or grain not in ("week", "month"):
        return window
    inside = [p for p in periods(window, grain) if window.covers(p)]
    return Window(inside[0].start, inside[-1].end) if inside else window


def lookup(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    q.window = _whole_periods(q.window, q.grain)
    args: dict[str, Any] = {"metrics": q.metrics, "window": _window(q.window)}
    for key, value in (("group_by", q.group_by), ("where", q.filters), ("grain", q.grain),
                       ("aggregate", q.aggregate)):
        if value:
            args[key] = value
    r = yield Call("query", args, f"measure {', '.join(q.metrics)} over {q.window}")
    if why := r.unusable("query"):
        return out.refused(why)
    rows = r.rows()
    if not rows:
        return out.refused(f"no data for {', '.join(q.metrics)} in {q.window}.")
    for row in rows[:12]:
        for metric in q.metrics:
            value = row["values"][metric]["value"]
            where = ", ".join(f"{k} {v}" for k, v in row["key"].items())
            scope = f" ({where})" if where else _scope(q)
            out.measure(f"{_label(catalog, metric).capitalize()}{scope} was "
                        f"{fmt(value, _fraction(catalog, metric))} in {q.window}",
                        cite(r.handle, metric, "value", row["key"]), value)
    first = rows[0]["values"][q.metrics[0]]["value"] if len(rows) == 1 else None
    summary = "; ".join(c["text"] for c in out.claims[:3]) or "No rows."
    note = f" (Assumed {q.assumed[0]}.)" if q.assumed else ""
    return out.answered(summary + "." + note, first)


def compare(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    assert q.previous is not None
    args: dict[str, Any] = {"metrics": q.metrics, "current_window": _window(q.window),
                            "previous_window": _window(q.previous)}
    if q.group_by:
        args["by"] = q.group_by[0]
    if q.filters:
        args["where"] = q.filters
    r = yield Call("compare", args, f"compare {', '.join(q.metrics)}: {q.window} vs {q.previous}")
    if why := r.unusable("comparison"):
        return out.refused(why)
    for row in r.rows()[:12]:
        for metric in q.metrics:
            f = row["values"][metric]
            where = ", ".join(f"{k} {v}" for k, v in row["key"].items()) or _scope(q).strip(" ()")
            scope = f" ({where})" if where else ""
            frac = _fraction(catalog, metric)
            out.measure(f"{_label(catalog, metric).capitalize()}{scope} {moved(f['pct_change'])} "
                        f"({fmt(f['previous'], frac)} → {fmt(f['value'], frac)}), {q.window} "
                        f"versus {q.previous}", cite(r.handle, metric, "pct_change", row["key"]),
                        f["pct_change"], cite(r.handle, metric, "previous", row["key"]),
                        cite(r.handle, metric, "value", row["key"]))
    rows = r.rows()
    value = rows[0]["values"][q.metrics[0]]["pct_change"] if len(rows) == 1 else None
    return out.answered("; ".join(c["text"] for c in out.claims[:3]) + ".", value)


def breakdown(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    metric, dim = q.metrics[0], q.group_by[0]
    args: dict[str, Any] = {"metrics": [metric], "window": _window(q.window), "group_by": [dim],
                            "order_by": {"field": metric, "desc": q.rank != "least"}}
    if q.filters:
        args["where"] = q.filters
    r = yield Call("query", args, f"rank {dim} members by {metric} over {q.window}")
    if why := r.unusable("breakdown"):
        return out.refused(why)
    rows = [row for row in r.rows() if row["values"][metric]["value"] is not None]
    if not rows:
        return out.refused(f"no data for {metric} by {dim} in {q.window}.")
    frac = _fraction(catalog, metric)
    cited = []
    for row in rows[:3]:
        member, value = row["key"][dim], row["values"][metric]["value"]
        cited.append(out.measure(f"{_label(catalog, metric).capitalize()} for {dim} {member} was "
                                 f"{fmt(value, frac)} in {q.window}",
                                 cite(r.handle, metric, "value", row["key"]), value))
    top = rows[0]["key"][dim]
    word = "fewest" if q.rank == "least" else "most"
    if len(cited) > 1:
        out.argue(f"{dim.capitalize()} {top} had the {word} {_label(catalog, metric)} in "
                  f"{q.window}", cited)
    return out.answered(f"{top} had the {word} {_label(catalog, metric)} in {q.window}.", top)


def _exact_edge(catalog: dict[str, Any], metric: str) -> dict[str, Any] | None:
    return next((e for e in catalog["tree"]["exact"] if e["parent"] == metric), None)


def diagnose(q: Understood, catalog: dict[str, Any], out: AnswerBuilder) -> Plan:
    parent = q.metrics[0]
    edge = _exact_edge(catalog, parent)
    if edge is None:
        exact = ", ".join(e["parent"] for e in catalog["tree"]["exact"]) or "none"
        return out.refused(f"{parent} has no exact decomposition in the governed metric tree "
                           f"(decomposed metrics: {exact}), so its move cannot be attributed; "
                           "influence edges are correlational only.")
    factors = list(edge["factors"])
    assert q.previous is not None
    windows = {"current_window": _window(q.window), "previous_window": _window(q.previous)}
    where = {"where": q.filters} if q.filters else {}
    r = yield Call("compare", {"metrics": [parent, *factors], **windows, **where},
                   f"{parent} and its factors, {q.window} vs {q.previous}")
    if why := r.unusable("comparison"):
        return out.refused(why)
    v = r.rows()[0]["values"]
    total = v[parent]
    if any(v[m]["value"] in (None, 0) or v[m]["previous"] in (None, 0) for m in [parent, *factors]):
        return out.refused(f"{parent} or a factor has no data in one window, so the change "
                           "cannot be attributed.")
    c_parent = out.measure(f"{_label(catalog, parent).capitalize()}{_scope(q)} "
                           f"{moved(total['pct_change'])}, {q.window} versus {q.previous}",
                           cite(r.handle, parent, "pct_change"), total["pct_change"])
    factor_claims = {m: out.measure(f"{_label(catalog, m).capitalize()}{_scope(q)} "
                                    f"{moved(v[m]['pct_change'])}",
                                    cite(r.handle, m, "pct_change"), v[m]["pct_change"])
                     for m in factors}
    contributions = {m: v[m]["contribution"] for m in factors}
    driver = pick_driver(contributions, total["delta"])
    if driver is None:
        return out.answered(f"{_label(catalog, parent).capitalize()} did not move.",
                            total["pct_change"])
    segment = yield from _drill(q, catalog, out, driver, windows)
    hypotheses = yield from _influences(q, catalog, out, driver, windows, segment)
    attribution = _attribution(catalog, out, r.handle, parent, factors, v, driver)
    premises = [c_parent, factor_claims[driver]] + ([segment[0]] if segment else [])
    because = (f"{_label(catalog, parent).capitalize()}{_scope(q)} {moved(total['pct_change'])} "
               f"mainly because {_label(catalog, driver)} {moved(v[driver]['pct_change'])}")
    if segment:
        because += f", most of all for {segment[1]}"
    out.argue(because, [*premises, f"tree:{parent}>{driver}"], kind="causal")
    text = (f"{because} ({attribution})."
            + "".join(f" Hypothesis, correlational only: {h}." for h in hypotheses))
    return out.answered(text, total["pct_change"], driver)


def _attribution(catalog: dict[str, Any], out: AnswerBuilder, handle: int | None, parent: str,
                 factors: list[str], v: dict[str, Any], driver: str) -> str:
    """Each factor's exact contribution and the driver's share, as claims citing the fields the
    layer computed; returns the sentence that states them."""
    unit = _label(catalog, parent)
    share = v[driver]["share"]
    out.measure(f"{_label(catalog, driver).capitalize()} accounts for {signed(share)}% of the "
                f"change in {unit} (exact LMDI attribution)",
                cite(handle, driver, "share"), share)
    parts = []
    for m in factors:
        amount = v[m]["contribution"]
        out.measure(f"{_label(catalog, m).capitalize()} contributed {signed(amount)} {unit}",
                    cite(handle, m, "contribution"), amount)
        parts.append(f"{m} {signed(amount)}")
    return (f"exact LMDI attribution: {driver} {signed(share)}% of the change; "
            + ", ".join(parts))


def _drill(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, driver: str,
           windows: dict[str, Any]) -> Generator[Call, Outcome, tuple[str, str, dict] | None]:
    """The member whose change explains most of the driver's move, across dimensions."""
    filtered = {f["dimension"] for f in q.filters}
    dims = [d for d in DRILL_DIMENSIONS if d not in filtered
            and d in catalog["metrics"][driver]["dimensions"]]
    weight_metric = "active_users"
    best: tuple[float, int | None, dict[str, str], dict[str, Any]] | None = None
    for dim in dims:
        metrics = [driver] if driver == weight_metric else [driver, weight_metric]
        args = {"metrics": metrics, **windows, "by": dim}
        if q.filters:
            args["where"] = q.filters
        r = yield Call("compare", args, f"which {dim} explains the move in {driver}")
        if r.blocked or r.partial:
            continue
        rows = r.rows()
        total_weight = sum((row["values"][weight_metric]["value"] or 0) for row in rows) or 1
        for row in rows:
            f = row["values"][driver]
            if f["delta"] is None:
                continue
            weight = 1.0 if driver == weight_metric else (
                (row["values"][weight_metric]["value"] or 0) / total_weight)
            explained = f["delta"] * weight
            if best is None or abs(explained) > abs(best[0]):
                best = (explained, r.handle, row["key"], f)
    if best is None:
        return None
    _explained, handle, key, f = best
    (dim, member), = key.items()
    text = (f"{_label(catalog, driver).capitalize()} for {dim} {member} {moved(f['pct_change'])} "
            f"({fmt(f['previous'])} → {fmt(f['value'])})")
    claim = out.measure(text, cite(handle, driver, "pct_change", key), f["pct_change"],
                        cite(handle, driver, "previous", key), cite(handle, driver, "value", key))
    return claim, f"{dim} {member}", key


def _influences(q: Understood, catalog: dict[str, Any], out: AnswerBuilder, driver: str,
                windows: dict[str, Any], segment: tuple[str, str, dict] | None
                ) -> Generator[Call, Outcome, list[str]]:
    """Influence edges into the driver, checked and stated as hypotheses when they moved."""
    said: list[str] = []
    for edge in catalog["tree"]["influence"]:
        if edge["target"] != driver:
            continue
        source = edge["source"]
        dims = catalog["metrics"][source]["dimensions"]
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
        parts = [f"{f['dimension']} {', '.join(f['values'])}" for f in args.get("where", [])]
        parts += [f"{k} {v}" for k, v in key.items()]
        scope = f" ({'; '.join(parts)})" if parts else ""
        c = out.measure(f"{_label(catalog, source).capitalize()}{scope} {moved(f['pct_change'])}",
                        cite(r.handle, source, "pct_change", key), f["pct_change"])
        hypothesis = (f"{_label(catalog, source)}{scope} {moved(f['pct_change'])}, which may have "
                      f"moved {_label(catalog, driver)} (an influence edge: correlational, not "
                      "attributed)")
        out.argue(f"Hypothesis: {hypothesis}", [c, f"tree:{source}>{driver}"])
        said.append(hypothesis)
    return said
