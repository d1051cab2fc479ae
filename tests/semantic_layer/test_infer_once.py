"""A model `infer` filled in needs no inference again: a dimension of more than MAX_MEMBERS
values is indexed, not listed, and counts as inferred. Before, such a dimension (the flights'
tail numbers, TPC-H's 1,000 clerks) left the cached model "open", so every layer opened on it
ran the member queries again: a second of TPC-H SF1's warm `semantic query`, each time. On the
flights example and a TPC-H-shaped draft by `init`."""

from __future__ import annotations

from pathlib import Path

from flights_data import FLIGHTS, flights_db

from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.infer import MAX_MEMBERS, infer_from_duckdb, needs_inference
from showwork.semantic_layer.project import load_project


def _many_valued(model) -> list[str]:
    """The dimensions `infer` indexed with more values than a member list holds."""
    return [q for q, listed in model.member_index.items() if len(listed.values) > MAX_MEMBERS]


def _assert_inferred_once(model, database: Path) -> None:
    assert needs_inference(model)
    inferred = infer_from_duckdb(model, database)
    assert _many_valued(inferred), "the test needs a dimension of many values"
    assert not needs_inference(inferred)
    assert infer_from_duckdb(inferred, database) is inferred  # nothing run, nothing changed
    layer = SemanticLayer(inferred, database)  # the layer takes it as it is
    try:
        assert layer.model is inferred
    finally:
        layer.close()


def test_the_flights_model_is_inferred_once() -> None:
    database = flights_db()
    _assert_inferred_once(load_project(FLIGHTS), database)


def test_a_tpch_draft_is_inferred_once(tmp_path: Path) -> None:
    from showwork.benchmarks import tpch
    from showwork.harness.init import init_project

    warehouse = tmp_path / "tpch.duckdb"
    tpch.build(warehouse, 0.002)  # 3,000 orders by ~950 clerks
    init_project(tmp_path / "draft", warehouse)
    model = load_project(tmp_path / "draft")
    _assert_inferred_once(model, warehouse)
    assert any(q.endswith("o_clerk") for q in _many_valued(infer_from_duckdb(model, warehouse)))

