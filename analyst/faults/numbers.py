"""Number faults, for the fault corpus and the noisy simulator: what a careless model writes.

A number the user reads — in a claim's text, the answer prose, the headline value or a listed
value of a table answer — is changed the way models get numbers wrong: a changed digit, a
dropped minus, a wrong unit or scale, or a precision rounded the wrong way (16.44 written 17:
written 16 it would be honest, as a whole number in text is rounded to its unit). Every change is read back
with the audit's own reader and kept only if the new number no longer states the old value.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from showwork.protocol.numbers import Kind, ReadNumber, from_value, matches, read_numbers

HOWS = ("digit", "minus", "scale", "precision")
"""The kinds of number fault."""

_DIGIT = re.compile(r"[0-9]")


def _digit(text: str, rng: random.Random) -> str | None:
    spots = [m.start() for m in _DIGIT.finditer(text)]
    if not spots:
        return None
    at = rng.choice(spots)
    new = rng.choice([d for d in "0123456789" if d != text[at] and not (at == spots[0] and d == "0")])
    return text[:at] + new + text[at + 1:]


def _minus(text: str, _rng: random.Random) -> str | None:
    stripped = text.lstrip("-−")
    return stripped if stripped != text else None


def _scale(text: str, rng: random.Random) -> str | None:
    if text.endswith("%"):
        return text[:-1].rstrip()  # percent units written as a plain number
    body = text.replace(",", "")
    if not re.fullmatch(r"[-−]?[0-9]+(?:\.[0-9]+)?", body):
        return None
    return rng.choice([body + "0", f"{body}k"]) if "." not in body else body.replace(".", "", 1)


def _precision(text: str, _rng: random.Random) -> str | None:
    m = re.fullmatch(r"([-−]?[0-9,]*[0-9])\.([0-9]+)(.*)", text)
    if m:  # the whole number on the far side: 16.44 → 17, 16.74 → 16 (16 or 17 would be honest)
        sign, whole = re.fullmatch(r"([-−]?)(.*)", m.group(1)).groups()  # type: ignore[union-attr]
        far = int(whole.replace(",", "")) + (1 if m.group(2)[0] < "5" else 0)
        return f"{sign}{far:,}" + m.group(3)
    m = re.fullmatch(r"([-−]?)([0-9]{1,3}(?:,[0-9]{3})+|[0-9]{3,})", text)
    if not m:
        return None
    digits = m.group(2).replace(",", "")
    rounded = str(round(int(digits), -(len(digits) - 2)))
    return None if rounded == digits else m.group(1) + f"{int(rounded):,}"


_CHANGES: dict[str, Callable[[str, random.Random], str | None]] = {
    "digit": _digit, "minus": _minus, "scale": _scale, "precision": _precision}


def change(text: str, value: float, kind: Kind, how: str, rng: random.Random) -> str | None:
    """`text` (one written number) changed by `how`, or None when the change is impossible or
    would still state `value`."""
    new = _CHANGES[how](text, rng)
    if new is None or new == text:
        return None
    read = read_numbers(new)
    if len(read) != 1 or matches(read[0], value, kind):
        return None
    return new


Stated = tuple[tuple[float, Kind], ...]
"""Other values an answer states, with their units: a number changed into one of them is still
supported there (the audit holds the prose and the headline to every value the answer states),
so it is no fault of the kind injected."""


def in_text(text: str, value: float, kind: Kind, rng: random.Random,
            question: str = "", hows: tuple[str, ...] = HOWS,
            avoid: Stated = ()) -> tuple[str, str] | None:
    """The text with one number that states `value` changed, and how; None when none can be.

    The change is read back in its sentence ("fell 16.44" still reads as -16.44), and kept only
    if the number there no longer states `value`, nor any value of `avoid`.
    """
    stated = [n for n in read_numbers(text, question) if matches(n, value, kind)]
    rng.shuffle(stated)
    for number in stated:
        for how in rng.sample(hows, len(hows)):
            new = change(number.text, value, kind, how, rng)
            if new is None or not _sign_safe(number, how):
                continue
            changed = text[:number.start] + new + text[number.end:]
            if not _still_states(changed, number.start, ((value, kind), *avoid), question):
                return changed, how
    return None


def _still_states(text: str, start: int, values: Stated, question: str) -> bool:
    there = [n for n in read_numbers(text, question) if n.start == start]
    return not there or any(matches(there[0], v, k) for v, k in values)


def _sign_safe(number: ReadNumber, how: str) -> bool:
    # a sign carried by a word ("fell 16.4%") cannot be dropped by deleting a minus
    return not (how == "minus" and number.sign_word)


def headline(value: Any, rng: random.Random, hows: tuple[str, ...] = HOWS,
             avoid: Stated = ()) -> tuple[float, str] | None:
    """A headline value changed by one of the kinds, or None for a non-number."""
    return json_number(value, rng, hows, avoid)


def listed(values: Any, rng: random.Random,
           hows: tuple[str, ...] = HOWS) -> tuple[int, float, str] | None:
    """One listed value of a table answer (`values`: [{key, value}, …]) changed by one of the
    kinds: (its index, the new value, how), or None when no listed value can be."""
    spots = [i for i, item in enumerate(values or []) if isinstance(item, dict)]
    rng.shuffle(spots)
    for i in spots:
        changed = json_number(values[i].get("value"), rng, hows)
        if changed is not None:
            return i, changed[0], changed[1]
    return None


def json_number(value: Any, rng: random.Random, hows: tuple[str, ...] = HOWS,
                avoid: Stated = ()) -> tuple[float, str] | None:
    """A number written as JSON (a headline or a listed value) changed by one of the kinds, and
    how; None for a non-number, or when the change would still state `value` or a value of
    `avoid`.

    A precision rounded away: a value with decimals loses them (269173.31 → 269173.0), a whole
    one is rounded to two significant digits (12,573 → 13,000), so the JSON number no longer
    states the value at the precision it is written at.
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or value == 0:
        return None
    how = rng.choice(hows)
    options = {"digit": value + rng.choice([1, -1]) * 10 ** rng.randint(0, 2),
               "minus": -value, "scale": value * rng.choice([10, 1000, 0.01]),
               "precision": _rounded_away(value)}
    new = from_value(options[how])
    return None if any(matches(new, v, k) for v, k in ((value, "number"), *avoid)) \
        else (options[how], how)


def _rounded_away(value: float) -> float:
    """The value rounded past what the matching rule tolerates (or itself, when it cannot be)."""
    if round(value) != value:
        return float(round(value))
    digits = len(str(abs(int(value))))
    return type(value)(round(value, 2 - digits)) if digits > 2 else value
