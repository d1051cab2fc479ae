"""JSON from a model, read strictly: no NaN/Infinity, no repeated keys, no runaway nesting.

>>> loads('{"a": 1}', "answer")
{'a': 1}
"""

from __future__ import annotations

import json
from typing import Any


class StrictJSONError(ValueError):
    """The text is not acceptable JSON; the message names what and why."""


def loads(text: str, what: str) -> Any:
    """Parse `text`; raise StrictJSONError ("The {what} …") or json.JSONDecodeError."""

    def no_constant(name: str) -> Any:
        raise StrictJSONError(f"The {what} contains {name}; use a finite number or null.")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            raise StrictJSONError(f"The {what} repeats the key {_first_repeat(pairs)!r}; give "
                                  "each key once.")
        return out

    try:
        return json.loads(text, parse_constant=no_constant, object_pairs_hook=unique)
    except RecursionError as exc:
        raise StrictJSONError(f"The {what} nests too deeply.") from exc


def _first_repeat(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no repeated key")
