"""A move between two rows of a cited series, held to those rows.

"Flights rose in March", "From February to March flights rose by about 3,900", "Revenue fell
5.73 % in May", "Orders dipped between April and May": a verb of motion in a sentence that
names one row's period (the move from the row before it) or two rows' ("from A to B",
"between A and B"), of a series the claims cite row by row (one metric's values keyed by one
time grain). The rows say which way it went and how far: the verb must go their way, and a
number right after it (or after its 'by') must be the step at its written precision — a
percent the relative change, points a rate's difference (`percentage points`), any other
number the difference in the metric's unit (a unit of time converted, a currency the
metric's). A step the rows bear out consumes its verb and number; a verb the rows contradict is
`direction_mismatch`, a number they contradict `unsupported_number`, each naming both rows.
A sentence that names no row, several, or a span of several rows ('the second half') is left
to the other readings.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from showwork.harness.audit.gaps import _POINTS
from showwork.harness.audit.labels import Window, in_cited_year, period_window, read_words
from showwork.harness.audit.numbers import money_fits, money_of
from showwork.harness.audit.prose import (
    _NEGATIONS,
    FALLS,
    JUDGES,
    RISES,
    judged,
    polarities,
    unbracketed,
)
from showwork.harness.audit.quantifiers import _SENTENCE, _TIME_KEYS, _breakdowns, states
from showwork.harness.audit.times import _HEDGE
from showwork.protocol.numbers import ReadNumber, claims_in, in_time_unit
from showwork.protocol.reading._literals import search
from showwork.protocol.reading.periods import NUMBERS as NUMBERS_WORDS

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited
    from showwork.protocol.reading import PeriodMention

Span = tuple[int, int]

_MOVE = re.compile(r"(?i)\b(?:" + "|".join(sorted(RISES | FALLS | set(JUDGES), key=len,
                                                    reverse=True)) + r")\b")
"""A verb of motion, or one that judges a move ('recovered'), read of a metric whose governance
states a polarity (prose.py `judged`)."""
_BEFORE_NUMBER = re.compile(r"(?i)\s+(?:(?P<by>by)\s+)?(?:(?:just|only|some)\s+)?$")
"""What stands between the verb and its number: nothing, 'by', an emphasis (a hedge is the
number's own)."""


@dataclass(frozen=True)
class RowMove:
    """One move between two cited rows of a series, as read."""

    verb: Span
    words: tuple[Span, ...]
    """Every span it consumes: the verb, 'by', the number with its hedge and unit."""
    direction_holds: bool
    number: ReadNumber | None
    """The step's size as written, at its offsets in the text; None when none is."""
    number_holds: bool
    metric: str
    cited: str
    """The two rows and their values, as the findings quote them."""
    went: str
    """'rose', 'fell' or 'did not move': what the rows did."""
    denied: bool = False
    """The sentence denies the move ('never fell in February'): it holds when the rows did not
    go the verb's way; `words` begins with the negation."""
    also: tuple[ReadNumber, ...] = ()
    """The size said again in the other measure ('by 833, about 5.8 %'), the rows bearing it
    out (`number` is then the one they contradict, if any)."""


def read_row_moves(ctx: AnswerContext, text: str) -> list[RowMove]:
    """Every move of `text` between two rows of a series the claims cite."""
    if text != ctx.answer.answer or search(_MOVE, text) is None:
        return []
    return ctx.from_rows_once("row_moves", lambda: list(_moves(ctx, text)))


def _one_move(ctx: AnswerContext, text: str) -> Iterator[
        tuple[int, int, re.Match[str], tuple[tuple[int, str, str, str], list[Cited]]]]:
    """Each sentence of `text` with one verb of motion, and the one cited series it speaks of
    ((handle, metric, field, grain) and its cited rows: one metric's values by a time grain):
    the metric named before the verb, or the only series with none named. Several verbs in a
    sentence: which rows each speaks of is not said."""
    series = [(k, rows) for k, rows in _breakdowns(ctx).items()
              if k[3] in _TIME_KEYS and k[2] == "value"]
    if not series:
        return
    reading = read_words(ctx.index_, "prose", text)
    for sentence in _SENTENCE.finditer(text):
        start, end = sentence.span()
        verbs = list(unbracketed(text, _MOVE.finditer(text, start, end)))
        if len(verbs) != 1:
            continue
        metrics = {m.name for m in reading.metrics if start <= m.span[0] < verbs[0].start()}
        chosen = [(k, rows) for k, rows in series if k[1] in metrics] or (
            series if len(series) == 1 and not metrics else [])
        if len(chosen) == 1:
            yield start, end, verbs[0], chosen[0]


def _moves(ctx: AnswerContext, text: str) -> Iterator[RowMove]:
    for start, end, verb, ((_, metric, _, grain), rows) in _one_move(ctx, text):
        if _COUNTED.match(text, verb.end()):
            continue  # 'dipped twice, in February and in May': a count of moves (below)
        denial = _denial(text, start, verb.start())
        periods = [p for p in read_words(ctx.index_, "prose", text).periods
                   if start <= p.span[0] < end]  # 'March.' ends past it
        # 'grew 5.8 % over the eight weeks', 'Over the eight weeks active users grew 5.8 %'
        whole = _WHOLE.search(text, start, end) if not periods else None
        joined = _JOINED.fullmatch(text, periods[0].span[1], periods[1].span[0]) \
            if len(periods) == 2 and not any(p.parts for p in periods) else None
        if len(periods) != 1 and whole is None and joined is None:
            continue
        word = verb.group().lower()
        sign = 1 if word in RISES else -1 if word in FALLS else judged(text, verb) * \
            ctx.index_.derive("polarity", polarities).get(metric, 0)
        if not sign:
            continue  # 'improved' of a metric with no polarity: which way is not said
        # 'over the eight weeks': the series' first row to its last
        pair = _ends(whole, rows, grain) if whole is not None else _pair(periods[0], rows, grain) \
            if joined is None else _two(periods, rows, grain, bool(joined.group("next")))
        if pair is None:
            continue
        before, after = pair
        if denial is not None:  # 'never fell in February': any move but a fall, no size
            move = _denied_move(verb, denial, sign, metric, before, after)
        else:
            move = _held(ctx, text, start, end, verb, sign, metric, before, after)
        said = whole or joined
        yield replace(move, words=(*move.words, said.span())) if said is not None else move


_NEGATION = re.compile(r"(?i)\b(?:" + "|".join(sorted(_NEGATIONS)) + r")\b|n['’]t\b|\bfail(?:ed|s)?\s+to\b")


def _denial(text: str, start: int, at: int) -> re.Match[str] | None:
    """The negation right before the verb, two words at most between ('never dipped', "didn't
    rise", 'has not really fallen', 'failed to climb'), or None: the sentence says the move did
    not happen. One further back ('No store closed, and flights rose in March') or 'not only'
    denies nothing of it."""
    found = next(reversed(list(_NEGATION.finditer(text, start, at))), None)  # the last one
    if found is None or len(text[found.end():at].split()) > 2 or \
            _NOT_ONLY.match(text, found.end()) is not None:
        return None
    return found


_NOT_ONLY = re.compile(r"(?i)\s+only\b")


def _denied_move(verb: re.Match[str], denial: re.Match[str], sign: int, metric: str,
                 before: Cited, after: Cited) -> RowMove:
    """'Flights never fell in February': holds when the rows did not go the verb's way (rose,
    or did not move); a size after a denied verb is left to the other readings."""
    a, b = float(before.value), float(after.value)
    step = b - a
    went = "rose" if step > 0 else "fell" if step < 0 else "did not move"
    cited = f"{before.text} = {a:,.6g} and {after.text} = {b:,.6g}"
    return RowMove(verb.span(), (denial.span(), verb.span()), step * sign <= 0, None, True,
                   metric, cited, went, denied=True)


_WHOLE = re.compile(rf"(?i)\b(?:over|across|during|through(?:out)?|in)\s+the\s+(?:(?P<n>[0-9]+|"
                    rf"{'|'.join(NUMBERS_WORDS)})\s+(?P<grain>day|week|month|quarter|year)s"
                    r"|(?:whole|full|entire)\s+(?:period|series|span|window))\b")
"""A span that is the whole cited series: 'over the eight weeks', 'across the whole period'."""


_JOINED = re.compile(r"(?i)\s*,?\s+(?:(?P<next>after|following)|from|over|compared\s+(?:with|to)"
                     r"|versus|vs\.?)\s+(?:the\s+)?")
"""What joins two periods of one move, from the earlier row to the later: 'climbed further in
January after December's peak' (the row right before it: 'after' names the step), 'rose in May
compared with February' (any two rows of the series)."""


def _ends(whole: re.Match[str], rows: list[Cited], grain: str) -> tuple[Cited, Cited] | None:
    """The first and last rows of the series, when the span counts as many periods of its
    grain as the series has rows (or names the whole period)."""
    ordered = sorted(rows, key=lambda c: str(dict(c.citation.selector)[grain]))
    if len(ordered) < 2:
        return None
    if whole.group("n"):
        word = whole.group("n").lower()
        count = int(word) if word.isdigit() else NUMBERS_WORDS.get(word)
        if whole.group("grain").lower() != grain or count != len(ordered):
            return None
    return ordered[0], ordered[-1]


def _pair(p: PeriodMention, rows: list[Cited], grain: str) -> tuple[Cited, Cited] | None:
    """The two rows a period names: 'from A to B' its two parts' rows; one row's period the row
    before it and that row."""
    by_window = {w: c for c in rows if (w := _window(c, grain)) is not None}
    parts = p.parts
    if len(parts) == 2:
        a, b = (by_window.get((q.period.start, q.period.end)) for q in parts)
        if a is None or b is None or a is b or parts[0].period.start > parts[1].period.start:
            return None
        return a, b
    named = _named(p, by_window)
    if named is None:
        return None
    previous = _previous(named[0], grain)
    prior = by_window.get(previous) if previous is not None else None
    return (prior, by_window[named]) if prior is not None else None


def _named(p: PeriodMention, by_window: dict[Window, Cited]) -> Window | None:
    """The window of the row a period names: its own, else (a month written without its
    year, in a series crossing a year's end) the one cited row's of that name."""
    window = (p.period.start, p.period.end)
    if window not in by_window and (moved := in_cited_year(p, by_window)) is not None:
        window = (moved.start, moved.end)
    return window if window in by_window else None


def _two(periods: list[PeriodMention], rows: list[Cited], grain: str, adjacent: bool
         ) -> tuple[Cited, Cited] | None:
    """The two rows two periods name, the earlier first in whichever order the text names
    them; when `adjacent`, only where one is the row right before the other."""
    by_window = {w: c for c in rows if (w := _window(c, grain)) is not None}
    first, second = (_named(p, by_window) for p in periods)
    if first is None or second is None or by_window[first] is by_window[second]:
        return None
    early, late = sorted((first, second))
    if adjacent and _previous(late[0], grain) != early:
        return None
    return by_window[early], by_window[late]


def _window(c: Cited, grain: str) -> Window | None:
    return period_window(str(dict(c.citation.selector)[grain]), grain)


def _previous(start: dt.date, grain: str) -> Window | None:
    """The window of the row before the one starting on `start`."""
    if grain in ("day", "week"):
        first = start - dt.timedelta(days=1 if grain == "day" else 7)
    else:
        index = start.year * 12 + start.month - 1 - {"month": 1, "quarter": 3, "year": 12}[grain]
        first = dt.date(index // 12, index % 12 + 1, 1)
    return period_window(first.isoformat(), grain)


def _held(ctx: AnswerContext, text: str, begin: int, stop: int, verb: re.Match[str], sign: int,
          metric: str, before: Cited, after: Cited) -> RowMove:
    a, b = float(before.value), float(after.value)
    step = b - a
    went = "rose" if step > 0 else "fell" if step < 0 else "did not move"
    direction_holds = step != 0 and (step > 0) == (sign > 0)
    cited = f"{before.text} = {a:,.6g} and {after.text} = {b:,.6g}"
    words: list[Span] = [verb.span()]
    number = _number(text, begin, verb.end(), stop)
    number_holds = True
    said: ReadNumber | None = None
    also: tuple[ReadNumber, ...] = ()
    if number is not None:
        n, by = number
        said = n
        number_holds = _size_holds(ctx, text, n, metric, before, after, words)
        words += [(n.start, n.end)] + ([by] if by else [])
        hedge = _HEDGE.search(text, verb.end(), n.start)
        if hedge:
            words.append(hedge.span())
        again = _restated(text, n, stop)  # 'rose by 833, about 5.8 %': the move in the other
        if again is not None:  # measure, held as the first is
            gap, m = again
            holds = _size_holds(ctx, text, m, metric, before, after, words)
            words += [gap, (m.start, m.end)]
            hedge = _HEDGE.search(text, gap[1], m.start)
            if hedge:
                words.append(hedge.span())
            if number_holds and not holds:
                also, said, number_holds = (n,), m, False
            elif holds:
                also = (m,)
    return RowMove(verb.span(), tuple(words), direction_holds, said, number_holds, metric,
                   cited, went, also=also)


def _size_holds(ctx: AnswerContext, text: str, n: ReadNumber, metric: str, before: Cited,
                after: Cited, words: list[Span]) -> bool:
    """The number states the size of the move from `before` to `after`: a percent its relative
    change, points a rate's difference, any other number the difference (in the metric's
    unit). A points word after it is added to `words`."""
    a, b = float(before.value), float(after.value)
    step = b - a
    unit = ctx.catalog.get("metrics", {}).get(metric, {}).get("unit")
    points = _POINTS.match(text, n.end)
    size: float | None
    if n.percent and not (n.points or points):
        size = abs(step) / abs(a) * 100 if a else None  # a relative change
        stated = n
    elif n.points or points:
        size = abs(step) * 100 if unit == "fraction" else None  # a rate's points
        stated = replace(n, percent=True)
        if points:
            words.append(points.span())
    else:
        size = abs(step) * (100 if unit == "fraction" and n.percent else 1)
        stated = in_time_unit(text, (n,), unit)[0]
    if stated.value < 0:  # 'fell by 2,053' reads as -2,053: the size is held here
        stated = replace(stated, value=-stated.value)
    return size is not None and money_fits(
        n, money_of(after.citation.field, metric, ctx.catalog)) and states(stated, size)


_APPOSED = re.compile(r"\s*,\s*(?:or\s+|that\s+is\s+)?")
"""Between a move's size and the same size in the other measure ('by 833, about 5.8 %', 'by
5.8 %, or about 833'); a parenthesis after a size holds the move's ends ('(5,697 → 5,844)')."""


def _restated(text: str, n: ReadNumber, stop: int) -> tuple[Span, ReadNumber] | None:
    """The move's size said again right after it in the other measure (a percent after a
    difference, or a difference after a percent), with the words between."""
    gap = _APPOSED.match(text, n.end, stop)
    if gap is None:
        return None
    rest = claims_in(text[gap.end():stop])
    if not rest:
        return None
    m = replace(rest[0], start=rest[0].start + gap.end(), end=rest[0].end + gap.end())
    hedge_at = text.lower().rfind(m.hedge, gap.end(), m.start) if m.hedge else -1
    if text[gap.end():hedge_at if hedge_at >= 0 else m.start].strip() or \
            bool(m.percent) == bool(n.percent):
        return None
    return gap.span(), m


def _number(text: str, begin: int, at: int, stop: int) -> tuple[ReadNumber, Span | None] | None:
    """The number right after the verb (after 'by' or a hedge), at its offsets in the text,
    read in its whole sentence (from `begin`): 'fell by 2' is a move's size, not a count."""
    for n in claims_in(text[begin:stop]):
        n = replace(n, start=n.start + begin, end=n.end + begin)
        if n.start < at:
            continue
        hedge_at = text.lower().rfind(n.hedge, at, n.start) if n.hedge else -1
        head = text[at:hedge_at] if hedge_at >= 0 else text[at:n.start]
        found = _BEFORE_NUMBER.fullmatch(head) if head.strip() else re.fullmatch(r"\s*", head)
        if found is None:
            return None  # 'rose to 28,834': the level moved to, which the number checks hold
        by = found.span("by") if found.groupdict().get("by") else None
        return n, ((by[0] + at, by[1] + at) if by else None)
    return None


_COUNTED = re.compile(rf"(?i)\s+(?:(?P<only>only|just|exactly)\s+)?(?P<n>once|twice|thrice|(?P<k>[0-9]+|"
                      rf"{'|'.join(NUMBERS_WORDS)})\s+times)\b(?!\s+(?:as|more|less|higher|lower|"
                      r"the|its|that|over)\b)")
"""A count after a verb of motion: 'dipped twice', 'rose only once', 'fell three times' (not
'three times as many', 'three times the level': a multiple)."""
_ONCE = {"once": 1, "twice": 2, "thrice": 3}


@dataclass(frozen=True)
class CountedMoves:
    """'Flights dipped twice, in February and in May': how many times a cited series moved one
    way, and (when named) in which periods, as read."""

    words: tuple[Span, ...]
    """The verb, the count and the periods named after it."""
    number: ReadNumber
    """The count as a number, at its offsets in the text."""
    holds: bool
    cited: str
    """The rows' moves that way, as a defect quotes them."""
    says: str = "the series moved that way"


def read_counted_moves(ctx: AnswerContext, text: str) -> list[CountedMoves]:
    """Every count of a cited series' moves one way in `text` ('dipped twice, in February and
    in May', 'rose only once'): held to every step between the series' cited rows, one after
    another — the count of steps the verb's way must be the number written, and the periods
    named after it (if any) must be exactly the rows those steps end on."""
    if text != ctx.answer.answer or search(_MOVE, text) is None or "times" not in text \
            and not any(w in text for w in _ONCE):
        return []
    return ctx.from_rows_once("counted_moves", lambda: list(_counted(ctx, text)))


def _counted(ctx: AnswerContext, text: str) -> Iterator[CountedMoves]:
    for start, end, verb, ((_, metric, _, grain), rows) in _one_move(ctx, text):
        counted = _COUNTED.match(text, verb.end())
        if counted is None or _denial(text, start, verb.start()) is not None:
            continue  # 'never dipped twice', 'did not rise three times': left unread
        word = verb.group().lower()
        sign = 1 if word in RISES else -1 if word in FALLS else 0
        if not sign:
            continue
        by_window = {w: c for c in rows if (w := _window(c, grain)) is not None}
        ordered = sorted(by_window)
        if len(ordered) < 3 or any(_previous(b[0], grain) != a for a, b in
                                   zip(ordered, ordered[1:], strict=False)):
            continue  # rows one after another, or the steps between them are not the series'
        ends = [b for a, b in zip(ordered, ordered[1:], strict=False)
                if (float(by_window[b].value) - float(by_window[a].value)) * sign > 0]
        periods = [p for p in read_words(ctx.index_, "prose", text).periods
                   if counted.end() <= p.span[0] < end]
        named = [_named(p, by_window) for p in periods]
        if None in named:
            continue  # a period named that is no cited row: which steps it means is not said
        n = _count_of(counted)
        holds = n.value == len(ends) and (not named or set(named) == set(ends))
        went = ", ".join(str(dict(by_window[b].citation.selector)[grain])[:10] for b in ends)
        cited = f"{metric} {'rose' if sign > 0 else 'fell'} {len(ends)} time" \
            f"{'' if len(ends) == 1 else 's'} between its cited rows" + (f" ({went})" if ends else "")
        words = (verb.span(), counted.span(), *(p.span for p in periods))
        yield CountedMoves(words, n, holds, cited, f"{metric} {word}")


def _count_of(counted: re.Match[str]) -> ReadNumber:
    """The count as written ('once' 1, 'twice' 2, 'three times' 3), at the offsets the number
    reader gives 'twice' (as a multiplier, which here it is not)."""
    start, stop = counted.span("n")
    word = counted.group("n").lower()
    value = _ONCE.get(word) or _count_word(counted.group("k"))
    return ReadNumber(start, stop, counted.group("n"), value, 0, 1, written=True)


def _count_word(word: str | None) -> int:
    if word is None:
        return 0
    return int(word) if word.isdigit() else NUMBERS_WORDS[word.lower()]
