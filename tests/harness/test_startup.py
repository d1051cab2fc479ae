"""Start-up: a command imports what it runs. `--help` and `showwork audit` load no database
engine, SQL parser, dbt-semantic-interfaces, Spark or benchmark (checked in a fresh process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli.app import COMMANDS
from harness.cli.lazy import source_help
from showwork.cli import BENCH

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "traces" / "golden" / "traces.jsonl"
HEAVY = ("duckdb", "sqlglot", "dbt_semantic_interfaces", "pyspark", "benchmarks.cli",
         "analyst.session", "semantic_layer.layer", "openai", "mcp")

PROBE = """
import json, sys
args, heavy = json.loads(sys.argv[1]), json.loads(sys.argv[2])
sys.argv = ["showwork", *args]
code = 0
try:
    from showwork.cli import main
    main()
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "loaded": [m for m in heavy if m in sys.modules]}), file=sys.stderr)
"""


def _run(*args: str) -> tuple[dict, str]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(args)), json.dumps(HEAVY)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    return json.loads(done.stderr.strip().splitlines()[-1]), done.stdout


class TestImportsOnDemand:
    @pytest.mark.parametrize("args", [("--help",), ("ask", "--help"), ("semantic", "--help")])
    def test_help_loads_nothing_heavy(self, args: tuple[str, ...]) -> None:
        """Help for the app or a command imports none of the heavy packages."""
        probe, out = _run(*args)
        assert probe["code"] == 0 and "Usage" in out
        if args == ("--help",):
            assert probe["loaded"] == []
        else:  # a command's own help loads its module, still no engine until it runs
            assert "benchmarks.cli" not in probe["loaded"]

    def test_audit_loads_no_engine(self, tmp_path: Path) -> None:
        """`showwork audit` of stored traces re-audits with no database, parser or model."""
        probe, out = _run("audit", str(GOLDEN), "--json")
        assert probe["code"] == 0
        assert json.loads(out)["mismatches"] == 0
        assert probe["loaded"] == []


class TestLazyCommands:
    def test_every_listed_help_is_the_commands_own(self) -> None:
        """The help the list shows (read from source) is the help the loaded command has."""
        for lazy in (*COMMANDS, BENCH):
            command = lazy.load()
            assert source_help(lazy.module, lazy.attr), lazy.name
            assert (command.help or "").strip() == source_help(lazy.module, lazy.attr).strip()

    def test_unknown_command_is_a_usage_error(self) -> None:
        """A misspelt command is click's usage error (exit 2), not an import failure."""
        probe, _ = _run("askk")
        assert probe["code"] == 2


class TestLazyPackages:
    @pytest.mark.parametrize("package", ["traces", "semantic_layer"])
    def test_every_exported_name_resolves(self, package: str) -> None:
        """A package that loads its names on first use still exports each name it lists."""
        module = __import__(package)
        assert sorted(module.__all__) == sorted(module._LAZY)
        for name in module.__all__:
            assert getattr(module, name) is not None
