"""`Project`: the governed layer and warehouse from Python: catalog, governed calls, questions."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from showwork._results import ResultInput, public
from showwork.analyst.registry import make_client
from showwork.analyst.tools import Toolbox
from showwork.errors import BlockedCall, ProjectError
from showwork.harness.errors import HarnessError
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.home import home
from showwork.harness.project import Project as Runtime
from showwork.protocol.reading.members import search_members
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.errors import SemanticError
from showwork.traces import CallRecord, TraceRecord, append


@dataclass(frozen=True)
class GovernedResult:
    """A governed call's typed result, under the handle the project gave it."""

    handle: str
    """r1, r2, … numbered per Project object, as in one analyst session."""
    tool: str
    """query or compare"""
    result: dict[str, Any]
    """The typed result as traces store it: kind, metrics, keys, rows, coverage, sql, …"""

    def as_input(self) -> ResultInput:
        """The result in `audit_answer`'s public shape (rows as plain dicts)."""
        return public(self.result)


class Project:
    """A semantic layer on its warehouse. Governed calls get handles; blocked ones raise."""

    def __init__(self, layer: SemanticLayer, name: str = "demo") -> None:
        self._layer = layer
        self._toolbox = Toolbox(layer, refuse_empty=False)  # answers as `semantic query` does
        self._catalog: dict[str, Any] | None = None
        self.name = name
        """The project's name (showwork.yaml `name:`)."""

    @classmethod
    def demo(cls) -> Project:
        """The embedded demo: its model on the warehouse at $SHOWWORK_HOME (built if missing)."""
        return cls.open("demo")

    @classmethod
    def open(cls, path: str | Path) -> Project:
        """A project folder (or its showwork.yaml), or "demo"; ProjectError saying what is wrong
        (a missing or malformed showwork.yaml, models, warehouse, a table the model reads)."""
        try:
            runtime = Runtime.open(path)
            return cls(runtime.layer(), runtime.name)
        except (HarnessError, SemanticError) as exc:
            raise ProjectError(getattr(exc, "message", None) or str(exc)) from exc

    @property
    def catalog(self) -> dict[str, Any]:
        """What can be asked, as a plain dict: metrics, dimensions, grains, the metric tree."""
        if self._catalog is None:
            self._catalog = self._layer.catalog()
        return self._catalog

    def members(self, dimension: str, search: str = "", limit: int = 20) -> dict[str, Any]:
        """Search a dimension's members as the warehouse holds them (the question reader's
        member index; the MCP tool `dimension_values` answers the same): case-insensitive,
        every word of `search` in the value, else fuzzy. Returns `matches`, `more` (matches
        left out by `limit`), `closest` (on a miss), `complete` (False when the dimension has
        more values than the index holds), `count` and `pattern`. ProjectError for an unknown
        dimension, naming the dimensions there are."""
        try:
            return search_members(self.catalog, dimension, search, limit)
        except KeyError as exc:
            raise ProjectError(str(exc.args[0])) from None

    def query(self, **args: Any) -> GovernedResult:
        """Measure metrics over one window (the `query` tool's arguments); BlockedCall if refused."""
        return self._call("query", args)

    def compare(self, **args: Any) -> GovernedResult:
        """Compare metrics between two windows (the `compare` tool's arguments)."""
        return self._call("compare", args)

    @property
    def results(self) -> dict[str, ResultInput]:
        """Every result so far by handle, in `audit_answer`'s shape: pass it as `results`."""
        return {f"r{c.handle}": public(c.result) for c in self._toolbox.calls
                if c.handle is not None and c.result is not None}

    def ask(self, question: str, model: str = "rules",
            config: str = "claims+repair") -> TraceRecord:
        """Run the attempt `showwork ask` runs; append its trace to $SHOWWORK_HOME/asks."""
        trace = run_attempt(Question("ask", question), make_client(model), self._layer,
                            Protocol.parse(config))
        return append(home() / "asks" / "traces.jsonl", trace)

    def close(self) -> None:
        self._layer.close()

    def __enter__(self) -> Project:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _call(self, tool: str, args: dict[str, Any]) -> GovernedResult:
        _view, record = self._toolbox.dispatch(tool, json.dumps(args, default=_iso))
        if record.handle is not None and record.result is not None:
            return GovernedResult(f"r{record.handle}", tool, record.result)
        earlier = self._same_call(record)
        if earlier is not None:
            return earlier
        error = record.error or {}
        raise BlockedCall(error.get("code", "blocked"), error.get("message", "blocked"))

    def _same_call(self, record: CallRecord) -> GovernedResult | None:
        """A repeated call gets the earlier call's result (the loop tells the model its handle)."""
        for c in self._toolbox.calls[:-1]:
            if (c.tool, c.arguments) == (record.tool, record.arguments) and c.handle:
                return GovernedResult(f"r{c.handle}", c.tool, c.result or {})
        return None


def ask(question: str, model: str = "rules", config: str = "claims+repair") -> TraceRecord:
    """Ask the demo project one question (see Project.ask)."""
    with Project.demo() as project:
        return project.ask(question, model, config)


def _iso(value: Any) -> str:
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON: use strings, numbers, lists, dicts")
