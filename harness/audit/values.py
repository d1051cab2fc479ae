"""When a stated value matches a cited one.

The rule: a stated value matches the cited value when they are equal, or when the stated value is
written with at least one decimal and at least two significant digits and lies within half a unit
of its last digit of the cited value. So -16.4 matches -16.44 and 5.98 matches 5.98, while -16
does not match -16.44 (no decimal: an integer must be exact) and 0.5 does not match 0.54 (one
significant digit). Strings, booleans and null never match a number.

>>> matches(-16.4, -16.44), matches(5.98, 5.98), matches(-16, -16.44), matches(12834, 12834)
(True, True, False, True)
"""

from __future__ import annotations

from typing import Any

from showwork.protocol import numbers


def matches(stated: Any, cited: Any) -> bool:
    """The value-matching rule; protocol/numbers.py holds it, for JSON values and text alike."""
    if isinstance(stated, bool) or isinstance(cited, bool):
        return False
    if not isinstance(stated, int | float) or not isinstance(cited, int | float):
        return False
    return stated == cited or numbers.matches(numbers.from_value(stated), cited)


def suggest(cited: float | int) -> str:
    """How to state a cited value so it matches."""
    if isinstance(cited, int) or float(cited).is_integer():
        return f"{int(cited)}"
    options = dict.fromkeys([f"{round(cited, 4)}", f"{round(cited, 2)}"] if abs(cited) >= 1
                            else [f"{cited:.4g}", f"{cited:.3g}"])
    return " or ".join(options)
