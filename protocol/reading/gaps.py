"""What a text asks about that the catalog cannot read: the words a caller must refuse over, or
record as 'scope not checked'.

Each finder reads one kind of gap and returns it; the finders run in order, and a later one never
reports words an earlier one (or a mention, or a period) already took.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from showwork.protocol.reading._words import COMMON_WORDS, Span, overlaps, snake
from showwork.protocol.reading.asks import FALL, GRAINS, MOVES, RISE, SIZES, Asks
from showwork.protocol.reading.mentions import Mention
from showwork.protocol.reading.periods import MONTHS, Periods

GapKind = Literal["metric", "dimension", "member", "grain", "qualifier", "period"]


@dataclass(frozen=True)
class Gap:
    """Words that look like a metric, dimension, member, grain, qualifier or period, but that
    the catalog does not govern."""

    kind: GapKind
    words: str
    """The phrase as the text writes it ('in France', 'by each carrier', 'shipped')."""
    span: Span
    term: str
    """What a governed request would call it: 'churn_rate', 'carrier', 'France', 'hour'."""
    dimension: str | None = None
    """For a member gap, the dimension named next to it ('the windows platform'), if any."""
    reason: str = ""
    """Why the catalog cannot read it, for a refusal or a finding ('no governed dimension')."""


@dataclass
class _Scope:
    text: str
    catalog: dict[str, Any]
    mentions: list[Mention]
    periods: Periods
    asks: Asks
    taken: list[Span] = field(default_factory=list)

    def free(self, span: Span) -> bool:
        return not overlaps(span, self.taken)


_UNITS = {"usd": {"dollars", "dollar", "usd", "$"}, "fraction": {"percent", "percentage", "%"},
          "percent": {"percent", "percentage", "%"}}
_UNIT_RE = re.compile(
    r"\b(?:in|as|into)\s+(?:the\s+)?(pounds?|sterling|gbp|£|euros?|eur|€|dollars?|usd|\$|yen|jpy|"
    r"rupees?|inr|reais|brl|yuan|cny|francs?|chf|percent(?:age)?s?|%)(?=\W|$)", re.IGNORECASE)
_CURRENCY = {w: code for code, words in (
    ("GBP", ("pound", "pounds", "sterling", "gbp", "£")), ("EUR", ("euro", "euros", "eur", "€")),
    ("USD", ("dollar", "dollars", "usd", "$")), ("JPY", ("yen", "jpy")),
    ("INR", ("rupee", "rupees", "inr")), ("BRL", ("reais", "brl")), ("CNY", ("yuan", "cny")),
    ("CHF", ("franc", "francs", "chf"))) for w in words}
"""Currency words a question may ask in, by ISO code: what the refusal says the model lacks."""
NEUTRAL = {"recorded", "logged", "counted", "measured", "reported", "tracked", "observed",
            "placed", "generated", "received", "combined", "summed", "added", "based", "caused",
            "explained", "happened", "compared", "asked", "used", "needed", "wanted", "owned",
            "listed", "named", "called", "defined", "governed", "signed", "joined", "registered",
            "enrolled", "created", "started", "visited", "trended", "scheduled", "operated",
            "flown", "served"}
"""Participles that add no state to a metric ('orders placed' are orders)."""
EVENTS = frozenset({"placed", "generated", "received", "added", "happened", "signed", "joined",
                    "registered", "enrolled", "created", "started", "visited", "scheduled",
                    "operated", "flown", "served"})
"""The neutral participles that say an event happened to the things counted: neutral of a count
of events ('orders placed'), never of a level at a point in time ('subscribers added' in April
are the new ones, not those at April's end)."""
_AFTER = re.compile(r"\s+(?:that\s+|which\s+|who\s+)?(?:were\s+|was\s+|are\s+|is\s+|got\s+|get\s+|"
                    r"have\s+been\s+|has\s+been\s+)?([a-z]{3,}ed)\b", re.IGNORECASE)
_BEFORE = re.compile(r"\b(?:how many|how much|number of|count of|the|our|all|total|of|with)\s+"
                     r"([a-z]{3,}ed)\s*$", re.IGNORECASE)
_METRIC_PHRASE = re.compile(
    r"\b(?:how many |how much |number of |count of |what (?:was|were|is|are|will) (?:the |our )?"
    r"(?:average |total |mean )?|the (?:average |total )?)([a-z][a-z ]{2,40}?)"
    r"(?= did| do| does| in| on| for| during| last| this| by| per| over| of| be| at|\?|$)",
    re.IGNORECASE)
_ATTRIBUTE = re.compile(r"\b(?:average|mean|median)\s+([a-z]+(?:\s+[a-z]+)?)\s+of\b", re.IGNORECASE)
_QUANTITIES = {"number", "count", "amount", "total", "value", "level", "rate", "share", "change",
               "growth", "size", "volume", "sum"}
_PLACE = re.compile(r"\b(?:in|from|at|for)\s+(?:the\s+)?([A-Z][\w'’.&-]*(?:\s+[A-Z][\w'’.&-]*)*)")
_NOT_MEMBER = {"which", "what", "each", "every", "a", "an", "per", "by", "the", "that", "this",
               "same", "any", "all", "one", "their", "our", "your", "its", "of", "for", "in", "on",
               "from", "to", "and", "or", "with", "at", "new", "other", "another", "whole",
               "entire", "given", "specific", "single", "whose", "these", "those", "top",
               "bottom", "most", "least", "biggest", "largest", "smallest", "best", "worst",
               "highest", "lowest", "busiest", "main", "first", "average", "typical"}
"""Words that stand before a dimension's word without being a member ('the biggest store')."""
_WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}


def _metric_gaps(s: _Scope) -> list[Gap]:
    """A metric-like phrase ('what was our churn rate') where the text names no governed metric."""
    if any(m.kind == "metric" for m in s.mentions):
        return []
    for m in _METRIC_PHRASE.finditer(s.text):
        words = [w for w in m.group(1).split() if w.lower() not in ("our", "the", "we", "a", "an")]
        span = m.span(1)
        if words and s.free(span) and not all(w.lower() in COMMON_WORDS for w in words):
            return [Gap("metric", m.group(1), span, snake(" ".join(words)),
                        reason="names no governed metric")]
    return []


def _dimension_gaps(s: _Scope) -> list[Gap]:
    """'by city', 'by each carrier', 'the average age of …': a dimension the catalog lacks."""
    out = [Gap("dimension", b.words, b.span, b.name, reason="no governed dimension")
           for b in s.asks.by if b.kind == "unknown" and s.free(b.span)]
    for m in _ATTRIBUTE.finditer(s.text):
        head = m.group(1).split()[0].lower()
        if head not in _QUANTITIES and s.free(m.span(1)):
            out.append(Gap("dimension", m.group(1), m.span(1), snake(m.group(1)),
                           reason="no governed dimension"))
    return out


def _grain_gaps(s: _Scope) -> list[Gap]:
    """A grain ('hourly', 'by quarter') that no named metric (nor the catalog) offers."""
    grain, span = s.asks.grain, s.asks.grain_span
    offered = _grains_offered(s)
    if grain is None or span is None or grain in offered:
        return []
    return [Gap("grain", s.text[span[0]:span[1]], span, grain,
                reason=f"offered grains: {', '.join(sorted(offered)) or 'none'}")]


def _grains_offered(s: _Scope) -> set[str]:
    metrics = s.catalog.get("metrics") or {}
    named = [metrics[m.name] for m in s.mentions if m.kind == "metric" and m.name in metrics]
    if named:
        return {g for info in named for g in info.get("grains") or s.catalog.get("grains") or ()}
    return set(s.catalog.get("grains") or ())


def _unit_gaps(s: _Scope) -> list[Gap]:
    """'in pounds' where the named metric is in another unit (or states none). 'In percent' on
    a question that asks for a change asks for the percent change, not a unit."""
    units = _metric_units(s)
    if s.asks.change:
        units.add("percent")
    out = []
    for m in _UNIT_RE.finditer(s.text):
        word = m.group(1).lower()
        if not any(word in _UNITS.get(u, {u}) for u in units) and s.free(m.span()):
            lacks = f"the model has no {_CURRENCY[word]}: " if word in _CURRENCY else ""
            out.append(Gap("qualifier", m.group(0), m.span(), word,
                           reason=f"{lacks}the metric's unit is "
                                  f"{', '.join(sorted(units)) or 'unstated'}"))
    return out


def _metric_units(s: _Scope) -> set[str]:
    metrics = s.catalog.get("metrics") or {}
    units = set()
    for m in s.mentions:
        info = metrics.get(m.name) if m.kind == "metric" else None
        if info is not None and (unit := metric_unit(m.name, info)):
            units.add(unit)
    return units


_LABEL_UNIT = re.compile(r"\(\s*([A-Za-z]{2,6})\s*\)\s*$")


def metric_unit(name: str, info: dict[str, Any]) -> str:
    """A metric's unit: the catalog's `unit:`, else the currency its columns' names say (the
    catalog's `currency`: 'cancellations_mx', a sum of 'cancellations_usd'), one its name ends
    with (`_usd`) or its label ends with in parentheses ('Transaction Amount (USD)'), else ''."""
    said = _LABEL_UNIT.search(str(info.get("label") or ""))
    unit = info.get("unit") or info.get("currency") \
        or next((u for u in _UNITS if name.endswith(f"_{u}")), None) \
        or (said.group(1) if said and said.group(1).lower() in _UNITS else None)
    return str(unit or "").lower()


def _participle_gaps(s: _Scope) -> list[Gap]:
    """'orders shipped', 'cancelled orders': a state the named metric does not carry."""
    out = []
    for m in (x for x in s.mentions if x.kind == "metric"):
        after = _AFTER.match(s.text, m.span[1])
        before = _BEFORE.search(s.text[:m.span[0]])
        for found in (after, before):
            if found is None or _neutral(found.group(1)) or not s.free(found.span(1)) \
                    or _said_by(found.group(1), s.catalog, m.name):
                continue
            out.append(Gap("qualifier", found.group(1), found.span(1), found.group(1).lower(),
                           reason=f"{m.name} carries no such state"))
    return out


def _said_by(word: str, catalog: dict[str, Any], metric: str) -> bool:
    """The metric's own entry, or its ratio's parts', says the state ('orders shipped more than
    3 days after …')."""
    from showwork.protocol.reading.account import lemma, verbs_of_nouns

    metrics = catalog.get("metrics") or {}
    formula = (metrics.get(metric) or {}).get("formula") or {}
    infos = [metrics.get(n) or {} for n in (metric, formula.get("numerator"),
                                            formula.get("denominator")) if n]
    said = " ".join(" ".join([i.get("label") or "", i.get("description") or "",
                              *(i.get("synonyms") or ())]) for i in infos)
    # 'shipments shipped': the verb of the metric's own '-ment' noun
    return lemma(word) in {lemma(w) for w in re.findall(r"[A-Za-z]+", said)} \
        or lemma(word) in verbs_of_nouns(metric, metrics.get(metric) or {})


def _neutral(word: str) -> bool:
    word = word.lower()
    return word in NEUTRAL or word in MOVES or word in FALL or word in RISE


def _member_gaps(s: _Scope) -> list[Gap]:
    return _slot_gaps(s) + _place_gaps(s)


def _slot_gaps(s: _Scope) -> list[Gap]:
    """'the windows platform': a word in a dimension's member slot that is no member of it."""
    out = []
    for d in (x for x in s.mentions if x.kind == "dimension"):
        m = re.search(r"([A-Za-z][\w-]*)\s+$", s.text[:d.span[0]])
        if m is None or m.group(1).lower() in _NOT_MEMBER or m.group(1).lower() in GRAINS \
                or m.group(1).lower() in SIZES or m.group(1).isdigit() \
                or m.group(1).lower() in COMMON_WORDS:
            continue
        if s.free(m.span(1)) and not _is_period_word(m.group(1)):
            out.append(Gap("member", m.group(1), m.span(1), m.group(1).lower().replace("-", "_"),
                           d.name, reason=f"no member of {d.name}"))
    return out


def _is_period_word(word: str) -> bool:
    word = word.lower()
    return word in MONTHS or word in _WEEKDAYS or word in ("last", "this", "next", "previous",
                                                           "prior")


def _place_gaps(s: _Scope) -> list[Gap]:
    """'in France', 'for Queens': a proper name where a member would stand, that no dimension
    has."""
    out = []
    for m in _PLACE.finditer(s.text):
        words = m.group(1).rstrip(".")
        span = (m.start(1), m.start(1) + len(words))
        if s.free(span) and not _is_period_word(words.split()[0]) \
                and not _UNIT_RE.fullmatch(f"in {words}"):
            out.append(Gap("member", words, span, words, reason="no dimension has this member"))
    return out


def _period_gaps(s: _Scope) -> list[Gap]:
    return [Gap("period", p.words, p.span, p.words, reason=p.reason) for p in s.periods.problems]


Finder = Callable[[_Scope], list[Gap]]
FINDERS: tuple[Finder, ...] = (_period_gaps, _grain_gaps, _unit_gaps, _participle_gaps,
                               _dimension_gaps, _member_gaps, _metric_gaps)


def find_gaps(text: str, catalog: dict[str, Any], mentions: list[Mention], periods: Periods,
              asks: Asks) -> list[Gap]:
    """Every gap in the text, in text order."""
    ranked = list(asks.ranking.spans) if asks.ranking is not None else []
    scope = _Scope(text, catalog, mentions, periods, asks,  # 'Rank airlines': no airline 'Rank'
                   [m.span for m in mentions] + [p.span for p in periods.found] + ranked)
    out: list[Gap] = []
    for finder in FINDERS:
        for gap in finder(scope):
            if scope.free(gap.span):
                out.append(gap)
                scope.taken.append(gap.span)
    return sorted(out, key=lambda g: g.span)
