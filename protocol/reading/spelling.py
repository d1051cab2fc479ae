"""A misspelled word read as the one metric word or month name it is one slip from; a place
said as an adjective ('Canadian') read as the one member it names.

'Revnue from Scotland', 'cancellatons per month', 'items sold in Febuary': a word the reading
left unread that is one slip (a letter added, dropped, changed, or two neighbours swapped) from
exactly one word of a metric's name, label or synonyms, or of a month's name, and from no other
(the word's own plural or singular, 'cancelations' beside 'cancellation', is no other: a word
is not misspelled toward its other number).
An abbreviation of exactly one such word ('avg' of average, 'temp' of temperature: its first
letter and some of the rest in order) is read so too. The question is read again with that word
in its place, and the word stays in doubt: the
reading says what it was read as, and the answer is never served clean (Reading.doubts). Two
candidates, or none: the word stays unread. A member misspelled ('Germny', 'Brookyln') is not
read so: which member is meant decides whose data answers, so it is refused, naming the closest
member (the question files' `unknown_member`). A place said as an adjective ('Canadian
customers', 'German signups') is read as the one member's name or member synonym its stem begins
('canada', 'germany'), in doubt too. The vocabulary is the catalog's own; nothing here knows a
domain (no list of countries or peoples).
"""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading.countries import country_names
from showwork.protocol.reading.periods import MONTHS

MIN_LETTERS = 5
"""Shorter words are left alone: one slip from too many others ('wich', 'mony')."""
_LETTERS = re.compile(r"[A-Za-z]+")


def corrections(words: list[str], catalog: dict[str, Any]) -> dict[str, str]:
    """Each unread word that is one slip from exactly one word of the vocabulary, or an
    abbreviation of exactly one ('avg', 'temp', 'qty'), to that word."""
    asked = {w for w in words if len(w) >= MIN_LETTERS and w.isalpha()}
    short = {w for w in words if ABBREVIATED <= len(w) < MIN_LETTERS + 1 and w.isalpha()}
    if not asked and not short:
        return {}
    known = vocabulary(catalog)
    out: dict[str, str] = {}
    for word in asked:
        low = word.lower()
        if low in known:
            continue
        near = {k for k in known if abs(len(k) - len(low)) <= 1 and one_slip(low, k)}
        if len(near) > 1:  # 'cancelation': cancellation, not its other number 'cancelations'
            near = {k for k in near if k != f"{low}s" and low != f"{k}s"} or near
        if len(near) == 1:
            out[word] = near.pop()
    for word in short - set(out):
        low = word.lower()
        if low in known:
            continue
        near = {k for k in known if len(k) >= len(low) + 2 and abbreviates(low, k)}
        if len(near) == 1:
            out[word] = near.pop()
    return out


SHORT_FORMS = {"avg": "average", "incl": "including", "excl": "excluding", "approx": "approximately",
               "qty": "quantity", "amt": "amount", "pct": "percent", "pls": "please",
               "plz": "please"}
"""The short forms people write for one English word each, whatever the data ('avg' is average
everywhere): read as that word with no doubt. Short forms that stand for several words ('subs':
subscribers, subscriptions, substitutes) are not here: the catalog's own words decide them,
in doubt (`corrections`)."""

SIGNS = {"%": "percent"}
"""Signs written for one English word where no number stands before them ('% change in
orders', 'by what % did it change'): read as that word, as a short form is."""

ABBREVIATED = 3
"""The fewest letters an abbreviation is read from ('avg'); shorter ones name too much."""


def abbreviates(short: str, word: str) -> bool:
    """`short` is `word` cut short, or its first letter and some of the rest in order.

    >>> abbreviates("avg", "average"), abbreviates("temp", "temperature"), abbreviates("qty", "quantity")
    (True, True, True)
    >>> abbreviates("vg", "average"), abbreviates("tmpx", "temperature")
    (False, False)
    """
    if not short or short[0] != word[0]:
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in short[1:])


_ADJECTIVE = re.compile(r"(?P<stem>[A-Za-z][a-z]{3,}?)(?:ian|ean|an|ese|ish|i)s?")
"""'Canadian', 'Mexican', 'Chinese', 'British': a word with an adjective's ending, capitalised
or not ('canadian customers' is written so as often)."""


def places_said_as_adjectives(words: list[str], catalog: dict[str, Any]) -> dict[str, str]:
    """'Canadian' to 'canada': each capitalised word with an adjective's ending whose stem begins
    exactly one member's name or member synonym (one word, at most three letters past the stem;
    'Scottish': a stem's doubled last letter once), of every dimension; none or several: left
    alone."""
    names = {w.lower() for t in _place_names(catalog)
             if " " not in t.strip() for w in _LETTERS.findall(t) if len(w) >= MIN_LETTERS}
    out: dict[str, str] = {}
    for word in set(words):
        said = _ADJECTIVE.fullmatch(word)
        if said is None:
            continue
        stem = said["stem"].lower()
        near = {n for n in names if n.startswith(stem) and len(n) - len(stem) <= 3}
        if not near and stem[-1] == stem[-2]:  # 'Scottish': the stem's last letter doubled
            near = {n for n in names if n.startswith(stem[:-1]) and len(n) - len(stem) <= 3}
        if len(near) == 1:
            out[word] = near.pop()
    return out


def _place_names(catalog: dict[str, Any]) -> list[str]:
    """Each member's name and member synonym, and the standard's names of the countries a
    dimension keeps as ISO 3166 codes (countries.py: 'Mexico' of MX), which the reader reads."""
    out: list[str] = []
    for name, info in (catalog.get("dimensions") or {}).items():
        members = tuple(info.get("members") or ())
        out += [*(str(m) for m in members), *(str(s) for s in (info.get("member_synonyms") or {}))]
        out += [n for n, _code in country_names(name, info.get("label"), members)]
    return out


def vocabulary(catalog: dict[str, Any]) -> frozenset[str]:
    """The words the catalog uses for its metrics, and the months' names, lower case, of
    MIN_LETTERS letters or more."""
    texts: list[str] = [name for name in MONTHS if len(name) > 4]
    for name, info in (catalog.get("metrics") or {}).items():
        texts += [name.replace("_", " "), str(info.get("label") or ""),
                  *(str(s) for s in info.get("synonyms") or ())]
    return frozenset(w.lower() for t in texts for w in _LETTERS.findall(t)
                     if len(w) >= MIN_LETTERS)


def one_slip(a: str, b: str) -> bool:
    """`a` and `b` differ by one letter added, dropped or changed, or two neighbours swapped.

    >>> one_slip("revnue", "revenue"), one_slip("feburary", "february"), one_slip("ab", "ab")
    (True, True, False)
    """
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    if len(long_) - len(short) != 1:
        return False
    i = next((i for i in range(len(short)) if short[i] != long_[i]), len(short))
    return short[i:] == long_[i + 1:]
