"""Comparisons between named members, held to the cited values: `mislabelled_member` when the
rows order them otherwise, `unbacked_comparison` when no cited result holds the other member.

- A comparative between two members of one dimension in a clause ("Brooklyn took more revenue
  than New York 5th Ave", "ios trailed android", "Virgin America's delay exceeded AirTran's")
  states which of the two is larger. It is checked on every field the answer cites of the
  first member's rows that the second member's row of the same result also holds (the change
  fields when the clause speaks of a move or a speed, else the levels): contradicted only when
  every such field orders them the other way.
- Members said to be level ("Brooklyn and O'Hare were level", "ios matched android") are
  within ±2 % of each other (±5 % when hedged: "about the same", "roughly level"), the
  tolerance a move called flat has.
- A rank ("Brooklyn ranked third", "came second", "was the third-largest store") is the
  member's place in a cited breakdown by its dimension, unfiltered on it, ordered the way the
  superlative says (largest first unless it says the lowest, smallest, fewest or least; a bare
  rank follows the order the question ranks by). With no such breakdown cited it is
  `unbacked_comparison`, as a superlative is (comparisons.py).

A comparison of a member the answer never cites is not read: it names no row to hold it to.
"""

from __future__ import annotations

import re
from typing import Any

from showwork.harness.audit.context import AnswerContext, Cited
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.labels import read_words
from showwork.harness.audit.numbers import numeric
from showwork.harness.audit.scope import scope_of
from showwork.harness.audit.types import Finding
from showwork.protocol.numbers import _VALUE_CUES
from showwork.protocol.reading import Mention
from showwork.protocol.reading._literals import search

_GREATER = (r"edged\s+(?:out|past|ahead\s+of)|more|higher|larger|bigger|greater|longer|above|"
            r"ahead(?:\s+of)?|exceed(?:ed|s|ing)?|"
            r"outpac(?:ed|es|ing)|outs(?:old|ells?)|outperform(?:ed|s|ing)?|outgr(?:ew|ows?)|"
            r"beat|topped|faster|surpass(?:ed|es)?|outnumber(?:ed|s)?|"
            r"le(?:d|ads?|ading)(?!\s+to\b)")
_LESSER = (r"less|fewer|lower|smaller|shorter|below|behind|trail(?:ed|s|ing)?|"
           r"lagg(?:ed|ing)|lags?|slower")
_COMPARATIVE = re.compile(rf"(?i)\b(?:(?P<greater>{_GREATER})|(?P<lesser>{_LESSER}))\b")
_NARROW = re.compile(r"(?i)\b(?:narrowly|barely|just|only\s+just|slightly)\s+$")
"""A narrow margin said before the comparing word ('narrowly beat', 'just ahead of'); 'edged
out' says one itself. It states the first member ahead by under NARROW of the second."""
NARROW = 0.10
_THAN_WORDS = re.compile(r"(?i)^(?:more|higher|larger|bigger|greater|longer|faster|less|fewer|"
                         r"lower|smaller|shorter|slower)$")
_HEDGE = r"(?:(?P<hedge>about|roughly|nearly|almost|approximately|broadly|essentially)\s+)?"
_LEVEL_BETWEEN = re.compile(
    rf"(?i)^\s*(?:['’]s\s+)?(?:[\w-]+\s+){{0,4}}?(?:was|is|were|are|stood|ran)?\s*{_HEDGE}"
    r"(?P<level>level\s+with|equal\s+to|tied\s+with|on\s+par\s+with|"
    r"the\s+same(?:\s+[a-z]+){0,3}?\s+as|"
    r"match(?:ed|es)|as\s+(?:much|many|high|large)\s+as)\s*$")
"""'A was level with B', "A's revenue matched B's": the words between the two members."""
_LEVEL_AFTER = re.compile(
    rf"(?i)^\s*(?:were|are|stood|ran|finished|ended|came\s+in|looked|took|had|made|drew|"
    rf"earned|saw|posted|flew|sold|recorded)\s+(?:at\s+)?{_HEDGE}"
    r"(?P<level>level|equal|tied|on\s+par|neck\s+and\s+neck|the\s+same|alike)\b")
"""'A and B were level': the words after the second member."""
_LEVEL_WORD = re.compile(r"(?i)\b(?:level|equal|tied|par|neck|same|alike|match|as\s+(?:much|many|"
                         r"high|large)\s+as)")
_SCALED = re.compile(r"(?i)\b(?:times|twice|thrice|[\w-]*fold|half|halves|thirds?|quarters?|"
                     r"fifths?|sixths?|eighths?|tenths?)\b")
"""A multiplier or a part before 'as many as' ('four times as many as', 'two-thirds as much
as'): a ratio (times.py), not a level."""
_NEGATED = re.compile(r"(?i)\b(?:not|no|never|nor)\b|n['’]t\b")
_SPEED = re.compile(r"(?i)\b(?:faster|slower|rose|risen|rise|rising|grew|grown|growing|fell|"
                    r"fallen|falling|dropped|declined|increased|decreased|climbed|gained|lost|"
                    r"slid|shrank|jumped|surged|sank)\b")
_CHANGE_FIELDS = ("pct_change", "delta")
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
             "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3,
             "4th": 4, "5th": 5, "6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10}
_ORD = (r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|1st|2nd|3rd|"
        r"[4-9]th|10th")
_LOW = {"lowest", "smallest", "fewest", "least", "weakest", "slowest", "shortest"}
_FROM_BOTTOM = r"[\s-]+(?:to|from)[\s-]+(?:the[\s-]+)?(?:last|bottom)\b"
_RANK = re.compile(
    rf"(?i)\b(?:(?:rank(?:ed|s)?|came(?:\s+in)?|comes(?:\s+in)?|finished|placed|stood|was|were|is"
    rf"|are)\s+(?:the\s+)?)?(?P<rev>{_ORD}|next){_FROM_BOTTOM}|\b(?P<pen>penultimate)\b"
    r"|\b(?:rank(?:ed|s)?|came(?:\s+in)?|comes(?:\s+in)?|finished|placed|stood|was|were|is|are)"
    r"\s+(?:(?:dead|the|in)\s+)?(?P<last>last)\b(?!\s+(?:week|month|quarter|year|day|time|period|"
    r"night|of)\b)|\b(?P<rear>brought\s+up\s+the\s+rear)\b"
    rf"|\b(?:(?:rank(?:ed|s)?|came(?:\s+in)?|comes(?:\s+in)?|finished|placed|stood)\s+"
    rf"(?:as\s+)?(?:the\s+)?(?:number\s+)?(?P<verb>{_ORD})\b(?!{_FROM_BOTTOM})(?!\s*[-–]?\s*(?:quarter|half|"
    rf"week|month|day|year|time|period))|(?P<ordinal>{_ORD})(?:\s+|-)(?P<sup>largest|biggest|"
    rf"highest|greatest|most|strongest|longest|lowest|smallest|fewest|least|weakest|slowest|"
    rf"shortest)\b|\bin\s+(?P<place>{_ORD})\s+place\b|\b(?:was|is|were|are)\s+(?:the\s+)?"
    rf"(?P<bare>{_ORD})(?=\s*(?:[,.;:)]|$|\s+(?:among|of|by|in|on|with|for|overall|place|"
    rf"again)\b)))")
"""A rank: 'ranked third', 'came in second', 'the third-largest', 'in second place', 'was
third'; from the bottom: 'second to last', 'next to last', 'penultimate', 'came in last',
'brought up the rear'."""


def _ordinal(m: re.Match[str]) -> str:
    if m.group("last") or m.group("rear"):
        return "first"
    if m.group("pen") or (m.group("rev") or "").lower() == "next":
        return "second"
    return m.group("rev") or m.group("verb") or m.group("ordinal") or m.group("place") or \
        m.group("bare") or ""


def _from_bottom(m: re.Match[str]) -> bool:
    return bool(m.group("rev") or m.group("pen") or m.group("last") or m.group("rear"))


_CLAUSE = re.compile(r"[^.;!?]+")


def find_pairs(ctx: AnswerContext) -> list[Finding]:
    """Comparatives, levels and ranks between named members, on the prose and every claim."""
    cited = [c for claim in ctx.claims for c in claim.cited]
    if not cited:
        return []
    texts = [("answer", ctx.answer.answer or "")] + [(c.cid, c.claim.text) for c in ctx.claims]
    out: list[Finding] = []
    for where, text in texts:
        for said in _said(ctx.index_, "claim" if where != "answer" else "prose", text):
            found = said.check(ctx, cited, where)
            if found is not None:
                out.append(found)
                break
    return out


class _Rank:
    """'Brooklyn ranked third', 'the third-largest store was Brooklyn', as read."""

    __slots__ = ("phrase", "ordinal", "place", "low", "subjects", "from_bottom")

    def __init__(self, phrase: str, ordinal: str, low: bool | None,
                 subjects: tuple[Mention, ...], from_bottom: bool = False) -> None:
        self.phrase = phrase
        self.ordinal = ordinal
        self.place = _ORDINALS[ordinal.lower()]
        self.low = low
        """Lowest first (the superlative says so), or None for a bare rank (the question's
        order)."""
        self.subjects = subjects
        self.from_bottom = from_bottom
        """Counted from the other end ('second to last', 'came in last')."""
        """The member named, as each dimension it may be a member of."""

    @property
    def said_as(self) -> str:
        """The place as a finding quotes it: 'third', or 'second to last' as written."""
        return repr(self.phrase) if self.from_bottom else self.ordinal

    def check(self, ctx: AnswerContext, cited: list[Cited], where: str) -> Finding | None:
        return _rank(ctx, cited, where, self)


class _Pair:
    """Two members compared ('A took more than B') or said to be level, as read."""

    __slots__ = ("a", "b", "stated", "level", "hedged", "speed", "words", "narrow")

    def __init__(self, a: Mention, b: Mention, stated: str, level: str, hedged: bool,
                 speed: bool, words: tuple[tuple[int, int], ...], narrow: bool = False) -> None:
        self.a, self.b = a, b
        self.narrow = narrow
        """A narrow margin is said ('edged out', 'narrowly beat'): within NARROW."""
        self.words = words
        """The spans of the comparing words ('more', 'level with', 'about the same')."""
        self.stated = stated
        """'greater' or 'lesser' of a, or '' for a level."""
        self.level = level
        """The level's words ('level with', 'matched'), or ''."""
        self.hedged = hedged
        self.speed = speed
        """Of moves: the clause speaks of a change or a speed ('rose more', 'grew faster')."""

    def check(self, ctx: AnswerContext, cited: list[Cited], where: str) -> Finding | None:
        if self.level:
            return _level(ctx, cited, where, self.a, self.b, self.level, self.hedged,
                          self.speed)
        return _comparative(ctx, cited, where, self.a, self.b, self.stated, self.speed,
                            self.narrow)


Said = _Rank | _Pair


def _said(index: CatalogIndex, kind: str, text: str) -> tuple[Said, ...]:
    """What the text compares, read once per catalog for each text: the audit then holds it to
    each answer's citations."""
    return index.read("pairs-" + kind, text, lambda t: _said_in(index, kind, t))


def _said_in(index: CatalogIndex, kind: str, text: str) -> tuple[Said, ...]:
    members = read_words(index, kind, text).members  # read of every text already (labels.py)
    if not members:
        return ()
    if search(_COMPARATIVE, text) is None and search(_RANK, text) is None and \
            search(_LEVEL_WORD, text) is None:
        return ()
    out: list[Said] = []
    for start, end in _clauses(text, members):
        inside = [m for m in members if start <= m.span[0] < end]
        if inside:
            out += _in_clause(text, start, end, inside)
    return tuple(out)


def _clauses(text: str, members: tuple[Mention, ...]) -> list[tuple[int, int]]:
    """The text's clauses, where a stop inside a member's name ('Delta Air Lines Inc.') ends
    none."""
    names = [m.span for m in members]
    out, start = [], 0
    for stop in _STOP.finditer(text):
        if any(a <= stop.start() < b for a, b in names):
            continue
        out.append((start, stop.start()))
        start = stop.end()
    if start < len(text):
        out.append((start, len(text)))
    return [c for c in out if c[1] > c[0]]


_STOP = re.compile(r"[.;!?](?=\s|$)")


def _in_clause(text: str, start: int, end: int, inside: list[Mention]) -> list[Said]:
    """The ranks the clause states, then the comparison of the first two members of one
    dimension it names."""
    out: list[Said] = []
    for m in _RANK.finditer(text, start, end):
        sup = (m.group("sup") or "").lower()
        before = [x for x in inside if x.span[1] <= m.start()]
        after = [x for x in inside if x.span[0] >= m.end()]
        near = before[-1] if before else after[0] if sup and after else None
        if near is not None:
            out.append(_Rank(m.group(0), _ordinal(m), (sup in _LOW) if sup else None,
                             tuple(x for x in inside if x.span == near.span), _from_bottom(m)))
    pair = _pair(inside)
    if pair is None:
        return out
    a, b = pair
    between = text[a.span[1]:b.span[0]]
    speed = _SPEED.search(text, start, end) is not None
    if len(between.split()) > 10 or _NEGATED.search(between):
        return out  # far apart, or negated
    level, at = _LEVEL_BETWEEN.match(between), a.span[1]
    if level is None and _AND.fullmatch(between):
        level, at = _LEVEL_AFTER.match(text[b.span[1]:end]), b.span[1]
    if level is not None and not _DIGIT.search(between) and not _SCALED.search(between):
        words = tuple((at + x, at + y) for x, y in (level.span("hedge"), level.span("level"))
                      if x >= 0)
        first = min(x for x, _ in (level.span("hedge"), level.span("level")) if x >= 0)
        verb = _VERB_BEFORE.search(text, at, at + first)
        if verb is not None and verb.group(1).lower() in _VALUE_CUES:  # 'took roughly the same'
            words += (verb.span(1),)
        out.append(_Pair(a, b, "", level.group("level"), bool(level.group("hedge")), speed,
                         words))
        return out
    summed = _SUMMED_AFTER.match(text, b.span[1], end)
    if summed is not None and any(b.span[1] < x.span[0] and x.span[1] <= summed.end()
                                  and x.name == b.name for x in inside):
        return out  # 'more than B and C combined': a sum on the other side (combined.py)
    found = _stated(between)
    if found is not None and not _DIGIT.search(between, found[1][1]):
        # a number after the comparing word is what it compares with (a bound, read
        # elsewhere: 'A took more than 200, like B'); one before it is A's own ('A took
        # 7,000 in W16, ahead of B')
        stated, (x, y) = found
        words = ((a.span[1] + x, a.span[1] + y),)
        verb = _VERB_BEFORE.search(between, 0, x)
        if verb is not None and verb.group(1).lower() in _VALUE_CUES:  # 'took more … than'
            words += ((a.span[1] + verb.start(1), a.span[1] + verb.end(1)),)
        narrow = _NARROW.search(between, 0, x)
        if narrow is not None:  # 'narrowly beat'
            words += ((a.span[1] + narrow.start(), a.span[1] + narrow.end()),)
        edged = between[x:y].lower().startswith("edged")
        out.append(_Pair(a, b, stated, "", False, speed, words, edged or narrow is not None))
    return out


_DIGIT = re.compile(r"[0-9]")
_AND = re.compile(r"(?i)\s*(?:'s\s+)?(?:and|&)\s+")
_VERB_BEFORE = re.compile(r"\b([A-Za-z]+)\s+$")
_SUMMED_AFTER = re.compile(r"(?i)\s*(?:,|and\b|&)[^;]*?\b(?:combined|together|put\s+together)\b")
"""After the second member, more members added up: 'than B and C combined'."""


def _pair(inside: list[Mention]) -> tuple[Mention, Mention] | None:
    """The first two members of one dimension the clause names, in order."""
    for i, a in enumerate(inside):
        for b in inside[i + 1:]:
            if b.name == a.name and b.member != a.member:
                return a, b
    return None


def _stated(between: str) -> tuple[str, tuple[int, int]] | None:
    """'greater' or 'lesser': what the words between two members say of the first, when they
    compare them ('took more revenue than', 'trailed', "'s delay exceeded"), with the
    comparing word's span in `between`; None otherwise."""
    found = list(_COMPARATIVE.finditer(between))
    if len(found) != 1:
        return None
    m = found[0]
    if _THAN_WORDS.match(m.group(0)) and not re.search(r"(?i)\bthan\b", between[m.end():]):
        return None  # 'more orders, like Brooklyn': no comparison with the second member
    return "greater" if m.group("greater") else "lesser", m.span()


def _values(ctx: AnswerContext, cited: list[Cited], a: Mention, b: Mention, speed: bool
            ) -> list[tuple[str, str, Any, Any]]:
    """(metric, field, a's value, b's value) for each field the answer cites of a's rows that
    b's row of the same result (the rest of its key the same) holds."""
    out: list[tuple[str, str, Any, Any]] = []
    seen: set[tuple[int, str, str, tuple[tuple[str, str], ...]]] = set()
    for item in cited:
        key = item.row.key
        if key.get(a.name) != a.member:
            continue
        field = item.citation.field
        if (field in _CHANGE_FIELDS) != speed:
            continue
        other = {**key, a.name: b.member or ""}
        row = next((r for r in item.result.rows if r.key == other), None)
        if row is None:
            continue
        mark = (item.citation.handle, item.metric, field, tuple(sorted(key.items())))
        if mark in seen:
            continue
        seen.add(mark)
        va = (item.row.values.get(item.metric) or {}).get(field)
        vb = (row.values.get(item.metric) or {}).get(field)
        if numeric(va) and numeric(vb):
            out.append((item.metric, field, va, vb))
    return out or _apart(ctx, cited, a, b, speed)


def _apart(ctx: AnswerContext, cited: list[Cited], a: Mention, b: Mention, speed: bool
           ) -> list[tuple[str, str, Any, Any]]:
    """(metric, field, a's value, b's value) for each cited field of a's that b's cited value
    of another result states over the same window, its rows keyed alike but for the
    dimension ('Revenue at Brooklyn Heights was 12,345' from a result filtered to it, beside
    Brooklyn's row of a breakdown by store, the same week)."""
    def of(item: Cited, m: Mention) -> bool:
        return item.row.key.get(m.name) == m.member or (
            ctx.evidence.filters(item.citation.handle) or {}).get(m.name) == frozenset((m.member,))

    def rest(item: Cited) -> tuple[Any, ...]:
        return (item.metric, item.citation.field, tuple(
            str(cov.get("requested")) for cov in item.result.coverage), tuple(sorted(
                (k, v) for k, v in item.row.key.items() if k != a.name)), tuple(sorted(
                    (k, tuple(sorted(v))) for k, v in (ctx.evidence.filters(
                        item.citation.handle) or {}).items() if k != a.name)))
    out = []
    for x in cited:
        if (x.citation.field in _CHANGE_FIELDS) != speed or not of(x, a) or not numeric(x.value):
            continue
        y = next((y for y in cited if of(y, b) and not of(y, a) and rest(y) == rest(x)
                  and numeric(y.value)), None)
        if y is not None:
            out.append((x.metric, x.citation.field, x.value, y.value))
    return out


def _cites(ctx: AnswerContext, cited: list[Cited], m: Mention) -> bool:
    """Some cited row is member `m`'s: by its key, or by its call's filter on that member."""
    return any(item.row.key.get(m.name) == m.member
               or (ctx.evidence.filters(item.citation.handle) or {}).get(m.name)
               == frozenset((m.member,)) for item in cited)


def _held(cited: list[Cited], m: Mention) -> bool:
    """Some cited result holds a row of member `m`."""
    return any(r.key.get(m.name) == m.member for item in cited for r in item.result.rows)


def compared_words(ctx: AnswerContext, kind: str, text: str
                   ) -> list[tuple[tuple[int, int], ...]]:
    """The comparing words of `text` that the pair check holds to cited rows: a comparison or
    a level between two members ('Brooklyn took more than New York 5th Ave') whose first
    member some claim cites, and whose second member's row of the same field the cited
    result holds (checked: mislabelled_member when the rows order them otherwise) or no cited
    result holds (unbacked_comparison). A comparing word between members no claim cites, or
    with nothing between two members ('Only CA and FR had more than one'), is not held: the
    word account leaves it unread. Each pair's words, the comparing word first (then a
    verb that states the value before it: 'took more … than')."""
    cited = [c for claim in ctx.claims for c in claim.cited]
    return [said.words for said in _said(ctx.index_, kind, text)
            if isinstance(said, _Pair) and _checked(ctx, cited, said)]


def _checked(ctx: AnswerContext, cited: list[Cited], pair: _Pair) -> bool:
    a, b = pair.a, pair.b
    if not _cites(ctx, cited, a):
        a, b = b, a
        if not _cites(ctx, cited, a):
            return False
    return bool(_values(ctx, cited, a, b, pair.speed)) or not _held(cited, b)


def _comparative(ctx: AnswerContext, cited: list[Cited], where: str, a: Mention, b: Mention,
                 stated: str, speed: bool, narrow: bool = False) -> Finding | None:
    if not _cites(ctx, cited, a):
        a, b, stated = b, a, "lesser" if stated == "greater" else "greater"
        if not _cites(ctx, cited, a):
            return None
    values = _values(ctx, cited, a, b, speed)
    if not values:
        if _held(cited, b):
            return None  # held, but not as the same field of the same result: not read
        return _unbacked(where, a, b)
    wrong = [v for v in values if not _ordered(v[2], v[3], stated, v[1] in _CHANGE_FIELDS)]
    if len(wrong) < len(values):
        close = [v for v in values if v not in wrong and abs(v[2] - v[3]) < NARROW * abs(v[3])]
        if not narrow or close:
            return None
        metric, field, va, vb = next(v for v in values if v not in wrong)
        return Finding(
            "mislabelled_member", where,
            f"The answer says {a.member} was narrowly ahead of {b.member}, but the cited rows "
            f"of {metric} give {a.member} {va:,.6g} and {b.member} {vb:,.6g} ({field}): "
            f"{abs(va - vb) / abs(vb):.0%} apart, more than the {NARROW:.0%} a narrow margin "
            "states (docs/citations.md).",
            {"said": a.member, "dimension": a.name, "phrase": "narrowly", "cited": [b.member or ""]},
            f"Say how far {a.member} was ahead of {b.member}, as the cited values give.")
    metric, field, va, vb = wrong[0]
    said = "more" if stated == "greater" else "less"
    return Finding(
        "mislabelled_member", where,
        f"The answer says {a.member} had {said} than {b.member}, but the cited rows of "
        f"{metric} give {a.member} {va:,.6g} and {b.member} {vb:,.6g} ({field}).",
        {"said": a.member, "dimension": a.name, "phrase": said, "cited": [b.member or ""]},
        f"Say which of {a.member} and {b.member} the cited values put first, or cite the rows "
        "that order them as stated.")


def _ordered(va: Any, vb: Any, stated: str, change: bool) -> bool:
    """Whether `va` is `stated` ('greater' or 'lesser') than `vb`: of two moves the same way,
    by their size ('fell more than': the larger fall)."""
    if change and va * vb > 0:
        va, vb = abs(va), abs(vb)
    return va > vb if stated == "greater" else va < vb


def _level(ctx: AnswerContext, cited: list[Cited], where: str, a: Mention, b: Mention,
           level: str, hedged: bool, speed: bool) -> Finding | None:
    if not _cites(ctx, cited, a):
        a, b = b, a
        if not _cites(ctx, cited, a):
            return None
    values = _values(ctx, cited, a, b, speed)
    if not values:
        return None if _held(cited, b) else _unbacked(where, a, b)
    tolerance = 0.05 if hedged else 0.02
    apart = [v for v in values if abs(v[2] - v[3]) > tolerance * max(abs(v[2]), abs(v[3]))]
    if len(apart) < len(values):
        return None
    metric, field, va, vb = apart[0]
    return Finding(
        "mislabelled_member", where,
        f"The answer says {a.member} and {b.member} were {level!r}, but the "
        f"cited rows of {metric} give {va:,.6g} and {vb:,.6g} ({field}): more than "
        f"{tolerance:.0%} apart.",
        {"said": a.member, "dimension": a.name, "phrase": level,
         "cited": [b.member or ""]},
        f"Say which of {a.member} and {b.member} the cited values put first.")


def _unbacked(where: str, a: Mention, b: Mention) -> Finding:
    return Finding(
        "unbacked_comparison", where,
        f"The answer compares {a.member} with {b.member}, but no cited result holds "
        f"{a.name} {b.member}: it was never compared.",
        {"phrase": f"{a.member} / {b.member}", "dimension": a.name},
        f"Query the metric by {a.name} and cite both rows, or say only what the cited members "
        "show.")


def _rank(ctx: AnswerContext, cited: list[Cited], where: str, said: _Rank) -> Finding | None:
    # a member of two dimensions ('Brooklyn' a store and a city) is read as the one cited
    subject = next((x for x in said.subjects if _cites(ctx, cited, x)), said.subjects[0])
    place = said.place
    # from the bottom ('came in last', 'second to last') is from the lowest value up, whatever
    # order the question ranked in ('SkyWest came dead last' of the four with the fewest)
    low = True if said.from_bottom else said.low if said.low is not None else _ranks_lowest(ctx)
    board = _board(ctx, cited, subject.name)
    if board is None:
        if place == 1 and not said.from_bottom:
            return None  # 'first' alone is the superlative's (comparisons.py)
        return Finding(
            "unbacked_comparison", where,
            f"The answer ranks {subject.member} {said.said_as}, but no cited result compares "
            f"every {subject.name}: the other members were never queried.",
            {"phrase": said.phrase, "dimension": subject.name},
            f"Query the metric by {subject.name} and cite that result, or say only what the "
            "cited members show.")
    metric, field, values = board
    if subject.member not in values or place > len(values):
        return None
    own = values[subject.member]
    ahead = [k for k, v in values.items() if (v < own if low else v > own)]
    tied = [k for k, v in values.items() if v == own]
    if len(ahead) + 1 <= place <= len(ahead) + len(tied):
        return None
    order = sorted(values, key=lambda k: values[k], reverse=not low)
    listed = "; ".join(f"{k} {values[k]:,.6g}" for k in order[:max(place, len(ahead) + 1)])
    end = " from the bottom" if said.from_bottom else ""
    return Finding(
        "mislabelled_member", where,
        f"The answer ranks {subject.member} {said.said_as} of {subject.name}, but the cited "
        f"rows of {metric} ({field}) put it {_place(len(ahead) + 1)}{end}: {listed}.",
        {"said": subject.member, "dimension": subject.name, "phrase": said.phrase,
         "cited": [order[place - 1]]},
        f"Name {order[place - 1]}, the member the cited values put there, or the place they "
        f"give {subject.member}.")


def _place(n: int) -> str:
    return next((k for k, v in _ORDINALS.items() if v == n and k.isalpha()), f"number {n}")


def _ranks_lowest(ctx: AnswerContext) -> bool:
    """A bare rank ('came third') follows the order the question ranks by."""
    question = scope_of(ctx).question
    ranking = question.reading.asks.ranking if question is not None else None
    return ranking is not None and ranking.order == "least"


def _board(ctx: AnswerContext, cited: list[Cited], dimension: str
           ) -> tuple[str, str, dict[str, Any]] | None:
    """(metric, field, member → value) of the first cited result broken down by `dimension`
    alone, unfiltered on it: every member compared."""
    for item in cited:
        result = item.result
        if result.keys != (dimension,) or len(result.rows) < 2 or dimension in (
                ctx.evidence.filters(item.citation.handle) or {}):
            continue
        field = item.citation.field
        values = {str(r.key.get(dimension)): v for r in result.rows
                  if numeric(v := (r.values.get(item.metric) or {}).get(field))}
        if len(values) >= 2:
            return item.metric, field, values
    return None
