"""The arguments of the governed tools, as they cross the wire from a model or a CLI."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from showwork.semantic_layer.errors import InvalidArguments
from showwork.semantic_layer.windows import Window

MAX_METRICS = 8
MAX_LIMIT = 1000


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_max_length=200, defer_build=True)


class WindowArg(_Wire):
    start: dt.date
    end: dt.date

    def window(self) -> Window:
        return Window(self.start, self.end)


Member = StrictStr | StrictBool | StrictInt | StrictFloat
Grain = Literal["day", "week", "month", "quarter", "year"]


FilterOp = Literal["in", "not_in", "ge", "gt", "le", "lt", "is_null", "not_null"]
COMPARISONS = ("ge", "gt", "le", "lt")
"""Ops comparing with one value (>=, >, <=, <)."""
NULL_TESTS = ("is_null", "not_null")


class Filter(_Wire):
    dimension: str
    op: FilterOp = "in"
    values: list[Member] = Field(default=[], max_length=50)
    """Members as text (booleans and numbers from a MetricFlow --where keep their type): one or
    more for in and not_in, one for a comparison, none for is_null and not_null."""

    @model_validator(mode="after")
    def _arity(self) -> Filter:
        wanted = (0, 0) if self.op in NULL_TESTS else (1, 1) if self.op in COMPARISONS else (1, 50)
        if not wanted[0] <= len(self.values) <= wanted[1]:
            count = "no values" if wanted[1] == 0 else "one value" if wanted[1] == 1 else \
                "at least one value"
            raise ValueError(f"a filter with op {self.op!r} takes {count}, got "
                             f"{len(self.values)}")
        return self


class AnyOf(_Wire):
    """Filters OR-ed together (a MetricFlow --where with OR)."""

    any_of: list[Filter] = Field(min_length=2, max_length=10)


class OrderBy(_Wire):
    field: str
    desc: bool = True


class QueryArgs(_Wire):
    """Arguments of `query`: metrics over one window, optionally by dimensions or a grain."""

    metrics: list[str] = Field(min_length=1, max_length=MAX_METRICS)
    window: WindowArg | None = None
    """None: no time constraint, as MetricFlow adds none unless asked (the analyst's tool schema
    still asks for one; its defaults are its own)."""
    group_by: list[str] = Field(default=[], max_length=2)
    where: list[Filter | AnyOf] = Field(default=[], max_length=10)
    grain: Grain | None = None
    aggregate: Literal["sum"] | None = None
    order_by: OrderBy | None = None
    limit: int | None = Field(default=None, ge=1, le=MAX_LIMIT)
    whole_periods: bool = False
    """Widen the window to whole periods of the grain, as MetricFlow does with --start/--end."""
    share: bool = False
    """Each row's share of the total too (field share_of_total, a fraction; shares.py)."""
    spine_window: WindowArg | None = None
    """The window asked (whole periods; 0001-01-01..9999-12-31 when none was) when a --where
    bounding metric_time with other conditions narrowed `window`, and names something the query
    does not group by (metric_time at another grain, a dimension): MetricFlow applies such a
    filter to a join_to_timespine metric's rows, not to its time spine, whose periods stay the
    asked window's (parse_where(...).apply sets it)."""


class CompareArgs(_Wire):
    """Arguments of `compare`: metrics in a current window against a previous window."""

    metrics: list[str] = Field(min_length=1, max_length=MAX_METRICS)
    current_window: WindowArg
    previous_window: WindowArg
    by: str | None = None
    where: list[Filter | AnyOf] = Field(default=[], max_length=10)


INTERNAL = frozenset({"spine_window"})
"""Fields the layer sets for itself (a --where's asked window, where.py), not an analyst's
arguments: never named to one as accepted."""


def parse_args(kind: Literal["query", "compare"], raw: Any) -> QueryArgs | CompareArgs:
    """Validate raw tool arguments; raise InvalidArguments naming each problem."""
    model = QueryArgs if kind == "query" else CompareArgs
    if not isinstance(raw, dict):
        raise InvalidArguments(f"Arguments of {kind} must be a JSON object, got {type(raw).__name__}.")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(_describe(e) for e in exc.errors()[:8])
        fields = ", ".join(f for f in model.model_fields if f not in INTERNAL)
        raise InvalidArguments(
            f"Invalid arguments for {kind}: {problems}. Accepted fields: {fields}.") from exc


def _describe(err: Any) -> str:
    loc = ".".join(str(x) for x in err["loc"]) or "(arguments)"
    return f"{loc}: {err['msg']}"
