"""Crash safety: kill -9 at seeded points of progress, then --resume: nothing lost, duplicated or corrupt."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showwork.harness.experiments.questions import load_questions
from showwork.traces import read, verify_chain

TRIALS = 10
ATTEMPTS = 2 * len(load_questions().questions)
POLL_S = 0.01
STALL_S = 300  # no new line for this long means the run is stuck, not slow


def _start(home: Path, out: Path, *extra: str) -> subprocess.Popen:
    args = [sys.executable, "-m", "showwork", "experiment", "--configs", "claims,claims+repair",
            "--out", str(out), "--concurrency", "3", *extra]
    return subprocess.Popen(args, env={**os.environ, "SHOWWORK_HOME": str(home)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _complete_lines(traces: Path) -> int:
    """Finished attempts on disk: complete lines only (a kill may leave a torn last one)."""
    try:
        return traces.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _wait_for_lines(proc: subprocess.Popen, traces: Path, target: int) -> int:
    """Block until `target` attempts are on disk; fail if the run ends or stalls first.

    Waiting on observed progress, not on the clock, makes the kill land mid-run on any machine.
    """
    seen, last_change = 0, time.monotonic()
    while (done := _complete_lines(traces)) < target:
        assert proc.poll() is None, f"run ended after {done} of {target} lines: {proc.stderr.read()!r}"
        if done != seen:
            seen, last_change = done, time.monotonic()
        assert time.monotonic() - last_change < STALL_S, f"no progress past {done} lines"
        time.sleep(POLL_S)
    return done


@pytest.mark.slow
def test_kill_nine_then_resume(demo_db: Path, tmp_path: Path) -> None:
    """Ten kills, each after a seeded number of finished attempts (one with a torn last line
    added); each resume completes the run with every attempt exactly once and an intact chain."""
    (tmp_path / "demo.duckdb").symlink_to(demo_db)
    rng = random.Random(9)
    for trial in range(TRIALS):
        out = tmp_path / f"run{trial}"
        traces = out / "traces.jsonl"
        proc = _start(tmp_path, out)
        _wait_for_lines(proc, traces, rng.randint(1, ATTEMPTS - 40))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        done = _complete_lines(traces)
        assert 0 < done < ATTEMPTS, f"trial {trial}: the kill must land mid-run ({done} done)"
        before = {json.loads(line)["attempt_id"] for line in traces.read_text().splitlines()[:done]}
        if trial == 0:
            with open(traces, "a") as fh:
                fh.write('{"schema_version": 1, "attempt_id": "torn')  # a write cut short
        resumed = _start(tmp_path, out, "--resume")
        _, stderr = resumed.communicate(timeout=600)
        assert resumed.returncode == 0, stderr.decode()[-2000:]
        records = read(traces)
        ids = [r.attempt_id for r in records]
        assert len(ids) == len(set(ids)) == ATTEMPTS, f"trial {trial}"
        assert before <= set(ids), f"trial {trial}: attempts finished before the kill are kept"
        assert verify_chain(traces) == [], f"trial {trial}"
