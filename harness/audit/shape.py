"""A series' shape, held to the cited series over the period the text scopes (issue 43).

- "accelerated" / "sped up" and "slowed" / "decelerated": the move into the scoped period goes
  the way the clause says (or the way the move before it went) and is larger (smaller) than the
  move before it, which goes the same way;
- "the steepest rise (fall) of the year": the move into the scoped period is the largest move
  that way of the whole cited series;
- "for the first time since X": the move into the scoped period goes the way the clause says,
  the move into X went that way too, and no move between them did;
- "since X": the scoped period's value lies the way the clause says from X's.

The scoped period is a period the clause names that is a row of the series (the last row when it
names none). The series is one metric's, every row of its result cited (the metric the clause
names, or the only one cited). A shape the series does not hold, or with no such series, is not
read: its words stay unread (`unread_answer`), a caveat, never clean (docs/citations.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from showwork.harness.audit.context import AnswerContext
from showwork.harness.audit.labels import period_window, read_words
from showwork.harness.audit.trends import _CLAUSE, Series, _series
from showwork.harness.audit.trends import _FALLS as FALLS
from showwork.harness.audit.trends import _RISES as RISES
from showwork.protocol.reading import find_mentions
from showwork.protocol.reading._literals import search

Span = tuple[int, int]

_RISE_WORDS = (RISES | {"risen", "grown", "gain", "growth", "climb", "soared", "rebounded"}) - {
    "up", "higher", "better"}
_FALL_WORDS = (FALLS | {"fallen", "slide", "shrunk", "plunged", "sank", "slumped", "tumbled"}) - {
    "down", "lower", "worse"}
"""Verbs and nouns that say which way the series moved ('the decline accelerated')."""
_SPEED = re.compile(r"(?i)\b(?:(?P<up>accelerated|accelerating|sped\s+up|quickened)|"
                    r"(?P<down>slowed(?:\s+down)?|slowing|decelerated|decelerating))\b")
_STEEPEST = re.compile(
    r"(?i)\bthe\s+(?:steepest|sharpest|largest|biggest)\s+(?P<move>rise|increase|gain|jump|"
    r"climb|fall|decline|drop|decrease|dip)(?:\s+(?:of|in)\s+the\s+(?:year|series|period))?"
    r"(?:\s+(?:came|occurred|was)(?=\s+in\b))?")
_SINCE = re.compile(r"(?i)\b(?P<first>for\s+the\s+first\s+time\s+)?since\b")


@dataclass(frozen=True)
class _Row:
    """One period of a series: its first and last day, and its value."""

    start: Any
    end: Any
    value: float


def read_shapes(ctx: AnswerContext, text: str) -> list[Span]:
    """The spans of every shape the cited series holds, with the words that say its way."""
    if not (search(_SPEED, text) or search(_STEEPEST, text) or search(_SINCE, text)):
        return []
    cited = [c for claim in ctx.claims for c in claim.cited]
    series = [s for s in _series(cited) if len(s[1]) == len(s[2]) and len(s[1]) >= 3]
    if not series:
        return []
    grains = {item.metric: item.result.grain for item in cited if item.result.grain}
    kind = "prose" if text == ctx.answer.answer else "claim"
    periods = read_words(ctx.index_, kind, text).periods
    out: list[Span] = []
    for clause in _CLAUSE.finditer(text):
        rows = _rows_of(ctx, clause.group(), series, grains)
        if rows is not None:
            out += _held(text, clause.span(), rows, periods)
    return out


def _rows_of(ctx: AnswerContext, clause: str, series: list[Series], grains: dict[str, str]
             ) -> list[_Row] | None:
    """The one series the clause speaks of: of the metric it names, or the only one cited."""
    current = ctx.index_.current
    named = {current.get(m.name, m.name) for m in ctx.index_.read(
        "mentions", clause, lambda t: find_mentions(t, ctx.catalog)) if m.kind == "metric"}
    mine = [s for s in series if current.get(s[0], s[0]) in named] if named else series
    if len(mine) != 1 or not grains.get(mine[0][0]):
        return None
    out = []
    for key, value in mine[0][1]:
        window = period_window(key, grains[mine[0][0]])
        if window is None:
            return None
        out.append(_Row(window[0], window[1], float(value)))
    return out


def _held(text: str, clause: Span, rows: list[_Row], periods: Any) -> Iterator[Span]:
    a, b = clause
    ways = [(w.span(), 1 if w.group().lower() in _RISE_WORDS else -1)
            for w in re.finditer(r"[A-Za-z]+", text[a:b])
            if w.group().lower() in _RISE_WORDS | _FALL_WORDS]
    said = {way for _, way in ways}
    way = said.pop() if len(said) == 1 else 0
    inside = [p for p in periods if a <= p.span[0] < b]
    named = [(p, _at(rows, p.period)) for p in inside if not _SINCE.match(p.words)]
    for m in _SPEED.finditer(text, a, b):
        scoped = _scoped(named, rows)
        if scoped is not None and _speed(rows, scoped, way, bool(m.group("up"))):
            yield m.span()
            yield from ((a + s, a + e) for (s, e), _ in ways)
    for m in _STEEPEST.finditer(text, a, b):
        turn = 1 if m.group("move").lower() in _RISE_WORDS else -1
        scoped = _scoped(named, rows)
        if scoped is not None and _steepest(rows, scoped, turn):
            yield m.span()
    for m in _SINCE.finditer(text, a, b):
        after = next((p for p in inside if m.start() <= p.span[0]
                      and not text[m.end():p.span[0]].strip()), None)  # 'since May' is one
        anchor = _starts(rows, after.period) if after else None
        scoped = _scoped([(p, i) for p, i in named if p.span[0] < m.start()], rows)
        if after is None or anchor is None or scoped is None or not way:
            continue
        if _since(rows, anchor, scoped, way, bool(m.group("first"))):
            yield m.span()
            yield after.span
            yield from ((a + s, a + e) for (s, e), _ in ways)


def _at(rows: list[_Row], period: Any) -> int | None:
    """The index of the row whose period is `period`."""
    return next((i for i, r in enumerate(rows) if (r.start, r.end) == (period.start, period.end)),
                None)


def _starts(rows: list[_Row], period: Any) -> int | None:
    """The index of the row a period starts with ('since May': May's row)."""
    return next((i for i, r in enumerate(rows) if r.start == period.start), None)


def _scoped(named: list[tuple[Any, int | None]], rows: list[_Row]) -> int | None:
    """The row the clause scopes: the one period it names that is a row, else the last row;
    None when it names periods none of which is a row, or several."""
    found = {i for _, i in named}
    if not named:
        return len(rows) - 1
    return found.pop() if len(found) == 1 and None not in found else None


def _moves(rows: list[_Row]) -> list[float]:
    """moves[i]: the change into row i (moves[0] is 0: nothing before the first row)."""
    return [0.0] + [b.value - a.value for a, b in zip(rows, rows[1:], strict=False)]


def _speed(rows: list[_Row], at: int, way: int, faster: bool) -> bool:
    if at < 2:
        return False
    moves = _moves(rows)
    now, before = moves[at], moves[at - 1]
    way = way or (1 if before > 0 else -1 if before < 0 else 0)
    if not way or now * way <= 0 or before * way <= 0:
        return False
    return abs(now) > abs(before) if faster else abs(now) < abs(before)


def _steepest(rows: list[_Row], at: int, way: int) -> bool:
    moves = _moves(rows)
    return at >= 1 and moves[at] * way > 0 and all(
        abs(moves[at]) > abs(m) for i, m in enumerate(moves) if i != at and m * way > 0)


def _since(rows: list[_Row], anchor: int, at: int, way: int, first: bool) -> bool:
    if anchor >= at:
        return False
    moves = _moves(rows)
    if not first:
        return (rows[at].value - rows[anchor].value) * way > 0
    return anchor >= 1 and moves[anchor] * way > 0 and moves[at] * way > 0 and all(
        m * way <= 0 for m in moves[anchor + 1:at])
