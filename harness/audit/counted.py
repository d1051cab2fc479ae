"""An amount said as a count: a money value written as a number of things.

'There were 1,452 cancellations in Mexico' of a metric Cancellations governed in usd (1,452.4)
states a count of cancellations, which no cited field holds: the number, right before a plural
noun of the money metric's own words ('cancellations', 'transactions' of Transaction Amount,
'orders' of average order value) and with no currency of its own, is in a unit (things counted)
no cited value is in. A number in one unit never matches a value in another (DESIGN.md): in a
measurement claim's text it is `text_value_mismatch`, in the prose `unsupported_number`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from showwork.harness.audit.context import AnswerContext, Cited, ClaimContext
from showwork.harness.audit.counts import plurals
from showwork.harness.audit.numbers import numeric, read_claims
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Defect
from showwork.protocol.numbers import CURRENCIES, ReadNumber, matches

_NOT_THINGS = frozenset({"usd", "eur", "gbp", "dollars", "euros", "pounds", "cents", "in", "the",
                         "per", "of", "and", "a", "an", "net", "gross", "total", "average",
                         "avg", "mean", "sum", "last", "days"})
"""Words of a label that name no thing counted (currencies, function words, statistics)."""


def _money_metric(ctx: ClaimContext | AnswerContext, metric: str) -> bool:
    entry = (ctx.catalog.get("metrics") or {}).get(metric, {})
    unit = entry.get("unit") or entry.get("currency")
    return bool(unit) and unit in CURRENCIES


def _things(ctx: ClaimContext | AnswerContext, metric: str) -> tuple[str, ...]:
    """The plural nouns a count of the money metric's own words would be written with."""
    entry = (ctx.catalog.get("metrics") or {}).get(metric, {})
    words = re.findall(r"[a-z]+", f"{entry.get('label') or ''} {metric}".replace("_", " ")
                       .lower())
    out: set[str] = set()
    for w in words:
        if len(w) < 4 or w in _NOT_THINGS:
            continue
        out |= {w} if w.endswith("s") and not w.endswith("ss") else set(plurals(w))
    return tuple(sorted(out - _NOT_THINGS, key=len, reverse=True))


def _counted(ctx: ClaimContext | AnswerContext, text: str, cited: Iterable[Cited]
             ) -> list[tuple[ReadNumber, Cited]]:
    """(number, citation) for each number with no currency written right before a plural noun
    of a cited money metric's words, stating that metric's cited value."""
    cited = [c for c in cited if _money_metric(ctx, c.metric)]
    if not cited or not text:
        return []
    out = []
    for n in read_claims(ctx.index_, text):
        if n.money or n.percent:
            continue
        for c in cited:
            nouns = _things(ctx, c.metric)
            value = c.value
            if not nouns or not numeric(value) or not matches(n, value):
                continue
            if re.match(rf"(?i)\s+(?:{'|'.join(map(re.escape, nouns))})\b", text[n.end:]):
                out.append((n, c))
                break
    return out


@emits("text_value_mismatch")
def check_amount_counted(ctx: ClaimContext) -> list[Defect]:
    """A measurement claim's money value written as a count of things."""
    if ctx.claim.kind != "measurement" or ctx.rendered or not ctx.cited:
        return []
    return [Defect("text_value_mismatch", ctx.cid,
                   f"Claim {ctx.cid}'s text says {n.text} {_noun(ctx.claim.text, n)}, a count, "
                   f"but cites {c.text} = {c.value!r}, an amount of money: "
                   f"write the amount in its currency.", n.text, n.start)
            for n, c in _counted(ctx, ctx.claim.text, ctx.cited)]


@emits("unsupported_number")
def check_prose_amount_counted(ctx: AnswerContext) -> list[Defect]:
    """The prose's money values written as counts of things (held to every claim's citations)."""
    text = ctx.answer.answer
    if ctx.answer.status != "answered" or not text or not ctx.answer.has_graph:
        return []
    cited = [c for claim in ctx.claims for c in claim.cited]
    return [Defect("unsupported_number", "answer",
                   f"The answer says {n.text} {_noun(text, n)}, a count, but {c.text} is an "
                   f"amount of money: write the amount in its currency.", n.text, n.start)
            for n, c in _counted(ctx, text, cited)]


def _noun(text: str, n: ReadNumber) -> str:
    found = re.match(r"\s+(\w+)", text[n.end:])
    return found.group(1) if found else ""
