"""A comparison's ends stated of the wrong window: the previous value said as the current one.

Both ends of a cited comparison are cited values, so every number of "Active users rose 10.8 % to
11,343" (11,343 the previous week's) is supported while the sentence says the metric ended where
it started. Two readings, in a measurement claim (held to its own citations) and in the prose
(held to every claim's):
- a single end: the number after "to" (after a verb of motion in its clause: "rose 10.8 % to
  X", "fell to X") states the current value; after "from" ("down from X", "fell from X"), the
  previous one. A number that states only the other end is `direction_mismatch`.
- a level stated of a window: in a sentence that names exactly one period, a number that
  states only one window's value of a cited comparison must be the value of the window named
  ("Days per user was 2.80 in 2026-03-09..2026-03-15", where 2.80 is the week before's) —
  `mislabelled_window`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from typing import Any

from showwork.harness.audit.context import AnswerContext, Cited, ClaimContext
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.labels import names_window, read_claim, read_words, support_of
from showwork.harness.audit.numbers import numeric, read_claims
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Finding
from showwork.protocol.numbers import ReadNumber, matches
from showwork.protocol.reading import PeriodMention

_END_WORD = re.compile(r"(?i)\b(?P<word>to|from)\s+(?:about|around|roughly|nearly|almost|"
                       r"some|just|only|over|under)?\s*$")
_MOVED_BEFORE = re.compile(r"(?i)\b(?:rose|risen|fell|fallen|grew|grown|dropped|declined|"
                           r"increased|decreased|climbed|jumped|slipped|dipped|slid|surged|"
                           r"plunged|went\s+(?:up|down)|moved|changed|up|down|rising|falling)\b"
                           r"[^;()]{0,40}$")
"""A verb of motion before the end word in its clause (not 'compared to X', 'close to X')."""
_STOP = re.compile(r"[.!?](?=\s|$)|;")


def _single_ends(text: str, numbers: Iterable[ReadNumber]) -> list[tuple[ReadNumber, str]]:
    """(number, 'to' or 'from') for each number a move's end word comes before."""
    out = []
    for n in numbers:
        before = text[max(0, n.start - 60):n.start]
        found = _END_WORD.search(before)
        if found is None:
            continue
        lead = before[:found.start()]
        if found.group("word").lower() == "from" and _END_WORD.search(lead) is None and \
                not _MOVED_BEFORE.search(lead) and not re.search(r"(?i)\b(?:up|down)\s*$", lead):
            continue
        if found.group("word").lower() == "to" and not _MOVED_BEFORE.search(lead):
            continue
        if re.search(r"(?i)\bfrom\s+\S+\s*$", lead) and found.group("word").lower() == "to":
            continue  # 'from A to B': both ends, read by the pairs check
        out.append((n, found.group("word").lower()))
    return out


def _compare_fields(item: Cited) -> tuple[Any, Any] | None:
    """(value, previous) of the cited metric in the cited row of a comparison result."""
    if item.result.kind != "compare":
        return None
    fields = item.row.values.get(item.metric)
    if not isinstance(fields, dict):
        return None
    value, previous = fields.get("value"), fields.get("previous")
    if not (numeric(value) and numeric(previous)):
        return None
    return (value, previous) if value != previous else None


def _states(number: ReadNumber, value: Any) -> bool:
    return matches(number, value) or (number.percent and matches(number, value, "fraction"))


def _wrong_end(ends: list[tuple[ReadNumber, str]], cited: Iterable[Cited]
               ) -> tuple[ReadNumber, str, Cited] | None:
    """The first single end that states only the other end of every comparison it states."""
    if not ends:
        return None
    pairs = [(item, f) for item in cited if (f := _compare_fields(item)) is not None]
    for n, word in ends:
        said_current = word == "to"
        hits = [(item, _states(n, value), _states(n, previous))
                for item, (value, previous) in pairs]
        hits = [h for h in hits if h[1] or h[2]]
        if hits and all((not cur if said_current else not prev) for _i, cur, prev in hits):
            return n, word, hits[0][0]
    return None


def _end_finding(cid: str, n: ReadNumber, word: str, item: Cited) -> Finding:
    fields = _compare_fields(item)
    assert fields is not None
    value, previous = fields
    said = "current" if word == "to" else "previous"
    other = "previous" if word == "to" else "current"
    return Finding(
        "direction_mismatch", cid,
        f"{_who(cid)} says '{word} {n.text}', the {said} value, but {n.text} is the {other} "
        f"value of {item.text.split('.')[0]} (previous {previous:,g}, current {value:,g}).",
        {"said": f"{word} {n.text}", "citation": item.text, "value": value,
         "previous": previous},
        "State a change from the previous value to the current one.")


def _who(cid: str) -> str:
    return "The answer" if cid == "answer" else f"Claim {cid}"


def _compared_windows(item: Cited) -> tuple[tuple[dt.date, dt.date], ...] | None:
    result = item.result
    if result.kind != "compare" or len(result.coverage) != 2:
        return None
    out = []
    for cov in result.coverage:
        raw = cov.get("requested") or {}
        try:
            out.append((dt.date.fromisoformat(str(raw.get("start"))[:10]),
                        dt.date.fromisoformat(str(raw.get("end"))[:10])))
        except ValueError:
            return None
    return tuple(out) if out[0] != out[1] else None


def _stops(text: str) -> list[int]:
    return [0] + [m.end() for m in _STOP.finditer(text)] + [len(text) + 1]


def _window_level(stops: list[int], numbers: tuple[ReadNumber, ...],
                  periods: tuple[PeriodMention, ...], cited: Iterable[Cited]
                  ) -> tuple[ReadNumber, PeriodMention, Cited] | None:
    """A number stating one window's value of a comparison in a sentence naming only the
    other window (`stops`: where the text's sentences start)."""
    if not periods or not numbers:
        return None
    items: list[tuple[Cited, tuple[Any, Any], tuple[tuple[dt.date, dt.date], ...]]] | None = None
    for a, b in zip(stops, stops[1:], strict=False):
        named = [p for p in periods if a <= p.span[0] < b]
        if len(named) != 1 or named[0].words.lower().startswith("from"):
            continue
        period = named[0]
        inside = [n for n in numbers if a <= n.start < b]
        if not inside:
            continue
        if items is None:  # the comparisons' windows, read once a sentence may need them
            items = [(item, f, w) for item in cited if (f := _compare_fields(item)) is not None
                     and (w := _compared_windows(item)) is not None]
        if not items:
            return None
        # the number nearest the period is the one stated of it ('was 2.35 in W, against 2.80
        # the week before')
        for n in sorted(inside, key=lambda n: min(abs(n.start - period.span[1]),
                                                  abs(period.span[0] - n.end)))[:1]:
            item = _of_the_other_window(n, period, items)
            if item is not None:
                return n, period, item
    return None


def _of_the_other_window(n: ReadNumber, period: PeriodMention,
                         items: list[tuple[Cited, tuple[Any, Any],
                                           tuple[tuple[dt.date, dt.date], ...]]]
                         ) -> Cited | None:
    """The cited comparison whose other window's value `n` states while `period` names that
    window and not the one the value is of, or None."""
    for item, (value, previous), (current_w, previous_w) in items:
        cur, prev = _states(n, value), _states(n, previous)
        if cur == prev:
            continue
        meant = current_w if cur else previous_w
        other = previous_w if cur else current_w
        if names_window(period.period, [other]) and not names_window(period.period, [meant]):
            return item
    return None


def _window_finding(cid: str, n: ReadNumber, period: PeriodMention, item: Cited) -> Finding:
    windows = _compared_windows(item)
    assert windows is not None
    (cs, ce), (ps, pe) = windows
    return Finding(
        "mislabelled_window", cid,
        f"{_who(cid)} says {n.text} in {period.words!r}, but {n.text} is the value of "
        f"{item.text.split('.')[0]} in the other window ({item.citation.metric}: current "
        f"{cs}..{ce}, previous {ps}..{pe}).",
        {"said": f"{period.period.start}..{period.period.end}", "phrase": period.words,
         "cited": [f"{cs}..{ce}", f"{ps}..{pe}"], "citation": item.text},
        "Name the window the value is of.")


@emits("direction_mismatch", "mislabelled_window")
def find_claim_ends(ctx: ClaimContext) -> list[Finding]:
    """A measurement's single end or level stated of the other window of its comparison."""
    if ctx.claim.kind != "measurement" or ctx.rendered or not ctx.cited or \
            not any(c.result.kind == "compare" for c in ctx.cited):
        return []
    return _found(ctx.index_, ctx.cid, ctx.claim.text, read_claim(ctx).periods, ctx.cited)


@emits("direction_mismatch", "mislabelled_window")
def find_prose_ends(ctx: AnswerContext) -> list[Finding]:
    """The prose's single ends and levels, held to every claim's comparisons."""
    text = ctx.answer.answer
    if ctx.answer.status != "answered" or not text or not ctx.claims:
        return []
    cited = [c for claim in ctx.claims for c in claim.cited if c.result.kind == "compare"]
    if not cited or not all(support_of(c).whole for c in ctx.claims):
        return []
    periods = read_words(ctx.index_, "prose", text).periods
    return _found(ctx.index_, "answer", text, periods, cited)


def _found(index: CatalogIndex, cid: str, text: str, periods: tuple[PeriodMention, ...],
           cited: list[Cited]) -> list[Finding]:
    numbers = read_claims(index, text)
    if not numbers:
        return []
    # what the text says depends on it alone: read once per catalog for each text
    ends = index.read("single-ends", text, lambda t: _single_ends(t, numbers)
                      if ("to" in t or "from" in t) else [])
    end = _wrong_end(ends, cited)
    if end is not None:
        return [_end_finding(cid, *end)]
    if not periods:
        return []
    level = _window_level(index.read("stops", text, _stops), numbers, periods, cited)
    if level is None:
        level = _bound_level(text, numbers, periods, cited)
    return [_window_finding(cid, *level)] if level is not None else []


_BOUND_GAP = re.compile(r"(?i)\s*(?:in|for|during|over|of)?\s*")
"""What may stand between a number and the period it is stated of ('12,980 in March')."""


def _bound_level(text: str, numbers: tuple[ReadNumber, ...], periods: tuple[PeriodMention, ...],
                 cited: Iterable[Cited]) -> tuple[ReadNumber, PeriodMention, Cited] | None:
    """A number with its own period written right after it ('(12,980 in March → 17,209 in
    February)') that states only the other window's value of a cited comparison: the period
    is bound to the number whatever else the sentence names, so ends moved between periods
    inside one parenthesis are read as said."""
    items = [(item, f, w) for item in cited if (f := _compare_fields(item)) is not None
             and (w := _compared_windows(item)) is not None]
    if not items:
        return None
    for n in numbers:
        bound = [p for p in periods if p.span[0] >= n.end
                 and _BOUND_GAP.fullmatch(text[n.end:p.span[0]])]
        if len(bound) != 1:
            continue
        item = _of_the_other_window(n, bound[0], items)
        if item is not None:
            return n, bound[0], item
    return None
