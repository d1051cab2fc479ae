"""The `showwork` entry point: the harness's commands plus the benchmarks' `bench` group.

It lives above harness and benchmarks so neither imports the other's commands.
"""

from __future__ import annotations

import typer

from benchmarks.cli import bench_app
from harness.cli import build_app, run


def app() -> typer.Typer:
    built = build_app()
    built.add_typer(bench_app, name="bench")
    return built


def main() -> None:
    run(app())
