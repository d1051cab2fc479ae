"""A sum of cited rows, held to the rows it adds.

"Brooklyn and Philadelphia together took 437 orders", "The top three airlines accounted for 602
cancellations", "Q2 revenue totalled about $173,900", "The other five stores together took 958
orders", "All six stores took 3,051 orders in total": a number a word of adding ('together',
'combined', 'in total', 'totalled', 'accounted for', 'between them', 'altogether') says is the
sum of rows of one breakdown or series the claims cite, the rows named by the sentence:
- the members it names (two or more), or every row but those after 'other than', 'besides',
  'except';
- 'the top N' / 'the N largest' (the N rows of the highest values), 'the bottom N' / 'the N
  smallest';
- 'the other N' / 'the remaining N' / 'the rest': every row but the highest (as many as are
  left out), the leader a sentence before set apart;
- every row: 'all N', 'the N <rows>' where N is how many rows are cited, 'all', 'every';
- of a series, the rows a period the sentence names spans ('Q2 revenue totalled …').
Only a metric whose values add (the catalog's `additive`: a plain sum or count, not an average,
a ratio or a point in time). The number must be the sum at its written precision (a hedge's
interval, the metric's unit and currency). A sum the rows bear out consumes its words and its
number; one they contradict is an unsupported number naming the rows and their sum.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from showwork.harness.audit.labels import read_words
from showwork.harness.audit.numbers import hedge_at, money_fits, money_of, stating_words
from showwork.harness.audit.quantifiers import (
    _NOT_A_LEVEL,
    _SENTENCE,
    _TIME_KEYS,
    ADDING,
    Derived,
    _breakdowns,
    _scaled,
    every_row,
    one_group,
    states,
)
from showwork.protocol.numbers import ReadNumber, claims_in, in_time_unit
from showwork.protocol.reading import find_mentions
from showwork.protocol.reading._literals import search
from showwork.protocol.reading.periods import NUMBERS as NUMBERS_WORDS

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited
    from showwork.protocol.reading import Mention, PeriodMention

Span = tuple[int, int]

_COUNT = r"(?P<count>[0-9]+|" + "|".join(NUMBERS_WORDS) + r")"
_TOP = re.compile(rf"(?i)\bthe\s+(?:(?P<top>top|bottom|highest|lowest|largest|smallest|biggest)"
                  rf"\s+{_COUNT}|{_COUNT.replace('count', 'count2')}\s+(?P<top2>largest|biggest|"
                  r"highest|smallest|lowest))\b")
_OTHER = re.compile(rf"(?i)\b(?:the\s+)?(?:other|remaining)\s+(?:{_COUNT}\b)?|\bthe\s+rest\b"
                    rf"|\b(?:the\s+)?{_COUNT.replace('count', 'count4')}\s+(?:other|remaining)\b")
_ALL = re.compile(rf"(?i)\b(?:all(?:\s+{_COUNT})?|every|the\s+{_COUNT.replace('count', 'count3')})"
                  r"\b")
_EXCEPT = re.compile(r"(?i)\b(?:other\s+than|besides|except(?:\s+for)?|apart\s+from|"
                     r"excluding|but)\s+")
_LOWER = frozenset({"bottom", "lowest", "smallest"})


_MEAN = re.compile(r"(?i)\b(?:averag(?:ed|ing|es)|on\s+average|an\s+average\s+of|"
                   r"(?:the|an?)\s+(?:average|typical|mean)(?=\s+[a-z]))\b")
"""Words that say a number is the mean of rows: 'the six stores averaged about 509 orders
each', 'the average store took about 509 orders', 'on average the stores took 509'."""
_EACH = re.compile(r"(?i)\s*(?:[a-z]+\s+){0,3}?(?P<each>each|apiece)\b")
"""'509 orders each': the word that says the number is per row."""


def read_sums(ctx: AnswerContext, text: str) -> list[Derived]:
    """Every sum of `text` over rows of one breakdown or series the claims cite, and every mean
    of such rows ('the six stores averaged about 509 orders each')."""
    if text != ctx.answer.answer or (search(ADDING, text) is None
                                     and search(_MEAN, text) is None
                                     and search(_SPAN_ALL, text) is None):
        return []
    return ctx.from_rows_once("sums", lambda: list(_sums(ctx, text, _additive(ctx))))


def _additive(ctx: AnswerContext) -> dict[tuple[int, str, str, str], list[Cited]]:
    """The cited breakdowns and series (`_breakdowns`) of values of a metric whose values add
    (the catalog's `additive`): what a sum or a share of the whole may be read over (`_rows`
    and `_shares` read every row of their result where the words speak of the whole)."""
    metrics = ctx.catalog.get("metrics", {})
    return {k: rows for k, rows in _breakdowns(ctx).items()
            if k[2] == "value" and metrics.get(k[1], {}).get("additive")}


def _sums(ctx: AnswerContext, text: str,
          groups: dict[tuple[int, str, str, str], list[Cited]]) -> Iterator[Derived]:
    reading = read_words(ctx.index_, "prose", text)
    for sentence in _SENTENCE.finditer(text):
        start, end = sentence.span()
        said = sentence.group()
        adding = ADDING.search(said)
        mean = _MEAN.search(said) if adding is None else None
        # 'for the year': the whole series, added
        span = _SPAN_ALL.search(said) if adding is None and mean is None else None
        cue = adding or mean or span
        if cue is None:
            continue
        number = _number(said, cue)
        if number is None or (mean is not None and _NOT_A_LEVEL.match(said, number.end)):
            continue  # 'averaged 84 orders a day': a rate (rates.py)
        found, chosen = one_group(ctx, said, groups)
        if chosen is None:
            continue
        (_, metric, field, dim), rows = chosen
        periods = [p for p in reading.periods if start <= p.span[0] < end]
        if span is not None:
            picked = _whole_series(span, every_row(rows), dim)
        else:
            picked = _rows(said, rows, dim, found, periods)
            if picked is None and (whole := _SPAN_ALL.search(said)) is not None:
                picked = _whole_series(whole, every_row(rows), dim)  # '… over the year'
        if picked is None:
            continue
        added, spans = picked
        unit = ctx.catalog.get("metrics", {}).get(metric, {}).get("unit")
        stated = in_time_unit(said, (number,), unit)[0]
        total = sum(_scaled(ctx, metric, field, float(c.value), number) for c in added)
        if mean is not None:
            if len(added) < 2:
                continue
            total /= len(added)
            each = _EACH.match(said, number.end)
            if each is not None:
                spans.append(each.span("each"))
        holds = money_fits(number, money_of(field, metric, ctx.catalog)) and states(stated, total)
        spans += [cue.span(), (number.start, number.end)]

        spans += stating_words(said, number)  # 'together took 958', 'took about 2,356 …'
        keys = ", ".join(str(dict(c.citation.selector)[dim]) for c in added)
        yield Derived(tuple((a + start, b + start) for a, b in spans),
                      replace(number, start=number.start + start, end=number.end + start),
                      holds, f"{keys}, {'averaging' if mean else 'adding to'} {total:,.6g}",
                      "the rows average" if mean else "the rows add to")


def _number(said: str, cue: re.Match[str]) -> ReadNumber | None:
    """The number the adding word speaks of: the first after it within a few words ('together
    took 958', 'totalled about $173,900'), else the last before it in its clause ('958 orders
    in total')."""
    numbers = [n for n in claims_in(said) if n.upto is None and not n.width and not n.percent]
    after = [n for n in numbers if n.start >= cue.end()
             and len(said[cue.end():n.start].split()) <= 3]
    if after:
        return after[0]
    before = [n for n in numbers if n.end <= cue.start()
              and len(said[n.end:cue.start()].split()) <= 3]
    return before[-1] if before else None


def _rows(said: str, rows: list[Cited], dim: str, found: list[Mention],
          periods: list[PeriodMention]) -> tuple[list[Cited], list[Span]] | None:
    """The rows the sentence adds and the words that name them, or None when it names none
    this reading knows. Words of the whole ('all stores', 'the stores', 'the top 3', 'every
    store but Online', two members by name) speak of every row of the cited result, cited or
    not ('all stores together took 2,281 orders' of the four of six stores an answer cites is
    said of six); a count of the rows cited ('all four', 'the three products') of those."""
    cited = rows
    rows = every_row(rows)
    by = {str(dict(c.citation.selector)[dim]): c for c in rows}
    ranked = sorted(rows, key=lambda c: float(c.value), reverse=True)
    if dim in _TIME_KEYS:  # a series: the rows the periods named span
        inside = [c for c in rows if any(p.period.start.isoformat() <= str(
            dict(c.citation.selector)[dim])[:10] <= p.period.end.isoformat() for p in periods)]
        if len(inside) >= 2:
            return inside, []
        every = _ALL.search(said)
        return _counted(every, rows, cited)
    members = [m for m in found if m.kind == "member" and m.name == dim and m.member in by]
    top = _TOP.search(said)
    if top is not None:
        n = _count_of(top.group("count") or top.group("count2"))
        if n is None or not 1 <= n < len(rows):
            return None
        lower = (top.group("top") or top.group("top2")).lower() in _LOWER
        return (ranked[::-1][:n] if lower else ranked[:n]), [top.span()]
    exception = _EXCEPT.search(said)
    if exception is not None:
        out = {m.member for m in members if m.span[0] >= exception.end()}
        if out:
            return [c for k, c in by.items() if k not in out], [exception.span()]
    other = _OTHER.search(said)
    if other is not None:
        said_count = other.groupdict().get("count") or other.groupdict().get("count4")
        left = _count_of(said_count) if said_count else None
        if left is None or not 1 <= left < len(rows):
            return None
        return ranked[len(rows) - left:], [other.span()]
    named = {m.member for m in members}
    if len(named) >= 2:
        return [by[k] for k in by if k in named], []
    every = _ALL.search(said)
    counted = _counted(every, rows, cited)
    if counted is not None:
        return counted
    if not named:  # 'the stores', 'the average store': every row
        for m in found:
            the = _THE.search(said, 0, m.span[0]) if m.kind == "dimension" and m.name == dim \
                else None
            if the is not None:
                return list(rows), [the.span()]
    return None


_SPAN_ALL = re.compile(r"(?i)\b(?:for|over|across|in|during|throughout)\s+the\s+(?:whole\s+|"
                       r"full\s+|entire\s+)?(?P<span>year|period)\b")
"""A span that is the whole of a cited series: 'about 336,800 flights for the year'."""
_IN_YEAR = {"day": 365, "week": 52, "month": 12, "quarter": 4}


def _whole_series(span: re.Match[str], rows: list[Cited], dim: str
                  ) -> tuple[list[Cited], list[Span]] | None:
    """Every row of a series the span names: 'the period' any series, 'the year' one that is a
    calendar year's periods (its first in January, as many as a year has)."""
    if dim not in _TIME_KEYS or len(rows) < 2:
        return None
    if span.group("span").lower() == "year":
        keys = sorted(str(dict(c.citation.selector)[dim])[:10] for c in rows)
        wanted = _IN_YEAR.get(dim)
        if wanted is None or keys[0][5:7] != "01" or keys[0][:4] != keys[-1][:4] or not (
                len(rows) == wanted or dim == "day" and len(rows) == 366
                or dim == "week" and len(rows) == 53):
            return None
    return list(rows), [span.span()]


_THE = re.compile(r"(?i)\b(?:the|all(?:\s+the)?)\s+(?:(?:average|typical|mean)\s+)?$")
"""Before a dimension's name, what makes it every row: 'the stores', 'all the stores'."""


def _counted(every: re.Match[str] | None, rows: list[Cited], cited: list[Cited]
             ) -> tuple[list[Cited], list[Span]] | None:
    """'All', 'every', or a count of every row ('all six'): every row; a count of the rows
    cited ('all four' of four cited): those."""
    if every is None:
        return None
    if _counts(every, len(rows)):
        return list(rows), [every.span()]
    if len(cited) < len(rows) and _said_count(every) and _counts(every, len(cited)):
        return list(cited), [every.span()]
    return None


def _count_of(word: str | None) -> int | None:
    if not word:
        return None
    return int(word) if word.isdigit() else NUMBERS_WORDS.get(word.lower())


def _counts(found: re.Match[str], rows: int) -> bool:
    """'all', 'every', or a count that is how many rows are cited ('all six', 'the three')."""
    count = _said_count(found)
    return _count_of(count) == rows if count else found.group().lower().split()[0] in (
        "all", "every")


def _said_count(found: re.Match[str]) -> str | None:
    """The count `_ALL` read with its word ('six' of 'all six', 'three' of 'the three')."""
    return found.groupdict().get("count") or found.groupdict().get("count3")


# --- a member's share of the whole its breakdown adds up to ----------------------------------

_OF_WHOLE = re.compile(r"(?i)\s+of\s+")
_SPACED_OF = re.compile(r"(?i)\sof")
"""What every part of a whole holds ('a fifth of', '68.6 % of': `share_parts`, `_OF_WHOLE`)."""
_OF_CHANGE = re.compile(r"(?i)\b(?:change|changes|rise|fall|drop|increase|decrease|decline|"
                        r"growth|gain|loss|move|movement|jump|dip|swing)\b")
_SHARE_VERB = re.compile(r"(?i)\b(?P<v>accounted\s+for|made\s+up|represented|comprised|"
                         r"contributed)\s+$")
"""A verb that states a share, right before it ('accounted for about a fifth of')."""


def read_shares(ctx: AnswerContext, text: str) -> list[Derived]:
    """Every share of `text` one member has of the whole its cited breakdown adds up to
    ('ExpressJet accounted for about a fifth of February's cancellations', 'Online took 68.6 %
    of May's orders'): the member's row over the sum of the rows, of a metric whose values
    add. The words after 'of' must name the metric (with a period or 'all', 'the total', 'the'
    before it)."""
    if text != ctx.answer.answer or " of " not in text:
        return []
    return ctx.from_rows_once("shares", lambda: list(_shares(ctx, text, _additive(ctx))))


def _shares(ctx: AnswerContext, text: str,
            groups: dict[tuple[int, str, str, str], list[Cited]]) -> Iterator[Derived]:
    from showwork.protocol.numbers import share_parts

    for sentence in _SENTENCE.finditer(text):
        start, said = sentence.start(), sentence.group()
        if _SPACED_OF.search(said) is None:
            continue  # no part 'of' a whole: its numbers and names are not read
        found = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
        parts = [(n, after) for n, after in share_parts(said)] + [
            (n, of.end()) for n in claims_in(said)
            if n.percent and not n.points and (of := _OF_WHOLE.match(said, n.end))]
        for n, after in parts:
            whole = next((m for m in found if m.kind == "metric" and after <= m.span[0]
                          and len(said[after:m.span[0]].split()) <= 3), None)
            if whole is None or _OF_CHANGE.search(said, after, whole.span[0]):
                continue  # 'of the change in revenue': a share of a change, not of the whole
            chosen = [(k, g) for k, g in groups.items() if k[1] == whole.name]
            if len(chosen) != 1:
                continue
            (_, metric, field, dim), cited = chosen[0]
            rows = every_row(cited)  # the whole is every row of the result, cited or not
            by = {str(dict(c.citation.selector)[dim]): c for c in rows}
            named = list(dict.fromkeys(m.member for m in found if m.kind == "member"
                                       and m.name == dim and m.span[1] <= n.start
                                       and m.member in by))
            # 'CA and US together made up over half of the transactions': the members' sum
            adding = ADDING.search(said, 0, n.start) if len(named) >= 2 else None
            if len(named) != 1 and adding is None:
                continue
            member = " and ".join(str(m) for m in named)
            total = sum(float(c.value) for c in rows)
            if not total:
                continue
            part = sum(float(by[str(m)].value) for m in named)
            share = part / total
            holds = states(n, share * 100 if n.percent else share)
            spans: list[Span] = [(n.start, after)] + ([adding.span()] if adding else [])
            at = hedge_at(said, n)
            verb = _SHARE_VERB.search(said, 0, at if at >= 0 else n.start)
            spans += stating_words(said, n) + ([verb.span("v")] if verb else [])
            yield Derived(tuple((a + start, b + start) for a, b in spans),
                      replace(n, start=n.start + start, end=n.end + start), holds,
                      f"{member} {part:,.6g} of {total:,.6g} ({share:.1%})")
