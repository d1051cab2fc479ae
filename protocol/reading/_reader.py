"""`read_text`: one deterministic reading of a text (a question, a claim) against a catalog."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from typing import Any

from protocol.reading._calendar import Period
from protocol.reading.account import ReadSpan, entry_words, lemma, mention_span, unread_spans
from protocol.reading.asks import Asks, read_asks
from protocol.reading.gaps import Gap, find_gaps
from protocol.reading.mentions import Mention, find_mentions
from protocol.reading.periods import PeriodMention, Periods, find_periods


@dataclass(frozen=True)
class Reading:
    """What a text names in a catalog, what it asks for, and what could not be read."""

    text: str
    metrics: tuple[Mention, ...]
    """Governed metrics named, in text order (a metric named twice appears twice)."""
    members: tuple[Mention, ...]
    """Dimension members named, in text order."""
    dimensions: tuple[Mention, ...]
    """Dimensions named ('by platform', 'the plus plan', 'which store')."""
    periods: tuple[PeriodMention, ...]
    """Periods named, resolved to dates, in text order."""
    asks: Asks
    gaps: tuple[Gap, ...]
    """What looks like a metric, dimension, member, grain, qualifier or period but is not governed."""
    spans: tuple[ReadSpan, ...] = ()
    """Every span of the text that something read, and what it was read as, in text order."""
    unread_content: tuple[ReadSpan, ...] = ()
    """Content words no reader consumed (neither the catalog nor the grammar nor the listed
    function words), in text order."""

    @property
    def unread(self) -> list[str]:
        """The words of every gap and every unread content span, in text order: what a caller
        must refuse over or flag."""
        found = sorted([(g.span, g.words) for g in self.gaps]
                       + [(u.span, u.words) for u in self.unread_content])
        return [words for _span, words in found]

    def metric_names(self) -> list[str]:
        """Each metric named, once, in order of first mention."""
        return list(dict.fromkeys(m.name for m in self.metrics))

    def member_keys(self) -> list[tuple[str, str]]:
        """Each (dimension, member) named, once, in order of first mention."""
        return list(dict.fromkeys((m.name, m.member or "") for m in self.members))


_HOW_MANY = re.compile(r"\bhow many\b", re.IGNORECASE)


def read_text(text: str, catalog: dict[str, Any], *, as_of: dt.date | str | None = None
              ) -> Reading:
    """Read a text against a plain catalog; relative periods resolve against `as_of`, else the
    catalog's `as_of`, never the wall clock. 'How many X' is read as 'the number of X' when X
    alone names no metric (the reading's `text` is then the text so read)."""
    reading = _read_text(text, catalog, as_of)
    if reading.metrics or not _HOW_MANY.search(text):
        return reading
    again = _read_text(_HOW_MANY.sub("the number of", text), catalog, as_of)
    return again if again.metrics else reading


def _read_text(text: str, catalog: dict[str, Any], as_of: dt.date | str | None) -> Reading:
    mentions = _heads(text, _ratio_of_share(text, find_mentions(text, catalog), catalog), catalog)
    periods = _anchored(_without(find_periods(text, _as_of(as_of, catalog)), mentions))
    asks = read_asks(text, mentions, periods)
    if (asks.change or asks.why) and any(p.parts for p in periods.found):
        periods = _two_periods(periods)
        asks = read_asks(text, mentions, periods)
    if asks.share is not None and _rate_named(mentions, catalog):
        # 'what percentage of reminders were opened': a rate is the share asked for
        kept = tuple(s for s in asks.spans if s.detail != "share of total")
        asks = replace(asks, share=None, spans=kept)
    gaps = find_gaps(text, catalog, mentions, periods, asks)
    by_kind = {k: tuple(m for m in mentions if m.kind == k) for k in ("metric", "member", "dimension")}
    spans = [mention_span(m) for m in mentions]
    spans += [ReadSpan(p.words, p.span, "window", str(p.period)) for p in periods.found]
    spans += [ReadSpan(s.words, s.span, "shape", s.detail) for s in asks.spans]
    taken = [s.span for s in spans] + [_with_aggregate(text, g.span) for g in gaps] + \
        [p.span for p in periods.problems]
    own = entry_words(catalog, [m.name for m in by_kind["metric"]],
                      [m.name for m in (*by_kind["dimension"], *by_kind["member"])])
    unread = tuple(ReadSpan(words, span, "unreadable", "no catalog entry or grammar reads it")
                   for words, span in unread_spans(text, taken, own))
    return Reading(text, by_kind["metric"], by_kind["member"], by_kind["dimension"],
                   periods.found, asks, tuple(gaps), tuple(sorted(spans, key=lambda s: s.span)),
                   unread)


_AGGREGATE = re.compile(r"\b(?:average|mean|median|typical|total)\s+$", re.IGNORECASE)


def _with_aggregate(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """A gap's span with the aggregate word before it ('average age': the gap speaks for both)."""
    m = _AGGREGATE.search(text[:span[0]])
    return (m.start(), span[1]) if m else span


_SHARE_OF = re.compile(r"\b(?:share|fraction|percentage|proportion|percent|portion)\s+of\b",
                       re.IGNORECASE)


def _ratio_of_share(text: str, mentions: list[Mention], catalog: dict[str, Any]
                    ) -> list[Mention]:
    """'What share of flights were cancelled': the rate governed as cancelled / flights (a rate
    is the share asked for), named where the whole is; 'the share of delayed departures': the
    rate whose numerator is the metric named."""
    named = [m for m in mentions if m.kind == "metric"]
    if not named or not _SHARE_OF.search(text):
        return mentions
    whole, part = named[0], named[1] if len(named) > 1 else None
    for name, info in (catalog.get("metrics") or {}).items():
        formula = info.get("formula") or {}
        if formula.get("op") != "divide" or info.get("unit") not in ("fraction", "percent"):
            continue
        ratio = (formula.get("numerator"), formula.get("denominator"))
        if part is not None and ratio == (part.name, whole.name):
            rate = Mention("metric", name, None, whole.words, whole.span, "synonym")
            return [rate if m is whole else m for m in mentions if m is not part]
        if part is None and ratio[0] == whole.name:  # 'the share of delayed departures'
            rate = Mention("metric", name, None, whole.words, whole.span, "synonym")
            return [rate if m is whole else m for m in mentions]
    return mentions


_POPULATION = re.compile(r"\s+of\s+(?:the\s+|all\s+|our\s+)?", re.IGNORECASE)


def _heads(text: str, mentions: list[Mention], catalog: dict[str, Any]) -> list[Mention]:
    """'How many flights were cancelled': 'flights' is the head of 'cancelled flights', which
    the text names with its other word; the head alone is no second metric."""
    metrics = catalog.get("metrics") or {}
    named = [m for m in mentions if m.kind == "metric"]

    def words(text: str) -> set[str]:
        return {lemma(w) for w in re.findall(r"[A-Za-z]+", text)}

    dropped = set()
    for head in named:
        for other in named:
            if other.name == head.name:
                continue
            label = words((metrics.get(other.name) or {}).get("label") or other.name)
            mine, theirs = words(head.words), words(other.words)
            if mine and not mine & theirs and label <= mine | theirs and mine <= label:
                dropped.add(id(head))
    for a, b in zip(named, named[1:], strict=False):
        counted = (metrics.get(b.name) or {}).get("unit") == "count"
        if counted and _POPULATION.fullmatch(text[a.span[1]:b.span[0]]):
            dropped.add(id(b))  # 'the mean air time of flights': flights are what is measured
    return [m for m in mentions if id(m) not in dropped]


def _rate_named(mentions: list[Mention], catalog: dict[str, Any]) -> bool:
    """A named metric is itself a fraction (a rate, a share): it is the share asked for."""
    metrics = catalog.get("metrics") or {}
    return any(m.kind == "metric" and (metrics.get(m.name) or {}).get("unit") in
               ("fraction", "percent") for m in mentions)


_TO_DATE = re.compile(r"\b(year|month|quarter) to date\b|\bytd\b|\bso far this (year|month|quarter)"
                      r"\b|\bthis (year|month|quarter) so far\b", re.IGNORECASE)


def _anchored(periods: Periods) -> Periods:
    """'year to date at the end of August 2013': the year to date runs to the period named,
    not to the as-of date."""
    to_date = [p for p in periods.found if _TO_DATE.search(p.words)]
    others = [p for p in periods.found if p not in to_date]
    if len(to_date) != 1 or not others:
        return periods
    [running], anchor = to_date, others[-1].period
    said = _TO_DATE.search(running.words)
    unit = next((g for g in said.groups() if g), "year") if said else "year"
    start = {"year": anchor.end.replace(month=1, day=1),
             "month": anchor.end.replace(day=1),
             "quarter": anchor.end.replace(month=(anchor.end.month - 1) // 3 * 3 + 1, day=1)
             }[unit.lower()]
    merged = PeriodMention(Period(start, anchor.end, "range"), others[-1].words, others[-1].span)
    found = tuple(merged if p is others[-1] else p for p in periods.found if p is not running)
    return Periods(found, periods.compare, periods.problems)


def _two_periods(periods: Periods) -> Periods:
    """'How did X change from May to June': May versus June, not May..June against the span
    before it."""
    found = tuple(part for p in periods.found for part in (p.parts or (p,)))
    return Periods(found, "explicit", periods.problems)


def _as_of(as_of: dt.date | str | None, catalog: dict[str, Any]) -> dt.date | None:
    value = as_of if as_of is not None else catalog.get("as_of")
    if value is None or isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


def _without(periods: Periods, mentions: list[Mention]) -> Periods:
    """Periods minus those inside a governed name (a store called 'March Street')."""
    spans = [m.span for m in mentions]
    found = tuple(p for p in periods.found
                  if not any(s < p.span[1] and p.span[0] < e for s, e in spans))
    return Periods(found, periods.compare, periods.problems)
