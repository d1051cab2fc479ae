"""`showwork bench startup`: the generated project opens and answers, and the report states
each figure as a ratio to a bare interpreter with the issue's targets checked as stated."""

from __future__ import annotations

from pathlib import Path

import pytest

from showwork.benchmarks import startup
from showwork.harness.project import Project


def test_generated_project_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated project validates, and its members and coverage come from the data."""
    monkeypatch.setenv("SHOWWORK_HOME", str(tmp_path / "home"))
    folder = startup.generate(tmp_path, 5000)
    with Project.open(folder) as project:
        catalog = project.catalog
    assert set(catalog["metrics"]) >= {"revenue", "order_count"}
    assert catalog["as_of"] == "2024-12-31"  # inferred: the end of the data's coverage
    assert catalog["dimensions"]["customer__region"]["members"] == ["east", "north", "south", "west"]
    assert startup.generate(tmp_path, 5000) == folder  # built once per size


def test_report_ratios_and_targets() -> None:
    """Medians become ratios to `python -c pass`; each target is checked as the issue states."""
    samples = {"python": [0.02, 0.03, 0.02], "help": [0.2, 0.25, 0.3], "audit": [0.5] * 3,
               "ask_demo_cold": [2.0] * 3, "startup_demo_cold": [1.5] * 3,
               "ask_demo_warm": [1.0] * 3, "startup_demo_warm": [0.2] * 3,
               "ask_generated_cold": [3.0] * 3, "startup_generated_cold": [2.5] * 3,
               "ask_generated_warm": [1.2] * 3, "startup_generated_warm": [0.4] * 3,
               "init": [9.0] * 3, "query": [0.7] * 3, "query_by_hand": [0.5] * 3}
    report = startup._report(samples, 1000, 3)
    assert report["figures"]["help"]["seconds"] == 0.25
    assert report["figures"]["help"]["ratio_to_python"] == pytest.approx(12.5)
    assert report["warm_growth"] == pytest.approx(2.0)
    assert report["query_vs_by_hand"] == pytest.approx(1.4)
    assert report["met"] == {"help_s": True, "warm_startup_s": False, "warm_growth": False,
                             "init_s": True, "query_vs_by_hand": False}
