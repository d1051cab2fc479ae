"""join_to_timespine on a conversion metric's conversion measure, and join_to_timespine with
fill_nulls_with on either measure (MetricFlow's own visit_buy_conversion_rate_7days_fill_nulls_with_0
spines and fills both), answered by showwork and by MetricFlow 0.210 itself (conformance/.venv,
conformance/mf_driver.py: the SQL `mf query` runs) on two projects, every row compared: the
conformance project's visits converting to orders and the shop example's sign-ups converting to
orders. conformance/differential.py's `conversion_spine_fill` cases ask the same on generated
worlds."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from showwork.semantic_layer import SemanticLayer, load_model
from showwork.semantic_layer.project import load_project

ROOT = Path(__file__).resolve().parents[2]
MF_PYTHON = ROOT / "conformance" / ".venv" / "bin" / "python"
FIXTURE = Path(__file__).parent / "fixtures" / "conformance_semantic_manifest.json"
"""conformance/project as dbt parses it (target/semantic_manifest.json): MetricFlow reads what
dbt writes, as `mf query` does (the YAML holds what only dbt's own schema takes)."""
sys.path.insert(0, str(ROOT))

from conformance.differential import answer, compare, spine_configuration  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not MF_PYTHON.exists(), reason="MetricFlow is in conformance/.venv "
                       "(make conformance builds it)"),
]


def shop_with_spine(work: Path) -> tuple[Path, Path]:
    """(folder, DuckDB file) of a copy of the shop example under `work` with a legacy day spine
    (the metricflow_time_spine model and table, 2017–2019) its spined metrics join."""
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    from shop_data import shop_db

    folder = work / "shop"
    shutil.copytree(ROOT / "examples" / "shop", folder,
                    ignore=shutil.ignore_patterns("warehouse.duckdb"))
    db = work / "shop.duckdb"
    shutil.copy(shop_db(), db)
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE metricflow_time_spine AS SELECT CAST(range AS DATE) AS date_day "
                "FROM range(DATE '2017-01-01', DATE '2020-01-01', INTERVAL 1 DAY)")
    con.close()
    (folder / "models" / "metricflow_time_spine.sql").write_text("select 1\n", encoding="utf-8")
    return folder, db


def _spined(prefix: str, base: str, conversion: str) -> list[dict[str, Any]]:
    """Three conversion metrics over the project's own measures: the conversions joined to the
    spine; both measures joined and filled with 0 (MetricFlow's itest metric); the base events
    joined and each side filled, with no window."""
    def metric(name: str, calculation: str, base_measure: dict[str, Any],
               conversion_measure: dict[str, Any], window: str | None) -> dict[str, Any]:
        params = {"base_measure": base_measure, "conversion_measure": conversion_measure,
                  "entity": "customer", "calculation": calculation,
                  **({"window": window} if window else {})}
        return {"name": f"{prefix}_{name}", "label": name.replace("_", " "), "type": "conversion",
                "type_params": {"conversion_type_params": params}}

    spine, zero = {"join_to_timespine": True}, {"fill_nulls_with": 0}
    return [
        metric("conversions_spined", "conversions", {"name": base},
               {"name": conversion, **spine}, "7 days"),
        metric("rate_spined_filled", "conversion_rate", {"name": base, **spine, **zero},
               {"name": conversion, **spine, **zero}, "7 days"),
        metric("count_base_spined_filled", "conversions", {"name": base, **spine, **zero},
               {"name": conversion, "fill_nulls_with": 5}, None),
        {"name": f"{prefix}_{conversion}_spined_filled", "label": f"{conversion} every day",
         "type": "simple", "type_params": {"measure": {"name": conversion, **spine, **zero}}},
    ]


def _queries(prefix: str, metrics: list[dict[str, Any]], window: tuple[str, str],
             dimension: str, member: str, other_time: str | None) -> list[dict[str, Any]]:
    """Each metric by month and by week, with no window and with one, by a dimension, under a
    filter on that dimension, and with no grain; by a time dimension that is not the one a
    spined measure is aggregated by (`other_time`: MetricFlow joins no spine on it), with a grain
    and without."""
    out: list[dict[str, Any]] = []
    for m in metrics:
        for grain, group_by, where, windowed in [
                ("month", [], None, False), ("week", [], None, True),
                ("month", [dimension], None, True), ("quarter", [dimension],
                f"{{{{ Dimension('{dimension}') }}}} = '{member}'", False),
                (None, [dimension], None, True), ("year", [], None, True),
                *([("quarter", [f"{other_time}__year"], None, True),
                   (None, [f"{other_time}__month"], None, True)] if other_time else [])]:
            q: dict[str, Any] = {"id": f"{prefix}.q{len(out)}", "kind": "conversion_spine_fill",
                                 "metrics": [m["name"]], "grain": grain, "group_by": group_by,
                                 "where": where}
            if windowed:
                q["start"], q["end"] = window
            out.append(q)
    return out


def _yaml_items(models: Path, key: str) -> list[dict[str, Any]]:
    return [item for f in sorted(models.glob("*.yml"))
            for item in (yaml.safe_load(f.read_text(encoding="utf-8")) or {}).get(key) or []]


def _metricflow(folder: Path, database: Path, project: dict[str, Any],
                queries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """MetricFlow's answers: `project` is the models' YAML items (a world) or a dbt-written
    semantic manifest ({"semantic_manifest": path})."""
    batch = folder / "batch.json"
    world = {"id": folder.name, "queries": queries, "spine": spine_configuration("new"), **project}
    batch.write_text(json.dumps({"database": str(database), "worlds": [world]}), encoding="utf-8")
    done = subprocess.run([str(MF_PYTHON), str(ROOT / "conformance" / "mf_driver.py"), str(batch)],
                          capture_output=True, text=True, check=True,
                          env={"DO_NOT_TRACK": "1", "PATH": "/usr/bin:/bin"})
    return {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}


def _in_manifest(metric: dict[str, Any], written: list[dict[str, Any]]) -> dict[str, Any]:
    """A simple or conversion metric's YAML as dbt writes it into semantic_manifest.json (from
    one of its type dbt wrote there)."""
    like = next(m for m in written if m["type"] == metric["type"])
    if metric["type"] == "simple":
        out = json.loads(json.dumps(like))
        measure = {"filter": None, "alias": None, "join_to_timespine": False,
                   "fill_nulls_with": None, **metric["type_params"]["measure"]}
        out.update(name=metric["name"], label=metric["label"], description=None)
        out["type_params"].update(measure=measure, input_measures=[measure])
        return out
    params = metric["type_params"]["conversion_type_params"]
    sides = [{"filter": None, "alias": None, "join_to_timespine": False, "fill_nulls_with": None,
              **params[f"{side}_measure"]} for side in ("base", "conversion")]
    count, grain = params["window"].split() if params.get("window") else ("", "")
    out = json.loads(json.dumps(like))
    out.update(name=metric["name"], label=metric["label"], description=None)
    out["type_params"]["input_measures"] = sides
    out["type_params"]["conversion_type_params"].update(
        base_measure=sides[0], conversion_measure=sides[1], calculation=params["calculation"],
        window={"count": int(count), "granularity": grain.rstrip("s")} if grain else None)
    return out


def _compared(layer: SemanticLayer, theirs: dict[str, dict[str, Any]],
              queries: list[dict[str, Any]]) -> tuple[dict[str, list[str]], int]:
    """(problems by query id, rows compared)."""
    problems, rows = {}, 0
    for q in queries:
        ours = answer(layer, q)
        outcome, found = compare(q, theirs[q["id"]], ours)
        if outcome != "equal":
            problems[q["id"]] = found or [outcome, str(theirs[q["id"]].get("error"))[:200],
                                          str(ours.get("error"))[:200]]
        rows += len(theirs[q["id"]].get("rows", []))
    return problems, rows


class _SideBySide:
    ROWS = 0
    """MetricFlow's rows at least: the spine's periods, not a handful."""

    def test_every_row_equals_metricflows(self, case) -> None:
        """Every query MetricFlow answers, showwork answers with the same rows and values."""
        layer, theirs, queries = case
        problems, rows = _compared(layer, theirs, queries)
        assert problems == {}
        assert rows > self.ROWS


class TestConformanceProject(_SideBySide):
    """Visits converting to orders by the same customer (conformance/project)."""

    ROWS = 500

    @pytest.fixture(scope="class")
    def case(self, shop_db: Path, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[SemanticLayer, dict[str, dict[str, Any]], list[dict[str, Any]]]]:
        work = tmp_path_factory.mktemp("conformance_spine")
        models = work / "models"
        shutil.copytree(ROOT / "conformance" / "project" / "models", models)
        metrics = _spined("visit", "visits", "orders")
        doc = yaml.safe_load((models / "metrics.yml").read_text(encoding="utf-8"))
        doc["metrics"] += metrics
        (models / "metrics.yml").write_text(yaml.safe_dump(doc), encoding="utf-8")
        queries = _queries("conformance", metrics, ("2024-02-10", "2024-05-20"),
                           "customer__segment", "enterprise", "customer__signup_date")
        written = json.loads(FIXTURE.read_text(encoding="utf-8"))
        written["metrics"] += [_in_manifest(m, written["metrics"]) for m in metrics]
        (work / "semantic_manifest.json").write_text(json.dumps(written), encoding="utf-8")
        database = work / "conformance.duckdb"  # the catalog dbt's relation names name
        shutil.copy(shop_db, database)
        theirs = _metricflow(work, database, {"semantic_manifest": str(
            work / "semantic_manifest.json")}, queries)
        layer = SemanticLayer(load_model(models), shop_db)
        yield layer, theirs, queries
        layer.close()

    def test_the_conversions_spine_runs_past_the_window(self, case) -> None:
        """MetricFlow plans the conversions' spine join with neither the query's window nor its
        filters: by year over a window inside 2024, every year of the spine is a row."""
        layer, theirs, queries = case
        q = next(q for q in queries if q["grain"] == "year" and "conversions_spined" in
                 q["metrics"][0])
        years = [r.key["year"] for r in layer.call("query", {
            "metrics": q["metrics"], "grain": "year",
            "window": {"start": q["start"], "end": q["end"]}}).rows]
        assert years == sorted(row[0] for row in theirs[q["id"]]["rows"])
        assert years[0] < q["start"] < years[-1]


class TestShopExample(_SideBySide):
    """The shop's sign-ups converting to orders (examples/shop)."""

    ROWS = 100

    @pytest.fixture(scope="class")
    def case(self, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[SemanticLayer, dict[str, dict[str, Any]], list[dict[str, Any]]]]:
        work = tmp_path_factory.mktemp("shop_spine")
        folder, db = shop_with_spine(work)
        metrics = _spined("signup", "customers", "orders")
        path = folder / "models" / "metrics.yml"
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        doc["metrics"] += metrics
        path.write_text(yaml.safe_dump(doc), encoding="utf-8")
        queries = _queries("shop", metrics[:-1], ("2019-01-01", "2019-06-30"),
                           "customer__segment", "consumer", None)  # (sign-ups are by signup_date)
        queries += _queries("shop-orders", metrics[-1:], ("2019-01-01", "2019-06-30"),
                            "customer__segment", "consumer", "customer__signup_date")
        models = folder / "models"
        theirs = _metricflow(work, db, {"semantic_models": _yaml_items(models, "semantic_models"),
                                        "metrics": _yaml_items(models, "metrics")}, queries)
        layer = SemanticLayer(load_project(folder, database=db), db)
        yield layer, theirs, queries
        layer.close()
