"""Plain contract classes: dataclasses that read and write as the pydantic models they replace.

A warm `showwork ask` builds trace records, an answer and governance objects on every run;
importing pydantic and building its models for them cost more than a third of its start-up
(issue 46). The contract classes are dataclasses with this mixin: their dumps and JSON are the
bytes pydantic wrote (`tests/test_plain_classes.py` compares them), and what comes from outside
(a file, a model's output, an API call) is still validated by pydantic, imported and built on
first such read, over the same dataclasses (`__pydantic_config__` on a class is its model config).

Annotations that only pydantic reads (`Field(...)`, `StrictStr`, …) are imported under
TYPE_CHECKING in each module and resolved from `_adapter`'s own names when pydantic builds the
validator. Imports nothing of ours: any folder may use it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from json import encoder as _encoder
from typing import Any, TypeVar

P = TypeVar("P", bound="Plain")


class Plain:
    """pydantic's model methods the code uses, for a dataclass (no pydantic imported)."""

    __slots__ = ()

    @classmethod
    def model_validate(cls: type[P], data: Any) -> P:
        """Validate outside input with pydantic (imported here, on first use)."""
        return _adapter(cls).validate_python(data)

    @classmethod
    def model_validate_json(cls: type[P], text: str | bytes) -> P:
        return _adapter(cls).validate_json(text)

    def model_dump(self, *, mode: str = "python", exclude: set[str] | frozenset[str] = frozenset(),
                   exclude_none: bool = False) -> dict[str, Any]:
        out = {k: v for k, v in _items(self) if k not in exclude and not (exclude_none and v is None)}
        return {k: dump(v, mode=mode, exclude_none=exclude_none) for k, v in out.items()}

    def model_dump_json(self, *, indent: int | None = None) -> str:
        return dumps(self.model_dump(mode="json"), indent=indent)

    def model_copy(self: P, *, update: dict[str, Any] | None = None) -> P:
        return dataclasses.replace(self, **(update or {}))  # type: ignore[type-var]


def _items(obj: Any) -> list[tuple[str, Any]]:
    """A dataclass's fields as pydantic dumps them: in order, under their aliases."""
    dump_as = getattr(obj, "_dump_as", None)
    items = [(f.name, getattr(obj, f.name)) for f in dataclasses.fields(obj)]
    return dump_as(items) if dump_as else items


def dump(value: Any, *, mode: str = "python", exclude_none: bool = False) -> Any:
    """Nested plain objects as dicts; in mode "json", what JSON holds (dates as ISO text)."""
    if isinstance(value, Plain):
        return value.model_dump(mode=mode, exclude_none=exclude_none)
    if isinstance(value, dict):
        return {k: dump(v, mode=mode, exclude_none=exclude_none) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [dump(v, mode=mode, exclude_none=exclude_none) for v in value]
        return items if mode == "json" or isinstance(value, list) else tuple(items)
    if mode == "json" and isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if mode == "json" and isinstance(value, Decimal):
        return str(value)
    return value


def _float(x: float) -> str:
    """A float as pydantic writes it: Python's repr, except 1e-05 … 1e-09 ("0.00001", "1e-7")
    and NaN or infinity (null)."""
    if x != x or x in (float("inf"), float("-inf")):
        return "null"
    text = repr(x)
    mantissa, _, exponent = text.partition("e-0")
    if not exponent:
        return text
    if exponent == "5":
        sign, digits = ("-", mantissa[1:]) if mantissa.startswith("-") else ("", mantissa)
        return f"{sign}0.0000{digits.replace('.', '')}"
    return f"{mantissa}e-{exponent}"


def dumps(data: Any, *, indent: int | None = None) -> str:
    """JSON text as pydantic's `model_dump_json` writes it: compact, UTF-8 unescaped."""
    iterencode = _encoder._make_iterencode(  # type: ignore[attr-defined]
        None, _refuse, _encoder.encode_basestring, None if indent is None else " " * indent,
        _float, ": " if indent is not None else ":", ",", False, False, True)
    return "".join(iterencode(data, 0))


def _refuse(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON: dump(…, mode='json') first")


_ADAPTERS: dict[type, Any] = {}


def _adapter(cls: type) -> Any:
    """pydantic's validator of a plain class, built once; the names imported here resolve its
    annotations (pydantic reads the caller's frame)."""
    if cls in _ADAPTERS:
        return _ADAPTERS[cls]
    from pydantic import (  # noqa: F401 — read by pydantic from this frame
        Field,
        StrictBool,
        StrictFloat,
        StrictInt,
        StrictStr,
        TypeAdapter,
    )

    _ADAPTERS[cls] = TypeAdapter(cls)
    return _ADAPTERS[cls]


MESSAGES = {"unexpected_keyword_argument": "Extra inputs are not permitted",
            "dataclass_type": "Input should be a valid dictionary or instance of {name}"}
"""pydantic words a dataclass's errors differently from a model's; the models' words are kept."""


def errors(exc: Any) -> list[dict[str, Any]]:
    """A ValidationError's errors, worded as pydantic words a model's."""
    out = []
    for err in exc.errors():
        word = MESSAGES.get(err["type"])
        if word is not None:
            name = str(err.get("ctx", {}).get("class_name", exc.title))
            err = {**err, "msg": word.format(name=name)}
        out.append(err)
    return out
