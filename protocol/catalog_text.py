"""Reading text against a plain catalog: which governed metrics it names, which direction it states.

Shared by the audit (what a claim says) and the rules analyst (what a question asks)."""

from __future__ import annotations

import re
from typing import Any

from protocol.reading.asks import FALL, RISE
from protocol.reading.mentions import metric_scanner

__all__ = ["FALL", "PERIOD_TOTAL", "RISE", "MetricNames", "direction", "says_period_total"]

PERIOD_TOTAL = re.compile(r"\b(total|in total|during|throughout|over the (?:week|month|period|"
                          r"window|quarter)|summed|sum of|added|cumulative)\b")


class MetricNames:
    """Finds the governed metrics a text names (by name, label, synonym or previous name).

    A view of `protocol.reading`'s metric reader, kept for the audit and the prompts."""

    def __init__(self, catalog: dict[str, Any]) -> None:
        self._scanner = metric_scanner(catalog)

    def mentioned(self, text: str) -> dict[str, str]:
        """Metric → the phrase that named it, longest match first, without overlaps."""
        found: dict[str, str] = {}
        for m in self._scanner.scan(text, first_owner=True):
            found.setdefault(m.name, m.words)
        return found

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, metric) of every metric phrase in the text."""
        return [(*m.span, m.name) for m in self._scanner.scan(text, first_owner=True)]


_WORD = re.compile(r"[a-z]+")


def direction(text: str) -> int:
    """+1 when the text says a rise, -1 a fall, 0 when it says neither or both."""
    words = set(_WORD.findall(text.lower()))
    fall, rise = bool(words & FALL), bool(words & RISE)
    return 0 if fall == rise else (1 if rise else -1)


def says_period_total(text: str) -> bool:
    return bool(PERIOD_TOTAL.search(text.lower()))
