"""Writing answers: measurement claims citing exact fields, listed values, and the argument."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from showwork.protocol.answer import MAX_CITATIONS, MAX_TEXT
from showwork.protocol.citations import format_selector
from showwork.protocol.periods import ISO_RANGE, in_period, period_words
from showwork.protocol.rendered import (
    agree,
    be,
    is_value,
    members,
    moved,
    percent,
    plural,
    say,
    signed,
    subject,
)

__all__ = ["AnswerBuilder", "agree", "be", "cite", "fmt", "is_value", "members", "moved", "percent",
           "plural", "signed", "subject", "unit_of"]


def fmt(value: Any, unit: str | bool | None = None) -> str:
    """A value as a person reads it (protocol/rendered.py); `True` means a fraction."""
    return say(value, "fraction" if unit is True else unit or None)


def people(text: str) -> str:
    """The text with each ISO range `start..end` written as people write a period ('in March
    2013', 'on 8 February 2013', 'the week of 9 March 2026 versus the week of 2 March 2026'): the
    one writer is protocol/periods.py; the ISO range stays in citations and the JSON.

    >>> people("Orders were 2,616 in 2019-03-01..2019-03-31.")
    'Orders were 2,616 in March 2019.'
    >>> people("Flights were 42 in 2013-02-08..2013-02-08.")
    'Flights were 42 on 8 February 2013.'
    >>> people("Orders by month, 2019-03-01..2019-05-31: 2019-03-01 2,616; …")
    'Orders by month from March to May 2019: 2019-03-01 2,616; …'

    A period that heads a list takes its preposition ('in 2013:'), as a bare year or month is
    not a period to a reader ('by airport, 2013' could be a count).
    """
    text = _HEADING.sub(lambda m: f" {in_period(m.group(1), m.group(2))}:", text)
    text = _IN_RANGE.sub(lambda m: in_period(m.group(1), m.group(2)), text)
    return ISO_RANGE.sub(lambda m: period_words(m.group(1), m.group(2)), text)


_IN_RANGE = re.compile(rf"\bin {ISO_RANGE.pattern}")
_HEADING = re.compile(rf", {ISO_RANGE.pattern}:")


def unit_of(catalog: dict[str, Any], metric: str) -> str | None:
    """The metric's governed unit (`usd`, `count`, `fraction`, …), or None."""
    return ((catalog.get("metrics") or {}).get(metric) or {}).get("unit")


@dataclass
class AnswerBuilder:
    """Claims are numbered c1, c2, … in the order they are added."""

    claims_on: bool
    claims: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Sentences every answer ends with: defaults assumed, instructions ignored."""

    def measure(self, text: str, source: str, value: Any, *also: str) -> str:
        """A measurement claim; `also` cites the other fields its text states."""
        self.claims.append({"text": people(text), "kind": "measurement", "sources": [source, *also],
                            "premises": None, "value": value})
        return f"c{len(self.claims)}"

    def argue(self, text: str, premises: list[str], kind: str = "conclusion") -> str:
        self.claims.append({"text": people(text), "kind": kind, "sources": None, "premises": premises,
                            "value": None})
        return f"c{len(self.claims)}"

    def argue_all(self, text: str, premises: list[str], names: list[str],
                  kind: str = "conclusion") -> str:
        """A claim resting on many premises, grouped so no claim cites more than the answer
        shape allows (MAX_CITATIONS): each group a conclusion over the members it covers
        (`names`, one per premise), the claim itself over the groups."""
        while len(premises) > MAX_CITATIONS:
            grouped, named = [], []
            for at in range(0, len(premises), MAX_CITATIONS):
                part, who = premises[at:at + MAX_CITATIONS], names[at:at + MAX_CITATIONS]
                # the group's members, as the answer lists them: words the audit reads ('In
                # the order listed: A through B' was unread, and its 'through' between two
                # week starts read as a window no row covers)
                grouped.append(part[0] if len(part) == 1 else self.argue("; ".join(who), part))
                named.append(who[0] if len(who) == 1 else f"{who[0]}; …; {who[-1]}")
            premises, names = grouped, named
        return self.argue(text, premises, kind)

    def answered(self, text: str, value: Any, driver: str | None = None,
                 values: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The answer; `values` lists the rows of a breakdown, ranking or series."""
        said = " ".join([people(text), *self.notes])  # a note keeps the window as it was asked
        out: dict[str, Any] = {"status": "answered", "answer": said, "value": value,
                               "driver": driver, "refusal_reason": None, "values": values}
        if self.claims_on:
            out["claims"] = self.claims
        return out

    def refused(self, reason: str) -> dict[str, Any]:
        reason = within(reason, MAX_TEXT)
        out: dict[str, Any] = {"status": "refused", "answer": f"I can't answer this: {reason}",
                               "value": None, "driver": None, "refusal_reason": reason,
                               "values": None}
        if self.claims_on:
            out["claims"] = []
        return out


def cite(handle: int | None, metric: str, field_: str, key: dict[str, str] | None = None) -> str:
    """A result citation, its row's members quoted where they need it."""
    if handle is None:
        raise ValueError(f"cannot cite {metric}.{field_}: the call got no handle")
    sel = format_selector(key or {})
    return f"r{handle}{f'[{sel}]' if sel else ''}:{metric}.{field_}"


def within(text: str, limit: int) -> str:
    """The text cut to at most `limit` characters, ending '…' where it was cut: a refusal's
    reason is held to the answer contract's length (protocol/answer.py), what it says first
    kept (the words it could not read come before what the catalog offers).

    >>> within("a, b, c", 5)
    'a, b…'
    """
    if len(text) <= limit:
        return text
    return text[:limit - 1].rstrip(" ,;") + "…"
