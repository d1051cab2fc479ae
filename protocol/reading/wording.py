"""Words read because a rule of the reading used them to point at what they introduce: 'in
terms of' before the metric named ('the busiest hour, in terms of scheduled departures')."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from showwork.protocol.reading.account import ReadSpan, entity_lemmas, lemma
from showwork.protocol.reading.account import _lemmas as lemmas_of
from showwork.protocol.reading.mentions import Mention

if TYPE_CHECKING:
    from showwork.protocol.reading._reader import Reading
    from showwork.protocol.reading.gaps import Gap
    from showwork.protocol.reading.periods import PeriodMention

_IN_TERMS_OF = re.compile(r"\b(?:in\s+terms\s+of|(?:as\s+)?measured\s+(?:by|in))\s+", re.IGNORECASE)
"""The words that say which measure a ranking or comparison goes by."""


_UP_TO_THREE = re.compile(r"(?:[A-Za-z'’-]+\s+){0,3}")
_WORD = re.compile(r"[A-Za-z'’-]+\s+")
"""The words that may stand before a metric's own ('scheduled departures'): read, or not, by
the rules that read them."""


def measure_named(text: str, mentions: list[Mention]) -> list[ReadSpan]:
    """'In terms of X', 'measured by X': read where a metric the reading names starts within
    the next few words (they say X is the measure); before anything else they stay unread."""
    starts = {m.span[0]: m.name for m in mentions if m.kind == "metric"}
    out = []
    for m in _IN_TERMS_OF.finditer(text):
        ahead = _UP_TO_THREE.match(text, m.end())
        at = [m.end() + w.end() for w in _WORD.finditer(ahead.group(0))] if ahead else []
        named = next((starts[a] for a in [m.end(), *at] if a in starts), None)
        if named is not None:
            words = m.group(0).rstrip()
            out.append(ReadSpan(words, (m.start(), m.start() + len(words)), "qualifier",
                                f"the measure: {named}"))
    return out


_THING_ONLY = re.compile(r"\s+(?P<thing>[A-Za-z]+)\s*[-,]?\s*(?P<only>only)\b", re.IGNORECASE)


def only_after_things(text: str, members: list[Mention], catalog: dict[str, Any]
                      ) -> list[ReadSpan]:
    """'Consumer customers only', 'ios users only': 'only' after a member and a noun of the
    entity its dimension belongs to (customer__segment: customers) is the member's filter,
    which naming the member already is (filters.py reads 'only' right beside a member)."""
    dims = catalog.get("dimensions") or {}
    out = []
    for m in members:
        said = _THING_ONLY.match(text, m.span[1])
        qualified = str((dims.get(m.name) or {}).get("qualified") or m.name)
        if said is not None and lemma(said["thing"]) in entity_lemmas((qualified,)):
            out.append(ReadSpan("only", said.span("only"), "qualifier",
                                f"only {m.name} = {m.member}"))
    return out


_SUPERLATIVE = re.compile(r"\b(?P<stem>[A-Za-z]{3,}?)(?:iest|est)\b", re.IGNORECASE)
_ROUND = frozenset(lemma(w) for w in ("average", "mean", "total", "number", "count", "rate",
                                      "share", "per", "of", "the"))
"""A name's words that say how it is taken, never what it measures."""


def superlative_said(reading: Reading, catalog: dict[str, Any],
                     reread: Callable[[str], Reading]) -> Reading:
    """'Which month was the windiest', 'the priciest store': where no metric is named, an unread
    superlative whose stem is a word of exactly one metric's name or label (wind of average
    wind speed, price of average unit price) asks for the highest of that metric: the text is
    read again with 'the highest <label>' in its place, kept when that reading names the metric
    and leaves fewer words unread; 'Read as' says so."""
    if reading.metrics:
        return reading
    unread = [u.span for u in reading.unread_content] + [g.span for g in reading.gaps]
    for said in _SUPERLATIVE.finditer(reading.text):
        if said.span() not in unread and not any(a <= said.start() and said.end() <= b
                                                 for a, b in unread):
            continue
        stem = said["stem"].lower()
        forms = {lemma(stem), lemma(stem + "e"), lemma(stem + "y")} - _ROUND
        found = [name for name, info in (catalog.get("metrics") or {}).items()
                 if forms & (lemmas_of((name, str(info.get("label") or ""))) - _ROUND)]
        if len(found) != 1:
            continue
        label = str((catalog["metrics"][found[0]] or {}).get("label") or found[0].replace("_", " "))
        text = reading.text[:said.start()] + f"highest {label}" + reading.text[said.end():]
        again = reread(text)
        if found[0] in again.metric_names() and len(again.unread) < len(reading.unread):
            note = f"{said.group(0)!r}: the highest {found[0]}"
            return replace(again, notes=(*again.notes, note))
    return reading



_GLOSS = re.compile(r"\b(?P<word>[A-Za-z][A-Za-z'’-]*)\s*\(\s*(?P<gloss>[^()]+?)\s*\)")


def glossed(text: str, spans: list[ReadSpan]) -> list[ReadSpan]:
    """'How many flights actually landed (arrived)': a word no span read, followed by a
    parenthesis the reading read whole as one metric, member or dimension, is the word the
    parenthesis restates: read as that same entry, said so."""
    named = {s.span: s for s in spans if s.read_as in ("metric", "member", "dimension")}
    taken = [s.span for s in spans]
    out = []
    for m in _GLOSS.finditer(text):
        entry = named.get(m.span("gloss"))
        if entry is None or any(a < m.end("word") and m.start("word") < b for a, b in taken):
            continue
        out.append(ReadSpan(m["word"], m.span("word"), entry.read_as,
                            f"{entry.detail} (as '({m['gloss']})' restates it)"))
    return out


_PAREN = re.compile(r"\s*\(\s*([^()]+?)\s*\)")


def periods_glossed(text: str, gaps: list[Gap], periods: Iterable[PeriodMention]
                    ) -> tuple[list[Gap], list[ReadSpan]]:
    """'Over the summer (jun through aug)': a period the calendar cannot read (a season, a
    holiday), followed by a parenthesis that is one period the reading read whole, is that
    period, as the parenthesis says: the gap is read as its window, said so."""
    whole = {p.span: p for p in periods}
    kept, spans = [], []
    for g in gaps:
        said = _PAREN.match(text, g.span[1]) if g.kind == "period" else None
        p = whole.get(said.span(1)) if said is not None else None
        if p is None:
            kept.append(g)
            continue
        spans.append(ReadSpan(g.words, g.span, "window", f"{p.period} (as '({p.words})' says)"))
    return kept, spans


def the_business(text: str, mentions: list[Mention], catalog: dict[str, Any]) -> list[ReadSpan]:
    """'How much revenue did the shop make': the project's own name (the catalog's `project`)
    after 'the', 'our' or 'this' is the business the data is about, the whole of it (no filter),
    where no member is named of a dimension those words also name (a store synonym 'shop')."""
    name = str(catalog.get("project") or "").replace("_", " ").replace("-", " ").strip()
    if not name:
        return []
    said = re.compile(rf"\b(?:the|our|this|my)\s+{re.escape(name)}\b", re.IGNORECASE)
    out = []
    for m in said.finditer(text):
        dims = {d.name for d in mentions if d.kind == "dimension"
                and m.start() <= d.span[0] and d.span[1] <= m.end()}
        if any(x.kind == "member" and x.name in dims for x in mentions):
            continue
        out.append(ReadSpan(m.group(0), m.span(), "qualifier",
                            f"{m.group(0)!r}, the project as a whole: no filter"))
    return out
