"""A thing asked about by its noun ('at each airport', 'which of the 3 airports', 'by airport'):
the one dimension of the named metrics that the noun names, from the catalog's own words."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from showwork.protocol.reading.account import lemma
from showwork.protocol.reading.asks import SIZE_WORDS, Asks, By, GrammarSpan, size_of
from showwork.protocol.reading.mentions import Mention
from showwork.protocol.reading.phrasings import dimension_of_word


def dimension_by_noun(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]
                      ) -> Asks:
    """A breakdown or ranking by a one-word noun no dimension is named ('airport') read as the
    one dimension every named metric supports that the noun names (`noun_dimension`); the
    noun's words are then read as that breakdown. None or several: it stays as read (unknown)."""
    dims = catalog.get("dimensions") or {}
    ranked = asks.ranking.dimension if asks.ranking is not None else None
    nouns = {b.name: _EACH.match(b.words) is not None for b in asks.by if b.kind == "unknown"}
    if ranked and ranked not in dims:
        nouns[ranked] = nouns.get(ranked, False)
    found = {n: d for n, each in nouns.items()
             if (d := noun_dimension(n, text, mentions, catalog, each=each)) is not None}
    if not found:
        return asks
    by = tuple(By("dimension", found[b.name], b.words, b.span)
               if b.kind == "unknown" and b.name in found else b for b in asks.by)
    spans = [GrammarSpan(b.words, b.span, f"by {found[b.name]}")
             for b in asks.by if b.kind == "unknown" and b.name in found]
    ranking = asks.ranking
    if ranking is not None and ranking.dimension in found:
        said = _noun_said(text, ranking.dimension, ranking.spans)
        spans += [GrammarSpan(said.group(0), said.span(), f"by {found[ranking.dimension]}")
                  ] if said is not None and not any(s.span == said.span() for s in spans) else []
        ranking = replace(ranking, dimension=found[ranking.dimension])
    breakdown = tuple(dict.fromkeys(found.get(d, d) for d in asks.breakdown))
    kept = tuple(s for s in asks.spans if s.span not in {g.span for g in spans})
    return replace(asks, by=by, breakdown=breakdown, ranking=ranking,
                   spans=tuple(sorted(kept + tuple(spans), key=lambda g: g.span)))


def noun_dimension(noun: str, text: str, mentions: list[Mention], catalog: dict[str, Any],
                   *, each: bool = False) -> str | None:
    """The one dimension, of those every named metric supports, that a noun names: the one the
    text or a verb gives it (phrasings.dimension_of_word), else the only one whose label,
    attribute or synonym ends in it ('origin airport', 'origin airport name'); after 'each' or
    'every', or with a count said ('the 3 airports'), the only such one whose members the
    catalog lists (the known set they go through), with that many members."""
    if not re.fullmatch(r"[a-z]+", noun):
        return None
    dims = catalog.get("dimensions") or {}
    metrics = catalog.get("metrics") or {}
    named = {m.name for m in mentions if m.kind == "metric"}
    supported = {d: info for d, info in dims.items()
                 if all(d in ((metrics.get(n) or {}).get("dimensions") or ()) for n in named)}
    if noun in (catalog.get("entities") or {}):
        return None  # an entity by its own name: its key's rules read it (_entity_breakdown)
    own = dimension_of_word(noun, text, mentions, {**catalog, "dimensions": supported})
    candidates = [own] if own else [d for d, info in supported.items()
                                    if root(noun) in _ends(d, info)]
    n = next((size_of(c["n"]) for c in _COUNTED.finditer(text)
              if root(c["noun"]) == root(noun)), None)
    if len(candidates) > 1 and (each or n is not None):
        candidates = [d for d in candidates if supported[d].get("members")]
    if len(candidates) != 1 or n is not None and n != len(supported[candidates[0]].get("members")
                                                          or ()):
        return None
    return candidates[0]


_EACH = re.compile(r"(?:(?:for|at|in|across)\s+)?(?:each|every)\b", re.IGNORECASE)
_COUNTED = re.compile(rf"\b(?:of|across|for|in|from|at)\s+(?:all\s+)?(?:the\s+)?(?P<n>{SIZE_WORDS})\s+"
                      r"(?P<noun>[a-z]+)\b", re.IGNORECASE)
"""'Of the 3 airports', 'at all four stores': a count of the things asked about (a ranking's
'top 3' is its size, not this)."""


def _ends(dimension: str, info: dict[str, Any]) -> set[str]:
    """The last word of a dimension's attribute, label and synonyms: the nouns it is ('origin
    airport'), a name's owner for a name ('origin airport name': the airport by its name)."""
    said = [dimension.rpartition("__")[2].replace("_", " "), str(info.get("label") or ""),
            *(str(s) for s in info.get("synonyms") or ())]
    words = [_NAME.sub("", s.lower()).split() for s in said]
    return {root(w[-1]) for w in words if w}


_NAME = re.compile(r"\s+names?\s*$")


def _noun_said(text: str, noun: str, spans: tuple[tuple[int, int], ...]) -> re.Match[str] | None:
    """The noun's word in the text from the ranking's first word on ('which of the 3
    airports')."""
    start = min((a for a, _b in spans), default=0)
    said = re.compile(rf"\b{re.escape(root(noun))}[a-z]{{0,3}}\b", re.IGNORECASE)
    return next((m for m in said.finditer(text, start) if root(m.group(0)) == root(noun)), None)


def root(word: str) -> str:
    """A word's rough stem (account.lemma) taken until it settles: 'statuses', 'status' and
    'statuse' (a by-phrase's singular) are one noun."""
    w = word.lower()
    for _ in range(3):
        w, before = lemma(w), w
        if w == before:
            break
    return w
