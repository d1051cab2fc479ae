"""A number no reading holds, but which the cited rows its sentence names give together.

"Together the top five took about 80,000 flights", "Outside the US, revenue was about $29,700",
"May revenue was about 94 % of April's", "June to August had about 87,000 flights": each number
is what the cited rows give (a sum, a mean, the least or the most of some of them, a share of
their whole, a difference, a ratio or a gap in percent between two of them), in words no
reading of the audit knows. Such a number is not proven false, so it is not withheld
(`unsupported_number` is for a number no cited value and no derivation gives); it is not read
either: its words and the number itself stay in `unread_answer`, so the answer is served with
caveats, never clean, and the caveat quotes what was not checked.

The derivations are few and only over rows the sentence names, so that a number made up is
rarely one of them by chance: of each cited breakdown or series the sentence speaks of
(`one_group`: of the metric it names, or the only one cited), the members it names (or the
periods whose span holds a row), every row, every row but those named, every row but the
highest or the lowest, the top and bottom N for an N the sentence writes, a daily series'
weekdays and weekend days; of two named rows (or the top two, when it names fewer), their
difference, ratio and gap in percent, and the highest less the lowest; of a comparison whose two
ends are both cited, their ratio, in a sentence naming its metric; what a cited share leaves of
its whole. The number must state one of them at its written precision, hedge, bound and unit
(`Supports`, as any number); a bound, one it meets within a factor of two.

Which rows a sentence names is read from its words: the rest of them only where it says so
('the other', 'remaining', 'leaving out', `_OTHERS`), weekdays and weekends only where it names
them. The values of the rows are looked for only for a number written as near what it states
(hedged 'about 437', a bound, a range, a word, a scale) or written finely ('28,198'): a coarse
exact number ('17 min' of 16.44, rounded the wrong way) often lies within its half unit of one
of the many values by chance, so it stays `unsupported_number`, withheld. A gap between two
members is no move ('quintupled' states a period's change, not LGA's distance from JFK).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, TypeGuard

from showwork.harness.audit.gaps import _POINTS
from showwork.harness.audit.numbers import (
    Support,
    Supports,
    answer_checker,
    money_fits,
    money_of,
    read_claims,
)
from showwork.harness.audit.quantifiers import _SENTENCE, _TIME_KEYS, ADDING, _breakdowns, _meets, one_group
from showwork.protocol.numbers import MOTION, ReadNumber, in_time_unit, matches
from showwork.protocol.reading.periods import NUMBERS as NUMBER_WORDS

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited
    from showwork.protocol.reading import Mention, PeriodMention

Span = tuple[int, int]

_OTHERS = re.compile(r"(?i)\b(?:other|others|rest|remaining|remainder|else|besides|outside|"
                     r"apart\s+from|aside\s+from|except|excluding|without|minus|beyond|"
                     r"leaving\s+out|left\s+out|not\s+counting|setting\s+aside|non-?)\b")
"""Words that name the rows a sentence does not: every row but those named, or but the top."""
_WEEK = re.compile(r"(?i)\b(?:week\s?days?|week-days?|weekends?|working\s+days|business\s+days|"
                   r"saturdays?|sundays?)\b")
"""Words that name a daily series' weekdays or weekend days."""

_QUANTIFIED = re.compile(r"(?i)\b(?:only|none|neither|every|each|all(?!\s+told)|both|never|"
                         r"always|any|no(?=\s+(?!more|less|fewer|longer)[a-z]))\b")
"""Words that make a sentence about which rows pass a mark, not about a value the rows give."""
_FINE = 0.005
"""How fine an exact number must be written (its last digit's value over its own) for the
derivations over the rows to be looked for."""

_ORDINAL = {"first": 0, "second": 1, "third": 2, "last": -1, "final": -1}
"""A row named by its place: in a series by time, in a breakdown by value (the highest first)."""


def derivable(ctx: AnswerContext, text: str, numbers: Iterable[ReadNumber]) -> set[Span]:
    """The spans of `numbers` (of `text`, the prose, none held by a reading) that some
    derivation over the cited rows their sentence names states."""
    numbers = list(numbers)
    if not numbers:
        return set()
    groups = _breakdowns(ctx)
    by_change = _compared_by_change(ctx)
    compared = _compared(ctx)
    shares, wholes = _complements(ctx)
    if not groups and not compared and not shares and not wholes and not by_change:
        return set()
    from showwork.harness.audit.labels import read_words

    periods = read_words(ctx.index_, "prose", text).periods
    out: set[Span] = set()
    for sentence in _SENTENCE.finditer(text):
        start, end = sentence.span()
        inside = [n for n in numbers if start <= n.start < end]
        if not inside:
            continue
        said = sentence.group()
        found, chosen = one_group(ctx, said, groups)
        named = {m.name for m in found if m.kind == "metric"}
        # few and specific: a comparison's ratio in a sentence naming its metric, what a share
        # leaves in one speaking of the rest; any number may state them
        specific: list[Support] = [s for metric, ratios in compared if metric in named
                                   for s in ratios] + wholes
        specific += _by_change_said(ctx, said, by_change)
        if _OTHERS.search(said):
            specific += shares
        # a number in a sentence about some or all of the rows is a mark they pass or miss
        # ('only January topped $25', 'none of the three reached 305'): quantifiers.py reads it
        quantified = bool(_QUANTIFIED.search(said))
        of_rows: list[Support] = []
        gaps: list[Support] = []
        series = False
        unit = None
        if chosen is not None:
            (_, metric, field, dim), rows = chosen
            named_periods = [p for p in periods if start <= p.span[0] < end]
            of_rows, gaps = _of_rows(ctx, said, metric, field, dim, rows, found, named_periods,
                                     quantified)
            series = dim in _TIME_KEYS
            unit = (ctx.catalog.get("metrics", {}).get(metric) or {}).get("unit")
        for n in inside:
            # the many values of the rows only for a number written as near what it states
            candidates = specific
            # in a sentence about which rows pass a mark, the mark is a bound some rows it
            # names or counts must meet ('each of the five smaller ones was under 277'), never
            # a value ('none of the three reached 305' is no mean of theirs)
            if _near_or_fine(n) and (not quantified or n.bound):
                # two members' gap is no move: 'quintupled' is a period's change, not how far
                # LGA lies from JFK ('more', 'higher' are)
                moving = n.sign_word.lower() in MOTION or n.sign_word.lower().endswith("ed")
                candidates = candidates + of_rows + (gaps if series or not moving else [])
            if not candidates:
                continue
            local = replace(n, start=n.start - start, end=n.end - start)
            stated = in_time_unit(said, (local,), unit)[0] if unit else local
            if not n.percent and _POINTS.match(said, local.end):
                # 'fell by nearly 38 points' of a rate: percentage points, its cited change too
                stated = replace(stated, percent=True, points=True)
                if answer_checker(ctx)(stated):
                    out.add((n.start, n.end))
                    continue
            # a ratio, a gap in percent or a share only of a number written as one ('94 %',
            # 'halved', 'two-thirds'); a level, a sum or a difference of one in the rows' units
            relative = stated.percent or n.width or n.share
            supports = Supports([s for s in candidates if (s.kind != "number") == bool(relative)])
            if supports(stated) or _bounded(stated, supports.items):
                out.add((n.start, n.end))
    return out


def _near_or_fine(n: ReadNumber) -> bool:
    """A number the many values of the rows may state: one written as near what it states —
    hedged ('about', 'nearly'), a bound, a range, a word ('two-thirds', 'halved'), a scale
    ('80K') — or one written finely enough (its last digit at most 0.5 % of it: '28,198',
    '82.6 %') that no derivation lies within its precision by chance. A coarse exact number
    ('17 min' written for 16.44, '94 %') may be a value rounded the wrong way, and of the many
    values the derivations give one often lies within its half unit: it stays
    `unsupported_number`."""
    if written_near(n):
        return True
    return bool(n.value) and n.unit / abs(n.value) <= _FINE


def written_near(n: ReadNumber) -> bool:
    """Written as near what it states: hedged, a bound, a range, a word, a scale."""
    return bool(n.hedge or n.bound or n.upto is not None or n.width or n.share or n.scale)


def _bounded(n: ReadNumber, candidates: Iterable[Support]) -> bool:
    """A bound ('fewer than 100', 'at least 27,000') that some candidate meets and lies within
    a factor of two of: a bound is written near what it bounds ('edged ATL by fewer than 100'
    of 68), so a far one ('more than 100' of a sum of 34,498) is not taken for it. A ratio's
    word bounds as a number does ('more than tenfold' of 154 → 1,974), of a move only: 'more
    than quadrupled' is no level of 369.5 % (3.7 times)."""
    if not n.bound or n.upto is not None or not n.value:
        return False
    for s in candidates:
        value = s.value if s.kind == "number" else s.percent
        if value is None or not money_fits(n, s.money):
            continue
        if n.width:  # a move's size, one way: 'fell by more than half' is no fall of 44.5 %
            if not s.change or (value > 0) != (n.value > 0) or not _meets(
                    abs(value), replace(n, value=abs(n.value))):
                continue
            if 0.5 <= value / n.value <= 2:
                return True
            continue
        size = abs(value) if s.change and not n.signed else value
        if size and 0.5 <= size / n.value <= 2 and _meets(size, n):
            return True
    return False


def _compared(ctx: AnswerContext) -> list[tuple[str, list[Support]]]:
    """Of each cited comparison whose two ends are both cited, its metric and the ratio of its
    ends, as a move ('rose to 1.2 times', 'halved') and as a level in percent ('May was about
    94 % of April's'): offered only to a sentence that names that metric."""
    ends: dict[tuple[int, str], set[str]] = {}
    rows: dict[tuple[int, str], Cited] = {}
    for claim in ctx.claims:
        for c in claim.cited:
            if c.citation.field in ("value", "previous"):
                key = (id(c.row), c.citation.metric)
                ends.setdefault(key, set()).add(c.citation.field)
                rows.setdefault(key, c)
    out: list[tuple[str, list[Support]]] = []
    for key, fields in ends.items():
        if fields != {"value", "previous"}:
            continue
        c = rows[key]
        values = c.row.values.get(c.citation.metric) or {}
        now, before = values.get("value"), values.get("previous")
        if _number(now) and _number(before) and before and now:
            out.append((c.citation.metric,
                        _ratios(float(now), float(before), f"{c.text} ÷ previous")
                        + _ratios(float(before), float(now), f"previous ÷ {c.text}")))
    return out


def _compared_by_change(ctx: AnswerContext) -> list[tuple[str, list[Support]]]:
    """Of each cited comparison whose change (`delta`) is cited without both its ends, its
    metric and the change in percent of the previous value ('rose by 686 (about 18 %)' of
    3,856 → 4,542): the row's own gap, offered only to a sentence that names that metric."""
    out: list[tuple[str, list[Support]]] = []
    seen: set[tuple[int, str]] = set()
    for claim in ctx.claims:
        fields = {(id(c.row), c.citation.metric): c for c in claim.cited
                  if c.result.kind == "compare" and c.citation.field == "delta"}
        for key, c in fields.items():
            if key in seen:
                continue
            seen.add(key)
            values = c.row.values.get(c.citation.metric) or {}
            now, before = values.get("value"), values.get("previous")
            if _number(now) and _number(before) and before and _number(c.value):
                # the change itself rides along (with its citation) to be found in a sentence
                out.append((c.citation.metric, [Support(
                    (float(now) - float(before)) / abs(float(before)) * 100, "percent",
                    f"{c.text} ÷ previous", None, "-", change=True, derived=True),
                    Support(float(c.value), "number", c.text, c, "", change=True,
                            derived=True)]))
    return out


def _by_change_said(ctx: AnswerContext, said: str, by_change: list[tuple[str, list[Support]]]
                    ) -> list[Support]:
    """A change's percent for a sentence that writes the change itself ('rose by 686 (about
    18 %)'; '… origin airport EWR) rose by 112 (about 3 %)', cut from its metric at a ';'):
    only there, so that of many cited changes (a diagnosis' members) no other's percent is
    offered to a number of the sentence."""
    if not by_change:
        return []
    numbers = read_claims(ctx.index_, said)
    out: list[Support] = []
    for _metric, supports in by_change:
        deltas = {abs(s.value) for s in supports if s.source is not None}
        if any(matches(n, d) for n in numbers for d in deltas):
            out += [s for s in supports if s.source is None]
    return out


def _complements(ctx: AnswerContext) -> tuple[list[Support], list[Support]]:
    """What a cited share leaves of its whole ('the other airlines flew the remaining 82.6 %'
    of United's 17.4 %), and the whole itself, its row's value over the share ('around 3,750
    flights went to BOS' of JetBlue's 1,025, 27.3 % of them), and the rest of it in the row's
    unit ('the physical stores took 1,193 orders' of Online's 1,378, 53.6 %)."""
    rest: list[Support] = []
    wholes: list[Support] = []
    for claim in ctx.claims:
        for c in claim.cited:
            field = c.citation.field
            if field not in ("share_of_total", "share") or not _number(c.value):
                continue
            share = float(c.value) if field == "share_of_total" else float(c.value) / 100
            if field == "share_of_total":
                rest.append(Support(1 - share, "fraction", f"1 − {c.text}", None, "-",
                                    derived=True))
            else:
                rest.append(Support(100 - float(c.value), "percent", f"100 − {c.text}", None,
                                    "-", derived=True))
            part = (c.row.values.get(c.citation.metric) or {}).get("value")
            if _number(part) and 0 < share <= 1:
                money = money_of("value", c.citation.metric, ctx.catalog)
                wholes.append(Support(float(part) / share, "number", f"value ÷ {c.text}", None,
                                      money, derived=True))
                # and what the rest of the whole holds ('the physical stores took about 1,193')
                wholes.append(Support(float(part) / share - float(part), "number",
                                      f"value ÷ {c.text} − value", None, money, derived=True))
    return rest, wholes


def _of_rows(ctx: AnswerContext, said: str, metric: str, field: str, dim: str,
             rows: list[Cited], found: list[Mention], periods: list[PeriodMention],
             quantified: bool = False) -> tuple[list[Support], list[Support]]:
    """What the rows the sentence names give: levels (sums, means, least, most, shares), and
    gaps (difference, ratio, gap in percent) of two of them. Of a quantified sentence, only
    the rows it names or counts ('each of the five smaller ones'), none of the others."""
    values = [(c, float(c.value)) for c in rows if _number(c.value)]
    if len(values) < 2:
        return [], []
    key = {id(c): str(dict(c.citation.selector)[dim]) for c, _ in values}
    named = _named(said, dim, values, key, found, periods)
    ranked = sorted(values, key=lambda cv: cv[1], reverse=True)
    counts = {k for k in _counts(said) if 1 <= k < len(values)}
    others = bool(_OTHERS.search(said))
    # every row but the top or the bottom also where the sentence adds rows up and names none
    # ('the physical stores together brought in about $28,200' beside Online)
    rest = others or (not named and bool(ADDING.search(said)))
    # the rows it names; with none named, every row; the rest only where the sentence says so
    sets: list[list[float]] = [[v for c, v in named]] if named else \
        [] if quantified else [[v for _, v in values]]
    if named and others:
        sets.append([v for c, v in values if all(c is not x for x, _ in named)])
    for k in counts:
        sets += [[v for _, v in ranked[:k]], [v for _, v in ranked[-k:]]]
    if rest and not quantified:
        # every row but the highest, or but the lowest ('the physical stores' beside Online;
        # 'the other airlines … the remaining 82.6 %')
        sets += [[v for _, v in ranked[1:]], [v for _, v in ranked[:-1]]]
    if dim == "day" and _WEEK.search(said) and not quantified:
        # a daily series: its weekdays, its weekend days
        days = [(dt.date.fromisoformat(key[id(c)][:10]).weekday(), v) for c, v in values]
        sets += [[v for d, v in days if d < 5], [v for d, v in days if d >= 5]]
    additive = bool((ctx.catalog.get("metrics", {}).get(metric) or {}).get("additive"))
    money = money_of(field, metric, ctx.catalog)
    kind = "fraction" if (ctx.catalog.get("metrics", {}).get(metric) or {}).get(
        "unit") == "fraction" and field == "value" else "number"
    total = sum(v for _, v in values)
    out: list[Support] = []
    where = f"the cited rows of {metric}"
    for chosen in sets:
        if not chosen:
            continue
        level = [min(chosen), max(chosen)]
        if len(chosen) >= 2:
            level.append(sum(chosen) / len(chosen))
            if additive:
                level.append(sum(chosen))
        out += [Support(v, kind, where, None, money, derived=True) for v in level]  # type: ignore[arg-type]
        if additive and total and len(chosen) < len(values):
            out.append(Support(sum(chosen) / total, "fraction", where, None, "-", derived=True))
    if additive and total:
        out += [Support(v / total, "fraction", where, None, "-", derived=True) for _, v in named]
    pairs = [(a, b) for a, _ in named for b, _ in named if a is not b] if len(named) >= 2 \
        else [(ranked[0][0], ranked[1][0])]
    gaps: list[Support] = []
    for a, b in pairs[:12]:
        va, vb = float(a.value), float(b.value)
        # of two rates (fractions), their gap in points too ('1.3 percentage points above')
        gaps.append(Support(va - vb, kind, where, None, money, change=True, derived=True))  # type: ignore[arg-type]
        if vb:
            gaps += _ratios(va, vb, where)
    if len(named) < 2 and len(ranked) > 2:  # the highest less the lowest ('the spread between
        # the best and the worst month was 606 orders'), a difference only: the two ends'
        # ratio would let one more made-up ratio through by chance
        gaps.append(Support(float(ranked[0][0].value) - float(ranked[-1][0].value), kind,  # type: ignore[arg-type]
                            where, None, money, change=True, derived=True))
    return out, gaps


def _named(said: str, dim: str, values: list[tuple[Cited, float]], key: dict[int, str],
           found: list[Mention], periods: list[PeriodMention]) -> list[tuple[Cited, float]]:
    """The rows the sentence names: its members of `dim`; of a series, the rows inside the
    periods it names; a row named by its place ('the first week', 'the second')."""
    if dim in _TIME_KEYS:
        named = [(c, v) for c, v in values if any(
            p.period.start.isoformat() <= key[id(c)][:10] <= p.period.end.isoformat()
            for p in periods)]
        order = sorted(values, key=lambda cv: key[id(cv[0])])
    else:
        members = {m.member for m in found if m.kind == "member" and m.name == dim}
        named = [(c, v) for c, v in values if key[id(c)] in members]
        order = sorted(values, key=lambda cv: cv[1], reverse=True)
    for m in _PLACE.finditer(said):
        if m.group("part"):
            continue  # 'a third of a million', 'two thirds': a fraction, no place
        at = _ORDINAL[m.group("place").lower()]
        if at >= len(order):
            continue  # 'Brazil was third' of two rows cited: no such place among them
        if all(order[at][0] is not c for c, _ in named):
            named.append(order[at])
    return named


_PLACE = re.compile(r"(?i)(?P<part>\b(?:a|an|one|two|three)[\s-]+)?(?<![\w-])"
                    rf"(?P<place>{'|'.join(_ORDINAL)})\b(?!-)")
"""A row's place ('the first week', 'the third'), and a fraction's words ('a third of a
million', 'two thirds') that are none."""


def _counts(said: str) -> Iterator[int]:
    """The counts the sentence writes, in digits or words ('the top five', 'the other 3')."""
    for word in said.lower().replace(",", " ").split():
        word = word.strip(".;:()")
        if word.isdigit() and len(word) <= 2:
            yield int(word)
        elif word in NUMBER_WORDS:
            yield NUMBER_WORDS[word]


def _ratios(a: float, b: float, where: str) -> list[Support]:
    """`a` over `b` as a move from `b` ('1.8 times', 'halved', '55 % above') and as a level in
    percent ('94 % of')."""
    ratio = a / b
    return [Support((ratio - 1) * 100, "percent", where, None, "-", change=True, derived=True),
            Support(ratio * 100, "percent", where, None, "-", derived=True)]


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
