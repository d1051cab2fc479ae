"""Words a person reads: numbers at a readable precision with their units, a metric's label as
its owner wrote it, and a verb that agrees with it. One source for the `rendered` switch (the
harness writes measurement sentences from cited values) and for the rules analyst's claims.

A number is written the way the audit reads it back (DESIGN.md, "Audit"): it matches the value
it states rounded to its own written precision. The full value stays in the JSON and the
citation; the text says three significant digits, with at least one decimal when the value is
not whole (an integer in text is read as exact).

>>> say(11343), say(9.575710271620355), say(1181.8181818), say(0.0123456)
('11,343', '9.58', '1,181.8', '0.0123')
>>> say(10.345, "minutes"), say(1065.21, "miles")
('10.3 min', '1,065.2 miles')
>>> say(0.050539056550839644, "fraction"), say(815497.7, "usd"), say(-1203.094, "usd")
('5.1 %', '$815,497.70', '-$1,203.09')
>>> moved(-15.991041553708287), moved(1181.8181818181818), signed(4274.4012)
('fell 16.0 %', 'rose 1,181.8 %', '+4,274.4')
>>> subject("active users"), be("active users"), be("days per user"), be("plus price")
('Active users', 'were', 'was', 'was')
"""

from __future__ import annotations

import math
import re
from typing import Any

CURRENCIES = {"usd": "$", "eur": "€", "gbp": "£", "jpy": "¥", "inr": "₹"}
"""Governance units (`unit:`) written as a symbol before the number; other units after it."""
UNITLESS = frozenset({"count", "number", "ratio", "percent"})
"""Units said by the number alone."""
UNIT_WORDS = {"degrees_f": "°F", "degrees_c": "°C", "minutes": "min", "seconds": "s",
              "hours": "h"}
"""Units written otherwise than their name with spaces ('miles', 'mph'): a time unit by its
symbol, since the audit reads '10 minutes' as a count of periods, not a value to check."""
SIGNIFICANT = 3
"""Significant digits a person reads; a value that is not whole keeps at least one decimal."""
RATE_SIGNIFICANT = 2
"""A rate read as a percent ('5.1 %', '0.12 %'); above 10 % still one decimal ('39.6 %')."""
PERCENT = " %"
"""How a percent is written after its number (issue 32: `5.1 %`)."""
UNCHANGED_PCT = 0.005
"""A change smaller than this (in percent) is said as unchanged."""


def say(value: float | int | str | None, unit: str | None = None) -> str:
    """A value as a person reads it, in its governed unit (`fraction` reads as a percent)."""
    if value is None:
        return "no value"
    if isinstance(value, str):
        return value
    if unit == "fraction":
        return f"{_digits(value * 100, significant=RATE_SIGNIFICANT)}{PERCENT}"
    if unit in CURRENCIES:
        sign = "-" if value < 0 else ""
        return f"{sign}{CURRENCIES[unit]}{abs(value):,.2f}"
    if unit and unit not in UNITLESS:
        return f"{_digits(value)} {UNIT_WORDS.get(unit, unit.replace('_', ' '))}"
    return _digits(value)


def signed(value: float | int | None, unit: str | None = None) -> str:
    """A value with its sign always written: '+4,274.4', '-$1,203.09'."""
    if value is None:
        return "no value"
    text = say(value, unit)
    return text if text.startswith("-") else f"+{text}"


def percent(value: float | int | None) -> str:
    """A value in percent units (a `pct_change` or `share` field): '16.0 %'."""
    return "no value" if value is None else f"{_digits(value)}{PERCENT}"


def moved(pct: float | int | None, label: str = "") -> str:
    """A relative change in words: 'rose 10.8 %', 'fell 16.0 %', 'was unchanged' ('were
    unchanged' for a plural label)."""
    if pct is None:
        return "could not be compared"
    if abs(pct) < UNCHANGED_PCT:
        return f"{be(label)} unchanged"
    return f"{'rose' if pct > 0 else 'fell'} {percent(abs(pct))}"


def _digits(value: float | int, significant: int = SIGNIFICANT) -> str:
    """`significant` digits, one decimal at least when not whole."""
    if isinstance(value, int) or (math.isfinite(value) and float(value).is_integer()):
        return f"{int(value):,}"
    if not math.isfinite(value):
        return str(value)
    magnitude = math.floor(math.log10(abs(value))) + 1 if value else 1
    decimals = max(1, significant - magnitude)
    return f"{value:,.{decimals}f}"


# ---------------------------------------------------------------------------------------------
# A label in a sentence

_HEAD_END = re.compile(r"\s+(?:per|of|in|for|by|at|from|with|on|to)\s+|\s*\(", re.IGNORECASE)
_PER = re.compile(r"\s(?:per|each)\s", re.IGNORECASE)
_PARTICIPLES = frozenset({"sold", "sent", "made", "paid", "won", "lost", "held", "given",
                          "taken", "done", "built", "seen", "flown", "run", "spent", "bought"})
_SINGULAR_ENDINGS = ("ss", "us", "is", "ics")


def subject(label: str, segment: str = "") -> str:
    """A label opening a sentence: its first letter raised, the rest as its owner wrote it."""
    return capital(label) + (f" ({segment})" if segment else "")


def members(catalog: dict[str, Any], key: dict[str, Any]) -> str:
    """A row's members in words, each after its dimension's label, never its id:
    'acquisition channel paid_search', 'week 2026-03-09'."""
    dims = catalog.get("dimensions") or {}
    return ", ".join(f"{_dimension(dims, k)} {v}" for k, v in key.items())


def _dimension(dims: dict[str, Any], name: str) -> str:
    return (dims.get(name) or {}).get("label") or name.split("__")[-1].replace("_", " ")


def period(grain: str, start: str) -> str:
    """A series row's period in words: 'on 2019-07-08', 'in the week of 2026-04-20',
    'in 2019-04' (a month), 'in the quarter starting 2019-04-01', 'in 2019'."""
    start = str(start)[:10]
    if grain == "day":
        return f"on {start}"
    if grain == "week":
        return f"in the week of {start}"
    if grain == "month":
        return f"in {start[:7]}"
    if grain == "year":
        return f"in {start[:4]}"
    return f"in the {grain} starting {start}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def plural(label: str) -> bool:
    """Whether a label names a plural ('active users', 'items sold'): its head noun, the last word
    before a preposition (a past participle after it skipped), ends in -s. A rate ('days per
    user', 'revenue per customer') is one quantity."""
    if _PER.search(label):
        return False
    head = _HEAD_END.split(label.strip(), maxsplit=1)[0].split()
    while len(head) > 1 and (head[-1].lower() in _PARTICIPLES or head[-1].lower().endswith("ed")):
        head.pop()
    word = head[-1].lower() if head else ""
    return word.endswith("s") and not word.endswith(_SINGULAR_ENDINGS)


def be(label: str) -> str:
    """'was' or 'were', as the label's number asks."""
    return "were" if plural(label) else "was"


def is_value(label: str, value: float | int | None, unit: str | None = None) -> str:
    """'were 11,343' ('was …' as the label's number asks), or 'had no value' for none (a count
    over no rows, as MetricFlow's): never a number nobody read.

    >>> is_value("orders", 12), is_value("revenue", None, "usd")
    ('were 12', 'had no value')
    """
    return "had no value" if value is None else f"{be(label)} {say(value, unit)}"


def agree(label: str, verb: str) -> str:
    """A present-tense verb agreeing with the label: 'accounts' → 'account' for a plural."""
    return verb[:-1] if plural(label) and verb.endswith("s") else verb


# ---------------------------------------------------------------------------------------------
# The `rendered` switch


def render_measurement(label: str, field: str, fields: dict[str, float | int | None],
                       windows: list[str], segment: str = "", fraction: bool = False,
                       unit: str | None = None) -> str:
    """One sentence stating a cited field, e.g. 'Days per user fell 15.3 % (2.67 → 2.26), …'.

    >>> render_measurement("days per user", "pct_change",
    ...     {"value": 2.264, "previous": 2.6724, "delta": -0.408, "pct_change": -15.284},
    ...     ["2026-03-09..2026-03-15", "2026-03-02..2026-03-08"])
    'Days per user fell 15.3 % (2.67 → 2.26), 2026-03-09..2026-03-15 versus 2026-03-02..2026-03-08.'
    >>> render_measurement("active users", "value", {"value": 11343}, ["2026-03-02..2026-03-08"])
    'Active users were 11,343 in 2026-03-02..2026-03-08.'
    >>> render_measurement("orders", "value", {"value": None}, ["2018-02-08..2018-02-08"])
    'Orders had no value in 2018-02-08..2018-02-08.'
    """
    unit = "fraction" if fraction else unit
    who = subject(label, segment)
    value, previous = fields.get("value"), fields.get("previous")
    when = f"{windows[0]} versus {windows[1]}" if len(windows) > 1 else (windows[0] if windows else "")
    if field in ("pct_change", "delta") and fields.get(field) is not None:
        change = fields[field]
        assert change is not None
        span = ""
        if value is not None and previous is not None:
            span = f" ({say(previous, unit)} → {say(value, unit)})"
        if field == "pct_change":
            words = moved(change, label)
        else:
            amount = (f"{_digits(abs(change) * 100, significant=RATE_SIGNIFICANT)} pp" if unit == "fraction"
                      else say(abs(change), unit))  # a rate's difference is in points
            words = f"{be(label)} unchanged" if change == 0 else (
                f"{'rose' if change > 0 else 'fell'} {amount}")
        return f"{who} {words}{span}, {when}."
    if field == "previous" and previous is not None:
        return f"{who} {be(label)} {say(previous, unit)} in {windows[-1]}."
    stated = is_value(label, fields.get(field), unit)
    return f"{who} {stated} in {windows[0]}." if windows else f"{who} {stated}."
