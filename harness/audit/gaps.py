"""The difference between two cited members, held to their cited rows.

"Chai Latte outsold Chai by 28 units", "JFK's average exceeded LGA's by 4.8 minutes", "ORD was
just 68 flights ahead of ATL", "EWR's share was roughly 9 points above LGA's", "LGA sent 2,757
more flights than EWR": a number that says how far one member is from another, both rows of one
breakdown the answer cites (the metric named in the sentence when several are cited). The
comparative says which of the two is larger and the number by how much: the cited values must
order the two that way and lie the number apart, at the precision it was written at (and within
a hedge's interval: 'about', 'roughly'), in the metric's currency when it is written in one. A
rate's gap is in percentage points ('9 points', '9 pp'). A gap the rows contradict is an
unsupported number naming both values; one that cannot be tied to two cited rows is left to the
other checks (unsupported, or unread).

Two shapes, as the sentence orders its words:
- the number after 'by', after the second member: A <comparative> B by N;
- the number before the comparative, the second member after it: A … N <unit> <comparative>
  [than | of] B.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from showwork.harness.audit.numbers import POINTS as _POINTS
from showwork.harness.audit.numbers import money_fits, money_of
from showwork.harness.audit.pairs import _COMPARATIVE
from showwork.harness.audit.quantifiers import _SENTENCE, _breakdowns, _scaled, states
from showwork.harness.audit.times import _HEDGE, _POSSESSIVE, _value_verb
from showwork.protocol.numbers import ReadNumber, _candidates, in_time_unit, near
from showwork.protocol.reading import Mention, find_mentions
from showwork.protocol.reading._literals import finditer, search

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited

_HINT = re.compile(r"(?i)\b(?:by|more|fewer|less|ahead|behind|above|below|higher|lower|"
                   r"larger|smaller|longer|shorter)\b")
_BY = re.compile(r"(?i),?\s+by\s+(?:(?:just|only)\s+)?(?:(?:about|around|roughly|nearly|almost|"
                 r"approximately|some|over|under|more\s+than|less\s+than|at\s+least|"
                 r"at\s+most)\s+)?$")
"""What stands between the second member and the number of 'A outsold B by N'."""
_UNIT_WORDS = re.compile(r"(?i)\s*(?:(?:percentage\s+)?points?|pts?|pp|[a-z]+)?\s*$")
"""The unit the number is counted in, between it and the comparative: '68 flights', '9 points',
'5 minutes' (one word, or 'percentage points')."""
_THAN = re.compile(r"(?i)\s*(?:(?:[a-z]+\s+){0,2}?(?:than|of|that\s+of|those\s+of)\s+)?")
"""Between the comparative and the second member: 'more flights than', 'ahead of', 'above',
'longer to settle than'."""
_THAN_ONLY = re.compile(r"(?i)\s+than\s+")
_EMPHASIS = re.compile(r"(?i)\b(?:just|only)\s+$")


@dataclass(frozen=True)
class Gap:
    """One gap between two cited members, as read."""

    words: tuple[tuple[int, int], ...]
    """The spans it consumes: the comparative, 'by' or the words between it and the members,
    an emphasis before the number ('just', 'only'), the unit after it."""
    number: ReadNumber
    """The gap, at its offsets in the text."""
    holds: bool
    cited: str
    """The two cited values and their difference, as the defect quotes them."""


def read_gaps(ctx: AnswerContext, text: str) -> list[Gap]:
    """Every gap of `text` between two members of a cited breakdown."""
    if search(_HINT, text) is None:
        return []
    groups = _breakdowns(ctx)
    return list(_gaps(ctx, text, groups)) if groups else []


def _gaps(ctx: AnswerContext, text: str,
          groups: dict[tuple[int, str, str, str], list[Cited]]) -> Iterator[Gap]:
    for sentence in _SENTENCE.finditer(text):
        said, at = sentence.group(), sentence.start()
        comparatives = list(finditer(_COMPARATIVE, said))
        if not comparatives:
            continue
        # every number written, a small count too ('just 18 flights ahead of'): the shape
        # decides whether it is a gap
        numbers = [n for n in _candidates(said) if not n.width and n.upto is None]
        if not numbers:
            continue
        found_in = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
        mentions = [m for m in found_in if m.kind == "member"]
        dims = [m for m in found_in if m.kind == "dimension"]
        metrics = [m for m in found_in if m.kind == "metric"]
        named = {m.name for m in metrics}
        for n in numbers:
            found = _shape(said, n, comparatives, mentions, metrics, dims) or _of_two(
                said, n, comparatives, mentions, groups) or _placed(
                said, n, comparatives, mentions, groups)
            if found is None:
                continue
            greater, first, second, spans = found
            rows = _rows(groups, named, first, second)
            if rows is None:
                continue
            (metric, field), a, b = rows
            if not (isinstance(a.value, int | float) and isinstance(b.value, int | float)):
                continue
            if not _own_words(said, spans, metric, ctx.catalog):
                continue
            points = _POINTS.match(said, n.end)
            unit = ctx.catalog.get("metrics", {}).get(metric, {}).get("unit")
            relative = n.percent and not n.points and not points
            if relative:  # '8 % higher than O'Hare's': the gap over the second member's value
                if not b.value:
                    continue
                gap = (a.value - b.value) / abs(b.value) * 100
                stated = n
                if unit == "fraction" and field == "value":  # or a rate's gap, loosely in %
                    stated = replace(n, percent=True)
                    loose = _scaled(ctx, metric, field, a.value, stated) - _scaled(
                        ctx, metric, field, b.value, stated)
                    if near(stated, abs(loose)) and (loose > 0) == greater:
                        gap = loose
            elif unit == "fraction" and field == "value":
                if not (n.points or points):
                    continue  # a rate's gap is written in points; a bare number is not read
                stated = replace(n, percent=True)
            elif n.points or points:
                continue  # points are a gap of rates only
            else:
                stated = in_time_unit(said, (n,), unit)[0]
            if points:
                spans.append(points.span())
            if not relative:
                gap = _scaled(ctx, metric, field, a.value, stated) - _scaled(
                    ctx, metric, field, b.value, stated)
            size = abs(gap) if stated.value >= 0 else -abs(gap)  # '68 fewer' reads as -68
            holds = (relative or money_fits(n, money_of(field, metric, ctx.catalog))) and gap != 0 \
                and (gap > 0) == greater and states(stated, size)
            emphasis = _EMPHASIS.search(said, 0, n.start)
            if emphasis and holds:
                spans.append(emphasis.span())
            hedge = _HEDGE.search(said, 0, n.start)
            if hedge:  # its interval is the number's own (near)
                spans.append(hedge.span())
            verb = _value_verb(said, min([n.start] + [w.start() for w in (hedge, emphasis) if w]))
            if verb is not None and holds:  # 'took 9 longer': the verb states the gap
                spans.append(verb)
            cited = (f"{first.member} {a.value:,.6g} and {second.member} {b.value:,.6g}, "
                     + (f"{abs(gap):,.3g} % apart" if relative else f"{abs(gap):,.6g} apart"))
            spans.append((n.start, n.end))
            yield Gap(tuple((s + at, e + at) for s, e in spans),
                      replace(n, start=n.start + at, end=n.end + at), holds, cited)


def _shape(said: str, n: ReadNumber, comparatives: list[re.Match[str]],
           mentions: list[Mention], metrics: list[Mention], dims: list[Mention]
           ) -> tuple[bool, Mention, Mention, list[tuple[int, int]]] | None:
    """(the first member is the greater, the first member, the second, the spans read) of the
    gap `n` states, or None when the sentence does not say it in either shape. The metric may
    stand between the comparative and 'than' in as many words as its name takes ('81 more
    active users than iOS')."""
    by = _BY.search(said, 0, n.start)
    if by is not None:  # A <comparative> B by N
        second = next((m for m in mentions if m.span[1] <= by.start()
                       and not said[m.span[1]:by.start()].strip(" '’s")), None)
        if second is None:
            return None
        before = [c for c in comparatives if c.end() <= second.span[0]]
        first = [m for m in mentions if before and m.span[1] <= before[-1].start()
                 and m.name == second.name]
        if not before or not first:
            return None
        return (before[-1].group("greater") is not None, first[-1], second,
                [before[-1].span(), by.span()])
    comp = next((c for c in comparatives if c.start() >= n.end
                 and _UNIT_WORDS.fullmatch(said, n.end, c.start())), None)
    if comp is None:
        return None
    after = comp.end()
    metric = next((m for m in metrics if m.span[0] > after and not said[after:m.span[0]].strip()),
                  None)
    if metric is not None and _THAN_ONLY.match(said, metric.span[1]):
        after = metric.span[1]  # the metric's own words are read by the label checks
    between = _THAN.match(said, after)
    start = between.end() if between else after
    second = next((m for m in mentions if m.span[0] == start), None)
    named = next((d for d in dims if d.span[0] == start), None)
    if second is None and named is not None:  # 'than claim 12312701': the member after its
        # dimension's word
        second = next((m for m in mentions if m.name == named.name
                       and m.span[0] >= named.span[1]
                       and not said[named.span[1]:m.span[0]].strip()), None)
    if second is None:
        return None
    first = [m for m in mentions if m.span[1] <= n.start and m.name == second.name]
    if not first:
        return None
    spans = [comp.span()]
    if between and between.end() > between.start():
        spans.append(between.span())
    owner = _POSSESSIVE.match(said, second.span[1])
    if owner:
        spans.append(owner.span())
    return comp.group("greater") is not None, first[-1], second, spans


def _own_words(said: str, spans: list[tuple[int, int]], metric: str,
               catalog: dict[str, Any]) -> bool:
    """Two words between the comparative and 'than' are the metric's own ('longer to settle
    than' of avg_time_to_settle_claim); one word may be any ('more flights than')."""
    label = str((catalog.get("metrics", {}).get(metric) or {}).get("label") or "")
    own = set(metric.lower().split("_")) | set(label.lower().replace("_", " ").split())
    for start, end in spans:
        said_words = _WORD.findall(said[start:end].lower())
        words = [w for w in said_words if w not in _THAN_WORDS]
        if len(words) > 1 and len(words) < len(said_words) and not set(words[1:]) <= own:
            return False
    return True


_WORD = re.compile(r"[a-z]+")
_THAN_WORDS = frozenset({"than", "of", "that", "those"})


def _of_two(said: str, n: ReadNumber, comparatives: list[re.Match[str]],
            mentions: list[Mention], groups: dict[tuple[int, str, str, str], list[Cited]]
            ) -> tuple[bool, Mention, Mention, list[tuple[int, int]]] | None:
    """'Android was ahead by 81', 'iOS trailed by 81': A <comparative> by N with no second
    member, of a cited breakdown of two rows: the second is the other row."""
    by = _BY.search(said, 0, n.start)
    if by is None:
        return None
    comp = next((c for c in reversed(comparatives) if c.end() <= by.start()
                 and not said[c.end():by.start()].strip()), None)
    before = [m for m in mentions if comp is not None and m.span[1] <= comp.start()]
    if comp is None or not before:
        return None
    found = []
    for first in (m for m in before if m.span == before[-1].span):  # one name, two dimensions
        others = {dict(c.citation.selector).get(first.name) for (_, _, _, dim), rows
                  in groups.items() if dim == first.name and len(rows) == 2 for c in rows}
        others.discard(first.member)
        if len(others) == 1 and None not in others:
            other = str(others.pop())
            found.append((first, replace(first, member=other, words=other)))
    if len(found) != 1:
        return None
    first, second = found[0]
    return comp.group("greater") is not None, first, second, [comp.span(), by.span()]


def _placed(said: str, n: ReadNumber, comparatives: list[re.Match[str]],
            mentions: list[Mention], groups: dict[tuple[int, str, str, str], list[Cited]]
            ) -> tuple[bool, Mention, Mention, list[tuple[int, int]]] | None:
    """'ATL was a close second, only 68 flights behind': A <place> … N <comparative> with no
    second member: the second is the member ranked right before A (behind) or right after it
    (ahead) in the cited breakdown, where A holds the place said."""
    comp = next((c for c in comparatives if c.start() >= n.end
                 and _UNIT_WORDS.fullmatch(said, n.end, c.start())), None)
    if comp is None or said[comp.end():].strip(" .;,)"):
        return None
    before = [m for m in mentions if m.span[1] <= n.start]
    place = _PLACE.search(said, before[-1].span[1], n.start) if before else None
    if place is None:
        return None
    greater = comp.group("greater") is not None
    found = [(m, others) for m in before if m.span == before[-1].span  # one name, two dimensions
             if len(others := _next_in_rank(groups, m, _PLACES[place["ord"].lower()],
                                            greater)) == 1]
    if len(found) != 1:
        return None
    first, others = found[0]
    other = str(others.pop())
    # the place is held (the first holds it); 'close' is not: a margin word no band here holds
    return greater, first, replace(first, member=other, words=other), [comp.span(),
                                                                        place.span("ord")]


_PLACES = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "2nd": 2, "3rd": 3, "4th": 4,
           "5th": 5}
_PLACE = re.compile(r"(?i)\b(?:was|is|came|finished|ranked)\s+(?:in\s+)?(?:an?\s+)?(?:close\s+|"
                    r"distant\s+)?(?P<ord>second|third|fourth|fifth|2nd|3rd|4th|5th)\b")
"""The member's place, said before a gap with no second member: 'was a close second'."""


def _next_in_rank(groups: dict[tuple[int, str, str, str], list[Cited]], first: Mention,
                  place: int, greater: bool) -> set[Any]:
    """The member ranked right before the first (a gap 'behind') or right after it ('ahead'),
    largest first, in the one cited breakdown by its dimension where the first holds `place`;
    empty when it holds another place there, or when several breakdowns are cited."""
    found = set()
    for (_, _, field, dim), rows in groups.items():
        if dim != first.name or field != "value":
            continue
        ranked = sorted((c for c in rows if isinstance(c.value, int | float)),
                        key=lambda c: -c.value)
        keys = [dict(c.citation.selector).get(dim) for c in ranked]
        if len(keys) < place or keys[place - 1] != first.member:
            return set()
        other = place if greater else place - 2
        if 0 <= other < len(keys):
            found.add(keys[other])
    return found if len(found) == 1 else set()


def _rows(groups: dict[tuple[int, str, str, str], list[Cited]], named: set[str],
          first: Mention, second: Mention) -> tuple[tuple[str, str], Cited, Cited] | None:
    """The two members' cited rows of the one breakdown by their dimension the sentence speaks
    of (its metric's, when it names one); None when none or several are."""
    found = []
    for (_, metric, field, dim), rows in groups.items():
        if dim != first.name or field not in ("value", "delta") or (named and metric not in named):
            continue
        by = {dict(c.citation.selector).get(dim): c for c in rows}
        if first.member in by and second.member in by and first.member != second.member:
            found.append(((metric, field), by[first.member], by[second.member]))
    return found[0] if len(found) == 1 else None
