"""JSON from a model, read strictly: no NaN/Infinity, no repeated keys, no runaway nesting.

>>> loads('{"a": 1}', "answer")
{'a': 1}
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any


class StrictJSONError(ValueError):
    """The text is not acceptable JSON; the message names what and why."""


def loads(text: str, what: str) -> Any:
    """Parse `text`; raise StrictJSONError ("The {what} …") or json.JSONDecodeError.

    An integer too long for Python to read is refused like NaN, not raised as a ValueError.
    """
    if text.startswith("\ufeff"):  # as json.loads says it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    try:
        return _decoder(what).decode(text)
    except RecursionError as exc:
        raise StrictJSONError(f"The {what} nests too deeply.") from exc
    except (json.JSONDecodeError, StrictJSONError):
        raise
    except ValueError as exc:  # an integer longer than Python reads (int_max_str_digits)
        raise StrictJSONError(f"The {what} holds a number too long to read ({exc}); write "
                              "it with fewer digits.") from exc


@lru_cache(maxsize=16)
def _decoder(what: str) -> json.JSONDecoder:
    """The strict decoder for one kind of text (its messages name it), built once."""

    def no_constant(name: str) -> Any:
        raise StrictJSONError(f"The {what} contains {name}; use a finite number or null.")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            raise StrictJSONError(f"The {what} repeats the key {_first_repeat(pairs)!r}; give "
                                  "each key once.")
        return out

    return json.JSONDecoder(parse_constant=no_constant, object_pairs_hook=unique)


def _first_repeat(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no repeated key")
