"""Gold values from hand-written SQL over the raw tables, and whether an answer is correct.

Correct (DESIGN.md, "Scores"), each part checked when the gold has it: a numeric value within
the relative tolerance of gold, a string member equal, the driver equal; a table (`table_sql`,
two columns key and value) when the answer's listed `values` have the gold's keys and each value
is within tolerance (a series is keyed by its period start: `2019-03` reads as `2019-03-01`); a
ranking (`members`) when the first N listed members equal the gold's N, in order.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
from collections.abc import Callable, Sequence
from typing import Any

import duckdb

from showwork.harness.errors import GoldError
from showwork.protocol.citations import period_start

TOLERANCE = 0.005
"""Relative tolerance when the gold names none."""
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


def evaluate_table(source: Source, sql: str) -> list[tuple[str, float | None]]:
    """Gold `table_sql`: rows of (key, value), the key as results write members (dates in ISO
    form), one row per key."""
    found = _rows(source, sql)
    if any(len(row) != 2 for row in found):
        raise GoldError(f"gold table_sql must return two columns (key, value): {sql[:80]}")
    rows = [(_key_text(k), _number(v, sql)) for k, v in found]
    keys = [k for k, _ in rows]
    if not rows or len(set(keys)) != len(keys):
        raise GoldError(f"gold table_sql must return one row per key, got {rows[:3]!r}: "
                        f"{sql[:80]}")
    return rows


def _key_text(key: Any) -> str:
    if isinstance(key, dt.datetime):
        return key.date().isoformat()
    if isinstance(key, dt.date):
        return key.isoformat()
    return "" if key is None else str(key)


def _number(value: Any, sql: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, decimal.Decimal | int | float) and not isinstance(value, bool):
        return float(value)
    raise GoldError(f"gold table_sql's second column must be a number, got {value!r}: {sql[:80]}")


def gold_values(source: Source, golds: dict[str, dict[str, Any]]
                ) -> dict[str, dict[str, Any]]:
    """question id → gold with `value` filled in from its SQL, and `table` from its table_sql."""
    out = {}
    for qid, gold in golds.items():
        g = dict(gold)
        if g.get("sql"):
            g["value"] = evaluate(source, g["sql"])
        if g.get("table_sql"):
            g["table"] = evaluate_table(source, g["table_sql"])
        out[qid] = g
    return out


def is_correct(value: Any, driver: str | None, gold: dict[str, Any] | None,
               values: Sequence[Any] | None = None) -> bool:
    """Whether an answer's headline `value`, `driver` and listed `values` match the gold."""
    if not gold:
        return False
    checks = [part for part in ("driver", "value", "table", "members")
              if gold.get(part) is not None]
    if not checks:
        return False
    listed = listed_pairs(values)
    return all(_CHECKS[part](gold, value, driver, listed) for part in checks)


def _driver(gold: dict[str, Any], value: Any, driver: str | None, listed: Any) -> bool:
    return bool(gold["driver"] == driver)


def _value(gold: dict[str, Any], value: Any, driver: str | None, listed: Any) -> bool:
    expected = gold["value"]
    if isinstance(expected, str):
        return isinstance(value, str) and same_key(value, expected)
    return close(value, expected, gold.get("tolerance", TOLERANCE))


def _table(gold: dict[str, Any], value: Any, driver: str | None,
           listed: list[tuple[str, Any]] | None) -> bool:
    """The listed values have exactly the gold's keys, each value within tolerance."""
    if listed is None:
        return False
    expected = {_norm(k): v for k, v in gold["table"]}
    given = {_norm(k): v for k, v in listed}
    if len(given) != len(listed) or given.keys() != expected.keys():
        return False
    tolerance = gold.get("tolerance", TOLERANCE)
    return all(given[k] is None if v is None else close(given[k], v, tolerance)
               for k, v in expected.items())


def _members(gold: dict[str, Any], value: Any, driver: str | None,
             listed: list[tuple[str, Any]] | None) -> bool:
    """The first N listed members are the gold's N, in order (a headline member stands for a
    one-member list)."""
    expected = [str(m) for m in gold["members"]]
    if listed is None:
        return len(expected) == 1 and isinstance(value, str) and same_key(value, expected[0])
    given = [k for k, _ in listed[:len(expected)]]
    return len(given) == len(expected) and all(map(same_key, given, expected))


_CHECKS = {"driver": _driver, "value": _value, "table": _table, "members": _members}


def close(value: Any, expected: float, tolerance: float) -> bool:
    """A finite number within the relative tolerance of the expected one."""
    if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value):
        return False
    return math.isclose(value, expected, rel_tol=tolerance, abs_tol=1e-12)


def same_key(a: str, b: str) -> bool:
    """Members compare case-insensitively, and a period by its start (`2019-03` is `2019-03-01`).

    >>> same_key("Android", "android"), same_key("2019-03", "2019-03-01")
    (True, True)
    """
    return _norm(a) == _norm(b)


def _norm(key: str) -> str:
    return period_start(str(key).strip()).lower()


def listed_pairs(values: Sequence[Any] | None) -> list[tuple[str, Any]] | None:
    """An answer's listed values as (key, value) pairs, from the parsed answer's items or their
    JSON form; None when the answer lists none (or not as a list)."""
    if values is None or isinstance(values, str | bytes) or not isinstance(values, Sequence):
        return None
    out = []
    for item in values:
        if isinstance(item, dict) and isinstance(item.get("key"), str):
            out.append((item["key"], item.get("value")))
        elif hasattr(item, "key") and hasattr(item, "value"):
            out.append((str(item.key), item.value))
        else:
            return None
    return out


def values_of(answer_raw: str | None) -> list[dict[str, Any]] | None:
    """The `values` an answer's raw JSON lists (for scoring a stored trace), or None.

    >>> values_of('{"status": "answered", "values": [{"key": "ios", "value": 3}]}')
    [{'key': 'ios', 'value': 3}]
    """
    try:
        data = json.loads(answer_raw) if answer_raw else None
    except (TypeError, ValueError):
        return None
    values = data.get("values") if isinstance(data, dict) else None
    return values if isinstance(values, list) else None
