"""Errors become one clear message on stderr and an exit code, here and nowhere else.

Exit codes: 1 means a check ran and failed (a model with problems, a trace that does not verify);
2 means the command could not do what was asked (bad input, a blocked query, a model error).
"""

from __future__ import annotations

from analyst.errors import AnalystError
from harness.errors import HarnessError
from protocol.errors import ProtocolError
from semantic_layer.errors import BlockedQuery, ModelError, SemanticError
from traces.errors import DamagedTrace, TornLine, TraceError

ROOTS = (SemanticError, AnalystError, ProtocolError, HarnessError, TraceError)
"""The root error of each package; anything else is a bug and keeps its traceback."""


def exit_code(exc: BaseException) -> int:
    return 1 if isinstance(exc, ModelError | TornLine | DamagedTrace) else 2


def describe(exc: BaseException) -> list[str]:
    """The lines to print for one error: a label, the message, and each listed problem."""
    if isinstance(exc, ModelError):
        return [f"✗ {p}" for p in exc.problems]
    label = "blocked" if isinstance(exc, BlockedQuery) else "error"
    return [f"{label}: {getattr(exc, 'message', None) or exc}"]
