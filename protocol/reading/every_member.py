"""A place said for every member of a dimension: 'flights from New York', 'all NYC flights'.

A dimension's synonym that is its label's head noun with a modifier before it ('nyc airport',
'new york airport' of the origin airport, labelled 'origin airport') says that every member of
the dimension's closed list is such a thing: the modifier alone, said where the things come
from ('from new york', 'out of nyc', 'in nyc') or after 'all' right before a metric ('all nyc
flights'), is every member of it, one filter keeping them all (the reading's `ranges`). It is a
reading of the catalog's words, not of the data's: flagged in doubt, with the members, so the
answer is never served clean ('marketing channel' makes every channel a marketing one, organic
too, which a person may not mean). Said toward a place ('to new york') or alone ('nyc
flights') it is not read: another role's dimension, or a part, may be meant. A modifier that is
a word of the dimension's own label or name, of another dimension's label, or of a metric's
entries ('departure airport': departure delays) is not read so. Nothing here knows a domain:
the words are the catalog's.
"""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading._words import overlaps
from showwork.protocol.reading.account import ReadSpan, lemma
from showwork.protocol.reading.mentions import Mention

_FROM_BEFORE = re.compile(r"\b(?:from|out\s+of|leaving|left|leave|leaves|departing|departed|in|at|"
                          r"within)\s+(?:the\s+)?$", re.IGNORECASE)
_ALL_BEFORE = re.compile(r"\ball\s+(?:(?:of\s+)?the\s+|our\s+)?$", re.IGNORECASE)
_LETTERS = re.compile(r"[A-Za-z]+")


def every_member(text: str, catalog: dict[str, Any], mentions: list[Mention]
                 ) -> tuple[list[Mention], list[ReadSpan]]:
    """One member mention per member of the dimension a modifier says all of, on its words,
    and the doubt each such reading is flagged with."""
    taken = [m.span for m in mentions]
    metrics = [m for m in mentions if m.kind == "metric"]
    out: list[Mention] = []
    doubts: list[ReadSpan] = []
    for modifier, dim, members in _modifiers(catalog):
        spaced = r"\s+".join(re.escape(w) for w in modifier.split())
        said = re.compile(rf"(?<![\w'-]){spaced}(?![\w'-])", re.IGNORECASE)
        for m in said.finditer(text):
            if overlaps(m.span(), taken):
                continue
            before_metric = any(x.span[0] > m.end() and not text[m.end():x.span[0]].strip()
                                for x in metrics) and _ALL_BEFORE.search(text, 0, m.start())
            if before_metric or _FROM_BEFORE.search(text, 0, m.start()):
                out += [Mention("member", dim, member, m.group(0), m.span(), "said")
                        for member in members]
                doubts.append(ReadSpan(m.group(0), m.span(), "member",
                                       f"{dim} in {', '.join(members)}: every {dim}, as the "
                                       f"catalog's {modifier + ' ' + synonym_head(catalog, dim)!r} says"))
                taken.append(m.span())
    return out, doubts


def _modifiers(catalog: dict[str, Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(modifier, dimension, its members) for each synonym that is the dimension's label's
    head noun with a modifier no other entry uses."""
    dims = catalog.get("dimensions") or {}
    others = {lemma(w) for info in dims.values() for w in _LETTERS.findall(str(info.get("label") or ""))}
    used = {lemma(w) for name, info in (catalog.get("metrics") or {}).items()
            for t in (name, str(info.get("label") or ""), *(str(s) for s in info.get("synonyms") or ()))
            for w in _LETTERS.findall(t.replace("_", " "))}
    out = []
    for dim, info in dims.items():
        members = tuple(str(m) for m in info.get("members") or ())
        label = _LETTERS.findall(str(info.get("label") or "").lower())
        if not members or not label:
            continue
        for synonym in info.get("synonyms") or ():
            words = str(synonym).lower().split()
            if len(words) < 2 or lemma(words[-1]) != lemma(label[-1]):
                continue
            said = {lemma(w) for w in _LETTERS.findall(" ".join(words[:-1]))}
            if said and not said & (others | used | {lemma(w) for w in _LETTERS.findall(dim)}):
                out.append((" ".join(words[:-1]), dim, members))
    return out


def synonym_head(catalog: dict[str, Any], dim: str) -> str:
    """The dimension label's head noun ('airport' of 'origin airport')."""
    label = _LETTERS.findall(str(((catalog.get("dimensions") or {}).get(dim) or {}).get("label") or dim))
    return label[-1].lower() if label else dim
