"""Date parts as MetricFlow names them (`metric_time__extract_dow`): which names are parts and
which time granularities have them. Plain Python, no sqlglot: the governed query's validation
and the dimension paths read them on a warm ask; `sql.date_part` renders one per dialect."""

from __future__ import annotations

from showwork.semantic_layer.model import GRAINS

DATE_PARTS = ("year", "quarter", "month", "day", "dow", "doy")
"""MetricFlow's date parts (dbt-semantic-interfaces' DatePart), named `<time>__extract_<part>`."""
EXTRACT = "extract_"
_PART_GRAIN = {"year": "year", "quarter": "quarter", "month": "month", "day": "day",
               "dow": "day", "doy": "day"}


def date_part_of(element: str) -> str | None:
    """The date part an element names (`extract_dow` → dow), None for any other element."""
    part = element[len(EXTRACT):] if element.startswith(EXTRACT) else None
    return part if part in DATE_PARTS else None


def part_allowed(part: str, granularity: str | None) -> bool:
    """Whether a time dimension of this granularity has the part: MetricFlow's
    DatePart.compatible_granularities (no day of a month-grained time)."""
    return GRAINS.index(granularity or "day") <= GRAINS.index(_PART_GRAIN[part])
