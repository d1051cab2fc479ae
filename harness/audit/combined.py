"""A member compared with the sum of others, held to a cited breakdown's rows.

"Brooklyn took more orders than New York 5th Ave and O'Hare Airport combined", "Online took more
orders than all the other stores combined", "The first week alone had more cancellations than
the next three together": a comparative, 'than', then the rows it adds ('combined', 'together',
'put together'): members named after 'than' (two or more), or every row but the first side's
('all the other stores', 'the rest'), or the periods of a cited series named so ('the next
three'). The first side is the member (or period) named before the comparative. Both sides are
rows of one breakdown or series the claims cite (the sentence's metric when several are), of a
metric whose values add (the catalog's `additive`). The rows must order the two sides as the
comparative says: a comparison they bear out consumes its words ('took more … than …
combined'); one they contradict is `mislabelled_member`, a conflict that withholds, naming both
sides' values, as a comparison between two members is (pairs.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from showwork.harness.audit.pairs import _COMPARATIVE
from showwork.harness.audit.quantifiers import _SENTENCE, _TIME_KEYS, _breakdowns
from showwork.harness.audit.types import Finding
from showwork.protocol.reading import find_mentions
from showwork.protocol.reading._literals import search
from showwork.protocol.reading.periods import NUMBERS as NUMBERS_WORDS

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited

Span = tuple[int, int]

_COMBINED = re.compile(r"(?i)\b(?:combined|together|put\s+together)\b")
_THAN = re.compile(r"(?i)\bthan\b")
_OTHERS = re.compile(r"(?i)\b(?:(?:all\s+(?:of\s+)?)?the\s+(?:other|remaining)|the\s+rest)\b")
"""Every row but the first side's: 'all the other stores', 'the remaining airlines'."""
_NEXT = re.compile(rf"(?i)\bthe\s+(?P<which>next|following|last|other)\s+(?P<n>[0-9]+|"
                   rf"{'|'.join(NUMBERS_WORDS)})\b")
"""Periods of a series counted from the first side's: 'the next three', 'the other two'."""
_ALONE = re.compile(r"(?i)\s+alone\b")
_FIRST = re.compile(r"(?i)\bthe\s+(?P<which>first|last)\s+(?P<grain>day|week|month|quarter|year)"
                    r"\b")


@dataclass(frozen=True)
class Combined:
    """One member compared with the sum of others, as read."""

    words: tuple[Span, ...]
    """The spans it consumes: the comparative, 'than', the words naming the summed rows, the
    adding word, a value verb before the comparative ('took')."""
    holds: bool
    finding: Finding | None
    """The conflict when the rows order the two sides the other way."""


def read_combined(ctx: AnswerContext, text: str) -> list[Combined]:
    """Every comparison of one row with the sum of others in the prose."""
    if text != ctx.answer.answer or search(_COMBINED, text) is None:
        return []
    return ctx.from_rows_once("combined", lambda: list(_combined(ctx, text)))


def _combined(ctx: AnswerContext, text: str) -> Iterator[Combined]:
    from showwork.harness.audit.times import _value_verb

    groups = _breakdowns(ctx)
    metrics = ctx.catalog.get("metrics", {})
    for sentence in _SENTENCE.finditer(text):
        said, at = sentence.group(), sentence.start()
        adding = _COMBINED.search(said)
        than = _THAN.search(said)
        if adding is None or than is None or than.end() > adding.start():
            continue
        comparatives = [c for c in _COMPARATIVE.finditer(said, 0, than.start())]
        if not comparatives:
            continue
        comp = comparatives[-1]
        found = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
        named = {m.name for m in found if m.kind == "metric"}
        chosen = [(k, rows) for k, rows in groups.items() if k[2] == "value"
                  and metrics.get(k[1], {}).get("additive") and (k[1] in named or not named)]
        if len(chosen) != 1:
            continue
        (_, metric, _, dim), rows = chosen[0]
        picked = _sides(said, comp, than, adding, rows, dim, found)
        if picked is None:
            continue
        first, others, spans = picked
        va, total = float(first.value), sum(float(c.value) for c in others)
        greater = comp.group("greater") is not None
        holds = va > total if greater else va < total
        spans += [comp.span(), than.span(), adding.span()]
        verb = _value_verb(said, comp.start())
        if verb is not None:
            spans.append(verb)
        finding = None if holds else _finding(first, others, dim, metric, va, total, greater)
        yield Combined(tuple((a + at, b + at) for a, b in spans), holds, finding)


def _key(c: Cited, dim: str) -> str:
    return str(dict(c.citation.selector)[dim])


def _sides(said: str, comp: re.Match[str], than: re.Match[str], adding: re.Match[str],
           rows: list[Cited], dim: str, found: list
           ) -> tuple[Cited, list[Cited], list[Span]] | None:
    """The first side's row, the rows added on the other, and the words that name them."""
    by = {_key(c, dim): c for c in rows}
    members = [m for m in found if m.kind == "member" and m.name == dim and m.member in by]
    before = [m for m in members if m.span[1] <= comp.start()]
    after = [m for m in members if than.end() <= m.span[0] and m.span[1] <= adding.start()]
    spans: list[Span] = []
    if dim in _TIME_KEYS:  # a series: 'the first week alone … than the next three'
        return _periods(said, comp, than, adding, rows, dim)
    if not before:
        return None
    first = by[str(before[-1].member)]
    if len(after) >= 2:
        others = [by[str(m.member)] for m in after]
    else:
        rest = _OTHERS.search(said, than.end(), adding.start())
        if rest is None or after:
            return None
        others = [c for c in rows if c is not first]
        spans.append(rest.span())
    if first in others:
        return None
    alone = _ALONE.match(said, before[-1].span[1])
    if alone:
        spans.append(alone.span())
    return first, others, spans


def _periods(said: str, comp: re.Match[str], than: re.Match[str], adding: re.Match[str],
             rows: list[Cited], dim: str) -> tuple[Cited, list[Cited], list[Span]] | None:
    """'The first week alone had more than the next three combined': the series' first (or
    last) row against the N rows after (or before) it."""
    ordered = sorted(rows, key=lambda c: _key(c, dim))
    first = _FIRST.search(said, 0, comp.start())
    nxt = _NEXT.search(said, than.end(), adding.start())
    if first is None or nxt is None or first.group("grain").lower() != dim:
        return None
    word = nxt.group("n").lower()
    n = int(word) if word.isdigit() else NUMBERS_WORDS.get(word)
    if not n or n >= len(ordered):
        return None
    if first.group("which").lower() == "first":
        one, others = ordered[0], ordered[1:1 + n]
    else:
        one, others = ordered[-1], ordered[-1 - n:-1]
    if len(others) != n or nxt.group("which").lower() not in (
            ("next", "following", "other") if one is ordered[0] else ("last", "other")):
        return None
    spans = [first.span(), nxt.span()]
    alone = _ALONE.match(said, first.end())
    if alone:
        spans.append(alone.span())
    return one, others, spans


def _finding(first: Cited, others: list[Cited], dim: str, metric: str, va: float,
             total: float, greater: bool) -> Finding:
    a = _key(first, dim)
    keys = [_key(c, dim) for c in others]
    said = "more" if greater else "less"
    return Finding(
        "mislabelled_member", "answer",
        f"The answer says {a} had {said} than {', '.join(keys)} combined, but the cited rows "
        f"of {metric} give {a} {va:,.6g} and the others {total:,.6g} together.",
        {"said": a, "dimension": dim, "phrase": f"{said} … combined", "cited": keys},
        f"Say which side the cited values put first ({a} {va:,.6g}; the others "
        f"{total:,.6g}), or cite the rows that order them as stated.")
