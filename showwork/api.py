"""`audit_answer`: the harness's own audit, on an answer your agent produced elsewhere.

Pure: no database, no model, no network (importing it loads neither DuckDB nor sqlglot nor a
model client). It translates the public inputs into the evidence a trace stores and calls the
same `harness.audit.audit` that `showwork ask`, experiments and re-audits run.
"""

# ruff: noqa: E402 — load_pure() must run before harness.audit imports semantic_layer.results
from __future__ import annotations

from showwork._light import load_pure

load_pure()

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from showwork import _catalog, _results
from showwork._at import At, kind_of
from showwork._results import ResultInput
from showwork.harness.audit import AuditReport, Call, Evidence, audit
from showwork.protocol.answer import Answer, parse_answer
from showwork.protocol.errors import AnswerError

ResultValue = ResultInput | Mapping[str, Any]
Results = Mapping[str, ResultValue] | Mapping[int, ResultValue] | Mapping[str | int, ResultValue]
"""Handle ("r1", or 1) → result; Mapping is invariant in its key, hence the three forms."""


def audit_answer(answer: str | Mapping[str, Any], results: Results,
                 catalog: Mapping[str, Any] | None = None, *,
                 question: str | None = None, category: str | None = None,
                 rendered: bool = False) -> AuditReport:
    """Audit an answer against the results it cites; return the report.

    `answer` is the answer shape (a dict, or its JSON text). `results` maps each handle
    ("r1" or 1) to a result in the public shape (`showwork.ResultInput`: `metrics`, `rows` as
    plain dicts, optionally `window`, `covered`, `grain`, …). `catalog` is optional: a plain
    catalog like `Project.catalog` or any part of it; a metric the results carry that it does
    not list (or every metric, without a catalog) is known by its name only, so its synonym,
    tree and metadata findings cannot fire. `question`
    (its text) keeps the question's own numbers from being read as claims and lets the audit
    check the answer's scope against it. `category="diagnostic"` asks for a stated diagnosis
    even without a driver. `rendered=True` is the `rendered` switch: you show measurement
    sentences written from the cited values, so claim texts are not read for numbers.

    The report has `.grounded`, `.decision`, `.defects` (with their repair messages),
    `.findings`, `.claims` (each with its evidence state) and `.to_json()`. A tick means the
    support link resolves; it does not mean the conclusion is true.

    Raises `showwork.AuditInputError` naming the input and field of anything malformed.
    """
    parsed = _answer(answer)
    _optional_text(question, "question")
    _optional_text(category, "category")
    plain = _catalog.normalize(catalog if catalog is not None else {})
    typed = _results.translate(results, plain)
    plain = _catalog.with_metrics(plain, (m for r in typed.values() for m in r.metrics))
    where = _results.wheres(results)
    evidence = Evidence(tuple(Call(r.kind, h, r.to_json(), None,
                                   {"where": where[h]} if h in where else None)
                              for h, r in typed.items()))
    return audit(parsed, evidence, plain, category, rendered, question=question)


def _answer(answer: Any) -> Answer:
    at = At("answer")
    if isinstance(answer, Answer):
        return answer
    if not isinstance(answer, str | Mapping):
        raise at.error(f"is {kind_of(answer)}; give the answer as a dict or its JSON text")
    data = answer if isinstance(answer, str) else dict(answer)
    try:
        return parse_answer(data)
    except AnswerError as exc:
        raise At("answer", _where(data)).error(exc.message) from None


def _where(data: str | dict[str, Any]) -> str:
    """The access path of the first field that breaks the answer shape ("" if not known)."""
    if isinstance(data, str):
        return ""
    try:
        Answer.model_validate(data)
    except ValidationError as exc:
        loc = exc.errors()[0]["loc"]
        return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
    return ""


def _optional_text(value: Any, name: str) -> None:
    if value is not None and not isinstance(value, str):
        raise At(name).error(f"is {kind_of(value)}, expected text or None")
