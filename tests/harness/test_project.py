"""Projects (DESIGN.md, "Projects"): showwork.yaml read with clear errors, every command on
`--project` (examples/shop), SHOWWORK_PROJECT and ./showwork.yaml discovery, the demo unchanged
without either, question files naming their project, and runs and traces recording it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import shop_data
import yaml
from pydantic import ValidationError

from showwork.harness.errors import QuestionError, RunFolderError
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import Gold, load_questions
from showwork.harness.project import Project, ProjectError, bundled_path, locate, stamp_of
from showwork.semantic_layer.errors import SemanticError
from showwork.semantic_layer.model import default_model_path
from showwork.traces import read

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
FEW = ["lookup-001", "breakdown-001", "ranking-001", "diag-001", "refuse-001"]
"""A few shop questions, one of each gold kind (sql, table_sql, members, driver, none)."""


def showwork(*args: str, home: Path, cwd: Path | None = None,
             project: str | None = None) -> subprocess.CompletedProcess:
    """The real entry point in a subprocess, importing this checkout whatever the folder."""
    env = {**os.environ, "COLUMNS": "200", "SHOWWORK_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("SHOWWORK_PROJECT", None)
    if project is not None:
        env["SHOWWORK_PROJECT"] = project
    return subprocess.run([sys.executable, "-m", "showwork", *args], capture_output=True,
                          text=True, env=env, cwd=cwd or ROOT, timeout=300)


@pytest.fixture(scope="session")
def shop_db() -> Path:
    """The shop warehouse (default seed), built once into the test cache (tests/support)."""
    return shop_data.shop_db()


def copy_shop(folder: Path, shop_db: Path) -> Path:
    """examples/shop as a project folder of its own, its warehouse linked from the cache."""
    folder.mkdir(parents=True)
    for name in ("showwork.yaml", "governance.yaml", "questions.yaml"):
        shutil.copy(SHOP / name, folder / name)
    shutil.copytree(SHOP / "models", folder / "models")
    (folder / "warehouse.duckdb").symlink_to(shop_db)
    return folder


def write_few(path: Path, project: str | None = ".") -> Path:
    """A question file with FEW of the shop's questions."""
    spec = yaml.safe_load((SHOP / "questions.yaml").read_text(encoding="utf-8"))
    doc: dict = {"questions": [q for q in spec["questions"] if q["id"] in FEW]}
    if project is not None:
        doc = {"project": project, **doc}
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def shop(tmp_path_factory, shop_db: Path) -> Path:
    folder = copy_shop(tmp_path_factory.mktemp("projects") / "shop", shop_db)
    write_few(folder / "few.yaml")
    return folder


@pytest.fixture(scope="module")
def home(tmp_path_factory, demo_db: Path) -> Path:
    folder = tmp_path_factory.mktemp("home")
    (folder / "demo.duckdb").symlink_to(demo_db)
    return folder


# -- opening a project --------------------------------------------------------------------------
class TestOpen:
    def test_shop_project(self, shop: Path) -> None:
        """The shop opens with its name, root, question file and a digest of its files."""
        project = Project.open(shop)
        assert (project.name, project.root, project.demo) == ("shop", shop, False)
        assert project.questions_path == shop / "questions.yaml"
        assert project.digest.startswith("sha256:") and project.stamp == {
            "name": "shop", "digest": project.digest}
        assert project.warehouse() == {"duckdb": "warehouse.duckdb"}

    def test_digest_follows_the_model_files(self, tmp_path: Path, shop_db: Path) -> None:
        """Two copies of a project share a digest; editing a model file changes it."""
        a, b = copy_shop(tmp_path / "a", shop_db), copy_shop(tmp_path / "b", shop_db)
        assert Project.open(a).digest == Project.open(b).digest
        orders = b / "models" / "orders.yml"
        orders.write_text(orders.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        assert Project.open(a).digest != Project.open(b).digest

    def test_demo_is_a_project(self, home: Path, monkeypatch) -> None:
        """The embedded demo is a project named demo: its showwork.yaml, the bundled questions,
        and its warehouse in SHOWWORK_HOME."""
        monkeypatch.setenv("SHOWWORK_HOME", str(home))
        project = Project.open("demo")
        assert project.demo and project.name == "demo"
        assert project.file.path == default_model_path()
        assert project.questions_path == bundled_path()
        assert project.warehouse() == {"duckdb": str((home / "demo.duckdb").resolve())}
        layer = project.layer()
        try:
            assert stamp_of(layer) == project.stamp
            assert "weekly_value_moments" in layer.catalog()["metrics"]
        finally:
            layer.close()

    def test_layer_is_stamped_and_catalog_inferred(self, shop: Path) -> None:
        """A project's layer carries its stamp; its catalog has member lists from the data."""
        with Project.open(shop) as project:
            layer = project.layer()
            try:
                assert stamp_of(layer) == project.stamp
            finally:
                layer.close()
            members = project.catalog["dimensions"]["region__country"]["members"]
        assert members == ["CA", "GB", "US"]  # not in governance.yaml: distinct values


class TestDiscovery:
    def test_env_then_cwd_then_demo(self, shop: Path, tmp_path: Path, monkeypatch) -> None:
        """None finds SHOWWORK_PROJECT first, then ./showwork.yaml, then the demo."""
        monkeypatch.chdir(tmp_path)
        monkeypatch.delenv("SHOWWORK_PROJECT", raising=False)
        assert locate(None) == default_model_path()
        (tmp_path / "showwork.yaml").write_text("name: here\n", encoding="utf-8")
        assert locate(None) == Path("showwork.yaml")
        monkeypatch.setenv("SHOWWORK_PROJECT", str(shop))
        assert locate(None) == shop / "showwork.yaml"
        assert locate("demo") == default_model_path()


class TestBadProjects:
    def test_missing_showwork_yaml(self, tmp_path: Path) -> None:
        """A folder without showwork.yaml names itself and how to make one."""
        with pytest.raises(ProjectError, match="no showwork.yaml in this folder; make one with "
                                               "`showwork init"):
            Project.open(tmp_path)
        with pytest.raises(ProjectError, match="no such project folder"):
            Project.open(tmp_path / "nowhere")

    @pytest.mark.parametrize(("text", "where", "says"), [
        ("name: x\nwarehouse:\n  duckdb: [w.duckdb\n", ":4:1:", "while parsing a flow sequence "
                                                               "that starts on line 3"),
        ("name: x\n  semantic_models: models\n", ":2:18:", "mapping values are not allowed"),
        ("- just\n- a list\n", ":1:", "a project file is a mapping"),
    ])
    def test_malformed_yaml_names_file_and_line(self, tmp_path: Path, text: str, where: str,
                                                says: str) -> None:
        """Malformed YAML is reported at its file, line and column (yaml's mark)."""
        (tmp_path / "showwork.yaml").write_text(text, encoding="utf-8")
        with pytest.raises(ProjectError) as caught:
            Project.open(tmp_path)
        assert f"{tmp_path / 'showwork.yaml'}{where}" in caught.value.message
        assert says in caught.value.message

    def test_unknown_keys_and_bad_values(self, tmp_path: Path) -> None:
        """Each unknown key and bad value is named with its line; all are reported at once."""
        (tmp_path / "showwork.yaml").write_text(
            "name: x\nwarehose: {duckdb: w.duckdb}\nas_of: soon\nwarehouse: {duckdb: a, files: b}\n",
            encoding="utf-8")
        with pytest.raises(ProjectError) as caught:
            Project.open(tmp_path)
        lines = caught.value.message.splitlines()
        file = tmp_path / "showwork.yaml"
        assert lines[0] == (f"{file}:2: unknown key 'warehose'; known keys: name, "
                            "semantic_models, warehouse, as_of, governance, questions")
        assert lines[1].startswith(f"{file}:3: as_of:")
        assert lines[2].startswith(f"{file}:4: warehouse: give exactly one of duckdb, files, spark")

    def test_missing_models_folder(self, tmp_path: Path) -> None:
        """A semantic_models path that does not exist is named with its line."""
        (tmp_path / "showwork.yaml").write_text("name: x\nsemantic_models: dbt/models\n",
                                                encoding="utf-8")
        with pytest.raises(ProjectError, match=r"showwork.yaml:2: semantic_models: dbt/models "
                                               "does not exist"):
            Project.open(tmp_path)

    def test_missing_warehouse_file(self, tmp_path: Path, shop_db: Path) -> None:
        """The model loads without its warehouse; opening the layer names the missing file."""
        folder = copy_shop(tmp_path / "shop", shop_db)
        (folder / "warehouse.duckdb").unlink()
        project = Project.open(folder)
        assert "revenue" in project.model.metric_index
        with pytest.raises(ProjectError, match=r"showwork.yaml:6: warehouse.duckdb: .*"
                                               r"warehouse.duckdb does not exist"):
            project.layer()

    def test_model_naming_missing_table_and_column(self, tmp_path: Path, shop_db: Path) -> None:
        """A model reading a table or a column the warehouse lacks is refused at open, each
        problem named with the model file and line."""
        folder = copy_shop(tmp_path / "shop", shop_db)
        dims = folder / "models" / "dimensions.yml"
        dims.write_text(dims.read_text(encoding="utf-8").replace("ref('stores')", "ref('shops')"),
                        encoding="utf-8")
        orders = folder / "models" / "orders.yml"
        orders.write_text(orders.read_text(encoding="utf-8").replace(
            "expr: order_total", "expr: order_totl"), encoding="utf-8")
        with pytest.raises((ProjectError, SemanticError)) as caught:  # the engines' own check
            Project.open(folder).layer()
        message = str(caught.value)
        assert "The semantic model does not match the warehouse" in message
        assert f"{dims}:20: semantic model 'stores' reads table 'shops', which the warehouse " \
            "lacks; its tables: customers, order_items, orders" in message
        assert f"{orders}:4: semantic model 'orders', measure 'order_total': column " \
            "'order_totl' is not in table 'orders'; its columns: order_id" in message


# -- question files -----------------------------------------------------------------------------
class TestQuestionFiles:
    def test_shop_questions_load(self) -> None:
        """examples/shop/questions.yaml loads: every gold kind, categories beyond the demo's,
        and `project: .` naming the shop."""
        qfile = load_questions(SHOP / "questions.yaml")
        golds = [q.gold for q in qfile.questions if q.gold]
        assert len(qfile.questions) == 87
        assert sum(g.table_sql is not None for g in golds) == 16
        assert sum(g.members is not None for g in golds) == 7
        assert sum(g.driver is not None for g in golds) == 10
        assert {"breakdown", "ranking", "series", "unsupported_unit"} <= {
            q.category for q in qfile.questions}
        assert qfile.project_file() == SHOP / "showwork.yaml"
        ranking = next(q for q in qfile.questions if q.id == "ranking-001")
        assert ranking.question().gold == {"members": ["Chai Latte", "Chai",
                                                       "nutellaphone who dis?"],
                                           "tolerance": 0.005}

    def test_demo_questions_are_for_the_demo(self) -> None:
        """The bundled file's `warehouse: demo` names the embedded demo project."""
        assert load_questions().project_file() == default_model_path()

    def test_project_resolves_against_the_file(self, shop: Path, tmp_path: Path) -> None:
        """`project:` is relative to the question file's folder, not the working directory."""
        nested = tmp_path / "qs"
        nested.mkdir()
        rel = os.path.relpath(shop, nested)
        assert load_questions(write_few(nested / "q.yaml", rel)).project_file() == \
            nested / rel / "showwork.yaml"
        with pytest.raises(QuestionError, match=r"q.yaml: project: nowhere: .*no such project"):
            load_questions(write_few(nested / "q.yaml", "nowhere")).project_file()

    def test_one_answer_kind_per_gold(self) -> None:
        """A gold gives one of sql, table_sql, members, value (or only a driver)."""
        with pytest.raises(ValidationError, match="give one of sql, table_sql, members, value, "
                                                  "not sql and members"):
            Gold(sql="SELECT 1", members=["a"])
        with pytest.raises(ValidationError, match="needs one of"):
            Gold(tolerance=0.1)
        assert Gold(members=[2019, "b"]).members == ["2019", "b"]

    def test_warehouse_other_than_demo_refused(self, tmp_path: Path) -> None:
        """Older files' `warehouse:` may only say demo."""
        path = tmp_path / "q.yaml"
        path.write_text("warehouse: shop\nquestions: [{id: a, text: b, category: lookup, "
                        "answerable: false}]\n", encoding="utf-8")
        with pytest.raises(QuestionError, match="only 'demo'"):
            load_questions(path)


# -- run identity -------------------------------------------------------------------------------
def test_resume_refuses_another_project(layer, tmp_path: Path) -> None:
    """run.json's identity holds the project; resuming with another project is refused."""
    qfile = load_questions()
    qfile = type(qfile)(warehouse="demo", questions=qfile.questions[:1])
    first = exp.Experiment(qfile, ["claims"], "rules", tmp_path / "run",
                           project={"name": "demo", "digest": "sha256:a"})
    from showwork.analyst.rules import RulesClient

    exp.run(first, RulesClient(), layer)
    assert read(tmp_path / "run" / "traces.jsonl")[0].project == first.project
    other = exp.Experiment(qfile, ["claims"], "rules", tmp_path / "run",
                           project={"name": "shop", "digest": "sha256:b"})
    with pytest.raises(RunFolderError, match=r"its project differ"):
        exp.run(other, RulesClient(), layer, resume=True)


# -- every command on --project -----------------------------------------------------------------
@pytest.fixture(scope="module")
def shop_run(shop: Path, home: Path) -> Path:
    out = home / "shop-run"
    result = showwork("experiment", "--project", str(shop), "--questions",
                      str(shop / "few.yaml"), "--configs", "claims,claims+repair",
                      "--out", str(out), home=home)
    assert result.returncode == 0, result.stderr
    return out


class TestShopCommands:
    def test_validate_and_catalog(self, shop: Path, home: Path) -> None:
        """validate checks the model against the warehouse; catalog lists the shop's metrics."""
        ok = showwork("semantic", "validate", "--project", str(shop), home=home)
        assert ok.returncode == 0, ok.stderr
        assert "✓ project shop" in ok.stdout and "14 metrics" in ok.stdout
        cat = json.loads(showwork("semantic", "catalog", "--json", "--project", str(shop),
                                  home=home).stdout)
        assert cat["model_version"] == "shop-2019.08" and "revenue" in cat["metrics"]

    def test_query_where_and_whole_periods(self, shop: Path, home: Path) -> None:
        """query takes MetricFlow's --where; --grain with --start/--end widens to whole periods
        and says so on stderr (and in the JSON result)."""
        result = showwork("semantic", "query", "--project", str(shop), "-m", "revenue",
                          "--by", "store", "--start", "2019-05-01", "--end", "2019-05-31",
                          "--where", "{{ Dimension('store__store_name') }} = 'Online'",
                          "--json", home=home)
        assert result.returncode == 0, result.stderr
        rows = json.loads(result.stdout)["rows"]
        assert [r["key"]["store"] for r in rows] == ["Online"]
        assert rows[0]["values"]["revenue"]["value"] > 0
        widened = showwork("semantic", "query", "--project", str(shop), "-m", "revenue",
                           "--grain", "month", "--start", "2019-05-10", "--end", "2019-06-10",
                           "--json", home=home)
        assert widened.returncode == 0, widened.stderr
        data = json.loads(widened.stdout)
        assert [r["key"]["month"] for r in data["rows"]] == ["2019-05-01", "2019-06-01"]
        assert data["widened"]["window"] == {"start": "2019-05-01", "end": "2019-06-30"}
        assert "note: widened to whole months" in widened.stderr
        assert "asked 2019-05-10..2019-06-10, measured 2019-05-01..2019-06-30" in widened.stderr

    def test_compile_and_blocked(self, shop: Path, home: Path) -> None:
        """compile reads no warehouse; an unknown dimension is blocked with the shop's list."""
        sql = showwork("semantic", "compile", "--project", str(shop), "-m", "order_count",
                       "--start", "2019-05-01", "--end", "2019-05-31", home=home)
        assert sql.returncode == 0 and "SELECT" in sql.stdout
        blocked = showwork("semantic", "query", "--project", str(shop), "-m", "revenue",
                           "--by", "age", "--start", "2019-05-01", "--end", "2019-05-31",
                           home=home)
        assert blocked.returncode == 4 and "Unknown dimension 'age'" in blocked.stderr

    def test_ask_records_the_project(self, shop: Path, home: Path) -> None:
        """ask runs on the shop and its trace records the project's name and digest."""
        result = showwork("ask", "What was revenue in July 2019?", "--project", str(shop),
                          "--json", home=home)
        assert result.returncode == 0, result.stderr
        trace = json.loads(result.stdout)
        assert trace["project"] == Project.open(shop).stamp
        assert trace["catalog"]["model_version"] == "shop-2019.08"

    def test_experiment_report_findings_audit(self, shop_run: Path, shop: Path,
                                              home: Path) -> None:
        """The run records the project in run.json and every trace; report, findings and
        audit --verify work on it with no warehouse needed for the re-audit."""
        stamp = Project.open(shop).stamp
        identity = json.loads((shop_run / "run.json").read_text())["identity"]
        assert identity["project"] == stamp
        records = read(shop_run / "traces.jsonl")
        assert len(records) == 2 * len(FEW) and {r.question.id for r in records} == set(FEW)
        assert all(r.project == stamp for r in records)
        assert showwork("report", str(shop_run), "--project", str(shop),
                        home=home).returncode == 0
        assert (shop_run / "report.html").is_file()
        findings = showwork("findings", str(shop_run), "--json", "--project", str(shop),
                            home=home)
        assert findings.returncode == 0 and isinstance(json.loads(findings.stdout), list)
        (shop / "warehouse.duckdb").rename(shop / "away.duckdb")  # a re-audit needs no database
        try:
            audit = showwork("audit", str(shop_run), "--verify", "--json", "--project",
                             str(shop), home=home)
        finally:
            (shop / "away.duckdb").rename(shop / "warehouse.duckdb")
        assert audit.returncode == 0, audit.stderr
        data = json.loads(audit.stdout)
        assert data["mismatches"] == 0 and data["integrity"] == []
        assert len(data["attempts"]) == 2 * len(FEW)

    def test_run_of_another_project_refused(self, shop_run: Path, home: Path) -> None:
        """With --project, a run folder recorded under another project is refused."""
        result = showwork("findings", str(shop_run), "--project", "demo", home=home)
        assert result.returncode == 2
        assert "is a run of project 'shop', not 'demo'" in result.stderr

    def test_question_file_of_another_project_refused(self, shop: Path, home: Path,
                                                      tmp_path: Path) -> None:
        """A question file whose `project:` is not --project is refused, naming both."""
        result = showwork("experiment", "--project", "demo", "--questions",
                          str(shop / "few.yaml"), "--out", str(tmp_path / "r"), home=home)
        assert result.returncode == 2
        assert f"{shop / 'few.yaml'}: its questions are for the project at" in result.stderr
        assert not (tmp_path / "r").exists()

    def test_resume_with_another_project_refused(self, shop: Path, shop_db: Path, home: Path,
                                                 tmp_path: Path) -> None:
        """--resume refuses a run folder that ran on another project."""
        loose = write_few(tmp_path / "loose.yaml", project=None)  # names no project
        other = copy_shop(tmp_path / "other", shop_db)
        text = (other / "showwork.yaml").read_text(encoding="utf-8")
        (other / "showwork.yaml").write_text(text.replace("name: shop", "name: other"),
                                             encoding="utf-8")
        out = tmp_path / "run"
        args = ("experiment", "--questions", str(loose), "--configs", "claims", "--out", str(out))
        assert showwork(*args, "--project", str(shop), home=home).returncode == 0
        again = showwork(*args, "--resume", "--project", str(other), home=home)
        assert again.returncode == 2 and "its project differ" in again.stderr

    def test_question_file_names_the_project(self, shop: Path, home: Path,
                                             tmp_path: Path) -> None:
        """Without --project, experiment runs on the project the question file names, into
        runs/<project>-<timestamp>."""
        result = showwork("experiment", "--questions", str(shop / "few.yaml"), "--configs",
                          "claims", home=home, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        runs = sorted((home / "runs").glob("shop-*"))
        assert runs and all(r.project["name"] == "shop"
                            for r in read(runs[-1] / "traces.jsonl"))


def test_serve_asks_the_project(shop: Path, home: Path, tmp_path: Path) -> None:
    """serve --project answers the page's asks on that project and records it on the trace."""
    env = {**os.environ, "COLUMNS": "400", "SHOWWORK_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "showwork", "serve", "--port", "0",
                               "--project", str(shop)], stderr=subprocess.PIPE, text=True,
                              env=env, cwd=ROOT)
    try:
        line = server.stderr.readline() if server.stderr else ""
        match = re.search(r"serving project shop on (http://127.0.0.1:\d+)/", line)
        assert match, line
        base = match.group(1)
        page = urllib.request.urlopen(base + "/", timeout=30).read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert token
        form = urllib.parse.urlencode({"question": "What was revenue in July 2019?",
                                       "model": "rules", "config": "claims+repair",
                                       "csrf_token": token.group(1)}).encode()
        request = urllib.request.Request(base + "/ask", data=form, headers={"Origin": base})
        answered = urllib.request.urlopen(request, timeout=60)
        assert answered.status == 200 and "/asks/" in answered.url
    finally:
        server.terminate()
        server.wait(timeout=30)
    (trace,) = read(tmp_path / "asks" / "traces.jsonl")
    assert trace.project == Project.open(shop).stamp


def test_mcp_serves_the_project(shop: Path, home: Path) -> None:
    """mcp --project serves that project's catalog over stdio."""
    import anyio
    from mcp import Client, StdioServerParameters

    env = {**os.environ, "SHOWWORK_HOME": str(home), "PYTHONPATH": str(ROOT)}
    params = StdioServerParameters(command=sys.executable, env=env, cwd=str(ROOT),
                                   args=["-m", "showwork", "mcp", "--project", str(shop)])

    async def catalog() -> dict:
        async with Client(params, read_timeout_seconds=120) as client:
            return (await client.call_tool("catalog", {})).structured_content or {}

    served = anyio.run(catalog)
    assert served["model_version"] == "shop-2019.08" and "revenue" in served["metrics"]


class TestSelection:
    def test_env_selects_the_project(self, shop: Path, home: Path) -> None:
        """SHOWWORK_PROJECT is --project for every command."""
        result = showwork("ask", "How many orders did we take in March 2019?", "--json",
                          home=home, project=str(shop))
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["project"]["name"] == "shop"

    def test_working_directory_showwork_yaml(self, shop: Path, home: Path) -> None:
        """In a folder with showwork.yaml, commands use it without --project."""
        result = showwork("semantic", "catalog", "--json", home=home, cwd=shop)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["model_version"] == "shop-2019.08"

    def test_demo_without_either(self, home: Path, tmp_path: Path) -> None:
        """With neither, the demo as before: its catalog, its warehouse, its question file."""
        cat = json.loads(showwork("semantic", "catalog", "--json", home=home,
                                  cwd=tmp_path).stdout)
        assert cat["model_version"] == "demo-2026.06"
        result = showwork("ask", "Why did weekly value moments drop in the week of 2026-03-09?",
                          "--json", home=home, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        trace = json.loads(result.stdout)
        assert trace["project"] == Project.open("demo").stamp
        assert "driver" in trace["rounds"][-1]["answer_raw"]
        validate = showwork("semantic", "validate", home=home, cwd=tmp_path)
        assert validate.stdout.startswith("✓ demo model: ")

    def test_bad_project_exits_3(self, tmp_path: Path, home: Path) -> None:
        """A malformed showwork.yaml stops a command with its file and line on stderr."""
        (tmp_path / "showwork.yaml").write_text("name: x\nquestoins: q.yaml\n", encoding="utf-8")
        result = showwork("ask", "x", home=home, cwd=tmp_path)
        assert result.returncode == 3 and result.stdout == ""
        assert "showwork.yaml:2: unknown key 'questoins'" in result.stderr


class TestPublicApi:
    def test_open_a_project_folder(self, shop: Path, home: Path, monkeypatch) -> None:
        """showwork.Project.open runs governed calls on a project folder."""
        import showwork

        monkeypatch.setenv("SHOWWORK_HOME", str(home))
        with showwork.Project.open(shop) as project:
            result = project.query(metrics=["order_count"],
                                   window={"start": "2019-03-01", "end": "2019-03-31"})
            assert project.name == "shop" and result.handle == "r1"
            assert result.result["rows"][0]["values"]["order_count"]["value"] > 0
            assert "revenue" in project.catalog["metrics"]

    def test_open_errors_are_public(self, tmp_path: Path) -> None:
        """A project that cannot open raises showwork.ProjectError with the reason."""
        import showwork

        with pytest.raises(showwork.ProjectError, match="no showwork.yaml"):
            showwork.Project.open(tmp_path)
