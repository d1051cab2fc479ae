"""Errors of the claim protocol."""

from __future__ import annotations


class ProtocolError(Exception):
    """Root of every protocol error; `message` is what the model is told."""

    code = "protocol_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class AnswerError(ProtocolError):
    """The answer is not valid JSON of the answer shape."""

    code = "malformed_answer"


class SwitchError(ProtocolError):
    """An unknown or inconsistent protocol switch."""

    code = "unknown_switch"
