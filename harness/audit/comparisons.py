"""Comparisons need compared evidence: `unbacked_comparison`.

- A superlative, universal or exclusive ("the largest of any plan", "more than every other
  platform", "the only store", "no other region", "most of all for channel paid_search")
  quantifies over the members of a dimension: the dimension it names, else the dimension of
  the member named in its clause. It is backed only when some cited result breaks its rows
  down by that dimension, unfiltered on it (every member compared).
- A stated order of listed values ("most first: A 710; B 738", "in descending order") must be
  the order of the values it is stated of: the list that follows it in the prose, or, with no
  list there, the answer's `values`.
- A ranking (the question asks for the most or the least, or the prose states an order) lists
  its top members without gaps: no row of the cited result that is left out ranks above a
  listed one.
- A series' extreme said of a period ("peaked in 2026-05-04", "was lowest in April") must be
  the period whose cited row holds it: else `mislabelled_window` (a value attributed to the
  wrong period of the series).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from showwork.harness.audit.context import AnswerContext, Cited, ClaimContext
from showwork.harness.audit.counts import cited_results_by_grain, cited_series
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.labels import (
    in_cited_year,
    measured_against,
    names_window,
    period_window,
    read_words,
    support_of,
)
from showwork.harness.audit.numbers import entity_keys, numeric
from showwork.harness.audit.pairs import find_pairs
from showwork.harness.audit.prose import FALLS, RISES
from showwork.harness.audit.scope import scope_of
from showwork.harness.audit.speeds import find_speeds
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Finding
from showwork.protocol.citations import period_start
from showwork.protocol.numbers import claims_in
from showwork.protocol.reading import find_mentions
from showwork.protocol.reading._literals import finditer, search
from showwork.protocol.reading.mentions import Mention

_QUANTIFIED = re.compile(
    r"(?i)\b(?:(?:the\s+)?(?:largest|biggest|highest|greatest|lowest|smallest|fewest|"
    r"strongest|weakest|fastest|slowest)\b(?!\s+first)|the\s+most\b(?!\s+first)|"
    r"the\s+least\b(?!\s+first)|most\s+of\s+all|(?:every|all|any)\s+other|of\s+(?:any|all)\b|"
    r"than\s+(?:any|all|every)\b|the\s+only\b|no\s+other\b|none\s+of\s+the\s+other)")
_RANKED = re.compile(r"(?i)\b(?:second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                     r"[0-9]+(?:st|nd|rd|th))[\s-]+(?:the\s+)?$")
"""An ordinal just before a superlative: 'third-largest', '2nd highest'."""
_ORDER = re.compile(r"(?i)\b(?P<dir>most|largest|highest|biggest|least|smallest|lowest|fewest)"
                    r"\s+first\b|\bin\s+(?P<word>descending|ascending)\s+order\b")
_DESCENDING = {"most", "largest", "highest", "biggest", "descending"}
_CLAUSE = re.compile(r"[^.;!?]+")


def _asides(text: str) -> list[tuple[int, int]]:
    """The outermost parentheses, nested ones inside them ('(most first: Online 2,093;
    Toronto (Queen St. W) 140)'): their members qualify the sentence (a filter) or list its
    rows, they are not what a superlative outside them ranks. An unclosed one runs to the end.

    >>> _asides("A (b (c) d) e (f")
    [(2, 11), (14, 16)]
    """
    out: list[tuple[int, int]] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                out.append((start, i + 1))
    if depth:
        out.append((start, len(text)))
    return out


Quantified = tuple[str, str, tuple[str, ...], str | None, tuple[int, int]]
"""(phrase, dimension, the dimension's members its clause names, the metric it names, the
phrase's span)."""


def _quantified(ctx: AnswerContext | ClaimContext, text: str) -> list[Quantified]:
    """(phrase, dimension, members, metric) of each superlative, universal or exclusive the
    text states over a dimension it names or whose member its clause names; read once per
    catalog for each text. Over an entity's rows ('By plane, N328AA had the most flights') the
    entity is the dimension and a cited row's key its member: read afresh, since which words
    are keys depends on the rows cited."""
    index = ctx.index_
    keyed = _entity_mentions(ctx, text) if isinstance(ctx, AnswerContext) else []
    if keyed:
        return _quantified_in(index, text, keyed)
    return index.read("quantified", text, lambda t: _quantified_in(index, t))


def superlatives(ctx: AnswerContext, text: str) -> list[tuple[int, int]]:
    """The spans of the superlatives, universals and exclusives `_superlatives` holds to a
    cited breakdown (a dimension or an entity named, or a member's or a key's): one with
    nothing it compares ('New users fastest 1,181.8 %') is not held, so not read."""
    changes = any(c.citation.field in ("delta", "pct_change")
                  for claim in ctx.claims for c in claim.cited)
    return [q[4] if changes else _unmoved(q[0], q[4]) for q in _quantified(ctx, text)]


def _unmoved(phrase: str, span: tuple[int, int]) -> tuple[int, int]:
    """The superlative's span without a word of motion beside it (`_moved`), where no change is
    cited: the move is then held by nothing, and its word stays unread."""
    words = phrase.split()
    if len(words) > 1 and words[0].lower() in _FALLS | _RISES:
        return span[0] + len(phrase) - len(phrase.split(None, 1)[1]), span[1]
    if len(words) > 1 and words[-1].lower() in _FALLS | _RISES:
        return span[0], span[0] + len(phrase.rsplit(None, 1)[0])
    return span


def _entity_mentions(ctx: AnswerContext, text: str) -> list[Mention]:
    """An entity's name ('plane', 'order') and a cited row's key of it ('N328AA', '36175'),
    as the dimension and member mentions of an entity-keyed breakdown; none where the text
    states no superlative or the catalog keys no entity."""
    keys = entity_keys(ctx)
    if not keys or _QUANTIFIED.search(text) is None:
        return []
    out = [Mention("member", entity, key, m.group(), m.span(), "member")
           for m in _KEY.finditer(text) if (found := keys.get(m.group().lower()))
           for entity, key in (found,)]
    for entity in {entity for entity, _key in keys.values()}:
        words = re.escape(entity.replace("_", " "))
        out += [Mention("dimension", entity, None, m.group(), m.span(), "name")
                for m in re.finditer(rf"(?i)\b{words}\b", text)]
    return sorted(out, key=lambda m: m.span)


_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-]*")


def _quantified_in(index: CatalogIndex, text: str, keyed: Sequence[Mention] = ()
                   ) -> list[Quantified]:
    if search(_QUANTIFIED, text) is None:
        return []
    mentions = index.read("mentions", text, lambda t: find_mentions(t, index.catalog))
    if keyed:  # an entity's words are not a governed name's: they replace any they overlap
        mentions = sorted([m for m in mentions if not any(
            m.span[0] < k.span[1] and k.span[0] < m.span[1] for k in keyed)] + list(keyed),
            key=lambda m: m.span)
    out = []
    asides = _asides(text)
    for clause in _clauses(text, mentions):
        said = list(_QUANTIFIED.finditer(text, clause.start(), clause.end()))
        for i, q in enumerate(said):
            if _RANKED.search(text, max(0, q.start() - 12), q.start()):
                continue  # 'the third-largest': a rank (pairs.py), not the extreme
            phrase, span = _moved(text, q)
            aside = _aside_of(q.start(), asides)
            # 'Online had the highest revenue, and O'Hare Airport the lowest': with several
            # in a clause, each is said of the members after the one before it
            start = said[i - 1].end() if i else clause.start()
            # a member the clause measures another against ('Canada had the most, ahead of
            # the US') is not the one it ranks first
            inside = [m for m in mentions if clause.start() <= m.span[0] < clause.end()
                      and m.kind in ("dimension", "member")
                      and _aside_of(m.span[0], asides) == aside
                      and (len(said) == 1 or m.kind == "dimension"
                           or start <= m.span[0] < q.end())
                      and not (m.kind == "member" and m.span[0] > q.end() and measured_against(
                          text, m.span[0], [x.span for x in mentions if x.kind == "member"]))]
            named = [m for m in inside if m.kind == "dimension" and m.span[0] >= q.end()]
            near = named or sorted(inside, key=lambda m: abs(m.span[0] - q.start()))
            if near:
                dim = near[0].name
                members = tuple(dict.fromkeys(m.member or "" for m in inside
                                              if m.kind == "member" and m.name == dim))
                metric = next((m.name for m in mentions if m.kind == "metric"
                               and clause.start() <= m.span[0] < clause.end()
                               and _aside_of(m.span[0], asides) == aside), None)
                out.append((phrase, dim, members, metric, span))
    return out


_FALLS = FALLS | {"drop", "drops", "decline", "declines", "decrease", "decreases", "dip", "dips",
                  "fall", "falls", "slide", "slump"}
_RISES = RISES | {"rise", "rises", "increase", "increases", "gain", "gains", "growth", "jump",
                  "jumps", "climb", "climbs"}
_WORD_BEFORE = re.compile(r"([A-Za-z]+)\s+$")
_WORD_AFTER = re.compile(r"\s+([A-Za-z]+)\b")


def _moved(text: str, q: re.Match[str]) -> tuple[str, tuple[int, int]]:
    """The superlative with the move it ranks, when a word of motion stands right beside it
    ('JFK fell the most', 'LGA had the smallest drop'): the phrase and span with that word, so
    the extreme is taken of the move (`_not_extreme`: the biggest fall is the most negative
    change, the smallest the fall nearest zero), not of the signed value (where the biggest
    fall had been ranked last, and the true sentence withheld)."""
    before = _WORD_BEFORE.search(text, max(0, q.start() - 20), q.start())
    if before is not None and before.group(1).lower() in _FALLS | _RISES:
        return text[before.start(1):q.end()], (before.start(1), q.end())
    after = _WORD_AFTER.match(text, q.end())
    if after is not None and after.group(1).lower() in _FALLS | _RISES:
        return text[q.start():after.end(1)], (q.start(), after.end(1))
    return q.group(0), q.span()


class _Clause:
    __slots__ = ("span",)

    def __init__(self, start: int, end: int) -> None:
        self.span = (start, end)

    def start(self) -> int:
        return self.span[0]

    def end(self) -> int:
        return self.span[1]


def _clauses(text: str, mentions: list[Any]) -> list[Any]:
    """The text's clauses (between . ; ! ?), where a stop inside a member's name ('Delta Air
    Lines Inc.', 'nutellaphone who dis?') ends none."""
    names = [m.span for m in mentions if m.kind == "member" and _STOP.search(m.words)]
    if not names:
        return list(_CLAUSE.finditer(text))
    out, start = [], 0
    for stop in _STOP.finditer(text):
        if any(a <= stop.start() < b for a, b in names):
            continue
        if stop.start() > start:
            out.append(_Clause(start, stop.start()))
        start = stop.end()
    return out + [_Clause(start, len(text))] if start < len(text) else out


_STOP = re.compile(r"[.;!?]")


def _aside_of(at: int, asides: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parenthesis position `at` is in (a filter the sentence is qualified by, "(origin
    airport LGA)"), as a list of at most one."""
    return [a for a in asides if a[0] <= at < a[1]][:1]


def _compared(ctx: AnswerContext, cited: tuple[Cited, ...] | list[Cited], dimension: str
              ) -> bool:
    """Some cited result breaks its rows down by `dimension`, unfiltered on it."""
    for item in cited:
        result = item.result
        if dimension in result.keys and len(result.rows) > 1 and dimension not in (
                ctx.evidence.filters(item.citation.handle) or {}):
            return True
    return False


def _superlatives(ctx: AnswerContext) -> list[Finding]:
    cited = [c for claim in ctx.claims for c in claim.cited]
    if not cited:
        return []
    texts = [("answer", ctx.answer.answer or "")] + [(c.cid, c.claim.text) for c in ctx.claims]
    out = []
    compared: dict[str, bool] = {}  # dimension → `_compared`, asked once per answer
    for where, text in texts:
        for phrase, dimension, members, metric, _span in _quantified(ctx, text):
            known = compared.get(dimension)
            if known is None:
                known = compared[dimension] = _compared(ctx, cited, dimension)
            if len(members) == 1 and known:
                wrong = _not_extreme(ctx, cited, phrase, dimension, members[0], metric)
                if wrong is not None:
                    out.append(_extreme_finding(where, phrase, dimension, members[0], wrong))
                    break
            if not known:
                out.append(Finding(
                    "unbacked_comparison", where,
                    f"The answer says {phrase!r} of {dimension}, but no cited result compares "
                    f"every {dimension}: the other members were never queried.",
                    {"phrase": phrase, "dimension": dimension},
                    f"Query the metric by {dimension} and cite that result, or say only what "
                    "the cited members show."))
                break
    return out


_MAX = frozenset({"largest", "biggest", "highest", "greatest", "most", "strongest"})
_MIN = frozenset({"lowest", "smallest", "fewest", "least", "weakest"})


def _not_extreme(ctx: AnswerContext, cited: list[Cited], phrase: str, dimension: str,
                 member: str, metric: str | None) -> tuple[str | None, Any, Any] | None:
    """(the extreme member, its value, the named member's value) when a cited breakdown by
    `dimension` gives the metric's extreme to another member than the one the superlative
    names ('free had the highest days per user' where plus has it); (None, None, the member's
    change) when the superlative ranks a move the member did not make ('EWR rose the most'
    where EWR fell); None when it agrees or cannot be told."""
    words = phrase.lower().split()
    move = -1 if _FALLS & set(words) else 1 if _RISES & set(words) else 0
    most = _MAX & set(words)
    if not most and not _MIN & set(words) or "all" in words:
        return None  # 'of any', 'only', 'most of all for': no stated extreme of a level
    current = ctx.index_.current
    for item in cited:
        result = item.result
        if dimension not in result.keys or len(result.rows) < 2 or dimension in (
                ctx.evidence.filters(item.citation.handle) or {}):
            continue
        if metric is not None and current.get(item.metric, item.metric) != \
                current.get(metric, metric):
            continue
        field = item.citation.field
        # a row with no member (orders of a deleted customer: no region) is no member to rank
        values = {str(r.key.get(dimension)): v for r in result.rows
                  if r.key.get(dimension) not in (None, "")
                  and isinstance(v := (r.values.get(item.metric) or {}).get(field), (int, float))
                  and not isinstance(v, bool)}
        if member not in values or len(values) < 2:
            continue
        if move and field in ("delta", "pct_change"):  # the move's size among the rows
            values = {k: v * move for k, v in values.items() if v * move > 0}
            if member not in values:  # 'EWR fell the least' where EWR rose: no such move
                return None, None, next(r.values[item.metric][field] for r in result.rows
                                        if str(r.key.get(dimension)) == member)
            best = (max if most else min)(values, key=lambda k: values[k])
            if values[best] != values[member]:
                return best, values[best] * move, values[member] * move
            return None
        best = (max if most else min)(values, key=lambda k: values[k])
        if values[best] != values[member]:
            return best, values[best], values[member]
        return None
    return None


def _extreme_finding(where: str, phrase: str, dimension: str, member: str,
                     wrong: tuple[str | None, Any, Any]) -> Finding:
    best, value, own = wrong
    said = f"{member} {'' if phrase.split()[0].lower() in _FALLS | _RISES else 'had '}{phrase!r}"
    if best is None:  # the member did not move the way the phrase ranks
        return Finding(
            "mislabelled_member", where,
            f"The answer says {said} of {dimension}, but {member}'s cited change is {own:,.6g}: "
            "it moved the other way.",
            {"said": member, "dimension": dimension, "phrase": phrase, "cited": [member]},
            f"Say which way {member} moved, as its cited change does.")
    return Finding(
        "mislabelled_member", where,
        f"The answer says {said} of {dimension}, but the cited rows rank "
        f"{best} ({value:,.6g}) before {member} ({own:,.6g}).",
        {"said": member, "dimension": dimension, "phrase": phrase, "cited": [best]},
        f"Name {best}, the member the cited values rank first, or cite the rows that rank "
        f"{member} there.")


def _listed(text: str, at: int) -> list[tuple[str, Any]]:
    """The 'member value' items listed after position `at` (up to a closing parenthesis or the
    sentence's end), each with its last number."""
    end = min([i for i in (text.find(")", at), text.find(". ", at)) if i >= 0] or [len(text)])
    out = []
    for item in re.split(r";\s*", text[at:end]):
        numbers = claims_in(item)
        if numbers:
            out.append((item[:numbers[-1].start].strip(" :,-–—"), numbers[-1].value))
    return out


def _stated_order(index: CatalogIndex, text: str
                  ) -> tuple[str, bool, list[tuple[str, Any]]] | None:
    """The order the text states (its phrase, whether descending) and the 'member value' items
    listed after it; None when it states none. Read once per catalog for each text."""
    stated = index.read("order", text, _order_in)
    return stated if stated[0] else None


_NO_ORDER: tuple[str, bool, list[tuple[str, Any]]] = ("", False, [])


def _order_in(text: str) -> tuple[str, bool, list[tuple[str, Any]]]:
    stated = search(_ORDER, text)
    if stated is None:
        return _NO_ORDER
    descending = (stated.group("dir") or stated.group("word")).lower() in _DESCENDING
    return stated.group(0), descending, _listed(text, stated.end())


def _orders(ctx: AnswerContext) -> list[Finding]:
    text = ctx.answer.answer or ""
    stated = _stated_order(ctx.index_, text)
    if stated is None:
        return []
    phrase, descending, items = stated
    out = []
    # the order is stated of the list that follows it; only with none there, of the values
    listed = [] if items else [(v.key, v.value) for v in ctx.answer.values or []
                               if numeric(v.value)]
    for where, pairs in (("answer", items), ("answer.values", listed)):
        broken = _unordered(pairs, descending)
        if broken is not None:
            out.append(Finding(
                "unbacked_comparison", where,
                f"The answer says {phrase!r}, but {broken[0][0]} ({broken[0][1]:,}) is "
                f"listed before {broken[1][0]} ({broken[1][1]:,}).",
                {"phrase": phrase, "order": [broken[0][0], broken[1][0]]},
                "List the values in the order the answer states, or state the order they "
                "are in."))
    return out


def _unordered(pairs: list[tuple[str, Any]], descending: bool
               ) -> tuple[tuple[str, Any], tuple[str, Any]] | None:
    for a, b in zip(pairs, pairs[1:], strict=False):
        if (b[1] > a[1]) if descending else (b[1] < a[1]):
            return a, b
    return None


def _ranking(ctx: AnswerContext) -> str | None:
    stated = _stated_order(ctx.index_, ctx.answer.answer or "")
    if stated is not None:
        return "most" if stated[1] else "least"
    question = scope_of(ctx).question
    ranking = question.reading.asks.ranking if question is not None else None
    return ranking.order if ranking is not None else None


def _gaps(ctx: AnswerContext) -> list[Finding]:
    """A ranking's listed members are the top of the cited result: none left out above them."""
    listed = {period_start(str(v.key).strip()): v.value for v in ctx.answer.values or []}
    if len(listed) < 2:
        return []
    order = _ranking(ctx)
    if order not in ("most", "least"):
        return []
    item = next((c for claim in ctx.claims for c in claim.cited
                 if any(period_start(m) in listed for m in c.row.key.values())), None)
    if item is None or len(item.row.key) != 1:
        return []
    (dimension,) = item.row.key
    metric, field = item.citation.metric, item.citation.field
    values = [v for v in listed.values() if isinstance(v, (int, float))]
    if not values:
        return []
    edge = min(values) if order == "most" else max(values)
    for row in item.result.rows:
        member = row.key.get(dimension)
        value = (row.values.get(metric) or {}).get(field)
        if member in (None, "") or period_start(member) in listed \
                or not isinstance(value, (int, float)):
            continue
        if (value > edge) if order == "most" else (value < edge):
            return [Finding(
                "unbacked_comparison", "answer.values",
                f"The answer ranks the {order} but leaves out {dimension} {member} ({value:,}), "
                f"which {item.text.split(':')[0]} ranks above a listed member ({edge:,}).",
                {"phrase": order, "dimension": dimension, "missing": member},
                f"List the top members of r{item.citation.handle} in order, without gaps.")]
    return []


_PEAK = re.compile(
    r"(?i)\b(?:(?P<max>peak(?:ed|s)?|topped\s+out|hit\s+(?:its|their|a)\s+high(?:\s+point)?|"
    r"(?:its|their|the)\s+high\s+point|(?:its|their|the)\s+"
    r"(?:highest|largest|biggest|busiest)|(?:was|were)\s+(?:at\s+(?:its|their)\s+)?highest|"
    r"the\s+most(?!\s+first))(?:\s+(?P<maxgrain>day|week|month|quarter|year)\b)?|"
    r"(?P<min>bottomed(?:\s+out)?|(?:its|their|the)\s+low\s+point|"
    r"trough(?:ed)?|hit\s+(?:its|their|a)\s+low(?:\s+point)?|(?:its|the)\s+(?:lowest|smallest|quietest)|"
    r"(?:was|were)\s+"
    r"(?:at\s+(?:its|their)\s+)?lowest|the\s+(?:fewest|least)(?!\s+first))"
    r"(?:\s+(?P<mingrain>day|week|month|quarter|year)\b)?)\b")
"""A series' extreme said of a period: 'peaked in May', '2013-02-01 had the most cancelled
flights' (a ranking over a grain), 'orders were highest in the week of 3 June' (a metric named
in the plural), held to the cited series (`_period_extremes`)."""


def _peaks(text: str) -> tuple[re.Match[str], ...]:
    return tuple(finditer(_PEAK, text))


def _period_extremes(ctx: AnswerContext) -> list[Finding]:
    """A series' high or low said of a period other than the one whose cited row holds it."""
    return [f for _, _, f in _extremes(ctx) if f is not None]


def held_extremes(ctx: AnswerContext) -> set[tuple[str, int]]:
    """(text, start) of each series' high or low (`_PEAK`) the check held to a period of a
    cited series: what the word account may consume ('Orders were highest in the third week'
    names no period, so nothing holds 'highest')."""
    return {(text, m.start()) for text, m, _ in _extremes(ctx)}


def _extremes(ctx: AnswerContext) -> list[tuple[str, re.Match[str], Finding | None]]:
    """Each extreme said of one period of a cited series, with its finding when the cited
    rows put it elsewhere; found once per answer."""
    return ctx.from_rows_once("extremes", lambda: _extremes_in(ctx))


def _extremes_in(ctx: AnswerContext) -> list[tuple[str, re.Match[str], Finding | None]]:
    texts = [("answer", ctx.answer.answer or "")] + [(c.cid, c.claim.text) for c in ctx.claims]
    index = ctx.index_
    places = [(w, t, m) for w, t in texts
              for m in index.read("peaks", t, _peaks)]
    if not places:
        return []
    # the whole series of a result the answer cites by a grain, where it cites one: an extreme
    # is said of every period the analyst asked for, not of the ones it chose to cite
    cited = {**cited_series(ctx), **cited_results_by_grain(ctx)}
    windows = {w for (_metric, by), rows in cited.items() for key in rows
               if (w := period_window(key, by)) is not None}
    out: list[tuple[str, re.Match[str], Finding | None]] = []
    for where, text, m in places:
        grain = m.group("maxgrain") or m.group("mingrain")  # 'the busiest month': by month
        series = {metric: rows for (metric, by), rows in cited.items() if grain in (None, by)}
        clause = next((c for c in _CLAUSE.finditer(text) if c.start() <= m.start() < c.end()),
                      None)
        if clause is None:
            continue
        reading = read_words(ctx.index_, "claim" if where != "answer" else "prose", text)
        asides = _asides(text)  # the listed rows in parentheses are not what the extreme says
        aside = _aside_of(m.start(), asides)
        # 'the highest of the year and twice the fourth quarter's': not said of the fourth
        spans = [p.span for p in reading.periods]
        inside = [p for p in reading.periods if clause.start() <= p.span[0] < clause.end()
                  and _aside_of(p.span[0], asides) == aside
                  and not measured_against(text, p.span[0], spans)]
        scopes = [(p.period.start.isoformat(), p.period.end.isoformat()) for p in inside]
        # a period before it that holds several cited periods ('Flights by month in 2013:
        # flights peaked in July') is the window the extreme is said over, not its period
        before = [p for p in inside if p.span[1] <= m.start()
                  and sum(p.period.start <= w[0] and w[1] <= p.period.end for w in windows) < 2]
        if len(inside) > 1 and before:  # 'July was the busiest month and February the
            inside = [before[-1]]       # quietest': each extreme of the period before it
        # 'highest in January' of a series crossing a year's end: the one cited January
        said = [(q.start.isoformat(), q.end.isoformat()) for q in (
            p.period if names_window(p.period, windows) else in_cited_year(p, windows) or p.period
            for p in inside)]
        metric = next((x.name for x in reading.metrics
                       if clause.start() <= x.span[0] < clause.end()), None)
        held, finding = False, None
        for name, rows in series.items():
            if metric is not None and ctx.index_.current.get(name, name) != \
                    ctx.index_.current.get(metric, metric):
                continue
            # a period said of one row ('2013-07-01 had the most'), not the window holding
            # them all ('in 2013', whose start is January's row too)
            stated = [a for a, b in said if a in rows and sum(a <= r <= b for r in rows) == 1]
            if len(stated) != 1:
                continue
            held = True
            # over the periods of the window the clause says ('from March to June 2019'), where
            # it says one holding several rows; else over the whole series
            over = [(a, b) for a, b in scopes if sum(a <= r <= b for r in rows) > 1]
            if over:
                rows = {r: v for r, v in rows.items() if any(a <= r <= b for a, b in over)}
            best = (max if m.group("max") else min)(rows.values())
            if rows[stated[0]] != best:
                top = next(p for p, v in rows.items() if v == best)
                wrong = stated[0]
                finding = Finding(
                    "mislabelled_window", where,
                    f"The answer says {m.group(0)!r} of {wrong}, but the cited series of "
                    f"{name} puts it in {top} ({best:,.6g}; {wrong}: {rows[wrong]:,.6g}).",
                    {"said": wrong, "phrase": m.group(0), "cited": [top]},
                    f"Name {top}, the period the cited series puts there.")
                break
        if held:
            out.append((text, m, finding))
    return out


@emits("unbacked_comparison", "mislabelled_member", "mislabelled_window", "direction_mismatch")
def find_comparisons(ctx: AnswerContext) -> list[Finding]:
    """Superlatives and universals over uncompared members, stated orders the values
    contradict, rankings with gaps, a series' extreme said of the wrong period, comparisons
    and ranks between named members (pairs.py) and two metrics' changes compared (speeds.py)."""
    if ctx.answer.status != "answered" or not ctx.claims:
        return []
    if any(not support_of(c).whole for c in ctx.claims):
        return []  # a broken citation is a defect already
    return (_superlatives(ctx) + _orders(ctx) + _gaps(ctx) + _period_extremes(ctx)
            + find_pairs(ctx) + find_speeds(ctx) + _combined(ctx))


def _combined(ctx: AnswerContext) -> list[Finding]:
    """A row compared with the sum of others that the cited rows order the other way
    (combined.py)."""
    from showwork.harness.audit.combined import read_combined

    return [c.finding for c in read_combined(ctx, ctx.answer.answer or "")
            if c.finding is not None]
