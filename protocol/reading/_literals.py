"""What every match of a pattern holds: a prefilter for patterns searched in many texts.

`may_match(pattern, text)` is False only where `pattern` cannot match in `text`: the text
holds, lower-cased (`lowered`), none of the strings one of which every match holds (`needs`,
read from the pattern's own parse, so no list of words is kept by hand beside it). A reader
skips the search there; everywhere else it searches as before.

`fit(pattern, text)` is the pattern to search a text with: in a `plain` text (ASCII but for
marks such as '→', nothing only Unicode reads as white space) its `ascii_twin`, compiled with
re.ASCII, which finds the same matches without asking Unicode's tables of each character.

`search` and `finditer` also read, where the parse shows them, the strings one of which every
match starts with (`starts`): re finds no such prefix behind a `\\b` or a look-behind, so its
search tries the pattern at every place of the text; here it is tried only where one of them
is written (`places`), and the matches are the same.

>>> may_match(re.compile(r"(?i)\\b(?:rose|fell)\\b"), "Revenue ROSE 4 %")
True
>>> may_match(re.compile(r"(?i)\\b(?:rose|fell)\\b"), "Revenue was 4,120")
False
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Iterator
from typing import Any

_parser: Any = importlib.import_module("re._parser")  # the stdlib's own parse of a pattern
_c: Any = importlib.import_module("re._constants")

Needs = frozenset[str] | None


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """Whether `pattern` may match in `text` (False only where it cannot: the text, lowered,
    holds none of what every match holds)."""
    return _text(text).may_hold(_info(pattern).needs_())


class _Pattern:
    """What the prefilters read of one pattern's parse (its `needs`, its `starts`) and its
    `ascii_twin`, each read once, on first need, and kept with the pattern (`_info`): one
    look-up per search finds all three."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self._starts: tuple[str, ...] | None = None
        self._starts_read = False
        self._needs: Needs = None
        self._needs_read = False
        self._twin: re.Pattern[str] | None = None

    def starts_(self) -> tuple[str, ...] | None:
        """`starts(pattern)` as a tuple, sorted (iterated faster than a set), read on first
        need; None: none known."""
        if not self._starts_read:
            found = starts(self.pattern)
            self._starts = None if found is None else tuple(sorted(found))
            self._starts_read = True
        return self._starts

    def needs_(self) -> Needs:
        """`needs(pattern)`, read on first need."""
        if not self._needs_read:
            self._needs = needs(self.pattern)
            self._needs_read = True
        return self._needs

    def twin(self) -> re.Pattern[str]:
        """`ascii_twin(pattern)`, compiled on first need."""
        if self._twin is None:
            self._twin = _twin_of(self.pattern)
        return self._twin


_INFO: dict[int, _Pattern] = {}
"""Each pattern's `_Pattern`, by the pattern's id: re keeps no pattern's hash (each hash reads
the pattern's whole compiled code), and the entry holds its pattern, so no other pattern takes
that id while it is kept. Module patterns, a few hundred: never let go."""


def _info(pattern: re.Pattern[str]) -> _Pattern:
    found = _INFO.get(id(pattern))
    if found is None or found.pattern is not pattern:
        found = _INFO[id(pattern)] = _Pattern(pattern)
    return found


class _Text:
    """One text as the prefilters read it, for every pattern searched in it: its lower case
    (`lowered`) and whether it is `plain`, each found once, on first need. An audit searches
    each of its texts for a few hundred patterns, in turns with its other texts (and slices of
    them): kept by the text (`_text`), not only the one read last."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._low: str | None = None
        self._plain = -1
        """`plain(text)` once read (0 or 1), -1 before."""

    def low(self) -> str:
        """`lowered(text)`."""
        if self._low is None:
            text = self.text
            self._low = text.lower() if text.isascii() else text.translate(_FOLDS).lower()
        return self._low

    def is_plain(self) -> bool:
        if self._plain < 0:
            self._plain = int(_is_plain(self.text))
        return self._plain == 1

    def may_hold(self, found: Needs) -> bool:
        """Whether the lower case holds one of `found` (True where nothing is known)."""
        if found is None:
            return True
        low = self.low()
        for w in found:  # noqa: SIM110 - a loop, not any(): no generator per search
            if w in low:
                return True
        return False


_TEXTS: dict[str, _Text] = {}
"""The texts read lately (`_text`), by the text: the readers of an answer's few texts (and of
the slices some of them search) ask of each in turn. Let go past MAX_TEXTS and when an audit's
readings are let go (`forget`)."""
_LAST_TEXT: list[_Text] = []
"""The text asked of last (one cell): most searches ask of the text the one before asked of."""
MAX_TEXTS = 256
"""Texts `_TEXTS` keeps: an answer's texts and slices are a few dozen."""


def _text(text: str) -> _Text:
    if _LAST_TEXT and _LAST_TEXT[0].text is text:
        return _LAST_TEXT[0]
    found = _TEXTS.get(text)
    if found is None:
        if len(_TEXTS) >= MAX_TEXTS:
            _TEXTS.clear()
        found = _TEXTS[text] = _Text(text)
    if _LAST_TEXT:
        _LAST_TEXT[0] = found
    else:
        _LAST_TEXT.append(found)
    return found


def forget() -> None:
    """Let go of the texts read (`bench audit`'s fresh pass reads every answer's texts
    afresh)."""
    _TEXTS.clear()
    _LAST_TEXT.clear()


_FOLDS = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
"""The letters outside ASCII that re's IGNORECASE matches to an ASCII letter ('İ', 'ı', 'ſ',
Kelvin's 'K': a search of all of Unicode for each ASCII letter finds these four), each as the
letter it matches. Lower-cased, 'İ' would be an 'i' and a combining dot, which parts the
letters of a literal ('İs' matches 'is')."""


def lowered(text: str) -> str:
    """`text` lower-cased as the prefilters compare (each letter IGNORECASE matches to an
    ASCII letter as that letter: `_FOLDS`), once per text for the prefilters that ask of it in
    turn (`may_match` for pattern after pattern, `_words.may_hold`, the number masks): a
    literal run of a pattern that matches in `text` is in it, in lower case."""
    return _text(text).low()


def needs(pattern: re.Pattern[str]) -> Needs:
    """Lower-case ASCII strings one of which every match of `pattern` holds (lower-cased), or
    None when its parse shows none (a pattern that may match without a literal: '\\d+')."""
    return _sequence(list(_parser.parse(pattern.pattern, pattern.flags).data))


def _sequence(items: list[tuple[Any, Any]]) -> Needs:
    """Of a sequence, each run of literal characters is held, and each part's needs: the most
    telling of them (its shortest string the longest)."""
    found: list[frozenset[str]] = []
    run = ""
    for op, arg in items:
        if op is _c.LITERAL and arg < 128:
            run += chr(arg).lower()
            continue
        if run:  # anything else ends a run: a non-ASCII letter may match an ASCII one
            found.append(frozenset((run,)))
            run = ""
        part = _part(op, arg)
        if part is not None:
            found.append(part)
    if run:
        found.append(frozenset((run,)))
    return max(found, key=lambda s: (min(map(len, s)), -len(s))) if found else None


def _part(op: Any, arg: Any) -> Needs:
    if op is _c.SUBPATTERN:
        return _sequence(list(arg[-1]))
    if op is _c.ATOMIC_GROUP:
        return _sequence(list(arg))
    if op is _c.BRANCH:  # one branch matches: it holds one of its own needs
        out: set[str] = set()
        for branch in arg[1]:
            held = _sequence(list(branch))
            if held is None:
                return None
            out |= held
        return frozenset(out)
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        low, _high, item = arg
        return _sequence(list(item)) if low >= 1 else None
    return None  # a class, a category, an anchor, a look-around, a back-reference: nothing held


def search(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """`pattern.search(text)`, tried only where a match may start (`places`) when the parse
    shows where, else not searched where it cannot match (`may_match`)."""
    info, read = _info(pattern), _text(text)
    at = _places(info, read)
    fitted = info.twin() if read.is_plain() else pattern
    if at is None:
        return fitted.search(text) if read.may_hold(info.needs_()) else None
    return _first_at(fitted, text, at)


def first(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """`fit(pattern, text).search(text)` (for a caller that prefilters texts its own way),
    tried only where a match may start (`places`) when the parse shows where."""
    info, read = _info(pattern), _text(text)
    at = _places(info, read)
    fitted = info.twin() if read.is_plain() else pattern
    return fitted.search(text) if at is None else _first_at(fitted, text, at)


def _first_at(fitted: re.Pattern[str], text: str, at: list[int]) -> re.Match[str] | None:
    for start in at:
        found = fitted.match(text, start)
        if found is not None:
            return found
    return None


def finditer(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, as `search` finds each match."""
    return iter(matches(pattern, text))


def matches(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """The matches `pattern.finditer(text)` yields, as `search` finds each."""
    info, read = _info(pattern), _text(text)
    at = _places(info, read)
    fitted = info.twin() if read.is_plain() else pattern
    if at is None:
        return list(fitted.finditer(text)) if read.may_hold(info.needs_()) else []
    return tried_at(fitted, text, at)


def scan(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """The matches `pattern.finditer(text)` yields, found with its `fit` (for a caller that
    prefilters texts its own way), tried only where a match may start (`places`) when the
    parse shows where."""
    info, read = _info(pattern), _text(text)
    at = _places(info, read)
    fitted = info.twin() if read.is_plain() else pattern
    return list(fitted.finditer(text)) if at is None else tried_at(fitted, text, at)


def tried_at(pattern: re.Pattern[str], text: str, at: list[int]) -> list[re.Match[str]]:
    """`pattern.finditer(text)` where every match starts at one of `at` (in order): the
    pattern is tried at each, from the end of the match before (finditer's matches do not
    overlap; none is empty where each starts with a string written there)."""
    out: list[re.Match[str]] = []
    end = 0
    for start in at:
        if start >= end:
            found = pattern.match(text, start)
            if found is not None:
                out.append(found)
                end = found.end()
    return out


AT_MOST = 16
"""Places `written_at` lists before it gives up on them: past it the text is searched whole."""


def places(pattern: re.Pattern[str], text: str) -> list[int] | None:
    """Where in `text` a match of `pattern` may start, in order: where one of its `starts` is
    written (lower-cased, as `lowered` compares), none where none is (so no match: `may_match`
    need not ask); None where the parse shows no such strings, where the lower case does not
    keep the text's places, or past `AT_MOST` places."""
    return _places(_info(pattern), _text(text))


def _places(info: _Pattern, read: _Text) -> list[int] | None:
    found = info.starts_()
    if found is None:
        return None
    low = read.low()
    return written_at(low, found) if len(low) == len(read.text) else None


def written_at(text: str, strings: Iterable[str]) -> list[int] | None:
    """Where in `text` one of `strings` is written, in order (none: an empty list); None past
    `AT_MOST` places."""
    at: list[int] = []
    mixed = False  # places of two strings: sorted and made distinct at the end
    for string in strings:
        if string not in text:  # most are not written: `in` is the cheaper question
            continue
        i = text.find(string)
        mixed = mixed or len(at) > 0
        while i >= 0:
            at.append(i)
            i = text.find(string, i + 1)
        if not mixed and len(at) > AT_MOST:
            return None
    if mixed:
        at = sorted(set(at))
    return None if len(at) > AT_MOST else at


def starts(pattern: re.Pattern[str]) -> Needs:
    """Lower-case ASCII strings one of which every match of `pattern` starts with (lower-cased),
    or None where its parse does not show them (a match may start with a class: '\\d+').

    >>> sorted(starts(re.compile(r"(?i)\\b(?:the\\s+)?(?:rose|fell)\\b")))
    ['fell', 'rose', 'the']
    >>> starts(re.compile(r"(?<![\\w.])[0-9]+")) is None
    True
    """
    return _first(list(_parser.parse(pattern.pattern, pattern.flags).data))


_ZERO_WIDTH = (_c.AT, _c.ASSERT, _c.ASSERT_NOT)
"""What matches no character: a match starts where what follows it does."""


def _first(items: list[tuple[Any, Any]]) -> Needs:
    """What a match of a sequence of the parse starts with: its first literal run, past what
    matches no character; of a group, what its own sequence and what follows it starts with;
    of a choice, of each branch; of an optional item, its own and what follows it."""
    for i, (op, arg) in enumerate(items):
        if op in _ZERO_WIDTH:
            continue
        rest = items[i + 1:]
        if op is _c.LITERAL:
            return _run(items[i:])
        if op is _c.IN:  # a class of characters written out ('[.;!?]'): one of them
            return _chars(arg)
        if op is _c.SUBPATTERN:
            return _first(list(arg[-1]) + rest)
        if op is _c.ATOMIC_GROUP:
            return _first(list(arg) + rest)
        if op is _c.BRANCH:
            return _either([list(branch) + rest for branch in arg[1]])
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            low, _high, item = arg
            # a repeated item's run never joins what follows it ('(?:ab)+c' is 'abab' + 'c')
            return _first(list(item)) if low >= 1 else _either([list(item), rest])
        return None  # a class, any character, a back-reference: no string it starts with
    return None  # a sequence that may match nothing: what follows it is not known here


def _either(sequences: list[list[tuple[Any, Any]]]) -> Needs:
    out: set[str] = set()
    for sequence in sequences:
        found = _first(sequence)
        if found is None:
            return None
        out |= found
    return frozenset(out)


def _chars(members: list[tuple[Any, Any]]) -> Needs:
    """The characters of a class that lists ASCII characters only, lower-cased (None for a
    range, a category such as '\\s' or a negated class)."""
    if not all(op is _c.LITERAL and arg < 128 for op, arg in members):
        return None
    return frozenset(chr(arg).lower() for _op, arg in members)


def _run(items: list[tuple[Any, Any]]) -> Needs:
    """The run of ASCII literals a sequence starts with, lower-cased (None when its first
    literal is not ASCII: a letter outside ASCII may match an ASCII one ignoring case)."""
    run = ""
    for op, arg in items:
        if op is not _c.LITERAL or arg >= 128:
            break
        run += chr(arg).lower()
    return frozenset((run,)) if run else None


_FOLDED = frozenset(map(ord, "\u0130\u0131\u017f\u212a"))
"""The letters outside ASCII that IGNORECASE matches to an ASCII letter (`_FOLDS`)."""
_UNICODE_SPACE = re.compile(r"[\x1c-\x1f]")
"""The ASCII characters that are white space (`\\s`) to re only outside re.ASCII."""


def ascii_twin(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`pattern` compiled with re.ASCII, which matches as `pattern` does in a `plain` text (its
    classes, `\\b`, `\\d`, `\\w` and cases all read ASCII there) and compares a character
    without asking Unicode's tables (about a third less time per search); `pattern` itself
    where its parse holds a letter IGNORECASE matches to an ASCII one (`_FOLDED`), which only
    it would match, or where it cannot be compiled so. Compiled once per pattern (`_info`)."""
    return _info(pattern).twin()


def _twin_of(pattern: re.Pattern[str]) -> re.Pattern[str]:
    if pattern.flags & re.ASCII or _folds(pattern):
        return pattern
    try:
        return re.compile(pattern.pattern, (pattern.flags & ~re.UNICODE) | re.ASCII)
    except (ValueError, re.error):  # an inline (?u)
        return pattern


def _folds(pattern: re.Pattern[str]) -> bool:
    """Whether the pattern's parse names a character of `_FOLDED` (as a literal, in a class or
    a range); True where it cannot be parsed."""
    try:
        items = list(_parser.parse(pattern.pattern, pattern.flags).data)
    except (ValueError, re.error):
        return True
    return _names_folded(items)


def _names_folded(items: Any) -> bool:
    """Whether a parse (a SubPattern, or a list or tuple of its items) names a character of
    `_FOLDED`."""
    for item in items:
        op = item[0] if isinstance(item, tuple) and len(item) == 2 else None
        if op is _c.LITERAL or op is _c.NOT_LITERAL:
            found = item[1] in _FOLDED
        elif op is _c.RANGE:
            found = any(item[1][0] <= f <= item[1][1] for f in _FOLDED)
        elif hasattr(item, "data"):
            found = _names_folded(item.data)
        else:
            found = isinstance(item, (tuple, list)) and _names_folded(item)
        if found:
            return True
    return False


def plain(text: str) -> bool:
    """Whether every pattern matches in `text` as its `ascii_twin` does: each character is
    ASCII, or a mark no class, `\\b` or case reads ('→', '—', '≈', '’': not a letter or digit
    of any script, not white space, without a case), and none is one of the ASCII characters
    only Unicode's `\\s` reads as white space (\\x1c to \\x1f). Read once per text."""
    return _text(text).is_plain()


def _is_plain(text: str) -> bool:
    return _UNICODE_SPACE.search(text) is None and (text.isascii() or all(
        c.isascii() or _mark(c) for c in text))


def _mark(c: str) -> bool:
    """A character outside ASCII that re reads alike with re.ASCII and without: no letter,
    digit or number of any script (`\\w`, `\\d`, `\\b`), no white space (`\\s`), no case
    (IGNORECASE: the letters folded onto ASCII are letters)."""
    return not (c.isalnum() or c.isspace()) and c.lower() == c and c.upper() == c


def fit(pattern: re.Pattern[str], text: str) -> re.Pattern[str]:
    """The pattern to search `text` with: its `ascii_twin` where the text is `plain`."""
    return _info(pattern).twin() if _text(text).is_plain() else pattern
