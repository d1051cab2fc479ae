"""What shape of answer a text asks for: a why, a change, a ranking, a breakdown, a series.

Words inside a governed name do not count: "weekly value moments" asks for no weekly series, and
"days per user" breaks nothing down by user.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from showwork.protocol.reading._words import COMMON_WORDS, Span, overlaps, singular, snake
from showwork.protocol.reading.mentions import Mention
from showwork.protocol.reading.periods import COMPARE, NUMBERS, Periods, which_of_two

FALL = {"fell", "fall", "falls", "falling", "dropped", "drop", "drops", "declined", "decline",
        "declines", "decreased", "decrease", "decreases", "down", "lower", "shrank", "dipped",
        "dip", "dips", "collapsed", "collapse", "slid", "slipped", "lost", "worse"}
RISE = {"rose", "rise", "rises", "rising", "increased", "increase", "increases", "grew", "grow",
        "grows", "up", "higher", "jumped", "jump", "jumps", "climbed", "gained", "spiked",
        "surged", "better"}
MOVES = (FALL | RISE | {
    "change", "changed", "changes", "changing", "move", "moved", "moves", "movement", "moving",
    "shift", "shifted", "swing", "swung", "delta", "growth", "grown", "growing", "recover",
    "recovered",
    "recovery", "rebound", "rebounded", "plunged", "plummeted", "soared", "tanked", "doubled",
    "halved", "improved", "worsened", "slowed", "accelerated", "fluctuated", "dropping",
    "declining", "decreasing", "increasing", "jumping", "climbing", "spike", "surge", "slump",
    "slumped"}) - {"up", "down", "lower", "higher", "better", "worse", "lost"}
"""Words that ask how a value moved ('compared with', 'versus', 'than' count when they compare
periods)."""
GRAINS = {"daily": "day", "day": "day", "days": "day", "weekly": "week", "week": "week",
          "weeks": "week", "monthly": "month", "month": "month", "months": "month",
          "hourly": "hour", "hour": "hour", "hours": "hour", "quarterly": "quarter",
          "quarter": "quarter", "quarters": "quarter", "yearly": "year", "annual": "year",
          "annually": "year", "year": "year", "years": "year", "minute": "minute",
          "minutes": "minute"}

WHY = re.compile(
    r"\b(?:why|how come|what(?:'s| is| was| are| were)? (?:drove|drives|driving|caused|causes|"
    r"explains?|explained|behind|happened to|led to)|explain|explains|explanation|"
    r"reasons? (?:for|behind)|drivers?|root cause|(?:did|does|do|could|would) .{1,60}? cause|"
    r"caused by|because of)\b", re.IGNORECASE)
_EITHER = rf"(?:(?:went|go|goes|gone|going)\s+)?(?:{'|'.join(sorted(RISE | FALL))})"
"""One side of 'go up or down', 'rise or fall': a change asked for without its direction."""
_MOVES = re.compile(rf"\b(?:{_EITHER}\s+or\s+{_EITHER}|{'|'.join(sorted(MOVES))}|"
                    r"(?:went|go|goes|gone|going) (?:up|down)|"
                    r"(?:week|month|quarter)[- ]over[- ](?:week|month|quarter))\b", re.IGNORECASE)
_MOST = {"most", "highest", "largest", "biggest", "greatest", "best", "top", "leading",
         "longest", "busiest", "latest", "slowest", "heaviest", "furthest", "farthest"}
_LEAST = {"least", "lowest", "fewest", "smallest", "worst", "bottom", "shortest", "quietest",
          "earliest", "fastest", "quickest", "lightest", "nearest"}
_SUPERLATIVE = "|".join(sorted(_MOST | _LEAST))
SIZES = {**NUMBERS, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
         "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "dozen": 12,
         "a dozen": 12}
"""Number words a ranking's size is written in ('the three best', 'top ten', 'a dozen')."""
_N = (r"(\d{1,3}|a\s+dozen|" + "|".join(sorted((w for w in SIZES if " " not in w and w != "zero"),
                                               key=len, reverse=True)) + ")")
SIZE_WORDS = _N[1:-1]
"""A size in digits or words, as a pattern (no group of its own)."""
_BY = re.compile(rf"\b((?:at|for|in|from)\s+each\s+of|each\s+of|split by|broken down by|grouped by|"
                 r"group by|segmented by|by each|by every|for each|for every|by|per|across|each|"
                 rf"every)\s+(?:all\s+)?(?:the\s+)?(?:{_N}\s+(?=[a-z\x00]))?", re.IGNORECASE)
_OPEN_BY = {"by", "per", "by each", "by every", "for each", "for every", "split by", "each of",
            "at each of", "for each of", "in each of", "from each of",
            "broken down by", "grouped by", "group by", "segmented by"}
"""Keywords after which unknown words are read as a dimension the catalog lacks."""
_EACH = {"each", "every"}
"""Keywords after which one unknown word is read so ('how many orders did each customer
place'): a verb may follow it."""
_WORD = re.compile(r"([a-z][a-z0-9_'-]*)\b", re.IGNORECASE)
_PASSIVE = {"driven", "caused", "explained", "affected", "impacted", "led", "followed", "offset",
            "accompanied", "multiplied", "divided", "sorted", "ordered", "ranked", "measured",
            "weighted", "influenced", "hit", "dragged", "pulled", "pushed", "boosted", "lifted",
            "opened", "sent", "made", "done", "generated", "bought", "placed", "used"}
_STOP = (r"(?=\s+(?:in|on|for|during|last|this|over|from|and|with|at|of|between|since|to|"
         r"compared|versus|vs|had|has|have|was|were|is|are|did|saw|got|showed)\b|\s*[,.;:?!()\x00]|$)")
_WORDS = re.compile(rf"([a-z][a-z0-9_'-]*(?:\s+[a-z][a-z0-9_'-]*){{0,2}}?){_STOP}", re.IGNORECASE)
_OVERALL = re.compile(r"(?:across|over|for|in)\s+(?:all|every)\b", re.IGNORECASE)
_DETERMINERS = re.compile(rf"\s*(?:(?:the|all|our|each|every|{_N})\s+)*", re.IGNORECASE)
"""Words skipped before a name: 'by the store', 'versus our …'."""
_SERIES = re.compile(r"\b(?:over time|trend(?:s|ed|ing)?|time series|(?:day|week|month) by "
                     r"(?:day|week|month))\b", re.IGNORECASE)
_OVER_THE_LAST = re.compile(r"\bover the (?:last|past) \S+ (days|weeks|months|quarters|years)\b",
                            re.IGNORECASE)
"""'The trend over the last 8 weeks': its unit is the series' grain where a series is asked;
'revenue over the last 7 days' alone asks the total of those days."""
_UNIT_BY_UNIT = re.compile(r"\b(day|week|month|quarter|year)\s+by\s+\1\b", re.IGNORECASE)
_GRAIN_WORD = re.compile(r"\b(daily|weekly|monthly|hourly|quarterly|yearly|annual|annually)\b",
                         re.IGNORECASE)


@dataclass(frozen=True)
class Ranking:
    """The text asks for members in order of a value."""

    order: Literal["most", "least"]
    n: int | None
    """How many members it asks for ('top 3' → 3, 'which store had the most' → 1)."""
    dimension: str | None
    """The catalog dimension ranked, or the words for one it lacks (snake_case), or None."""
    spans: tuple[Span, ...] = ()
    """The words the ranking was read from ('top 3', 'which', 'busiest'): what it used."""
    grain: str | None = None
    """A ranking of the periods of a grain ('which month had the most'), not of members."""


@dataclass(frozen=True)
class By:
    """A 'by X' (per X, for each X, across X) phrase: what X is."""

    kind: Literal["dimension", "grain", "unknown"]
    name: str
    """The catalog dimension, the grain, or the unknown words in snake_case."""
    words: str
    span: Span
    """From the keyword to the end of X."""


@dataclass(frozen=True)
class Share:
    """The text asks what share of a whole one part is ('what share of orders came from web')."""

    words: str
    span: Span


@dataclass(frozen=True)
class GrammarSpan:
    """Words the shape grammar consumed, and what they were read as."""

    words: str
    span: Span
    detail: str


@dataclass(frozen=True)
class Asks:
    """The shape of answer a text asks for."""

    why: bool
    """A diagnostic question: why, what drove, explain, reasons for, …"""
    change: bool
    """It asks how a value moved: change, drop, rise, grew, compared with, versus, …"""
    compare: Literal["previous", "explicit"] | None
    """'explicit' with two named periods, 'previous' against the period before."""
    ranking: Ranking | None
    breakdown: tuple[str, ...]
    """Dimensions to break down by, in text order (unknown ones as snake_case words)."""
    series: bool
    """Values over time: a grain word, 'trend', 'over the last 8 weeks', …"""
    grain: str | None
    """The grain named (day, week, month, quarter, year, hour, minute), governed or not."""
    grain_span: Span | None
    """Where the grain is named ('hourly', 'by day')."""
    by: tuple[By, ...] = ()
    """Every 'by X' phrase, read."""
    share: Share | None = None
    """A share of a total ('what share of …', 'X's share of …', 'what percentage of …')."""
    cumulative: bool = False
    """A running total ('in total by the end of', 'to date', 'so far this year', 'year to date')."""
    spans: tuple[GrammarSpan, ...] = ()
    """The phrases of the shape grammar read (by X, rankings, shares, cumulatives)."""
    difference: bool = False
    """A change asked as a difference ('how many more active users in May than in April'): the
    later period's value less the earlier's, not a percent."""
    gap: tuple[Span, Span] | None = None
    """Two members of one dimension set apart, the first's value less the second's: 'how many
    more flights went to LAX than to SFO' (LAX less SFO), 'how many fewer … at SFO than at LAX'
    (LAX less SFO), 'the difference in revenue between Brooklyn and Philadelphia' (Brooklyn
    less Philadelphia). The spans are the members' words."""

    @property
    def shape(self) -> str:
        """The one shape asked for, in words: why, change, ranking of N, share of total,
        cumulative, series, breakdown, or level."""
        if self.why:
            return "why"
        if self.gap is not None:
            return "difference of two members"
        if self.share is not None:
            return "share of total"
        if self.ranking is not None:
            return f"ranking of {self.ranking.n}" if self.ranking.n else "ranking"
        if self.change or self.compare:
            return "change"
        if self.cumulative:
            return "cumulative"
        if self.series:
            return "series"
        if self.breakdown:
            return "breakdown"
        return "level"


def asks_why(text: str) -> bool:
    """True when the text asks why something happened (the one WHY detector).

    >>> asks_why("What drove the drop in revenue?"), asks_why("Which store sold the most?")
    (True, False)
    """
    return WHY.search(text) is not None


_CAUSE_NAMED = re.compile(r"\b(?:caused by|because of)\s+(?:(?:the|a|an)\s+)?", re.IGNORECASE)


def _why(masked: str, mentions: list[Mention], change: bool) -> bool:
    """Why something happened; not 'how many claims were caused by fire', where the cause is a
    member named with no change asked: a count of that member's rows (its filter)."""
    if not asks_why(masked) or change:
        return asks_why(masked)
    members = {m.span[0] for m in mentions if m.kind == "member"}
    named = [m for m in _CAUSE_NAMED.finditer(masked) if m.end() in members]
    rest = masked
    for m in named:
        rest = rest[:m.start()] + " " * (m.end() - m.start()) + rest[m.end():]
    return asks_why(rest)


def mask(text: str, spans: list[Span]) -> str:
    """The text with each span blanked out (same length), so its words are not read again."""
    out = list(text)
    for start, end in spans:
        out[start:end] = "\x00" * (end - start)
    return "".join(out)


def read_asks(text: str, mentions: list[Mention], periods: Periods) -> Asks:
    """What the text asks for, given what it names."""
    masked = mask(text, [m.span for m in mentions])
    by = read_by(text, masked, mentions)
    ranking = read_ranking(masked, mentions, by)
    grain, grain_span = _grain(masked, by)
    breakdown = [b.name for b in by if b.kind != "grain"]
    if ranking and ranking.dimension and ranking.dimension not in breakdown:
        breakdown.insert(0, ranking.dimension)
    series = grain is not None or _SERIES.search(masked) is not None
    compare = _compare(text, mentions, periods)
    moving = _HOW_MUCH_FELL.sub(lambda m: m.group(1) + "\x00" * len(m.group(2)), masked)
    change = _MOVES.search(moving) is not None or compare is not None
    share = _share(masked)
    deadline = _by_a_date(text, periods)
    cumulative = _CUMULATIVE.search(masked) or deadline
    spans = [GrammarSpan(b.words, b.span, f"{'by ' + b.name if b.kind != 'unknown' else b.words}")
             for b in by if b.kind != "unknown"]
    if share is not None:
        spans.append(GrammarSpan(share.words, share.span, "share of total"))
    if cumulative is not None and share is None:  # a share's running total is not read
        spans.append(GrammarSpan(cumulative.group(0), cumulative.span(), "cumulative"))
    spans += _used(text, masked, moving, ranking, grain_span, compare, mentions, change)
    either = which_of_two(text, periods.found) if compare == "explicit" else None
    if either is not None:  # 'more … in July or August': the word that sets them side by side
        spans.append(GrammarSpan(either.group(0), either.span(), "compare"))
    if cumulative is not None and share is None:  # and its other words ('…, year to date')
        said = [cumulative.span()]
        for m in (*_TO_THE_END.finditer(masked), *_CUMULATIVE.finditer(masked),
                  *([deadline] if deadline else [])):
            if not overlaps(m.span(), said):
                spans.append(GrammarSpan(m.group(0), m.span(), "cumulative"))
                said.append(m.span())
    if breakdown and ranking is None:  # 'flights per carrier in june, sorted'
        spans += [GrammarSpan(m.group(0), m.span(), "most first")
                  for m in _SORTED.finditer(masked)]
    more = None if ranking is not None else _difference(masked, periods) \
        if compare == "explicit" else _BY_HOW_MANY.search(masked) if change else None
    if more is not None:
        spans += [GrammarSpan(more.group(g), more.span(g), "change as a difference")
                  for g in range(1, more.re.groups + 1) if more.group(g)
                  and g != more.re.groupindex.get("unit")]
    gap = _member_gap(text, masked, mentions) if compare != "explicit" and ranking is None \
        and share is None and not periods.found[1:] else None
    apart: tuple[Span, Span] | None = None
    if gap is not None:  # 'than' and 'between' set members apart, not periods: no change
        apart, words = gap
        spans = [g for g in spans if g.detail != "compare"] + words
        change = _MOVES.search(moving) is not None
        compare = None
    return Asks(_why(masked, mentions, change), change, compare, ranking, tuple(breakdown),
                series, grain, grain_span, tuple(by), share, cumulative is not None and share is None,
                tuple(sorted(spans, key=lambda g: g.span)), more is not None, apart)


_GAP_MORE = re.compile(r"\bhow\s+(?:many|much)\s+(?P<w>more|fewer|less)\b.*?\b(?P<than>than)\b",
                       re.IGNORECASE)
_GAP_BETWEEN = re.compile(r"\b(?P<w>difference|gap)\b.*?\b(?P<than>between)\b", re.IGNORECASE)
_AFTER_THAN = re.compile(r"\s*(?:(?:to|at|in|for|from|of|by|with|on)\s+)?(?:the\s+)?")


def _member_gap(text: str, masked: str, mentions: list[Mention]
                ) -> tuple[tuple[Span, Span], list[GrammarSpan]] | None:
    """Two members of one dimension set apart by 'how many more … A … than B' or 'the
    difference (gap) in … between A and B': the spans of the member whose value comes first in
    the difference and of the other, and the words read; None otherwise."""
    members = [m for m in mentions if m.kind == "member"]
    for pattern in (_GAP_MORE, _GAP_BETWEEN):
        said = pattern.search(masked)
        if said is None:
            continue
        if pattern is _GAP_MORE:
            before = [m for m in members if said.start() < m.span[1] <= said.start("than")]
            skip = _AFTER_THAN.match(text, said.end())
            after = [m for m in members if m.span[0] == (skip.end() if skip else said.end())]
        else:
            two = re.match(r"\s*(?:the\s+)?(?P<a>.+?)\s+and\s+(?:the\s+)?", text[said.end():])
            at = said.end() + (two.start("a") if two else 0)
            before = [m for m in members if m.span[0] == at]
            after = [m for m in members if two and m.span[0] == said.end() + two.end()]
        if not before or not after:
            continue
        left, right = before[-1], after[0]
        same = {m.name for m in members if m.span == left.span} & {
            m.name for m in members if m.span == right.span}
        if not same or left.member == right.member:
            continue
        words = [GrammarSpan(said.group("w"), said.span("w"), "difference of two members"),
                 GrammarSpan(said.group("than"), said.span("than"), "difference of two members")]
        if said.group("w").lower() in ("fewer", "less"):
            return (right.span, left.span), words
        return (left.span, right.span), words
    return None


_HOW_MANY_MORE = re.compile(r"\bhow\s+(?:many|much)\s+(more|fewer|less)\b", re.IGNORECASE)
_BY_HOW_MANY = re.compile(r"\b(by\s+how\s+many)\b", re.IGNORECASE)
"""'By how many flights did X change from January to February': the size of the change in
the metric's own unit (a count of what it counts), never a percent."""


_HIGHER_WAS = re.compile(
    r"\b(how\s+(?:much|many))\s+(?:(?P<unit>[a-z]+)\s+)?(higher|lower|more|less|bigger|larger|"
    r"smaller|greater)\s+(was|were|is|are)\s+(?:the\s+)?(?P<said>[^,.;:?!]+?)\s*(?=[,.;:?!]|$)",
    re.IGNORECASE)
"""'How much higher was 2016', 'how many dollars lower was March 7-13' (two periods named
before): the period said less the other, or the other less it ('lower'). A unit word between
is left to the reader (the metric's unit)."""


def _which_was(said: re.Match[str], periods: Periods, named: list[Any]) -> re.Match[str] | None:
    """The 'how much higher was P' match where P is one of the two periods named and the
    difference it asks is the later period's value less the earlier's (a cited `delta`):
    'higher' of the later, 'lower' of the earlier; None otherwise (the words stay unread)."""
    which = [p.period for p in periods.found
             if p.words.lower() == said.group("said").lower().strip()]
    if not which:
        return None
    later = max(named, key=lambda p: (p.start, p.end))
    up = said.group(3).lower() in ("higher", "more", "bigger", "larger", "greater")
    return said if (which[0] == later) == up else None


def _difference(masked: str, periods: Periods) -> re.Match[str] | None:
    """'How many more active users did we have in May 2026 than in April 2026': two periods
    named, the change asked as how far the first is above the second ('fewer': below). Read
    when the period that answer's sign needs comes first — the later for 'more', the earlier
    for 'fewer' — so the difference is the later period's value less the earlier's (a cited
    `delta`); the other order stays unread. 'By how many … change from A to B' is the later
    period's value less the earlier's whichever is said first."""
    found = _HOW_MANY_MORE.search(masked)
    by = _BY_HOW_MANY.search(masked)
    named = list(dict.fromkeys(p.period for p in periods.found))  # 'was March 14-20' again
    higher = _HIGHER_WAS.search(masked)
    if higher is not None and len(named) == 2:
        return _which_was(higher, periods, named)
    if found is None and by is None or len(named) != 2:
        return None
    first, second = named
    if first.end <= second.start:
        later_first = False
    elif second.end <= first.start:
        later_first = True
    else:
        return None  # overlapping periods: no one order
    if found is None:  # 'by how many … change from A to B': either order, the later less the earlier
        return by
    return found if later_first == (found.group(1).lower() == "more") else None


_SHARE = re.compile(
    r"\b(?:what|which)\s+(?:(?:share|fraction|percentage|proportion|portion|percent|part)\s+of"
    r"|%\s+of|(?:share|fraction|proportion|portion|percentage)(?=\s+(?!of\b|change|growth|"
    r"increase|decrease|drop|rise|fall|point|(?:did|does|do|has|have|had)\b)[a-z]))\b"
    r"|\b\w+(?:'s|’s|s')\s+share\s+of\b"
    r"|\bshare\s+of\b|\bpercent(?:age)?\s+of\b|(?<![\w.])%\s+of\b|\bfraction\s+of\b"
    r"|\bproportion\s+of\b",
    re.IGNORECASE)
_CUMULATIVE = re.compile(
    r"\b(?:in\s+total\s+(?:by|through|thru|up\s+to|until)\s+the\s+end\s+of|(?:by|through|thru|up\s+to)"
    r"\s+the\s+end\s+of|from\s+the\s+(?:start|beginning)\s+of|(?:(?:year|month|quarter)[\s-]+)?to[\s-]+date|so\s+far(?:\s+this\s+(?:year|month|quarter))?|"
    r"ytd|cumulative(?:ly)?|running\s+total|all[\s-]time|as\s+of(?:\s+the\s+end\s+of)?)\b", re.IGNORECASE)


def _by_a_date(text: str, periods: Periods) -> re.Match[str] | None:
    """'How many transactions had there been by March 15, 2022', 'revenue through April': 'by',
    'through', 'until' or 'up to' right before a period is a deadline, the running total up to
    the period's end (as 'by the end of' is); 'by' before anything else is a grouping, a
    ranking's key or who did it, read where those rules use it."""
    for found in periods.found:
        said = _BY_BEFORE.search(text, 0, found.span[0])
        if said is not None:
            return said
    return None


_BY_BEFORE = re.compile(r"\b(?:by|through|thru|until|till|up\s+to)(?=\s+$)", re.IGNORECASE)
"""A deadline's word and nothing but space up to the end of the searched part of the text."""


_DID_CAUSE = re.compile(r"(did|does|do|could|would)\s.*?\s?(cause)", re.IGNORECASE | re.DOTALL)
_TO_THE_END = re.compile(r"\b(?:in\s+total|as\s+of(?:\s+the\s+end\s+of)?|"
                         r"(?:at|by|through|thru|up\s+to|to)\s+the\s+end\s+of)\b", re.IGNORECASE)
"""Words of a running total said next to its own phrase ('in total, … by the end of March')."""
_HOW_MUCH_FELL = re.compile(r"(\bhow (?:much|many)\s+(?:[a-z]+\s+of\s+(?:the\s+)?)?\x00+\s+)"
                            r"(?!(?:excluding|except|besides|without|but|not|only|other)\b)([a-z]+)",
                            re.IGNORECASE)
"""'How much rain fell', 'how many inches of rain fell', 'how many users dropped in': the verb
after the metric is its own predicate, not a move (a change is asked as 'how much did … fall'),
and never a word that sets part of it apart ('how many transactions excluding quick buys')."""


def _verb_like(word: str) -> bool:
    """A word that can be the metric's own predicate: a verb of moving or a past form ('fell',
    'dropped', 'reported'), never a noun that names something else ('how many Black women
    were in prison': 'women' is no verb of 'Black men in prison')."""
    w = word.lower()
    return w in MOVES or w.endswith("ed")


def _share(masked: str) -> Share | None:
    m = _SHARE.search(masked)
    return Share(m.group(0), m.span()) if m else None


def _compare(text: str, mentions: list[Mention], periods: Periods
             ) -> Literal["previous", "explicit"] | None:
    """A comparison with the period before, unless every 'versus' sets members or metrics side
    by side ('android vs ios', 'revenue versus orders')."""
    if periods.compare != "previous":
        return periods.compare
    spans = [x.span for x in mentions if x.kind == "metric"]
    for m in COMPARE.finditer(text):
        if overlaps(m.span(), spans):
            continue  # 'more than 15 minutes late' is a metric's threshold, no comparison
        skipped = _DETERMINERS.match(text, m.end())
        named = _starting(mentions, skipped.end() if skipped else m.end())
        if named is None or named.kind == "dimension":
            return "previous"
    return None


def _grain(masked: str, by: list[By]) -> tuple[str | None, Span | None]:
    """The grain asked for: 'weekly', 'month by month', else 'by week', else 'the trend over
    the last 8 weeks'."""
    m = _UNIT_BY_UNIT.search(masked)
    if m is not None:
        return GRAINS[m.group(1).lower()], m.span()
    m = _GRAIN_WORD.search(masked)
    if m is not None:
        return GRAINS[m.group(1).lower()], m.span(1)
    grains = [b for b in by if b.kind == "grain"]
    if grains:
        return grains[0].name, grains[0].span
    m = _OVER_THE_LAST.search(masked) if _SERIES.search(masked) else None
    if m is not None:
        return GRAINS[m.group(1).lower()], m.span(1)
    return None, None


def _starting(mentions: list[Mention], at: int) -> Mention | None:
    return next((m for m in mentions if m.span[0] == at), None)


def read_by(text: str, masked: str, mentions: list[Mention]) -> list[By]:
    """Every 'by X' phrase: X a dimension, a grain, or words the catalog does not know."""
    out: list[By] = []
    for m in _BY.finditer(masked):
        keyword = " ".join(m.group(1).lower().split())
        if keyword == "by" and _word_before(masked, m.start()) in _PASSIVE:
            continue
        if keyword in ("across", "every", "each") and _OVERALL.match(masked, m.start()):
            continue  # 'across all airlines': every member together, no breakdown
        found = _by_target(text, masked, mentions, m, keyword)
        if found is not None:
            out.append(found)
            out += _and_also(text, masked, mentions, found)
    return out


_AND = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&)\s+)(?:the\s+)?", re.IGNORECASE)


def _and_also(text: str, masked: str, mentions: list[Mention], first: By) -> list[By]:
    """'By platform and country', 'by store, region and segment': the dimensions joined to a
    by-phrase's are broken down by too (the second had been read as named, but no part of the
    reading used it)."""
    out: list[By] = []
    at = first.span[1]
    while first.kind == "dimension" and (joined := _AND.match(masked, at)) is not None:
        named = _starting(mentions, joined.end())
        if named is None or named.kind != "dimension":
            break
        start = at + len(text[at:joined.end()]) - len(text[at:joined.end()].lstrip())
        out.append(By("dimension", named.name, text[start:named.span[1]], (start, named.span[1])))
        at = named.span[1]
    return out


def _word_before(text: str, at: int) -> str:
    words = re.findall(r"[a-z]+", text[max(0, at - 30):at].lower())
    return words[-1] if words else ""


def _by_target(text: str, masked: str, mentions: list[Mention], m: re.Match[str],
               keyword: str) -> By | None:
    at = m.end()
    named = _starting(mentions, at)
    if named is not None:
        if named.kind != "dimension":
            return None  # "by web users" names a member; "per active user" a metric
        return By("dimension", named.name, text[m.start():named.span[1]], (m.start(), named.span[1]))
    unit = re.match(r"(day|week|month|quarter|year|hour|minute)s?\b", masked[at:], re.IGNORECASE)
    if unit:
        end = at + unit.end()
        return By("grain", GRAINS[unit.group(1).lower()], text[m.start():end], (m.start(), end))
    if _MEASURE_OF.match(masked, at):
        return None  # 'top 3 airlines by number of cancellations': the metric ranked by
    words = (_WORD if keyword in _EACH else _WORDS).match(masked, at)
    if keyword not in _OPEN_BY | _EACH or words is None or _vague(words.group(1)):
        return None
    name = snake(" ".join(singular(w) for w in words.group(1).split()))
    return By("unknown", name, text[m.start():words.end(1)], (m.start(), words.end(1)))


_MEASURE_OF = re.compile(r"(?:the\s+)?(?:number|count|amount|total|sum)\s+of\s+(?:the\s+)?\x00",
                         re.IGNORECASE)
"""'By number of cancellations': a metric named as its measure, no breakdown."""


def _vague(words: str) -> bool:
    first = words.split()[0].lower()
    return first in COMMON_WORDS or first in ("which", "what", "some", "many", "much", "cent")


def read_ranking(masked: str, mentions: list[Mention], by: list[By]) -> Ranking | None:
    """Top N, bottom N, N best, which X had the most/least, rank X."""
    for reader in (_period_extreme, _periods_ranked, _top_n, _n_best, _which_n, _which_most,
                   _rank_word):
        found = reader(masked, mentions, by)
        if found is not None:
            return found
    return None


def _count(word: str | None) -> int | None:
    if word is None:
        return None
    return size_of(word)


def size_of(word: str) -> int:
    """A size written in digits or words ('48', 'three', 'a dozen')."""
    return int(word) if word.isdigit() else SIZES[" ".join(word.lower().split())]


def _dimension_at(masked: str, mentions: list[Mention], at: int, by: list[By]) -> str | None:
    """The dimension named at `at` (after 'top 3', 'which'), else the first 'by' dimension."""
    skipped = _DETERMINERS.match(masked, at)
    at = skipped.end() if skipped else at
    named = _starting(mentions, at)
    if named is not None and named.kind == "dimension":
        return named.name
    dims = [b.name for b in by if b.kind != "grain"]
    return dims[0] if dims else None


def _top_n(masked: str, mentions: list[Mention], by: list[By]) -> Ranking | None:
    m = re.search(rf"\b(top|bottom)(?:[\s-]+{_N})?\b", masked, re.IGNORECASE)
    if m is None:
        return None
    order: Literal["most", "least"] = "most" if m.group(1).lower() == "top" else "least"
    dimension = _dimension_at(masked, mentions, m.end(), by)
    if dimension is None and (after := _AFTER_TOP.match(masked, m.end())):
        dimension = _named_thing(after.group(1))  # 'top 3 customers': an entity, maybe
    return Ranking(order, _count(m.group(2)), dimension, (m.span(),))


_AFTER_TOP = re.compile(r"\s+([A-Za-z]+)\b")


def _n_best(masked: str, mentions: list[Mention], by: list[By]) -> Ranking | None:
    """'the three best-selling', '5 largest', 'best-selling': the size and the word apart, so
    a size is read even where the word ('best', judged by polarity) is not."""
    m = re.search(rf"\b{_N}\s+(best[- ]selling|{_SUPERLATIVE})\b|\bbest[- ]selling\b", masked,
                  re.IGNORECASE)
    if m is None:
        return None
    word = (m.group(2) or "best").lower()
    spans = (m.span(1), m.span(2)) if m.group(1) else (m.span(),)
    return Ranking(_order(word), _count(m.group(1)), _dimension_at(masked, mentions, m.end(), by),
                   spans)


def _which_n(masked: str, mentions: list[Mention], by: list[By]) -> Ranking | None:
    """'which two stores …', 'the three products that …', 'what were the 5 regions with the
    highest …': a count of a dimension's members, ordered by the superlative after it (most
    when none is said)."""
    m = re.search(rf"\b(?:which|what|the)\s+(?:(?:were|are|was|is)\s+the\s+)?{_N}\s+",
                  masked, re.IGNORECASE)
    if m is None or re.search(r"\bof\s+$", masked[:m.start()], re.IGNORECASE):
        return None  # 'at each of the three airports', 'which of the three': the set, no size
    named = _starting(mentions, m.end())
    if named is None or named.kind != "dimension":
        return None
    most = re.search(rf"\b({_SUPERLATIVE})\b", masked[named.span[1]:], re.IGNORECASE)
    if most is None and re.search(r"\b(?:from|at|in|to|for|across|into)\s+$", masked[:m.start()],
                                  re.IGNORECASE):
        return None  # 'flights from the three NYC airports': the airports, no order asked
    spans = [m.span()] + ([(named.span[1] + most.start(1), named.span[1] + most.end(1))]
                          if most else [])
    return Ranking(_order(most.group(1)) if most else "most", _count(m.group(1)), named.name,
                   tuple(spans))


def _named_thing(words: str) -> str | None:
    """The thing a ranking's words name where no dimension of the catalog is named there
    ('which customer', 'top 3 customers'): its first word that is not a count, as a dimension
    name for the entities to resolve (_reader.py `_ranked_entity`); None for a common word, a
    grain or a word for the metric itself."""
    said = [w for w in re.findall(r"[a-z0-9]+", words.lower()) if w not in NUMBERS and not w.isdigit()]
    word = re.match(r"[a-z]+", said[0]) if said else None
    if word is None or word.group(0) in COMMON_WORDS or word.group(0) in GRAINS \
            or word.group(0) in ("metric", "metrics", "number", "value"):
        return None
    return snake(singular(word.group(0)))


def _order(word: str) -> Literal["most", "least"]:
    return "least" if word.lower() in _LEAST else "most"


def _which_most(masked: str, mentions: list[Mention], by: list[By]) -> Ranking | None:
    m = re.search(rf"\b(?:which|what)\s+(?P<of>of\s+(?:the\s+)?)?(?P<x>[^\s?]+(?:\s[^\s?]+)?)\s+"
                  rf"(?:\S+\s+){{0,3}}?"
                  rf"(?:the\s+)?(?P<s>{_SUPERLATIVE})\b", masked, re.IGNORECASE)
    if m is None:
        return None
    dimension = _dimension_at(masked, mentions, m.start("x"), []) or _named_thing(m.group("x"))
    if dimension is None:
        return None
    counted = re.match(rf"{_N}\b", m.group("x"), re.IGNORECASE)
    # 'which', 'what of the', 'which three': the question word (and its count) ranks; 'which of
    # the three airports' asks one of a set of three, not three
    head = (m.start(), m.start("x") + (counted.end() if counted else 0))
    size = _count(counted.group(1)) if counted and not m.group("of") else 1
    return Ranking(_order(m.group("s")), size, dimension, (head, m.span("s")))


_SORTED = re.compile(r"\b(?:sorted|ordered)(?:\s+(?:from\s+)?(?:highest|largest|most|biggest)\s+"
                     r"(?:to\s+(?:lowest|smallest|least|fewest)|first))?(?!\s+by\b)|"
                     r"\b(?:in\s+)?descending(?:\s+order)?|\b(?:highest|largest|biggest)\s+first\b",
                     re.IGNORECASE)
"""A breakdown asked in the order its answer lists it, the largest first ('per carrier,
sorted', 'in descending order', 'highest first'); 'sorted by name', 'ascending', 'lowest first'
ask another order, and stay unread."""
_RANK = re.compile(r"\brank(?:ed|ing|s)?\b", re.IGNORECASE)


def _rank_word(masked: str, mentions: list[Mention], by: list[By]) -> Ranking | None:
    m = _RANK.search(masked)
    if m is None:
        return None
    return Ranking("most", None, _dimension_at(masked, mentions, m.end(), by), (m.span(),))


JUDGED = re.compile(r"\b(best|worst)\b(?![- ]selling)", re.IGNORECASE)
"""Words that say which way is good: read only by a metric's polarity (_reader.py `_judged`)."""
PACED = re.compile(r"\b(slowest|fastest|quickest)\b", re.IGNORECASE)
"""Words of pace, whose way is the metric's unit: the slowest of a duration is its most, of a
count or an amount its least (_reader.py `_paced`)."""
BETTER = re.compile(r"\b(better|worse)\b(?!\s+than\b)", re.IGNORECASE)
"""'Did the cancellation rate get better': a change, its good direction the metric's polarity
(_reader.py `_judged_change`); 'better than' sets two things side by side, and stays unread."""
_PERIOD = r"(day|week|month|quarter|year|hour)"
_EXTREME_PERIOD = re.compile(
    rf"\b(?:(?:the\s+)?(?:single\s+)?(?P<s1>{_SUPERLATIVE})\s+(?:single\s+)?{_PERIOD}"
    r"(?:\s+of\s+(?:the\s+)?day)?\b"
    rf"|(?P<q>which|what)\s+(?:single\s+)?{_PERIOD}(?:\s+of\s+(?:the\s+)?(?:day|year))?\b"
    rf"(?P<mid>[^?]*?)\b(?P<s2>{_SUPERLATIVE})\b)", re.IGNORECASE)
"""'Which month had the most …', 'the busiest week', 'the single worst day': a ranking of the
periods of a grain, not of a dimension's members. 'Of the day' (an hour, read with an hour
dimension: 'the busiest hour of the day') and, after 'which', 'of the year' (the year's
periods) are read with it; 'which day of the week' asks
for a weekday across weeks, which no grain is, so 'of the week' stays unread."""


def _period_extreme(masked: str, mentions: list[Mention], by: list[By]) -> Ranking | None:
    """The period of a grain with the largest (or smallest) value: read from the series."""
    m = _EXTREME_PERIOD.search(masked)
    if m is None:
        return None
    spans: tuple[tuple[int, int], ...]
    if m.group("s1"):
        grain, word = m.group(2), m.group("s1")
        spans = ((m.start(), m.start("s1")), m.span("s1"), (m.end("s1"), m.end()))
    else:
        grain, word = m.group(4), m.group("s2")
        spans = ((m.start(), m.start("mid")), m.span("s2"))
    return Ranking(_order(word), 1, None, spans, GRAINS[grain.lower()])


_RANKED_PERIODS = re.compile(
    rf"\b(?:(?P<tb>top|bottom)[\s-]+{_N}\s+(?:single\s+)?{_PERIOD}s\b"
    rf"|(?:the\s+)?(?P<n2>{SIZE_WORDS})\s+(?P<s1>{_SUPERLATIVE})\s+{_PERIOD}s\b"
    rf"|(?P<q>which|what)\s+(?:were\s+the\s+|are\s+the\s+)?(?P<n3>{SIZE_WORDS})\s+{_PERIOD}s\b"
    rf"(?P<mid>[^?]*?)\b(?P<s2>{_SUPERLATIVE})\b)", re.IGNORECASE)
"""'Top 3 months by …', 'the two worst weeks', 'which 3 days had the most …': several periods
of a grain, ranked by the value (the periods' own ranking, as `_EXTREME_PERIOD` reads one)."""


def _periods_ranked(masked: str, mentions: list[Mention], by: list[By]) -> Ranking | None:
    """The N periods of a grain with the largest (or smallest) values: read from the series."""
    m = _RANKED_PERIODS.search(masked)
    if m is None:
        return None
    spans: tuple[tuple[int, int], ...]
    if m.group("tb"):
        order: Literal["most", "least"] = "most" if m.group("tb").lower() == "top" else "least"
        size, grain, spans = m.group(2), m.group(3), (m.span(),)
    elif m.group("s1"):
        order, size, grain = _order(m.group("s1")), m.group("n2"), m.group(6)
        spans = ((m.start(), m.start("s1")), m.span("s1"), (m.end("s1"), m.end()))
    else:
        order, size, grain = _order(m.group("s2")), m.group("n3"), m.group(9)
        spans = ((m.start(), m.start("mid")), m.span("s2"))
    return Ranking(order, _count(size), None, spans, GRAINS[grain.lower()])


_VERSUS = re.compile(r"\b(?:versus|vs\.?|compared\s+(?:with|to)|against)(?=\s)", re.IGNORECASE)


def _side_by_side(text: str, mentions: list[Mention]) -> list[GrammarSpan]:
    """'Revenue in the northeast vs the west', 'business vs consumer customers': a 'versus'
    right between two members of one dimension sets them side by side, each its own row, as
    'and' does; between anything else it is not read here."""
    members = [m for m in mentions if m.kind == "member"]
    out = []
    for m in _VERSUS.finditer(text):
        before = [x for x in members if x.span[1] <= m.start()]
        skipped = _DETERMINERS.match(text, m.end())
        at = skipped.end() if skipped else m.end()
        if not before or text[before[-1].span[1]:m.start()].strip(" ,"):
            continue
        left = {(x.name, x.member) for x in members if x.span == before[-1].span}
        right = {(x.name, x.member) for x in members if x.span[0] == at}
        if any(d == e and a != b for d, a in left for e, b in right):
            out.append(GrammarSpan(m.group(0), m.span(), "members side by side"))
    return out


def _used(text: str, masked: str, moving: str, ranking: Ranking | None, grain_span: Span | None,
          compare: str | None, mentions: list[Mention], change: bool) -> list[GrammarSpan]:
    """The words each rule above acted on, as spans: a ranking's words, the verbs of a change,
    the words that compare, the grain, the question of why. A word of these kinds that no rule
    used stays unread (account.py)."""
    out = []
    if ranking is not None:
        detail = f"ranking by {ranking.grain}" if ranking.grain else "ranking"
        # 'best' and 'worst' say which way is good, 'slowest' which way is slow: each read by
        # the metric (_reader.py), else unread
        out += [GrammarSpan(text[a:b], (a, b), detail) for a, b in ranking.spans
                if b > a and not JUDGED.search(text[a:b]) and not PACED.search(text[a:b])]
        # 'Rank the three NYC airports by …': the verb of a ranking read from its other words
        out += [GrammarSpan(m.group(0), m.span(), detail) for m in _RANK.finditer(masked)
                if not overlaps(m.span(), list(ranking.spans))]
    out += [GrammarSpan(m.group(0), m.span(), "change") for m in _MOVES.finditer(moving)]
    out += [GrammarSpan(m.group(2), m.span(2), "the metric's own verb")
            for m in _HOW_MUCH_FELL.finditer(masked) if _verb_like(m.group(2))]
    if compare is not None:
        metric_spans = [x.span for x in mentions if x.kind == "metric"]
        out += [GrammarSpan(m.group(0), m.span(), "compare") for m in COMPARE.finditer(text)
                if not overlaps(m.span(), metric_spans)]
    if compare == "explicit" or change:  # 'between May and June': two periods side by side
        out += [GrammarSpan(m.group(0), m.span(), "compare")
                for m in re.finditer(r"\bbetween\b", masked, re.IGNORECASE)]
    else:  # 'the northeast vs the west': two members of one dimension side by side
        out += _side_by_side(text, mentions)
    if grain_span is not None:
        out.append(GrammarSpan(text[grain_span[0]:grain_span[1]], grain_span, "grain"))
    for m in WHY.finditer(masked):  # 'did the price change cause': 'did' and 'cause' only
        said = _DID_CAUSE.fullmatch(m.group(0))
        parts = [(m.start(), m.start() + said.end(1)), (m.start() + said.start(2), m.end())] \
            if said else [m.span()]
        out += [GrammarSpan(text[a:b], (a, b), "why") for a, b in parts]
    return out
