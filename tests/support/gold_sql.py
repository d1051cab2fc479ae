"""A gold's scalar over a layer's own warehouse, as the harness evaluates it."""

from __future__ import annotations

from showwork.harness.experiments.gold import evaluate
from showwork.semantic_layer import SemanticLayer


def scalar(layer: SemanticLayer, sql: str) -> float:
    cursor = layer.connection.cursor()
    try:
        value = evaluate(cursor, sql)
    finally:
        cursor.close()
    assert isinstance(value, float)
    return value
