"""Periods read from a question, as the semantic layer's windows.

The reading itself is `protocol.reading.periods` (shared with the audit); this is the analyst's
boundary, where a protocol `Period` becomes a `semantic_layer.windows.Window`.
"""

from __future__ import annotations

import datetime as dt

from showwork.protocol.reading import Period, parse_day, previous_period
from showwork.semantic_layer.windows import Window, periods

__all__ = ["ALL_DATA", "AllData", "parse_day", "previous_window", "whole_periods", "window_of"]


class AllData(Window):
    """No window: every row the data holds, as `mf query` reads a query with no time
    constraint. Taken when a question names no period and its metric's data has no covered
    range to take (its time column holds no dates); a governed call sends no window for it."""

    def __str__(self) -> str:
        return "all the data"


ALL_DATA = AllData(dt.date.min, dt.date.max)


def window_of(period: Period) -> Window:
    return Window(period.start, period.end)


def previous_window(period: Period) -> Window:
    """The window just before the period, of the same length (the month before a month)."""
    return window_of(previous_period(period))


def whole_periods(window: Window | None, grain: str | None) -> Window | None:
    """The whole periods of the grain inside the window ('weekly … in March' → its full weeks)."""
    if window is None or isinstance(window, AllData) or grain not in ("week", "month", "quarter",
                                                                       "year"):
        return window
    inside = [p for p in periods(window, grain) if window.covers(p)]
    return Window(inside[0].start, inside[-1].end) if inside else window
