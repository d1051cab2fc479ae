"""A gold's scalar over a layer's own warehouse, as the harness evaluates it."""

from __future__ import annotations

from typing import Any

from showwork.harness.experiments.gold import evaluate, evaluate_table
from showwork.semantic_layer import SemanticLayer


def scalar(layer: SemanticLayer, sql: str) -> float:
    cursor = layer.connection.cursor()
    try:
        value = evaluate(cursor, sql)
    finally:
        cursor.close()
    assert isinstance(value, float)
    return value


def resolved(layer: SemanticLayer, gold: dict | None) -> dict | None:
    """A question's gold with its SQL evaluated over the layer's warehouse, as the experiment
    scores it."""
    cursor = layer.connection.cursor()
    try:
        return evaluated(cursor, gold)
    finally:
        cursor.close()


def evaluated(cursor: Any, gold: dict | None) -> dict | None:
    """A gold with `value` from its `sql` and `table` from its `table_sql`, run on `cursor`."""
    if not gold:
        return gold
    out = dict(gold)
    if gold.get("sql"):
        out["value"] = evaluate(cursor, gold["sql"])
    if gold.get("table_sql"):
        out["table"] = evaluate_table(cursor, gold["table_sql"])
    return out
