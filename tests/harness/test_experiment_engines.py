"""One question file scores the same on every warehouse engine: the shop's data as a DuckDB file,
as a folder of CSV files and as Parquet on a local Spark (local[2]), each a project of its own
with the shop's models and governance; the rules analyst's experiment on each gives the same
attempts (status, value, driver, correct, grounded, decision) and the same scores. Gold SQL,
written in DuckDB's dialect, runs through each engine (transpiled for Spark). A value may differ
in its last bits (CSV reads DECIMAL columns as DOUBLE; Spark sums in another order), so values
are equal to 1e-9 relative; everything else is equal exactly."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from shop_data import export_tables, shop_db
from spark_env import skip_without_spark

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.harness.project import Project

skip_without_spark()

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))
PICK = ["lookup-001", "lookup-003", "lookup-005", "compare-002", "breakdown-001", "ranking-001",
        "series-001", "series-002", "diag-001", "refuse-006", "refuse-009", "refuse-013",
        "todate-001"]
"""Lookups (a joined member, a second fact), a comparison, a breakdown, a ranking, two series,
a diagnostic, refusals (unsupported dimension, unknown member, future window) and a period the
data is still inside (answered to date)."""
SAME = ("question_id", "config", "status", "driver", "correct", "grounded", "decision",
        "claims", "broken_citations", "findings")
"""What each attempt must agree on exactly across engines (its value to REL; not its latency)."""
REL = 1e-9




def _project(root: Path, warehouse: dict[str, Any]) -> Project:
    """The shop's models and governance with `warehouse:` as given."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(SHOP / "models", root / "models")
    shutil.copy(SHOP / "governance.yaml", root / "governance.yaml")
    settings = yaml.safe_load((SHOP / "showwork.yaml").read_text(encoding="utf-8"))
    settings.update(warehouse=warehouse, questions=None)
    (root / "showwork.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return Project.load(root / "showwork.yaml")


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Project]:
    """The same shop data behind each engine."""
    root = tmp_path_factory.mktemp("engines")
    db = shop_db()
    shutil.copy(db, root / "shop.duckdb")
    export_tables(db, root / "files" / "data", "csv")
    tables = export_tables(db, root / "spark" / "data", "parquet")
    return {
        "duckdb": _project(root / "duckdb", {"duckdb": str(root / "shop.duckdb")}),
        "files": _project(root / "files", {"files": "data"}),
        "spark": _project(root / "spark", {"spark": {
            "master": "local[2]", "tables": {t: f"data/{t}.parquet" for t in tables}}}),
    }


def _questions() -> QuestionFile:
    qf = load_questions(SHOP / "questions.yaml")
    return qf.model_copy(update={"questions": [q for q in qf.questions if q.id in PICK]})


@pytest.fixture(scope="module")
def results(projects: dict[str, Project], tmp_path_factory: pytest.TempPathFactory
            ) -> dict[str, dict[str, Any]]:
    """The rules analyst's experiment (claims, one repeat) on each engine."""
    out = {}
    questions = _questions()
    for name, project in projects.items():
        folder = tmp_path_factory.mktemp(f"run-{name}")
        experiment = exp.Experiment(questions, ["claims"], "rules", folder, concurrency=2,
                                    project=project.stamp)
        layer = project.layer()
        try:
            out[name] = exp.run(experiment, RulesClient(), layer)
        finally:
            layer.close()
    return out


def _attempts(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["question_id"]: {k: a[k] for k in SAME} for a in results["attempts"]}


def _same_value(got: Any, want: Any) -> bool:
    if isinstance(want, float) and isinstance(got, float):
        return math.isclose(got, want, rel_tol=REL, abs_tol=1e-12)
    return bool(got == want)


def test_the_subset_is_what_it_says() -> None:
    """Every picked question is in the shop's question file, answerable and refusals both."""
    picked = _questions().questions
    assert sorted(q.id for q in picked) == sorted(PICK)
    assert {q.answerable for q in picked} == {True, False}


@pytest.mark.parametrize("engine", ["files", "spark"])
def test_attempts_equal_duckdb(results: dict[str, dict[str, Any]], engine: str) -> None:
    """Each question's attempt on files and on Spark equals its attempt on DuckDB."""
    want, got = _attempts(results["duckdb"]), _attempts(results[engine])
    values = {name: {a["question_id"]: a["value"] for a in r["attempts"]}
              for name, r in results.items()}
    assert got.keys() == want.keys() == set(PICK)
    for qid in PICK:
        assert got[qid] == want[qid], qid
        assert _same_value(values[engine][qid], values["duckdb"][qid]), qid


@pytest.mark.parametrize("engine", ["files", "spark"])
def test_scores_equal_duckdb(results: dict[str, dict[str, Any]], engine: str) -> None:
    """The scores (coverage, silent error, balanced accuracy, grounded rate, …) are identical."""
    def scores(r: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in r["configs"]["claims"].items() if "latency" not in k}

    assert scores(results[engine]) == scores(results["duckdb"])


def test_the_run_is_right_on_duckdb(results: dict[str, dict[str, Any]]) -> None:
    """The shared result is a correct one: every answerable question right, every refusal made."""
    claims = results["duckdb"]["configs"]["claims"]
    assert claims["coverage"]["rate"] == 1.0 and claims["balanced_accuracy"] == 1.0
    assert claims["grounded_answer_rate"]["rate"] == 1.0
    assert all(a["correct"] for a in results["duckdb"]["attempts"] if a["status"] == "answered")
