"""Writing answers: measurement claims citing exact fields, listed values, and the argument."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.citations import format_selector


def fmt(value: Any, fraction: bool = False) -> str:
    if value is None:
        return "no value"
    if isinstance(value, str):
        return value
    if fraction:
        return f"{value:.1%}"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}"


def signed(value: float | None) -> str:
    """A number with its sign and two decimals: the precision a claim's text must keep."""
    return "no value" if value is None else f"{value:+,.2f}"


def moved(pct: float | None) -> str:
    if pct is None:
        return "could not be compared"
    if abs(pct) < 0.005:
        return "was unchanged"
    return f"{'rose' if pct > 0 else 'fell'} {abs(pct):.2f}%"


@dataclass
class AnswerBuilder:
    """Claims are numbered c1, c2, … in the order they are added."""

    claims_on: bool
    claims: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Sentences every answer ends with: defaults assumed, instructions ignored."""

    def measure(self, text: str, source: str, value: Any, *also: str) -> str:
        """A measurement claim; `also` cites the other fields its text states."""
        self.claims.append({"text": text, "kind": "measurement", "sources": [source, *also],
                            "premises": None, "value": value})
        return f"c{len(self.claims)}"

    def argue(self, text: str, premises: list[str], kind: str = "conclusion") -> str:
        self.claims.append({"text": text, "kind": kind, "sources": None, "premises": premises,
                            "value": None})
        return f"c{len(self.claims)}"

    def answered(self, text: str, value: Any, driver: str | None = None,
                 values: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The answer; `values` lists the rows of a breakdown, ranking or series."""
        said = " ".join([text, *self.notes])
        out: dict[str, Any] = {"status": "answered", "answer": said, "value": value,
                               "driver": driver, "refusal_reason": None, "values": values}
        if self.claims_on:
            out["claims"] = self.claims
        return out

    def refused(self, reason: str) -> dict[str, Any]:
        out: dict[str, Any] = {"status": "refused", "answer": f"I can't answer this: {reason}",
                               "value": None, "driver": None, "refusal_reason": reason,
                               "values": None}
        if self.claims_on:
            out["claims"] = []
        return out


def cite(handle: int | None, metric: str, field_: str, key: dict[str, str] | None = None) -> str:
    """A result citation, its row's members quoted where they need it."""
    if handle is None:
        raise ValueError(f"cannot cite {metric}.{field_}: the call got no handle")
    sel = format_selector(key or {})
    return f"r{handle}{f'[{sel}]' if sel else ''}:{metric}.{field_}"
