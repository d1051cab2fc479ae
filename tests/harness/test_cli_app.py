"""The CLI package: an app built explicitly, errors mapped to exit codes in one place, and
`showwork audit` naming every defect and finding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from harness.cli import build_app
from harness.cli.errors import ROOTS, describe, exit_code
from harness.errors import GoldError, HarnessError, QuestionError, RunFolderError, StoredResultError
from semantic_layer.errors import BlockedQuery, ModelError
from showwork.cli import app as showwork_app
from traces import DamagedTrace, TornLine, read

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
        """A failed check exits 1; input the command cannot use exits 2."""
        assert exit_code(ModelError(["a: b"])) == 1
        assert exit_code(TornLine("torn")) == exit_code(DamagedTrace("edited")) == 1
        assert exit_code(RunFolderError("no")) == exit_code(BlockedQuery("no")) == 2

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
    from analyst.errors import ModelSpecError

    result = CliRunner().invoke(build_app(), ["serve", "--model", "rules", "--model", "bogus:x"])
    assert isinstance(result.exception, ModelSpecError)
    assert "bogus:x" in result.exception.message
