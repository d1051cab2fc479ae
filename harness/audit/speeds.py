"""Two metrics' changes compared, held to the changes the claims cite (issue 43).

"Revenue fell 5.73 %, faster than average order value, which fell 20.4 %", "orders rose more
than revenue", "average departure delay rose 60.5 %, less than total departure delay": a
comparative between two metrics in a sentence that speaks of moves states which of the two
changed more, in percent (their units differ: only the relative change compares them). It is
held to the percent changes the answer cites of each metric over the whole (a row no member
keys, from a call no filter narrows): `direction_mismatch` when every such change of the first
is smaller than every such change of the second and the words say it changed more, or the other
way round. With no such change cited of one of them nothing is held here (the word account
decides whether the words were read).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from showwork.harness.audit.labels import read_words
from showwork.harness.audit.quantifiers import _SENTENCE
from showwork.harness.audit.types import Finding
from showwork.protocol.reading._literals import search

if TYPE_CHECKING:
    from showwork.harness.audit.context import AnswerContext

_MORE = (r"faster|quicker|more(?:\s+(?:sharply|steeply|quickly|rapidly|strongly))?|"
         r"further|harder|steeper|sharper|bigger|larger|greater")
_LESS = (r"slower|less(?:\s+(?:sharply|steeply|quickly|rapidly|strongly))?|"
         r"more\s+(?:slowly|gently|gradually|modestly)|smaller|milder|gentler")
_THAN = re.compile(rf"(?i)\b(?:(?P<less>{_LESS})|(?P<more>{_MORE}))\s+than\s+(?:that\s+of\s+|the\s+)?")
_MOVES = re.compile(r"(?i)\b(?:rose|risen|rise|rising|grew|grown|growing|fell|fallen|falling|"
                    r"dropped|declined|increased|decreased|climbed|gained|slid|shrank|jumped|"
                    r"surged|sank|moved|changed|faster|slower)\b")


def find_speeds(ctx: AnswerContext) -> list[Finding]:
    """Each comparison of two metrics' changes the cited changes contradict, on the prose and
    every claim's text."""
    changes = _changes(ctx)
    if len(changes) < 2:
        return []
    texts = [("answer", ctx.answer.answer or "")] + [(c.cid, c.claim.text) for c in ctx.claims]
    out = []
    for where, text in texts:
        if search(_THAN, text) is None:
            continue
        out += _contradicted(ctx, where, text, changes)
    return out


def _changes(ctx: AnswerContext) -> dict[str, list[float]]:
    """Each metric's cited percent changes over the whole: rows no member keys, calls no filter
    narrows."""
    out: dict[str, list[float]] = {}
    for claim in ctx.claims:
        for c in claim.cited:
            if c.citation.field != "pct_change" or not isinstance(c.value, (int, float)) or \
                    c.row.key or ctx.evidence.filters(c.citation.handle) != {}:
                continue
            out.setdefault(c.metric, []).append(float(c.value))
    return out


def _contradicted(ctx: AnswerContext, where: str, text: str,
                  changes: dict[str, list[float]]) -> list[Finding]:
    reading = read_words(ctx.index_, "claim" if where != "answer" else "prose", text)
    out = []
    for sentence in _SENTENCE.finditer(text):
        start, end = sentence.span()
        if search(_MOVES, sentence.group()) is None:
            continue
        for said in _THAN.finditer(text, start, end):
            before = [m for m in reading.metrics if start <= m.span[0] and m.span[1] <= said.start()]
            after = next((m for m in reading.metrics if m.span[0] == said.end()), None)
            if not before or after is None:
                continue
            a, b = before[-1].name, after.name
            if a == b or a not in changes or b not in changes:
                continue
            more = said.group("more") is not None
            small_a = max(abs(x) for x in changes[a]) < min(abs(x) for x in changes[b])
            large_a = min(abs(x) for x in changes[a]) > max(abs(x) for x in changes[b])
            if (more and small_a) or (not more and large_a):
                out.append(_finding(where, said.group(0).strip(), a, b, changes))
    return out


def _finding(where: str, words: str, a: str, b: str, changes: dict[str, list[float]]) -> Finding:
    def said(name: str) -> str:
        return ", ".join(f"{x:+.3g} %" for x in dict.fromkeys(changes[name]))

    return Finding(
        "direction_mismatch", where,
        f"The answer says {a} changed {words!r} {b}, but the cited changes are {said(a)} for "
        f"{a} and {said(b)} for {b}.",
        {"said": words, "metrics": [a, b], "changes": {a: changes[a], b: changes[b]}},
        f"Compare the two changes as cited: {a} {said(a)}, {b} {said(b)}.")
