"""What a person reads at the top of an answer: the headline value in its units, and why the
attempt stopped in words ('refused', not 'answered', when the answer is a refusal)."""

from __future__ import annotations

import math
from typing import Any

from showwork.protocol.citations import CitationSyntaxError, parse_citation
from showwork.protocol.rendered import CURRENCIES, PERCENT, UNIT_WORDS, UNITLESS, percent, say

PERCENT_FIELDS = frozenset({"pct_change", "share"})
"""Fields in percent units (-16.44 means fell 16.44 %)."""


def headline(audit: dict[str, Any], catalog: dict[str, Any] | None) -> str:
    """The headline `value` formatted as the claim that states it reads: a change in percent,
    a level in its metric's governed unit; the raw value stays in the JSON.

    >>> audit = {"value": -12.157766, "claims": [{"value": -12.157766,
    ...          "sources": ["r1:weekly_value_moments.pct_change"]}]}
    >>> headline(audit, {}), headline({"value": 0.0505, "claims": []}, {})
    ('-12.2 %', '0.0505')
    """
    value = audit.get("value")
    if value is None or isinstance(value, (str, bool)):
        return "–" if value is None else str(value)
    for claim in audit.get("claims") or []:
        if claim.get("value") != value:
            continue
        for source in claim.get("sources") or []:
            field, metric = _field(source)
            if field in PERCENT_FIELDS:
                return percent(value)
            if field == "share_of_total":
                return say(value, "fraction")
            if metric is not None:
                unit = (((catalog or {}).get("metrics") or {}).get(metric) or {}).get("unit")
                return say(value, unit)
    return say(value)


def cited_value(citation: str, value: Any, catalog: dict[str, Any] | None,
                root: str | None = None) -> str:
    """A cited field's value as a person reads it, to four significant digits in the field's
    units: a change in percent, a share of a total in percent, a level in its metric's unit
    (money to the cent); the exact value stays in the trace's JSON.

    >>> cited_value("r1:days_per_user.pct_change", -15.991041553708287, {})
    '-15.99 %'
    >>> cited_value("r1[store=Online]:revenue.share_of_total", 0.3814043944221459, {})
    '38.14 %'
    >>> cited_value("r1:moments_per_day.contribution", -2421.874184553264, {})
    '-2,422'

    A contribution is in the units of the result's first metric, `root`, the one the others
    attribute (an order count contributes dollars to revenue):

    >>> units = {"metrics": {"revenue": {"unit": "usd"}, "order_count": {"unit": "count"}}}
    >>> cited_value("r1:order_count.contribution", 878.2064395866838, units, "revenue")
    '$878.21'
    """
    if value is None or isinstance(value, (str, bool)) or not isinstance(value, int | float):
        return "–" if value is None else str(value)
    field, metric = _field(citation)
    if field in PERCENT_FIELDS:
        return f"{four(value)}{PERCENT}"
    if field == "contribution" and root:
        metric = root
    unit = (((catalog or {}).get("metrics") or {}).get(metric or "") or {}).get("unit")
    if field == "share_of_total" or unit == "fraction":
        return f"{four(value * 100)}{PERCENT}"
    if unit and field in ("value", "previous", "delta", "contribution"):
        return say(value, unit) if unit in CURRENCIES else four(value) + (
            "" if unit in UNITLESS else f" {UNIT_WORDS.get(unit, unit.replace('_', ' '))}")
    return four(value)


def four(value: float | int) -> str:
    """A number to four significant digits, with thousands separators; whole numbers whole.

    >>> four(0.019470404984423675), four(87.37669354508616), four(11343), four(2.0), four(2.5)
    ('0.01947', '87.38', '11,343', '2', '2.5')
    """
    if isinstance(value, int) or not math.isfinite(value) or float(value).is_integer():
        return f"{int(value):,}" if math.isfinite(value) else str(value)
    magnitude = math.floor(math.log10(abs(value))) + 1
    text = f"{value:,.{max(0, 4 - magnitude)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def roots(calls: Any) -> dict[int, str]:
    """Each governed result's first metric by its handle (what its contributions are in)."""
    return {c.handle: str((c.result or {})["metrics"][0]) for c in calls
            if c.handle is not None and (c.result or {}).get("metrics")}


def _field(source: str) -> tuple[str | None, str | None]:
    try:
        c = parse_citation(source)
    except CitationSyntaxError:
        return None, None
    return getattr(c, "field", None), getattr(c, "metric", None)


def stop_word(stop_reason: str | None, audit: dict[str, Any] | None) -> str:
    """Why the attempt stopped: a refusal says 'refused' although the loop ended on an answer."""
    if audit is not None and audit.get("status") == "refused":
        return "refused"
    return stop_reason or "unknown"


def driver_label(audit: dict[str, Any], catalog: dict[str, Any] | None) -> str:
    """The answer's driver by its governed label ('days per user'), its id when it has none."""
    driver = str(audit.get("driver") or "")
    return (((catalog or {}).get("metrics") or {}).get(driver) or {}).get("label") or driver
