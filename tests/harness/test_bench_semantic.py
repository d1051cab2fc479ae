"""`showwork bench semantic` measures what it says on the demo or any project (`--project`): the
cases of a project come from its question file, an engine that cannot run is reported with its
reason, and the comparison with MetricFlow's compile is one more section of the same run. No
timing is asserted: speed is the benchmark's to report, not the tests'."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from shop_data import shop_db
from typer.testing import CliRunner

from showwork.benchmarks import compile_vs_mf
from showwork.benchmarks import semantic as bench
from showwork.cli import app
from showwork.semantic_layer import warehouse as demo_warehouse

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))
PICK = ["lookup-001", "breakdown-001", "series-002", "compare-002", "diag-001", "refuse-006"]
MEASURED = ["lookup-001", "compare-002", "breakdown-001", "series-002"]
"""The picked questions with gold SQL, in the file's order (a diagnostic and a refusal have none)."""


def _project(root: Path, warehouse: dict | None = None) -> Path:
    """The shop's models and governance, a few of its questions, and `warehouse` (default: the
    shop's DuckDB file)."""
    root.mkdir()
    shutil.copytree(SHOP / "models", root / "models")
    shutil.copy(SHOP / "governance.yaml", root / "governance.yaml")
    questions = yaml.safe_load((SHOP / "questions.yaml").read_text(encoding="utf-8"))
    questions["questions"] = [q for q in questions["questions"] if q["id"] in PICK]
    (root / "questions.yaml").write_text(yaml.safe_dump(questions), encoding="utf-8")
    settings = yaml.safe_load((SHOP / "showwork.yaml").read_text(encoding="utf-8"))
    settings["name"] = "myshop"
    if warehouse is None:
        (root / "warehouse.duckdb").symlink_to(shop_db())
    else:
        settings["warehouse"] = warehouse
    (root / "showwork.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return root


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("SHOWWORK_HOME", str(folder))
    monkeypatch.delenv("SHOWWORK_PROJECT", raising=False)
    monkeypatch.setenv("COLUMNS", "200")  # rich wraps printed lines at the terminal's width
    return folder


def _bench(*args: str) -> dict:
    result = CliRunner().invoke(app(), ["bench", "semantic", "--repeats", "1", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


class TestProjectOption:
    def test_a_project_is_measured_on_its_own_questions(self, home: Path, tmp_path: Path) -> None:
        """--project DIR times each answerable question with gold SQL against the rules
        analyst's governed call for it, on the project's own DuckDB file."""
        report = _bench("--project", str(_project(tmp_path / "shop")), "--engine", "duckdb",
                        "--no-metricflow")
        assert report["project"] == "myshop" and report["scale"] is None
        duck = report["engines"]["duckdb"]
        assert [c["case"] for c in duck["cases"]] == MEASURED
        assert all(c["governed_s"] > 0 and c["hand_sql_s"] > 0 for c in duck["cases"])
        # past --repeats 1 a case runs until each side has run MIN_TIMED_S: one run is enough
        # only when that run took as long (on any machine)
        assert all(c["runs"] > 1 or min(c["governed_s"], c["hand_sql_s"]) >= bench.MIN_TIMED_S
                   for c in duck["cases"])
        assert duck["skipped_cases"] == [] and report["compile_p50_ms"] > 0
        assert "metricflow" not in report

    def test_the_demo_is_the_default(self, home: Path, demo_db: Path) -> None:
        """Without --project the demo's written cases run, on its warehouse at the asked scale."""
        # a copy: the session's demo layer holds demo_db open, and DuckDB refuses a second
        # connection to one file with another configuration in the same process
        shutil.copy(demo_db, home / f"bench-v{demo_warehouse.GENERATOR_VERSION}-scale1.duckdb")
        report = _bench("--scale", "1", "--engine", "duckdb", "--no-metricflow")
        assert report["project"] == "demo" and report["scale"] == 1
        assert [c["case"] for c in report["engines"]["duckdb"]["cases"]] == [
            name for name, *_ in bench.DEMO]

    def test_duckdb_on_a_spark_project_is_reported_not_fatal(self, home: Path,
                                                             tmp_path: Path) -> None:
        """An engine the project's warehouse cannot be measured on is said, with the reason."""
        root = _project(tmp_path / "spark", {"spark": {"master": "local[2]", "tables": {}}})
        report = bench.run(home, repeats=1, engines=("duckdb",), project=root,
                           metricflow=False)
        assert "warehouse is Spark" in report["engines"]["duckdb"]["skipped"]
        assert report["cases"] == 0 and report["compile_p50_ms"] is None

    def test_a_project_without_questions_is_an_error(self, home: Path, tmp_path: Path) -> None:
        """A project named without a question file has no cases; the CLI says so (exit 2)."""
        root = _project(tmp_path / "shop")
        settings = yaml.safe_load((root / "showwork.yaml").read_text(encoding="utf-8"))
        del settings["questions"]
        (root / "showwork.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
        result = CliRunner().invoke(app(), ["bench", "semantic", "--project", str(root),
                                            "--engine", "duckdb", "--no-metricflow"])
        assert result.exit_code != 0
        assert "no question file" in str(result.exception)

    def test_an_unknown_engine_is_refused(self, home: Path) -> None:
        """--engine names duckdb or spark."""
        result = CliRunner().invoke(app(), ["bench", "semantic", "--engine", "oracle"])
        assert result.exit_code == 2 and "oracle" in result.output


def _report(metricflow: dict) -> dict:
    """A measured report as bench.run returns it, with `metricflow` as its last section."""
    case = {"case": "lookup-001", "governed_s": 0.012, "hand_sql_s": 0.010, "ratio": 1.2,
            "runs": 42}
    return {"project": "myshop", "scale": None, "repeats": 1, "cases": 1,
            "compile_p50_ms": 1.5, "compile_p90_ms": 2.0,
            "engines": {"duckdb": {"cases": [case], "median_ratio": 1.2, "max_ratio": 1.2,
                                   "target_ratio": 1.2, "skipped_cases": []},
                        "spark": {"skipped": "no Java"}},
            "metricflow": metricflow}


class TestMetricFlowSection:
    def test_unavailable_metricflow_is_said(self, home: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
        """Without conformance/.venv the comparison measures nothing and the output says why,
        after the engines' tables."""
        monkeypatch.setattr(compile_vs_mf, "MF_PYTHON", tmp_path / "no-python")
        measured = compile_vs_mf.run()
        assert measured == {"available": False, "reason": "MetricFlow is not installed (run "
                                                           "`make conformance` once)"}
        monkeypatch.setattr(bench, "run", lambda *a, **k: _report(measured))
        result = CliRunner().invoke(app(), ["bench", "semantic", "--project", "demo"])
        assert result.exit_code == 0, result.output
        out = result.stdout
        assert "governed / hand-written SQL on duckdb" in out and "lookup-001" in out
        assert "spark: not measured: no Java" in out
        assert out.index("lookup-001") < out.index("compile vs MetricFlow: not measured: "
                                                    "MetricFlow is not installed")

    def test_the_comparison_prints_every_query(self, home: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
        """The MetricFlow comparison prints one row per query and its median and max ratio;
        `--no-metricflow` asks the run to leave it out."""
        measured = {"available": True, "repeats": 3, "target_ratio": 0.5, "median_ratio": 0.02,
                    "max_ratio": 0.04, "cases": [
                        {"case": "sum_total", "ours_ms": 1.0, "metricflow_ms": 50.0, "ratio": 0.02},
                        {"case": "sum_by_month", "ours_ms": 2.0, "metricflow_ms": 50.0,
                         "ratio": 0.04}]}
        asked: list[bool] = []

        def fake_run(*_a: object, metricflow: bool = True, **_k: object) -> dict:
            asked.append(metricflow)
            return _report(measured)

        monkeypatch.setattr(bench, "run", fake_run)
        result = CliRunner().invoke(app(), ["bench", "semantic", "--project", "demo"])
        assert result.exit_code == 0, result.output
        assert "sum_total" in result.stdout and "sum_by_month" in result.stdout
        assert "median ratio 0.020, max 0.040 (target ≤ 0.5)" in result.stdout
        CliRunner().invoke(app(), ["bench", "semantic", "--no-metricflow"])
        assert asked == [True, False]


class TestSideBySide:
    def test_each_case_is_timed_on_both_sides_back_to_back(self) -> None:
        """Our compile and MetricFlow's of one case run one right after the other, the side that
        goes first alternating; a case either side refuses is left out, and the ratio is of the
        two medians."""
        from showwork.semantic_layer import SemanticError, SemanticLayer, load_model

        calls: list[str] = []
        layer = SemanticLayer(load_model(ROOT / "examples" / "shop" / "models"))

        class Recorder:
            model = layer.model

            def compile(self, kind: str, args: dict, refuse_empty: bool = True) -> object:
                calls.append("ours")
                if args["metrics"] == ["refused"]:
                    raise SemanticError("refused here")
                return layer.compile(kind, args)

        class FakeMetricFlow:
            def seconds(self, case: str, repeats: int) -> list[float] | None:
                calls.append("mf")
                return None if case == "mf-refuses" else [0.050] * repeats

        ok = {"metrics": ["revenue"], "group_by": []}
        cases = [("a", Recorder(), ok, "a"), ("b", Recorder(), ok, "b"),
                 ("mf-refuses", Recorder(), ok, "c"),
                 ("ours-refuses", Recorder(), {"metrics": ["refused"], "group_by": []}, "d")]
        out = compile_vs_mf._side_by_side(FakeMetricFlow(), cases, repeats=2)  # type: ignore[arg-type]
        assert [c["case"] for c in out] == ["a", "b"]
        # a warm compile then 2 timed ones per case on our side
        assert calls == ["mf", *["ours"] * 3, *["ours"] * 3, "mf", "mf", *["ours"] * 3,
                         "ours", "mf"]
        for c in out:
            assert c["metricflow_ms"] == pytest.approx(50.0)
            assert c["ratio"] == pytest.approx(c["ours_ms"] / c["metricflow_ms"])

    def test_the_worst_cases_print_with_their_shape_and_the_load(
            self, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        worst = [{"case": "w3.q7", "shape": "filtered_0 (simple); by year; per fact__big",
                  "ours_ms": 2.0, "metricflow_ms": 8.0, "ratio": 0.25}]
        part = {"cases": 189, "max_ratio": 0.25, "p90_ratio": 0.11, "median_ratio": 0.015,
                "worst": worst}
        measured = {"available": True, "repeats": 9, "target_ratio": 0.5, "median_ratio": 0.015,
                    "max_ratio": 0.25, "cases": [], "generated": part, "generated_cases": 189,
                    "load_average": {"before": [1.5, 1.2, 1.0], "after": [2.0, 1.4, 1.1]}}
        monkeypatch.setattr(bench, "run", lambda *a, **k: _report(measured))
        result = CliRunner().invoke(app(), ["bench", "semantic", "--project", "demo"])
        assert result.exit_code == 0, result.output
        out = " ".join(result.stdout.split())
        assert "over 189 generated cases: max 0.250, p90 0.110, median 0.015" in out
        assert "0.250 w3.q7: 2.00 ms vs 8.00 ms — filtered_0 (simple); by year; per fact__big" in out
        assert "load average before / after: 1.5, 1.2, 1.0 / 2.0, 1.4, 1.1" in out


def test_each_generated_case_is_named_by_the_features_it_uses(tmp_path: Path) -> None:
    """compile_vs_mf's per-feature ratios read each generated case's features from its model
    and filter: a conversion metric spined and filled, a simple spined metric on the legacy
    spine, a range filter on a categorical dimension and one on a time dimension at a grain."""
    import random
    import sys

    sys.path.insert(0, str(ROOT))
    from conformance import differential as gen
    from showwork.semantic_layer import load_model

    world = gen.generate_world(random.Random(20261201), 0)
    (tmp_path / "semantic.yml").write_text(yaml.safe_dump(
        {"semantic_models": world.semantic_models, "metrics": world.metrics}))
    model = load_model(tmp_path)
    spined = next(m for m, k in world.kinds.items() if k == "conversion_spine_fill")
    features = compile_vs_mf._features(
        model, {"metrics": [spined], "grain": "month", "group_by": [],
                "where": [{"dimension": "fact__channel", "op": "ge", "values": ["m"]},
                          {"dimension": "fact__ts__month", "op": "lt", "values": ["2024-06-01"]}]},
        "legacy")
    params = next(m for m in world.metrics if m["name"] == spined)["type_params"][
        "conversion_type_params"]
    filled = any("fill_nulls_with" in params[f"{side}_measure"] for side in ("base", "conversion"))
    assert features == ["conversion", *(["fill_nulls_with"] if filled else []),
                        "join_to_timespine", "spine: legacy", "range filter, non-time",
                        "range filter, time"]
    assert compile_vs_mf._features(model, {"metrics": [spined], "group_by": []}, "new") == [
        f for f in features if f in ("conversion", "fill_nulls_with")]
