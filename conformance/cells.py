"""How the conformance runs read a result cell, the same on MetricFlow's side and showwork's:
a key as text (a date as its day, a null as ''), a value as a float (a null as None); and the
limits of the layer they open on showwork's side (`limits`)."""

from __future__ import annotations

import re
from typing import Any

ROW_CAP = 1_000_000
"""The row cap of the layer a conformance run opens, where the product's is Limits.row_cap
(5,000, what an analyst's answer may cite): a run compares every row MetricFlow returns
(MetricFlow has no cap), so it raises the cap rather than meeting it. Past it the layer still
errors (RowCapExceeded), never truncates."""


def limits() -> Any:
    """The layer's Limits for a conformance run: the product's, with ROW_CAP."""
    from showwork.semantic_layer.execute import Limits

    return Limits(row_cap=ROW_CAP)


def key_text(v: Any) -> str:
    """A key cell as text: '' for a null, 'true'/'false' for a boolean, '3' for 3.0, a date or
    timestamp as its day."""
    if v is None or v == "":
        return ""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, str) and _DECIMAL.fullmatch(v):
        # a DECIMAL member as showwork writes it ('10.60'), MetricFlow's cell as a float (10.6)
        return key_text(float(v)) if float(v).is_integer() else repr(float(v))
    return str(v)[:10] if isinstance(v, str) and len(v) >= 10 and v[4:5] == "-" else str(v)


_DECIMAL = re.compile(r"-?\d+\.\d+")
"""A fixed-point number's text (a member of a DECIMAL column)."""


def num(v: Any) -> float | None:
    """A value cell as a float (a boolean as 0 or 1), None for a null."""
    return None if v is None or v == "" else float(v)
