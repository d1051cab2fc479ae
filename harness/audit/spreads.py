"""How far apart cited rows lie, held to them: a spread and a range.

- A spread: "The three airports were within 5 minutes of each other", "the bottom three were
  within 10 units of one another", "android and ios were within 2 % of each other": the rows
  the sentence names (as a sum names them, sums.py: every row, 'the N <rows>', the top or
  bottom N, members named) lie no further apart than the number, at its written precision, in
  the metric's unit (a unit of time converted; a rate's spread in points; a percent of any
  other metric, relative to the lowest row).
- A range: "Monthly flights ranged from about 25,000 to about 29,400", "ranged between 2.35 and
  2.80": the two numbers are the lowest and the highest of the rows the sentence names (every
  row of the one breakdown or series it speaks of, when it names none), each at its precision.
A reading the rows bear out consumes its words and numbers; one they contradict is an
unsupported number naming the rows' spread or their lowest and highest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from showwork.harness.audit.gaps import _POINTS
from showwork.harness.audit.labels import read_words
from showwork.harness.audit.quantifiers import (
    _SENTENCE,
    Derived,
    _breakdowns,
    _scaled,
    every_row,
    one_group,
    states,
)
from showwork.harness.audit.sums import _TOP, _count_of, _rows
from showwork.protocol.numbers import ReadNumber, _candidates, in_time_unit, near
from showwork.protocol.reading._literals import search

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited

Span = tuple[int, int]

_WITHIN = re.compile(r"(?i)\b(?:(?:were|are|was|stayed|lay|sat|fell|came\s+in)\s+)?within\s+")
_EACH_OTHER = re.compile(r"(?i)\s*(?:(?:percentage\s+)?points?\s+|pp\s+|[a-z]+\s+){0,2}?"
                         r"(?P<of>of\s+(?:each\s+other|one\s+another))\b")
_RANGED = re.compile(r"(?i)\b(?P<verb>ranged|ranging|ran|varied|varying)\s+(?:from\s+)?")


def read_spreads(ctx: AnswerContext, text: str) -> list[Derived]:
    """Every spread and range of `text` over rows the claims cite."""
    if text != ctx.answer.answer or (search(_WITHIN, text) is None
                                     and search(_RANGED, text) is None):
        return []
    return ctx.from_rows_once("spreads", lambda: list(_spreads(ctx, text)))


def _spreads(ctx: AnswerContext, text: str) -> Iterator[Derived]:
    # the cited rows: `_rows` reads every row of their result where the words speak of the
    # whole ('the stores ranged from 252 to 1,404' of four of six stores cited is of six)
    groups = {k: rows for k, rows in _breakdowns(ctx).items() if k[2] == "value"}
    reading = read_words(ctx.index_, "prose", text)
    for sentence in _SENTENCE.finditer(text):
        start, end = sentence.span()
        said = sentence.group()
        found, chosen = one_group(ctx, said, groups)
        if chosen is None:
            continue
        (_, metric, field, dim), rows = chosen
        periods = [p for p in reading.periods if start <= p.span[0] < end]
        numbers = [n for n in _candidates(said) if not n.width]  # '5 minutes' is one too
        unit = ctx.catalog.get("metrics", {}).get(metric, {}).get("unit")
        for out in (*_within(ctx, said, numbers, rows, metric, field, dim, found, periods, unit),
                    *_ranged(ctx, said, numbers, rows, metric, field, dim, found, periods,
                             unit)):
            yield replace(out, words=tuple((a + start, b + start) for a, b in out.words),
                          number=replace(out.number, start=out.number.start + start,
                                         end=out.number.end + start))


def _values(ctx: AnswerContext, rows: list[Cited], metric: str, field: str, n: ReadNumber
            ) -> list[float]:
    return [_scaled(ctx, metric, field, float(c.value), n) for c in rows]


def _within(ctx: AnswerContext, said: str, numbers: list[ReadNumber], rows: list[Cited],
            metric: str, field: str, dim: str, found: list, periods: list, unit: str | None
            ) -> Iterator[Derived]:
    for w in _WITHIN.finditer(said):
        n = next((n for n in numbers if n.start >= w.end()
                  and not said[w.end():n.start].strip(" ~")
                  or n.start >= w.end() and n.hedge
                  and said.lower().rfind(n.hedge, w.end(), n.start) == w.end()), None)
        if n is None:
            continue
        other = _EACH_OTHER.match(said, n.end)
        if other is None:
            continue
        picked = _named(said[:w.start()], rows, dim, found, periods)
        if picked is None:
            continue
        chosen, spans = picked
        points = _POINTS.match(said, n.end)
        if unit == "fraction":
            if not (n.points or points or n.percent):
                continue
            stated = replace(n, percent=True, points=False)
        elif n.points or points:
            continue
        elif n.percent:  # 'within 2 % of each other': the gap over the lower row
            stated = n
        else:
            stated = in_time_unit(said, (n,), unit)[0]
        values = _values(ctx, chosen, metric, field, stated)
        spread = max(values) - min(values)
        if n.percent and unit != "fraction":
            if min(values) <= 0:
                continue
            spread = spread / min(values) * 100
        holds = states(replace(stated, bound="<="), spread)
        spans += [w.span(), (n.start, other.end())]
        yield Derived(tuple(spans), n, holds,
                      f"{_keys(chosen, dim)}, {spread:,.6g} apart at most",
                      "the rows lie within")


def _ranged(ctx: AnswerContext, said: str, numbers: list[ReadNumber], rows: list[Cited],
            metric: str, field: str, dim: str, found: list, periods: list, unit: str | None
            ) -> Iterator[Derived]:
    for r in _RANGED.finditer(said):
        after = [n for n in numbers if n.start >= r.end()]
        if not after:
            continue
        first = after[0]
        if first.upto is not None:  # 'ranged between 2.35 and 2.80'
            low, high = replace(first, upto=None), replace(first, value=first.upto, upto=None)
            ends = [(low, first), (high, first)]
        elif len(after) >= 2 and re.fullmatch(r"(?i)\s+(?:to|and|through)\s+(?:about\s+|"
                                              r"roughly\s+|around\s+|nearly\s+)?",
                                              said[first.end:after[1].start]):
            ends = [(first, first), (after[1], after[1])]
        else:
            continue
        picked = _named(said[:r.start()], rows, dim, found, periods)
        if picked is None:
            continue
        chosen, spans = picked
        said_ends = [in_time_unit(said, (n,), unit)[0] for n, _ in ends]
        values = _values(ctx, chosen, metric, field, said_ends[0])
        lowest, highest = min(values), max(values)
        if unit == "fraction":
            lowest, highest = lowest * 100, highest * 100
        holds = near(said_ends[0], lowest) and near(said_ends[-1], highest)
        words = [*spans, r.span()] + [(n.start, n.end) for _, n in ends]
        if len(ends) == 2 and ends[0][1] is not ends[1][1]:
            words.append((ends[0][1].end, ends[1][1].start))
        cited = f"{_keys(chosen, dim)}, from {lowest:,.6g} to {highest:,.6g}"
        for i, (_, n) in enumerate(ends):
            if i == 0 or n is not ends[0][1]:
                yield Derived(tuple(words), n, holds, cited, "the rows range")


def _named(said: str, rows: list[Cited], dim: str, found: list, periods: list
           ) -> tuple[list[Cited], list[Span]] | None:
    """The rows the words before the spread or range name (sums.py `_rows`), or, when they
    name no member, the cited rows a count of them names ('the bottom three' of the three
    cited), else every row of their result ('they ranged from …' of four of six stores cited
    is of six)."""
    picked = _rows(said, rows, dim, found, periods)
    if picked is None and not [m for m in found if m.kind == "member"]:
        every = _TOP.search(said)
        count = every and (every.group("count") or every.group("count2"))
        picked = (list(rows), [every.span()]) if every and _count_of(count) == len(rows) \
            else (every_row(rows), [])
    return picked if picked is not None and len(picked[0]) >= 2 else None


def _keys(rows: list[Cited], dim: str) -> str:
    keys = [str(dict(c.citation.selector)[dim]) for c in rows]
    return ", ".join(keys) if len(keys) <= 6 else f"{len(keys)} rows"
