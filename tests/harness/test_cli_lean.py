"""`showwork ask` parsed without typer: one declaration of its parameters (params.ASK) that
typer's command is built from, a parse that agrees with click's wherever it answers, and the
same stdout, stderr and exit code through the lean path and through typer."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from shop_data import shop_db
from typer._click import Parameter
from typer._click.exceptions import UsageError
from typer.exceptions import Exit

from showwork.harness.cli.app import COMMANDS
from showwork.harness.cli.params import ASK, REQUIRED, parse

ROOT = Path(__file__).resolve().parents[2]
ASK_COMMAND = next(c for c in COMMANDS if c.name == "ask")
TYPER_ONLY = {"install_completion", "show_completion"}
"""Options typer adds to every command it builds; the lean parse hands them to typer. (Never
generated below: parsing --install-completion installs a completion script.)"""

LAUNCH = """
import atexit, os, sys
path, args = sys.argv[1], sys.argv[2:]
sys.argv = ["showwork", *args]
atexit.register(lambda: open(os.environ["LOADED_FILE"], "w").write(str("typer" in sys.modules)))
if path == "lean":
    from showwork.cli import main
    main()
else:  # what main() ran before the lean path: the code cache, then typer's app
    from showwork.cli import app
    from showwork.harness.cli import codecache
    from showwork.harness.cli.app import run
    codecache.install(" ".join(sys.argv[1:2]))
    run(app())
"""
VOLATILE = {"attempt_id", "started_at", "elapsed_s", "timing", "chain"}
"""What differs between two runs of one ask whichever path parses it: ids, clocks, the chain."""


def _click_params() -> dict[str, Parameter]:
    return {p.name: p for p in ASK_COMMAND.load().params if p.name not in TYPER_ONLY}


class TestOneDeclaration:
    def test_typer_command_is_built_from_the_table(self) -> None:
        """typer's `ask` has exactly the table's parameters, with its flags, defaults, flag-ness,
        environment variable, placeholder and help: the two cannot drift apart."""
        built = _click_params()
        assert list(built) == [p.name for p in ASK]
        for p in ASK:
            option = built[p.name]
            assert option.opts == ([p.name] if not p.flags else list(p.flags)), p.name
            assert option.secondary_opts == []
            assert option.required is (p.default is REQUIRED), p.name
            if p.default is not REQUIRED:
                assert option.default == p.default, p.name
            assert getattr(option, "is_flag", False) is p.is_flag, p.name
            assert (option.envvar, option.metavar) == (p.envvar, p.metavar), p.name
            assert getattr(option, "help", None) == p.help, p.name


def _invocations(rng: random.Random) -> list[str]:
    words = ["Why did revenue fall?", "x", "-", "-5%", "--", "--help", "--json", "--otel",
             "--model", "--model=noisy:rules", "--config", "claims", "--config=claims+repair",
             "--project", "demo", "--project=", "--bogus", "--json=1", "--mode", "-h",
             "openai:gpt", "--JSON"]
    return [rng.choice(words) for _ in range(rng.randint(0, 7))]


class TestParseAgreesWithClick:
    @pytest.mark.parametrize("project_var", [None, "", "examples/shop"])
    def test_generated_invocations(self, project_var: str | None,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
        """For 3,000 generated argument lists (options before and after the question, inline
        values, repeats, unknown options, help, `--`, missing values), the lean parse either
        hands the list to typer or gives exactly the values click parses; and it takes every
        plain one itself."""
        if project_var is None:
            monkeypatch.delenv("SHOWWORK_PROJECT", raising=False)
        else:
            monkeypatch.setenv("SHOWWORK_PROJECT", project_var)
        command = ASK_COMMAND.load()
        rng = random.Random(4605)
        taken = 0
        for _ in range(3000):
            args = _invocations(rng)
            ours = parse(ASK, args)
            try:
                theirs = command.make_context("ask", list(args)).params
            except (Exit, UsageError):
                theirs = None
            if ours is not None:
                taken += 1
                assert theirs is not None and ours == theirs, args
            elif theirs is not None and not any(a.startswith("-") for a in args):
                pytest.fail(f"a plain invocation left to typer: {args}")
        assert taken > 100

    def test_representative_invocations_are_taken(self) -> None:
        """The invocations people type are parsed here, not by typer."""
        for args in (["Why?"], ["Why?", "--json"], ["--model", "noisy:rules", "Why?"],
                     ["Why?", "--config=claims", "--project", "demo", "--otel"]):
            assert parse(ASK, args, {}) is not None, args
        values = parse(ASK, ["Why?"], {"SHOWWORK_PROJECT": "shop"})
        assert values is not None and values["project"] == "shop"


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory, demo_db: Path) -> dict[str, Any]:
    """A SHOWWORK_HOME with the demo warehouse, and a copy of the shop project."""
    root = tmp_path_factory.mktemp("lean")
    home = root / "home"
    home.mkdir()
    (home / "demo.duckdb").symlink_to(demo_db)
    shop = root / "shop"
    shutil.copytree(ROOT / "examples" / "shop", shop, ignore=shutil.ignore_patterns("*.duckdb*"))
    shutil.copy(shop_db(), shop / "warehouse.duckdb")
    return {"root": root, "home": home, "shop": shop}


def _run(path: str, args: list[str], homes: dict[str, Any], env: dict[str, str]
         ) -> tuple[subprocess.CompletedProcess[str], bool]:
    loaded = homes["root"] / f"loaded-{path}"
    environ = {k: v for k, v in os.environ.items() if k not in ("SHOWWORK_PROJECT", "COLUMNS",
                                                               "FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run([sys.executable, "-c", LAUNCH, path, *args], cwd=homes["root"],
                          capture_output=True, text=True, timeout=300,
                          env={**environ, "SHOWWORK_HOME": str(homes["home"]),
                               "LOADED_FILE": str(loaded), **env})
    return done, loaded.read_text() == "True"


def _steady(out: str) -> Any:
    """A --json trace without what differs from run to run; other output as it is."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in VOLATILE}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    try:
        return strip(json.loads(out))
    except ValueError:
        return out


DEMO_Q = "How many active users did we have in the week of 2026-03-09?"
CASES = {
    "plain": (["ask", DEMO_Q], {}, True),
    "json": (["ask", DEMO_Q, "--json"], {}, True),
    "options": (["ask", "--model", "noisy:rules?fault_rate=0.5&seed=3", "--config=claims",
                 "Why did weekly value moments drop in the week of 2026-03-09?", "--json",
                 "--json"], {}, True),
    "refusal": (["ask", "What was the average age of active users last month?"], {}, True),
    "bad option": (["ask", DEMO_Q, "--bogus"], {}, False),
    "bad switch": (["ask", DEMO_Q, "--config", "claims+nonsense"], {}, True),
    "bad model": (["ask", DEMO_Q, "--model", "nomodel:x"], {}, True),
    "no question": (["ask"], {}, False),
    "help": (["ask", "--help"], {}, False),
    "shop plain": (["ask", "What was revenue by store in June 2019?", "--project", "{shop}"],
                   {}, True),
    "shop by variable": (["ask", "What was revenue by city in Q2 2019?", "--json"],
                         {"SHOWWORK_PROJECT": "{shop}"}, True),
}


class TestBothPathsPrintTheSame:
    @pytest.mark.parametrize("case", sorted(CASES))
    def test_same_stdout_stderr_and_exit(self, case: str, homes: dict[str, Any]) -> None:
        """An ask run through the lean path and through typer prints the same stdout and
        stderr and exits with the same code (a --json trace compared without its ids and
        clocks); the lean path loads no typer where it parsed the invocation itself."""
        args, env, lean = CASES[case]
        args = [a.replace("{shop}", str(homes["shop"])) for a in args]
        env = {k: v.replace("{shop}", str(homes["shop"])) for k, v in env.items()}
        _run("typer", args, homes, env)  # the first ask of a question warms the cache
        by_typer, _ = _run("typer", args, homes, env)
        by_lean, typer_loaded = _run("lean", args, homes, env)
        assert by_lean.returncode == by_typer.returncode, by_lean.stderr
        assert _steady(by_lean.stdout) == _steady(by_typer.stdout)
        assert by_lean.stderr == by_typer.stderr
        assert typer_loaded is not lean
        assert by_lean.stdout.strip() or by_lean.stderr.strip()
        if by_lean.returncode not in (0,):
            assert by_lean.stderr.strip()
        if case in ("plain", "refusal", "shop plain"):
            assert "Decision:" in by_lean.stdout and by_lean.returncode == 0
