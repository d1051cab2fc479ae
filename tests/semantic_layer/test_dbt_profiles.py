"""profiles.yml as dbt reads it: a semantic model's `ref()` is the relation dbt builds for the
profile's target (its schema, a custom schema as dbt's generate_schema_name names it, an alias),
named bare where the warehouse engine reads bare names, for every adapter showwork maps
(duckdb, postgres, snowflake, bigquery, databricks). Tried on conformance/project and on the
shop's models, each made a dbt project."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from showwork.semantic_layer.dbt_project import Placement, default_schema, placement, read_dbt_project
from showwork.semantic_layer.project import load_project

ROOT = Path(__file__).resolve().parents[2]
PROJECTS = {"conformance": (ROOT / "conformance" / "project" / "models", "transactions"),
            "shop": (ROOT / "examples" / "shop" / "models", "orders")}

TARGETS = {
    "duckdb": {"type": "duckdb", "path": "w.duckdb", "schema": "dbt_sl_test"},
    "postgres": {"type": "postgres", "host": "h", "user": "u", "password": "p", "port": 5432,
                 "dbname": "d", "schema": "dbt_sl_test"},
    "snowflake": {"type": "snowflake", "account": "a", "user": "u", "password": "p",
                  "database": "D", "warehouse": "W", "schema": "dbt_sl_test"},
    "bigquery": {"type": "bigquery", "method": "oauth", "project": "p", "dataset": "dbt_sl_test"},
    "databricks": {"type": "databricks", "host": "h", "http_path": "/x", "token": "t",
                   "catalog": "c", "schema": "dbt_sl_test"},
}


def dbt_project(tmp_path: Path, domain: str, target: dict[str, object], *,
                models_config: dict[str, object] | None = None) -> Path:
    """The domain's models as a dbt project whose profile has the one target `dev`."""
    models, _ = PROJECTS[domain]
    root = tmp_path / domain
    shutil.copytree(models, root / "models", ignore=shutil.ignore_patterns("*.sql"))
    project = {"name": domain, "profile": domain, "model-paths": ["models"],
               "models": models_config or {}}
    (root / "dbt_project.yml").write_text(yaml.safe_dump(project), encoding="utf-8")
    profiles = {domain: {"target": "dev", "outputs": {"dev": target}}}
    (root / "profiles.yml").write_text(yaml.safe_dump(profiles), encoding="utf-8")
    return root


def relations(root: Path) -> dict[str, str]:
    """Semantic model table → the schema the model names it in ('' = the engine's default)."""
    model = load_project(root)
    return {sm.table: sm.schema or "" for sm in model.semantic_models}


@pytest.fixture(autouse=True)
def _no_dbt_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DBT_PROFILES_DIR", raising=False)
    monkeypatch.delenv("DBT_TARGET", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("domain", sorted(PROJECTS))
class TestTargetSchema:
    def test_duckdb_ref_reads_the_profile_schema(self, tmp_path: Path, domain: str) -> None:
        """A DuckDB target with `schema: dbt_sl_test`: every ref() is dbt_sl_test.<model>
        (the engine reads bare names in main), as dbt-duckdb builds them."""
        root = dbt_project(tmp_path, domain, TARGETS["duckdb"])
        got = relations(root)
        assert got[PROJECTS[domain][1]] == "dbt_sl_test"
        assert set(got.values()) == {"dbt_sl_test"}

    def test_duckdb_without_schema_is_main(self, tmp_path: Path, domain: str) -> None:
        """dbt-duckdb's default schema is main: the names stay bare."""
        target = {k: v for k, v in TARGETS["duckdb"].items() if k != "schema"}
        assert set(relations(dbt_project(tmp_path, domain, target)).values()) == {""}

    @pytest.mark.parametrize("adapter", ["postgres", "snowflake", "bigquery", "databricks"])
    def test_server_target_schema_is_the_engine_default(self, tmp_path: Path, domain: str,
                                                        adapter: str) -> None:
        """On a server the profile's schema (BigQuery: dataset) is the engine's own default
        (warehouse_of passes it), so the relations are bare there."""
        root = dbt_project(tmp_path, domain, TARGETS[adapter])
        assert set(relations(root).values()) == {""}
        where = placement(read_dbt_project(root), None)
        assert (where.schema, where.default_schema) == ("dbt_sl_test", "dbt_sl_test")

    @pytest.mark.parametrize("adapter", ["duckdb", "postgres", "snowflake", "bigquery",
                                         "databricks"])
    def test_custom_schema_from_the_models_tree(self, tmp_path: Path, domain: str,
                                                adapter: str) -> None:
        """`+schema: marts` in dbt_project.yml's models tree: dbt's default
        generate_schema_name builds into <target schema>_marts, on every adapter."""
        root = dbt_project(tmp_path, domain, TARGETS[adapter],
                           models_config={domain: {"+schema": "marts"}})
        assert set(relations(root).values()) == {"dbt_sl_test_marts"}


class TestModelConfigs:
    def test_sql_config_and_yaml_config(self, tmp_path: Path) -> None:
        """A model's `{{ config(schema=…, alias=…) }}` in its SQL file and `config:` in its
        YAML properties place it; the others keep the target's schema (conformance/project)."""
        root = dbt_project(tmp_path, "conformance", TARGETS["duckdb"])
        (root / "models" / "finance").mkdir()
        (root / "models" / "finance" / "transactions.sql").write_text(
            "{{ config(materialized='table', schema='finance', alias='txn') }}\n"
            "select * from {{ ref('raw_transactions') }}\n", encoding="utf-8")
        (root / "models" / "props.yml").write_text(yaml.safe_dump({"version": 2, "models": [
            {"name": "visits", "config": {"schema": "web"}}]}), encoding="utf-8")
        got = relations(root)
        assert got["txn"] == "dbt_sl_test_finance"
        assert "transactions" not in got
        assert got["visits"] == "dbt_sl_test_web"
        assert got["countries"] == "dbt_sl_test"

    def test_folder_config_applies_below_it(self, tmp_path: Path) -> None:
        """A folder's `+schema` in the models tree applies to the models in that folder only
        (the shop: orders.sql under marts/)."""
        root = dbt_project(tmp_path, "shop", TARGETS["postgres"],
                           models_config={"shop": {"marts": {"+schema": "marts"}}})
        (root / "models" / "marts").mkdir()
        (root / "models" / "marts" / "orders.sql").write_text("select 1 as x\n", encoding="utf-8")
        got = relations(root)
        assert got["orders"] == "dbt_sl_test_marts"
        assert got["customers"] == ""

    def test_project_override_of_generate_schema_name(self, tmp_path: Path) -> None:
        """A project's generate_schema_name returning the custom schema as it is (dbt's
        documented alternative) names the schema `marts`, not `<target>_marts`."""
        root = dbt_project(tmp_path, "shop", TARGETS["duckdb"],
                           models_config={"shop": {"+schema": "marts"}})
        (root / "macros").mkdir()
        (root / "macros" / "schema.sql").write_text(
            "{% macro generate_schema_name(custom_schema_name, node) -%}\n"
            "    {%- if custom_schema_name is none -%}{{ target.schema }}\n"
            "    {%- else -%}{{ custom_schema_name | trim }}{%- endif -%}\n"
            "{%- endmacro %}\n", encoding="utf-8")
        assert set(relations(root).values()) == {"marts"}

    def test_schema_for_env_in_prod_only(self, tmp_path: Path) -> None:
        """generate_schema_name_for_env: the custom schema in the `prod` target, the target's
        schema in any other."""
        root = dbt_project(tmp_path, "conformance", TARGETS["duckdb"],
                           models_config={"conformance": {"+schema": "marts"}})
        (root / "macros").mkdir()
        (root / "macros" / "s.sql").write_text(
            "{% macro generate_schema_name(custom_schema_name, node) -%}\n"
            "  {{ generate_schema_name_for_env(custom_schema_name, node) }}\n"
            "{%- endmacro %}\n", encoding="utf-8")
        assert set(relations(root).values()) == {"dbt_sl_test"}
        profiles = yaml.safe_load((root / "profiles.yml").read_text(encoding="utf-8"))
        profiles["conformance"]["outputs"]["prod"] = profiles["conformance"]["outputs"]["dev"]
        profiles["conformance"]["target"] = "prod"
        (root / "profiles.yml").write_text(yaml.safe_dump(profiles), encoding="utf-8")
        assert set(relations(root).values()) == {"marts"}


class TestChosenWarehouse:
    def test_showwork_file_names_the_target(self, tmp_path: Path) -> None:
        """showwork.yaml's `warehouse: {dbt_profile: {target: …}}` picks the target whose
        schema the relations take."""
        root = dbt_project(tmp_path, "shop", TARGETS["duckdb"])
        profiles = yaml.safe_load((root / "profiles.yml").read_text(encoding="utf-8"))
        profiles["shop"]["outputs"]["ci"] = {**TARGETS["duckdb"], "schema": "ci_run"}
        (root / "profiles.yml").write_text(yaml.safe_dump(profiles), encoding="utf-8")
        (root / "showwork.yaml").write_text("warehouse: {dbt_profile: {target: ci}}\n",
                                            encoding="utf-8")
        assert set(relations(root).values()) == {"ci_run"}

    def test_explicit_warehouse_keeps_dbt_schema(self, tmp_path: Path) -> None:
        """A showwork.yaml naming a PostgreSQL warehouse in schema dbt_sl_test beside the dbt
        project: the relations are bare there (the profile's schema is the same)."""
        root = dbt_project(tmp_path, "conformance", TARGETS["duckdb"])
        (root / "showwork.yaml").write_text(
            "warehouse: {postgres: {dsn_env: X, schema: dbt_sl_test}}\n", encoding="utf-8")
        assert set(relations(root).values()) == {""}

    def test_no_profile_leaves_names_bare(self, tmp_path: Path) -> None:
        """No profiles.yml anywhere dbt looks: the model loads with bare names (opening the
        warehouse says what is missing)."""
        root = dbt_project(tmp_path, "shop", TARGETS["duckdb"])
        (root / "profiles.yml").unlink()
        assert set(relations(root).values()) == {""}

    def test_manifest_relations_named_against_the_engine(self, tmp_path: Path) -> None:
        """A semantic manifest dbt wrote (relations placed already): named bare when they are
        the engine's default schema (postgres), kept otherwise (duckdb's main is not)."""
        from showwork.semantic_layer.dbt_yaml import read_dbt_yaml
        from showwork.semantic_layer.manifest import to_dsi

        for adapter, want in (("postgres", ""), ("duckdb", "dbt_sl_test")):
            root = dbt_project(tmp_path / adapter, "shop", TARGETS[adapter])
            data = json.loads(to_dsi(read_dbt_yaml(root / "models"), True).json())
            for sm in data["semantic_models"]:
                sm["node_relation"]["schema_name"] = "dbt_sl_test"
            (root / "target").mkdir()
            (root / "target" / "semantic_manifest.json").write_text(json.dumps(data),
                                                                    encoding="utf-8")
            shutil.rmtree(root / "models")
            (root / "models").mkdir()
            assert set(relations(root).values()) == {want}, adapter


def test_default_schema_of_each_engine() -> None:
    """The schema each engine reads bare names in, from showwork.yaml's warehouse value."""
    assert default_schema({"duckdb": "w.duckdb"}) == "main"
    assert default_schema({"postgres": {"dsn_env": "X"}}) == "public"
    assert default_schema({"bigquery": {"project": "p", "dataset": "d"}}) == "d"
    assert default_schema({"snowflake": {"schema": "S"}}) == "S"
    assert Placement("s", "dev", "S").bare("s") == ""


@pytest.mark.parametrize("domain", sorted(PROJECTS))
@pytest.mark.parametrize(("adapter", "want"), [
    ("postgres", {"postgres": {"dbname": "d", "schema": "dbt_sl_test"}}),
    ("snowflake", {"snowflake": {"database": "D", "schema": "dbt_sl_test"}}),
    ("bigquery", {"bigquery": {"project": "p", "dataset": "dbt_sl_test"}}),
    ("databricks", {"databricks": {"catalog": "c", "schema": "dbt_sl_test"}}),
])
def test_each_adapters_target_opens_its_database_and_schema(
        tmp_path: Path, domain: str, adapter: str, want: dict[str, dict[str, str]]) -> None:
    """The profile target's database (Snowflake's database, BigQuery's project, Databricks'
    catalog, Postgres' dbname) and schema (BigQuery: dataset) are the engine's: where dbt built
    every ref()."""
    from showwork.semantic_layer.dbt_project import warehouse_of

    spec = warehouse_of(read_dbt_project(dbt_project(tmp_path, domain, TARGETS[adapter])))
    assert {k: v for k, v in spec[adapter].items() if k in want[adapter]} == want[adapter]


class TestDuckDBPath:
    def _spec(self, root: Path, path: str) -> str:
        from showwork.semantic_layer.dbt_project import warehouse_of

        target = {**TARGETS["duckdb"], "path": path}
        profiles = {root.name: {"target": "dev", "outputs": {"dev": target}}}
        (root / "profiles.yml").write_text(yaml.safe_dump(profiles), encoding="utf-8")
        return str(warehouse_of(read_dbt_project(root))["duckdb"])

    def test_relative_to_the_project_folder(self, tmp_path: Path) -> None:
        """dbt runs in the project folder: a relative path is the file there."""
        root = dbt_project(tmp_path, "shop", TARGETS["duckdb"])
        (root / "w.duckdb").write_bytes(b"")
        assert self._spec(root, "w.duckdb") == str(root / "w.duckdb")

    def test_relative_to_where_dbt_ran(self, tmp_path: Path) -> None:
        """A file only the current folder holds (dbt run there with --project-dir) is that one;
        neither present: the project folder's (the warehouse step names it missing)."""
        root = dbt_project(tmp_path, "conformance", TARGETS["duckdb"])
        (tmp_path / "built.duckdb").write_bytes(b"")  # tmp_path is the current folder
        assert self._spec(root, "built.duckdb") == str(tmp_path / "built.duckdb")
        assert self._spec(root, "none.duckdb") == str(root / "none.duckdb")

    def test_in_memory_is_refused(self, tmp_path: Path) -> None:
        """`:memory:` (dbt-duckdb's default) holds nothing dbt built: refused, saying so."""
        from showwork.semantic_layer.errors import WarehouseSpecError

        root = dbt_project(tmp_path, "shop", TARGETS["duckdb"])
        with pytest.raises(WarehouseSpecError, match="in-memory or MotherDuck"):
            self._spec(root, ":memory:")


JAFFLE_MACRO = """{% macro generate_schema_name(custom_schema_name, node) %}
    {% set default_schema = target.schema %}
    {% if node.resource_type == 'seed' %}
        {{ custom_schema_name | trim }}
    {% elif custom_schema_name is none %}
        {{ default_schema }}
    {% elif target.name == 'prod' %}
        {{ default_schema }}_{{ custom_schema_name | trim }}
    {% else %}
        {{ default_schema }}
    {% endif %}
{% endmacro %}
"""


class TestSchemaMacro:
    """A project's own generate_schema_name is rendered as dbt renders it (Jinja, with target,
    node and the custom schema): here dbt's jaffle-shop template's, which keeps a custom schema
    out of every target but prod."""

    @pytest.mark.parametrize(("target", "want"), [("dev", "dbt_sl_test"),
                                                  ("prod", "dbt_sl_test_marts")])
    def test_jaffle_shop_macro(self, tmp_path: Path, target: str, want: str) -> None:
        root = dbt_project(tmp_path, "shop", TARGETS["duckdb"],
                           models_config={"shop": {"+schema": "marts"}})
        (root / "macros").mkdir()
        (root / "macros" / "generate_schema_name.sql").write_text(JAFFLE_MACRO,
                                                                  encoding="utf-8")
        profiles = yaml.safe_load((root / "profiles.yml").read_text(encoding="utf-8"))
        profiles["shop"]["outputs"][target] = profiles["shop"]["outputs"].pop("dev")
        profiles["shop"]["target"] = target
        (root / "profiles.yml").write_text(yaml.safe_dump(profiles), encoding="utf-8")
        assert set(relations(root).values()) == {want}

    def test_do_return(self, tmp_path: Path) -> None:
        """`{% do return(…) %}`, as many projects write it."""
        root = dbt_project(tmp_path, "conformance", TARGETS["postgres"],
                           models_config={"conformance": {"+schema": "marts"}})
        (root / "macros").mkdir()
        (root / "macros" / "s.sql").write_text(
            "{% macro generate_schema_name(custom_schema_name, node) -%}\n"
            "  {%- if custom_schema_name -%}{% do return('x_' ~ custom_schema_name) %}"
            "{%- endif -%}{{ target.schema }}\n{%- endmacro %}\n", encoding="utf-8")
        assert set(relations(root).values()) == {"x_marts"}

    def test_what_is_not_rendered_is_named(self, tmp_path: Path) -> None:
        """A macro reading what showwork does not give it: an error naming the file."""
        from showwork.semantic_layer.errors import WarehouseSpecError

        root = dbt_project(tmp_path, "shop", TARGETS["duckdb"])
        (root / "macros").mkdir()
        (root / "macros" / "s.sql").write_text(
            "{% macro generate_schema_name(custom_schema_name, node) -%}\n"
            "{{ adapter.quote(target.schema) }}\n{%- endmacro %}\n", encoding="utf-8")
        with pytest.raises(WarehouseSpecError, match="s.sql: generate_schema_name reads"):
            relations(root)


class TestHarnessCache:
    """The harness keeps a loaded model by its files' digest (harness/cache.py): in a dbt project
    that covers profiles.yml (the target's schema) and macros/ (generate_schema_name), so editing
    either reloads the model rather than serve the schema it had."""

    @pytest.fixture()
    def root(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        monkeypatch.setenv("SHOWWORK_HOME", str(tmp_path / "home"))
        return dbt_project(tmp_path, "conformance", TARGETS["postgres"],
                           models_config={"conformance": {"+schema": "marts"}})

    @staticmethod
    def _schemas(root: Path) -> tuple[str, set[str]]:
        from showwork.harness.project import Project

        project = Project.load(root / "dbt_project.yml")
        return project.digest, {sm.schema or "" for sm in project.model.semantic_models}

    def test_editing_profiles_yml_reloads(self, root: Path) -> None:
        digest, schemas = self._schemas(root)
        assert schemas == {"dbt_sl_test_marts"}
        assert self._schemas(root) == (digest, schemas)  # unchanged: the same entry
        text = (root / "profiles.yml").read_text(encoding="utf-8")
        (root / "profiles.yml").write_text(text.replace("dbt_sl_test", "analytics"),
                                           encoding="utf-8")
        new_digest, new_schemas = self._schemas(root)
        assert new_digest != digest and new_schemas == {"analytics_marts"}

    def test_editing_a_macro_reloads(self, root: Path) -> None:
        (root / "macros").mkdir()
        macro = root / "macros" / "generate_schema_name.sql"
        macro.write_text(JAFFLE_MACRO, encoding="utf-8")
        digest, schemas = self._schemas(root)
        assert schemas == {""}  # the template's: the target's own schema (named bare) but in prod
        macro.write_text("{% macro generate_schema_name(custom_schema_name, node) -%}\n"
                         "{{ custom_schema_name or target.schema }}\n{%- endmacro %}\n",
                         encoding="utf-8")
        new_digest, new_schemas = self._schemas(root)
        assert new_digest != digest and new_schemas == {"marts"}
