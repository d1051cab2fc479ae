"""Words that point a named metric at a sibling: 'value moments … real, non-test users' names
value_moments, but 'real' added to its phrase is the label of real_value_moments.

One reading, shared by the rules analyst (which answers with the sibling) and the audit's
question scope (which expects the sibling cited). A word counts only when it is four letters or
more and not one of the named metric's own words (its name, label, synonyms, previous names and
description without other metrics' names: 'Prefer real_value_moments' in value_moments'
description does not make 'real' its word), and no listed function or grammar word ('with' in
'compared with' never points flights at 'flights with an air time', nor 'share' at 'share of
flights cancelled').
"""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading._reader import Reading
from showwork.protocol.reading.mentions import Mention
from showwork.protocol.reading.siblings import LEAVING_OUT

MIN_QUALIFIER = 4
"""Shorter words ('non', 'all') never qualify a metric."""
_WORD = re.compile(r"[a-z0-9]+")


def siblings(reading: Reading, named: Mention, catalog: dict[str, Any]) -> dict[str, set[str]]:
    """Sibling metric → the words of the text that, around the named phrase, make one of its
    label or synonyms (the most such words of any of them), in catalog order; only siblings
    with at least one such word."""
    if named.how == "said":
        return {}  # read from a sentence (phrasings.py), not a phrase siblings could extend
    from showwork.protocol.reading.account import is_listed

    metrics = catalog.get("metrics") or {}
    free = {w for w in set(words(outside(reading))) - own_words(named.name, metrics)
            - set_apart(reading.text) - kept_out(reading) if not is_listed(w)}
    phrase = words(named.words)
    found: dict[str, set[str]] = {}
    for other, info in metrics.items():
        if other == named.name:
            continue
        for written in [info.get("label") or "", *(info.get("synonyms") or ())]:
            extra = _around(words(written), phrase) & free
            if len(extra) > len(found.get(other, ())):
                found[other] = extra
    return found


def set_apart(text: str) -> set[str]:
    """The words a text sets apart ('transactions excluding quick buys', 'flights that were not
    late', 'orders other than gross ones'): they say what the metric leaves out, never which
    sibling it is."""
    return {w for m in _SET_APART.finditer(text) for w in words(m.group(1))}


def kept_out(reading: Reading) -> set[str]:
    """The words of what the reading keeps out of the metric asked ('not counting test orders
    or cancellations': siblings.py), never a sibling's."""
    return {w for s in reading.spans if s.read_as == "qualifier"
            and s.detail.startswith(LEAVING_OUT) for w in words(s.words)}


_SET_APART = re.compile(
    r"\b(?:excluding|exclude|except(?:\s+for)?|besides|without|not|non|other\s+than|apart\s+from|"
    r"aside\s+from|leaving\s+out|leave\s+out|but)\b[\s-]+((?:[a-z0-9]+[\s-]+){0,2}[a-z0-9]+)",
    re.IGNORECASE)


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def own_words(name: str, metrics: dict[str, Any]) -> set[str]:
    """The words a metric's own entry uses (its description without other metrics' names)."""
    info = metrics.get(name) or {}
    others = "|".join(re.escape(m) for m in metrics if m != name)
    description = info.get("description") or ""
    if others:
        description = re.sub(rf"\b(?:{others})\b", " ", description)
    texts = [name, info.get("label") or "", description, *(info.get("synonyms") or ()),
             *(info.get("previous_names") or ())]
    return {w for t in texts for w in words(t)}


def _around(written: list[str], phrase: list[str]) -> set[str]:
    """The words of `written` around `phrase` when `phrase` is inside it."""
    n = len(phrase)
    for i in range(len(written) - n + 1):
        if n and written[i:i + n] == phrase:
            return {w for w in written[:i] + written[i + n:] if len(w) >= MIN_QUALIFIER}
    return set()


def outside(reading: Reading) -> str:
    """The text's words outside every governed name and period it names, and outside the
    share it asks for ('what share of flights' qualifies no metric: the share is the shape)."""
    share = [reading.asks.share.span] if reading.asks.share is not None else []
    spans = sorted([m.span for m in (*reading.metrics, *reading.members, *reading.dimensions)]
                   + [p.span for p in reading.periods] + share)
    text, out, at = reading.text, [], 0
    for start, end in spans:
        out.append(text[at:start])
        at = max(at, end)
    return " ".join([*out, text[at:]])
