"""Gold values from hand-written SQL over the raw tables, and whether an answer is correct.

Correct: a numeric value within the relative tolerance of gold, a string member equal, and the
driver equal — each checked when the gold has it.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable
from typing import Any

import duckdb

from harness.errors import GoldError

Source = duckdb.DuckDBPyConnection | Callable[[str], list[tuple[Any, ...]]]
"""A DuckDB connection or cursor, or a function running SQL on a project's warehouse."""


def _rows(source: Source, sql: str) -> list[tuple[Any, ...]]:
    if isinstance(source, duckdb.DuckDBPyConnection):
        return source.execute(sql).fetchall()
    return source(sql)


def evaluate(source: Source, sql: str) -> float | str:
    """The one non-null scalar a gold query returns; GoldError otherwise."""
    rows = _rows(source, sql)
    if len(rows) != 1 or len(rows[0]) != 1 or rows[0][0] is None:
        raise GoldError(f"gold SQL must return one non-null scalar, got {rows[:3]!r}: {sql[:80]}")
    value = rows[0][0]
    if isinstance(value, decimal.Decimal | int | float) and not isinstance(value, bool):
        return float(value)
    return str(value)


def gold_values(source: Source, golds: dict[str, dict[str, Any]]
                ) -> dict[str, dict[str, Any]]:
    """question id → gold with `value` filled in from its SQL."""
    out = {}
    for qid, gold in golds.items():
        g = dict(gold)
        if g.get("sql"):
            g["value"] = evaluate(source, g["sql"])
        out[qid] = g
    return out


def is_correct(value: Any, driver: str | None, gold: dict[str, Any] | None) -> bool:
    if not gold:
        return False
    if "driver" in gold and gold["driver"] != driver:
        return False
    if "value" in gold and gold["value"] is not None:
        expected = gold["value"]
        if isinstance(expected, str):
            return isinstance(value, str) and value.strip().lower() == expected.strip().lower()
        if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value):
            return False
        tolerance = gold.get("tolerance", 0.005)
        return math.isclose(value, expected, rel_tol=tolerance, abs_tol=1e-12)
    return "driver" in gold
