"""Seeded finding faults, for the fault corpus and `noisy`: what a careless model says or asks.

Label faults edit one claim's text so it names what the claim does not cite: a neighbouring
member or period, another metric (for a causal claim, another factor of its edge). Scope faults
rewrite the question into a neighbouring one (another metric, window or member, or a plain level
where a change, ranking, breakdown or series was asked), for an analyst to answer honestly.
Every edit is read back with `protocol.reading` and kept only if it reads as intended. Works on
plain answer dicts and a plain view of the results, so it needs nothing but the protocol.
"""

from __future__ import annotations

import copy
import datetime as dt
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from showwork.protocol.citations import CHANGE_FIELDS, CitationSyntaxError, ResultCitation, parse_citation
from showwork.protocol.reading import (
    Mention,
    Period,
    PeriodMention,
    find_mentions,
    find_periods,
    previous_period,
    read_text,
)

Answer = dict[str, Any]
Results = dict[int, dict[str, Any]]
"""handle → {"metrics", "keys", "rows", "coverage", "grain", "where"} (what a call returned and
the filter it asked for)."""
Catalog = dict[str, Any]

LABEL_KINDS = ("mislabelled_metric", "mislabelled_member", "mislabelled_window")
SCOPE_KINDS = ("off_question_metric", "off_question_window", "off_question_filter",
               "off_question_shape")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_WEEK = re.compile(r"(\d{4})-?W(\d{1,2})")


# --- what a claim rests on -----------------------------------------------------------------

@dataclass(frozen=True)
class Support:
    """The result citations a claim rests on (its own and its premises'), and its edges."""

    citations: tuple[ResultCitation, ...]
    edges: tuple[tuple[str, str], ...]


def _reached(answer: Answer, index: int) -> list[int]:
    """Claim `index` (0-based) and every claim its premises reach, each once, in walk order."""
    claims = answer.get("claims") or []
    out: list[int] = []
    todo, seen = [index], set()
    while todo:
        i = todo.pop()
        if i in seen or not 0 <= i < len(claims):
            continue
        seen.add(i)
        out.append(i)
        for p in claims[i].get("premises") or []:
            todo += _premise(p, i)
    return out


def support(answer: Answer, index: int) -> Support:
    """Claim `index` (0-based): its result citations and tree edges, and its premises'."""
    claims = answer.get("claims") or []
    cited: list[ResultCitation] = []
    edges: list[tuple[str, str]] = []
    for i in _reached(answer, index):
        cited += [c for c in map(_parse, claims[i].get("sources") or []) if c is not None]
        edges += [e for p in claims[i].get("premises") or [] for e in _edge(p)]
    return Support(tuple(cited), tuple(edges))


def changed(answer: Answer, index: int) -> set[str]:
    """The metrics whose change claim `index` and its premises state: a change field, or a
    claim's own first metric cited at both ends (value and previous) of one row."""
    claims = answer.get("claims") or []
    out: set[str] = set()
    for i in _reached(answer, index):
        cited = [c for c in map(_parse, claims[i].get("sources") or []) if c is not None]
        out |= {c.metric for c in cited if c.field in CHANGE_FIELDS}
        if cited and {"value", "previous"} <= {c.field for c in cited if c.metric ==
                                               cited[0].metric and c.selector == cited[0].selector}:
            out.add(cited[0].metric)
    return out


def _parse(text: Any) -> ResultCitation | None:
    try:
        c = parse_citation(text) if isinstance(text, str) else None
    except CitationSyntaxError:
        return None
    return c if isinstance(c, ResultCitation) else None


def _premise(text: Any, at: int) -> list[int]:
    m = re.fullmatch(r"c(\d+)", text) if isinstance(text, str) else None
    return [int(m.group(1)) - 1] if m and int(m.group(1)) - 1 < at else []


def _edge(text: Any) -> list[tuple[str, str]]:
    if not (isinstance(text, str) and text.startswith("tree:") and ">" in text):
        return []
    parent, _, child = text[5:].partition(">")
    return [(parent, child)]


def carried_members(s: Support, results: Results) -> dict[str, set[str]]:
    """Dimension → members the claim's cited rows and filters have."""
    out: dict[str, set[str]] = {}
    for c in s.citations:
        for key, member in c.selector:
            out.setdefault(key, set()).add(member)
        for f in _filters(results.get(c.handle, {}).get("where")):
            out.setdefault(str(f.get("dimension")), set()).update(map(str, f.get("values") or []))
    return out


def _filters(where: Any) -> list[dict[str, Any]]:
    """The in-filters of a `where`, an any_of's branches included."""
    out: list[dict[str, Any]] = []
    for item in where if isinstance(where, list) else []:
        branches = item.get("any_of") if isinstance(item, dict) else None
        out += [f for f in (branches if isinstance(branches, list) else [item])
                if isinstance(f, dict) and f.get("op", "in") == "in"]
    return out


def windows(s: Support, results: Results) -> set[tuple[dt.date, dt.date]]:
    """Windows of the cited results (asked for and covered) and the cited rows' periods."""
    out: set[tuple[dt.date, dt.date]] = set()
    for c in s.citations:
        result = results.get(c.handle, {})
        for cov in result.get("coverage") or []:
            out |= {w for key in ("requested", "covered") if (w := _window(cov.get(key)))}
        grain = str(result.get("grain") or "")
        start = dict(c.selector).get(grain)
        if start and (period := grain_period(start, grain)) is not None:
            out.add((period.start, period.end))
    return out


def _window(raw: Any) -> tuple[dt.date, dt.date] | None:
    try:
        return dt.date.fromisoformat(raw["start"]), dt.date.fromisoformat(raw["end"])
    except (TypeError, KeyError, ValueError):
        return None


def grain_period(start: str, grain: str) -> Period | None:
    """The period of a grain starting on `start`."""
    try:
        first = dt.date.fromisoformat(start if len(start) > 7 else f"{start[:7]}-01")
    except ValueError:
        return None
    size = {"day": 0, "week": 6}.get(grain)
    if size is not None:
        return Period(first, first + dt.timedelta(days=size), grain)
    months = {"month": 1, "quarter": 3, "year": 12}.get(grain)
    return Period(first, _add_months(first, months) - dt.timedelta(days=1), grain) \
        if months else None


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


# --- label faults: one claim's text ----------------------------------------------------------

LabelInjector = Callable[[Answer, int, Results, Catalog, random.Random], Answer | None]


def _with_text(answer: Answer, index: int, text: str) -> Answer:
    out = copy.deepcopy(answer)
    out["claims"][index]["text"] = text
    return out


def _text(answer: Answer, index: int) -> str | None:
    text = (answer.get("claims") or [{}])[index].get("text")
    return text if isinstance(text, str) else None


def _splice(text: str, span: tuple[int, int], words: str) -> str:
    return text[:span[0]] + words + text[span[1]:]


def mislabelled_member(answer: Answer, index: int, results: Results, catalog: Catalog,
                       rng: random.Random) -> Answer | None:
    """A member the claim names swapped for a neighbour of its dimension it does not cite."""
    text, s = _text(answer, index), support(answer, index)
    if text is None or not s.citations:
        return None
    have = carried_members(s, results)
    options = [(m, other) for m in find_mentions(text, catalog) if m.kind == "member"
               for other in _siblings(catalog, m) if other not in have.get(m.name, set())]
    rng.shuffle(options)
    for mention, other in options:
        new = _splice(text, mention.span, other)
        if _member_at(new, mention.span[0], catalog) == (mention.name, other):
            return _with_text(answer, index, new)
    return None


def _siblings(catalog: Catalog, mention: Mention) -> list[str]:
    members = ((catalog.get("dimensions") or {}).get(mention.name) or {}).get("members") or []
    return [str(m) for m in members if str(m) != mention.member]


def _member_at(text: str, start: int, catalog: Catalog) -> tuple[str, str | None] | None:
    found = [m for m in find_mentions(text, catalog) if m.kind == "member" and m.span[0] == start]
    return (found[0].name, found[0].member) if len(found) == 1 else None


def mislabelled_window(answer: Answer, index: int, results: Results, catalog: Catalog,
                       rng: random.Random) -> Answer | None:
    """A period the claim names moved to a neighbouring one it does not cite."""
    text, s = _text(answer, index), support(answer, index)
    if text is None:
        return None
    allowed = windows(s, results)
    if not allowed:
        return None
    periods = list(claim_periods(text, catalog))
    rng.shuffle(periods)
    for p in periods:
        for new in rng.sample(neighbours(p.period), 2):
            if _names(new, allowed):
                continue
            changed = _splice(text, p.span, period_words(p, new))
            if _period_at(changed, p.span[0], catalog) == (new.start, new.end):
                return _with_text(answer, index, changed)
    return None


def claim_periods(text: str, catalog: Catalog) -> tuple[PeriodMention, ...]:
    """The periods a text names outside governed names."""
    spans = [m.span for m in find_mentions(text, catalog)]
    return tuple(p for p in find_periods(text, _as_of(catalog)).found
                 if not any(a < p.span[1] and p.span[0] < b for a, b in spans))


def _period_at(text: str, start: int, catalog: Catalog) -> tuple[dt.date, dt.date] | None:
    found = [p for p in claim_periods(text, catalog) if p.span[0] == start]
    return (found[0].period.start, found[0].period.end) if found else None


def _names(p: Period, allowed: set[tuple[dt.date, dt.date]]) -> bool:
    if p.start == p.end:
        return any(p.start in w for w in allowed)
    return (p.start, p.end) in allowed


def _as_of(catalog: Catalog) -> dt.date | None:
    value = catalog.get("as_of")
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def neighbours(p: Period) -> list[Period]:
    """The period of the same length just before, and just after."""
    return [previous_period(p), next_period(p)]


def next_period(p: Period) -> Period:
    """The period of the same length just after (the month after a month)."""
    after = p.end + dt.timedelta(days=1)
    months = _whole_months(p)
    if months:
        return Period(after, _add_months(after, months) - dt.timedelta(days=1), p.grain)
    return Period(after, p.end + dt.timedelta(days=p.days), p.grain)


def _whole_months(p: Period) -> int | None:
    after = p.end + dt.timedelta(days=1)
    if p.start.day != 1 or after.day != 1:
        return None
    return (after.year - p.start.year) * 12 + after.month - p.start.month


def period_words(old: PeriodMention, new: Period) -> str:
    """Words for `new` in the form `old` was written: its ISO dates moved, else canonical."""
    if _ISO.search(old.words):
        return _ISO.sub(lambda m: _moved(m.group(0), old.period, new), old.words)
    if _ISO_WEEK.search(old.words):
        year, week, _ = new.start.isocalendar()
        return _ISO_WEEK.sub(f"{year}-W{week:02d}", old.words)
    return canonical_words(new)


def _moved(day: str, old: Period, new: Period) -> str:
    d = dt.date.fromisoformat(day)
    if d == old.end and old.start != old.end:
        return new.end.isoformat()
    return (d + (new.start - old.start)).isoformat()


def canonical_words(p: Period) -> str:
    """A period as the reader reads it back: a day, a week, a month, or a range of dates."""
    if p.start == p.end:
        return p.start.isoformat()
    if p.grain == "week":
        return f"week of {p.start.isoformat()}"
    if _whole_months(p) == 1:
        return f"{p.start:%B %Y}"
    return f"{p.start.isoformat()}..{p.end.isoformat()}"


def mislabelled_metric(answer: Answer, index: int, results: Results, catalog: Catalog,
                       rng: random.Random) -> Answer | None:
    """A metric the claim names swapped for one it does not cite (for a causal claim, another
    factor of its edge's parent where there is one)."""
    text, s = _text(answer, index), support(answer, index)
    if text is None or not s.citations:
        return None
    cited = {c.metric for c in s.citations}
    if (answer.get("claims") or [{}])[index].get("kind") == "causal":
        cited = changed(answer, index) or cited  # a base weight argues no cause
    argued = cited | {m for edge in s.edges for m in edge}
    named = [m for m in find_mentions(text, catalog) if m.kind == "metric" and m.name in argued]
    rng.shuffle(named)
    for mention in named:
        for other in _other_metrics(catalog, mention.name, argued, s.edges, rng):
            new = _splice(text, mention.span, _spoken(catalog, other, mention.words))
            if _metric_at(new, mention.span[0], catalog) == other:
                return _with_text(answer, index, new)
    return None


def _other_metrics(catalog: Catalog, metric: str, argued: set[str],
                   edges: tuple[tuple[str, str], ...], rng: random.Random) -> list[str]:
    """Metrics not argued: the factors beside `metric` in its edge first, then the rest."""
    parents = {p for p, c in edges if c == metric}
    factors = [f for e in (catalog.get("tree") or {}).get("exact") or []
               if e.get("parent") in parents for f in e.get("factors") or []]
    rest = sorted(catalog.get("metrics") or {})
    rng.shuffle(rest)
    return [m for m in dict.fromkeys(factors + rest) if m not in argued and m != metric]


def _spoken(catalog: Catalog, metric: str, like: str) -> str:
    """The metric's label (without a parenthesis), capitalised as the words it replaces."""
    label = (catalog.get("metrics") or {}).get(metric, {}).get("label") or metric
    label = re.sub(r"\s*\(.*?\)", "", label).strip() or metric
    capital = like[:1].isupper() and not like.isupper()
    return label[:1].upper() + label[1:] if capital else label


def _metric_at(text: str, start: int, catalog: Catalog) -> str | None:
    found = [m for m in find_mentions(text, catalog) if m.kind == "metric" and m.span[0] == start]
    return found[0].name if found else None


LABEL_INJECTORS: dict[str, LabelInjector] = {
    "mislabelled_metric": mislabelled_metric, "mislabelled_member": mislabelled_member,
    "mislabelled_window": mislabelled_window}


def label_fault(answer: Answer, index: int, kind: str, results: Results, catalog: Catalog,
                rng: random.Random) -> Answer | None:
    """Claim `index` (0-based) with a label fault of `kind`, or None when it has no place."""
    return LABEL_INJECTORS[kind](answer, index, results, catalog, rng)


def label_kinds(answer: Answer, index: int, results: Results, catalog: Catalog) -> list[str]:
    """The label faults claim `index` can carry (tried on a scratch copy)."""
    return [k for k in LABEL_KINDS
            if label_fault(answer, index, k, results, catalog, random.Random(0)) is not None]


# --- scope faults: a neighbouring question ---------------------------------------------------

def neighbour_question(question: str, kind: str, catalog: Catalog,
                       rng: random.Random) -> str | None:
    """The question rewritten as a neighbouring one an analyst could answer instead: another
    metric, the window before, another member, or a plain level; None when it has no place."""
    reading = read_text(" ".join(question.split()), catalog)
    if reading.gaps or not reading.metrics:
        return None
    return _NEIGHBOURS[kind](reading, catalog, rng)


def _other_metric(reading: Any, catalog: Catalog, rng: random.Random) -> str | None:
    mention = reading.metrics[0]
    options = [m for m in _answerable(reading, catalog)
               if m != mention.name and not _extends(catalog, m, mention.words)]
    rng.shuffle(options)
    for other in options:
        new = _splice(reading.text, mention.span, _spoken(catalog, other, mention.words))
        if [m.name for m in read_text(new, catalog).metrics][:1] == [other]:
            return new
    return None


def _extends(catalog: Catalog, metric: str, words: str) -> bool:
    """The metric's label or a synonym holds the words ('real value moments' holds 'value
    moments'): the question's other words may mean it, so it is no neighbour."""
    said = _words(words)
    info = (catalog.get("metrics") or {}).get(metric) or {}
    for written in [info.get("label") or "", *(info.get("synonyms") or ())]:
        have = _words(written)
        if any(have[i:i + len(said)] == said for i in range(len(have) - len(said) + 1)):
            return True
    return False


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _answerable(reading: Any, catalog: Catalog) -> list[str]:
    """Metrics that take the question's members' dimensions (and decompose, for a why)."""
    metrics = catalog.get("metrics") or {}
    dims = {m.name for m in reading.members}
    parents = {e.get("parent") for e in (catalog.get("tree") or {}).get("exact") or []}
    return sorted(name for name, info in metrics.items()
                  if dims <= set(info.get("dimensions") or dims)
                  and (not reading.asks.why or name in parents))


def _window_before(reading: Any, catalog: Catalog, rng: random.Random) -> str | None:
    if not reading.periods:
        return None
    text = reading.text
    for p in reversed(reading.periods):  # from the end, so earlier spans stay put
        text = _splice(text, p.span, period_words(p, previous_period(p.period)))
    moved = [(p.period.start, p.period.end) for p in read_text(text, catalog).periods]
    want = [(q.start, q.end) for q in (previous_period(p.period) for p in reading.periods)]
    return text if moved == want else None


def _other_member(reading: Any, catalog: Catalog, rng: random.Random) -> str | None:
    if not reading.members:
        return None
    mention = reading.members[0]
    options = _siblings(catalog, mention)
    rng.shuffle(options)
    for other in options:
        new = _splice(reading.text, mention.span, other)
        if read_text(new, catalog).member_keys()[:1] == [(mention.name, other)]:
            return new
    return None


def _level(reading: Any, catalog: Catalog, rng: random.Random) -> str | None:
    """'What was METRIC for MEMBER in PERIOD?': one level where a shape was asked."""
    asks = reading.asks
    shaped = asks.change or asks.why or asks.compare or asks.ranking or asks.breakdown \
        or asks.series or len(reading.member_keys()) > 1
    if not shaped:
        return None
    member = f" for {reading.members[0].words}" if reading.members else ""
    period = f" in {reading.periods[0].words}" if reading.periods else ""
    new = f"What was {reading.metrics[0].words}{member}{period}?"
    again = read_text(new, catalog)
    asked = again.asks
    plain = not (asked.change or asked.why or asked.ranking or asked.breakdown or asked.series)
    return new if plain and not again.gaps else None


_NEIGHBOURS: dict[str, Callable[[Any, Catalog, random.Random], str | None]] = {
    "off_question_metric": _other_metric, "off_question_window": _window_before,
    "off_question_filter": _other_member, "off_question_shape": _level}


def scope_kinds(question: str, catalog: Catalog) -> list[str]:
    """The scope faults a question can carry."""
    return [k for k in SCOPE_KINDS
            if neighbour_question(question, k, catalog, random.Random(0)) is not None]
