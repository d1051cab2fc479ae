"""Errors become one clear message on stderr and an exit code, here and nowhere else.

Exit codes, one per class of failure (docs: README, "Exit codes"):

    0   success
    1   a check ran and failed: `audit --verify` found a difference, a trace is torn or damaged
    2   usage: a bad option or argument, an unknown switch or model, a bad question file or run
        folder (fix the command line or the file it names)
    3   bad project: showwork.yaml, the dbt models, governance or the warehouse's files cannot
        be read or do not validate (fix the project)
    4   blocked query: the semantic layer refused or could not run the query (unknown metric,
        dimension or member, a window outside coverage, a timeout)
    5   the model failed: the model server could not be reached or answered invalidly
    70  internal error: a bug in showwork (the traceback follows; please report it)
"""

from __future__ import annotations

from showwork.analyst.errors import AnalystError, ModelCallError
from showwork.harness.errors import HarnessError, StoredResultError
from showwork.protocol.errors import ProtocolError
from showwork.semantic_layer.errors import (
    BlockedQuery,
    ExecutionError,
    ModelError,
    SemanticError,
    WarehouseError,
)
from showwork.traces.errors import DamagedTrace, TornLine, TraceError

ROOTS = (SemanticError, AnalystError, ProtocolError, HarnessError, TraceError)
"""The root error of each package; anything else is a bug (INTERNAL, with its traceback)."""

OK, CHECK_FAILED, USAGE, BAD_PROJECT, BLOCKED, MODEL_FAILED, INTERNAL = 0, 1, 2, 3, 4, 5, 70
CODES: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], int], ...] = (
    ((TornLine, DamagedTrace, StoredResultError), CHECK_FAILED),
    ((ModelError, WarehouseError), BAD_PROJECT),
    ((BlockedQuery, ExecutionError), BLOCKED),
    (ModelCallError, MODEL_FAILED),
    (ROOTS, USAGE),
)
"""The first class an error is an instance of gives its exit code."""


NAMED: tuple[tuple[frozenset[str], int], ...] = (
    (frozenset({"showwork.harness.project.ProjectError"}), BAD_PROJECT),
)
"""Errors known by name, so that mapping them imports nothing heavy (harness.project loads the
semantic model's machinery; `showwork audit` must not)."""


def exit_code(exc: BaseException) -> int:
    names = {f"{c.__module__}.{c.__qualname__}" for c in type(exc).__mro__}
    if isinstance(exc, CODES[0][0]):
        return CHECK_FAILED
    named = next((code for known, code in NAMED if names & known), None)
    return named if named is not None else next(
        (code for kinds, code in CODES if isinstance(exc, kinds)), INTERNAL)


def describe(exc: BaseException) -> list[str]:
    """The lines to print for one error: a label, the message, and each listed problem."""
    if isinstance(exc, ModelError):
        return [f"✗ {p}" for p in exc.problems]
    label = {BLOCKED: "blocked", BAD_PROJECT: "bad project", MODEL_FAILED: "model failed",
             CHECK_FAILED: "check failed"}.get(exit_code(exc), "error")
    return [f"{label}: {getattr(exc, 'message', None) or exc}"]
