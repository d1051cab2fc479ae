"""The traces package's errors: one root, so callers map them to exit codes in one place."""

from __future__ import annotations


class TraceError(ValueError):
    """A trace file or record cannot be used as asked; `message` says which and why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TornLine(TraceError):
    """The last line of a trace file is incomplete (a crash mid-write)."""


class DamagedTrace(TraceError):
    """A trace file or record fails its integrity check, or cannot be read back as a trace."""
