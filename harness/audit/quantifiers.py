"""Quantifiers over a cited breakdown, checked against every row (issue 43).

"Every store took at least 200 orders", "All three airports cancelled less than 4 % of their
flights", "None of the platforms opened more than 50 %", "Only android opened fewer than 10 %":
a quantifier (every, each, all, no, none, only, most, both) and one bounded number in a sentence whose
breakdown the claims cite (rows of one metric over one dimension, or a series' periods:
"Every month had more than 195 new customers"). The bound is held to EVERY
cited row, not one: `every`/`each`/`all` hold when all rows meet it, `no`/`none` when none
does, `only M` when the members named meet it and every other row does not, `most` when more
than half of the rows do, `both` when there are two and both do. A quantifier held
true consumes its words and its number (no other value need state it); one proven false is an
unsupported number that names the rows it fails on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from showwork.harness.audit.context import Cited
from showwork.harness.audit.counts import numeric_rows
from showwork.protocol.citations import ResultCitation
from showwork.protocol.numbers import (
    _VALUE_CUES,
    NOT_CLAIMS,
    ReadNumber,
    _candidates,
    _counts_periods,
    _word_before_bound,
    claims_in,
    in_time_unit,
    near,
)
from showwork.protocol.reading import find_mentions
from showwork.protocol.reading._literals import fit, lowered

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext

_QUANTIFIER = re.compile(r"(?i)\b(?P<q>every|each|all|none(?:\s+of\s+the)?|no|only|both"
                         r"|(?<!the\s)most(?:\s+of\s+the)?(?!\s+(?:first|of\s+all)\b))\b")
BOUND_WORDS = ("over", "under", "more", "less", "fewer", "above", "below", "least", "most",
               "upwards", "excess", "north", "south", "shy", "short", "crossed", "passed",
               "topped", "exceeded", "surpassed", "cleared", "reached")
"""A word of each bound a number may be said with (protocol/numbers.py `_BOUNDS`: 'more than',
'at least', 'shy of', 'topped'): a sentence holding none of them (lowered) has no bounded
number, and is not read for one (its numbers and names are read only where one may be)."""


def may_bound(said: str) -> bool:
    """Whether `said` may state a bounded number (it holds a word of `BOUND_WORDS`)."""
    low = lowered(said)
    for w in BOUND_WORDS:  # noqa: SIM110 - a loop, not any(): no generator per sentence
        if w in low:
            return True
    return False


_ABBREVIATED = ("St", "Inc", "Co", "Corp", "Ltd", "Ave", "Mt", "Jr", "Sr", "Dr", "Intl", "Bros")
_SENTENCE = re.compile(r"(?:[^.;!?]|\.(?=[0-9])|[.!?](?=\s+[a-z])|"
                       + "|".join(rf"(?<=\b{word})\." for word in _ABBREVIATED) + ")+")
"""A sentence: a point before a digit, or a point or mark before a lower-case word, ends none
(members' names: 'Frontier Airlines Inc. had', 'nutellaphone who dis? by 45'); nor does the
point of an abbreviation names are written with ('Toronto (Queen St. W)')."""
_EXCEPT = re.compile(r"(?i)\b(?:but|except(?:\s+for)?|other\s+than|apart\s+from|besides|save"
                     r"\s+for)\s+")
"""An exception to the quantifier ('every store but Online', 'all airports except JFK')."""
_TIME_KEYS = frozenset({"day", "week", "month", "quarter", "year"})


@dataclass(frozen=True)
class Quantified:
    """One quantified bound over a cited breakdown, and whether every row bears it out."""

    words: tuple[int, int]
    """The quantifier's span in the text."""
    number: ReadNumber
    """The bounded number, at its offsets in the text."""
    holds: bool
    failing: tuple[str, ...]
    """The members (with their values) on which the statement fails."""
    excepted: tuple[tuple[int, int], ...] = ()
    """The words of an exception ('but', 'except for'), which the rows hold too: the members it
    names must not meet the bound."""
    named: bool = False
    """A bound said of members named, with no quantifier (`_named_bounds`)."""
    counted: bool = False
    """A count of a series' periods that meet the bound ('topped 29,000 in two months':
    `_counted_periods`); `words` is the count's span."""
    unproven: bool = False
    """Neither borne out nor proven false: said of rows no reading can tell ('every physical
    store', 'each of the five …' of six): no defect, and no word of it read (the account
    leaves them unread, so the answer is served with caveats)."""


@dataclass(frozen=True)
class Derived:
    """A number a reading works out from cited rows (a sum, a share of the whole, a rate per
    unit of time, a move between two rows), as read."""

    words: tuple[tuple[int, int], ...]
    """Every span it consumes."""
    number: ReadNumber
    """The number, at its offsets in the text."""
    holds: bool
    cited: str
    """The rows and what they give, as a defect quotes them."""
    says: str = "the rows add to"
    """What the text says of the number, as a defect quotes it: a sum's 'the rows add to', a
    mean's 'the rows average'."""


def states(n: ReadNumber, value: float) -> bool:
    """Whether `n` states `value` (both in the number's units): a bound when the value lies on
    its side ('more than 900' of 958: a one-sided interval, as a quantifier's bound is), any
    other number at its written precision and hedge (`near`)."""
    if n.bound and n.upto is None and not n.width:
        return _meets(value, n)
    return near(n, value)


def _meets(value: float, n: ReadNumber) -> bool:
    """Whether `value` lies on the side of the bound `n` states. An inclusive bound holds of a
    value that meets it once rounded to the bound's written precision ('at least 19 minutes' of
    18.995, shown as 19.0), as a number matches at its precision; a strict one never does
    ('fewer than 300' is not 299.6 rounded)."""
    bound, limit = n.bound, n.value
    digit = 10 ** -n.decimals * n.multiplier  # its last digit ('at least 200': the unit, not 100)
    if bound in (">=", "<=") and not n.width:
        shown = round(value / digit) * digit
        if (shown >= limit) if bound == ">=" else (shown <= limit):
            return True
    return {">": value > limit, ">=": value >= limit, "<": value < limit,
            "<=": value <= limit}.get(bound, False)


def _breakdowns(ctx: AnswerContext) -> dict[tuple[int, str, str, str], list[Cited]]:
    """Cited rows grouped by (handle, metric, field, dimension): one dimension's members, or a
    series' periods (rows keyed by one time grain alone: 'every month had more than 195')."""
    out: dict[tuple[int, str, str, str], list[Cited]] = {}
    for claim in ctx.claims:
        for c in claim.cited:
            keys = [k for k, _ in c.citation.selector]
            dims = [k for k in keys if k not in _TIME_KEYS] or (keys if len(keys) == 1 else [])
            if len(dims) == 1 and isinstance(c.value, int | float):
                key = (c.citation.handle, c.metric, c.citation.field, dims[0])
                if all(o.row is not c.row for o in out.get(key, [])):
                    out.setdefault(key, []).append(c)
    return {k: v for k, v in out.items() if len(v) >= 2}


def _of_count(cited: list[Cited], m: int | None) -> list[list[Cited]]:
    """The rows 'of the M' speaks of: the cited ones when M of them are cited, else every row
    of their result when it holds M; none when neither."""
    if len(cited) == m:
        return [cited]
    every = every_row(cited)
    return [every] if len(every) == m else []


def every_row(rows: list[Cited]) -> list[Cited]:
    """The cited rows and every other row of their result, where the result is keyed by their
    one key alone (a breakdown by store, a series by month): 'every store took more than 250
    orders' is said of the stores the analyst asked for, not of the four it chose to cite. A
    row of no value of the field, or of no member (orders of customers with no region), is none
    to hold; rows of a result keyed by more are left as
    cited (which of them the text speaks of, no reading knows)."""
    first = rows[0]
    keys = tuple(k for k, _ in first.citation.selector)
    result = first.result
    if len(keys) != 1 or result.keys != keys or any(c.result is not result for c in rows):
        return rows
    cited = {id(c.row) for c in rows}
    out = list(rows)
    for member, row, value in numeric_rows(result, first.metric, first.citation.field, keys[0]):
        if id(row) in cited:
            continue
        citation = ResultCitation(first.citation.handle, ((keys[0], member),),
                                  first.citation.metric, first.citation.field)
        out.append(Cited(str(citation), citation, result, row, value, first.metric))
    return out


def _scaled(ctx: AnswerContext, metric: str, field: str, value: float, n: ReadNumber) -> float:
    """The cited value in the number's units: a fraction's level read as a percent is × 100."""
    unit = ctx.catalog.get("metrics", {}).get(metric, {}).get("unit")
    return value * 100 if n.percent and field == "value" and unit == "fraction" else value


def read_quantified(ctx: AnswerContext, text: str) -> list[Quantified]:
    """Every quantified bound of `text` over a breakdown the answer cites, and every bound said
    of members named without a quantifier (`_named_bounds`)."""
    groups = _breakdowns(ctx)
    if not groups:
        return []
    found = list(_quantified(ctx, text, groups)) if fit(_QUANTIFIER, text).search(text) else []
    counted = list(_counted_periods(ctx, text, groups)) if fit(_IN_PERIODS, text).search(text) \
        else []
    counted += list(_counted_members(ctx, text, groups)) if fit(_K_OF_M, text).search(text) \
        else []
    return found + list(_named_bounds(ctx, text, groups)) + counted


_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_IN_PERIODS = re.compile(
    rf"(?i)\b(?:in|on|during|for)\s+(?:(?:only|just)\s+)?(?P<k>[0-9]+|{'|'.join(_COUNT_WORDS)})"
    rf"(?:\s+of\s+the\s+(?P<m>[0-9]+|{'|'.join(_COUNT_WORDS)}))?\s+"
    r"(?P<grain>day|week|month|quarter|year)s?\b")
"""'in two months', 'on 3 of the 7 days': a count of a series' periods."""


def _counted_periods(ctx: AnswerContext, text: str,
                     groups: dict[tuple[int, str, str, str], list[Cited]]
                     ) -> Iterator[Quantified]:
    """'Flights topped 29,000 in two months', 'revenue was over $60,000 on 3 of the 7 days': a
    bound said of a cited series with a count of its periods, held to how many of its rows
    meet it (and how many it has, when the text says 'of the M')."""
    for sentence in _SENTENCE.finditer(text):
        said, at = sentence.group(), sentence.start()
        count = _IN_PERIODS.search(said)
        if count is None:
            continue
        n = _sole_bound(ctx, said, 0, count.start())
        if n is None or _CHANGED.search(said, 0, n.start):
            continue
        grain = count.group("grain").lower()
        mentions = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
        named = {m.name for m in mentions if m.kind == "metric"}
        chosen = [rows for k, rows in groups.items() if k[3] == grain and k[2] == "value"
                  and (k[1] in named or not named)]
        if len(chosen) != 1:
            continue
        rows = chosen[0]
        meeting = count_meeting(ctx, said, n, rows)
        k, m = (_number_word(count.group(g)) for g in ("k", "m"))
        holds = meeting == k and (m is None or m == len(rows)) and not _off_currency(
            ctx, rows[0], n)
        failing = () if holds else (f"{meeting} of the {len(rows)} {grain}s",)
        yield Quantified((count.start() + at, count.end() + at),
                         replace(n, start=n.start + at, end=n.end + at), holds, failing,
                         counted=True)


_K_OF_M = re.compile(
    rf"(?i)\b(?P<k>[0-9]+|{'|'.join(_COUNT_WORDS)})\s+of\s+(?:the|these|those|all)\s+"
    rf"(?P<m>[0-9]+|{'|'.join(_COUNT_WORDS)})\b")
"""'Two of the three', 'one of the 6': a count of a breakdown's rows."""


def _counted_members(ctx: AnswerContext, text: str,
                     groups: dict[tuple[int, str, str, str], list[Cited]]
                     ) -> Iterator[Quantified]:
    """'Two of the three airports averaged over 20 minutes': a count of a cited breakdown's M
    rows that meet the bound its sentence states after it, held to how many do."""
    for sentence in _SENTENCE.finditer(text):
        said, at = sentence.group(), sentence.start()
        count = _K_OF_M.search(said)
        if count is None:
            continue
        bound = _sole_bound(ctx, said, count.end(), len(said))
        k, m = _number_word(count.group("k")), _number_word(count.group("m"))
        # 'of the six' counts the result's rows, cited or not ('of the four' the cited ones)
        chosen = [rows for key, cited in groups.items() if key[2] == "value"
                  and key[3] not in _TIME_KEYS
                  for rows in _of_count(cited, m)]
        if bound is None or len(chosen) != 1 or _CHANGED.search(said, 0, bound.start):
            continue
        n, rows = bound, chosen[0]
        meeting = count_meeting(ctx, said, n, rows)
        holds = meeting == k and not _off_currency(ctx, rows[0], n)
        failing = () if holds else (f"{meeting} of the {len(rows)}",)
        yield Quantified((count.start() + at, count.end() + at),
                         replace(n, start=n.start + at, end=n.end + at), holds, failing,
                         counted=True)


def meeting_bound(ctx: AnswerContext, text: str, count: Any) -> int | None:
    """For 'k of the M <rows>' followed in its sentence by one bound ('Two of the three
    airports averaged over 20 minutes'): how many rows of the one cited breakdown by the
    count's dimension (of its M rows) meet the bound; None when the sentence states no bound
    after the count, or the rows cannot be told."""
    sentence = next((m for m in _SENTENCE.finditer(text) if m.start() <= count.start < m.end()),
                    None)
    if sentence is None:
        return None
    said, at = sentence.group(), sentence.start()
    n = _sole_bound(ctx, said, count.end - at, len(said))
    if n is None:
        return None
    groups = [rows for k, cited in _breakdowns(ctx).items() if k[2] == "value"
              and (k[3] == count.dim or not count.dim and k[3] not in _TIME_KEYS)
              for rows in _of_count(cited, count.of)]
    if len(groups) != 1:
        return None
    return count_meeting(ctx, said, n, groups[0])


def _sole_bound(ctx: AnswerContext, said: str, start: int, stop: int) -> ReadNumber | None:
    """The one one-sided bound of the sentence between `start` and `stop` ('over 20 minutes'),
    or None when there is none or several."""
    bounded = [n for n in ctx.index_.read("named_bounds", said, _bounds_in)
               if n.bound and n.upto is None and not n.width and start <= n.start
               and n.end <= stop]
    return bounded[0] if len(bounded) == 1 else None


def count_meeting(ctx: AnswerContext, said: str, n: ReadNumber, rows: list[Cited]) -> int:
    """How many of the cited rows meet the bound `n` (in the metric's unit of time)."""
    unit = ctx.catalog.get("metrics", {}).get(rows[0].metric, {}).get("unit")
    held = in_time_unit(said, (n,), unit)[0]
    return sum(1 for c in rows
               if _meets(_scaled(ctx, c.metric, c.citation.field, c.value, held), held))


def one_group(ctx: AnswerContext, said: str,
              groups: dict[tuple[int, str, str, str], list[Cited]]
              ) -> tuple[list[Any], tuple[tuple[int, str, str, str], list[Cited]] | None]:
    """The sentence's mentions, and the one cited breakdown or series it speaks of: of the
    metric it names, or the only one cited; None when none or several are."""
    found = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
    named = {m.name for m in found if m.kind == "metric"}
    chosen = [(k, g) for k, g in groups.items() if k[1] in named] or (
        list(groups.items()) if len(groups) == 1 else [])
    return found, chosen[0] if len(chosen) == 1 else None


def _number_word(word: str | None) -> int | None:
    if word is None:
        return None
    return int(word) if word.isdigit() else _COUNT_WORDS[word.lower()]


ADDING = re.compile(r"(?i)\b(?:together|combined|in\s+total|in\s+all|altogether|between\s+them|"
                     r"totall?ed|totall?ing|a\s+(?:combined\s+)?total\s+of|accounted\s+for|"
                     r"added\s+up\s+to|summed\s+to)\b")
"""Words that say a number adds rows up (sums.py); a bound in their sentence is the sum's."""
_NOT_A_LEVEL = re.compile(r"(?i)\s*(?:[a-z]+\s+){0,2}?(?:(?:a|an|per|each|every)\s+"
                          r"(?:day|week|month|quarter|year)\b|of\b)")
"""Words after a bound that make it no level of the member's row: a rate ('more than 50 orders
a day': rates.py), a part ('more than 60 % of May's orders': sums.py)."""
_CHANGED = re.compile(r"(?i)\b(?:by|from|to|change[ds]?|changing)\s+(?:[a-z]+\s+){0,2}$")
"""Words before a bound that make it a change's size ('rose by more than 5 %', 'a change of
over 10 %'), which this reading leaves to the checks of changes."""


def _bounds_in(text: str) -> tuple[ReadNumber, ...]:
    """The numbers of `text` a user reads as claims, with a bounded count of time units after a
    verb that states a value ('averaged under 20 minutes'), which `claims_in` leaves out: said of
    no member it is no value ('two of the three averaged over 20 minutes'), said of one it is
    that member's."""
    kept = claims_in(text)
    return tuple(n for n in _candidates(text) if n in kept or (
        n.bound and _word_before_bound(text, n) in _VALUE_CUES
        and not any(rule(text, n) for rule in NOT_CLAIMS if rule is not _counts_periods)))


def _named_bounds(ctx: AnswerContext, text: str,
                  groups: dict[tuple[int, str, str, str], list[Cited]]) -> Iterator[Quantified]:
    """'Brooklyn had fewer than 300 orders', 'SkyWest flew fewer than 40 flights': a bound said
    of members of a cited breakdown named before it, with no quantifier, is a one-sided interval
    each named member's cited value must lie in (as 'only android opened fewer than 10 %' holds
    android). A sentence with a quantifier, a comparative after the bound (a gap between
    members, gaps.py) or a word of change before it (a change's size) is left to its reading."""
    from showwork.harness.audit.pairs import _COMPARATIVE

    for sentence in _SENTENCE.finditer(text):
        said, at = sentence.group(), sentence.start()
        if _QUANTIFIER.search(said) or not may_bound(said):
            continue  # a quantifier's bound is `_quantified`'s; no bound: nothing to hold
        numbers = ctx.index_.read("named_bounds", said, _bounds_in)
        mentions = ctx.index_.read("mentions", said, lambda t: find_mentions(t, ctx.catalog))
        named = {m.name for m in mentions if m.kind == "metric"}
        chosen = [(k, g) for k, g in groups.items() if k[2] == "value" and (
            k[1] in named or (not named and len(groups) == 1))]
        if len(chosen) != 1:
            continue
        (_, _, _, dim), rows = chosen[0]
        if dim in _TIME_KEYS:
            continue
        for before, n in zip((None, *numbers), numbers, strict=False):
            if not n.bound or n.upto is not None or n.width or n.signed:
                continue
            hedge_at = said.lower().rfind(n.hedge, 0, n.start)
            if _COMPARATIVE.search(said, n.end) or _CHANGED.search(said, 0, max(hedge_at, 0)) \
                    or _NOT_A_LEVEL.match(said, n.end) or ADDING.search(said):
                continue
            # the members named since the number before it: 'Hawaiian had over 300 flights,
            # and Mesa over 600'
            start = before.end if before is not None else 0
            members = {m.member for m in mentions if m.kind == "member" and m.name == dim
                       and start <= m.span[0] and m.span[1] <= n.start}
            if not members:
                continue
            unit = ctx.catalog.get("metrics", {}).get(rows[0].metric, {}).get("unit")
            held = in_time_unit(said, (n,), unit)[0]  # 'averaged under 2 hours' of minutes
            failing = _off_currency(ctx, rows[0], n) or tuple(
                _failing(ctx, rows, held, dim, "only", members, set(), named_only=True))
            shifted = replace(n, start=n.start + at, end=n.end + at)
            yield Quantified((n.start + at, n.start + at), shifted, not failing, failing,
                             named=True)


def _quantified(ctx: AnswerContext, text: str,
                groups: dict[tuple[int, str, str, str], list[Cited]]) -> Iterator[Quantified]:
    for sentence in _SENTENCE.finditer(text):
        q = _QUANTIFIER.search(sentence.group())
        if q is None or not may_bound(sentence.group()):
            continue
        at = sentence.start()
        bounded = [n for n in ctx.index_.read("named_bounds", sentence.group(), _bounds_in)
                   if n.bound and n.start > q.end()]  # read once per text, as numbers.py does
        if len(bounded) != 1:
            continue
        n = bounded[0]
        mentions = ctx.index_.read("mentions", sentence.group(),
                                   lambda t: find_mentions(t, ctx.catalog))
        named = {m.name for m in mentions if m.kind == "metric"}
        chosen = [g for k, g in groups.items() if k[1] in named] or (
            list(groups.values()) if len(groups) == 1 else [])
        if len(chosen) != 1:
            continue
        rows = chosen[0]
        keys = [k for k, _ in rows[0].citation.selector]
        dim = next((k for k in keys if k not in _TIME_KEYS), keys[0])
        members = {m.member for m in mentions if m.kind == "member" and m.name == dim}
        word = q.group("q").lower().split()[0]
        if word != "both" and _SOME_OF.match(sentence.group(), q.end()) is None:
            rows = every_row(rows)  # 'every store': the breakdown's rows, cited or not
        end = q.end()
        excepted: tuple[tuple[int, int], ...] = ()
        out: set[str | None] = set()
        but = _ALL_BUT.match(sentence.group(), q.end()) if word == "all" else None
        if but is not None and dim not in _TIME_KEYS:
            # 'All but one store had fewer than 300 orders': all the rows less k meet it
            k = _number_word(but.group("k"))
            meeting = count_meeting(ctx, sentence.group(), n, rows)
            holds = k is not None and meeting == len(rows) - k and not _off_currency(
                ctx, rows[0], n)
            yield Quantified((q.start() + at, but.end() + at),
                             replace(n, start=n.start + at, end=n.end + at), holds,
                             () if holds else (f"{meeting} of the {len(rows)}",), counted=True)
            continue
        if word in ("every", "each", "all", "no", "none") and not members \
                and _restricted(ctx, sentence.group(), q.end(), n.start, dim, mentions):
            # 'Every physical store made under $7,000': which stores are physical no reading
            # knows; proven false only where no row (for 'no': every row) bears it out
            meeting = count_meeting(ctx, sentence.group(), n, rows)
            if (meeting > 0) if word in ("every", "each", "all") else (meeting < len(rows)):
                yield _unproven(q, n, at)
                continue
        exception = _EXCEPT.search(sentence.group(), q.end(), n.start)
        if exception is not None:
            out = {m.member for m in mentions if m.kind == "member" and m.name == dim
                   and exception.end() <= m.span[0] < n.start}
            if not out or dim in _TIME_KEYS or word not in ("every", "each", "all", "no",
                                                             "none"):
                continue  # an exception of periods, or of a quantifier it cannot bound
            excepted = ((exception.start() + at, exception.end() + at),)
        if dim in _TIME_KEYS and word == "only":
            # 'Only December topped $25': the periods named after it are the rows held to the
            # bound, every other row of the series to its opposite
            members = _only_periods(ctx, text, (q.end() + at, n.start + at), rows, dim)
            if not members:
                continue
        elif dim in _TIME_KEYS:
            grain = re.compile(rf"(?i)\s+(?:single\s+)?(?:of\s+the\s+)?{dim}s?\b")
            said = grain.match(sentence.group(), end)
            if said is None:
                continue  # 'every store' of a series: not its periods
            end = said.end()  # 'every month': the series' own grain
            rows = _scoped(ctx, text, sentence.span(), rows, dim)
        unit = ctx.catalog.get("metrics", {}).get(rows[0].metric, {}).get("unit")
        held = in_time_unit(sentence.group(), (n,), unit)[0]  # 'over 2 hours' of minutes
        some = _SOME_OF.match(sentence.group(), q.end())
        part = _number_word(some.group("k")) if some is not None and word in (
            "every", "each", "all", "both") else None
        # 'each of the five physical stores' of six rows: which five, no reading knows; proven
        # false only when fewer than five rows meet it (else left unread)
        if part is not None and not members and not out and 1 <= part < len(rows) \
                and count_meeting(ctx, sentence.group(), n, rows) >= part:
            yield _unproven(q, n, at)
            continue
        failing = _off_currency(ctx, rows[0], n) or tuple(
            _failing(ctx, rows, held, dim, word, members, out))
        shifted = replace(n, start=n.start + at, end=n.end + at)
        yield Quantified((q.start() + at, end + at), shifted, not failing, failing, excepted)


def _only_periods(ctx: AnswerContext, text: str, between: tuple[int, int], rows: list[Cited],
                  dim: str) -> set[str | None]:
    """The series' rows (their keys) the periods named in `between` name, each one row ('only
    December', a month without its year the one cited December); empty when none is named or
    one names no row."""
    from showwork.harness.audit.labels import in_cited_year, period_window, read_words

    windows = {w: str(dict(c.citation.selector)[dim]) for c in rows
               if (w := period_window(str(dict(c.citation.selector)[dim]), dim)) is not None}
    out: set[str | None] = set()
    for p in read_words(ctx.index_, "prose", text).periods:
        if not between[0] <= p.span[0] < between[1]:
            continue
        window = (p.period.start, p.period.end)
        if window not in windows and (moved := in_cited_year(p, windows)) is not None:
            window = (moved.start, moved.end)
        if window not in windows:
            return set()
        out.add(windows[window])
    return out


def _scoped(ctx: AnswerContext, text: str, sentence: tuple[int, int], rows: list[Cited],
            dim: str) -> list[Cited]:
    """The rows of a series inside the periods the sentence names, when those hold some of
    them but not all ('every month from March onward', 'both quarters of the second half');
    else every row."""
    from showwork.harness.audit.labels import read_words

    periods = [p for p in read_words(ctx.index_, "prose", text).periods
               if sentence[0] <= p.span[0] < sentence[1]]
    if not periods:
        return rows
    inside = [c for c in rows if any(
        p.period.start.isoformat() <= str(dict(c.citation.selector)[dim])[:10]
        <= p.period.end.isoformat() for p in periods)]
    return inside if 0 < len(inside) < len(rows) else rows


def _unproven(q: re.Match[str], n: ReadNumber, at: int) -> Quantified:
    return Quantified((q.start() + at, q.end() + at), replace(n, start=n.start + at,
                                                              end=n.end + at),
                      True, (), unproven=True)


_ALL_BUT = re.compile(r"(?i)\s+but\s+(?P<k>[0-9]{1,2}|one|two|three|four|five|six|seven|eight"
                      r"|nine|ten|eleven|twelve)\b")
"""'all but one (store)': every row of the breakdown but k."""


def _restricted(ctx: AnswerContext, said: str, start: int, stop: int, dim: str,
                mentions: list[Any]) -> bool:
    """Whether a word between the quantifier and its dimension's noun says which rows it is of
    ('every physical store', 'all coastal airports'): a word no reading takes for a member, a
    count or an article. Without the noun in the sentence, no."""
    from showwork.harness.audit.counts import nouns

    heads = [noun for noun, d in nouns(ctx.index_) if d == dim]
    if not heads:
        return False
    head = re.compile(r"(?i)\b(?:" + "|".join(re.escape(h) for h in sorted(heads, key=len,
                                                                             reverse=True))
                      + r")\b")
    found = head.search(said, start, stop)
    if found is None:
        return False
    taken = [m.span for m in mentions if m.kind == "member"]
    return any(not any(a <= w.start() < b for a, b in taken)
               and w.group().lower() not in _NOT_RESTRICTING
               for w in re.finditer(r"[A-Za-z]+", said[:found.start()])
               if w.start() >= start)


_NOT_RESTRICTING = frozenset({"of", "the", "these", "those", "our", "its", "their", "one",
                              "two", "three", "four", "five", "six", "seven", "eight", "nine",
                              "ten", "eleven", "twelve", "single", "cited", "listed", "other"})
"""Words between a quantifier and its noun that leave its rows as cited: articles, a count
('all three airports'), 'every single store', 'each of the other stores'."""


_SOME_OF = re.compile(r"(?i)\s+(?:(?:one\s+)?of\s+(?:the|these|those)\s+)?(?P<k>[0-9]{1,2}|two|three|"
                      r"four|five|six|seven|eight|nine|ten|eleven|twelve)\b")
"""A count after a quantifier: 'each of the five …', 'all three …'."""


def _off_currency(ctx: AnswerContext, row: Cited, n: ReadNumber) -> tuple[str, ...]:
    """A bound written in a currency the rows are not in ('at least €3,000' of a dollar metric,
    '$100' of a count): every row fails it, whatever its value."""
    from showwork.harness.audit.numbers import money_fits, money_of

    money = money_of(row.citation.field, row.metric, ctx.catalog)
    if money_fits(n, money):
        return ()
    return (f"{row.metric} is {'no amount of money' if money == '-' else 'in ' + money.upper()}",)


def _failing(ctx: AnswerContext, rows: list[Cited], n: ReadNumber, dim: str, word: str,
             members: set[str | None], out: set[str | None], named_only: bool = False
             ) -> Iterator[str]:
    """The rows the statement fails on; the members of an exception (`out`) are held to the
    opposite: 'every store but Online' says Online does not meet the bound, 'none but JFK'
    that JFK does. `named_only`: only the members named are held (a bound said of them with
    no quantifier), the other rows not at all."""
    if word in ("most", "both"):
        yield from _counted(ctx, rows, n, dim, word)
        return
    for c in rows:
        value = _scaled(ctx, c.metric, c.citation.field, c.value, n)
        member = dict(c.citation.selector)[dim]
        if named_only and member not in members:
            continue
        meets = _meets(value, n)
        should = (member in members) if word == "only" else (
            word not in ("no", "none")) != (member in out)
        if word == "only" and not members:
            return  # 'only' with no member named: nothing to hold
        if meets != should:
            yield f"{member} {value:,.6g}"


def _counted(ctx: AnswerContext, rows: list[Cited], n: ReadNumber, dim: str, word: str
             ) -> Iterator[str]:
    """'most': more than half the rows meet the bound; 'both': there are two rows and both
    do. Fails naming the rows that do not meet it."""
    missed = []
    for c in rows:
        value = _scaled(ctx, c.metric, c.citation.field, c.value, n)
        if not _meets(value, n):
            missed.append(f"{dict(c.citation.selector)[dim]} {value:,.4g}")
    held = 2 * (len(rows) - len(missed)) > len(rows) if word == "most" else (
        len(rows) == 2 and not missed)
    if not held:
        yield from missed or [f"{len(rows)} rows"]
