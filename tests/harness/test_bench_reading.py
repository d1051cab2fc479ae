"""`showwork bench reading`: the figures it reports, on every bundled question file at hand."""

from __future__ import annotations

from showwork.benchmarks import reading


def test_bench_reading_reports_every_bundled_file(demo_db, monkeypatch, tmp_path) -> None:
    """Each project at hand gets its questions read, rates and percentiles, and the targets are
    judged from the figures (not asserted: no test depends on machine speed)."""
    (tmp_path / "demo.duckdb").symlink_to(demo_db)
    monkeypatch.setenv("SHOWWORK_HOME", str(tmp_path))
    report = reading.run(repeats=1)
    demo = report["figures"]["demo"]
    assert demo["questions"] == demo["readings"] >= 80
    assert demo["per_second"] > 0 and 0 < demo["p50_ms"] <= demo["p95_ms"]
    assert report["met"]["p95_ms"] == (report["p95_ms"] < reading.TARGETS["p95_ms"])
    assert set(report["figures"]) <= {"demo", *reading.EXAMPLES}
