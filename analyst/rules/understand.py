"""What a question asks, read against the catalog (not against a list of known questions)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from analyst.rules.dates import find_windows, previous_window
from protocol.catalog_text import MetricNames
from semantic_layer.windows import Window, iso_week

DICTATE = re.compile(
    r"\b(?:ignore (?:all |any |the |your )?(?:previous |prior |above )?instructions|answer (?:with|that)"
    r"|just say|say that|respond with|reply with|the answer is|you must (?:say|report|answer)"
    r"|pretend|claim (?:that|r\d)|report that|regardless of the data|make up)\b")
WHY = re.compile(r"\b(?:why|what (?:drove|caused|explains?|is behind|was behind)|explain|"
                 r"reasons? for|drivers? of|what happened to)\b")
RANK = re.compile(r"\b(?:which|what) (\w+) (?:had|has|have|saw|showed|was|got|drove) (?:the )?"
                  r"(most|highest|largest|biggest|least|lowest|fewest|smallest)\b")
BY = re.compile(r"\b(?:by|per|for each|across|split by|broken down by) (?:the )?"
                r"([a-z][a-z_ ]*?)(?=\b(?: in | on | for | during | last | this | over |,|\?|$))")
GRAINS = {"daily": "day", "day": "day", "days": "day", "weekly": "week", "week": "week",
          "weeks": "week", "monthly": "month", "month": "month", "months": "month",
          "hourly": "hour", "hour": "hour", "hours": "hour", "quarterly": "quarter",
          "quarter": "quarter", "yearly": "year", "annual": "year", "minute": "minute"}
COUNTRIES = {"united states": "US", "usa": "US", "us": "US", "america": "US", "uk": "GB",
             "united kingdom": "GB", "britain": "GB", "great britain": "GB", "germany": "DE",
             "india": "IN", "brazil": "BR", "france": "FR", "japan": "JP", "canada": "CA",
             "spain": "ES", "italy": "IT", "mexico": "MX", "australia": "AU", "china": "CN"}
DATA_WORDS = re.compile(r"\b(?:how many|how much|what (?:was|were|is|are)|number of|count|rate|"
                        r"average|total|sum|change|drop|rise|trend|metric|users?|revenue)\b")
PERSON_ATTRIBUTES = ("age", "gender", "city", "income", "device model", "os version", "language",
                     "region", "state", "zip code", "browser", "app version", "hour", "cohort")


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


def understand(text: str, catalog: dict[str, Any]) -> Understood:
    q = Understood(text)
    lowered = " ".join(text.lower().split())
    if DICTATE.search(lowered):
        q.intent, q.refusal = "refuse", ("The question tries to dictate the answer; I report only "
                                         "what governed queries return.")
        return q
    names = MetricNames(catalog)
    q.metrics = _ordered(names, lowered)
    masked = _mask(names, lowered)
    composition = re.search(r"\bmetric(\d+) (?:per|divided by|over|for each|to) metric(\d+)\b",
                            masked)
    if composition:
        spans = names.spans(lowered)
        a, b = spans[int(composition.group(1))][2], spans[int(composition.group(2))][2]
        q.metrics = [f"{a} / {b}"]
    _dimensions(q, masked, catalog)
    _grain(q, masked)
    _windows(q, lowered, catalog)
    if WHY.search(lowered):
        q.intent = "diagnostic"
    elif q.rank:
        q.intent = "breakdown"
    elif q.previous is not None:
        q.intent = "compare"
    if re.search(r"\b(?:summed|sum of|sum up|add(?:ed)? up|added together)\b", lowered):
        q.aggregate = "sum"
        q.grain = q.grain or "week"
    if not q.metrics:
        phrase = _metric_phrase(lowered)
        if phrase and DATA_WORDS.search(lowered):
            q.unknown_metric = phrase
        else:
            q.intent, q.refusal = "refuse", ("This is not a question about the governed data: it "
                                             "names no governed metric.")
    return q


def _mask(names: MetricNames, lowered: str) -> str:
    """The text with each metric phrase replaced by metricN, so 'per user' in 'days per user'
    is not read as a dimension."""
    out, last = [], 0
    for i, (start, end, _m) in enumerate(names.spans(lowered)):
        out += [lowered[last:start], f"metric{i}"]
        last = end
    return "".join(out) + lowered[last:]


def _ordered(names: MetricNames, text: str) -> list[str]:
    found = names.mentioned(text)
    return sorted(found, key=lambda m: text.lower().find(found[m].lower()))


def _dimensions(q: Understood, lowered: str, catalog: dict[str, Any]) -> None:
    dims = catalog["dimensions"]
    labels = {d: (info.get("label") or d).lower() for d, info in dims.items()}
    m = RANK.search(lowered)
    if m:
        q.rank = "least" if m.group(2) in ("least", "lowest", "fewest", "smallest") else "most"
        q.group_by.append(_dimension_name(m.group(1), labels))
    members = {m.lower().replace("_", " ") for info in dims.values()
               for m in info.get("members") or []}
    for m in BY.finditer(lowered):
        word = m.group(1).strip()
        if word in GRAINS:
            continue
        bare = re.sub(r"\s+(?:users?|accounts?|customers?|signups?)$", "", word)
        if bare in members or bare in COUNTRIES:
            continue  # "by web users" names a member (a filter), not a dimension
        if word.startswith("metric"):
            continue  # a masked metric phrase ("days per user"), not a dimension
        name = _dimension_name(word, labels)
        if name not in q.group_by:
            q.group_by.append(name)
    for attr in PERSON_ATTRIBUTES:
        if re.search(rf"\b(?:average|mean|median|their|by|per|each) {attr}\b", lowered) and \
                attr not in q.group_by:
            q.group_by.append(attr.replace(" ", "_"))
    _members(q, lowered, dims)


def _dimension_name(word: str, labels: dict[str, str]) -> str:
    word = word.strip().rstrip("s") if word.strip() not in labels else word.strip()
    for name, label in labels.items():
        if word in (name, label, name.replace("_", " "), label.rstrip("s")):
            return name
    return word.replace(" ", "_")


def _members(q: Understood, lowered: str, dims: dict[str, Any]) -> None:
    """Filters from named members ('android users', 'on the plus plan', 'in Germany')."""
    for dim, info in dims.items():
        for member in info.get("members") or []:
            spoken = member.lower().replace("_", " ")
            if dim in q.group_by:
                continue
            if re.search(rf"\b(?:{re.escape(spoken)}|{re.escape(member.lower())})"
                         rf"(?= users| platform| plan| channel| accounts| signups|\b)", lowered) \
                    and (dim != "country" or re.search(rf"\b{member.lower()}\b(?! users)", lowered)
                         and re.search(rf"\b(?:in|from) (?:the )?{member.lower()}\b", lowered)):
                _add_filter(q, dim, member)
    for name, code in COUNTRIES.items():
        if re.search(rf"\b(?:in|from) (?:the )?{name}\b", lowered) and "country" not in q.group_by:
            _add_filter(q, "country", code)
    for dim in ("platform", "plan", "channel"):
        m = re.search(rf"\b(?:the )?([a-z][a-z_-]*) {dim}\b", lowered)
        if m and m.group(1) not in ("which", "what", "each", "every", "a", "per", "by", "the",
                                    "that", "this", "same", "any"):
            value = m.group(1).replace("-", "_")
            if not any(f["dimension"] == dim for f in q.filters):
                _add_filter(q, dim, value)


def _add_filter(q: Understood, dim: str, member: str) -> None:
    for f in q.filters:
        if f["dimension"] == dim:
            if member not in f["values"]:
                f["values"].append(member)
            return
    q.filters.append({"dimension": dim, "op": "in", "values": [member]})


def _grain(q: Understood, masked: str) -> None:
    # run on the masked text, so "weekly value moments" (a metric) is not read as a grain
    m = re.search(r"\b(daily|weekly|monthly|hourly|quarterly|yearly|annual)\b|\b(?:by|per|each|"
                  r"every) (day|week|month|hour|quarter|minute)\b", masked)
    if m:
        q.grain = GRAINS[m.group(1) or m.group(2)]


def _windows(q: Understood, lowered: str, catalog: dict[str, Any]) -> None:
    as_of = dt.date.fromisoformat(catalog["as_of"])
    found = find_windows(lowered, as_of)
    if found.windows:
        first = found.windows[0]
        q.window = first.window
        if found.compare == "explicit":
            q.previous = found.windows[1].window
        elif found.compare == "previous" or WHY.search(lowered):
            q.previous = previous_window(first)
    else:
        q.window = iso_week(as_of - dt.timedelta(days=7))
        q.assumed.append(f"no window named: the last whole week, {q.window}")
        if found.compare or WHY.search(lowered):
            q.previous = Window(q.window.start - dt.timedelta(days=7),
                                q.window.end - dt.timedelta(days=7))


def _metric_phrase(lowered: str) -> str | None:
    m = re.search(r"\b(?:how many|number of|count of|what (?:was|were|is|are) (?:the |our )?"
                  r"(?:average |total |mean )?|the (?:average |total )?)([a-z][a-z ]{2,40}?)"
                  r"(?= did| do| does| in| on| for| during| last| this| by| per| over| of|\?|$)",
                  lowered)
    if not m:
        return None
    words = [w for w in m.group(1).split() if w not in ("our", "the", "we", "a", "an")]
    return "_".join(words) if words else None
