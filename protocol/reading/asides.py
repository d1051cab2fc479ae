"""Asides in parentheses that say nothing the query needs.

'The cancellation rate on feb 8 2013 (the blizzard)', 'top 3 destinations by flights (airport
codes)', 'legacy total orders (test orders included)': the words in parentheses name the day
just said, restate what the members of a dimension named are (codes, where the dimension keeps
codes), or restate the definition of the metric just named (its description's own words). Read
so, the question is the rest. An aside that restricts ('(excluding united)', '(weekends only)'),
or names anything the catalog reads, or says words the definition does not ('(test orders
excluded)' of a metric that includes them), is left to the reader, which reads or refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from showwork.protocol.reading.account import lemma

_ASIDE = re.compile(r"\(([^()]{1,80})\)")
_WORD = re.compile(r"[A-Za-z][\w'-]*")
_RESTRICTS = frozenset({"only", "excluding", "exclude", "excluded", "except", "without", "not",
                        "no", "but", "just", "minus", "ex"})
"""Words with which an aside narrows what is asked: such an aside is never set aside as a name
or a restatement (a definition's own words aside)."""
_JOINING = frozenset({"the", "a", "an", "and", "of", "as", "its", "their"})
_CODES = frozenset({"code", "codes"})
_CODE = re.compile(r"[A-Z0-9]{2,4}")


def asides(text: str, catalog: dict[str, Any], read: Callable[[str], Any]
           ) -> list[tuple[tuple[int, int], str]]:
    """Each aside in parentheses (its span) that names the day said before it, restates a
    dimension's codes or the definition of the metric said before it, and what it was read
    as; `read` reads a text against the catalog (the reader itself)."""
    found = []
    for said in _ASIDE.finditer(text):
        words = [w.lower() for w in _WORD.findall(said.group(1))]
        if not words:
            continue
        span = said.span()
        rest = read(text[:span[0]] + " " * (span[1] - span[0]) + text[span[1]:])
        detail = _definition(text, span, words, rest, catalog)
        if detail is None and not _RESTRICTS & set(words):
            detail = _day_named(text, span, said.group(1), rest, read) or \
                _codes_said(words, rest, catalog)
        if detail is not None:
            found.append((span, detail))
    return found


def _day_named(text: str, span: tuple[int, int], aside: str, rest: Any,
               read: Callable[[str], Any]) -> str | None:
    """'On feb 8 2013 (the blizzard)': right after one day, words that read nothing at all
    name the day (an event on it); the day is the window either way."""
    day = next((p for p in rest.periods if p.period.start == p.period.end
                and not text[p.span[1]:span[0]].strip()), None)
    if day is None:
        return None
    alone = read(aside)
    if alone.metrics or alone.members or alone.dimensions or alone.periods or alone.excluded \
            or alone.ranges or any(s.read_as != "qualifier" for s in alone.spans):
        return None
    return f"a name for {day.words}, not about the data"


def _codes_said(words: list[str], rest: Any, catalog: dict[str, Any]) -> str | None:
    """'Top 3 destinations (airport codes)': 'codes', with only the dimension's own words,
    said of a dimension named whose members are codes; the answer names them so."""
    if not _CODES & set(words):
        return None
    others = {lemma(w) for w in words if w not in _CODES and w not in _JOINING}
    dims = catalog.get("dimensions") or {}
    named = {m.name for m in (*rest.dimensions, *rest.members)} | set(rest.asks.breakdown)
    for name in sorted(named):
        info = dims.get(name) or {}
        if _keeps_codes(info) and others <= _own_words(name, info):
            return f"{name}'s members are its codes"
    return None


def _keeps_codes(info: dict[str, Any]) -> bool:
    """The dimension's members are codes: named by another dimension's names, held to a
    pattern of capitals and digits, or every member short capitals ('NA', 'EU', 'JFK')."""
    pattern = str(info.get("pattern") or "")
    members = [str(m) for m in info.get("members") or ()]
    return bool(info.get("named_by")) or bool(re.fullmatch(r"\^\[A-Z0-9\]\{\d\}\$", pattern)) \
        or (bool(members) and all(_CODE.fullmatch(m) and not m.isdigit() for m in members))


def _own_words(name: str, info: dict[str, Any]) -> set[str]:
    texts = [name.split("__")[-1].replace("_", " "), str(info.get("label") or ""),
             *(str(s) for s in info.get("synonyms") or ())]
    return {lemma(w.lower()) for t in texts for w in _WORD.findall(t)}


def _definition(text: str, span: tuple[int, int], words: list[str], rest: Any,
                catalog: dict[str, Any]) -> str | None:
    """'Legacy total orders (test orders included)': right after a metric named, words all of
    which its own description, label or synonyms say restate its definition."""
    metric = next((m for m in rest.metrics if not text[m.span[1]:span[0]].strip()), None)
    if metric is None:
        return None
    info = (catalog.get("metrics") or {}).get(metric.name) or {}
    texts = [str(info.get("description") or ""), str(info.get("label") or ""),
             *(str(s) for s in info.get("synonyms") or ())]
    own = {lemma(w.lower()) for t in texts for w in _WORD.findall(t)}
    said = {lemma(w) for w in words if w not in _JOINING}
    if not said or not said <= own:
        return None
    return f"{metric.name}'s own definition"
