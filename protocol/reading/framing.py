"""'For the board deck: revenue year-to-date', 'quick one for finance: …': who the answer is for.

A clause before the question's first colon may say what the answer goes into or who reads it
(a deck, a review, a team). Those words are about the answer, not the data: the question is
the rest. The clause is read so only where it names nothing in the catalog (no metric,
dimension or member), every word it leaves unread is a word for a document, a meeting or a
team of people (`AUDIENCE`, general English) or opens a question ('quick one'), it ends in such
a word, and the rest names a metric: 'for stores in texas: revenue …' names data and 'for the
texas review: …' a word no audience is, so both stay as they are. A period said in the clause
('for the q3 board pack') is the document's: the clause is read so only where the rest names
its own period, and the clause's never becomes the question's window.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from showwork.protocol.reading.account import ReadSpan

AUDIENCE = frozenset(re.findall(r"\S+", """
review reviews deck decks pack packs report reports meeting meetings presentation presentations
memo memos email emails slide slides board team teams boss manager managers management finance
ops leadership standup stand-up update updates call sync offsite newsletter exec execs cfo ceo
coo investors stakeholders briefing brief readout writeup write-up summary
"""))
"""Nouns for what an answer goes into or who reads it: never about the data a catalog holds."""

_OPENING_WORDS = frozenset({"quick", "one", "question", "a"})
"""'Quick one for finance': the words that open a question (the reader's opener), unread in a
clause of their own."""

_CLAUSE = re.compile(r"^\s*(?P<clause>[^:?!.;\n]{2,80}?)\s*:(?=\s+\S)")
"""The words before the first colon that is followed by the question ('10:30' is no clause)."""

_WORD = re.compile(r"[A-Za-z][\w'-]*")


FRAMING = "who the answer is for, not about the data"


def framing(text: str, catalog: dict[str, Any], read: Callable[[str], Any]) -> tuple[int, int] | None:
    """The span of the clause before the colon that says who the answer is for (the colon
    left out), else None; `read` reads a text against the catalog (the reader itself)."""
    said = _CLAUSE.match(text)
    if said is None:
        return None
    words = [w.lower() for w in _WORD.findall(said.group("clause"))]
    if not words or words[-1] not in AUDIENCE:
        return None
    clause = read(said.group("clause"))
    if clause.metrics or clause.members or clause.dimensions or clause.excluded or clause.ranges:
        return None
    dated = {w.lower() for s in clause.spans if s.read_as in ("window", "shape")
             for w in _WORD.findall(s.words)}  # 'the weekly review', 'the q3 board pack'
    unread = {w.lower() for u in clause.unread for w in _WORD.findall(u)} - dated
    if not unread <= AUDIENCE | _OPENING_WORDS:
        return None
    end = said.end()
    rest = read(" " * end + text[end:])
    if not rest.metrics or ((clause.periods or dated) and not rest.periods):
        return None
    return said.start("clause"), said.end("clause")


def set_aside(reading: Any, text: str, said: list[tuple[tuple[int, int], str]]) -> Any:
    """The reading of the text with the words `said` blanked (`blanked`), given back the
    text's own words there and a span for each that says what it was read as."""
    whole = reading.text
    for (start, end), _detail in said:
        if not whole[start:end].strip():  # else a short form said before it moved it
            whole = whole[:start] + text[start:end] + whole[end:]
    spans = [ReadSpan(text[start:end], (start, end), "qualifier", detail)
             for (start, end), detail in said]
    return replace(reading, text=whole, spans=tuple(sorted((*reading.spans, *spans),
                                                           key=lambda s: s.span)))


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with the words in `spans` put as spaces, so every other span keeps its
    place."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text
