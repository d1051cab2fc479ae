"""A metric's own kind kept out: 'flights, excluding cancelled ones', 'orders, not counting test
orders or cancellations'. What is kept out is read against the catalog's descriptions: the one
metric of the same things and unit whose definition leaves every one of them out is what is
asked (the named metric itself when its own definition already does). With none or several, the
words stay unread: never the count of what was to be left out."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from showwork.protocol.reading.account import ReadSpan, is_listed, lemma
from showwork.protocol.reading.account import _lemmas as lemmas_of
from showwork.protocol.reading.filters import CUES
from showwork.protocol.reading.mentions import Mention

_KEPT_OUT = re.compile(CUES + r"\s+(?P<tail>[^,.;:?!()]+)", re.IGNORECASE)
"""A cue that keeps something out and what follows it up to the clause's end."""
LEAVING_OUT = "leaving out"
"""How the cue's span is read ('leaving out cancel, test: order_count'): qualifiers.py keeps
its words from pointing the metric at a sibling."""
_NEGATED = re.compile(r"\b(?:not|non|no|minus|excluding|without|except|never)[\s-]+([a-z]+)"
                      r"(?:\s+([a-z]+))?", re.IGNORECASE)
"""A definition's words for what it leaves out: '(non-test), not cancelled orders', 'flights
minus cancellations'."""


def sibling_excluded(text: str, mentions: list[Mention], catalog: dict[str, Any]
                     ) -> tuple[list[Mention], list[ReadSpan], list[str]]:
    """(the mentions, the cue's words read, a note): where a cue keeps out things no member
    names, after a metric named before it (or before the first named after it, the cue's clause
    opening the question), the metric asked for is the one whose definition
    leaves them all out (`_leaving_out`); the metrics named inside the cue's words are what it
    leaves out, no second metric asked for."""
    metrics = catalog.get("metrics") or {}
    for cue in _KEPT_OUT.finditer(text):
        tail = cue.span("tail")
        inside = [m for m in mentions if tail[0] <= m.span[0] and m.span[1] <= tail[1]]
        before = [m for m in mentions if m.kind == "metric" and m.span[1] <= cue.start()]
        # 'excluding cancelled flights, how many United flights …': a clause opening the
        # question keeps them out of the first metric named after it
        after = [m for m in mentions if m.kind == "metric" and m.span[0] > tail[1]]
        opening = not text[:cue.start()].strip() and text[tail[1]:tail[1] + 1] == ","
        if not (before or opening and after) or any(m.kind != "metric" for m in inside):
            continue
        asked = before[-1] if before else after[0]
        own = _words(asked.name, metrics.get(asked.name) or {})
        out = {w for m in inside for w in _words(m.name, metrics.get(m.name) or {})} - own
        covered = [m.span for m in inside]
        out |= {lemma(w.group(0)) for w in re.finditer(r"[A-Za-z]+", text[tail[0]:tail[1]])
                if not is_listed(w.group(0)) and not any(a <= tail[0] + w.start() < b
                                                         for a, b in covered)} - own
        chosen = _leaving_out(asked.name, out, {m.name for m in inside}, metrics)
        if not out or chosen is None:
            continue
        end = max([tail[0] + len(text[tail[0]:tail[1]].rstrip()), *(b for _a, b in covered)])
        read = ReadSpan(text[cue.start():end], (cue.start(), end), "qualifier",
                        f"{LEAVING_OUT} {', '.join(sorted(out))}: {chosen}")
        kept = [replace(m, name=chosen) if m is asked else m for m in mentions if m not in inside]
        already = " already" if chosen == asked.name else ""
        note = f"{asked.words!r} {cue.group(1)} {text[tail[0]:end]}: {chosen}, whose definition" \
            f"{already} leaves them out"
        return kept, [read], [note]
    return mentions, [], []


def _leaving_out(asked: str, out: set[str], named_out: set[str], metrics: dict[str, Any]
                 ) -> str | None:
    """The metric asked for, leaving out `out`: `asked` itself when its definition does, else
    the one metric of the same unit named in every word of the asked one's name and label
    ('departed flights' of 'flights': the same things, some of them) whose definition leaves
    out every one of them."""
    info = metrics.get(asked) or {}
    if _leaves_out(info, out):
        return asked
    own = _words(asked, info)
    fits = [name for name, other in metrics.items()
            if name not in named_out and name != asked and other.get("unit") == info.get("unit")
            and own <= _words(name, other) and _leaves_out(other, out)]
    return fits[0] if len(fits) == 1 else None


def _leaves_out(info: dict[str, Any], out: set[str]) -> bool:
    negated = {lemma(w) for m in _NEGATED.finditer(str(info.get("description") or ""))
               for w in m.groups() if w}
    return all(any(len(x) >= 4 and len(n) >= 4 and (n.startswith(x) or x.startswith(n))
                   for n in negated) for x in out)


def _words(name: str, info: dict[str, Any]) -> frozenset[str]:
    return lemmas_of((name, str(info.get("label") or "")))
