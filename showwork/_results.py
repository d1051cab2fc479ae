"""The result shape `audit_answer` takes, and its translation to the audit's typed results.

A result is a plain mapping (`ResultInput`): the metrics, the rows as plain dicts, and optionally
the window it measures. A row holds its key columns (dimension members, or a grain's period
start) and one column per metric:

- a plain query: the metric's number, `{"store": "Brooklyn", "revenue": 269173.31}`, cited as
  `r1[store=Brooklyn]:revenue.value`; a query that asked for shares gives an object with `value`
  and `share_of_total` (a fraction), `{"store": "Brooklyn", "revenue": {"value": 269173.31,
  "share_of_total": 0.31}}`, cited as `r1[store=Brooklyn]:revenue.share_of_total`;
- a comparison: per metric an object with `value`, `previous`, `delta`, `pct_change` (percent
  units: -16.44 means fell 16.44 %), `{"platform": "ios", "days_per_user": {"value": 2.46,
  "previous": 2.5}}`; `delta` and `pct_change` are computed from `value` and `previous` when
  left out. The factors of an exact tree edge may also carry `contribution` (in the parent's
  units) and `share` (percent of the parent's change). Cited as
  `r2[platform=ios]:days_per_user.pct_change`.

`translate` builds the typed results the harness stores; `public` is the inverse, so a result a
governed call returned reads back in the public shape.
"""

# ruff: noqa: E402 — load_pure() must run before the semantic_layer imports (see _light.py)
from __future__ import annotations

from showwork._light import load_pure

load_pure()

import datetime as dt
import math
import numbers
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Literal, Required, TypedDict

from showwork._at import At, kind_of
from showwork.semantic_layer.results import (
    ATTRIBUTED_FIELDS,
    COMPARE_FIELDS,
    SHARED_FIELDS,
    Number,
    Result,
    Row,
    member_text,
)
from showwork.semantic_layer.windows import Window, period_end

GRAINS = ("day", "week", "month", "quarter", "year")
"""Every grain the layer produces."""


class WindowInput(TypedDict):
    """An inclusive date window."""

    start: str | dt.date
    """First day, ISO date (YYYY-MM-DD)."""
    end: str | dt.date
    """Last day, inclusive."""


class ResultInput(TypedDict, total=False):
    """One result your agent got, keyed by its handle ("r1" or 1) in `results`."""

    metrics: Required[list[str]]
    """Metric names, as claims cite them (r1:revenue.value)."""
    rows: Required[list[dict[str, Any]]]
    """Plain dicts: key columns (members, or a grain's period start) and one column per metric."""
    kind: Literal["query", "compare"]
    """Default: compare when metric columns are objects, else query."""
    keys: list[str]
    """The key columns, in order. Default: every column that is not a metric."""
    window: WindowInput
    """The window measured (a comparison: the current window). Default: not stated."""
    previous_window: WindowInput
    """A comparison's previous window."""
    covered: WindowInput | None
    """The part of `window` the data covers, when it is less (null: none of it). Default: all
    of it. A partly covered result is reported as a `partial_period` finding when cited."""
    previous_covered: WindowInput | None
    """The same for `previous_window`."""
    grain: Literal["day", "week", "month", "quarter", "year"]
    """The time grain; its key column (named like the grain) holds each period's start date."""
    where: list[dict[str, Any]]
    """The filters the call applied, as the layer takes them
    (`[{"dimension": "platform", "values": ["android"]}]`): a member the text names is then
    cited through its filter. Default: none known (a member no row has cannot be told)."""
    point_in_time: list[str]
    """Metrics measured at the end of the window. Default: those the catalog marks so."""
    sql: str
    """How it was computed (stored, not audited)."""
    model_version: str
    """Default: the catalog's model_version."""


ACCEPTED = tuple(ResultInput.__annotations__)


def translate(results: Any, catalog: Mapping[str, Any] | None) -> dict[int, Result]:
    """handle → typed result, from `results` in the public shape; AuditInputError when not."""
    at = At("results")
    if not isinstance(results, Mapping):
        raise at.error(f"must be a mapping of handle to result, e.g. {{'r1': {{...}}}}; got "
                       f"{kind_of(results)}")
    out: dict[int, Result] = {}
    for key, raw in results.items():
        handle = _handle(key, at)
        if handle in out:
            raise at.key(key).error(f"r{handle} is given twice")
        out[handle] = _result(raw, at.key(key), catalog or {})
    return dict(sorted(out.items()))


def wheres(results: Any) -> dict[int, list[dict[str, Any]]]:
    """handle → the filters (`where`) given with each result, for those that give one."""
    out: dict[int, list[dict[str, Any]]] = {}
    for key, raw in results.items():
        where = raw.get("where") if isinstance(raw, Mapping) else None
        if where is not None:
            at = At("results").key(key).attr("where")
            if not isinstance(where, list) or not all(isinstance(f, Mapping) for f in where):
                raise at.error(f"is {kind_of(where)}; give the filters as a list of objects, "
                               "e.g. [{'dimension': 'platform', 'values': ['android']}]")
            out[_handle(key, At("results"))] = [dict(f) for f in where]
    return out


def _handle(key: Any, at: At) -> int:
    if isinstance(key, int) and not isinstance(key, bool) and key > 0:
        return key
    if isinstance(key, str) and key[:1] == "r" and key[1:].isdigit() and int(key[1:]) > 0:
        return int(key[1:])
    raise at.error(f"{key!r} is not a handle; use 'r1', 'r2', … (or 1, 2, …)")


def _result(raw: Any, at: At, catalog: Mapping[str, Any]) -> Result:
    if not isinstance(raw, Mapping):
        raise at.error(f"is {kind_of(raw)}, expected an object with metrics and rows")
    unknown = [k for k in raw if k not in ACCEPTED]
    if unknown:
        raise at.error(f"unknown field {unknown[0]!r}; accepted: {', '.join(ACCEPTED)}",
                       str(unknown[0]))
    metrics = _metrics(raw.get("metrics"), at.attr("metrics"))
    rows = _rows_list(raw.get("rows"), at.attr("rows"))
    kind = _kind(raw, rows, metrics, at)
    keys = _keys(raw.get("keys"), rows, metrics, at)
    grain = _grain(raw.get("grain"), at)
    _period_column(keys, grain, rows, at)
    coverage = _coverage(raw, kind, at)
    covered = _covered_for_rows(coverage)
    typed = tuple(_row(row, at.attr("rows").key(i), metrics, keys, kind, grain, covered)
                  for i, row in enumerate(rows))
    return Result(kind=kind, metrics=metrics, keys=keys, rows=typed, coverage=coverage,
                  sql=_text(raw, "sql", at, ""),
                  model_version=_text(raw, "model_version", at,
                                      str(catalog.get("model_version", ""))),
                  point_in_time=_point_in_time(raw.get("point_in_time"), metrics, catalog, at),
                  grain=grain)


def _metrics(raw: Any, at: At) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw:
        raise at.error(f"is {kind_of(raw)}; give the metric names as a non-empty list")
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            raise at.key(i).error(f"is {kind_of(name)}, expected a metric name")
    if len(set(raw)) != len(raw):
        raise at.error("names a metric twice")
    return tuple(raw)


def _rows_list(raw: Any, at: At) -> list[Mapping[str, Any]]:
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise at.error(f"is {kind_of(raw)}; give the rows as a list of plain dicts")
    for i, row in enumerate(raw):
        if not isinstance(row, Mapping):
            raise at.key(i).error(f"is {kind_of(row)}, expected a dict of column to value")
    return list(raw)


def _kind(raw: Mapping[str, Any], rows: list[Mapping[str, Any]], metrics: tuple[str, ...],
          at: At) -> str:
    given = [row[m] for row in rows for m in metrics if m in row and row[m] is not None]
    cells = [c for c in given if not _shared(c)]  # a query's {value, share_of_total}: no compare
    if cells and len(cells) < len(given):
        raise at.attr("rows").error("mixes cells with share_of_total and cells without; a query "
                                    "that asked for shares gives every cell as {value, "
                                    "share_of_total}")
    nested = {isinstance(c, Mapping) for c in cells}
    if len(nested) > 1:
        raise at.attr("rows").error("mixes numbers and comparison objects in metric columns; a "
                                    "result is either a query (numbers) or a comparison")
    compare = nested == {True} if cells else "previous_window" in raw
    inferred = "compare" if compare else "query"
    kind = raw.get("kind", inferred)
    if kind not in ("query", "compare"):
        raise at.error(f"kind {kind!r} is not query or compare", "kind")
    if cells and kind != inferred:
        shape = "comparison objects" if inferred == "compare" else "numbers"
        raise at.error(f"kind is {kind} but the metric columns hold {shape}", "kind")
    return str(kind)


def _keys(raw: Any, rows: list[Mapping[str, Any]], metrics: tuple[str, ...],
          at: At) -> tuple[str, ...]:
    if raw is None:
        return tuple(c for c in (rows[0] if rows else {}) if c not in metrics)
    if not isinstance(raw, list) or not all(isinstance(k, str) for k in raw):
        raise at.error(f"is {kind_of(raw)}; give the key columns as a list of names", "keys")
    clash = [k for k in raw if k in metrics]
    if clash:
        raise at.error(f"{clash[0]!r} is both a key column and a metric", "keys")
    return tuple(raw)


def _period_column(keys: tuple[str, ...], grain: str | None, rows: list[Mapping[str, Any]],
                   at: At) -> None:
    """A grain's periods are in the key column named like the grain ('week'). MetricFlow names
    it `metric_time__week`: read as a member column, its dates would be members the answer
    never names, and an honest answer would be withheld, so it is refused with the fix."""
    for key in keys:
        head, _, tail = key.rpartition("__")
        if head == "metric_time" and tail in GRAINS:
            raise at.attr("rows").error(
                f"the key column {key!r} is MetricFlow's name for the {tail}'s periods; name it "
                f"{tail!r} (a grain's key column is named like the grain) and give "
                f"grain: {tail!r}", key)
    if grain is not None and rows and grain not in keys:
        raise at.error(f"grain is {grain!r} but the rows have no {grain!r} key column (each "
                       "period's start date); add it, or leave grain out", "grain")


def _grain(raw: Any, at: At) -> str | None:
    if raw is None or raw in GRAINS:
        return raw
    raise at.error(f"grain {raw!r} is not one of {', '.join(GRAINS)}", "grain")


def _text(raw: Mapping[str, Any], name: str, at: At, default: str) -> str:
    value = raw.get(name, default)
    if not isinstance(value, str):
        raise at.error(f"{name} is {kind_of(value)}, expected a string", name)
    return value


def _point_in_time(raw: Any, metrics: tuple[str, ...], catalog: Mapping[str, Any],
                   at: At) -> tuple[str, ...]:
    if raw is None:
        known = catalog.get("metrics") or {}
        return tuple(m for m in metrics if (known.get(m) or {}).get("point_in_time"))
    if not isinstance(raw, list) or any(m not in metrics for m in raw):
        raise at.error("point_in_time must list some of the result's metrics", "point_in_time")
    return tuple(raw)


# -- windows and coverage ----------------------------------------------------------------------
def _coverage(raw: Mapping[str, Any], kind: str, at: At) -> tuple[dict[str, Any], ...]:
    if kind == "query" and ("previous_window" in raw or "previous_covered" in raw):
        raise at.error("previous_window is for comparisons (their metric columns are objects)",
                       "previous_window")
    names = [("window", "covered")]
    if kind == "compare":
        names.append(("previous_window", "previous_covered"))
    out = []
    for window_name, covered_name in names:
        window = _window(raw.get(window_name), at.attr(window_name))
        if window is None:
            if covered_name in raw:
                raise at.error(f"{covered_name} needs {window_name}", covered_name)
            return ()  # no stated window: nothing to be partial against
        covered = (_window(raw[covered_name], at.attr(covered_name)) if covered_name in raw
                   else window)
        out.append({"requested": window.to_json(),
                    "covered": covered.to_json() if covered else None,
                    "partial": covered != window})
    return tuple(out)


def _window(raw: Any, at: At) -> Window | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) != {"start", "end"}:
        raise at.error(f"is {kind_of(raw)}; give a window as {{'start': 'YYYY-MM-DD', "
                       "'end': 'YYYY-MM-DD'}")
    start, end = _date(raw["start"], at, "start"), _date(raw["end"], at, "end")
    if start > end:
        raise at.error(f"starts {start} after it ends {end}")
    return Window(start, end)


def _date(raw: Any, at: At, name: str) -> dt.date:
    if isinstance(raw, dt.datetime):
        return raw.date()
    if isinstance(raw, dt.date):
        return raw
    try:
        return dt.date.fromisoformat(raw)
    except (TypeError, ValueError):
        raise at.error(f"{name} is {raw!r}, expected an ISO date (YYYY-MM-DD)", name) from None


def _covered_for_rows(coverage: tuple[dict[str, Any], ...]) -> Window | None | Literal[False]:
    """What the data covers of the (current) window; False when no window was stated."""
    if not coverage:
        return False
    got = coverage[0]["covered"]
    return Window.from_json(got) if got else None


# -- rows ------------------------------------------------------------------------------------
def _row(row: Mapping[str, Any], at: At, metrics: tuple[str, ...], keys: tuple[str, ...],
         kind: str, grain: str | None, covered: Window | None | Literal[False]) -> Row:
    expected = set(keys) | set(metrics)
    extra = [c for c in row if c not in expected]
    missing = [c for c in (*keys, *metrics) if c not in row]
    if extra:
        raise at.error(f"column {extra[0]!r} is neither a key ({', '.join(keys) or 'none'}) "
                       f"nor a metric ({', '.join(metrics)})", str(extra[0]))
    if missing:
        raise at.error(f"has no column {missing[0]!r}; every row has the key and metric "
                       "columns (a metric with no data: null)", missing[0])
    key = {k: _member(row[k], at, k, grain if k == grain else None) for k in keys}
    values = {m: _cell(row[m], at, m, kind) for m in metrics}
    return Row(key, values, _period_partial(key.get(grain or ""), grain, covered))


def _member(value: Any, at: At, column: str, grain: str | None) -> str:
    """A key column's member, written as the layer writes members (dates ISO, null empty)."""
    if not isinstance(value, str | numbers.Integral | dt.date | None):
        raise at.error(f"{column!r} is {kind_of(value)}, expected a member (a string)", column)
    text = member_text(value)
    if grain is not None:
        _date(text, at, column)  # a grain column holds each period's start date
    return text


def _shared(cell: Any) -> bool:
    """A query's cell with its share of the total: {"value": …, "share_of_total": …}."""
    return isinstance(cell, Mapping) and "share_of_total" in cell and set(cell) <= set(
        SHARED_FIELDS)


def _cell(value: Any, at: At, metric: str, kind: str) -> dict[str, Number]:
    if kind == "query" and _shared(value):
        return {f: _number(value.get(f), at, f"{metric}.{f}") for f in SHARED_FIELDS}
    if kind == "query":
        return {"value": _number(value, at, metric)}
    if value is None:
        return dict.fromkeys(COMPARE_FIELDS)
    if not isinstance(value, Mapping):
        raise at.error(f"{metric!r} is {kind_of(value)}, expected a comparison object "
                       f"({', '.join(COMPARE_FIELDS)})", metric)
    unknown = [f for f in value if f not in ATTRIBUTED_FIELDS]
    if unknown:
        raise at.error(f"{metric!r} has field {unknown[0]!r}; a comparison's fields are "
                       f"{', '.join(ATTRIBUTED_FIELDS)}", f"{metric}.{unknown[0]}")
    # contribution and share exist only on an exact tree edge's factors: kept only when given
    names = [*COMPARE_FIELDS, *(f for f in ATTRIBUTED_FIELDS[len(COMPARE_FIELDS):] if f in value)]
    return _derived({f: _number(value.get(f), at, f"{metric}.{f}") for f in names})


def _derived(fields: dict[str, Number]) -> dict[str, Number]:
    """delta and pct_change from value and previous, where they were left out."""
    cur, prev = fields["value"], fields["previous"]
    if fields["delta"] is None and cur is not None and prev is not None:
        fields["delta"] = cur - prev
    delta = fields["delta"]
    if fields["pct_change"] is None and delta is not None and prev:
        fields["pct_change"] = delta / prev * 100
    return fields


def _number(value: Any, at: At, column: str) -> Number:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real | Decimal):
        raise at.error(f"{column!r} is {kind_of(value)}, expected a number", column)
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    if not math.isfinite(number):
        raise at.error(f"{column!r} is {number}, expected a finite number", column)
    return number


def _period_partial(start: str | None, grain: str | None,
                    covered: Window | None | Literal[False]) -> bool:
    """A grain row whose period the data does not wholly cover (the layer's rule)."""
    if start is None or grain is None or covered is False:
        return False
    day = dt.date.fromisoformat(start)
    return covered is None or not covered.covers(Window(day, period_end(day, grain)))


# -- the inverse: a stored typed result in the public shape -----------------------------------
def public(result: Mapping[str, Any]) -> ResultInput:
    """A typed result's JSON (as traces store it) in the public shape."""
    kind, metrics, keys = result["kind"], list(result["metrics"]), list(result["keys"])
    rows = [{**row["key"], **{m: _public_cell(row["values"][m], kind) for m in metrics}}
            for row in result["rows"]]
    out: ResultInput = {"metrics": metrics, "rows": rows, "kind": kind, "keys": keys,
                        "sql": result.get("sql") or "",
                        "model_version": result.get("model_version") or "",
                        "point_in_time": list(result.get("point_in_time") or [])}
    if result.get("grain"):
        out["grain"] = result["grain"]
    names = (("window", "covered"), ("previous_window", "previous_covered"))
    for cov, (window, covered) in zip(result["coverage"], names, strict=False):
        out[window] = cov["requested"]  # type: ignore[literal-required]
        if cov["partial"]:
            out[covered] = cov["covered"]  # type: ignore[literal-required]
    return out


def _public_cell(fields: Mapping[str, Any], kind: str) -> Any:
    if kind == "query":
        return dict(fields) if "share_of_total" in fields else fields["value"]
    return dict(fields)
