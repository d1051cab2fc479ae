"""The shop example's generated warehouse for tests: its generator loaded from
examples/shop/generate.py, and the default-seed warehouse cached by generator version."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import duckdb
from cache_lock import cached

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))


def shop_generator() -> ModuleType:
    """examples/shop/generate.py as a module (once per process)."""
    if "shop_generate" in sys.modules:
        return sys.modules["shop_generate"]
    spec = importlib.util.spec_from_file_location("shop_generate", SHOP / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def shop_db() -> Path:
    """The shop warehouse (default seed), built once and cached by generator version."""
    generate = shop_generator()
    path = CACHE / f"shop-v{generate.GENERATOR_VERSION}-seed{generate.DEFAULT_SEED}.duckdb"
    return cached(path, lambda p: generate.build(p, seed=generate.DEFAULT_SEED))


def export_tables(db: Path, folder: Path, fmt: str) -> list[str]:
    """Every table of a DuckDB file as one `fmt` file (csv, parquet) per table in `folder`; the
    table names. Read from a copy left beside the folder (`<folder>.duckdb`): the original may be
    open in this process under a locked configuration, which DuckDB will not open again."""
    folder.mkdir(parents=True)
    copy = folder.parent / f"{folder.name}.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy), read_only=True)
    try:
        tables = [t for (t,) in con.execute("SELECT table_name FROM information_schema.tables "
                                            "WHERE table_schema = 'main'").fetchall()]
        for t in tables:
            con.execute(f"COPY {t} TO '{folder / t}.{fmt}' (FORMAT {fmt})")
    finally:
        con.close()
    return tables
