"""The experiment table reads in an 80-column terminal or CI log, and in full when wide."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rich.console import Console

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.harness.present.table import COLUMNS, print_table, rows

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


def test_eighty_columns_cut_nothing(results: dict) -> None:
    """At 80 columns every line fits, no cell is cut to an ellipsis, and every score of every
    configuration is printed whole."""
    text = _printed(results, 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text
    for row in rows(results):
        for label, value in zip(COLUMNS, row, strict=True):
            assert value in text, (label, value)
    for label in COLUMNS[1:]:
        assert label in text


def test_wide_terminal_puts_configurations_side_by_side(results: dict) -> None:
    """A wide terminal gets one table whose columns are the configurations and whose rows are
    the scores, every score on its own line."""
    text = _printed(results, 400)
    assert "…" not in text
    header = next(line for line in text.splitlines() if "configuration" in line)
    assert all(name in header for name in CONFIGS)
    for label in COLUMNS[1:]:
        assert sum(label in line for line in text.splitlines()) == 1, label


def test_a_narrow_terminal_gets_one_column_of_scores_per_configuration(results: dict) -> None:
    """Where the configurations do not fit side by side, each gets its own block: its name,
    then one score per line."""
    text = _printed(results, 80)
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() in CONFIGS]
    assert [lines[i].strip() for i in starts] == CONFIGS
    block = lines[starts[0] + 1:starts[1]]
    assert [line.split()[0] for line in block if line.strip()] == [c.split()[0] for c in COLUMNS[1:]]


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
