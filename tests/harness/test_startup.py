"""Start-up: a command imports what it runs. `--help` and `showwork audit` load no database
engine, SQL parser, dbt-semantic-interfaces, Spark or benchmark; a warm `ask` loads only what
its question uses, and records the time of its queries and audit apart from its imports
(checked in a fresh process)."""

from __future__ import annotations

import gc
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shop_data import shop_db

from showwork.cli import BENCH
from showwork.harness.cli.app import COMMANDS
from showwork.harness.cli.lazy import source_help, summary

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "traces" / "golden" / "traces.jsonl"
HEAVY = ("duckdb", "sqlglot", "dbt_semantic_interfaces", "pyspark", "showwork.benchmarks.cli",
         "showwork.analyst.session", "showwork.semantic_layer.layer", "openai", "mcp")

PROBE = """
import json, sys
args, heavy = json.loads(sys.argv[1]), json.loads(sys.argv[2])
models = json.loads(sys.argv[3])
sys.argv = ["showwork", *args]
code = 0
try:
    from showwork.cli import main
    main()
except SystemExit as exc:
    code = exc.code
def built(name):
    module, _, attr = name.rpartition(".")
    return getattr(getattr(sys.modules.get(module), attr, None), "__pydantic_complete__", False)
print(json.dumps({"code": code, "loaded": [m for m in heavy if m in sys.modules],
                  "built": [m for m in models if built(m)]}), file=sys.stderr)
"""


UNUSED_BY_ASK = ("pyspark", "openai", "mcp", "showwork.benchmarks", "showwork.benchmarks.cli", "showwork.harness.present.web", "rich",
                 "showwork.harness.mcp", "showwork.harness.present.report", "structlog", "dbt_semantic_interfaces", "yaml",
                 "showwork.semantic_layer.project", "showwork.semantic_layer.manifest", "showwork.harness.init", "showwork.harness.experiments.experiment",
                 "sqlglot", "jinja2", "showwork.semantic_layer.compile", "showwork.semantic_layer.where", "logging")
"""What a warm `ask` with the rules analyst never uses: other commands' modules, the model
reader and its validation (the model comes from the cache), structlog and the standard
library's logging (nothing logs), and the
compiler, sqlglot and Jinja (a question asked before reads its calls' SQL from the cache)."""


def _run(*args: str, heavy: tuple[str, ...] = HEAVY, env: dict[str, str] | None = None,
         models: tuple[str, ...] = ()) -> tuple[dict, str]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(args)), json.dumps(heavy),
                           json.dumps(models)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})
    return json.loads(done.stderr.strip().splitlines()[-1]), done.stdout


class TestImportsOnDemand:
    @pytest.mark.parametrize("args", [("--help",), ("ask", "--help"), ("semantic", "--help")])
    def test_help_loads_nothing_heavy(self, args: tuple[str, ...]) -> None:
        """Help for the app or a command imports none of the heavy packages; the app's help
        not even pydantic or the project module (the lean ask's parse loads them, and only for
        an ask)."""
        more = ("pydantic", "showwork.harness.project", "showwork.harness.cli.params")
        probe, out = _run(*args, heavy=HEAVY + more)
        assert probe["code"] == 0 and "Usage" in out
        if args == ("--help",):
            assert probe["loaded"] == []
        else:  # a command's own help loads its module, still no engine until it runs
            assert "showwork.benchmarks.cli" not in probe["loaded"]

    def test_app_help_loads_no_rich_and_cuts_no_description(self) -> None:
        """`showwork --help` (and a bare `showwork`) is click's plain layout: typer's rich
        formatter and rich itself stay unloaded, and every command's whole first paragraph
        is listed, not cut at click's 45 characters."""
        for args in (("--help",), ()):
            probe, out = _run(*args, heavy=("rich", "typer.rich_utils"))
            assert probe["loaded"] == []
            assert probe["code"] == (0 if args else 2) and "Usage" in out
            listed = " ".join(out.split())
            for lazy in (*COMMANDS, BENCH):
                line = summary(source_help(lazy.module, lazy.attr))
                assert len(line) > 20 and f"{lazy.name} {line}" in listed, lazy.name

    def test_audit_loads_no_engine(self, tmp_path: Path) -> None:
        """`showwork audit` of stored traces re-audits with no database, parser or model."""
        probe, out = _run("audit", str(GOLDEN), "--json")
        assert probe["code"] == 0
        assert json.loads(out)["mismatches"] == 0
        assert probe["loaded"] == []


class TestWarmAsk:
    @pytest.fixture()
    def project(self, request: pytest.FixtureRequest, tmp_path: Path, demo_db: Path
                ) -> tuple[str, str, dict[str, str]]:
        """(project, question, environment) with its own SHOWWORK_HOME, demo or shop."""
        home = tmp_path / "home"
        home.mkdir()
        env = {"SHOWWORK_HOME": str(home), "SHOWWORK_CACHE": "1"}
        if request.param == "demo":
            (home / "demo.duckdb").symlink_to(demo_db)
            return "demo", "How many active users did we have in the week of 2026-03-09?", env
        shop = tmp_path / "shop"
        shutil.copytree(ROOT / "examples" / "shop", shop,
                        ignore=shutil.ignore_patterns("*.duckdb*"))
        shutil.copy(shop_db(), shop / "warehouse.duckdb")
        return str(shop), "What was revenue by channel in March 2024?", env

    @pytest.mark.parametrize("project", ["demo", "shop"], indirect=True)
    def test_warm_ask_loads_nothing_it_does_not_use(self, project) -> None:
        """A second ask (cache warm) answers without loading another command's modules, the
        model reader, dbt-semantic-interfaces or structlog; the first (cold) loads the reader."""
        where, question, env = project
        args = ("ask", question, "--project", where, "--json")
        cold, _ = _run(*args, heavy=UNUSED_BY_ASK, env=env)
        assert cold["code"] == 0
        assert "showwork.semantic_layer.project" in cold["loaded"]  # the probe sees what a miss loads
        warm, out = _run(*args, heavy=UNUSED_BY_ASK, env=env)
        assert warm["code"] == 0
        assert warm["loaded"] == []
        assert json.loads(out)["stop_reason"] == "answered"

    @pytest.mark.parametrize("project", ["demo", "shop"], indirect=True)
    def test_warm_plain_ask_loads_no_typer_and_no_rich(self, project) -> None:
        """A warm `ask` printing plain text (stdout is a pipe) parses its options without typer
        and prints without rich: neither they nor typer's vendored click and pydantic adapters
        load."""
        where, question, env = project
        args = ("ask", question, "--project", where)
        _run(*args, env=env)
        unused = ("typer", "typer._click", "typer._adapters", "click", "rich", "rich.console",
                  "shellingham")
        warm, out = _run(*args, heavy=unused, env=env)
        assert warm["code"] == 0 and "Decision:" in out
        assert warm["loaded"] == []

    @pytest.mark.parametrize("project", ["demo", "shop"], indirect=True)
    def test_warm_json_query_loads_no_printing_and_no_reader(self, project) -> None:
        """`semantic query --json` (cache warm) prints JSON: it loads no rich, no question
        reader or prompts, no SQL parser and no model reader (issue 46: a command pays for what
        it does)."""
        where, _question, env = project
        metric, by = ("active_users", "platform") if where == "demo" else ("revenue", "store")
        args = ("semantic", "query", "--metric", metric, "--by", by, "--start", "2019-03-01"
                if where != "demo" else "2026-03-02", "--end", "2019-03-31" if where != "demo"
                else "2026-03-08", "--json", "--project", where)
        unused = ("rich", "showwork.protocol.reading", "showwork.protocol.prompts", "sqlglot",
                  "dbt_semantic_interfaces", "yaml", "showwork.harness.present.table")
        first, _ = _run(*args, heavy=unused, env=env)
        assert first["code"] == 0
        warm, out = _run(*args, heavy=unused, env=env)
        assert warm["code"] == 0 and json.loads(out)["rows"]
        assert warm["loaded"] == []

    @pytest.mark.parametrize("project", ["demo", "shop"], indirect=True)
    @pytest.mark.parametrize("output", ["plain", "json"])
    def test_warm_ask_never_imports_pydantic(self, project, output: str) -> None:
        """A warm ask builds its trace records, validates the analyst's answer and its query
        arguments, and reads its settings and governance from the cache without pydantic
        (issue 46): the contract classes are plain dataclasses (showwork._plain), and pydantic
        is imported only to validate what is not of the plain shape, or a file."""
        where, question, env = project
        args = ("ask", question, "--project", where, *(("--json",) if output == "json" else ()))
        cold, _ = _run(*args, heavy=("pydantic",), env=env)
        assert cold["code"] == 0 and cold["loaded"] == ["pydantic"]  # the probe sees it load
        warm, out = _run(*args, heavy=("pydantic", "pydantic_core"), env=env)
        assert warm["code"] == 0 and ("Decision:" in out or json.loads(out)["stop_reason"])
        assert warm["loaded"] == []

    @pytest.mark.parametrize("project", ["demo", "shop"], indirect=True)
    def test_trace_times_queries_and_audit_apart(self, project) -> None:
        """The trace says how long the attempt spent inside governed calls and the audit, and
        how much of that went on imports: parts of its elapsed time, never more than it."""
        where, question, env = project
        _, out = _run("ask", question, "--project", where, "--json", env=env)
        trace = json.loads(out)
        timing = trace["timing"]
        assert set(timing) == {"queries_s", "audit_s", "imports_s"}
        assert timing["queries_s"] > 0 and timing["audit_s"] > 0 and timing["imports_s"] >= 0
        assert timing["queries_s"] + timing["audit_s"] <= trace["elapsed_s"]
        assert timing["imports_s"] <= timing["queries_s"] + timing["audit_s"]
        assert timing["queries_s"] >= sum(c["elapsed_s"] for c in trace["calls"])


LOGS_PROBE = """
import sys
from pathlib import Path
from showwork.harness.logs import configure
configure()
loaded_before = "structlog" in sys.modules
from showwork.traces.store import _complete_lines
path = Path(sys.argv[1])
kept = _complete_lines(path, repair=True)
print(loaded_before, len(kept), path.read_text(encoding="utf-8").count("\\n"))
"""


class TestLogsOnDemand:
    def test_configured_when_first_imported(self, tmp_path: Path) -> None:
        """`configure` loads no structlog, yet the first warning (a torn trace line dropped)
        goes to stderr in the configured format, and stdout holds only the program's output."""
        path = tmp_path / "traces.jsonl"
        path.write_text('{"a": 1}\n{"b": 2}\n{"tor', encoding="utf-8")
        done = subprocess.run([sys.executable, "-c", LOGS_PROBE, str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["False", "2", "2"]
        warning = [line for line in done.stderr.splitlines() if "torn last line" in line]
        assert len(warning) == 1 and "[warning  ]" in warning[0] and "kept=2" in warning[0]


class TestLazyCommands:
    def test_every_listed_help_is_the_commands_own(self) -> None:
        """The help the list shows (read from source) is the help the loaded command has."""
        for lazy in (*COMMANDS, BENCH):
            command = lazy.load()
            assert source_help(lazy.module, lazy.attr), lazy.name
            assert (command.help or "").strip() == source_help(lazy.module, lazy.attr).strip()

    @pytest.mark.parametrize("enabled", [True, False])
    def test_load_leaves_the_collector_as_it_found_it(self, enabled: bool) -> None:
        """Loading a command pauses the garbage collector for its imports only."""
        was = gc.isenabled()
        try:
            (gc.enable if enabled else gc.disable)()
            COMMANDS[0].load()
            assert gc.isenabled() is enabled
        finally:
            (gc.enable if was else gc.disable)()

    def test_unknown_command_is_a_usage_error(self) -> None:
        """A misspelt command is click's usage error (exit 2), not an import failure."""
        probe, _ = _run("askk")
        assert probe["code"] == 2


class TestLazyPackages:
    @pytest.mark.parametrize("package", ["traces", "semantic_layer"])
    def test_every_exported_name_resolves(self, package: str) -> None:
        """A package that loads its names on first use still exports each name it lists."""
        module = importlib.import_module(f"showwork.{package}")
        assert sorted(module.__all__) == sorted(module._LAZY)
        for name in module.__all__:
            assert getattr(module, name) is not None
