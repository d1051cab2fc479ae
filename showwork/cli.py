"""The `showwork` entry point: the harness's commands plus the benchmarks' `bench` group.

It lives above harness and benchmarks so neither imports the other's commands. Every command
loads on first use (harness/cli/lazy.py): `showwork --help` imports none of them. A plain
`showwork ask …` runs without typer (harness/cli/params.py); everything else goes through it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from showwork.harness.cli.app import build_app, run, run_lean
from showwork.harness.cli.lazy import Lazy

if TYPE_CHECKING:  # typer loads in build_app, after main() has put the code cache in place
    import typer

BENCH = Lazy("bench", "showwork.benchmarks.cli", "bench_app")


def app() -> typer.Typer:
    return build_app(extra=(BENCH,))


def main() -> None:
    from showwork.harness.cli import codecache

    codecache.install(" ".join(sys.argv[1:2]))  # before the command's imports run
    if not run_lean(sys.argv[1:]):
        run(app())
