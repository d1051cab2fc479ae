"""The `showwork` entry point: the harness's commands plus the benchmarks' `bench` group.

It lives above harness and benchmarks so neither imports the other's commands. Every command
loads on first use (harness/cli/lazy.py): `showwork --help` imports none of them.
"""

from __future__ import annotations

import typer

from harness.cli.app import build_app, run
from harness.cli.lazy import Lazy

BENCH = Lazy("bench", "benchmarks.cli", "bench_app")


def app() -> typer.Typer:
    return build_app(extra=(BENCH,))


def main() -> None:
    run(app())
