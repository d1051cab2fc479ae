"""'Right now', 'currently': the latest value of a metric held at a point in time.

A level held at a point in time (subscribers, a price in force) has one value at each day; asked
'now' with no period named, it is the value on the last day its data covers. Of a metric summed
over a window ('revenue right now') the words name no window anyone can take without guessing,
so they stay unread.
"""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading.account import ReadSpan
from showwork.protocol.reading.mentions import Mention

_NOW = re.compile(r"\b(?:right\s+now|as\s+of\s+(?:now|today)|currently|at\s+present|presently|"
                  r"at\s+the\s+moment|now)\b", re.IGNORECASE)


def latest_value(text: str, metrics: list[Mention], catalog: dict[str, Any]
                 ) -> tuple[list[ReadSpan], tuple[str, ...]]:
    """The spans that say 'now' of metrics every one of which is held at a point in time, read
    as the value on the last day every one's data covers, and the note Read as shows for them.
    Called only where no period is named.

    >>> cat = {"metrics": {"price": {"point_in_time": True, "coverage": {"end": "2026-06-17"}}}}
    >>> spans, notes = latest_value("the price right now", [Mention("metric", "price", None,
    ...                             "price", (4, 9), "name")], cat)
    >>> [s.words for s in spans], notes
    (['right now'], ("'right now' read as the latest value: the end of the data, 2026-06-17",))
    """
    entries = catalog.get("metrics") or {}
    infos = [entries.get(m.name) or {} for m in metrics]
    ends = [str((i.get("coverage") or {}).get("end") or "")[:10] for i in infos]
    if not infos or not all(i.get("point_in_time") for i in infos) or not all(ends):
        return [], ()
    end = min(ends)
    found = list(_NOW.finditer(text))
    spans = [ReadSpan(m.group(0), m.span(), "window", f"the latest value, {end}") for m in found]
    return spans, tuple(f"'{m.group(0)}' read as the latest value: the end of the data, {end}"
                        for m in found)
