"""The answer's prose is held to what its claims cite.

The prose is what a user reads first, so it is read by the claims' reader (labels.py) and held
to everything the answer's claims cite and every tree edge they rest on (findings on claim
`answer`):
- a governed metric, member or period it names must be one of those;
- "because X" must name the answer's driver;
- a cause stated as a fact must follow an exact tree edge;
- a number is read as the value of the metric named last before it in its sentence (and of the
  member named between them), and must be cited for that metric (and member).
A member headline must be the first listed value and, for "the most"/"the least", the listed
values' extreme (a finding on `answer.value`). Words the prose quotes from the question (an
ignored instruction the answer reports) are not the answer's words and are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from harness.audit.context import AnswerContext, Cited
from harness.audit.labels import (
    Support,
    Window,
    by_span,
    carries,
    members_cited,
    names_window,
    read_words,
    support_of,
    windows_of,
)
from harness.audit.numbers import Support as Valued
from harness.audit.numbers import Supports, kind_of
from harness.audit.scope import scope_of
from harness.audit.steps import emits
from harness.audit.types import Finding
from protocol.numbers import Kind, ReadNumber, claims_in, matches, unasked
from protocol.reading import Mention, PeriodMention

PROSE = "answer"
"""The claim id findings on the prose carry."""
HEADLINE = "answer.value"
"""The claim id findings on a member headline carry."""
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”")
_BECAUSE = re.compile(r"\b(?:because(?:\s+of)?|due to|driven by|owing to|caused by)\s+"
                      r"(?:(?:the|a|an|our|lower|higher|fewer|more|less)\s+)*$", re.IGNORECASE)
"""Words before a metric that name it as the cause."""
CAUSE = re.compile(r"\b(?:because|caused?|causing|drove|drives|driven|driving|led to|leads to|"
                   r"due to|resulted in|results in|explains?|explained|responsible for)\b",
                   re.IGNORECASE)
"""Words that state a cause."""
HEDGE = re.compile(r"\b(?:may|might|could|possibly|perhaps|hypothes\w*|correlat\w*|likely|"
                   r"suggests?|consistent with|not attributed)\b", re.IGNORECASE)
"""Words that make a stated cause a hypothesis."""
_END = re.compile(r"[.!?](?=\s|$)")
"""A sentence's end (a decimal point is followed by a digit, not a space)."""


@emits("mislabelled_metric", "mislabelled_member", "mislabelled_window", "weak_causal")
def find_prose_labels(ctx: AnswerContext) -> list[Finding]:
    """A metric, member or period the prose names that no claim cites, a 'because X' that is
    not the answer's driver, and a cause stated between two metrics that no exact tree edge
    joins."""
    support = _support(ctx)
    if support is None:
        return []
    text = _without_quotes(ctx.answer.answer, ctx.question or "")
    reading = read_words(ctx.index_, "prose", text)
    named = _metrics(ctx, text, reading.metrics, support) + _members(ctx, reading.members,
                                                                     support.cited)
    flagged = {f.evidence["phrase"] for f in named}
    return (named + _windows(ctx, reading.periods, support.cited)
            + _causes(ctx, text, reading.metrics)
            + _bound(ctx, text, reading.metrics, reading.members, flagged)
            + _headline(ctx))


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


def _ranking(ctx: AnswerContext) -> str | None:
    """'most' or 'least' when the question (read without an appended instruction) ranks."""
    question = scope_of(ctx).question
    ranking = question.reading.asks.ranking if question is not None else None
    return ranking.order if ranking is not None else None


def _plain(value: float) -> str:
    return f"{value:,.6g}" if isinstance(value, float) else f"{value:,}"


def _support(ctx: AnswerContext) -> Support | None:
    """What every claim rests on together; None when there is nothing to hold the prose to (a
    refusal, no claims) or a citation under it is broken (a defect already)."""
    if ctx.answer.status != "answered" or not ctx.answer.answer or not ctx.claims:
        return None
    parts = [support_of(c) for c in ctx.claims]
    if not all(p.whole for p in parts):
        return None
    cited = tuple(item for p in parts for item in p.cited)
    statements = tuple(s for p in parts for s in p.statements)
    return Support(cited, statements, True) if cited else None


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


def _metrics(ctx: AnswerContext, text: str, mentions: Iterable[Mention], support: Support
             ) -> list[Finding]:
    carried = {_current(ctx, c.metric) for c in support.cited}
    for s in support.statements:
        carried |= {_current(ctx, s.parent), _current(ctx, s.child)}
    out: list[Finding] = []
    seen: set[str] = set()
    driver = _current(ctx, ctx.answer.driver) if ctx.answer.driver else None
    for m in mentions:
        said = _current(ctx, m.name)
        if said not in carried and said not in seen:
            seen.add(said)
            out.append(_metric_finding(m, said, carried))
        elif driver and said != driver and _BECAUSE.search(text[:m.span[0]]):
            out.append(_because_finding(m, said, driver))
    return out


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


def _members(ctx: AnswerContext, mentions: Iterable[Mention], cited: tuple[Cited, ...]
             ) -> list[Finding]:
    out: list[Finding] = []
    for group in by_span(mentions):
        if all(carries(ctx, cited, m.name, m.member or "") is False for m in group):
            m = group[0]
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


def _windows(ctx: AnswerContext, periods: Iterable[PeriodMention], cited: tuple[Cited, ...]
             ) -> list[Finding]:
    windows: set[Window] = {w for item in cited for w in windows_of(ctx, item)}
    if not windows:
        return []
    numbers = {float(v) for v in [ctx.answer.value, *(c.value for c in cited),
                                  *(c.claim.value for c in ctx.claims)]
               if isinstance(v, int | float) and not isinstance(v, bool)}
    out = []
    for p in periods:
        words = p.words.strip()
        if names_window(p.period, windows) or (
                words.isdigit() and any(abs(n - int(words)) < 1 for n in numbers)):
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


def _causes(ctx: AnswerContext, text: str, mentions: tuple[Mention, ...]) -> list[Finding]:
    """Per sentence stating a cause without a hedge: the metric named last before the cause word
    and the one named first after it must be joined by an exact tree edge."""
    out: list[Finding] = []
    for start, end in _sentences(text):
        sentence = text[start:end]
        cause = CAUSE.search(sentence)
        if cause is None or HEDGE.search(sentence):
            continue
        at = start + cause.start()
        before = [m for m in mentions if start <= m.span[0] and m.span[1] <= at]
        after = [m for m in mentions if at <= m.span[0] and m.span[1] <= end]
        if not before or not after:
            continue
        a, b = _current(ctx, before[-1].name), _current(ctx, after[0].name)
        kinds = {ctx.index_.edges.get(pair) for pair in ((a, b), (b, a))} - {None}
        if a != b and "exact" not in kinds:
            rests = "an influence (correlational) edge" if kinds else "no tree edge"
            out.append(Finding(
                "weak_causal", PROSE,
                f"The answer states that {after[0].words} {cause.group(0)} {before[-1].words} "
                f"({b} → {a}), but the metric tree joins them by {rests}.",
                {"cause": b, "effect": a, "phrase": sentence.strip(),
                 "edge": sorted(k for k in kinds if k)},
                "State it as a hypothesis (may, correlational), or add the exact decomposition "
                "to the metric tree if one exists."))
    return out


def _sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of the text."""
    out, start = [], 0
    for m in _END.finditer(text):
        out.append((start, m.end()))
        start = m.end()
    return out + [(start, len(text))] if start < len(text) else out


def _bound(ctx: AnswerContext, text: str, metrics: tuple[Mention, ...],
           members: tuple[Mention, ...], flagged: set[str]) -> list[Finding]:
    """A number in the prose is read as the value of the metric named last before it in its
    sentence (and of the member named between them): some cited value that the number states
    must be that metric's (and that member's). A number nothing states is a defect already; a
    metric or member no claim cites, or a 'because' that is not the driver, a finding already."""
    numbers = unasked(ctx.index_.read("numbers", text, claims_in), ctx.question or "")
    if not numbers:
        return []
    valued = _valued(ctx)
    by_metric: dict[str, list[tuple[float, Kind, Cited]]] = {}
    for item in valued:
        by_metric.setdefault(_current(ctx, item[2].metric), []).append(item)
    indexed = {m: Supports(Valued(v, k, c.text) for v, k, c in items)
               for m, items in by_metric.items()}
    out: list[Finding] = []
    for start, end in _sentences(text):
        for n in (n for n in numbers if start <= n.start < end):
            metric = next((m for m in reversed(metrics) if start <= m.span[0]
                           and m.span[1] <= n.start), None)
            if metric is None or metric.words in flagged:
                continue
            said = _current(ctx, metric.name)
            if said not in indexed or not indexed[said](n):
                stating = [c for value, kind, c in valued if matches(n, value, kind)]
                if stating:  # a number nothing states is unsupported_number already
                    out.append(_number_metric(n, metric, said, stating))
                continue
            group = [m for m in members if metric.span[1] <= m.span[0] and m.span[1] <= n.start]
            named = [m for m in group if m.span == group[-1].span] if group else []
            if not named or named[0].words in flagged:
                continue
            own = [c for value, kind, c in by_metric[said] if matches(n, value, kind)]
            if all(carries(ctx, own, m.name, m.member or "") is False for m in named):
                out.append(_number_member(n, named[0], own))
    return out


def _valued(ctx: AnswerContext) -> list[tuple[float, Kind, Cited]]:
    """Each cited value, and each claim's stated value (as its first citation's), with what
    cites it."""
    out: list[tuple[float, Kind, Cited]] = []
    for claim in ctx.claims:
        for c in claim.cited:
            if isinstance(c.value, int | float) and not isinstance(c.value, bool):
                out.append((c.value, kind_of(c.citation.field, c.metric, ctx.catalog), c))
        value = claim.claim.value
        if claim.cited and isinstance(value, int | float) and not isinstance(value, bool):
            first = claim.cited[0]
            out.append((value, kind_of(first.citation.field, first.metric, ctx.catalog), first))
    return out


def _number_metric(n: ReadNumber, metric: Mention, said: str, stating: list[Cited]) -> Finding:
    cited = sorted({c.text for c in stating})
    return Finding(
        "mislabelled_metric", PROSE,
        f"The answer says {metric.words!r} … {n.text} ({said}), but {n.text} is what "
        f"{', '.join(cited[:3])} cite{'s' if len(cited) == 1 else ''}, not {said}.",
        {"said": said, "phrase": metric.words, "number": n.text, "cited": cited},
        f"Write {said}'s own cited value, or name the metric {cited[0]} is for.")


def _number_member(n: ReadNumber, member: Mention, own: list[Cited]) -> Finding:
    cited = sorted({c.text for c in own})
    return Finding(
        "mislabelled_member", PROSE,
        f"The answer says {member.words!r} … {n.text} ({member.name} = {member.member}), but "
        f"{n.text} is what {', '.join(cited[:3])} cite{'s' if len(cited) == 1 else ''}, "
        "another member's value.",
        {"said": member.member, "dimension": member.name, "phrase": member.words,
         "number": n.text, "cited": cited},
        f"Write {member.member}'s own cited value, or name the member {cited[0]} is for.")
