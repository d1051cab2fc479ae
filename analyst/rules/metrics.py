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

from showwork.analyst.rules import catalog as cat
from showwork.protocol.reading import Mention, Reading
from showwork.protocol.reading.qualifiers import siblings

COMPOSITION = re.compile(r"\s+(?:per|divided by|over|for each|to)\s+", re.IGNORECASE)


def metrics_of(reading: Reading, catalog: dict[str, Any]) -> list[str]:
    """Metrics in order of first mention, each read as described above."""
    found = reading.metrics
    for a, b in zip(found, found[1:], strict=False):
        # one metric said in two places ('scheduled to depart') composes nothing
        if a.name != b.name and COMPOSITION.fullmatch(reading.text[a.span[1]:b.span[0]]):
            return [cat.ratio_of(catalog, a.name, b.name) or f"{a.name} / {b.name}"]
    named = [qualified(reading, m, catalog) for m in found]
    return list(dict.fromkeys(named))


def qualified(reading: Reading, named: Mention, catalog: dict[str, Any]) -> str:
    """The sibling metric the question's other words point the named one to, or the named."""
    found = siblings(reading, named, catalog)
    return max(found, key=lambda m: len(found[m]), default=named.name)
