"""Load what dbt loads: dimension paths named as MetricFlow names them (never a repeated element,
`policy__policy__policy_number`), on an insurance-shaped project and on every bundled one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from showwork.semantic_layer import errors, load_model
from showwork.semantic_layer.joins import repeats
from showwork.semantic_layer.model import SemanticModelFile

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = {"demo": None, "shop": ROOT / "examples" / "shop",
           "conformance": ROOT / "conformance" / "project" / "models"}


def insurance(tmp_path: Path) -> SemanticModelFile:
    """Claims on policies; a policy's terms keyed by the policy too (a unique entity): a path
    claims → policies → policy_terms would join `policy` twice."""
    def model(name: str, entities: list[dict], dims: list[dict], measures: list[dict]) -> dict:
        return {"name": name, "model": f"ref('{name}')", "defaults": {"agg_time_dimension": "ds"},
                "entities": entities, "measures": measures,
                "dimensions": [{"name": "ds", "type": "time",
                                "type_params": {"time_granularity": "day"}}, *dims]}

    doc = {"semantic_models": [
        model("claims", [{"name": "claim", "type": "primary"},
                         {"name": "policy", "type": "foreign"}],
              [{"name": "status", "type": "categorical"}],
              [{"name": "claim_amount", "agg": "sum"}]),
        model("policies", [{"name": "policy", "type": "primary"}],
              [{"name": "policy_number", "type": "categorical"}], []),
        model("policy_terms", [{"name": "policy_term", "type": "primary"},
                               {"name": "policy", "type": "unique"}],
              [{"name": "term_length", "type": "categorical"}], [])],
        "metrics": [{"name": "claim_amount", "type": "simple", "label": "claims",
                     "type_params": {"measure": "claim_amount"}}]}
    (tmp_path / "models.yml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    return load_model(tmp_path / "models.yml")


class TestPaths:
    def test_no_repeated_element_is_offered(self, tmp_path: Path) -> None:
        """The offered names are MetricFlow's: policy__policy_number and policy__term_length,
        never policy__policy__policy_number (claims → policy_terms → policies)."""
        offered = insurance(tmp_path).supported_dimensions("claim_amount")
        assert {"policy__policy_number", "policy__term_length", "claim__status"} <= set(offered)
        assert [n for n in offered if repeats(tuple(n.split("__")))] == []

    @pytest.mark.parametrize("name", ["policy__policy__policy_number",
                                  "policy__policy__term_length"])
    def test_a_repeated_name_is_refused_with_the_reason(self, tmp_path: Path, name: str) -> None:
        """Asked by a repeated name: refused, saying MetricFlow names no element so."""
        from showwork.semantic_layer import SemanticLayer

        layer = SemanticLayer(insurance(tmp_path))
        with pytest.raises(errors.UnsupportedDimension, match="repeats a name element"):
            layer.compile("query", {"metrics": ["claim_amount"], "group_by": [name]})

    @pytest.mark.parametrize("project", sorted(BUNDLED))
    def test_bundled_projects_offer_no_repeated_name(self, project: str) -> None:
        """Every metric of the demo, the shop and the conformance project: each offered name
        has no repeated element, and each still resolves."""
        model = load_model(BUNDLED[project])
        names = {n for m in model.metrics for n in model.supported_dimensions(m.name)}
        assert len(names) >= 5
        assert [n for n in names if repeats(tuple(model.qualified_name(n).split("__")))] == []


class TestBrokenModel:
    def test_a_model_no_metric_reads_is_skipped(self, shop_db: Path, tmp_path: Path) -> None:
        """The conformance project with countries.region dropped (a typo'd column in a model
        whose measures no metric reads): countries is skipped and reported, the metrics whose
        filters read its dimensions are withdrawn with the reason, every other metric answers
        the same numbers."""
        import shutil

        import duckdb

        from showwork.semantic_layer import SemanticLayer
        from showwork.semantic_layer.engines import open_engine

        db = tmp_path / "broken.duckdb"
        shutil.copy(shop_db, db)
        con = duckdb.connect(str(db))
        con.execute("ALTER TABLE countries RENAME COLUMN region TO regoin")
        con.close()
        model = load_model(BUNDLED["conformance"])
        layer = SemanticLayer(model, engine=open_engine({"duckdb": str(db)}, tmp_path))
        whole = SemanticLayer(model, engine=open_engine({"duckdb": str(shop_db)}, tmp_path))
        try:
            assert [p for p in layer.skipped if "'countries', dimension 'region': column "
                    "'region' is not in table 'countries'" in p]
            reasons = dict(layer.model.unsupported)
            assert "revenue_north_america" in reasons and "countries" in reasons[
                "revenue_north_america"]
            with pytest.raises(errors.SemanticError, match="countries"):
                layer.query(metrics=["revenue_north_america"])
            args = {"metrics": ["revenue", "orders"], "group_by": ["customer__segment"],
                    "grain": "month"}
            assert layer.call("query", args).rows == whole.call("query", args).rows
        finally:
            layer.close()
            whole.close()


    def test_the_shops_unread_model_is_skipped(self, tmp_path: Path) -> None:
        """The shop example with products.product_type renamed (a model whose measures no metric
        reads): products is skipped and reported, and revenue and orders by segment answer the
        same numbers as on the whole warehouse."""
        import shutil
        import sys

        import duckdb

        from showwork.semantic_layer import SemanticLayer
        from showwork.semantic_layer.engines import open_engine
        from showwork.semantic_layer.project import load_project

        sys.path.insert(0, str(ROOT / "tests" / "support"))
        from shop_data import shop_db

        whole_db, db = shop_db(), tmp_path / "broken.duckdb"
        shutil.copy(whole_db, db)
        con = duckdb.connect(str(db))
        con.execute("ALTER TABLE products RENAME COLUMN product_type TO prodcut_type")
        con.close()
        model = load_project(BUNDLED["shop"])
        layer = SemanticLayer(model, engine=open_engine({"duckdb": str(db)}, tmp_path))
        whole = SemanticLayer(model, engine=open_engine({"duckdb": str(whole_db)}, tmp_path))
        try:
            assert [p for p in layer.skipped if "'products', dimension 'product_type'" in p]
            args = {"metrics": ["revenue", "order_count"], "group_by": ["customer__segment"],
                    "grain": "quarter"}
            rows = layer.call("query", args).rows
            assert rows and rows == whole.call("query", args).rows
        finally:
            layer.close()
            whole.close()


class TestLegacyTimeSpine:
    """The legacy time spine: a `metricflow_time_spine` model with no YAML (dbt-core writes it
    into the manifest as time_spine_table_configurations, date_day by day) is the day spine, so
    an all-time cumulative runs to the spine's end as MetricFlow's does."""

    def _models(self, tmp_path: Path, spine_yaml: bool, spine_sql: bool) -> Path:
        import shutil

        folder = tmp_path / f"models-{spine_yaml}-{spine_sql}"
        shutil.copytree(BUNDLED["conformance"], folder)
        if not spine_yaml:
            (folder / "time_spine.yml").unlink()
        if not spine_sql:
            (folder / "metricflow_time_spine.sql").unlink()
        return folder

    def test_the_model_alone_is_the_day_spine(self, tmp_path: Path) -> None:
        model = load_model(self._models(tmp_path, spine_yaml=False, spine_sql=True))
        ((table, column, grain),) = [(s.table, s.column, s.grain) for s in model.time_spines]
        assert (table, column, grain) == ("metricflow_time_spine", "date_day", "day")

    def test_cumulative_runs_to_the_spine_end(self, shop_db: Path, tmp_path: Path) -> None:
        """revenue_all_time by month with no window: with the legacy spine the rows run to
        the spine's last month (2025-12), as with the YAML spine; with neither they stop at
        the data's."""
        from showwork.semantic_layer import SemanticLayer

        args = {"metrics": ["revenue_all_time"], "grain": "month"}
        rows = {}
        for spine_yaml, spine_sql in ((True, True), (False, True), (False, False)):
            layer = SemanticLayer(load_model(self._models(tmp_path, spine_yaml, spine_sql)),
                                  shop_db)
            try:
                rows[(spine_yaml, spine_sql)] = layer.call("query", args).rows
            finally:
                layer.close()
        legacy, spine = rows[(False, True)], rows[(True, True)]
        assert [r.key for r in legacy] == [r.key for r in spine]
        assert [r.values["revenue_all_time"]["value"] for r in legacy] == pytest.approx(
            [r.values["revenue_all_time"]["value"] for r in spine], rel=1e-9)
        assert legacy[-1].key["month"] == "2025-12-01"
        assert len(rows[(False, False)]) < len(rows[(False, True)])

    def test_manifest_legacy_configuration(self, tmp_path: Path) -> None:
        """A semantic manifest's time_spine_table_configurations (dbt-core's legacy spine,
        "db"."schema"."table") is the day spine, in its schema; a YAML day spine wins."""
        import json

        from showwork.semantic_layer.dbt_yaml import read_dbt_yaml
        from showwork.semantic_layer.manifest import to_dsi

        folder = self._models(tmp_path, spine_yaml=False, spine_sql=False)
        data = json.loads(to_dsi(read_dbt_yaml(folder), True).json())
        data["project_configuration"]["time_spine_table_configurations"] = [
            {"location": '"w"."marts"."metricflow_time_spine"', "column_name": "date_day",
             "grain": "day"}]
        (tmp_path / "semantic_manifest.json").write_text(json.dumps(data), encoding="utf-8")
        (spine,) = load_model(tmp_path / "semantic_manifest.json").time_spines
        assert (spine.schema, spine.table, spine.column) == ("marts", "metricflow_time_spine",
                                                             "date_day")


class TestModelPaths:
    """dbt reads every folder of `model-paths`: semantic models in one, metrics and the time
    spine's YAML in others load together (they did not: only the first folder holding semantic
    models was read, so a project keeping metrics apart had none)."""

    def test_a_vendored_project_with_metrics_apart(self) -> None:
        """qiubite31/dbt-metricflow-intro (MIT): semantic_models/, metrics/, models/."""
        model = load_model(ROOT / "conformance" / "projects" / "dbt-metricflow-intro")
        assert {m.name for m in model.metrics} == {"total_orders", "total_revenue",
                                                   "average_order_value"}
        assert [(s.table, s.column, s.grain) for s in model.time_spines] == [
            ("metricflow_time_spine", "date_day", "day")]

    def test_the_conformance_project_split_over_three_paths(self, tmp_path: Path) -> None:
        """The conformance project's metrics and time spine moved to folders of their own
        load to the same metrics as the project kept in one folder."""
        source = ROOT / "conformance" / "project"
        root = tmp_path / "split"
        root.mkdir()
        for part in ("models", "metrics", "spines"):
            (root / part).mkdir()
        for f in (source / "models").iterdir():
            dest = {"metrics.yml": "metrics", "time_spine.yml": "spines"}.get(f.name, "models")
            (root / dest / f.name).write_bytes(f.read_bytes())
        text = (source / "dbt_project.yml").read_text(encoding="utf-8")
        (root / "dbt_project.yml").write_text(text.replace(
            'model-paths: ["models"]', 'model-paths: ["models", "metrics", "spines"]'),
            encoding="utf-8")
        whole = load_model(source / "models")
        split = load_model(root)
        assert [m.name for m in split.metrics] == [m.name for m in whole.metrics]
        spines = [[(s.table, s.column, s.grain) for s in m.time_spines] for m in (split, whole)]
        assert spines[0] == spines[1] != []
        assert len(split.metrics) > 20
