"""Claim checks: each takes the claim's context and returns defects, run in order.

The checks resolve citations by lookup in the stored results; nothing is recomputed and no model
is asked. Every message is exact and ends with the fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.audit.evidence import Evidence
from harness.audit.index import CatalogIndex
from harness.audit.types import Defect, Resolved
from harness.audit.values import matches, suggest
from protocol.answer import Claim
from protocol.citations import (
    CitationSyntaxError,
    PremiseCitation,
    ResultCitation,
    StatementCitation,
    parse_citation,
)
from semantic_layer.results import Result, Row

FIX = "Fix the citation or remove the claim."


@dataclass(slots=True)
class ClaimContext:
    """One claim being audited, and what its checks have found so far."""

    index: int
    """1-based claim number (c1 is 1)."""
    claim: Claim
    evidence: Evidence
    index_: CatalogIndex
    resolved: list[Resolved] = field(default_factory=list)
    defects: list[Defect] = field(default_factory=list)
    cited: list[tuple[str, ResultCitation, Result, Row, Any]] = field(default_factory=list)
    """Result citations that resolved: (text, citation, result, row, value)."""
    statements: list[StatementCitation] = field(default_factory=list)
    premises: list[int] = field(default_factory=list)
    composition: dict[str, Any] | None = None
    """Set when the stated value is derived from several cited metrics."""
    cid: str = ""
    """c1, c2, …"""

    def __post_init__(self) -> None:
        self.cid = f"c{self.index}"

    @property
    def catalog(self) -> dict[str, Any]:
        return self.index_.catalog

    def defect(self, code: str, message: str, citation: str | None = None,
               position: int | None = None) -> None:
        self.defects.append(Defect(code, self.cid, message, citation, position))


def check_support_shape(ctx: ClaimContext) -> None:
    sources, premises = ctx.claim.sources or [], ctx.claim.premises or []
    if sources and premises:
        ctx.defect("mixed_support", f"Claim {ctx.cid} has both sources and premises; a "
                   "measurement cites results in sources, a conclusion or causal claim cites "
                   "earlier claims in premises. Split it into two claims.")
    elif not sources and not premises:
        ctx.defect("no_support", f"Claim {ctx.cid} cites nothing; cite a result field in sources "
                   "or earlier claims in premises, or remove the claim.")


def _parse(ctx: ClaimContext, text: Any, where: str):
    if not isinstance(text, str):
        ctx.defect("malformed_citation", f"Claim {ctx.cid} has a {where} entry that is not a "
                   f"string ({text!r}). {FIX}", repr(text), 0)
        return None
    try:
        return parse_citation(text)
    except CitationSyntaxError as exc:
        if _bare_metric(ctx, text):
            return None
        ctx.defect("malformed_citation", f"Claim {ctx.cid} cites {exc.message[:-1]}. {FIX}",
                   text, exc.position)
        return None


def _bare_metric(ctx: ClaimContext, text: str) -> bool:
    """`r2:paid_search` (no field): an unknown field when r2 exists and has no such metric."""
    head, _, name = text.partition(":")
    if not (head[:1] == "r" and head[1:].isdigit() and name.isidentifier()):
        return False
    result = ctx.evidence.results.get(int(head[1:]))
    if result is None or name in result.metrics:
        return False
    ctx.defect("unknown_field", f"Claim {ctx.cid} cites {text}, but r{head[1:]} has no field "
               f"{name}. {FIX}", text)
    return True


def check_sources(ctx: ClaimContext) -> None:
    for text in ctx.claim.sources or []:
        citation = _parse(ctx, text, "sources")
        if citation is None:
            continue
        if not isinstance(citation, ResultCitation):
            ctx.defect("malformed_citation", f"Claim {ctx.cid} lists {text} in sources, which "
                       "hold result citations (rN:metric.field); premises and tree statements "
                       f"go in premises. {FIX}", text, 0)
            continue
        _resolve_result(ctx, text, citation)


def _resolve_result(ctx: ClaimContext, text: str, c: ResultCitation) -> None:
    result = ctx.evidence.results.get(c.handle)
    if result is None:
        ctx.defect("unknown_handle", _unknown_handle(ctx, text, c.handle), text)
        return
    metric = _metric_in(result, c.metric, ctx.index_)
    if metric is None:
        ctx.defect("unknown_field", f"Claim {ctx.cid} cites {text}, but r{c.handle} has no "
                   f"metric {c.metric} (it has: {', '.join(result.metrics)}). {FIX}", text)
        return
    if c.field not in result.fields:
        ctx.defect("unknown_field", f"Claim {ctx.cid} cites {text}, but r{c.handle} has no field "
                   f"{c.field} (fields: {', '.join(result.fields)}). {FIX}", text)
        return
    row = _row(ctx, text, c, result)
    if row is None:
        return
    value = row.values[metric][c.field]
    ctx.cited.append((text, c, result, row, value))
    ctx.resolved.append(Resolved(text, "result", value, c.handle, metric, c.field, row.key))


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


def _row(ctx: ClaimContext, text: str, c: ResultCitation, result: Result) -> Row | None:
    selector = dict(c.selector)
    unknown = [k for k in selector if k not in result.keys]
    if unknown:
        keys = ", ".join(result.keys) if result.keys else "none: it has one row"
        ctx.defect("unknown_row", f"Claim {ctx.cid} cites {text}, but r{c.handle} has no row key "
                   f"{unknown[0]} (row keys: {keys}). {FIX}", text)
        return None
    rows = result.find_rows(selector)
    if len(rows) == 1 and (len(result.rows) == 1 or selector):
        return rows[0]
    if not rows:
        ctx.defect("unknown_row", f"Claim {ctx.cid} cites {text}, but no row of r{c.handle} has "
                   f"{_sel(selector)} (rows: {_rows(result)}). {FIX}", text)
        return None
    example = _sel(rows[0].key)
    ctx.defect("ambiguous_row", f"Claim {ctx.cid} cites {text}, but {len(rows)} rows of "
               f"r{c.handle} match; add a row selector that picks one, e.g. "
               f"r{c.handle}[{example}]:{c.metric}.{c.field}. {FIX}", text)
    return None


def _sel(key: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in key.items())


def _rows(result: Result, limit: int = 6) -> str:
    shown = "; ".join(_sel(r.key) for r in result.rows[:limit])
    return shown + ("; …" if len(result.rows) > limit else "")


def check_premises(ctx: ClaimContext) -> None:
    for text in ctx.claim.premises or []:
        citation = _parse(ctx, text, "premises")
        if citation is None:
            continue
        if isinstance(citation, ResultCitation):
            ctx.defect("malformed_citation", f"Claim {ctx.cid} lists {text} in premises, which "
                       "hold earlier claims (cN) and tree statements; result citations go in "
                       f"sources of a measurement claim. {FIX}", text, 0)
        elif isinstance(citation, PremiseCitation):
            _premise(ctx, text, citation.index)
        else:
            _statement(ctx, text, citation)


def _premise(ctx: ClaimContext, text: str, index: int) -> None:
    if index == ctx.index:
        why = "itself"
    elif index > ctx.index:
        why = "a later claim; premises must be earlier claims"
    else:
        ctx.premises.append(index)
        ctx.resolved.append(Resolved(text, "premise"))
        return
    ctx.defect("unknown_premise", f"Claim {ctx.cid} cites premise {text}, {why}. {FIX}", text)


def _statement(ctx: ClaimContext, text: str, s: StatementCitation) -> None:
    edges = ctx.index_.edges
    if (s.parent, s.child) not in edges:
        listed = ", ".join(f"tree:{p}>{c}" for p, c in edges)
        ctx.defect("unknown_statement", f"Claim {ctx.cid} cites {text}, which is not an edge of "
                   f"the metric tree (edges: {listed}). {FIX}", text)
        return
    ctx.statements.append(s)
    ctx.resolved.append(Resolved(text, "statement", edges[(s.parent, s.child)]))


def check_value(ctx: ClaimContext) -> None:
    """The stated value must match the first source's cited value (see values.py)."""
    stated = ctx.claim.value
    if stated is None or not ctx.cited or ctx.claim.sources is None:
        return
    first = ctx.claim.sources[0]
    hit = [item for item in ctx.cited if item[0] == first]
    if not hit:
        return
    cited = hit[0][4]
    if cited is None:
        ctx.defect("value_mismatch", f"Claim {ctx.cid} states {stated!r} but {first} is empty "
                   f"(no data). {FIX}", first)
        return
    if matches(stated, cited):
        return
    composition = _composition(ctx, stated)
    if composition is not None:
        ctx.composition = composition
        return
    how = "a number" if isinstance(stated, str) else suggest(cited)
    ctx.defect("value_mismatch", f"Claim {ctx.cid} states {stated!r} but {first} is "
               f"{cited:g}; state it as {how}, or fix the citation.", first)


def _composition(ctx: ClaimContext, stated: Any) -> dict[str, Any] | None:
    """A stated value equal to a combination of two cited values of different metrics."""
    if not isinstance(stated, int | float) or isinstance(stated, bool):
        return None
    items = [(c, v) for _t, c, _r, _row, v in ctx.cited if isinstance(v, int | float)]
    for i, (a, va) in enumerate(items):
        for b, vb in items[i + 1:]:
            if a.metric == b.metric:
                continue
            for op, value in _combinations(va, vb):
                if matches(stated, value):
                    return {"op": op, "metrics": [a.metric, b.metric], "value": value}
    return None


def _combinations(a: float, b: float) -> list[tuple[str, float]]:
    out = [("a*b", a * b), ("a+b", a + b), ("a-b", a - b), ("b-a", b - a)]
    if b:
        out += [("a/b", a / b), ("a/b*100", a / b * 100)]
    if a:
        out += [("b/a", b / a), ("b/a*100", b / a * 100)]
    return out


CHECKS = (check_support_shape, check_sources, check_premises, check_value)
