"""The answer and claim types, strict on the wire.

Unknown keys, duplicate keys, NaN/Infinity, oversize text, too many claims and too-deep nesting
are rejected with a message the model can act on. The parsed answer keeps each claim's fields as
given; whether a citation resolves is the audit's business, not the parser's.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, ValidationError

from showwork.protocol import strict_json
from showwork.protocol.errors import AnswerError

MAX_ANSWER_BYTES = 1_000_000
MAX_CLAIMS = 200
MAX_CITATIONS = 20
MAX_PREMISES = MAX_CLAIMS
"""A conclusion may rest on every claim before it (a ranking over all its listed rows)."""
MAX_TEXT = 2_000
MAX_VALUES = 200
"""Listed values of a table answer; with claims on each is a claim, so as many as claims."""
MAX_KEY = 200

Scalar = float | int | str | None


class _Wire(BaseModel):
    # validators built on first use: Claim's and Listed's own are not needed to validate an Answer
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False, allow_inf_nan=False,
                              defer_build=True)


class Claim(_Wire):
    """One claim: a measurement citing results, or a conclusion/causal claim citing premises."""

    text: str = Field(max_length=MAX_TEXT)
    kind: Literal["measurement", "conclusion", "causal"]
    # Entries are kept as given (even non-strings) so the audit can report each bad one as a
    # malformed_citation of its claim instead of rejecting the whole answer.
    sources: list[Any] | None = Field(default=None, max_length=MAX_CITATIONS)
    """Result citations (rN:metric.field)."""
    premises: list[Any] | None = Field(default=None, max_length=MAX_PREMISES)
    """Premise citations (cN) and tree statements (tree:A>B)."""
    value: Scalar | bool = None
    """The stated number, as written; checked against the first source."""


class Listed(_Wire):
    """One row of a breakdown, ranking or series answer, in the order the answer gives them."""

    key: StrictStr = Field(max_length=MAX_KEY)
    """The member, or the period start (ISO date) for a series."""
    value: StrictFloat | StrictInt | None
    """The row's value, in the metric's units (rates and ratios as fractions)."""


class Answer(_Wire):
    """What the model returns (DESIGN.md, Answer shape)."""

    status: Literal["answered", "refused"]
    answer: str = Field(default="", max_length=MAX_TEXT * 2)
    value: Scalar = None
    """Headline value: number, string member, or null."""
    driver: str | None = Field(default=None, max_length=200)
    refusal_reason: str | None = Field(default=None, max_length=MAX_TEXT)
    claims: list[Claim] | None = Field(default=None, max_length=MAX_CLAIMS)
    values: list[Listed] | None = Field(default=None, max_length=MAX_VALUES)
    """Breakdown, ranking and series answers: each row's key and value (DESIGN.md, Answer
    shape); `value` stays the headline."""

    @property
    def has_graph(self) -> bool:
        return bool(self.claims)


_VALIDATE = Answer.__pydantic_validator__.validate_python


def loads_strict(text: str) -> Any:
    """json.loads that refuses oversize input, deep nesting, NaN/Infinity and duplicate keys."""
    # a character is at most 4 bytes in UTF-8: a short text is not encoded to be measured
    if len(text) > MAX_ANSWER_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > \
            MAX_ANSWER_BYTES:
        raise AnswerError(f"The answer is larger than {MAX_ANSWER_BYTES:,} bytes; shorten it.")
    stripped = text.strip()
    if stripped.startswith("```"):
        raise AnswerError("The answer is wrapped in a code fence; return the bare JSON object.")
    try:
        return strict_json.loads(stripped, "answer")
    except strict_json.StrictJSONError as exc:
        raise AnswerError(str(exc)) from exc
    except json.JSONDecodeError as exc:
        raise AnswerError(f"The answer is not valid JSON: {exc.msg} at line {exc.lineno} "
                          f"column {exc.colno}. Return one JSON object.") from exc


def parse_answer(raw: str | dict[str, Any]) -> Answer:
    """Parse and validate an answer from JSON text or an already-decoded object."""
    data = loads_strict(raw) if isinstance(raw, str) else raw
    if not isinstance(data, dict):
        raise AnswerError(f"The answer must be a JSON object, got {type(data).__name__}.")
    if isinstance(data.get("claims"), list) and len(data["claims"]) > MAX_CLAIMS:
        raise AnswerError(f"The answer has {len(data['claims']):,} claims; at most {MAX_CLAIMS}.")
    if isinstance(data.get("values"), list) and len(data["values"]) > MAX_VALUES:
        raise AnswerError(f"The answer lists {len(data['values']):,} values; at most {MAX_VALUES} "
                          "(list the rows the question asks for).")
    try:
        return _VALIDATE(data)  # Answer.model_validate(data), without its wrapper's cost
    except ValidationError as exc:
        if any(e["type"] == "finite_number" for e in exc.errors()):
            raise AnswerError("The answer contains NaN or Infinity; use a finite number or "
                              "null.") from exc
        problems = "; ".join(_describe(e) for e in exc.errors()[:6])
        raise AnswerError(f"The answer does not have the answer shape: {problems}.") from exc


def _describe(err: Any) -> str:
    loc = ".".join(str(x) for x in err["loc"]) or "(answer)"
    return f"{loc}: {err['msg']}"
