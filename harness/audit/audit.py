"""The audit: a pure function of an answer and the evidence its trace stores."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from showwork.harness.audit.checks import CHECKS
from showwork.harness.audit.context import AnswerContext, ClaimContext
from showwork.harness.audit.counted import check_prose_amount_counted
from showwork.harness.audit.driver import check_driver
from showwork.harness.audit.evidence import Evidence
from showwork.harness.audit.findings import ANSWER_FINDINGS, FINDINGS
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.numbers import check_answer_numbers, check_counts, derived, read_stated
from showwork.harness.audit.scope import scope_of
from showwork.harness.audit.steps import Step
from showwork.harness.audit.types import AuditReport, ClaimAudit, Defect, Finding
from showwork.protocol.answer import Answer, parse_answer
from showwork.protocol.errors import AnswerError
from showwork.protocol.reading import find_mentions
from showwork.protocol.rendered import members, render_measurement

ANSWER_CHECKS: tuple[Step[AnswerContext, Defect], ...] = (check_answer_numbers, check_counts,
                                                          check_driver, check_prose_amount_counted)
"""Answer-level checks (numbers in the prose and headline, counts of cited rows and runs of a
series, the driver), after every claim's."""
STALE_CODES = {"partial_period", "superseded_metric", "point_in_time_as_period"}
CONFLICT_CODES = frozenset({"value_mismatch", "text_value_mismatch", "direction_mismatch",
                            "mislabelled_member", "mislabelled_window"})
"""A claim whose text states another value, member, window or direction than it cites is
CONFLICTING; so is the prose or the headline with such a finding: the answer is withheld."""
PROSE_CLAIMS = ("answer", "answer.value")


def audit(answer: str | dict[str, Any] | Answer, evidence: Evidence,
          catalog: dict[str, Any] | CatalogIndex,
          category: str | None = None, rendered: bool = False,
          catalog_digest: str | None = None, question: str | None = None) -> AuditReport:
    """Audit one answer. A malformed answer is a report with its protocol error, never a crash.

    `catalog_digest` (the SHA-256 of the catalog's canonical JSON, as traces store it) lets
    audits of many traces share one catalog index. `question` (the question's text) lets the
    answer-level steps skip the question's own numbers and read its scope.
    """
    if not isinstance(answer, Answer):
        try:
            answer = parse_answer(answer)
        except AnswerError as exc:
            return AuditReport("malformed", False, None, [], [], [], "withhold",
                               protocol_error=exc.message)
    index = catalog if isinstance(catalog, CatalogIndex) else CatalogIndex.build(catalog,
                                                                                  catalog_digest)
    answer = _keys_as_members(answer, index)
    contexts = [ClaimContext(i, c, evidence, index, question=question, rendered=rendered)
                for i, c in enumerate(answer.claims or [], 1)]
    for ctx in contexts:
        ctx.answer_claims = contexts
    try:
        audited = [_audit_claim(ctx, rendered) for ctx in contexts]
        whole = AnswerContext(answer, contexts, evidence, index, category, question)
        claims = _propagate(_derived_in_texts(whole, audited), answer)
        answer_defects = run(ANSWER_CHECKS, whole)
        findings = run(ANSWER_FINDINGS, whole)
        scope = scope_of(whole)
    finally:
        for ctx in contexts:  # no cycle outlives the audit: its objects go when it returns
            ctx.answer_claims = []
    defects = [d for c in claims for d in c.defects] + answer_defects
    findings = [f for c in claims for f in c.findings] + findings
    graphed = answer.has_graph
    grounded = (not defects) if graphed else None
    decision = decide(answer.status, graphed, grounded, claims, findings)
    if decision == "serve" and question and answer.status == "answered" and not scope.checked:
        decision = "serve_with_caveats"  # an answer to a question whose scope nobody checked
    return AuditReport(answer.status, graphed, grounded, claims, defects, findings, decision,
                       answer.value, answer.driver, answer.answer, answer.refusal_reason,
                       scope_checked=scope.checked, scope_note=scope.note())


def _keys_as_members(answer: Answer, index: CatalogIndex) -> Answer:
    """The answer with each listed key (and a member headline) written in words that name one
    member of the catalog whole ('paid search' of paid_search, as the prose's are read) keyed
    by that member, so it is held to that member's row; any other key stays as written."""
    if not answer.values:
        return answer
    keys = [_member_named(v.key, index) for v in answer.values]
    head = _member_named(answer.value, index) if isinstance(answer.value, str) else answer.value
    if head == answer.value and all(k == v.key for k, v in zip(keys, answer.values,
                                                               strict=True)):
        return answer
    values = [dataclasses.replace(v, key=k) for k, v in zip(keys, answer.values, strict=True)]
    return dataclasses.replace(answer, values=values, value=head)


def _member_named(key: str, index: CatalogIndex) -> str:
    """The one member the whole of `key` names, or `key` itself."""
    found = [m for m in index.read("mentions", key, lambda t: find_mentions(t, index.catalog))
             if m.kind == "member" and m.span == (0, len(key))]
    return found[0].member or key if len({m.member for m in found}) == 1 else key


def run(steps: Iterable[Step[Any, Any]], ctx: Any, out: list[Any] | None = None) -> list[Any]:
    """Every step's findings on `ctx`, in order, appended to `out` (a new list by default) as
    each step returns: a later step reads what earlier ones appended (a claim's defects). Here,
    not in steps.py, so that the hot loop (one call per step and claim) is compiled."""
    out = [] if out is None else out
    for step in steps:
        found = step.find(ctx)  # the hot loop: one call per step, codes checked when found
        if found:
            step.verify(found)
            out += found
    return out


def _audit_claim(ctx: ClaimContext, rendered: bool) -> ClaimAudit:
    claim = ctx.claim
    run(CHECKS, ctx, ctx.defects)
    findings = run(FINDINGS, ctx)
    state = _state(ctx, findings)
    text = _render(ctx) if rendered and claim.kind == "measurement" and not ctx.defects else None
    return ClaimAudit(ctx.cid, claim.text, claim.kind, state, claim.value,
                      list(claim.sources or []), list(claim.premises or []), ctx.resolved,
                      ctx.defects, findings, text)


def _state(ctx: ClaimContext, findings: list[Finding]) -> str:
    if not ctx.defects and not findings:
        return "SUPPORTED"
    codes = {d.code for d in ctx.defects} | {f.code for f in findings}
    if codes & CONFLICT_CODES or any(states_another_value(f) for f in findings):
        return "CONFLICTING"
    if ctx.defects:
        return "MISSING"
    if codes & STALE_CODES:
        return "STALE"
    return "SUPPORTED"


def _derived_in_texts(whole: AnswerContext, claims: list[ClaimAudit]) -> list[ClaimAudit]:
    """A claim's text read as the prose is for what the cited rows give together: a number of
    it that no cited value states is held to the derivations the prose's readings make of the
    rows the answer cites (numbers.py `derived`: a gap between two members, 'N times', a sum, a
    share, a bound over every row or the only one). One they bear out is no mismatch ('6 fewer
    than Mug, 12 oz', 'the only platform below 10 %'); one they contradict stays
    `text_value_mismatch`, with the reading's message (the span and the cited rows).

    A number no such reading holds, written as near what it states, that the cited rows its
    sentence names give together ('more than tenfold', 'the only region above $10,000':
    derivable.py, as the prose's are) is not proven false either: no `text_value_mismatch`,
    but not checked: the word account leaves it unread (`unread_answer`), so the answer is
    served with caveats, never clean. A measurement claim's exact number stays its cited value
    at its precision or a mismatch, even where some derivation lies within its half unit (a
    value rounded the wrong way, a level written as a move)."""
    if not any(d.code == "text_value_mismatch" for c in claims for d in c.defects):
        return claims
    out = []
    for claim, ctx in zip(claims, whole.claims, strict=True):
        wrong = [d for d in claim.defects if d.code == "text_value_mismatch"]
        if not wrong or len(wrong) != len(claim.defects):
            out.append(claim)
            continue
        left = _not_derived(whole, ctx, wrong)
        if left == wrong:
            out.append(claim)
            continue
        ctx.defects[:] = left  # later steps read the claim's defects
        out.append(ClaimAudit(**{**claim.__dict__, "defects": list(left),
                                 "state": _state(ctx, claim.findings)}))
    return out


def _not_derived(whole: AnswerContext, ctx: ClaimContext, wrong: list[Defect]) -> list[Defect]:
    """The claim's mismatches that no reading of the cited rows holds (`_derived_in_texts`),
    a contradicted reading's worded as it says."""
    from showwork.harness.audit.derivable import derivable, written_near

    text = ctx.claim.text or ""
    view = AnswerContext(dataclasses.replace(whole.answer, answer=text), whole.claims,
                         whole.evidence, whole.index_, whole.category, whole.question)
    held, false = derived(view)
    starts = {a for a, _ in held}
    contradicted = {d.position: d for d in false}
    left = [Defect(d.code, d.claim, contradicted[d.position].message.replace(
                "The answer text says", f"Claim {ctx.cid}'s text says", 1),
                d.citation, d.position) if d.position in contradicted else d
            for d in wrong if d.position not in starts]
    if not left or ctx.claim.kind != "measurement" or any(d.position in contradicted
                                                            for d in left):
        return left
    numbers = {n.start: n for n in read_stated(whole, text)}
    said = [numbers.get(d.position if d.position is not None else -1) for d in left]
    if any(n is None or not written_near(n) for n in said) or \
            derivable(whole, text, [n for n in said if n is not None]) != {
                (n.start, n.end) for n in said if n is not None}:
        return left
    return []


def _propagate(claims: list[ClaimAudit], answer: Answer) -> list[ClaimAudit]:
    """A claim resting on a CONFLICTING or MISSING premise is itself MISSING."""
    out: list[ClaimAudit] = []
    for claim in claims:
        premises: list[Any] = claim.premises  # as the model wrote them: not all are strings
        weak = [p for p in premises if isinstance(p, str) and p[:1] == "c" and p[1:].isdigit()
                and 0 < int(p[1:]) <= len(out) and out[int(p[1:]) - 1].state in
                ("CONFLICTING", "MISSING")]
        if weak and claim.state in ("SUPPORTED", "STALE"):
            claim = ClaimAudit(**{**claim.__dict__, "state": "MISSING"})
        out.append(claim)
    return out


def decide(status: str, graphed: bool, grounded: bool | None, claims: list[ClaimAudit],
           findings: list[Finding]) -> str:
    """serve, serve_with_caveats or withhold (see README, "Serving decision"): withheld when
    not grounded or when anything CONFLICTS with what it cites; the grounded gate itself stays
    citations and numbers."""
    if status == "refused":
        return "serve"
    if not graphed:
        return "serve_with_caveats"
    if not grounded or conflicting(claims, findings):
        return "withhold"
    if findings or any(c.state != "SUPPORTED" for c in claims):
        return "serve_with_caveats"
    return "serve"


def conflicting(claims: list[ClaimAudit], findings: list[Finding]) -> bool:
    """Some claim is CONFLICTING, or the prose or the headline states another value, member,
    window or direction than the claims cite."""
    return any(c.state == "CONFLICTING" for c in claims) or any(
        f.claim in PROSE_CLAIMS and (f.code in CONFLICT_CODES or states_another_value(f))
        for f in findings)


def states_another_value(finding: Finding) -> bool:
    """A number the prose (or a conclusion's or causal claim's text) says of one metric that only
    other metrics' cited fields hold ("days per user three thousand" of active users' 3,016:
    prose.py `_number_metric`, whose evidence names the number): the text states another value
    than it cites for that metric. A metric named for another in a claim (a synonym to fix in
    governance) stays a caveat."""
    return finding.code == "mislabelled_metric" and "number" in finding.evidence


def _render(ctx: ClaimContext) -> str | None:
    if not ctx.cited:
        return None
    first = ctx.cited[0]
    c, result, row = first.citation, first.result, first.row
    metric = next((m for m in result.metrics if m == c.metric), c.metric)
    meta = ctx.catalog["metrics"].get(metric, {})
    windows = [f"{cov['requested']['start']}..{cov['requested']['end']}" for cov in result.coverage]
    return render_measurement(meta.get("label", metric), c.field, row.values[metric], windows,
                              members(ctx.catalog, row.key), unit=meta.get("unit"))
