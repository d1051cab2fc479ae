"""The arguments of the governed tools, as they cross the wire from a model or a CLI.

Plain dataclasses: arguments of the plain shape (the JSON types, within the limits) are built
without pydantic (`_plain_args`); anything else is validated by pydantic over the same classes,
which coerces or names each problem as before (`showwork._plain`).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from showwork._plain import Plain, errors
from showwork.semantic_layer.errors import InvalidArguments
from showwork.semantic_layer.windows import Window

if TYPE_CHECKING:  # read by pydantic when it validates what the plain check leaves to it
    from pydantic import Field, StrictBool, StrictFloat, StrictInt, StrictStr

MAX_METRICS = 8
MAX_GROUP_BY = 4
"""Names one query groups by: date parts (metric_time__extract_quarter, __extract_dow, …: four in
one of MetricFlow's own cases) and at most MAX_DIMENSIONS other dimensions."""
MAX_DIMENSIONS = 2
MAX_LIMIT = 1000
MAX_STR = 200
_WIRE = {"extra": "forbid", "frozen": True, "str_max_length": MAX_STR}
"""pydantic's model config of the argument types."""

@dataclass(frozen=True, slots=True, kw_only=True)
class WindowArg(Plain):
    __pydantic_config__ = _WIRE
    start: dt.date
    end: dt.date

    def window(self) -> Window:
        return Window(self.start, self.end)


Member: TypeAlias = "StrictStr | StrictBool | StrictInt | StrictFloat"
"""A filter value (a name pydantic resolves when it validates: its types are pydantic's)."""
Grain = Literal["day", "week", "month", "quarter", "year"]


FilterOp = Literal["in", "not_in", "ge", "gt", "le", "lt", "is_null", "not_null"]
COMPARISONS = ("ge", "gt", "le", "lt")
"""Ops comparing with one value (>=, >, <=, <)."""
NULL_TESTS = ("is_null", "not_null")


@dataclass(frozen=True, slots=True, kw_only=True)
class Filter(Plain):
    __pydantic_config__ = _WIRE
    dimension: str
    op: FilterOp = "in"
    values: Annotated[list[Member], Field(max_length=50)] = field(default_factory=list)
    """Members as text (booleans and numbers from a MetricFlow --where keep their type): one or
    more for in and not_in, one for a comparison, none for is_null and not_null."""

    def __post_init__(self) -> None:
        wanted = _arity(self.op)
        if not wanted[0] <= len(self.values) <= wanted[1]:
            count = "no values" if wanted[1] == 0 else "one value" if wanted[1] == 1 else \
                "at least one value"
            raise ValueError(f"a filter with op {self.op!r} takes {count}, got "
                             f"{len(self.values)}")


def _arity(op: str) -> tuple[int, int]:
    """How many values a filter with this op takes, at least and at most."""
    return (0, 0) if op in NULL_TESTS else (1, 1) if op in COMPARISONS else (1, 50)


@dataclass(frozen=True, slots=True, kw_only=True)
class AnyOf(Plain):
    """Filters OR-ed together (a MetricFlow --where with OR)."""

    __pydantic_config__ = _WIRE
    any_of: Annotated[list[Filter], Field(min_length=2, max_length=10)]


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderBy(Plain):
    __pydantic_config__ = _WIRE
    field: str
    desc: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class QueryArgs(Plain):
    """Arguments of `query`: metrics over one window, optionally by dimensions or a grain."""

    __pydantic_config__ = _WIRE
    metrics: Annotated[list[str], Field(min_length=1, max_length=MAX_METRICS)]
    window: WindowArg | None = None
    """None: no time constraint, as MetricFlow adds none unless asked (the analyst's tool schema
    still asks for one; its defaults are its own)."""
    group_by: Annotated[list[str], Field(max_length=MAX_GROUP_BY)] = field(default_factory=list)
    where: Annotated[list[Filter | AnyOf], Field(max_length=10)] = field(default_factory=list)
    grain: Grain | None = None
    aggregate: Literal["sum"] | None = None
    order_by: OrderBy | None = None
    limit: Annotated[int | None, Field(ge=1, le=MAX_LIMIT)] = None
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


@dataclass(frozen=True, slots=True, kw_only=True)
class CompareArgs(Plain):
    """Arguments of `compare`: metrics in a current window against a previous window."""

    __pydantic_config__ = _WIRE
    metrics: Annotated[list[str], Field(min_length=1, max_length=MAX_METRICS)]
    current_window: WindowArg
    previous_window: WindowArg
    by: str | None = None
    where: Annotated[list[Filter | AnyOf], Field(max_length=10)] = field(default_factory=list)


INTERNAL = frozenset({"spine_window"})
"""Fields the layer sets for itself (a --where's asked window, where.py), not an analyst's
arguments: never named to one as accepted."""


def parse_args(kind: Literal["query", "compare"], raw: Any) -> QueryArgs | CompareArgs:
    """Validate raw tool arguments; raise InvalidArguments naming each problem."""
    model = QueryArgs if kind == "query" else CompareArgs
    if not isinstance(raw, dict):
        raise InvalidArguments(f"Arguments of {kind} must be a JSON object, got {type(raw).__name__}.")
    plain = _plain_args(model, raw)
    if plain is not None:
        return plain
    from pydantic import ValidationError

    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(_describe(e) for e in errors(exc)[:8])
        accepted = ", ".join(f.name for f in fields(model) if f.name not in INTERNAL)
        raise InvalidArguments(
            f"Invalid arguments for {kind}: {problems}. Accepted fields: {accepted}.") from exc


def _describe(err: Any) -> str:
    loc = ".".join(str(x) for x in err["loc"]) or "(arguments)"
    return f"{loc}: {err['msg']}"


# -- the plain check: it accepts only what pydantic keeps as given, or reads as a date ---------
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_GRAINS = ("day", "week", "month", "quarter", "year")
_OPS = ("in", "not_in", "ge", "gt", "le", "lt", "is_null", "not_null")
_MEMBERS = (str, bool, int, float)


def _text(value: Any) -> bool:
    return type(value) is str and len(value) <= MAX_STR


def _texts(value: Any, low: int, high: int) -> bool:
    return type(value) is list and low <= len(value) <= high and all(map(_text, value))


def _plain_window(raw: Any) -> WindowArg | None:
    if type(raw) is not dict or raw.keys() != {"start", "end"}:
        return None
    days = [raw["start"], raw["end"]]
    if not all(_text(d) and _DATE.fullmatch(d) for d in days):
        return None
    try:
        start, end = (dt.date.fromisoformat(d) for d in days)
    except ValueError:
        return None
    return WindowArg(start=start, end=end)


def _plain_filter(raw: Any) -> Filter | AnyOf | None:
    if type(raw) is not dict:
        return None
    if raw.keys() == {"any_of"}:
        parts = raw["any_of"]
        if type(parts) is not list or not 2 <= len(parts) <= 10:
            return None
        filters = [_plain_filter(p) for p in parts]
        return AnyOf(any_of=filters) if all(type(f) is Filter for f in filters) else None  # type: ignore[arg-type]
    op: Any = raw.get("op", "in")
    values = raw.get("values", [])
    if not (raw.keys() <= {"dimension", "op", "values"} and _text(raw.get("dimension"))
            and op in _OPS and type(op) is str and type(values) is list
            and _arity(op)[0] <= len(values) <= _arity(op)[1]
            and all(type(v) in _MEMBERS and (type(v) is not str or len(v) <= MAX_STR)
                    for v in values)):
        return None
    return Filter(dimension=raw["dimension"], op=raw.get("op", "in"), values=list(values))


def _plain_order(raw: Any) -> OrderBy | None:
    if not (type(raw) is dict and "field" in raw and raw.keys() <= {"field", "desc"}
            and _text(raw["field"]) and type(raw.get("desc", True)) is bool):
        return None
    return OrderBy(**raw)


def _plain_value(name: str, value: Any) -> tuple[bool, Any]:
    """(whether the field's value is of the plain shape, the value to build with)."""
    if name in ("window", "spine_window", "current_window", "previous_window"):
        window = _plain_window(value)
        return (True, None) if value is None and name in ("window", "spine_window") else \
            (window is not None, window)
    if name == "order_by":
        order = _plain_order(value)
        return value is None or order is not None, order
    if name == "where":
        filters = [_plain_filter(f) for f in value] if type(value) is list else [None]
        return len(filters) <= 10 and None not in filters, filters
    simple = {"metrics": lambda v: _texts(v, 1, MAX_METRICS),
              "group_by": lambda v: _texts(v, 0, MAX_GROUP_BY),
              "by": lambda v: v is None or _text(v),
              "grain": lambda v: v is None or (v in _GRAINS and type(v) is str),
              "aggregate": lambda v: v is None or (v == "sum" and type(v) is str),
              "limit": lambda v: v is None or (type(v) is int and 1 <= v <= MAX_LIMIT),
              "whole_periods": lambda v: type(v) is bool, "share": lambda v: type(v) is bool}
    check = simple.get(name)
    return (check is not None and check(value)), (list(value) if type(value) is list else value)


def _plain_args(model: type[QueryArgs] | type[CompareArgs], raw: dict[str, Any]
                ) -> QueryArgs | CompareArgs | None:
    """The arguments, when every one is of the plain shape; None leaves them to pydantic."""
    built = {}
    for name, value in raw.items():
        ok, built[name] = _plain_value(name, value)
        if not ok or name not in model.__dataclass_fields__:
            return None
    try:
        return model(**built)
    except TypeError:  # a required field is missing: pydantic names it
        return None
