"""The traces package's errors: one root, so callers map them to exit codes in one place."""

from __future__ import annotations


class TraceError(ValueError):
    """A trace file or record cannot be used as asked."""


class TornLine(TraceError):
    """The last line of a trace file is incomplete (a crash mid-write)."""
