"""The harness's errors: one root, mapped to exit codes in one place (harness/cli/errors.py).

They stay ValueErrors too, so a caller that only knows "bad input" can still catch them.
"""

from __future__ import annotations


class HarnessError(ValueError):
    """Root of every harness error; `message` says what is wrong and how to fix it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class QuestionError(HarnessError):
    """A question file that cannot be used; the message says where."""


class GoldError(HarnessError):
    """Gold SQL that does not return what its kind needs (one scalar, or key-value rows)."""


class RunFolderError(HarnessError):
    """The run folder cannot be used as asked (exists without --resume, a different run, or
    not a run folder at all)."""


class StoredResultError(HarnessError):
    """A trace's stored result cannot be read back as a typed result."""
