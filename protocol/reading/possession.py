"""'How much are we holding in loss reserves', 'how much premium has policy 31003000336 carried':
in a question of how much, a verb of having ('hold', 'carry') asks what 'have' asks, the amount
named; it says no event of its own. Of a count it stays unread ('how many orders were held': a
state the orders may be in)."""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading.account import ReadSpan
from showwork.protocol.reading.mentions import Mention

_HAVING = re.compile(r"\b(?:hold|holds|holding|held|carry|carries|carried|carrying)\b",
                     re.IGNORECASE)
_HOW_MUCH = re.compile(r"\bhow\s+much\b[^.;?!]*$", re.IGNORECASE)


def verbs_of_having(text: str, metrics: list[Mention], catalog: dict[str, Any]
                    ) -> list[ReadSpan]:
    """Each verb of having in the clause of a 'how much' before it, where every metric named
    is an amount (no count): read as 'have', the amount asked."""
    entries = catalog.get("metrics") or {}
    if not metrics or any(_counts(entries.get(m.name) or {}) for m in metrics):
        return []
    return [ReadSpan(v.group(0), v.span(), "qualifier", "a verb of having: the amount named")
            for v in _HAVING.finditer(text) if _HOW_MUCH.search(text, 0, v.start())]


def _counts(info: dict[str, Any]) -> bool:
    return bool(info.get("counts")) or info.get("unit") == "count"
