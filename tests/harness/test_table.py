"""The experiment table reads in an 80-column terminal or CI log, and in full when wide."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.harness.present.table import COLUMNS, Cell, comparison_lines, print_table, scores

CONFIGS = ["baseline", "claims", "claims+repair+purpose+rendered"]


@pytest.fixture(scope="module")
def results(layer, tmp_path_factory) -> dict:
    qf = load_questions()
    pick = QuestionFile(warehouse="demo", questions=[q for q in qf.questions
                                                     if q.id in ("lookup-001", "diag-001")])
    e = exp.Experiment(pick, CONFIGS, "rules", tmp_path_factory.mktemp("t") / "run", repeats=2)
    return exp.run(e, RulesClient(), layer)


def _printed(results: dict, width: int) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    print_table(console, results, "built-in rules analyst on a long run folder path")
    return console.export_text()


def _header_lines(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[:next(i for i, line in enumerate(lines) if "━" in line)]


def test_eighty_columns_three_configurations_side_by_side(results: dict) -> None:
    """At 80 columns the three configurations stand side by side in one table (one column
    each, the scores as rows), every line fits, no cell is cut, and every figure and interval
    of every configuration is printed whole."""
    text = _printed(results, 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text
    assert text.count("━━━") and sum("╇" in line for line in text.splitlines()) == 1
    header = " ".join(_header_lines(text))
    assert all(part in header for name in CONFIGS for part in name.split("+"))
    for row in scores(results):
        line = next(i for i, line in enumerate(text.splitlines())
                    if line.startswith(row.label + " "))
        cells = text.splitlines()[line]
        for cell in row.cells:
            assert cell.value in cells, (row.label, cell.value)
            if cell.detail:
                assert cell.detail in text.splitlines()[line + 1], (row.label, cell.detail)


def test_every_score_is_one_row_in_the_configurations_order(results: dict) -> None:
    """Each score is one row (its interval on the line under it), read left to right in the
    order the run lists its configurations; a configuration without claim graphs says its
    grounded rate is not measurable, never 0 %."""
    text = _printed(results, 400)
    for label in COLUMNS[1:]:
        assert sum(line.startswith(label + " ") for line in text.splitlines()) == 1, label
    row = next(line for line in text.splitlines() if line.startswith("grounded-answer rate"))
    assert row.index("not measurable") < row.index("%")  # the baseline's column comes first
    grounded = next(r for r in scores(results) if r.label == "grounded-answer rate")
    assert grounded.cells[0] == Cell("not measurable", "no claim graphs")
    assert grounded.cells[1].value.endswith("%") and "n=" in grounded.cells[1].detail


def test_a_narrow_terminal_splits_the_configurations_into_groups(results: dict) -> None:
    """Where three configurations do not fit side by side, they are split into groups of
    columns that fit, each with the score names beside it: never one tall column per
    configuration."""
    text = _printed(results, 56)
    assert max(len(line) for line in text.splitlines()) <= 56 and "…" not in text
    tables = sum("╇" in line for line in text.splitlines())
    assert 1 < tables < len(CONFIGS) or tables == len(CONFIGS) == 1
    assert sum(line.startswith("coverage ") for line in text.splitlines()) == tables


def test_comparisons_only_between_measurable_figures(results: dict) -> None:
    """A comparison with the baseline (no claim graphs) states the right-answer difference and
    says the grounded rate is not comparable; between two graphed configurations it states
    the two grounded-answer rates the table shows and their difference in percentage points."""
    lines = comparison_lines(results)
    with_baseline = [line for line in lines if " vs baseline " in line]
    assert with_baseline and all("grounded not comparable: baseline has no claim graphs" in line
                                 for line in with_baseline)
    graphed = [line for line in lines if " vs baseline " not in line]
    shown = r"grounded (\d+\.\d)% → (\d+\.\d)% \(([+-]\d+\.\d) pp\)$"
    assert graphed and all(re.search(shown, line) for line in graphed)
    for line in graphed:
        a, b, diff = map(float, re.search(shown, line).groups())
        assert abs(b - a - diff) <= 0.1, line
    assert all(re.search(r"right answers [+-]\d+\.\d pp \[", line) for line in lines)


@pytest.mark.parametrize("project", ["demo", "examples/shop"])
def test_semantic_catalog_fits_eighty_columns(project: str, tmp_path: Path) -> None:
    """`semantic catalog` in an 80-column terminal prints every metric, label, type, grain,
    dimension and coverage whole, on lines of at most 80 characters."""
    import json
    import os
    import subprocess
    import sys

    from shop_data import shop_db

    root = Path(__file__).resolve().parents[2]
    ref = project
    if project != "demo":  # the shop's warehouse is generated: a copy of the project beside it
        ref = str(tmp_path / "shop")
        shutil.copytree(root / project, ref)
        shutil.copy(shop_db(), Path(ref) / "warehouse.duckdb")
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(root), "SHOWWORK_SOURCES": "1"}
    run = [str(Path(sys.executable).parent / "showwork"), "semantic", "catalog", "--project", ref]
    text = subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout
    catalog = json.loads(subprocess.run([*run, "--json"], capture_output=True, text=True,
                                        env=env, check=True).stdout)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text
    for name, m in catalog["metrics"].items():
        assert name in text and m["label"] in text and m["type"] in text
        assert f"{m['coverage']['start']}..{m['coverage']['end']}" in text
        assert all(d in text for d in m["dimensions"])
