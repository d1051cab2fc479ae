"""Finders: each declares its finding code and returns findings with evidence and a suggested
model fix; they never break grounding."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from showwork.harness.audit.basis import find_claim_basis, find_prose_basis
from showwork.harness.audit.comparisons import find_comparisons
from showwork.harness.audit.context import AnswerContext, ClaimContext
from showwork.harness.audit.drafts import find_draft_metric
from showwork.harness.audit.ends import find_claim_ends, find_prose_ends
from showwork.harness.audit.instructions import find_instructions
from showwork.harness.audit.labels import (
    find_mislabelled,
    find_mislabelled_member,
    find_mislabelled_window,
    read_claim,
    support_of,
)
from showwork.harness.audit.prose import (
    POLARITY,
    find_argued_numbers,
    find_claimed_members,
    find_prose_direction,
    find_prose_labels,
    hedged,
    judged,
    stated_cause,
    states_cause,
    text_reading,
)
from showwork.harness.audit.scope import SCOPE_FINDINGS
from showwork.harness.audit.steps import emits
from showwork.harness.audit.trends import find_claim_trends, find_prose_trends
from showwork.harness.audit.types import Finding
from showwork.harness.audit.words import find_unread_answer
from showwork.protocol.catalog_text import direction, says_period_total
from showwork.protocol.numbers import ReadNumber, claims_in, matches
from showwork.protocol.periods import period_words
from showwork.protocol.reading._literals import search


def _finding(ctx: ClaimContext, code: str, message: str, evidence: dict[str, Any],
             suggestion: str) -> Finding:
    return Finding(code, ctx.cid, message, evidence, suggestion)


@emits("direction_mismatch")
def find_direction(ctx: ClaimContext) -> list[Finding]:
    """The text says the other move than a cited change shows: its verb of motion, the order
    of the ends it states ('(2.56 → 2.78)' of a fall from 2.78), or a flat for a move."""
    if not ctx.cited:
        return _against_flat(ctx) if ctx.premises else []
    return _against_verb(ctx) or _against_ends(ctx) or _against_flat(ctx)


def _against_verb(ctx: ClaimContext) -> list[Finding]:
    moved = ctx.index_.read("direction", ctx.claim.text, _moved)
    judge = None if moved else ctx.index_.read("judged", ctx.claim.text, _judging)
    if not moved and judge is None:
        return []
    for item in ctx.cited:
        text, c, value = item.text, item.citation, item.value
        polarity = POLARITY.get(ctx.index_.metric(item.metric).get("polarity") or "", 0)
        said = moved or (judge[0] * polarity if judge else 0)
        numeric = isinstance(value, int | float) and value
        if said and c.field in ("delta", "pct_change") and numeric and (value > 0) != (said > 0):
            if judge:  # 'improved' of a metric better lower: the polarity made it a move
                return [_judged_finding(ctx, judge[1], item, polarity)]
            word = "rose" if said > 0 else "fell"
            return [_finding(
                ctx, "direction_mismatch",
                f"Claim {ctx.cid} says it {word}, but {text} is {value:+g}.",
                {"said": word, "citation": text, "value": value},
                "Check the sign convention of the metric and its label (a metric where "
                "lower is better needs it said in its description).")]
    return []


_BETTER_WORSE = re.compile(r"(?i)\b(?:better|worse)\b")


def _moved(text: str) -> int:
    """`direction` of the text, 'better' and 'worse' left out: they judge a move, and say which
    way it went only under the metric's polarity (`_judging`)."""
    return direction(_BETTER_WORSE.sub(" ", text))


def _judging(text: str) -> tuple[int, str] | None:
    """The first word of the text that judges a move ('improved', 'got worse'): its sign
    (+1 for the better) and words, or None."""
    for word in re.finditer(r"[A-Za-z]+", text):
        sign = judged(text, word)
        if sign:
            return sign, word.group()
    return None


def _judged_finding(ctx: ClaimContext, word: str, item: Any, polarity: int) -> Finding:
    went = "rose" if item.value > 0 else "fell"
    name = "higher_is_better" if polarity > 0 else "lower_is_better"
    return _finding(
        ctx, "direction_mismatch",
        f"Claim {ctx.cid} says it {word}, but {item.metric} is {name.replace('_', ' ')} (its "
        f"governance) and {item.text} is {item.value:+g}: it {went}, for the "
        f"{'better' if (item.value > 0) == (polarity > 0) else 'worse'}.",
        {"said": word, "citation": item.text, "value": item.value, "polarity": name},
        f"Say that {item.metric} {went}, as the cited change does.")


_ENDS_GAP = re.compile(r"\s*(?:[a-z]{1,8}\.?\s*)?(?:→|->|to)\s*")
"""Between the ends of a stated change: an arrow (or 'to'), after a unit ('13.0 min → 20.8')."""
_FLAT = re.compile(r"(?i)\b(?:(?:essentially |roughly |about |broadly )?(?:flat|unchanged)|"
                   r"held steady|stayed level|no (?:real )?change|did not (?:change|move)|"
                   r"barely (?:moved|changed))\b")
FLAT_BAND = 2.0
"""A change (in percent) a text may call flat or unchanged; a larger move is not flat."""


def _flat_words(text: str) -> re.Match[str] | None:
    """The words of `text` that say a metric did not move (`_FLAT`), searched only where they
    may be (`_literals.search`)."""
    return search(_FLAT, text)


def _ends(text: str, read: Callable[[str], Sequence[ReadNumber]] = claims_in
          ) -> list[tuple[ReadNumber, ReadNumber]]:
    """Each 'A → B' (or 'from A to B') pair of numbers the text states, in order (`read`: the
    text's numbers, as the number checks read them once per text)."""
    if "→" not in text and "->" not in text and " to " not in text:
        return []
    numbers = read(text)
    return [(a, b) for a, b in zip(numbers, numbers[1:], strict=False)
            if _ENDS_GAP.fullmatch(gap := text[a.end:b.start])
            and ("→" in gap or "->" in gap or text[:a.start].rstrip().endswith("from"))]


def _compared(item: Any) -> dict[str, Any] | None:
    """The cited row's comparison fields of the cited metric (a compare result), if any."""
    if item.result.kind != "compare":
        return None
    fields = item.row.values.get(item.citation.metric)
    return fields if isinstance(fields, dict) else None


def _against_ends(ctx: ClaimContext) -> list[Finding]:
    found = ends_reversed(ctx.index_, ctx.claim.text or "", ctx.cited)
    if found is None:
        return []
    message, evidence = found
    return [_finding(ctx, "direction_mismatch", f"Claim {ctx.cid} says {message}", evidence,
                     "State a change from the previous value to the current one.")]


def ends_reversed(index: Any, text: str, cited: Iterable[Any]
                  ) -> tuple[str, dict[str, Any]] | None:
    """The first pair of ends `text` states ('A → B', 'from A to B') whose first is a cited
    change's current value and second its previous one, the other way round: what it says
    (after 'says') and the finding's evidence; None when every pair goes the cited way."""
    pairs = index.read("ends", text,
                       lambda t: _ends(t, lambda s: index.read("claims_in", s, claims_in)))
    for item in cited if pairs else ():
        fields = _compared(item)
        if fields is None or fields.get("value") == fields.get("previous"):
            continue
        for a, b in pairs:
            if _states(a, fields.get("value")) and _states(b, fields.get("previous")) \
                    and not _states(a, fields.get("previous")):
                return (f"{a.text} → {b.text}, but {item.text.split('.')[0]} went from "
                        f"{fields['previous']:,g} (previous) to {fields['value']:,g}: the ends "
                        "are stated the other way round.",
                        {"said": f"{a.text} → {b.text}", "citation": item.text,
                         "value": fields["value"], "previous": fields["previous"]})
    return None


def _states(number: ReadNumber, value: Any) -> bool:
    """The number states the value, as itself or (a percent) as a fraction: '39.6 %' of 0.396."""
    return matches(number, value) or (number.percent and matches(number, value, "fraction"))


def _against_flat(ctx: ClaimContext) -> list[Finding]:
    """A move called flat: of the claim's metric, or (an argument) of the metric named just
    before the flat words, where every change its premises cite moved beyond the band."""
    flat = ctx.index_.read("flat", ctx.claim.text, _flat_words)
    if flat is None:
        return []
    items = ctx.cited[:1] or _of_named(ctx, flat.start())  # a measurement: what it states
    moved = [(item, change) for item in items
             if isinstance(change := (_compared(item) or {}).get("pct_change"), int | float)]
    if not moved or any(abs(change) <= FLAT_BAND for _item, change in moved):
        return []
    item, change = moved[0]
    return [_finding(
        ctx, "direction_mismatch",
        f"Claim {ctx.cid} says it was flat, but {item.text.split('.')[0]} moved "
        f"{change:+.3g} %.",
        {"said": "flat", "citation": item.text, "value": change},
        f"Say which way it moved; call a change flat only within ±{FLAT_BAND:g} %.")]


def _of_named(ctx: ClaimContext, at: int) -> list[Any]:
    """The changes an argument's premises cite of the metric its text names last before `at`."""
    named = [m for m in read_claim(ctx).metrics if m.span[1] <= at]
    if not named:
        return []
    current = ctx.index_.current
    metric = current.get(named[-1].name, named[-1].name)
    return [c for c in support_of(ctx).cited if c.citation.field == "pct_change"
            and current.get(c.metric, c.metric) == metric]


@emits("partial_period")
def find_partial(ctx: ClaimContext) -> list[Finding]:
    out = []
    for item in ctx.cited:
        text, c, result, row = item.text, item.citation, item.result, item.row
        if not result.partial:
            continue
        partial = [cov for cov in result.coverage if cov["partial"]]
        if result.grain and not row.partial:
            continue  # a whole period of a grain result: the partial one is another row
        cov = partial[0] if partial else result.coverage[0]
        if _held_at_the_end(ctx, c.metric, cov):
            continue
        req, got = cov["requested"], cov["covered"]
        covered = f"{got['start']}..{got['end']}" if got else "nothing"
        out.append(_finding(
            ctx, "partial_period",
            f"Claim {ctx.cid} cites r{c.handle}, which covers {covered} of the window "
            f"{req['start']}..{req['end']} asked for.",
            {"citation": text, "requested": req, "covered": got},
            "Declare the source's coverage window in the model so partial periods are flagged "
            "or refused before they are compared."))
    return out


def _held_at_the_end(ctx: ClaimContext, metric: str, cov: dict[str, Any]) -> bool:
    """A point-in-time value (a level, a running total) is the value on the window's last day:
    where the data covers that day, a window whose start the data does not reach is no partial
    value ('cumulative transactions at the end of March 2022', the data beginning 7 March)."""
    current = ctx.index_.current.get(metric, metric)
    got = cov.get("covered") or {}
    return bool(ctx.catalog["metrics"].get(current, {}).get("point_in_time")) and bool(got) \
        and got.get("end") == (cov.get("requested") or {}).get("end")


def _says_period_total(ctx: ClaimContext) -> bool:
    """The claim's text says a total over a period in words outside the metrics it names: a
    metric's own name ('Total Transactions', the label of a running total) says no period."""
    text = ctx.claim.text
    if not ctx.index_.read("period-total", text, says_period_total):
        return False
    for start, end in sorted((m.span for m in read_claim(ctx).metrics), reverse=True):
        text = text[:start] + " " * (end - start) + text[end:]
    return says_period_total(text)


def _window_of_days(ctx: ClaimContext) -> bool:
    """A point-in-time value cited over a run of days no one name says, that starts after its
    data does ('Total Transactions were 45 at the end of 25 to 31 March', asked 'in the 7 days
    ending March 31'): the window's start means nothing to a value at its end, so the days were
    asked as a period total, whatever the claim's words (a metric's own name aside)."""
    for item in ctx.cited:
        metric = ctx.index_.current.get(item.citation.metric, item.citation.metric)
        info = ctx.catalog["metrics"].get(metric, {})
        start = str((info.get("coverage") or {}).get("start") or "")
        for cov in item.result.coverage if info.get("point_in_time") else ():
            asked = cov.get("requested") or {}
            if start and str(asked.get("start", "")) > start and asked.get("end") and \
                    " to " in period_words(asked["start"], asked["end"]):
                return True
    return False


@emits("point_in_time_as_period")
def find_point_in_time(ctx: ClaimContext) -> list[Finding]:
    if not ctx.cited or not (_says_period_total(ctx) or _window_of_days(ctx)):
        return []
    for item in ctx.cited:
        text, c = item.text, item.citation
        metric = ctx.index_.current.get(c.metric, c.metric)
        if ctx.catalog["metrics"].get(metric, {}).get("point_in_time"):
            return [_finding(
                ctx, "point_in_time_as_period",
                f"Claim {ctx.cid} speaks of {metric} as a total over a period, but it is a "
                "point-in-time value (at the end of the window).",
                {"citation": text, "metric": metric},
                f"Say in the label or description of {metric} that it is measured at period "
                "end.")]
    return []


@emits("superseded_metric")
def find_superseded(ctx: ClaimContext) -> list[Finding]:
    out = []
    for item in ctx.cited:
        text, c = item.text, item.citation
        current = ctx.index_.current.get(c.metric, c.metric)
        if current != c.metric:
            out.append(_finding(
                ctx, "superseded_metric",
                f"Claim {ctx.cid} cites {c.metric}, a previous name of {current}.",
                {"citation": text, "previous": c.metric, "current": current},
                f"Keep {c.metric} listed as a previous name of {current}, and tell consumers "
                "the new name."))
    return out


@emits("unlicensed_composition")
def find_composition(ctx: ClaimContext) -> list[Finding]:
    comp = ctx.composition
    if comp is None or _licensed(comp, ctx.catalog):
        return []
    a, b = comp["metrics"]
    return [_finding(
        ctx, "unlicensed_composition",
        f"Claim {ctx.cid} states {ctx.claim.value!r}, derived as {comp['op']} from {a} and {b}; "
        "the model defines no such metric.",
        comp, f"If this composition is meaningful, define it as a governed metric of {a} and {b}.")]


def _licensed(comp: dict[str, Any], catalog: dict[str, Any]) -> bool:
    if comp.get("whole") == "period":  # one metric's share of a whole across periods
        return True
    a, b = comp["metrics"]
    pair = {"a/b": (a, b), "b/a": (b, a)}.get(comp["op"])
    for m in catalog["metrics"].values():
        f = m.get("formula") or {}
        if pair and f.get("op") == "divide" and (f["numerator"], f["denominator"]) == pair:
            return True
    return False


@emits("weak_causal")
def find_weak_causal(ctx: ClaimContext) -> list[Finding]:
    """A causal claim resting on influence edges or none; or a conclusion resting on influence
    edges whose text states the cause as a fact (no 'may', no 'hypothesis')."""
    stated = ctx.claim.kind == "conclusion" and bool(ctx.statements) and \
        states_cause(ctx.index_, ctx.claim.text) and not hedged(ctx.index_, ctx.claim.text)
    if ctx.claim.kind != "causal" and not stated:
        return []
    edges = ctx.index_.edges
    kinds = {edges[(s.parent, s.child)] for s in ctx.statements}
    if "exact" in kinds:
        return []
    rest = ("only on influence (correlational) edges: "
            + ", ".join(str(s) for s in ctx.statements)) if kinds else "on no tree edge"
    said = "is causal" if ctx.claim.kind == "causal" else "states a cause as a fact"
    return [_finding(
        ctx, "weak_causal", f"Claim {ctx.cid} {said} but rests {rest}.",
        {"statements": [str(s) for s in ctx.statements]},
        "State it as a hypothesis, or add the exact decomposition to the metric tree if one "
        "exists.")]


FINDINGS = (find_mislabelled, find_mislabelled_member, find_mislabelled_window, find_direction,
            find_claim_ends, find_claim_basis, find_partial, find_point_in_time, find_superseded,
            find_composition, find_weak_causal, find_claim_trends, find_argued_numbers,
            find_claimed_members, find_draft_metric)
"""Claim findings, in order: what the text names (labels.py), then the rest."""


@emits("flat_reasoning")
def find_flat_reasoning(ctx: AnswerContext) -> list[Finding]:
    """A diagnostic answer whose diagnosis is never stated as a claim with premises."""
    answer = ctx.answer
    diagnostic = ctx.category == "diagnostic" or bool(answer.driver)
    if answer.status != "answered" or not diagnostic or not answer.claims:
        return []
    stated = stated_cause(ctx)
    if stated is None and answer.driver:
        stated = (ctx.index_.current.get(answer.driver, answer.driver), 0)
    if stated is None:
        argued = any(c.kind in ("causal", "conclusion") and c.premises for c in answer.claims)
    else:
        argued = any(_argues(c, *stated) for c in ctx.claims)
    if argued:
        return []
    cause = stated[0] if stated else None
    said = f" that {cause} {'rose' if stated[1] > 0 else 'fell' if stated[1] < 0 else 'moved'}" \
        if stated else ""
    return [Finding("flat_reasoning", None,
                    "Supported facts. Missing argument. The answer diagnoses a move but no "
                    f"conclusion or causal claim states its cause{said} on premises that "
                    "cite it.",
                    {"driver": answer.driver, "claims": len(answer.claims), "cause": cause},
                    "Put the exact decomposition of the metric in the tree so the argument can "
                    "cite it, and state the cause as a causal claim on those premises.")]


def _argues(claim: ClaimContext, cause: str, sign: int) -> bool:
    """The claim is an unhedged causal or conclusion claim that names `cause` (or, in words the
    catalog does not govern, no cause at all: "because users came back on fewer days"), says it
    moved as the prose does (when both say), and rests on premises or an edge citing it."""
    if claim.claim.kind not in ("causal", "conclusion") or not claim.claim.premises:
        return False
    text = claim.claim.text
    if hedged(claim.index_, text):
        return False
    reading = text_reading(claim.index_, text)
    if cause not in read_claim(claim).said and (reading.causes or reading.because):
        return False  # it argues another cause
    current = claim.index_.current
    support = support_of(claim)
    cited = any(current.get(c.metric, c.metric) == cause for c in support.cited) or any(
        current.get(s.child, s.child) == cause for s in support.statements)
    if not cited:
        return False
    moves = [m.sign for m in reading.moves if current.get(m.metric.name, m.metric.name) == cause]
    return not (sign and moves and moves[0] != sign)


ANSWER_FINDINGS = (find_flat_reasoning, find_prose_labels, find_prose_direction,
                   find_prose_ends, find_prose_basis, find_comparisons, find_prose_trends,
                   find_instructions, find_unread_answer,
                   *SCOPE_FINDINGS)
"""Answer-level findings: the argument, the prose against the claims (what it names, which way
it says metrics moved: prose.py), then the question's scope (scope.py)."""
