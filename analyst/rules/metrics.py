"""Which governed metrics a question asks about, from what the reader found.

Three readings beyond the names themselves, each from the catalog alone:
- 'A per B' is the ratio metric defined as A / B when there is one ('active days per active
  user' is days_per_user), else the composition 'A / B', which the layer refuses;
- a metric named together with words that, added to its name, name a sibling metric means the
  sibling ('value moments … real, non-test users': real value moments), the way the audit's
  question scope reads it — a word counts only when the named metric's own entry does not use it;
- a metric named twice counts once.
"""

from __future__ import annotations

import re
from typing import Any

from analyst.rules import catalog as cat
from protocol.reading import Mention, Reading

COMPOSITION = re.compile(r"\s+(?:per|divided by|over|for each|to)\s+", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")
MIN_QUALIFIER = 4
"""Shorter words ('non', 'all') never qualify a metric."""


def metrics_of(reading: Reading, catalog: dict[str, Any]) -> list[str]:
    """Metrics in order of first mention, each read as described above."""
    found = reading.metrics
    for a, b in zip(found, found[1:], strict=False):
        if COMPOSITION.fullmatch(reading.text[a.span[1]:b.span[0]]):
            return [cat.ratio_of(catalog, a.name, b.name) or f"{a.name} / {b.name}"]
    named = [qualified(reading, m, catalog) for m in found]
    return list(dict.fromkeys(named))


def qualified(reading: Reading, named: Mention, catalog: dict[str, Any]) -> str:
    """The sibling metric the question's other words point the named one to, or the named."""
    metrics = catalog.get("metrics") or {}
    free = set(_words(_outside(reading))) - _own_words(named.name, metrics)
    phrase = _words(named.words)
    best, most = named.name, 0
    for other, info in metrics.items():
        if other == named.name:
            continue
        for written in [info.get("label") or "", *(info.get("synonyms") or ())]:
            extra = _around(_words(written), phrase) & free
            if len(extra) > most:
                best, most = other, len(extra)
    return best


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _own_words(name: str, metrics: dict[str, Any]) -> set[str]:
    """The words a metric's own entry uses (its description without other metrics' names)."""
    info = metrics.get(name) or {}
    others = "|".join(re.escape(m) for m in metrics if m != name)
    description = info.get("description") or ""
    if others:
        description = re.sub(rf"\b(?:{others})\b", " ", description)
    texts = [name, info.get("label") or "", description, *(info.get("synonyms") or ()),
             *(info.get("previous_names") or ())]
    return {w for t in texts for w in _words(t)}


def _around(words: list[str], phrase: list[str]) -> set[str]:
    """The words of `words` around `phrase` when `phrase` is inside it."""
    n = len(phrase)
    for i in range(len(words) - n + 1):
        if n and words[i:i + n] == phrase:
            return {w for w in words[:i] + words[i + n:] if len(w) >= MIN_QUALIFIER}
    return set()


def _outside(reading: Reading) -> str:
    """The question's words outside every governed name and period it names."""
    spans = sorted([m.span for m in (*reading.metrics, *reading.members, *reading.dimensions)]
                   + [p.span for p in reading.periods])
    text, out, at = reading.text, [], 0
    for start, end in spans:
        out.append(text[at:start])
        at = max(at, end)
    return " ".join([*out, text[at:]])
