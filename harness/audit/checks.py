"""Claim checks: each declares its defect codes and returns the defects it finds, run in order.

The checks resolve citations by lookup in the stored results; nothing is recomputed and no model
is asked. Every message is exact and ends with the fix. Resolution checks record what resolved
on the context (`cited`, `premises`, `statements`) for the checks and finders after them.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from showwork.harness.audit.context import Cited, ClaimContext
from showwork.harness.audit.counted import check_amount_counted
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.numbers import check_text_numbers
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Defect, Resolved
from showwork.harness.audit.values import matches, suggest
from showwork.protocol.citations import (
    Citation,
    CitationSyntaxError,
    PremiseCitation,
    ResultCitation,
    StatementCitation,
    format_selector,
    parse_citation,
)
from showwork.semantic_layer.results import Result, Row

FIX = "Fix the citation or remove the claim."


@emits("mixed_support", "no_support")
def check_support_shape(ctx: ClaimContext) -> list[Defect]:
    sources, premises = ctx.claim.sources or [], ctx.claim.premises or []
    if sources and premises:
        return [ctx.defect("mixed_support", f"Claim {ctx.cid} has both sources and premises; a "
                           "measurement cites results in sources, a conclusion or causal claim "
                           "cites earlier claims in premises. Split it into two claims.")]
    if not sources and not premises:
        return [ctx.defect("no_support", f"Claim {ctx.cid} cites nothing; cite a result field in "
                           "sources or earlier claims in premises, or remove the claim.")]
    return []


def _malformed(ctx: ClaimContext, text: str, why: str, position: int | None) -> Defect:
    """The one place a malformed_citation is made: what is wrong, then the fix."""
    return ctx.defect("malformed_citation", f"Claim {ctx.cid} {why}. {FIX}", text, position)


def _parse(ctx: ClaimContext, text: Any, where: str) -> Citation | Defect | None:
    """The parsed citation, or the defect that says why it is not one (None: reported as an
    unknown field by the bare-metric rule)."""
    if not isinstance(text, str):
        return _malformed(ctx, repr(text), f"has a {where} entry that is not a string "
                          f"({text!r})", 0)
    try:
        return parse_citation(text)
    except CitationSyntaxError as exc:
        return _bare_metric(ctx, text) or _malformed(ctx, text, f"cites {exc.message[:-1]}",
                                                     exc.position)


def _bare_metric(ctx: ClaimContext, text: str) -> Defect | None:
    """`r2:paid_search` (no field): an unknown field when r2 exists and has no such metric."""
    head, _, name = text.partition(":")
    if not (head[:1] == "r" and head[1:].isdigit() and name.isidentifier()):
        return None
    result = ctx.evidence.results.get(int(head[1:]))
    if result is None or name in result.metrics:
        return None
    return ctx.defect("unknown_field", f"Claim {ctx.cid} cites {text}, but r{head[1:]} has no "
                      f"field {name}. {FIX}", text)


@emits("malformed_citation", "unknown_handle", "unknown_field", "unknown_row", "ambiguous_row")
def check_sources(ctx: ClaimContext) -> list[Defect]:
    out: list[Defect] = []
    for text in ctx.claim.sources or []:
        citation = _parse(ctx, text, "sources")
        if citation is None or isinstance(citation, Defect):
            out += [citation] if citation else []
        elif not isinstance(citation, ResultCitation):
            out.append(_malformed(ctx, text, f"lists {text} in sources, which hold result "
                                  "citations (rN:metric.field); premises and tree statements go "
                                  "in premises", 0))
        else:
            out += _resolve_result(ctx, text, citation)
    return out


def _resolve_result(ctx: ClaimContext, text: str, c: ResultCitation) -> list[Defect]:
    result = ctx.evidence.results.get(c.handle)
    if result is None:
        return [ctx.defect("unknown_handle", _unknown_handle(ctx, text, c.handle), text)]
    metric = _metric_in(result, c.metric, ctx.index_)
    if metric is None:
        return [ctx.defect("unknown_field", f"Claim {ctx.cid} cites {text}, but r{c.handle} has "
                           f"no metric {c.metric} (it has: {', '.join(result.metrics)}). {FIX}",
                           text)]
    # every metric has a value: only another field is looked for among the metric's fields
    if c.field != "value" and c.field not in (fields := result.fields_of(metric)):
        return [ctx.defect("unknown_field", f"Claim {ctx.cid} cites {text}, but {metric} in "
                           f"r{c.handle} has no field {c.field} (fields: {', '.join(fields)}"
                           f"{_attribution_hint(result, c.field)}). {FIX}", text)]
    row = _row(ctx, text, c, result)
    if isinstance(row, Defect):
        return [row]
    value = row.values[metric][c.field]
    ctx.cited.append(Cited(text, c, result, row, value, metric))
    ctx.resolved.append(Resolved(text, "result", value, c.handle, metric, c.field, row.key))
    return []


def _attribution_hint(result: Result, field: str) -> str:
    if field == "share_of_total" and result.kind == "query":
        return "; share_of_total is a field of a query asked with share: true and group_by"
    if field not in ("contribution", "share") or result.kind != "compare":
        return ""
    return ("; contribution and share are fields of the factors of an exact tree edge, in a "
            "comparison that holds the parent and all its factors")


def _metric_in(result: Result, name: str, index: CatalogIndex) -> str | None:
    if name in result.metrics:
        return name
    current = index.current.get(name)
    return current if current in result.metrics else None


def _unknown_handle(ctx: ClaimContext, text: str, handle: int) -> str:
    handles = sorted(ctx.evidence.results)
    have = ", ".join(f"r{h}" for h in handles) if handles else "none"
    msg = f"Claim {ctx.cid} cites {text}, but there is no result r{handle} (results: {have})."
    blocked = ctx.evidence.blocked()
    match = [(i, call) for i, call in blocked if i == handle]
    if match:
        i, call = match[0]
        msg += (f" Governed call {i} ({call.tool}) was blocked: {call.error} Blocked calls get "
                "no handle.")
    elif blocked:
        msg += f" {len(blocked)} call(s) were blocked or failed and got no handle."
    return f"{msg} {FIX}"


def _row(ctx: ClaimContext, text: str, c: ResultCitation, result: Result) -> Row | Defect:
    if not c.selector and len(result.rows) == 1:
        return result.rows[0]  # the one row of a result without row keys: most citations
    selector = c.row_selector()
    for k in selector:
        if k not in result.keys:
            keys = ", ".join(result.keys) if result.keys else "none: it has one row"
            return ctx.defect("unknown_row", f"Claim {ctx.cid} cites {text}, but r{c.handle} has "
                              f"no row key {k} (row keys: {keys}). {FIX}", text)
    rows = result.find_rows(selector)
    if len(rows) == 1 and (len(result.rows) == 1 or selector):
        return rows[0]
    if not rows:
        return ctx.defect("unknown_row", f"Claim {ctx.cid} cites {text}, but no row of "
                          f"r{c.handle} has {_sel(selector)} (rows: {_rows(result)}). {FIX}", text)
    example = _sel(rows[0].key)
    return ctx.defect("ambiguous_row", f"Claim {ctx.cid} cites {text}, but {len(rows)} rows of "
                      f"r{c.handle} match; add a row selector that picks one, e.g. "
                      f"r{c.handle}[{example}]:{c.metric}.{c.field}. {FIX}", text)


def _sel(key: dict[str, str]) -> str:
    return format_selector(key)  # quoted where a member needs it, so the hint is a citation


def _rows(result: Result, limit: int = 6) -> str:
    shown = "; ".join(_sel(r.key) for r in result.rows[:limit])
    return shown + ("; …" if len(result.rows) > limit else "")


@emits("malformed_citation", "unknown_premise", "unknown_statement")
def check_premises(ctx: ClaimContext) -> list[Defect]:
    out: list[Defect] = []
    for text in ctx.claim.premises or []:
        citation = _parse(ctx, text, "premises")
        if citation is None or isinstance(citation, Defect):
            out += [citation] if citation else []
        elif isinstance(citation, ResultCitation):
            out.append(_malformed(ctx, text, f"lists {text} in premises, which hold earlier "
                                  "claims (cN) and tree statements; result citations go in "
                                  "sources of a measurement claim", 0))
        elif isinstance(citation, PremiseCitation):
            out += _premise(ctx, text, citation.index)
        else:
            out += _statement(ctx, text, citation)
    return out


def _premise(ctx: ClaimContext, text: str, index: int) -> list[Defect]:
    if index == ctx.index:
        why = "itself"
    elif index > ctx.index:
        why = "a later claim; premises must be earlier claims"
    else:
        ctx.premises.append(index)
        ctx.resolved.append(Resolved(text, "premise"))
        return []
    return [ctx.defect("unknown_premise", f"Claim {ctx.cid} cites premise {text}, {why}. {FIX}",
                       text)]


def _statement(ctx: ClaimContext, text: str, s: StatementCitation) -> list[Defect]:
    edges = ctx.index_.edges
    if (s.parent, s.child) not in edges:
        listed = ", ".join(f"tree:{p}>{c}" for p, c in edges)
        return [ctx.defect("unknown_statement", f"Claim {ctx.cid} cites {text}, which is not an "
                           f"edge of the metric tree (edges: {listed}). {FIX}", text)]
    ctx.statements.append(s)
    ctx.resolved.append(Resolved(text, "statement", edges[(s.parent, s.child)]))
    return []


@emits("value_mismatch")
def check_value(ctx: ClaimContext) -> list[Defect]:
    """The stated value must match the first source's cited value (see values.py)."""
    stated = ctx.claim.value
    if stated is None or not ctx.cited or ctx.claim.sources is None:
        return []
    first = ctx.claim.sources[0]
    hit = next((item for item in ctx.cited if item.text == first), None)
    if hit is None:
        return []
    if hit.value is None:
        return [ctx.defect("value_mismatch", f"Claim {ctx.cid} states {stated!r} but {first} is "
                           f"empty (no data). {FIX}", first)]
    if matches(stated, hit.value):
        return []
    ctx.composition = _composition(ctx, stated)
    if ctx.composition is not None:
        return []
    how = "a number" if isinstance(stated, str) else suggest(hit.value)
    return [ctx.defect("value_mismatch", f"Claim {ctx.cid} states {stated!r} but {first} is "
                       f"{hit.value:g}; state it as {how}, or fix the citation.", first)]


def _composition(ctx: ClaimContext, stated: Any) -> dict[str, Any] | None:
    """A stated value equal to a combination of two cited values of different metrics, or to
    a share of a whole across periods (`_period_share`)."""
    if not isinstance(stated, int | float) or isinstance(stated, bool):
        return None
    items = [(c.citation, c.value) for c in ctx.cited if isinstance(c.value, int | float)]
    for i, (a, va) in enumerate(items):
        for b, vb in items[i + 1:]:
            if a.metric == b.metric:
                continue
            for op, value in _combinations(va, vb):
                if matches(stated, value):
                    return {"op": op, "metrics": [a.metric, b.metric], "value": value}
    return _period_share(ctx, stated)


def _period_share(ctx: ClaimContext, stated: int | float) -> dict[str, Any] | None:
    """A stated fraction equal to one metric's value over a part period divided by its value
    over a whole period holding it ('15.3 % of 2013's cancellations were in February'): both
    plain totals (no grain, one row each) of a metric that adds up over time, asked with the
    same filters. Composition marked `whole: period`, which the model licenses: it is the
    metric's own share, not a new metric."""
    totals = [c for c in ctx.cited if c.citation.field == "value" and c.result.kind == "query"
              and c.result.grain is None and len(c.result.rows) == 1
              and isinstance(c.value, int | float) and not isinstance(c.value, bool)]
    for part in totals:
        for whole in totals:
            if part.metric != whole.metric or not whole.value or not _adds_up(ctx, part):
                continue
            value = part.value / whole.value
            where = _where(ctx, part)
            if matches(stated, value) and _inside(_requested(part), _requested(whole)) \
                    and part.row.key == whole.row.key and where is not None \
                    and where == _where(ctx, whole):
                return {"op": "a/b", "metrics": [part.metric, whole.metric], "value": value,
                        "whole": "period", "windows": [_requested(part), _requested(whole)]}
    return None


def _adds_up(ctx: ClaimContext, item: Cited) -> bool:
    """The metric's value over a period is the sum of its values over the period's parts: no
    ratio or derived metric, no snapshot at the end of the window."""
    info = (ctx.catalog.get("metrics") or {}).get(item.metric) or {}
    return not info.get("formula") and item.metric not in item.result.point_in_time


def _requested(item: Cited) -> tuple[str, str] | None:
    """The window the cited result was asked for (start, end), as stored."""
    cov = item.result.coverage[0] if item.result.coverage else {}
    req = cov.get("requested") if isinstance(cov, dict) else None
    return (str(req.get("start")), str(req.get("end"))) if isinstance(req, dict) else None


def _inside(part: tuple[str, str] | None, whole: tuple[str, str] | None) -> bool:
    """The part's window lies within the whole's and is smaller (ISO dates compare as text)."""
    return part is not None and whole is not None and part != whole and \
        whole[0] <= part[0] and part[1] <= whole[1]


def _where(ctx: ClaimContext, item: Cited) -> str | None:
    """The cited result's call filters, as canonical JSON; None when the call is not known."""
    handle = item.citation.handle
    arguments = next((c.arguments for c in ctx.evidence.calls if c.handle == handle), None)
    if isinstance(arguments, msgspec.Raw):
        arguments = msgspec.json.decode(arguments) if arguments else None
    if not isinstance(arguments, dict):
        return None
    return json.dumps(arguments.get("where") or [], sort_keys=True)


def _combinations(a: int | float, b: int | float) -> list[tuple[str, int | float]]:
    out = [("a*b", a * b), ("a+b", a + b), ("a-b", a - b), ("b-a", b - a)]
    if b:
        out += [("a/b", a / b), ("a/b*100", a / b * 100)]
    if a:
        out += [("b/a", b / a), ("b/a*100", b / a * 100)]
    return out


CHECKS = (check_support_shape, check_sources, check_premises, check_value, check_text_numbers,
          check_amount_counted)
"""In order: check_text_numbers reads what the resolution checks before it found."""
