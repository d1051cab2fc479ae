"""`showwork init`: a starter project drafted from a warehouse's catalog and data, that every
command then runs on (init → semantic validate → semantic query → ask → experiment → report →
findings → audit)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import duckdb
import pytest
import yaml
from test_project import FEW, home, shop_db, showwork, write_few  # noqa: F401 (fixtures)

from harness.init import Column, Table, find_key, kind_of, singular, snake
from harness.project import Project
from traces import read

ENGINES = importlib.util.find_spec("semantic_layer.engines") is not None


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
        assert settings == {"name": "drafted", "semantic_models": "models/",
                            "warehouse": {"duckdb": "../shop.duckdb"}}
        for path in [drafted / "showwork.yaml", *(drafted / "models").glob("*.yml")]:
            assert path.read_text(encoding="utf-8").startswith("# A DRAFT by `showwork init`")
        models = _models(drafted)
        assert set(models) >= {"orders", "order_items", "customers", "products", "stores",
                               "regions"}
        assert all(sm["config"] == {"meta": {"showwork": {"draft": True}}}
                   for sm in models.values())

    def test_keys_and_foreign_keys(self, drafted: Path) -> None:
        """Primary keys by name and uniqueness; foreign keys by name and values (orders keep
        their link to customers despite the deleted customers' orphan orders)."""
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

    def test_dimensions_measures_metrics(self, drafted: Path) -> None:
        """Time and small categorical dimensions; count and sum measures where the table has a
        time; a simple metric per measure."""
        orders = _models(drafted)["orders"]
        assert orders["defaults"] == {"agg_time_dimension": "ordered_at"}
        assert [(d["name"], d["type"]) for d in orders["dimensions"]] == [
            ("ordered_at", "time"), ("status", "categorical"), ("is_test", "categorical")]
        assert [(m["name"], m["agg"]) for m in orders["measures"]] == [
            ("order_count", "count"), ("order_total", "sum")]
        products = _models(drafted)["products"]
        assert "measures" not in products  # no time column: a dimension table
        assert [d["name"] for d in products["dimensions"]] == ["product_name", "product_type"]
        metrics = _metrics(drafted)
        assert metrics["order_total"]["type"] == "simple"
        assert metrics["order_total"]["type_params"] == {"measure": "order_total"}

    def test_existing_project_and_missing_source_refused(self, drafted: Path, home: Path) -> None:  # noqa: F811
        """init never overwrites a project, and names a source it cannot read."""
        again = showwork("init", str(drafted), "--from", str(drafted.parent / "shop.duckdb"),
                         home=home)
        assert again.returncode == 3 and "showwork.yaml already exists" in again.stderr
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
            assert validate.returncode == 2 and "semantic_layer.engines" in validate.stderr


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

    def test_key_needs_name_and_uniqueness(self) -> None:
        """A unique `<entity>_id` is the key; a repeated one, or an unrelated `_id`, is not."""
        def table(distinct: int, name: str = "order_id") -> Table:
            return Table("orders", 10, (Column(name, "BIGINT", "integer", distinct, 10),))

        assert find_key(table(10)) == ("order", "order_id")
        assert find_key(table(9)) == ("order", None)
        assert find_key(table(10, "user_id")) == ("order", None)
        assert find_key(table(10, "id")) == ("order", "id")
