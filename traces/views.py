"""The re-audit view: the part of a trace record a re-audit reads, decoded with msgspec."""

from __future__ import annotations

from typing import Any

import msgspec


class QuestionView(msgspec.Struct):
    id: str
    text: str
    category: str | None = None


class CallView(msgspec.Struct):
    tool: str
    round: int = 0
    handle: int | None = None
    result: msgspec.Raw = msgspec.Raw()
    """The typed result's JSON, decoded only when a claim cites its handle."""
    error: dict[str, str] | None = None
    arguments: msgspec.Raw = msgspec.Raw()
    """The call's arguments' JSON, decoded only when the audit reads a result's filters."""


class RoundView(msgspec.Struct):
    round: int
    answer_raw: str | None = None
    audit: msgspec.Raw = msgspec.Raw()
    """The stored audit's JSON, decoded only when it is compared with a fresh one."""

    def stored_audit(self) -> dict[str, Any] | None:
        return msgspec.json.decode(self.audit) if self.audit else None


class AuditView(msgspec.Struct, kw_only=True):
    """The part of a trace record a re-audit reads.

    Decoded with msgspec, which skips what a re-audit does not read (turns, SQL, timings) and
    keeps the catalog, call results and stored audits as raw JSON until they are needed: a large
    run re-audits at about the cost of parsing it (`showwork bench audit`).
    """

    attempt_id: str
    question: QuestionView
    config: str
    catalog_digest: str
    catalog: msgspec.Raw = msgspec.Raw()
    """Decoded only the first time a re-audit meets this catalog digest."""
    calls: list[CallView] = []
    rounds: list[RoundView] = []
    served_round: int | None = None

    @classmethod
    def decode(cls, line: str | bytes) -> AuditView:
        """One trace line; ValueError (msgspec's) names the field when the line is not a trace."""
        return _VIEW_DECODER.decode(line)

    def served(self) -> RoundView | None:
        if self.served_round is None:
            return None
        return next((r for r in self.rounds if r.round == self.served_round), None)

    def catalog_snapshot(self) -> dict[str, Any] | None:
        return msgspec.json.decode(self.catalog) if self.catalog else None


_VIEW_DECODER = msgspec.json.Decoder(AuditView)
