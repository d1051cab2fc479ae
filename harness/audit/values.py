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

from decimal import Decimal
from typing import Any


def _decimals_and_digits(value: float | int) -> tuple[int, int]:
    # repr keeps what JSON can carry: 16.0 stays one decimal, 16 (an int) none.
    text = repr(value)
    if isinstance(value, float) and "e" not in text and "n" not in text:
        whole, _, frac = text.lstrip("-").partition(".")
        shown = (whole + frac).lstrip("0")
        return len(frac), len(shown) or 1
    d = Decimal(text) if isinstance(value, float) else Decimal(value)
    sign, digits, exponent = d.as_tuple()
    assert isinstance(exponent, int)
    decimals = max(0, -exponent)
    significant = len(str(int("".join(map(str, digits)) or "0")))
    return decimals, significant


def matches(stated: Any, cited: Any) -> bool:
    if isinstance(stated, bool) or isinstance(cited, bool):
        return False
    if not isinstance(stated, int | float) or not isinstance(cited, int | float):
        return False
    if stated == cited:
        return True
    decimals, significant = _decimals_and_digits(stated)
    if decimals < 1 or significant < 2:
        return False
    return abs(stated - cited) <= 0.5 * 10 ** -decimals + 1e-12 * max(1.0, abs(cited))


def suggest(cited: float | int) -> str:
    """How to state a cited value so it matches."""
    if isinstance(cited, int) or float(cited).is_integer():
        return f"{int(cited)}"
    options = dict.fromkeys([f"{round(cited, 4)}", f"{round(cited, 2)}"] if abs(cited) >= 1
                            else [f"{cited:.4g}", f"{cited:.3g}"])
    return " or ".join(options)
