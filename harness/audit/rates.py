"""A cited total said as a rate per unit of time, held to the total and its window.

"That is about 34 cancellations a day in June" (1,009 over June's 30 days), "roughly $5,000 a
month" (Ontario's $14,938.80 over March to May), "the second half averaged about 28,400 flights
a month" (the six monthly rows over six months), "annualised, that is about $732k" (a month's
value × 12): a number followed by 'a day', 'per week', 'each month', … or said with
'annualised', 'a year', 'annual run rate', of a value the claims cite for a window, divided by
how many of those units the window holds. Only a metric whose values add (the catalog's
`additive`), or, annualised, one whose name says it is already a monthly or weekly amount
('monthly recurring revenue': × 12). The sentence picks the values: the metric, member and
period it names; the rows of a cited series a named period spans add up first. The number must
be some picked value's rate at its written precision (a hedge's interval; the metric's unit and
currency). A rate some picked value bears out consumes its words; one none does is an
unsupported number naming the rates the values give.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from showwork.harness.audit.labels import read_words, windows_of
from showwork.harness.audit.numbers import money_fits, money_of, stating_words
from showwork.harness.audit.quantifiers import _SENTENCE, _TIME_KEYS, Derived, states
from showwork.protocol.numbers import (
    NOT_CLAIMS,
    ReadNumber,
    _candidates,
    _list_count,
    claims_in,
)
from showwork.protocol.reading import find_mentions
from showwork.protocol.reading._literals import search

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited
    from showwork.protocol.reading import Mention, PeriodMention

Span = tuple[int, int]
Window = tuple[dt.date, dt.date]

_PER = re.compile(r"(?i)\s*(?P<noun>(?:[a-z]+\s+){0,2}?)(?P<per>(?:a|an|per|each|every)\s+"
                  r"(?P<unit>day|week|month|quarter|year))\b")
_ANNUAL = re.compile(r"(?i)\b(?:annuali[sz]ed|(?:an\s+)?annual\s+run[\s-]rate(?:\s+of)?|"
                     r"(?:a\s+)?run[\s-]rate\s+of)\b")
_APART = re.compile(r"(?i)\b(?:apart\s+from|except(?:\s+for)?|other\s+than|besides|"
                    r"outside(?:\s+of)?|excluding|aside\s+from)\b")
_ALREADY = {"monthly": 12, "weekly": 52, "quarterly": 4}
"""A metric named as an amount per period already: what a year holds of it."""


@dataclass(frozen=True)
class _Total:
    metric: str
    field: str
    value: float
    window: Window
    keys: frozenset[str]
    """The members of its row (lower case)."""
    text: str


def read_rates(ctx: AnswerContext, text: str) -> list[Derived]:
    """Every rate per unit of time of `text` over a value the claims cite."""
    if text != ctx.answer.answer:
        return []
    low = text.lower()
    if not any(w in low for w in (" a ", " per ", " each ", " every ", "annual", "run")):
        return []
    return ctx.from_rows_once("rates", lambda: list(_rates(ctx, text)))


def _rates(ctx: AnswerContext, text: str) -> Iterator[Derived]:
    reading = read_words(ctx.index_, "prose", text)
    totals = _totals(ctx)
    if not totals:
        return
    for sentence in _SENTENCE.finditer(text):
        start, end = sentence.span()
        said = sentence.group()
        if search(_APART, said):
            continue  # 'apart from October, … about 200 a month': of rows the text leaves out
        annual = search(_ANNUAL, said)
        if annual is None and search(_PER, said) is None:
            continue  # no number of it is said per unit of time: its numbers are not read
        for n in _per_numbers(said):
            if n.percent or n.upto is not None or n.width:
                continue
            per = _PER.match(said, n.end)
            unit = per.group("unit").lower() if per else "year" if annual else None
            if unit is None:
                continue
            found = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
            picked = _picked(ctx, totals, found, [
                p for p in reading.periods if start <= p.span[0] < end])
            if not picked:
                continue
            rates = [(t, r) for t in picked if (r := _rate(ctx, t, unit)) is not None
                     and r != t.value]  # one unit's value 'a month' is the value: not a rate
            if not rates:
                continue
            holds = any(money_fits(n, money_of(t.field, t.metric, ctx.catalog)) and states(n, r)
                        for t, r in rates)
            spans: list[Span] = [(n.start, n.end)]
            if per:
                spans.append(per.span("per"))
            elif annual:
                spans.append(annual.span())
            spans += stating_words(said, n)  # 'averaged about 28,400 flights a month'
            shown = "; ".join(f"{t.text} {t.value:,.6g} gives {r:,.6g} a {unit}"
                              for t, r in rates[:3])
            yield Derived(tuple((a + start, b + start) for a, b in spans),
                       replace(n, start=n.start + start, end=n.end + start), holds, shown)


def _per_numbers(said: str) -> tuple[ReadNumber, ...]:
    """The numbers of a sentence a user reads as claims, and a small count before 'a day' that
    `claims_in` leaves out as a count of things listed ('18 cancellations a day')."""
    kept = claims_in(said)
    return tuple(n for n in _candidates(said) if n in kept or (
        _PER.match(said, n.end) and not any(rule(said, n) for rule in NOT_CLAIMS
                                            if rule is not _list_count)))


def _totals(ctx: AnswerContext) -> list[_Total]:
    """Every cited value with its window: a level's, a change's value (its current window) and
    previous value (its earlier one), a series row's period."""
    out = []
    seen = set()
    for claim in ctx.claims:
        for c in claim.cited:
            field = c.citation.field
            if field not in ("value", "previous") or not isinstance(c.value, int | float) \
                    or isinstance(c.value, bool) or c.text in seen:
                continue
            seen.add(c.text)
            window = _window(ctx, c, field)
            if window is None:
                continue
            keys = frozenset(str(v).lower() for k, v in c.citation.selector if k not in _TIME_KEYS)
            out.append(_Total(c.metric, field, float(c.value), window, keys, c.text))
    return out


def _window(ctx: AnswerContext, c: Cited, field: str) -> Window | None:
    grain = c.result.grain
    if grain and c.row.key.get(grain):
        rows = windows_of(ctx, c)
        return rows[-1] if rows else None  # the row's own period comes last
    coverage = list(c.result.coverage)
    at = 1 if field == "previous" else 0
    if at >= len(coverage):
        return None
    raw = coverage[at].get("requested") or coverage[at].get("covered") or {}
    try:
        return (dt.date.fromisoformat(str(raw["start"])[:10]),
                dt.date.fromisoformat(str(raw["end"])[:10]))
    except (KeyError, ValueError):
        return None


def _picked(ctx: AnswerContext, totals: list[_Total], found: list[Mention],
            periods: list[PeriodMention]) -> list[_Total]:
    """The values the sentence speaks of: its metric's, its members' (a member's row only when
    it names the member), its period's (a period spanning several cited rows of a series adds
    them up)."""
    metrics = ctx.catalog.get("metrics", {})
    named = {m.name for m in found if m.kind == "metric"}
    members = {str(m.member).lower() for m in found if m.kind == "member" and m.member}
    out = [t for t in totals if (not named or t.metric in named)
           and (members <= t.keys if members else not t.keys)
           and (metrics.get(t.metric, {}).get("additive") or _already(ctx, t.metric))]
    if periods:
        kept = []
        for p in periods:
            span = (p.period.start, p.period.end)
            exact = [t for t in out if t.window == span]
            inside = [t for t in out if span[0] <= t.window[0] and t.window[1] <= span[1]
                      and t.window != span]
            kept += exact
            by_metric: dict[str, list[_Total]] = {}
            for t in inside:
                by_metric.setdefault(t.metric, []).append(t)
            for metric, rows in by_metric.items():
                covered = sum((t.window[1] - t.window[0]).days + 1 for t in rows)
                if len(rows) >= 2 and covered == (span[1] - span[0]).days + 1:
                    kept.append(_Total(metric, rows[0].field, sum(t.value for t in rows), span,
                                       frozenset(), f"{len(rows)} rows of {metric}"))
        out = kept
    return out


def _already(ctx: AnswerContext, metric: str) -> int:
    """How many of the metric a year holds when its name says it is per month or week."""
    m = ctx.catalog.get("metrics", {}).get(metric, {})
    words = f"{metric} {m.get('label') or ''}".lower().replace("_", " ").split()
    return next((n for w, n in _ALREADY.items() if w in words), 0)


def _rate(ctx: AnswerContext, t: _Total, unit: str) -> float | None:
    """The total's value per `unit` of its window."""
    if not ctx.catalog.get("metrics", {}).get(t.metric, {}).get("additive"):
        per_year = _already(ctx, t.metric)
        return t.value * per_year if unit == "year" and per_year else None
    start, end = t.window
    days = (end - start).days + 1
    months = _whole_months(start, end)
    if unit == "day":
        return t.value / days
    if unit == "week":
        return t.value / (days / 7)
    if months is None:
        return None  # a month, quarter or year of a window that is not whole months
    size = {"month": 1, "quarter": 3, "year": 12}[unit]
    return t.value / (months / size)


def _whole_months(start: dt.date, end: dt.date) -> int | None:
    if start.day != 1 or (end + dt.timedelta(days=1)).day != 1:
        return None
    return (end.year - start.year) * 12 + end.month - start.month + 1
