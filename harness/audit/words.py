"""Every word of an answer accounted for (issue 43): read, neutral, or shown as not read.

The prose, a string headline and each claim's text are split into spans. A span is READ when a
reading of the audit consumed it and holds it to something: a number to a cited field
(numbers.py), a metric, member or dimension to the cited results (labels.py, prose.py), a date
or period to the cited windows, a verb of direction to the cited sign, a superlative, order,
universal or comparison to the cited rows (comparisons.py, pairs.py, trends.py, counts.py), a
cause or hedge to the claim graph and its tree edges, a structure word of a breakdown or an
attribution to the rows and fields the claims cite. Each reading's spans are made by the same
patterns the check that holds them uses, imported from that check's module. A word no reading
consumed is NEUTRAL only when it is listed below (a word that states nothing about data: an
article, an auxiliary, a preposition, a pronoun); any other word is UNREAD, and the answer gets
the finding `unread_answer`, quoting it: served with caveats, never clean, and never withheld
for it (withholding needs a proven conflict).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from showwork.harness.audit.basis import _BASES as BASIS_PATTERNS
from showwork.harness.audit.combined import read_combined
from showwork.harness.audit.comparisons import _ORDER, _PEAK, held_extremes, superlatives
from showwork.harness.audit.counts import _STREAK, _STREAK_CUES, read_counts
from showwork.harness.audit.ends import _MOVED_BEFORE
from showwork.harness.audit.gaps import read_gaps
from showwork.harness.audit.labels import (
    _SHARE,
    _TO,
    _VERSUS,
    SHARE_FIELDS,
    answer_windows,
    carries,
    read_words,
    said_end,
)
from showwork.harness.audit.numbers import (
    answer_checker,
    entity_members,
    guessed_numbers,
    metric_parts,
    read_claims,
    read_stated,
    time_unit,
)
from showwork.harness.audit.pairs import _COMPARATIVE, _LEVEL_WORD, _RANK, compared_words
from showwork.harness.audit.prose import (
    _DENIED,
    _DROVE,
    _GOT,
    _LED,
    CAUSE,
    FALLS,
    HEDGE,
    JUDGES,
    RISES,
    judged,
    led_before,
    polarities,
    respective,
    sentences_of,
    unbracketed,
)
from showwork.harness.audit.quantifiers import _breakdowns, read_quantified
from showwork.harness.audit.rates import read_rates
from showwork.harness.audit.rowmoves import read_counted_moves, read_row_moves
from showwork.harness.audit.shape import read_shapes
from showwork.harness.audit.spreads import read_spreads
from showwork.harness.audit.steps import emits
from showwork.harness.audit.sums import read_shares, read_sums
from showwork.harness.audit.times import read_times
from showwork.harness.audit.trends import _CLAUSE as TREND_CLAUSE
from showwork.harness.audit.trends import _FALLS as TREND_FALLS
from showwork.harness.audit.trends import _RECORD, _UNIVERSAL
from showwork.harness.audit.trends import _RISES as TREND_RISES
from showwork.harness.audit.trends import _said as trend_said
from showwork.harness.audit.types import Finding
from showwork.protocol.citations import GRAIN_KEYS
from showwork.protocol.numbers import _MOVES as NUMBER_MOVES
from showwork.protocol.numbers import (
    _VALUE_CUES,
    MEASURE_SPELLINGS,
    MEASURES,
    TIME_SPELLINGS,
    TIME_UNITS,
    measure_targets,
)
from showwork.protocol.periods import period_words
from showwork.protocol.reading import Mention, find_mentions
from showwork.protocol.reading._literals import fit, matches, may_match
from showwork.protocol.reading.filters import exclusions, owns

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext, Cited
    from showwork.harness.audit.index import CatalogIndex
    from showwork.protocol.numbers import ReadNumber

Span = tuple[int, int]

NEUTRAL = frozenset(re.findall(r"\S+", """
a an the
is are was were be been being am has have had having do does did
it its it's they them their this that these those which who whom whose what there here we our
us you your he she his her ones
of in on at by for from to into onto with within per via as
and or but while whereas so then also too
than
answer
"""))
"""Words that state nothing about the data: an article, an auxiliary, a pronoun, a preposition
or conjunction that joins what readings read ('the answer is'). Never a word of quantity,
direction, size, negation, hedge or cause: 'not', 'only', 'every', 'all', 'most', 'more',
'about', 'over', 'may' and their kind change what a sentence says, so readings must read them.
'one' is a number as often as a pronoun ('more than one'): not listed. A word is never listed
here to quiet a finding."""

_TOKEN = re.compile(r"[^\W_]+(?:['’](?!s\b)[^\W_]+)*|(?<=['’])s\b|[°→~≈<>≤≥×]")
"""A word (letters or digits, with inner apostrophes) or a symbol that states something."""


@dataclass(frozen=True)
class Account:
    """One text's words: what each reading consumed, and what none did."""

    text: str
    read: tuple[tuple[Span, str], ...]
    """Each consumed span and the reading that holds it."""
    unread: tuple[Span, ...]
    """Runs of words no reading consumed and not neutral, in order."""

    @property
    def unread_words(self) -> list[str]:
        return [self.text[a:b] for a, b in self.unread]


Reading = Callable[[str, "AnswerContext"], Iterable[Span]]


def _numbers(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """Numbers with their currency, scale, percent, hedge or bound and sign word: each is held
    to a cited field (numbers.py: unsupported_number, text_value_mismatch)."""
    named, numbers = ctx.index_.read("words_numbers", text,
                                     lambda t: _written_numbers(t, ctx.index_))
    headline = text == ctx.answer.value  # a headline states the value the question asks for
    stated = read_stated(ctx, text)  # the same numbers, each in its cited metric's unit
    # a number only a derivation over the cited rows gives is not read (derivable.py)
    guessed = guessed_numbers(ctx) if text == ctx.answer.answer else ()
    for (raw, uncued, spans), n in zip(numbers, stated, strict=True):
        if guessed and (n.start, n.end) in guessed:
            continue
        if uncued and not headline and _bare_change(n, ctx):
            continue  # 'Revenue roughly 5.73 %': a change's size with no word saying it moved
        if not (named or headline) and not _of_any(n, ctx):
            continue  # 'shops (store X) was $16,685': whose value it is, the text does not say
        yield from spans
        if n.end > raw.end:  # 'a drop of 37.7 points' of a rate: its words (`_as_points`)
            yield raw.end, n.end


_Written = tuple[bool, tuple[tuple["ReadNumber", bool, tuple[Span, ...]], ...]]


def _written_numbers(text: str, index: CatalogIndex) -> _Written:
    """What `_numbers` reads of a text alone, once per catalog index and text: whether it names
    a metric, and each number with whether nothing before it says a change is meant and the
    spans its words take."""
    named = any(m.kind == "metric" for m in index.read(
        "mentions", text, lambda t: find_mentions(t, index.catalog)))
    return named, tuple((n, _uncued(text, n), tuple(_number_words(text, n)))
                        for n in read_claims(index, text))


def _number_words(text: str, n: ReadNumber) -> Iterable[Span]:
    """A number's span, and its hedge, sign word, ratio's and stating words."""
    yield n.start, n.end
    stated_at = n.start
    for word in (n.hedge, "" if n.sign_word.lower() in SIZE_BANDS else n.sign_word):
        # a verb that states a size too is read by _direction, which holds its band
        at = text.lower().rfind(word, max(0, n.start - len(word) - 12), n.start) if word else -1
        if at >= 0:
            yield at, at + len(word)
            if word == n.hedge and n.bound:
                stated_at = at  # 'took more than 2,000': the verb before the bound
    after = _SIGN_AFTER.match(text, n.end) if n.sign_word else None
    if after is not None and after.group(1).lower() == n.sign_word.lower():
        yield after.span(1)  # 'That was 19 fewer orders': the direction, held with the number
    level = _ITS_LEVEL.match(text, n.end)
    if level and n.width:  # 'rose to 1.9 times its level': the ratio's own words
        yield level.span()
    before = _stated_as(text, n.start) or _stated_as(text, stated_at)
    if before:  # 'stood at', 'the percent change was', 'about' a share: the number is checked
        yield before.span()


_SIGN_AFTER = re.compile(r"\s*([A-Za-z]+)")
"""The word right after a number, which may be its sign word ('19 fewer', '1,230 more')."""


def _uncued(text: str, n: ReadNumber) -> bool:
    """An unsigned number with no word before it in its sentence that says a change is meant
    ('rose', 'a change of', 'by')."""
    if n.signed or n.width or n.share or n.upto is not None:
        return False
    start = max((m.end() for m in _SENTENCE_STOP.finditer(text, 0, n.start)), default=0)
    return not any(w.group().lower() in _CHANGE_CUES for w in _WORD.finditer(text, start, n.start))


def _bare_change(n: ReadNumber, ctx: AnswerContext) -> bool:
    """An uncued number (`_uncued`) that states only cited changes (no level): what it states
    is not read ('Days per user approximately 16.0 %' of a fall; a level of 16 % is no value
    of days per user), so it is not consumed."""
    stating = answer_checker(ctx).matching(n)
    return not any(not s.change for s in stating)


def _of_any(n: ReadNumber, ctx: AnswerContext) -> bool:
    """A number is read as a value of a metric: the text names one (the label checks hold the
    number to it: mislabelled_metric when it is another's), or it states no cited field at all
    (unsupported_number holds it), or some value it states is no metric's, or the text is the
    headline, which states the asked value (those two asked by the caller). A number in a text
    that names no metric has no subject the user can read ('weekly fell 3.12 %', 'yesterday by
    month: … 27,004')."""
    stating = answer_checker(ctx).matching(n)
    return not stating or any(s.source is None for s in stating)


_SENTENCE_STOP = re.compile(r"[.;!?](?=\s)")
_STOP = re.compile(r"[.;!?](?=\s|$)")
"""A sentence's or a clause's end."""


def _found(text: str, ctx: AnswerContext, pattern: re.Pattern[str]) -> tuple[re.Match[str], ...]:
    """Every match of `pattern` in `text`, found once per catalog index and text: every reading
    that looks for it, in every answer that writes the text, shares them."""
    memo: _Memo = ctx.index_.read("found", text, _memo)
    kept = memo.get(id(pattern))
    if kept is None or kept[0] is not pattern:  # searched only where it may match
        got = tuple(matches(pattern, text))
        memo[id(pattern)] = (pattern, got)
        return got
    return kept[1]


_Memo = dict[int, tuple[re.Pattern[str], tuple[re.Match[str], ...]]]
"""A text's matches by pattern, keyed by the pattern's id (re keeps no pattern's hash: each
hash reads its whole compiled code); each entry holds its pattern, so no other takes the id."""


def _memo(_text: str) -> _Memo:
    return {}
_CHANGE_CUES = frozenset({*NUMBER_MOVES, *RISES, *FALLS, *JUDGES, "change", "changed", "changes",
                          "changing", "by", "moved", "moves", "contributed", "contribution",
                          "contributions", "accounted", "delta", "difference", "versus", "vs",
                          "from", "percent", "growth", "better", "worse"})
"""Words before a number that say it is a change (a move, 'a change of', 'by', 'from')."""


_ITS_LEVEL = re.compile(r"(?i)\s*(?:times\s+)?its\s+(?:level|value|size)\b")
_STATED_AS = re.compile(
    rf"(?i)(?:\b(?:{'|'.join(sorted(_VALUE_CUES))})|\bst(?:ood|ands?)\s+at|\b(?:the\s+)?(?:percent(?:age)?\s+)?change\s+(?:of|was|is)"
    r"|\b(?:about|around|roughly|nearly|almost|approximately|some|just))\s+(?:a\s+)?$")
"""Words that state the number after them as a value or a change ('stood at 11,343', 'a change
of 16.0 percent', 'the percent change was -16.0', 'about a sixth'): the number is held to a
cited field at a precision no looser than the words (a hedge the number reader did not widen
its match for leaves it exact)."""
_CUES_ARE_WORDS = all(w.isalpha() for w in _VALUE_CUES)
"""Every match of `_STATED_AS` is letters and white space (its cues are words)."""


def _stated_as(text: str, end: int) -> re.Match[str] | None:
    """`_STATED_AS.search(text, 0, end)`, searched from where the run of letters and white
    space that ends at `end` begins: a match is made of letters and white space and ends at
    `end`, so none starts before that run (the search was of every position of the text
    before it; `\\b` still reads the character before the run)."""
    start = end
    if _CUES_ARE_WORDS:
        while start > 0 and (text[start - 1].isalpha() or text[start - 1].isspace()):
            start -= 1
    else:
        start = 0
    return fit(_STATED_AS, text).search(text, start, end)


def _parts(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A part of a whole ('about a third of all flights'): held to a cited share of the total
    where the catalog says a metric follows (numbers.py)."""
    for n, end in metric_parts(ctx.index_, text):
        yield n.start, end


def _mentioned(text: str, ctx: AnswerContext) -> list[Mention]:
    """The text's mentions, read once per catalog index (shared with the checks)."""
    return ctx.index_.read("mentions", text, lambda t: find_mentions(t, ctx.catalog))


def _mentions(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """Metrics, members and dimensions the catalog governs: held to the cited results
    (mislabelled_metric, mislabelled_member)."""
    keys = _cites(ctx).keys
    mentions, named = ctx.index_.read("words_mentions", text, lambda t: _named(t, ctx))
    for m, spans in named:
        if m.kind == "dimension" and m.name not in keys and not any(
                o.kind == "member" and o.name == m.name and _its_member(ctx, o, mentions, keys)
                for o in mentions):
            continue  # a dimension no cited row is keyed by and no member of it follows
        yield from spans


def _member_owners(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'customers in Mexico', 'users on iOS': the things a named member's dimension is an
    attribute of (an entity of its name: `customer__customer_country`), said just before the
    member with their role; the member itself is held to the cited results (`_mentions`).
    Another noun there ('stores in Mexico' of the customers' country) stays unread."""
    dims = ctx.catalog.get("dimensions", {})
    for m in _mentioned(text, ctx):
        if m.kind != "member":
            continue
        said = _OWNER_BEFORE.search(text, max(0, m.span[0] - 40), m.span[0])
        if said is None:
            continue
        if owns(said["noun"], str((dims.get(m.name) or {}).get("qualified") or m.name)):
            yield said.span("noun")


def _respectively(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'respectively', 'in that order' pairing a list of members with a list of as many
    numbers, each number then held to its own member's cited value (prose.py `respective`,
    `_bound`: a number another member's row states is mislabelled_member)."""
    if "respectively" not in text.lower() and "that order" not in text.lower():
        return
    words = read_words(ctx.index_, "prose", text)
    numbers = read_claims(ctx.index_, text)
    for start, end in sentences_of(text, words.members):
        paired, span = respective(text, numbers, words.members, start, end)
        if paired and span is not None:
            yield span


_OWNER_BEFORE = re.compile(r"\b(?P<noun>[A-Za-z]{3,})\s+(?:in|from|at|on|based\s+in)\s+"
                           r"(?:the\s+)?$")


def _named(text: str, ctx: AnswerContext
           ) -> tuple[list[Mention], tuple[tuple[Mention, tuple[Span, ...]], ...]]:
    """What `_mentions` reads of a text alone, once per catalog index and text: its mentions in
    order, each with its span and a metric label's tail written after it."""
    metrics = ctx.catalog.get("metrics", {})
    mentions = sorted(_mentioned(text, ctx), key=lambda m: m.span)
    out = []
    for m in mentions:
        spans = [m.span]
        label = (metrics.get(m.name, {}).get("label") or "") if m.kind == "metric" else ""
        rest = label.lower().partition(m.words.lower())[2] or " " + label[label.find("("):] * (
            "(" in label)
        if rest.strip() and text[m.span[1]:m.span[1] + len(rest)].lower() == rest:
            spans.append((m.span[1], m.span[1] + len(rest)))  # 'Value moments (legacy)'
        out.append((m, tuple(spans)))
    return mentions, tuple(out)


def _its_member(ctx: AnswerContext, member: Mention, mentions: list[Mention],
                keys: frozenset[str]) -> bool:
    """A member named after a dimension's words is that dimension's: unless its words name a
    member of a dimension the cited rows are keyed by too, and no cited result filters to it
    ('by arrival airport: LGA 3.0 %' of rows keyed by origin: LGA is the origin's)."""
    if not any(k.span == member.span and k.kind == "member" and k.name in keys
               for k in mentions):
        return True
    return carries(ctx, list(_cites(ctx).cited), member.name, member.member or "") is True


def _entity_keys(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A cited row's entity key or numbered member written as it is ('36175', 'N725MQ', the
    departure hour '19'), and the entity's name before it ('By order, 36175'): held to the rows
    the answer cites (numbers.py reads such a number as a label only where it names a row)."""
    cites = _cites(ctx)
    members, numbered = cites.entity(ctx)
    if not members and not numbered:
        return
    for m in _found(text, ctx, _KEY_TOKEN):
        said = m.group().lower()
        if said in members or said in numbered:
            yield m.span()
    for entity in set(members.values()):
        for m in re.finditer(rf"\b{re.escape(entity.replace('_', ' '))}\b", text, re.IGNORECASE):
            yield m.span()


def _dimension_heads(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """The head noun of a cited breakdown's dimension, said alone ('the three airports' of a
    breakdown by origin airport, 'each airline'; 'the months' of a monthly series): the last
    word of the dimension's label (or name), singular or plural, after a word that makes it a
    set ('the', 'each', 'all', a count), where exactly one dimension of the cited breakdowns has
    it.
    It names the rows the claims cite, which the checks of what is said of them hold."""
    dims = {k[3] for k in _breakdowns(ctx)}
    if not dims:
        return
    table = ctx.catalog.get("dimensions", {})
    heads: dict[str, set[str]] = {}
    for dim in dims:
        if dim in _TIME_KEYS:  # 'the months' of a monthly series
            heads.setdefault(dim, set()).add(dim)
            continue
        label = (table.get(dim) or {}).get("label") or dim.replace("_", " ")
        heads.setdefault(label.split()[-1].lower(), set()).add(dim)
    for head, owners in heads.items():
        if len(owners) != 1 or len(head) < 3:
            continue
        for m in re.finditer(rf"(?i){_SET_OF}(?P<head>{re.escape(head)}(?:s|es)?)\b", text):
            yield m.span("head")


_SET_OF = (r"\b(?:the|all|each|every|both|these|those|other|any|no|[0-9]+|two|three|four|five|"
           r"six|seven|eight|nine|ten|twelve)\s+(?:(?:[0-9]+|two|three|four|five|six|seven|eight|"
           r"nine|ten|twelve|other|remaining)\s+)?")
"""Before a dimension's head noun, what makes it the set of cited rows ('the three airports',
'each airport', 'all the months'): the noun alone elsewhere ('by airport') is not read."""


_KEY_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-]*")
"""An entity key or numbered member as written ('N725MQ', '36175'). Its own name: it once
shared `_TOKEN`'s and, defined later, replaced it for the whole module, so the account never
counted a symbol (°, →, ≈) as a word that states something."""


def _kept_out(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'other than Delta', 'excluding Online', 'only United' beside a governed member: held to
    the cited results' filters (scope.find_kept_out: mislabelled_member when a cited result
    counts the member said to be left out; a member kept alone is a member named). 'Only'
    says no other member of its dimension: read only where no cited result breaks that
    dimension down into several members, whose other rows it would speak of ('Only CA and FR
    had more than one' beside a breakdown of four countries is a claim about every row, which
    quantifiers.py reads where it reads the bound)."""
    cues, only = ctx.index_.read("words_exclusions", text, lambda t: _exclusion_words(t, ctx))
    yield from cues
    if only:
        broken = _cites(ctx).broken_down()
        for span, dims in only:
            if not dims & broken:
                yield span


def _exclusion_words(text: str, ctx: AnswerContext
                     ) -> tuple[tuple[Span, ...], tuple[tuple[Span, frozenset[str]], ...]]:
    """What `_kept_out` reads of a text alone, once per catalog index and text: the words that
    keep members out, and each 'only' with the dimensions of the members it keeps."""
    _kept, _out, cues, only = exclusions(text, _mentioned(text, ctx))
    return (tuple(span for _w, span, _r in cues),
            tuple((span, frozenset(part.split(" = ")[0] for part in
                                   read.removeprefix("only ").split(", ")))
                  for _w, span, read in only))


def _periods(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """Dates and periods: held to the cited windows and rows (mislabelled_window)."""
    kind = "prose" if text == ctx.answer.answer else "claim"
    for p in read_words(ctx.index_, kind, text).periods:
        yield p.span
        said = said_end(text, p, answer_windows(ctx))  # 'through May 2013': held to where a
        if said is not None:                             # cited window ends
            yield said


_MOVES = RISES | FALLS
"""The verbs of motion prose.py `_read_moves` holds to a cited change's sign."""
_RUN_MOVES = _MOVES | TREND_RISES | TREND_FALLS
"""Those and the -ing forms trends.py reads of a series."""
_WORD = re.compile(r"[A-Za-z]+")


_TIME_KEYS = frozenset({"day", "week", "month", "quarter", "year"})
SIZE_BANDS = {w: 10.0 for w in ("soared", "surged", "plunged", "plummeted", "collapsed",
                                "tumbled", "spiked", "tanked", "skyrocketed")}
"""Verbs of motion that state a size too (docs/citations.md, "Size words"): each is read only
where the metric's cited relative change is at least this many percent; said of a smaller
change, or of a metric with no cited relative change, it is not read (unread_answer)."""


def _in_band(verb: str, sizes: set[float]) -> bool:
    """The verb states no size, or every cited relative change of its metric is in its band."""
    band = SIZE_BANDS.get(verb)
    return band is None or bool(sizes) and all(size >= band for size in sizes)


CHANGE_BANDS: dict[str, tuple[float, float, int]] = {
    "slightly": (0.0, 5.0, 0), "ticked up": (0.0, 5.0, 1), "ticked down": (0.0, 5.0, -1),
    "edged up": (0.0, 5.0, 1), "edged down": (0.0, 5.0, -1), "edged higher": (0.0, 5.0, 1),
    "edged lower": (0.0, 5.0, -1), "sharply": (10.0, float("inf"), 0),
    "in the single digits": (1.0, 10.0, 0), "in the double digits": (10.0, 100.0, 0)}
"""Size words of a change (docs/citations.md, "Size words"): each is read only where every cited
relative change of the sentence's metric lies in [low, high) percent, either way, and (for
'ticked up' and the like, sign 1 or -1) moves the way it says."""
LEVEL_BANDS: dict[str, tuple[float, float]] = {
    "a handful": (1.0, 10.0), "in the dozens": (12.0, 100.0), "in the hundreds": (100.0, 1_000.0),
    "in the thousands": (1_000.0, 10_000.0), "in the tens of thousands": (10_000.0, 100_000.0),
    "in the millions": (1_000_000.0, 1_000_000_000.0)}
"""Size words of a level: read only where every cited value of the sentence's metric lies in
[low, high)."""
_SIZE_WORD = re.compile(r"(?i)\b(?:(?:only|just)\s+)?(?P<w>" + "|".join(
    re.escape(w).replace(r"\ ", r"\s+") for w in sorted({*CHANGE_BANDS, *LEVEL_BANDS},
                                                        key=len, reverse=True)) + r")\b")


_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z]|\s*$)")
"""A sentence's end ('Inc.;' inside a member's name is not one)."""


def _size_words(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A size word after a metric in its sentence ('ticked up', 'in the hundreds', 'a
    handful'): held to the band of every cited change or value of that metric (CHANGE_BANDS,
    LEVEL_BANDS); outside its band, or with nothing cited to hold it, it is not read."""
    if not _found(text, ctx, _SIZE_WORD):
        return
    changes, levels = _cites(ctx).changes, _cites(ctx).levels
    metrics = sorted((m.span, m.name) for m in _mentioned(text, ctx) if m.kind == "metric")
    stops = [m.end() for m in _found(text, ctx, _SENTENCE_END)]
    for m in _found(text, ctx, _SIZE_WORD):
        start = max([e for e in stops if e <= m.start()] + [0])
        named = [name for (a, _), name in metrics if start <= a < m.start()]
        if not named:
            continue
        word = " ".join(m.group("w").lower().split())
        if word in CHANGE_BANDS:
            low, high, sign = CHANGE_BANDS[word]
            said = changes.get(named[-1], [])
            held = bool(said) and all(low <= abs(v) < high and (not sign or v * sign > 0)
                                      for v in said)
        else:
            low, high = LEVEL_BANDS[word]
            said = levels.get(named[-1], [])
            held = bool(said) and all(low <= abs(v) < high for v in said)
        if held:
            yield m.span()


_SIGNED = frozenset({"pct_change", "delta", "contribution", "share"})
"""Fields whose sign a way of motion is held to."""


def _direction(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A verb of motion after a metric, before the next metric or the sentence's end: held to
    that metric's cited change's sign (prose.py `_read_moves`, labels.py: direction_mismatch),
    or, said of a cited series with 'every week' or 'N weeks in a row', to its rows' moves
    (trends.py, counts.py). A verb with no metric, or of a metric no cited change or series
    holds, is not read. A judging verb ('improved', 'got worse') is read in the prose and the claims
    (not a headline), of a metric whose governance states a polarity (prose.py `judged`)."""
    cites = _cites(ctx)
    judging_held = not isinstance(ctx.answer.value, str) or text != ctx.answer.value
    ways = ctx.index_.read("words_direction" if judging_held else "words_direction_headline",
                           text, lambda t: _ways(t, ctx, judging_held))
    run = None
    for name, names, word, span in ways:
        if not names & cites.signed:
            if not names & cites.series_metrics:
                continue  # no cited change of this metric: nothing holds a way of motion
            if run is None:
                run = any(_found(text, ctx, p) for p in (_UNIVERSAL, _STREAK))
            if not run:
                continue
        if word in _MOVES and not _in_band(word, cites.sizes.get(name, set())):
            continue
        yield span


def _ways(text: str, ctx: AnswerContext, judging_held: bool
          ) -> tuple[tuple[str, frozenset[str], str | None, Span], ...]:
    """What `_direction` reads of a text alone, once per catalog index and text: after each
    metric named, the metric (and every metric named by the same words), its verb of motion
    (lower-cased; None for a move stated before a 'went from') and the span read."""
    mentions = [m for m in _mentioned(text, ctx) if m.kind == "metric"]
    if not mentions:
        return ()  # no metric named: no way of motion is read after one
    metrics = sorted(m.span for m in mentions)
    stops = [m.end() for m in _found(text, ctx, _STOP)] + [len(text)]
    polarity = ctx.index_.derive("polarity", polarities) \
        if judging_held else {}  # the prose's and the claims' direction checks hold them
    out: list[tuple[str, frozenset[str], str | None, Span]] = []
    moved = may_match(_MOVED_BEFORE, text)  # 'went from', 'moved': in few texts
    for k, (_, end) in enumerate(metrics):
        nxt = [metrics[k + 1][0]] if k + 1 < len(metrics) else []
        stop = min([e for e in stops if e >= end] + nxt)
        name = next(m.name for m in mentions if m.span == metrics[k])
        names = frozenset(m.name for m in mentions if m.span == metrics[k])
        judging = name in polarity
        direct = next((m for m in unbracketed(text, _WORD.finditer(text, end, stop))
                       if m.group().lower() in _MOVES or judging and judged(text, m)), None)
        if direct is not None:
            word = direct.group().lower()
            if word not in _MOVES:  # 'improved', 'got worse': held under the metric's polarity
                got = _GOT.search(text, 0, direct.start()) if word in ("better", "worse") else None
                out.append((name, names, word, ((got or direct).start(), direct.end())))
            else:
                out.append((name, names, word, direct.span()))
            continue
        for m in fit(_MOVED_BEFORE, text).finditer(text, end, stop) if moved else ():
            words = m.group().split()
            out.append((name, names, None, (m.start(), m.start() + len(
                " ".join(words[:2 if words[0].lower() == "went" else 1])))))
            break
    return tuple(out)


def _unanchored(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """A pattern its check anchors at the end of the text before a mention ('mainly for',
    'shifted toward'), matched anywhere."""
    return re.compile(pattern.pattern.removesuffix("$"), pattern.flags)


_FLAT_WORD = re.compile(r"(?i)\b(?:(?:essentially|roughly|about|broadly|virtually)\s+)?(?:flat|"
                        r"unchanged|stable|steady)\b")
_PATTERNS = (_FLAT_WORD, _ORDER, _PEAK, _STREAK, _UNIVERSAL, _RECORD,
             _COMPARATIVE, _LEVEL_WORD, _RANK, _SHARE, _VERSUS, _TO, *BASIS_PATTERNS)
"""The patterns of the comparison, order, series, pair, share and basis checks: what they match
is held to the cited rows, windows and fields, where the check that holds it can."""


_PAIRED = (_COMPARATIVE, _LEVEL_WORD)
"""Patterns that compare two members: read only where the pair check holds them to two cited
members' rows (pairs.py `compared_words`: the word between the two members it compares), or
between two metrics in an argument (its premises cite each metric's move)."""
_SERIES = (_PEAK, _STREAK, _UNIVERSAL, _RECORD)
"""Patterns of a series' extreme, run or universal: read only where a claim cites a series
(rows keyed by a period), which the series checks hold them to."""


def _patterns(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """Each pattern's match where its check has something to hold it to: two members for a
    comparison, a member for a rank, a metric whose change is cited for a flat, a cited series
    for a series word ('New users peaks', 'Orders consistently were 702': nothing holds them)."""
    cites = _cites(ctx)
    changed, series = cites.changed, bool(cites.series_metrics)
    argued = cites.argued  # 'because there were fewer orders': the premises carry the move
    # the sentences' names and what joining words may join: found at a match's first need
    # (most texts hold no match of any pattern)
    sentence: Callable[[int], _Names] | None = None
    joined: dict[str, list[Span]] | None = None
    compared = None
    for pattern in _PATTERNS:
        if pattern in _SERIES and not series:
            continue
        for m in _found(text, ctx, pattern):
            if pattern in _JOINING:
                if joined is None:
                    joined = _joined_kinds(text, ctx)
                if not _joins(text, m.span(), joined):
                    continue  # 'Cancellation rate vs 326.4 %': it compares nothing
            if pattern is _UNIVERSAL and not _moves_in_clause(text, m.start()):
                continue  # 'Every month had more than 195': no move the trend check holds
            if pattern is _PEAK and (text, m.start()) not in held_extremes(ctx):
                continue  # 'highest in the third week': no period of a cited series named
            if pattern is _STREAK and not any(cue in m.group().lower() for cue in _STREAK_CUES):
                continue  # 'the third week': no run (counts.py reads only a cued one)
            if sentence is None:
                sentence = _sentence_names(text, ctx)
            names = sentence(m.start())
            if pattern in _PAIRED and names.pair:
                if compared is None:
                    compared = compared_words(
                        ctx, "prose" if text == ctx.answer.answer else "claim", text)
                pair = next((words for words in compared
                             if any(a <= m.start() < b for a, b in words)), None)
                if pair is not None:
                    yield m.span()
                    yield from pair
                    continue
            held = (argued and len(names.metrics) >= 2 if pattern in _PAIRED
                    else names.members > 0
                    if pattern is _RANK else bool(names.metrics & changed)
                    if pattern is _FLAT_WORD else True)
            if m.end() > m.start() and held:
                yield m.span()


def _moves_in_clause(text: str, at: int) -> bool:
    """The clause at `at` states a rise or a fall (trends.py `_said`): what a universal over a
    series ('every week', 'steadily') is held to by the trend check."""
    clause = next((c.group() for c in TREND_CLAUSE.finditer(text) if c.start() <= at < c.end()),
                  "")
    return trend_said(clause) != 0


_JOINING = (_VERSUS, _TO)
"""Patterns that join two things the readings hold ('December 2013 versus November 2013', '0.85 %
→ 3.6 %', 'EWR versus LGA', '$55,865.10 in May 2019, against $59,258.50'): read only between
two of them ('Cancellation rate vs 326.4 %' compares nothing)."""


def _joined_kinds(text: str, ctx: AnswerContext) -> dict[str, list[Span]]:
    """The spans `_JOINING` words may join, by kind: periods, members, numbers (with their
    units)."""
    kind = "prose" if text == ctx.answer.answer else "claim"
    return {"period": [p.span for p in read_words(ctx.index_, kind, text).periods],
            "member": [m.span for m in _mentioned(text, ctx) if m.kind == "member"],
            "number": [*((n.start, n.end) for n in read_claims(ctx.index_, text)),
                       *_units(text, ctx)]}  # '12.4 min → 6.89 min'



def _joins(text: str, span: Span, joined: dict[str, list[Span]]) -> bool:
    """The words at `span` stand between two things a reading holds (spaces and brackets
    aside)."""
    start = len(text[:span[0]].rstrip(" ("))
    end = span[1] + len(text[span[1]:]) - len(text[span[1]:].lstrip(" ("))
    first = span[0] + len(re.sub(r"(?i)\bthe\s+$", "", text[span[0]:span[1]]))  # 'versus the'
    spans = [s for kind in joined.values() for s in kind]
    return any(b == start for _, b in spans) and any(first <= a <= end for a, _ in spans)


@dataclass(frozen=True)
class _Names:
    """What a sentence names: its metrics, how many members, and whether two of them are
    members of one dimension (a pair)."""

    metrics: frozenset[str]
    members: int
    pair: bool


def _sentence_names(text: str, ctx: AnswerContext) -> Callable[[int], _Names]:
    """The names of the sentence at an offset (found once per catalog index and text)."""
    return ctx.index_.read("sentences", text, lambda t: _sentences(t, ctx))


def _sentences(text: str, ctx: AnswerContext) -> Callable[[int], _Names]:
    found = [m for m in _mentioned(text, ctx) if m.kind in ("metric", "member")]
    stops = [m.end() for m in _found(text, ctx, _STOP)
             if not any(a <= m.start() < b for a, b in (x.span for x in found))] + [len(text) + 1]

    def names(at: int) -> _Names:
        end = next(e for e in stops if e > at)
        start = max([e for e in stops if e <= at] + [0])
        inside = [m for m in found if start <= m.span[0] < end]
        members = {(m.name, m.member) for m in inside if m.kind == "member"}
        dims = [name for name, _ in members]
        return _Names(frozenset(m.name for m in inside if m.kind == "metric"), len(members),
                      len(dims) > len(set(dims)))
    return names


def _argued(ctx: AnswerContext) -> bool:
    """The answer carries an argument: a causal or conclusion claim resting on premises."""
    return any(c.claim.kind in ("causal", "conclusion") and c.claim.premises
               for c in ctx.claims)


def _edged(ctx: AnswerContext) -> bool:
    """Some claim cites a tree edge (an exact or influence statement)."""
    return any(isinstance(p, str) and p.startswith("tree:")
               for c in ctx.claims for p in (c.claim.premises or []))


def _causes(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """Cause words, what led a move and a metric denied as the cause: held to the driver and
    the tree edges (prose.py: mislabelled_metric, weak_causal; flat_reasoning); hedges only
    where a claim cites a tree edge."""
    cites = _cites(ctx)
    words, hedges = ctx.index_.read("words_causes", text, lambda t: _cause_words(t, ctx))
    for joins, spans in words:
        # in an argued answer a cause word links what follows it ('because …', 'drove …'): one
        # with nothing after it ('By causes, android had the most …') links nothing
        if joins or cites.argued and not _NOTHING_AFTER.match(text, spans[0][1]):
            yield from spans
    if cites.edged:
        yield from hedges


_NOTHING_AFTER = re.compile(r"\s*(?:[,.;:!?)\]]|$)")


def _cause_words(text: str, ctx: AnswerContext
                 ) -> tuple[tuple[tuple[bool, tuple[Span, ...]], ...], tuple[Span, ...]]:
    """What `_causes` reads of a text alone, once per catalog index and text: each cause word
    with whether its sentence joins two metrics (or names what led a move) and its spans, and
    the hedges."""
    if not any(_found(text, ctx, pattern) for pattern in _CAUSES):
        return (), _hedges(text, ctx)  # most texts: their sentences' names are not read here
    sentence = _sentence_names(text, ctx)
    led = _led_spans(text, ctx)
    metric_starts = {m.span[0] for m in _mentioned(text, ctx) if m.kind == "metric"}
    words = []
    for pattern in _CAUSES:
        for m in _found(text, ctx, pattern):
            if pattern is _DENIED_ANYWHERE and m.end() not in metric_starts:
                continue  # 'than one', 'not only': a denial is of the metric right after it
            names = sentence(m.start())  # a cause joins two metrics; what led a move, a member
            joins = len(names.metrics) >= 2 or bool(
                pattern is _LED_ANYWHERE and names.metrics and m.start() in led)
            spans = [m.span()]
            effect = _THE_MOVE.match(text, m.end())
            if effect and effect.group("w").lower() in _MOVE_NOUNS:
                spans.append(effect.span())  # 'drove the fall': the answer's own change
            words.append((joins, tuple(spans)))
    return tuple(words), _hedges(text, ctx)


def _hedges(text: str, ctx: AnswerContext) -> tuple[Span, ...]:
    return tuple(m.span() for pattern in (HEDGE, _INFLUENCE) for m in _found(text, ctx, pattern))


_THE_MOVE = re.compile(r"(?i)\s+(?:the|this|that|its)\s+(?P<w>[a-z]+)\b")
_MOVE_NOUNS = frozenset({"fall", "rise", "drop", "decline", "increase", "decrease", "jump", "dip",
                         "change", "move", "movement", "growth", "slide", "surge", "gain", "loss"})
"""The answer's own change named after a cause word ('X drove the fall'): the cause check
(prose.py `_DROVE`) holds the cause to the driver of that change."""
_LED_ANYWHERE = _unanchored(_LED)


def _led_spans(text: str, ctx: AnswerContext) -> set[int]:
    """Where 'mainly for', 'led by', … start right before a member, as the led check
    (prose.py `_read_led`) reads them: 'Transaction amount by mainly in 2022: US …' names no
    member after the words, and nothing holds them."""
    return {led[0] for m in _mentioned(text, ctx)
            if m.kind == "member" and (led := led_before(text, m.span[0])) is not None}
_DENIED_ANYWHERE = _unanchored(_DENIED)
"""'not', 'rather than' right before a metric, which prose.py `_denied` holds (a metric denied
as the cause): read only there."""
_MAINLY = re.compile(r"(?i)\b(?:most\s+of\s+all|mostly|mainly|chiefly|largely)\s+(?=because\b)")
"""What led a move, said before its cause ('mainly because days per user fell'): held to the
driver the causal claim's exact tree edge names (unsupported_driver)."""
_CAUSES = (CAUSE, _DROVE, _LED_ANYWHERE, _MAINLY, _DENIED_ANYWHERE)
"""The patterns of `_cause_words`' cause words."""

_INFLUENCE = re.compile(r"(?i)\bhypothesis\b|\b(?:an\s+)?influence\s+edge\b|\bnot\s+attributed\b"
                        r"|\bonly\b(?=:)")
"""The words that mark a hypothesis over an influence edge ('Hypothesis, correlational only:',
'an influence edge: correlational, not attributed'): held to a cited tree statement."""

_ATTRIBUTED = re.compile(
    r"(?i)\bexact\s+LMDI\s+attribution\b|\bof\s+the\s+change\b|\bcontributed\b|\baccounts\s+for\b")
"""An attribution's words: held to the cited contribution and share fields (numbers.py holds
their numbers, labels.py the metric they are said of)."""
_ARGUED = re.compile(
    r"(?i)\bmix\s+shifted\b|\ba\s+mix\s+effect\b|\ba\s+rate\s+effect\b|\bmoved\s+both\b"
    r"|\bmoved\s+in\s+step\s+within\s+its\s+members\b|\bmoved\b"
    r"|\bspread\s+evenly\s+across\b|\bits\s+share\s+of\s+the\s+change\s+in\b"
    r"|\bclearly\s+exceeds\s+its\s+share\s+of\b|\bin\s+the\s+earlier\s+window\b"
    r"|\bagainst\b|\bfor\s+all\b")
"""The rules analyst's diagnosis of a mix and a rate: held to the mix and rate claims the
argument rests on and the rows they cite (the member's change and base)."""


def _attribution(text: str, ctx: AnswerContext) -> Iterable[Span]:
    if _cites(ctx).attributed:
        for m in _found(text, ctx, _ATTRIBUTED):
            yield m.span()
    if _cites(ctx).argued:
        for m in _found(text, ctx, _ARGUED):
            effect = m.group().lower().split()[-2] if m.group().lower().endswith("effect") else ""
            if effect and not _EFFECT_OF[effect].search(_clause_before(text, m.start())):
                continue  # '… moved within X (a mix effect)': the label names the other move
            yield m.span()


_EFFECT_OF = {"mix": re.compile(r"(?i)\bmix\s+shifted\b"),
              "rate": re.compile(r"(?i)\bmoved\s+(?:in\s+step\s+)?within\b")}
"""The move each effect's label names: '(a mix effect)' follows a mix that shifted, '(a rate
effect)' a metric that moved within members."""
_CLAUSE_START = re.compile(r"(?i)[;:.(]|\bwhile\b|\band\b|\bbut\b")


def _clause_before(text: str, at: int) -> str:
    """The clause a label at `at` follows: back to the last clause break before it (the label's
    own bracket aside)."""
    end = text.rfind("(", 0, at)
    end = end if end >= 0 and not text[end + 1:at].strip(" a") else at
    starts = [m.end() for m in _CLAUSE_START.finditer(text, 0, end)]
    return text[starts[-1] if starts else 0:end]


_LISTED = re.compile(r"(?i)\(the\s+rest\s+are\s+listed\s+with\s+the\s+answer\)")
_AT_END = re.compile(r"(?i)\bat\s+the\s+end\s+of(?:\s+each\s+period)?\b")
_OF_THEM = re.compile(r"(?i)\bof\s+them\b")


def _structure(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A listing's and a level's structure words: 'the rest are listed with the answer' held to
    the answer's listed values (more than the prose speaks), 'at the end of' to a
    point-in-time metric's cited value (point_in_time_as_period), 'N of them' to a cited
    count."""
    if ctx.answer.values:
        for m in _found(text, ctx, _LISTED):
            yield m.span()
    for pattern in (_AT_END, _OF_THEM):
        for m in _found(text, ctx, pattern):
            yield m.span()


class _Cites:
    """What the readings hold words to, of every claim's citations: found once per answer,
    not once per text and reading (each of some 30 readings of each text asked again). What
    few texts need (windows' lengths, units, entity keys) is found when first asked. It holds
    no reference to the context that holds it: no cycle outlives the audit."""

    def __init__(self, ctx: AnswerContext) -> None:
        cited = tuple(c for claim in ctx.claims for c in claim.cited)
        self.cited = cited
        self.keys = frozenset(k for c in cited for k, _ in c.citation.selector)
        """Every key a cited row is selected by."""
        self.signed = frozenset(c.metric for c in cited if c.citation.field in _SIGNED)
        """Metrics with a cited field whose sign a way of motion is held to."""
        self.changed = frozenset(c.metric for c in cited
                                 if c.citation.field in ("delta", "pct_change"))
        self.series_metrics = frozenset(c.metric for c in cited if any(
            k in _TIME_KEYS for k, _ in c.citation.selector))
        """Metrics cited in rows keyed by a period (a series)."""
        self.sizes: dict[str, set[float]] = {}
        """Each metric's cited relative changes, unsigned (a size word's band)."""
        self.changes: dict[str, list[float]] = {}
        self.levels: dict[str, list[float]] = {}
        for c in cited:
            if c.citation.field == "pct_change" and isinstance(c.value, int | float):
                self.sizes.setdefault(c.metric, set()).add(abs(c.value))
            if isinstance(c.value, int | float) and not isinstance(c.value, bool):
                into = self.changes if c.citation.field == "pct_change" else \
                    self.levels if c.citation.field == "value" else None
                if into is not None:
                    into.setdefault(c.metric, []).append(float(c.value))
        fields = {c.citation.field for c in cited}
        self.argued = _argued(ctx)
        self.edged = _edged(ctx)
        self.attributed = bool(fields & {"contribution", "share"})
        self.shared = bool(fields & SHARE_FIELDS)
        self.grains = {c.result.grain for c in cited}
        self._days: set[int] | None = None
        self._broken: frozenset[str] | None = None
        self._units: tuple[re.Pattern[str] | None] | None = None
        self._entity: tuple[dict[str, str], set[str]] | None = None

    def broken_down(self) -> frozenset[str]:
        """The dimensions some cited result breaks down into two or more members."""
        if self._broken is None:
            results = {id(c.result): c.result for c in self.cited}.values()
            self._broken = frozenset(
                k for r in results for k in r.keys
                if k not in GRAIN_KEYS and len({row.key.get(k) for row in r.rows}) >= 2)
        return self._broken

    def days(self) -> set[int]:
        """The length in days of every window a cited result covers."""
        if self._days is None:
            self._days = _cited_days(self.cited)
        return self._days

    def units(self, ctx: AnswerContext) -> re.Pattern[str] | None:
        """A unit written after a number, of a cited metric's governed unit (`_units`)."""
        if self._units is None:
            self._units = (_unit_after(ctx, self.cited),)
        return self._units[0]

    def entity(self, ctx: AnswerContext) -> tuple[dict[str, str], set[str]]:
        """Cited entity keys (numbers.py `entity_members`) and cited rows' numbered members."""
        if self._entity is None:
            self._entity = (entity_members(ctx), {
                str(v).lower() for c in self.cited for k, v in c.row.key.items()
                if k not in GRAIN_KEYS and str(v).isdigit()})
        return self._entity


def _cites(ctx: AnswerContext) -> _Cites:
    if ctx.words is None:
        ctx.words = _Cites(ctx)
    found: _Cites = ctx.words
    return found


def _unit_after(ctx: AnswerContext, cited: Iterable[Cited]) -> re.Pattern[str] | None:
    metrics = ctx.catalog.get("metrics", {})
    units = {metrics.get(c.metric, {}).get("unit") for c in cited}
    if units & set(TIME_UNITS) and ctx.index_.derive("time unit", time_unit) in units:
        units |= set(TIME_UNITS)
    # a quantity one cited unit measures is converted to it (numbers.py `read_stated`): any of
    # its units is read
    targets = measure_targets(units)
    units |= {u for u, (quantity, _, _) in MEASURES.items() if quantity in targets}
    spelled = {w for u in units if u for w in UNIT_SPELLINGS.get(u, (u.replace("_", " "),))}
    words = sorted(spelled | _count_nouns(metrics, cited, spelled), key=len, reverse=True)
    if not words:
        return None
    return re.compile(rf"(?i)\s*(?:{'|'.join(map(re.escape, words))})(?![\w°/])")


def _count_nouns(metrics: dict[str, Any], cited: Iterable[Cited], units: set[str]) -> set[str]:
    """What a cited count counts, written after a number as its unit ('by 127 users' of active
    users, '9 claims'): the last word of the metric's label, a plural noun, of a metric with no
    unit but a count; never a unit of time or measure ('active days' counts no duration)."""
    out: set[str] = set()
    for c in cited:
        meta = metrics.get(c.metric, {})
        if meta.get("unit") not in (None, "count"):
            continue
        words = str(meta.get("label") or c.metric).replace("_", " ").lower().split()
        noun = words[-1] if words else ""
        if noun.isalpha() and noun.endswith("s") and not noun.endswith("ss") \
                and noun not in units and noun not in _ALL_UNIT_WORDS:
            out.add(noun)
    return out


UNIT_SPELLINGS = {**TIME_SPELLINGS, **MEASURE_SPELLINGS}
"""How each governed unit is written after a number."""
_ALL_UNIT_WORDS = frozenset(w.lower() for ws in UNIT_SPELLINGS.values() for w in ws)


def _units(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A unit written after a number, where a cited metric is governed in that unit, or in a
    unit of time when one is (the number is converted to the metric's unit, numbers.py
    `time_unit`): the number is then held to that metric's cited fields (numbers.py)."""
    after = _cites(ctx).units(ctx)
    if after is None:
        return
    for n in read_claims(ctx.index_, text):
        m = after.match(text, n.end)
        if m:
            yield m.span()


_GRAIN_WORDS = re.compile(r"(?i)\b(?:by\s+(?P<by>day|week|month|quarter|year)\b|(?:in\s+)?(?:the\s+)?"
                          r"(?P<in>day|week|month|quarter|year)(?:\s+(?:of|starting))?"
                          r"(?=\s+[0-9]{4}-[0-9]{2}))")


def _grains(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'by month', 'in the week of': held to the time grain of the rows the claims cite."""
    keys = _cites(ctx).keys
    for m in _found(text, ctx, _GRAIN_WORDS):
        if (m.group("by") or m.group("in")).lower() in keys:
            yield m.span()


_ADJECTIVE = re.compile(r"(?i)\b(?P<g>daily|weekly|monthly|quarterly|yearly|annual)\b")
_LENGTHS = {"daily": (1, 1), "weekly": (7, 7), "monthly": (28, 31), "quarterly": (90, 92),
            "yearly": (365, 366), "annual": (365, 366)}
_GRAIN_OF = {"daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
             "yearly": "year", "annual": "year"}


def _cited_days(cited: Iterable[Cited]) -> set[int]:
    """The length in days of every window a cited result covers."""
    out = set()
    for c in cited:
        for cov in c.result.coverage:
            window = cov.get("requested") or {}
            try:
                start, end = (dt.date.fromisoformat(str(window[k])[:10]) for k in ("start", "end"))
            except (KeyError, ValueError):
                continue
            out.add((end - start).days + 1)
    return out


def _grain_adjectives(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'weekly revenue', 'monthly orders': held to the cited windows' length or grain."""
    matches = _found(text, ctx, _ADJECTIVE)
    if not matches:
        return
    days, grains = _cites(ctx).days(), _cites(ctx).grains
    for m in matches:
        word = m.group("g").lower()
        low, high = _LENGTHS[word]
        if _GRAIN_OF[word] in grains or any(low <= d <= high for d in days):
            yield m.span()


_WENT = re.compile(r"(?i)\bwent\b(?=\s+from\s+\S+\s+to\b)")
"""'went from A to B': a move stated by its ends, held to the cited ends (ends.py)."""


def _went(text: str, ctx: AnswerContext) -> Iterable[Span]:
    for m in _found(text, ctx, _WENT):
        yield m.span()


_SHARE_OF = re.compile(r"(?i)\b(?:the\s+)?share\s+of\b|\bhad\b(?=\s+[0-9.]+\s?%\s+of\b)")


def _shares(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'the share of X', 'had N % of': held to a cited share field."""
    if _cites(ctx).shared:
        for m in _found(text, ctx, _SHARE_OF):
            yield m.span()


_NO_MEMBER = re.compile(r"(?i)\bAcross\b|\bthrough\b|\bno\s+member's\s+share\b")


def _no_member(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'Across DIMENSION (A through B), no member's share of the change in M clearly exceeds its
    share of W in the earlier window': held to a claim that cites the whole's change and every
    listed member's base (the fields both shares are computed from)."""
    if "no member's share" not in text:
        return
    claim = next((c for c in ctx.claims if c.claim.text == text), None)
    if claim is None or not any(c.citation.field == "delta" and not c.citation.selector
                                for c in claim.cited):
        return
    for m in _found(text, ctx, _NO_MEMBER):
        yield m.span()


_COUNT_BEFORE = re.compile(r"(?i)(?:\ball|\bacross\s+the|\bthe\s+figures\s+cover|\b(?:is|are)\s+"
                           r"given\s+for|\bfor)\s+$")
_COUNT_AFTER = re.compile(r"(?i)\s+(?:[\w'-]+\s+){0,3}?(?P<w>(?:are|were)\s+(?:listed|cited)\b)"
                          r"|\s+(?:[\w'-]+\s*){0,3}?(?P<r>,\s+the\s+rows\s+are\s+cited\b)")


def _counts(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A count of members ('All 5 countries are listed', 'across the 3 platforms'): held to
    the rows the claims cite (counts.py: unsupported_number)."""
    for c in read_counts(ctx.index_, text):
        yield c.start, c.end
        before = _COUNT_BEFORE.search(text, 0, c.start)
        if before:
            yield before.span()
        after = _COUNT_AFTER.match(text, c.end)
        if after:
            yield after.span("w" if after.group("w") else "r")
        if c.of is not None:  # 'k of the n stores rose': the members whose change moved so
            stop = min([m.start() for m in re.finditer(r"[.;!?]", text[c.end:])] + [len(text)])
            for m in _WORD.finditer(text, c.end, c.end + stop if stop < len(text) else stop):
                if m.group().lower() in _MOVES:
                    yield m.span()
                    break


_DENIAL = re.compile(rf"(?i)\b(?:not|never|n['’]t)\s+(?:(?:have|has|had|been|really)\s+)*"
                     rf"(?=(?:{'|'.join(sorted(_MOVES))})\b)")
_OVER = re.compile(r"(?i)\bover\s+the\s+period\b|\bthe\s+(?:period|week|month|quarter|year)\s+"
                   r"before\b|\bthe\s+series\b")


def _denials(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A denied move ('has not risen', 'never fell'), a move called flat, the cited window
    ('over the period', 'the period before'), the cited series: held to the cited change's sign
    and size (direction_mismatch) and the cited windows (mislabelled_window)."""
    for pattern in (_DENIAL, _OVER):
        for m in _found(text, ctx, pattern):
            yield m.span()


_IGNORED = re.compile(r"\(Ignored an instruction in the question, (?P<q>['\"])(?P<said>.*?)(?P=q): I "
                      r"report only what governed queries return\.\)")


def _ignored(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """The rules analyst's note of an instruction it ignored: held to the question, whose words
    it quotes verbatim (the quote states nothing about the data)."""
    for m in _found(text, ctx, _IGNORED):
        if m.group("said") in (ctx.question or ""):
            yield m.span()


_ASSUMED = re.compile(r"\(Assumed no window named: (?:the whole covered range, (?P<a>\d{4}-\d\d-\d\d)"
                      r"\.\.(?P<b>\d{4}-\d\d-\d\d)|the last whole week, (?P<wa>\d{4}-\d\d-\d\d)"
                      r"\.\.(?P<wb>\d{4}-\d\d-\d\d), against the week before|the value at the end "
                      r"of coverage, (?P<end>\d{4}-\d\d-\d\d))\.\)")


def _assumed(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """The rules analyst's note of the window it took when the question named none: held to
    the window every cited result was asked for first (the range or the week; for a value at
    the end of coverage, the day that window ends)."""
    if "(Assumed no window named: " not in text:
        return  # most texts: no walk over the cited coverage
    asked = {(str(c.result.coverage[0]["requested"]["start"]),
              str(c.result.coverage[0]["requested"]["end"]))
             for c in _cites(ctx).cited
             if c.result.coverage and c.result.coverage[0].get("requested")}
    for m in _found(text, ctx, _ASSUMED):
        stated = (m.group("a") or m.group("wa"), m.group("b") or m.group("wb"))
        ends = {end for _, end in asked}
        if asked == {stated} or (m.group("end") and ends == {m.group("end")}):
            yield m.span()


_ALL_DATA = re.compile(r"\(Assumed no window named: all the data\.\)|\ball the data\b")
_UNBOUNDED = ("0001-01-01", "9999-12-31")
"""The window a governed call asked with none reads (every row: no time constraint)."""


def _all_data(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'In all the data', and the rules analyst's note that it took all the data when the
    question named no window (a metric whose data has no covered range): held where every
    cited result was asked with no window."""
    if "all the data" not in text:
        return
    asked = {(str(c.result.coverage[0]["requested"]["start"]),
              str(c.result.coverage[0]["requested"]["end"]))
             for c in _cites(ctx).cited
             if c.result.coverage and c.result.coverage[0].get("requested")}
    if asked == {_UNBOUNDED}:
        yield from (m.span() for m in _found(text, ctx, _ALL_DATA))


_BEGINS = re.compile(r"\(The data begins (?P<day>\d{4}-\d\d-\d\d): [^()]{1,60}? is answered from "
                     r"that day\.\)")


def _begins(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """The rules analyst's note of a window the data begins inside ('(The data begins
    2018-02-01: 2018 is answered from that day.)'): held to a cited result whose window is cut
    at its start on that day (at its end too when the data also ends inside it: `_ends` holds
    that note; the `partial_period` finding still caveats the answer)."""
    if "(The data begins " not in text:
        return  # most texts: no walk over the cited coverage
    begun = {str(cov["covered"]["start"]) for c in _cites(ctx).cited for cov in c.result.coverage
             if cov.get("partial") and cov.get("covered")
             and str(cov["covered"]["start"]) > str(cov["requested"]["start"])}
    for m in _found(text, ctx, _BEGINS):
        if m.group("day") in begun:
            yield m.span()


_ENDS = re.compile(r"\(The data ends (?P<day>\d{4}-\d\d-\d\d): [^()]{1,60}? is answered to date, "
                   r"through that day\.\)|\bto date, through (?P<words>\d{1,2} [A-Z][a-z]+ \d{4})\b")


def _ends(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """The rules analyst's words for a window the data ends inside, answered to date (the note
    '(The data ends 2026-06-17: June 2026 is answered to date, through that day.)' and a
    claim's 'in June 2026 to date, through 17 June 2026'): held to a cited result whose window
    is cut at its end on that day (the `partial_period` finding still caveats the answer)."""
    if "to date, through " not in text:
        return  # most texts: no walk over the cited coverage
    ended = {str(cov["covered"]["end"]) for c in _cites(ctx).cited for cov in c.result.coverage
             if cov.get("partial") and cov.get("covered")
             and str(cov["covered"]["end"]) < str(cov["requested"]["end"])}
    said = {period_words(day, day): day for day in ended}
    for m in _found(text, ctx, _ENDS):
        if m.group("day") in ended or said.get(m.group("words") or "") is not None:
            yield m.span()


_WHOLE_RANKED = re.compile(r"\(Ranked over the (?P<grain>day|week|month|quarter|year)s the data "
                           r"covers whole: (?P<span>[^()]{1,60}?)\.\)")


def _ranked_whole(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """The rules analyst's note of a ranking of periods asked over a window the data covers in
    part ('(Ranked over the months the data covers whole: January to July 2019.)'): held to a
    cited result by that grain over that window (the question's window, not the cited one, is
    the scope check's: off_question_window still caveats the answer)."""
    if "covers whole" not in text:
        return
    windows = {(c.result.grain, period_words(str(cov["requested"]["start"]),
                                             str(cov["requested"]["end"])))
               for c in _cites(ctx).cited for cov in c.result.coverage if cov.get("requested")}
    for m in _found(text, ctx, _WHOLE_RANKED):
        if (m.group("grain"), m.group("span")) in windows:
            yield m.span()


_LEFT_OUT = re.compile(r"The rows with no [\w ]{1,40}? recorded are left out of the list\.")


def _left_out(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """The rules analyst's note of a breakdown's rows with no member ('The rows with no
    country recorded are left out of the list.'): held to a cited breakdown holding such a row
    (a key with no member)."""
    if "left out of the list" not in text or not any(
            not v for c in _cites(ctx).cited for row in c.result.rows for v in row.key.values()):
        return
    for m in _found(text, ctx, _LEFT_OUT):
        yield m.span()


def _superlatives(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'the largest', 'of any', 'no other' over a dimension the clause names (or a member of
    it): held to a cited breakdown by that dimension that compares every member
    (comparisons.py: unbacked_comparison, or the extreme's member when one is named)."""
    return superlatives(ctx, text)


def _quantifiers(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'every', 'all', 'each', 'no', 'none of the', 'only' before a bound over a cited
    breakdown or series, and the bound: held to every cited row (quantifiers.py; numbers.py
    withholds one a row contradicts)."""
    if text != ctx.answer.answer:
        return
    after = _cites(ctx).units(ctx)
    for q in read_quantified(ctx, text):
        if q.unproven:
            continue  # said of rows no reading can tell: not checked, shown unread
        yield q.words
        yield from q.excepted
        yield from _number_words(text, q.number)  # the bound, held to every row
        unit = after.match(text, q.number.end) if after is not None else None
        if unit:  # 'under 20 minutes': converted to the metric's unit before it was held
            yield unit.span()


def _times(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """'N times as many … as' between two cited members: held to the ratio of their rows
    (times.py; numbers.py withholds one the rows contradict)."""
    if text != ctx.answer.answer:
        return
    for t in read_times(ctx, text):
        yield from t.words


def _gaps(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A gap between two cited members ('outsold Chai by 28 units', '68 flights ahead of
    ATL'): held to the difference of their rows (gaps.py; numbers.py withholds one the rows
    contradict)."""
    if text != ctx.answer.answer:
        return
    for g in read_gaps(ctx, text):
        yield from g.words


def _row_moves(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A move between two rows of a cited series ('flights rose by about 3,900 from February to
    March', 'revenue fell 5.73 % in May'): held to the two rows (rowmoves.py; prose.py and
    numbers.py withhold one the rows contradict)."""
    for move in read_row_moves(ctx, text):
        if move.direction_holds and move.number_holds:
            yield from move.words


def _counted_moves(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A count of a cited series' moves one way ('dipped twice, in February and in May'): held
    to every step between its cited rows (rowmoves.py; numbers.py withholds a count the rows
    contradict)."""
    for counted in read_counted_moves(ctx, text):
        if counted.holds:
            yield from counted.words


def _sums(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A sum of cited rows ('the top three airlines accounted for 602 cancellations', 'Q2
    revenue totalled about $173,900'): held to the rows it adds (sums.py; numbers.py withholds
    one the rows contradict)."""
    after = _cites(ctx).units(ctx)
    for s in (*read_sums(ctx, text), *read_shares(ctx, text)):
        if s.holds:
            yield from s.words
            unit = after.match(text, s.number.end) if after is not None else None
            if unit:
                yield unit.span()


def _combined(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A row compared with the sum of others ('Online took more orders than all the other
    stores combined'): held to the rows on both sides (combined.py; a comparison they
    contradict is mislabelled_member)."""
    for c in read_combined(ctx, text):
        if c.holds:
            yield from c.words


def _spreads(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """How far apart cited rows lie ('within 5 minutes of each other', 'ranged from about
    25,000 to about 29,400'): held to the rows (spreads.py; numbers.py withholds one the rows
    contradict)."""
    for s in read_spreads(ctx, text):
        if s.holds:
            yield from s.words


def _rates(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A cited total said per unit of time ('about 34 cancellations a day in June',
    'annualised, about $732k'): held to the total over its window (rates.py; numbers.py
    withholds one no total bears out)."""
    for r in read_rates(ctx, text):
        if r.holds:
            yield from r.words


def _shapes(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """A series' shape ('the decline accelerated in May', 'the steepest rise of the year',
    'for the first time since May', 'since March'): held to the cited series over the period
    the clause scopes (shape.py); a shape the series does not hold is not read."""
    return read_shapes(ctx, text)


def _runs(text: str, ctx: AnswerContext) -> Iterable[Span]:
    """The verb of a run or a universal over a cited series ('it rose for 3 weeks in a row',
    'fell every week'), whatever its subject: held to the series' rows (counts.py runs,
    trends.py universal_direction)."""
    if not _cites(ctx).series_metrics:
        return
    for pattern in (_STREAK, _UNIVERSAL):
        for run in _found(text, ctx, pattern):
            start = max([m.end() for m in re.finditer(r"[.;!?](?=\s|$)", text[:run.start()])]
                        + [0])
            verbs = [m for m in _WORD.finditer(text, start, run.start())
                     if m.group().lower() in _RUN_MOVES]
            if verbs:
                yield verbs[-1].span()


READINGS: tuple[Reading, ...] = (
    _numbers, _mentions, _member_owners, _kept_out, _periods, _direction, _units, _grains, _structure,
    _attribution, _causes, _shares, _no_member, _counts, _denials, _parts, _went,
    _grain_adjectives, _quantifiers, _superlatives, _times, _respectively, _gaps, _row_moves, _counted_moves,
    _sums, _combined,
    _spreads, _rates, _size_words, _ignored, _assumed, _all_data,
    _begins, _ends, _left_out, _ranked_whole,
    _runs, _shapes, _patterns, _entity_keys, _dimension_heads)
"""Every reading of the answer's words, each holding what it consumes to the evidence."""


TEXT_ONLY = frozenset({"_denials", "_parts", "_went", "_counts"})
"""Readings of the text and the catalog alone: read once per catalog index and text.
`_patterns` is not one: what it reads depends on what the answer cites (a series, a change,
two members), so a reading kept from another answer of the same text would be wrong (the
public API and the CLI re-audit disagreed once the index kept readings longer)."""


def _spans(reading: Reading, kept: str | None, text: str, ctx: AnswerContext
           ) -> Iterable[Span]:
    if kept is not None:
        return ctx.index_.read(kept, text, lambda t: tuple(reading(t, ctx)))
    return reading(text, ctx)


def stating(text: str) -> list[Span]:
    """The words of `text` that state something: every token but the neutral ones and a
    possessive's 's (what `account` holds each reading to; the page marks the same words)."""
    return [m.span() for m in _TOKEN.finditer(text)
            if m.group().lower() not in NEUTRAL and text[m.start() - 1:m.end()] not in
            ("'s", "’s")]


def _stating(text: str) -> tuple[tuple[Span, ...], bytes]:
    """The stating words' spans, and a mask of their bytes (1 on each)."""
    spans = tuple(stating(text))
    mask = bytearray(len(text) + 1)
    for a, b in spans:
        mask[a:b] = b"\x01" * (b - a)
    return spans, bytes(mask)


_RUN = tuple((reading, reading.__name__.strip("_"),
              f"words{reading.__name__}" if reading.__name__ in TEXT_ONLY else None)
             for reading in READINGS)
"""Each reading, its name as the account records it, and the kind its spans are kept under
when it reads the text alone."""
_QUICK_ORDER = (
    "mentions", "numbers", "periods", "units", "attribution", "no_member", "causes", "shares",
    "member_owners", "structure", "grains", "patterns", "superlatives", "runs", "combined",
    "direction", "times",
    "denials", "dimension_heads", "counts", "quantifiers", "gaps", "all_data",
    "grain_adjectives", "left_out", "rates", "ranked_whole", "kept_out", "counted_moves",
    "assumed", "begins", "shapes", "ignored", "parts", "spreads", "entity_keys", "row_moves",
    "went", "sums", "ends", "size_words", "respectively")
"""The order `account` runs the readings in where the prose has no guessed number: the words
consumed are the union of the readings' spans whatever their order, and the account stops once
every stating word is consumed, so the readings that most often consume a text's last words
for the least time run first (fitted by simulation over the audits of the held-out edit corpora
and their fault injections: a fifth less time in the account there, a quarter less over `bench
audit`'s traces)."""
_QUICK: tuple[tuple[Reading, str, str | None], ...] = tuple(
    sorted(_RUN, key=lambda r: _QUICK_ORDER.index(r[1])))


def account(text: str, ctx: AnswerContext) -> Account:
    """Which spans of `text` the readings consumed, and the runs of words none did. Readings
    run in order (`_QUICK_ORDER`) until every word that is not neutral is consumed (what a later
    one would consume too changes nothing the user is shown)."""
    tokens, mask = ctx.index_.read("stating", text, _stating)
    covered = bytearray(len(text) + 1)
    left = bytearray(mask)  # 1 on every byte of a stating word no reading covered yet
    read: list[tuple[Span, str]] = []
    # where the prose's numbers are guessed (`_numbers` asks first, as before), what lies
    # between two unread words depends on which readings ran before the stop: READINGS' order
    guessed = guessed_numbers(ctx) if text == ctx.answer.answer else set()
    for reading, name, kept in _RUN if guessed else _QUICK:
        if left.find(1) < 0:
            break  # every stating word is consumed
        for a, b in _spans(reading, kept, text, ctx):
            read.append(((a, b), name))
            if covered.find(0, a, b) >= 0:  # most spans cover what an earlier one did
                covered[a:b] = b"\x01" * (b - a)
                left[a:b] = bytes(b - a)
                if not guessed and left.find(1) < 0:
                    break  # every stating word is consumed: the reading's other spans change
                    # nothing shown (`_patterns` is left before its other patterns are read)
    if text == ctx.answer.answer:
        # a number only a derivation over the cited rows gives stays unread, whatever other
        # reading took its words ('three quarters' of a share's words): derivable.py
        for a, b in guessed:
            covered[a:b] = bytes(b - a)
    # a token is left while some byte of it is not covered
    tokens = tuple((a, b) for a, b in tokens if covered.find(0, a, b) >= 0)
    unread: list[Span] = []
    for a, b in tokens:
        if unread and _joined(text, unread[-1][1], a, covered):
            unread[-1] = (unread[-1][0], b)
        else:
            unread.append((a, b))
    return Account(text, tuple(read), tuple(unread))


def _joined(text: str, end: int, start: int, covered: bytearray) -> bool:
    """Two unread words form one quoted phrase when only spaces and neutral words lie between."""
    between = text[end:start]
    if between in (".", ",") and text[end - 1:end].isdigit() and text[start:start + 1].isdigit():
        return True  # one number: '18.4', '12,834'
    return not any(covered[end:start]) and all(
        w.lower() in NEUTRAL for w in _TOKEN.findall(between)) and not re.search(r"[.;:!?()]",
                                                                                 between)


def texts(ctx: AnswerContext) -> list[tuple[str, str]]:
    """(where, text) of every text of the answer the user reads."""
    answer = ctx.answer
    out = [("answer", answer.answer or "")]
    if isinstance(answer.value, str):
        out.append(("answer.value", answer.value))
    out += [(f"c{c.index}", c.claim.text or "") for c in ctx.claims]
    return out


@emits("unread_answer")
def find_unread_answer(ctx: AnswerContext) -> list[Finding]:
    """Words of the prose, the headline or a claim's text that no reading of the audit
    consumed and that are not neutral: quoted back, the answer served with caveats."""
    if ctx.answer.status != "answered":
        return []
    out = []
    for where, text in texts(ctx):
        told = account(text, ctx)
        words = told.unread_words
        if words:
            quoted = ", ".join(f"'{w}'" for w in words)
            out.append(Finding(
                "unread_answer", where,
                f"{_place(where)} says {quoted}, which no check of the audit reads: not "
                f"checked. Restate it in words the audit checks (a number with its unit, a "
                f"metric, member or period the claims cite, rose/fell), or remove it.",
                {"words": words, "text": text, "spans": [list(s) for s in told.unread]},
                "Write only what the cited results state; every word is checked or shown as "
                "not checked."))
    return out


def _place(where: str) -> str:
    return {"answer": "The answer's prose", "answer.value": "The headline"}.get(
        where, f"Claim {where}")
