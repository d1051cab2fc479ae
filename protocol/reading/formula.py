"""'The total loss amount (payments plus reserves)', 'revenue (transaction amount minus
cancellations plus alterations)': a metric the catalog defines as a sum or difference of other
metrics, said with its definition. The operator word between two of its parts' words is read as
the definition, where the formula has that operator between those parts; anywhere else it stays
unread ('orders plus refunds' of a metric defined otherwise)."""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading.account import ReadSpan, lemma
from showwork.protocol.reading.mentions import Mention

_OPERATOR = re.compile(r"(?<![\w-])(?P<op>plus|minus|less|\+|-)(?![\w-])", re.IGNORECASE)
_SIGN = {"plus": "+", "+": "+", "minus": "-", "less": "-", "-": "-"}
_TOKEN = re.compile(r"[A-Za-z_]\w*|[-+*/()]")
_WORD_BEFORE = re.compile(r"([A-Za-z]+)\W*$")
_WORD_AFTER = re.compile(r"\W*([A-Za-z]+)")


def formula_said(text: str, metrics: list[Mention], catalog: dict[str, Any]) -> list[ReadSpan]:
    """Each operator word ('plus', 'minus', 'less', '+', '-') between the words of two parts of
    a named metric's formula ('loss_payment_amount + loss_reserve_amount'), where the formula
    has that operator between them (either order for a sum), read as the definition."""
    entries = catalog.get("metrics") or {}
    out: list[ReadSpan] = []
    for name in dict.fromkeys(m.name for m in metrics):
        formula = (entries.get(name) or {}).get("formula") or {}
        if formula.get("op") != "expr":
            continue
        tokens = _TOKEN.findall(str(formula.get("expr") or ""))
        parts = [str(p) for p in formula.get("metrics") or ()]
        for said in _OPERATOR.finditer(text):
            before = _WORD_BEFORE.search(text, 0, said.start())
            after = _WORD_AFTER.match(text, said.end())
            if before is None or after is None:
                continue
            a, b = (_part_of(w.group(1), parts, entries) for w in (before, after))
            if a and b and _between(tokens, a, _SIGN[said["op"].lower()], b):
                out.append(ReadSpan(said["op"], said.span("op"), "qualifier",
                                    f"{name} = {formula.get('expr')}"))
    return out


def _part_of(word: str, parts: list[str], entries: dict[str, Any]) -> str | None:
    """The one part whose own name, label or synonyms hold the word ('payments' of
    loss_payment_amount, not of loss_reserve_amount)."""
    found = [p for p in parts if lemma(word) in _own(p, entries.get(p) or {})]
    return found[0] if len(found) == 1 else None


def _own(name: str, info: dict[str, Any]) -> set[str]:
    texts = [name.replace("_", " "), str(info.get("label") or ""),
             *(str(s) for s in info.get("synonyms") or ())]
    return {lemma(w) for t in texts for w in re.findall(r"[A-Za-z]+", t)}


def _between(tokens: list[str], a: str, op: str, b: str) -> bool:
    """The formula has `a op b` (or `b op a` for a sum) side by side."""
    pairs = [(a, b)] + ([(b, a)] if op == "+" else [])
    return any(tokens[i:i + 3] == [x, op, y] for x, y in pairs for i in range(len(tokens) - 2))
