"""The four decisions a person tells apart: served, served with caveats, withheld, refused.

The audit decides `serve`, `serve_with_caveats` or `withhold`, and serves a refusal (a refusal
is not withheld); every surface shows a refusal as refused, never as "serve". One table here
gives each decision its word, its sign and its colour, for the terminal, the pages and MCP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Shown:
    """How one decision reads on every surface."""

    key: str
    """serve, serve_with_caveats, withhold, refused, or none (no answer at all)."""
    word: str
    """What a person reads: 'served', 'served with caveats', 'withheld', 'refused'."""
    sign: str
    """A mark that tells the decisions apart without colour."""
    style: str
    """The terminal's colour (rich); the pages colour by the class `decision-KEY`."""


DECISIONS = {s.key: s for s in (
    Shown("serve", "served", "✓", "bold green"),
    Shown("serve_with_caveats", "served with caveats", "⚠", "bold yellow"),
    Shown("withhold", "withheld", "✗", "bold red"),
    Shown("refused", "refused", "⊘", "bold blue"),
    Shown("none", "no answer", "–", "dim"),
)}


def decision_key(audit: dict[str, Any] | None) -> str:
    """The decision a person sees for a served audit: `refused` for a refusal, whatever the
    audit's own decision, and `none` when nothing was served.

    >>> decision_key({"status": "refused", "decision": "serve"}), decision_key(None)
    ('refused', 'none')
    """
    if not audit:
        return "none"
    if audit.get("status") == "refused":
        return "refused"
    key = str(audit.get("decision") or "none")
    return key if key in DECISIONS else "none"


def shown(audit: dict[str, Any] | None) -> Shown:
    """The word, sign and colour of the audit's decision."""
    return DECISIONS[decision_key(audit)]
