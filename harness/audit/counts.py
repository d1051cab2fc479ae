"""Counts of cited rows ('across 7 stores', 'the 3 platforms', 'all 8 of them', '46 listed',
'in 4 of the 5 regions') and runs of a series ('rose for the third week in a row'). A number
followed by a dimension's noun (its name, label or synonyms, singular or plural) or by 'of
them', 'listed', 'members', 'rows' counts members of something the answer cites: it is a
number, held to what the cited rows and listed values count (numbers.py `check_counts`),
never to the values.

Read once per text and catalog (`read_counts`, `read_runs`); a text with no digit before a word
and no count word (or no 'in a row', 'consecutive', …) is not scanned further.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from showwork.harness.audit.context import AnswerContext
from showwork.harness.audit.index import CatalogIndex
from showwork.protocol.citations import period_start
from showwork.protocol.numbers import TIME_SPELLINGS
from showwork.semantic_layer.results import Result, Row

_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
          "nineteen", "twenty")
SPELLED = {w: i for i, w in enumerate(_WORDS, start=2)}
"""Counts written in words (from two: 'one' is as often 'a')."""
_N = r"(?:[0-9]{1,3}(?:,[0-9]{3})*|" + "|".join(_WORDS) + r")"
_DIGIT_WORD = re.compile(r"[0-9]\s+[A-Za-z]")
"""A digit, then a word: what every count written in digits has (one cheap look per text)."""
_COUNT = re.compile(
    rf"(?i)(?<![\w.,$€£+\-−/#])(?P<n>{_N})(?![\w%]|[.,][0-9])"
    rf"(?:\s+of\s+(?:(?P<them>them|these|those)\b|(?:the\s+|all\s+)?(?P<m>{_N})(?![\w%]|[.,][0-9])))?"
    r"\s+(?P<rest>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3})?")
GENERIC = ("listed", "members", "rows", "items", "entries")
"""Nouns that count what the answer lists or cites, of any dimension."""
_ADJECTIVES = frozenset({"listed", "distinct", "different", "cited", "other", "separate",
                         "remaining", "individual", "named"})


@dataclass(frozen=True, slots=True)
class Count:
    """A number counting members: of dimension `dim` ('' for 'of them', 'listed', 'rows')."""

    start: int
    end: int
    text: str
    value: int
    dim: str
    of: int | None = None
    """For 'k of the M X': M, the whole k is a part of (k then counts members meeting the
    sentence's condition: those whose cited change moved as it says)."""
    part: bool = False
    """'the top two stores', 'the other five stores': a part of the cited rows, set apart by
    rank or by what the text named before; it counts fewer than the whole (what it adds or
    says of them is another reading's: sums.py)."""


def read_counts(index: CatalogIndex, text: str) -> tuple[Count, ...]:
    """The counts a text states, in order (cached per catalog index and text)."""
    return index.read("counts", text, lambda t: _counts(t, nouns(index)) if t and (
        _DIGIT_WORD.search(t) is not None or _spelled(t)) else ())


def _spelled(text: str) -> bool:
    """A count word in the text, looked for as a substring (cheaper than a regex of words)."""
    low = text.lower()
    return any(w in low for w in _WORDS)


def nouns(index: CatalogIndex) -> tuple[tuple[str, str], ...]:
    """(noun, dimension) for every dimension's name, label and synonyms, singular and plural,
    longest first ('' for the generic nouns); none that names a metric."""
    return index.derive("count nouns", _nouns)


_UNIT_HEADS = frozenset({w for words in TIME_SPELLINGS.values() for w in words}
                        | {"day", "week", "month", "quarter", "year", "time", "date"})
"""Last words of a label that are units of time ('departure hour'): 'ten hours' is a
duration, no count of members."""


def _nouns(catalog: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    metric_words = {str(w).lower() for m in (catalog.get("metrics") or {}).values()
                    for w in (m.get("label"), *(m.get("synonyms") or ())) if w}
    metric_words |= {p for w in list(metric_words) for p in plurals(w)}
    out: dict[str, str] = {g: "" for g in GENERIC if g not in metric_words}
    heads: dict[str, set[str]] = {}
    for name, info in (catalog.get("dimensions") or {}).items():
        if name in ("day", "week", "month", "quarter", "year") or info.get("time"):
            continue  # '8 weeks' is a window's length
        words = {name.split("__")[-1].replace("_", " "), str(info.get("label") or ""),
                 *(str(s) for s in info.get("synonyms") or ())}
        for w in {w.lower().strip() for w in words if w.strip()}:
            for form in (w, *plurals(w)):
                if form not in metric_words:  # '12 members' of a metric 'members' is a value
                    out.setdefault(form, name)
            head = w.split()[-1]
            if head != w and len(head) >= 3 and head not in _UNIT_HEADS:
                heads.setdefault(head, set()).add(name)
    for head, owners in heads.items():  # 'three airports': a label's last word, said alone
        for form in (head, *plurals(head)):
            if form not in metric_words and form not in out:
                out[form] = next(iter(owners)) if len(owners) == 1 else ""
    return tuple(sorted(out.items(), key=lambda kv: -len(kv[0])))


def plurals(noun: str) -> tuple[str, ...]:
    """'store' → stores; 'country' → countries; 'branch' → branches."""
    if noun.endswith("s"):
        return ()
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return (noun[:-1] + "ies",)
    if noun.endswith(("ch", "sh", "x", "z")):
        return (noun + "es",)
    return (noun + "s",)


def number_of(text: str) -> int:
    word = text.lower()
    return SPELLED[word] if word in SPELLED else int(text.replace(",", ""))


def _counts(text: str, known: tuple[tuple[str, str], ...]) -> tuple[Count, ...]:
    out = []
    for m in _COUNT.finditer(text):
        dim = _noun(m.group("rest") or "", known, generic=bool(m.group("them")))
        if dim is None:
            continue
        part = (_PART.search(text, 0, m.start()) is not None or _PART_AFTER.match(
            m.group("rest") or "") is not None) and not m.group("m")
        n = Count(m.start("n"), m.end("n"), m.group("n"), number_of(m.group("n")), dim,
                  part=part)
        if m.group("m"):
            whole = Count(m.start("m"), m.end("m"), m.group("m"), number_of(m.group("m")), dim)
            out += [Count(n.start, n.end, n.text, n.value, dim, whole.value), whole]
        else:
            out.append(n)
    return tuple(out)


_PART = re.compile(r"(?i)\b(?:other|remaining|top|bottom|first|last|leading|all\s+but)\s+$")
"""The word before a count that sets a part of the rows apart ('the other five stores', 'all
but two stores': quantifiers.py holds how many rows meet its bound)."""
_PART_AFTER = re.compile(r"(?i)(?:other|remaining)\s")
"""The same word after the count: 'the five other stores', 'three remaining channels'."""


def _noun(rest: str, known: tuple[tuple[str, str], ...], generic: bool) -> str | None:
    """The dimension the words after a number name ('' for a generic noun), or None."""
    if generic:
        return ""
    low = rest.lower()
    first = low.split(" ", 1)[0]
    if first in _ADJECTIVES and first not in GENERIC:
        low = low[len(first) + 1:]
    for noun, dim in known:
        if low.startswith(noun) and (len(low) == len(noun) or not low[len(noun)].isalnum()):
            return dim
    return None


# --- runs of a series: 'rose for the third week in a row', 'fell four months straight' --------

_ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
             "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12}
_GRAINS = ("day", "week", "month", "quarter", "year")
_STREAK_CUES = ("in a row", "consecutive", "straight", "running")
_STREAK = re.compile(
    rf"(?i)\b(?:the\s+)?(?P<n>[0-9]{{1,2}}(?:st|nd|rd|th)?|{'|'.join(_WORDS)}|"
    rf"{'|'.join(_ORDINALS)})\s+(?:(?:straight|consecutive)\s+)?(?P<grain>{'|'.join(_GRAINS)})s?"
    r"(?:\s+(?:in\s+a\s+row|running|straight))?\b")


@dataclass(frozen=True, slots=True)
class Run:
    """'rose for the third week in a row': `value` periods' moves in a row of the series."""

    start: int
    end: int
    text: str
    value: int
    grain: str


def read_runs(index: CatalogIndex, text: str) -> tuple[Run, ...]:
    """The runs of periods a text states (cached per catalog index and text)."""
    return index.read("runs", text, _runs)


def _runs(text: str) -> tuple[Run, ...]:
    low = text.lower()
    if not any(cue in low for cue in _STREAK_CUES):
        return ()
    out = []
    for m in _STREAK.finditer(text):
        phrase = m.group(0).lower()
        if not any(cue in phrase for cue in _STREAK_CUES):
            continue
        word = m.group("n").lower()
        n = _ORDINALS.get(word) or SPELLED.get(word) or int(re.sub(r"[a-z]", "", word))
        out.append(Run(m.start(), m.end(), m.group(0), n, m.group("grain").lower()))
    return tuple(out)


def cited_series(ctx: AnswerContext) -> dict[tuple[str, str], dict[str, Any]]:
    """(metric, grain) → period start → value, of the cited rows of each series (a result by
    a grain) with three or more cited periods, the first cited field of each metric."""
    found: dict[tuple[str, str, str], dict[str, Any]] = {}
    for claim in ctx.claims:
        for c in claim.cited:
            grain = c.result.grain or ""
            period = c.row.key.get(grain) if grain and c.row.key else None
            if period is not None and len(c.row.key) == 1 and isinstance(c.value, (int, float)) \
                    and not isinstance(c.value, bool):
                found.setdefault((c.metric, grain, c.citation.field), {})[
                    period_start(period)] = c.value
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for (metric, grain, _field), rows in found.items():
        if len(rows) >= 3 and (metric, grain) not in out:
            out[(metric, grain)] = rows
    return out


def cited_results_by_grain(ctx: AnswerContext) -> dict[tuple[str, str], dict[str, Any]]:
    """(metric, grain) → period start → value over every row of the one cited result by that
    grain alone (its first cited field), cited rows or not: a period's extreme ('2013-12-01 had
    the most') is said of the whole series the analyst asked for, not of the rows it chose to
    cite. A metric and grain of several cited results (one series per airport) is left out:
    which of them a text speaks of is `cited_series`' to tell."""
    results: dict[tuple[str, str], list[tuple[Any, str]]] = {}
    for claim in ctx.claims:
        for c in claim.cited:
            grain = c.result.grain or ""
            if not grain or c.result.keys != (grain,):
                continue
            found = results.setdefault((c.metric, grain), [])
            if not any(r is c.result for r, _f in found):
                found.append((c.result, c.citation.field))
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for (metric, grain), found in results.items():
        if len(found) != 1:
            continue
        result, name = found[0]
        rows = {period_start(period): value
                for period, _row, value in numeric_rows(result, metric, name, grain)}
        if len(rows) >= 2:
            out[(metric, grain)] = rows
    return out


def numeric_rows(result: Result, metric: str, field: str, key: str
                 ) -> Iterator[tuple[str, Row, int | float]]:
    """(member, row, value) of each row of `result` with a member of `key` and a number in
    the metric's `field` (a true-or-false value is no number; a row of no member, the orders
    of customers with no region, none to hold)."""
    for row in result.rows:
        value = (row.values.get(metric) or {}).get(field)
        member = row.key.get(key)
        if member not in (None, "") and isinstance(value, int | float) \
                and not isinstance(value, bool):
            yield str(member), row, value
