"""Reading text against a plain catalog: which governed metrics it names, which direction it states.

Shared by the audit (what a claim says) and the rules analyst (what a question asks)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

FALL = {"fell", "fall", "falls", "falling", "dropped", "drop", "drops", "declined", "decline",
        "declines", "decreased", "decrease", "decreases", "down", "lower", "shrank", "dipped",
        "dip", "dips", "collapsed", "collapse", "slid", "slipped", "lost", "worse"}
RISE = {"rose", "rise", "rises", "rising", "increased", "increase", "increases", "grew", "grow",
        "grows", "up", "higher", "jumped", "jump", "jumps", "climbed", "gained", "spiked",
        "surged", "better"}
PERIOD_TOTAL = re.compile(r"\b(total|in total|during|throughout|over the (?:week|month|period|"
                          r"window|quarter)|summed|sum of|added|cumulative)\b")


def _phrases_key(catalog: dict[str, Any]) -> tuple:
    return tuple((name, m["label"], tuple(m["synonyms"]), tuple(m["previous_names"]))
                 for name, m in catalog["metrics"].items())


@lru_cache(maxsize=8)
def _phrase_table(key: tuple) -> list[tuple[str, str, bool]]:
    """(phrase, metric, is_previous_name), longest phrase first."""
    rows: list[tuple[str, str, bool]] = []
    for name, label, synonyms, previous in key:
        clean_label = re.sub(r"\s*\(.*?\)", "", label).strip().lower()
        for phrase in {name.lower(), name.replace("_", " ").lower(), clean_label,
                       *(s.lower() for s in synonyms)}:
            rows.append((phrase, name, False))
            if phrase.endswith("s") and " " in phrase:
                rows.append((phrase[:-1], name, False))  # "new user" names new_users too
        for old in previous:
            rows += [(old.lower(), name, True), (old.replace("_", " ").lower(), name, True)]
    return sorted(set(rows), key=lambda r: (-len(r[0]), r[0]))


@lru_cache(maxsize=8)
def _phrase_regex(key: tuple) -> tuple[re.Pattern[str], dict[str, str]]:
    """One alternation, longest phrase first, so a scan finds non-overlapping longest names."""
    table = _phrase_table(key)
    owner: dict[str, str] = {}
    for phrase, metric, _old in table:
        owner.setdefault(phrase, metric)
    alternation = "|".join(re.escape(p) for p in owner)
    return re.compile(rf"(?<![a-z0-9_])(?:{alternation})(?![a-z0-9_])"), owner


class MetricNames:
    """Finds the governed metrics a text names (by name, label, synonym or previous name)."""

    def __init__(self, catalog: dict[str, Any]) -> None:
        self.pattern, self.owner = _phrase_regex(_phrases_key(catalog))

    def mentioned(self, text: str) -> dict[str, str]:
        """Metric → the phrase that named it, longest match first, without overlaps."""
        found: dict[str, str] = {}
        for m in self.pattern.finditer(text.lower()):
            found.setdefault(self.owner[m.group(0)], text[m.start():m.end()])
        return found

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, metric) of every metric phrase in the text."""
        return [(m.start(), m.end(), self.owner[m.group(0)])
                for m in self.pattern.finditer(text.lower())]


_WORD = re.compile(r"[a-z]+")


def direction(text: str) -> int:
    """+1 when the text says a rise, -1 a fall, 0 when it says neither or both."""
    words = set(_WORD.findall(text.lower()))
    fall, rise = bool(words & FALL), bool(words & RISE)
    return 0 if fall == rise else (1 if rise else -1)


def says_period_total(text: str) -> bool:
    return bool(PERIOD_TOTAL.search(text.lower()))
