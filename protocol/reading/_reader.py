"""`read_text`: one deterministic reading of a text (a question, a claim) against a catalog."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from showwork.protocol.reading._calendar import Period, previous_period
from showwork.protocol.reading._words import Span, overlaps, singular, snake
from showwork.protocol.reading.account import (
    ReadSpan,
    entity_lemmas,
    entry_words,
    is_listed,
    lemma,
    mention_span,
    unread_spans,
)
from showwork.protocol.reading.as_of_day import anchor_spans, at_day_named
from showwork.protocol.reading.asides import asides
from showwork.protocol.reading.asks import (
    BETTER,
    GRAINS,
    JUDGED,
    PACED,
    SIZE_WORDS,
    Asks,
    By,
    GrammarSpan,
    Ranking,
    read_asks,
    size_of,
)
from showwork.protocol.reading.cut_short import names_cut_short
from showwork.protocol.reading.every_member import every_member
from showwork.protocol.reading.filters import exclusions
from showwork.protocol.reading.flagged import flag_amount
from showwork.protocol.reading.formula import formula_said
from showwork.protocol.reading.framing import FRAMING, blanked, framing, set_aside
from showwork.protocol.reading.gaps import EVENTS, Gap, find_gaps, metric_unit
from showwork.protocol.reading.members import carried, names_before_codes, place_notes, prefix_doubts
from showwork.protocol.reading.mentions import Mention, contested, find_mentions
from showwork.protocol.reading.nouns import dimension_by_noun
from showwork.protocol.reading.now import latest_value
from showwork.protocol.reading.numbered import number_short_forms
from showwork.protocol.reading.part_periods import part_and_whole, with_enclosing
from showwork.protocol.reading.per import averaged_over
from showwork.protocol.reading.periods import PeriodMention, Periods, find_periods
from showwork.protocol.reading.phrasings import dimension_of_word, restate
from showwork.protocol.reading.possession import verbs_of_having
from showwork.protocol.reading.quantity import quantity_words
from showwork.protocol.reading.siblings import sibling_excluded
from showwork.protocol.reading.spelling import (
    SHORT_FORMS,
    SIGNS,
    corrections,
    places_said_as_adjectives,
    vocabulary,
)
from showwork.protocol.reading.wording import (
    glossed,
    measure_named,
    only_after_things,
    periods_glossed,
    superlative_said,
    the_business,
)


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
    ranges: tuple[Mention, ...] = ()
    """Members of a range said of an ordered dimension ('after 9pm': departure hours 21, 22,
    23), each on the range's span: one filter keeping them all, not members side by side."""
    excluded: tuple[Mention, ...] = ()
    """Members kept out ('excluding Delta', 'without Toronto'): every other member is asked
    about (a `not_in` filter). Not among `members`."""
    notes: tuple[str, ...] = ()
    """What the reading chose that a person should see ('Atlanta': the one airport of that
    name the metric's facts reach), said in 'Read as'."""
    doubts: tuple[ReadSpan, ...] = ()
    """Words read as one member that also begin other members' names ('Airbus': AIRBUS, and
    AIRBUS INDUSTRIE): read as the member named, and flagged to every caller, never clean."""

    @property
    def unread(self) -> list[str]:
        """The words of every gap, every unread content span and every doubt, in text order:
        what a caller must refuse over or flag."""
        found = sorted([(g.span, g.words) for g in self.gaps]
                       + [(u.span, u.words) for u in (*self.unread_content, *self.doubts)])
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
    alone names no metric (the reading's `text` is then the text so read). A clause before a
    colon that says who the answer is for ('for the board deck: …', framing.py) and an aside
    in parentheses that says nothing the query needs ('(the blizzard)', asides.py) are read as
    that, and the question is the rest."""
    def read(said: str) -> Reading:
        return _read_unframed(said, catalog, as_of)
    frame = framing(text, catalog, read)
    said = [(frame, FRAMING)] if frame is not None else []
    said += asides(text, catalog, read) if "(" in text else []  # 'on feb 8 (the blizzard)'
    if not said:
        return read(text)
    return set_aside(read(blanked(text, [s for s, _d in said])), text, said)


def _read_unframed(text: str, catalog: dict[str, Any], as_of: dt.date | str | None) -> Reading:
    reading = _read_text(text, catalog, as_of)
    if not reading.metrics and _HOW_MANY.search(text):
        again = _read_text(_HOW_MANY.sub("the number of", text), catalog, as_of)
        reading = again if again.metrics else reading
    reading = superlative_said(reading, catalog, lambda said: _read_text(said, catalog, as_of))
    spelt = _spelt_out(reading, catalog, as_of) or _unapostrophed(reading, catalog, as_of)
    if spelt is not None:
        return spelt
    return _completed(_respelled(_recased(reading, catalog, as_of), catalog, as_of), catalog,
                      as_of)


def _completed(reading: Reading, catalog: dict[str, Any], as_of: dt.date | str | None
               ) -> Reading:
    """'Flights to san fran': unread words that are one member's name cut short (cut_short.py)
    read as that name, when the reading again leaves fewer words unread; the words stay in
    doubt, so the answer is never served clean."""
    unread = [(u.span, u.words) for u in reading.unread_content]
    found = names_cut_short(unread, catalog) if unread else []
    if not found:
        return reading
    text = reading.text
    for (start, end), name in sorted(found, reverse=True):
        text = text[:start] + name + text[end:]
    again = read_text(text, catalog, as_of=as_of)
    if _words_unread(again) >= _words_unread(reading):
        return reading
    at, doubts = 0, []
    for (start, end), name in sorted(found):
        doubts.append(ReadSpan(reading.text[start:end], (start + at, start + at + len(name)),
                               "unreadable", f"{name!r}, a name said cut short"))
        at += len(name) - (end - start)
    return replace(again, doubts=(*again.doubts, *doubts))


def _spelt_out(reading: Reading, catalog: dict[str, Any], as_of: dt.date | str | None
               ) -> Reading | None:
    """'avg active days per user', 'orders incl cancellations': an unread word that is one of
    the short forms everyone writes for one English word (spelling.py SHORT_FORMS) is read as
    that word, said in a note; no guess is made, so no doubt. None when no such word is unread
    or the reading again leaves as many words unread."""
    found = _rewritten(reading, catalog, as_of, _SHORT_OR_SIGN, _short_form)
    if found is None:
        return None
    again, said = found
    notes = tuple(f"{reading.text[a:b]!r} read as {_short_form(reading.text[a:b])!r}"
                  for a, b in said)
    return replace(again, notes=(*again.notes, *notes))


_SHORT_OR_SIGN = re.compile(r"[A-Za-z]+|(?<![\d.])(?<![\d.]\s)%")
"""A word, or a sign said alone (no number before it: '10 %' is a number's unit)."""


def _short_form(said: str) -> str | None:
    """The English word a short form or a sign said alone stands for (spelling.py)."""
    return SHORT_FORMS.get(said.lower()) or SIGNS.get(said)


_INNER_APOSTROPHE = re.compile(r"\b([A-Za-z]+)['’]([A-Za-z]{2,})\b")


def _words_unread(reading: Reading) -> int:
    """How many words a reading leaves unread or in doubt."""
    return sum(len(_SAID_WORDS.findall(words)) for words in reading.unread)


_SAID_WORDS = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*|%")


def _unapostrophed(reading: Reading, catalog: dict[str, Any], as_of: dt.date | str | None
                   ) -> Reading | None:
    """'Flights to chicago o'hare', 'orders at o'hare': an unread word with an apostrophe inside
    (not a possessive's) is the same word without it, as names are matched ('Ohare', "O'Hare
    Airport"); read so when the reading again leaves fewer words unread. None otherwise."""
    found = _rewritten(reading, catalog, as_of, _INNER_APOSTROPHE,
                       lambda w: _INNER_APOSTROPHE.sub(r"\1\2", w))
    return found[0] if found is not None else None


def _rewritten(reading: Reading, catalog: dict[str, Any], as_of: dt.date | str | None,
               pattern: re.Pattern[str], put: Callable[[str], str | None]
               ) -> tuple[Reading, list[tuple[int, int]]] | None:
    """The question read again with each match of `pattern` inside its unread words put in
    other words (`put`; None leaves a match as it is), and the spans put: when the reading
    again leaves fewer words unread or in doubt; None otherwise."""
    unread = [(g.span, g.words) for g in reading.gaps] + [(u.span, u.words)
                                                          for u in reading.unread_content]
    said = sorted({(start + w.start(), start + w.end()) for (start, _end), words in unread
                   for w in pattern.finditer(words) if put(w.group(0)) is not None})
    if not said:
        return None
    text = reading.text
    for start, end in reversed(said):
        text = text[:start] + (put(text[start:end]) or "") + text[end:]
    again = read_text(text, catalog, as_of=as_of)
    return (again, said) if _words_unread(again) < _words_unread(reading) else None


def _recased(reading: Reading, catalog: dict[str, Any], as_of: dt.date | str | None) -> Reading:
    """'flights to honolulu': unread words written in lower case read as the name they would be
    capitalised ('Honolulu', part of one airport's name), when the reading again leaves fewer
    words unread and every word so written is read; what they were read as is said, as for any
    place. A code in lower case ('lax') stays a word, unread: the refusal offers the member."""
    unread = [(g.span, g.words) for g in reading.gaps] + [(u.span, u.words)
                                                          for u in reading.unread_content]
    said = list(dict.fromkeys(  # a word both a gap and unread is respelled once, where it is
        ((start + w.start(), start + w.end()), w.group(0)) for (start, _end), words in unread
        for w in _WORDS.finditer(words) if w.group(0).islower() and len(w.group(0)) >= 3
        and reading.text[start + w.start():start + w.end()] == w.group(0)))
    if not said:
        return reading
    text = reading.text
    for (start, end), word in said:
        text = text[:start] + word.capitalize() + text[end:]
    again = _read_text(text, catalog, as_of)
    still = {w.lower() for u in again.unread for w in _WORDS.findall(u)}
    return again if len(again.unread) < len(reading.unread) and not still & {
        w for _s, w in said} else reading


def _respelled(reading: Reading, catalog: dict[str, Any], as_of: dt.date | str | None) -> Reading:
    """A misspelled word ('Revnue', 'Febuary') read as the one catalog or calendar word it is a
    slip from, a place said as an adjective ('Canadian') as the one member it names (spelling.py),
    when the reading again leaves fewer words unread; the word stays in doubt, so the answer is
    never served clean."""
    unread = [(g.span, g.words) for g in reading.gaps] + [(u.span, u.words)
                                                          for u in reading.unread_content]
    said = [((start + w.start(), start + w.end()), w.group(0)) for (start, _end), words in unread
            for w in _WORDS.finditer(words)]
    fixes = {**places_said_as_adjectives([w for _span, w in said], catalog),
             **corrections([w for _span, w in said], catalog)}
    slips = [(span, w, fixes[w]) for span, w in said if w in fixes]
    if not slips:
        return reading
    known = vocabulary(catalog)
    text = reading.text
    for (start, end), _w, fixed in sorted(slips, reverse=True):
        text = text[:start] + fixed + text[end:]
    again = read_text(text, catalog, as_of=as_of)
    if len(again.unread) >= len(reading.unread):
        return reading
    at, doubts = 0, []
    for (start, end), word, fixed in sorted(slips):
        doubts.append(ReadSpan(word, (start + at, start + at + len(fixed)), "unreadable",
                               f"{fixed!r}, {'a misspelling' if fixed in known else 'its place'}"))
        at += len(fixed) - (end - start)
    return replace(again, doubts=(*again.doubts, *doubts))


def _read_text(text: str, catalog: dict[str, Any], as_of: dt.date | str | None) -> Reading:
    named = find_periods(text, _as_of(as_of, catalog))
    named = at_day_named(text, named, _ANCHORED_ELSEWHERE)  # 'the last 7 days as of 31 March'
    if _SHARE_OF.search(text):  # 'the year's cancellations … in February': the year holding it
        named = with_enclosing(text, named)
    mentions, overall = _overall(text, find_mentions(text, catalog), catalog)
    mentions, notes = carried(_total_of(text, mentions, catalog), catalog)
    mentions = sorted(mentions + _clock_times(text, catalog, mentions) + _rate(text, catalog, mentions)
                      + _unit_total(text, catalog, mentions)
                      + flag_amount(text, catalog, mentions), key=lambda m: m.span)
    mentions = sorted(mentions + _verb_named(text, catalog, mentions), key=lambda m: m.span)
    mentions = restate(text, mentions, catalog, [p.span for p in named.found])
    # 'plus users: how many were active': of several, the one whose other words are said too,
    # once no entry has read the words whole ('users were active' is active users' own synonym)
    mentions = sorted(mentions + _verb_named(text, catalog, mentions, rest=True), key=lambda m: m.span)
    mentions, kept_out, kept_out_notes = sibling_excluded(text, mentions, catalog)
    notes += kept_out_notes
    named, of_all = _of_all_the_data(text, named, mentions, catalog)
    shared = _ratio_of_share(text, _got_verbed(text, mentions, catalog), catalog, named.found)
    mentions = _heads(text, shared, catalog)
    if _metrics_of(mentions) != _metrics_of(shared):  # 'what fraction of orders got cancelled'
        mentions = _ratio_of_share(text, mentions, catalog, named.found)
    mentions, negated = _negated(text, mentions, catalog)
    mentions, things = _member_things(text, mentions, catalog)
    mentions, together = _members_together(text, mentions, things)
    mentions, excluded, cut, only = exclusions(text, mentions)
    every, every_doubts = every_member(text, catalog, mentions)  # 'from new york': each origin
    ranges = _clock_ranges(text, catalog, mentions) + together + every
    periods = _the_year(text, _anchored(_without(named, mentions), text), mentions, catalog)
    anchored = [ReadSpan(p.words, p.span, "window", "to the day named after it")
                for p in named.found if _THIS.fullmatch(p.words) and p not in periods.found]
    # the words that keep members out are the filter's, never a shape's ('Delta', 'other than')
    masked = _blank(text, [span for _w, span, _d in cut] + [m.span for m in excluded]
                    + [m.span for m in together] + anchor_spans(periods.found))
    asks = _judged_change(masked, read_asks(masked, mentions, periods), mentions, catalog)
    if (asks.change or asks.why or _COMPARE_WORD.search(text)) and any(
            p.parts for p in periods.found):  # 'compare A between May and June': two windows
        periods = _two_periods(periods)
        asks = _judged_change(masked, read_asks(masked, mentions, periods), mentions, catalog)
    asks = _sorted(text, _paced(text, _judged(text, asks, mentions, catalog), mentions, catalog))
    periods, asks = _so_far(periods, asks, mentions, catalog)
    periods = _running_from_start(periods, asks, mentions, catalog)
    periods, to_as_of = _days_to_as_of(periods, mentions, catalog, _as_of(as_of, catalog))
    asks, per = averaged_over(text, asks, mentions, catalog)  # 'average air time per flight'
    asks, said = _shared_words(text, asks, mentions, catalog)
    asks = _each_thing_unknown(dimension_by_noun(
        text, _entity_breakdown(text, asks, mentions, catalog), mentions, catalog))
    asks = _counted_by(asks, catalog)
    asks = _hour_ranking(asks, catalog)
    mentions = sorted(mentions + said, key=lambda m: m.span)
    mentions, asks = _rows_counted(text, mentions, asks, catalog)
    asks = _which_of_two(text, asks, mentions)
    asks = _ranked_noun(text, asks, mentions, catalog)
    mentions, split = _split_by_its_own(mentions, asks, catalog)
    if asks.share is not None and _rate_named(mentions, catalog):
        # 'what percentage of reminders were opened': a rate is the share asked for
        kept = tuple(replace(s, detail="the rate named is the share") if s.detail == "share of total"
                     else s for s in asks.spans)
        asks = replace(asks, share=None, spans=kept)
    gaps, seasons = periods_glossed(text, find_gaps(
        text, catalog, sorted(mentions + excluded + together + every, key=lambda m: m.span), periods,
        asks),
        periods.found)  # 'over the summer (jun through aug)'
    by_kind = {k: tuple(m for m in mentions if m.kind == k) for k in ("metric", "member", "dimension")}
    spans = [mention_span(m) for m in mentions]
    spans += [ReadSpan(p.words, p.span, "window", str(p.period)) for p in periods.found]
    spans += seasons + _whole_periods(text, periods.found) + _by_way_of(text, list(by_kind["member"]))
    spans += [ReadSpan(s.words, s.span, "shape", s.detail) for s in asks.spans] + overall
    spans += [ReadSpan(m.group(0), m.span(), "qualifier", "a question of quantity")
              for m in _HOW_FAR.finditer(text) if by_kind["metric"]]
    spans += _set_up(text, mentions)
    spans += kept_out + per
    spans += measure_named(text, mentions) + only_after_things(text, list(by_kind["member"]), catalog)
    spans += the_business(text, mentions, catalog)
    spans += _whole(text, list(by_kind["metric"]), asks, catalog, (*by_kind["member"], *ranges)) \
        + negated \
        + anchored + things
    spans += _all_of(text, list(by_kind["dimension"]), asks, catalog)
    spans += _total_after(text, list(by_kind["metric"]), catalog)  # 'alterations total'
    spans += _from_the_start(text, periods.found, asks, list(by_kind["metric"]), catalog)
    spans += _all_things(text, by_kind["metric"], mentions, catalog)
    spans += _by_what_follows(text, mentions, asks)
    if asks.breakdown and asks.ranking is None:  # 'Break down cancellations by airport'
        spans += [ReadSpan(m.group(0), m.span(), "shape", "breakdown")
                  for m in _BREAK_DOWN.finditer(text)]
    now: tuple[str, ...] = ()
    if not periods.found and by_kind["metric"]:  # 'in the data': the whole covered range
        spans += [ReadSpan(m.group(0), m.span(), "window", "the whole covered range")
                  for m in _ALL_DATA.finditer(text)]
        if not (asks.why or asks.change or asks.compare or asks.series or asks.cumulative):
            latest, now = latest_value(text, list(by_kind["metric"]), catalog)  # 'right now'
            spans += latest
    spans += _side_by_side(text, list(by_kind["member"]), list(by_kind["metric"]), asks, catalog)
    spans += [ReadSpan(words, span, "qualifier", detail) for words, span, detail in cut + only]
    spans += [ReadSpan(m.words, m.span, "member", f"{m.name} != {m.member}") for m in excluded]
    spans += [ReadSpan(m.words, m.span, "member", f"{m.name} in {m.member}") for m in ranges]
    so_far = Reading(text, by_kind["metric"], by_kind["member"], by_kind["dimension"],
                     periods.found, asks, ())
    pointed = _siblings_of(so_far, catalog)
    spans += _qualifying(so_far, catalog, pointed)
    spans += quantity_words(text, list(by_kind["metric"]), list(by_kind["member"]), catalog,
                            {m.name: set(found) for m, found in pointed})
    spans += _unit_words(text, list(by_kind["metric"]), catalog)
    spans += names_before_codes(text, [*by_kind["member"], *excluded], catalog)  # 'Chicago ORD'
    spans += number_short_forms(text, mentions)  # 'claim no. 12312702'
    spans += formula_said(text, list(by_kind["metric"]), catalog)  # '(payments plus reserves)'
    spans += verbs_of_having(text, list(by_kind["metric"]), catalog)  # 'holding in reserves'
    spans += glossed(text, spans)
    spans += _grain_again(text, asks, mentions)
    taken = [s.span for s in spans] + [_with_aggregate(text, g.span) for g in gaps] + \
        [p.span for p in periods.problems]
    own = entry_words(catalog, [m.name for m in by_kind["metric"]],
                      [m.name for m in (*by_kind["dimension"], *by_kind["member"], *excluded)])
    particles = _particles(text, spans, own, asks)
    spans += particles
    taken += [s.span for s in particles]
    unread = tuple(sorted([ReadSpan(words, span, "unreadable", "no catalog entry or grammar reads it")
                           for words, span in unread_spans(text, taken, own)]
                          + _contested(text, catalog, list(by_kind["metric"]), taken, own)
                          + _nothing_ranked(text, asks),
                          key=lambda s: s.span))
    unread = tuple(sorted(unread + _event_of_a_level(text, mentions, catalog)
                          + _population(text, list(by_kind["metric"]), periods.found)
                          + _relative_clause(text, mentions, [*taken, *(u.span for u in unread)])
                          + _metric_in_clause(text, list(by_kind["metric"]))
                          + _second_grain(asks)
                          + _other_grains(text, asks, periods.found, mentions)
                          + _previous_beside_two(text, asks, periods.found),
                          key=lambda s: s.span))
    unread = tuple(sorted(unread + tuple(_dimensions_unused(
        text, list(by_kind["dimension"]), asks, [*by_kind["member"], *excluded, *ranges],
        [s.span for s in spans if s.read_as == "qualifier"] + [g.span for g in gaps]
        + [u.span for u in unread])), key=lambda s: s.span))
    unread = tuple(u for u in unread if not any(  # said once: the widest span that holds it
        o.span != u.span and o.span[0] <= u.span[0] and u.span[1] <= o.span[1] for o in unread))
    asked = tuple(dict.fromkeys(m.name for m in by_kind["metric"]))
    return Reading(text, by_kind["metric"], by_kind["member"], by_kind["dimension"],
                   periods.found, asks, tuple(gaps), tuple(sorted(spans, key=lambda s: s.span)),
                   unread, tuple(ranges), tuple(excluded),
                   (*notes, *of_all, *to_as_of, *now,
                    *place_notes(by_kind["member"], catalog, asked), *split),
                   prefix_doubts([*by_kind["member"], *excluded], catalog, asked)
                   + _day_parts(ranges) + _said_as_verb(text, mentions) + _top_by_rows(mentions)
                   + tuple(every_doubts))


def _split_by_its_own(mentions: list[Mention], asks: Asks, catalog: dict[str, Any]
                      ) -> tuple[list[Mention], tuple[str, ...]]:
    """'Top 3 products by revenue', 'what share of sales came from drinks': the metric named
    cannot be split by the dimension asked (a breakdown's, or a share's member's), and exactly
    one metric is named in that dimension's words or its entity's and the metric's ('product
    revenue', product_revenue) and can: read as that one, said in 'Read as'."""
    entries = catalog.get("metrics") or {}
    named = [m for m in mentions if m.kind == "metric"]
    if len({m.name for m in named}) != 1:
        return mentions, ()
    metric = named[0].name
    own = (entries.get(metric) or {}).get("dimensions") or ()
    if len(asks.breakdown) == 1:
        dims = list(asks.breakdown)
    elif asks.share is not None:  # 'what share of 2019 sales came from drinks'
        dims = list(dict.fromkeys(m.name for m in mentions if m.kind == "member"))
    else:
        return mentions, ()
    apart = [d for d in dims if d not in own]
    if len(apart) != 1:
        return mentions, ()
    dim = apart[0]
    qualified = str(((catalog.get("dimensions") or {}).get(dim) or {}).get("qualified") or dim)
    said = {dim.split("__")[-1], *qualified.split("__")[:-1]}
    label = str((entries.get(metric) or {}).get("label") or metric).lower().split()
    words = {tuple(sorted(n.split("_") + w)) for n in said for w in (metric.split("_"), label)}
    fits = [n for n, info in entries.items() if n != metric
            and dim in (info.get("dimensions") or ())
            and tuple(sorted(n.split("_"))) in words]
    if len(fits) != 1:
        return mentions, ()
    note = (f"{named[0].words!r}: {fits[0]}, the {metric} split by {dim} ({metric} is not)",)
    return [_as(m, fits[0]) if m.kind == "metric" else m for m in mentions], note


_UP = re.compile(r"\b([A-Za-z]+)\s+(up)\b", re.IGNORECASE)


def _particles(text: str, spans: list[ReadSpan], own: set[str], asks: Asks) -> list[ReadSpan]:
    """'Signed up', 'sign up': 'up' after a verb is part of the verb, not a rise, where the verb
    was read as the named metric's own ('how many new customers signed up') or the two words
    together are one of the named metric's words ('sign up' of 'signups'); never in a question
    of change ('how much did revenue go up')."""
    if asks.change:
        return []
    verbs = [s.span for s in spans if s.detail == "the metric's own verb"]
    return [ReadSpan(m.group(2), m.span(2), "shape", f"part of the verb '{m.group(1)}'")
            for m in _UP.finditer(text)
            if m.span(1) in verbs or lemma(m.group(1)) + "up" in own]


def _siblings_of(reading: Reading, catalog: dict[str, Any]
                 ) -> list[tuple[Mention, dict[str, set[str]]]]:
    """Each named metric with the siblings the question's other words point it to, and those
    words (qualifiers.py `siblings`: 'Black men in prison' of `avg_black` points to
    `bmprison`), found once for the qualifiers' spans and the words of quantity."""
    from showwork.protocol.reading.qualifiers import siblings  # it imports this module

    return [(named, siblings(reading, named, catalog)) for named in reading.metrics]


def _qualifying(reading: Reading, catalog: dict[str, Any],
                pointed: list[tuple[Mention, dict[str, set[str]]]]) -> list[ReadSpan]:
    """The words that point a named metric at a sibling ('flights … were late': delayed
    flights, whose synonym is 'late flights'), as the analyst and the audit's scope read them
    (qualifiers.py; `pointed`: `_siblings_of` the reading): read there, and only there; a word
    set apart ('excluding quick buys') points nowhere and stays unread."""
    from showwork.protocol.reading.qualifiers import set_apart  # it imports this module

    out: list[ReadSpan] = []
    apart = set_apart(reading.text)
    # a clause after a metric's noun ('flights that were late') is a condition, not a sibling
    clauses = [m.span("clause") for m in _RELATIVE.finditer(reading.text)]
    metrics = catalog.get("metrics") or {}
    for named, found in pointed:
        if not found:
            continue
        best = max(found, key=lambda other: len(found[other]))
        info = metrics.get(best) or {}
        # the sibling's words, once its qualifier chose it ('quick buys': 'buy' too short alone)
        said = {lemma(w) for t in (info.get("label") or "", *(info.get("synonyms") or ()))
                for w in _QUALIFIER_WORD.findall(t)}
        out += [ReadSpan(w.group(0), w.span(), "qualifier", f"{named.name} read as {best}")
                for w in _QUALIFIER_WORD.finditer(reading.text)
                if (w.group(0).lower() in found[best] or lemma(w.group(0)) in said
                    and not is_listed(w.group(0))) and w.group(0).lower() not in apart
                and not overlaps(w.span(), [m.span for m in reading.metrics] + clauses)]
    return out


_QUALIFIER_WORD = re.compile(r"[A-Za-z0-9]+")



def _by_what_follows(text: str, mentions: list[Mention], asks: Asks) -> list[ReadSpan]:
    """'by' read where the words after it are used: a member who did it ('distance flown by
    Delta' filters by Delta), a metric a ranking orders by ('top 5 destinations by number of
    flights'), the size of a change asked ('by what percent did X change'). 'by' before a date is
    the shape grammar's (a running total, asks.py); before anything else no rule uses, unread."""
    out: list[ReadSpan] = []
    for said in _BY_WORD.finditer(text):
        after = said.end()
        if asks.change and _BY_HOW_MUCH.match(text, after):  # 'by what percent did X change'
            out.append(ReadSpan(said.group(0), said.span(), "qualifier", "by: the size of the change"))
            continue
        for m in mentions:
            if m.kind == "metric" and asks.ranking is None or m.kind == "dimension":
                continue
            if m.span[0] >= after and _ONLY_FILLER.fullmatch(text[after:m.span[0]]):
                what = f"by: {m.name} = {m.member}" if m.kind == "member" else \
                    f"by: ranked by {m.name}"
                out.append(ReadSpan(said.group(0), said.span(), "qualifier", what))
                break
    return out


_BY_WORD = re.compile(r"\bby\b", re.IGNORECASE)
_BY_HOW_MUCH = re.compile(r"\s+(?:what|how)\b", re.IGNORECASE)
_ONLY_FILLER = re.compile(r"\s*(?:(?:the|a|an|its|their|number|numbers|count|amount|total)"
                          r"(?:\s+of)?\s+)*", re.IGNORECASE)
"""Words between 'by' and what it introduces that say nothing of their own ('by the number of')."""


def _day_parts(ranges: list[Mention]) -> tuple[ReadSpan, ...]:
    """'In the morning' read as hours by a convention (PARTS_OF_DAY): flagged, with the hours."""
    out: dict[tuple[int, int], ReadSpan] = {}
    for m in ranges:
        said = _PART_OF_DAY.fullmatch(m.words)
        if said is not None:
            hours = [r.member for r in ranges if r.span == m.span]
            out[m.span] = ReadSpan(m.words, m.span, "member",
                                   f"{m.name} in {hours[0]}..{hours[-1]}: "
                                   f"{said.group(1).lower()} taken as those hours")
    return tuple(out.values())


def _contested(text: str, catalog: dict[str, Any], metrics: list[Mention],
               taken: list[tuple[int, int]], own: set[str]) -> list[ReadSpan]:
    """Words that end another metric's name across the one taken ('total transaction amount':
    'amount' of transaction_amount), unless something else read them or the catalog's own
    entries for what the text names use them ('average departure delay minutes': a ratio of
    minutes)."""
    return [ReadSpan(words, span, "unreadable", f"ends the name of {other}, not of the metric read")
            for words, span, other in contested(text, catalog, metrics)
            if words and not overlaps(span, taken)
            and not all(lemma(w) in own for w in _WORDS.findall(words))]


_WORDS = re.compile(r"[A-Za-z]+")


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with the spans blanked out (offsets kept)."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


_HOW_FAR = re.compile(r"\bhow\s+(?:long|far|late|early|often)\b", re.IGNORECASE)
"""'How long', 'how late': the question word of a named quantity (a distance, a delay)."""
_AGGREGATE = re.compile(r"\b(?:average|mean|median|typical|total)\s+$", re.IGNORECASE)
_OPENING = (r"(?:hey|hi|hello|ok(?:ay)?|so|right|quick\s+(?:one|question)|one\s+more(?:\s+(?:thing"
            r"|question))?|(?:a\s+)?question(?:\s+for\s+you)?)")
_OPENER = re.compile(rf"^\s*(?:{_OPENING}(?:\s*[,!]\s*|\s+))*{_OPENING}\s*[,:;!.-]\s*",
                     re.IGNORECASE)
"""'hey, quick one:', 'ok so,' — words that open a question and state nothing of it, read only
at its start and closed by a mark (a word such as 'quick' is no filler elsewhere)."""
_FOCUS = re.compile(r"(?:^|(?<=[.;:!?]\s))\s*(?:(?:I'm|I\s+am|we're|we\s+are)\s+)?(?:looking|look)"
                    r"\s+at\s+(?:the\s+)?", re.IGNORECASE)
"""'I'm looking at JetBlue.', 'Looking at the 5th Ave store.', 'Look at average arrival delay in
Q2 and in Q3.': a sentence that opens by naming what the question is about."""


def _set_up(text: str, mentions: list[Mention]) -> list[ReadSpan]:
    """The words that set a question up: an opener ('hey, quick one:'), and 'looking at'
    opening a sentence right before a metric or member named there (the focus the rest asks
    about, read as that metric or filter); with nothing named after it, it stays unread."""
    out = [ReadSpan(m.group(0).strip(), m.span(), "qualifier", "an opening, no content")
           for m in _OPENER.finditer(text) if m.group(0).strip()]
    starts = {m.span[0] for m in mentions if m.kind in ("metric", "member")}
    out += [ReadSpan(m.group(0).strip(), m.span(), "qualifier", "the focus named after it")
            for m in _FOCUS.finditer(text) if m.end() in starts]
    return out


_ACROSS_ALL = re.compile(r"(?:\b(?:across\s+(?:all|every)|(?:over|for|in|on|at|from|to|of)\s+all)|"
                         r"[,;(]\s*all)\s+"
                         r"(?:of\s+)?(?:the\s+|our\s+)?(?:[\w-]+\s+(?:and|or)\s+)?$", re.IGNORECASE)
_ACROSS = re.compile(r"\bacross\s+(?:the\s+|our\s+)?$", re.IGNORECASE)
_AVERAGING = re.compile(r"\b(?:average|mean|typical|overall)\b[^?.;,]*$", re.IGNORECASE)
_SET_APART = re.compile(r"\b(?:compare[ds]?|comparing|contrast|versus|vs|which|what\s+\w+\s+had|"
                        r"rank(?:ed|ing)?|each|every|per|break(?:down)?|split)\b", re.IGNORECASE)
"""Words that ask the members apart: after them 'across X' is a breakdown ('compare the average
order value across stores')."""


def _averaged_across(before: str) -> re.Match[str] | None:
    """'The average unemployment rate across states': one average over every member, not a
    breakdown by state (after an average, 'across X' says what it is taken over)."""
    m = _ACROSS.search(before)
    if m is None or _SET_APART.search(before, 0, m.start()):
        return None
    return m if _AVERAGING.search(before, 0, m.start()) else None


_PICKED_OF = re.compile(r"\b(?:which|each|any|one|none|some|many|most|few|who)\s+of$", re.IGNORECASE)
"""'Which of all X', 'each of all X': one or each member picked out of them, never their whole
('the income of all states' is the whole)."""
_ALL_N = re.compile(r"\ball\s+(?:of\s+)?(?:the\s+|our\s+)?(\d{1,3}|two|three|four|five|six|seven|eight|"
                    r"nine|ten|eleven|twelve)\s+$", re.IGNORECASE)
"""'All three airports': every member, when the dimension has that many."""


def _overall(text: str, mentions: list[Mention], catalog: dict[str, Any] | None = None
             ) -> tuple[list[Mention], list[ReadSpan]]:
    """'Across all airlines and airports', 'on all platforms', 'all three airports' (when there
    are three): every member together, so no dimension is asked about (the words are read, as
    'overall' is)."""
    dims = (catalog or {}).get("dimensions") or {}

    def whole(m: Mention) -> re.Match[str] | None:
        said = _ACROSS_ALL.search(text[:m.span[0]]) or _averaged_across(text[:m.span[0]])
        if said is not None and _PICKED_OF.search(text[:said.start() + 2]):
            return None  # 'which of all the stores': the members asked apart, not the whole
        if said is not None:
            return said
        counted = _ALL_N.search(text[:m.span[0]])
        if counted is None:
            return None
        n = counted.group(1).lower()
        size = size_of(n)
        return counted if len((dims.get(m.name) or {}).get("members") or ()) == size else None

    every = [(m, said) for m in mentions if m.kind == "dimension"
             and (said := whole(m)) is not None]
    dropped = [m for m, _ in every]
    return [m for m in mentions if m not in dropped], [
        ReadSpan(text[said.start():m.span[1]], (said.start(), m.span[1]), "qualifier",
                 f"every {m.name}: no filter") for m, said in every]


_SO_FAR = re.compile(r"so\s+far|to[\s-]+date|(?P<y>ytd|year[\s-]+to[\s-]+date)|"
                     r"(?P<q>qtd|quarter[\s-]+to[\s-]+date)|(?P<m>mtd|month[\s-]+to[\s-]+date)",
                     re.IGNORECASE)
"""A running total said of the period it names ('in 2019 so far', '2019 ytd', 'Q2 qtd'): that
period to date, not a total from the start of the data. 'ytd' ('qtd', 'mtd') only of a year (a
quarter, a month): '2019 ytd' is 2019 to date, 'March ytd' runs from January."""
_SO_FAR_GRAIN = {"y": "year", "q": "quarter", "m": "month"}


def _so_far_of(words: str, periods: Periods) -> bool:
    """The words say 'to date' of the one period named ('so far', 'to date'; 'ytd' of a year)."""
    m = _SO_FAR.fullmatch(words)
    if m is None:
        return False
    grain = next((_SO_FAR_GRAIN[k] for k, v in m.groupdict().items() if v), None)
    return grain is None or len(periods.found) == 1 and periods.found[0].period.grain == grain


def _so_far(periods: Periods, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]
            ) -> tuple[Periods, Asks]:
    """'In 2019 so far', '2019 to date': the one period named, from its start to now (the data's
    end), not a running total from the start of the data. Said of a ranking, a series or a
    breakdown ('which month of 2019 had the most so far') it only bounds the window: no running
    total is asked."""
    said = [g for g in asks.spans if g.detail == "cumulative"]
    if not said or not all(_so_far_of(g.words, periods) for g in said) or asks.change or \
            asks.why or len(periods.found) != 1 or periods.found[0].period.grain == "range":
        return periods, asks
    [named] = periods.found
    ends = [str((((catalog.get("metrics") or {}).get(m.name) or {}).get("coverage") or {})
                .get("end") or "") for m in mentions if m.kind == "metric"]
    known = [dt.date.fromisoformat(e[:10]) for e in ends if e]
    end = min([named.period.end, *known])  # now: where the data ends, within the period
    if end < named.period.start:
        return periods, asks  # the period is before the data: nothing so far to bound
    to_date = Period(named.period.start, end, "range")
    periods = Periods((replace(named, period=to_date),), periods.compare, periods.problems)
    if asks.ranking is not None or asks.grain or asks.breakdown:
        spans = tuple(replace(g, detail="to date") if g in said else g for g in asks.spans)
        asks = replace(asks, cumulative=False, spans=spans)
    return periods, asks


def _running_from_start(periods: Periods, asks: Asks, mentions: list[Mention],
                        catalog: dict[str, Any]) -> Periods:
    """'How many flights had been scheduled in total by the end of May': a running total, from
    the start of the named metric's data to the end of the one period named, as 'from the start
    of 2013 to the end of May' says it (a point-in-time or cumulative metric is left as named:
    its value at the end is the total)."""
    if not asks.cumulative or asks.change or asks.why or len(periods.found) != 1:
        return periods
    said = [g.words for g in asks.spans if g.detail == "cumulative"]
    if asks.grain and not any(_DEADLINE.fullmatch(w.strip()) for w in said):
        return periods  # a running total by month 'in Q4 2018' runs within Q4; 'through April'
        # is up to April's end
    [named] = periods.found
    if named.parts:  # 'from the start of 2013 to the end of May': one range, summed
        named = replace(named, parts=())
        periods = Periods((named,), periods.compare, periods.problems)
    infos = [(catalog.get("metrics") or {}).get(m.name) or {} for m in mentions
             if m.kind == "metric"]
    if named.period.grain == "range" or not infos or any(
            i.get("point_in_time") or i.get("type") == "cumulative" for i in infos):
        return periods
    start = min((str((i.get("coverage") or {}).get("start") or "")) for i in infos)
    if not start or dt.date.fromisoformat(start) > named.period.start:
        return periods
    begins = dt.date.fromisoformat(start)
    if said and all(_AS_OF.fullmatch(w.strip()) for w in said):
        # 'as of June 15, 2019' alone: the year's total so far (the data's, if it begins later)
        begins = max(begins, named.period.end.replace(month=1, day=1))
    running = Period(begins, named.period.end, "range")
    return Periods((replace(named, period=running),), periods.compare, periods.problems)


def _days_to_as_of(periods: Periods, mentions: list[Mention], catalog: dict[str, Any],
                   as_of: dt.date | None) -> tuple[Periods, tuple[str, ...]]:
    """'Revenue over the last 7 days': the N days before the as-of day (periods.py), unless the
    data of every metric named covers the as-of day itself (a project whose as_of is left to
    its default, the last day of coverage): then the N days up to and including it, so the
    last day with data is never left out. Either reading is one a person might mean, so Read
    as says which days were taken."""
    ends = [str((((catalog.get("metrics") or {}).get(m.name) or {}).get("coverage") or {})
                .get("end") or "") for m in mentions if m.kind == "metric"]
    if as_of is None or not ends or not all(ends) or \
            min(dt.date.fromisoformat(e[:10]) for e in ends) < as_of:
        return periods, ()
    found, notes = [], []
    for p in periods.found:
        days = _LAST_DAYS.fullmatch(p.words.strip())
        if days and not p.parts and p.period.end == as_of - dt.timedelta(days=1):
            size = (p.period.end - p.period.start).days + 1
            p = replace(p, period=Period(as_of - dt.timedelta(days=size - 1), as_of, "range"))
            notes.append(f"'{p.words}' taken as {p.period.start:%-d %B} to {as_of:%-d %B %Y}, "
                         "up to the as-of day, which the data covers")
        found.append(p)
    return Periods(tuple(found), periods.compare, periods.problems), tuple(notes)


_LAST_DAYS = re.compile(r"(?:the\s+)?(?:last|past|previous|prior)\s+\S+\s+days?", re.IGNORECASE)
"""The words of 'the last N days' (periods.py `_last_n`)."""


_AS_OF = re.compile(r"as\s+of(?:\s+the\s+end\s+of)?", re.IGNORECASE)
_DEADLINE = re.compile(r"(?:in\s+total\s+)?(?:by|through|thru|until|till|up\s+to)(?:\s+the\s+end\s+of)?",
                       re.IGNORECASE)
"""A running total's words that name where it ends, not the period it runs within."""


def _shared_words(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]
                  ) -> tuple[Asks, list[Mention]]:
    """'By airport', 'which three airports': a word of several dimensions, read as the one the
    text names or a verb gives the role (phrasings.dimension_of_word); else left unknown."""
    unknown = {b.name for b in asks.by if b.kind == "unknown"}
    if asks.ranking is not None and asks.ranking.dimension and \
            asks.ranking.dimension not in (catalog.get("dimensions") or {}):
        unknown.add(asks.ranking.dimension)
    found = {w: d for w in unknown if (d := dimension_of_word(w, text, mentions, catalog))}
    if not found:
        return asks, []
    taken = [m.span for m in mentions] + [b.span for b in asks.by]
    said = [Mention("dimension", d, None, w.group(0), w.span(), "said") for word, d in found.items()
            for w in re.finditer(rf"\b{re.escape(word)}s?\b", text, re.IGNORECASE)
            if not overlaps(w.span(), taken)]
    by = tuple(replace(b, kind="dimension", name=found[b.name])
               if b.kind == "unknown" and b.name in found else b for b in asks.by)
    breakdown = tuple(dict.fromkeys(found.get(d, d) for d in asks.breakdown))
    ranking = asks.ranking
    if ranking is not None and ranking.dimension in found:
        ranking = replace(ranking, dimension=found[ranking.dimension])
    spans = tuple(replace(s, detail=f"by {found[b.name]}") if s.span == b.span else s
                  for s in asks.spans for b in asks.by if b.name in found) or asks.spans
    resolved = [GrammarSpan(b.words, b.span, f"by {found[b.name]}") for b in asks.by
                if b.kind == "unknown" and b.name in found
                and not any(s.span == b.span for s in spans)]  # 'at each of the three airports'
    spans = tuple(sorted((*dict.fromkeys(spans), *resolved), key=lambda g: g.span))
    return replace(asks, by=by, breakdown=breakdown, ranking=ranking, spans=spans), said


_KEY_WORDS = {"id": "id", "ids": "id", "number": "num", "numbers": "num", "no": "num",
              "nos": "num", "num": "num", "nbr": "num", "key": "key", "code": "code"}
"""Words that name an entity's key column ('order id', 'policy number', 'tail number'), each
read as the column's own abbreviation of it."""


_KEY_AFTER = re.compile(r"\s+(ids?|numbers?|nos?|num|nbr|key|code)\b", re.IGNORECASE)


def _entity_breakdown(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]
                      ) -> Asks:
    """'By order id', 'by policy number', 'by tail number': a breakdown by an entity whose key
    column those words name (the catalog's `entities`: order keyed by order_id), where every
    named metric's sources hold it; its members are labels. 'By product ID' is the entity's
    key, not the product's name. Any other unknown 'by' stays unknown."""
    entities = catalog.get("entities") or {}
    named = {m.name for m in mentions if m.kind == "metric"}
    if not entities or not named:
        return asks
    asks = _ranked_entity(text, asks, entities, named)
    found: dict[Span, tuple[str, By]] = {}
    for b in asks.by:
        key = _KEY_AFTER.match(text, b.span[1]) if b.kind == "dimension" else None
        words = f"{b.words} {key.group(1)}" if key else b.name if b.kind == "unknown" else None
        entity = _entity_keyed(words.split(None, 1)[-1], entities, named) if words else None
        if entity is None and b.kind == "unknown" and not _PER.match(b.words):
            entity = _entity_named(b.name, entities, named)  # 'by order', 'for each customer'
            # ('revenue per order' is an average over orders, no breakdown: it stays unread)
        if entity is not None:
            span = (b.span[0], key.end()) if key else b.span
            found[b.span] = (entity, By("dimension", entity, text[span[0]:span[1]], span))
    if not found:
        return asks
    by = tuple(found[b.span][1] if b.span in found else b for b in asks.by)
    spans = tuple(s for s in asks.spans if s.span not in found) + tuple(
        GrammarSpan(b.words, b.span, f"by {e} (its key, {entities[e]['column']})")
        for e, b in found.values())
    renamed = {old.name: found[old.span][0] for old in asks.by if old.span in found}
    breakdown = tuple(dict.fromkeys(renamed.get(d, d) for d in asks.breakdown))
    return replace(asks, by=by, breakdown=breakdown,
                   spans=tuple(sorted(spans, key=lambda g: g.span)))


_EACH_WORD = re.compile(r"(?:each|every)\s", re.IGNORECASE)


def _each_thing_unknown(asks: Asks) -> Asks:
    """'each X' or 'every X' with one word the catalog does not know and no entity names
    ('android and ios each have'): no breakdown; its words are left to the rules that read
    them ('each' after members named), else unread."""
    dropped = {b.span for b in asks.by if b.kind == "unknown" and _EACH_WORD.match(b.words)}
    if not dropped:
        return asks
    names = {b.name for b in asks.by if b.span in dropped}
    kept = tuple(b for b in asks.by if b.span not in dropped)
    still = {b.name for b in kept}
    return replace(asks, by=kept, breakdown=tuple(d for d in asks.breakdown
                                                  if d not in names or d in still))


_TWO_WORDS = re.compile(r"\s*([A-Za-z]+\s+[A-Za-z]+)\b")


def _ranked_entity(text: str, asks: Asks, entities: dict[str, Any], metrics: set[str]) -> Asks:
    """'Which tail number flew the most flights': a ranking of an entity's keys, where the two
    words after the question word name its key column; else the ranking is as read."""
    ranking = asks.ranking
    if ranking is None or not ranking.dimension or not ranking.spans or \
            ranking.dimension in (asks.breakdown[1:] if asks.breakdown else ()):
        return asks
    said = _TWO_WORDS.match(text, ranking.spans[0][1])
    entity = _entity_keyed(said.group(1), entities, metrics) if said else None
    if entity is None:  # 'which order had the highest amount': the entity by its own name
        said = _ONE_WORD.match(text, ranking.spans[0][1])
        entity = _entity_named(said.group(1), entities, metrics) if said and \
            snake(singular(said.group(1))) == ranking.dimension else None
    if said is None or entity is None:
        return asks
    span = said.span(1)
    breakdown = tuple(dict.fromkeys(entity if d == ranking.dimension else d
                                    for d in asks.breakdown))
    spans = asks.spans + (GrammarSpan(said.group(1), span, f"by {entity} (its key, "
                                      f"{entities[entity]['column']})"),)
    return replace(asks, ranking=replace(ranking, dimension=entity), breakdown=breakdown,
                   spans=tuple(sorted(spans, key=lambda g: g.span)))


_ONE_WORD = re.compile(r"\s*([A-Za-z]+)\b")
_PER = re.compile(r"per\b", re.IGNORECASE)


def _entity_named(words: str, entities: dict[str, Any], metrics: set[str]) -> str | None:
    """The one entity the words name, its key's marks left out ('order' is the entity id_order,
    keyed by id_order; 'customer' is customer, keyed by id_customer), every metric holding it;
    a name no entity has, or several, is None (the words stay unread)."""
    said = [singular(w) for w in re.findall(r"[a-z0-9]+", words.lower().replace("_", " "))]
    if not said:
        return None
    out = []
    for name, info in entities.items():
        if not metrics <= set(info.get("metrics") or ()):
            continue
        own = [w for w in name.lower().split("_") if w and w not in _KEY_WORDS]
        column = [w for w in str(info.get("column") or "").lower().split("_")
                  if w and w not in _KEY_WORDS]
        if said in (own, column):
            out.append(name)
    return out[0] if len(out) == 1 else None


def _entity_keyed(words: str, entities: dict[str, Any], metrics: set[str]) -> str | None:
    """The one entity whose key column the words name, every metric holding it."""
    said = [_KEY_WORDS.get(w, w) for w in re.findall(r"[a-z0-9]+", words.lower().replace("_", " "))]
    if len(said) < 2 or said[-1] not in ("id", "num", "key", "code"):
        return None
    out = []
    for name, info in entities.items():
        column = [_KEY_WORDS.get(w, w) for w in str(info.get("column") or "").lower().split("_") if w]
        own = [w for w in name.lower().split("_") if w]
        if not metrics <= set(info.get("metrics") or ()):
            continue
        if sorted(said) == sorted(column) or "".join(said) == "".join(column) or (
                said[:-1] == own and said[-1] in column):
            out.append(name)
    return out[0] if len(out) == 1 else None


def _with_aggregate(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """A gap's span with the aggregate word before it ('average age': the gap speaks for both)."""
    m = _AGGREGATE.search(text[:span[0]])
    return (m.start(), span[1]) if m else span


_SHARE_OF = re.compile(r"(?:\b(?:share|fraction|percentage|proportion|percent|portion)|(?<![\w.])%)"
                       r"\s+of\b", re.IGNORECASE)


_OF_ALL = re.compile(r"(?:\b(?:share|fraction|percentage|proportion|percent|portion)|(?<![\w.])%)"
                     r"\s+of\s+(?P<all>all)\s+(?:(?:the|our)\s+)?", re.IGNORECASE)


def _of_all_the_data(text: str, named: Periods, mentions: list[Mention],
                     catalog: dict[str, Any]) -> tuple[Periods, tuple[str, ...]]:
    """'What fraction of all alterations happened in the week of March 21': 'all' of the metric
    named right after a share's 'of', with one other period named, is the whole of the
    metric's data (its covered range, read as a period on 'all'), the whole the period named
    is a part of, as 'the year's' names the year (part_periods.py): never the rate of the
    period named, nor a share refused for want of a member. Read as says which days."""
    if len(named.found) != 1:
        return named, ()
    (other,) = named.found
    for said in _OF_ALL.finditer(text):
        metric = next((m for m in mentions if m.kind == "metric" and m.span[0] == said.end()), None)
        if metric is None:
            continue
        covered = ((catalog.get("metrics") or {}).get(metric.name) or {}).get("coverage") or {}
        if not covered.get("start") or not covered.get("end"):
            continue
        whole = Period(dt.date.fromisoformat(str(covered["start"])[:10]),
                       dt.date.fromisoformat(str(covered["end"])[:10]), "range")
        if (other.period.start, other.period.end) == (whole.start, whole.end) or \
                part_and_whole([other, PeriodMention(whole, "all", said.span("all"))]) is None:
            continue  # 'of all flights in 2013', the data's one year: that year is the whole
        found = sorted((other, PeriodMention(whole, said.group("all"), said.span("all"))),
                       key=lambda p: p.span)
        note = f"'{said.group('all')}' read as all the data of {metric.name}, {whole}"
        return Periods(tuple(found), named.compare, named.problems), (note,)
    return named, ()


def _ratio_of_share(text: str, mentions: list[Mention], catalog: dict[str, Any],
                    periods: tuple[PeriodMention, ...] = ()) -> list[Mention]:
    """'What share of flights were cancelled': the rate governed as cancelled / flights (a rate
    is the share asked for), named where the whole is; 'the share of delayed departures': the
    rate whose numerator is the metric named — unless two periods are named, one inside the
    other ('the share of 2013's cancellations in February'): then the whole is the outer
    period's, and the metric is the one named."""
    named = list({m.name: m for m in reversed(mentions) if m.kind == "metric"}.values())[::-1]
    if not named or not _SHARE_OF.search(text):
        return mentions
    if len(named) == 2 and (split := _member_and_things(text, named[0], named[1], catalog,
                                                        periods)):
        return sorted([m for m in mentions if m is not named[1]] + split, key=lambda m: m.span)
    whole, part = named[0], named[1] if len(named) > 1 else None
    if part is not None and _whole_of_members(text, whole, mentions, periods) \
            and _right_after_member(text, part, mentions):
        part = None  # 'all cancellations were American Airlines flights': the member's things
    for name, info in (catalog.get("metrics") or {}).items():
        formula = info.get("formula") or {}
        if formula.get("op") != "divide" or info.get("unit") not in ("fraction", "percent"):
            continue
        ratio = (formula.get("numerator"), formula.get("denominator"))
        if part is not None and ratio in ((part.name, whole.name), (whole.name, part.name)):
            # 'which airports cancelled the smallest share of their flights': either order
            return [_as(m, name) if m.kind == "metric" and m.name in ratio else m
                    for m in mentions]
        # 'the share of delayed departures'; not 'what fraction of all cancelled flights were at
        # LaGuardia': 'all' makes the metric named the whole, a member of it the part
        if part is None and ratio[0] == whole.name and part_and_whole(periods) is None \
                and not _whole_of_members(text, whole, mentions, periods):
            return [_as(m, name) if m.kind == "metric" and m.name == whole.name else m
                    for m in mentions]
    return mentions


def _metrics_of(mentions: list[Mention]) -> list[str]:
    return [m.name for m in mentions if m.kind == "metric"]


_GOT_VERBED = re.compile(r"\s(?:were|was|got|have\s+been|had\s+been|has\s+been)\s+([a-z]+(?:ed|en|t))"
                         r"(?=\s*(?:[?.!;,]|$))", re.IGNORECASE)


def _got_verbed(text: str, mentions: list[Mention], catalog: dict[str, Any]) -> list[Mention]:
    """'What fraction of the reminders sent to iOS users in March got opened': in a share, a
    count's things said at the clause's end to have been done something ('got opened') are what
    another count counts, where that count's label is the first's noun and that verb ('reminders
    opened') and a governed fraction divides it by the first: the part, read on the verb (the
    share is then that rate, `_ratio_of_share`)."""
    said = _GOT_VERBED.search(text)
    if said is None or not _SHARE_OF.search(text) or overlaps(said.span(1), [m.span for m in mentions]):
        return mentions
    metrics = catalog.get("metrics") or {}
    wholes = [m for m in mentions if m.kind == "metric" and m.span[1] <= said.start()]
    if len({m.name for m in wholes}) != 1:
        return mentions
    whole, verb = wholes[0], lemma(said.group(1))
    theirs = _lemmas(str((metrics.get(whole.name) or {}).get("label") or whole.name))
    parts = []
    for name, info in metrics.items():
        label = _lemmas(str(info.get("label") or name))
        if verb in label and verb not in theirs and label - {verb} and label - {verb} <= theirs \
                and _divides(metrics, name, whole.name):
            parts.append(name)
    if len(parts) != 1:
        return mentions
    part = Mention("metric", parts[0], None, said.group(1), said.span(1), "label")
    return sorted([*mentions, part], key=lambda m: m.span)


def _divides(metrics: dict[str, Any], top: str, bottom: str) -> bool:
    """A governed fraction is `top` / `bottom`."""
    return any((info.get("formula") or {}).get("op") == "divide"
               and info.get("unit") in ("fraction", "percent")
               and (info["formula"].get("numerator"), info["formula"].get("denominator")) == (top, bottom)
               for info in metrics.values())


_ALL_BEFORE = re.compile(r"\bof\s+(?:all|every)\s+(?:(?:the|our)\s+)?$", re.IGNORECASE)
_WERE_AT = re.compile(r"\s*(?:were|was|came|happened|occurred)\s+(?:at|in|from|on|to|for|by)\s+"
                      r"(?:the\s+)?", re.IGNORECASE)


def _whole_of_members(text: str, whole: Mention, mentions: list[Mention],
                      periods: tuple[PeriodMention, ...] = ()) -> bool:
    """'What fraction of all cancelled flights were at LaGuardia', 'what share of cancelled
    orders came from Philadelphia', 'what share of all 2013 cancellations were American
    Airlines flights': the metric named is the whole ('all' says so, a period between them or
    not, or a member said to hold some of it), the member the part (a share of the total by
    member), not the rate whose numerator the metric is."""
    after = [m for m in mentions if m.kind == "member" and m.span[0] >= whole.span[1]]
    start = whole.span[0]
    for p in sorted(periods, key=lambda p: p.span, reverse=True):  # 'of all 2013 cancellations'
        if p.span[1] <= start and not text[p.span[1]:start].strip():
            start = p.span[0]
    dated = [(_said_in(text, p.span[0]), p.span[1]) for p in periods]  # '… in 2013 were at …'
    named = [m.span for m in mentions if m.kind == "dimension"]  # 'the Philadelphia store had'
    return bool(after) and (_ALL_BEFORE.search(text, 0, start) is not None or any(
        _WERE_AT.fullmatch(_unnamed(text, whole.span[1], m.span[0], dated)) for m in after)
        or any(_DID.fullmatch(_unnamed(text, whole.span[1], m.span[0], dated))
               and _HAVE.match(_unnamed(text, m.span[1], len(text), named)) for m in after)
        or any(_WERE.fullmatch(_unnamed(text, whole.span[1], m.span[0], dated))
               and _right_after_member(text, other, mentions) for m in after
               for other in mentions if other.kind == "metric" and other.span[0] >= m.span[1]))


_WERE = re.compile(r" (?:were|was) (?:the )?", re.IGNORECASE)
_DID = re.compile(r" (?:did|does|do) (?:the )?", re.IGNORECASE)
_HAVE = re.compile(r"(?:'s)?\s+(?:have|has|had|account\s+for|make\s+up|get|take)\b", re.IGNORECASE)
"""'What share of cancellations did American Airlines have': the member holds some of the
metric, the metric the whole."""
_IN_BEFORE = re.compile(r"\b(?:in|during|for|over)\s+$", re.IGNORECASE)


def _said_in(text: str, start: int) -> int:
    """Where a period's words begin with the preposition before them ('in 2013')."""
    said = _IN_BEFORE.search(text, 0, start)
    return said.start() if said else start


def _member_and_things(text: str, whole: Mention, part: Mention, catalog: dict[str, Any],
                       periods: tuple[PeriodMention, ...]) -> list[Mention]:
    """'What share of the transaction amount came from quick buy transactions': a metric named
    where the part is said ('came from', 'were at') whose words are a member of a dimension the
    whole carries ('Quick Buy') and then another metric's whole label (what the member is said
    of: 'transactions') is that member and those things, not a second metric; [] otherwise."""
    dated = [(_said_in(text, p.span[0]), p.span[1]) for p in periods]
    if not _WERE_AT.fullmatch(_unnamed(text, whole.span[1], part.span[0], dated)):
        return []
    metrics, dims = catalog.get("metrics") or {}, catalog.get("dimensions") or {}
    words = part.words.lower()
    found = []
    for dim in (metrics.get(whole.name) or {}).get("dimensions") or ():
        for member in (dims.get(dim) or {}).get("members") or ():
            rest = words[len(str(member)) + 1:] if words.startswith(f"{str(member).lower()} ") else ""
            things = [n for n, info in metrics.items()
                      if rest and str(info.get("label") or n).lower() == rest]
            if len(things) == 1:
                found.append((dim, str(member), things[0], len(rest)))
    if len({(dim, member) for dim, member, _t, _n in found}) != 1:
        return []
    dim, member, thing, size = found[0]  # (a name of its own: compiled, `things` is a list)
    at, end = part.span[0], part.span[1]
    return [Mention("member", dim, member, text[at:end - size - 1], (at, end - size - 1), "member"),
            Mention("metric", thing, None, text[end - size:end], (end - size, end), "label")]


def _right_after_member(text: str, metric: Mention, mentions: list[Mention]) -> bool:
    """A metric's words right after a member ('American Airlines flights', 'Philadelphia
    store orders'): the things the member is said of, not a second metric."""
    named = [m.span for m in mentions if m.kind == "dimension"]
    return any(m.kind == "member" and m.span[1] <= metric.span[0]
               and not _unnamed(text, m.span[1], metric.span[0], named).strip() for m in mentions)


def _as(m: Mention, name: str) -> Mention:
    """The same words, read as another metric (each of a rate's parts is the rate)."""
    return Mention("metric", name, None, m.words, m.span, "synonym")


_POPULATION = re.compile(r"\s+(?:of|for)\s+(?:the\s+|all\s+|our\s+)?", re.IGNORECASE)
_PASSIVE = re.compile(r"\s+(?:were|was|got|get|have\s+been|had\s+been|has\s+been)\s+", re.IGNORECASE)
"""'departures were cancelled': the things one count names, said to be what another counts
(the second is asked; the first names its things)."""
_FOR_ALL = re.compile(r"(?:^|[,;:]\s*)(?:(?:for|among|of)\s+(?:the\s+|all\s+)?|only\s+(?:the\s+)?)$",
                      re.IGNORECASE)
"""'For flights to LAX, …', 'Only United flights: …': a count opening the question is the
population asked about."""


def _unnamed(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> str:
    """The text between two offsets without the members named there ('of Delta ' → 'of ')."""
    out, at = [], start
    for s, e in sorted(spans):
        if start <= s and e <= end:
            out.append(text[at:s])
            at = e
    out.append(text[at:end])
    return re.sub(r"\s+", " ", "".join(out))


def _heads(text: str, mentions: list[Mention], catalog: dict[str, Any]) -> list[Mention]:
    """'How many flights were cancelled': 'flights' is the head of 'cancelled flights', which
    the text names with its other word; the head alone is no second metric."""
    metrics = catalog.get("metrics") or {}
    named = [m for m in mentions if m.kind == "metric"]
    dropped = set()
    for head in named:
        for other in named:
            if other.name == head.name:
                continue
            label = _lemmas((metrics.get(other.name) or {}).get("label") or other.name)
            mine, theirs = _lemmas(head.words), _lemmas(other.words)
            if mine and not mine & theirs and label <= mine | theirs and mine <= label:
                dropped.add(id(head))
    members = [m.span for m in mentions if m.kind == "member"]
    for a, b in zip(named, named[1:], strict=False):
        counted = (metrics.get(b.name) or {}).get("unit") == "count"
        if _counts_rows(b, metrics.get(b.name) or {}, catalog) and _POPULATION.fullmatch(
                _unnamed(text, a.span[1], b.span[0], members)):
            # 'the mean air time of Delta flights', 'loss payments for claims from the fire
            # catastrophe': what is measured
            dropped.add(id(b))
        elif counted and a.name != b.name and (metrics.get(a.name) or {}).get("unit") == "count" and \
                _PASSIVE.fullmatch(_unnamed(text, a.span[1], b.span[0], members)) \
                and not _right_after_member(text, b, mentions):
            # 'how many departures were cancelled': the cancelled ones ('cancellations were
            # American Airlines flights': the second names the member's things)
            dropped.add(id(a))
    for a in named:
        counted = (metrics.get(a.name) or {}).get("unit") == "count"
        others = [m for m in named if m.name != a.name
                  and (metrics.get(m.name) or {}).get("unit") != "count"]
        if counted and others and (_FOR_ALL.search(text[:a.span[0]])
                                   or _FOR_ALL.search(_unnamed(text, 0, a.span[0], members))):
            dropped.add(id(a))  # 'for flights to LAX, what was the average air time'
    kept = [m for m in mentions if id(m) not in dropped]
    return _member_as_count(text, kept, metrics)


def _lemmas(text: str) -> set[str]:
    """The lemmas of a text's words."""
    return {lemma(w) for w in re.findall(r"[A-Za-z]+", text)}


def _member_as_count(text: str, mentions: list[Mention], metrics: dict[str, Any]
                     ) -> list[Mention]:
    """'How many orders were cancelled': a count named by its noun, then a member said of its
    things, where one other count's label is those words together ('Cancelled orders'): that
    count is asked, not the first filtered to the member (the first may exclude it by
    definition: orders counts the orders not cancelled)."""
    named = [m for m in mentions if m.kind == "metric"]
    spans = [m.span for m in mentions if m.kind == "member"]
    for a in named:
        if (metrics.get(a.name) or {}).get("unit") != "count":
            continue
        for w in mentions:
            if w.kind != "member" or w.span[0] <= a.span[1] or not _PASSIVE.fullmatch(
                    _unnamed(text, a.span[1], w.span[0], [x for x in spans if x != w.span])):
                continue
            said = _lemmas(a.words) | _lemmas(w.words)
            found = [name for name, info in metrics.items() if name != a.name
                     and info.get("unit") == "count" and _lemmas(info.get("label") or name) == said]
            if len(found) == 1:
                b = Mention("metric", found[0], None, w.words, w.span, "label")
                return sorted([b if m is w else m for m in mentions if m is not a]
                              + [Mention("metric", found[0], None, a.words, a.span, "label")],
                              key=lambda m: m.span)
    return mentions


_RELATIVE = re.compile(r"\b(?:that|which|who)\s+(?P<clause>(?:[\w'’-]+\s*){1,5}?)(?=[?.,;!]|$|"
                       r"\s+(?:in|during|on|for|between|from|since)\s+(?:\d|[A-Z]|the\s+(?:first|"
                       r"last|second|week|month|year)))", re.IGNORECASE)


def _relative_clause(text: str, mentions: list[Mention], taken: list[tuple[int, int]]
                     ) -> tuple[ReadSpan, ...]:
    """'Flights that left late', 'customers who ordered twice': a clause after a metric's noun
    sets a condition on its things; its words that no part of the reading took (a member, a
    metric's own phrase) are unread, even where a list or the metric's own entry holds them
    ('late' is the delay's word, not a filter anyone applied)."""
    metrics = [m.span for m in mentions if m.kind == "metric"]
    out = []
    for m in _RELATIVE.finditer(text):
        if not any(b <= m.start() and not text[b:m.start()].strip() for _a, b in metrics):
            continue
        for w in re.finditer(r"[\w'’-]+", m["clause"]):
            span = (m.start("clause") + w.start(), m.start("clause") + w.end())
            if not overlaps(span, taken) and w.group(0).lower() not in ("were", "was", "are", "is",
                                                                         "have", "has", "had",
                                                                         "been", "be"):
                out.append(ReadSpan(w.group(0), span, "unreadable",
                                    "a condition on what is counted that no rule applied"))
    return tuple(out)


_WHO = re.compile(r"\b(?:who|that|which)\s+(?:(?:had|have|has|were|was|first)\s+)?$", re.IGNORECASE)


def _metric_in_clause(text: str, metrics: list[Mention]) -> tuple[ReadSpan, ...]:
    """'How many users who signed up in February were active in April': a metric named in a
    clause on the things another metric counts is a condition on those things (a cohort), not
    a second value asked; no rule applies it, so its words are unread."""
    if len({m.name for m in metrics}) < 2:
        return ()
    return tuple(ReadSpan(text[a:b], (a, b), "unreadable", "a condition on what is counted that no "
                          "rule applied") for m in metrics for a, b in [m.span]
                 if _WHO.search(text, 0, a))


def _population(text: str, metrics: list[Mention], periods: tuple[PeriodMention, ...]
                ) -> tuple[ReadSpan, ...]:
    """'The average arrival delay in May 2013 for late flights', 'revenue from new customers':
    a metric named as the things another is taken over is a condition on the first (an average
    over late flights only), which no rule applies; it had been read as a second metric asked
    beside the first and both were served, clean. Unread."""
    out = []
    blanked = _blank(text, [p.span for p in periods])
    for a, b in zip(metrics, metrics[1:], strict=False):
        # 'for late flights', not 'for flights': the things named apart from all of them
        if len(b.words.split()) > 1 and _OVER_THINGS.fullmatch(blanked[a.span[1]:b.span[0]]):
            out.append(ReadSpan(b.words, b.span, "unreadable",
                                f"{b.name} as the things {a.name} is taken over: a condition"))
    return tuple(out)


_OVER_THINGS = re.compile(r"(?:\s+(?:in|during|on|for))?\s*,?\s+(?:for|among|of|from|across)\s+"
                          r"(?:the\s+|all\s+|our\s+|its\s+|their\s+)?", re.IGNORECASE)
"""Between two metrics' names: the second is the things the first is taken over."""


def _second_grain(asks: Asks) -> tuple[ReadSpan, ...]:
    """'Which month had the fewest flights per day': periods of one grain ranked by a value per
    period of another is an average per day, which no rule reads (the ranking had been answered
    with a day, served clean): the other grain's by-phrase is unread."""
    ranked = asks.ranking.grain if asks.ranking is not None else None
    if ranked is None:
        return ()
    return tuple(ReadSpan(b.words, b.span, "unreadable", f"a value per {b.name} of each {ranked}")
                 for b in asks.by if b.kind == "grain" and b.name != ranked)


_GRAIN_SAID = re.compile(r"\b(?:(daily|weekly|monthly|quarterly|yearly|annual|annually)|"
                         r"(day|week|month|quarter|year)\s+by\s+\2)\b", re.IGNORECASE)
_OVER_GRAIN = re.compile(r"\b(day|week|month|quarter)[- ]over[- ]\1\b", re.IGNORECASE)


def _other_grains(text: str, asks: Asks, found: tuple[PeriodMention, ...],
                  mentions: list[Mention]) -> tuple[ReadSpan, ...]:
    """A grain said beside the one the reading acts on ('weekly cancellations in 2013, by
    month', 'monthly revenue by week'), and a change between consecutive periods of a grain
    said of periods that are not of it ('December compared with November, week over week',
    'revenue in 2019, month over month'): the question asks for a series or a change the
    reading does not give (the one grain had been taken and the other word counted as read,
    served clean): unread. A grain word inside a catalog name ('monthly active users') is the
    name's."""
    if asks.ranking is not None and asks.ranking.grain is not None:
        return ()  # a value per one grain of each ranked period: `_second_grain`
    named = [m.span for m in mentions]
    out = [ReadSpan(text[a:b], (a, b), "unreadable", f"a {grain} series beside the {asks.grain}"
                    f" one read") for (a, b), grain in _grains_said(text, asks, named)
           if asks.grain is not None and grain != asks.grain]
    for m in _OVER_GRAIN.finditer(text):
        grain = m.group(1).lower()
        if overlaps(m.span(), named):
            continue
        if asks.grain is not None and grain != asks.grain or asks.grain is None and any(
                p.period.grain != grain and not (grain == "week" and p.period.days == 7)
                for p in found):
            out.append(ReadSpan(m.group(0), m.span(), "unreadable",
                                f"a change from one {grain} to the next, of periods not {grain}s"))
    return tuple(out)


_PREVIOUS_OF = re.compile(r"\b(?:(?:prior|previous|preceding)\s+(week|month|quarter|year|period)|"
                          r"the\s+(week|month|quarter|year)\s+before(?!\s+last))\b", re.IGNORECASE)


def _previous_beside_two(text: str, asks: Asks, found: tuple[PeriodMention, ...]
                         ) -> tuple[ReadSpan, ...]:
    """'compare revenue in May 2019 with May 2018, vs the prior quarter': a comparison with
    the period before, beside two periods named that are not a period and the one before it,
    asks for a third window the reading does not hold (its words had been read as the
    comparison the two periods make, served clean): unread. Said of the two ('December
    compared with November, the previous month') it repeats them. Beside one period, the
    period before of another grain ('the week of June 10 versus the week before, vs the prior
    quarter') is unread the same way."""
    if asks.compare is None or not found:
        return ()
    two = asks.compare == "explicit" and len(found) >= 2
    earlier, later = sorted((p.period for p in found[:2]), key=lambda p: p.start) if two \
        else (None, found[0].period)
    before = previous_period(later)
    out = []
    for m in _PREVIOUS_OF.finditer(text):
        grain = (m.group(1) or m.group(2)).lower()
        if any(overlaps(m.span(), [p.span]) for p in found):
            continue  # 'versus the week before' named as a period
        if grain in ("period", later.grain) and (earlier is None or (
                before.start, before.end) == (earlier.start, earlier.end)):
            continue
        if earlier is None and (grain == "year" or later.grain not in _GRAIN_OF_PERIOD):
            continue  # 'May 2019 versus the previous year' (the same month a year before);
            # a range's grain is not said
        out.append(ReadSpan(m.group(0), m.span(), "unreadable",
                            f"a comparison with the {grain} before, beside "
                            f"{'the periods' if two else 'the ' + str(later.grain)} named"))
    return tuple(out)


_GRAIN_OF_PERIOD = frozenset({"day", "week", "month", "quarter"})


def _grains_said(text: str, asks: Asks, named: list[Span]) -> list[tuple[Span, str]]:
    """Each grain the text says ('monthly', 'month by month', 'by month'), outside catalog
    names."""
    said = [(m.span(), GRAINS[(m.group(1) or m.group(2)).lower()])
            for m in _GRAIN_SAID.finditer(text) if not overlaps(m.span(), named)]
    return said + [(b.span, b.name) for b in asks.by if b.kind == "grain"]


def _grain_again(text: str, asks: Asks, mentions: list[Mention]) -> list[ReadSpan]:
    """The read grain said twice ('monthly revenue in 2019, month by month'): both read."""
    if asks.grain is None:
        return []
    return [ReadSpan(text[a:b], (a, b), "shape", "grain")
            for (a, b), grain in _grains_said(text, asks, [m.span for m in mentions])
            if grain == asks.grain]


_EVENT_WORD = re.compile(r"\b(?:" + "|".join(sorted(EVENTS)) + r")\b", re.IGNORECASE)


def _event_of_a_level(text: str, mentions: list[Mention], catalog: dict[str, Any]
                      ) -> tuple[ReadSpan, ...]:
    """'How many paid subscribers were added in April': an event said of what a point-in-time
    metric counts asks for the inflow, which its level at the period's end is not: unread, as
    no rule reads it (the same words of a count of events are neutral: 'orders placed')."""
    metrics = catalog.get("metrics") or {}
    named = [m for m in mentions if m.kind == "metric"]
    if not named or not all((metrics.get(m.name) or {}).get("point_in_time") for m in named):
        return ()
    spans = [m.span for m in mentions]
    return tuple(ReadSpan(m.group(0), m.span(), "unreadable",
                          "an event said of a level at a point in time")
                 for m in _EVENT_WORD.finditer(text) if not overlaps(m.span(), spans))


def _dimensions_unused(text: str, dimensions: list[Mention], asks: Asks, members: list[Mention],
                       phrases: list[tuple[int, int]]) -> list[ReadSpan]:
    """A dimension named that no acted-on part of the reading uses (no breakdown, ranking,
    by-phrase or member filter of it): unread, so 'by platform and country' answered by
    platform alone is never served clean. A dimension inside or right beside a phrase that
    reads it otherwise ('across all airports', 'the three NYC airports') or that is already
    unread ('the windows platform', 'all 4 New York airports') is that phrase's."""
    used = {*asks.breakdown, *(b.name for b in asks.by), *(m.name for m in members)}
    if asks.ranking is not None and asks.ranking.dimension:
        used.add(asks.ranking.dimension)
    used_spans = {d.span for d in dimensions if d.name in used}

    def beside(span: tuple[int, int]) -> bool:
        return any(a <= span[0] and span[1] <= b
                   or b <= span[0] and not text[b:span[0]].strip()
                   or span[1] <= a and not text[span[1]:a].strip() for a, b in phrases)

    unused = {d.span: d for d in dimensions
              if d.name not in used and d.span not in used_spans and not beside(d.span)}
    return [ReadSpan(d.words, d.span, "unreadable", f"{d.name}: named, but no part of the "
                     "reading uses it") for d in unused.values()]


_PARTICIPLE = re.compile(r"[a-z]+(?:ed|en)", re.IGNORECASE)


def _said_as_verb(text: str, mentions: list[Mention]) -> tuple[ReadSpan, ...]:
    """'How many orders were placed': a member of one word that is a participle ('placed',
    'shipped'), said of a count's things after 'were', may name the member (a status) or only
    the event every one of them had (every order was placed): read as the member, flagged to
    every caller, never clean; so is one said as a verb after who did it ('customers who placed
    orders'). A member before its noun ('placed orders') is no such doubt."""
    named = [m for m in mentions if m.kind == "metric"]
    spans = [m.span for m in mentions if m.kind == "member"]
    out = []
    for w in mentions:
        if w.kind != "member" or w.member is None or not _PARTICIPLE.fullmatch(w.words):
            continue
        before = [a for a in named if a.span[1] <= w.span[0]]
        if before and _PASSIVE.fullmatch(_unnamed(text, before[-1].span[1], w.span[0],
                                                  [x for x in spans if x != w.span])):
            out.append(ReadSpan(w.words, w.span, "member",
                                f"{w.name} = {w.member}, or only what all the "
                                f"{before[-1].words} had: which is meant is not said"))
        elif _DOER.search(text, 0, w.span[0]) and _DONE_TO.match(text, w.span[1]):
            # 'customers who placed orders', 'we shipped 40 orders': the verb of what was done
            out.append(ReadSpan(w.words, w.span, "member",
                                f"{w.name} = {w.member}, or only the verb of what was done: "
                                "which is meant is not said"))
    return tuple(out)


_DOER = re.compile(r"\b(?:who|that|which|we|they|i|you)\s+(?:have\s+|has\s+|had\s+)?$",
                   re.IGNORECASE)
_DONE_TO = re.compile(r"\s+(?:an?|the|their|his|her|our|any|some|more|fewer|\d[\d,]*|[a-z]+s)\b",
                      re.IGNORECASE)
"""A participle member said as a verb with its doer before and what it was done to after
('customers who placed orders', 'that shipped an order'): the member, or only the event."""


def _rate_named(mentions: list[Mention], catalog: dict[str, Any]) -> bool:
    """A named metric is itself a fraction (a rate, a share): it is the share asked for."""
    metrics = catalog.get("metrics") or {}
    return any(m.kind == "metric" and (metrics.get(m.name) or {}).get("unit") in
               ("fraction", "percent") for m in mentions)


_TO_DATE = re.compile(r"\b(year|month|quarter)[- ]to[- ]date\b|\bytd\b|\bso far this (year|month|quarter)"
                      r"\b|\bthis (year|month|quarter) so far\b", re.IGNORECASE)
_THIS = re.compile(r"this (year|month|quarter)", re.IGNORECASE)
_ANCHORED_ELSEWHERE = re.compile(rf"^(?:{_THIS.pattern})$|{_TO_DATE.pattern}", re.IGNORECASE)
"""The relative periods `_anchored` runs to the day named after them."""


_THE_YEAR = re.compile(r"\b(?:of|in|during|for|over|across)\s+(the\s+year)\b", re.IGNORECASE)


def _the_year(text: str, periods: Periods, mentions: list[Mention], catalog: dict[str, Any]
              ) -> Periods:
    """'The busiest day of the year': with no period named, the one calendar year every named
    metric's data lies in; data across several years leaves the words unread. 'The second half
    of the year': a period named without its year, in that year, is read with the words."""
    said = _THE_YEAR.search(text)
    entries = catalog.get("metrics") or {}
    named = [m.name for m in mentions if m.kind == "metric"] or list(entries)  # 'the busiest day'
    infos = [(entries.get(name) or {}).get("coverage") or {} for name in named]
    if said is None or not infos or not all(i.get("start") and i.get("end") for i in infos):
        return periods
    years = {str(i[k])[:4] for i in infos for k in ("start", "end")}
    if len(years) != 1:
        return periods
    year = int(years.pop())
    if periods.found:  # 'the second half of the year': that year's, the words read with it
        return Periods(tuple(replace(p, words=text[p.span[0]:said.end()],
                                     span=(p.span[0], said.end()))
                             if p.span[1] <= said.start() and not text[p.span[1]:said.start()].strip()
                             and not re.search(r"\d", p.words) and p.period.start.year == year
                             and p.period.end.year == year else p for p in periods.found),
                       periods.compare, periods.problems)
    found = PeriodMention(Period(dt.date(year, 1, 1), dt.date(year, 12, 31), "year"),
                          said.group(1), said.span(1))
    return Periods((found,), periods.compare, periods.problems)


_THIS_UNTIL = re.compile(r"\s*,?\s*(?:as\s+of|through|thru|up\s+to|until|till)\b", re.IGNORECASE)
"""'This year as of June 15, 2013': 'this year' is the year up to the day named after it."""


def _anchored(periods: Periods, text: str = "") -> Periods:
    """'year to date at the end of August 2013', 'this year as of June 15, 2013': the year to
    date runs to the period named, not to the as-of date."""
    to_date = [p for p in periods.found if _TO_DATE.search(p.words) or (
        _THIS.fullmatch(p.words) and _THIS_UNTIL.match(text, p.span[1]))]
    others = [p for p in periods.found if p not in to_date]
    if len(to_date) != 1 or not others:
        return periods
    [running], anchor = to_date, others[-1].period
    said = _TO_DATE.search(running.words) or _THIS.fullmatch(running.words)
    unit = next((g for g in said.groups() if g), "year") if said else "year"
    if anchor.grain == unit.lower():  # '2019 ytd': that year to date (`_so_far`), the words kept
        return Periods(tuple(p for p in periods.found if p is not running), periods.compare,
                       periods.problems)
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


_OF_THE_N = re.compile(rf"\b(?:of|across|for|in|from)\s+(?:all\s+)?(?:the\s+)?(?P<n>{SIZE_WORDS})\s+$",
                       re.IGNORECASE)


def _all_of(text: str, dimensions: list[Mention], asks: Asks, catalog: dict[str, Any]
            ) -> list[ReadSpan]:
    """'the total population of the 48 states': a count of a dimension's members that is all
    of them names the whole (no filter, no ranking), read only where no ranking or breakdown
    is asked; a count short of all ('the 3 states') stays unread: which ones is not said."""
    if asks.ranking is not None or asks.breakdown:
        return []
    entries = catalog.get("dimensions") or {}
    out = []
    for d in dimensions:
        said = _OF_THE_N.search(text[:d.span[0]])
        members = (entries.get(d.name) or {}).get("members") or ()
        if said is None or not members:
            continue
        n = size_of(said["n"])
        if n == len(members):
            out.append(ReadSpan(said["n"], said.span("n"), "qualifier",
                                f"all {n} {d.name}: the whole, no filter"))
    return out


def _member_things(text: str, mentions: list[Mention], catalog: dict[str, Any]
                   ) -> tuple[list[Mention], list[ReadSpan]]:
    """'What share of revenue came from chicken pizzas': a count of rows (unit count) named
    right after a member ('chicken pizzas', 'joint loans') says what the member filters, not
    a second metric, when another metric is named (revenue); alone ('how many chicken pizzas')
    it is the metric asked for."""
    entries = catalog.get("metrics") or {}
    metrics = [m for m in mentions if m.kind == "metric"]
    members = [m for m in mentions if m.kind == "member"]
    named = [m.span for m in mentions if m.kind == "dimension"]  # 'Philadelphia store orders'
    out, spans = [], []
    for m in mentions:
        info = entries.get(m.name) or {} if m.kind == "metric" else {}
        after = [x for x in members if not _unnamed(text, x.span[1], m.span[0], named).strip()
                 and x.span[1] <= m.span[0]]
        if after and _counts_rows(m, info, catalog) and info.get("type") == "simple" \
                and any(x.name != m.name for x in metrics):
            spans.append(ReadSpan(m.words, m.span, "qualifier",
                                  f"{after[-1].member} {m.words}: what the member filters"))
            continue
        out.append(m)
    return out, spans


_JOINED = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or|&)\s+)\s*$", re.IGNORECASE)


def _members_together(text: str, mentions: list[Mention], things: list[ReadSpan]
                      ) -> tuple[list[Mention], list[Mention]]:
    """'Revenue from completed and shipped orders': members of one dimension joined by 'and' or
    'or' right before the things they qualify (`_member_things`) are one set of those things,
    one filter keeping them all (the `ranges` of the reading, on the joined words), not members
    set side by side. Elsewhere ('revenue in the northeast and the west'), or where a word names
    members of several dimensions, they stay apart."""
    at: dict[Span, list[Mention]] = {}
    for m in mentions:
        if m.kind == "member":
            at.setdefault(m.span, []).append(m)
    together: list[Mention] = []
    for thing in things:
        chain = [s for s in at if s[1] <= thing.span[0] and not text[s[1]:thing.span[0]].strip()]
        while chain and (before := [s for s in at if s[1] <= chain[0][0]
                                    and _JOINED.fullmatch(text[s[1]:chain[0][0]])]):
            chain.insert(0, before[-1])
        if len(chain) < 2 or any(len(at[s]) != 1 for s in chain) \
                or len({at[s][0].name for s in chain}) != 1:
            continue
        span = (chain[0][0], chain[-1][1])
        together += [replace(at[s][0], words=text[span[0]:span[1]], span=span) for s in chain]
    if not _MORE.search(text):  # 'which had more, JFK or LGA' asks which of them (_which_of_two)
        together += _either_members(text, at, [t.span for t in together])
    held = {id(at[s][0]) for s in at if any(overlaps(s, [t.span]) for t in together)}
    return [m for m in mentions if id(m) not in held], together


_OR_JOINED = re.compile(r"\s*,?\s+or\s+(?:the\s+)?", re.IGNORECASE)
_LISTED = re.compile(r"\s*,\s*(?:the\s+)?", re.IGNORECASE)


def _either_members(text: str, at: dict[Span, list[Mention]], taken: list[Span]) -> list[Mention]:
    """'Orders that were returned or pending return', 'flights from JFK, EWR or LGA': members
    of one dimension joined by 'or' (the last join of a list) are one filter keeping any of
    them, as 'completed and shipped orders' is, wherever they stand; members of several
    dimensions, or a word naming members of several, stay apart."""
    spans = sorted(s for s in at if not overlaps(s, taken))
    out: list[Mention] = []
    i = 0
    while i < len(spans):
        j, ors = i, False
        while j + 1 < len(spans) and not ors:
            gap = text[spans[j][1]:spans[j + 1][0]]
            ors = _OR_JOINED.fullmatch(gap) is not None
            if not ors and not _LISTED.fullmatch(gap):
                break
            j += 1
        chain = spans[i:j + 1]
        if not ors or any(len(at[s]) != 1 for s in chain) or len({at[s][0].name for s in chain}) != 1:
            i += 1
            continue
        span = (chain[0][0], chain[-1][1])
        out += [replace(at[s][0], words=text[span[0]:span[1]], span=span) for s in chain]
        i = j + 1
    return out


def _counts_rows(metric: Mention, info: dict[str, Any], catalog: dict[str, Any]) -> bool:
    """Whether a metric counts rows: its unit says so, or it is read by what its name counts
    and those words name one of the catalog's entities ('orders' for total_orders, the entity
    order), as a count of them is named. With no unit governed, the catalog's `counts` (the
    layer's reading of the measure: a count, a distinct count, a sum of 1) says so."""
    if info.get("unit") == "count" or info.get("unit") is None and info.get("counts") is True:
        return True
    return metric.how == "counted" and {lemma(w) for w in re.findall(r"[A-Za-z]+", metric.words)} \
        <= {lemma(w) for e in (catalog.get("entities") or {}) for w in e.split("_")}


_ALL_THINGS = re.compile(r"\b(?P<all>all)\s+(?:of\s+)?(?:the\s+|our\s+)?(?P<noun>[a-z]+)\b",
                         re.IGNORECASE)


def _all_things(text: str, metrics: tuple[Mention, ...], mentions: list[Mention],
                catalog: dict[str, Any]) -> list[ReadSpan]:
    """'The total current balance of all loans': 'all' before the noun of an entity the
    catalog's dimensions belong to (the things its rows are) is every one of them, no filter,
    as 'of loans' alone is. Not before a member or a metric (read as those are), not 'which of
    all loans' (one picked out of them), and only where a metric is named."""
    if not metrics:
        return []
    dims = catalog.get("dimensions") or {}
    things = entity_lemmas(tuple(str(info.get("qualified") or d) for d, info in dims.items()))
    out = []
    for m in _ALL_THINGS.finditer(text):
        noun = m.span("noun")
        if lemma(m["noun"]) not in things or _PICKED_OF.search(text[:m.start()].rstrip()) \
                or overlaps(noun, [x.span for x in mentions]):
            continue
        out.append(ReadSpan(m["all"], m.span("all"), "qualifier",
                            f"all {m['noun']}: every one, no filter"))
    return out


_SIZE_IN = re.compile(rf"\b(?P<n>{SIZE_WORDS})\s", re.IGNORECASE)


def _counted_by(asks: Asks, catalog: dict[str, Any]) -> Asks:
    """A count inside a by-phrase is read only where the dimension has that many members ('at
    each of the three airports', 'across the six stores'). Otherwise 'each of the N X' stays
    unread whole (a subset nobody named), and in any other by-phrase ('across the four stores')
    only the count is left unread (which four is not said)."""
    dims = catalog.get("dimensions") or {}

    def members(name: str) -> int:
        return len((dims.get(name) or {}).get("members") or ())

    wrong = {b.span for b in asks.by if b.kind == "dimension"
             and (each := _EACH_OF_N.search(b.words)) is not None
             and members(b.name) != size_of(each.group(1))}
    spans = []
    for g in asks.spans:
        if g.span in wrong:
            continue
        said = _SIZE_IN.search(g.words) if g.detail.startswith("by ") else None
        if said is None or not members(g.detail[3:]) or size_of(said["n"]) == members(g.detail[3:]):
            spans.append(g)
            continue
        a, b = g.span[0] + said.start("n"), g.span[0] + said.end("n")
        spans += [GrammarSpan(g.words[:said.start("n")].rstrip(), (g.span[0], a), g.detail),
                  GrammarSpan(g.words[said.end("n"):].lstrip(), (b, g.span[1]), g.detail)]
    return replace(asks, spans=tuple(spans)) if spans != list(asks.spans) else asks


_BREAK_DOWN = re.compile(r"\b(?:break(?:s|ing)?|broke|split(?:s|ting)?)\s+(?:it\s+|them\s+)?(?:down|out)\b"
                         r"|\bbreak[- ]?down\s+of\b|\bbreak(?:s|ing)?\b(?=(?:\s+[\w'$-]+){1,4}?\s+down\b)"
                         r"|(?<=\s)down(?=\s+by\b)", re.IGNORECASE)
"""The verb of a breakdown the question asks by a dimension ('break down X by Y', 'split out',
'a breakdown of'): read only where a breakdown is."""
_ALL_DATA = re.compile(r"\b(?:(?:in|across|over|for)\s+(?:all\s+)?(?:the|our|this)\s+(?:data|dataset|"
                       r"data\s+set|records|whole\s+data(?:set)?)|in\s+all\s+the\s+data|all[\s-]time|"
                       r"(?:in|across|over|for|during)\s+the\s+(?:whole|entire|full)\s+(?:time\s+)?"
                       r"(?:period|range|span|history)|ever)\b", re.IGNORECASE)
_WHOLE_OF = re.compile(r"\b(?:all\s+of|(?:(?:over|during|in|for)\s+)?the\s+"
                       r"(?:(?:whole|entire|full)(?:\s+of)?|course\s+of|entirety\s+of))\s+$",
                       re.IGNORECASE)


def _whole_periods(text: str, periods: tuple[PeriodMention, ...]) -> list[ReadSpan]:
    """'All of 2013', 'the whole of March', 'over the course of 2019': the period named after
    them, the whole of it, as the window already is (no other period is meant)."""
    out = []
    for p in periods:
        said = _WHOLE_OF.search(text[:p.span[0]])
        if said is not None:
            out.append(ReadSpan(said.group(0).rstrip(), (said.start(), said.start() + len(
                said.group(0).rstrip())), "window", f"the whole of {p.period}"))
    return out


_THROUGH = re.compile(r"\b(?:in\s+)?(?:through|thru)\s+(?:(?:the|a|an|our|their)\s+)?$", re.IGNORECASE)


def _by_way_of(text: str, members: list[Mention]) -> list[ReadSpan]:
    """'Orders that came through the website', 'signups in through paid search': 'through'
    right before a member says what the things came by, as 'via' does: that member's filter
    (never a range's end: 'Brooklyn through SoHo', '6 through 9' are left to what reads ranges)."""
    out = []
    for m in members:
        said = _THROUGH.search(text[:m.span[0]])
        before = text[:said.start()].rstrip() if said is not None else ""
        if said is not None and not before[-1:].isdigit() and not any(
                x.span[1] == len(before) for x in members):
            out.append(ReadSpan(said.group(0).rstrip(), (said.start(), said.start() + len(
                said.group(0).rstrip())), "qualifier", f"by way of {m.name} = {m.member}"))
    return out


_AT_THE_END = re.compile(r"\b(?:(?:at|by|as\s+of|from|to|between|and)\s+)?the\s+end\s+of\b",
                         re.IGNORECASE)
_OVERALL_WORDS = re.compile(r"\b(?:overall|altogether|combined|in\s+all|in\s+total|statewide|"
                            r"nationwide|company[- ]?wide|business-wide|"
                            r"(?:across|over|for|in)\s+all\s+of)\b", re.IGNORECASE)
_BEFORE_METRIC = re.compile(r"\b(all|total|whole|entire)\s+(?:(?:number|count|value|amount)\s+of\s+)?"
                            r"(?:(?:of\s+)?(?:the|our)\s+)?(?:(?:19|20)\d\d\s+)?$", re.IGNORECASE)


def _before_members(text: str, start: int, members: tuple[Mention, ...]) -> int:
    """Where the words before a metric begin once the members naming its part are passed over
    ('the total number of mumps cases': 'total' is said of mumps cases)."""
    for x in sorted(members, key=lambda x: x.span, reverse=True):
        if x.span[1] <= start and not text[x.span[1]:start].strip():
            start = x.span[0]
    return start


def _whole(text: str, metrics: list[Mention], asks: Asks, catalog: dict[str, Any],
           members: tuple[Mention, ...] = ()) -> list[ReadSpan]:
    """'Overall', 'in total', 'all flights', 'total revenue': the metric over the whole of what
    the rest of the question names, read only where that is what the answer gives: a summable
    metric for 'total', no ranking or breakdown for 'overall' (which would ask for another
    shape)."""
    if not metrics:
        return []
    entries = catalog.get("metrics") or {}
    out = []
    if asks.ranking is None and not asks.breakdown:
        out += [ReadSpan(m.group(0), m.span(), "qualifier", "overall: no filter")
                for m in _OVERALL_WORDS.finditer(text)]
    infos = [entries.get(m.name) or {} for m in metrics]
    if any(i.get("point_in_time") or i.get("type") == "cumulative" for i in infos):
        # 'customers at the end of March': a point-in-time metric's value at a period's end
        out += [ReadSpan(m.group(0), m.span(), "qualifier", "the value at the end")
                for m in _AT_THE_END.finditer(text)]
    for m in metrics:
        said = _BEFORE_METRIC.search(text[:_before_members(text, m.span[0], members)])
        if said is None:
            continue
        word = said.group(1).lower()
        info = entries.get(m.name) or {}  # a ratio counting things (unit count) sums them
        ratio = info.get("type") in ("ratio", "derived") and info.get("unit") != "count"
        if word == "total" and ratio and not _adds_summables(info, entries):
            continue  # 'the total cancellation rate': no sum of a rate
        out.append(ReadSpan(said.group(1), said.span(1), "qualifier", f"{word} {m.name}"))
    return out


_TOTAL_AFTER = re.compile(r"\s+(total)\b(?!\s+of\b)", re.IGNORECASE)


def _total_after(text: str, metrics: list[Mention], catalog: dict[str, Any]) -> list[ReadSpan]:
    """'Alterations total for the week of March 28', 'revenue total for June': 'total' right
    after a summable metric is its total over what the rest names, as 'total alterations' is
    (`_whole`); after a rate ('cancellation rate total') no sum is meant, and it stays
    unread."""
    entries = catalog.get("metrics") or {}
    out = []
    for m in metrics:
        said = _TOTAL_AFTER.match(text, m.span[1])
        info = entries.get(m.name) or {}
        ratio = info.get("type") in ("ratio", "derived") and info.get("unit") != "count"
        if said is None or (ratio and not _adds_summables(info, entries)):
            continue
        out.append(ReadSpan(said.group(1), said.span(1), "qualifier", f"total {m.name}"))
    return out


_FROM_THE_START = re.compile(r"\bfrom\s+the\s+(?:very\s+)?(?:start|beginning)\b"
                             r"(?:\s+of\s+(?:the\s+)?(?:data|records))?(?!\s+of\b)",
                             re.IGNORECASE)


def _from_the_start(text: str, found: tuple[PeriodMention, ...], asks: Asks,
                    metrics: list[Mention], catalog: dict[str, Any]) -> list[ReadSpan]:
    """'A running total of revenue from the very start through the end of March 2019': 'from
    the start' says the running total begins where the data does, which the window read
    (`_running_from_start`) does; with a window that begins anywhere else the words stay
    unread."""
    if not asks.cumulative or len(found) != 1 or not metrics:
        return []
    starts = [str((((catalog.get("metrics") or {}).get(m.name) or {}).get("coverage") or {})
                  .get("start") or "")[:10] for m in metrics]
    if not all(starts) or found[0].period.start.isoformat() != min(starts):
        return []
    return [ReadSpan(m.group(0), m.span(), "window", "from the start of the data")
            for m in _FROM_THE_START.finditer(text)]


_SUMS = re.compile(r"[\w\s+-]+")


def _adds_summables(info: dict[str, Any], entries: dict[str, Any]) -> bool:
    """A derived metric that only adds and subtracts summable metrics ('transaction_amount -
    cancellations + alterations'): its total is the total of its parts, as a simple sum's."""
    formula = info.get("formula") or {}
    parts = [str(p) for p in formula.get("metrics") or ()]
    return (formula.get("op") == "expr" and bool(parts)
            and _SUMS.fullmatch(str(formula.get("expr") or "")) is not None
            and all(_summed(p, entries.get(p) or {}) for p in parts))


_COMPARE_WORD = re.compile(r"\bcompare\b", re.IGNORECASE)
_EACH_AFTER = re.compile(r"^\s+each\b", re.IGNORECASE)
_PER_WORD = re.compile(r"\b(?:each|every|per)\s+((?:[a-z]+\s+)?[a-z]+)", re.IGNORECASE)
_PER_BETWEEN = re.compile(r"\s+(per|for\s+each|for\s+every|divided\s+by)\s+(?:the\s+)?(?:each\s+)?",
                         re.IGNORECASE)
_SUMMED_OVER = re.compile(r"\b(?:summed|added\s+up|added\s+together)\s+(?:over|across)\s+(?:the\s+)?"
                          r"(day|week|month|quarter)s\b", re.IGNORECASE)
_IN_DOLLARS = re.compile(r"\b(?:in\s+)?(?:us\s+)?(?:dollars?|usd)\b", re.IGNORECASE)
_DIFFER = re.compile(r"\b(?:differ(?:ed|s)?|var(?:y|ied|ies)|differences?)(?:\s+(?:between|across|"
                     r"among))?\b", re.IGNORECASE)
_IN_PERCENT = re.compile(r"\b(?:in\s+)?percent(?:age)?\b", re.IGNORECASE)


def _side_by_side(text: str, members: list[Mention], metrics: list[Mention], asks: Asks,
                  catalog: dict[str, Any]) -> list[ReadSpan]:
    """Words a rule used to set named things side by side: 'compare' and 'A and B each' where
    two members of one dimension are named (each member's value), 'each active user' where a
    named ratio is per that entity, 'in percent' where a change is asked."""
    out = []
    dims = [m.name for m in members]
    several = any(dims.count(d) >= 2 for d in dims)
    if several or asks.compare:
        out += [ReadSpan(m.group(0), m.span(), "shape", "compare side by side")
                for m in _COMPARE_WORD.finditer(text)]
    if several:
        last = max(m.span[1] for m in members)
        if (each := _EACH_AFTER.match(text[last:])) is not None:
            at = last + each.end()
            out.append(ReadSpan("each", (at - 4, at), "shape", "each member named"))
    entries = catalog.get("metrics") or {}
    ratios = [m.name for m in metrics
              if (entries.get(m.name) or {}).get("type") in ("ratio", "derived")]
    if ratios:
        own = entry_words(catalog, ratios, [])
        for m in _PER_WORD.finditer(text):
            if lemma(m.group(1).split()[-1]) in own:
                word = m.group(0).split()[0]
                out.append(ReadSpan(word, (m.start(), m.start() + len(word)), "qualifier",
                                    f"the per of {ratios[0]}"))
    for a, b in zip(metrics, metrics[1:], strict=False):  # 'value moments per new user'
        if a.name != b.name and (per := _PER_BETWEEN.fullmatch(text[a.span[1]:b.span[0]])):
            # a metric over itself is no ratio anyone asks: 'per' stays unread
            out.append(ReadSpan(per.group(1), (a.span[1] + per.start(1), a.span[1] + per.end(1)),
                                "qualifier", f"{a.name} over {b.name}"))
    out += [ReadSpan(m.group(0), m.span(), "qualifier", f"a sum over the {m.group(1).lower()}s")
            for m in _SUMMED_OVER.finditer(text)]  # the analyst sums the grain's values (SUMMED)
    units = {metric_unit(m.name, entries.get(m.name) or {}) for m in metrics}
    if asks.change or units & {"fraction", "percent"}:
        out += [ReadSpan(m.group(0), m.span(), "qualifier", "in percent")
                for m in _IN_PERCENT.finditer(text)]
    if "usd" in units:
        out += [ReadSpan(m.group(0), m.span(), "qualifier", "in the metric's unit")
                for m in _IN_DOLLARS.finditer(text)]
    if asks.breakdown:
        out += [ReadSpan(m.group(0), m.span(), "shape", "breakdown")
                for m in _DIFFER.finditer(text)]
    return out


_NON = re.compile(r"\bnon[- ]([a-z]+)\b", re.IGNORECASE)
_AT_LEAST_ONCE = re.compile(r"\bat\s+least\s+(?:once|one)\b", re.IGNORECASE)


def _negated(text: str, mentions: list[Mention], catalog: dict[str, Any]
             ) -> tuple[list[Mention], list[ReadSpan]]:
    """'Value moments of non-test users': read where exactly one metric's description says
    '(non-test)' and its label holds the named words ('real value moments' of 'value moments'):
    the qualifier that points the named metric at that sibling (qualifiers.siblings); 'at least
    once', and 'different' ('distinct', 'unique') right before its name, are read where a named
    metric counts distinct entities (its description says so). Anything
    else that negates stays unread."""
    entries = catalog.get("metrics") or {}
    out, spans = list(mentions), []
    for said in _NON.finditer(text):
        phrase = f"non-{said.group(1).lower()}"
        for m in out:
            if m.kind != "metric":
                continue
            own = set(re.findall(r"[a-z]+", m.words.lower()))
            fits = [n for n, info in entries.items()
                    if phrase in re.sub(r"\s+", "-", str(info.get("description") or "").lower())
                    and own <= set(re.findall(r"[a-z]+", (info.get("label") or n).lower()))]
            if len(fits) == 1:  # the qualifier points the named metric at that sibling
                spans.append(ReadSpan(said.group(0), said.span(), "qualifier", f"{fits[0]}: {phrase}"))
                break
    counted = [m for m in out if m.kind == "metric" and "distinct" in str(
        (entries.get(m.name) or {}).get("description") or "").lower()]
    if counted:
        spans += [ReadSpan(m.group(0), m.span(), "qualifier", "a distinct count")
                  for m in _AT_LEAST_ONCE.finditer(text)]
    starts = {m.span[0] for m in counted}
    spans += [ReadSpan(m.group(0), m.span(), "qualifier", "a distinct count")
              for m in _DIFFERENT.finditer(text) if m.end() + 1 in starts
              and text[m.end()] == " "]  # 'how many different customers' of a distinct count
    return out, spans


_DIFFERENT = re.compile(r"\b(?:different|distinct|unique|separate|individual)\b", re.IGNORECASE)


_EACH_OF_N = re.compile(r"\beach\s+of\s+(?:the\s+)?(\d{1,3}|one|two|three|four|five|six|seven|"
                        r"eight|nine|ten|eleven|twelve)\b", re.IGNORECASE)


_RATE = re.compile(r"(?:^|\b(?:the|a|an|its|our|their|this|that|what|which)\s+)(rates?)\b",
                   re.IGNORECASE)
"""'the rate', 'what rate': the word alone ('churn rate' names another metric, ungoverned)."""
_RATE_SAID = re.compile(r"\b(?:rate|share|percentage|percent)\b")


def rate_metrics(catalog: dict[str, Any]) -> list[str]:
    """The ratio metrics whose name, label or description says rate, share or percentage."""
    return [name for name, info in (catalog.get("metrics") or {}).items()
            if (info.get("type") == "ratio" or (info.get("formula") or {}).get("op") == "divide")
            and _RATE_SAID.search(" ".join([name.replace("_", " "), str(info.get("label") or ""),
                                            str(info.get("description") or "")]).lower())]


def _rate(text: str, catalog: dict[str, Any], mentions: list[Mention]) -> list[Mention]:
    """'What was the rate at Brooklyn': where no metric is named, 'rate' names the one ratio
    metric whose name, label or description says rate, share or percentage; with none or
    several, nothing (the word stays unread, and the refusal says so)."""
    if any(m.kind == "metric" for m in mentions):
        return []
    found = [m for m in _RATE.finditer(text) if not overlaps(m.span(1), [x.span for x in mentions])]
    if not found:
        return []
    rates = rate_metrics(catalog)
    if len(rates) != 1:
        return []
    return [Mention("metric", rates[0], None, m.group(1), m.span(1), "said") for m in found[:1]]


def _judged(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]) -> Asks:
    """'The best week for orders', 'the worst month for the cancellation rate': which way is
    good is the metric's polarity (governance `polarity:`), when the one metric named has one —
    best is the most of a higher_is_better metric and the least of a lower_is_better one. With
    no polarity, or several metrics, the word stays unread (asks.py leaves it so)."""
    found = _ranking_words(text, asks, mentions, catalog, JUDGED)
    if found is None:
        return asks
    judged, entry = found
    polarity = entry.get("polarity")
    if polarity not in ("higher_is_better", "lower_is_better"):
        return asks
    best = judged[0].group(1).lower() == "best"
    order: Literal["most", "least"] = "most" if best == (polarity == "higher_is_better") else "least"
    return _ordered_by(asks, order, [(m, f"ranking: {m.group(1).lower()} by the metric's "
                                         f"polarity ({polarity})") for m in judged])


def _ranking_words(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any],
                   pattern: re.Pattern[str]) -> tuple[list[re.Match[str]], dict[str, Any]] | None:
    """The words of `pattern` among a ranking's words, and the catalog entry of the one metric
    named; None with no ranking, none of them, or several metrics."""
    if asks.ranking is None:
        return None
    words = [m for a, b in asks.ranking.spans for m in pattern.finditer(text, a, b)]
    names = {m.name for m in mentions if m.kind == "metric"}
    if not words or len(names) != 1:
        return None
    return words, (catalog.get("metrics") or {}).get(next(iter(names))) or {}


def _ordered_by(asks: Asks, order: Literal["most", "least"],
                said: list[tuple[re.Match[str], str]]) -> Asks:
    """The ranking in `order`, each word that says so read with its detail."""
    assert asks.ranking is not None
    spans = tuple(GrammarSpan(m.group(1), m.span(1), detail) for m, detail in said)
    return replace(asks, ranking=replace(asks.ranking, order=order), spans=asks.spans + spans)


_SORTED = re.compile(
    r"(?:[,;]\s*|\s+)(?:(?:sorted|ordered|listed|ranked)\s+(?:by\s+\w+\s+)?)?(?:(?:from\s+)?(?P<first>"
    r"highest|lowest|largest|smallest|biggest|most|fewest|least|top|bottom)\s+(?:first|to\s+"
    r"(?:highest|lowest|largest|smallest|biggest|most|fewest|least|top|bottom))"
    r"|in\s+(?P<dir>descending|ascending|decreasing|increasing)\s+order)\b", re.IGNORECASE)
"""'…, highest first', 'from lowest to highest', 'in descending order': the order asked of a
ranking or of a breakdown's rows."""


def _sorted(text: str, asks: Asks) -> Asks:
    """'Rank the 3 NYC airports by cancellation rate, highest first', 'stores by revenue,
    lowest first': the order a ranking (or a breakdown's rows, then ranked whole) is asked in.
    With neither, the words stay unread."""
    m = _SORTED.search(text)
    if m is None or (asks.ranking is None and not asks.breakdown):
        return asks
    word = (m.group("first") or m.group("dir")).lower()
    order: Literal["most", "least"] = "least" if word in (
        "ascending", "increasing", "lowest", "smallest", "fewest", "least", "bottom") else "most"
    start = m.start() + len(m.group(0)) - len(m.group(0).lstrip(" ,;"))
    said = GrammarSpan(text[start:m.end()], (start, m.end()), f"order: the {order} first")
    ranking = replace(asks.ranking, order=order) if asks.ranking is not None else \
        Ranking(order, None, asks.breakdown[0], ())
    return replace(asks, ranking=ranking, spans=asks.spans + (said,))


_DURATIONS = frozenset({"seconds", "minutes", "hours", "days", "second", "minute", "hour", "day"})
_SPEEDS = frozenset({"mph", "kph", "km/h", "kmh", "knots", "miles_per_hour", "km_per_hour"})
_AMOUNTS = frozenset({"count", "usd", "eur", "gbp"})
"""Units of the metrics the pace words read: a duration (the slowest is the longest), a speed
(the slowest is the least), an amount of things or money (the slowest month is the one with the
least of it); any other unit leaves them unread."""


def _paced(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]) -> Asks:
    """'Which month was the slowest for revenue', 'the fastest hour for departures', 'the
    slowest airport by departure delay': which way is slow is the one metric named's unit —
    the most of a duration, the least of a speed or of an amount (a count, a currency). With
    another unit, no unit, or several metrics, the word stays unread (asks.py leaves it so)."""
    found = _ranking_words(text, asks, mentions, catalog, PACED)
    if found is None:
        return asks
    paced, entry = found
    unit = str(entry.get("unit") or "")
    kind = "a duration" if unit.lower() in _DURATIONS else "a speed" if unit.lower() in _SPEEDS \
        else "an amount" if unit.lower() in _AMOUNTS else None
    if kind is None:
        return asks
    slow_is_most = kind == "a duration"
    order: Literal["most", "least"] = "most" if (paced[0].group(1).lower() == "slowest") \
        == slow_is_most else "least"
    return _ordered_by(asks, order, [(m, f"ranking: {m.group(1).lower()} of {kind} ({unit})")
                                     for m in paced])


def _judged_change(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]
                   ) -> Asks:
    """'Did the cancellation rate get better from May to June': a change, read where the one
    metric named has a polarity (better is lower for a lower_is_better metric), said in the
    span; with no polarity, several metrics or a ranking, the word stays unread."""
    names = {m.name for m in mentions if m.kind == "metric"}
    if asks.ranking is not None or len(names) != 1:
        return asks
    polarity = ((catalog.get("metrics") or {}).get(next(iter(names))) or {}).get("polarity")
    if polarity not in ("higher_is_better", "lower_is_better"):
        return asks
    taken = [m.span for m in mentions] + [s.span for s in asks.spans]
    def way(word: str) -> str:
        return "higher" if (word == "better") == (polarity == "higher_is_better") else "lower"

    said = tuple(GrammarSpan(m.group(1), m.span(1), f"change: {m.group(1).lower()} is "
                             f"{way(m.group(1).lower())} by the metric's polarity ({polarity})")
                 for m in BETTER.finditer(text) if not overlaps(m.span(1), taken))
    if not said:
        return asks
    return replace(asks, change=True, spans=tuple(sorted(asks.spans + said, key=lambda g: g.span)))


_UNIT_ASKED = re.compile(r"\bhow\s+(?:many|much)\s+(?:total\s+)?(?P<unit>[a-z]+)\b", re.IGNORECASE)
_UNIT_RANKED = re.compile(r"\bthe\s+(?:most|fewest|least)\s+(?P<unit>[a-z]+)\b", re.IGNORECASE)
"""'Which airline flew the most miles': a ranking by the unit word, as 'how many miles' asks."""
_UNIT_WORDS = {"dollars": "usd", "dollar": "usd", "euros": "eur", "euro": "eur", "bucks": "usd",
               "buck": "usd", "pounds": "gbp"}
"""Words for a currency unit the catalog names by its code; any other unit is its own word
('miles', 'minutes', 'inches')."""
_AVERAGED = re.compile(r"\b(?:average|mean|median|per|rate|ratio|share)\b", re.IGNORECASE)


_UNIT_SAID = re.compile(r"\bhow\s+many\s+(?P<unit>[a-z]+)\b", re.IGNORECASE)
def _unit_words(text: str, metrics: list[Mention], catalog: dict[str, Any]) -> list[ReadSpan]:
    """'How many dollars higher was …': a unit word that is the unit of every metric named
    (`metric_unit`) says what the answer is already in; another unit (a conversion) stays
    unread."""
    entries = catalog.get("metrics") or {}
    units = {metric_unit(m.name, entries.get(m.name) or {}) for m in metrics}
    if len(units) != 1 or units & {"", "count", "fraction", "percent"}:
        return []
    return [ReadSpan(said.group("unit"), said.span("unit"), "qualifier",
                     f"{said.group('unit')}: the unit of {metrics[0].name}")
            for said in _UNIT_SAID.finditer(text)
            if _UNIT_WORDS.get(said.group("unit").lower(), said.group("unit").lower()) in units]


def _unit_total(text: str, catalog: dict[str, Any], mentions: list[Mention]) -> list[Mention]:
    """'How many miles did Hawaiian fly', 'which airline flew the most miles': where no metric is
    named, a unit word asked for names the one total metric of that unit (the catalog's
    `unit:`) that carries every dimension the question names a member of — summed over the
    window: not a level at a point in time (a price, a balance), an average, a ratio or a rate
    (their label or description says so). With none or several, nothing: the word stays
    unread, and the refusal says so."""
    if any(m.kind == "metric" for m in mentions):
        return []
    asked = _UNIT_ASKED.search(text) or _UNIT_RANKED.search(text)
    if asked is None or overlaps(asked.span("unit"), [x.span for x in mentions]):
        return []
    word = asked["unit"].lower()
    unit = _UNIT_WORDS.get(word, word)
    named = {m.name for m in mentions if m.kind == "member"}
    found = [name for name, info in (catalog.get("metrics") or {}).items()
             if str(info.get("unit") or "").lower() in (unit, unit.rstrip("s") + "s")
             and unit not in ("count", "fraction", "percent")
             and _summed(name, info) and named <= set(info.get("dimensions") or ())]
    if len(found) != 1:
        return []
    return [Mention("metric", found[0], None, asked["unit"], asked.span("unit"), "said")]


_VERB_ASKED = re.compile(r"\bhow\s+(?:many|much)\b[^?,;]*?\b(?:did|do|does|have|has|had|was|were|"
                         r"is|are)\s+(?:(?:we|they|you|it)\s+)?(?P<verb>[a-z]+)\b", re.IGNORECASE)
_VERB_RANKED = re.compile(r"\bwhich\s+[\w'’-]+(?:\s+[\w'’-]+)?\s+(?P<verb>[a-z]+)\s+the\s+"
                          r"(?:most|fewest|least|highest|lowest)\b", re.IGNORECASE)
"""'Which store sold the most jaffles': the verb of a ranking names the metric as 'how many …
did it sell' does."""
_DETERMINER = re.compile(r"each|every|the|our|a|an", re.IGNORECASE)
_SUBJECT_VERB = re.compile(r"\s*(?:(?:each|every|the|our|a|an)\s+)?(?P<subject>[\w'’ -]+?)\s+"
                           r"(?P<verb>[a-z]+)\b(?=\s+(?:in|on|at|during|for|from|to|between|"
                           r"over|across|last|this)\b|\s*[?.,;!]|\s*$)", re.IGNORECASE)
"""'How many jaffles did each store sell': the subject between the auxiliary and the verb is
words (a member, a dimension, or words nothing reads, left unread), the verb the last word of
the clause."""


def _verb_after_subject(text: str, asked: re.Match[str]) -> tuple[str, tuple[int, int]] | None:
    """The verb after the subject ('each store', 'the Brooklyn store', 'Canadian customers');
    the verb takes only itself: a subject's words no other rule reads stay unread."""
    said = _SUBJECT_VERB.match(text, asked.start("verb") - 1)
    return None if said is None else (said["verb"], said.span("verb"))


def _verb_named(text: str, catalog: dict[str, Any], mentions: list[Mention], *,
                rest: bool = False) -> list[Mention]:
    """'How many Chai Lattes did we sell', 'how many were cancelled at JFK': where no metric is
    named, the verb of a question of quantity names the one metric whose own name, label or
    synonyms hold a form of it (`sold` of `items_sold`, `cancelled` of `cancelled_flights`),
    a simple sum or count that carries every dimension the question names a member of; 'how
    much' asks an amount, never a count ('how much did the store sell' is not its units sold).
    The word after the auxiliary, else the verb after its subject ('did Canadian customers
    cancel'). Of several, the one named by the verb alone; with `rest`, else the one whose label's
    other words the question says (`_rest_said`). None or several: the verb stays unread."""
    if any(m.kind == "metric" for m in mentions):
        return []
    asked = _VERB_ASKED.search(text) or _VERB_RANKED.search(text)
    if asked is None:
        return []
    first = asked["verb"], asked.span("verb")
    if overlaps(first[1], [x.span for x in mentions]) or _DETERMINER.fullmatch(first[0]):
        said = [_verb_after_subject(text, asked)]
    else:
        said = [first, _verb_after_subject(text, asked)]
    named: dict[tuple[int, int], set[str]] = {}
    for m in mentions:  # one member's span may be read in two dimensions: either will do
        if m.kind == "member":
            named.setdefault(m.span, set()).add(m.name)
    amount = asked.group(0).lower().split()[1] == "much"  # 'how much … sell': never a count
    for words, span in (s for s in said if s is not None):
        found = _metrics_of_verb(text, lemma(words), catalog, named, amount, rest)
        if found is not None:
            return [Mention("metric", found, None, words, span, "said")]
    return []


def _metrics_of_verb(text: str, verb: str, catalog: dict[str, Any],
                     named: dict[tuple[int, int], set[str]], amount: bool, rest: bool
                     ) -> str | None:
    """The one summed metric a verb names (see `_verb_named`), else None."""
    if len(verb) < 3 or verb in _AUXILIARIES:
        return None
    found = [name for name, info in (catalog.get("metrics") or {}).items()
             if verb in _own_lemmas(name, info) and _summed(name, info)
             and not (amount and info.get("unit") == "count")
             and all(dims & set(info.get("dimensions") or ()) for dims in named.values())]
    if len(found) > 1:  # 'Cancellations', not 'Cancellations in Mexico': the one named so alone
        alone = [name for name in found
                 if all(verb in _own_lemmas(w, {}) for w in name.split("_"))]
        found = alone if len(alone) == 1 or not rest else _rest_said(text, verb, found, catalog)
    return found[0] if len(found) == 1 else None


def _rest_said(text: str, verb: str, found: list[str], catalog: dict[str, Any]) -> list[str]:
    """'Plus users: how many were active', not active days: of several metrics the verb (or
    adjective) names, those whose label's other words the question says too."""
    said = {lemma(w) for w in re.findall(r"[a-z]+", text.lower())}
    entries = catalog.get("metrics") or {}
    return [name for name in found
            if {lemma(w) for w in re.findall(r"[a-z]+", str(
                (entries.get(name) or {}).get("label") or name.replace("_", " ")).lower())} - {verb}
            <= said]


def _summed(name: str, info: dict[str, Any]) -> bool:
    """A metric summed over its window: simple, not at a point in time, no average, ratio or
    rate by its name, label or description's first sentence."""
    return info.get("type") == "simple" and not info.get("point_in_time") and not _AVERAGED.search(
        f"{name} {info.get('label') or ''} {(info.get('description') or '').split('.')[0]}")


_AUXILIARIES = {lemma(w) for w in ("be", "have", "do", "get", "go", "make", "take", "see")}
"""Verbs that name no metric of their own ('how many did we have')."""


def _own_lemmas(name: str, info: dict[str, Any]) -> set[str]:
    """The lemmas of a metric's name, label and synonyms (never its description)."""
    texts = [name.replace("_", " "), info.get("label") or "", *(info.get("synonyms") or ())]
    words = [w for t in texts for w in re.findall(r"[a-z]+", str(t).lower())]
    # a noun of the verb: 'cancellation' of 'cancel', 'alteration' of 'alter'
    return {lemma(w) for w in words} | {lemma(w[:w.rindex("ation")]) for w in words
                                        if w.endswith(("ation", "ations")) and len(w) > 8}


_CLOCK = re.compile(r"\b(?:at\s+)?(\d{1,2})(?::00)?\s*(am|pm|a\.m\.|p\.m\.)(?!\w)|\bat\s+(\d{1,2}):00\b",
                    re.IGNORECASE)


_CLOCK_BOUND = re.compile(r"\b(after|since|from|past|later\s+than|before|until|till|earlier\s+than|"
                          r"by)\s+(?:(\d{1,2})(?::00)?\s*(am|pm|a\.m\.|p\.m\.)(?!\w)|(noon|midday)\b)",
                          re.IGNORECASE)
_CLOCK_ON = re.compile(r"(?:\b(?P<from>from)\s+|\bat\s+)?\b(\d{1,2})(?::00)?\s*(am|pm|a\.m\.|p\.m\.)\s+"
                       r"(?:onwards?|and\s+(?:later|after)|or\s+later|"
                       r"(?P<on>on)(?!\s+(?:the\s+)?(?:\d|[A-Za-z]+\.?\s+\d|[A-Za-z]+day)))\b",
                       re.IGNORECASE)
"""'From 6pm on', '6pm onwards', '6pm and later': the hour named and every later one (the
hour's own words and the ones that say 'and later' read together); a bare 'on' only after
'from' and before no day ('at 6pm on July 4' is the 6pm hour of that day)."""
_PART_OF_DAY = re.compile(r"\b(?:in\s+the\s+|during\s+the\s+|)(morning|afternoon|evening)s?\b",
                          re.IGNORECASE)
PARTS_OF_DAY = {"morning": (5, 12), "afternoon": (12, 17), "evening": (17, 21)}
"""The hours a part of the day is taken to hold (from, up to): a convention, not the data's,
so a reading of one is flagged (Reading.doubts) and never served clean."""


_HALF = r"(\d{1,2})(?::00)?\s*(am|pm|a\.m\.|p\.m\.)?"
_CLOCK_BETWEEN = re.compile(rf"\b(?:between|from)\s+{_HALF}\s*(?:and|to|until|till|[-–])\s*"
                            rf"(\d{{1,2}})(?::00)?\s*(am|pm|a\.m\.|p\.m\.)(?!\w)", re.IGNORECASE)
"""'Between 6am and 9am', 'from 6 to 9pm': a span of hours (the first takes the second's am or
pm when it has none)."""


def _on_and_later(text: str) -> list[re.Match[str]]:
    return [m for m in _CLOCK_ON.finditer(text) if m.group("from") or not m.group("on")]


def _hour(number: str, suffix: str) -> int:
    return int(number) % 12 + (12 if suffix.lower().startswith("p") else 0)


def _clock_ranges(text: str, catalog: dict[str, Any], mentions: list[Mention]) -> list[Mention]:
    """'After 9pm', 'before 6am': the hours of the one hour dimension (_hour_dimension) from the
    hour named on ('after 9pm': 21 and later, the hour of 9pm included, as an hour dimension
    cannot split it), or before it ('before 6am': up to 5), each a member on the phrase's span.
    Several phrases each narrow the hours ('in the morning, after 9am': 9 to 11); none left,
    nothing is read."""
    found = _hour_dimension(catalog)
    if found is None:
        return []
    dim, members = found
    taken = [m.span for m in mentions]
    said: list[tuple[str, Span, set[int]]] = []
    for m in _CLOCK_BETWEEN.finditer(text):  # 'between 6am and 9am': 6, 7 and 8
        if overlaps(m.span(), taken):
            continue
        start, end = _hour(m.group(1), m.group(2) or m.group(4)), _hour(m.group(3), m.group(4))
        kept = {int(v) for v in members if start <= int(v) < end}
        if not kept:
            continue
        taken.append(m.span())
        said.append((m.group(0), m.span(), kept))
    for m in _on_and_later(text):  # 'from 6pm on': 18 and later
        if overlaps(m.span(), taken):
            continue
        taken.append(m.span())
        hour = _hour(m.group(2), m.group(3))
        said.append((m.group(0), m.span(), {int(v) for v in members if int(v) >= hour}))
    for m in _PART_OF_DAY.finditer(text):  # 'in the morning': 5 to 11, said as a doubt
        if overlaps(m.span(), taken):
            continue
        start, end = PARTS_OF_DAY[m.group(1).lower()]
        taken.append(m.span())
        said.append((m.group(0), m.span(), {int(v) for v in members if start <= int(v) < end}))
    for m in _CLOCK_BOUND.finditer(text):
        if overlaps(m.span(), taken):
            continue
        hour = 12 if m.group(4) else \
            int(m.group(2)) % 12 + (12 if m.group(3).lower().startswith("p") else 0)
        later = m.group(1).lower().split()[0] in ("after", "since", "from", "past", "later")
        said.append((m.group(0), m.span(),
                     {int(v) for v in members if (int(v) >= hour if later else int(v) < hour)}))
    if not said:
        return []
    hours = sorted(set.intersection(*(kept for _w, _s, kept in said)))
    return [Mention("member", dim, str(v), words, span, "said")
            for words, span, _kept in said for v in hours]


def _hour_ranking(asks: Asks, catalog: dict[str, Any]) -> Asks:
    """'Which hour of the day had the worst delay': no metric has an hour grain, so the hours
    ranked are the members of the one hour dimension (_hour_dimension); without one, the
    ranking stays by a grain the layer refuses."""
    ranking = asks.ranking
    if ranking is None or ranking.grain != "hour" or "hour" in (catalog.get("grains") or ()):
        return asks
    found = _hour_dimension(catalog)
    if found is None:
        return asks
    return replace(asks, ranking=replace(ranking, grain=None, dimension=found[0]),
                   breakdown=(found[0], *asks.breakdown), grain=None, series=False,
                   spans=tuple(replace(s, detail=f"ranking by {found[0]}")
                               if s.detail == "ranking by hour" else s for s in asks.spans))


def _hour_dimension(catalog: dict[str, Any]) -> tuple[str, set[str]] | None:
    """The one dimension whose name or label says hour and whose members are the hours."""
    dims = catalog.get("dimensions") or {}
    hours = [d for d, info in dims.items() if "hour" in f"{d} {info.get('label') or ''}".lower()
             and all(str(v).isdigit() for v in info.get("members") or ["x"])]
    if len(hours) != 1:
        return None
    return hours[0], {str(v) for v in dims[hours[0]].get("members") or ()}


def _clock_times(text: str, catalog: dict[str, Any], mentions: list[Mention]) -> list[Mention]:
    """'At 6pm', 'at 18:00': the member of the one dimension whose name says hour and whose
    members are the hours ('departure_hour' = 18). 'After 6pm' is a range (_clock_ranges)."""
    found = _hour_dimension(catalog)
    if found is None:
        return []
    hours, members = [found[0]], found[1]
    # the times of a span of hours are the range's (_clock_ranges), not two hours
    taken = [m.span for m in mentions] + [b.span() for b in (*_CLOCK_BETWEEN.finditer(text),
                                                             *_on_and_later(text))]
    out = []
    for m in _CLOCK.finditer(text):
        if overlaps(m.span(), taken) or re.search(r"\b(?:after|before|since|until|from)\s+$",
                                                   text[:m.start()], re.IGNORECASE):
            continue
        hour = int(m.group(1) or m.group(3))
        suffix = (m.group(2) or "").lower().replace(".", "")
        hour = hour % 12 + (12 if suffix == "pm" else 0) if suffix else hour
        if str(hour) in members:
            out.append(Mention("member", hours[0], str(hour), m.group(0), m.span(), "member"))
    return out


def _nothing_ranked(text: str, asks: Asks) -> list[ReadSpan]:
    """A ranking that ranks no dimension and no grain ('top 2 countries' where no dimension is
    read from 'countries'): its words are unread, so the answer (a total) is never clean."""
    ranking = asks.ranking
    if ranking is None or ranking.dimension or ranking.grain or not ranking.spans:
        return []
    return [ReadSpan(text[a:b], (a, b), "unreadable", "a ranking of nothing named")
            for a, b in ranking.spans if text[a:b].strip()]


_NEXT_WORD = re.compile(r"\s*(?:the\s+)?([A-Za-z]+)\b")


def _ranked_noun(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]) -> Asks:
    """'Top 2 countries by cancellations': a ranking whose words are followed by a noun that no
    dimension mention read ranks the one dimension of every named metric that the noun names
    as its own attribute (phrasings.dimension_of_word: customer_country, not country's
    region); with none or several, the ranking stays of nothing (and unread)."""
    ranking = asks.ranking
    if ranking is None or ranking.dimension or ranking.grain or not ranking.spans:
        return asks
    found = _noun_dimension(text, max(b for _a, b in ranking.spans), mentions, catalog)
    if found is None:
        return asks
    dim, extra = found
    return replace(asks, ranking=replace(ranking, dimension=dim),
                   breakdown=tuple(dict.fromkeys((dim, *asks.breakdown))),
                   spans=tuple(sorted(asks.spans + extra, key=lambda g: g.span)))


def _noun_dimension(text: str, at: int, mentions: list[Mention], catalog: dict[str, Any]
                    ) -> tuple[str, tuple[GrammarSpan, ...]] | None:
    """The dimension the noun at `at` names ('countries', 'destinations'), one every named
    metric has: a dimension mention there, else the word's one dimension
    (phrasings.dimension_of_word), whose span is then read as it; None when it names none."""
    said = _NEXT_WORD.match(text, at)
    if said is None or overlaps(said.span(1), [m.span for m in mentions if m.kind != "dimension"]):
        return None
    named = next((m.name for m in mentions if m.kind == "dimension" and m.span[0] == said.start(1)),
                 None)
    word = said.group(1).lower()
    single = word[:-3] + "y" if word.endswith("ies") else word[:-1] if word.endswith("s") else word
    dim = named or dimension_of_word(single, text, mentions, catalog)
    metrics = catalog.get("metrics") or {}
    if dim is None or not all(dim in ((metrics.get(m.name) or {}).get("dimensions") or ())
                              for m in mentions if m.kind == "metric"):
        return None
    return dim, () if named else (GrammarSpan(said.group(1), said.span(1), f"by {dim}"),)


_BY_ROWS = re.compile(r"\bmost\s+(common|frequent|popular)\b|\b(busiest)\b|\b(top)\b(?=\s+\w)",
                      re.IGNORECASE)
"""'The most common destinations', 'the busiest day': ranked by how many rows each has; 'top 5
destinations' (no measure said) is taken so too, in doubt (_top_by_rows)."""


def _top_by_rows(mentions: list[Mention]) -> tuple[ReadSpan, ...]:
    """'Top 5 destinations' with no measure said: ranked by the count of rows as 'the most
    common' is, a guess at the measure, so flagged (never served clean)."""
    return tuple(ReadSpan(m.words, m.span, "metric", f"{m.name}: 'top' said with no measure, "
                          "taken as the count of rows") for m in mentions
                 if m.kind == "metric" and m.how == "said" and m.words.lower() == "top")


def _rows_counted(text: str, mentions: list[Mention], asks: Asks, catalog: dict[str, Any]
                  ) -> tuple[list[Mention], Asks]:
    """'The 3 most common destinations from JFK', 'the busiest day at JFK': where no metric is
    named, a ranking said by how often things occur ranks by the count of the rows they belong
    to: the one count metric (`unit: count`) named by one word that carries the dimension
    ranked and every member's ('flights'; 'cancelled flights' counts some of its rows). None or
    several: nothing is read, and the ranking's words stay unread."""
    said = _BY_ROWS.search(text)
    if said is None or asks.ranking is None or any(m.kind == "metric" for m in mentions):
        return mentions, asks
    word = said.span(1) if said.group(1) else said.span(2) if said.group(2) else said.span(3)
    after = _noun_dimension(text, word[1], mentions, catalog) if said.group(1) else None
    ranked = after[0] if after else asks.ranking.dimension
    needed = {m.name for m in mentions if m.kind == "member"} | ({ranked} if ranked else set())
    found = [name for name, info in (catalog.get("metrics") or {}).items()
             if info.get("unit") == "count" and info.get("type") == "simple"
             and len(_WORDS.findall(str(info.get("label") or name))) == 1
             and needed <= set(info.get("dimensions") or ())]
    if len(found) != 1 or (ranked is None and asks.ranking.grain is None):
        return mentions, asks
    metric = Mention("metric", found[0], None, text[word[0]:word[1]], word, "said")
    ranking = asks.ranking if ranked is None else replace(asks.ranking, dimension=ranked)
    old = asks.ranking.dimension  # 'what were the most popular X': no dimension 'were'
    gone = old if old not in (catalog.get("dimensions") or {}) else None
    breakdown = asks.breakdown if ranked is None else tuple(dict.fromkeys(
        (ranked, *(d for d in asks.breakdown if d != gone))))
    most = (GrammarSpan("most", (said.start(), said.start() + 4), "ranking: by the count of rows"),
            ) if said.group(1) else ()
    spans = tuple(sorted(asks.spans + (after[1] if after else ()) + most, key=lambda g: g.span))
    return sorted([*mentions, metric], key=lambda m: m.span), replace(
        asks, ranking=ranking, breakdown=breakdown, spans=spans)


_TOTAL_FIRST = re.compile(r"(?:total|overall)\s+", re.IGNORECASE)


def _total_of(text: str, mentions: list[Mention], catalog: dict[str, Any]) -> list[Mention]:
    """'Total transaction amount': a metric named with 'total' as its first word ('Total
    Transactions') that the following words take over as another metric's whole name
    ('transaction amount') is that other metric, 'total' its qualifier (mentions.contested);
    read whole, nothing is left over."""
    metrics = [m for m in mentions if m.kind == "metric"]
    out = list(mentions)
    for _words, span, other in contested(text, catalog, metrics):
        m = next((x for x in metrics if x.span[1] == span[0]), None)
        first = _TOTAL_FIRST.match(text, m.span[0]) if m is not None else None
        if m is None or first is None:
            continue
        out = [Mention("metric", other, None, text[first.end():span[1]], (first.end(), span[1]),
                       "label") if x is m else x for x in out]
    return out


_WHICH = re.compile(r"\b(?:which|what|who)\b", re.IGNORECASE)
_MORE = re.compile(r"\b(?:(more|higher|larger|bigger|greater)|(fewer|less|lower|smaller))\b",
                   re.IGNORECASE)
_EITHER = re.compile(r"\s*(?:,\s*)?(?:or|vs\.?|versus)\s+", re.IGNORECASE)
_ASKED_OF_TWO = re.compile(r"\s*(?:did|does|do|was|were|is|are|has|have|had)\b", re.IGNORECASE)
"""'Did JFK or EWR have more cancellations': a question asked of two members side by side is
asked which of them, as 'which' is."""


def _which_of_two(text: str, asks: Asks, mentions: list[Mention]) -> Asks:
    """'Which airport had more cancellations, JFK or LGA?': the one of the members named side
    by side ('A or B', 'A vs B', of one dimension) with more (or fewer) of the metric — a
    ranking of those members, not their values side by side. Read only with one metric named,
    no other ranking, change or share, and the question word and the comparative both said."""
    if asks.ranking is not None or asks.change or asks.share is not None or asks.why:
        return asks
    if len({m.name for m in mentions if m.kind == "metric"}) != 1:
        return asks
    by_dim: dict[str, list[Mention]] = {}
    for m in mentions:
        if m.kind == "member":
            by_dim.setdefault(m.name, []).append(m)
    pairs = {d: named for d, named in by_dim.items() if len(named) == 2
             and _EITHER.fullmatch(text[named[0].span[1]:named[1].span[0]])}
    said = [d for d in pairs if any(m.kind == "dimension" and m.name == d for m in mentions)]
    same: dict[tuple[tuple[int, int], ...], str] = {}
    for d in said or list(pairs):  # 'which store': of a store's two readings, the one named;
        same.setdefault(tuple(m.span for m in pairs[d]), d)  # one attribute reached two ways
    dims = list(same.values())
    which, more = _WHICH.search(text) or _ASKED_OF_TWO.match(text), _MORE.search(text)
    if len(dims) != 1 or which is None or more is None or len(_MORE.findall(text)) != 1:
        return asks
    order: Literal["most", "least"] = "most" if more.group(1) else "least"
    dim = dims[0]
    ranking = Ranking(order, 1, dim, (which.span(), more.span()))
    spans = asks.spans + (GrammarSpan(which.group(0), which.span(), "ranking of the two named"),
                          GrammarSpan(more.group(0), more.span(), f"ranking: {order}"))
    return replace(asks, ranking=ranking, breakdown=tuple(dict.fromkeys((dim, *asks.breakdown))),
                   spans=tuple(sorted(spans, key=lambda g: g.span)))
