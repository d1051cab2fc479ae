"""A series read over time: universals of direction and superlatives over periods.

- A direction stated as a universal or a trend over periods ("fell every week", "declined
  steadily", "rose for 3 weeks in a row") quantifies over the successive changes of a cited
  series: every change must go the stated way (`direction_mismatch`, a conflict, when one does
  not), and every period of the series it speaks of must be cited (`unbacked_comparison` when
  the cited rows are not the whole series, or no series is cited).
- A superlative over time ("an all-time high of 171,793", "a record 171,793", "the highest
  ever") compares every period of the metric's coverage: it is backed only by cited rows of one
  series covering the metric's whole coverage, whose extreme is the number it states
  (`unbacked_comparison` otherwise). Which period holds a series' extreme ("peaked in May") is
  read elsewhere; this reads only what the superlative quantifies over.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from showwork.harness.audit.context import AnswerContext, Cited, ClaimContext
from showwork.harness.audit.labels import period_window, support_of
from showwork.harness.audit.numbers import numeric
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Finding
from showwork.protocol.numbers import claims_in, matches
from showwork.protocol.reading import find_mentions
from showwork.protocol.reading.asks import FALL, RISE

_UNIT = r"(?:day|week|month|quarter|year)"
_COUNT = r"(?:[0-9]+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_UNIVERSAL = re.compile(
    rf"(?i)\b(?:every|each)\s+(?:single\s+)?{_UNIT}\b|\b{_UNIT}\s+after\s+{_UNIT}\b"
    r"|\b(?:steadily|consistently|continuously|continually|without\s+(?:a\s+)?"
    r"(?:break|pause|interruption))\b"
    rf"|\bfor\s+(?P<n>{_COUNT})\s+(?:straight\s+|consecutive\s+)?{_UNIT}s\s+in\s+a\s+row\b"
    rf"|\b(?P<m>{_COUNT})\s+(?:straight|consecutive)\s+{_UNIT}s\b")
_RECORD = re.compile(
    r"(?i)\ball[-\s]time\s+(?P<a>high|low|peak|record|best|worst|max(?:imum)?|min(?:imum)?)\b"
    r"|\b(?P<b>highest|lowest|largest|smallest|biggest|most|fewest|least|best|worst|strongest|"
    r"weakest)\s+(?:level\s+|value\s+)?(?:ever|on\s+record|in\s+history)\b"
    r"|\brecord(?:[-\s](?P<c>high|low|level))?\b(?![-\s]?(?:ed|s)\b)"
    r"|\bnever\s+(?:been\s+)?(?P<d>higher|lower)\b")
_LOW = frozenset({"low", "lowest", "smallest", "fewest", "least", "worst", "weakest", "min",
                  "minimum", "lower"})
_CLAUSE = re.compile(r"(?:[^.;!?]|\.(?=[0-9]))+")
"""A clause: up to a stop, where a decimal point ('10.8') ends none."""
_WORD = re.compile(r"[a-z]+")
_RISES = RISE | {"growing", "grown", "climbing", "increasing", "gaining", "rising"}
_FALLS = FALL | {"declining", "decreasing", "dropping", "shrinking", "sliding", "falling"}
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}

Series = tuple[str, list[tuple[str, Any]], list[tuple[str, Any]]]
"""(metric, the cited (period, value) rows in order, every row of that series in its result)."""


def _said(clause: str) -> int:
    """+1 when the clause states a rise, -1 a fall, 0 neither or both."""
    words = set(_WORD.findall(clause.lower()))
    rise, fall = bool(words & _RISES), bool(words & _FALLS)
    return 0 if rise == fall else (1 if rise else -1)


def _series(cited: tuple[Cited, ...] | list[Cited]) -> list[Series]:
    """Each cited series (one metric and field of a grain result, one member): its cited rows
    and all its rows, by period."""
    groups: dict[tuple[Any, ...], tuple[Cited, dict[str, Any]]] = {}
    for item in cited:
        grain = item.result.grain
        if not grain or grain not in item.row.key or not numeric(item.value):
            continue
        rest = tuple(sorted((k, v) for k, v in item.row.key.items() if k != grain))
        key = (item.citation.handle, item.metric, item.citation.field, rest)
        groups.setdefault(key, (item, {}))[1][str(item.row.key[grain])] = item.value
    out = []
    for (_h, metric, field, rest), (item, rows) in groups.items():
        grain = item.result.grain
        whole = {str(r.key[grain]): v for r in item.result.rows if grain in r.key
                 and tuple(sorted((k, x) for k, x in r.key.items() if k != grain)) == rest
                 and numeric(v := (r.values.get(item.citation.metric) or {}).get(field))}
        out.append((metric, sorted(rows.items()), sorted(whole.items())))
    return out


def _of_metric(ctx: AnswerContext | ClaimContext, clause: str, series: list[Series]
               ) -> list[Series]:
    """The series of the metric the clause names (every series when it names none)."""
    index = ctx.index_
    named = {index.current.get(m.name, m.name) for m in index.read(
        "mentions", clause, lambda t: find_mentions(t, index.catalog)) if m.kind == "metric"}
    return [s for s in series if not named or index.current.get(s[0], s[0]) in named]


def _universal(where: str, clause: str, said: int, found: re.Match[str],
               series: list[Series]) -> Finding | None:
    phrase = " ".join(found.group(0).split())
    word = "rose" if said > 0 else "fell"
    run = found["n"] or found["m"]
    need = (int(run) if run.isdigit() else _NUMBERS[run.lower()]) if run else 0
    backed = [s for s in series if len(s[1]) >= 2 and len(s[1]) == len(s[2])
              and len(s[1]) > need]
    if not backed:
        return Finding(
            "unbacked_comparison", where,
            f"The answer says it {word} {phrase!r}, but no cited result holds every period of "
            "the series it speaks of.", {"phrase": phrase, "said": word},
            "Query the metric at the grain over the window and cite every period's row, or "
            "say only what the cited periods show.")
    for metric, rows, _whole in backed:
        changes = [(a[0], b[0], b[1] - a[1]) for a, b in zip(rows, rows[1:], strict=False)]
        if need:
            if any(all(c[2] * said > 0 for c in changes[i:i + need])
                   for i in range(len(changes) - need + 1)):
                return None
            first = next(c for c in changes if c[2] * said <= 0)
        else:
            against = [c for c in changes if c[2] * said <= 0]
            if not against:
                return None
            first = against[0]
        return Finding(
            "direction_mismatch", where,
            f"The answer says {metric} {word} {phrase!r}, but the cited rows went "
            f"{first[2]:+,.6g} from {first[0]} to {first[1]}.",
            {"said": word, "phrase": phrase, "from": first[0], "to": first[1],
             "change": first[2]},
            "Say how the series moved period by period, or state its overall change.")
    return None


def _covers(ctx: AnswerContext | ClaimContext, metric: str, rows: list[tuple[str, Any]],
            grain: str) -> bool:
    """The rows' periods run from the metric's first covered day to its last."""
    coverage = ((ctx.catalog.get("metrics") or {}).get(metric) or {}).get("coverage") or {}
    first = period_window(rows[0][0], grain) if rows else None
    last = period_window(rows[-1][0], grain) if rows else None
    try:
        start = dt.date.fromisoformat(coverage["start"])
        end = dt.date.fromisoformat(coverage["end"])
    except (KeyError, TypeError, ValueError):
        return False
    return first is not None and last is not None and first[0] <= start and last[1] >= end


def _record(ctx: AnswerContext | ClaimContext, where: str, clause: str, found: re.Match[str],
            series: list[Series], grains: dict[str, str]) -> Finding | None:
    phrase = " ".join(found.group(0).split())
    word = next((w for w in (found["a"], found["b"], found["c"], found["d"]) if w), "high")
    low = word.lower() in _LOW
    numbers = claims_in(clause)
    for metric, rows, whole in series:
        if len(rows) != len(whole) or not _covers(ctx, metric, rows, grains[metric]):
            continue
        extreme = (min if low else max)(v for _p, v in rows)
        if not numbers or any(matches(n, extreme) for n in numbers):
            return None
    return Finding(
        "unbacked_comparison", where,
        f"The answer says {phrase!r}, a comparison over every period of the metric's "
        "coverage, but no cited series covers them all with that extreme.",
        {"phrase": phrase},
        "Query the metric at a grain over its whole coverage and cite every row, or say only "
        "what the cited periods show.")


_CUES = ("every", "each", "after", "steadily", "consistently", "continu", "without",
         "straight", "consecutive", "all-time", "ever", "record", "history")
"""A word or part of one, in lower case, that every match of `_UNIVERSAL` or `_RECORD` holds
unless it holds one of `_SPACED` ('ever' is in 'never' and 'every')."""
_SPACED = ("in a row", "all time")
"""The cues of several words, looked for with single spaces."""


def _speaks_of_periods(text: str) -> bool:
    """The text states a universal over periods or a superlative over time (a prefilter: most
    texts hold none of the cues, and substring tests cost a fraction of the two searches; the
    spaces of a text are made single only when a cue of several words may be in it)."""
    if not text:
        return False
    low = text.lower()
    if not _has_cue(low):
        if "row" not in low and "time" not in low:
            return False
        spaced = " ".join(low.split())
        if not any(cue in spaced for cue in _SPACED):
            return False
    return _UNIVERSAL.search(text) is not None or _RECORD.search(text) is not None


def _has_cue(low: str) -> bool:
    for cue in _CUES:  # noqa: SIM110 - a loop, not any(): no generator per text read
        if cue in low:
            return True
    return False


def speaks_of_periods(ctx: AnswerContext | ClaimContext, text: str) -> bool:
    """`_speaks_of_periods`, read once per catalog for each text, as every other reading."""
    return ctx.index_.read("speaks-of-periods", text, _speaks_of_periods)


def trends_of(ctx: AnswerContext | ClaimContext, where: str, text: str,
              cited: tuple[Cited, ...] | list[Cited]) -> list[Finding]:
    """The universals of direction and superlatives over time the text states, held to the
    cited series (the callers have found that the text speaks of periods)."""
    series = _series(cited)
    grains = {s[0]: "" for s in series}
    for item in cited:
        if item.result.grain and item.metric in grains:
            grains[item.metric] = item.result.grain
    out: list[Finding] = []
    for clause_match in _CLAUSE.finditer(text):
        clause = clause_match.group(0)
        mine = _of_metric(ctx, clause, series)
        universal = _UNIVERSAL.search(clause)
        said = _said(clause) if universal else 0
        if universal and said:
            finding = _universal(where, clause, said, universal, mine)
            if finding is not None:
                out.append(finding)
                continue
        record = _RECORD.search(clause)
        if record is not None:
            finding = _record(ctx, where, clause, record, mine, grains)
            if finding is not None:
                out.append(finding)
    return out


@emits("direction_mismatch", "unbacked_comparison")
def find_claim_trends(ctx: ClaimContext) -> list[Finding]:
    """A claim's universal of direction or superlative over time, held to what it cites and
    its premises cite."""
    text = ctx.claim.text
    if not speaks_of_periods(ctx, text):
        return []  # the common case, before the claim's support is gathered
    support = support_of(ctx)
    return trends_of(ctx, ctx.cid, text, support.cited) if support.whole else []


@emits("direction_mismatch", "unbacked_comparison")
def find_prose_trends(ctx: AnswerContext) -> list[Finding]:
    """The prose's universals of direction and superlatives over time, held to every series
    the claims cite."""
    if ctx.answer.status != "answered" or not ctx.claims or not speaks_of_periods(
            ctx, ctx.answer.answer or ""):
        return []
    if any(not support_of(c).whole for c in ctx.claims):
        return []  # a broken citation is a defect already
    cited = [c for claim in ctx.claims for c in claim.cited]
    return trends_of(ctx, "answer", ctx.answer.answer or "", cited)
