"""'N times as many' between two cited members, held to the ratio of their cited rows.

"Online took about 8 times as many orders as Brooklyn", "LGA had 3.8 times as many flights as
JFK", "android had twice as many active users as web": a multiplier (numbers.py reads 'N
times', 'twice' as a ratio within its tolerance) between a member named before it and one
named after 'as', both rows of one breakdown the answer cites (the metric named in the
sentence when several are cited). The ratio of the first member's cited value to the second's
must lie within the multiplier's tolerance (and a hedge's: 'about', 'nearly'); a multiplier
proven false is an unsupported number naming both values. One that cannot be tied to two
cited rows is left to the other checks (unsupported, or unread).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from showwork.harness.audit.quantifiers import _SENTENCE, _breakdowns
from showwork.protocol.numbers import ReadNumber, near, read_numbers
from showwork.protocol.reading import Mention, find_mentions

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited

_AS_MANY = re.compile(r"(?i)\s*as\s+(?:many|much|large|high|long|big)\b")
"""What follows the multiplier: 'as many', 'as much'."""
_HINT = re.compile(r"(?i)\b(?:times|twice)\s+as\b")
_HEDGE = re.compile(r"(?i)\b(?:about|around|roughly|nearly|almost|approximately|some)\s+$")


@dataclass(frozen=True)
class Times:
    """One 'N times as many … as' between two cited members."""

    words: tuple[tuple[int, int], ...]
    """The spans it consumes: the hedge, the multiplier, 'as many', and the 'as' before the
    second member."""
    number: ReadNumber
    """The multiplier, at its offsets in the text."""
    holds: bool
    cited: str
    """The two cited values and their ratio, as the defect quotes them."""


def read_times(ctx: AnswerContext, text: str) -> list[Times]:
    """Every 'N times as many … as' of `text` between two members of a cited breakdown."""
    if _HINT.search(text) is None:
        return []
    groups = _breakdowns(ctx)
    return list(_times(ctx, text, groups)) if groups else []


def _times(ctx: AnswerContext, text: str,
           groups: dict[tuple[int, str, str, str], list[Cited]]) -> Iterator[Times]:
    for sentence in _SENTENCE.finditer(text):
        said, at = sentence.group(), sentence.start()
        ratios = [n for n in read_numbers(said) if n.width and _AS_MANY.match(said, n.end)]
        if len(ratios) != 1:
            continue
        n = ratios[0]
        mentions = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
        found = _rows(groups, mentions, n)
        if found is None:
            continue
        pair, rows = found
        a, b = rows
        if not (isinstance(a.value, int | float) and isinstance(b.value, int | float)) \
                or not b.value:
            continue
        ratio = a.value / b.value
        many = _AS_MANY.match(said, n.end)
        assert many is not None
        spans = [(n.start, many.end())]
        hedge = _HEDGE.search(said, 0, n.start)
        if hedge:
            spans.append(hedge.span())
        object_at = pair[1].span[0]
        as_word = said.rfind("as", many.end(), object_at)
        if as_word >= 0:
            spans.append((as_word, as_word + 2))
        holds = near(n, (ratio - 1) * 100) or bool(hedge) and near(
            replace(n, width=n.width * 1.5), (ratio - 1) * 100)
        cited = (f"{pair[0].member} {a.value:,.6g} and {pair[1].member} {b.value:,.6g}, "
                 f"a ratio of {ratio:,.3g}")
        yield Times(tuple((s + at, e + at) for s, e in spans),
                    replace(n, start=n.start + at, end=n.end + at), holds, cited)


def _rows(groups: dict[tuple[int, str, str, str], list[Cited]], mentions: list[Mention],
          n: ReadNumber) -> tuple[tuple[Mention, Mention], tuple[Cited, Cited]] | None:
    """The member of a cited breakdown's dimension named last before the multiplier, the one
    named first after it, and their cited rows (the 'value' field of the one breakdown the
    sentence speaks of: its metric's, when the sentence names one)."""
    named = {m.name for m in mentions if m.kind == "metric"}
    found = []
    for (_, metric, field, dim), rows in groups.items():
        if field != "value" or (named and metric not in named):
            continue
        before = [m for m in mentions if m.kind == "member" and m.name == dim
                  and m.span[1] <= n.start]
        after = [m for m in mentions if m.kind == "member" and m.name == dim
                 and m.span[0] >= n.end]
        if not before or not after:
            continue
        by = {dict(c.citation.selector).get(dim): c for c in rows}
        a, b = before[-1], after[0]
        if a.member in by and b.member in by:
            found.append(((a, b), (by[a.member], by[b.member])))
    return found[0] if len(found) == 1 else None
