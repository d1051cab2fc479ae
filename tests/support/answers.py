"""The rules analyst's answers on a bundled domain, written out for a person to read: the
golden answer files (tests/golden/answers/*.txt) and the checks on their words share this."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.harness.present.headline import headline, stop_word
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "answers"
QUESTION_FILES = {"demo": None, "shop": ROOT / "examples" / "shop" / "questions.yaml",
                  "flights": ROOT / "examples" / "flights" / "questions.yaml"}
"""Each bundled domain's question file (None: the bundled demo questions)."""


@dataclass(frozen=True)
class Answered:
    """One question, the rules analyst's served answer and its audit."""

    qid: str
    question: str
    answer: dict[str, Any]
    audit: dict[str, Any]
    stop: str
    catalog: dict[str, Any]


def answer_all(layer: SemanticLayer, domain: str, config: str = "claims") -> list[Answered]:
    """Every bundled question of the domain, answered by the rules analyst (no repair: what it
    writes first is what is audited)."""
    out = []
    for q in load_questions(QUESTION_FILES[domain]).questions:
        trace = run_attempt(q.question(), RulesClient(), layer, Protocol.parse(config))
        served = trace.served()
        assert served is not None, q.id
        out.append(Answered(q.id, q.text, json.loads(served.answer_raw), served.audit,
                            stop_word(trace.stop_reason, served.audit), trace.catalog))
    return out


def golden_text(answers: list[Answered]) -> str:
    """What the golden file holds: per question the stop, the headline as shown, the answer
    and every claim's text, one line each."""
    lines: list[str] = []
    for a in answers:
        lines += [f"## {a.qid}: {a.question}", f"stop: {a.stop} · value: "
                  f"{headline(a.audit, a.catalog)} · decision: {a.audit['decision']}",
                  f"A: {a.answer['answer']}"]
        lines += [f"  {c['kind']}: {c['text']}" for c in a.answer.get("claims") or []]
        lines.append("")
    return "\n".join(lines)


_NUMBER = re.compile(r"(?<![\w.-])[-+]?\$?\d[\d,]*\.(\d+)(?![\w-])")


def raw_floats(text: str) -> list[str]:
    """Numbers written with more digits than a person reads: more than 4 significant digits
    after the point (money keeps its cents)."""
    out = []
    for m in _NUMBER.finditer(text):
        whole = m.group(0).lstrip("+-$").replace(",", "").split(".")[0].lstrip("0")
        if m.group(0).lstrip("+-").startswith("$") and len(m.group(1)) == 2:
            continue
        digits = len(whole) + len(m.group(1)) if whole else len(m.group(1).lstrip("0"))
        if digits > 4 and len(m.group(1)) > 1:
            out.append(m.group(0))
    return out


def ids_in(text: str, catalog: dict[str, Any]) -> list[str]:
    """Metric and dimension ids a sentence writes where a label belongs ('days_per_user',
    'flight__origin'): ids that differ from their label."""
    names = [m for m, info in (catalog.get("metrics") or {}).items()
             if (info.get("label") or m) != m and "_" in m]
    names += [d for d, info in (catalog.get("dimensions") or {}).items()
              if (info.get("label") or d) != d and "_" in d]
    return [n for n in names if re.search(rf"(?<![\w\[=]){re.escape(n)}(?![\w\].=])", text)]


def disagreements(text: str, catalog: dict[str, Any]) -> list[str]:
    """'<label> was|were' where the verb's number is not the label's ('customers was 60')."""
    from showwork.protocol.rendered import be

    out = []
    for info in (catalog.get("metrics") or {}).values():
        label = info.get("label")
        if not label:
            continue
        for m in re.finditer(rf"\b{re.escape(label)}\b(?: \([^)]*\))? (was|were)\b", text,
                             re.IGNORECASE):
            if m.group(1) != be(label):
                out.append(m.group(0))
    return out
