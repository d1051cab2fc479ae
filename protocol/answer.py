"""The answer and claim types, strict on the wire.

Unknown keys, duplicate keys, NaN/Infinity, oversize text, too many claims and too-deep nesting
are rejected with a message the model can act on. The parsed answer keeps each claim's fields as
given; whether a citation resolves is the audit's business, not the parser's.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from showwork._plain import Plain, errors
from showwork.protocol import strict_json
from showwork.protocol.errors import AnswerError

if TYPE_CHECKING:  # read by pydantic when it validates what the plain check leaves to it
    from pydantic import Field, StrictFloat, StrictInt, StrictStr

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
_WIRE = {"extra": "forbid", "strict": False, "allow_inf_nan": False}
"""pydantic's model config of the wire types (`showwork._plain`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(Plain):
    """One claim: a measurement citing results, or a conclusion/causal claim citing premises."""

    __pydantic_config__ = _WIRE
    text: Annotated[str, Field(max_length=MAX_TEXT)]
    kind: Literal["measurement", "conclusion", "causal"]
    # Entries are kept as given (even non-strings) so the audit can report each bad one as a
    # malformed_citation of its claim instead of rejecting the whole answer.
    sources: Annotated[list[Any] | None, Field(max_length=MAX_CITATIONS)] = None
    """Result citations (rN:metric.field)."""
    premises: Annotated[list[Any] | None, Field(max_length=MAX_PREMISES)] = None
    """Premise citations (cN) and tree statements (tree:A>B)."""
    value: Scalar | bool = None
    """The stated number, as written; checked against the first source."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Listed(Plain):
    """One row of a breakdown, ranking or series answer, in the order the answer gives them."""

    __pydantic_config__ = _WIRE
    key: Annotated[StrictStr, Field(max_length=MAX_KEY)]
    """The member, or the period start (ISO date) for a series."""
    value: StrictFloat | StrictInt | None
    """The row's value, in the metric's units (rates and ratios as fractions)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer(Plain):
    """What the model returns (DESIGN.md, Answer shape)."""

    __pydantic_config__ = _WIRE
    status: Literal["answered", "refused"]
    answer: Annotated[str, Field(max_length=MAX_TEXT * 2)] = ""
    value: Scalar = None
    """Headline value: number, string member, or null."""
    driver: Annotated[str | None, Field(max_length=200)] = None
    refusal_reason: Annotated[str | None, Field(max_length=MAX_TEXT)] = None
    claims: Annotated[list[Claim] | None, Field(max_length=MAX_CLAIMS)] = None
    values: Annotated[list[Listed] | None, Field(max_length=MAX_VALUES)] = None
    """Breakdown, ranking and series answers: each row's key and value (DESIGN.md, Answer
    shape); `value` stays the headline."""

    @property
    def has_graph(self) -> bool:
        return bool(self.claims)


# -- the plain check: an answer of the plain shape is built without pydantic ------------------
# It accepts only what pydantic keeps exactly as given (the JSON types, within the limits) and
# leaves everything else to pydantic, which coerces or words the error as before.
_SCALARS = (float, int, str, type(None))
_FIELDS = {cls: frozenset(cls.__dataclass_fields__) for cls in (Answer, Claim, Listed)}


def _text(value: Any, limit: int, optional: bool = True) -> bool:
    return (optional and value is None) or (type(value) is str and len(value) <= limit)


def _scalar(value: Any, types: tuple[type, ...] = _SCALARS) -> bool:
    return type(value) in types and (type(value) is not float or math.isfinite(value))


def _rows(value: Any, limit: int) -> bool:
    return value is None or (type(value) is list and len(value) <= limit
                             and all(type(x) is dict for x in value))


def _plain_claim(data: dict[str, Any]) -> Claim | None:
    if not (data.keys() <= _FIELDS[Claim] and _text(data.get("text"), MAX_TEXT, optional=False)
            and data.get("kind") in ("measurement", "conclusion", "causal")
            and type(data["kind"]) is str
            and _rows_any(data.get("sources"), MAX_CITATIONS)
            and _rows_any(data.get("premises"), MAX_PREMISES)
            and _scalar(data.get("value"), (*_SCALARS, bool))):
        return None
    fields: dict[str, Any] = {k: list(v) if type(v) is list else v for k, v in data.items()}
    return Claim(**fields)


def _rows_any(value: Any, limit: int) -> bool:
    return value is None or (type(value) is list and len(value) <= limit)


def _plain_listed(data: dict[str, Any]) -> Listed | None:
    if not (data.keys() == _FIELDS[Listed] and type(data["key"]) is str
            and len(data["key"]) <= MAX_KEY and _scalar(data["value"], (float, int, type(None)))):
        return None
    return Listed(key=data["key"], value=data["value"])


def _plain_answer(data: dict[str, Any]) -> Answer | None:
    """The answer, when every field is of the plain shape; None leaves it to pydantic."""
    if not (data.keys() <= _FIELDS[Answer] and data.get("status") in ("answered", "refused")
            and type(data["status"]) is str and _text(data.get("answer", ""), MAX_TEXT * 2, False)
            and _scalar(data.get("value")) and _text(data.get("driver"), 200)
            and _text(data.get("refusal_reason"), MAX_TEXT)
            and _rows(data.get("claims"), MAX_CLAIMS) and _rows(data.get("values"), MAX_VALUES)):
        return None
    fields = dict(data)
    for name, plain in (("claims", _plain_claim), ("values", _plain_listed)):
        if fields.get(name) is not None:
            rows = [plain(x) for x in fields[name]]
            if None in rows:
                return None
            fields[name] = rows
    return Answer(**fields)


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
    answer = _plain_answer(data)
    if answer is not None:
        return answer
    from pydantic import ValidationError

    try:
        return Answer.model_validate(data)
    except ValidationError as exc:
        found = errors(exc)
        if any(e["type"] == "finite_number" for e in found):
            raise AnswerError("The answer contains NaN or Infinity; use a finite number or "
                              "null.") from exc
        problems = "; ".join(_describe(e) for e in found[:6])
        raise AnswerError(f"The answer does not have the answer shape: {problems}.") from exc


def _describe(err: Any) -> str:
    loc = ".".join(str(x) for x in err["loc"]) or "(answer)"
    return f"{loc}: {err['msg']}"
