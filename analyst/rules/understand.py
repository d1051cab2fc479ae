"""What a question asks, read against the catalog by `protocol.reading` (no demo words here)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from analyst.rules.dates import previous_window, window_of
from protocol.reading import Gap, Reading, read_text
from semantic_layer.windows import Window, iso_week

DICTATE = re.compile(
    r"\b(?:ignore (?:all |any |the |your )?(?:previous |prior |above )?instructions|answer (?:with|that)"
    r"|just say|say that|respond with|reply with|the answer is|you must (?:say|report|answer)"
    r"|pretend|claim (?:that|r\d)|report that|regardless of the data|make up)\b")
DATA_WORDS = re.compile(r"\b(?:how many|how much|what (?:was|were|is|are)|number of|count|rate|"
                        r"average|total|sum|change|drop|rise|trend|metric)\b")
COMPOSITION = re.compile(r"\s+(?:per|divided by|over|for each|to)\s+", re.IGNORECASE)
SUMMED = re.compile(r"\b(?:summed|sum of|sum up|add(?:ed)? up|added together)\b")
BLOCKING = ("member", "qualifier", "period")
"""Gaps the governed layer cannot be asked about: answering anyway would answer another question.
(Unknown metrics, dimensions, grains and members of a named dimension go to the layer, which
refuses them with its own reason.)"""


@dataclass
class Understood:
    """A question as the rules analyst reads it."""

    text: str
    intent: str = "lookup"
    """lookup, compare, breakdown, diagnostic or refuse"""
    metrics: list[str] = field(default_factory=list)
    group_by: list[str] = field(default_factory=list)
    filters: list[dict[str, Any]] = field(default_factory=list)
    grain: str | None = None
    aggregate: str | None = None
    window: Window | None = None
    previous: Window | None = None
    rank: str | None = None
    """most or least, for breakdowns"""
    refusal: str | None = None
    """Refuse without asking the layer (not a data question, or dictating the answer)."""
    unknown_metric: str | None = None
    """A metric-like phrase the catalog does not govern: the layer is asked, and will refuse."""
    assumed: list[str] = field(default_factory=list)
    """Defaults taken (e.g. no window named: the last whole week)."""
    unread: list[str] = field(default_factory=list)
    """Words of the question the catalog cannot read."""


def understand(text: str, catalog: dict[str, Any]) -> Understood:
    q = Understood(text)
    spoken = " ".join(text.split())
    if DICTATE.search(spoken.lower()):
        q.intent, q.refusal = "refuse", ("The question tries to dictate the answer; I report only "
                                         "what governed queries return.")
        return q
    reading = read_text(spoken, catalog)
    q.unread = reading.unread
    q.metrics = _metrics(reading)
    _shape(q, reading)
    _filters(q, reading)
    _windows(q, reading, catalog)
    q.intent = ("diagnostic" if reading.asks.why else "breakdown" if q.rank
                else "compare" if q.previous is not None else "lookup")
    if SUMMED.search(spoken.lower()):
        q.aggregate = "sum"
        q.grain = q.grain or "week"
    _refusals(q, reading, spoken.lower())
    return q


def _metrics(reading: Reading) -> list[str]:
    """Metrics in order of first mention; 'A per B' (a composition) as 'A / B'."""
    found = reading.metrics
    for a, b in zip(found, found[1:], strict=False):
        if COMPOSITION.fullmatch(reading.text[a.span[1]:b.span[0]]):
            return [f"{a.name} / {b.name}"]
    return reading.metric_names()


def _shape(q: Understood, reading: Reading) -> None:
    """Rank, group-by and grain: what shape of result the question asks for."""
    ranking = reading.asks.ranking
    if ranking is not None and ranking.dimension is not None:
        q.rank = ranking.order
    q.group_by = list(reading.asks.breakdown)
    for gap in reading.gaps:
        if gap.kind == "dimension" and gap.term not in q.group_by:
            q.group_by.append(gap.term)  # "the average age of …": the layer names what is missing
    q.grain = reading.asks.grain


def _filters(q: Understood, reading: Reading) -> None:
    """Filters from named members ('android users', 'the plus plan', 'in the US'), and from
    words in a dimension's member slot ('the windows platform'), which the layer will check."""
    for m in reading.members:
        if m.name not in q.group_by and m.member is not None:
            _add_filter(q, m.name, m.member)
    for gap in reading.gaps:
        if gap.kind == "member" and gap.dimension and gap.dimension not in q.group_by \
                and not any(f["dimension"] == gap.dimension for f in q.filters):
            _add_filter(q, gap.dimension, gap.term)


def _add_filter(q: Understood, dim: str, member: str) -> None:
    for f in q.filters:
        if f["dimension"] == dim:
            if member not in f["values"]:
                f["values"].append(member)
            return
    q.filters.append({"dimension": dim, "op": "in", "values": [member]})


def _windows(q: Understood, reading: Reading, catalog: dict[str, Any]) -> None:
    asks = reading.asks
    moved = asks.compare is not None or asks.why or asks.change
    if reading.periods:
        first = reading.periods[0].period
        q.window = window_of(first)
        if asks.compare == "explicit":
            q.previous = window_of(reading.periods[1].period)
        elif moved:
            q.previous = previous_window(first)
        return
    as_of = dt.date.fromisoformat(catalog["as_of"])
    q.window = iso_week(as_of - dt.timedelta(days=7))
    q.assumed.append(f"no window named: the last whole week, {q.window}")
    if moved:
        q.previous = Window(q.window.start - dt.timedelta(days=7),
                            q.window.end - dt.timedelta(days=7))


def _refusals(q: Understood, reading: Reading, lowered: str) -> None:
    """No governed metric (and none asked for), or words the catalog cannot read."""
    if not q.metrics:
        phrase = next((g.term for g in reading.gaps if g.kind == "metric"), None)
        if phrase and DATA_WORDS.search(lowered):
            q.unknown_metric = phrase
        else:
            q.intent, q.refusal = "refuse", ("This is not a question about the governed data: it "
                                             "names no governed metric.")
        return
    blocking = [g for g in reading.gaps if g.kind in BLOCKING and not g.dimension]
    if blocking:
        q.intent, q.refusal = "refuse", _unread_refusal(blocking)


def _unread_refusal(gaps: list[Gap]) -> str:
    said = "; ".join(f"{g.words!r} ({g.reason})" for g in gaps)
    return (f"The question says {said}, which the governed catalog cannot read; answering without "
            "it would answer a different question.")
