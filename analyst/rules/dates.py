"""Periods read from a question, as the semantic layer's windows.

The reading itself is `protocol.reading.periods` (shared with the audit); this is the analyst's
boundary, where a protocol `Period` becomes a `semantic_layer.windows.Window`.
"""

from __future__ import annotations

from protocol.reading import Period, parse_day, previous_period
from semantic_layer.windows import Window

__all__ = ["parse_day", "previous_window", "window_of"]


def window_of(period: Period) -> Window:
    return Window(period.start, period.end)


def previous_window(period: Period) -> Window:
    """The window just before the period, of the same length (the month before a month)."""
    return window_of(previous_period(period))
