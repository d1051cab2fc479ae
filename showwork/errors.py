"""The errors of the public API: one root, each naming what is wrong and how to fix it."""

from __future__ import annotations


class ShowworkError(ValueError):
    """Root of every error the public API raises; `message` says what is wrong."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class AuditInputError(ShowworkError):
    """An input of `audit_answer` that is not in its documented shape.

    `input + field` is the path of the bad value, e.g. input `results`, field
    `['r2'].rows[3].revenue`; the message says what is wrong there.
    """

    def __init__(self, input: str, field: str, message: str) -> None:
        super().__init__(message)
        self.input = input
        """Which argument: answer, results or catalog."""
        self.field = field
        """Where in it, as an access path (empty for the argument itself)."""


class BlockedCall(ShowworkError):
    """A governed call the semantic layer refused (it gets no handle), with the reason."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        """Why, as a code: unknown_metric, unsupported_dimension, invalid_arguments, …"""
        self.reason = reason


class ProjectError(ShowworkError):
    """A project that cannot be opened as asked."""
