"""The numbers a user reads in a piece of text, and whether each matches a value.

One reader for the audit (`text_value_mismatch`, `unsupported_number`), the repair messages, the
findings and the noisy fault simulator, so all of them read a sentence the same way.

A number is read with its thousands separators, decimals, `%` (or "percent", "pct"; "pp" and
"percentage points" are percent units that match only a rate's value × 100; "basis points" and
"bps" are hundredths of those), k/M/B scale (or "thousand", "million", "billion"), a currency
symbol (kept, not matched), a leading minus (`-` or U+2212 `−`), and a sign carried by a word:
"fell 16.4%", "fell by 16.4%", "was down 16.4 %", "a drop of 16.4%" and "16.4% lower" are -16.4.

Not claims, and never read: dates and periods (2026-03-09, 13 April, April 13–19, 2026-W16,
week 11, Q2 2019, a year standing alone), time of day, version numbers, anything inside a
citation (r1[week=2026-03-09]:active_users.value) or an identifier (p90, moments_per_day), ranks
and list counts (top 3, #1, the 2 largest, 3 products), counts of periods (last 8 weeks, 7 days;
but a duration a verb states is a number: 'was 10 minutes', 'later by 5 minutes'), and every
number the question itself contains.

The matching rule is `harness/audit/values.py`'s, generalised to scales and to text: a number
matches a value when equal, or when written rounded and within half a unit of its last written
digit. `12.6k` is written at a unit of 100 and matches 12,573; in text every number is rounded
to its own written precision, a whole number ("fell 16%" matches -15.99) and a one-digit decimal
("0.5" matches 0.54) too, while a JSON number is exact at its repr unless it has a decimal and two
significant digits (-16 matches only -16; 0.5 only 0.5).
A hedge ("about", "roughly", "~", "close to") before a whole number makes its trailing zeros
its precision, down to two significant figures ("about 11,000" matches 11,343, "about 20 %"
does not match 16 %; a bare "11,000" does not match 11,343); a bound ("more than",
"over", "under", "at least") states a side: "over 10 %" matches a value above 10 that truncates
to 10 at its precision, "under 11 %" one below 11 that rounds up to 11.
Numbers in words are numbers: spelled out ("twelve thousand", at the unit of its last scale
word), and multipliers ("doubled", "ten-fold", "3x", "twice", "three times as many", "10 times
Brooklyn's", "by a factor of 4", "quintupled") and parts ("fell by a third", "lost a quarter",
"up a tenth"), read as the percent change their ratio states and matched within TOLERANCE of
the ratio (a part within PART_TOLERANCE of itself). A currency (`$`, `€`, `£`,
"dollars", "USD", "cents") is read as the number's `money`; the audit matches it only against
values of that unit. An unsigned number may state the size of a negative change.

>>> text = "Active users fell 16.4% to 12.6k in week 11 (r1[week=2026-03-09]:active_users.value)."
>>> [n.value for n in read_numbers(text)]
[-16.4, 12600.0]
>>> fell, level = read_numbers(text)
>>> matches(fell, -16.44, "percent"), matches(fell, -16.44), matches(level, 12573)
(True, False, True)
>>> say(12573), say(-16.44, "percent")
('12,573', '-16.44%')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import lru_cache
from typing import Any, Literal

from showwork.protocol.catalog_text import FALL, RISE
from showwork.protocol.reading._literals import first, fit, lowered, scan, search

Kind = Literal["number", "percent", "fraction"]
"""A value's units. `number`: a count, amount or level in its own units (a `value`, `previous`
or `delta` field); a percent-written number never matches it. `percent`: percent units, as
`pct_change` and `share` carry them (-16.44 means fell 16.44 %), matched written with or without
%. `fraction`: a rate or ratio (0.42), matched as written (0.42) or, written with %, × 100 (42%)."""


@dataclass(frozen=True)
class ReadNumber:
    """A number as the user reads it, with the precision it was written at."""

    start: int
    """Where its literal text starts (currency, sign, scale and % are part of it; a sign word is not)."""
    end: int
    """Where its literal text ends."""
    text: str
    """The literal text, e.g. '−16.4 %', '$1.2M', '12,573'."""
    value: int | float
    """Signed and scaled: '12.6k' is 12600.0, 'fell 16.4%' is -16.4; a whole number written
    without a point ('12,573', '12k') is an int."""
    decimals: int
    """Digits written after the decimal point."""
    significant: int
    """Significant digits written: '12.6k' has 3, '0.05' has 1, '10' has 2."""
    multiplier: int | float = 1
    """What the scale multiplies by: 1, 1_000, 1_000_000 or 1_000_000_000; for a duration written
    in another unit of time than its metric's, also that unit over the metric's (`in_time_unit`:
    '10.29 hours' of a metric in minutes multiplies by 60)."""
    scale: str = ""
    """The scale as written ('k', 'M', 'bn', 'million'), or ''."""
    percent: bool = False
    """Written with %, 'percent', 'pct', 'pp' or 'percentage points': the value is in percent units."""
    points: bool = False
    """Written in percentage points ('pp', 'percentage points', '% pts'): a difference of two
    rates, × 100. It matches only a fraction's value (a rate's delta), never a relative change
    (`pct_change`, `share`): "fell 2 pp" is not "fell 2 %"."""
    currency: str = ""
    """The currency symbol written with it ($, £, €), or '' (`money` says which currency)."""
    sign_word: str = ""
    """The word that gave it a direction ('fell', 'drop', 'rose'), or ''."""
    written: bool = False
    """Read from text: a whole number written there is rounded to the unit ('fell 16 %' states
    -15.99); a JSON number (`from_value`) is as exact as its repr."""
    width: int | float = 0
    """For a multiplier word ('doubled', 'a third'): how far (in percent units) the cited change
    may lie from the ratio the word states; 0 for digits."""
    money: str = ""
    """The currency it is written in, as a lower-case code ('usd', 'eur', 'gbp'), '' when none;
    a number in cents is read in its currency's units ('6,101,403 cents' is 61,014.03) with
    money 'cents', which any currency's value may match."""
    hedge: str = ""
    """The hedge or bound written right before it ('about', '~', 'more than', 'under'), lower
    case, or ''. A hedged or bounded whole number is rounded at the precision its trailing
    zeros give ('about 11,000' is written to the thousand); a bare '11,000' is exact."""
    bound: str = ""
    """What a bound states of the value's size: '>' (more than, over, above), '>=' (at least),
    '<' (under, less than, below), '<=' (at most, no more than), or '' (it states the value)."""
    share: bool = False
    """A part of a whole ('a third of all revenue', `share_parts`): a fraction that states a
    share of the total (a fraction-unit level), never a change."""
    upto: int | float | None = None
    """A range's upper end ('between 10 and 12 %': `value` 10, `upto` 12): the number states
    any value from `value` to `upto`, each end at the precision it was written at; None for
    one number."""
    unit: int | float = field(init=False, repr=False, compare=False)
    """The value of one unit of its last written digit: 100 for '12.6k', 0.1 for '-16.4'."""
    rounded: bool = field(init=False, repr=False, compare=False)
    """Whether it was written rounded: any number of text (a whole number, '0.5', a multiplier
    word), or a JSON number with a decimal or a scale and two significant digits."""
    signed: bool = field(init=False, repr=False, compare=False)
    """Written with a sign or a word of direction, or a JSON number: an unsigned number of text
    may state a change's size."""
    at: int | float = field(init=False, repr=False, compare=False)
    """What a value must lie within half a unit of to be stated: the value itself, or for a
    bound the middle of the values it admits ('over 10 %': 10.5, admitting 10 to 11)."""

    def __post_init__(self) -> None:
        # read on every match: worked out once per number
        width = self.width
        unit = 2 * width if width else 10 ** -self.decimals * self.multiplier
        if self.hedge and not width and not self.decimals:
            unit *= _zeros_unit(self.text)  # 'about 11,000': to the thousand
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "at", _bound_middle(self.value, unit, self.bound))
        # in text every number is written rounded to its last digit ("0.5" states 0.54); a
        # JSON number only with a decimal or scale and two significant digits (values.py)
        object.__setattr__(self, "rounded", bool(width) or self.written or (
            (self.decimals >= 1 or self.multiplier > 1) and self.significant >= 2))
        # a JSON number is signed by being one: 16.44 says +16.44, never a change's size
        object.__setattr__(self, "signed", not self.written or bool(self.sign_word) or any(
            ch in "-−+" for ch in self.text))


def _zeros_unit(text: str) -> int:
    """10 to the number of trailing zeros of a whole number's digits, keeping two significant
    figures ('11,000' gives 1000, '60,000' 1000, '20' and '11' give 1): the precision a hedge or
    a bound writes it at. One figure is too coarse to state a value: "about 20 %" is not 16 %."""
    digits = _DIGITS.search(text)
    body = digits.group(0).replace(",", "") if digits else ""
    stripped = body.rstrip("0")
    if not stripped or "." in body:
        return 1
    return 10 ** min(len(body) - len(stripped), max(0, len(body) - 2))


def _bound_middle(value: int | float, unit: int | float, bound: str) -> int | float:
    """The middle of the sizes a bound admits at its precision, signed as the value: 'over X'
    admits X to X + unit (X is the size truncated), 'under X' X - unit to X (rounded up)."""
    if not bound:
        return value
    sign = -1 if value < 0 else 1
    return value + sign * unit / 2 if bound[0] == ">" else value - sign * unit / 2


def _inside(number: ReadNumber, target: int | float) -> bool:
    """A bound's strictness at its edges: 'over 10 %' is not 10 % nor 11 %; 'at least 10 %' is
    10 %. The target lies within a unit of the bound already (`near`), on the stated side."""
    if not number.bound:
        return True
    if (target < 0) != (number.value < 0) and target and number.value:
        return False
    size, edge, reach = abs(target), abs(number.value), bound_reach(number)
    slack = 1e-9 * max(1.0, edge)
    if number.bound[0] == ">":
        return (size > edge + slack or (number.bound == ">=" and size >= edge - slack)) \
            and size < edge + reach - slack
    return (size < edge - slack or (number.bound == "<=" and size <= edge + slack)) \
        and size > edge - reach + slack


def bound_reach(number: ReadNumber) -> float:
    """How far past its edge a bound admits a value: a unit of its last digit, or the band an
    'about' would give the same number when that is wider ('just over $60k' admits $61,014 —
    its band is $3,000 — while 'over 10 %' admits 10 % to 11 %, one unit, as before)."""
    edge = abs(number.value)
    return max(number.unit, min(0.05 * edge, 5 * number.unit))


# ---------------------------------------------------------------------------------------------
# Matching and saying


def matches(number: ReadNumber, value: object, kind: Kind = "number") -> bool:
    """Whether `number` states `value` (of the given kind) at the precision it was written at.

    >>> matches(read_numbers("42%")[0], 0.42, "fraction"), matches(read_numbers("42%")[0], 42)
    (True, False)
    """
    target = _target(number, value, kind)
    return target is not None and (number.at == target and _inside(number, target)
                                   or near(number, target))


def near(number: ReadNumber, target: int | float) -> bool:
    """Whether `number`, written rounded, lies within half a unit of its last digit of `target`
    (a value already in the units the number was written in: see `target`).

    >>> near(read_numbers("16.4%")[0], 16.44), near(read_numbers("16%")[0], 16.44)
    (True, True)
    >>> near(read_numbers("17%")[0], 16.44), near(read_numbers("16.5%")[0], 16.44)
    (False, False)
    """
    if not number.rounded or not _finite(target):
        return False
    if number.upto is not None:
        return _in_range(number, target)
    if number.hedge in APPROXIMATE:
        if _approximately(number, target):
            return True
        if number.hedge in BELOW:
            return False  # 'nearly 15' is not 15.4, though 15.4 rounds to 15
    unit = number.unit
    if number.bound:  # on its side of the edge, within its reach (`_inside`)
        return _inside(number, target)
    gap = abs(number.at - target)
    if gap > 0.5 * unit:  # within half a unit, any slack keeps it (the common case)
        # The same tolerance as values.matches, so a JSON number and its text agree; the
        # slack for float noise stays well below the unit (1000000000001 is not 1e12 to the
        # unit), but never below the float's own spacing there.
        slack = max(min(1e-12 * max(1.0, abs(target)), 1e-3 * unit), 4 * math.ulp(target))
        if gap > 0.5 * unit + slack:
            return False
    return True


APPROXIMATE = {"about": 0.05, "around": 0.05, "roughly": 0.05, "approximately": 0.05,
               "~": 0.05, "≈": 0.05, "close to": 0.05, "some": 0.05, "nearly": 0.05,
               "almost": 0.05}
"""Hedges that state an interval around the number (docs/citations.md, "Approximations"):
the value may lie this share of the number away from it ('about 4.5 times' of 4.51, 'roughly
80 %' of 79.2 %, 'nearly $60,000' of $59,224.50), but no further than half a unit of the digit
before its last one (a number written to the tens claims the tens: 'about 4,510' is not 4,307),
and always within half a unit of its last digit. 'nearly' and 'almost' state the value is
below the number (in size): 'nearly 15 min' is not 15.4 min."""
BELOW = frozenset({"nearly", "almost"})


def _approximately(number: ReadNumber, target: int | float) -> bool:
    """Whether `target` lies in the interval the hedge before `number` states (`APPROXIMATE`).

    >>> [_approximately(read_numbers(t)[0], v) for t, v in (("about 80", 79.2), ("about 80", 70),
    ...  ("nearly 60,000", 59224.5), ("nearly 60,000", 60400), ("about 4,510", 4307),
    ...  ("about 4,300", 4307))]
    [True, False, True, False, False, True]
    """
    if target and number.value and (target < 0) != (number.value < 0):
        return False
    size, said = abs(target), abs(number.value)
    band = max(min(APPROXIMATE[number.hedge] * said, 5 * number.unit), 0.5 * number.unit)
    if number.hedge in BELOW:
        return said - band <= size <= said + 1e-9 * max(1.0, said)
    return abs(size - said) <= band


def _in_range(number: ReadNumber, target: int | float) -> bool:
    """Whether `target` lies in a range 'between A and B', each end at its written precision.

    >>> n = read_numbers("rose between 10 and 12 %")[0]
    >>> n.value, n.upto, _in_range(n, 10.8), _in_range(n, 12.6)
    (10, 12, True, False)
    """
    low, high = sorted((number.value, number.upto or 0))
    slack = 0.5 * number.unit
    return low - slack <= target <= high + slack


def _target(number: ReadNumber, value: object, kind: Kind) -> int | float | None:
    """The value in the units the number was written in, or None when the units cannot agree."""
    if number.points and kind != "fraction":
        return None
    return target(value, kind, number.percent)


def target(value: object, kind: Kind, percent: bool) -> int | float | None:
    """`value` (of `kind`) in the units of a number written with % or without, or None when the
    units cannot agree: what a number written that way must equal, or lie near, to match.

    >>> target(0.42, "fraction", True), target(0.42, "fraction", False), target(42, "number", True)
    (42.0, 0.42, None)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if kind == "number":
        return None if percent else value
    if kind == "fraction" and percent:
        return _hundredfold(value)
    return value


def _hundredfold(value: int | float) -> float:
    """value × 100 as the decimal it is written as, scaled (0.07 gives 7.0, not 7.000000000000001).

    >>> _hundredfold(0.07), _hundredfold(1.5e-07), _hundredfold(3)
    (7.0, 1.5e-05, 300.0)
    """
    written = repr(value)
    if "e" in written or "n" in written:  # 1e-05, inf, nan: through Decimal
        return float(Decimal(written) * 100)
    return float(written + "e2")  # the same decimal, scaled, rounded once to a float


_INF = float("inf")


def _finite(value: int | float) -> bool:
    # an infinite target would swallow any tolerance; NaN equals nothing
    return value == value and abs(value) != _INF


def from_value(value: int | float) -> ReadNumber:
    """A JSON number (a claim's `value`) as if written as its repr, so text and JSON share one rule.

    >>> n = from_value(-16.4)
    >>> n.decimals, n.significant, matches(n, -16.44), matches(from_value(-16), -16.44)
    (1, 3, True, False)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{value!r} is not a number; only int and float values have a precision.")
    return _from_repr(repr(value), value)


@lru_cache(maxsize=4096)
def _from_repr(text: str, value: int | float) -> ReadNumber:
    """Keyed by the repr too: 0.0 and -0.0 are equal keys, but not the same number written."""
    digits = Decimal(text) if isinstance(value, float) else Decimal(value)
    decimals, significant = _precision(digits)
    return ReadNumber(0, len(text), text, value, decimals, significant)


def _precision(number: Decimal) -> tuple[int, int]:
    """(decimals, significant digits) of a decimal as written; non-finite ones must be equal."""
    if not number.is_finite():
        return 0, 1
    _sign, digits, exponent = number.as_tuple()
    assert isinstance(exponent, int)
    shown = "".join(map(str, digits)).lstrip("0")
    return max(0, -exponent), len(shown) or 1


def say(value: int | float, kind: Kind = "number") -> str:
    """How a repair message writes a value so that, written that way, it matches.

    >>> say(12573), say(-16.44, "percent"), say(269173.31), say(2.2640000001), say(0.000123456)
    ('12,573', '-16.44%', '269,173.31', '2.264', '0.0001235')
    """
    body = _say_number(value)
    return f"{body}%" if kind == "percent" else body


def _say_number(value: int | float) -> str:
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if not exact.is_finite():
        return repr(value)
    if exact == exact.to_integral_value():
        return f"{int(exact):,}"
    decimals = _precision(exact)[0]
    if decimals <= 4:
        return f"{value:,.{decimals}f}"
    # float noise (2.2640000001): four decimals, or four significant digits below 1
    return _shortest(value, max(4, 3 - exact.adjusted()))


def _shortest(value: int | float, decimals: int) -> str:
    """`value` at `decimals` decimals, trailing zeros dropped while it still matches."""
    text = f"{value:,.{decimals}f}"
    while text.endswith("0") and _still_matches(text[:-1], value):
        text = text[:-1]
    return text


def _still_matches(text: str, value: int | float) -> bool:
    read = list(_candidates(text))
    return len(read) == 1 and read[0].end == len(text) and matches(read[0], value)


# ---------------------------------------------------------------------------------------------
# Reading


def read_numbers(text: str, question: str = "") -> tuple[ReadNumber, ...]:
    """Every number a user reads as a claim in `text`, in order; `question`'s numbers are skipped."""
    return unasked(claims_in(text), question)


def claims_in(text: str) -> tuple[ReadNumber, ...]:
    """Every number a user reads as a claim in `text`, in order, before the question's numbers
    are skipped.

    It depends on the text alone, so a caller reading many texts that repeat (the audit of a
    run's traces) reads each distinct text once and holds its numbers to each answer's values.
    """
    if _DIGIT.search(text) is None and not _wordy(text):
        return ()  # no digit and no number word: most argument texts
    found = _CLAIMS.get(text)
    if found is None:
        found = _kept(_CLAIMS, text, tuple(
            n for n in _candidates(text) if not any(rule(text, n) for rule in NOT_CLAIMS)))
    return found


MAX_TEXTS = 4096
"""Texts whose numbers are kept (`claims_in`, `_candidates`): an audit reads a text's numbers
for several checks (the claim's, the prose's sums, shares, rates and quantifiers), and a run's
answers repeat their texts. Past it, all are let go."""
_CLAIMS: dict[str, tuple[ReadNumber, ...]] = {}
_CANDIDATES: dict[str, tuple[ReadNumber, ...]] = {}


def _kept(kept: dict[str, tuple[ReadNumber, ...]], text: str, found: tuple[ReadNumber, ...]
          ) -> tuple[ReadNumber, ...]:
    if len(kept) >= MAX_TEXTS:
        kept.clear()
    kept[text] = found
    return found


def forget() -> None:
    """Let go of the numbers kept of texts (`bench audit`'s fresh pass reads every answer's
    texts afresh)."""
    _CLAIMS.clear()
    _CANDIDATES.clear()


def unasked(numbers: tuple[ReadNumber, ...], question: str) -> tuple[ReadNumber, ...]:
    """`numbers` without those the question itself contains."""
    asked = _asked(question) if numbers and question else frozenset()
    return tuple(n for n in numbers if _key(n) not in asked) if asked else numbers


def unsupported(numbers: tuple[ReadNumber, ...], question: str,
                supported: Callable[[ReadNumber], bool]) -> tuple[ReadNumber, ...]:
    """The numbers (read by `claims_in`) that the question does not contain and `supported`
    rejects, in order: the numbers the audit flags."""
    return tuple(n for n in unasked(numbers, question) if not supported(n))


def read_unsupported(text: str, question: str,
                     supported: Callable[[ReadNumber], bool]) -> tuple[ReadNumber, ...]:
    """The numbers of `text` that are claims and that `supported` rejects, in order."""
    return unsupported(claims_in(text), question, supported)


@lru_cache(maxsize=512)
def _asked(question: str) -> frozenset[str]:
    """The question's numbers: read once per question, though every claim of its answer asks."""
    return frozenset(_key(n) for n in _candidates(question))


_NUMBER = re.compile(r"""
    (?<![\w.,])
    (?:(?P<cur1>[$£€¥])\s?)?
    (?P<sign>[-−+])?
    (?P<cur2>[$£€¥])?
    (?P<core>(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?|\.[0-9]+)
    (?:(?P<scale>[kKMB]|bn|Bn|mn|m)(?![A-Za-z])|\s?(?P<word>thousand|million|billion)\b)?
    (?P<pct>\s?%(?:\s?(?:pts?|points?)\b)?|\s?(?:percent(?:age\s+points?)?|per\s+cent|pct|pp)\b)?
    (?P<bp>\s?(?:basis\s+points?|bps?)\b)?
    (?P<cur3>\s?[£€¥])?
    (?P<curword>\s?(?:US\s?dollars?|dollars?|USD|usd|euros?|EUR|eur|pounds?|GBP|gbp|yen|JPY|yuan|CNY|cents?)\b)?
""", re.VERBOSE)

_DIGIT = re.compile(r"[0-9]")

MAX_DIGITS = 60
"""A longer run of digits is an identifier or noise, not a number a user reads."""

_MULTIPLIERS = {"": 1, "k": 1_000, "thousand": 1_000, "m": 1_000_000, "mn": 1_000_000,
                "million": 1_000_000, "b": 1_000_000_000, "bn": 1_000_000_000,
                "billion": 1_000_000_000}


def _candidates(text: str) -> tuple[ReadNumber, ...]:
    """Every well-formed number outside masked spans (dates, citations, identifiers, …), and
    every number written in words (multipliers, spelled-out numbers), in text order; read once
    per text (MAX_TEXTS)."""
    found = _CANDIDATES.get(text)
    if found is None:
        found = _kept(_CANDIDATES, text, tuple(_read_candidates(text)))
    return found


def _read_candidates(text: str) -> Iterator[ReadNumber]:
    masked: list[tuple[int, int]] | None = None  # found only when a number needs them
    found: list[ReadNumber] = []
    for m in fit(_NUMBER, text).finditer(text) if _DIGIT.search(text) is not None else ():
        if not _well_formed(text, m):
            continue
        masked = _masked_spans(text) if masked is None else masked
        if not _overlaps(masked, m.start("core"), m.end("core")):
            found.append(_record(text, m))
    if len(found) > 1 and search(_BETWEEN_HINT, text) is not None:
        found = _ranges(text, found)
    if " in " in text and (ones := list(_one_in(text))):  # 'one order in 28': a share
        found = sorted([f for f in found if not any(o.start <= f.start and f.end <= o.end
                                                    for o in ones)] + ones,
                       key=lambda n: n.start)
    if not _wordy(text):
        yield from found
        return
    words = list(_worded(text))
    ratios = [n for n in words if n.width]  # 'a factor of 3', '3 times as many': the ratio
    if ratios:
        found = [f for f in found if not any(r.start <= f.start and f.end <= r.end
                                             for r in ratios)]
    worded = [n for n in words if n.width and any(r is n for r in ratios)
              or not any(f.start < n.end and n.start < f.end for f in found)]
    yield from sorted(found + worded, key=lambda n: n.start)


_ONE_IN = re.compile(
    r"(?i)(?<![\w.,$€£])(?P<k>one|two|three|four|five|six|seven|eight|nine|[1-9][0-9]?)\s+"
    r"(?:(?!in\b)[a-z]+\s+){0,2}in\s+(?:every\s+)?"
    r"(?P<n>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|hundred|a\s+hundred|a\s+thousand)\b(?![.,][0-9])")
"""'one order in 28', 'one flight in six', '1 in every 20 users', 'roughly 3 in 100': a share,
K/N."""
_ONE_IN_WORDS = {"a hundred": 100, "hundred": 100, "a thousand": 1000}
_PER_TIME = re.compile(r"(?i)\s+(?:days?|weeks?|months?|quarters?|years?|hours?|minutes?|"
                       r"seconds?)\b")


def _one_in(text: str) -> Iterator[ReadNumber]:
    """Each 'K … in N' of `text` as the share it states, K/N, a share of the total only: 'one
    in N' holds of a fraction whose reciprocal rounds to N (one in 28 is 3.51 % to 3.64 %), 'K
    in N' (N a power of ten) of one within half of 1/N of K/N (3 in 100 is 2.5 % to 3.5 %).
    Never before a unit of time ('one in 10 days')."""
    for m in _ONE_IN.finditer(text):
        said = " ".join(m["n"].lower().split()).replace(",", "")  # '27 in every 1,000'
        n = int(said) if said.isdigit() else _ONE_IN_WORDS.get(said) or _SMALL.get(said) or \
            _TENS.get(said)
        word = m["k"].lower()
        k = int(word) if word.isdigit() else _SMALL[word]
        if not n or n < 2 or k >= n or said.isdigit() and len(said) == 4 and 1900 <= n <= 2100:
            continue  # 'number 1 in 2013': a year, no share
        if k > 1 and n not in (10, 100, 1000) or _PER_TIME.match(text, m.end()):
            continue  # '2 flights in 5 days', '1 in 10 days': no share
        # one in N: reciprocals within half of N (the wider side); K in N: K to half a unit
        width = 1 / (n - 0.5) - 1 / n if k == 1 else 0.5 / n
        hedge = _hedge_before(text, m.start())
        yield ReadNumber(m.start(), m.end(), m.group(0), k / n, 0, 2, 1, "", False, False, "",
                         "", True, width, "", hedge, _BOUNDS.get(hedge, ""), True)


_BETWEEN_HINT = re.compile(r"(?i)\bbetween\b")
_BETWEEN = re.compile(r"(?i)\bbetween\s+$")
_AND = re.compile(r"\s+(?:and|to)\s+$|\s*[-–]\s*$")


def _ranges(text: str, found: list[ReadNumber]) -> list[ReadNumber]:
    """'between 10 and 12 %', 'between $50k and $60k': one number stating the range (`upto`),
    in the units either end is written in, signed by the word before 'between'."""
    out: list[ReadNumber] = []
    at = 0
    while at < len(found):
        a = found[at]
        b = found[at + 1] if at + 1 < len(found) else None
        lead = _BETWEEN.search(text, max(0, a.start - 10), a.start)
        if b is None or lead is None or not _AND.search(text, a.end, b.start) or a.hedge:
            out.append(a)
            at += 1
            continue
        word, direction = _sign_word(text, lead.start(), b.end)
        sign = -1 if direction < 0 else 1
        out.append(replace(b, start=lead.start(), text=text[lead.start():b.end],
                           value=sign * abs(a.value), upto=sign * abs(b.value),
                           decimals=max(a.decimals, b.decimals), percent=a.percent or b.percent,
                           currency=a.currency or b.currency, money=a.money or b.money,
                           sign_word=word or b.sign_word))
        at += 2
    return out


TIME_UNITS = {"seconds": 1, "minutes": 60, "hours": 3_600, "days": 86_400, "weeks": 604_800}
"""Units of time a catalog may govern a metric in, in seconds (a week is seven days: '3 weeks'
of a metric in days is 21; months and years have no one length, and are never converted)."""
TIME_SPELLINGS = {"seconds": ("s", "sec", "secs", "second", "seconds"),
                  "minutes": ("min", "mins", "minute", "minutes"),
                  "hours": ("h", "hr", "hrs", "hour", "hours"), "days": ("day", "days"),
                  "weeks": ("week", "weeks", "wk", "wks")}
"""How each unit of time is written after a number."""
_TIME_OF = {w: unit for unit, words in TIME_SPELLINGS.items() for w in words}
_TIME_AFTER = re.compile(rf"\s*({'|'.join(sorted(_TIME_OF, key=len, reverse=True))})(?![\w°])",
                         re.IGNORECASE)


def time_unit_after(text: str, number: ReadNumber) -> str | None:
    """The unit of time written right after the number ('20.4 hours' → 'hours'), or None."""
    m = _TIME_AFTER.match(text, number.end)
    return _TIME_OF[m.group(1).lower()] if m else None


def in_time_unit(text: str, numbers: tuple[ReadNumber, ...], unit: str | None
                 ) -> tuple[ReadNumber, ...]:
    """The numbers, each one written in another unit of time than `unit` (the catalog's unit
    of time) converted to it at its written precision: '10.29 hours' is 617.4 (± 0.3) minutes,
    '20.4 hours' is 1,224 minutes (which a cited 20.4 min does not match).

    >>> text = "air time was 10.29 hours, or 756 seconds"
    >>> [(n.value, round(n.unit, 3)) for n in in_time_unit(text, read_numbers(text), "minutes")]
    [(617.4, 0.6), (12.6, 0.017)]
    """
    if unit not in TIME_UNITS:
        return numbers
    out = []
    for n in _compound_durations(text, numbers):
        written = None if n.percent or n.money else time_unit_after(text, n)
        if written is None or written == unit:
            out.append(n)
            continue
        factor = TIME_UNITS[written] / TIME_UNITS[unit]
        out.append(replace(n, value=round(n.value * factor, 12),
                           multiplier=n.multiplier * factor))
    return tuple(out)


_AND = re.compile(r"\s*(?:,\s*|\s+and\s+)?")


def _compound_durations(text: str, numbers: tuple[ReadNumber, ...]) -> tuple[ReadNumber, ...]:
    """'10 h 17 min', '2 hours and 5 minutes': a duration written in two units of time, the
    second smaller, is one number in the smaller unit (617 minutes, at its precision).

    >>> text = "was 10 h 17 min"
    >>> [(n.text, n.value) for n in _compound_durations(text, read_numbers(text))]
    [('10 h 17', 617)]
    """
    if len(numbers) < 2:
        return numbers
    out: list[ReadNumber] = []
    skip = False
    for n, m in zip(numbers, (*numbers[1:], None), strict=True):
        if skip:
            skip = False
            continue
        big = _TIME_AFTER.match(text, n.end)
        small = _TIME_AFTER.match(text, m.end) if m is not None else None
        if m is None or big is None or small is None or n.percent or n.money or m.percent \
                or m.money or n.value < 0 or m.value < 0 \
                or not _AND.fullmatch(text, big.end(), m.start):
            out.append(n)
            continue
        high, low = _TIME_OF[big.group(1).lower()], _TIME_OF[small.group(1).lower()]
        if TIME_UNITS[high] <= TIME_UNITS[low]:
            out.append(n)
            continue
        value = n.value * (TIME_UNITS[high] // TIME_UNITS[low]) + m.value
        out.append(replace(m, start=n.start, text=text[n.start:m.end], value=value,
                           significant=len(str(int(value))) + m.decimals))
        skip = True
    return tuple(out)


MEASURES: dict[str, tuple[str, float, float]] = {
    "miles": ("length", 1609.344, 0.0), "kilometres": ("length", 1000.0, 0.0),
    "metres": ("length", 1.0, 0.0), "centimetres": ("length", 0.01, 0.0),
    "millimetres": ("length", 0.001, 0.0), "yards": ("length", 0.9144, 0.0),
    "feet": ("length", 0.3048, 0.0), "inches": ("length", 0.0254, 0.0),
    "degrees_c": ("temperature", 1.0, 273.15), "kelvin": ("temperature", 1.0, 0.0),
    "degrees_f": ("temperature", 5 / 9, 459.67 * 5 / 9),
    "kilograms": ("mass", 1.0, 0.0), "grams": ("mass", 0.001, 0.0),
    "tonnes": ("mass", 1000.0, 0.0), "lb": ("mass", 0.45359237, 0.0),
    "mph": ("speed", 0.44704, 0.0), "kmh": ("speed", 1 / 3.6, 0.0),
    "knots": ("speed", 1852 / 3600, 0.0),
    "litres": ("volume", 1.0, 0.0), "gallons": ("volume", 3.785411784, 0.0),
}
"""Units of measure a catalog may govern a metric in, by the quantity each measures: (quantity,
size in the quantity's base unit, offset to the base: kelvin = (°F + 459.67) × 5/9)."""
MEASURE_SPELLINGS = {
    "miles": ("mi", "mile", "miles"),
    "kilometres": ("km", "kms", "kilometre", "kilometres", "kilometer", "kilometers"),
    "metres": ("metre", "metres", "meter", "meters"),
    "centimetres": ("cm", "centimetre", "centimetres", "centimeter", "centimeters"),
    "millimetres": ("mm", "millimetre", "millimetres", "millimeter", "millimeters"),
    "yards": ("yd", "yds", "yard", "yards"), "feet": ("ft", "foot", "feet"),
    "inches": ("inch", "inches"),
    "degrees_c": ("°C", "° C", "degrees Celsius", "degrees C", "degrees centigrade", "celsius"),
    "kelvin": ("kelvin", "kelvins"),
    "degrees_f": ("°F", "° F", "degrees Fahrenheit", "degrees F", "fahrenheit"),
    "kilograms": ("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"),
    "grams": ("gram", "grams"), "tonnes": ("tonne", "tonnes", "metric tons"),
    "lb": ("lb", "lbs"),
    "mph": ("mph", "miles per hour", "miles an hour"),
    "kmh": ("km/h", "kph", "kilometres per hour", "kilometers per hour", "kilometres an hour"),
    "knots": ("knot", "knots", "kn"),
    "litres": ("litre", "litres", "liter", "liters"), "gallons": ("gal", "gallon", "gallons"),
}
"""How each unit of measure is written after a number (a bare 'm', 'in', 'g', 'K' or 'l' is no
unit: a million, a preposition, a thousand)."""
_MEASURE_OF = {w.lower(): unit for unit, words in MEASURE_SPELLINGS.items() for w in words}
_MEASURE_AFTER = re.compile(rf"\s*({'|'.join(map(re.escape, sorted(_MEASURE_OF, key=len, reverse=True)))})"
                            r"(?![\w°/])", re.IGNORECASE)


def measure_unit(name: str | None) -> str | None:
    """The unit of measure a catalog's `unit` names ('miles', 'degrees_f', 'km', 'Celsius'), or
    None when it names none."""
    if not name:
        return None
    key = name.strip().lower()
    if key in MEASURES:
        return key
    return _MEASURE_OF.get(key.replace("_", " ")) or _MEASURE_OF.get(key)


def measure_unit_after(text: str, number: ReadNumber) -> str | None:
    """The unit of measure written right after the number ('22 centimetres' → 'centimetres')."""
    m = _MEASURE_AFTER.match(text, number.end)
    return _MEASURE_OF[m.group(1).lower()] if m else None


def in_measure_unit(text: str, numbers: tuple[ReadNumber, ...], units: Iterable[str | None]
                    ) -> tuple[ReadNumber, ...]:
    """The numbers, each one written in another unit of the same quantity as one of `units`
    (the cited metrics' units, as the catalog names them) converted to that unit at its written
    precision: '22 centimetres' of a metric in inches is 8.66 (± 0.2) inches, '1.9 °C' of one in
    °F is 35.42 °F. A quantity two of `units` measure (a distance in miles and rain in inches)
    is not converted: which one the number states is not known, and its unit stays unread.

    >>> text = "rain was about 22 centimetres, the air 1.9 °C"
    >>> [(round(n.value, 2), round(n.unit, 3))
    ...  for n in in_measure_unit(text, read_numbers(text), ["inches", "degrees_f"])]
    [(8.66, 0.394), (35.42, 0.18)]
    """
    targets = measure_targets(units)
    if not targets:
        return numbers
    out = []
    for n in numbers:
        written = None if n.percent or n.money else measure_unit_after(text, n)
        target = targets.get(MEASURES[written][0]) if written else None
        if written is None or target is None or target == written:
            out.append(n)
            continue
        out.append(replace(n, value=_converted(n.value, written, target),
                           multiplier=n.multiplier * MEASURES[written][1] / MEASURES[target][1],
                           upto=None if n.upto is None else _converted(n.upto, written, target)))
    return tuple(out)


def measure_targets(units: Iterable[str | None]) -> dict[str, str]:
    """Per quantity, the one of `units` (as the catalog names them) that measures it: what a
    number written in another unit of that quantity is converted to (`in_measure_unit`). A
    quantity two of them measure is left out."""
    found: dict[str, set[str]] = {}
    for unit in filter(None, map(measure_unit, units)):
        found.setdefault(MEASURES[unit][0], set()).add(unit)
    return {quantity: next(iter(one)) for quantity, one in found.items() if len(one) == 1}


def _converted(value: float, unit: str, to: str) -> float:
    _, size, offset = MEASURES[unit]
    _, to_size, to_offset = MEASURES[to]
    return round((value * size + offset - to_offset) / to_size, 12)


def _well_formed(text: str, m: re.Match[str]) -> bool:
    """Not glued to what follows ('3rd', '10am', '1.2.3', '7-day'); 'm' means million only after money."""
    if len(m["core"]) > MAX_DIGITS:
        return False
    rest = text[m.end():m.end() + 2]
    if rest[:1].isalnum() or rest[:1] == "_":
        return False
    if rest[:1] in ".-" and rest[1:2].isalnum():
        return False
    return m["scale"] != "m" or bool(m["cur1"] or m["cur2"] or m["cur3"])


def _record(text: str, m: re.Match[str]) -> ReadNumber:
    core = m["core"].replace(",", "")
    scale = m["scale"] or m["word"] or ""
    multiplier = _MULTIPLIERS[scale.lower()]
    whole, dot, fraction = core.partition(".")
    # Any, not float: compiled (protocol/compiled.py), a float-typed name would make an int a float
    value: Any = (float(Decimal(core) * multiplier) if dot and multiplier > 1
                  else float(core) if dot else int(whole) * multiplier)
    word, direction = _sign_word(text, m.start(), m.end())
    if m["sign"] in ("-", "−") or direction < 0:
        value = -abs(value)
    decimals, significant = len(fraction), len((whole + fraction).lstrip("0")) or 1
    currency = (m["cur1"] or m["cur2"] or m["cur3"] or "").strip()
    pct = m["pct"] or ""
    points = "pp" in pct or "pt" in pct or "point" in pct
    money = _MONEY.get(currency, "")
    named = (m["curword"] or "").strip().lower()
    if named:
        money = _MONEY_WORDS[named.split()[-1].rstrip("s")]
        if money == "cents":  # a hundredth of its currency, read in the currency's units
            value = float(Decimal(core) * multiplier / 100) * (-1 if value < 0 else 1)
            decimals += 2
    if m["bp"] and not pct:  # '360 basis points': a hundredth of a percentage point each
        value = float(Decimal(core) * multiplier / 100) * (-1 if value < 0 else 1)
        decimals, pct, points = decimals + 2, "bp", True
    hedge = _hedge_before(text, m.start())
    return ReadNumber(m.start(), m.end(), m.group(0), value, decimals, significant, multiplier,
                      scale, bool(pct), points, currency, word, True, 0, money, hedge,
                      _BOUNDS.get(hedge, ""))


_HEDGE_WORDS = frozenset({"about", "around", "roughly", "approximately", "nearly", "almost",
                          "some", "to", "than", "over", "above", "least", "under", "below",
                          "most", "of", "crossed", "passed", "topped", "exceeded",
                          "surpassed", "cleared", "reached"})
"""The last words of a hedge or a bound: a prefilter before the regex."""
_HEDGE = re.compile(
    r"(?i)(?:\b(?P<words>about|around|roughly|approximately|nearly|almost|some|close\s+to|"
    r"(?:just\s+|a\s+little\s+|slightly\s+)?(?:over|under)|more\s+than|above|at\s+least|"
    r"upwards\s+of|in\s+excess\s+of|north\s+of|south\s+of|(?:just\s+)?(?:shy|short)\s+of|"
    r"below|less\s+than|fewer\s+than|at\s+most|no\s+more\s+than|crossed|passed|topped|"
    r"exceeded|surpassed|cleared|reached)|(?P<sym>[~≈]))\s*$")
_BOUNDS = {"over": ">", "just over": ">", "more than": ">", "above": ">", "upwards of": ">",
           "in excess of": ">", "at least": ">=", "under": "<", "just under": "<",
           "below": "<", "less than": "<", "fewer than": "<", "at most": "<=",
           "no more than": "<=", "north of": ">", "south of": "<", "shy of": "<",
           "just shy of": "<", "short of": "<", "just short of": "<", "a little over": ">",
           "a little under": "<",
           "slightly over": ">", "slightly under": "<", "crossed": ">", "passed": ">",
           "topped": ">", "exceeded": ">", "surpassed": ">", "cleared": ">", "reached": ">="}
"""A verb of passing a mark ('MRR crossed $59,000') states a side of it, as 'over' does;
reaching one ('No store reached 300 orders') states it or more, as 'at least' does."""


def _hedge_before(text: str, start: int) -> str:
    """The hedge or bound written right before the number at `start` ('about', 'more than',
    '~'), lower case with single spaces, or ''."""
    tail = text[max(0, start - 24):start].rstrip()
    if not tail:
        return ""
    if tail[-1] not in "~≈" and _last_word(tail) not in _HEDGE_WORDS:
        return ""  # the common case, without the regex
    found = _HEDGE.search(tail)
    if found is None:
        return ""
    return "~" if found["sym"] else " ".join(found["words"].lower().split())


def _last_word(tail: str) -> str:
    """The last word before a number, lower case, without the brackets or quotes that open on
    it: '(about 18 %)' is hedged as 'about 18 %' is."""
    return tail.rsplit(None, 1)[-1].lstrip("([{\"'“‘").lower()


_MONEY = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy"}
_MONEY_WORDS = {"dollar": "usd", "usd": "usd", "euro": "eur", "eur": "eur", "pound": "gbp",
                "gbp": "gbp", "yen": "jpy", "jpy": "jpy", "yuan": "cny", "cny": "cny",
                "cent": "cents"}
CURRENCIES = frozenset({"usd", "eur", "gbp", "cad", "aud", "jpy", "chf", "inr", "cny"})
"""Catalog units that are money: a number written in a currency matches only their values."""


# ---------------------------------------------------------------------------------------------
# Numbers in words: multipliers ("doubled", "fell by a third", "ten-fold", "3x") and spelled-out
# numbers ("twelve thousand", "fifteen percent")

_SMALL = {w: i for i, w in enumerate(
    [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
])}
_TENS = {w: 10 * i for i, w in enumerate(
    ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]) if i > 1}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_NUMBER_WORD = "|".join([*_SMALL, *_TENS, *_SCALES, "a", "and"])
_WORDY_WORDS_RE = (r"\b(?:doubled?|tripled?|quadrupled?|quintupled|halved|half|halves|thirds?|"
                   r"quarters?|(?:fif|six|seven|eigh|nin|ten|twentie|hundred)ths?|\w*-?fold|"
                   r"hundred|thousand|million|billion|percent|cent|twice|times|factor)\b")
_WORDY_X_RE = r"[0-9](?:\.[0-9]+)?x\b"
_WORDY_PERCENT_RE = r"[a-z]\s?%|\bto\s+[0-9.]+\s?%\s+of\b"
_WORDY = re.compile(f"(?i){_WORDY_WORDS_RE}|{_WORDY_X_RE}|{_WORDY_PERCENT_RE}")
_WORDY_PARTS = (re.compile(f"(?i){_WORDY_PERCENT_RE}"), re.compile(f"(?i){_WORDY_X_RE}"),
                re.compile(f"(?i){_WORDY_WORDS_RE}"))
"""`_WORDY`'s alternatives one by one: a text is searched for each only where it holds what
that alternative's matches hold (`_wordy`)."""
_WORDY_WORDS = ("double", "triple", "quadruple", "quintupled", "halv", "half", "third",
                "quarter", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "twentieth",
                "fold", "hundred", "thousand", "million", "billion", "cent", "twice", "times",
                "factor")
"""What every match of `_WORDY`'s words holds one of, in lower case."""


def _wordy(text: str) -> bool:
    """Whether `_WORDY` matches in `text`: each of its alternatives searched only where the
    lowered text (`_literals.lowered`: 'ſ' an 's', as IGNORECASE compares) holds what its
    matches hold (a '%'; an 'x' and a digit, '3x'; one of its words). A text's readers ask in
    turn (its claims, its candidates, its parts of a whole): the answer for the text asked last
    is kept."""
    last = _WORDY_LAST[0]
    if last[0] is text:
        return last[1]
    found = _search_wordy(text)
    _WORDY_LAST[0] = (text, found)
    return found


_WORDY_LAST: list[tuple[str, bool]] = [("", False)]
"""The text `_wordy` read last and its answer (one pair, replaced whole)."""


def _search_wordy(text: str) -> bool:
    low = lowered(text)
    percent, times, worded = _WORDY_PARTS
    if "%" in low and first(percent, text) is not None:
        return True
    if "x" in low and _DIGIT.search(text) is not None and first(times, text) is not None:
        return True
    return any(w in low for w in _WORDY_WORDS) and first(worded, text) is not None


_SPELLED = re.compile(rf"(?i)\b(?:{_NUMBER_WORD})(?:[\s-]+(?:{_NUMBER_WORD}))*\b"
                      r"(?P<pct>\s?(?:%|percent\b|per\s+cent\b))?")
_PART_HEDGES = (r"nearly|almost|about|roughly|around|approximately|some|over|under|more\s+than|"
                r"less\s+than|just\s+over|just\s+under|at\s+least|at\s+most")
_PART_WORDS = (r"half|(?:a|an|one|two|three|four|five|six|seven|eight|nine)[\s-]+(?:half|halves|"
               r"thirds?|quarters?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|"
               r"twentieths?|hundredths?)")
"""A part of a whole: 'half', 'a third', 'one-third', 'two fifths'."""
_MULTIPLIER = re.compile(
    r"(?i)\b(?P<verb>doubled|tripled|quadrupled|quintupled|halved)\b"
    r"|\b(?P<twice>twice)\b(?!\s+as\s+(?:fast|quickly|slowly|rapidly|steeply|sharply|often))"
    r"|\b(?P<adj>double|triple|quadruple)\b(?=\s+(?:its|their|the|what|that|those)\b|"
    r"\s+\S+['’]s\b)"
    r"|\b(?:by\s+)?a\s+factor\s+of\s+(?P<factor>two|three|four|five|six|seven|eight|nine|ten|"
    r"[0-9]+(?:\.[0-9]+)?)\b"
    r"|(?<![\w.])(?P<ntimes>two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|forty|fifty|a\s+hundred|hundred|[0-9]+(?:\.[0-9]+)?)"
    r"\s+times\b(?=\s+(?:as|its|their|the|what|that|those|higher|larger|bigger|greater|more|"
    r"over)\b|\s+(?-i:[A-Z])|\s+\S+['’]s\b)"
    r"|(?<![\w.])(?P<nhalf>one|two|three|four|five|six|seven|eight|nine|ten)\s+and\s+a\s+half"
    r"\s+times\b"
    rf"|\b(?:by|in|(?P<pverb>lost|shed|gained|added|cut|down|up)(?:\s+(?:in|by))?)\s+"
    rf"(?:(?P<phedge>{_PART_HEDGES})\s+)?(?P<part>{_PART_WORDS})\b"
    rf"|\bto\s+(?:(?P<lhedge>{_PART_HEDGES})\s+)?(?:(?P<lpart>{_PART_WORDS})|(?P<lpct>[0-9]+"
    r"(?:\.(?P<lpctd>[0-9]+))?)\s?(?:%|percent\b|per\s+cent\b))\s+(?:of\s+)?"
    r"(?:its|their|the|(?:\w+\s+)?\w+['’]s)\s+(?:(?:previous|prior|earlier|former|original|"
    r"starting|old|usual)\s+)?(?:level|value|size|figure)\b"
    r"|\b(?P<fold>two|three|four|five|six|seven|eight|nine|ten|twenty|hundred|[0-9]+)-?fold\b"
    r"|(?<![\w.])(?P<times>[0-9]+(?:\.[0-9]+)?)x\b")
_VERB_RATIOS = {"doubled": 2.0, "tripled": 3.0, "quadrupled": 4.0, "quintupled": 5.0,
                "halved": 0.5}
_ADJ_RATIOS = {"double": 2.0, "triple": 3.0, "quadruple": 4.0}
_NUMERATORS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
               "seven": 7, "eight": 8, "nine": 9}
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "quarter": 4, "fifth": 5, "sixth": 6,
                 "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "twentieth": 20,
                 "hundredth": 100}
_FALLING_VERBS = frozenset({"lost", "shed", "cut", "down"})


def _part(words: str) -> float:
    """The fraction a part word states: 'half' 0.5, 'a third' 1/3, 'three fifths' 0.6."""
    split = words.lower().replace("-", " ").split()
    if split == ["half"]:
        return 0.5
    noun = split[1] if split[1] in _DENOMINATORS else split[1][:-1]  # 'thirds' → 'third'
    return _NUMERATORS[split[0]] / _DENOMINATORS[noun]
TOLERANCE = 0.1
"""A multiplier word states a ratio (the current value over the previous one): it matches a
cited change whose ratio lies within 10 % of the word's (doubled: +80 % to +120 %)."""
PART_TOLERANCE = 0.2
"""A part ('by a third', 'lost a quarter', 'up a tenth') matches within 20 % of the part it
states, never more widely than its ratio would (TOLERANCE): 'up a tenth' is +8 % to +12 %,
'fell by half' -45 % to -55 %, 'fell by a third' -26.7 % to -40 %. A part is a rounded figure
already: a hedge before it ('roughly a third') does not widen it, or 'rose by roughly a third'
would state the +24.9 % that is a quarter (the lead's held-out edits of session 6)."""


SHARE_TOLERANCE = 0.12
SHARE_TOLERANCE_HEDGED = 0.25
"""A part of a whole as a share ('a quarter of all flights') states the cited share within 12 %
of the part (22 % to 28 % for a quarter), 25 % hedged ('roughly a quarter': 18.75 % to
31.25 %): 'roughly a quarter of flights' is not 17.4 % of them. Narrower than a part of a
change (PART_TOLERANCE), whose ratio already bounds it."""


_SHARE_PART = re.compile(rf"(?i)\b(?:(?P<hedge>{_PART_HEDGES})\s+)?(?P<part>{_PART_WORDS})\s+of"
                         r"\s+(?:(?:all|the|total|overall|our|their|its)\s+)*")


def share_parts(text: str) -> list[tuple[ReadNumber, int]]:
    """Each part of a whole the text writes ('a third of all revenue', 'about half of the
    flights') as the fraction it states, within SHARE_TOLERANCE of the part
    (SHARE_TOLERANCE_HEDGED hedged; a bound states a side), cut where another of COMMON_PARTS
    is nearer (its `value` then the centre of what is left), with where the words it is a part
    of start. Whether those words are a metric is the catalog's to say: 'half of the stores'
    is a count of members, no number (the audit reads them, `harness/audit/numbers.py`)."""
    if not _wordy(text):
        return []
    out = []
    for m in _SHARE_PART.finditer(text):
        part = _part(m["part"])
        if part >= 1:
            continue
        hedge = " ".join((m["hedge"] or "").lower().split())
        width = (SHARE_TOLERANCE_HEDGED if hedge and hedge not in _BOUNDS
                 else SHARE_TOLERANCE) * part
        # a side ('nearly', 'over') is measured from the part itself: only a plain or an
        # even hedge ('about') is cut to the values nearer the part than another
        centre, width = (part, width) if _BOUNDS.get(hedge) or hedge in BELOW else \
            _nearest_part(part, width)
        out.append((ReadNumber(m.start(), m.end("part"), m.group(0).strip(), centre, 0, 2, 1, "",
                               False, False, "", "", True, width, "",
                               hedge, _BOUNDS.get(hedge, ""), True), m.end()))
    return out


COMMON_PARTS = (1 / 10, 1 / 5, 1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4)
"""The parts people say most: a part word states no value nearer another of them than itself
('three quarters' of 66.7 % is two thirds; 'about a quarter' of 19.9 % is a fifth; 'about half'
of 44 % still half). A fifth and a tenth are among them: a fifth's interval was cut where a
quarter is nearer, so a quarter's is cut where a fifth is."""


def _nearest_part(part: float, width: float) -> tuple[float, float]:
    """The interval `part` ± `width`, cut where another common part (COMMON_PARTS) is nearer, as
    (centre, half width): the part itself when nothing is cut."""
    low, high = part - width, part + width
    for other in COMMON_PARTS:
        if other < part - 1e-9:
            low = max(low, (other + part) / 2)
        elif other > part + 1e-9:
            high = min(high, (other + part) / 2)
    if (low, high) == (part - width, part + width):
        return part, width
    return (low + high) / 2, (high - low) / 2


_PART_OF_SCALE = re.compile(rf"(?i)\b(?P<part>{_PART_WORDS})\s+(?:of\s+)?an?\s+"
                            r"(?P<scale>thousand|million|billion)\b")
"""A part of a scale word: 'a third of a million', 'half a million', 'three quarters of a
billion' — a rough figure, stated within PART_OF_SCALE of the part of the scale."""
PART_OF_SCALE = 0.05


def _part_of_scale(text: str, m: re.Match[str]) -> ReadNumber:
    value = _part(m["part"]) * _SCALES[m["scale"].lower()]
    _w, direction = _sign_word(text, m.start(), m.end())
    # its unit is a tenth of it: stated within half of that (PART_OF_SCALE) either way
    return ReadNumber(m.start(), m.end(), m.group(0), -value if direction < 0 else value, 0, 1,
                      2 * PART_OF_SCALE * value, m["scale"].lower(), False, False, "", _w, True)


def _worded(text: str) -> Iterator[ReadNumber]:
    taken: list[tuple[int, int]] = []
    if "a" in text:
        for m in _PART_OF_SCALE.finditer(text):
            taken.append((m.start(), m.end()))
            yield _part_of_scale(text, m)
    for m in _MULTIPLIER.finditer(text):
        number = None if any(a < m.end() and m.start() < b for a, b in taken) else \
            _ratio(text, m)
        if number is not None:
            taken.append((m.start(), m.end()))
            yield number
    for m in _SPELLED.finditer(text):
        if not any(a < m.end() and m.start() < b for a, b in taken):
            number = _spelled(text, m)
            if number is not None:
                yield number


def _ratio(text: str, m: re.Match[str]) -> ReadNumber | None:
    """A multiplier as the percent change it states, matched within TOLERANCE of its ratio."""
    _word, direction = _sign_word(text, m.start(), m.end())
    part = 0.0  # a part's own fraction, for its width below
    if m["verb"]:
        ratio = _VERB_RATIOS[m["verb"].lower()]
    elif m["part"]:
        part = _part(m["part"])
        if m["pverb"]:  # 'lost a quarter', 'up a third': the verb is the direction
            direction = -1 if m["pverb"].lower() in _FALLING_VERBS else 1
        if not direction or part >= 1 and direction < 0:
            return None  # 'a third of orders' is a share, not a change
        ratio = 1 - part if direction < 0 else 1 + part
    elif m["lpart"]:  # 'fell to a third of its level': the level's share, whatever the verb
        part = _part(m["lpart"])
        ratio = part
    elif m["lpct"]:  # 'fell to 84 % of its level': -16 %, to the precision written
        value = float(m["lpct"]) - 100
        hedge = " ".join((m["lhedge"] or "").lower().split())
        return ReadNumber(m.start(), m.end(), m.group(0), value, 0, 2, 1, "", True, False, "",
                          m.group(0), True, 0.5 * 10 ** -len(m["lpctd"] or ""), "", hedge,
                          _BOUNDS.get(hedge, ""))
    elif m["twice"]:
        ratio = 0.5 if direction < 0 else 2.0  # 'fell to half … twice': a fall halves
    elif m["adj"]:  # 'was double Brooklyn's', 'triple the previous week's': twice, thrice
        ratio = _ADJ_RATIOS[m["adj"].lower()]
    elif m["nhalf"]:  # 'one and a half times': the ratio, whatever follows
        ratio = float(_SMALL[m["nhalf"].lower()]) + 0.5
        ratio = 1 / ratio if direction < 0 else ratio
    else:
        count = m["fold"] or m["times"] or m["factor"] or m["ntimes"]
        times = float(count) if count[:1].isdigit() else float(
            {**_SMALL, **_TENS, "hundred": 100, "a hundred": 100}[" ".join(count.lower().split())])
        if times <= 0:
            return None
        ratio = 1 / times if direction < 0 else times
    value = (ratio - 1) * 100
    width = TOLERANCE * ratio * 100
    hedge = " ".join((m["phedge"] or m["lhedge"] or "").lower().split())  # 'by more than a third'
    if m["part"] or m["lpart"]:  # 'by a twentieth' is 5 %, not -14.5 % to +4.5 %: its own share
        width = min(width, PART_TOLERANCE * part * 100)  # hedged or not: 'roughly a third' too
    else:  # 'more than tripled', 'nearly doubled', 'roughly 3x': the hedge before the word
        hedge = _hedge_before(text, m.start())
        if hedge in _BOUNDS:  # up to the next whole multiple: 'more than tripled' is 3x to 4x
            width = 50.0 if ratio > 1 else 25.0 * ratio
        elif hedge in BELOW:  # 'nearly halved' is a fall of 40 % to 50 %, 'almost doubled' a
            # rise of 80 % to 100 %: short of the word by up to twice TOLERANCE of the change
            width = 2 * TOLERANCE * abs(ratio - 1) * 100
    return ReadNumber(m.start(), m.end(), m.group(0), value, 0, 2, 1, "", True, False, "",
                      m.group(0), True, width, "", hedge, _BOUNDS.get(hedge, ""))


def _spelled(text: str, m: re.Match[str]) -> ReadNumber | None:
    """A number spelled out with a scale word or a percent ('twelve thousand', 'five percent'),
    at the precision of its last scale word; a bare 'one' or 'two' is a count of things."""
    words = [w for w in re.split(r"[\s-]+", m.group(0)[:m.start("pct") - m.start()]
                                 if m["pct"] else m.group(0)) if w]
    words = [w.lower() for w in words]
    while words and words[-1] in ("and", "a"):
        words.pop()
    while words and words[0] == "and":
        words.pop(0)
    if not words or not (m["pct"] or any(w in _SCALES for w in words)):
        return None
    total = current = 0
    for w in words:
        if w in _SMALL:
            current += _SMALL[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "a":
            current = current or 1
        elif w == "hundred":
            current = (current or 1) * 100
        elif w in _SCALES:
            total += (current or 1) * _SCALES[w]
            current = 0
    value: Any = total + current
    unit = _SCALES.get(words[-1], 1)
    end = m.end()
    _w, direction = _sign_word(text, m.start(), end)
    if direction < 0:
        value = -value
    digits = len(str(abs(value) // unit).lstrip("0")) or 1
    return ReadNumber(m.start(), end, m.group(0), value, 0, digits, unit, "", bool(m["pct"]),
                      False, "", _w, True, 0, "")


def _key(number: ReadNumber) -> str:
    """The digits a question and an answer share: '12,573' and '12573' are the same number."""
    return _key_of(number.text)


_DIGITS = re.compile(r"[0-9][0-9,]*(?:\.[0-9]+)?|\.[0-9]+")


@lru_cache(maxsize=4096)
def _key_of(text: str) -> str:
    """`_key` of a number's text (found once per text: every claim of an answer asks)."""
    found = _DIGITS.search(text)
    return found.group(0).replace(",", "") if found else text.lower()


# ---------------------------------------------------------------------------------------------
# Signs carried by words

_FALLS = FALL | {"plunged", "plummeted", "tumbled", "sank", "slumped", "contracted", "loss",
                 "losses", "reduction", "fallen", "shrunk", "tanked", "shortened", "shortens"}
_RISES = RISE | {"soared", "rallied", "grown", "growth", "gain", "gains", "expanded", "risen",
                 "grows", "rebounded", "lengthened", "lengthens", "added"}
"""Words of motion before a number that make it a change: the audit's verbs of motion
(harness/audit/prose.py RISES, FALLS) but the multipliers ('doubled', 'halved'), which are
numbers of their own ('delays lengthened by about 8 minutes' is a change, never a level)."""
MOTION = frozenset(_RISES | _FALLS)
"""The words of motion before a number (a period's change), not the comparatives after one."""
_FALLS_AFTER = {"lower", "fewer", "less", "down", "drop", "decline", "decrease", "fall", "loss",
                "dip", "reduction", "below"}
_RISES_AFTER = {"higher", "more", "up", "rise", "increase", "gain", "growth", "jump", "above"}

# "fell 16.4%", "fell by 16.4%", "fell sharply by about 16.4%", "a drop of 16.4%", "was down ~16%";
# never "fell to 2.26" or "fell from 2.67": those are levels, not the change.
_SIGN_BEFORE = re.compile(r"\b([A-Za-z]+)(?:\s+[A-Za-z]+ly)?(?:\s+(?:by|of))?"
                          r"(?:\s+(?:about|around|roughly|nearly|almost|approximately|some|just|"
                          r"only|over|under|just\s+(?:over|under)|more\s+than|less\s+than|"
                          r"at\s+least|at\s+most|close\s+to)|\s*[~≈])?\s*$")
_WORD_AFTER = re.compile(r"\s*([A-Za-z]+)")
_WORD_BEFORE = re.compile(r"([A-Za-z]+)[\s-]*$")
# "broken down by 3 regions", "made up of 4 plans": a phrasal verb, not a move.
_PHRASAL = {"broken", "break", "breaks", "broke", "made", "make", "makes", "set", "sets",
            "signed", "sign", "signs", "rounded", "round", "split", "picked", "built", "narrowed"}


_MOVES = _FALLS | _RISES
_MOVES_AFTER = _FALLS_AFTER | _RISES_AFTER


def _sign_word(text: str, start: int, end: int) -> tuple[str, int]:
    """The word that gives the number at text[start:end] its direction, and that direction."""
    word = _move_before(text, start)
    if word.lower() in _MOVES:
        return word, -1 if word.lower() in _FALLS else 1
    after = _WORD_AFTER.match(text, end)
    word = after.group(1) if after else ""
    if word.lower() in _MOVES_AFTER:
        return word, -1 if word.lower() in _FALLS_AFTER else 1
    return "", 0


_BEFORE_WORDS = _MOVES | {"by", "of", "about", "around", "roughly", "nearly", "almost",
                          "approximately", "some", "just", "only", "over", "under", "than",
                          "least", "most", "to"}


def _move_before(text: str, start: int) -> str:
    """The verb or noun of change the number at `start` follows ('fell', 'drop'), or ''."""
    offset = max(0, start - 60)
    tail = text[offset:start].rstrip()
    last = tail.rsplit(None, 1)[-1].lower() if tail else ""
    if last not in _BEFORE_WORDS and not last.endswith(("ly", "~", "≈")):
        return ""  # the common case, without the regex: no move word right before the number
    before = fit(_SIGN_BEFORE, text).search(text[offset:start])  # a plain text's part is plain
    if before is None:
        return ""
    phrasal = fit(_WORD_BEFORE, text).search(
        text[max(0, offset + before.start(1) - 40):offset + before.start(1)])
    if phrasal and phrasal.group(1).lower() in _PHRASAL:
        return ""
    return before.group(1)


# ---------------------------------------------------------------------------------------------
# Masks: spans whose digits are never a claim

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_DAY = r"[0-9]{1,2}(?![0-9]|[.,][0-9])(?:st|nd|rd|th)?"
_DAYS = rf"{_DAY}(?:\s*(?:[-–—]|to|until|through|and)\s*{_DAY})?"
_YEAR = r"(?:,?\s+[0-9]{4}(?![0-9]))?"

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
"""What every match of `_MONTH` holds, in lower case."""

_MASKED: tuple[tuple[tuple[str, ...], str], ...] = (
    # (what every match holds one of, in lower case, or () where nothing is sure; the pattern)
    # citations, with selectors that may hold dates or quoted members: r4[product="x 2"]:revenue.value
    (tuple(f"r{d}" for d in "0123456789"),  # an 'r' and a digit: most texts cite none
     r"(?<![\w])r[0-9]+(?:\[(?:\"(?:[^\"\\]|\\.)*\"|[^\]\"])*\])?(?::[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)?"),
    (("tree:",), r"\btree:[\w>]+"),
    # identifiers holding a digit or an underscore: c2, p90, W11, Q2, FY2026, top_3, v1.2
    ((), r"(?<![\w])[A-Za-z_]\w*?[0-9_]\w*(?:\.[0-9]+)*"),
    (("-",), r"(?<![\w])[A-Za-z]+-[0-9]+"),
    # ISO dates, months, weeks and quarters: 2026-03-09, 2026-03, 2026-W16, 2026-Q2
    (("-",), r"(?<![\w])[0-9]{4}-(?:W[0-9]{1,2}(?:-[0-9])?|Q[1-4]|[0-9]{1,2}(?:-[0-9]{1,2})?)(?![0-9])"),
    (("/",), r"(?<![\w.])[0-9]{1,4}/[0-9]{1,2}(?:/[0-9]{1,4})?(?![0-9])"),
    # dates as people write them: 07/2019, Feb. '13, July ’13
    (("/",), r"(?<![\w.])[0-9]{1,2}/[0-9]{4}(?![0-9])"),
    (("'", "’"), rf"\b{_MONTH}\s*['’][0-9]{{2}}(?![0-9])"),
    # written dates: April 13, April 13–19, April 13, 2026, March 2019, 13 April, 13th of April
    (_MONTHS, rf"\b{_MONTH}\s+(?:[0-9]{{4}}(?![0-9])|{_DAYS}{_YEAR})"),
    (_MONTHS, rf"(?<![\w.,]){_DAYS}\s+(?:of\s+)?{_MONTH}{_YEAR}"),
    # numbered periods: week 11, weeks 10–11, day 7, quarter 2, year 2019, FY 2026
    (("week", "wk", "day", "month", "quarter", "period", "year", "fy", "fiscal"),
     r"\b(?:iso\s+)?(?:week|wk|day|month|quarter|period|year|fy|fiscal(?:\s+year)?)s?\s*"
     r"[0-9]{1,4}(?![0-9]|[.,][0-9])(?:\s*(?:[-–—]|and|to|through)\s*[0-9]{1,4}(?![0-9]))?"),
    # time of day: 10:30, 9 am, 5 p.m.
    ((":",), r"(?<![\w])[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?:\s?[ap]\.?m\b\.?)?"),
    (("am", "pm", "a.m", "p.m"), r"(?<![\w])[0-9]{1,2}\s?[ap]\.?m\b\.?"),
    # versions, ranks and list markers: 1.2.3, #1, No. 1, "1. Brooklyn", (2)
    ((".",), r"(?<![\w.])v?[0-9]+(?:\.[0-9]+){2,}"),
    (("#",), r"#\s?[0-9]+"),
    (("no.",), r"\bno\.\s?[0-9]+"),
    ((".", ")"), r"(?m)^[ \t]*(?:[-*+][ \t]+)?[0-9]{1,3}[.)](?=\s)"),
    (("(",), r"\([0-9]{1,2}\)"),
)
MASKS: tuple[re.Pattern[str], ...] = tuple(re.compile(p, re.IGNORECASE) for _n, p in _MASKED)
_MASK_NEEDS = tuple((mask, frozenset(needs)) for mask, (needs, _p)
                    in zip(MASKS, _MASKED, strict=True))
"""Each mask with what its matches hold one of: a text holding none of them is not searched
for it (most texts hold no '/', ':', '#' or '(', no month and no time of day)."""
_MASK_WORDS = frozenset(w for _mask, needs in _MASK_NEEDS for w in needs)
_IDENTIFIER = MASKS[2]
"""The identifiers' mask ('c2', 'FY2026', 'top_3'), which no string prefilters: each match
holds an underscore, or a digit right after a word character that is no digit (the first
digit after the identifier's letter), so a text with neither (`_LETTER_DIGIT`) is not searched
for it."""
_LETTER_DIGIT = re.compile(r"[^\W0-9][0-9]")


def _masked_spans(text: str) -> list[tuple[int, int]]:
    # the text lowered as IGNORECASE compares ('ſ' an 's', Kelvin's 'K' a 'k': as
    # _words.may_hold)
    low = lowered(text)
    held = frozenset(w for w in _MASK_WORDS if w in low)
    named = "_" in text or _LETTER_DIGIT.search(text) is not None  # may hold an identifier
    # each mask searched with its ASCII twin where the text is plain (the same spans, found
    # faster), and only where a match may start (`scan`)
    return [m.span() for mask, needs in _MASK_NEEDS
            if (not needs or not held.isdisjoint(needs)) and (named or mask is not _IDENTIFIER)
            for m in scan(mask, text)]


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in spans)


# ---------------------------------------------------------------------------------------------
# Context rules: numbers that are written plainly but count ranks, list items or periods

_RANKS = {"top", "bottom", "first", "last", "past", "next", "previous", "prior", "rank",
          "ranked", "ranking", "number", "position", "place", "every"}
_PERIODS = {"day", "days", "week", "weeks", "wk", "wks", "month", "months", "mo", "quarter",
            "quarters", "year", "years", "yr", "yrs", "hour", "hours", "minute", "minutes",
            "weekend", "weekends", "period", "periods", "night", "nights"}
_SUPERLATIVES = {"largest", "biggest", "highest", "lowest", "smallest", "best", "worst", "most",
                 "least", "leading", "strongest", "weakest", "fastest", "slowest", "greatest",
                 "top", "bottom"}
# Words that make the number after them a stated value: "was 3", "reached 2019".
_VALUE_CUES = {"was", "were", "is", "are", "be", "been", "reached", "hit", "totaled", "totalled",
               "totals", "averaged", "equals", "equalled", "equaled", "at", "had", "has", "have",
               "recorded", "sold", "saw", "took", "made", "earned", "generated", "booked",
               "logged", "posted", "registered", "received", "flew", "shipped", "served",
               "processed", "got", "handled", "carried", "drew", "attracted"}
"""Verbs that state the number after them (or after its bound) as the subject's value: 'had',
'sold', 'took 2,093 orders', 'earned $32,255.50', 'flew fewer than 40 flights'. None says a
direction or a size: a number after one is held to a cited value like any other."""
_DURATION_CUES = (_VALUE_CUES - {"at", "had", "has", "have", "saw"}) | {"by", "averaging"}
"""Words before a count of periods that make it a duration stated as a value ('was 10 minutes',
'by 5 days'); not 'had 7 days' or 'at 3 weeks', which count the periods."""


def _word_before(text: str, number: ReadNumber) -> str:
    found = fit(_WORD_BEFORE, text).search(text[max(0, number.start - 40):number.start])
    return found.group(1).lower() if found else ""


def _word_after(text: str, number: ReadNumber) -> str:
    found = _WORD_AFTER.match(text, number.end)
    return found.group(1) if found else ""


def _bare(number: ReadNumber) -> bool:
    """Digits only: no sign, separator, point, scale, % or currency."""
    return number.text.isdigit()


def _ranked(text: str, number: ReadNumber) -> bool:
    """'top 3', 'last 8', 'every 2': a rank or a count of what follows."""
    return _bare(number) and _word_before(text, number) in _RANKS


def _per(text: str, number: ReadNumber) -> bool:
    """'per 1,000 users': a normaliser, not a measurement."""
    return not number.percent and _word_before(text, number) == "per"


def _counts_periods(text: str, number: ReadNumber) -> bool:
    """'8 weeks', '7 days': a window's length, not a measurement, unless a verb states it as a
    value or a move gives its size ('the delay was 10 minutes', 'averaged 12 days', 'later by
    5 minutes'): a duration in the metric's units."""
    return _bare(number) and _word_after(text, number).lower() in _PERIODS and not _duration(
        text, number)


def _duration(text: str, number: ReadNumber) -> bool:
    """A count of periods a verb states as a value, a move gives as its size or its end ('was
    10 minutes', 'by 5 days', '9 minutes longer', 'rose 60.5 % to 28 minutes'): a duration in
    the metric's units, which no rule here skips."""
    after = _WORD_PERIOD_AFTER.match(text, number.end)
    if after is None or after.group(1).lower() not in _PERIODS:
        return False
    # the word before a hedge of approximation ('rose by about 12 minutes'); a bound's ('averaged
    # over 20 minutes') is not: 'over 20' states 20 to 21, and a count of members past a bound
    # ('two of the three averaged over 20 minutes') is no value
    before = (number.hedge in APPROXIMATE and _word_before_bound(text, number)) \
        or _word_before(text, number)
    if number.hedge and number.hedge not in APPROXIMATE and \
            _word_before_bound(text, number) in _BEING:
        return True  # 'was just under 13 minutes': a bound stated as the subject's value
    return (before in _DURATION_CUES or (after.group(2) or "").lower() in _DURATION_AFTER
            or before in ("to", "from") and _MOVED_TO.search(text, 0, number.start) is not None
            or _COMPOUND_BEFORE.search(text, max(0, number.start - 30), number.start) is not None)


_BEING = frozenset({"was", "were", "is", "are", "be", "been"})
"""Before a bound on a count of periods, the verbs that state it as the subject's value ('was
just under 13 minutes'); 'averaged over 20 minutes' may count members past a bound ('two of the
three averaged over 20 minutes'), so it stays a bound on no value."""
_COMPOUND_BEFORE = re.compile(r"(?i)\d\s*(?:h|hrs?|hours?|min|mins|minutes?|days?)\s*(?:,\s*|and\s+)?$")
"""The minutes of '10 hours and 17 minutes', '10 h 17 min': a duration's second part
(`_compound_durations` makes the two one number when the second unit is the smaller)."""


_WORD_PERIOD_AFTER = re.compile(r"\s*([A-Za-z]+)(?:\s+([A-Za-z]+))?")
_DURATION_AFTER = frozenset({"longer", "shorter", "later", "earlier", "more", "less", "fewer",
                             "higher", "lower", "slower", "faster"})
"""Words after a count of periods that make it a move's size ('9 minutes longer')."""
_MOVED_TO = re.compile(r"(?i)\b(?:rose|fell|grew|increased|decreased|climbed|dropped|jumped|"
                       r"declined|slipped|dipped|moved|went\s+(?:up|down)|lengthened|shortened)"
                       r"\b(?:[^.;:]|\.(?=\d))*?\b(?:to|from)\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|"
                       r"almost\s+|just\s+(?:over|under)\s+|over\s+|under\s+)?$")
"""A move's end or start before a count of periods ('rose 60.5 % to 28 minutes', 'fell from
41 minutes'): the level it moved to or from."""


def _before_superlative(text: str, number: ReadNumber) -> bool:
    """'the 2 largest': how many were ranked."""
    return _bare(number) and _word_after(text, number).lower() in _SUPERLATIVES


def _year(text: str, number: ReadNumber) -> bool:
    """A year standing alone as a period ('in 2026', 'Q2 2019'), unless a verb states it as a value."""
    return (_bare(number) and len(number.text) == 4 and 1900 <= number.value <= 2100
            and _word_before(text, number) not in _VALUE_CUES)


def _list_count(text: str, number: ReadNumber) -> bool:
    """'3 products', 'across 4 channels': a small count of listed things, unless stated as a
    value ('had 10 transactions', and through a bound: 'had at least 10 transactions') or as
    a part of a whole ('15 of 49')."""
    after = _word_after(text, number)
    return (_bare(number) and number.value <= 20 and after[:1].islower()
            and after not in _UNIT_AFTER
            and not number.sign_word and _word_before(text, number) not in _VALUE_CUES
            and not (number.bound and _word_before_bound(text, number) in _VALUE_CUES)
            and not _OF_NUMBER.match(text, number.end)
            and not _part_of_them(text, number)
            and not _duration(text, number))


_OF_THEM = re.compile(r"\s+of\s+(?:them|these|those)\b")
_COUNTING = frozenset({"all", "the", "both", "each", "every"})


def _part_of_them(text: str, number: ReadNumber) -> bool:
    """'…had 17.8 % of transactions: 8 of them': a part of the whole just named, stated as a
    value as '15 of 49' is; 'all 8 of them' counts what is listed, and stays a count."""
    return _OF_THEM.match(text, number.end) is not None and \
        _word_before(text, number) not in _COUNTING


_OF_NUMBER = re.compile(r"\s+of\s+[0-9]")
"""'15 of 49': a part of a whole written as two values, not a count of listed things."""


def _word_before_bound(text: str, number: ReadNumber) -> str:
    """The word before a bound's words ('had' of 'had at least 10'), lower-cased."""
    before = text[:number.start].rstrip()
    hedge = number.hedge.lower()
    if not hedge or not before.lower().endswith(hedge):
        return ""
    found = _WORD_BEFORE.search(before[:len(before) - len(hedge)].rstrip()[-40:])
    return found.group(1).lower() if found else ""


_UNIT_AFTER = frozenset({"min", "mins", "miles", "mile", "mi", "inches", "inch", "mph", "km",
                         "kilometres", "kilometers", "degrees"})
"""Units a value is written in ('LGA 19 min'): the number before one is a value, never a
count of listed things."""

NOT_CLAIMS = (_ranked, _per, _counts_periods, _before_superlative, _year, _list_count)
"""Context rules, each (text, number) → True when the number is not a claim."""


def longest_run(values: Sequence[Any], direction: int) -> int:
    """The most consecutive moves in `direction` (1 up, -1 down) of a series in period order:
    what 'rose for the third week in a row' states (the audit and its adversary).

    >>> longest_run([1, 2, 3, 2, 3], 1), longest_run([1, 2, 3, 2, 3], -1)
    (2, 1)
    """
    best = run = 0
    for a, b in zip(values, values[1:], strict=False):
        run = run + 1 if (b - a) * direction > 0 else 0
        best = max(best, run)
    return best
