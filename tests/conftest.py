"""Shared fixtures: one demo warehouse per generator version, built once and reused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from semantic_layer import SemanticLayer, load_model
from semantic_layer import warehouse as demo_warehouse

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))


@pytest.fixture(scope="session")
def demo_db() -> Path:
    """The default-scale demo warehouse (seed 7), cached across runs by generator version."""
    path = CACHE / f"demo-v{demo_warehouse.GENERATOR_VERSION}-scale1-seed7.duckdb"
    if not path.exists():
        demo_warehouse.build(path, scale=1.0, seed=7)
    return path


@pytest.fixture(scope="session")
def layer(demo_db: Path) -> SemanticLayer:
    layer = SemanticLayer(load_model(), demo_db)
    yield layer
    layer.close()


@pytest.fixture(scope="session")
def raw(layer: SemanticLayer):
    """A cursor for hand-written SQL over the raw tables.

    DuckDB refuses a second in-process connection to one file with another configuration, so
    the hand-written SQL shares the governed (read-only, locked) connection's database.
    """
    cursor = layer.connection.cursor()
    yield cursor
    cursor.close()
