"""Errors of the analyst loop and its model clients."""

from __future__ import annotations


class AnalystError(Exception):
    """Root of analyst errors."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ModelSpecError(AnalystError):
    """A --model value that names no known client."""


class ModelCallError(AnalystError):
    """The model server failed in a way retries did not fix; `reason` is the stop reason."""

    def __init__(self, message: str, reason: str = "model_error") -> None:
        super().__init__(message)
        self.reason = reason


class ReplayExhausted(ModelCallError):
    """A replay client was asked for more turns than the trace recorded."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "replay_exhausted")
