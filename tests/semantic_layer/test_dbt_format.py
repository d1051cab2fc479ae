"""The semantic model is dbt MetricFlow's: dbt YAML (a file or a folder, as dbt writes it) and
dbt's target/semantic_manifest.json load unchanged, through dbt-semantic-interfaces."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from showwork.semantic_layer import SemanticLayer, errors, load_model
from showwork.semantic_layer.catalog import build_catalog

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TUTORIAL = FIXTURES / "tutorial_shape"
CONFORMANCE = Path(__file__).resolve().parents[2] / "conformance" / "project"
Q1 = {"start": "2024-01-01", "end": "2024-03-31"}


class TestTutorialShapedProject:
    def test_loads_unchanged(self) -> None:
        """Upper-case agg and type, `---`, entity_path filters, saved queries, dbt models and
        sources beside the semantic models: the folder loads as it is."""
        with capture_logs() as logs:
            model = load_model(TUTORIAL)
        assert {m.name for m in model.metrics} >= {"takings", "pastry_share", "sales_to_date"}
        assert model.measures["pastry_sales"][1].agg == "sum_boolean"
        assert model.metric_index["sales_last_7_days"].type == "cumulative"
        skipped = [e["detail"] for e in logs if e["event"] == "not used"]
        assert skipped == [f"{TUTORIAL / 'saved_queries.yml'}:2: saved query 'daily_takings' "
                           "is not used by showwork (not a metric)"]

    def test_dimensions_named_as_metricflow_names_them(self) -> None:
        """Own dimensions by the primary entity, joined ones by the entity path (multi-hop)."""
        model = load_model(TUTORIAL)
        assert model.supported_dimensions("takings") == [
            "sale__is_big_ticket", "shop__city__region", "shop__shop_city"]
        assert build_catalog(model)["dimensions"]["shop__city__region"]["label"] == "region"

    def test_entity_path_filter_joins_two_hops(self) -> None:
        """`Dimension('city__region', entity_path=['shop'])` joins shops then cities, LEFT."""
        sql = SemanticLayer(load_model(TUTORIAL)).compile(
            "query", {"metrics": ["takings_in_the_north"], "window": Q1}).sql
        assert ("FROM sales LEFT JOIN shops ON sales.shop_id = shops.shop_id "
                "LEFT JOIN cities ON shops.city = cities.city") in sql
        assert "cities.region = 'north'" in sql


class TestManifest:
    def test_semantic_manifest_json_loads(self) -> None:
        """dbt's target/semantic_manifest.json gives the same model as the dbt YAML it came from."""
        from_json = load_model(FIXTURES / "conformance_semantic_manifest.json")
        from_yaml = load_model(CONFORMANCE / "models")
        assert [m.name for m in from_json.metrics] == [m.name for m in from_yaml.metrics]
        args = {"metrics": ["revenue_per_visit", "revenue_wow", "revenue_north_america"],
                "grain": "week", "group_by": ["customer__country__region"],
                "window": {"start": "2024-01-08", "end": "2024-03-31"}}
        assert (SemanticLayer(from_json).compile("query", args).sql
                == SemanticLayer(from_yaml).compile("query", args).sql)

    def test_a_broken_manifest_says_where(self, tmp_path: Path) -> None:
        """A manifest that is not JSON is an error naming the file."""
        bad = tmp_path / "semantic_manifest.json"
        bad.write_text("{not json")
        with pytest.raises(errors.ModelError, match="semantic_manifest.json: not a readable"):
            load_model(bad)


class TestYamlAsDbtWritesIt:
    def test_one_file(self, tmp_path: Path) -> None:
        """A single YAML file with semantic models and metrics is a model."""
        one = tmp_path / "schema.yml"
        one.write_text((TUTORIAL / "sales.yml").read_text() + (TUTORIAL / "metrics.yml").read_text()
                       .replace("metrics:\n", "\nmetrics:\n", 1).split("  - name: pastry_share")[0])
        model = load_model(one)
        assert [m.name for m in model.metrics] == ["takings", "sales", "pastry_sales"]

    def test_disabled_objects_and_dbt_keys(self, tmp_path: Path) -> None:
        """`config: {enabled: false}` leaves an object out; dbt-only keys (group, tags, meta) do
        not trip the validation."""
        project = Path(shutil.copytree(TUTORIAL, tmp_path / "p"))
        text = (project / "metrics.yml").read_text()
        text = text.replace('    label: "Sales"\n', '    label: "Sales"\n    config: {enabled: false}\n')
        text = text.replace('    label: "Takings"\n',
                            '    label: "Takings"\n    group: finance\n    meta: {owner: ann}\n')
        (project / "metrics.yml").write_text(text)
        model = load_model(project)
        assert "sales" not in model.metric_index and "takings" in model.metric_index

    def test_documentation_on_every_element(self, tmp_path: Path) -> None:
        """Labels, descriptions, meta and config on semantic models, entities, dimensions,
        measures and metrics load as dbt parses them (an entity's description was rejected);
        saved queries load with a note; a problem still names the file, line and model."""
        project = Path(shutil.copytree(TUTORIAL, tmp_path / "p"))
        text = (project / "shops.yml").read_text()
        text = text.replace("      - name: shop\n        type: primary\n",
                            "      - name: shop\n        type: primary\n        description: A shop.\n"
                            "        label: Shop\n        meta: {owner: ann}\n"
                            "        config: {meta: {pii: false}}\n")
        text = text.replace("        agg: SUM\n", "        agg: SUM\n        description: One a shop."
                            "\n        label: Shops opened\n        config: {meta: {unit: shops}}\n")
        (project / "shops.yml").write_text(text)
        model = load_model(project)
        shops = model.semantic_model("shops")
        assert shops.entity("shop") is not None and shops.measures[0].name == "shops_opened"
        conformance = load_model(CONFORMANCE / "models")  # the dbt project's own, parsed by dbt too
        assert conformance.semantic_model("customers").entity("customer").expr == "customer_id"
        (project / "shops.yml").write_text(text.replace("        label: Shop\n",
                                                        "        label: Shop\n        typo: 1\n"))
        with pytest.raises(errors.ModelError) as caught:
            load_model(project)
        assert "shops.yml:2: semantic model 'shops'" in str(caught.value)
        assert "'typo' was unexpected" in str(caught.value)

    def test_dbt_semantic_interfaces_yaml(self, tmp_path: Path) -> None:
        """MetricFlow's own test manifests are dbt-semantic-interfaces' YAML (one object a
        document, a node_relation with a `$source_schema` placeholder); a measure with
        `create_metric: true` is a metric too (conformance/fixtures.py loads MetricFlow's own)."""
        (tmp_path / "bookings.yaml").write_text(
            "---\nsemantic_model:\n  name: bookings\n  node_relation:\n"
            "    schema_name: $source_schema\n    alias: fct_bookings\n"
            "  defaults: {agg_time_dimension: ds}\n"
            "  measures:\n    - {name: bookings, agg: sum, expr: '1', create_metric: true}\n"
            "  dimensions:\n    - {name: ds, type: time, type_params: {time_granularity: day}}\n"
            "  entities:\n    - {name: booking, type: primary, expr: booking_id}\n"
            "---\nmetric:\n  name: twice\n  type: derived\n"
            "  type_params: {expr: bookings * 2, metrics: [{name: bookings}]}\n")
        model = load_model(tmp_path)
        assert sorted(model.metric_index) == ["bookings", "twice"]
        assert model.semantic_model("bookings").table == "fct_bookings"
        assert model.semantic_model("bookings").schema in (None, "")

    def test_no_semantic_models_is_an_error(self, tmp_path: Path) -> None:
        """A folder without semantic models says so rather than loading an empty model."""
        (tmp_path / "schema.yml").write_text("version: 2\nmodels:\n  - name: x\n")
        with pytest.raises(errors.ModelError, match="no semantic_models found"):
            load_model(tmp_path)

    def test_unreadable_yaml_names_the_file(self, tmp_path: Path) -> None:
        """A YAML syntax error is reported with its file."""
        (tmp_path / "bad.yml").write_text("semantic_models: [\n")
        with pytest.raises(errors.ModelError, match="bad.yml: not readable YAML"):
            load_model(tmp_path)
