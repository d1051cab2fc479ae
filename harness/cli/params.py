"""A command's parameters declared once, read by typer and by the lean `ask` entry.

typer builds `ask`'s command from `ASK` (each parameter's `typer()` is its default), and
`showwork ask …` is parsed from the same table without importing typer (`parse`, called by
`showwork.cli.main`): typer, click and the pydantic adapters typer builds for each parameter are
a fifth of a warm ask's instructions beyond its work. `parse` takes only a plain, well-formed
invocation; anything else (`--help`, `--`, an unknown option, a missing value, an extra
argument) it hands back to typer, so help, usage errors and their exit codes stay typer's own.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from showwork.harness.otel import OPTION_HELP as OTEL_HELP
from showwork.harness.project import ENV_VAR

REQUIRED: Any = ...
"""The default of a parameter that must be given (typer's and click's `...`)."""


@dataclass(frozen=True)
class Param:
    """One parameter of a command."""

    name: str
    """The command function's parameter name."""
    flags: tuple[str, ...]
    """Its option names (`("--json",)`); empty for a positional argument."""
    default: Any
    """Its value when not given (`REQUIRED` for an argument that must be given); a bool
    default makes the option a flag."""
    help: str
    """The help typer shows."""
    envvar: str | None = None
    """An environment variable that stands in for the option when it is not given."""
    metavar: str | None = None
    """The placeholder typer's help shows for the value."""

    @property
    def is_flag(self) -> bool:
        return bool(self.flags) and isinstance(self.default, bool)

    def typer(self) -> Any:
        """The typer Argument or Option this parameter declares (the function's default)."""
        import typer

        if not self.flags:
            return typer.Argument(self.default, help=self.help, envvar=self.envvar,
                                  metavar=self.metavar)
        return typer.Option(self.default, *self.flags, help=self.help, envvar=self.envvar,
                            metavar=self.metavar)


PROJECT = Param("project", ("--project",), None, envvar=ENV_VAR, metavar="DIR",
                help="Project folder (showwork.yaml) or 'demo'. Default: ./showwork.yaml if "
                     "present, else the embedded demo.")
OTEL = Param("otel", ("--otel",), False, OTEL_HELP)

ASK = (
    Param("question", (), REQUIRED, "The business question."),
    Param("model", ("--model",), "rules", "rules, noisy:rules?…, openai:MODEL, replay:PATH"),
    Param("config", ("--config",), "claims+repair",
          "Protocol switches, e.g. claims+repair+purpose."),
    Param("as_json", ("--json",), False, "Print the trace as JSON."),
    PROJECT,
    OTEL,
)
"""`showwork ask`'s parameters, in the order its help lists them."""


def by_name(params: Sequence[Param]) -> dict[str, Param]:
    return {p.name: p for p in params}


def parse(params: Sequence[Param], args: Sequence[str],
          environ: Mapping[str, str] = os.environ) -> dict[str, Any] | None:
    """The values of a plain invocation of a command with `params`, as typer would pass them;
    None where typer must parse it (help, an error, anything unusual).

    >>> parse(ASK, ["Why?", "--json", "--model=noisy:rules"], {})["model"]
    'noisy:rules'
    >>> parse(ASK, ["Why?", "--help"], {}) is None
    True
    """
    options = {flag: p for p in params for flag in p.flags}
    free = [p for p in params if not p.flags]
    given: dict[str, Any] = {}
    words = list(args)
    while words:
        word = words.pop(0)
        if word.startswith("-") and word != "-":
            name, eq, inline = word.partition("=")
            param = options.get(name)
            if param is None or (eq and param.is_flag):
                return None
            if param.is_flag:
                given[param.name] = True
            elif eq:
                given[param.name] = inline
            elif words and not words[0].startswith("-"):
                given[param.name] = words.pop(0)
            else:
                return None
        elif free:
            given[free.pop(0).name] = word
        else:
            return None
    return _with_defaults(params, given, environ)


def _with_defaults(params: Sequence[Param], given: dict[str, Any],
                   environ: Mapping[str, str]) -> dict[str, Any] | None:
    values = {}
    for p in params:
        value = given.get(p.name, environ.get(p.envvar) if p.envvar else None)
        if p.name not in given and not value:  # click reads an empty variable as unset
            value = p.default
        if value is REQUIRED:
            return None
        values[p.name] = value
    return values
