"""Every number the user reads is checked: a measurement claim's text against what it cites, and
the answer's prose, headline value and listed values against what the claims state and cite.

Numbers are read by protocol/numbers.py (one reader for the audit, the repair messages and the
fault simulator). A number that is not a claim (a date, a period, a rank, the question's own
numbers, a member named beside its dimension's words: "number of engines 2") is never read.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from showwork.harness.audit.context import AnswerContext, Cited, ClaimContext
from showwork.harness.audit.counts import (
    Count,
    Run,
    cited_series,
    read_counts,
    read_runs,
)
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Defect
from showwork.protocol.answer import Listed
from showwork.protocol.citations import GRAIN_KEYS, period_start
from showwork.protocol.numbers import (
    _VALUE_CUES,
    APPROXIMATE,
    CURRENCIES,
    TIME_UNITS,
    Kind,
    ReadNumber,
    bound_reach,
    claims_in,
    from_value,
    in_measure_unit,
    in_time_unit,
    longest_run,
    matches,
    measure_unit_after,
    near,
    say,
    share_parts,
    target,
    unsupported,
)
from showwork.protocol.reading import find_mentions
from showwork.protocol.reading.asks import FALL, RISE
from showwork.semantic_layer.results import Row


# Not frozen only for speed: built per claim by every audit (a frozen __init__ costs ~5×).
@dataclass(slots=True)
class Support:
    """A value the user may read a number as: a cited field, or a claim's stated value."""

    value: int | float
    kind: Kind
    where: str
    """What says it: a citation (r1:active_users.value) or a claim's value (c3's value)."""
    source: Cited | None = field(default=None, compare=False)
    """The resolved citation it comes from (a claim's value: the claim's first), when one
    resolved: which metric and row the value is of, for the prose's checks."""
    money: str = ""
    """The currency of the value (its metric's `unit:`, 'usd'); '-' when it is declared not
    money (a count, a rate, a percent change); '' when not known (any currency may state it)."""
    change: bool = False
    """A signed change (delta, pct_change): its size may be written unsigned."""
    unsigned: bool = False
    """The size of a negative change (`Supports` adds one per change): only a number written
    without a sign or a word of direction states it."""
    derived: bool = False
    """Not a cited field but the difference of two (`_difference`): words may state it ('rose by
    about $4,000'); the headline and the listed values, which are the cited fields themselves,
    may not."""
    percent: int | float | None = field(init=False, default=None, compare=False)
    """What a number written with % must equal or lie near to state it (`target`); None when
    no such number can (a count)."""
    moved: bool = field(init=False, default=True, compare=False)
    """A change a number written as a move ('fell 16 %', 'a drop of 0.45', '2 % lower') may
    state: a delta, a pct_change, a factor's contribution (or a value of unknown field). A
    level, a share or a share of the total is no move: 'rose 17.4 %' of a 17.4 % share, or
    'rose 2,616' of a month's orders, states no cited value."""

    # Written out, not generated: compiled, a dataclass's generated __init__ still runs as Python
    # (several per claim); this one is native. The same fields and defaults as declared above.
    def __init__(self, value: int | float, kind: Kind, where: str, source: Cited | None = None,
                 money: str = "", change: bool = False, unsigned: bool = False,
                 derived: bool = False) -> None:
        self.value = value
        self.derived = derived
        self.kind = kind
        self.where = where
        self.source = source
        self.money = money
        self.change = change
        self.unsigned = unsigned
        # target(value, kind, True), without the call for the common kinds
        self.percent = (value if kind == "percent" else None if kind == "number"
                        else target(value, kind, True))
        self.moved = change or source is None or source.citation.field == "contribution"


def kind_of(field: str, metric: str, catalog: dict[str, Any]) -> Kind:
    """Percent fields are percent units; a fraction metric's levels are fractions."""
    return _kind(field, _unit(field, metric, catalog))


def money_of(field: str, metric: str, catalog: dict[str, Any]) -> str:
    """A field's currency (see Support.money): a level's is its metric's unit when money."""
    return _money(field, _unit(field, metric, catalog))


CHANGE_FIELDS = ("delta", "pct_change")
_UNITLESS = ("pct_change", "share", "share_of_total")
"""Fields whose units are their own (percent, a fraction of the total), not their metric's."""


def _unit(field: str, metric: str, catalog: dict[str, Any]) -> Any:
    """The metric's `unit:` when the field is in it (None for a field of its own units); with
    no governed unit, the currency the catalog reads from its columns' names (`currency`: a
    sum of 'amount_usd' is in usd, so '€831.6' states none of its values)."""
    if field in _UNITLESS:
        return None
    entry = (catalog.get("metrics") or {}).get(metric, {})
    return entry.get("unit") or entry.get("currency")


def _kind(field: str, unit: Any) -> Kind:
    if field in ("pct_change", "share"):
        return "percent"
    if field == "share_of_total":
        return "fraction"  # a row's share of its total, 0.42 for 42 %
    return "fraction" if unit == "fraction" else "number"


def _money(field: str, unit: Any) -> str:
    if field in _UNITLESS:
        return "-"
    if field == "contribution":
        return ""  # in the parent's units, which the factor does not say
    return "" if not unit else unit if unit in CURRENCIES else "-"


def money_ok(number: ReadNumber, support: Support) -> bool:
    """A number written in a currency states only a value of that currency (or of one not
    known); cents state any currency's value."""
    return money_fits(number, support.money)


def money_fits(number: ReadNumber, money: str) -> bool:
    """Whether `number`'s currency can state a value of `money` (Support.money: a currency,
    '-' for no money, '' for not known). '¥' is the yen's sign and the yuan's."""
    return not number.money or not money or (money != "-" and (
        number.money in (money, "cents") or (number.currency == "¥" and money == "cny")))


def cited_supports(cited: Iterable[Cited], catalog: dict[str, Any]) -> list[Support]:
    out = []
    ends: dict[tuple[int, str], list[Cited]] = {}
    for c in cited:
        if numeric(c.value):
            field = c.citation.field
            unit = _unit(field, c.metric, catalog)  # looked up once for its kind and money
            out.append(Support(c.value, _kind(field, unit), c.text, c, _money(field, unit),
                               field in CHANGE_FIELDS))
            if field in _ENDS:
                ends.setdefault((id(c.row), c.citation.metric), []).append(c)
    for pair in ends.values():
        out.extend(_difference(pair, catalog))
    return out


_ENDS = ("value", "previous")
"""A comparison's two ends: cited together, their difference is cited too."""


def _difference(pair: list[Cited], catalog: dict[str, Any]) -> list[Support]:
    """The change between a comparison's two cited ends ('rose by about $4,000', 'fell 37
    percentage points' of 39.6 % → 1.9 %): the row's `delta`, which is `value − previous`, a
    number derived from two cited values as 'N times' is (times.py), or the difference of the
    ends as a text writes them (`_of_rounded_ends`). Only where both ends are cited and the
    delta itself is not."""
    fields = {c.citation.field for c in pair}
    if fields != set(_ENDS):
        return []
    end = next(c for c in pair if c.citation.field == "value")
    delta = (end.row.values.get(end.citation.metric) or {}).get("delta")
    if not isinstance(delta, (int, float)) or isinstance(delta, bool):
        return []
    unit = _unit("delta", end.metric, catalog)
    previous = next(c for c in pair if c.citation.field == "previous")
    kind = _kind("delta", unit)
    return [Support(d, kind, f"{end.text} − {previous.text}", end, _money("delta", unit), True,
                    derived=True)
            for d in _of_rounded_ends(delta, end.value, previous.value, kind)]


def _of_rounded_ends(delta: int | float, now: Any, before: Any, kind: str) -> list[int | float]:
    """The delta, and the differences of the two ends rounded as a text writes them beside it
    (13.0 min → 20.8 min, '7.8 minutes longer' of 20.85 − 12.99 = 7.86): to whole units, one
    and two decimals (of a rate, of its percent), each at a precision whose unit is at most a
    tenth of the delta, so no far number is taken for it ('about 1 day' of 2.80 → 2.35 days is
    no whole-day rounding of a 0.45 fall)."""
    if not (numeric(now) and numeric(before)):
        return [delta]
    scale = 100 if kind == "fraction" else 1
    out: list[int | float] = [delta]
    for places in (0, 1, 2):
        if 10.0 ** -places > abs(delta) * scale / 10:
            continue
        d = (round(now * scale, places) - round(before * scale, places)) / scale
        if all(abs(d - x) > 1e-12 for x in out):
            out.append(d)
    return out


def claim_supports(ctx: ClaimContext) -> list[Support]:
    """The claim's cited fields as supports, found once per claim (its text, the prose, the
    headline and the listed values are all held to them)."""
    return _claim_values(ctx)[0]


def _claim_values(ctx: ClaimContext) -> tuple[list[Support], Support | None]:
    """The claim's cited fields and its stated value as supports, found once per claim."""
    if ctx.value_supports is None:
        catalog = ctx.catalog
        cited = cited_supports(ctx.cited, catalog)
        ctx.value_supports = (cited, _stated(ctx, catalog, cited))
    return ctx.value_supports


def numeric(value: Any) -> bool:
    """A number a value field may hold: an int or a float, never a bool."""
    # a tuple, not `int | float`: no union is built on every call
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Supports:
    """Supports, and whether a number states one of them.

    It answers as `any(matches(number, s.value, s.kind) for s in items)` does, cheaper: what a
    number states is found once per number (the prose's numbers are asked about by several
    checks); a few supports (a claim's own) are scanned, each held to the number only when its
    target lies within the number's reach; many (the whole answer's) are indexed on first use,
    for numbers written with % and without apart, by target in order, so a number is held to
    the tolerance of only the supports whose targets lie within its reach.

    >>> supported = Supports([Support(-16.44, "percent", "r1"), Support(0.42, "fraction", "r2")])
    >>> from showwork.protocol.numbers import read_numbers
    >>> [supported(n) for n in read_numbers("fell 16.4%, 42%, 0.42, 42, -16 and -17")]
    [True, True, True, False, True, False]
    """

    __slots__ = ("items", "given", "few", "_targets", "_stating")
    FEW: ClassVar[int] = 6
    """Up to this many supports a scan is cheaper than an index."""

    def __init__(self, items: Iterable[Support]) -> None:
        given = tuple(items)
        sizes = _sizes(given)
        # what a signed number may state
        self.given = tuple(s for s in given if not s.unsigned) if any(
            s.unsigned for s in given) else given
        self.items = given + tuple(sizes) if sizes else given
        self.few = len(given) <= self.FEW  # the sizes at most double it: a scan is still cheap
        self._targets: list[_Targets | None] = [None, None, None]
        # id(number) → (number, what it states): kept while the number is (checked with `is`)
        self._stating: dict[int, tuple[ReadNumber, list[Support]]] = {}

    def __len__(self) -> int:
        return len(self.items)

    def __call__(self, number: ReadNumber) -> bool:
        return bool(self.matching(number))

    def matching(self, number: ReadNumber) -> list[Support]:
        """The supports `number` states, in order (which citations say it), found once per
        number."""
        known = self._stating.get(id(number))
        if known is not None and known[0] is number:
            return known[1]
        if self.few:
            out = [s for s in _scan(number, self.items) if _fits(number, s)]
        else:
            found = self._index(number).stating(number)
            out = [self.items[i] for i in found if _fits(number, self.items[i])] \
                if found else []
        self._stating[id(number)] = (number, out)
        return out

    def _index(self, number: ReadNumber) -> _Targets:
        written = int(number.percent) + int(number.points)  # plain, percent, percentage points
        targets = self._targets[written]
        if targets is None:
            targets = self._targets[written] = _Targets(self.items, number.percent,
                                                        number.points)
        return targets


def _sizes(supports: Iterable[Support]) -> list[Support]:
    """The size of each negative change, written without a sign ("a change of 15.99
    percent"): only a number written without a sign or a word of direction states it."""
    return [Support(-s.value, s.kind, s.where, s.source, s.money, True, True, s.derived)
            for s in supports if s.change and s.value < 0]


def stated_by(number: ReadNumber, supports: Sequence[Support]) -> bool:
    """Whether the number states one of a few supports (or a negative change's size), as
    `Supports(supports)(number)` says, without building one: a claim's own numbers are each
    asked about once."""
    if _fitting(number, _scan(number, supports)):
        return True
    if number.signed:
        return False  # a size is stated only unsigned
    sizes = _sizes(supports)
    return bool(sizes) and _fitting(number, _scan(number, sizes))


def _fitting(number: ReadNumber, matched: list[Support]) -> bool:
    """Some support the number's value matched fits it too (`_fits`)."""
    for s in matched:  # noqa: SIM110 - a loop, not any(): no generator per number
        if _fits(number, s):
            return True
    return False


def _reach(number: ReadNumber) -> float:
    """How far from the number a target may lie and still be near it: wider than `near`'s
    tolerance (half a unit, plus 1e-12 of the target; a hedge's band; a range's span), for
    candidates only."""
    half = 0.5 * number.unit
    if number.upto is not None:
        half += abs(number.upto - number.value)
    elif number.hedge in APPROXIMATE:
        half = max(half, APPROXIMATE[number.hedge] * abs(number.value))
    elif number.bound:
        half = max(half, bound_reach(number))
    return half * (1 + 1e-9) + 1e-9 * (1 + abs(number.at))


def _scan(number: ReadNumber, supports: Sequence[Support]) -> list[Support]:
    """The supports whose target the number equals, or lies near when written rounded
    (`_states` of each, the tolerance asked only of the targets within its reach, and once of
    a target the support before had too: a claim's value and the field it cites)."""
    percent, points = number.percent, number.points
    value, at = number.value, number.at
    exact, rounded = not number.bound, number.rounded
    reach = _reach(number) if rounded else 0.0
    out = []
    last: int | float | None = None
    said = False
    for s in supports:
        if not percent:
            t = s.value
        elif points and s.kind != "fraction":
            continue
        else:
            found = s.percent
            if found is None:
                continue
            t = found
        # the same target, of the same type (an int and a float that are equal can differ
        # in their distance to a huge int)
        if last is None or t != last or type(t) is not type(last):
            said = exact and value == t or rounded and abs(at - t) <= reach and near(number, t)
            last = t
        if said:
            out.append(s)
    return out


def _fits(number: ReadNumber, support: Support) -> bool:
    """The number's currency and sign allow it to state the support (its value matched); a
    part of a whole states a fraction-unit level only (a share of the total); a multiplier
    word ('doubled', '2x') states a percent change only, never a share; a number
    written as a move states a change only (`moved`), in its units (`moves_as`)."""
    if number.share:  # a part of a whole: a share of the total, never a change
        return support.kind == "fraction" and not support.change
    return money_ok(number, support) and not (support.unsigned and number.signed) and not (
        number.width and not (support.change and support.kind == "percent")) and (
        not number.sign_word or moves_as(number, support))


def moves_as(number: ReadNumber, support: Support) -> bool:
    """A number written as a move ('fell by 6.33', 'rose 37.7 %') states a change in the units
    it is written in: without %, a delta (in the metric's units), never a percent change ('fell
    by 6.33' of -6.33 % reads as 6.33 units); with % (not points), a percent change, never a
    rate's delta (a rate that went from 39.6 % to 1.9 % fell 37.7 points, not 37.7 %). The
    honest 'the percent change was -16.44' states no move and is held to the value alone."""
    if not support.moved:
        return False
    if number.width or number.points:
        return True
    if number.percent:
        return not (support.change and support.kind == "fraction")
    return support.kind != "percent"


def states(number: ReadNumber, supports: Sequence[Support]) -> bool:
    """Whether the number states one of `supports` by value (`matches` over each, with its
    targets found once), its currency, sign and words not asked."""
    return bool(_scan(number, supports))


class _Targets:
    """What numbers written one way (plain, %, or percentage points) must equal to match each
    support: the finite targets in order, with the supports' positions, for a rounded number's
    look-up; and, built when an exact number (a JSON value) first asks, the positions by
    target."""

    __slots__ = ("pairs", "exact", "near", "positions")

    def __init__(self, supports: tuple[Support, ...], percent: bool, points: bool) -> None:
        # without %, every kind's target is its value; with %, a count's is none; in
        # percentage points, only a fraction's is one
        self.pairs = ([(s.percent, i) for i, s in enumerate(supports) if s.percent is not None
                       and (s.kind == "fraction" or not points)]
                      if percent else [(s.value, i) for i, s in enumerate(supports)])
        self.exact: dict[int | float, list[int]] | None = None
        ordered = sorted([p for p in self.pairs if p[0] == p[0] and abs(p[0]) != _INF])
        self.near = [t for t, _ in ordered]
        self.positions = [i for _, i in ordered]

    def stating(self, number: ReadNumber) -> list[int]:
        """The positions, in order, of the supports the number states: its target equal, or
        near when written rounded. A rounded number is finite and its own target is near it,
        so the finite targets in its reach hold every one it states; a target several
        supports have (a claim's value and the field it cites) is asked once."""
        if number.rounded:
            at = number.at
            reach = _reach(number)
            targets = self.near
            lo = bisect_left(targets, at - reach)
            hi = bisect_right(targets, at + reach, lo)
            out: list[int] = []
            last: int | float | None = None
            said = False
            for k in range(lo, hi):
                t = targets[k]
                if last is None or t != last or type(t) is not type(last):  # see `_scan`
                    said = near(number, t)
                    last = t
                if said:
                    out.append(self.positions[k])
            return sorted(out) if len(out) > 1 else out
        if number.bound:
            return []
        if self.exact is None:
            self.exact = {}
            for t, i in self.pairs:
                self.exact.setdefault(t, []).append(i)
        return self.exact.get(number.value, [])


_INF = float("inf")


def _nearest(number: ReadNumber, supports: Iterable[Support]) -> Support | None:
    return min(supports, key=lambda s: abs(s.value - number.value), default=None)


def _read(ctx: ClaimContext | AnswerContext, text: str) -> tuple[ReadNumber, ...]:
    return read_stated(ctx, text)


def read_stated(ctx: ClaimContext | AnswerContext, text: str) -> tuple[ReadNumber, ...]:
    """The text's claims (`read_claims`), a number written in another unit of what a cited
    metric measures converted to that metric's unit ('22 centimetres' of rain governed in
    inches, '1.9 °C' of a temperature in °F)."""
    index = ctx.index_
    numbers = _as_points(ctx, text, read_claims(index, text))
    if not numbers or not index.read("measured", text, lambda t: any(
            measure_unit_after(t, n) for n in read_claims(index, t))):
        return numbers  # the common case, known once per text: no unit of measure written
    return in_measure_unit(text, numbers, cited_units(ctx))


def _move_in_points(text: str, n: ReadNumber) -> bool:
    return bool(n.sign_word) and not n.percent and POINTS.match(text, n.end) is not None


POINTS = re.compile(r"(?i)\s*(?:percentage\s+points?|points?|pts?|pp)\b")
"""The words of percentage points after a number, 'points' alone included."""


def _as_points(ctx: ClaimContext | AnswerContext, text: str, numbers: tuple[ReadNumber, ...]
               ) -> tuple[ReadNumber, ...]:
    """'a drop of 37.7 points' of a cited rate (39.6 % → 1.9 %): a move in percentage points,
    held to a rate's changes × 100 as 'fell 37.7 pp' is (its words the number's), where some
    cited metric is a fraction. Only a move ('drop', 'fell', 'up'): 'N points above JFK's' is
    a gap between members (gaps.py), and a bare 'N points' no rate's level; of anything else
    'points' stays a word no reading holds."""
    if not any(_move_in_points(text, n) for n in numbers) or "fraction" not in cited_units(ctx):
        return numbers
    out = []
    for n in numbers:
        words = POINTS.match(text, n.end) if _move_in_points(text, n) else None
        out.append(n if words is None else replace(
            n, percent=True, points=True, end=words.end(), text=text[n.start:words.end()]))
    return tuple(out)


def cited_units(ctx: ClaimContext | AnswerContext) -> set[str]:
    """The units the catalog governs the cited metrics in: a claim's own citations (an
    argument's, every claim's), or every claim's for the answer."""
    cited = ctx.cited if isinstance(ctx, ClaimContext) else []
    if not cited:
        claims = ctx.answer_claims if isinstance(ctx, ClaimContext) else ctx.claims
        cited = [c for claim in claims for c in claim.cited]
    metrics = ctx.index_.catalog.get("metrics") or {}
    return {unit for c in cited if (unit := (metrics.get(c.metric) or {}).get("unit"))}


def read_claims(index: CatalogIndex, text: str) -> tuple[ReadNumber, ...]:
    """The numbers of a text that are claims, read once per catalog index for each text: texts
    repeat across the repeats and configurations of a run. A number that names a member beside
    its dimension's words ("number of engines 2", "departure hour 5") is the member, not a
    claim."""
    return index.read("numbers", text, lambda t: _claims_of(index, t))


def _claims_of(index: CatalogIndex, text: str) -> tuple[ReadNumber, ...]:
    written = index.read("claims_in", text, claims_in)  # shared with findings._ends
    numbers = _unjudged(in_time_unit(text, written, index.derive("time unit", time_unit)))
    shares = _shares(index, text, numbers)
    if shares:
        numbers = tuple(sorted((*numbers, *shares), key=lambda n: n.start))
    counts = read_counts(index, text) if numbers else ()
    if counts:  # a count of cited rows is held to what they count (`check_counts`)
        starts = {c.start for c in counts}
        numbers = tuple(n for n in numbers if n.start not in starts)
    if not any(n.text.isdigit() for n in numbers):
        return numbers  # the common case: a member read as a number is bare digits
    spans = [m.span for m in index.read("mentions", text, lambda t: find_mentions(t, index.catalog))
             if m.kind == "member"]
    return tuple(n for n in numbers if not (n.text.isdigit() and any(
        a <= n.start and n.end <= b for a, b in spans))) if spans else numbers


_JUDGING = frozenset({"better", "worse"})


def _unjudged(numbers: tuple[ReadNumber, ...]) -> tuple[ReadNumber, ...]:
    """'got worse by 79.2 %' states the change's size: 'worse' says which way it went only
    under the metric's polarity (prose.py `judged`, held by the direction checks), so the
    number reads unsigned, not as a fall."""
    if not any(n.sign_word.lower() in _JUDGING for n in numbers):
        return numbers
    return tuple(replace(n, value=abs(n.value), sign_word="",
                         upto=None if n.upto is None else abs(n.upto))
                 if n.sign_word.lower() in _JUDGING else n for n in numbers)


def time_unit(catalog: dict[str, Any]) -> str | None:
    """The one unit of time the catalog governs metrics in ('minutes'), or None when it has
    none or several (a duration in another unit is then not converted, and its unit word stays
    unread)."""
    units = {m.get("unit") for m in (catalog.get("metrics") or {}).values()} & set(TIME_UNITS)
    return units.pop() if len(units) == 1 else None


def _shares(index: CatalogIndex, text: str, numbers: tuple[ReadNumber, ...]
            ) -> list[ReadNumber]:
    """The parts of a whole the text writes of a governed metric ('less than a third of all
    revenue'): a share, held to the cited shares of the total like any number ('half of the
    stores' is a count of members, and 'fell by a third' a change, read already)."""
    return [n for n, _ in metric_parts(index, text)
            if not any(o.start < n.end and n.start < o.end for o in numbers)]


def metric_parts(index: CatalogIndex, text: str) -> list[tuple[ReadNumber, int]]:
    """`share_parts` of a governed metric: the words of the whole start with a metric's name
    ('a third of all revenue'). A part of anything else ('half of February's cancellations',
    'half of the stores') is not this reading's: its words stay for another, or unread."""
    parts = share_parts(text)
    if not parts:
        return []
    starts = {m.span[0] for m in index.read("mentions", text,
                                               lambda t: find_mentions(t, index.catalog))
              if m.kind == "metric"}
    return [(n, after) for n, after in parts if after in starts]


@emits("text_value_mismatch")
def check_text_numbers(ctx: ClaimContext) -> list[Defect]:
    """Each number a measurement claim's text states must be one of the values it cites; each
    number an argument's text states, one its premises state or cite."""
    if ctx.claim.kind != "measurement":
        return _argument_numbers(ctx)
    if ctx.rendered or not ctx.cited:
        return []
    numbers = _read(ctx, ctx.claim.text)
    supports = claim_supports(ctx) if numbers else None
    if not supports:
        return []
    if (ctx.composition or {}).get("whole") == "period":  # the share its sources make (checks.py)
        supports = [*supports, *filter(None, [_claim_values(ctx)[1]])]
    values = {s.value for s in supports}
    left = tuple([n for n in numbers
                  if n.percent or n.money or n.sign_word or n.bound or n.value not in values])
    if not left:
        return []
    left = unlabelled(ctx.claim.text, left, supports, ctx.catalog)
    return [_text_defect(ctx, n, supports) for n in
            unsupported(left, ctx.question or "", lambda n: stated_by(n, supports))]


def _argument_numbers(ctx: ClaimContext) -> list[Defect]:
    numbers = _read(ctx, ctx.claim.text) if ctx.premises and not ctx.defects else ()
    supports = _premise_supports(ctx, set()) if numbers else None
    if not supports:
        return []
    numbers = unlabelled(ctx.claim.text, numbers, supports, ctx.catalog)
    return [_text_defect(ctx, n, supports) for n in
            unsupported(numbers, ctx.question or "", lambda n: stated_by(n, supports))]


def premise_supports(ctx: ClaimContext) -> list[Support] | None:
    """What a claim's premises state and cite, followed through premises (None when one is
    broken)."""
    return _premise_supports(ctx, set())


def _premise_supports(ctx: ClaimContext, seen: set[int]) -> list[Support] | None:
    """What the claim's premises state and cite, followed through premises; None when a
    premise is broken (a defect already: its numbers are not guessed at)."""
    out: list[Support] = []
    for p in ctx.premises:
        if p in seen or not 0 < p < ctx.index or p > len(ctx.answer_claims):
            continue
        seen.add(p)
        premise = ctx.answer_claims[p - 1]
        if premise.defects:
            return None
        cited, stated = _claim_values(premise)
        out += cited
        if stated is not None:
            out.append(stated)
        deeper = _premise_supports(premise, seen)
        if deeper is None:
            return None
        out += deeper
    return out


def _text_defect(ctx: ClaimContext, number: ReadNumber, supports: list[Support]) -> Defect:
    cited = supports[0]
    said = say(cited.value, cited.kind)
    return Defect("text_value_mismatch", ctx.cid,
                  f"Claim {ctx.cid}'s text says {number.text} but cites {cited.where} = {said}: write "
                  f"{said} or cite the field that says {number.text}.", number.text, number.start)


@emits("unsupported_number")
def check_answer_numbers(ctx: AnswerContext) -> list[Defect]:
    """The answer's prose, headline value and listed values state only numbers a claim states
    or cites."""
    if ctx.answer.status != "answered" or not ctx.answer.has_graph:
        return []  # no claim graph: nothing to hold the prose to (not measurable)
    supported = answer_checker(ctx)
    supports = supported.items
    prose, left = _prose_left(ctx)
    _, false = derived(ctx)  # read once per answer: _prose_left's
    guessed = guessed_numbers(ctx, left)
    found = [_prose_defect(n, supports) for n in left if (n.start, n.end) not in guessed] + false
    found += [_unnamed_defect(n, supported) for n in _of_unnamed(ctx, prose, supported)]
    cited = Supports([s for s in supports if not s.derived]) \
        if any(s.derived for s in supports) else supported
    return found + _headline(ctx, supports, cited) + _listed(ctx, cited)


def _prose_left(ctx: AnswerContext) -> tuple[tuple[ReadNumber, ...], tuple[ReadNumber, ...]]:
    """The prose's numbers (a label's aside), and those of them no cited value, no claim's
    value and no reading of the cited rows states."""
    supported = answer_checker(ctx)
    prose = unlabelled(ctx.answer.answer, _read(ctx, ctx.answer.answer), supported.items,
                       ctx.catalog)
    held, _ = derived(ctx)
    prose = tuple(n for n in prose if (n.start, n.end) not in held)
    return prose, unsupported(prose, ctx.question or "", supported)


def guessed_numbers(ctx: AnswerContext, left: tuple[ReadNumber, ...] | None = None
                    ) -> set[tuple[int, int]]:
    """The spans of the prose's numbers that no cited value and no reading states (`left`,
    when the caller has them) but that a derivation over the cited rows their sentence names
    gives (derivable.py), found once per answer: not withheld, and left unread by the word
    account (served with caveats)."""
    if ctx.guessed is None:
        from showwork.harness.audit.derivable import derivable
        from showwork.harness.audit.labels import UNRESOLVED

        if any(d.code in UNRESOLVED for claim in ctx.claims for d in claim.defects):
            ctx.guessed = set()  # rows read through a broken citation give no benefit of doubt
            return set()
        if left is None:
            _, left = _prose_left(ctx)
        ctx.guessed = derivable(ctx, ctx.answer.answer or "", left) if left else set()
    return set(ctx.guessed)


def _a_gap(ctx: AnswerContext, value: float) -> bool:
    """The prose says how far one cited member is from another by `value`'s size, and their
    rows bear it out (gaps.py): 'LAX had 2,843 more flights than SFO' holds a headline 2843."""
    held, _false = _gaps(ctx)
    return any(matches(n, abs(value)) for n in _read(ctx, ctx.answer.answer)
               if (n.start, n.end) in held)


def derived(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's numbers a reading of the cited rows holds (a quantified or named bound, a
    ratio or gap between members, a move between rows, a sum, a share of the whole, a rate
    per unit of time): the spans of those the rows bear out, and a defect for each one they
    contradict. Read once per answer (the number and label checks both ask)."""
    if ctx.derived is None:
        held: set[tuple[int, int]] = set()
        false: list[Defect] = []
        for read in (_quantified, _times, _gaps, _row_steps, _move_counts, _sums, _rates,
                     _spreads):
            h, f = read(ctx)
            held |= h
            false += f
        ctx.derived = (held, false)
    held, false = ctx.derived
    return set(held), list(false)


def _quantified(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's quantified bounds over a cited breakdown (quantifiers.py): the spans of the
    numbers every row bears out, and a defect for each one some row contradicts."""
    from showwork.harness.audit.quantifiers import read_quantified

    held: set[tuple[int, int]] = set()
    false: list[Defect] = []
    for q in read_quantified(ctx, ctx.answer.answer or ""):
        if q.holds:
            held.add((q.number.start, q.number.end))
            continue
        if q.counted:
            text = ctx.answer.answer[q.words[0]:q.words[1]]
            message = (f"The answer text says {q.number.text} was met '{text}', but the cited "
                       f"rows meet it in {', '.join(q.failing)}. Write the count the cited "
                       "rows show.")
        elif q.named:
            text = ctx.answer.answer[q.number.start - len(q.number.hedge) - 1:q.number.end]
            message = (f"The answer text says '{text.strip()}' of {', '.join(q.failing)}, "
                       "which its cited value does not bear out. State a bound the cited "
                       "value meets, or the value itself.")
        else:
            text = ctx.answer.answer[q.words[0]:q.number.end]
            message = (f"The answer text says '{text}…' of every row, but the rows "
                       f"{', '.join(q.failing)} of the cited result do not bear it out. State "
                       "the bound that every row meets, or name the rows that meet it.")
        false.append(Defect("unsupported_number", "answer", message, q.number.text,
                            q.number.start))
    return held, false


def _times(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's 'N times as many … as' between two cited members (times.py): the spans of
    the multipliers their rows bear out, and a defect for each one they contradict."""
    from showwork.harness.audit.times import read_times

    return _held(read_times(ctx, ctx.answer.answer or ""), lambda t: (
        f"The answer text says '{t.number.text}' of one member's value against another's, but "
        f"the cited rows are {t.cited}. "
        "State the ratio the cited values give."))


def _gaps(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's gaps between two cited members ('outsold Chai by 28 units', '68 flights
    ahead of ATL': gaps.py): the spans of the gaps their rows bear out, and a defect for each
    one they contradict."""
    from showwork.harness.audit.gaps import read_gaps

    return _held(read_gaps(ctx, ctx.answer.answer or ""), lambda g: (
        f"The answer text says the two are {g.number.text} apart, but the cited rows are "
        f"{g.cited}. State the difference the cited values give."))


def _row_steps(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's moves between two rows of a cited series with a size ('rose by about 3,900
    from February to March': rowmoves.py): the spans of the sizes the rows bear out, and a
    defect for each one they contradict."""
    from showwork.harness.audit.quantifiers import Derived
    from showwork.harness.audit.rowmoves import read_row_moves

    sized = [Derived(m.words, n, m.number_holds or n is not m.number, m.cited)
             for m in read_row_moves(ctx, ctx.answer.answer or "") if m.number is not None
             for n in (m.number, *m.also)]
    return _held(sized, lambda s: (
        f"The answer text says the move was {s.number.text}, but the cited rows are "
        f"{s.cited}. State the change the two rows give."))


def _move_counts(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's counts of a cited series' moves one way ('dipped twice, in February and in
    May': rowmoves.py): the spans of the counts the rows bear out, and a defect for each one
    they contradict."""
    from showwork.harness.audit.rowmoves import read_counted_moves

    return _held(read_counted_moves(ctx, ctx.answer.answer or ""), lambda c: (
        f"The answer text says {c.says} {c.number.text}, but {c.cited}. State the moves the "
        "cited rows give."))


def _sums(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's sums of cited rows ('the top three airlines accounted for 602
    cancellations': sums.py): the spans of the sums the rows bear out, and a defect for each
    one they contradict."""
    from showwork.harness.audit.sums import read_shares, read_sums

    text = ctx.answer.answer or ""
    held, false = _held(read_sums(ctx, text), lambda s: (
        f"The answer text says {s.says} {s.number.text}, but the rows of the cited result "
        f"are {s.cited}. State the {'mean' if 'average' in s.says else 'sum'} the cited "
        "values give."))
    shares_held, shares_false = _held(read_shares(ctx, text), lambda s: (
        f"The answer text says a share of {s.number.text}, but the cited rows give "
        f"{s.cited}. State the share the cited values give."))
    return held | shares_held, false + shares_false


_LAST_WORD = re.compile(r"\b([A-Za-z]+)\s+$")


def hedge_at(text: str, n: ReadNumber) -> int:
    """Where `n`'s hedge or bound starts in `text` ('about', 'more than'), or -1."""
    return text.lower().rfind(n.hedge, 0, n.start) if n.hedge else -1


def value_verb(text: str, n: ReadNumber) -> tuple[int, int] | None:
    """The span of a verb that states `n` as its subject's value, right before it or before its
    hedge or bound ('took 2,356', 'averaged about 28,400'), or None."""
    at = hedge_at(text, n)
    verb = _LAST_WORD.search(text, 0, at if at >= 0 else n.start)
    return verb.span(1) if verb and verb.group(1).lower() in _VALUE_CUES else None


def stating_words(text: str, n: ReadNumber) -> list[tuple[int, int]]:
    """The words that state `n` besides its digits: its hedge or bound, and a verb that states
    it as a value (`value_verb`), as spans a reading that holds `n` consumes."""
    at, verb = hedge_at(text, n), value_verb(text, n)
    return ([(at, at + len(n.hedge))] if at >= 0 else []) + ([verb] if verb else [])


def _spreads(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's spreads and ranges of cited rows ('the three airports were within 5 minutes
    of each other', 'ranged from about 25,000 to about 29,400': spreads.py): the spans of those
    the rows bear out, and a defect for each one they contradict."""
    from showwork.harness.audit.spreads import read_spreads

    return _held(read_spreads(ctx, ctx.answer.answer or ""), lambda r: (
        f"The answer text says {r.says} {r.number.text}, but the rows of the cited result "
        f"are {r.cited}. State what the cited values give."))


def _rates(ctx: AnswerContext) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The prose's cited totals said per unit of time ('about 34 cancellations a day in June':
    rates.py): the spans of the rates the totals bear out, and a defect for each one none
    does."""
    from showwork.harness.audit.rates import read_rates

    return _held(read_rates(ctx, ctx.answer.answer or ""), lambda r: (
        f"The answer text says {r.number.text} per unit of time, but {r.cited}. State the "
        "rate the cited total and its window give."))


def _held(readings: Sequence[Any], message: Callable[[Any], str]
          ) -> tuple[set[tuple[int, int]], list[Defect]]:
    """The spans of the readings' numbers their rows bear out, and an unsupported number (its
    message from the reading) for each one they contradict."""
    held: set[tuple[int, int]] = set()
    false: list[Defect] = []
    for r in readings:
        if r.holds:
            held.add((r.number.start, r.number.end))
        else:
            false.append(Defect("unsupported_number", "answer", message(r), r.number.text,
                                r.number.start))
    return held, false


def _unnamed_defect(number: ReadNumber, supported: Supports) -> Defect:
    rows = sorted({s.source.text for s in supported.matching(number) if s.source is not None})
    return Defect("unsupported_number", "answer",
                  f"The answer text says {number.text}, which only {', '.join(rows[:3])} "
                  f"cite{'s' if len(rows) == 1 else ''}: a row of a member the answer never "
                  "names, said of the whole. Name that member beside the number, or write the "
                  "value the whole has.", number.text, number.start)


def _of_unnamed(ctx: AnswerContext, numbers: tuple[ReadNumber, ...], supported: Supports
                ) -> tuple[ReadNumber, ...]:
    """The prose's numbers that state only values of members' rows the prose never names
    ('active users six thousand', 6,007 the previous week's of channel organic alone): a
    member's value said of the whole (an unsupported number is left to `unsupported`)."""
    if not numbers or not _member_rows(supported.items):
        return ()  # no member's row is cited: every value is of the whole or of a period
    out = []
    named: set[str] | None = None
    for n in numbers:
        matched = supported.matching(n)
        rows = [s.source.row.key for s in matched if s.source is not None]
        if not matched or len(rows) < len(matched) or any(
                not any(k not in GRAIN_KEYS for k in key) for key in rows):
            continue  # a value of the whole (or of a period), or a claim's value without a row
        if named is None:
            named = {str(m.member).lower() for m in ctx.index_.read(
                "mentions", ctx.answer.answer, lambda t: find_mentions(t, ctx.catalog))
                if m.kind == "member" and m.member}
        if not any(str(v).lower() in named or _written(str(v), ctx.answer.answer or "")
                   for key in rows for k, v in key.items() if k not in GRAIN_KEYS):
            out.append(n)
    return tuple(out)


def _member_rows(supports: Iterable[Support]) -> bool:
    """Some support is of a cited row keyed by a member (not only by a period)."""
    for s in supports:
        if s.source is not None:
            for k in s.source.row.key:
                if k not in GRAIN_KEYS:
                    return True
    return False


def _written(member: str, text: str) -> bool:
    """The member written out in the text as it is (a whole word, any case): named even where
    no catalog knows it as a member (audit_answer without a catalog)."""
    at = text.lower().find(member.lower())
    while at >= 0:
        end = at + len(member)
        if (at == 0 or not text[at - 1].isalnum()) and (end == len(text)
                                                        or not text[end].isalnum()):
            return True
        at = text.lower().find(member.lower(), at + 1)
    return False


def answer_checker(ctx: AnswerContext) -> Supports:
    """Every cited field of every claim, and every claim's stated value (in its first source's
    units), found once per answer: the prose, the headline and the listed values are held to
    them."""
    if ctx.value_supports is None:
        out: list[Support] = []
        for claim in ctx.claims:
            cited, stated = _claim_values(claim)
            out += cited
            if stated is not None:
                out.append(stated)
        ctx.value_supports = Supports(out)
    return ctx.value_supports


def _stated(claim: ClaimContext, catalog: dict[str, Any], cited: list[Support]
            ) -> Support | None:
    """The claim's stated value as a support, or None when it states no number; in its first
    source's units (`cited`: its cited fields' supports, the first one's units found already
    when it is the first source's)."""
    value = claim.claim.value
    if not numeric(value):
        return None
    first = claim.cited[0] if claim.cited else None
    if (claim.composition or {}).get("whole") == "period":  # a share across periods (checks.py)
        return Support(value, "fraction", f"{claim.cid}'s value", first, "-")  # type: ignore[arg-type]
    sources = claim.claim.sources or []
    if first is None:
        return Support(value, _written_kind(sources, catalog),  # type: ignore[arg-type]
                       f"{claim.cid}'s value")
    field = first.citation.field
    own = cited[0] if cited and cited[0].source is first else None
    unit = None if own is not None else _unit(field, first.metric, catalog)
    # a claim's value is in its first source's units, read from the citation as written
    # even when it did not resolve
    kind = (own.kind if own is not None else _kind(field, unit)) \
        if sources and first.text == sources[0] else _written_kind(sources, catalog)
    return Support(value, kind, f"{claim.cid}'s value", first,  # type: ignore[arg-type]
                   own.money if own is not None else _money(field, unit),
                   field in CHANGE_FIELDS)


def _written_kind(sources: list[Any], catalog: dict[str, Any]) -> Kind:
    """The units of the field the first source names as written ("number" when it names
    none)."""
    m = _FIELD.search(sources[0]) if sources and isinstance(sources[0], str) else None
    return kind_of(m.group(2), m.group(1), catalog) if m else "number"


_FIELD = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$")


def _prose_defect(number: ReadNumber, supports: Iterable[Support]) -> Defect:
    return Defect("unsupported_number", "answer",
                  f"The answer text says {number.text}, but no claim states or cites it"
                  f"{_hint(number, supports)}. Cite the field that says {number.text} in a claim, "
                  "or write the number a claim cites.", number.text, number.start)


def _headline(ctx: AnswerContext, supports: Sequence[Support], supported: Supports
              ) -> list[Defect]:
    value: Any = ctx.answer.value
    if isinstance(value, str):
        if _entity_member(ctx, value):
            return []  # 'which order id': the headline names a cited row's key, a label
        return _string_headline(_read(ctx, value.strip()), value, supports, supported)
    if not numeric(value) or not _finite(value):
        return []
    number = from_value(value)
    if supported(number) or _a_gap(ctx, value):
        return []
    return [Defect("unsupported_number", "answer.value",
                   f"The headline value {value!r} is not a value any claim states or cites"
                   f"{_hint(number, supports)}. Set value to a cited number, or add a claim "
                   "citing it.", repr(value), None)]


def entity_members(ctx: AnswerContext) -> dict[str, str]:
    """Each cited row's key member of an entity the catalog keys by one column (an order id, a
    tail number), lower-cased, with its entity: a label the answer names its rows by, never a
    number to check ('By order, 36175 had the highest revenue')."""
    return {said: entity for said, (entity, _key) in entity_keys(ctx).items()}


def entity_keys(ctx: AnswerContext) -> dict[str, tuple[str, str]]:
    """`entity_members` with each key as its row writes it: lower-cased key → (entity, key)."""
    entities = ctx.catalog.get("entities") or {}
    if not entities:
        return {}
    return {str(v).lower(): (k, str(v)) for claim in ctx.claims for c in claim.cited
            for k, v in c.row.key.items() if k in entities}


def _entity_member(ctx: AnswerContext, value: str) -> bool:
    """`value` is a cited row's key member of an entity (an order id, a tail number) or one of
    a governed dimension's listed members (a departure hour, '16', that a ranking by hour
    names): a label, not a number."""
    said = value.strip().lower()
    dims = ctx.catalog.get("dimensions") or {}
    return said in entity_members(ctx) or any(
        str(v).lower() == said and str(v) in map(str, (dims.get(k) or {}).get("members") or ())
        for claim in ctx.claims for c in claim.cited for k, v in c.row.key.items())


def _string_headline(numbers: tuple[ReadNumber, ...], value: str,
                     supports: Sequence[Support], supported: Supports) -> list[Defect]:
    """A headline string that reads as one number ("11,343", "-16.4%", "$61,014.03") is that
    number, read as text is; a member ("US", "2019-03-01") is not. `numbers`: the string's."""
    if len(numbers) != 1 or numbers[0].text != value.strip():
        return []
    number = numbers[0]
    if supported(number):
        return []
    return [Defect("unsupported_number", "answer.value",
                   f"The headline value {value!r} reads as the number {number.text}, which no "
                   f"claim states or cites{_hint(number, supports)}. Set value to a cited "
                   "number, or add a claim citing it.", value, None)]


def _listed(ctx: AnswerContext, supported: Supports) -> list[Defect]:
    """Each listed value must be one a claim states or cites; a value whose key is a row some
    claim cites must be one of that row's (a value listed under the wrong member is caught)."""
    if not ctx.answer.values:
        return []
    by_row = row_supports(ctx)  # a row's few supports are scanned (`states`)
    filtered: set[str] | None = None
    out = []
    for i, item in enumerate(ctx.answer.values):
        if not numeric(item.value) or not _finite(item.value):  # type: ignore[arg-type]
            continue
        number = from_value(item.value)  # type: ignore[arg-type]
        key = period_start(item.key.strip())
        own = by_row.get(key)
        if by_row and own is None:
            if filtered is None:
                filtered = _filtered_members(ctx)  # read only for a key no cited row has
            if key not in filtered:
                out.append(_unknown_key(i, item, sorted(by_row)))
                continue
        if not (states(number, own) if own else supported(number)):
            out.append(_listed_defect(i, item, number, own, supported.items))
    return out


def row_supports(ctx: AnswerContext) -> dict[str, list[Support]]:
    """Member (a grain's period start) → the values claims citing a row with it state or cite."""
    out: dict[str, list[Support]] = {}
    for claim in ctx.claims:
        cited, stated = _claim_values(claim)
        for support in cited:  # each cited field's support, its source that field
            for member in _members(support.source.row):  # type: ignore[union-attr]
                out.setdefault(member, []).append(support)
        if stated is not None and claim.cited:
            for member in _members(claim.cited[0].row):
                out.setdefault(member, []).append(stated)
    return out


def unlabelled(text: str, numbers: tuple[ReadNumber, ...], supports: Iterable[Support],
               catalog: dict[str, Any]) -> tuple[ReadNumber, ...]:
    """`numbers` without those the text writes as (the start of) a cited row's member right
    after its dimension's label ('number of engines 2', 'engine type 4 Cycle'): a label, not a
    claim. A number written so that is no cited row's member stays a claim."""
    for n in numbers:
        if n.text[:1].isdigit() and not (n.percent or n.money):
            break
    else:
        return numbers  # the common case: no number that could start a member's name
    # only a member whose name starts as some number's text does can be written as it
    firsts = {n.text[:1].lower() for n in numbers if not (n.percent or n.money)}
    # each cited row once: many supports share one (a claim's value, a change's size)
    rows = {id(s.source.row): s.source.row for s in supports if s.source is not None}
    keys = {(k, member) for row in rows.values() for k, v in row.key.items()
            for member in (str(v).lower(),) if member[:1] in firsts}
    if not keys:
        return numbers
    low = text.lower()
    dims = catalog.get("dimensions") or {}
    entities = catalog.get("entities") or {}
    members = {member for _key, member in keys}
    return tuple(n for n in numbers if n.percent or n.money or not any(
        low.startswith(member, n.start) and member.startswith(n.text.lower())
        and (member == n.text.lower() and (_names_row(low, n, key, dims, entities)
                                           or _in_member_list(low, n, members))
             or _after_label(low, n.start, key, dims)) for key, member in keys))


_ROW_VALUE = re.compile(r"\s*:?\s*[$£€]?-?\d")


def _names_row(low: str, n: ReadNumber, key: str, dims: dict[str, Any],
               entities: dict[str, Any]) -> bool:
    """A cited row's member written as a number where it names the row: after its entity's or
    dimension's name ('By order, 36175 had …', 'By scheduled departure hour, 19 had …') or listed
    right before the row's value ('first: 36175 $99.00', '; 20 24.3 min'); never where it would
    be a value itself ('revenue was 36175', 'rose to 2: 24,045')."""
    before = low[:n.start].rstrip().rstrip(",").rstrip()
    names = [key.replace("_", " ")] if key in entities else [
        str((dims.get(key) or {}).get("label") or "").lower(),
        key.split("__")[-1].replace("_", " ")]
    return any(name and before.endswith(name) for name in names) or (
        _LISTED.search(low, 0, n.start) is not None and _ROW_VALUE.match(low, n.end) is not None)


def _in_member_list(low: str, n: ReadNumber, members: set[str]) -> bool:
    """A cited row's member in a list of cited rows' members ('37929; 40344; 41025', the
    rows a grouped claim's premises cite, in order): the member before or after it across a
    ';' is one too. A list of numbers that are no cited row's members stays numbers."""
    after = _NEXT_ITEM.match(low, n.end)
    if after is not None and after.group(1) in members:
        return True
    before = _PREVIOUS_ITEM.search(low, 0, n.start)
    return before is not None and before.group(1) in members


_NEXT_ITEM = re.compile(r"\s*;\s*([a-z0-9][a-z0-9_\-]*)")
_PREVIOUS_ITEM = re.compile(r"([a-z0-9][a-z0-9_\-]*)\s*;\s*$")
_LISTED = re.compile(r"[:;(]\s*$")
"""Before a member in a list of rows ('highest first: 19 24.8 min; 20 …'); 'rose to 2: …' is
no list."""


def _after_label(low: str, start: int, key: str, dims: dict[str, Any]) -> bool:
    """The lower-cased text before `start` ends in the label of dimension `key` (its catalog
    label, or its name's last part with spaces) or its name, then a space."""
    label = f"{(dims.get(key) or {}).get('label') or key.split('__')[-1].replace('_', ' ')} "
    return low.endswith(label.lower(), 0, start) or low.endswith(f"{key} ".lower(), 0, start)


def _members(row: Row) -> set[str]:
    """The members a row is keyed by, a grain's period as its start."""
    return {period_start(str(v)) for v in row.key.values()} if row.key else set()


def _filtered_members(ctx: AnswerContext) -> set[str]:
    """Members the calls behind cited results filter to (a member cited through its filter)."""
    out: set[str] = set()
    for claim in ctx.claims:
        for c in claim.cited:
            for members in (ctx.evidence.filters(c.citation.handle) or {}).values():
                out |= set(members)
    return out


def _unknown_key(i: int, item: Listed, keys: list[str]) -> Defect:
    shown = ", ".join(keys[:6]) + (" …" if len(keys) > 6 else "")
    return Defect(
        "unsupported_number", f"answer.values[{i}]",
        f"answer.values[{i}] lists {item.key} = {item.value!r}, but no claim cites a row for "
        f"{item.key} (the claims cite rows for {shown}). List only cited rows, or add a "
        "measurement claim citing its row.", repr(item.value), None)


def _listed_defect(i: int, item: Listed, number: ReadNumber, own: Iterable[Support] | None,
                   supports: Iterable[Support]) -> Defect:
    said = f"{item.key} = {say(number.value)}"
    if own:
        why = (f"answer.values[{i}] lists {said}, but no claim citing the row {item.key} states "
               f"or cites it{_hint(number, own)}. List the value that row's claim cites, or fix "
               "the key.")
    else:
        why = (f"answer.values[{i}] lists {said}, but no claim states or cites it"
               f"{_hint(number, supports)}. Add a measurement claim citing its row, or list the "
               "value a claim cites.")
    return Defect("unsupported_number", f"answer.values[{i}]", why, repr(item.value), None)


def _finite(value: int | float) -> bool:
    return value == value and abs(value) != float("inf")


def _hint(number: ReadNumber, supports: Iterable[Support]) -> str:
    near = _nearest(number, supports)
    return f" (nearest: {near.where} = {say(near.value, near.kind)})" if near else ""


# --- counts of cited rows ('across 7 stores', 'in 4 of the 5 regions', '46 listed') ----------

@emits("unsupported_number", "text_value_mismatch")
def check_counts(ctx: AnswerContext) -> list[Defect]:
    """Each count the prose or a claim's text states (counts.py) must equal what the cited rows
    count: the members of its dimension the claims cite, the rows of a cited result broken down
    by it, or the listed values; 'k of the M' counts the members whose cited change moved as
    the sentence says. A count of a dimension no cited result breaks down by has no support.
    A generic count ('11,262 of them', '46 listed') may also state a cited value."""
    if ctx.answer.status != "answered" or not ctx.answer.has_graph:
        return []
    texts = [("answer", ctx.answer.answer)] + [(c.cid, c.claim.text) for c in ctx.claims]
    found = [(where, text, c) for where, text in texts for c in read_counts(ctx.index_, text)]
    runs = [(where, text, r) for where, text in texts for r in read_runs(ctx.index_, text)]
    if runs:
        return _run_defects(ctx, runs) + (check_counts_of(ctx, found) if found else [])
    return check_counts_of(ctx, found) if found else []


_NEVER = re.compile(r"(?i)\b(?:never|not|no|n['’]t)\b")
"""Before a run in its clause, what denies it: 'never rose two months in a row'."""


def _run_defects(ctx: AnswerContext, runs: list[tuple[str, str, Any]]) -> list[Defect]:
    """'rose for the third week in a row': a cited series of that grain must hold that many
    moves in a row the way the sentence says (its longest run)."""
    series = cited_series(ctx)
    out = []
    for where, text, run in runs:
        if run.text.lower() in (ctx.question or "").lower():
            continue
        direction = _condition(text, run)
        longest = [longest_run([rows[p] for p in sorted(rows)], way)
                   for (_metric, grain), rows in series.items() if grain == run.grain
                   for way in ((direction,) if direction else (1, -1))]
        clause = text[:run.start].rsplit(".", 1)[-1].rsplit(";", 1)[-1]
        if _NEVER.search(clause):  # 'never rose two months in a row': no run that long
            if longest and all(n < run.value for n in longest):
                continue
        elif any(n >= run.value for n in longest):
            continue
        said = f"{max(longest)} in a row" if longest and _NEVER.search(clause) else \
            f"at most {max(longest)} in a row" if longest else f"no cited series by {run.grain}"
        message = (f"{'The answer text' if where == 'answer' else f'Claim {where} text'} says "
                   f"{run.text!r}, but the cited rows show {said}. Write the run the cited "
                   "series shows, or cite its rows.")
        out.append(Defect("unsupported_number" if where == "answer" else "text_value_mismatch",
                          where, message, run.text, run.start))
    return out


def _named_count(ctx: AnswerContext, text: str, count: Count) -> int | None:
    """How many members of the count's dimension the text names right after it, in a list set
    off by a comma, a colon or a parenthesis ('Two airlines, Hawaiian and Alaska, arrived
    early', 'three stores (Brooklyn, Philadelphia and Toronto)'): the count is of those, not
    of every cited row. None when no such list follows. Whether the named members share what
    the sentence says of them is another reading's (or unread)."""
    mentions = ctx.index_.read("mentions", text, lambda t: find_mentions(t, ctx.catalog))
    noun = next((m for m in mentions if m.kind == "dimension" and m.name == count.dim
                 and m.span[0] >= count.end and not text[count.end:m.span[0]].strip()), None)
    opened = _LIST_OPENS.match(text, noun.span[1] if noun is not None else count.end)
    if opened is None:
        return None
    named: list[str] = []
    at = opened.end()
    for m in sorted((m for m in mentions if m.kind == "member" and m.name == count.dim
                     and m.span[0] >= at), key=lambda m: m.span):
        if m.span[0] != at:
            break
        named.append(m.member or "")
        joined = _LIST_JOINS.match(text, m.span[1])
        if joined is None:
            break
        at = joined.end()
    return len(set(named)) if len(named) >= 2 else None


_LIST_OPENS = re.compile(r"s?\s*[,:(]\s*")
_LIST_JOINS = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)")


def check_counts_of(ctx: AnswerContext, found: list[tuple[str, str, Count]]) -> list[Defect]:
    """The counts of cited rows `found` in the answer's texts that the cited rows do not
    count (`check_counts`): 'k of the M' those that moved the way the sentence says, or those
    that meet the bound it states after the count (`meeting_bound`)."""
    from showwork.harness.audit.quantifiers import meeting_bound

    asked = _asked_words(ctx.question or "")
    tally = _Tally(ctx)
    out = []
    for where, text, count in found:
        if count.text.replace(",", "").lower() in asked:
            continue  # the question's own number ('top 3')
        meeting = meeting_bound(ctx, text, count) if count.of is not None else None
        if meeting is None and count.dim and count.of is None and not count.part:
            meeting = _named_count(ctx, text, count)  # 'Two airlines, Hawaiian and Alaska,'
        allowed = {meeting} if meeting is not None else tally.parts(
            count, _condition(text, count)) if count.of is not None else tally.wholes(count.dim)
        if count.part and allowed:  # 'the other five stores': fewer than the whole
            allowed = set(range(1, max(allowed)))
        if count.value in allowed or (not count.dim and _states_value(ctx, text, count)):
            continue
        said = ", ".join(str(v) for v in sorted(allowed)) or "nothing (no cited result lists them)"
        message = (f"{'The answer text' if where == 'answer' else f'Claim {where} text'} says "
                   f"{count.text} {'of them' if not count.dim else count.dim}, but the cited "
                   f"rows count {said}. Write the count the cited rows show, or cite the rows.")
        out.append(Defect("unsupported_number" if where == "answer" else "text_value_mismatch",
                          where, message, count.text, count.start))
    return out


def _asked_words(question: str) -> set[str]:
    """The question's numbers and words ('top 3', 'top three'), lower-cased; not the digits of
    a name or a period ('5th Ave', 'Q2')."""
    return set(re.findall(r"\b(?:[0-9]+|[a-z]+)\b", question.replace(",", "").lower()))


def _states_value(ctx: AnswerContext, text: str, count: Count) -> bool:
    """A generic count read as a number ('11,262 of them') that states a cited value."""
    number = next((n for n in claims_in(text) if n.start == count.start), None)
    return number is not None and answer_checker(ctx)(number)


def _condition(text: str, count: Count | Run) -> int:
    """The direction the sentence around a count states: 1 rose, -1 fell, 0 neither or both."""
    start = max(text.rfind(". ", 0, count.start), text.rfind("; ", 0, count.start)) + 1
    stop = min((i for i in (text.find(". ", count.end), text.find("; ", count.end)) if i >= 0),
               default=len(text))
    words = set(re.findall(r"[a-z]+", text[start:stop].lower()))
    rose, fell = bool(words & RISE), bool(words & FALL)
    return 1 if rose and not fell else -1 if fell and not rose else 0


class _Tally:
    """What the cited rows count, per dimension ('' for any)."""

    def __init__(self, ctx: AnswerContext) -> None:
        self.members: dict[str, set[str]] = {}
        self.moved: dict[tuple[str, int], set[str]] = {}
        self.rows: dict[str, set[int]] = {}
        cited_rows: set[tuple[int, tuple[tuple[str, str], ...]]] = set()
        for claim in ctx.claims:
            for c in claim.cited:
                key = c.row.key or {}
                cited_rows.add((id(c.result), tuple(sorted(key.items()))))
                for dim in (*c.result.keys, ""):
                    self.rows.setdefault(dim, set()).add(len(c.result.rows))
                for dim, member in key.items():
                    if not member or member == "None":
                        continue  # a null group is no member ('the 8 regions' of 9 rows)
                    self.members.setdefault(dim, set()).add(member)
                    if c.citation.field in CHANGE_FIELDS and numeric(c.value) and c.value:
                        self.moved.setdefault((dim, 1 if c.value > 0 else -1), set()).add(member)
        listed = len(ctx.answer.values or [])
        self.any = {len(m) for m in self.members.values()} | ({listed} if listed else set()) \
            | ({len(cited_rows)} if cited_rows else set())

    def wholes(self, dim: str) -> set[int]:
        if not dim:
            return self.any | self.rows.get("", set())
        own = self.members.get(dim)
        return ({len(own)} if own else set()) | self.rows.get(dim, set())

    def parts(self, count: Count, direction: int) -> set[int]:
        dims = [count.dim] if count.dim else list(self.members)
        out: set[int] = set()
        for dim in dims:
            for way in ((direction,) if direction else (1, -1)):
                out.add(len(self.moved.get((dim, way), set())))
            if not direction:
                out |= self.wholes(dim)
        return {n for n in out if n <= (count.of or 0)}
