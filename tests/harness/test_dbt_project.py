"""A dbt project folder is a project as it is: no showwork.yaml, its model paths, semantic models
and metrics from its YAML, the connection from profiles.yml (the profile and target it names,
DBT_PROFILES_DIR, env_var()), governance from config.meta.showwork or a showwork.yaml beside it.
Tried on MetricFlow's tutorial-like project (conformance/project, a duckdb profile; its DuckDB
built from its seeds with the column types dbt_project.yml gives them) and on the shop's models
as a dbt project whose postgres profile points at a temporary PostgreSQL server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml
from postgres_server import READER, READER_PASSWORD, PostgresServer, postgres_missing
from shop_data import shop_db

from showwork.harness.project import Project, ProjectError, locate
from showwork.semantic_layer import errors

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "conformance" / "project"
SHOP = ROOT / "examples" / "shop"


def build_seeds(project: Path, out: Path) -> Path:
    """What `dbt seed && dbt run` builds for conformance/project: each seed raw_X as table X (its
    models are `select * from raw_X`), typed as dbt_project.yml's +column_types say."""
    seeds = yaml.safe_load((project / "dbt_project.yml").read_text(encoding="utf-8"))["seeds"]
    config = seeds["conformance"]
    con = duckdb.connect(str(out))
    try:
        for csv in sorted((project / "seeds").glob("raw_*.csv")):
            header = csv.read_text(encoding="utf-8").splitlines()[0].split(",")
            types = {**config.get("+column_types", {}),
                     **config.get(csv.stem, {}).get("+column_types", {})}
            con.execute(f"CREATE TABLE {csv.stem.removeprefix('raw_')} AS SELECT * FROM "
                        "read_csv(?, header = true, types = ?)",
                        [str(csv), {k: v for k, v in types.items() if k in header}])
    finally:
        con.close()
    return out


@pytest.fixture
def conformance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """conformance/project as dbt leaves it (no showwork.yaml), its DuckDB where the profile's
    env_var('CONFORMANCE_DUCKDB') says."""
    root = tmp_path / "conformance"
    shutil.copytree(CONFORMANCE, root, ignore=shutil.ignore_patterns("seeds", "target"))
    db = build_seeds(CONFORMANCE, tmp_path / "conformance.duckdb")
    monkeypatch.setenv("CONFORMANCE_DUCKDB", str(db))
    monkeypatch.delenv("DBT_PROFILES_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert not (root / "showwork.yaml").exists()
    return root


def _cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showwork", *args], capture_output=True,
                          text=True, env={**os.environ, "SHOWWORK_SOURCES": "1", **(env or {})},
                          cwd=cwd, timeout=300, check=False)


def _raw(db: Path, sql: str) -> Any:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchone()[0]  # type: ignore[index]
    finally:
        con.close()


class TestDuckDBProfile:
    def test_opens_with_no_showwork_file(self, conformance: Path) -> None:
        """The folder is found as a dbt project, named by dbt_project.yml, its models read from
        its model-paths."""
        assert locate(conformance).name == "dbt_project.yml"
        project = Project.open(conformance)
        assert project.name == "conformance"
        assert {"revenue", "orders"} <= {m.name for m in project.model.metrics}
        layer = project.layer()
        try:
            assert layer.engine.name == "duckdb"
            assert str(layer.engine.path) == os.environ["CONFORMANCE_DUCKDB"]  # type: ignore[attr-defined]
        finally:
            layer.close()

    def test_ask_answers(self, conformance: Path, tmp_path: Path) -> None:
        """`showwork ask --project DIR` answers from the dbt project alone; its number is the
        raw tables' own sum."""
        proc = _cli("ask", "What was revenue in March 2024?", "--project", str(conformance),
                    "--json", env={"SHOWWORK_HOME": str(tmp_path / "home")}, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        trace = json.loads(proc.stdout)
        want = _raw(Path(os.environ["CONFORMANCE_DUCKDB"]),
                    "SELECT sum(amount) FROM transactions WHERE ordered_at >= DATE '2024-03-01' "
                    "AND ordered_at < DATE '2024-04-01'")
        assert trace["project"]["name"] == "conformance"
        assert _served(trace) == pytest.approx(want, rel=1e-9)

    def test_semantic_manifest_when_the_yaml_has_none(self, conformance: Path) -> None:
        """A dbt project whose model paths hold no semantic models reads
        target/semantic_manifest.json (here: dbt-semantic-interfaces' own serialization of the
        same models), to the same metrics."""
        from showwork.semantic_layer.dbt_yaml import read_dbt_yaml
        from showwork.semantic_layer.manifest import to_dsi

        want = {m.name for m in Project.open(conformance).model.metrics}
        manifest = to_dsi(read_dbt_yaml(conformance / "models"), True).json()
        (conformance / "target").mkdir()
        (conformance / "target" / "semantic_manifest.json").write_text(manifest, encoding="utf-8")
        for f in (conformance / "models").glob("*.yml"):
            if f.name != "sources.yml":
                f.unlink()
        project = Project.open(conformance)
        assert {m.name for m in project.model.metrics} == want
        assert project.model.source.endswith("semantic_manifest.json")

    def test_profiles_dir_from_the_environment(self, conformance: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
        """profiles.yml in DBT_PROFILES_DIR is read when the project folder has none."""
        elsewhere = tmp_path / "profiles"
        elsewhere.mkdir()
        shutil.move(conformance / "profiles.yml", elsewhere / "profiles.yml")
        with pytest.raises(errors.WarehouseSpecError, match="no profiles.yml in"):
            Project.open(conformance).layer()
        monkeypatch.setenv("DBT_PROFILES_DIR", str(elsewhere))
        Project.open(conformance).layer().close()

    def test_env_var_without_default_must_be_set(self, conformance: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
        """env_var('X') with no default and X unset is one error naming the file, the key and X."""
        profiles = conformance / "profiles.yml"
        profiles.write_text(profiles.read_text(encoding="utf-8").replace(
            ", 'target/conformance.duckdb'", ""), encoding="utf-8")
        monkeypatch.delenv("CONFORMANCE_DUCKDB")
        with pytest.raises(errors.WarehouseSpecError) as caught:
            Project.open(conformance).layer()
        assert "conformance.outputs.dev.path: env_var('CONFORMANCE_DUCKDB') is not set" in (
            caught.value.message)

    def test_target_is_chosen_by_name(self, conformance: Path, tmp_path: Path) -> None:
        """The profile's `target:` picks the output; a showwork.yaml beside dbt_project.yml may
        name another target and keeps the dbt models."""
        profiles = yaml.safe_load((conformance / "profiles.yml").read_text(encoding="utf-8"))
        profiles["conformance"]["outputs"]["other"] = {"type": "duckdb",
                                                       "path": str(tmp_path / "none.duckdb")}
        (conformance / "profiles.yml").write_text(yaml.safe_dump(profiles), encoding="utf-8")
        (conformance / "showwork.yaml").write_text(
            "warehouse: {dbt_profile: {target: other}}\n", encoding="utf-8")
        project = Project.open(conformance)
        assert project.name == "conformance" and project.model.metrics
        with pytest.raises(ProjectError, match="none.duckdb does not exist"):
            project.layer()

    def test_governance_from_meta(self, conformance: Path) -> None:
        """config.meta.showwork on a dbt metric is its governance (here: a synonym)."""
        metrics = conformance / "models" / "metrics.yml"
        data = yaml.safe_load(metrics.read_text(encoding="utf-8"))
        revenue = next(m for m in data["metrics"] if m["name"] == "revenue")
        revenue["config"] = {"meta": {"showwork": {"synonyms": ["takings"]}}}
        metrics.write_text(yaml.safe_dump(data), encoding="utf-8")
        project = Project.open(conformance)
        assert project.model.metric_index["revenue"].synonyms == ("takings",)

    def test_governance_from_a_showwork_file_beside(self, conformance: Path) -> None:
        """A showwork.yaml beside dbt_project.yml with only governance: the dbt models and
        profile still serve."""
        (conformance / "governance.yaml").write_text(
            "version: 1\nmetrics:\n  revenue:\n    synonyms: [sales]\n", encoding="utf-8")
        (conformance / "showwork.yaml").write_text("governance: governance.yaml\n",
                                                   encoding="utf-8")
        project = Project.open(conformance)
        assert project.name == "conformance"
        assert project.model.metric_index["revenue"].synonyms == ("sales",)
        project.layer().close()


# -- the profile's schema ------------------------------------------------------------------------
def _into_schema(db: Path, schema: str) -> None:
    """Every main table of a DuckDB file moved into `schema`, as dbt-duckdb builds a target
    with `schema:` (nothing left in main)."""
    con = duckdb.connect(str(db))
    try:
        tables = [t for (t,) in con.execute("SELECT table_name FROM information_schema.tables "
                                            "WHERE table_schema = 'main'").fetchall()]
        con.execute(f"CREATE SCHEMA {schema}")
        for t in tables:
            con.execute(f"CREATE TABLE {schema}.{t} AS SELECT * FROM main.{t}")
            con.execute(f"DROP TABLE main.{t}")
    finally:
        con.close()


class TestProfileSchema:
    """A dbt-duckdb profile with `schema: dbt_sl_test` (dbt's template projects): every ref()
    is read there; before, each was read in main ("Table with name transactions does not
    exist")."""

    def test_conformance_reads_the_target_schema(self, conformance: Path) -> None:
        db = Path(os.environ["CONFORMANCE_DUCKDB"])
        _into_schema(db, "dbt_sl_test")
        profiles = yaml.safe_load((conformance / "profiles.yml").read_text(encoding="utf-8"))
        profiles["conformance"]["outputs"]["dev"]["schema"] = "dbt_sl_test"
        (conformance / "profiles.yml").write_text(yaml.safe_dump(profiles), encoding="utf-8")
        layer = Project.open(conformance).layer()
        try:
            result = layer.query(metrics=["revenue"], window={"start": "2024-03-01",
                                                              "end": "2024-03-31"})
            got = result.rows[0].values["revenue"]["value"]
        finally:
            layer.close()
        want = _raw(db, "SELECT sum(amount) FROM dbt_sl_test.transactions WHERE ordered_at >= "
                        "DATE '2024-03-01' AND ordered_at < DATE '2024-04-01'")
        assert got == pytest.approx(want, rel=1e-9)

    def test_shop_reads_a_custom_schema(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
        """The shop's models as a dbt project whose models tree sets `+schema: marts`: read in
        analytics_marts (dbt's <target schema>_<custom>)."""
        monkeypatch.delenv("DBT_PROFILES_DIR", raising=False)
        root = tmp_path / "shop_dbt"
        shutil.copytree(SHOP / "models", root / "models")
        (root / "dbt_project.yml").write_text(
            "name: shop_dbt\nprofile: shop\nmodels:\n  shop_dbt:\n    +schema: marts\n",
            encoding="utf-8")
        db = tmp_path / "shop.duckdb"
        shutil.copy(shop_db(), db)
        _into_schema(db, "analytics_marts")
        (root / "profiles.yml").write_text(yaml.safe_dump({"shop": {"target": "dev", "outputs": {
            "dev": {"type": "duckdb", "path": str(db), "schema": "analytics"}}}}),
            encoding="utf-8")
        layer = Project.open(root).layer()
        try:
            result = layer.query(metrics=["revenue"], window={"start": "2019-06-01",
                                                              "end": "2019-06-30"})
            got = result.rows[0].values["revenue"]["value"]
        finally:
            layer.close()
        want = _raw(db, "SELECT sum(order_total) FROM analytics_marts.orders WHERE NOT is_test "
                        "AND status <> 'cancelled' AND ordered_at >= DATE '2019-06-01' "
                        "AND ordered_at < DATE '2019-07-01'")
        assert float(got) == pytest.approx(float(want), rel=1e-9)


# -- a postgres profile --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    why = postgres_missing()
    if why is not None:
        if os.environ.get("CI"):
            raise RuntimeError(f"CI must run the PostgreSQL tests: {why}")
        pytest.skip(why)
    pg = PostgresServer()
    try:
        pg.load_duckdb(shop_db(), "shop")
        yield pg
    finally:
        pg.close()


PROFILE = """shop_pg:
  target: prod
  outputs:
    prod:
      type: postgres
      host: 127.0.0.1
      port: "{{ env_var('SHOP_PG_PORT') | int }}"
      user: "{{ env_var('SHOP_PG_USER', '%s') }}"
      password: "{{ env_var('SHOP_PG_PASSWORD') }}"
      dbname: shop
      schema: public
      threads: 4
"""


@pytest.fixture
def shop_dbt(server: PostgresServer, tmp_path: Path) -> Path:
    """The shop's models as a dbt project whose profile reads the server's port and the
    reader's password from the environment."""
    root = tmp_path / "shop_dbt"
    shutil.copytree(SHOP / "models", root / "models")
    (root / "dbt_project.yml").write_text("name: shop_dbt\nprofile: shop_pg\nmodel-paths: "
                                          "[models]\n", encoding="utf-8")
    (root / "profiles.yml").write_text(PROFILE % READER, encoding="utf-8")
    return root


def _pg_env(server: PostgresServer, password: str = READER_PASSWORD) -> dict[str, str]:
    return {"SHOP_PG_PORT": str(server.port), "SHOP_PG_PASSWORD": password}


class TestPostgresProfile:
    def test_ask_answers_on_postgres(self, shop_dbt: Path, server: PostgresServer,
                                     tmp_path: Path) -> None:
        """`showwork ask` on the dbt folder answers from PostgreSQL with no showwork file; the
        number is the server's own sum; the password appears in no output and no file written."""
        home = tmp_path / "home"
        proc = _cli("ask", "What was revenue in June 2019?", "--project", str(shop_dbt), "--json",
                    env={**_pg_env(server), "SHOWWORK_HOME": str(home)}, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        trace = json.loads(proc.stdout)
        assert trace["project"]["name"] == "shop_dbt"
        ((want,),) = server.rows("shop", "SELECT sum(order_total) FROM orders WHERE NOT is_test "
                                 "AND status <> 'cancelled' AND ordered_at >= '2019-06-01' "
                                 "AND ordered_at < '2019-07-01'")
        assert _served(trace) == pytest.approx(float(want), rel=1e-9)
        assert "FROM orders" in trace["calls"][0]["result"]["sql"]
        _assert_nowhere(READER_PASSWORD, proc, home)

    def test_wrong_password_is_one_clear_error(self, shop_dbt: Path, server: PostgresServer,
                                               tmp_path: Path) -> None:
        """A wrong password from the profile: one error line naming the project and the server,
        no traceback, the password nowhere."""
        secret = "planted-dbt-secret-7d1"
        home = tmp_path / "home"
        proc = _cli("ask", "What was revenue in June 2019?", "--project", str(shop_dbt),
                    env={**_pg_env(server, secret), "SHOWWORK_HOME": str(home)}, cwd=tmp_path)
        assert proc.returncode == 3  # a bad project (README "Exit codes")
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, proc.stderr
        assert lines[0].startswith("bad project: project shop_dbt, PostgreSQL at showwork_reader@"
                                   "127.0.0.1:")
        assert "password authentication failed" in lines[0]
        _assert_nowhere(secret, proc, home)


def _served(trace: dict[str, Any]) -> float:
    """The value of the answer the trace served, which the audit grounded."""
    final = trace["rounds"][trace["served_round"]]
    assert final["audit"]["grounded"] and final["audit"]["decision"] == "serve"
    return float(json.loads(final["answer_raw"])["value"])


def _assert_nowhere(secret: str, proc: subprocess.CompletedProcess[str], home: Path) -> None:
    assert secret not in proc.stdout and secret not in proc.stderr
    for path in home.rglob("*") if home.exists() else ():
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
