"""Experiments: the run folder, results.json, errored attempts, resume after kill -9."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showwork.analyst.noisy import NoisyClient
from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.traces import read

PICK = ["lookup-001", "compare-001", "breakdown-001", "diag-001", "refuse-008", "refuse-023"]

BUNDLED = len(load_questions().questions)
"""Questions in the bundled demo file (every attempt of a full run)."""


def subset(ids=PICK) -> QuestionFile:
    qf = load_questions()
    return QuestionFile(warehouse="demo", questions=[q for q in qf.questions if q.id in ids])


def test_results_json_shape(layer, tmp_path: Path) -> None:
    """results.json has configs, comparisons and one row per attempt, shaped as DESIGN says."""
    e = exp.Experiment(subset(), ["baseline", "claims", "claims+repair"], "rules",
                       tmp_path / "run", repeats=2, concurrency=3)
    results = exp.run(e, RulesClient(), layer)
    assert set(results["configs"]) == {"baseline", "claims", "claims+repair"}
    assert len(results["attempts"]) == 3 * len(PICK) * 2
    row = results["attempts"][0]
    for key in ("question_id", "config", "repeat", "status", "value", "driver", "correct",
                "grounded", "claims", "broken_citations", "findings"):
        assert key in row
    claims = results["configs"]["claims"]
    assert claims["coverage"]["rate"] == 1.0 and claims["balanced_accuracy"] == 1.0
    assert claims["grounded_answer_rate"]["rate"] == 1.0
    assert results["configs"]["baseline"]["grounded_answer_rate"]["rate"] is None
    assert len(results["comparisons"]) == 3
    records = read(tmp_path / "run" / "traces.jsonl")
    assert len({r.attempt_id for r in records}) == len(records) == 36


def test_existing_folder_needs_resume(layer, tmp_path: Path) -> None:
    """A second run into the same folder is refused unless resuming the same run."""
    e = exp.Experiment(subset(PICK[:1]), ["claims"], "rules", tmp_path / "run")
    exp.run(e, RulesClient(), layer)
    with pytest.raises(exp.RunFolderError, match="--resume"):
        exp.run(e, RulesClient(), layer)
    other = exp.Experiment(subset(PICK[:2]), ["claims"], "rules", tmp_path / "run")
    with pytest.raises(exp.RunFolderError, match="different run"):
        exp.run(other, RulesClient(), layer, resume=True)


class Exploding(RulesClient):
    """Raises on diagnostic questions (a client bug), answers the rest."""

    name = "exploding"

    def complete(self, request):
        if "Why" in request.messages[1]["content"]:
            raise RuntimeError("client bug")
        return super().complete(request)


def test_errored_attempts_are_counted(layer, tmp_path: Path) -> None:
    """An attempt whose client raises is recorded as errored with its reason, never dropped."""
    e = exp.Experiment(subset(), ["claims"], "exploding", tmp_path / "run")
    results = exp.run(e, Exploding(), layer)
    s = results["configs"]["claims"]
    assert s["attempts"] == len(PICK) and s["errored"] == 1
    assert s["errored_reasons"] == {"errored": 1}
    bad = [r for r in read(tmp_path / "run" / "traces.jsonl") if r.stop_reason == "errored"]
    assert bad and "RuntimeError: client bug" in bad[0].error


def test_noisy_repair_improves_grounding(layer, tmp_path: Path) -> None:
    """On the bundled questions, claims+repair raises the grounded rate and cuts broken citations."""
    e = exp.Experiment(load_questions(), ["claims", "claims+repair"],
                       "noisy:rules?fault_rate=0.25&fix_rate=0.7&seed=7", tmp_path / "run")
    results = exp.run(e, NoisyClient(0.25, 0.7, 7), layer)
    claims, repair = results["configs"]["claims"], results["configs"]["claims+repair"]
    assert repair["grounded_answer_rate"]["rate"] > claims["grounded_answer_rate"]["rate"] + 0.2
    assert repair["broken_citations"] < claims["broken_citations"] / 3
    assert results["simulated"] is True


def _cli(home: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "SHOWWORK_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "showwork", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.slow
def test_resume_after_kill(demo_db: Path, tmp_path: Path) -> None:
    """kill -9 mid-run, then --resume: every attempt present exactly once, none corrupted."""
    shutil.copy(demo_db, tmp_path / "demo.duckdb")
    out = tmp_path / "run"
    args = ["experiment", "--configs", "claims,claims+repair", "--out", str(out),
            "--concurrency", "2", "--model", "noisy:rules?fault_rate=0.3&seed=2"]
    proc = _cli(tmp_path, *args)
    traces = out / "traces.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if traces.exists() and traces.read_text().count("\n") >= 20:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = traces.read_text().count("\n")
    assert 20 <= before < 2 * BUNDLED, "the kill must land mid-run"
    resumed = _cli(tmp_path, *args, "--resume", "--json")
    stdout, stderr = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, stderr.decode()
    records = read(traces)
    ids = [r.attempt_id for r in records]
    assert len(ids) == len(set(ids)) == 2 * BUNDLED
    results = json.loads(stdout)
    assert sum(s["attempts"] for s in results["configs"].values()) == 2 * BUNDLED
