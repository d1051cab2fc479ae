"""Every number the user reads is checked: a measurement claim's text against what it cites, and
the answer's prose, headline value and listed values against what the claims state and cite.

Numbers are read by protocol/numbers.py (one reader for the audit, the repair messages and the
fault simulator). A number that is not a claim (a date, a period, a rank, the question's own
numbers) is never read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from harness.audit.context import AnswerContext, Cited, ClaimContext
from harness.audit.steps import emits
from harness.audit.types import Defect
from protocol.answer import Listed
from protocol.citations import period_start
from protocol.numbers import Kind, ReadNumber, from_value, matches, read_unsupported, say


@dataclass(frozen=True, slots=True)
class Support:
    """A value the user may read a number as: a cited field, or a claim's stated value."""

    value: float
    kind: Kind
    where: str
    """What says it: a citation (r1:active_users.value) or a claim's value (c3's value)."""


def kind_of(field: str, metric: str, catalog: dict[str, Any]) -> Kind:
    """Percent fields are percent units; a fraction metric's levels are fractions."""
    if field in ("pct_change", "share"):
        return "percent"
    unit = (catalog.get("metrics") or {}).get(metric, {}).get("unit")
    return "fraction" if unit == "fraction" else "number"


def cited_supports(cited: Iterable[Cited], catalog: dict[str, Any]) -> list[Support]:
    return [Support(c.value, kind_of(c.citation.field, c.metric, catalog), c.text)
            for c in cited if _numeric(c.value)]


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _supported(number: ReadNumber, supports: list[Support]) -> bool:
    return any(matches(number, s.value, s.kind) for s in supports)


def _nearest(number: ReadNumber, supports: list[Support]) -> Support | None:
    return min(supports, key=lambda s: abs(s.value - number.value), default=None)


@emits("text_value_mismatch")
def check_text_numbers(ctx: ClaimContext) -> list[Defect]:
    """Each number a measurement claim's text states must be one of the values it cites."""
    if ctx.claim.kind != "measurement" or ctx.rendered or not ctx.cited:
        return []
    supports = cited_supports(ctx.cited, ctx.catalog)
    if not supports:
        return []
    return [_text_defect(ctx, n, supports) for n in
            read_unsupported(ctx.claim.text, ctx.question or "", partial(_supported, supports=supports))]


def _text_defect(ctx: ClaimContext, number: ReadNumber, supports: list[Support]) -> Defect:
    cited = supports[0]
    said = say(cited.value, cited.kind)
    return Defect("text_value_mismatch", ctx.cid,
                  f"Claim {ctx.cid}'s text says {number.text} but cites {cited.where} = {said}: write "
                  f"{said} or cite the field that says {number.text}.", number.text, number.start)


@emits("unsupported_number")
def check_answer_numbers(ctx: AnswerContext) -> list[Defect]:
    """The answer's prose, headline value and listed values state only numbers a claim states
    or cites."""
    if ctx.answer.status != "answered" or not ctx.answer.has_graph:
        return []  # no claim graph: nothing to hold the prose to (not measurable)
    supports = answer_supports(ctx)
    found = [_prose_defect(n, supports) for n in
             read_unsupported(ctx.answer.answer, ctx.question or "",
                              partial(_supported, supports=supports))]
    return found + _headline(ctx.answer.value, supports) + _listed(ctx, supports)


def answer_supports(ctx: AnswerContext) -> list[Support]:
    """Every cited field of every claim, and every claim's stated value (in its first source's
    units)."""
    out: list[Support] = []
    for claim in ctx.claims:
        out += cited_supports(claim.cited, ctx.catalog)
        value = claim.claim.value
        if _numeric(value):
            out.append(Support(value, _stated_kind(claim, ctx.catalog),  # type: ignore[arg-type]
                               f"{claim.cid}'s value"))
    return out


def _stated_kind(claim: ClaimContext, catalog: dict[str, Any]) -> Kind:
    """A claim's value is in its first source's units, read from the citation as written even
    when it did not resolve."""
    sources = claim.claim.sources or []
    if claim.cited and sources and claim.cited[0].text == sources[0]:
        return kind_of(claim.cited[0].citation.field, claim.cited[0].metric, catalog)
    m = _FIELD.search(sources[0]) if sources and isinstance(sources[0], str) else None
    return kind_of(m.group(2), m.group(1), catalog) if m else "number"


_FIELD = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$")


def _prose_defect(number: ReadNumber, supports: list[Support]) -> Defect:
    return Defect("unsupported_number", "answer",
                  f"The answer text says {number.text}, but no claim states or cites it"
                  f"{_hint(number, supports)}. Cite the field that says {number.text} in a claim, "
                  "or write the number a claim cites.", number.text, number.start)


def _headline(value: Any, supports: list[Support]) -> list[Defect]:
    if not _numeric(value) or not _finite(value):
        return []
    number = from_value(value)
    if _supported(number, supports):
        return []
    return [Defect("unsupported_number", "answer.value",
                   f"The headline value {value!r} is not a value any claim states or cites"
                   f"{_hint(number, supports)}. Set value to a cited number, or add a claim "
                   "citing it.", repr(value), None)]


def _listed(ctx: AnswerContext, supports: list[Support]) -> list[Defect]:
    """Each listed value must be one a claim states or cites; a value whose key is a row some
    claim cites must be one of that row's (a value listed under the wrong member is caught)."""
    by_row = row_supports(ctx)
    out = []
    for i, item in enumerate(ctx.answer.values or []):
        if not _numeric(item.value) or not _finite(item.value):  # type: ignore[arg-type]
            continue
        number = from_value(item.value)  # type: ignore[arg-type]
        own = by_row.get(period_start(item.key.strip()))
        if not _supported(number, own or supports):
            out.append(_listed_defect(i, item, number, own, supports))
    return out


def row_supports(ctx: AnswerContext) -> dict[str, list[Support]]:
    """Member (a grain's period start) → the values claims citing a row with it state or cite."""
    out: dict[str, list[Support]] = {}
    for claim in ctx.claims:
        for c in claim.cited:
            for member in {period_start(str(v)) for v in c.row.key.values()}:
                out.setdefault(member, []).extend(cited_supports([c], ctx.catalog))
        value = claim.claim.value
        if claim.cited and _numeric(value):
            stated = Support(value, _stated_kind(claim, ctx.catalog),  # type: ignore[arg-type]
                             f"{claim.cid}'s value")
            for member in {period_start(str(v)) for v in claim.cited[0].row.key.values()}:
                out.setdefault(member, []).append(stated)
    return out


def _listed_defect(i: int, item: Listed, number: ReadNumber, own: list[Support] | None,
                   supports: list[Support]) -> Defect:
    said = f"{item.key} = {say(number.value)}"
    if own:
        why = (f"answer.values[{i}] lists {said}, but no claim citing the row {item.key} states "
               f"or cites it{_hint(number, own)}. List the value that row's claim cites, or fix "
               "the key.")
    else:
        why = (f"answer.values[{i}] lists {said}, but no claim states or cites it"
               f"{_hint(number, supports)}. Add a measurement claim citing its row, or list the "
               "value a claim cites.")
    return Defect("unsupported_number", f"answer.values[{i}]", why, repr(item.value), None)


def _finite(value: float) -> bool:
    return value == value and abs(value) != float("inf")


def _hint(number: ReadNumber, supports: list[Support]) -> str:
    near = _nearest(number, supports)
    return f" (nearest: {near.where} = {say(near.value, near.kind)})" if near else ""
