"""The audit benchmark measures what it says: every claim of the replicated real traces is
re-audited in the timed pass, parse and audit are timed on the same lines, and the simulator's
share of the traces is reported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from showwork.benchmarks import audit as bench
from showwork.benchmarks.adversary import LIES
from showwork.harness.audit.index import _BY_DIGEST, CatalogIndex
from showwork.harness.audit.scope import QUESTIONS
from showwork.harness.experiments.questions import load_questions
from showwork.harness.experiments.reaudit import AUDITS
from showwork.protocol import compiled, numbers


def _built() -> list:
    return [p for p in compiled.MODULES if compiled._extensions(p)]


@pytest.mark.slow
def test_small_audit_benchmark(demo_db: Path, tmp_path: Path) -> None:
    """A 2,000-claim run reports consistent counts and positive timings, and labels the
    noisy simulator's traces (half of those recorded: rules and noisy, two configs each, every
    answerable bundled question)."""
    (tmp_path / "demo.duckdb").symlink_to(demo_db)
    report = bench.run(tmp_path, total_claims=2_000, repeats=1, adversary_per_kind=0)
    assert report["claims"] >= 2_000
    answerable = sum(1 for q in load_questions().questions if q.answerable)
    assert report["distinct_traces"] == 4 * answerable
    assert report["distinct_simulated"] == 2 * answerable
    assert report["traces"] > report["distinct_traces"]  # replicated to reach the claim count
    assert report["parse_s"] > 0 and report["audit_s"] > 0
    assert report["ratio"] == report["audit_s"] / report["parse_s"]
    assert report["claims_per_s"] == report["claims"] / report["audit_s"]
    assert report["fresh_ratio"] > 0 and report["ratio"] > 0
    assert report["compiled"] is (bool(_built()) and not report["stale_build"])  # which audit ran


def _readings(kinds: Callable[[str], bool] = lambda kind: kind != AUDITS
              ) -> dict[tuple[str, str, Any], Any]:
    """Every reading of texts the catalog indexes keep, by (catalog, kind, text); with `kinds`,
    of the kinds it accepts (the re-audit's whole audits are kept there too)."""
    return {(digest, kind, text): found for digest, kept in _BY_DIGEST.items()
            for kind, texts in kept.readings.items() if kinds(kind)
            for text, found in texts.items()}


@pytest.mark.slow
def test_copies_reuse_readings_and_the_fresh_pass_reads_again(demo_db: Path) -> None:
    """What the two ratios stand on, counted rather than timed: the replicated copies of a trace
    read no text again (each kept reading is still the very object the distinct traces made:
    the copies fit under MAX_READINGS) and are audited at most once more (a copy re-serialized
    by `replicate` may write a result's JSON otherwise than the recorded line: its key differs
    once, then every later copy gets that audit), and after `forget_readings` nothing is kept,
    so the fresh pass reads every text again."""
    distinct = bench.real_traces(demo_db)
    lines, _ = bench.replicate(distinct, 3 * sum(map(bench._claims, distinct)))
    assert len(lines) > len(distinct)
    CatalogIndex.clear()
    bench._audit(distinct)
    first = _readings()
    assert len(first) > len(distinct)  # each answer's claims and question were read
    audited = len(_readings(lambda kind: kind == AUDITS))
    bench._audit(lines)
    again = _readings()
    assert again.keys() == first.keys()
    assert all(again[key] is first[key] for key in first)  # held, not read again
    assert 0 < audited <= len(_readings(lambda kind: kind == AUDITS)) <= 2 * audited
    CatalogIndex.forget_readings()
    assert not _readings(lambda _kind: True)
    bench._audit(distinct)
    assert _readings().keys() == first.keys()  # every text read again, from nothing kept


def test_the_fresh_pass_keeps_the_questions_read_and_nothing_else() -> None:
    """`forget_readings(keep=(QUESTIONS,))`, as the fresh pass calls it between traces, keeps
    each question's reading (the very object read) and lets go of every other reading and of
    the numbers kept of texts; audited again, each golden trace's answer texts are read again
    and its question is not."""
    golden = Path(__file__).resolve().parents[2] / "traces" / "golden" / "traces.jsonl"
    lines = golden.read_text().splitlines()
    CatalogIndex.clear()
    bench._audit(lines)
    questions = _readings(lambda kind: kind == QUESTIONS)
    others = _readings(lambda kind: kind not in (QUESTIONS, AUDITS))
    assert questions and others and numbers._CLAIMS
    CatalogIndex.forget_readings(keep=(QUESTIONS,))
    assert _readings(lambda _kind: True) == questions
    assert all(_readings(lambda _kind: True)[key] is found for key, found in questions.items())
    assert not numbers._CLAIMS and not numbers._CANDIDATES
    assert all(index.kept[0] == sum(map(len, index.readings.values()))
               for index in _BY_DIGEST.values())
    bench._audit(lines)
    assert _readings(lambda kind: kind not in (QUESTIONS, AUDITS)).keys() == others.keys()
    assert all(_readings(lambda _kind: True)[key] is found for key, found in questions.items())


def test_adversary_counts_per_domain(layer) -> None:
    """On the demo's diagnostic and breakdown answers, with a few answers per kind: every lie
    kind and every corpus kind is counted (caught, not served clean and withheld no more than
    injected), each rules answer is counted once, and the honest rewrites are tallied."""
    specs = [q.question() for q in load_questions().questions
             if q.category in ("diagnostic", "breakdown")][:6]
    report = bench.domain_adversary(bench.rules_traces(layer, specs), per_kind=3)
    assert report["answered"] == len(specs) and report["clean"] >= 4
    assert set(report["lies"]) == set(LIES)
    assert set(report["withheld"]) == set(bench.ADVERSARY_CORPUS)
    for tally in [*report["lies"].values(), *report["withheld"].values()]:
        assert 0 <= tally["withheld"] <= tally["not_clean"] <= tally["injected"] <= 3
        assert tally["caught"] <= tally["injected"]
    assert report["withheld"]["unsupported_number"]["injected"] == 3
    assert all(h["alarmed"] <= h["made"] for h in report["honest"].values())


def test_side_by_side_times_every_line_once() -> None:
    """The passes take turns by slices; every line is parsed and audited once, a last short
    slice included (7 lines in slices of 3)."""
    golden = Path(__file__).resolve().parents[2] / "traces" / "golden" / "traces.jsonl"
    lines = [line for line in golden.read_text().splitlines() if line.strip()][:7]
    parse_s, audit_s, claims = bench.side_by_side(lines, chunk=3)
    assert claims == bench._audit(lines) > 0
    assert parse_s > 0 and audit_s > 0
