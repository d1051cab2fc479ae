"""The answer's prose is held to what its claims cite.

The prose is what a user reads first, so it is read by the claims' reader (labels.py) and held
to everything the answer's claims cite and every tree edge they rest on (findings on claim
`answer`):
- a governed metric, member or period it names must be one of those;
- "because X" must name the answer's driver, and so must a cause named as the subject of a
  cause word of the answer's own change ("X drove the fall", "X was behind the drop", "X
  contributed most to the fall"); a metric a "not" denies ("not days per user") is no cause;
- a cause stated as a fact must follow an exact tree edge;
- a number is read as the value of the metric named last before it in its sentence (and of the
  member named between them), and must be cited for that metric (and member);
- the way it says a metric moved (the first verb of motion after the metric, before the next
  metric or the sentence's end: "rose", "fell", "doubled") must agree with some change the
  claims cite for that metric, and for the member named between them if one is
  (`direction_mismatch` on claim `answer`).
A member headline must be the first listed value and, for "the most"/"the least", the listed
values' extreme (a finding on `answer.value`). Words the prose quotes from the question (an
ignored instruction the answer reports) are not the answer's words and are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from showwork.harness.audit.context import AnswerContext, Cited, ClaimContext
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.labels import (
    ClaimReading,
    Support,
    answer_metrics,
    answer_windows,
    carries,
    ends_said_window,
    members_cited,
    metrics_own_words,
    names_said_window,
    read_words,
    row_period,
    spans_cited_rows,
    stated_year,
    support_of,
)
from showwork.harness.audit.numbers import (
    Supports,
    _claim_values,
    answer_checker,
    derived,
    premise_supports,
    read_claims,
)
from showwork.harness.audit.scope import Question, scope_of
from showwork.harness.audit.shape import read_shapes
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Finding
from showwork.protocol.numbers import ReadNumber, claims_in, from_value, say, unasked
from showwork.protocol.reading import Mention, PeriodMention
from showwork.protocol.reading._literals import search

PROSE = "answer"
"""The claim id findings on the prose carry."""
HEADLINE = "answer.value"
"""The claim id findings on a member headline carry."""
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”")
_BECAUSE = re.compile(r"\b(?:because(?:\s+of)?|due to|driven by|owing to|caused by|thanks to|"
                      r"as a result of)\s+"
                      r"(?:(?:the|a|an|our|lower|higher|fewer|more|less)\s+)*$", re.IGNORECASE)
"""Words before a metric that name it as the cause."""
CAUSE = re.compile(r"\b(?:because|caused?|causing|drove|drives|driven|driving|led to|leads to|"
                   r"due to|resulted in|results in|explains?|explained|responsible for|"
                   r"that is why|this is why|that's why|thanks to|as a result of|owing to)\b",
                   re.IGNORECASE)
"""Words that state a cause."""
CAUSE_FIRST = re.compile(r"(?i)^(?:caused|causing|drove|drives|driving|led to|leads to|"
                         r"resulted in|results in|explains?|explained|responsible for|"
                         r"that is why|this is why|that's why)$")
"""Cause words the cause comes before ("X drove Y", "X fell; that is why Y fell"); after the
others, it comes after ("Y fell because X fell", "caused by", "driven by")."""
HEDGE = re.compile(r"\b(?:may|might|could|possibly|perhaps|hypothes\w*|correlat\w*|likely|"
                   r"suggests?|consistent with|not attributed)\b", re.IGNORECASE)
"""Words that make a stated cause a hypothesis."""
_END = re.compile(r"[.!?](?=\s|$)")
"""A sentence's end (a decimal point is followed by a digit, not a space)."""


@dataclass(frozen=True)
class Cause:
    """A sentence that states a cause without a hedge, and the metrics on either side of its
    cause word: the one named last before it and the one named first after it."""

    sentence: str
    word: str
    effect: Mention
    cause: Mention


@dataclass(frozen=True)
class Bound:
    """A number of the prose and the metric named last before it in its sentence, with the
    member(s) named between them (one word may name a member of two dimensions)."""

    number: ReadNumber
    metric: Mention | None
    """None when the sentence names no metric ('Brooklyn was 2,093'): the number is the one
    metric's the claims cite, when they cite one."""
    members: tuple[Mention, ...]


@dataclass(frozen=True)
class Move:
    """A metric the prose says moved: the verb of motion after it, and its sign."""

    metric: Mention
    word: str
    sign: int
    """+1 for a rise, -1 for a fall."""
    members: tuple[Mention, ...] = ()
    """The member(s) named between the metric and the verb (one word may name a member of two
    dimensions): the move is that member's."""


@dataclass(frozen=True)
class ProseReading:
    """What the prose says, read once per catalog for each text: the checks then hold it to
    each answer's citations."""

    words: ClaimReading
    because: frozenset[int]
    """Positions (in words.metrics) of metrics named as the cause ("because of X")."""
    causes: tuple[Cause, ...]
    bound: tuple[Bound, ...]
    moves: tuple[Move, ...]
    led: tuple[Led, ...] = ()


@dataclass(frozen=True)
class Led:
    """A member the prose says a metric's move was most of ('fell 16 %, most of all for
    channel paid_search', 'led by Online'): the metric named last before it in its sentence."""

    metric: Mention | None
    """None for a mix ('shifted toward X'): the weight's move, of any metric."""
    members: tuple[Mention, ...]
    """The member(s) the words name (one word may name a member of two dimensions)."""


_MOSTLY = (r"most\s+of\s+all|mostly|mainly|chiefly|largely|especially|above\s+all|"
           r"concentrated")
_LED = re.compile(rf"(?i)(?:\b(?:{_MOSTLY})\s+(?:for|in|at|from|among|on)|\bled\s+by|"
                  r"\bmoved\s+within|(?P<mix>\bshifted\s+(?:towards?|away\s+from)))"
                  r"\s+(?:the\s+)?(?:[\w/-]+\s+){0,3}?$")
"""Words before a member (and its dimension's words) that say a move was mostly that
member's; 'the mix shifted toward X' says X's weight moved (a change of any metric)."""


@emits("mislabelled_metric", "mislabelled_member", "mislabelled_window", "weak_causal")
def find_prose_labels(ctx: AnswerContext) -> list[Finding]:
    """A metric, member or period the prose names that no claim cites, a 'because X' that is
    not the answer's driver, and a cause stated between two metrics that no exact tree edge
    joins."""
    support = _support(ctx)
    if support is None:
        return []
    prose = _prose(ctx)
    named = _metrics(ctx, prose) + _members(ctx, prose.words.groups, support.cited)
    flagged = {f.evidence["phrase"] for f in named}
    named += _led(ctx, prose.led, flagged) + _claims_led(ctx)
    return (named + _windows(ctx, prose.words.periods, support.cited)
            + _causes(ctx, prose.causes) + _bound(ctx, prose.bound, flagged) + _headline(ctx)
            + _headline_metric(ctx))


def _read_prose(index: CatalogIndex, text: str) -> ProseReading:
    words = read_words(index, "prose", text)
    sentences = sentences_of(text, words.members)
    because = frozenset(i for i, m in enumerate(words.metrics)
                        if _BECAUSE.search(text[:m.span[0]])) | _subjects(text, sentences,
                                                                          words.metrics)
    return ProseReading(words, because, _read_causes(text, sentences, words.metrics),
                        _read_bound(text, read_claims(index, text), sentences,
                                    words.metrics, words.members),
                        _read_moves(text, sentences, words.metrics, words.members,
                                    index.derive("polarity", polarities)),
                        _read_led(text, sentences, words))


_DROVE = re.compile(
    r"(?i)\b(?:caused|causes|drove|drives|driven|(?:was|were|is|are)\s+(?:mostly\s+|mainly\s+|"
    r"largely\s+)?(?:behind|responsible\s+for)|explains?|explained|account(?:s|ed)?\s+for\s+"
    r"most\s+of|contributed\s+(?:the\s+)?most\s+to|(?:was|were|is|are)\s+the\s+"
    r"(?:main|biggest|largest|chief|primary|key)\s+(?:driver|cause|contributor|factor|reason)\s+"
    r"(?:of|for|behind|in|to))\b")
"""A cause word whose subject is the cause ('days per user drove the fall', 'X was behind the
drop', 'X contributed most to the fall', 'X was the main driver of the decline')."""
_DENIED = re.compile(r"(?i)\b(?:not|rather\s+than|instead\s+of|than|nor|neither)\s+"
                     r"(?:(?:the|a|an|its|their)\s+)?$")
"""Words right before a metric that deny it ('not days per user', 'rather than active users')."""


def _denied(text: str, start: int, m: Mention) -> bool:
    """A 'not' (or 'rather than', …) right before `m`, within its sentence from `start`."""
    return _DENIED.search(text[max(start, m.span[0] - 24):m.span[0]]) is not None


def _subjects(text: str, sentences: list[tuple[int, int]], metrics: tuple[Mention, ...]
              ) -> frozenset[int]:
    """Positions (in `metrics`) of metrics named as the subject of a cause word of the answer's
    own change: the last metric before it in its clause that no 'not' denies, when no metric
    follows the word (the change is the answer's: 'Active users, not days per user, drove the
    fall') or the one that follows is the prose's first (its headline metric). An unhedged
    sentence only; 'X led to Y' of another Y is a chain, not the answer's cause."""
    if not metrics or search(_DROVE, text) is None:
        return frozenset()
    out: set[int] = set()
    for start, end in sentences:
        sentence = text[start:end]
        if HEDGE.search(sentence):
            continue
        for verb in _DROVE.finditer(text, start, end):
            clause = max(text.rfind(";", start, verb.start()), text.rfind(":", start,
                                                                       verb.start()), start)
            after = [m for m in metrics if verb.end() <= m.span[0] and m.span[1] <= end]
            if after and after[0].name != metrics[0].name:
                continue
            subject = [i for i, m in enumerate(metrics) if clause <= m.span[0]
                       and m.span[1] <= verb.start() and not _denied(text, start, m)]
            if subject and metrics[subject[-1]].name != metrics[0].name:
                out.add(subject[-1])
    return frozenset(out)


def led_before(text: str, at: int) -> tuple[int, re.Match[str]] | None:
    """'most of all for', 'led by', … right before the member named at `at`: where the words
    start in `text`, and their match; None when none is there."""
    base = max(0, at - 60)
    found = search(_LED, text[base:at])
    return None if found is None else (base + found.start(), found)


def _read_led(text: str, sentences: list[tuple[int, int]], words: ClaimReading
              ) -> tuple[Led, ...]:
    """Each member group named right after 'most of all for', 'led by', … with the metric
    named last before it in its sentence."""
    out = []
    for group in words.groups:
        at = group[0].span[0]
        led = led_before(text, at)
        if led is None:
            continue
        found = led[1]
        start = next((a for a, b in sentences if a <= at < b), 0)
        metric = next((m for m in reversed(words.metrics) if start <= m.span[0]
                       and m.span[1] <= at), None)
        if metric is not None or found.group("mix"):
            out.append(Led(None if found.group("mix") else metric, tuple(group)))
    return tuple(out)


_LED_WORDS = re.compile(rf"(?i)\b(?:{_MOSTLY}|led\s+by|moved\s+within|shifted)\b")
"""`_LED`'s words, unanchored: a text that may say a move was mostly a member's."""


def _claims_led(ctx: AnswerContext) -> list[Finding]:
    """`_led` of each claim's text ('the store mix shifted toward Online (a mix effect)' of a
    conclusion): held to the changes any claim cites, as the prose's are."""
    out: list[Finding] = []
    for claim in ctx.claims:
        text = claim.claim.text or ""
        if search(_LED_WORDS, text) is None:
            continue
        reading = ctx.index_.read("prose-reading", text, lambda t: _read_prose(ctx.index_, t))
        out += _led(ctx, reading.led, set(), claim.cid)
    return out


def _led(ctx: AnswerContext, led: tuple[Led, ...], flagged: set[str],
         where: str = PROSE) -> list[Finding]:
    """A move said to be mostly a member's must be a move some claim cites for that member's
    row: a row cited only as a base weight (its share of orders, its previous level) says
    nothing of how its metric moved."""
    out: list[Finding] = []
    for item in led:
        if item.members[0].words in flagged:
            continue
        said = _current(ctx, item.metric.name) if item.metric else "the mix"
        current = ctx.index_.current
        # a mix moves toward the member whose weight grew: the weights' changes say which
        moved = {said} if item.metric else _weights(ctx) or None
        changes = [c for claim in ctx.claims for c in claim.cited
                   if c.citation.field in ("delta", "pct_change")
                   and (moved is None or current.get(c.metric, c.metric) in moved)]
        rows = [c for c in changes if any(m.name in c.row.key for m in item.members)]
        if not rows or any(carries(ctx, rows, m.name, m.member or "") for m in item.members):
            continue  # no member's move of it cited at all: what the claims say is not read
        m = item.members[0]
        have = members_cited(ctx, rows, m.name)
        out.append(Finding(
            "mislabelled_member", where,
            f"The answer says {said} moved most for {m.words!r} ({m.name} = {m.member}), but the "
            f"claims cite {said}'s change for {m.name} {', '.join(have)} only.",
            {"said": m.member, "dimension": m.name, "phrase": m.words, "cited": have},
            f"Name the member whose change the claims cite ({', '.join(have)}), or add a claim "
            f"citing {said}'s change for {m.name} = {m.member}."))
    return out


def _weights(ctx: AnswerContext) -> set[str]:
    """The metrics a mix is of: the denominators of the catalog's ratio metrics (orders for an
    average order value, active users for days per user)."""
    out = set()
    for m in ctx.catalog["metrics"].values():
        formula = m.get("formula") or {}
        if formula.get("op") == "divide" and formula.get("denominator"):
            out.add(_current(ctx, formula["denominator"]))
    return out


def _prose(ctx: AnswerContext) -> ProseReading:
    """The prose (without the question's quoted words) read once per catalog for each text,
    and looked up once per answer."""
    if ctx.prose is None:
        question, text = ctx.question or "", ctx.answer.answer
        if question and _QUOTE_MARKS.search(text) is not None:  # else there is nothing to blank
            text = ctx.index_.read("unquoted", f"{question}\x00{text}",
                                   lambda _key: _without_quotes(ctx.answer.answer, question))
        if "(Assumed no window named: " in text:
            text = _NOTE_WORDS.sub(lambda m: " " * len(m.group(0)), text)
        index = ctx.index_
        ctx.prose = index.read("prose-reading", text, lambda t: _read_prose(index, t))
    return ctx.prose


def _headline(ctx: AnswerContext) -> list[Finding]:
    """A member headline must be the first listed value's key, and, where the question asks for
    the most or the least, the member whose listed value is the highest or the lowest."""
    head, listed = ctx.answer.value, ctx.answer.values or []
    if not isinstance(head, str) or not listed:
        return []
    if head != listed[0].key:
        return [Finding(
            "mislabelled_member", HEADLINE,
            f"The headline value is {head!r}, but the first listed value is {listed[0].key!r}.",
            {"said": head, "cited": [listed[0].key], "phrase": head},
            "Make the headline the first listed member, or list the members in the order the "
            "answer argues.")]
    ranking = _ranking(ctx)
    numbers = [(v.value, v.key) for v in listed if isinstance(v.value, int | float)]
    if ranking is None or len(numbers) != len(listed):
        return []
    extreme = (max if ranking == "most" else min)(numbers)
    if extreme[0] == next(v for v, k in numbers if k == head):
        return []
    return [Finding(
        "mislabelled_member", HEADLINE,
        f"The question asks for the {ranking}; the answer names {head!r}, but the listed values "
        f"give {extreme[1]!r} the {'highest' if ranking == 'most' else 'lowest'} value "
        f"({_plain(extreme[0])}).",
        {"said": head, "cited": [extreme[1]], "phrase": head, "ranking": ranking},
        f"Name {extreme[1]!r}, or say why another member answers the question.")]


def _headline_metric(ctx: AnswerContext) -> list[Finding]:
    """A number headline must be a value cited for a metric the question asks about, when the
    answer cites one: not a factor's change or a contribution beside it."""
    head = ctx.answer.value
    scope = scope_of(ctx)
    if not _signed(head) or scope.question is None or not scope.checks("metric"):
        return []
    asked = _asked_metrics(ctx, scope.question)
    number = from_value(head)  # type: ignore[arg-type]
    stating = [s for s in answer_checker(ctx).matching(number) if s.source is not None]
    if not asked or not stating or any(_current(ctx, s.source.metric) in asked
                                       for s in stating if s.source is not None):
        return []
    own = [s for s in answer_checker(ctx).items
           if s.source is not None and _current(ctx, s.source.metric) in asked]
    if not own:
        return []  # the answer cites none of the question's metrics: off_question_metric
    said = _current(ctx, stating[0].source.metric)  # type: ignore[union-attr]
    wanted = sorted(asked)
    return [Finding(
        "mislabelled_metric", HEADLINE,
        f"The headline value {head!r} is what {stating[0].where} cites ({said}), but the "
        f"question asks about {', '.join(wanted)}.",
        {"said": said, "phrase": repr(head), "cited": wanted, "citation": stating[0].where},
        f"Set value to {own[0].where} = {say(own[0].value, own[0].kind)}, the value of the "
        "metric the question asks about.")]


def _asked_metrics(ctx: AnswerContext, question: Question) -> frozenset[str]:
    """The metrics the question names, and the siblings its qualifier words point them at (the
    question is read from its text: found once per catalog for each question)."""
    current = ctx.index_.current
    return ctx.index_.read("asked-metrics", ctx.question or "",
                           lambda _t: _asked_in(current, question))


def _asked_in(current: dict[str, str], question: Question) -> frozenset[str]:
    out = {current.get(m.name, m.name) for m in question.reading.metrics}
    for siblings, _words in question.qualified.values():
        out |= {current.get(m, m) for m in siblings}
    return frozenset(out)


def _ranking(ctx: AnswerContext) -> str | None:
    """'most' or 'least' when the question (read without an appended instruction) ranks."""
    question = scope_of(ctx).question
    ranking = question.reading.asks.ranking if question is not None else None
    return ranking.order if ranking is not None else None


def _plain(value: int | float) -> str:
    return f"{value:,.6g}" if isinstance(value, float) else f"{value:,}"


def _support(ctx: AnswerContext) -> Support | None:
    """What every claim rests on together; None when there is nothing to hold the prose to (a
    refusal, no claims) or a citation under it is broken (a defect already)."""
    if ctx.answer.status != "answered" or not ctx.answer.answer or not ctx.claims:
        return None
    if ctx.support is None:
        parts = [support_of(c) for c in ctx.claims]
        cited = tuple(item for p in parts for item in p.cited)
        statements = tuple(s for p in parts for s in p.statements)
        ctx.support = Support(cited, statements, all(p.whole for p in parts))
    return ctx.support if ctx.support.whole and ctx.support.cited else None


_QUOTE_MARKS = re.compile("['\"‘“]")
_NOTE_WORDS = re.compile(r"(?<=\()Assumed no window named: (?:the whole covered range|the last "
                         r"whole week|the value at the end of coverage)(?=, \d{4}-\d\d-\d\d)")
"""The fixed words of the rules analyst's note of the window it took ('(Assumed no window named:
the whole covered range, 2018-01-01..2018-03-31.)'): not the answer's words, so not read for
members ('whole' is a listing status of loans); its dates stay, held to the cited windows."""


def _without_quotes(prose: str, question: str) -> str:
    """The prose with quotations of the question blanked (same length: spans stay put)."""
    if not question:
        return prose
    lowered = question.lower()

    def blank(m: re.Match[str]) -> str:
        inner = m.group(0)[1:-1].strip().lower()
        return " " * len(m.group(0)) if inner and inner in lowered else m.group(0)

    return _QUOTED.sub(blank, prose)


def _current(ctx: AnswerContext, metric: str) -> str:
    return ctx.index_.current.get(metric, metric)


def _metrics(ctx: AnswerContext, prose: ProseReading) -> list[Finding]:
    carried = answer_metrics(ctx)  # what every claim cites and rests on
    out: list[Finding] = []
    seen: set[str] = set()
    driver = _current(ctx, ctx.answer.driver) if ctx.answer.driver else None
    for i, m in enumerate(prose.words.metrics):
        said = _current(ctx, m.name)
        if said not in carried and said not in seen and _part_in_share(ctx, carried, m):
            continue  # '27 in every 1,000 flights were cancelled' of a cancellation rate
        if said not in carried and said not in seen:
            seen.add(said)
            out.append(_metric_finding(m, said, carried))
        elif driver and said != driver and i in prose.because:
            out.append(_because_finding(m, said, driver))
    return out


def _part_in_share(ctx: AnswerContext, carried: set[str], m: Mention) -> bool:
    """The metric named is the numerator or denominator of a cited ratio, in a sentence that
    states a share as 'K in N' or 'one in N' (protocol/numbers.py `_one_in`): the ratio's own
    parts, said as people say a rate ('about 27 in every 1,000 flights were cancelled')."""
    from showwork.harness.audit.quantifiers import _SENTENCE
    from showwork.protocol.numbers import read_numbers

    table = ctx.catalog.get("metrics", {})
    parts = {p for name in carried for p in (
        ((table.get(name) or {}).get("formula") or {}).get(k) for k in ("numerator", "denominator"))
             if p}
    if m.name not in parts:
        return False
    text = ctx.answer.answer or ""
    sentence = next((s for s in _SENTENCE.finditer(text) if s.start() <= m.span[0] < s.end()),
                    None)
    return sentence is not None and any(
        n.share and n.width and " in " in n.text for n in read_numbers(sentence.group()))


def _metric_finding(m: Mention, said: str, carried: set[str]) -> Finding:
    return Finding(
        "mislabelled_metric", PROSE,
        f"The answer says {m.words!r} ({said}), but no claim cites {said} and no tree edge a "
        f"claim rests on ends in it (the claims cite: {', '.join(sorted(carried))}).",
        {"said": said, "phrase": m.words, "cited": sorted(carried)},
        f"Add a claim citing {said}, or name in the answer only what the claims cite.")


def _because_finding(m: Mention, said: str, driver: str) -> Finding:
    return Finding(
        "mislabelled_metric", PROSE,
        f"The answer says the change was because of {m.words!r} ({said}), but its driver is "
        f"{driver}.",
        {"said": said, "phrase": m.words, "cited": driver, "driver": driver},
        f"Name the driver the causal claim argues ({driver}), or argue {said} with its own "
        "causal claim and driver.")


def _members(ctx: AnswerContext, groups: Iterable[list[Mention]], cited: tuple[Cited, ...]
             ) -> list[Finding]:
    out: list[Finding] = []
    own = metrics_own_words(ctx.catalog, answer_metrics(ctx))
    for group in groups:
        if all(carries(ctx, cited, m.name, m.member or "") is False for m in group):
            m = group[0]
            if set(m.words.lower().split()) <= own:
                continue  # 'was cancelled' of a cancellation rate: the metric's own word
            if _inside_cited_member(ctx, cited, m):
                continue  # 'Newark' of a result filtered to 'Newark Liberty Intl'
            dim, member = m.name, m.member or ""
            if any(f.evidence["dimension"] == dim and f.evidence["said"] == member for f in out):
                continue
            have = members_cited(ctx, cited, dim)
            shown = ", ".join(have) if have else f"no {dim} filter or row (all members)"
            out.append(Finding(
                "mislabelled_member", PROSE,
                f"The answer says {m.words!r} ({dim} = {member}), but no claim cites a row or a "
                f"result filtered to it ({dim} cited: {shown}).",
                {"said": member, "dimension": dim, "phrase": m.words, "cited": have},
                f"Name only the members the claims cite ({shown}), or add a claim citing "
                f"{dim} = {member}."))
    return out


def _inside_cited_member(ctx: AnswerContext, cited: tuple[Cited, ...], m: Mention) -> bool:
    """The mention's words are whole words of a member of another dimension that some cited
    row or cited result's filter has ('Newark', read as origin EWR, of a result filtered to
    origin airport name 'Newark Liberty Intl'): the place the cited member names, not another
    member."""
    said = re.compile(rf"(?i)(?<!\w){re.escape(m.words.strip())}(?!\w)")
    for item in cited:
        named = [v for d, v in item.row.key.items() if d != m.name]
        named += [v for d, vs in (ctx.evidence.filters(item.citation.handle) or {}).items()
                  if d != m.name for v in vs]
        if any(isinstance(v, str) and len(v) > len(m.words.strip()) and said.search(v)
               for v in named):
            return True
    return False


def _windows(ctx: AnswerContext, periods: tuple[PeriodMention, ...], cited: tuple[Cited, ...]
             ) -> list[Finding]:
    windows = answer_windows(ctx) if periods else None  # what `cited` is of: the claims'
    if not windows:
        return []
    out = []
    shaped = read_shapes(ctx, ctx.answer.answer or "") if periods else []
    for p in periods:
        if any(a <= p.span[0] and p.span[1] <= b for a, b in shaped):
            continue  # 'since May' of a shape the cited series holds (shape.py)
        if names_said_window(p, windows, ctx.answer.answer or "") \
                or ends_said_window(ctx.answer.answer or "", p, windows) \
                or (spans_cited_rows(p, windows) and _only_derived(ctx, p)) \
                or stated_year(p, [
                ctx.answer.value, *(c.value for c in cited), *(c.claim.value for c in ctx.claims)]):
            continue
        said = f"{p.period.start}..{p.period.end}"
        shown = sorted(f"{a}..{b}" for a, b in windows)
        out.append(Finding(
            "mislabelled_window", PROSE,
            f"The answer says {p.words!r} ({said}), but no claim cites a result for it (the "
            f"claims cite {', '.join(shown)}).",
            {"said": said, "phrase": p.words, "cited": shown},
            f"Name the windows the claims cite, or add a claim citing a result for {said}."))
    return out


def _only_derived(ctx: AnswerContext, p: PeriodMention) -> bool:
    """Every number of the sentence naming `p` (a span of several cited rows: labels.py
    `spans_cited_rows`) is held by a reading of what the rows give together — a move between
    two of them, their sum, a rate over them — or it has none ('flights rose from February to
    March'). One row's value said of the span ('flights were 24,951 from February to March')
    is no value of the span: the window stays unnamed by the claims."""
    from showwork.harness.audit.numbers import guessed_numbers
    from showwork.harness.audit.quantifiers import _SENTENCE, read_quantified
    from showwork.harness.audit.rates import read_rates
    from showwork.harness.audit.rowmoves import read_row_moves
    from showwork.harness.audit.sums import read_sums

    text = ctx.answer.answer or ""
    sentence = next((m for m in _SENTENCE.finditer(text) if m.start() <= p.span[0] < m.end()),
                    None)
    if sentence is None:
        return False
    held = {(r.number.start, r.number.end) for r in read_sums(ctx, text) if r.holds}
    held |= {(r.number.start, r.number.end) for r in read_rates(ctx, text) if r.holds}
    held |= {(m.number.start, m.number.end) for m in read_row_moves(ctx, text)
             if m.number is not None and m.number_holds}
    held |= guessed_numbers(ctx)  # given by the rows it spans, unread (derivable.py)
    held |= {(q.number.start, q.number.end) for q in read_quantified(ctx, text) if q.holds}
    at = sentence.start()
    return all((n.start + at, n.end + at) in held for n in claims_in(sentence.group()))


def _read_causes(text: str, sentences: list[tuple[int, int]], mentions: tuple[Mention, ...]
                 ) -> tuple[Cause, ...]:
    """Per sentence stating a cause without a hedge: the metric named last before the cause word
    and the one named first after it."""
    out = []
    for start, end in sentences:
        sentence = text[start:end]
        cause = search(CAUSE, sentence)
        if cause is None or search(HEDGE, sentence):
            continue
        at = start + cause.start()
        said = [m for m in mentions if start <= m.span[0] and m.span[1] <= end
                and not _denied(text, start, m)]
        before = [m for m in said if m.span[1] <= at]  # 'not the price rise' is no cause
        after = [m for m in said if at <= m.span[0]]
        if not (before and after):
            continue
        first = CAUSE_FIRST.match(cause.group(0)) is not None and not re.match(
            r"\s+by\b", sentence[cause.end():])
        out.append(Cause(sentence, cause.group(0), after[0], before[-1]) if first
                   else Cause(sentence, cause.group(0), before[-1], after[0]))
    return tuple(out)


def stated_cause(ctx: AnswerContext) -> tuple[str, int] | None:
    """The cause the prose states (the first unhedged one): its metric (current name) and the
    way the prose says it moved (+1, -1, or 0 when it does not say)."""
    if ctx.answer.status != "answered" or not ctx.answer.answer:
        return None
    return cause_in(ctx.index_, _prose(ctx))


def cause_in(index: CatalogIndex, reading: ProseReading) -> tuple[str, int] | None:
    """The first stated cause of a text's reading, and its move."""
    if not reading.causes:
        return None
    cause = reading.causes[0].cause
    sign = next((m.sign for m in reading.moves if m.metric.span == cause.span), 0)
    return index.current.get(cause.name, cause.name), sign


def hedged(index: CatalogIndex, text: str) -> bool:
    """The text holds a word that makes a stated cause a hypothesis (HEDGE), read once per
    catalog for each text."""
    return index.read("hedged", text, _hedged)


def _hedged(text: str) -> bool:
    return HEDGE.search(text) is not None


def states_cause(index: CatalogIndex, text: str) -> bool:
    """The text holds a word that states a cause (CAUSE), read once per catalog for each
    text."""
    return index.read("cause-word", text, _states_cause)


def _states_cause(text: str) -> bool:
    return CAUSE.search(text) is not None


def text_reading(index: CatalogIndex, text: str) -> ProseReading:
    """Any text (a claim's) read as the prose is, once per catalog for each text."""
    return index.read("prose-reading", text, lambda t: _read_prose(index, t))


def _causes(ctx: AnswerContext, causes: tuple[Cause, ...]) -> list[Finding]:
    """A stated cause must follow an exact tree edge between its two metrics."""
    out: list[Finding] = []
    for c in causes:
        a, b = _current(ctx, c.effect.name), _current(ctx, c.cause.name)
        kinds = {ctx.index_.edges.get(pair) for pair in ((a, b), (b, a))} - {None}
        if a != b and "exact" not in kinds:
            rests = "an influence (correlational) edge" if kinds else "no tree edge"
            out.append(Finding(
                "weak_causal", PROSE,
                f"The answer states that {c.cause.words} {c.word} {c.effect.words} "
                f"({b} → {a}), but the metric tree joins them by {rests}.",
                {"cause": b, "effect": a, "phrase": c.sentence.strip(),
                 "edge": sorted(k for k in kinds if k)},
                "State it as a hypothesis (may, correlational), or add the exact decomposition "
                "to the metric tree if one exists."))
    return out


def sentences_of(text: str, members: tuple[Mention, ...] = ()) -> list[tuple[int, int]]:
    """(start, end) of each sentence of the text. A stop inside a member's name ("Delta Air
    Lines Inc. 132", "nutellaphone who dis? 693") ends no sentence: the numbers after it are
    still of the metric named before."""
    out, start = [], 0
    for m in _END.finditer(text):
        if members and any(a <= m.start() < b for a, b in (g.span for g in members)):
            continue
        out.append((start, m.end()))
        start = m.end()
    return out + [(start, len(text))] if start < len(text) else out


def _read_bound(text: str, numbers: tuple[ReadNumber, ...], sentences: list[tuple[int, int]],
                metrics: tuple[Mention, ...], members: tuple[Mention, ...]) -> tuple[Bound, ...]:
    """Each number the prose states (`numbers`, as the number checks read them: the same
    objects) with the metric named last before it in its sentence (or right after it: '2,093
    orders'), and the member(s) named between them, else the metric's possessor ("Brooklyn's
    orders were 2,093"), else, of a metric named after the number, the subject of its clause
    ('Brooklyn had 2,093 orders')."""
    out = []
    for start, end in sentences if numbers else []:
        inside = [n for n in numbers if start <= n.start < end
                  and not any(m.span[0] <= n.start < m.span[1] for m in members)]  # a label
        paired = respective(text, inside, members, start, end)[0]
        for i, n in enumerate(inside):
            metric = next((m for m in reversed(metrics) if start <= m.span[0]
                           and m.span[1] <= n.start), None)
            if n.start in paired:  # 'EWR and JFK fell 7.95 % and 8.08 % respectively'
                out.append(Bound(n, metric, paired[n.start]))
                continue
            after = next((m for m in metrics if n.end <= m.span[0] < end
                          and _UNIT_GAP.fullmatch(text, n.end, m.span[0])), None)
            group = [m for m in members if metric is not None and metric.span[1] <= m.span[0]
                     and m.span[1] <= n.start]
            if not group and metric is not None:  # "Brooklyn's orders were 2,093"
                group = [m for m in members if _POSSESSOR.fullmatch(text, m.span[1],
                                                                     metric.span[0])]
            elif not group:  # 'Brooklyn had 2,093 orders', 'Brooklyn was 2,093': the subject
                # of its clause
                since = max([inside[i - 1].end if i else start]
                            + [c.end() for c in _CLAUSE.finditer(text, start, n.start)])
                group = [m for m in members if since <= m.span[0] and m.span[1] <= n.start]
                if not group:  # 'At LGA, about 27 in every 1,000 …': a sentence's setting
                    group = [m for m in members if m.span[1] <= n.start
                             and _SETTING.fullmatch(text, start, m.span[0])
                             and _COMMA.match(text, m.span[1])]
            named = tuple(m for m in group if m.span == group[-1].span) if group else ()
            said = metric if metric is not None else after
            if said is not None or named:
                out.append(Bound(n, said, named))
    return tuple(out)


_RESPECTIVELY = re.compile(r"(?i)\b(?:respectively|in\s+that\s+order)\b")
_LISTED = re.compile(r"(?i)\s*(?:%|percent|points?)?\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)$")
"""Between two items of a list ('EWR, JFK and LGA', '7.95 % and 8.08 %')."""


def respective(text: str, numbers: Sequence[ReadNumber], members: Sequence[Mention],
               start: int, end: int
               ) -> tuple[dict[int, tuple[Mention, ...]], tuple[int, int] | None]:
    """'EWR and JFK fell 7.95 % and 8.08 % respectively' (or 'in that order', or with no word
    at all): a list of members and, after it in the sentence, a list of as many numbers, paired
    in order: each number's start and its member (every mention of the member's words: 'LGA'
    names an origin and a destination), and the span of the word that pairs them, if any.
    Lists of other lengths pair nothing (each number is then the last member's named before
    it, which had made the true sentence a mislabelled member's)."""
    sentence = text[start:end].lower()
    word = _RESPECTIVELY.search(text, start, end) if "respectively" in sentence or \
        "that order" in sentence else None
    said = [n for n in numbers if start <= n.start < (word.start() if word else end)]
    if len(said) < 2:
        return {}, None
    spans = list(dict.fromkeys(m.span for m in members if start <= m.span[0]
                               and m.span[1] <= said[0].start))[-len(said):]
    if len(spans) != len(said) or not all(
            _LISTED.match(text[a[1]:b[0]]) for a, b in pairwise(spans)) or not all(
            _LISTED.match(text[a.end:b.start]) for a, b in pairwise(said)):
        return {}, None
    paired = {n.start: tuple(m for m in members if m.span == span)
              for n, span in zip(said, spans, strict=True)}
    return paired, word.span() if word else None


_POSSESSOR = re.compile(r"\s*['’]s?\s+")
_SETTING = re.compile(r"(?i)\s*(?:at|in|for|from|among|on|across)\s+(?:the\s+)?")
"""The words before a member that sets the scene of its sentence ('At LGA, …', 'In Brooklyn,
…'), a comma after it."""
_COMMA = re.compile(r"\s*,")
"""Between a member and the metric it owns ("Brooklyn's orders")."""
_CLAUSE = re.compile(r"[,;:()\[\]—–]")
"""A mark that ends a clause: the subject of a number is named after the last one."""
_UNIT_GAP = re.compile(r"\s+(?:[a-z]+\s+)?")
"""Between a number and the metric named right after it ('2,093 orders', '263 more orders' is
a gap's, read by gaps.py, whose number states no cited value)."""


def _bound(ctx: AnswerContext, bound: tuple[Bound, ...], flagged: set[str]) -> list[Finding]:
    """A number in the prose is read as the value of the metric named last before it in its
    sentence (and of the member named between them): some cited value that the number states
    must be that metric's (and that member's). A number nothing states is a defect already; a
    metric or member no claim cites, or a 'because' that is not the driver, a finding already."""
    if not bound:
        return []
    kept = {id(n) for n in unasked(tuple(b.number for b in bound), ctx.question or "")}
    supports = answer_checker(ctx)  # indexed once per answer, for its numbers' checks too
    current = ctx.index_.current
    held = derived(ctx)[0]  # a bound, gap, sum or rate the rows hold: not one row's value
    carried = answer_metrics(ctx)
    out: list[Finding] = []
    for b in bound:
        n = b.number
        if id(n) not in kept or (n.start, n.end) in held or (
                b.metric is not None and b.metric.words in flagged):
            continue
        in_parts = b.metric is not None and n.share and _part_in_share(ctx, carried, b.metric)
        if b.metric is None and len(carried) != 1:
            continue  # no metric named, and several cited: whose value it is is not said
        said = _current(ctx, b.metric.name) if b.metric is not None else next(iter(carried))
        stating = [s.source for s in supports.matching(n) if s.source is not None]
        # '27 in every 1,000 flights were cancelled': the rate, said in its parts
        own = [c for c in stating if current.get(c.metric, c.metric) == said
               or in_parts and current.get(c.metric, c.metric) in carried]
        if not own:
            if stating and b.metric is not None:  # a number nothing states is unsupported
                out.append(_number_metric(n, b.metric, said, stating))
            continue
        period = _period_before(ctx, n)
        if period is not None and (wrong := _of_other_periods(period, own)):
            out.append(_number_period(n, period, wrong))
            continue
        if not b.members or b.members[0].words in flagged:
            continue
        if all(carries(ctx, own, m.name, m.member or "") is False for m in b.members):
            out.append(_number_member(n, b.members[0], own))
    return out


_LISTED_AFTER = re.compile(r"\s*(?::|,|-|–|=|\(|(?:was|were|had|saw|at|of|with)\b)?\s*$",
                           re.IGNORECASE)
"""Between a period and its number in a list ('2026-05-04 14,597', 'May 2019: $55,865.10',
'in March, 2,616', 'week of 2026-05-04 was 14,597')."""


def _period_before(ctx: AnswerContext, n: ReadNumber) -> PeriodMention | None:
    """The period written right before the number, as a list of a series' rows writes it."""
    text = ctx.answer.answer or ""
    periods = read_words(ctx.index_, "prose", text).periods
    before = [p for p in periods if p.span[1] <= n.start]
    if not before:
        return None
    p = before[-1]
    return p if _LISTED_AFTER.fullmatch(text, p.span[1], n.start) else None


def _of_other_periods(period: PeriodMention, own: list[Cited]) -> list[Cited]:
    """The cited rows the number states when every one is a series' row of another period than
    the one written before it (none when some row, or some result's whole window, is it)."""
    windows = [row_period(c) for c in own]
    if any(w is None for w in windows):
        return []
    said = (period.period.start, period.period.end)
    if any(w == said or period.period.start == period.period.end == w[0] for w in windows
           if w is not None):
        return []
    return own


def _number_period(n: ReadNumber, period: PeriodMention, own: list[Cited]) -> Finding:
    cited = sorted({c.text for c in own})
    return Finding(
        "mislabelled_window", PROSE,
        f"The answer says {period.words!r} … {n.text}, but {n.text} is what "
        f"{', '.join(cited[:3])} cite{'s' if len(cited) == 1 else ''}, another period's value.",
        {"said": period.words, "number": n.text, "cited": cited},
        f"Write {period.words}'s own cited value, or name the period {cited[0]} is for.")


RISES = frozenset({"rose", "risen", "rise", "rises", "rising", "increased", "increases", "grew",
                   "grown", "grows", "jumped", "climbed", "gained", "spiked", "surged", "soared",
                   "doubled", "tripled", "rebounded", "lengthened", "lengthens", "added"})
FALLS = frozenset({"fell", "fallen", "fall", "falls", "falling", "dropped", "drops", "declined",
                   "declines", "decreased", "decreases", "shrank", "shrunk", "dipped", "slid",
                   "slipped", "collapsed", "plunged", "plummeted", "tumbled", "sank", "slumped",
                   "tanked", "halved", "contracted", "shortened", "shortens"})
"""Verbs of motion: which way the prose says a metric moved ('lengthened', 'shortened': of a
duration). Adjectives ("lower", "up") are not read: "where lower is better" says nothing about
the change."""
JUDGES = {**dict.fromkeys(("improved", "improves", "improve", "improving", "recovered",
                           "recovers", "recovering"), 1),
          **dict.fromkeys(("worsened", "worsens", "worsen", "worsening", "deteriorated",
                           "deteriorates", "deteriorating"), -1)}
"""Verbs that judge a move (+1 for the better, -1 for the worse): which way the metric moved
follows only from its governed polarity (docs/citations.md, "Polarity"); of a metric with
none they say nothing the audit can hold, and are not read."""
_GOT = re.compile(r"(?i)\b(?:got|gotten|getting|gets|became|become|becomes|grew|grown)\s+$")
"""Before 'better' or 'worse': the words make a judging verb ('got better', 'became worse')."""
POLARITY = {"higher_is_better": 1, "lower_is_better": -1}


def polarities(catalog: dict) -> dict[str, int]:
    """Each metric whose governance states a polarity: +1 higher is better, -1 lower is."""
    return {name: POLARITY[m["polarity"]] for name, m in catalog.get("metrics", {}).items()
            if m.get("polarity") in POLARITY}


def judged(text: str, word: re.Match[str]) -> int:
    """+1 or -1 when the word judges a move ('improved', 'got worse'), else 0."""
    verb = word.group(0).lower()
    if verb in ("better", "worse"):
        return (1 if verb == "better" else -1) if _GOT.search(text, 0, word.start()) else 0
    return JUDGES.get(verb, 0)
_NEGATIONS = frozenset({"not", "no", "never", "neither", "nor", "without", "hardly", "barely"})
_WORDS = re.compile(r"[A-Za-z]+(?:'t)?")
_BRACKETED = re.compile(r"\([^()]*\)")


def unbracketed(text: str, words: Iterable[re.Match[str]]) -> Iterator[re.Match[str]]:
    """The words outside parentheses: 'Flights (origin airport EWR) rose' says its move after
    the label; a verb inside one ('origin rises EWR') is a label's word, not the metric's move."""
    inside = [m.span() for m in _BRACKETED.finditer(text)] if "(" in text else []
    return (w for w in words if not any(a < w.start() < b for a, b in inside))


def _read_moves(text: str, sentences: list[tuple[int, int]], metrics: tuple[Mention, ...],
                members: tuple[Mention, ...], polarity: dict[str, int] | None = None
                ) -> tuple[Move, ...]:
    """Each metric followed, before the next metric or its sentence's end, by a verb of motion
    that no negation precedes, with the member(s) named last between them. A judging verb
    ('improved') is a move of the metric's polarity's sign; of a metric with none, no move."""
    polarity = polarity or {}
    out = []
    ends = [end for _start, end in sentences]
    for i, m in enumerate(metrics):
        stop = min([e for e in ends if e > m.span[1]] or [len(text)])
        if i + 1 < len(metrics):
            stop = min(stop, metrics[i + 1].span[0])
        for word in unbracketed(text, _WORDS.finditer(text, m.span[1], stop)):
            verb = word.group(0).lower()
            if verb in _CAUSE_WORDS:
                break  # 'active users drove the fall': the move after it is the effect's
            negated = verb in _NEGATIONS or verb.endswith("'t")
            sign = 1 if verb in RISES else -1 if verb in FALLS else \
                judged(text, word) * polarity.get(m.name, 0)
            if negated:  # "did not fall" says it did not: the move's sign is the other way
                found = _negated(text, word.end(), stop, polarity.get(m.name, 0)) \
                    if verb in _DENIALS or verb.endswith("'t") else None
                if found is None:
                    break
                verb, sign, end = text[word.start():found[1]], -found[0], word.start()
            else:
                end = word.start()
                got = _GOT.search(text, 0, end) if verb in ("better", "worse") else None
                verb = text[got.start():word.end()] if got else verb  # 'got better'
            if sign:
                group = [g for g in members if m.span[1] <= g.span[0] and g.span[1] <= end]
                named = tuple(g for g in group if g.span == group[-1].span) if group else ()
                out.append(Move(m, verb, sign, named))
                break
    return tuple(out)


_CAUSE_WORDS = frozenset({"drove", "drives", "driving", "caused", "causes", "causing", "explains",
                          "explained", "behind", "led", "leads", "resulted", "results",
                          "contributed", "contributes", "accounted", "accounts", "responsible"})
"""Words after a metric that make it a cause: a verb of motion after them is the effect's."""
_DENIALS = frozenset({"not", "never", "neither", "nor"})
"""Negations that deny the move after them; "barely rose" and "hardly fell" still moved."""
_BETWEEN = frozenset({"be", "been", "have", "has", "had", "did", "do", "does", "really",
                      "actually", "yet", "much", "materially", "meaningfully", "significantly"})
"""Words a negation and its verb of motion may have between them ("has not really fallen");
any other word ("not only rose") leaves the negation unread."""


def _negated(text: str, at: int, stop: int, polarity: int = 0) -> tuple[int, int] | None:
    """The sign and end of the verb of motion a negation before `at` denies ("not fall",
    "neither rose", "hasn't actually risen", "did not improve" of a metric with a polarity),
    or None."""
    for i, word in enumerate(_WORDS.finditer(text, at, stop)):
        verb = word.group(0).lower()
        sign = 1 if verb in RISES else -1 if verb in FALLS else judged(text, word) * polarity
        if sign:
            return sign, word.end()
        if i >= 2 or verb not in _BETWEEN:
            return None
    return None


@emits("direction_mismatch")
def find_prose_direction(ctx: AnswerContext) -> list[Finding]:
    """The prose says a metric rose (or fell), but every change the claims cite for it went the
    other way."""
    support = _support(ctx)
    if support is None:
        return []
    moves = _prose(ctx).moves
    changes: dict[str, list[Cited]] = {}
    current = ctx.index_.current
    for item in support.cited if moves else ():
        if item.citation.field in ("delta", "pct_change") and _signed(item.value):
            changes.setdefault(current.get(item.metric, item.metric), []).append(item)
    out: list[Finding] = []
    for move in moves:
        said = _current(ctx, move.metric.name)
        cited = [c for c in changes.get(said, []) if not move.members or any(
            carries(ctx, [c], m.name, m.member or "") for m in move.members)]
        if cited and all((c.value > 0) != (move.sign > 0) for c in cited) \
                and all(f.evidence["said"] != said for f in out):
            polarity = ctx.catalog.get("metrics", {}).get(said, {}).get("polarity")
            out.append(_direction_finding(move, said, cited, polarity))
    return out + _row_directions(ctx) + _flat_moves(ctx, support.cited) \
        + _prose_ends(ctx, support.cited)


def _prose_ends(ctx: AnswerContext, cited: Iterable[Cited]) -> list[Finding]:
    """'fell 16.0 % (2.35 → 2.80)' of a fall from 2.80 to 2.35: a pair of ends the prose states
    the other way round from a cited change, as a claim's text is held (findings.py)."""
    from showwork.harness.audit.findings import ends_reversed

    found = ends_reversed(ctx.index_, ctx.answer.answer or "", cited)
    if found is None:
        return []
    message, evidence = found
    return [Finding("direction_mismatch", PROSE, f"The answer says {message}", evidence,
                    "State a change from the previous value to the current one.")]


def _flat_moves(ctx: AnswerContext, cited: Iterable[Cited]) -> list[Finding]:
    """'Revenue was essentially unchanged in May' of a cited -5.7 %: a metric the prose calls
    flat (findings.py `_FLAT`, held in a claim's text the same way) whose every cited relative
    change lies beyond FLAT_BAND."""
    from showwork.harness.audit.findings import _FLAT, FLAT_BAND
    from showwork.harness.audit.quantifiers import _SENTENCE

    text = ctx.answer.answer or ""
    if _FLAT.search(text) is None:
        return []
    current = ctx.index_.current
    changes: dict[str, list[Cited]] = {}
    for item in cited:
        if item.citation.field == "pct_change" and isinstance(item.value, int | float):
            changes.setdefault(current.get(item.metric, item.metric), []).append(item)
    metrics = read_words(ctx.index_, "prose", text).metrics
    out: list[Finding] = []
    starts = [m.start() for m in _SENTENCE.finditer(text)]  # '5.7 %' and 'Inc.' end none
    for flat in _FLAT.finditer(text):
        start = max((a for a in starts if a <= flat.start()), default=0)
        named = [m for m in metrics if start <= m.span[0] and m.span[1] <= flat.start()]
        if not named:
            continue
        said = current.get(named[-1].name, named[-1].name)
        moved = changes.get(said, [])
        if not moved or any(abs(c.value) <= FLAT_BAND for c in moved):
            continue
        shown = ", ".join(f"{c.text} = {c.value:+.3g} %" for c in moved[:3])
        out.append(Finding(
            "direction_mismatch", PROSE,
            f"The answer says {named[-1].words!r} {flat.group(0)}, but every change the claims "
            f"cite for {said} moved beyond ±{FLAT_BAND:g} % ({shown}).",
            {"said": said, "phrase": named[-1].words, "word": flat.group(0),
             "citation": moved[0].text, "value": moved[0].value},
            f"Say which way {said} moved; call a change flat only within ±{FLAT_BAND:g} %."))
    return out


def _row_directions(ctx: AnswerContext) -> list[Finding]:
    """A move between two rows of a cited series that the rows contradict ('flights fell from
    February to March' of a series that rose: rowmoves.py)."""
    from showwork.harness.audit.rowmoves import read_row_moves

    out = []
    for move in read_row_moves(ctx, ctx.answer.answer or ""):
        if move.direction_holds:
            continue
        text = ctx.answer.answer or ""
        # 'never fell': the denial and its verb, as the text says them
        word = text[move.words[0][0] if move.denied else move.verb[0]:move.verb[1]]
        out.append(Finding(
            "direction_mismatch", PROSE,
            f"The answer says {move.metric} {word}, but the cited rows are {move.cited}: it "
            f"{move.went}.",
            {"said": move.metric, "phrase": word, "word": word, "cited": move.cited},
            f"Say that {move.metric} {move.went} between the two rows, as they do."))
    return out


def _signed(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value != 0


def _direction_finding(move: Move, said: str, cited: list[Cited],
                       polarity: str | None = None) -> Finding:
    went = "rose" if cited[0].value > 0 else "fell"
    shown = ", ".join(f"{c.text} = {c.value:+g}" for c in cited[:3])
    verb = move.word.split()[-1].lower()
    evidence = {"said": said, "phrase": move.metric.words, "word": move.word,
                "citation": cited[0].text, "value": cited[0].value}
    if polarity is not None and (verb in JUDGES or verb in ("better", "worse")):
        good = went == ("rose" if polarity == "higher_is_better" else "fell")
        return Finding(
            "direction_mismatch", PROSE,
            f"The answer says {move.metric.words!r} {move.word}, but {said} is "
            f"{polarity.replace('_', ' ')} (its governance) and every change the claims cite "
            f"for it {went} ({shown}): it got {'better' if good else 'worse'}.",
            {**evidence, "polarity": polarity},
            f"Say that {said} {went} ({'improved' if good else 'worsened'}), as the cited "
            "change does.")
    return Finding(
        "direction_mismatch", PROSE,
        f"The answer says {move.metric.words!r} {move.word}, but every change the claims cite for "
        f"{said} {went} ({shown}).", evidence,
        f"Say that {said} {went}, as the cited change does; if the sign is a convention (lower "
        "is better), say it in the metric's description.")


@emits("mislabelled_metric")
def find_argued_numbers(ctx: ClaimContext) -> list[Finding]:
    """A conclusion's or causal claim's number written under one metric that only other
    metrics' fields among its premises hold ("Revenue grew 2x mainly because orders rose
    48.5 %", +100 % being a region's orders'): read as the prose's numbers are (`_bound`), held
    to the premises. Like the prose's, it states another value than it rests on (CONFLICTING)."""
    claim = ctx.claim
    if claim.kind == "measurement" or not ctx.premises or ctx.defects or not claim.text:
        return []
    index = ctx.index_
    if not read_claims(index, claim.text):
        return []  # the common case: no number in the claim's text
    supports = premise_supports(ctx)
    if not supports:
        return []
    reading = index.read("prose-reading", claim.text, lambda t: _read_prose(index, t))
    kept = {id(n) for n in unasked(tuple(b.number for b in reading.bound), ctx.question or "")}
    supported = Supports(supports)
    out: list[Finding] = []
    for b in reading.bound:
        if id(b.number) not in kept:
            continue
        if b.metric is None:
            continue  # no metric named: nothing to hold the premises' metric to
        said = index.current.get(b.metric.name, b.metric.name)
        stating = [s.source for s in supported.matching(b.number) if s.source is not None]
        if stating and not any(index.current.get(c.metric, c.metric) == said for c in stating):
            out.append(_number_metric(b.number, b.metric, said, stating, ctx.cid))
    return out


@emits("mislabelled_member")
def find_claimed_members(ctx: ClaimContext) -> list[Finding]:
    """A measurement's number said of a member ('Active users for platform web rose 2.58 %')
    that only another member's cited row states (ios's), where the claim cites rows of several
    members (an attribution's: its own row and the others' to weigh it): read as the prose's
    numbers are (`_read_bound`), held to the claim's own cited values. It states another
    member's value (CONFLICTING)."""
    claim = ctx.claim
    if claim.kind != "measurement" or ctx.defects or not claim.text or len(ctx.cited) < 2:
        return []
    if len({tuple(sorted(c.row.key.items())) for c in ctx.cited}) < 2:
        return []  # the common case: one row cited
    index = ctx.index_
    if not read_claims(index, claim.text):
        return []
    reading = index.read("prose-reading", claim.text, lambda t: _read_prose(index, t))
    cited, _stated = _claim_values(ctx)
    supported = Supports(cited)
    out: list[Finding] = []
    for b in reading.bound:
        if not b.members:
            continue
        stating = [s.source for s in supported.matching(b.number) if s.source is not None]
        if stating and all(carries(ctx, stating, m.name, m.member or "") is False
                           for m in b.members):
            out.append(_number_member(b.number, b.members[0], stating, ctx.cid))
            break
    return out


def _number_metric(n: ReadNumber, metric: Mention, said: str, stating: list[Cited],
                   where: str = PROSE) -> Finding:
    cited = sorted({c.text for c in stating})
    return Finding(
        "mislabelled_metric", where,
        f"The answer says {metric.words!r} … {n.text} ({said}), but {n.text} is what "
        f"{', '.join(cited[:3])} cite{'s' if len(cited) == 1 else ''}, not {said}.",
        {"said": said, "phrase": metric.words, "number": n.text, "cited": cited},
        f"Write {said}'s own cited value, or name the metric {cited[0]} is for.")


def _number_member(n: ReadNumber, member: Mention, own: list[Cited],
                   where: str = PROSE) -> Finding:
    cited = sorted({c.text for c in own})
    return Finding(
        "mislabelled_member", where,
        f"{'The answer' if where == PROSE else f'Claim {where}'} says {member.words!r} … "
        f"{n.text} ({member.name} = {member.member}), but "
        f"{n.text} is what {', '.join(cited[:3])} cite{'s' if len(cited) == 1 else ''}, "
        "another member's value.",
        {"said": member.member, "dimension": member.name, "phrase": member.words,
         "number": n.text, "cited": cited},
        f"Write {member.member}'s own cited value, or name the member {cited[0]} is for.")
