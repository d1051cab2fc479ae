"""The experiment table reads in an 80-column terminal or CI log, and in full when wide."""

from __future__ import annotations

import pytest
from rich.console import Console

from analyst.rules import RulesClient
from harness import experiment as exp
from harness.questions import QuestionFile, load_questions
from harness.table import COLUMNS, print_table, rows

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


def test_wide_terminal_gets_one_table(results: dict) -> None:
    """A wide terminal gets the single table with every column header."""
    text = _printed(results, 400)
    assert "…" not in text
    header = next(line for line in text.splitlines() if "configuration" in line)
    assert "coverage" in header and "balanced accuracy" in header
