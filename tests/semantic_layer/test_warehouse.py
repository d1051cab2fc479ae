"""The demo warehouse is deterministic and has DESIGN.md's raw tables."""

from __future__ import annotations

from pathlib import Path

import duckdb

from showwork.semantic_layer import warehouse

TABLES = {"users", "events", "reminders", "subscriptions", "prices", "source_coverage"}


def _fingerprint(path: Path) -> dict[str, tuple]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*), sum(hash(COLUMNS(*))) FROM {t}").fetchone()
                for t in TABLES}
    finally:
        con.close()


def test_same_seed_same_numbers(tmp_path: Path) -> None:
    """Two builds with one seed are identical table by table; another seed differs."""
    a = warehouse.build(tmp_path / "a.duckdb", scale=0.03, seed=11)
    b = warehouse.build(tmp_path / "b.duckdb", scale=0.03, seed=11)
    c = warehouse.build(tmp_path / "c.duckdb", scale=0.03, seed=12)
    assert _fingerprint(a) == _fingerprint(b)
    assert _fingerprint(a)["events"] != _fingerprint(c)["events"]


def _col(raw, sql: str) -> set:
    return {r[0] for r in raw.execute(sql).fetchall()}


def test_contract_tables_and_values(raw) -> None:
    """Raw table names, member values and date ranges are the DESIGN.md contract."""
    assert _col(raw, "SELECT table_name FROM information_schema.tables") >= TABLES
    assert _col(raw, "SELECT DISTINCT platform FROM users") == {"ios", "android", "web"}
    assert _col(raw, "SELECT DISTINCT channel FROM users") == {
        "organic", "paid_search", "referral", "social"}
    assert _col(raw, "SELECT DISTINCT event_type FROM events") == {"app_open", "value_moment"}
    first, last = raw.execute("SELECT min(event_ts)::DATE, max(event_ts)::DATE FROM events"
                              ).fetchone()
    assert (first.isoformat(), last.isoformat()) == ("2026-01-05", "2026-06-17")
    (r_first,) = raw.execute("SELECT min(sent_at)::DATE FROM reminders").fetchone()
    assert r_first.isoformat() == "2026-02-02"
    users, events = raw.execute(
        "SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM events)").fetchone()
    assert 15_000 <= users <= 25_000 and 1_000_000 <= events <= 2_500_000


def test_model_coverage_matches_source_coverage(raw) -> None:
    """The coverage windows the demo governance declares equal the warehouse's source_coverage."""
    from showwork.semantic_layer import load_model

    model = load_model()
    stored = {s: (f, t) for s, f, t in raw.execute("SELECT * FROM source_coverage").fetchall()}
    for sm in model.semantic_models:
        cov = model.coverage_by_model[sm.name]
        assert stored[sm.table] == (cov.from_, cov.through), sm.name
