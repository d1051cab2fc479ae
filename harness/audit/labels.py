"""What a claim's text names — a metric, a member, a period — must be what it cites.

A claim's text is read once per catalog by `protocol.reading` (the reader the rules analyst reads
questions with). A measurement claim is held to its own citations; a conclusion or causal claim to
what its premises cite, followed through premises, where a tree edge it rests on counts as citing
both its ends (a causal claim may name the parent and the factor of its edge).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from showwork.harness.audit.checks import check_premises, check_sources, check_support_shape
from showwork.harness.audit.context import AnswerContext, Cited, ClaimContext
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.steps import codes_of, emits
from showwork.harness.audit.types import Finding
from showwork.protocol.citations import CHANGE_FIELDS, StatementCitation
from showwork.protocol.numbers import claims_in
from showwork.protocol.periods import written_dates
from showwork.protocol.reading import Mention, Period, PeriodMention, find_mentions, find_periods
from showwork.protocol.reading._literals import search
from showwork.protocol.reading.filters import exclusions

Window = tuple[dt.date, dt.date]
"""An inclusive date range: (first day, last day)."""
UNRESOLVED = frozenset(codes_of((check_support_shape, check_sources, check_premises)))
"""Defects that leave a citation unresolved (a wrong value or number still resolves)."""
SYNONYM_HOWS = {"synonym": "synonym", "label": "label", "previous_name": "previous name",
                "member_synonym": "member synonym"}
"""How a catalog entry matched, when it is a word a data team chose (the backlog's fix)."""


@dataclass(frozen=True, eq=False)
class ClaimReading:
    """What a claim's text names in the catalog, in text order (kept per text: compared by
    identity)."""

    metrics: tuple[Mention, ...]
    members: tuple[Mention, ...]
    periods: tuple[PeriodMention, ...]
    """Periods outside governed names, resolved against the catalog's as-of date."""
    first: dict[str, Mention] = field(default_factory=dict)
    """Each metric named (by the name it was read as) → its first mention."""
    said: frozenset[str] = frozenset()
    """The current names of the metrics named."""
    groups: tuple[list[Mention], ...] = ()
    """The member mentions grouped by the words that made them (`by_span`)."""


# Not frozen only for speed: built per claim by every audit (a frozen __init__ costs ~5×).
@dataclass(slots=True)
class Support:
    """What a claim rests on: its resolved result citations and tree statements, with its
    premises' (followed through premises)."""

    cited: tuple[Cited, ...]
    statements: tuple[StatementCitation, ...]
    whole: bool
    """Every citation of the claim and of its premises resolved: only then can the text be
    held to what it rests on (a broken premise is a defect already, never a guess here)."""

    # Written out, not generated: natively compiled (see ClaimContext.__init__).
    def __init__(self, cited: tuple[Cited, ...], statements: tuple[StatementCitation, ...],
                 whole: bool) -> None:
        self.cited = cited
        self.statements = statements
        self.whole = whole


def read_claim(ctx: ClaimContext) -> ClaimReading:
    """The claim's text read against the catalog, once per catalog for each text."""
    if ctx.reading is None:
        ctx.reading = read_words(ctx.index_, "claim", ctx.claim.text)
    return ctx.reading


def read_words(index: CatalogIndex, kind: str, text: str) -> ClaimReading:
    """Any answer text (the prose) read like a claim's, once per catalog for each text. The
    reading is the text's alone, whatever `kind` the caller reads it as ('claim', 'prose'):
    one text read as both (a claim's text that is also a sentence of the prose) is read once."""
    return index.read(_READ_WORDS, text, lambda t: _read(t, index))


_READ_WORDS = "read-words"
"""The kind `read_words` keeps its readings under, for every `kind` it is asked as."""


def _read(text: str, index: CatalogIndex) -> ClaimReading:
    # 'other than Delta': a member left out is no member named (scope.find_kept_out holds it)
    mentions, _excluded, _cues, _only = exclusions(text, index.read(
        "mentions", text, lambda t: find_mentions(t, index.catalog)))  # shared with the checks
    read = find_periods(text, as_of(index.catalog))
    periods = _with_written(text, read.found + _backwards(read.problems, index.catalog),
                            index.catalog)
    # 'which may or may not explain it': in written prose the month is capitalised
    periods = tuple(p for p in periods if p.words != "may")
    # a member inside a longer period is the period's word ('Q2' of 'Q2 2017' where a text
    # quarter is a member; 'May' of 'May 2019'): the longer reading wins, as in the reader
    mentions = [m for m in mentions if m.kind != "member" or not any(
        a <= m.span[0] and m.span[1] <= b and b - a > m.span[1] - m.span[0]
        for a, b in (p.span for p in periods))]
    # 'US$59,224.50', 'C$12': letters written onto a currency sign are the currency's
    # '61,014.03 US dollars': letters inside a number as the number reader writes it (its
    # currency or scale words) are the number's, likewise
    if any(m.kind == "member" for m in mentions):
        numbers = index.read("claims_in", text, claims_in)  # shared with the number checks
        mentions = [m for m in mentions if m.kind != "member" or not (
            _CURRENCY_SIGN.match(text, m.span[1]) or any(
                n.start < m.span[0] and m.span[1] <= n.end for n in numbers))]
    mentions = _keyed_by_dimension_words(text, mentions)
    spans = [m.span for m in mentions]
    metrics = tuple(m for m in mentions if m.kind == "metric")
    members = tuple(m for m in mentions if m.kind == "member")
    first: dict[str, Mention] = {}
    for m in metrics:
        first.setdefault(m.name, m)
    return ClaimReading(metrics, members,
                        tuple(p for p in periods if not _overlaps(p.span, spans)), first,
                        frozenset(_current(index, m) for m in first), tuple(by_span(members)))


_CURRENCY_SIGN = re.compile(r"[$€£¥]\s?\d")
_DIMENSION_GAP = re.compile(r"\s*[:=]?\s*")
"""Between a dimension's words and the member written as its value ('origin airport LAX')."""


def _keyed_by_dimension_words(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """A member written right after a dimension's words is that dimension's member: 'origin
    airport LAX; destination airport JFK' names origin = LAX and destination = JFK, whichever
    dimension the reader would take LAX or JFK for alone (so a route written backwards is held
    to the cited filter of each end). Of a member the words' dimension does not have, the text
    still says that dimension is it (no cited row or filter can carry it)."""
    dims = [m for m in mentions if m.kind == "dimension"]
    if not dims or not any(m.kind == "member" for m in mentions):
        return list(mentions)
    out: list[Mention] = []
    for m in mentions:
        # every dimension the words right before may be (one attribute under several names)
        named = {d.name: d for d in dims if d.span[1] <= m.span[0] and
                 _DIMENSION_GAP.fullmatch(text, d.span[1], m.span[0])} \
            if m.kind == "member" else {}
        if not named or m.name in named:
            out.append(m)
        elif not any(o.kind == "member" and o.span == m.span and o.name in named
                     for o in mentions):
            out.append(dataclasses.replace(m, name=next(iter(named))))
    return out


def _with_written(text: str, found: Sequence[PeriodMention], catalog: dict[str, Any]
                  ) -> tuple[PeriodMention, ...]:
    """The reader's periods and the dates it does not read as people write them
    (protocol/periods.py `written_dates`: '03/02/2026', '07/2019', "Feb. '13"), in the
    catalog's date order ('date_order: day_first'; month first otherwise); a period of the
    reader inside one of those ('2026' of '03/02/2026') is the date's, not its own."""
    if "/" not in text and "'" not in text and "’" not in text and " month of " not in text:
        return tuple(found)
    written = [PeriodMention(Period(a, b, grain), text[s:e], (s, e)) for a, b, grain, (s, e)
               in written_dates(text, catalog.get("date_order") == "day_first")]
    if not written:
        return tuple(found)
    spans = [w.span for w in written]
    return tuple(sorted([*(p for p in found if not _overlaps(p.span, spans)), *written],
                        key=lambda p: p.span))


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(s < span[1] and span[0] < e for s, e in spans)


def as_of(catalog: dict[str, Any]) -> dt.date | None:
    """The catalog's as-of date (relative periods resolve against it), if it states one."""
    value = catalog.get("as_of")
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def support_of(ctx: ClaimContext) -> Support:
    """The claim's own citations and statements, and its premises' (found once per claim)."""
    if ctx.support is None:
        whole = not ctx.defects or not any(d.code in UNRESOLVED for d in ctx.defects)
        if not ctx.premises:  # a measurement: its own citations
            ctx.support = Support(tuple(ctx.cited), tuple(ctx.statements), whole)
            return ctx.support
        cited, statements = list(ctx.cited), list(ctx.statements)
        for p in ctx.premises:
            if 0 < p < ctx.index and p <= len(ctx.answer_claims):
                premise = support_of(ctx.answer_claims[p - 1])
                cited += premise.cited
                statements += premise.statements
                whole = whole and premise.whole
        ctx.support = Support(tuple(cited), tuple(statements), whole)
    return ctx.support


def _held(ctx: ClaimContext) -> Support | None:
    """What the claim's text is held to: its support when whole and citing a result, else None
    (the claim is the harness's to write, or a citation under it is broken)."""
    if ctx.rendered and ctx.claim.kind == "measurement":
        return None
    support = support_of(ctx)
    return support if support.whole and (support.cited or support.statements) else None


def _current(index: CatalogIndex, metric: str) -> str:
    return index.current.get(metric, metric)


def _fix(how: str, words: str, said: str, meant: str) -> str:
    """The semantic-model fix when a data team's word (a synonym, a label) read as another
    thing than the citation carries."""
    kind = SYNONYM_HOWS.get(how)
    if kind is None:
        return ""
    return (f" '{words}' is a {kind} of {said} in the catalog: if it should mean {meant}, move it "
            f"to {meant}; if it is ambiguous, remove it.")


# --- metrics -------------------------------------------------------------------------------

@emits("mislabelled_metric")
def find_mislabelled(ctx: ClaimContext) -> list[Finding]:
    """The text names a governed metric the claim does not cite (for an argument: that none of
    its premises cites, and that no tree edge it rests on has at either end)."""
    reading = read_claim(ctx)
    support = _held(ctx) if reading.first else None
    if support is None:
        return []
    if ctx.cited:
        return _measurement_metrics(ctx, reading) or _said_quantity(ctx, reading)
    return _argument_metrics(ctx, reading.first, support)


def _measurement_metrics(ctx: ClaimContext, reading: ClaimReading) -> list[Finding]:
    out = []
    current = ctx.index_.current
    for item in ctx.cited:
        if current.get(item.citation.metric, item.citation.metric) in reading.said:
            continue
        said, mention = next(iter(reading.first.items()))
        out.append(_measurement_finding(ctx, said, mention, item))
    return out or _uncited_metric(ctx, reading)


def _measurement_finding(ctx: ClaimContext, said: str, mention: Mention, item: Cited
                         ) -> Finding:
    cited = _current(ctx.index_, item.citation.metric)
    return Finding(
        "mislabelled_metric", ctx.cid,
        f"Claim {ctx.cid} says {mention.words!r} ({said}) but cites {item.text} ({cited}).",
        {"said": said, "phrase": mention.words, "cited": cited, "citation": item.text},
        f"If '{mention.words}' should mean {cited}, add it as a synonym of {cited}; otherwise "
        f"relabel {cited} so it cannot be read as {said}.")


def _uncited_metric(ctx: ClaimContext, reading: ClaimReading) -> list[Finding]:
    """A measurement naming a metric beside the ones it cites ('Value moments for channel
    organic rose 9.33 %' of days per user, named later in the sentence): every metric it names
    is cited, or is the parent a cited contribution or share is of."""
    if len(reading.said) < 2:
        return []
    index = ctx.index_
    current = index.current
    allowed = {current.get(c.citation.metric, c.citation.metric) for c in ctx.cited}
    attributed = {current.get(c.citation.metric, c.citation.metric) for c in ctx.cited
                  if c.citation.field in ("contribution", "share")}
    if attributed:  # the tree's edges are looked at only for a cited contribution or share
        allowed |= {current.get(parent, parent) for (parent, child), kind in index.edges.items()
                    if kind == "exact" and current.get(child, child) in attributed}
    for said, mention in reading.first.items():
        if _current(index, said) not in allowed:
            return [_measurement_finding(ctx, _current(index, said), mention, ctx.cited[0])]
    return []


_SHARE = re.compile(r"(?i)(?:\b(?:made|makes|make)\s+up|\baccount(?:s|ed)?\s+for|\bshare\b[^.;%]*?"
                    r"\b(?:was|is|of))\s+(?P<n>[-+−]?\d[\d,]*(?:\.\d+)?)\s?%|(?P<m>[-+−]?\d[\d,]*"
                    r"(?:\.\d+)?)\s?%\s+of\s+(?:the\s+)?(?:total|all\b|overall)")
"""A percent stated as a share of a whole: 'made up 11.4 % of', '40 % of the total'."""
_AVERAGE = re.compile(r"(?i)\b(?:average|mean)\s+$")
SHARE_FIELDS = frozenset(("share", "share_of_total"))
_AVERAGED = re.compile(r"(?i)\b(?:average|mean|per|rate|share|ratio)\b")


def _share_words(text: str) -> re.Match[str] | None:
    """The words of `text` that state a share (`_SHARE`), searched only where they may be."""
    return search(_SHARE, text)


def _averaged(text: str, metrics: tuple[Mention, ...]) -> tuple[Mention, ...]:
    """The metrics the text names right after 'average' or 'mean'."""
    return tuple(m for m in metrics if _AVERAGE.search(text[max(0, m.span[0] - 9):m.span[0]]))


def _said_quantity(ctx: ClaimContext, reading: ClaimReading) -> list[Finding]:
    """The text calls the cited number another quantity of its metric: a percent change
    stated as a share of a whole, or a total or level called an average."""
    return _share_of_change(ctx) or _average_of_total(ctx, reading)


def _share_of_change(ctx: ClaimContext) -> list[Finding]:
    found = ctx.index_.read("share-words", ctx.claim.text, _share_words)
    if found is None:
        return []
    stated = float((found.group("n") or found.group("m")).replace(",", "").replace("−", "-"))
    units = ctx.catalog["metrics"]
    shares = [c for c in ctx.cited if c.citation.field in SHARE_FIELDS or (
        c.citation.field == "value"
        and (units.get(_current(ctx.index_, c.metric)) or {}).get("unit") == "fraction")]
    if any(_near(c.value, stated) or _near(c.value, stated / 100) for c in shares):
        return []
    change = next((c for c in ctx.cited
                   if c.citation.field == "pct_change" and _near(c.value, stated)), None)
    if change is None:
        return []
    return [Finding(
        "mislabelled_metric", ctx.cid,
        f"Claim {ctx.cid} states {found.group(0)!r}, a share of a whole, but {change.text} is "
        "a percent change of the metric, not its share of anything.",
        {"said": "share", "phrase": found.group(0), "cited": change.metric,
         "citation": change.text},
        "Say the change as a rise or fall, or cite the share (query it with share: true).")]


def _near(value: Any, stated: float) -> bool:
    """The value is the stated magnitude to within its written rounding (5 %)."""
    return isinstance(value, int | float) and \
        abs(abs(value) - abs(stated)) <= 0.051 * max(abs(stated), 0.01)


def _average_of_total(ctx: ClaimContext, reading: ClaimReading) -> list[Finding]:
    if not reading.metrics:
        return []
    averaged = ctx.index_.read("averaged", ctx.claim.text,
                               lambda text: _averaged(text, reading.metrics))
    for mention in averaged:
        info = ctx.catalog["metrics"].get(_current(ctx.index_, mention.name)) or {}
        words = " ".join([info.get("label") or "", *(info.get("synonyms") or ())])
        if info.get("formula") or _AVERAGED.search(words):
            continue  # an average or a ratio already: 'average' only repeats it
        return [Finding(
            "mislabelled_metric", ctx.cid,
            f"Claim {ctx.cid} says the average of {mention.words!r}, but {mention.name} is "
            "a total (or a level), not an average.",
            {"said": f"average {mention.name}", "phrase": mention.words,
             "cited": mention.name, "citation": ctx.cited[0].text},
            f"Drop 'average', or cite a governed average of {mention.name} (define one if it "
            "is meant).")]
    return []


def _argument_metrics(ctx: ClaimContext, named: dict[str, Mention], support: Support
                      ) -> list[Finding]:
    carried = _argued(ctx.index_, support)
    if ctx.claim.kind == "causal":
        carried = _causes(ctx, support) or carried
    said = {_current(ctx.index_, raw): mention for raw, mention in named.items()}
    meant = _meant(ctx, set(said), carried)
    return [_argument_finding(ctx, name, mention, carried, meant)
            for name, mention in said.items() if name not in carried]


def _argued(index: CatalogIndex, support: Support) -> set[str]:
    """Metrics the premises cite, and both ends of every tree edge the claim rests on."""
    current = index.current
    out = {current.get(c.metric, c.metric) for c in support.cited}
    for s in support.statements:
        out |= {current.get(s.parent, s.parent), current.get(s.child, s.child)}
    return out


def _causes(ctx: ClaimContext, support: Support) -> set[str]:
    """What a causal claim may name: the metrics whose change its premises state, and both
    ends of every tree edge it rests on; empty when no premise states a change (a claim about
    levels is held to everything cited)."""
    changed = {_current(ctx.index_, c.metric) for c in changes_argued(ctx)}
    if not changed:
        return set()
    for s in support.statements:
        changed |= {_current(ctx.index_, s.parent), _current(ctx.index_, s.child)}
    return changed


def changes_argued(ctx: ClaimContext) -> list[Cited]:
    """The citations of the claim and its premises (followed through premises) that state a
    change. A field cited beside another metric's change (a base weight, the mix's sizes)
    states no change of its own metric, nor of its row's member."""
    out: list[Cited] = []
    todo, seen = [ctx], set()
    while todo:
        claim = todo.pop()
        if claim.index in seen:
            continue
        seen.add(claim.index)
        out += _changes(claim.cited)
        todo += [ctx.answer_claims[p - 1] for p in claim.premises
                 if 0 < p < claim.index and p <= len(ctx.answer_claims)]
    return out


def _changes(cited: list[Cited]) -> list[Cited]:
    """One claim's citations that state a change: a change field, or both ends (value and
    previous) of its first citation's metric in one row (a stated 'A → B')."""
    out = [c for c in cited if c.citation.field in CHANGE_FIELDS]
    if cited:
        first = cited[0]
        ends = [c for c in cited if c.metric == first.metric and c.row is first.row
                and c.citation.field in ("value", "previous")]
        if len({c.citation.field for c in ends}) == 2:
            out += ends
    return out


def _meant(ctx: ClaimContext, said: set[str], carried: set[str]) -> str:
    """The metric the text most likely meant: its own edge's factor, else a premise's metric
    the text does not name."""
    candidates = [_current(ctx.index_, s.child) for s in ctx.statements] + sorted(carried)
    return next((m for m in candidates if m not in said), candidates[0])


def _argument_finding(ctx: ClaimContext, said: str, mention: Mention, carried: set[str],
                      meant: str) -> Finding:
    listed = ", ".join(sorted(carried))
    return Finding(
        "mislabelled_metric", ctx.cid,
        f"Claim {ctx.cid} ({ctx.claim.kind}) says {mention.words!r} ({said}), but none of its "
        f"premises cites {said} and no tree edge it rests on ends in it (they cite: {listed}).",
        {"said": said, "phrase": mention.words, "cited": meant, "premises": sorted(carried)},
        f"Name the metric the premises argue ({meant}), or add a premise citing {said}."
        + _fix(mention.how, mention.words, said, meant))


# --- members -------------------------------------------------------------------------------

@emits("mislabelled_member")
def find_mislabelled_member(ctx: ClaimContext) -> list[Finding]:
    """The text names a member of a governed dimension that neither a cited row nor a cited
    result's filter has."""
    groups = read_claim(ctx).groups
    if not groups:
        return _unnamed_member(ctx)
    support = _held(ctx)
    if support is None or not support.cited:
        return []
    if ctx.claim.kind == "causal":  # a cause is a member whose change the premises state
        support = Support(tuple(changes_argued(ctx)) or support.cited, support.statements, True)
    out: list[Finding] = []
    for group in groups:
        if all(carries(ctx, support.cited, m.name, m.member or "") is False for m in group):
            if any(measured_against(ctx.claim.text or "", m.span[0],
                                    [x.span for x in read_claim(ctx).members])
                   and _a_row_of(support.cited, m) for m in group):
                continue  # a row the text measures its own against: not the row it states
            found = _member_finding(ctx, group[0], support)
            if all(f.evidence != found.evidence for f in out):
                out.append(found)
    return out or _unnamed_member(ctx)


_AGAINST = re.compile(r"(?i)\b(?:than|ahead\s+of|behind|versus|vs\.?|compared\s+(?:with|to)|"
                      r"times|twice|thrice|double|triple|half)\s+(?:(?:that|those)\s+of\s+)?"
                      r"(?:the\s+)?$")
"""The words before a member or a period a text measures another against: 'more than EWR',
'about twice Virgin America's', '6 fewer than Mug, 12 oz', 'twice the fourth quarter's'."""
_JOINED = re.compile(r"(?i)(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+)$")
"""Between two members of one list ('EWR and JFK combined', 'beverage, merch and …')."""


def measured_against(text: str, start: int, spans: Iterable[tuple[int, int]]) -> bool:
    """The words at `start` name what the text measures something against, after a comparing
    word ('than', 'ahead of', 'twice') or in a list that follows one (of the members or periods
    at `spans`: 'than EWR and JFK combined'): a comparand, not what the text states."""
    at = start
    for begin, end in sorted((s for s in spans if s[1] <= start), reverse=True):
        joined = _JOINED.search(text, 0, at)
        if joined is None or joined.start() != end:
            break
        at = begin
    return _AGAINST.search(text, 0, at) is not None


def _a_row_of(cited: Iterable[Cited], mention: Mention) -> bool:
    """Some result the claim cites has a row of the member (the comparison is held to the rows
    by the readings of what they give together, or left unread)."""
    return any(row.key.get(mention.name) == mention.member for c in cited for row in c.result.rows)


def _a_period_of(cited: Iterable[Cited], mention: PeriodMention) -> bool:
    """Some series the claim cites has a row of the period (of its grain, starting on its
    first day)."""
    start = mention.period.start.isoformat()
    return any(c.result.grain is not None and mention.period.grain in (None, c.result.grain)
               and str(row.key.get(c.result.grain, ""))[:10] == start
               for c in cited for row in c.result.rows)


def _unnamed_member(ctx: ClaimContext) -> list[Finding]:
    """A measurement that cites one member's row of a breakdown but names no member of its
    dimension: the member's value is stated as the whole's."""
    if ctx.claim.kind != "measurement" or ctx.rendered or not ctx.cited:
        return []
    first = ctx.cited[0]
    grain = first.result.grain
    for dim, member in first.row.key.items():
        if dim == grain or any(c.row.key.get(dim) != member for c in ctx.cited):
            continue
        if any(m.name == dim for m in read_claim(ctx).members) or \
                _writes_member(ctx.claim.text, member):
            continue
        return [Finding(
            "mislabelled_member", ctx.cid,
            f"Claim {ctx.cid} names no {dim}, so it reads as all of them, but it cites the row "
            f"{dim} = {member} ({first.text}).",
            {"said": None, "dimension": dim, "phrase": "", "cited": [member],
             "citation": first.text},
            f"Name the member the row is ({dim} {member}), or cite a result over every {dim}.")]
    return []


def _writes_member(text: str, member: str) -> bool:
    """The text writes the member as a word of its own: case-insensitively, but a short code in
    capitals ('IN', 'US', 'DE') only in capitals, for in lower case it is another word ('150 in
    April', 'told us'). Not a part of a word: 'us' is not in 'users'."""
    flags = 0 if len(member) <= 3 and member.isupper() else re.IGNORECASE
    return re.search(rf"(?<!\w){re.escape(member)}(?!\w)", text, flags) is not None


def by_span(mentions: Iterable[Mention]) -> list[list[Mention]]:
    """Mentions grouped by the words that made them (one member word in two dimensions)."""
    groups: dict[tuple[int, int], list[Mention]] = {}
    for m in mentions:
        groups.setdefault(m.span, []).append(m)
    return list(groups.values())


def carries(ctx: Any, cited: Iterable[Cited], dimension: str, member: str) -> bool | None:
    """True when some cited row has the member or the call behind some cited result filters to
    it; False when none does; None when that cannot be told (a result whose row has no such key
    came without its call's filter)."""
    unknown = False
    for item in cited:
        keyed = item.row.key.get(dimension)
        if keyed is not None:
            if keyed == member:
                return True
            continue
        filters = ctx.evidence.filters(item.citation.handle)
        if filters is None:
            unknown = True
        elif member in filters.get(dimension, ()):
            return True
    return None if unknown else False


def members_cited(ctx: Any, cited: Iterable[Cited], dimension: str) -> list[str]:
    """The members of a dimension the cited rows and (recorded) filters have, sorted."""
    found: set[str] = set()
    for item in cited:
        if dimension in item.row.key:
            found.add(item.row.key[dimension])
        found |= (ctx.evidence.filters(item.citation.handle) or {}).get(dimension, frozenset())
    return sorted(found)


def _member_finding(ctx: ClaimContext, mention: Mention, support: Support) -> Finding:
    dim, member = mention.name, mention.member or ""
    have = members_cited(ctx, support.cited, dim)
    cited = ", ".join(have) if have else f"no {dim} filter or row (all members)"
    first = support.cited[0].text
    return Finding(
        "mislabelled_member", ctx.cid,
        f"Claim {ctx.cid} says {mention.words!r} ({dim} = {member}), but what it cites ({first}"
        f"{' …' if len(support.cited) > 1 else ''}) has {dim}: {cited}.",
        {"said": member, "dimension": dim, "phrase": mention.words, "cited": have,
         "citation": first},
        f"Name the member the citation carries ({cited}), or cite a row or a result filtered to "
        f"{dim} = {member}." + _fix(mention.how, mention.words, f"{dim} {member}",
                                     f"{dim} {have[0]}" if have else "another member"))


# --- periods -------------------------------------------------------------------------------

@emits("mislabelled_window")
def find_mislabelled_window(ctx: ClaimContext) -> list[Finding]:
    """The text names a date or period that is not a cited result's window or a cited row's
    period."""
    periods = read_claim(ctx).periods
    support = _held(ctx) if periods else None
    if support is None:
        return []
    windows = {w for item in support.cited for w in windows_of(ctx, item)}
    if not windows:
        return []
    text = ctx.claim.text
    spans = [p.span for p in periods]
    out = [_window_finding(ctx, p, windows, support) for p in periods
           if not (measured_against(text, p.span[0], spans) and _a_period_of(support.cited, p))
           and not names_said_window(p, windows, text) and not _two_windows(p, windows)
           and not ends_said_window(text, p, windows)
           and not stated_year(p, [ctx.claim.value, *(c.value for c in support.cited)])]
    return out or _swapped_windows(ctx, support)


_VERSUS = re.compile(r"\s*,?\s*(?:versus|vs\.?|compared\s+(?:with|to)|against)\s+(?:the\s+)?",
                     re.IGNORECASE)
_TO = re.compile(r"\s*(?:to|→|->)\s+(?:the\s+)?", re.IGNORECASE)
_FROM_TO = re.compile(r"(?i)from\b.*\bto\b")


_FROM_A_TO_B = re.compile(r"(?i)from\s+(?P<a>.+?)\s+to\s+(?P<b>.+)$")


def _backwards(problems: Sequence[Any], catalog: dict[str, Any]) -> tuple[PeriodMention, ...]:
    """'from May 2019 to April 2019', which the reader does not take as one range (it ends
    before it starts): its two periods as the parts of one mention, so a comparison stated the
    other way round is held to the cited windows (`_swapped_windows`) rather than left unread."""
    out = []
    for problem in problems:
        m = _FROM_A_TO_B.match(problem.words) if problem.reason == "ends before it starts" \
            else None
        if m is None:
            continue
        parts = []
        for key in ("a", "b"):
            found = find_periods(m.group(key), as_of(catalog)).found
            if len(found) != 1:
                break
            start = problem.span[0] + m.start(key)
            parts.append(PeriodMention(found[0].period, m.group(key),
                                       (start, start + len(m.group(key)))))
        if len(parts) == 2:
            b, a = parts[1].period, parts[0].period
            out.append(PeriodMention(Period(b.start, a.end, "range"), problem.words,
                                     problem.span, tuple(parts)))
    return tuple(out)


def _two_windows(p: PeriodMention, windows: set[Window]) -> bool:
    """'from April 2019 to May 2019' of a comparison: each part names a cited window (the order
    is held by `_swapped_windows`)."""
    return len(p.parts) == 2 and _FROM_TO.match(p.words) is not None and all(
        names_window(q.period, windows) for q in p.parts)


_FROM_BEFORE = re.compile(r"(?i)\bfrom\s+(?:the\s+)?$")


def stated_pairs(text: str, periods: tuple[PeriodMention, ...]) -> list[tuple[Period, Period]]:
    """(current, previous) of each comparison the text states between two periods: 'A versus
    B' (A is current), 'from A to B' (B is current)."""
    out = []
    for p in periods:
        if len(p.parts) == 2 and _FROM_TO.match(p.words):
            out.append((p.parts[1].period, p.parts[0].period))
    for a, b in zip(periods, periods[1:], strict=False):
        gap = text[a.span[1]:b.span[0]]
        if _VERSUS.fullmatch(gap):
            out.append((a.period, b.period))
        elif _TO.fullmatch(gap) and (a.words.lower().startswith("from ") or _FROM_BEFORE.search(
                text, max(0, a.span[0] - 10), a.span[0]) is not None):
            out.append((b.period, a.period))
    return out


def _compared_windows(item: Cited) -> tuple[Window, Window] | None:
    """(current, previous) window a cited comparison result was asked for."""
    result = item.result
    if result.kind != "compare" or len(result.coverage) != 2:
        return None
    current, previous = (_window(cov.get("requested")) for cov in result.coverage)
    return (current, previous) if current and previous and current != previous else None


def _swapped_windows(ctx: ClaimContext, support: Support) -> list[Finding]:
    """A comparison stated the other way round: 'A versus B' where the cited result compares
    B (current) with A (previous), which states the change with the other sign."""
    reading = read_claim(ctx)
    if len(reading.periods) < 2 and not any(p.parts for p in reading.periods):
        return []
    pairs = stated_pairs(ctx.claim.text, reading.periods)
    for item in support.cited if pairs else ():
        compared = _compared_windows(item)
        if compared is None:
            continue
        current, previous = compared
        for said_current, said_previous in pairs:
            if names_window(said_current, [previous]) and names_window(said_previous, [current]):
                said = f"{said_current.start}..{said_current.end}"
                return [Finding(
                    "mislabelled_window", ctx.cid,
                    f"Claim {ctx.cid} states {said} as the current window against "
                    f"{said_previous.start}..{said_previous.end}, but {item.text} compares "
                    f"{current[0]}..{current[1]} (current) with {previous[0]}..{previous[1]} "
                    "(previous): the change is stated the other way round.",
                    {"said": said, "phrase": "versus", "cited": [f"{a}..{b}" for a, b in compared],
                     "citation": item.text},
                    "State the current window first ('CURRENT versus PREVIOUS', or 'from "
                    "PREVIOUS to CURRENT').")]
    return []


def windows_of(ctx: Any, item: Cited) -> list[Window]:
    """The windows a cited result was asked for and covers, and the cited row's period (found
    once per citation of an audit; the result's once per handle)."""
    if item.windows is None:
        found = ctx.evidence.memo("windows", item.citation.handle, _result_windows, item.result)
        item.windows = found + _row_window(item) if item.result.grain else found
    return item.windows


def answer_windows(ctx: AnswerContext) -> set[Window]:
    """`windows_of` every item any claim cites, found once per answer (the prose and the
    question's scope are held to them)."""
    if ctx.windows is None:
        seen: set[tuple[int, int]] = set()
        ctx.windows = set()
        for claim in ctx.claims:
            for item in claim.cited:
                key = (item.citation.handle, id(item.row))  # one row's fields share its windows
                if key not in seen:
                    seen.add(key)
                    ctx.windows.update(windows_of(ctx, item))
    return ctx.windows


def answer_metrics(ctx: AnswerContext) -> set[str]:
    """The metrics (current names) any claim cites, and both ends of every tree edge any claim
    rests on, found once per answer (the prose and the question's scope are held to them)."""
    if ctx.metrics is None:
        current = ctx.index_.current
        ctx.metrics = {current.get(c.metric, c.metric) for claim in ctx.claims
                       for c in claim.cited}
        for claim in ctx.claims:
            for s in claim.statements:
                ctx.metrics |= {current.get(s.parent, s.parent), current.get(s.child, s.child)}
    return ctx.metrics


def metrics_own_words(catalog: dict[str, Any], metrics: Iterable[str]) -> frozenset[str]:
    """The words of the names and labels of `metrics` and of the metrics their formulas are
    made of (a ratio's numerator and denominator, a derived metric's inputs), lower case: a
    member written with one of them ('one order in 28 was cancelled' of a cancellation rate
    over cancelled orders) names the metric's own count, not a filter."""
    table = catalog.get("metrics", {})
    names = set(metrics)
    for name in list(names):
        formula = (table.get(name) or {}).get("formula") or {}
        names |= {formula.get("numerator"), formula.get("denominator"),
                  *(formula.get("metrics") or [])} - {None}
    out: set[str] = set()
    for name in names:
        entry = table.get(name) or {}
        for said in (name.replace("_", " "), entry.get("label") or ""):
            out |= set(said.lower().split())
    return frozenset(out)


def _result_windows(result: Any) -> list[Window]:
    out = [w for cov in result.coverage for key in ("requested", "covered")
           if (w := _window(cov.get(key))) is not None]
    widened = getattr(result, "widened", None) or {}
    return out + [w for key in ("requested", "window") if (w := _window(widened.get(key)))]


def _window(raw: Any) -> Window | None:
    if not isinstance(raw, dict):
        return None
    return _dates(str(raw.get("start")), str(raw.get("end")))


@lru_cache(maxsize=4096)
def _dates(start: str, end: str) -> Window | None:
    try:
        return dt.date.fromisoformat(start[:10]), dt.date.fromisoformat(end[:10])
    except ValueError:
        return None


def row_period(item: Cited) -> Window | None:
    """The period of the cited row of a series (its grain's row, keyed by the period's first
    day), or None for a row of no grain."""
    found = _row_window(item)
    return found[0] if found else None


def _row_window(item: Cited) -> list[Window]:
    grain = item.result.grain
    start = item.row.key.get(grain) if grain else None
    return [w] if start and (w := period_window(start, grain)) else []


@lru_cache(maxsize=4096)
def period_window(start: str, grain: str) -> Window | None:
    """The period of a grain that starts on `start` (`2019-03` reads as `2019-03-01`)."""
    try:
        first = dt.date.fromisoformat(start if len(start) > 7 else f"{start[:7]}-01")
    except ValueError:
        return None
    if grain == "day":
        return first, first
    if grain == "week":
        return first, first + dt.timedelta(days=6)
    months = {"month": 1, "quarter": 3, "year": 12}.get(grain)
    if months is None:
        return None
    index = first.year * 12 + first.month - 1 + months
    after = dt.date(index // 12, index % 12 + 1, 1)
    return first, after - dt.timedelta(days=1)


def names_window(period: Period, windows: Collection[Window]) -> bool:
    """The period is one of the windows, or a single day that starts or ends one."""
    if period.start == period.end:
        return any(period.start in w for w in windows)  # w is (first day, last day)
    return (period.start, period.end) in windows


_TO_DATE = re.compile(r"(?i)\b(?:(?:year|quarter|month|week)\s+to\s+date|[ymqw]td|so\s+far)\b")
"""A period that runs from its start to the as-of date ('year to date', 'ytd', 'so far this
year')."""


def _to_date_names(p: PeriodMention, windows: Collection[Window]) -> bool:
    """A period to date names a cited window from its start to its end or to the day before:
    the as-of day has not closed, so data to date is data through yesterday ('year to date' of
    1 January to 14 August where the as-of date is 15 August)."""
    if p.period.start == p.period.end or not _TO_DATE.search(p.words):
        return False
    return any(start == p.period.start and end in (p.period.end,
                                                   p.period.end - dt.timedelta(days=1))
               for start, end in windows)


def names_said_window(p: PeriodMention, windows: Collection[Window], text: str = "") -> bool:
    """`names_window` for a period as the text (`text`, where `p` was read) says it: a day said
    without its date ('yesterday', 'today') names a window only when a cited window is that
    day; the day that ends a month or a year is no 'yesterday' of its values. A day written out
    names a window it ends, or one it starts where the words say so ('the week starting 2
    March'); only as the result labels its rows ('2019-05-01') does a window's first day name
    it alone."""
    if _to_date_names(p, windows):
        return True
    if p.period.start == p.period.end and not any(c.isdigit() for c in p.words):
        return (p.period.start, p.period.end) in windows
    if p.period.start == p.period.end and not _ISO_DAY.fullmatch(p.words):
        # 'on 1 May 2026' of May's value: a day written out names the day, which ends a
        # window (a snapshot's value on it) or is one; a window's first day names it only
        # as the result labels its rows ('2019-05-01 $55,865.10' of a monthly series)
        starts = _STARTING.search(text, max(0, p.span[0] - 40), p.span[0]) is not None
        return any(p.period.start == end or starts and p.period.start == start
                   for start, end in windows) or _in_one_cited_year(p, windows)
    return names_window(p.period, windows) or _in_one_cited_year(p, windows)


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_STARTING = re.compile(r"(?i)\b(?:starting|beginning|commencing|from|(?<!as\s)of)\s+(?:on\s+)?"
                       r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?$")
"""'the week starting Monday 2 March 2026', 'from 1 May': the day said as where a window starts
('as of 1 May' is a value on that day: no start)."""


_YEAR_WRITTEN = re.compile(r"\d{4}|['’]\d\d\b")


def _in_one_cited_year(p: PeriodMention, windows: Collection[Window]) -> bool:
    """A period written without its year ('January', 'February's) of cited windows that
    cross a year's end: the reader gives it the year its calendar rule picks, while the text
    means the one cited period of that name ('slipped back in January' of a series from
    November 2018 to February 2019). It names a cited window when exactly one year of the
    cited windows makes it one."""
    return in_cited_year(p, windows) is not None


def in_cited_year(p: PeriodMention, windows: Collection[Window]) -> Period | None:
    """The one cited period of `p`'s name in another year than the reader gave it (see
    `_in_one_cited_year`), or None when its year is written, or no or several years make it a
    cited window."""
    if _YEAR_WRITTEN.search(p.words) or p.period.grain not in ("month", "quarter", "half",
                                                                 "week", "range", "day"):
        return None
    start, end = p.period.start, p.period.end
    found: dict[int, Period] = {}
    for year in {y for a, b in windows for y in (a.year, b.year)} - {start.year}:
        shift = year - start.year
        try:
            moved = Period(start.replace(year=year), end.replace(year=end.year + shift),
                           p.period.grain)
        except ValueError:  # 29 February
            continue
        if names_window(moved, windows):
            found[year] = moved
    return next(iter(found.values())) if len(found) == 1 else None


def spans_cited_rows(p: PeriodMention, windows: Collection[Window]) -> bool:
    """'From February to March', 'the second half' of a monthly series the claims cite row by
    row: the period is the union of cited windows that follow one another day by day (two rows
    or more), so the cited rows are what it speaks of. What it says of them is held by the
    readings of numbers and moves, as of any row."""
    start, end = p.period.start, p.period.end
    ends = {a: b for a, b in sorted(windows, key=lambda w: w[0] - w[1])  # the shortest wins
            if start <= a and b <= end}
    day, rows = start, 0
    while day in ends and day <= end:
        rows, last = rows + 1, ends[day]
        if last == end:
            return rows >= 2
        day = last + dt.timedelta(days=1)
    # 'from March onward', 'since March': an open period ends on the as-of date, the day
    # after the data's last (flights: as of 2014-01-01, data through 2013-12-31)
    return rows >= 2 and day == end


def ends_said_window(text: str, p: PeriodMention, windows: Collection[Window]) -> bool:
    """'137,915 through May 2013', 'up to the end of Q1': a period said as where a window ends
    names a cited window that ends with it and starts no later (a running total from the
    data's start); its leading word is `up_to_word`'s."""
    return said_end(text, p, windows) is not None


def said_end(text: str, p: PeriodMention, windows: Collection[Window]) -> tuple[int, int] | None:
    """The span of the words before a period that say where a cited window ends, or None:
    'through', 'up to', 'by the close of' (a window ending with it that starts no later: a
    running total); 'at the end of', 'as of the close of' (any window ending with it: a
    snapshot's value on that day, 'the count at the close of Q1 2019' of March's)."""
    said = up_to_word(text, p)
    if said is not None and ends_window(p, windows):
        return said
    at = _AT_END.search(text, 0, p.span[0])
    if at is not None and any(end == p.period.end for _start, end in windows):
        return at.span()
    return None


def ends_window(p: PeriodMention, windows: Collection[Window]) -> bool:
    """Some window ends where the period does and starts no later."""
    return any(end == p.period.end and start <= p.period.start for start, end in windows)


def up_to_word(text: str, p: PeriodMention) -> tuple[int, int] | None:
    """The span of 'through', 'up to', 'until' (and 'the end of') right before a period, or None."""
    found = _UP_TO.search(text, 0, p.span[0])
    return found.span() if found is not None else None


_UP_TO = re.compile(r"(?i)\b(?:(?:through|thru|up\s+to|until|till)\s+(?:the\s+(?:end|close)\s+of\s+)?|"
                    r"by\s+the\s+(?:end|close)\s+of\s+)$")
_AT_END = re.compile(r"(?i)\b(?:at|as\s+of)\s+the\s+(?:very\s+)?(?:end|close)\s+of\s+$")


def stated_year(p: PeriodMention, values: Iterable[Any]) -> bool:
    """A bare four-digit 'year' that is one of the stated or cited `values` ('rose by 2019')."""
    words = p.words.strip()
    return words.isdigit() and any(abs(v - int(words)) < 1 for v in values
                                   if isinstance(v, int | float) and not isinstance(v, bool))


def _window_finding(ctx: ClaimContext, p: PeriodMention, windows: set[Window],
                    support: Support) -> Finding:
    shown = sorted(f"{a}..{b}" for a, b in windows)
    said = f"{p.period.start}..{p.period.end}"
    first = support.cited[0].text
    return Finding(
        "mislabelled_window", ctx.cid,
        f"Claim {ctx.cid} says {p.words!r} ({said}), but what it cites ({first}"
        f"{' …' if len(support.cited) > 1 else ''}) covers {', '.join(shown)}.",
        {"said": said, "phrase": p.words, "cited": shown, "citation": first},
        f"Name the window the citation covers, or cite a result for {said}; write dates as "
        "YYYY-MM-DD..YYYY-MM-DD where the period's words could be read as another.")
