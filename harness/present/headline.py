"""What a person reads at the top of an answer: the headline value in its units, and why the
attempt stopped in words ('refused', not 'answered', when the answer is a refusal)."""

from __future__ import annotations

from typing import Any

from showwork.protocol.citations import CitationSyntaxError, parse_citation
from showwork.protocol.rendered import percent, say

PERCENT_FIELDS = frozenset({"pct_change", "share"})
"""Fields in percent units (-16.44 means fell 16.44 %)."""


def headline(audit: dict[str, Any], catalog: dict[str, Any] | None) -> str:
    """The headline `value` formatted as the claim that states it reads: a change in percent,
    a level in its metric's governed unit; the raw value stays in the JSON.

    >>> audit = {"value": -12.157766, "claims": [{"value": -12.157766,
    ...          "sources": ["r1:weekly_value_moments.pct_change"]}]}
    >>> headline(audit, {}), headline({"value": 0.0505, "claims": []}, {})
    ('-12.2%', '0.0505')
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
