"""Does the served answer answer the question that was asked?

The question is read against the catalog by `protocol.reading` (the reader the rules analyst
uses), once per catalog for each question; what it names is compared with the results the
answer's claims cite. What the reader cannot read (its gaps) is never guessed at: the checks it
concerns are skipped, and the audit record says so (`scope_checked`, `scope_note`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import msgspec

from showwork.harness.audit.context import AnswerContext, Cited
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.labels import (
    SYNONYM_HOWS,
    UNRESOLVED,
    Window,
    answer_metrics,
    answer_windows,
    by_span,
    carries,
    members_cited,
    period_window,
    windows_of,
)
from showwork.harness.audit.numbers import numeric
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Finding
from showwork.protocol.numbers import from_value, matches
from showwork.protocol.reading import (
    Mention,
    Period,
    Reading,
    find_mentions,
    read_text,
    split_instruction,
)
from showwork.protocol.reading.account import read_as_line
from showwork.protocol.reading.filters import exclusions
from showwork.protocol.reading.qualifiers import siblings

CHECKS = ("metric", "window", "filter", "shape")
GAP_CHECKS = {"metric": "metric", "qualifier": "metric", "period": "window", "member": "filter",
              "dimension": "shape", "grain": "shape"}
"""Which check a gap of each kind leaves unread (a qualifier may name another metric)."""
CHANGE_FIELDS = {"previous", "delta", "pct_change", "contribution", "share"}
SHARE_FIELDS = {"share_of_total", "share"}
"""Fields that are a share of a whole (a member's of its total; a factor's of its parent's move)."""
SAME_WINDOW = 0.75
"""A cited window answers a question's period when each covers at least this share of the other
(whole weeks inside a month do; one week of an eight-week trend does not)."""


@dataclass(frozen=True)
class Question:
    """A question read against one catalog: the reading, and the metrics its other words
    qualify a named metric toward ('real … value moments')."""

    reading: Reading
    qualified: dict[str, tuple[list[str], list[str]]]
    """Metric named → (sibling metrics its qualifier words point at, those words)."""


@dataclass
class Scope:
    """The question's scope against what the answer cites."""

    question: Question | None
    cited: tuple[Cited, ...]
    skipped: dict[str, str] = field(default_factory=dict)
    """Check → why it was not made (a gap of the reader, no question, a refusal, …)."""

    # Written out, not generated: natively compiled (see ClaimContext.__init__).
    def __init__(self, question: Question | None, cited: tuple[Cited, ...],
                 skipped: dict[str, str] | None = None) -> None:
        self.question = question
        self.cited = cited
        self.skipped = {} if skipped is None else skipped

    def checks(self, check: str) -> bool:
        return self.question is not None and check not in self.skipped

    @property
    def checked(self) -> bool:
        return self.question is not None and not self.skipped

    def note(self) -> str:
        if self.checked:
            return ""
        if self.question is None:
            return f"scope not checked: {next(iter(self.skipped.values()))}"
        return "scope partly checked: " + "; ".join(f"{check} not checked, the question says "
                                                    f"{why}" for check, why in self.skipped.items())


def scope_of(ctx: AnswerContext) -> Scope:
    """The scope of the answer (read once per answer; the question once per catalog)."""
    if ctx.scope is None:
        ctx.scope = _scope(ctx)
    return ctx.scope


def _scope(ctx: AnswerContext) -> Scope:
    why = _unscoped(ctx)
    if why is not None:
        return Scope(None, (), dict.fromkeys(CHECKS, why))
    question = read_question(ctx.index_, ctx.question or "")
    skipped: dict[str, str] = {}
    for gap in question.reading.gaps:
        check = GAP_CHECKS.get(gap.kind)
        if check is not None and check not in skipped:
            skipped[check] = f"{gap.words!r} ({gap.reason})"
    return Scope(question, tuple(c for claim in ctx.claims for c in claim.cited), skipped)


def _unscoped(ctx: AnswerContext) -> str | None:
    """Why the answer's scope cannot be checked at all, or None."""
    if not ctx.question:
        return "no question was given"
    if ctx.answer.status != "answered":
        return f"the answer is {'a refusal' if ctx.answer.status == 'refused' else 'malformed'}"
    if not ctx.answer.has_graph:
        return "the answer carries no claims"
    if any(d.code in UNRESOLVED for claim in ctx.claims for d in claim.defects):
        return "some citations do not resolve, so what the answer cites is not known"
    if not any(claim.cited for claim in ctx.claims):
        return "no claim cites a result"
    return None


QUESTIONS = "question"
"""The catalog index's kind of reading that holds the questions read."""


def read_question(index: CatalogIndex, text: str) -> Question:
    """The question read against the catalog, once per catalog for each question."""
    return index.read(QUESTIONS, text, lambda t: _read(t, index.catalog))


def _read(text: str, catalog: dict[str, Any]) -> Question:
    """The data question (an instruction appended to it is not part of what was asked: the
    analyst ignores it and says so), read against the catalog."""
    asked, _instruction = split_instruction(" ".join(text.split()))
    reading = read_text(asked or text, catalog)
    return Question(reading, {m.name: q for m in reading.metrics
                              if (q := _qualified(reading, m, catalog))[0]})


def read_as(question: str, catalog: dict[str, Any]) -> str:
    """What the question was read as, in the one line every surface shows ('Read as: flights ·
    dest = LAX · July 2013 · level', and the unread words, if any)."""
    return read_as_line(_read(question, catalog).reading)


def _qualified(reading: Reading, named: Mention, catalog: dict[str, Any]
               ) -> tuple[list[str], list[str]]:
    """Sibling metrics the question's other words point the named one at ('real' of 'real
    value moments' beside 'value moments'), and those words (protocol.reading.qualifiers)."""
    found = siblings(reading, named, catalog)
    said: list[str] = []
    for extra in found.values():
        said += sorted(extra - set(said))
    return list(found), said


def _current(ctx: AnswerContext, metric: str) -> str:
    return ctx.index_.current.get(metric, metric)


def _distinct(cited: Iterable[Cited]) -> list[Cited]:
    """One cited item per (result, row): the fields of one row share its windows and members."""
    seen: dict[tuple[int, int], Cited] = {}
    for c in cited:
        seen.setdefault((c.citation.handle, id(c.row)), c)
    return list(seen.values())


def _finding(code: str, message: str, evidence: dict[str, Any], suggestion: str) -> Finding:
    return Finding(code, None, message, evidence, suggestion)


def _cited_list(cited: Iterable[Cited], limit: int = 3) -> str:
    texts = list(dict.fromkeys(c.text for c in cited))
    return ", ".join(texts[:limit]) + (" …" if len(texts) > limit else "")


# --- metric --------------------------------------------------------------------------------

@emits("off_question_metric")
def find_off_metric(ctx: AnswerContext) -> list[Finding]:
    """The question names a governed metric (by name, label or synonym, or qualifies one toward
    a sibling) that no claim cites a field of, nor a tree edge of the argument ends in."""
    scope = scope_of(ctx)
    if not scope.checks("metric") or scope.question is None:
        return []
    carried = answer_metrics(ctx)  # scope.cited is what the claims cite
    out: list[Finding] = []
    seen: set[str] = set()
    for mention in scope.question.reading.metrics:
        asked = _current(ctx, mention.name)
        if asked in seen:
            continue
        seen.add(asked)
        siblings, words = scope.question.qualified.get(mention.name, ([], []))
        if siblings and not carried & {_current(ctx, s) for s in siblings}:
            out.append(_qualified_finding(mention, siblings[0], words, carried, scope))
        elif not siblings and asked not in carried:
            out.append(_metric_finding(mention, asked, carried, scope))
    return out


def _metric_finding(mention: Mention, asked: str, carried: set[str], scope: Scope) -> Finding:
    cited = ", ".join(sorted(carried))
    fix = ""
    if mention.how in SYNONYM_HOWS:
        fix = (f" If the question's '{mention.words}' (a {SYNONYM_HOWS[mention.how]} of {asked}) "
               f"means {sorted(carried)[0]}, move it there; if it is ambiguous, remove it.")
    return _finding(
        "off_question_metric",
        f"The question asks about {mention.words!r} ({asked}), but no claim cites {asked} (they "
        f"cite {cited}: {_cited_list(scope.cited)}).",
        {"asked": asked, "phrase": mention.words, "cited": cited,
         "citations": sorted({c.text for c in scope.cited})},
        f"Answer with {asked}, or say why another metric answers the question." + fix)


def _qualified_finding(mention: Mention, asked: str, words: list[str], carried: set[str],
                       scope: Scope) -> Finding:
    cited = ", ".join(sorted(carried))
    said = " ".join(words)
    return _finding(
        "off_question_metric",
        f"The question says {said!r} of {mention.words!r}, which points at {asked}, but "
        f"'{mention.words}' alone names {mention.name} and the answer cites {cited} "
        f"({_cited_list(scope.cited)}), not {asked}.",
        {"asked": asked, "phrase": f"{said} {mention.words}", "cited": cited,
         "named": mention.name, "citations": sorted({c.text for c in scope.cited})},
        f"'{mention.words}' names {mention.name} though the question means {asked}: relabel "
        f"{mention.name} so '{mention.words}' alone does not name it, or make the question's "
        f"'{said} … {mention.words}' a synonym of {asked}.")


# --- window --------------------------------------------------------------------------------

@emits("off_question_window")
def find_off_window(ctx: AnswerContext) -> list[Finding]:
    """The question names a window that no cited result's window (or cited row's period)
    covers."""
    scope = scope_of(ctx)
    if not scope.checks("window") or scope.question is None:
        return []
    windows = answer_windows(ctx)  # scope.cited is what the claims cite
    running = scope.question.reading.asks.cumulative
    return [_window_finding(p.period, p.words, windows, scope)
            for p in scope.question.reading.periods if not _answered(p.period, windows, running)]


def _answered(period: Period, windows: Iterable[Window], running: bool = False) -> bool:
    """A cited window is the period; for a running total ('by the end of May') one that ends
    in the period's last days and starts before it."""
    if running:
        return any(w[0] <= period.start and _ends_with(period, w) for w in windows)
    return any(_same(period, w) for w in windows)


def _ends_with(period: Period, window: Window) -> bool:
    """The window ends inside the period's last quarter (its last whole week, its last day)."""
    return period.end - (period.end - period.start) / 4 <= window[1] <= period.end


def _same(period: Period, window: Window) -> bool:
    """Each covers at least SAME_WINDOW of the other."""
    start, end = max(period.start, window[0]), min(period.end, window[1])
    shared = (end - start).days + 1
    size = (window[1] - window[0]).days + 1
    return shared >= SAME_WINDOW * period.days and shared >= SAME_WINDOW * size


def _window_finding(period: Period, words: str, windows: set[Window], scope: Scope) -> Finding:
    asked = f"{period.start}..{period.end}"
    shown = sorted(f"{a}..{b}" for a, b in windows)
    return _finding(
        "off_question_window",
        f"The question asks about {words!r} ({asked}), but the cited results cover "
        f"{', '.join(shown)} ({_cited_list(scope.cited)}).",
        {"asked": asked, "phrase": words, "cited": shown},
        f"Answer over {asked}, or say in the answer why another window answers the question.")


# --- filter --------------------------------------------------------------------------------

@emits("off_question_filter")
def find_off_filter(ctx: AnswerContext) -> list[Finding]:
    """The question names a member that neither a filter nor a row selector of the cited
    results applies."""
    scope = scope_of(ctx)
    if not scope.checks("filter") or scope.question is None:
        return []
    out: list[Finding] = []
    held = _of_asked_metrics(ctx, scope)
    for group in by_span(scope.question.reading.members):
        if all(_carried(ctx, held, m.name, m.member or "") is False for m in group):
            out.append(_filter_finding(ctx, group[0], scope))
    for group in by_span(scope.question.reading.ranges):  # 'after 9pm': hours 21, 22, 23
        if _within(ctx, held, group[0].name, {m.member or "" for m in group}) is False:
            out.append(_range_finding(ctx, group, held))
    for group in by_span(scope.question.reading.excluded):
        if all(keeps_out(ctx, held, m.name, m.member or "") is False for m in group):
            out.append(_kept_out_finding(ctx, group[0], held))
    return out


def _carried(ctx: AnswerContext, cited: Iterable[Cited], dim: str, member: str) -> bool | None:
    """`carries` over the dimension and every other name of its attribute ('region' of
    customers is the `region__region_name` a query may filter by): True when one carries the
    member, None when one cannot be told, else False."""
    found = [carries(ctx, cited, d, member) for d in (dim, *_same_attribute(ctx, dim))]
    return True if True in found else None if None in found else False


def _within(ctx: AnswerContext, cited: Iterable[Cited], dim: str, kept: set[str]) -> bool | None:
    """True when every cited value is for members of the range only: its row is one of them,
    or its call's filter keeps some of them and no other; None when that cannot be told."""
    dims = [dim, *_same_attribute(ctx, dim)]
    unknown = False
    for c in cited:
        keyed = next((c.row.key[d] for d in dims if d in c.row.key), None)
        if keyed is not None:
            if keyed not in kept:
                return False
            continue
        filters = ctx.evidence.filters(c.citation.handle)
        if filters is None:
            unknown = True
            continue
        applied = [filters[d] for d in dims if d in filters]
        if not applied or not all(a and a <= kept for a in applied):
            return False
    return None if unknown else True


def _range_finding(ctx: AnswerContext, group: list[Mention], cited: Iterable[Cited]) -> Finding:
    dim, kept = group[0].name, sorted(m.member or "" for m in group)
    return _finding(
        "off_question_filter",
        f"The question asks about {group[0].words!r} ({dim} in {', '.join(kept)}), but a cited "
        f"result is not kept to those members ({_cited_list(cited)}).",
        {"asked": f"{dim} in {', '.join(kept)}", "phrase": group[0].words, "dimension": dim,
         "cited": members_cited(ctx, cited, dim)},
        f"Filter the query to {dim} in {', '.join(kept)} (where), or cite only their rows.")


def keeps_out(ctx: AnswerContext, cited: Iterable[Cited], dim: str, member: str) -> bool | None:
    """True when every cited value is for other members of the dimension than `member`: its
    row is another member's, or the call behind it keeps the member out (a `not_in` filter, or
    an `in` filter without it); False when one is not; None when that cannot be told (a result
    given without its call)."""
    dims = [dim, *_same_attribute(ctx, dim)]
    unknown = False
    for c in cited:
        keyed = next((c.row.key[d] for d in dims if d in c.row.key), None)
        if keyed is not None:
            if keyed == member:
                return False
            continue
        where = _where(ctx, c.citation.handle)
        if where is None:
            unknown = True
            continue
        if not any(f.get("dimension") in dims and _keeps_out(f, member) for f in where):
            return False
    return None if unknown else True


def _keeps_out(f: dict[str, Any], member: str) -> bool:
    values = [str(v) for v in f.get("values") or ()]
    op = f.get("op", "in")
    return (op == "not_in" and member in values) or (op == "in" and bool(values)
                                                      and member not in values)


def _where(ctx: AnswerContext, handle: int) -> list[dict[str, Any]] | None:
    """The filters of the call behind a result (None when its arguments were not recorded)."""
    for call in ctx.evidence.calls:
        if call.handle != handle:
            continue
        arguments: Any = call.arguments
        if arguments is None:
            return None
        if isinstance(arguments, msgspec.Raw):
            arguments = msgspec.json.decode(arguments) if arguments else None
        where = arguments.get("where") if isinstance(arguments, dict) else None
        return [f for f in where if isinstance(f, dict)] if isinstance(where, list) else []
    return None


def _kept_out_finding(ctx: AnswerContext, mention: Mention, cited: Iterable[Cited]) -> Finding:
    dim, member = mention.name, mention.member or ""
    return _finding(
        "off_question_filter",
        f"The question leaves out {mention.words!r} ({dim} != {member}), but a cited result "
        f"counts it ({_cited_list(cited)}).",
        {"asked": f"{dim}!={member}", "phrase": mention.words, "dimension": dim,
         "cited": members_cited(ctx, cited, dim)},
        f"Keep {dim} = {member} out of the query (where: op not_in), or cite only other "
        f"members' rows.")


@emits("mislabelled_member")
def find_kept_out(ctx: AnswerContext) -> list[Finding]:
    """A claim says a member is left out ('airline other than Delta', 'excluding Online'),
    but what it cites counts that member."""
    out: list[Finding] = []
    for claim in ctx.claims:
        if not claim.cited:
            continue
        _kept, excluded, _cues, _only = exclusions(
            claim.claim.text, ctx.index_.read("mentions", claim.claim.text,
                                              lambda t: find_mentions(t, ctx.catalog)))
        for group in by_span(excluded):
            if all(keeps_out(ctx, claim.cited, m.name, m.member or "") is False for m in group):
                m = group[0]
                out.append(Finding(
                    "mislabelled_member", claim.cid,
                    f"Claim {claim.cid} leaves out {m.words!r} ({m.name} != {m.member}), but "
                    f"what it cites counts it ({_cited_list(claim.cited)}).",
                    {"said": m.member, "dimension": m.name, "phrase": m.words,
                     "cited": members_cited(ctx, claim.cited, m.name)},
                    f"Cite a result that keeps {m.name} = {m.member} out (where: op not_in), "
                    f"or drop the words that leave it out."))
    return out


def _of_asked_metrics(ctx: AnswerContext, scope: Scope) -> tuple[Cited, ...]:
    """The cited values of the metrics the question asks about (when the answer cites any):
    'revenue at the Online store' is answered by Online's revenue, not by the overall revenue
    beside Online's order count."""
    assert scope.question is not None
    asked = set()
    for m in scope.question.reading.metrics:
        asked.add(_current(ctx, m.name))
        asked |= {_current(ctx, s) for s in scope.question.qualified.get(m.name, ([], []))[0]}
    current = ctx.index_.current
    held = tuple(c for c in scope.cited if current.get(c.metric, c.metric) in asked)
    return held or scope.cited


def _filter_finding(ctx: AnswerContext, mention: Mention, scope: Scope) -> Finding:
    dim, member = mention.name, mention.member or ""
    have = members_cited(ctx, scope.cited, dim)
    applied = ", ".join(have) if have else "none (all members)"
    fix = ""
    if mention.how == "member_synonym":
        fix = (f" '{mention.words}' is a member synonym of {dim} = {member}: if it means another "
               "member, fix the dimension's member_synonyms.")
    return _finding(
        "off_question_filter",
        f"The question asks about {mention.words!r} ({dim} = {member}), but no cited result "
        f"filters to it or cites its row ({dim} applied: {applied}).",
        {"asked": f"{dim}={member}", "phrase": mention.words, "dimension": dim,
         "cited": have},
        f"Filter the query to {dim} = {member} (where) or cite its row." + fix)


# --- shape ---------------------------------------------------------------------------------

@emits("off_question_shape")
def find_off_shape(ctx: AnswerContext) -> list[Finding]:
    """The question asks for a change, a ranking, a breakdown, a series or members side by
    side; the answer gives one level."""
    scope = scope_of(ctx)
    if not scope.checks("shape") or scope.question is None:
        return []
    for asked, met in _shapes(ctx, scope.question.reading):
        if not met(scope.cited):
            return [_shape_finding(asked, scope)]
    return []


Test = Callable[[tuple[Cited, ...]], bool]
"""Does the answer, by what it cites, give this shape?"""


def _shapes(ctx: AnswerContext, reading: Reading) -> list[tuple[str, Test]]:
    """Each shape the question asks for, with the test the cited items must pass."""
    asks = reading.asks
    dims = ctx.catalog.get("dimensions") or {}
    out: list[tuple[str, Test]] = []
    if asks.change or asks.why or asks.compare:
        out.append(("a change", partial(_has_change, ctx)))
        if not asks.why:
            out.append(("a change as the headline", partial(_headline_is_change, ctx)))
    if asks.difference:
        out.append(("the difference as the headline", partial(_headline_is_difference, ctx)))
    if asks.compare == "explicit" and len(reading.periods) >= 2:
        named = reading.periods[:2]
        out.append((f"two named periods, {named[0].words} versus {named[1].words}",
                    partial(_has_both, ctx, [p.period for p in named])))
    if asks.share is not None:
        out.append(("a share of a total", partial(_has_share, ctx)))
    if asks.cumulative:
        out.append(("a cumulative total", partial(_has_running, ctx, reading)))
    ranking = asks.ranking
    what = "a ranking" if ranking is not None else "a breakdown"
    need = max(2, ranking.n or 2) if ranking is not None else 2
    of = f" of {ranking.n}" if ranking is not None and ranking.n and ranking.n > 1 else ""
    out += [(f"{what}{of} by {dim}", partial(_spans_members, ctx, dim, None, need))
            for dim in asks.breakdown if dim in dims]
    if asks.gap is not None:
        first, second = ([m for m in reading.members if m.span == span] for span in asks.gap)
        if first and second:
            out.append((f"{first[0].member} less {second[0].member} as the headline",
                        partial(_headline_is_gap, ctx, first, second)))
    elif any(dim in dims for dim in asks.breakdown) or _side_by_side(reading):
        out.append(("the top member's value as the headline", partial(_headline_is_top, ctx)))
    if asks.series:
        out.append((f"a series{f' by {asks.grain}' if asks.grain else ''}",
                    partial(_has_periods, ctx)))
    elif ranking is not None and ranking.grain is not None:
        # 'which month had the most': the periods compared, and the extreme as the headline
        out.append((f"a ranking of the {ranking.grain}s", partial(_has_periods, ctx)))
        out.append((f"the {'largest' if ranking.order == 'most' else 'smallest'} "
                    f"{ranking.grain} as the headline", partial(_headline_is_extreme, ctx,
                                                                ranking.order)))
    out += [(f"{', '.join(members)} side by side", partial(_spans_members, ctx, dim, members, 2))
            for dim, members in _side_by_side(reading).items()]
    return out


def _spans_members(ctx: AnswerContext, dim: str, members: list[str] | None, need: int,
                   cited: tuple[Cited, ...]) -> bool:
    """`need` or more members of the dimension (of `members`, when given) have cited values
    (a member reached by another join path, 'store' for 'order__store__store_name', counts)."""
    found = set()
    dims = [dim, *_same_attribute(ctx, dim)]
    for other in dims:
        found |= _members(ctx, cited, other)
    if members is None and found and {str(m) for m in found} >= _held_members(ctx, cited, dims):
        return True  # the whole breakdown, though its data holds fewer members than `need`
    return len(found & set(members) if members is not None else found) >= need


def _held_members(ctx: AnswerContext, cited: tuple[Cited, ...], dims: list[str]) -> set[str]:
    """Every member the cited results split by the dimension hold, none of them filtered on
    it (every claim's catastrophe is Fire: a breakdown of one member); a result filtered on
    the dimension holds a member the answer may not leave out."""
    out: set[str] = set()
    for c in cited:
        kept = ctx.evidence.filters(c.citation.handle) or {}
        for row in c.result.rows:
            for d in dims:
                if d in row.key and row.key[d] not in (None, ""):
                    out.add(str(row.key[d]) if not kept.get(d) else "\x00filtered")
    return out or {"\x00none"}


def _same_attribute(ctx: AnswerContext, dim: str) -> list[str]:
    dims = ctx.catalog.get("dimensions") or {}
    mine = (dims.get(dim) or {}).get("qualified") or dim
    out = []
    for other, info in dims.items():
        theirs = info.get("qualified") or other
        if other != dim and (mine.endswith(f"__{theirs}") or theirs.endswith(f"__{mine}")
                             or mine == theirs):
            out.append(other)
    return out


def _headline_is_change(ctx: AnswerContext, cited: tuple[Cited, ...]) -> bool:
    """The headline value is a change: a numeric headline that some claim states as a level
    (a cited `value` field) and none as a change, or that equals a cited level (a `value` or
    `previous` field: 11,343 → 12,573) and no cited change, is a level where a change was
    asked."""
    headline = ctx.answer.value
    if not isinstance(headline, int | float) or isinstance(headline, bool):
        return True
    fields = {c.citation.field for claim in ctx.claims if _same_number(claim.claim.value, headline)
              for c in claim.cited}
    if fields:
        return bool(fields & CHANGE_FIELDS) or "value" not in fields
    number = from_value(headline)
    equal = {c.citation.field for c in cited if numeric(c.value) and matches(number, c.value)}
    return not equal & LEVEL_FIELDS or bool(equal & (CHANGE_FIELDS - LEVEL_FIELDS))


def _headline_is_difference(ctx: AnswerContext, cited: tuple[Cited, ...]) -> bool:
    """'How many more … in May than in April': the headline is a cited `delta` (some claim
    states it citing one), not the percent change or a level."""
    headline = ctx.answer.value
    if not isinstance(headline, int | float) or isinstance(headline, bool):
        return False
    return any(c.citation.field == "delta" for claim in ctx.claims
               if _same_number(claim.claim.value, headline) for c in claim.cited)


def _headline_is_gap(ctx: AnswerContext, first: list[Mention], second: list[Mention],
                     cited: tuple[Cited, ...]) -> bool:
    """'How many more flights went to LAX than to SFO': the headline is LAX's cited value less
    SFO's (each a row of one cited result, or a filter's one member)."""
    headline = ctx.answer.value
    if not isinstance(headline, int | float) or isinstance(headline, bool):
        return False

    def values(named: list[Mention]) -> list[float]:
        return [c.value for c in cited if numeric(c.value) and c.citation.field == "value"
                and any(m.member in _members(ctx, (c,), other) for m in named
                        for other in (m.name, *_same_attribute(ctx, m.name)))]

    return any(matches(from_value(headline), a - b) for a in values(first) for b in values(second))


LEVEL_FIELDS = {"value", "previous"}
"""Fields that are a level, not a change (a comparison's `previous` is the earlier level)."""


def _headline_is_top(ctx: AnswerContext, cited: tuple[Cited, ...]) -> bool:
    """A breakdown's or ranking's numeric headline is its top member's value: the value the
    answer lists first. (A member headline other than the first listed is mislabelled_member,
    prose.py.)"""
    listed = ctx.answer.values or []
    headline = ctx.answer.value
    if not listed or isinstance(headline, bool) or not isinstance(headline, int | float):
        return True
    top = listed[0]
    return not numeric(top.value) or matches(from_value(headline), top.value)



def _same_number(a: Any, b: float) -> bool:
    if not isinstance(a, int | float) or isinstance(a, bool):
        return False
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _has_both(ctx: AnswerContext, periods: list[Period], cited: tuple[Cited, ...]) -> bool:
    """Each of the two named periods is a cited window (a comparison's current and previous,
    or two levels), not one span holding both."""
    windows = answer_windows(ctx)
    return all(_answered(p, windows) for p in periods)


def _has_share(ctx: AnswerContext, cited: tuple[Cited, ...]) -> bool:
    """A share: a cited `share_of_total` (a row's share of its total, which the layer divided)
    or `share` field, or one metric cited both for a part and for a whole (a member's row or
    filter, and the total or every member)."""
    if any(c.citation.field in SHARE_FIELDS for c in cited):
        return True
    if any((claim.composition or {}).get("whole") == "period" for claim in ctx.claims):
        return True  # a part period's value over its whole's (checks.py `_period_share`)
    scopes: dict[str, set[int]] = {}
    for c in _distinct(cited):
        scopes.setdefault(c.metric, set()).add(_restrictions(ctx, c))
    return any(len(s) >= 2 and min(s) < max(s) for s in scopes.values())


def _restrictions(ctx: AnswerContext, c: Cited) -> int:
    """How many member restrictions a cited value has (its row's members and its filters)."""
    keyed = {k for k in c.row.key if k != c.result.grain}
    filtered = set((ctx.evidence.filters(c.citation.handle) or {}).keys())
    return len(keyed | filtered)


def _has_running(ctx: AnswerContext, reading: Reading, cited: tuple[Cited, ...]) -> bool:
    """A running total: a cited window that starts before the named period (or the data) and
    ends with it."""
    windows = answer_windows(ctx)
    if reading.periods:
        return any(_answered(p.period, windows, running=True) for p in reading.periods)
    return any(w[0] < w[1] for w in windows)


def _has_periods(ctx: AnswerContext, cited: tuple[Cited, ...]) -> bool:
    """Values for two or more periods are cited."""
    return len({_period(ctx, c) for c in cited}) >= 2


def _headline_is_extreme(ctx: AnswerContext, order: str, cited: tuple[Cited, ...]) -> bool:
    """The headline names the period whose cited value is the largest (or smallest)."""
    values = [(c.value, _period(ctx, c)) for c in cited
              if c.citation.field == "value" and numeric(c.value) and _period(ctx, c)]
    if not values:
        return False
    best = (max if order == "most" else min)(values, key=lambda v: v[0])
    headline = str(ctx.answer.value or "")
    period: Any = best[1]  # a Window (mypyc: the list's element type is not narrowed)
    start = str(getattr(period, "start", period[0] if isinstance(period, tuple) else period))
    return len(headline) >= 7 and start.startswith(headline)


def _side_by_side(reading: Reading) -> dict[str, list[str]]:
    """Dimensions the question names two or more members of ('android and ios')."""
    found: dict[str, list[str]] = {}
    for dim, member in reading.member_keys():
        found.setdefault(dim, []).append(member)
    return {d: m for d, m in found.items() if len(m) >= 2}


def _has_change(ctx: AnswerContext, cited: tuple[Cited, ...]) -> bool:
    """A change field is cited, or one metric's value at two periods."""
    if any(c.citation.field in CHANGE_FIELDS for c in cited):
        return True
    periods: dict[tuple[str, tuple], set[Window | None]] = {}
    for c in cited:
        key = (c.metric, tuple(sorted((k, v) for k, v in c.row.key.items()
                                      if k != c.result.grain)))
        periods.setdefault(key, set()).add(_period(ctx, c))
    return any(len(p) >= 2 for p in periods.values())


def _period(ctx: AnswerContext, c: Cited) -> Window | None:
    """The period a cited value is for: its row's period in a grain result, else the window."""
    grain = c.result.grain
    if grain and grain in c.row.key:
        return period_window(c.row.key[grain], grain)
    windows = windows_of(ctx, c)
    return windows[0] if windows else None


def _members(ctx: AnswerContext, cited: Iterable[Cited], dim: str) -> set[str]:
    """Members of a dimension the cited values are for (a row's member, or a filter's one)."""
    out: set[str] = set()
    for c in cited:
        if dim in c.row.key:
            out.add(c.row.key[dim])
            continue
        kept = (ctx.evidence.filters(c.citation.handle) or {}).get(dim, frozenset())
        if len(kept) == 1:
            out |= kept
    return out


def _shape_finding(asked: str, scope: Scope) -> Finding:
    gives = ("another member's value as its headline" if asked.startswith("the top")
             else "a percent change or a level as its headline"
             if asked.startswith("the difference")
             else "a level as its headline" if asked.endswith("as the headline")
             else "another shape")
    return _finding(
        "off_question_shape",
        f"The question asks for {asked}, but the answer gives {gives} "
        f"({_cited_list(scope.cited)}).",
        {"asked": asked, "cited": sorted({c.text for c in scope.cited})},
        _SHAPE_FIX.get(asked.split()[1] if asked.startswith(("a ", "the ")) else asked.split()[0],
                       "Answer with each member the question names, one claim per member."))


_SHAPE_FIX = {
    "difference": "Set value to the cited delta of the comparison (the later period's value "
                  "less the earlier's), as 'how many more' asks, and cite it.",
    "top": "Set value to the value (or the member) the answer lists first, the top of its "
           "ranking.",
    "change": "Answer with a comparison (compare: value, previous, pct_change), or say why a "
              "level answers the question.",
    "ranking": "Break the metric down by the dimension (group_by), order it, and cite each "
               "ranked member's row.",
    "breakdown": "Break the metric down by the dimension (group_by) and cite each member's row.",
    "series": "Query the metric at the grain over the window (grain) and cite each period's row.",
    "share": "Ask the query for shares (share: true, group_by the member's dimension) and cite "
             "the member's row's share_of_total.",
    "cumulative": "Measure from the start of the data (or of the year) to the end of the named "
                  "period, and cite that window.",
    "two": "Compare the two named periods themselves (compare: current_window = the later, "
           "previous_window = the earlier), not one span holding both.",
}


# --- unread --------------------------------------------------------------------------------

@emits("unread_question")
def find_unread(ctx: AnswerContext) -> list[Finding]:
    """The question has words the reader could not map to the catalog or the grammar: whatever
    the answer cites, nobody checked that it answers them."""
    if not ctx.question or ctx.answer.status != "answered":
        return []
    reading = read_question(ctx.index_, ctx.question).reading
    unread = reading.unread
    if not unread:
        return []
    doubted = {d.words: d.detail for d in reading.doubts}
    quoted = ", ".join(repr(w) for w in unread if w not in doubted)
    said = [f"The question says {quoted}, which the reader could not map to the catalog or the "
            "grammar"] if quoted else []
    said += [f"'{w}' is in doubt (read as {detail})" for w, detail in doubted.items()
             if w in unread]  # 'Chai' is a member, and begins others' names too
    return [_finding(
        "unread_question",
        "; ".join(said) + "; the answer was not checked against those words.",
        {"unread": unread, "read_as": read_as_line(reading)},
        "Refuse, naming the words, or ask the data team to govern them (a metric, a dimension, "
        "a member or a synonym).")]

SCOPE_FINDINGS = (find_off_metric, find_off_window, find_off_filter, find_off_shape, find_unread,
                  find_kept_out)
"""The question-scope finders, answer-level, after the claims' findings."""
