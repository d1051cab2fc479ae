"""The governed connection is read-only, has no external access, and is bounded."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from showwork.semantic_layer import SemanticLayer, errors, load_model
from showwork.semantic_layer.execute import Limits, Statements, run


def test_connection_is_read_only(layer: SemanticLayer) -> None:
    """Writes are refused by the database itself."""
    with pytest.raises(duckdb.Error, match="read-only"):
        layer.connection.execute("CREATE TABLE x (a INT)")


def test_no_external_access(layer: SemanticLayer) -> None:
    """Reading files from the host is disabled."""
    with pytest.raises(duckdb.Error, match="disabled"):
        layer.connection.execute("SELECT * FROM read_csv('/etc/passwd')").fetchall()


def test_configuration_locked(layer: SemanticLayer) -> None:
    """Limits cannot be lifted from SQL."""
    with pytest.raises(duckdb.Error, match="locked"):
        layer.connection.execute("SET memory_limit='100GB'")


def test_timeout_interrupts(layer: SemanticLayer) -> None:
    """A query past the timeout is interrupted and reported as a timeout."""
    slow = ("SELECT count(*) FROM range(1000000000) a, range(1000) b WHERE (a.range * b.range) % 7 = 3")
    with pytest.raises(errors.QueryTimeout, match="interrupted after 0.2 s"):
        run(layer.connection, slow, Limits(timeout_s=0.2))


def test_row_cap_is_an_error_not_a_truncation(layer: SemanticLayer) -> None:
    """More rows than the cap is refused with advice, never silently cut."""
    with pytest.raises(errors.RowCapExceeded, match="more than 10 rows"):
        run(layer.connection, "SELECT * FROM range(11)", Limits(row_cap=10))


def test_missing_warehouse_is_clear(tmp_path: Path) -> None:
    """A layer pointed at a missing file says how to build it."""
    layer = SemanticLayer(load_model(), tmp_path / "nope.duckdb")
    with pytest.raises(errors.WarehouseMissing, match="showwork warehouse build"):
        layer.call("query", {"metrics": ["active_users"],
                             "window": {"start": "2026-03-02", "end": "2026-03-08"}})


def test_a_call_asked_again_compiles_once(layer: SemanticLayer,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The same governed call compiles once per layer and returns the same rows; another call
    (another window) compiles anew."""
    compiles: list[object] = []
    monkeypatch.setattr(layer, "_prepared", {})  # the session's layer: start from an empty cache
    real = layer.compiler.compile
    monkeypatch.setattr(layer.compiler, "compile",
                        lambda plan, dialect="duckdb": compiles.append(plan) or real(plan, dialect))
    march = {"metrics": ["active_users"], "window": {"start": "2026-03-02", "end": "2026-03-08"}}
    first, again = layer.query(**march), layer.query(**march)
    assert (len(compiles), again.to_json()) == (1, first.to_json())
    layer.query(metrics=["active_users"], window={"start": "2026-03-09", "end": "2026-03-15"})
    assert len(compiles) == 2


def test_a_kept_statement_reads_the_data_afresh() -> None:
    """A statement parsed once runs against the data as it is at each call, and a refused text
    is refused every time (nothing but parsed SELECTs is kept)."""
    con, statements = duckdb.connect(), Statements()
    con.execute("CREATE TABLE t AS SELECT 1 AS a")
    sql = "SELECT count(*), sum(a) FROM t"
    assert run(con, sql, Limits(), statements) == [(1, 1)]
    con.execute("INSERT INTO t VALUES (2)")
    assert run(con, sql, Limits(), statements) == [(2, 3)]
    for _ in range(2):
        with pytest.raises(errors.ExecutionError, match="exactly one SELECT; got DELETE"):
            run(con, "DELETE FROM t", Limits(), statements)
    assert run(con, sql, Limits(), statements) == [(2, 3)]
