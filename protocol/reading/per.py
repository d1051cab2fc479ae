"""'Average air time per flight', 'average order value per order': 'per' and the things an
average is taken over name the average itself, not a breakdown by them."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from showwork.protocol.reading.account import ReadSpan, lemma
from showwork.protocol.reading.asks import Asks
from showwork.protocol.reading.mentions import Mention

_PER_WORD = re.compile(r"per\s+(?:each\s+)?([A-Za-z]+)$", re.IGNORECASE)


def averaged_over(text: str, asks: Asks, mentions: list[Mention], catalog: dict[str, Any]
                  ) -> tuple[Asks, list[ReadSpan]]:
    """A 'per X' right after a metric that is a quotient, where X is a word of what its
    denominator counts (average_air_time = total_air_time / timed_flights, 'flights with an
    air time'): the average's own words, read with it; the breakdown by X is dropped. Any
    other 'per X' ('average delay per airline', 'revenue per order' of a sum) is left as read."""
    metrics = catalog.get("metrics") or {}
    named = [m for m in mentions if m.kind == "metric"]
    own, spans = [], []
    for b in asks.by:
        said = _PER_WORD.match(b.words)
        before = [m for m in named if m.span[1] <= b.span[0] and not text[m.span[1]:b.span[0]].strip()]
        if said is None or not before:
            continue
        over = _denominator_words(metrics, before[-1].name)
        if lemma(said.group(1)) in over:
            own.append(b)
            spans.append(ReadSpan(b.words, b.span, "qualifier",
                                  f"{b.words}: what {before[-1].name} is an average over"))
    if not own:
        return asks, []
    dropped = {b.name for b in own}
    return replace(asks, by=tuple(b for b in asks.by if b not in own),
                   breakdown=tuple(d for d in asks.breakdown if d not in dropped),
                   spans=tuple(s for s in asks.spans if all(s.span != b.span for b in own))
                   ), spans


def _denominator_words(metrics: dict[str, Any], name: str) -> set[str]:
    """The lemmas of the name, label and synonyms of the metric a quotient divides by."""
    formula = (metrics.get(name) or {}).get("formula") or {}
    if formula.get("op") != "divide":
        return set()
    info = metrics.get(formula.get("denominator") or "") or {}
    texts = (formula.get("denominator") or "", info.get("label") or "", *(info.get("synonyms") or ()))
    return {lemma(w) for t in texts for w in re.findall(r"[A-Za-z]+", t.replace("_", " "))}
