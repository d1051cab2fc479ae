"""Reading text against a plain catalog: which governed metrics it names, which direction it states.

Shared by the audit (what a claim says) and the rules analyst (what a question asks)."""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading._literals import may_match
from showwork.protocol.reading.asks import FALL, RISE
from showwork.protocol.reading.mentions import metric_scanner

__all__ = ["FALL", "PERIOD_TOTAL", "RISE", "MetricNames", "describe_dimension", "direction",
           "says_period_total"]

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
    # prefiltered on the text's lower case as IGNORECASE reads it (`lowered`): a word of
    # `PERIOD_TOTAL` in `text.lower()` is in it too
    return may_match(PERIOD_TOTAL, text) and PERIOD_TOTAL.search(text.lower()) is not None


MAX_MEMBERS_LISTED = 30
"""Members a dimension's description lists; the rest are counted."""
_SHAPES = (("2026-03-09", "a date, YYYY-MM-DD (e.g. 2026-03-09)"),
           ("2026-03", "a month, YYYY-MM (e.g. 2026-03)"),
           ("2026-W11", "an ISO week, YYYY-Www (e.g. 2026-W11)"),
           ("2026-Q1", "a quarter, YYYY-Qn (e.g. 2026-Q1)"),
           ("2026", "a year, YYYY (e.g. 2026)"))
"""Shapes a dimension's pattern is tried against, to say in words what it accepts."""


def describe_dimension(name: str, dim: dict[str, Any]) -> str:
    """What a dimension accepts, in its own terms: its members (with the words that also
    name them), else the shape its pattern accepts, else that it is open.

    >>> describe_dimension("plan", {"label": "plan", "members": ["free", "plus"]})
    'plan: members free, plus'
    >>> describe_dimension("signup_month", {"label": "signup month", "members": [],
    ...                    "pattern": "^20[0-9]{2}-(0[1-9]|1[0-2])$"})
    'signup_month: a month, YYYY-MM (e.g. 2026-03)'
    """
    label = dim.get("label") or name
    head = name if label in (name, name.replace("_", " ")) else f"{name} ({label})"
    members = dim.get("members") or []
    if members:
        shown = ", ".join(map(str, members[:MAX_MEMBERS_LISTED]))
        more = (f" and {len(members) - MAX_MEMBERS_LISTED} more"
                if len(members) > MAX_MEMBERS_LISTED else "")
        also = "; ".join(f"{k} = {v}" for k, v in (dim.get("member_synonyms") or {}).items())
        return f"{head}: members {shown}{more}" + (f" (also: {also})" if also else "")
    pattern = dim.get("pattern")
    if pattern:
        return f"{head}: {_shape(pattern)}"
    return f"{head}: open (any value the data holds; members are not listed)"


def _shape(pattern: str) -> str:
    try:
        compiled = re.compile(pattern)
    except re.error:
        return f"values matching the pattern {pattern}"
    for example, words in _SHAPES:
        if compiled.fullmatch(example):
            return words
    return f"values matching the pattern {pattern}"
