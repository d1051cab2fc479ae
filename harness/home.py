"""Where showwork keeps its files: SHOWWORK_HOME (default ./.showwork)."""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    return Path(os.environ.get("SHOWWORK_HOME", ".showwork"))


def warehouse_path() -> Path:
    return home() / "demo.duckdb"
