"""The audit benchmark measures what it says: every claim of the replicated real traces is
re-audited in the timed pass, parse and audit are timed on the same lines, and the simulator's
share of the traces is reported."""

from __future__ import annotations

from pathlib import Path

from benchmarks import audit as bench


def test_small_audit_benchmark(demo_db: Path, tmp_path: Path) -> None:
    """A 2,000-claim run reports consistent counts and positive timings, and labels the
    noisy simulator's traces (half of the 144 recorded: rules and noisy, two configs each)."""
    (tmp_path / "demo.duckdb").symlink_to(demo_db)
    report = bench.run(tmp_path, total_claims=2_000, repeats=1)
    assert report["claims"] >= 2_000
    assert report["distinct_traces"] == 144 and report["distinct_simulated"] == 72
    assert report["traces"] > report["distinct_traces"]  # replicated to reach the claim count
    assert report["parse_s"] > 0 and report["audit_s"] > 0
    assert report["ratio"] == report["audit_s"] / report["parse_s"]
    assert report["claims_per_s"] == report["claims"] / report["audit_s"]
