"""The CLI package: an app built explicitly, errors mapped to exit codes in one place, and
`showwork audit` naming every defect and finding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from showwork.analyst.errors import ModelCallError, ModelSpecError
from showwork.cli import app as showwork_app
from showwork.harness.cli import build_app
from showwork.harness.cli.errors import ROOTS, describe, exit_code
from showwork.harness.errors import GoldError, HarnessError, QuestionError, RunFolderError, StoredResultError
from showwork.harness.project import ProjectError
from showwork.protocol.errors import SwitchError
from showwork.semantic_layer.errors import (
    BlockedQuery,
    FileLoadError,
    ModelError,
    QueryTimeout,
    UnknownMember,
    WarehouseMissing,
)
from showwork.traces import DamagedTrace, TornLine, read

GOLDEN = Path(__file__).resolve().parents[2] / "traces" / "golden" / "traces.jsonl"


def _golden_copy(tmp_path: Path) -> Path:
    for name in ("traces.jsonl", "traces.manifest.json"):
        shutil.copy(GOLDEN.with_name(name), tmp_path / name)
    return tmp_path / "traces.jsonl"


class TestApp:
    def test_commands_registered_without_main(self) -> None:
        """A freshly built app knows every command without main() having run first."""
        result = CliRunner().invoke(build_app(), ["--help"])
        assert result.exit_code == 0
        for name in ("ask", "audit", "experiment", "demo", "report", "findings", "serve",
                     "semantic", "warehouse"):
            assert name in result.output
        assert "bench" not in result.output

    def test_bench_added_by_the_entry_point(self) -> None:
        """The entry point adds the benchmarks' bench group; harness itself never imports it."""
        result = CliRunner().invoke(showwork_app(), ["bench", "--help"])
        assert result.exit_code == 0, result.output
        assert "semantic" in result.output and "audit" in result.output

    def test_ask_through_the_runner(self, demo_db: Path, tmp_path: Path, monkeypatch) -> None:
        """`ask` runs through CliRunner on a built app and prints the serving decision."""
        monkeypatch.setenv("SHOWWORK_HOME", str(tmp_path))
        (tmp_path / "demo.duckdb").symlink_to(demo_db)
        result = CliRunner().invoke(build_app(), ["ask", "How many active users did we have in "
                                                  "the week of 2026-03-09?"])
        assert result.exit_code == 0, result.output
        assert "serve" in result.output
        assert len(read(tmp_path / "asks" / "traces.jsonl")) == 1


class TestErrors:
    @pytest.mark.parametrize("error", [QuestionError, GoldError, RunFolderError, StoredResultError])
    def test_harness_errors_share_one_root(self, error: type[HarnessError]) -> None:
        """Every harness error is a HarnessError (still a ValueError) with its message."""
        exc = error("the file says x; write y")
        assert isinstance(exc, HarnessError) and isinstance(exc, ValueError)
        assert isinstance(exc, ROOTS) and exc.message == "the file says x; write y"

    def test_exit_codes(self) -> None:
        """One exit code per class: a failed check 1, usage 2, a bad project 3, a blocked
        query 4, a failed model 5, a bug 70."""
        assert exit_code(TornLine("torn")) == exit_code(DamagedTrace("edited")) == 1
        assert exit_code(RunFolderError("no")) == exit_code(QuestionError("no")) == 2
        assert exit_code(SwitchError("no")) == exit_code(ModelSpecError("no")) == 2
        assert exit_code(ModelError(["a: b"])) == exit_code(ProjectError("no")) == 3
        assert exit_code(FileLoadError("no")) == exit_code(WarehouseMissing("no")) == 3
        assert exit_code(BlockedQuery("no")) == exit_code(UnknownMember("no")) == 4
        assert exit_code(QueryTimeout("no")) == 4
        assert exit_code(ModelCallError("no", "model_error")) == 5
        assert exit_code(KeyError("a bug")) == 70

    def test_descriptions(self) -> None:
        """A blocked query is labelled blocked; a model error lists each problem."""
        assert describe(BlockedQuery("Unknown dimension 'age'")) == ["blocked: Unknown dimension 'age'"]
        assert describe(ModelError(["metrics[0].type: x", "y: z"])) == ["✗ metrics[0].type: x", "✗ y: z"]
        assert describe(QuestionError("q.yaml: bad")) == ["error: q.yaml: bad"]


class TestAuditOutput:
    def _stored(self) -> tuple[list[dict], list[dict]]:
        defects, findings = [], []
        for record in read(GOLDEN):
            served = record.served()
            if served and served.audit:
                defects += served.audit["defects"]
                findings += served.audit["findings"]
        return defects, findings

    def test_json_names_every_defect_and_finding(self, tmp_path: Path) -> None:
        """--json lists each defect (code, claim, citation, message) and each finding."""
        result = CliRunner().invoke(build_app(), ["audit", str(_golden_copy(tmp_path)), "--json"])
        assert result.exit_code == 0, result.output
        rows = json.loads(result.output)["attempts"]
        got = [d for r in rows for d in r["defects"]]
        defects, findings = self._stored()
        assert len(defects) >= 5
        assert [(d["code"], d["claim"], d["citation"], d["message"]) for d in got] == \
               [(d["code"], d["claim"], d["citation"], d["message"]) for d in defects]
        assert [(f["code"], f["claim"]) for r in rows for f in r["findings"]] == \
               [(f["code"], f["claim"]) for f in findings]

    def test_text_names_every_defect(self, tmp_path: Path) -> None:
        """The text output has one line per defect with its code, claim, citation and message."""
        result = CliRunner().invoke(build_app(), ["audit", str(_golden_copy(tmp_path))])
        assert result.exit_code == 0, result.output
        defects, findings = self._stored()
        for d in defects:
            assert f"defect {d['code']} {d['claim']} {d['citation'] or '-'}: {d['message']}" \
                in result.output
        for f in findings:
            assert f"finding {f['code']} {f['claim'] or '(answer)'}: {f['message']}" in result.output

    def test_damaged_trace_names_the_defect(self, tmp_path: Path) -> None:
        """A stored answer edited to cite a field its result lacks is re-audited to that exact
        defect, named in the output, and --verify exits 1."""
        traces = _golden_copy(tmp_path)
        lines = traces.read_text().splitlines()
        record = json.loads(lines[0])
        served = next(r for r in record["rounds"] if r["round"] == record["served_round"])
        answer = json.loads(served["answer_raw"])
        claim = next(c for c in answer["claims"] if c.get("sources"))
        handle = claim["sources"][0].split(":")[0]
        claim["sources"] = [f"{handle}:active_users.paid_search"]
        served["answer_raw"] = json.dumps(answer)
        lines[0] = json.dumps(record)
        traces.write_text("\n".join(lines) + "\n")
        result = CliRunner().invoke(build_app(), ["audit", str(traces), "--verify"])
        assert result.exit_code == 1
        assert f"defect unknown_field c1 {handle}:active_users.paid_search" in result.output
        assert "line 1: content does not match its hash (edited)" in result.output


def test_serve_refuses_an_unknown_model_at_start() -> None:
    """`serve --model` checks each model when the server starts, so a typo never reaches a page."""
    from showwork.analyst.errors import ModelSpecError

    result = CliRunner().invoke(build_app(), ["serve", "--model", "rules", "--model", "bogus:x"])
    assert isinstance(result.exception, ModelSpecError)
    assert "bogus:x" in result.exception.message


def _showwork(*args: str, home: Path, cwd: Path | None = None):
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "COLUMNS": "200", "SHOWWORK_HOME": str(home), "PYTHONPATH": str(root),
           "SHOWWORK_SOURCES": "1"}
    return subprocess.run([sys.executable, "-m", "showwork", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=cwd)


@pytest.fixture(scope="module")
def projects(tmp_path_factory, demo_db: Path) -> dict[str, object]:
    """A home with the demo warehouse, and the shop as a project folder of its own."""
    from shop_data import shop_db

    root = tmp_path_factory.mktemp("errors")
    home = root / "home"
    home.mkdir()
    (home / "demo.duckdb").symlink_to(demo_db)
    shop = root / "shop"
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "shop", shop,
                    ignore=shutil.ignore_patterns("*.duckdb"))
    (shop / "warehouse.duckdb").symlink_to(shop_db())
    return {"home": home, "shop": str(shop), "root": root}


def _ragged(folder: Path, table: str, header: list[str], short_at: int) -> Path:
    """A folder with one CSV whose row at line `short_at` lacks its last field."""
    folder.mkdir(parents=True)
    lines = [",".join(header)] + [",".join(f"{c}{i}" if j else str(i) for j, c in enumerate(header))
                                  for i in range(1, 40)]
    lines[short_at - 1] = lines[short_at - 1].rsplit(",", 1)[0]
    (folder / f"{table}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


class TestErrorsFromTheCommandLine:
    @pytest.mark.parametrize(("project", "dimension", "meant"), [
        ("demo", "platfrom", "platform"), ("shop", "stor", "store")])
    def test_a_dimension_typo_says_did_you_mean(self, projects, project, dimension,
                                                meant) -> None:
        """A misspelt dimension is blocked (exit 4) with the dimension it probably meant."""
        ref = "demo" if project == "demo" else projects["shop"]
        metric, start = (("active_users", "2026-03-09") if project == "demo"
                         else ("revenue", "2019-05-01"))
        result = _showwork("semantic", "query", "--project", ref, "-m", metric, "--by",
                           dimension, "--start", start, "--end", start, home=projects["home"])
        assert result.returncode == 4, result.stderr
        assert f"Unknown dimension '{dimension}'" in result.stderr
        assert f"(did you mean {meant}?)" in result.stderr

    @pytest.mark.parametrize(("project", "dimension", "typed", "meant"), [
        ("demo", "user__platform", "Android", "android"),
        ("shop", "store__store_name", "brooklyn", "Brooklyn")])
    def test_a_member_typo_says_did_you_mean(self, projects, project, dimension, typed,
                                             meant) -> None:
        """A member in the wrong case is answered as `mf query` answers it (no row has it), with
        a note naming the member it matches (the analyst's tool refuses it: test_empty_answers)."""
        ref = "demo" if project == "demo" else projects["shop"]
        metric, start = (("active_users", "2026-03-09") if project == "demo"
                         else ("revenue", "2019-05-01"))
        where = f"{{{{ Dimension('{dimension}') }}}} = '{typed}'"
        result = _showwork("semantic", "query", "--project", ref, "-m", metric, "--where", where,
                           "--start", start, "--end", start, "--by", dimension, "--json",
                           home=projects["home"])
        assert result.returncode == 0, result.stderr
        notes = json.loads(result.stdout)["notes"]
        assert json.loads(result.stdout)["rows"] == []
        assert notes[0].startswith(f"'{typed}' is not a member of")
        assert f"(did you mean {meant}?)" in notes[0]

    @pytest.mark.parametrize(("table", "header", "line"), [
        ("orders", ["id", "store", "amount"], 21), ("flights", ["id", "origin", "dest", "delay"], 7)])
    def test_a_ragged_csv_names_its_file_and_line(self, projects, table, header, line) -> None:
        """A CSV with a short row stops `init` as a bad project (exit 3) with showwork's own
        message — file, line, what is wrong — and none of DuckDB's sniffer report."""
        source = _ragged(projects["root"] / f"src-{table}", table, header, line)
        result = _showwork("init", str(projects["root"] / f"new-{table}"), "--from", str(source),
                           home=projects["home"])
        assert result.returncode == 3, result.stderr
        assert (f"{source / f'{table}.csv'}:{line}: this row has {len(header) - 1} fields, the "
                f"header has {len(header)} ({', '.join(header)})") in result.stderr
        assert "sniff" not in result.stderr.lower() and "Traceback" not in result.stderr

    @pytest.mark.parametrize(("project", "question"), [
        ("demo", "What was MRR in JPY at the end of May 2026?"),
        ("shop", "What was revenue in JPY in July 2019?")])
    def test_a_currency_the_model_lacks_is_named(self, projects, project, question) -> None:
        """A question in a currency the model does not have is refused saying so."""
        ref = "demo" if project == "demo" else projects["shop"]
        result = _showwork("ask", question, "--project", ref, home=projects["home"])
        assert result.returncode == 0, result.stderr
        assert "stop: refused" in result.stdout
        assert "the model has no JPY" in " ".join(result.stdout.split())

    def test_every_bad_model_file_exits_as_a_bad_project(self, projects) -> None:
        """`semantic validate` exits 3 for a file with model problems and for one that is not
        even YAML: one class of failure, one code."""
        root = projects["root"]
        problems, broken = root / "problems.yaml", root / "broken.yaml"
        problems.write_text("semantic_models: []\nmetrics:\n  - name: a\n", encoding="utf-8")
        broken.write_text("semantic_models: [\n  - name: x\n", encoding="utf-8")
        for file in (problems, broken):
            result = _showwork("semantic", "validate", str(file), home=projects["home"])
            assert result.returncode == 3, (file.name, result.stderr)
            assert str(file) in result.stderr and "Traceback" not in result.stderr

    def test_usage_bad_project_blocked_and_internal_codes(self, projects) -> None:
        """A bad option is usage (2), a malformed showwork.yaml a bad project (3), a refused
        query blocked (4), and a bug internal (70), said as a bug."""
        home = projects["home"]
        assert _showwork("ask", "x", "--config", "claims+nonsense", home=home).returncode == 2
        assert _showwork("semantic", "query", "--bogus", home=home).returncode == 2
        bad = projects["root"] / "badproject"
        bad.mkdir()
        (bad / "showwork.yaml").write_text("name: x\nquestoins: q.yaml\n", encoding="utf-8")
        assert _showwork("ask", "x", "--project", str(bad), home=home).returncode == 3
        blocked = _showwork("semantic", "query", "-m", "churn", "--start", "2026-03-09",
                            "--end", "2026-03-15", home=home)
        assert blocked.returncode == 4 and blocked.stderr.startswith("blocked: ")

    def test_a_bug_exits_70_with_its_traceback(self, capsys, monkeypatch) -> None:
        """An exception that is not one of ours exits 70, its traceback and 'internal error'
        on stderr."""
        import typer

        import showwork.harness.logs
        from showwork.harness.cli.app import run

        # logging stays as it was: configured here, it would write to this test's captured
        # stderr after the test closed it
        monkeypatch.setattr(showwork.harness.logs, "configure", lambda *a, **k: None)

        app = typer.Typer()

        @app.command()
        def boom() -> None:
            raise KeyError("not ours")

        @app.command()
        def other() -> None:
            pass

        with pytest.raises(SystemExit) as exited:
            run(app, ["boom"])
        assert exited.value.code == 70
        err = capsys.readouterr().err
        assert "KeyError" in err and "internal error: this is a bug in showwork" in err
