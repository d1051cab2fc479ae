"""A comparison's basis, as the text states it, held to the windows the comparison cites.

"Revenue rose 12 % year over year" says the previous window is a year before the current one;
citing a week-over-week comparison, it states another change than the one cited (the same
number, a different question). The basis words — "week over week", "MoM", "y/y", "than the
previous month", "versus a year earlier", "the same week last year" — name a grain; a cited
comparison's shift is the days from its previous window's start to its current window's start.
A basis that no cited comparison's shift fits is `mislabelled_window`.
"""

from __future__ import annotations

import re
from typing import Any

from showwork.harness.audit.context import AnswerContext, Cited, ClaimContext
from showwork.harness.audit.labels import _compared_windows
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Finding
from showwork.protocol.reading._calendar import BASIS_DAYS
from showwork.protocol.reading._literals import finditer

PROSE = "answer"

SHIFTS = BASIS_DAYS

_GRAIN = r"(week|month|quarter|year)"
_BEFORE = r"(?:than|from|versus|vs\.?|against|compared\s+(?:with|to)|relative\s+to)"
_BASES = (
    re.compile(r"(?i)\b(?P<g1>week|month|quarter|year)[-\s]+(?:over|on)[-\s]+(?P=g1)\b"),
    re.compile(r"\b(?:(?P<w>WoW|WOW)|(?P<m>MoM|MOM)|(?P<q>QoQ|QOQ)|(?P<y>YoY|YOY))\b"),
    re.compile(r"(?i)\b(?:(?P<w>w/w)|(?P<m>m/m)|(?P<q>q/q)|(?P<y>y/y))(?![\w/])"),
    re.compile(rf"(?i)\b{_BEFORE}\s+(?:the\s+)?(?:previous|prior|preceding|last)\s+{_GRAIN}\b"),
    re.compile(rf"(?i)\b{_BEFORE}\s+(?:a|one|the)\s+{_GRAIN}\s+(?:earlier|before|ago)\b"),
    re.compile(r"(?i)\bsame\s+(?:day|week|month|quarter)\s+(?:a\s+year\s+(?:earlier|before|ago)|"
               r"(?:of\s+)?last\s+year|of\s+the\s+(?:previous|prior)\s+year)\b(?P<y>)"),
)
_LETTER = {"w": "week", "m": "month", "q": "quarter", "y": "year"}


def read_basis(text: str) -> tuple[tuple[str, str], ...]:
    """(grain, words) of each comparison basis the text states.

    >>> read_basis("Revenue rose 12 % year over year, and 3 % MoM; versus the prior week, flat.")
    (('year', 'year over year'), ('month', 'MoM'), ('week', 'versus the prior week'))
    """
    found: list[tuple[int, str, str]] = []
    for pattern in _BASES:
        for m in finditer(pattern, text):
            groups = m.groupdict()
            grain = next((_LETTER[k] for k in "wmqy" if groups.get(k) is not None), None)
            if grain is None:
                grain = (groups.get("g1") or next(g for g in m.groups() if g)).lower()
            found.append((m.start(), grain, m.group(0)))
    return tuple((grain, words) for _at, grain, words in sorted(found))


def _held(where: str, text: str, bases: tuple[tuple[str, str], ...],
          cited: list[Cited]) -> list[Finding]:
    """A finding for the first basis no cited comparison's shift fits."""
    compared = [(item, w) for item in cited if (w := _compared_windows(item)) is not None]
    if not compared:
        return []
    shifts = [(current[0] - previous[0]).days for _item, (current, previous) in compared]
    for grain, words in bases:
        low, high = SHIFTS[grain]
        if any(low <= s <= high for s in shifts):
            continue
        shift, (item, ((cs, ce), (ps, pe))) = shifts[0], compared[0]
        fits = [g for g, (lo, hi) in SHIFTS.items() if lo <= shift <= hi]
        said = f"a {fits[0]} over {fits[0]} change" if fits else f"a change {shift} days apart"
        who = "The answer" if where == PROSE else f"Claim {where}"
        return [Finding(
            "mislabelled_window", where,
            f"{who} says {words!r} (the previous window a {grain} before the current), but "
            f"{item.text} compares {cs}..{ce} with {ps}..{pe}: {said}.",
            {"said": grain, "phrase": words, "cited": [f"{cs}..{ce}", f"{ps}..{pe}"],
             "citation": item.text},
            "Name the comparison the citation makes, or cite a comparison with the previous "
            f"{grain}.")]
    return []


@emits("mislabelled_window")
def find_claim_basis(ctx: ClaimContext) -> list[Finding]:
    """A claim's stated basis ('year over year') held to the comparisons it cites."""
    if ctx.rendered or not ctx.cited:
        return []
    bases = ctx.index_.read("basis", ctx.claim.text, read_basis)
    return _held(ctx.cid, ctx.claim.text, bases, list(ctx.cited)) if bases else []


@emits("mislabelled_window")
def find_prose_basis(ctx: AnswerContext) -> list[Finding]:
    """The prose's stated basis held to every comparison the claims cite."""
    text: Any = ctx.answer.answer
    if ctx.answer.status != "answered" or not text or not ctx.claims:
        return []
    bases = ctx.index_.read("basis", text, read_basis)
    if not bases:
        return []
    return _held(PROSE, text, bases, [c for claim in ctx.claims for c in claim.cited])
