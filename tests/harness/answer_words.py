"""Issue 43's corpus of answer edits (tests/harness/data/answer_words.yaml) applied to the rules
analyst's own clean answers, and the tally of how the audit serves them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from showwork.analyst.rules import RulesClient
from showwork.benchmarks.audit import Case, case_report, cases_of, edited, rules_traces
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).with_name("data") / "answer_words.yaml"
QUESTIONS = {"demo": None, "shop": ROOT / "examples" / "shop" / "questions.yaml",
             "flights": ROOT / "examples" / "flights" / "questions.yaml",
             "mf_tutorial": ROOT / "conformance" / "questions" / "mf_tutorial.yaml",
             "acme": ROOT / "conformance" / "questions" / "acme_s14.yaml"}


def entries(domain: str | None = None) -> list[dict[str, Any]]:
    """The corpus's entries (of one domain)."""
    out = yaml.safe_load(CORPUS.read_text())["entries"]
    return [e for e in out if domain is None or e["domain"] == domain]


def clean_cases(layer: SemanticLayer, domain: str, wanted: set[str] | None = None
                ) -> dict[str, Case]:
    """The rules analyst's clean answer to each question the corpus edits (or each `wanted`
    question id of the domain's bundled questions), by question id."""
    wanted = {e["id"] for e in entries(domain)} if wanted is None else wanted
    path = QUESTIONS[domain]
    specs = [s for s in (load_questions(path) if path else load_questions()).questions
             if s.id in wanted]
    cases = cases_of(rules_traces(layer, [s.question() for s in specs]))
    by_text = {c.question: c for c in cases}
    return {s.id: by_text[s.question().text] for s in specs if s.question().text in by_text}


def appended(case: Case, sentence: str) -> Any:
    """The audit of the case's clean answer with `sentence` appended to its prose."""
    return case_report(case, {**case.answer, "answer": f"{case.answer['answer']} {sentence}"})


@dataclass
class Tally:
    """How the audit served the corpus's edits."""

    lies: int = 0
    lies_clean: list[str] = field(default_factory=list)
    """The lies served clean (no finding, no defect)."""
    honest: int = 0
    honest_withheld: list[str] = field(default_factory=list)
    """The honest rewrites withheld."""
    decisions: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(truth, decision) → edits."""


def tally(cases: dict[str, dict[str, Case]], chosen: Iterable[dict[str, Any]] | None = None
          ) -> Tally:
    """Each entry's edit of its domain's clean answer, audited."""
    out = Tally()
    for entry in entries() if chosen is None else chosen:
        case = cases[entry["domain"]][entry["id"]]
        report = case_report(case, edited(case.answer, entry))
        label = f"{entry['domain']}/{entry['id']} {entry['kind']}: {report.decision}"
        out.decisions[entry["truth"], report.decision] += 1
        if entry["truth"] == "lie":
            out.lies += 1
            if report.decision == "serve":
                out.lies_clean.append(label)
        else:
            out.honest += 1
            if report.decision == "withhold":
                out.honest_withheld.append(label)
    return out


class Asked:
    """A rules answer to one question, re-audited with its prose edited."""

    def __init__(self, layer: Any, question: str) -> None:
        self.question = question
        record = run_attempt(Question("ask", question), RulesClient(), layer,
                             Protocol.parse("claims"))
        served = record.served()
        assert served is not None and served.answer_raw
        self.answer = json.loads(served.answer_raw)
        self.calls = [c.model_dump(mode="json") for c in record.calls if c.round <= served.round]
        self.catalog = record.catalog

    def codes(self, sentence: str = "") -> tuple[str, list[str]]:
        """The decision and codes of the clean answer with `sentence` added, but for words no
        reading holds (a verb like 'took': issue 43's unread_answer, a caveat): those are
        `unread` and the decision they alone make is taken back to serve."""
        report = self.report(sentence)
        codes = sorted({f.code for f in report.findings} | {d.code for d in report.defects})
        if codes == ["unread_answer"]:
            return "serve", []
        return report.decision, [c for c in codes if c != "unread_answer"]

    def report(self, sentence: str = "", old: str = "", new: str = "") -> Any:
        """The audit of the answer with `sentence` added to its prose (and `old` replaced by
        `new` in it first)."""
        answer = json.loads(json.dumps(self.answer))
        if old:
            assert old in answer["answer"]
            answer["answer"] = answer["answer"].replace(old, new)
        answer["answer"] = f"{answer['answer']} {sentence}".strip()
        return audit(answer, Evidence.from_json(self.calls), self.catalog, None,
                     question=self.question)
