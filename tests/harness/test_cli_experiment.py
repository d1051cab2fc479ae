"""`showwork experiment`, `findings`, `report`, `ask` and `audit` through the real entry point."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from test_cli_semantic import showwork

from showwork.harness.experiments.questions import load_questions

BUNDLED = len(load_questions().questions)
"""Questions in the bundled demo file (every attempt of a full run)."""


@pytest.fixture(scope="module")
def home(tmp_path_factory, demo_db: Path) -> Path:
    folder = tmp_path_factory.mktemp("home")
    shutil.copy(demo_db, folder / "demo.duckdb")
    return folder


@pytest.fixture(scope="module")
def run_dir(home: Path) -> Path:
    out = home / "run"
    result = showwork("experiment", "--configs", "claims,claims+repair", "--out", str(out),
                      "--model", "noisy:rules?fault_rate=0.3&seed=5", home=home)
    assert result.returncode == 0, result.stderr
    assert "SIMULATED" in result.stdout and "grounded-answer rate" in result.stdout
    return out


def test_run_folder_contents(run_dir: Path) -> None:
    """The run folder holds traces.jsonl, results.json and report.html."""
    assert {p.name for p in run_dir.iterdir()} >= {"traces.jsonl", "results.json", "report.html",
                                                   "run.json"}
    report = (run_dir / "report.html").read_text()
    assert "A tick means the support link resolves; it does not mean the conclusion is true." \
        in report
    assert "SIMULATED" in report and "<script" not in report


def test_findings_backlog(run_dir: Path, home: Path) -> None:
    """findings groups by kind and metric with counts and a suggested fix; --json too."""
    text = showwork("findings", str(run_dir), home=home).stdout
    assert "text said" in text and "fix:" in text
    groups = json.loads(showwork("findings", str(run_dir), "--json", home=home).stdout)
    kinds = {g["kind"] for g in groups}
    assert "mislabelled_metric" in kinds
    assert all(g["answers"] >= 1 and g["suggestion"] for g in groups)


def test_audit_verify_matches_stored(run_dir: Path, home: Path) -> None:
    """Re-auditing a run with no model and no database matches every stored audit."""
    result = showwork("audit", str(run_dir), "--verify", "--json", home=home)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["mismatches"] == 0 and len(data["attempts"]) == 2 * BUNDLED


def test_ask_prints_tick_note(home: Path) -> None:
    """ask prints claims, their status, the decision and the tick sentence; the headline as a
    person reads it (a change in percent) and the driver by its label; a refusal's stop is
    'refused' and its decision is shown as refused, never as served."""
    result = showwork("ask", "Why did weekly value moments drop in the week of 2026-03-09?",
                      home=home)
    assert result.returncode == 0, result.stderr
    assert "driver days per user" in result.stdout and "Decision: ✓ served ·" in result.stdout
    assert re.search(r"value -\d+\.\d ?%", result.stdout) and "stop: answered" in result.stdout
    refused = showwork("ask", "What was our churn rate in May 2026?", home=home)
    assert "stop: refused" in refused.stdout and "stop: answered" not in refused.stdout
    assert "Decision: ⊘ refused ·" in refused.stdout and "served" not in refused.stdout.replace(
        "served round", "")
    assert "A tick means the support link resolves" in result.stdout
    bad = showwork("ask", "x", "--config", "claims+nonsense", home=home)
    assert bad.returncode == 2 and "Unknown switch 'nonsense'" in bad.stderr
    bad = showwork("ask", "x", "--model", "gpt", home=home)
    assert bad.returncode == 2 and "Unknown model 'gpt'" in bad.stderr
