"""Words read because a rule of the reading used them to point at what they introduce: 'in
terms of' before the metric named ('the busiest hour, in terms of scheduled departures')."""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading.account import ReadSpan, entity_lemmas, lemma
from showwork.protocol.reading.mentions import Mention

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
