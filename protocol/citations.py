"""The citation grammar (DESIGN.md), parsed by hand so errors point at the offending character.

    citation  := result | premise | statement
    result    := "r" INT [ "[" key "=" member { "," key "=" member } "]" ] ":" METRIC "." FIELD
    member    := BARE | '"' QUOTED '"'      # BARE: letters, digits, _ . - ; QUOTED: any text,
                                            # with \\" and \\\\ escaped
    premise   := "c" INT
    statement := "tree:" METRIC ">" METRIC

>>> parse_citation("r3[platform=ios]:days_per_user.pct_change")
ResultCitation(handle=3, selector=(('platform', 'ios'),), metric='days_per_user', field='pct_change')
>>> parse_citation('r4[store="New York 5th Ave"]:revenue.value').selector
(('store', 'New York 5th Ave'),)
>>> parse_citation("c2")
PremiseCitation(index=2)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

MAX_CITATION = 300
GRAIN_KEYS = ("day", "week", "month", "quarter", "year")
CHANGE_FIELDS = frozenset(("pct_change", "delta", "contribution", "share"))
"""The fields that state a change or its attribution: what a causal claim may blame."""
"""Selector keys that name a time grain: their members are period starts."""
_BARE = re.compile(r"[A-Za-z0-9_.\-]+")
_MONTH_ONLY = re.compile(r"[0-9]{4}-(?:0[1-9]|1[0-2])")


@dataclass(frozen=True)
class ResultCitation:
    handle: int
    """N of rN."""
    selector: tuple[tuple[str, str], ...]
    """Row selector: (key, member) pairs, in the order written."""
    metric: str
    field: str

    def __str__(self) -> str:
        sel = _format_pairs(self.selector)
        return f"r{self.handle}{f'[{sel}]' if sel else ''}:{self.metric}.{self.field}"

    def row_selector(self) -> dict[str, str]:
        """The selector as rows are keyed: a grain member written as a month, `2019-03`, is
        its period start, `2019-03-01`."""
        return {k: period_start(v) if k in GRAIN_KEYS else v for k, v in self.selector}


@dataclass(frozen=True)
class PremiseCitation:
    index: int
    """N of cN."""

    def __str__(self) -> str:
        return f"c{self.index}"


@dataclass(frozen=True)
class StatementCitation:
    parent: str
    child: str

    def __str__(self) -> str:
        return f"tree:{self.parent}>{self.child}"


Citation = ResultCitation | PremiseCitation | StatementCitation


class CitationSyntaxError(ValueError):
    """A citation that does not follow the grammar; `position` is the 0-based offending index."""

    def __init__(self, text: str, position: int, expected: str) -> None:
        self.text, self.position = text, position
        found = _describe(text[position]) if position < len(text) else "the end"
        self.message = (f"{text!r} is not a valid citation: at character {position + 1} found "
                        f"{found}, expected {expected}.")
        super().__init__(self.message)


def _describe(ch: str) -> str:
    if ch.isascii() and ch.isprintable():
        return repr(ch)
    name = unicodedata.name(ch, "unnamed character")
    return f"{ch!r} (U+{ord(ch):04X} {name})"


def format_member(member: str) -> str:
    r"""A member as a citation writes it: bare when it is letters, digits, _ . -; else quoted.

    >>> print(format_member("ios"), format_member('Mel\'s "mocha"'), format_member(""))
    ios "Mel's \"mocha\"" ""
    """
    if _BARE.fullmatch(member):
        return member
    return '"' + member.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_selector(key: dict[str, str]) -> str:
    """A row selector's inside, members quoted where they need it.

    >>> format_selector({"store": "New York 5th Ave", "month": "2019-03-01"})
    'store="New York 5th Ave",month=2019-03-01'
    """
    return _format_pairs(key.items())


def _format_pairs(pairs: Iterable[tuple[str, Any]]) -> str:
    return ",".join(f"{k}={format_member(str(v))}" for k, v in pairs)


def period_start(member: str) -> str:
    """A period written as its month (`2019-03`) read as its start (`2019-03-01`); anything
    else unchanged.

    >>> period_start("2019-03"), period_start("2019-03-09"), period_start("ios")
    ('2019-03-01', '2019-03-09', 'ios')
    """
    return f"{member}-01" if len(member) == 7 and _MONTH_ONLY.fullmatch(member) else member


def _ident_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


def _member_char(ch: str) -> bool:
    return ch.isascii() and ch.isprintable() and ch not in ',]=[: "\\'


class _Reader:
    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, literal: str, what: str) -> None:
        if not self.text.startswith(literal, self.pos):
            raise CitationSyntaxError(self.text, self._first_diff(literal), what)
        self.pos += len(literal)

    def _first_diff(self, literal: str) -> int:
        for i, ch in enumerate(literal):
            if self.pos + i >= len(self.text) or self.text[self.pos + i] != ch:
                return self.pos + i
        return self.pos

    def take(self, ok, what: str) -> str:
        start = self.pos
        while self.pos < len(self.text) and ok(self.text[self.pos]):
            self.pos += 1
        if self.pos == start:
            raise CitationSyntaxError(self.text, self.pos, what)
        return self.text[start:self.pos]

    def integer(self) -> int:
        digits = self.take(lambda c: c in "0123456789", "an ASCII digit")
        if len(digits) > 1 and digits[0] == "0" or int(digits) == 0:
            raise CitationSyntaxError(self.text, self.pos - len(digits), "a number from 1 up")
        return int(digits)

    def identifier(self, what: str) -> str:
        if not (self.peek().isascii() and (self.peek().isalpha() or self.peek() == "_")):
            raise CitationSyntaxError(self.text, self.pos, what)
        return self.take(_ident_char, what)

    def end(self) -> None:
        if self.pos != len(self.text):
            raise CitationSyntaxError(self.text, self.pos, "the end of the citation")


_FAST_RESULT = re.compile(
    r'r([1-9][0-9]*)(?:\[((?:[A-Za-z_][A-Za-z0-9_]*=[^,\]=\[: "\\]+)'
    r'(?:,[A-Za-z_][A-Za-z0-9_]*=[^,\]=\[: "\\]+)*)\])?:([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)',
    re.ASCII)
_FAST_PREMISE = re.compile(r"c([1-9][0-9]*)", re.ASCII)


def parse_citation(text: str) -> Citation:
    """Parse one citation; raise CitationSyntaxError pointing at the offending character."""
    if isinstance(text, str) and len(text) <= MAX_CITATION:
        return _parse_cached(text)
    return _parse_uncached(text)


@lru_cache(maxsize=65536)
def _parse_cached(text: str) -> Citation:
    # Citations repeat across claims, attempts and repeats; a parse is a pure function of the text.
    return _parse_uncached(text)


def _parse_uncached(text: str) -> Citation:
    # The common, valid forms take a regular-expression fast path; anything else goes through
    # the reader, which finds the offending character.
    if isinstance(text, str) and text.isascii() and text.isprintable():
        m = _FAST_RESULT.fullmatch(text)
        if m:
            sel = tuple(tuple(p.split("=", 1)) for p in m.group(2).split(",")) if m.group(2) else ()
            return ResultCitation(int(m.group(1)), sel, m.group(3), m.group(4))
        m = _FAST_PREMISE.fullmatch(text)
        if m:
            return PremiseCitation(int(m.group(1)))
    return _parse_slow(text)


def _parse_slow(text: str) -> Citation:
    if not isinstance(text, str):
        raise CitationSyntaxError(repr(text), 0, "a string")
    if len(text) > MAX_CITATION:
        raise CitationSyntaxError(text[:40] + "…", 0, f"at most {MAX_CITATION} characters")
    r = _Reader(text)
    first = r.peek()
    if text.startswith("tree:"):
        r.expect("tree:", "'tree:'")
        parent = r.identifier("a metric name")
        r.expect(">", "'>'")
        child = r.identifier("a metric name")
        r.end()
        return StatementCitation(parent, child)
    if first == "c":
        r.pos += 1
        index = r.integer()
        r.end()
        return PremiseCitation(index)
    if first != "r":
        raise CitationSyntaxError(text, 0, "'r' (result), 'c' (premise) or 'tree:' (statement)")
    r.pos += 1
    handle = r.integer()
    selector = _selector(r) if r.peek() == "[" else ()
    r.expect(":", "':' then METRIC.FIELD")
    metric = r.identifier("a metric name")
    r.expect(".", "'.' then a field")
    field = r.identifier("a field name (value, previous, delta, pct_change)")
    r.end()
    return ResultCitation(handle, selector, metric, field)


def _selector(r: _Reader) -> tuple[tuple[str, str], ...]:
    r.expect("[", "'['")
    pairs = []
    while True:
        key = r.identifier("a selector key")
        r.expect("=", "'='")
        pairs.append((key, _quoted(r) if r.peek() == '"' else _bare(r)))
        if r.peek() == ",":
            r.pos += 1
            continue
        r.expect("]", "',' or ']'")
        return tuple(pairs)


_QUOTE_HINT = " (a member with spaces or punctuation is quoted: key=\"New York 5th Ave\")"


def _bare(r: _Reader) -> str:
    member = r.take(_member_char, "a member" + _QUOTE_HINT)
    if r.peek() not in (",", "]"):
        raise CitationSyntaxError(r.text, r.pos, "',' or ']'" + _QUOTE_HINT)
    return member


def _quoted(r: _Reader) -> str:
    """A quoted member: any printable text, with \\" and \\\\ escaped."""
    r.pos += 1
    out: list[str] = []
    while True:
        ch = r.peek()
        if ch == "":
            raise CitationSyntaxError(r.text, r.pos, "'\"' closing the quoted member")
        if ch == '"':
            r.pos += 1
            return "".join(out)
        if ch == "\\":
            r.pos += 1
            if r.peek() not in ('"', "\\"):
                raise CitationSyntaxError(r.text, r.pos, "'\"' or '\\\\' after '\\\\' (the only "
                                          "escapes in a quoted member)")
            ch = r.peek()
        elif not ch.isprintable():
            raise CitationSyntaxError(r.text, r.pos, "a printable character in the quoted member")
        out.append(ch)
        r.pos += 1
