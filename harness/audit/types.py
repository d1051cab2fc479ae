"""What the audit returns: defects (the grounded gate), findings (reported), evidence states."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

DEFECT_CODES = ("malformed_citation", "unknown_handle", "unknown_field", "unknown_row",
                "ambiguous_row", "value_mismatch", "unknown_premise", "mixed_support",
                "no_support", "unknown_statement", "text_value_mismatch", "unsupported_number",
                "unsupported_driver")
FINDING_CODES = ("mislabelled_metric", "mislabelled_member", "mislabelled_window",
                 "direction_mismatch", "partial_period", "point_in_time_as_period",
                 "unlicensed_composition", "superseded_metric", "weak_causal", "flat_reasoning",
                 "unbacked_comparison", "instruction_in_answer", "draft_metric",
                 "off_question_metric", "off_question_window", "off_question_filter",
                 "off_question_shape", "unread_question", "unread_answer")
SCOPE_CODES = ("off_question_metric", "off_question_window", "off_question_filter",
               "off_question_shape")
"""Question-scope findings: the answer does not answer the question asked."""
STATES = ("CONFLICTING", "MISSING", "STALE", "SUPPORTED")
DECISIONS = ("serve", "serve_with_caveats", "withhold")


@dataclass(frozen=True, slots=True)
class Defect:
    """A citation that does not resolve; any defect makes the answer ungrounded."""

    code: str
    claim: str
    """c1, c2, …"""
    message: str
    """Exact and mechanical; this is what a repair round hands back."""
    citation: str | None = None
    position: int | None = None
    """0-based index of the offending character, for malformed citations."""


@dataclass(frozen=True)
class Finding:
    """A reported problem that does not break grounding: a semantic-model backlog item."""

    code: str
    claim: str | None
    """The claim id; None for answer-level findings (flat reasoning, question scope); "answer"
    for the prose and "answer.value" for the headline (prose.py)."""
    message: str
    evidence: dict[str, Any] = field(default_factory=dict)
    """What was compared: text phrase, cited metric, windows, …"""
    suggestion: str = ""
    """The semantic-model fix a data team could make."""


# Not frozen only for speed: built per claim by every audit (a frozen __init__ costs ~5×).
@dataclass(slots=True)
class Resolved:
    """A citation that resolved, with what it points at."""

    citation: str
    kind: str
    """result, premise or statement"""
    value: Any = None
    handle: int | None = None
    metric: str | None = None
    field: str | None = None
    row: dict[str, str] | None = None


# Not frozen only for speed: built per claim by every audit (a frozen __init__ costs ~5×).
@dataclass
class ClaimAudit:
    id: str
    text: str
    kind: str
    state: str
    """CONFLICTING, MISSING, STALE or SUPPORTED."""
    value: Any
    sources: list[str]
    premises: list[str]
    resolved: list[Resolved]
    defects: list[Defect]
    findings: list[Finding]
    rendered_text: str | None = None
    """With the `rendered` switch: the sentence the harness wrote from the cited value."""


# Not frozen only for speed: built per claim by every audit (a frozen __init__ costs ~5×).
@dataclass
class AuditReport:
    """The audit of one answer against the evidence of its attempt."""

    status: str
    """answered, refused, or malformed (the answer could not be parsed)."""
    graphed: bool
    """The answer carried a claim graph (no graph: grounding not measurable)."""
    grounded: bool | None
    """Every claim resolves; None when there is no graph to check."""
    claims: list[ClaimAudit]
    defects: list[Defect]
    findings: list[Finding]
    decision: str
    value: Any = None
    driver: str | None = None
    answer_text: str = ""
    refusal_reason: str | None = None
    protocol_error: str | None = None
    scope_checked: bool = False
    """The question's scope was checked in full (metric, window, filter and shape)."""
    scope_note: str = ""
    """Why the scope was not checked, or which checks the question's unread words skipped."""

    def to_json(self) -> dict[str, Any]:
        """The record a trace keeps. `words_checked`: every word of an answered answer was
        read, or quoted in an `unread_answer` finding with its span (issue 43), so a page may
        mark the words that are not quoted as checked; a record without it (an audit older
        than the closed-world reading) marks none."""
        return {**asdict(self), "words_checked": self.status == "answered"}

    @property
    def not_checked(self) -> list[str]:
        """Words of the answer no check of the audit read ('unread_answer'), in order: what
        every surface lists as "not checked: …"."""
        return not_checked([asdict(f) for f in self.findings])

    @property
    def broken_citations(self) -> int:
        return len(self.defects)


def not_checked(findings: list[dict[str, Any]]) -> list[str]:
    """The quoted words of a stored audit's `unread_answer` findings, each once, in order."""
    out: list[str] = []
    for f in findings:
        if f.get("code") == "unread_answer":
            out += [w for w in f.get("evidence", {}).get("words", []) if w not in out]
    return out


def not_checked_line(findings: list[dict[str, Any]]) -> str:
    """'not checked: 'improved', 'in the hundreds'' or '' when every word was read."""
    words = not_checked(findings)
    quoted = ", ".join(f"'{w}'" for w in words)
    return f"not checked: {quoted}" if words else ""
