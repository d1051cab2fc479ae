"""What the audit's steps read: one claim's context, the answer's context, resolved citations."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from showwork.harness.audit.evidence import Evidence
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.types import Defect, Resolved
from showwork.protocol.answer import Answer, Claim
from showwork.protocol.citations import ResultCitation, StatementCitation
from showwork.semantic_layer.results import Result, Row

if TYPE_CHECKING:
    from showwork.harness.audit.labels import ClaimReading, Support, Window
    from showwork.harness.audit.numbers import Support as ValueSupport
    from showwork.harness.audit.numbers import Supports
    from showwork.harness.audit.prose import ProseReading
    from showwork.harness.audit.scope import Scope


# Not frozen only for speed: built per claim by every audit (a frozen __init__ costs ~5×).
@dataclass(slots=True)
class Cited:
    """A result citation that resolved: where it points and the value found there."""

    text: str
    """The citation as written, e.g. r2[platform=ios]:days_per_user.pct_change."""
    citation: ResultCitation
    result: Result
    row: Row
    value: Any
    """The cited field's value (None when the result has no data there)."""
    metric: str
    """The metric as the result names it (a previous name resolved to the current one)."""
    windows: list[tuple[dt.date, dt.date]] | None = None
    """The windows its result covers and was asked for, and its row's period (labels.py
    `windows_of`), once found: an argument's support repeats its premises' citations."""

    # Written out, not generated: natively compiled (see ClaimContext.__init__).
    def __init__(self, text: str, citation: ResultCitation, result: Result, row: Row, value: Any,
                 metric: str) -> None:
        self.text = text
        self.citation = citation
        self.result = result
        self.row = row
        self.value = value
        self.metric = metric
        self.windows = None


@dataclass(slots=True)
class ClaimContext:
    """One claim being audited, and what the checks before have resolved."""

    index: int
    """1-based claim number (c1 is 1)."""
    claim: Claim
    evidence: Evidence
    index_: CatalogIndex
    resolved: list[Resolved] = field(default_factory=list)
    defects: list[Defect] = field(default_factory=list)
    """Every defect found so far (appended by the runner, read by later steps)."""
    cited: list[Cited] = field(default_factory=list)
    statements: list[StatementCitation] = field(default_factory=list)
    premises: list[int] = field(default_factory=list)
    composition: dict[str, Any] | None = None
    """Set when the stated value is derived from several cited metrics."""
    question: str | None = None
    """The question's text: its own numbers are not claims."""
    rendered: bool = False
    """The harness writes this claim's sentence (the `rendered` switch): its text is not the
    model's to check."""
    cid: str = ""
    """c1, c2, …"""
    answer_claims: list[ClaimContext] = field(default_factory=list)
    """Every claim's context in the answer, c1 first: where premises are followed."""
    support: Support | None = None
    """What the claim rests on, own citations and premises' (labels.py), once found."""
    reading: ClaimReading | None = None
    """What the claim's text names in the catalog (labels.py), once read."""
    value_supports: tuple[list[ValueSupport], ValueSupport | None] | None = None
    """The values its cited fields and its stated value give its text and the answer
    (numbers.py), once found."""

    # Written out, not generated: compiled, a dataclass's generated __init__ still runs as Python
    # (one per claim); this one is native. The same fields and defaults as declared above.
    def __init__(self, index: int, claim: Claim, evidence: Evidence, index_: CatalogIndex,
                 question: str | None = None, rendered: bool = False) -> None:
        self.index = index
        self.claim = claim
        self.evidence = evidence
        self.index_ = index_
        self.resolved = []
        self.defects = []
        self.cited = []
        self.statements = []
        self.premises = []
        self.composition = None
        self.question = question
        self.rendered = rendered
        self.cid = f"c{index}"
        self.answer_claims = []
        self.support = None
        self.reading = None
        self.value_supports = None

    @property
    def catalog(self) -> dict[str, Any]:
        return self.index_.catalog

    def defect(self, code: str, message: str, citation: str | None = None,
               position: int | None = None) -> Defect:
        return Defect(code, self.cid, message, citation, position)


@dataclass(slots=True)
class AnswerContext:
    """The whole answer, after every claim was checked: for the answer-level steps."""

    answer: Answer
    claims: list[ClaimContext]
    """Each claim's context, in order (c1 first), with what resolved."""
    evidence: Evidence
    index_: CatalogIndex
    category: str | None = None
    """The question's category when known (diagnostic, lookup, …)."""
    question: str | None = None
    """The question's text when known: its own numbers are not claims; scope is read from it."""
    scope: Scope | None = None
    """The question's scope against what the answer cites (scope.py), once read."""
    value_supports: Supports | None = None
    """Every value a claim states or cites, the prose's numbers are held to (numbers.py), once
    found."""
    windows: set[Window] | None = None
    """Every window the claims' cited results cover or were asked for, and every cited row's
    period (labels.py), once found."""
    metrics: set[str] | None = None
    """The metrics the claims cite and the ends of the tree edges they rest on (labels.py),
    once found."""
    support: Support | None = None
    """What the claims rest on together (prose.py), once found."""
    prose: ProseReading | None = None
    """What the prose says (prose.py), once read."""
    words: Any = None
    """What the word account's readings hold words to, of every citation (words.py
    `_Cites`), once found."""
    from_rows: Any = None
    """The prose's readings of what the cited rows give together — moves between rows, sums,
    shares, rates — by kind, each read once (`from_rows_once`)."""
    derived: Any = None
    """The prose's numbers the readings of the cited rows hold, and the defects of those they
    contradict (numbers.py `derived`), once read."""
    guessed: Any = None
    """The prose's numbers no reading holds that a derivation over the cited rows their
    sentence names gives (derivable.py): not withheld, and not read (the word account quotes
    them); once found."""

    # Written out, not generated: natively compiled (see ClaimContext.__init__).
    def __init__(self, answer: Answer, claims: list[ClaimContext], evidence: Evidence,
                 index_: CatalogIndex, category: str | None = None,
                 question: str | None = None) -> None:
        self.answer = answer
        self.claims = claims
        self.evidence = evidence
        self.index_ = index_
        self.category = category
        self.question = question
        self.scope = None
        self.value_supports = None
        self.windows = None
        self.metrics = None
        self.support = None
        self.prose = None
        self.words = None
        self.from_rows = None
        self.derived = None
        self.guessed = None

    @property
    def catalog(self) -> dict[str, Any]:
        return self.index_.catalog

    def from_rows_once(self, kind: str, read: Callable[[], list[Any]]) -> list[Any]:
        """The prose's reading of this kind (rowmoves.py, sums.py, rates.py), read once per
        answer: the word account, the number checks and the window check each ask."""
        if self.from_rows is None:
            self.from_rows = {}
        if kind not in self.from_rows:
            self.from_rows[kind] = read()
        return list(self.from_rows[kind])

    def defect(self, code: str, message: str, claim: str = "answer",
               citation: str | None = None) -> Defect:
        return Defect(code, claim, message, citation)
