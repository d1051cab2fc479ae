"""Crash safety: kill -9 at random points, then --resume: nothing lost, duplicated or corrupt."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyst.trace import read, verify_chain

TRIALS = 10
ATTEMPTS = 73 * 2


def _start(home: Path, out: Path, *extra: str) -> subprocess.Popen:
    args = [sys.executable, "-m", "harness", "experiment", "--configs", "claims,claims+repair",
            "--out", str(out), "--concurrency", "3", *extra]
    return subprocess.Popen(args, env={**os.environ, "SHOWWORK_HOME": str(home)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@pytest.mark.slow
def test_kill_nine_then_resume(demo_db: Path, tmp_path: Path) -> None:
    """Ten kills at seeded random moments (one with a torn last line added); each resume
    completes the run with every attempt exactly once and an intact hash chain."""
    (tmp_path / "demo.duckdb").symlink_to(demo_db)
    rng = random.Random(9)
    killed_mid_run = 0
    for trial in range(TRIALS):
        out = tmp_path / f"run{trial}"
        proc = _start(tmp_path, out)
        time.sleep(rng.uniform(1.5, 5.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        traces = out / "traces.jsonl"
        # Complete lines only: the kill may itself land mid-write and leave a torn last line,
        # which the resume below must repair.
        done = traces.read_text().count("\n") if traces.exists() else 0
        killed_mid_run += 0 < done < ATTEMPTS
        if trial == 0 and traces.exists():
            with open(traces, "a") as fh:
                fh.write('{"schema_version": 1, "attempt_id": "torn')  # a write cut short
        resumed = _start(tmp_path, out, "--resume")
        _, stderr = resumed.communicate(timeout=300)
        assert resumed.returncode == 0, stderr.decode()[-2000:]
        records = read(traces)
        ids = [r.attempt_id for r in records]
        assert len(ids) == len(set(ids)) == ATTEMPTS, f"trial {trial}"
        assert verify_chain(traces) == [], f"trial {trial}"
    assert killed_mid_run >= TRIALS // 2, "most kills must land mid-run to test anything"
