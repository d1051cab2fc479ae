"""Members kept out, and members kept alone: 'excluding Delta', 'without Toronto', 'not counting
JetBlue', 'other than Online' read as a filter that keeps every member but the named ones (the
layer's `not_in`); 'only United', 'JFK only' read as the member's filter, which naming the
member already is (the word is read because the filter uses it).

The words are read only beside a member the catalog governs: 'excluding tests' before no member
stays unread, as does 'only' before anything else.
"""

from __future__ import annotations

import re
from itertools import groupby

from showwork.protocol.reading._literals import fit, may_match
from showwork.protocol.reading._words import Span, may_hold, singular
from showwork.protocol.reading.mentions import Mention

_CUES = (r"\b(excluding|exclude|excluded|except(?:\s+for)?|without|not\s+counting|not\s+including|"
         r"other\s+than|apart\s+from|aside\s+from|but\s+not|leaving\s+out|outside\s+of)")
"""The words that keep a member out."""
CUES = _CUES
"""The same words, for what else a text keeps out (siblings.py: 'excluding cancelled ones')."""
_EXCLUDE = re.compile(_CUES + r"\s+(?:the\s+|any\s+)?$", re.IGNORECASE)
_EXCLUDE_AHEAD = re.compile(_CUES + r"\s+(?P<between>(?:[\w'’-]+\s+){1,4})$", re.IGNORECASE)
"""A cue a few words before the member ('leaving out the regional carriers Envoy'): the words
between describe what is kept out, unless one of them starts another phrase (`_JOINS`)."""
_JOINS = frozenset({"by", "from", "to", "at", "in", "on", "for", "with", "of", "into", "per",
                    "via", "and", "or", "but", "nor", "than", "that", "which", "who", "whose",
                    "when", "where", "while", "as", "is", "are", "was", "were", "be", "been",
                    "had", "has", "have", "did", "do", "does", "will", "would", "can", "could",
                    "should", "may", "might", "must", "not", "no"})
"""Words that start another phrase: 'flights without a delay by Delta' keeps Delta in."""
_ALSO = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+|nor\s+)?|\s+(?:and|or|nor)\s+)(?:the\s+)?$",
                   re.IGNORECASE)
"""Between two members kept out ('excluding Delta and United', 'without A, B or C')."""
_ALL_BUT = re.compile(r"\b(?:all|every|any)\s[^,;.?!]{1,40}?\s(but|save)\s+(?:for\s+)?(?:the\s+)?$",
                      re.IGNORECASE)
"""'All stores but Brooklyn', 'every country but India': after a whole, 'but' keeps a member out
(it had been read as the member itself, beside the whole)."""
_CUE_WORDS = ("exclud", "except", "without", "counting", "including", "other", "apart", "aside",
              "but", "leaving", "outside", "save")
"""A word every match of `_EXCLUDE`, `_EXCLUDE_AHEAD` and `_ALL_BUT` holds: a text with none
is not searched for them (most texts keep nothing out)."""
_ONLY_BEFORE = re.compile(r"\bonly\s+(?:the\s+)?$", re.IGNORECASE)
_ONLY_AFTER = re.compile(r"\s*[-,]?\s*only\b", re.IGNORECASE)


Said = tuple[str, Span, str]
"""(words, span, what they were read as): the words a filter used."""


Excluded = tuple[list[Mention], list[Mention], list[Said], list[Said]]


def exclusions(text: str, mentions: list[Mention]) -> Excluded:
    """(the mentions kept, the members kept out, the words that kept them out, the words 'only'
    that a member's filter used). One member named in several dimensions (one span) is kept
    out of each.

    Read once per text and list of mentions (the audit's checks ask of the same text with the
    same kept mentions: the claim's reading, the word account, the kept-out check); each caller
    gets its own lists."""
    kept = _READ.get(text)
    if kept is None or kept[0] is not mentions:
        kept = (mentions, _exclusions(text, mentions))
        if len(_READ) >= MAX_TEXTS:
            _READ.clear()
        _READ[text] = kept
    found = kept[1]
    return list(found[0]), list(found[1]), list(found[2]), list(found[3])


MAX_TEXTS = 1024
"""Texts whose exclusions are kept (`exclusions`); past it, all are let go."""
_READ: dict[str, tuple[list[Mention], Excluded]] = {}
"""Text → (the mentions it was read with, held so that no other list takes their id, and what
was read): a list of mentions is compared by identity (the audit keeps one per text)."""


def _exclusions(text: str, mentions: list[Mention]) -> Excluded:
    members = [m for m in mentions if m.kind == "member"]
    dims = [m for m in mentions if m.kind == "dimension"]
    spans = [list(group) for _span, group in groupby(sorted(members, key=lambda m: m.span),
                                                     key=lambda m: m.span)]
    out: list[Mention] = []
    cues: list[Said] = []
    only: list[Said] = []
    last_out: int | None = None
    cued, alone = may_hold(text, _CUE_WORDS), may_hold(text, ("only",))
    for group in spans:
        span = group[0].span
        start = _before_dimension(text, span[0], dims, group[0].name)
        before = text[:start]
        cue = (_before(_EXCLUDE, text, before) or _ahead(text, before, group[0].name)
               or _before(_ALL_BUT, text, before)) if cued else None
        chained = last_out is not None and _ALSO.fullmatch(text[last_out:start]) is not None
        if cue is not None or chained:
            out += group
            detail = ", ".join(f"{m.name} != {m.member}" for m in group)
            if cue is not None:
                cues.append((cue.group(1), cue.span(1), f"excluding {detail}"))
            last_out = span[1]
            continue
        last_out = None
        if not alone:
            continue
        said = _ONLY_BEFORE.search(before)
        if said is not None:
            only.append(("only", (said.start(), said.start() + 4), _only(group)))
            continue
        after = _after_dimension(text, span[1], dims, group[0].name)
        said = _ONLY_AFTER.match(text, after)
        if said is not None:
            at = said.group(0).lower().index("only")
            only.append(("only", (after + at, after + at + 4), _only(group)))
    kept = [m for m in mentions if m not in out]
    return kept, out, cues, only


def _before(pattern: re.Pattern[str], text: str, before: str) -> re.Match[str] | None:
    """`pattern` searched in `before` (the text up to a member's phrase), only where some cue
    word it needs is there: most members have no cue before them, and each search of a pattern
    that ends at the end of `before` tries every position of it."""
    return fit(pattern, text).search(before) if may_match(pattern, before) else None


def _ahead(text: str, before: str, dimension: str) -> re.Match[str] | None:
    """A cue a few words ahead of a member's phrase, no word between starting another phrase
    (the words between stay to be read, or shown as unread), unless they name the things the
    member's dimension belongs to and their role ('excluding customers in France')."""
    found = _before(_EXCLUDE_AHEAD, text, before)
    if found is None or any(w.lower() in _JOINS for w in found["between"].split()) \
            and not _THOSE.fullmatch(found["between"]) \
            and not _owners(found["between"], dimension):
        return None
    return found


_OWNERS = re.compile(r"(?:the\s+|all\s+|any\s+)?(?P<noun>[a-z]+)\s+(?:from|in|at|of|based\s+in)\s+"
                     r"(?:the\s+)?", re.IGNORECASE)


def _owners(between: str, dimension: str) -> bool:
    """'customers in ', 'the stores from ': the things a member's dimension is an attribute of
    (an entity of its name: `customer__customer_country`), and the member's role, between a
    cue and the member; the cue keeps the member out as it does before the member itself.

    >>> _owners("customers in ", "customer__customer_country"), _owners("flights in ", "origin")
    (True, False)
    """
    said = _OWNERS.fullmatch(between)
    return said is not None and owns(said["noun"], dimension)


def owns(noun: str, dimension: str) -> bool:
    """Whether `noun` names the things `dimension` is an attribute of: an entity of its
    (qualified) name, singular or plural ('customers' of `customer__customer_country`)."""
    return singular(noun.lower()) in dimension.split("__")[:-1]


_THOSE = re.compile(r"(?:the\s+)?(?:ones?|those|them)\s+(?:from|to|at|in|on|by|of|out\s+of)\s+"
                    r"(?:the\s+)?", re.IGNORECASE)
"""'excluding the ones from LaGuardia', 'except those at JFK': a pronoun for the things counted
and the member's role, between the cue and the member (no other phrase starts there)."""


def _only(group: list[Mention]) -> str:
    return "only " + ", ".join(f"{m.name} = {m.member}" for m in group)


def _before_dimension(text: str, at: int, dims: list[Mention], name: str) -> int:
    """Where a member's phrase starts, its own dimension's word before it included ('excluding
    the airline Delta')."""
    for d in dims:
        if d.span[1] <= at and not text[d.span[1]:at].strip() and _related(d.name, name):
            return d.span[0]
    return at


def _after_dimension(text: str, at: int, dims: list[Mention], name: str) -> int:
    """Where a member's phrase ends, its own dimension's word after it included ('the JFK
    airport only')."""
    for d in dims:
        if d.span[0] >= at and not text[at:d.span[0]].strip() and _related(d.name, name):
            return d.span[1]
    return at


def _related(dimension: str, member_dimension: str) -> bool:
    """A dimension word that names the member's dimension (the same attribute by another join
    path included: 'store' of 'order__store__store_name')."""
    a, b = dimension.split("__")[-1], member_dimension.split("__")[-1]
    return a == b or a in member_dimension or b in dimension
