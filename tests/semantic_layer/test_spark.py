"""Spark runs the governed queries of the demo and of the shop to the same typed results as
DuckDB, on a local Spark (local[2]) over Parquet exports of their warehouses and over Spark
Connect on 127.0.0.1; with the same limits (a timeout that cancels, a row cap, one SELECT)."""

from __future__ import annotations

import math
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from shop_data import export_tables, shop_db
from spark_env import skip_without_spark

from showwork.semantic_layer import SemanticLayer, errors, load_model
from showwork.semantic_layer.engines import Engine, open_engine
from showwork.semantic_layer.execute import Limits
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.results import Result

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))
REL = 1e-9

skip_without_spark()

pytestmark = pytest.mark.slow

W = {"start": "2026-03-02", "end": "2026-03-29"}
DIMS = ("platform", "plan", "country", "channel", "signup_month")
METRICS = ("active_users", "active_days", "days_per_user", "real_value_moments", "value_moments",
           "weekly_value_moments", "moments_per_day", "new_users", "reminders_sent",
           "reminders_opened", "reminder_open_rate", "paid_subscribers", "mrr_usd")
DEMO: dict[str, tuple[str, dict[str, Any]]] = {
    # every metric with a dimension (weekly_value_moments has only the week grain; point-in-time
    # metrics are read per period)
    **{f"{m}-by-{DIMS[i % len(DIMS)]}": ("query", {
        "metrics": [m], "group_by": [DIMS[i % len(DIMS)]], "window": W,
        **({"grain": "week"} if m == "weekly_value_moments" else {}),
        **({"grain": "month", "window": {"start": "2026-01-01", "end": "2026-03-31"}}
           if m in ("paid_subscribers", "mrr_usd") else {})})
       for i, m in enumerate(METRICS)},
    "active-users-daily": ("query", {"metrics": ["active_users"], "grain": "day",
                                     "window": {"start": "2026-03-02", "end": "2026-03-15"}}),
    "value-moments-weekly-by-platform": ("query", {
        "metrics": ["real_value_moments", "value_moments"], "grain": "week",
        "group_by": ["platform"], "window": {"start": "2026-04-27", "end": "2026-05-17"}}),
    "new-users-monthly-by-channel": ("query", {
        "metrics": ["new_users"], "grain": "month", "group_by": ["channel"],
        "window": {"start": "2026-01-01", "end": "2026-05-31"}}),
    "android-open-rate-weekly": ("query", {
        "metrics": ["reminder_open_rate"], "grain": "week",
        "where": [{"dimension": "platform", "op": "in", "values": ["android"]}],
        "window": {"start": "2026-03-30", "end": "2026-04-26"}}),
    "partial-last-week": ("query", {"metrics": ["active_users", "days_per_user"], "grain": "week",
                                    "window": {"start": "2026-06-01", "end": "2026-06-17"}}),
    "top-signup-months": ("query", {
        "metrics": ["new_users"], "group_by": ["signup_month"], "limit": 3,
        "order_by": {"field": "new_users", "desc": True},
        "window": {"start": "2026-01-01", "end": "2026-03-31"}}),
    "days-per-user-weekly-by-country-not-in": ("query", {
        "metrics": ["days_per_user"], "grain": "week", "group_by": ["country"], "window": W,
        "where": [{"dimension": "country", "op": "not_in", "values": ["IN", "BR"]}]}),
    "value-moment-tree-compare": ("compare", {
        "metrics": ["weekly_value_moments", "active_users", "days_per_user", "moments_per_day"],
        "current_window": {"start": "2026-03-09", "end": "2026-03-15"},
        "previous_window": {"start": "2026-03-02", "end": "2026-03-08"}}),
    "value-moment-tree-compare-by-platform": ("compare", {
        "metrics": ["weekly_value_moments", "active_users", "days_per_user", "moments_per_day"],
        "by": "platform",
        "current_window": {"start": "2026-04-13", "end": "2026-04-19"},
        "previous_window": {"start": "2026-04-06", "end": "2026-04-12"}}),
    "open-rate-compare-by-platform": ("compare", {
        "metrics": ["reminder_open_rate", "reminders_sent", "reminders_opened"], "by": "platform",
        "current_window": {"start": "2026-04-13", "end": "2026-04-19"},
        "previous_window": {"start": "2026-04-06", "end": "2026-04-12"}}),
    "mrr-compare": ("compare", {
        "metrics": ["mrr_usd", "paid_subscribers"],
        "current_window": {"start": "2026-03-01", "end": "2026-03-31"},
        "previous_window": {"start": "2026-02-01", "end": "2026-02-28"}}),
}
Q = {"start": "2018-04-01", "end": "2019-06-30"}
SHOP_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "revenue-by-region-quarterly": ("query", {  # order → customer → region: two left joins
        "metrics": ["revenue", "order_count"], "grain": "quarter", "group_by": ["region"],
        "window": Q}),
    "items-by-store-monthly": ("query", {  # item → order → store
        "metrics": ["items_sold", "product_revenue"], "grain": "month",
        "group_by": ["order__store__store_name"], "window": {"start": "2019-01-01", "end": "2019-06-30"}}),
    "aov-compare-by-store": ("compare", {
        "metrics": ["revenue", "order_count", "average_order_value"], "by": "store",
        "current_window": {"start": "2019-05-01", "end": "2019-05-31"},
        "previous_window": {"start": "2019-04-01", "end": "2019-04-30"}}),
    "revenue-tree-compare": ("compare", {
        "metrics": ["revenue", "order_count", "average_order_value"],
        "current_window": {"start": "2019-05-01", "end": "2019-05-31"},
        "previous_window": {"start": "2019-04-01", "end": "2019-04-30"}}),
    "cancellation-rate-quarterly-by-store": ("query", {
        "metrics": ["cancellation_rate", "cancelled_orders"], "grain": "quarter",
        "group_by": ["store"], "window": Q}),
    "revenue-per-customer-by-segment": ("query", {
        "metrics": ["revenue_per_customer"], "grain": "month", "group_by": ["segment"],
        "window": {"start": "2018-10-01", "end": "2019-03-31"}}),
    "food-and-drinks-revenue": ("query", {
        "metrics": ["product_revenue", "average_unit_price"], "group_by": ["product_type"],
        "where": [{"dimension": "product_type", "values": ["jaffle", "beverage"]}],
        "window": {"start": "2019-01-01", "end": "2019-06-30"}}),
    "top-products": ("query", {
        "metrics": ["items_sold"], "group_by": ["product"], "limit": 5,
        "order_by": {"field": "items_sold", "desc": True},
        "window": {"start": "2019-07-01", "end": "2019-07-31"}}),
    "customer-base-monthly": ("query", {
        "metrics": ["customer_base"], "grain": "month",
        "window": {"start": "2018-07-01", "end": "2019-06-30"}}),
    "new-customers-by-country-quarterly": ("query", {
        "metrics": ["new_customers"], "grain": "quarter", "group_by": ["region__country"],
        "window": {"start": "2018-01-01", "end": "2018-12-31"}}),
    "legacy-orders-weekly": ("query", {
        "metrics": ["total_orders", "order_count", "gross_orders"], "grain": "week",
        "window": {"start": "2019-06-03", "end": "2019-06-23"}}),
    "buyers-yearly-by-country": ("query", {
        "metrics": ["ordering_customers"], "grain": "year", "group_by": ["country"],
        "window": {"start": "2018-01-01", "end": "2018-12-31"}}),
    "partial-august": ("query", {"metrics": ["revenue"], "grain": "week", "group_by": ["store"],
                                 "window": {"start": "2019-07-29", "end": "2019-08-14"}}),
}


# -- data: each warehouse once as a DuckDB copy and as Parquet files ----------------------------


def export(db: Path, folder: Path) -> dict[str, str]:
    """Every table of a DuckDB file as Parquet under `folder` (its copy `<folder>.duckdb` stays
    beside it); table → path relative to folder's parent."""
    return {t: f"{folder.name}/{t}.parquet" for t in export_tables(db, folder, "parquet")}



@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory, demo_db: Path) -> Path:
    root = tmp_path_factory.mktemp("warehouses")
    export(demo_db, root / "demo")
    export(shop_db(), root / "shop")
    return root


def _tables(root: Path, name: str) -> dict[str, str]:
    return {p.stem: f"{name}/{p.name}" for p in sorted((root / name).glob("*.parquet"))}


@pytest.fixture(scope="module")
def spark_demo(data: Path) -> Iterator[SemanticLayer]:
    """The demo on a local Spark; table paths relative to the project folder (`data`)."""
    engine = open_engine({"spark": {"master": "local[2]", "tables": _tables(data, "demo")}}, data)
    layer = SemanticLayer(load_model(), engine=engine)
    yield layer
    layer.close()


@pytest.fixture(scope="module")
def spark_shop(data: Path, spark_demo: SemanticLayer) -> Iterator[SemanticLayer]:
    """The shop on the same local Spark (a session of its own), governance inferred on Spark."""
    engine = open_engine({"spark": {"master": "local[2]", "tables": _tables(data, "shop")}}, data)
    layer = SemanticLayer(load_project(SHOP), engine=engine)
    yield layer
    layer.close()


@pytest.fixture(scope="module")
def duck_shop(data: Path) -> Iterator[SemanticLayer]:
    layer = SemanticLayer(load_project(SHOP), engine=open_engine(Path("shop.duckdb"), data))
    yield layer
    layer.close()


def assert_same(got: Result, want: Result) -> None:
    """Same keys and rows in the same order, same partial flags, every number equal to 1e-9
    relative and of the same type (int or float)."""
    assert (got.kind, got.metrics, got.keys, got.coverage) == (want.kind, want.metrics, want.keys,
                                                               want.coverage)
    assert [r.key for r in got.rows] == [r.key for r in want.rows]
    assert [r.partial for r in got.rows] == [r.partial for r in want.rows]
    for g, w in zip(got.rows, want.rows, strict=True):
        assert g.values.keys() == w.values.keys()
        for metric, fields in w.values.items():
            assert g.values[metric].keys() == fields.keys(), (g.key, metric)
            for name, value in fields.items():
                other = g.values[metric][name]
                if value is None or other is None:
                    assert other is value, (g.key, metric, name)
                    continue
                assert isinstance(other, int) == isinstance(value, int), (g.key, metric, name)
                assert math.isclose(other, value, rel_tol=REL, abs_tol=1e-12), (g.key, metric, name)


class TestLocalSpark:
    @pytest.mark.parametrize("name", sorted(DEMO))
    def test_demo_equals_duckdb(self, spark_demo: SemanticLayer, layer: SemanticLayer,
                                name: str) -> None:
        """A demo governed call gives the same typed result on Spark as on DuckDB."""
        kind, args = DEMO[name]
        want = layer.call(kind, args)
        assert want.rows, "a call with no rows proves nothing"
        assert_same(spark_demo.call(kind, args), want)

    @pytest.mark.parametrize("name", sorted(SHOP_CALLS))
    def test_shop_equals_duckdb(self, spark_shop: SemanticLayer, duck_shop: SemanticLayer,
                                name: str) -> None:
        """A shop governed call gives the same typed result on Spark as on DuckDB."""
        kind, args = SHOP_CALLS[name]
        want = duck_shop.call(kind, args)
        assert want.rows, "a call with no rows proves nothing"
        assert_same(spark_shop.call(kind, args), want)

    def test_inference_on_spark_equals_duckdb(self, spark_shop: SemanticLayer,
                                              duck_shop: SemanticLayer) -> None:
        """Coverage and member lists inferred through Spark are those inferred through DuckDB."""
        assert spark_shop.model.coverage_by_model == duck_shop.model.coverage_by_model
        assert spark_shop.model.dimension_governance == duck_shop.model.dimension_governance
        members = spark_shop.model.dimension_governance["region__region_name"].members
        assert members is not None and "Québec" in members

    def test_compiles_for_spark(self, spark_demo: SemanticLayer) -> None:
        """The layer compiles in the engine's dialect: Spark SQL, not DuckDB's."""
        result = spark_demo.call("query", {"metrics": ["active_users"], "window": W})
        assert spark_demo.dialect == "spark" and result.sql == spark_demo.compile(
            "query", {"metrics": ["active_users"], "window": W}, "spark").sql

    def test_tables_list_the_parquet_tables(self, spark_shop: SemanticLayer,
                                            duck_shop: SemanticLayer) -> None:
        """tables() names every registered table with the same columns DuckDB has."""
        spark, duck = spark_shop.engine.tables(), duck_shop.engine.tables()
        assert sorted(spark) == sorted(duck)
        assert {t: [c for c, _ in cols] for t, cols in spark.items()} == {
            t: [c for c, _ in cols] for t, cols in duck.items()}
        assert dict(spark["orders"])["order_total"] == "decimal(10,2)"

    def test_local_spark_binds_to_loopback_without_ui(self, spark_demo: SemanticLayer) -> None:
        """The local driver listens on 127.0.0.1 only and serves no web UI."""
        conf = spark_demo.engine.session.sparkContext.getConf()  # type: ignore[attr-defined]
        assert conf.get("spark.driver.host") == "127.0.0.1"
        assert conf.get("spark.driver.bindAddress") == "127.0.0.1"
        assert conf.get("spark.ui.enabled") == "false"
        assert spark_demo.engine.session.sparkContext.uiWebUrl is None  # type: ignore[attr-defined]

    def test_timeout_cancels_the_job(self, spark_demo: SemanticLayer) -> None:
        """A query past the timeout is cancelled and reported as a timeout; the engine still
        answers afterwards."""
        engine = spark_demo.engine
        slow = "SELECT count(*) FROM range(100000000000) AS a WHERE a.id % 7 = 3"
        with ThreadPoolExecutor(1) as pool:
            future = pool.submit(engine.run, slow, Limits(timeout_s=1.0))
            with pytest.raises(errors.QueryTimeout, match="cancelled after 1 s"):
                future.result(timeout=120)  # a guard: a cancel that never lands fails here
        assert engine.run("SELECT 1 AS one", Limits()) == [(1,)]

    def test_row_cap_is_an_error(self, spark_demo: SemanticLayer) -> None:
        """More rows than the cap is refused, never silently cut."""
        with pytest.raises(errors.RowCapExceeded, match="more than 10 rows"):
            spark_demo.engine.run("SELECT id FROM range(11)", Limits(row_cap=10))
        assert len(spark_demo.engine.run("SELECT id FROM range(10)", Limits(row_cap=10))) == 10

    @pytest.mark.parametrize("sql", [
        "CREATE TEMPORARY VIEW x AS SELECT 1 AS a",
        "SELECT 1; SELECT 2",
        "DROP VIEW users",
    ])
    def test_only_one_select_runs(self, spark_demo: SemanticLayer, sql: str) -> None:
        """Anything but one SELECT is refused before Spark sees it."""
        with pytest.raises(errors.ExecutionError, match="exactly one SELECT"):
            spark_demo.engine.run(sql, Limits())
        assert spark_demo.engine.run("SELECT count(*) FROM users", Limits())[0][0] > 10_000

    def test_sql_cannot_read_files_by_path(self, spark_demo: SemanticLayer, data: Path) -> None:
        """SQL names tables, never paths: `parquet.`/path`` is not a table."""
        sql = f"SELECT count(*) FROM parquet.`{data / 'shop' / 'orders.parquet'}`"
        with pytest.raises(errors.ExecutionError, match="TABLE_OR_VIEW_NOT_FOUND"):
            spark_demo.engine.run(sql, Limits())

    def test_sessions_keep_their_tables_apart(self, spark_demo: SemanticLayer,
                                              spark_shop: SemanticLayer) -> None:
        """Two engines on one local Spark see only their own tables (`customers` is the shop's)."""
        assert "customers" in spark_shop.engine.tables()
        assert "customers" not in spark_demo.engine.tables()

    def test_model_naming_a_missing_table_is_skipped_and_named(self, data: Path,
                                                               spark_demo: SemanticLayer) -> None:
        """A shop model over a Spark that lacks `stores`: no metric reads that model, so it is
        skipped and reported at open, naming both (as dbt and MetricFlow load the rest); its
        dimensions are no longer offered."""
        tables = {t: p for t, p in _tables(data, "shop").items() if t != "stores"}
        engine = open_engine({"spark": {"master": "local[2]", "tables": tables}}, data)
        try:
            layer = SemanticLayer(load_project(SHOP), engine=engine)
            (problem,) = layer.skipped
            assert "semantic model 'stores' reads table 'stores', which the warehouse lacks" in \
                problem
            offered = {d for m in layer.catalog()["metrics"].values() for d in m["dimensions"]}
            assert any(d.endswith("store_name")
                       for d in load_project(SHOP).supported_dimensions("items_sold"))
            assert offered and not any(d.endswith("store_name") for d in offered)
        finally:
            engine.close()

    def test_missing_parquet_file_is_named(self, data: Path, spark_demo: SemanticLayer) -> None:
        """A table whose Parquet path does not exist is an error naming the table and the path."""
        with pytest.raises(errors.FileLoadError, match=r"tables\.orders: no Parquet file"):
            open_engine({"spark": {"master": "local[2]", "tables": {"orders": "nope.parquet"}}},
                        data)


# -- Spark Connect on 127.0.0.1 -----------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def connect_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Spark Connect server bound to 127.0.0.1, started from the pyspark package's own
    spark-submit, stopped after the module."""
    import pyspark

    home = Path(pyspark.__file__).parent
    port = _free_port()
    folder = tmp_path_factory.mktemp("connect")
    log = folder / "server.log"
    conf = {"spark.sql.warehouse.dir": str(folder / "spark-warehouse"),
            "spark.connect.grpc.binding.address": "127.0.0.1",
            "spark.connect.grpc.binding.port": str(port), "spark.ui.enabled": "false",
            "spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1",
            "spark.sql.shuffle.partitions": "4"}
    command = [str(home / "bin" / "spark-submit"), "--class",
               "org.apache.spark.sql.connect.service.SparkConnectServer", "--name", "showwork-test",
               "--master", "local[1]", "--driver-memory", "1g"]
    for key, value in conf.items():
        command += ["--conf", f"{key}={value}"]
    env = {**os.environ, "SPARK_HOME": str(home), "PYSPARK_PYTHON": sys.executable}
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                  cwd=folder, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and server.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(1)
        else:
            raise RuntimeError(f"Spark Connect did not start: {log.read_text()[-2000:]}")
        yield f"sc://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture(scope="module")
def connect_shop(connect_url: str, data: Path) -> Iterator[SemanticLayer]:
    engine = open_engine({"spark": {"remote": connect_url, "tables": _tables(data, "shop")}}, data)
    layer = SemanticLayer(load_project(SHOP), engine=engine)
    yield layer
    layer.close()


class TestSparkConnect:
    @pytest.mark.parametrize("name", ["revenue-by-region-quarterly", "items-by-store-monthly",
                                      "revenue-tree-compare", "customer-base-monthly"])
    def test_shop_equals_duckdb(self, connect_shop: SemanticLayer, duck_shop: SemanticLayer,
                                name: str) -> None:
        """A shop governed call over Spark Connect gives DuckDB's typed result."""
        kind, args = SHOP_CALLS[name]
        assert_same(connect_shop.call(kind, args), duck_shop.call(kind, args))

    def test_timeout_interrupts_the_operation(self, connect_shop: SemanticLayer) -> None:
        """Past the timeout the server interrupts the operation; the session still answers."""
        engine: Engine = connect_shop.engine
        slow = "SELECT count(*) FROM range(100000000000) AS a WHERE a.id % 7 = 3"
        with ThreadPoolExecutor(1) as pool:
            future = pool.submit(engine.run, slow, Limits(timeout_s=1.0))
            with pytest.raises(errors.QueryTimeout):
                future.result(timeout=120)
        assert engine.run("SELECT 1 AS one", Limits()) == [(1,)]

    def test_row_cap_is_an_error(self, connect_shop: SemanticLayer) -> None:
        """The row cap holds over Connect too."""
        with pytest.raises(errors.RowCapExceeded):
            connect_shop.engine.run("SELECT id FROM range(11)", Limits(row_cap=10))
