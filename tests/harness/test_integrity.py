"""Tamper-evident traces: the hash chain and manifest catch edits, deletions, reorders,
appends and truncation, and say where."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_cli_semantic import showwork

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.traces import manifest_path, verify_chain


@pytest.fixture(scope="module")
def clean_run(layer, tmp_path_factory) -> Path:
    qf = load_questions()
    picked = QuestionFile(questions=[q for q in qf.questions][:8])
    out = tmp_path_factory.mktemp("integrity") / "run"
    exp.run(exp.Experiment(picked, ["claims"], "rules", out), RulesClient(), layer)
    return out


@pytest.fixture
def run(clean_run: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(clean_run, copy)
    return copy


def lines(run: Path) -> list[str]:
    return (run / "traces.jsonl").read_text().splitlines(keepends=True)


def write(run: Path, new: list[str]) -> None:
    (run / "traces.jsonl").write_text("".join(new))


def test_intact_run_verifies(run: Path) -> None:
    """A run as written has an intact chain and manifest."""
    assert verify_chain(run / "traces.jsonl") == []
    manifest = json.loads(manifest_path(run / "traces.jsonl").read_text())
    assert manifest["count"] == 8


def test_edited_byte(run: Path) -> None:
    """One changed digit in a stored value is caught at its line."""
    rows = lines(run)
    rows[3] = rows[3].replace('"repeat":0', '"repeat":1', 1)
    write(run, rows)
    assert verify_chain(run / "traces.jsonl") == [
        "line 4: content does not match its hash (edited)"]


def test_deleted_line(run: Path) -> None:
    """A deleted line breaks the chain at the next line and the count."""
    rows = lines(run)
    del rows[2]
    write(run, rows)
    problems = verify_chain(run / "traces.jsonl")
    assert "line 3: does not follow line 2 (a line was deleted, inserted or reordered before it)" \
        in problems
    assert any("manifest says 8" in p for p in problems)


def test_reordered_lines(run: Path) -> None:
    """Swapped lines are caught where the order breaks."""
    rows = lines(run)
    rows[1], rows[2] = rows[2], rows[1]
    write(run, rows)
    problems = verify_chain(run / "traces.jsonl")
    assert problems[0].startswith("line 2: does not follow line 1")


def test_appended_line(run: Path) -> None:
    """A line added at the end is not covered by the manifest."""
    rows = lines(run)
    write(run, rows + [rows[-1]])
    problems = verify_chain(run / "traces.jsonl")
    assert "lines 9..9: not covered by the manifest (appended, or written by a run that was " \
           "killed)" in problems


def test_truncated_file(run: Path) -> None:
    """A file cut short is caught: a torn last line, and fewer lines than the manifest."""
    text = (run / "traces.jsonl").read_text()
    (run / "traces.jsonl").write_text(text[: len(text) // 2])
    problems = verify_chain(run / "traces.jsonl")
    assert any("incomplete (no newline)" in p for p in problems)
    assert any("manifest says 8" in p for p in problems)


def test_audit_verify_cli(run: Path) -> None:
    """`showwork audit --verify` passes an intact run and fails an edited one, saying where."""
    ok = showwork("audit", str(run), "--verify")
    assert ok.returncode == 0 and "hash chain and manifest intact" in ok.stdout
    rows = lines(run)
    rows[0] = rows[0].replace('"config":"claims"', '"config":"claims+repair"', 1)
    write(run, rows)
    bad = showwork("audit", str(run), "--verify")
    assert bad.returncode == 1
    assert "line 1: content does not match its hash (edited)" in bad.stdout


def test_audit_names_an_edited_catalog(run: Path) -> None:
    """A re-audit that meets a catalog edited away from its digest says so per attempt and
    exits 1 under --verify, instead of auditing against the edited catalog or crashing."""
    rows = lines(run)
    record = json.loads(rows[0])
    record["catalog"]["metrics"]["active_users"]["label"] = "Edited label"
    rows = [json.dumps(record) + "\n" for _ in rows[:1]]  # one line: its catalog is read
    write(run, rows)
    result = showwork("audit", str(run), "--verify", "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["mismatches"] == 1
    assert "the catalog does not match its recorded digest" in data["attempts"][0]["error"]


def test_audit_names_a_damaged_stored_result(run: Path) -> None:
    """A cited result edited out of shape is an error row naming the attempt and the handle,
    not a traceback."""
    rows = lines(run)
    record = json.loads(rows[0])
    cited = next(c for c in record["calls"] if c["handle"])
    del cited["result"]["rows"]
    write(run, [json.dumps(record) + "\n"])
    result = showwork("audit", str(run), "--json")
    assert result.returncode == 0, result.stderr
    row = json.loads(result.stdout)["attempts"][0]
    assert f"attempt {record['attempt_id']}: the stored result of r{cited['handle']} is not a " \
           "typed result" in row["error"]
    assert "Traceback" not in result.stderr
