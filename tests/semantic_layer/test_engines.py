"""Warehouses from showwork.yaml's `warehouse:` value: a DuckDB file, a folder of CSV/Parquet files
loaded into a locked in-memory DuckDB, and Spark's failures to start or answer; a model that names
what the warehouse lacks is refused at open, naming both."""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import duckdb
import pytest
from shop_data import shop_db

from showwork.semantic_layer import SemanticLayer, errors
from showwork.semantic_layer.engines import open_engine
from showwork.semantic_layer.execute import Limits
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.results import Result

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))
CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "revenue-by-region-quarterly": ("query", {
        "metrics": ["revenue", "order_count"], "grain": "quarter", "group_by": ["region"],
        "window": {"start": "2018-04-01", "end": "2019-06-30"}}),
    "items-by-store-monthly": ("query", {
        "metrics": ["items_sold", "product_revenue", "average_unit_price"], "grain": "month",
        "group_by": ["order__store__store_name"],
        "window": {"start": "2019-01-01", "end": "2019-06-30"}}),
    "aov-compare-by-store": ("compare", {
        "metrics": ["revenue", "order_count", "average_order_value"], "by": "store",
        "current_window": {"start": "2019-05-01", "end": "2019-05-31"},
        "previous_window": {"start": "2019-04-01", "end": "2019-04-30"}}),
    "customer-base-monthly": ("query", {
        "metrics": ["customer_base", "new_customers"], "grain": "month",
        "window": {"start": "2018-07-01", "end": "2019-06-30"}}),
    "cancellation-rate-by-segment": ("query", {
        "metrics": ["cancellation_rate", "revenue_per_customer"], "group_by": ["segment"],
        "window": {"start": "2019-01-01", "end": "2019-03-31"}}),
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project folder holding the shop warehouse three ways: warehouse.duckdb, csv/ and
    parquet/ (one file per table)."""
    root = tmp_path_factory.mktemp("project")
    db = root / "warehouse.duckdb"
    shutil.copy(shop_db(), db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [t for (t,) in con.execute("SELECT table_name FROM information_schema.tables "
                                            "WHERE table_schema = 'main'").fetchall()]
        for kind, options in (("csv", "FORMAT csv, HEADER"), ("parquet", "FORMAT parquet")):
            (root / kind).mkdir()
            for t in tables:
                con.execute(f"COPY {t} TO '{root / kind / t}.{kind}' ({options})")
    finally:
        con.close()
    return root


@pytest.fixture(scope="module")
def duck(project: Path) -> Iterator[SemanticLayer]:
    layer = SemanticLayer(load_project(SHOP), engine=open_engine({"duckdb": "warehouse.duckdb"},
                                                                 project))
    yield layer
    layer.close()


def _with(folder: Path, edit: dict[str, str | None]) -> Path:
    """A copy of a files warehouse with some files replaced (text) or removed (None)."""
    out = folder.parent / f"{folder.name}-{abs(hash(tuple(sorted(edit.items()))))}"
    shutil.copytree(folder, out)
    for name, text in edit.items():
        if text is None:
            (out / name).unlink()
        else:
            (out / name).write_text(text, encoding="utf-8")
    return out


def assert_same(got: Result, want: Result) -> None:
    """Same keys, rows and flags; numbers equal to 1e-9 relative (CSV decimals load as DOUBLE)."""
    assert (got.keys, got.coverage) == (want.keys, want.coverage)
    assert [(r.key, r.partial) for r in got.rows] == [(r.key, r.partial) for r in want.rows]
    for g, w in zip(got.rows, want.rows, strict=True):
        for metric, fields in w.values.items():
            for name, value in fields.items():
                other = g.values[metric][name]
                assert (other is None) == (value is None), (g.key, metric, name)
                if value is not None and other is not None:
                    assert math.isclose(other, value, rel_tol=1e-9, abs_tol=1e-12), (g.key, metric)


class TestFiles:
    @pytest.mark.parametrize("kind", ["csv", "parquet"])
    @pytest.mark.parametrize("name", sorted(CALLS))
    def test_equals_duckdb(self, project: Path, duck: SemanticLayer, kind: str, name: str) -> None:
        """The shop from a folder of CSV (or Parquet) files answers as its DuckDB file does."""
        layer = SemanticLayer(load_project(SHOP), engine=open_engine({"files": kind}, project))
        try:
            call, args = CALLS[name]
            want = duck.call(call, args)
            assert want.rows
            assert_same(layer.call(call, args), want)
        finally:
            layer.close()

    def test_inference_equals_duckdb(self, project: Path, duck: SemanticLayer) -> None:
        """Coverage and members inferred from CSV files equal those from the DuckDB file."""
        layer = SemanticLayer(load_project(SHOP), engine=open_engine({"files": "csv"}, project))
        try:
            assert layer.model.coverage_by_model == duck.model.coverage_by_model
            assert layer.model.dimension_governance == duck.model.dimension_governance
        finally:
            layer.close()

    def test_a_call_asked_again_reads_the_warehouse_again(self, project: Path) -> None:
        """A call prepared once (plan, SQL, typing, DuckDB's parsed statement) still runs
        against the warehouse each time: changed data gives changed numbers."""
        engine = open_engine({"files": "parquet"}, project)
        layer = SemanticLayer(load_project(SHOP), engine=engine)
        kind, args = CALLS["aov-compare-by-store"]
        try:
            before = layer.call(kind, args)
            engine.connection.execute("UPDATE orders SET order_total = order_total * 2")  # type: ignore[attr-defined]
            after = layer.call(kind, args)
        finally:
            layer.close()
        assert after.sql == before.sql
        for old, new in zip(before.rows, after.rows, strict=True):
            assert new.values["revenue"]["value"] == pytest.approx(2 * old.values["revenue"]["value"])
            assert new.values["order_count"]["value"] == old.values["order_count"]["value"]

    def test_one_table_per_file_named_by_stem(self, project: Path) -> None:
        """Every file is a table named by its stem, with the file's columns."""
        engine = open_engine({"files": "csv"}, project)
        try:
            tables = engine.tables()
            assert sorted(tables) == sorted(p.stem for p in (project / "csv").glob("*.csv"))
            assert [c for c, _ in tables["orders"]] == ["order_id", "customer_id", "store_id",
                                                        "ordered_at", "status", "is_test",
                                                        "order_total"]
            assert dict(tables["orders"])["ordered_at"] == "TIMESTAMP"
        finally:
            engine.close()

    def test_connection_is_locked_after_the_load(self, project: Path) -> None:
        """After loading, host files are out of reach, settings are frozen, one SELECT runs."""
        engine = open_engine({"files": "parquet"}, project)
        con = engine.connection  # type: ignore[attr-defined]
        try:
            with pytest.raises(duckdb.Error, match="disabled"):
                con.execute(f"SELECT * FROM read_csv('{project / 'csv' / 'orders.csv'}')").fetchall()
            with pytest.raises(duckdb.Error, match="locked"):
                con.execute("SET enable_external_access = true")
            with pytest.raises(errors.ExecutionError, match="exactly one SELECT; got DELETE"):
                engine.run("DELETE FROM orders", Limits())
            with pytest.raises(errors.ExecutionError, match="got SELECT, SELECT"):
                engine.run("SELECT 1; SELECT 2", Limits())
            assert engine.run("SELECT count(*) FROM orders", Limits()) == [(45452,)]
        finally:
            engine.close()

    def test_mixed_types_name_file_column_and_value(self, project: Path) -> None:
        """A CSV column of numbers with a stray word is refused, naming file, column and value."""
        folder = _with(project / "csv", {"products.csv": (
            "product_id,product_name,product_type,list_price\n1,Chai,beverage,4.50\n"
            "2,Chai Latte,beverage,5.50\n3,Mug,merch,n/a\n")})
        with pytest.raises(errors.MixedTypes) as caught:
            open_engine({"files": str(folder)}, project)
        message = caught.value.message
        assert "products.csv:4: column 'list_price' could not be typed" in message
        assert "2 of its 3 values read as DOUBLE" in message and "'n/a' (data row 3)" in message

    def test_two_files_one_table_is_an_error(self, project: Path) -> None:
        """orders.csv beside orders.parquet is refused, naming both files."""
        folder = _with(project / "csv", {})
        shutil.copy(project / "parquet" / "orders.parquet", folder / "orders.parquet")
        with pytest.raises(errors.FileLoadError, match="orders.csv and orders.parquet would both "
                           "be table 'orders'"):
            open_engine({"files": str(folder)}, project)

    def test_unreadable_file_is_named(self, project: Path) -> None:
        """A file DuckDB cannot read is an error naming it."""
        folder = _with(project / "parquet", {"stores.parquet": "not parquet"})
        with pytest.raises(errors.FileLoadError, match=r"stores\.parquet: could not be loaded as "
                           "table 'stores'"):
            open_engine({"files": str(folder)}, project)

    def test_empty_or_missing_folder(self, project: Path, tmp_path: Path) -> None:
        """No folder, or a folder without data files, says so with the resolved path."""
        with pytest.raises(errors.WarehouseMissing, match=f"No folder at {project / 'nope'}"):
            open_engine({"files": "nope"}, project)
        with pytest.raises(errors.WarehouseMissing, match="holds no .csv or .parquet file"):
            open_engine({"files": str(tmp_path)}, project)


class TestWarehouseCheck:
    def test_missing_table_skips_a_model_no_metric_reads(self, project: Path,
                                                          duck: SemanticLayer) -> None:
        """A dimension model whose table the warehouse lacks (stores) is skipped and reported,
        naming both; every metric still answers, as dbt and MetricFlow load the rest; its
        dimensions are no longer offered."""
        engine = open_engine({"files": str(_with(project / "parquet", {"stores.parquet": None}))},
                             project)
        layer = SemanticLayer(load_project(SHOP), engine=engine)
        try:
            (problem,) = layer.skipped
            assert "semantic model 'stores' reads table 'stores', which the warehouse lacks" in \
                problem
            assert "its tables: customers, order_items, orders, products, regions" in problem
            call, args = CALLS["revenue-by-region-quarterly"]
            assert layer.call(call, args).rows == duck.call(call, args).rows
            with pytest.raises(errors.UnsupportedDimension, match="store"):
                layer.call(*CALLS["items-by-store-monthly"])
        finally:
            layer.close()

    def test_missing_column_skips_its_model(self, project: Path) -> None:
        """A dimension over a column the table lacks, in a model no metric's measure reads:
        skipped, naming the model, the dimension, the table and the column."""
        products = (project / "csv" / "products.csv").read_text(encoding="utf-8").splitlines()
        edited = "\n".join(",".join(c for i, c in enumerate(line.split(",")) if i != 2)
                           for line in products[:1]) + "\n1,Chai,4.50\n"
        engine = open_engine({"files": str(_with(project / "csv", {"products.csv": edited}))},
                             project)
        layer = SemanticLayer(load_project(SHOP), engine=engine)
        try:
            (problem,) = layer.skipped
            assert ("semantic model 'products', dimension 'product_type': column 'product_type' "
                    "is not in table 'products'; its columns: product_id, product_name, "
                    "list_price") in problem
            assert "products" not in layer.model.models_by_name
        finally:
            layer.close()

    def test_missing_column_a_metric_reads_is_refused(self, project: Path) -> None:
        """A measure's column the table lacks (orders.order_total): refused at open, naming the
        model, the measure and the column (a metric reads it)."""
        orders = (project / "csv" / "orders.csv").read_text(encoding="utf-8").splitlines()
        edited = "\n".join(line.rsplit(",", 1)[0] for line in orders) + "\n"
        engine = open_engine({"files": str(_with(project / "csv", {"orders.csv": edited}))},
                             project)
        with pytest.raises(errors.WarehouseMismatch) as caught:
            SemanticLayer(load_project(SHOP), engine=engine)
        assert any("semantic model 'orders', measure 'order_total': column 'order_total'" in p
                   for p in caught.value.problems)
        engine.close()

    def test_matching_warehouse_passes(self, duck: SemanticLayer) -> None:
        """The shop's own warehouse holds everything its model names."""
        duck.check_warehouse()


class TestSpecs:
    def test_duckdb_spec_and_bare_path_are_one_warehouse(self, project: Path,
                                                         duck: SemanticLayer) -> None:
        """{duckdb: FILE}, a bare Path and an absolute path string open the same file."""
        call, args = CALLS["revenue-by-region-quarterly"]
        want = duck.call(call, args)
        for spec in (Path("warehouse.duckdb"), str(project / "warehouse.duckdb")):
            layer = SemanticLayer(load_project(SHOP), engine=open_engine(spec, project))
            try:
                assert layer.engine.name == "duckdb" and layer.dialect == "duckdb"
                assert layer.call(call, args).rows == want.rows
            finally:
                layer.close()

    def test_relative_paths_resolve_against_the_project(self, project: Path, tmp_path: Path) -> None:
        """A relative path is read from the project folder, whatever the working directory."""
        os.chdir(tmp_path)
        try:
            engine = open_engine({"duckdb": "warehouse.duckdb"}, project)
            assert engine.path == project / "warehouse.duckdb"  # type: ignore[attr-defined]
            engine.close()
            with pytest.raises(errors.WarehouseMissing, match=str(project / "other.duckdb")):
                open_engine({"duckdb": "other.duckdb"}, project)
        finally:
            os.chdir(ROOT)

    def test_database_argument_still_works(self, project: Path, duck: SemanticLayer) -> None:
        """SemanticLayer(model, database) runs on that DuckDB file as before."""
        layer = SemanticLayer(load_project(SHOP), project / "warehouse.duckdb")
        try:
            call, args = CALLS["aov-compare-by-store"]
            assert layer.call(call, args).rows == duck.call(call, args).rows
        finally:
            layer.close()

    @pytest.mark.parametrize(("spec", "message"), [
        (None, "names no warehouse"),
        ({"oracle": "db"}, "as its only key; got oracle"),
        ({"duckdb": "a", "files": "b"}, "as its only key; got duckdb, files"),
        ({"duckdb": 3}, "warehouse.duckdb: expected a path"),
        ({"spark": "local"}, "warehouse.spark: expected a mapping"),
        ({"spark": {"master": "local[2]", "remote": "sc://127.0.0.1:1"}}, "exactly one of master"),
        ({"spark": {"master": "local[2]", "catalog": "x"}}, "unknown key 'catalog'"),
        ({"spark": {"remote": "http://127.0.0.1:15002"}}, "is not a Spark Connect URL"),
    ])
    def test_bad_specs_are_named(self, spec: Any, message: str, tmp_path: Path) -> None:
        """A `warehouse:` value no engine knows is refused with what is supported."""
        with pytest.raises(errors.WarehouseError, match=message):
            open_engine(spec, tmp_path)


class TestSparkUnavailable:
    def test_no_java_is_a_clear_error(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        """A local Spark without Java is refused before any JVM is launched, saying what to install."""
        monkeypatch.delenv("JAVA_HOME", raising=False)
        monkeypatch.setenv("PATH", str(tmp_path))
        with pytest.raises(errors.EngineUnavailable, match="needs Java 17 or later and none was "
                           "found.*openjdk-17-jre-headless"):
            open_engine({"spark": {"master": "local[2]"}}, tmp_path)

    def test_java_home_without_java_is_a_clear_error(self, monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
        """JAVA_HOME naming a folder without bin/java is named as the problem."""
        monkeypatch.setenv("JAVA_HOME", str(tmp_path))
        with pytest.raises(errors.EngineUnavailable, match=f"JAVA_HOME={tmp_path} has no bin/java"):
            open_engine({"spark": {"master": "local[2]"}}, tmp_path)

    def test_a_java_that_cannot_start_spark(self, tmp_path: Path) -> None:
        """A `java` that exits at once is reported as Spark failing to start, not waited on
        (in a fresh process: this one may already hold a running Spark)."""
        if importlib.util.find_spec("pyspark") is None:
            if os.environ.get("CI"):
                raise RuntimeError("CI must install pyspark (make test installs '.[dev,spark]')")
            pytest.skip("pyspark is not installed (pip install -e '.[spark]')")
        fake = tmp_path / "bin"
        fake.mkdir()
        (fake / "java").write_text("#!/bin/sh\necho 'no JVM here' >&2\nexit 1\n")
        (fake / "java").chmod(0o755)
        env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
        env["PATH"] = f"{fake}{os.pathsep}/usr/bin{os.pathsep}/bin"
        code = ("from pathlib import Path\nfrom showwork.semantic_layer import errors\n"
                "from showwork.semantic_layer.engines import open_engine\n"
                "try:\n    open_engine({'spark': {'master': 'local[1]'}}, Path('.'))\n"
                "except errors.EngineUnavailable as exc:\n    print(exc.message)\n")
        done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert done.stdout.startswith("Spark (master local[1]) could not start:"), done.stderr

    def test_connect_url_that_does_not_answer(self, tmp_path: Path) -> None:
        """A Connect URL to a closed 127.0.0.1 port is an error, not a hang."""
        with socket.socket() as s:  # a port that was free a moment ago and has no listener
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        with ThreadPoolExecutor(1) as pool:
            future = pool.submit(open_engine, {"spark": {"remote": f"sc://127.0.0.1:{port}"}},
                                 tmp_path)
            with pytest.raises(errors.EngineUnavailable, match=f"Spark Connect at "
                               f"sc://127.0.0.1:{port} does not answer"):
                future.result(timeout=60)  # a guard: a hang fails here
