"""Word-level helpers shared by the readers: phrase patterns, spans, plurals.

A phrase matches its words in order with any run of spaces, underscores or hyphens between them,
case-insensitively, at word boundaries: "days_per_user", "days per user" and "Days-per-user" are
one phrase; "US" is not found inside "USD".
"""

from __future__ import annotations

import re

from showwork.protocol.reading._literals import lowered

Span = tuple[int, int]

SEP = r"[\s_\-]+"
HEAD = r"(?<![A-Za-z0-9_])"
"""Where a phrase may start: not inside a word."""
_TAIL = r"(?![A-Za-z0-9_])"
_TRAILING_PUNCT = re.compile(r"[^\w\s]+$")
_SEP = re.compile(SEP)
_EDGE_PUNCT = re.compile(r"^[^\w]+|[^\w]+$")
_HYPHEN = re.escape("-")

COMMON_WORDS = frozenset((
    "a", "am", "an", "and", "any", "are", "as", "at", "be", "but", "by", "can", "did", "do", "for",
    "get", "go", "got", "had", "has", "he", "her", "him", "his", "how", "i", "if", "in", "is", "it",
    "its", "let", "may", "me", "my", "new", "no", "nor", "not", "now", "of", "off", "on", "one",
    "or", "our", "out", "own", "per", "put", "say", "see", "she", "so", "the", "to", "too", "two",
    "up", "us", "via", "was", "way", "we", "who", "why", "yes", "yet", "you", "all", "few", "top",
    "low", "end", "ago", "due", "big", "set", "run", "use", "old"))
"""Short English words a member may be spelled as ("in", "us"): such members need their case."""


def norm(text: str, *, fold: bool = True) -> str:
    """The lookup key of a phrase: lower case (unless told not to fold), separators as one
    space, no edge punctuation.

    >>> norm("Days_per-User") == norm("days  per user") == norm("days per user?")
    True
    """
    kept = _NORMS if fold else _CASED_NORMS
    found = kept.get(text)
    if found is None:
        collapsed = _SEP.sub(" ", text.lower() if fold else text).strip()
        found = _EDGE_PUNCT.sub("", collapsed) or collapsed
        if len(kept) >= MAX_NORMS:
            kept.clear()
        kept[text] = found
    return found


MAX_NORMS = 4096
"""Phrases whose keys `norm` keeps (the scanners look up the key of each phrase they match,
and an answer's texts name the same few phrases again and again); past it, all are let go."""
_NORMS: dict[str, str] = {}
_CASED_NORMS: dict[str, str] = {}


def tokens(phrase: str) -> list[str]:
    return [t for t in re.split(r"[\s_]+", phrase.strip()) if t]


def _words(phrase: str) -> list[str]:
    return tokens(_EDGE_PUNCT.sub("", phrase.strip()))


def phrase_pattern(phrase: str, *, before: str = "", sep: str = SEP) -> str | None:
    """A regex for the phrase, to follow HEAD: its words in order, word-bounded at the end;
    punctuation at its edges is optional ("nutellaphone who dis?"). None for no words."""
    words = _words(phrase)
    if not words:
        return None
    trailing = _TRAILING_PUNCT.search(phrase.strip())
    optional = f"(?:{re.escape(trailing.group(0))})?" if trailing else ""
    # a hyphen inside a word is a separator as people write it ('sign-ups', 'sign ups'): `norm`
    # reads both as one key
    return f"{sep.join(re.escape(w).replace(_HYPHEN, SEP) for w in words)}{_TAIL}{optional}{before}"


def first_word(phrase: str) -> str:
    """The word `phrase_pattern(phrase)` starts with, as the pattern spells it: a text that holds
    no copy of it cannot match the pattern ("" for a phrase of no words)."""
    words = _words(phrase)
    return words[0].split("-")[0] if words else ""  # 'sign-ups' is also written 'sign ups'


def may_hold(text: str, words: tuple[str, ...]) -> bool:
    """Whether `text` may hold one of `words` (lower case) as a case-insensitive pattern
    compares: False only for text holding none of them lowered as re's IGNORECASE compares
    (`_literals.lowered`: 'ſ' is an 's', Kelvin's 'K' a 'k'). A reader skips the patterns that
    need one of the words where it is False.

    >>> may_hold("Orders rose 4 %", ("only", "except")), may_hold("ONLY Delta", ("only",))
    (False, True)
    """
    low = lowered(text)
    for w in words:  # noqa: SIM110 - a loop, not any(): no generator per call
        if w in low:
            return True
    return False


def is_case_locked(word: str) -> bool:
    """A member of at most three letters that is also a common English word ("US", "IN")."""
    return len(word) <= 3 and word.isalpha() and word.lower() in COMMON_WORDS


def plural(phrase: str) -> str:
    """The plural of a phrase's last word ("country" → "countries", "store name" → "store names").

    >>> plural("country"), plural("channel"), plural("box")
    ('countries', 'channels', 'boxes')
    """
    if re.search(r"[^aeiou]y$", phrase):
        return phrase[:-1] + "ies"
    if re.search(r"(?:s|x|z|ch|sh)$", phrase):
        return phrase + "es"
    return phrase + "s"


def singular(word: str) -> str:
    """A rough singular of an unknown word ("cities" → "city", "carriers" → "carrier")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def snake(words: str) -> str:
    """Words as a catalog key would spell them ("device model" → "device_model")."""
    return "_".join(re.findall(r"[a-z0-9]+", words.lower()))


def overlaps(span: Span, spans: list[Span] | tuple[Span, ...]) -> bool:
    return any(s < span[1] and span[0] < e for s, e in spans)


def inside(span: Span, spans: list[Span] | tuple[Span, ...]) -> bool:
    return any(s <= span[0] and span[1] <= e for s, e in spans)
