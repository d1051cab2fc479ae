"""'N times as many' between two cited members, held to the ratio of their cited rows.

"Online took about 8 times as many orders as Brooklyn", "LGA had 3.8 times as many flights as
JFK", "android had twice as many active users as web", "LGA's rate was about 1.8 times JFK's",
"4.5 times that of Brooklyn": a multiplier (numbers.py reads 'N
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
from showwork.protocol.numbers import (
    _PART_WORDS,
    PART_TOLERANCE,
    ReadNumber,
    _part,
    near,
    read_numbers,
)
from showwork.protocol.reading import Mention, find_mentions
from showwork.protocol.reading._literals import search

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited

_AS_MANY = re.compile(r"(?i)\s*as\s+(?:many|much|large|high|long|big)\b")
"""What follows the multiplier: 'as many', 'as much'."""
_OF = re.compile(r"(?i)\s+(?:(?:that|those)\s+of\s+|of\s+|the\s+)?")
"""What may stand between the multiplier and the second member it names directly ('1.8 times
JFK's', '4.5 times that of Brooklyn')."""
_POSSESSIVE = re.compile(r"['’]s?\b")
_HINT = re.compile(r"(?i)\b(?:times|twice|double|triple|quadruple|as\s+(?:many|much)|half|"
                   r"thirds?|quarters?|fifths?|tenths?)\b")
_PART_AS = re.compile(rf"(?i)\b(?P<part>{_PART_WORDS})(?=\s+as\s+(?:many|much|large|high|long|big)"
                      r"\b|\s+of\s)")
"""A part of the second member's value: 'half as many', 'a third as much', 'about half of
12312702's' (a part 'of' a member: `_direct` holds it to a member named right after; 'half of
the flights' is a share of the whole, numbers.py's)."""


def _parts_as(said: str) -> Iterator[ReadNumber]:
    """Each 'half as many', 'a third as much' of the sentence as the ratio it states (as the
    percent change the multiplier reader writes a ratio in), within the tolerance of a part
    (PART_TOLERANCE of it: 'half' is 0.4 to 0.6)."""
    for m in _PART_AS.finditer(said):
        part = _part(m["part"])
        if part >= 1:
            continue
        yield ReadNumber(m.start(), m.end(), m.group(0), (part - 1) * 100, 0, 2, 1, "", True,
                         False, "", "", True, PART_TOLERANCE * part * 100)
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
    if search(_HINT, text) is None:
        return []
    groups = _breakdowns(ctx)
    return list(_times(ctx, text, groups)) if groups else []


def _times(ctx: AnswerContext, text: str,
           groups: dict[tuple[int, str, str, str], list[Cited]]) -> Iterator[Times]:
    for sentence in _SENTENCE.finditer(text):
        said, at = sentence.group(), sentence.start()
        parts = list(_parts_as(said))
        widths = [n for n in read_numbers(said) if n.width] + parts
        if not widths:
            continue
        mentions = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
        ratios = [n for n in widths
                  if _AS_MANY.match(said, n.end) or _direct(said, n, mentions) is not None]
        if len(ratios) != 1:
            continue
        n = ratios[0]
        many = _AS_MANY.match(said, n.end)
        direct = None if many else _direct(said, n, mentions)
        every = _each_other(ctx, said, n, many, mentions, groups) if many else None
        if every is not None:
            spans, holds, cited = every
            yield Times(tuple((s + at, e + at) for s, e in spans),
                        replace(n, start=n.start + at, end=n.end + at), holds, cited)
            continue
        found = _rows(groups, mentions, n)
        if found is None:
            continue
        pair, rows = found
        a, b = rows
        if not (isinstance(a.value, int | float) and isinstance(b.value, int | float)) \
                or not b.value:
            continue
        ratio = a.value / b.value
        spans = [(n.start, many.end() if many else n.end)]
        hedge = _HEDGE.search(said, 0, n.start)
        if hedge:
            spans.append(hedge.span())
        verb = _value_verb(said, hedge.start() if hedge else n.start)
        if verb is not None:  # 'took about twice as many': the verb states the ratio
            spans.append(verb)
        if many:
            as_word = said.rfind("as", many.end(), pair[1].span[0])
            if as_word >= 0:
                spans.append((as_word, as_word + 2))
        elif direct is not None:
            if pair[1].span != direct[-1]:
                continue  # the member named right after the multiplier is not the row compared
            spans += direct[:-1]
        # a hedge widens a multiplier ('about 3 times'), never a part, which is a rounded
        # figure already ('about two-thirds as many' is not half as many: PART_TOLERANCE)
        holds = near(n, (ratio - 1) * 100) or bool(hedge) and n not in parts and near(
            replace(n, width=n.width * 1.5), (ratio - 1) * 100)
        cited = (f"{pair[0].member} {a.value:,.6g} and {pair[1].member} {b.value:,.6g}, "
                 f"a ratio of {ratio:,.3g}")
        yield Times(tuple((s + at, e + at) for s, e in spans),
                    replace(n, start=n.start + at, end=n.end + at), holds, cited)


_EACH_OTHER = re.compile(r"(?i)\bas\s+(?:each|every|any)\s+other\s+(?P<noun>[a-z]+)\b")
"""'as each other country': the second side is every other row of the breakdown."""


def _each_other(ctx: AnswerContext, said: str, n: ReadNumber, many: re.Match[str],
                mentions: list[Mention], groups: dict[tuple[int, str, str, str], list[Cited]]
                ) -> tuple[list[tuple[int, int]], bool, str] | None:
    """'CA had twice as many Quick Buy Transactions as each other country': the ratio of the
    member named before the multiplier to every other row of its cited breakdown (the noun
    after 'other' the dimension's, the last word of its label), each within the multiplier's
    tolerance: (the spans read, whether every ratio holds, the rows as a defect quotes them)."""
    other = _EACH_OTHER.search(said, many.end())
    if other is None:
        return None
    between = [m for m in mentions if many.end() <= m.span[0] < other.start()]
    if any(m.kind != "metric" for m in between):
        return None
    named = {m.name for m in mentions if m.kind == "metric"}
    dims = ctx.catalog.get("dimensions", {})
    noun = other["noun"].lower().removesuffix("s")
    for (_, metric, field, dim), rows in groups.items():
        if field != "value" or (named and metric not in named):
            continue
        label = str((dims.get(dim) or {}).get("label") or dim.split("__")[-1]).lower().split()
        if not label or label[-1].removesuffix("s") != noun:
            continue
        first = [m for m in mentions if m.kind == "member" and m.name == dim
                 and m.span[1] <= n.start]
        by = {dict(c.citation.selector).get(dim): c for c in rows}
        if not first or first[-1].member not in by:
            return None
        a = by[first[-1].member]
        rest = [c for key, c in by.items() if key != first[-1].member]
        if not rest or not isinstance(a.value, int | float) or not all(
                isinstance(c.value, int | float) and c.value for c in rest):
            return None
        hedge = _HEDGE.search(said, 0, n.start)
        ratios = [a.value / c.value for c in rest]
        if n.bound:  # 'more than seven times as many as each other store': the side alone,
            # every other row being at its own distance
            holds = all((r - 1) * 100 > n.value if ">" in n.bound else (r - 1) * 100 < n.value
                        for r in ratios)
        else:
            holds = all(near(n, (r - 1) * 100) or bool(hedge) and near(
                replace(n, width=n.width * 1.5), (r - 1) * 100) for r in ratios)
        spans = [(n.start, many.end()), other.span()] + ([hedge.span()] if hedge else [])
        verb = _value_verb(said, hedge.start() if hedge else n.start)
        if verb is not None:
            spans.append(verb)
        cited = (f"{first[-1].member} {a.value:,.6g} and every other row ("
                 + ", ".join(f"{dict(c.citation.selector).get(dim)} {c.value:,.6g}"
                             for c in rest) + ")")
        return spans, holds, cited
    return None


def _value_verb(said: str, at: int) -> tuple[int, int] | None:
    """The span of a verb that states a value ('took', 'flew', 'had') right before `at`."""
    from showwork.harness.audit.numbers import _LAST_WORD
    from showwork.protocol.numbers import _VALUE_CUES

    verb = _LAST_WORD.search(said, 0, at)
    return verb.span(1) if verb and verb.group(1).lower() in _VALUE_CUES else None


def _direct(said: str, n: ReadNumber, mentions: list[Mention]) -> list[tuple[int, int]] | None:
    """'1.8 times JFK's', '4.5 times that of Brooklyn': the words between the multiplier and
    the member it names directly, the possessive after it, and the member's span (last); None
    when no member follows the multiplier so."""
    gap = _OF.match(said, n.end)
    if gap is None:
        return None  # no word follows the multiplier ('dipped twice, in February and in May')
    member = next((m for m in mentions if m.kind == "member" and m.span[0] == gap.end()), None)
    if member is None:
        return None
    spans = [gap.span()] if gap.end() > gap.start() else []
    owner = _POSSESSIVE.match(said, member.span[1])
    if owner is None and not gap.group().strip():
        return None  # '3 times JFK' names no quantity of JFK's
    if owner:
        spans.append(owner.span())
    return [*spans, member.span]


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
