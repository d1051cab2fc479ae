"""The test warehouses' cache (tests/support/cache_lock.py): a build counts as finished only by
its stamp, so a worker never opens a warehouse another worker is still building, and an
interrupted build is built again rather than served."""

from __future__ import annotations

from pathlib import Path

import pytest
from cache_lock import built, cached


def test_a_build_under_way_is_not_built_whatever_it_has_written(tmp_path: Path) -> None:
    """What dbt writes first (target/semantic_manifest.json, at `dbt seed`) once passed for the
    finished tutorial build: another worker opened it before `dbt run` made its tables."""
    path = tmp_path / "project"
    seen = []

    def build(p: Path) -> None:
        (p / "target").mkdir(parents=True)
        (p / "target" / "semantic_manifest.json").write_text("{}")
        seen.append(built(p))  # what another worker would see now
        (p / "customers").write_text("rows")

    cached(path, build)
    assert seen == [False]
    assert built(path) and (path / "customers").exists()


def test_an_interrupted_build_is_built_again(tmp_path: Path) -> None:
    path = tmp_path / "warehouse.duckdb"

    def crash(p: Path) -> None:
        p.write_text("half")
        raise RuntimeError("killed mid-build")

    with pytest.raises(RuntimeError):
        cached(path, crash)
    assert path.exists() and not built(path)
    calls: list[object] = []
    cached(path, lambda p: (calls.append(p.exists()), p.write_text("whole")))
    assert calls == [False]  # the half file was removed before building again
    assert path.read_text() == "whole"
    cached(path, lambda p: calls.append("again"))
    assert calls == [False]  # a stamped build is not built again


def test_an_interrupted_folder_is_removed_before_building_again(tmp_path: Path) -> None:
    path = tmp_path / "project"
    (path / "target").mkdir(parents=True)
    (path / "target" / "left_over").write_text("x")
    cached(path, lambda p: p.mkdir())  # a build that cannot start over an old folder
    assert built(path) and not (path / "target").exists()
