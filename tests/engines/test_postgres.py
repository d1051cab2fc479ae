"""PostgreSQL as the warehouse, against a real server (a temporary cluster of Debian's PostgreSQL):
the demo's, the shop's and the flights example's warehouses loaded from their DuckDB files answer every governed call
their question files make exactly as DuckDB does, and the rules analyst's experiment scores the
same on both; the limits hold on the server (read-only, statement_timeout, one SELECT, a row
cap), and each kind of bad input is one clear error naming the project and the engine."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from flights_data import flights_db
from postgres_server import READER, PostgresServer, skip_without_postgres
from shop_data import shop_db

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import load_questions
from showwork.harness.project import Project
from showwork.semantic_layer import errors
from showwork.semantic_layer.engines import open_engine
from showwork.semantic_layer.engines.postgres import one_select
from showwork.semantic_layer.execute import Limits
from showwork.semantic_layer.layer import SemanticLayer
from showwork.semantic_layer.model import default_model_path
from showwork.semantic_layer.results import Result

skip_without_postgres()

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
FLIGHTS = ROOT / "examples" / "flights"
DEMO = default_model_path().parent
NAMES = ["demo", "shop", "flights"]
REL = 1e-9
SAME = ("question_id", "config", "status", "driver", "correct", "grounded", "decision",
        "claims", "broken_citations", "findings")
"""What each attempt must agree on exactly across engines (its value to REL)."""
DSN_ENV = "SHOWWORK_TEST_PG_DSN"


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    """One cluster holding the shop's warehouse (and the demo's once `demo_loaded` ran), each
    in a database of its own."""
    pg = PostgresServer()
    try:
        pg.load_duckdb(shop_db(), "shop")
        yield pg
    finally:
        pg.close()


@pytest.fixture(scope="module")
def demo_loaded(server: PostgresServer, demo_db: Path) -> PostgresServer:
    """The demo's and the flights example's warehouses (about 1.5 M events, 336 k flights)
    loaded too: only the slow tests need them."""
    server.load_duckdb(demo_db, "demo")
    server.load_duckdb(flights_db(), "flights")
    return server


def project_on(root: Path, source: Path, warehouse: dict[str, Any]) -> Project:
    """A copy of project `source` (models, governance, questions) with `warehouse:` as given."""
    root.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        if item.name in ("models",) or item.suffix in (".yaml", ".yml"):
            (shutil.copytree if item.is_dir() else shutil.copy)(item, root / item.name)
    settings = yaml.safe_load((source / "showwork.yaml").read_text(encoding="utf-8"))
    settings["warehouse"] = warehouse
    (root / "showwork.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return Project.load(root / "showwork.yaml")


@pytest.fixture(scope="module")
def projects(demo_loaded: PostgresServer, demo_db: Path, tmp_path_factory: pytest.TempPathFactory,
             ) -> Iterator[dict[str, dict[str, Project]]]:
    """{project: {engine: Project}} — the same models over DuckDB and over PostgreSQL."""
    mp = pytest.MonkeyPatch()
    root = tmp_path_factory.mktemp("pg-projects")
    out: dict[str, dict[str, Project]] = {}
    for name, source, db in (("demo", DEMO, demo_db), ("shop", SHOP, shop_db()),
                             ("flights", FLIGHTS, flights_db())):
        env = f"{DSN_ENV}_{name.upper()}"
        mp.setenv(env, demo_loaded.dsn(name))
        copy = root / f"{name}.duckdb"
        shutil.copy(db, copy)
        out[name] = {
            "duckdb": project_on(root / name / "duckdb", source, {"duckdb": str(copy)}),
            "postgres": project_on(root / name / "postgres", source,
                                   {"postgres": {"dsn_env": env, "schema": "public"}}),
        }
    yield out
    mp.undo()


def _questions(project: Project):  # type: ignore[no-untyped-def]
    path = project.questions_path or (ROOT / "harness" / "questions" / "demo.yaml")
    return load_questions(path)


class Recorder:
    """Every governed call a layer is asked, in order, with what it answered or why it refused."""

    def __init__(self, layer: SemanticLayer) -> None:
        self.calls: list[tuple[str, Any, Result | str]] = []
        self._call = layer.call
        layer.call = self  # type: ignore[method-assign]

    def __call__(self, kind: str, raw: Any, refuse_empty: bool = True) -> Result:
        try:
            result = self._call(kind, raw, refuse_empty=refuse_empty)
        except errors.SemanticError as exc:
            self.calls.append((kind, raw, exc.code))
            raise
        self.calls.append((kind, raw, result))
        return result


@pytest.fixture(scope="module")
def runs(projects: dict[str, dict[str, Project]], tmp_path_factory: pytest.TempPathFactory
         ) -> dict[str, dict[str, tuple[dict[str, Any], list[Any]]]]:
    """{project: {engine: (results, governed calls)}}: the rules analyst's experiment (claims,
    one repeat, every question of the project's question file) on each engine."""
    out: dict[str, dict[str, tuple[dict[str, Any], list[Any]]]] = {}
    for name, engines in projects.items():
        out[name] = {}
        for engine, project in engines.items():
            questions = _questions(project)
            folder = tmp_path_factory.mktemp(f"run-{name}-{engine}")
            experiment = exp.Experiment(questions, ["claims"], "rules", folder, concurrency=2,
                                        project=project.stamp)
            layer = project.layer()
            recorder = Recorder(layer)
            try:
                out[name][engine] = (exp.run(experiment, RulesClient(), layer), recorder.calls)
            finally:
                layer.close()
    return out


def assert_same(got: Result, want: Result) -> None:
    """Same keys, rows and flags; numbers equal to 1e-9 relative."""
    assert (got.keys, got.coverage) == (want.keys, want.coverage)
    assert [(r.key, r.partial) for r in got.rows] == [(r.key, r.partial) for r in want.rows]
    for g, w in zip(got.rows, want.rows, strict=True):
        for metric, fields in w.values.items():
            for field, value in fields.items():
                other = g.values[metric][field]
                assert (other is None) == (value is None), (g.key, metric, field)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    assert math.isclose(other, value, rel_tol=REL, abs_tol=1e-12), (g.key, metric)
                else:
                    assert other == value, (g.key, metric, field)


@pytest.mark.slow
class TestSameAsDuckDB:
    @pytest.mark.parametrize("name", NAMES)
    def test_every_governed_call_equals_duckdb(self, runs: dict[str, Any],
                                               projects: dict[str, dict[str, Project]],
                                               name: str) -> None:
        """Every governed call the question file's experiment made on DuckDB, asked again on
        PostgreSQL, gives the same rows (values to 1e-9) or is refused for the same reason."""
        calls = runs[name]["duckdb"][1]
        answered = [c for c in calls if isinstance(c[2], Result)]
        assert len(answered) >= 20 and any(not isinstance(c[2], Result) for c in calls)
        layer = projects[name]["postgres"].layer()
        try:
            for kind, raw, want in calls:
                if isinstance(want, Result):
                    assert_same(layer.call(kind, raw), want)
                else:
                    with pytest.raises(errors.SemanticError) as caught:
                        layer.call(kind, raw)
                    assert caught.value.code == want, (kind, raw)
        finally:
            layer.close()

    @pytest.mark.parametrize("name", NAMES)
    def test_attempts_and_scores_equal_duckdb(self, runs: dict[str, Any], name: str) -> None:
        """Each question's attempt (status, driver, correct, grounded, decision, findings) and
        every score are the same on PostgreSQL as on DuckDB; values equal to 1e-9."""
        want, got = runs[name]["duckdb"][0], runs[name]["postgres"][0]
        by_q = {e: {a["question_id"]: a for a in r["attempts"]} for e, r in
                (("duckdb", want), ("postgres", got))}
        assert by_q["postgres"].keys() == by_q["duckdb"].keys()
        for qid, a in by_q["duckdb"].items():
            b = by_q["postgres"][qid]
            assert {k: b[k] for k in SAME} == {k: a[k] for k in SAME}, qid
            if isinstance(a["value"], float):
                assert math.isclose(b["value"], a["value"], rel_tol=REL), qid
            else:
                assert b["value"] == a["value"], qid

        def scores(r: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in r["configs"]["claims"].items() if "latency" not in k}

        assert scores(got) == scores(want)
        assert want["configs"]["claims"]["coverage"]["rate"] > 0.5

    @pytest.mark.parametrize("name", NAMES)
    def test_the_calls_ran_on_postgres(self, runs: dict[str, Any], name: str) -> None:
        """The PostgreSQL experiment made the same governed calls as DuckDB's (so it is not
        comparing two empty runs)."""
        key = [(k, repr(r)) for k, r, _ in runs[name]["duckdb"][1]]
        assert sorted(key) == sorted((k, repr(r)) for k, r, _ in runs[name]["postgres"][1])


# -- shares and comparisons: one statement, one pass -------------------------------------------
MAY, APRIL = {"start": "2019-05-01", "end": "2019-05-31"}, {"start": "2019-04-01", "end": "2019-04-30"}
H1_2019 = {"start": "2019-01-01", "end": "2019-06-30"}
SHOP_SHARES = [
    {"metrics": ["revenue"], "window": MAY, "group_by": ["store"]},
    {"metrics": ["revenue", "order_count"], "window": H1_2019, "grain": "month",
     "group_by": ["store"], "order_by": {"field": "revenue", "desc": True}, "limit": 5},
    {"metrics": ["items_sold"], "window": H1_2019, "group_by": ["order__store__store_name"],
     "where": [{"dimension": "product_type", "values": ["jaffle", "beverage"]}]},
    {"metrics": ["ordering_customers"], "window": MAY, "group_by": ["store"]},
    {"metrics": ["ordering_customers"], "window": H1_2019, "grain": "quarter",
     "group_by": ["region"], "order_by": {"field": "ordering_customers"}, "limit": 3},
    {"metrics": ["revenue"], "window": H1_2019, "grain": "month", "group_by": ["store"],
     "aggregate": "sum"},
    {"metrics": ["customer_base"], "window": H1_2019, "group_by": ["segment"]},
]
"""Share queries of the shop: sums and counts (their total a window over the grouped rows), a
distinct count, a cumulative and a sum over periods (their total a query of its own, joined)."""
SHOP_COMPARES = [
    {"metrics": ["revenue", "order_count", "average_order_value"], "by": "store",
     "current_window": MAY, "previous_window": APRIL},
    {"metrics": ["order_count", "ordering_customers"], "by": "region",
     "current_window": {"start": "2019-03-01", "end": "2019-03-31"},
     "previous_window": {"start": "2019-01-01", "end": "2019-01-31"}},
    {"metrics": ["revenue", "cancellation_rate"], "current_window": APRIL,
     "previous_window": MAY},
    *[{"metrics": metrics, "by": by, "current_window": {"start": "2019-05-01", "end": "2019-05-01"},
       "previous_window": {"start": "2018-02-01", "end": "2018-02-01"}}
      for metrics, by in ((["items_sold", "product_revenue"], "product"),
                          (["ordering_customers", "revenue"], "customer"),
                          (["order_count"], "customer"))],
]
"""Comparisons of the shop: windows that meet, in either order, with a gap between them, and
two single days on which some products did not sell (no row there, not a count of 0)."""


@pytest.fixture(scope="module")
def shop_layers(server: PostgresServer, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[dict[str, SemanticLayer]]:
    """The shop's models over its DuckDB file and over the same tables on the server."""
    mp = pytest.MonkeyPatch()
    mp.setenv(f"{DSN_ENV}_SHOP_LAYER", server.dsn("shop"))
    root = tmp_path_factory.mktemp("shop-layers")
    copy = root / "shop.duckdb"
    shutil.copy(shop_db(), copy)
    layers = {"duckdb": project_on(root / "duckdb", SHOP, {"duckdb": str(copy)}).layer(),
              "postgres": project_on(root / "postgres", SHOP, {"postgres": {
                  "dsn_env": f"{DSN_ENV}_SHOP_LAYER", "schema": "public"}}).layer()}
    yield layers
    for layer in layers.values():
        layer.close()
    mp.undo()


class TestSharesAndComparisons:
    @pytest.mark.parametrize("args", SHOP_SHARES, ids=lambda a: "+".join(sorted(a)))
    def test_a_share_is_one_statement_equal_to_duckdb(self, shop_layers: dict[str, SemanticLayer],
                                                      args: dict[str, Any]) -> None:
        """A share query runs one statement on the server; its rows, shares and totals equal
        DuckDB's (to 1e-9) and each period's total is the ungrouped query's value."""
        pg = shop_layers["postgres"]
        ran: list[str] = []
        run = pg.engine.run

        def counted(sql: str, limits: Limits) -> list[tuple[Any, ...]]:
            ran.append(sql)
            return run(sql, limits)

        pg.engine.run = counted  # type: ignore[method-assign]
        try:
            got = pg.call("query", {**args, "share": True})
        finally:
            del pg.engine.run
        want = shop_layers["duckdb"].call("query", {**args, "share": True})
        assert len(ran) == 1 and got.rows
        assert_same(got, want)
        assert got.totals is not None and want.totals is not None
        assert_same(Result.from_json({**got.to_json(), "keys": got.totals["keys"],
                                      "rows": got.totals["rows"]}),
                    Result.from_json({**want.to_json(), "keys": want.totals["keys"],
                                      "rows": want.totals["rows"]}))
        whole = pg.call("query", {k: v for k, v in args.items()
                                  if k not in ("group_by", "order_by", "limit")})
        alone = {tuple(r.key.values()): r.values for r in whole.rows}
        for row in got.totals["rows"]:
            for metric, fields in row["values"].items():
                assert math.isclose(fields["value"], alone[tuple(row["key"].values())][metric][
                    "value"], rel_tol=REL)

    @pytest.mark.parametrize("args", SHOP_COMPARES,
                             ids=lambda a: f"{a['current_window']['start']}-{a.get('by')}")
    def test_a_comparison_is_one_pass_equal_to_duckdb(self, shop_layers: dict[str, SemanticLayer],
                                                      args: dict[str, Any]) -> None:
        """A comparison's scan reads both windows in one pass of FILTERed aggregates (no
        grouping by the window), with the same rows as DuckDB's grouped one."""
        got = shop_layers["postgres"].call("compare", args)
        want = shop_layers["duckdb"].call("compare", args)
        assert "FILTER(WHERE" in got.sql and "FILTER(WHERE" not in want.sql
        assert_same(got, want)
        assert got.rows

    @pytest.mark.parametrize("args", SHOP_COMPARES[-3:], ids=lambda a: a["metrics"][0])
    def test_a_member_without_rows_in_a_window_has_no_value_there(
            self, shop_layers: dict[str, SemanticLayer], args: dict[str, Any]) -> None:
        """On two single days most customers (and some products) ordered on one only: their
        other value is null (no row), as on DuckDB, not a count of 0 — a sum, a distinct
        count with a sum, and a count of rows."""
        got = shop_layers["postgres"].call("compare", args)
        metric = args["metrics"][0]
        missing = [r for r in got.rows if None in (r.values[metric]["value"],
                                                   r.values[metric]["previous"])]
        assert missing and len(missing) < len(got.rows)
        assert not any(0 in (r.values[metric]["value"], r.values[metric]["previous"])
                       for r in got.rows)

    def test_a_count_its_filter_leaves_no_row_has_no_value(
            self, shop_layers: dict[str, SemanticLayer]) -> None:
        """A customer whose only real order that day was cancelled: no value for orders (not 0)
        beside its gross orders, grouped and in a comparison's window (one FILTERed pass), as
        on DuckDB."""
        day = {"start": "2019-03-28", "end": "2019-03-28"}
        calls = [("query", {"metrics": ["order_count", "gross_orders"], "group_by": ["customer"],
                            "window": day}),
                 ("compare", {"metrics": ["order_count", "gross_orders"], "by": "customer",
                              "current_window": day,
                              "previous_window": {"start": "2019-03-27", "end": "2019-03-27"}})]
        for kind, args in calls:
            got = shop_layers["postgres"].call(kind, args)
            assert_same(got, shop_layers["duckdb"].call(kind, args))
            values = [r.values["order_count"]["value"] for r in got.rows
                      if r.values["gross_orders"]["value"]]
            assert None in values and 0 not in values, kind


# -- the limits, held by the server --------------------------------------------------------------
@pytest.fixture
def shop_engine(server: PostgresServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv(DSN_ENV, server.dsn("shop"))
    engine = open_engine({"postgres": {"dsn_env": DSN_ENV}}, ROOT, project="shop")
    yield engine
    engine.close()


def _orders(server: PostgresServer) -> list[tuple[object, ...]]:
    return server.rows("shop", "SELECT count(*), sum(order_total) FROM orders")


class TestWindowOnTheTimestamp:
    """A window on a day cast from a timestamp column is compared on the column itself."""

    WINDOW = ("SELECT count(*) FROM orders AS o WHERE CAST(o.ordered_at AS DATE) >= "
              "CAST('2019-03-01' AS DATE) AND CAST(o.ordered_at AS DATE) < CAST('2019-04-01' AS "
              "DATE)")

    def test_rewritten_only_for_a_timestamp_column(self) -> None:
        """`>=` and `<` on the cast become timestamp bounds; another column, `<=` (which would
        need the next day) and unknown columns are left as written."""
        stamps = frozenset({("orders", "ordered_at")})
        assert one_select(self.WINDOW, "x", timestamps=stamps) == (
            "SELECT COUNT(*) FROM orders AS o WHERE o.ordered_at >= CAST('2019-03-01' AS "
            "TIMESTAMP) AND o.ordered_at < CAST('2019-04-01' AS TIMESTAMP)")
        assert one_select(self.WINDOW, "x", timestamps=frozenset({("orders", "status")})) == (
            self.WINDOW)
        inclusive = self.WINDOW.replace(") < CAST", ") <= CAST")
        assert "CAST(o.ordered_at AS DATE) <=" in one_select(inclusive, "x", timestamps=stamps)

    def test_same_rows_on_the_server(self, shop_engine: Any, server: PostgresServer) -> None:
        """The engine sends the rewritten window (it read the column's type from the catalog)
        and the server counts the same orders as with the cast on every row."""
        sent = shop_engine.run(self.WINDOW, shop_engine.limits)
        assert shop_engine._checked[self.WINDOW].count("CAST(o.ordered_at AS DATE)") == 0
        assert sent == server.rows("shop", self.WINDOW) and sent[0][0] > 0


class TestLimits:
    def test_tables_are_the_schemas(self, shop_engine: Any) -> None:
        """tables() lists the shop's tables with PostgreSQL's own type names."""
        tables = shop_engine.tables()
        assert {"orders", "order_items", "customers", "stores"} <= set(tables)
        assert ("order_total", "numeric") in tables["orders"] or any(
            c == "order_total" for c, _ in tables["orders"])

    def test_libpq_variables_without_dsn_env(self, server: PostgresServer,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
        """Without dsn_env, libpq's own PGHOST/PGPORT/PGDATABASE/PGUSER/PGPASSWORD connect; the
        message names them, never the password."""
        from postgres_server import READER_PASSWORD

        for var, value in (("PGHOST", "127.0.0.1"), ("PGPORT", str(server.port)),
                           ("PGDATABASE", "shop"), ("PGUSER", READER),
                           ("PGPASSWORD", READER_PASSWORD)):
            monkeypatch.setenv(var, value)
        engine = open_engine({"postgres": {}}, ROOT, project="shop")
        try:
            assert engine.run("SELECT current_user, current_database()", Limits()) == [
                (READER, "shop")]
            assert repr(engine) == (f"PostgresEngine(project shop, PostgreSQL at {READER}@"
                                    f"127.0.0.1:{server.port}/shop)")
        finally:
            engine.close()

    def test_timeout_is_the_servers(self, shop_engine: Any) -> None:
        """A query past the timeout is cancelled by the server (statement_timeout), reported
        as QueryTimeout naming the project and the engine."""
        with pytest.raises(errors.QueryTimeout) as caught:
            shop_engine.run("SELECT pg_sleep(5)", Limits(timeout_s=0.2))
        assert "project shop, PostgreSQL at" in caught.value.message
        assert shop_engine.run("SELECT 1", Limits()) == [(1,)]  # the engine still serves

    def test_statement_timeout_is_set_per_call(self, shop_engine: Any) -> None:
        """Each call's transaction carries its own statement_timeout."""
        assert shop_engine.run("SELECT current_setting('statement_timeout')",
                               Limits(timeout_s=7)) == [("7s",)]
        assert shop_engine.run("SELECT current_setting('statement_timeout')",
                               Limits(timeout_s=1.5)) == [("1500ms",)]

    def test_row_cap_is_an_error(self, shop_engine: Any) -> None:
        with pytest.raises(errors.RowCapExceeded):
            shop_engine.run("SELECT order_id FROM orders", Limits(row_cap=10))

    def test_the_transaction_is_read_only(self, shop_engine: Any) -> None:
        """The server itself sees a read-only transaction (and session default)."""
        assert shop_engine.run("SELECT current_setting('transaction_read_only'), "
                               "current_setting('default_transaction_read_only')",
                               Limits()) == [("on", "on")]

    @pytest.mark.parametrize("sql", [
        "DELETE FROM orders",
        "SELECT 1; DELETE FROM orders",
        "WITH gone AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM gone",
        "SELECT * INTO stolen FROM orders",
        "CREATE TABLE x AS SELECT 1",
    ])
    def test_only_one_select_runs(self, shop_engine: Any, server: PostgresServer,
                                  sql: str) -> None:
        """A write in any form is refused before it reaches the server; the data is unchanged."""
        before = _orders(server)
        with pytest.raises(errors.ExecutionError) as caught:
            shop_engine.run(sql, Limits())
        assert "project shop, PostgreSQL" in caught.value.message
        assert _orders(server) == before

    def test_the_server_refuses_a_write_the_parser_let_through(
            self, shop_engine: Any, server: PostgresServer) -> None:
        """A write hidden in a function is a plain SELECT to the parser; the server's read-only
        transaction refuses it, and the data is unchanged."""
        with server.admin("shop") as con:
            con.execute("CREATE OR REPLACE FUNCTION wipe() RETURNS bigint LANGUAGE sql AS "
                        "'DELETE FROM order_items RETURNING 1' ")
            con.execute(f"GRANT DELETE ON order_items TO {READER}")
        try:
            before = server.rows("shop", "SELECT count(*) FROM order_items")
            with pytest.raises(errors.ExecutionError) as caught:
                shop_engine.run("SELECT wipe()", Limits())
            assert "refused a write: the governed connection is read-only" in caught.value.message
            assert server.rows("shop", "SELECT count(*) FROM order_items") == before
        finally:
            with server.admin("shop") as con:
                con.execute(f"REVOKE DELETE ON order_items FROM {READER}")
                con.execute("DROP FUNCTION wipe()")

    def test_the_role_has_no_write_grant(self, server: PostgresServer) -> None:
        """Outside the read-only transaction too, the reader role may not write."""
        import psycopg

        with psycopg.connect(server.dsn("shop"), autocommit=True) as con, \
                pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("DELETE FROM orders")
        assert READER in server.dsn("shop")


# -- bad input: one clear error naming the project and the engine --------------------------------
def _shop_project(tmp_path: Path, warehouse: dict[str, Any]) -> Project:
    return project_on(tmp_path / "p", SHOP, warehouse)


def _cli(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    import os
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "showwork", *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=120, check=False)
    return proc.returncode, proc.stdout, proc.stderr


class TestBadInput:
    def test_server_down(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """Nothing listening on the port: EngineUnavailable at open, naming project and engine,
        within the connect timeout."""
        from postgres_server import free_port

        monkeypatch.setenv(DSN_ENV, f"postgresql://{READER}:x@127.0.0.1:{free_port()}/shop")
        project = _shop_project(tmp_path, {"postgres": {"dsn_env": DSN_ENV}})
        with pytest.raises(errors.EngineUnavailable) as caught:
            project.layer()
        msg = caught.value.message
        assert msg.startswith("project shop, PostgreSQL at showwork_reader@127.0.0.1:")
        assert "could not connect" in msg and "Traceback" not in msg

    def test_wrong_password_never_shown(self, server: PostgresServer, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
        """A wrong password is refused by the server; the message says so and never holds it."""
        secret = "planted-Secret-91f3"
        monkeypatch.setenv(DSN_ENV, server.dsn("shop", password=secret))
        project = _shop_project(tmp_path, {"postgres": {"dsn_env": DSN_ENV}})
        with pytest.raises(errors.EngineUnavailable) as caught:
            project.layer()
        assert "password authentication failed" in caught.value.message
        assert "project shop, PostgreSQL at" in caught.value.message
        assert secret not in caught.value.message

    @pytest.mark.parametrize("dsn", ["postgresql//u:sekret-77@127.0.0.1:1/db",
                                     "host=127.0.0.1 password=sekret-77 bogus"])
    def test_malformed_dsn_is_named_never_shown(self, dsn: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
        """A DSN libpq cannot read is refused naming its variable, never quoting it."""
        monkeypatch.setenv(DSN_ENV, dsn)
        with pytest.raises(errors.WarehouseSpecError) as caught:
            open_engine({"postgres": {"dsn_env": DSN_ENV}}, ROOT, project="shop")
        assert DSN_ENV in caught.value.message and "sekret-77" not in caught.value.message

    def test_missing_table_and_column(self, server: PostgresServer, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
        """A model naming a table or a column the server lacks is refused at open, naming both."""
        monkeypatch.setenv(DSN_ENV, server.dsn("shop"))
        project = _shop_project(tmp_path, {"postgres": {"dsn_env": DSN_ENV}})
        models = tmp_path / "p" / "models"
        for f in models.rglob("*.yml"):
            text = f.read_text(encoding="utf-8")
            f.write_text(text.replace("ref('stores')", "ref('shops')").replace(
                "order_total", "order_sum"), encoding="utf-8")
        project = Project.load(tmp_path / "p" / "showwork.yaml")
        with pytest.raises(errors.WarehouseMismatch) as caught:
            project.layer()
        msg = caught.value.message
        assert "'shops', which the warehouse lacks" in msg
        assert "column 'order_sum' is not in table 'orders'" in msg
        assert "project shop, PostgreSQL at" in msg

    def test_missing_column_at_run_time(self, shop_engine: Any) -> None:
        """SQL naming a column the server lacks is an ExecutionError with the server's reason."""
        with pytest.raises(errors.ExecutionError) as caught:
            shop_engine.run("SELECT no_such_column FROM orders", Limits())
        assert 'column "no_such_column" does not exist' in caught.value.message
        assert caught.value.message.startswith("project shop, PostgreSQL at")

    def test_write_smuggled_into_a_filter(self, server: PostgresServer, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
        """A statement in a MetricFlow --where is refused by the filter's parser; one in a
        member value is a literal (refused as an unknown member); the data is unchanged."""
        from showwork.semantic_layer import parse_where

        before = _orders(server)
        for where in ("{{ Dimension('order__region') }} = 'x'; DELETE FROM orders",
                      "{{ Dimension('order__region') }} = 'x' OR (DELETE FROM orders)"):
            with pytest.raises(errors.SemanticError):
                parse_where(where)
        monkeypatch.setenv(DSN_ENV, server.dsn("shop"))
        layer = _shop_project(tmp_path, {"postgres": {"dsn_env": DSN_ENV}}).layer()
        try:
            with pytest.raises(errors.BlockedQuery):
                layer.query(metrics=["revenue"], window={"start": "2019-01-01",
                                                         "end": "2019-01-31"},
                            where=[{"dimension": "region",
                                    "values": ["x'); DELETE FROM orders; --"]}])
        finally:
            layer.close()
        assert _orders(server) == before

    def test_cli_error_is_one_line(self, server: PostgresServer, tmp_path: Path) -> None:
        """`showwork semantic query` on a down server: one error line naming the project and
        the engine, no traceback, a non-zero exit."""
        from postgres_server import free_port

        project = _shop_project(tmp_path, {"postgres": {"dsn_env": DSN_ENV}})
        code, out, err = _cli("semantic", "query", "--project", str(project.root), "--metric",
                              "revenue", env={DSN_ENV: f"postgresql://u:pw-zz9@127.0.0.1:"
                                              f"{free_port()}/shop", "SHOWWORK_SOURCES": "1"})
        assert code == 3, err  # a bad project (README "Exit codes")
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("bad project: project shop, PostgreSQL at"), err
        assert "Traceback" not in err and "pw-zz9" not in err + out


# -- the command line: the same scores, and the password in no output ----------------------------
@pytest.mark.slow
class TestCommandLine:
    def test_experiment_scores_equal_and_the_password_is_nowhere(
            self, server: PostgresServer, tmp_path: Path) -> None:
        """`showwork experiment --project …` on the shop over PostgreSQL scores exactly as over
        DuckDB; the DSN's password is in no output, trace, run folder, report or web page."""
        from showwork.harness.present.web import App

        secret = server.dsn("shop").split(":")[2].split("@")[0]
        assert len(secret) > 8
        copy = tmp_path / "shop.duckdb"
        shutil.copy(shop_db(), copy)
        duck = project_on(tmp_path / "duck", SHOP, {"duckdb": str(copy)})
        pg = project_on(tmp_path / "pg", SHOP, {"postgres": {"dsn_env": DSN_ENV}})
        home = tmp_path / "home"
        env = {DSN_ENV: server.dsn("shop"), "SHOWWORK_HOME": str(home), "SHOWWORK_SOURCES": "1"}
        scores, outputs = {}, ""
        for name, project in (("duckdb", duck), ("postgres", pg)):
            out = home / "runs" / name
            code, stdout, stderr = _cli("experiment", "--project", str(project.root), "--configs",
                                        "claims", "--out", str(out), "--json", env=env)
            assert code == 0, stderr
            outputs += stdout + stderr
            results = json.loads((out / "results.json").read_text(encoding="utf-8"))
            scores[name] = {k: v for k, v in results["configs"]["claims"].items()
                            if "latency" not in k}
            code, stdout, stderr = _cli("report", str(out), env=env)
            outputs += stdout + stderr
        assert scores["postgres"] == scores["duckdb"]
        assert scores["duckdb"]["coverage"]["rate"] > 0.5
        app = App(runs=home / "runs", asks=home / "asks" / "traces.jsonl", layer_factory=pg.layer)
        pages = app.index() + app.findings(home / "runs" / "postgres")
        assert secret not in outputs + pages
        files = [p for p in home.rglob("*") if p.is_file()]
        assert any(p.name == "report.html" for p in files) and any(
            p.name == "traces.jsonl" for p in files)
        for path in files:
            assert secret.encode() not in path.read_bytes(), path
