"""Validation of governed calls against the model, before anything is compiled or run.

Each check raises a typed BlockedQuery whose message names what is unsupported and what is
supported: that message is what the analyst sees.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from showwork.semantic_layer.dateparts import date_part_of
from showwork.semantic_layer.errors import (
    AmbiguousDimension,
    GrainNotAllowed,
    InvalidArguments,
    NoDays,
    NonAdditiveSum,
    PointInTimeOverPeriod,
    UndefinedComposition,
    UnknownMember,
    UnknownMetric,
    UnsupportedDimension,
    UnsupportedMetric,
    WindowError,
)
from showwork.semantic_layer.governance import check_rollup
from showwork.semantic_layer.model import GRAINS, DimensionInfo, Metric, SemanticModelFile
from showwork.semantic_layer.requests import MAX_DIMENSIONS, AnyOf, CompareArgs, Filter, QueryArgs
from showwork.semantic_layer.results import citable, member_text
from showwork.semantic_layer.windows import Window, aligned, period_end, period_start

_OPERATOR = re.compile(r"\s*[-+*/×÷]\s*|\s+(?:per|over|divided by|times|x)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Coverage:
    """What the data covers of the window asked for."""

    requested: Window
    """The window asked for."""
    covered: Window | None
    """The part of it the sources cover; None when nothing is covered."""

    @property
    def partial(self) -> bool:
        return self.covered != self.requested

    def to_json(self) -> dict[str, object]:
        return {"requested": self.requested.to_json(),
                "covered": self.covered.to_json() if self.covered else None,
                "partial": self.partial}


@dataclass(frozen=True)
class Plan:
    """A validated governed call: what to compile, with names resolved."""

    kind: str
    """query or compare"""
    metrics: tuple[str, ...]
    """Current metric names, in the order asked."""
    group_by: tuple[str, ...]
    filters: tuple[Filter | AnyOf, ...]
    windows: tuple[Window, ...]
    """One window for query; (current, previous) for compare."""
    grain: str | None = None
    aggregate: str | None = None
    order_by: tuple[str, bool] | None = None
    limit: int | None = None
    renamed: dict[str, str] = field(default_factory=dict)
    """Previous name asked → current name."""
    coverage: tuple[Coverage, ...] = ()
    requested: Window | None = None
    """The window asked, when it was widened to whole periods of the grain."""
    bounded: bool = True
    """False: no window was asked; the SQL has no time constraint (windows[0] is then the
    sources' coverage, which only per-period readings — offsets, cumulative, point in time —
    enumerate)."""
    spine: Window | None = None
    """The days whose periods a join_to_timespine metric's time spine adds rows for, when not
    windows[0]'s: the window asked, within the spine, when a --where's metric_time bounds
    (mixed with other conditions) narrowed windows[0] (QueryArgs.spine_window)."""
    notes: tuple[str, ...] = ()
    """Why the answer has no rows, or fewer than asked: what a caller answering as MetricFlow
    does (refuse_empty=False) is told instead of a refusal."""
    empty: bool = False
    """No SQL runs and the answer has no rows: no day of the window is read, by a grain, of
    metrics none of which joins its time spine or reads time shifted or cumulated, or of such
    metrics over a window the spine holds no day of (refuse_empty=False). Other plans reading
    no day of data run their SQL over the window: without a grain it gives what the metrics are
    over no rows (MetricFlow's one row without dimensions: nulls, a distinct count's 0, a fill);
    a spine-joined metric gives the periods MetricFlow's spine gives, an offset the data it
    shifts into the window, a cumulative window the data it trails into it."""


def plan_query(model: SemanticModelFile, args: QueryArgs, refuse_empty: bool = True) -> Plan:
    """The validated query. refuse_empty: a window no day of which is read (NoDays) or a member
    outside a closed list (UnknownMember) is refused, as the analyst's tool needs (the refusal
    lets a model repair, and an empty result must never read as a 0); False: answered as
    MetricFlow answers it, with no rows (or the rows of the members there are) and a note
    saying why (`semantic query`, the public API)."""
    metrics, renamed = resolve_metrics(model, args.metrics)
    notes = check_dimensions(model, metrics, args.group_by, args.where, refuse_empty)
    check_time_reads(model, metrics, args.group_by, args.grain)
    check_time_spine_join(model, metrics, args.group_by, args.where, args.grain)
    period = agg_time_period(model, metrics, args.group_by, args.grain) if time_read(
        model, metrics) else None
    by_part = part_period(model, metrics, args.group_by, args.grain)
    by_time = args.grain is not None or period is not None or by_part is not None
    if period and args.window is not None:
        check_period_window(model, metrics, *period)
    if by_part and args.window is not None and _spine_before_parts(model, metrics):
        raise WindowError(f"Metrics {', '.join(metrics)} join their time spine; grouped by the "
                          f"date part {by_part.parts[0][0]!r} with a window, MetricFlow has no "
                          "metric_time to bound (\"No metric time dimensions with standard "
                          "granularities found\"); ask no window, or group by metric_time (a "
                          "grain).")
    if args.window is None:
        check_grain(model, metrics, args.grain, None)
        check_aggregate(model, metrics, args.aggregate, args.grain)
        order = _check_order(metrics, args.group_by, args.order_by, args.grain)
        span = unbounded_span(model, metrics, by_time)
        return Plan("query", metrics, tuple(args.group_by), tuple(args.where), (span,), args.grain,
                    args.aggregate, order, args.limit, renamed, (Coverage(span, span),),
                    bounded=False, notes=notes)
    try:
        window = requested = _closed(model, metrics, args.window.window(), by_time)
        if args.whole_periods and args.grain:
            window = widen(window, args.grain)
        check_grain(model, metrics, args.grain, window)
        check_aggregate(model, metrics, args.aggregate, args.grain)
        order = _check_order(metrics, args.group_by, args.order_by, args.grain)
        coverage = check_window(model, metrics, window)
        check_spine_days(model, metrics, window, args.grain)
    except NoDays as exc:
        if refuse_empty:
            raise
        check_grain(model, metrics, args.grain, None)
        check_aggregate(model, metrics, args.aggregate, args.grain)
        order = _check_order(metrics, args.group_by, args.order_by, args.grain)
        return Plan("query", metrics, tuple(args.group_by), tuple(args.where), (exc.window,),
                    args.grain, args.aggregate, order, args.limit, renamed,
                    (Coverage(exc.window, None),), spine=_spine_window(model, metrics, args),
                    notes=(*notes, exc.note, *_off_spine(model, metrics, exc.window, args.grain)),
                    empty=bool(args.grain) and not _has_days(model, metrics, exc.window))
    return Plan("query", metrics, tuple(args.group_by), tuple(args.where), (window,), args.grain,
                args.aggregate, order, args.limit, renamed, (coverage,),
                requested if requested != window else None,
                spine=_spine_window(model, metrics, args), notes=notes)


def unbounded_span(model: SemanticModelFile, metrics: Sequence[str], by_time: bool) -> Window:
    """The days a query with no window reads: its sources' coverage, carried forward by
    offsets and cumulative windows (_past_offsets), and, for a metric joining its time spine by
    time, every day of the spine (MetricFlow's spine join with no time constraint)."""
    spans = [model.coverage(m) for m in metrics]
    span = Window(min(s[0] for s in spans),
                  max(_past_offsets(model, m, s[1], by_time)
                      for m, s in zip(metrics, spans, strict=True)))
    spine = model.spine_coverage
    if by_time and joins_time_spine(model, metrics) and spine:
        span = Window(min(span.start, spine.from_), max(span.end, spine.through))
    return span


def _spine_window(model: SemanticModelFile, metrics: tuple[str, ...], args: QueryArgs
                  ) -> Window | None:
    """Plan.spine: the asked window's days the time spine holds (all of it when none was
    asked), for a join_to_timespine metric by a grain under a --where narrowing the window."""
    spine = model.spine_coverage
    if args.spine_window is None or not args.grain or spine is None or \
            not joins_time_spine(model, metrics):
        return None
    asked = args.spine_window.window()
    return Window(max(asked.start, spine.from_), min(asked.end, spine.through))


def joins_time_spine(model: SemanticModelFile, metrics: Sequence[str]) -> bool:
    """A metric asked, or one it is computed from, joins its time spine (join_to_timespine)."""
    return any(_spined(model.metric_index[m]) or joins_time_spine(
        model, [i.name for i in model.metric_index[m].input_metrics]) for m in metrics)


def _spined(metric: Metric) -> bool:
    """The metric itself joins its time spine (a conversion metric: either measure)."""
    c = metric.conversion
    return bool(metric.join_to_timespine or (c and (c.base_spined or c.conversion_spined)))


def agg_time_period(model: SemanticModelFile, metrics: Sequence[str],
                    group_by: Sequence[str], grain: str | None) -> tuple[str, str] | None:
    """(dimension, grain) when a query with no grain groups by the one time dimension that is
    the aggregation time dimension of every measure the metrics read (`customer__signup_date__
    month`): MetricFlow reads it as it reads metric_time then (joins the time spine on it,
    shifts and cumulates by it). None otherwise."""
    from showwork.semantic_layer.joins import resolve_any

    if grain is not None or not metrics or _converts(model, metrics):
        return None  # (a conversion metric's two measures: not read so; refused as before)
    times = [d for d in group_by if dimension_for(model, metrics[0], d).dimension.type == "time"]
    if len(times) != 1 or model.qualified_name(times[0]).startswith("metric_time"):
        return None
    found = None
    for measure in dict.fromkeys(x for m in metrics for x in model.base_measures(m)):
        sm, me = model.measures[measure]
        ref = resolve_any(model, sm, model.qualified_name(times[0]))
        if (ref.path or ref.owner != sm.name or ref.dimension.name != me.agg_time_dimension
                or date_part_of(ref.grain or "")):
            return None
        found = ref.grain or "day"
    return (times[0], found) if found else None


@dataclass(frozen=True)
class PartPeriod:
    """Offset metrics grouped by date parts of one time (part_period)."""

    parts: tuple[tuple[str, str], ...]
    """(the group-by name, its date part), in the order asked."""
    agg_time: bool
    """The parts are of the aggregation time dimension, not of metric_time."""


def part_period(model: SemanticModelFile, metrics: Sequence[str], group_by: Sequence[str],
                grain: str | None) -> PartPeriod | None:
    """The date parts of metric_time, or of the aggregation time dimension of every measure
    the metrics read (`metric_time__extract_month`, `booking__ds__extract_doy`), that a query
    of offset metrics groups by: MetricFlow then shifts the offset input's rows by day, onto
    time spine days, and groups by their parts (and the query's grain of them); or of metrics
    joining their time spine, by no grain: each part of the spine's days gets a row. None
    otherwise (a date part of other metrics is a dimension like any other)."""
    parts = [(d, date_part_of(d.rsplit("__", 1)[-1])) for d in group_by]
    asked = [(d, p) for d, p in parts if p]
    if not asked or not (
            shifts_rows(model, metrics) or (grain is None and joins_time_spine(model, metrics))):
        return None
    heads = {model.qualified_name(d.rsplit("__", 1)[0]) for d, _ in asked}
    if len(heads) != 1:
        return None
    (head,) = heads
    found = tuple((d, p) for d, p in asked if p)
    if head == "metric_time":
        return PartPeriod(found, False)
    as_grain = agg_time_period(model, metrics, [*(d for d, p in parts if not p), head], None)
    return PartPeriod(found, True) if as_grain and as_grain[0] == head else None


def check_period_window(model: SemanticModelFile, metrics: Sequence[str], dim: str,
                        grain: str) -> None:
    """A window on metrics grouped by their aggregation time dimension `dim` (no metric_time)
    that MetricFlow errors on, or bounds otherwise than by metric_time: refused, named."""
    if any(_spine_after_aggregation(model, m, grain) for m in metrics):
        why = ("with a time spine join or an offset read by that dimension, it has no "
               "metric_time to bound (\"No metric time dimensions with standard granularities "
               "found\")")
    elif shifts_rows(model, metrics) and any("cumulative" in _reads(model, m) for m in metrics):
        why = ("an offset input's rows are bounded by the window before they are shifted, and "
               "grouped by the shifted day unbounded, which showwork does not support beside "
               "a cumulative metric (whose window it reads otherwise); ask them apart")
    else:
        return
    raise WindowError(f"Metrics {', '.join(metrics)} grouped by their aggregation time "
                      f"dimension {dim!r} with a window: in MetricFlow {why}; group by "
                      "metric_time (a grain) for a window, or ask no window.")


def shifts_rows(model: SemanticModelFile, metrics: Sequence[str]) -> bool:
    """A metric reads an input shifted in time (offset_window or offset_to_grain)."""
    return any(_reads(model, m) - {"cumulative"} for m in metrics)


def period_row_bounds(model: SemanticModelFile, metrics: Sequence[str], dim: str,
                      window: Window) -> tuple[Filter, Filter]:
    """The window asked of offset metrics grouped by their aggregation time dimension `dim`
    (agg_time_period), as MetricFlow's dataflow_plan_builder applies it: to each input row's
    own day (its `metric_time__day`, the aggregation time dimension at its finest grain),
    before an offset shifts it; the shifted periods are then grouped unbounded."""
    from showwork.semantic_layer.joins import resolve_any

    sm, _ = model.measures[model.base_measures(metrics[0])[0]]
    ref = resolve_any(model, sm, model.qualified_name(dim))
    name = ref.name.removesuffix(f"__{ref.grain}") if ref.grain else ref.name
    day = f"{name}__{finest_grain(model, metrics)}"
    return (Filter(dimension=day, op="ge", values=[window.start.isoformat()]),
            Filter(dimension=day, op="le", values=[window.end.isoformat()]))


def finest_grain(model: SemanticModelFile, metrics: Sequence[str]) -> str:
    """The finest grain the metrics' aggregation time dimensions hold (MetricFlow's minimum
    granularity of metric_time for them)."""
    grains = []
    for measure in dict.fromkeys(x for m in metrics for x in model.base_measures(m)):
        sm, me = model.measures[measure]
        d = sm.dimension(me.agg_time_dimension)
        grains.append(d.granularity if d and d.granularity in GRAINS else "day")
    return min(grains, key=GRAINS.index) if grains else "day"


def _spine_after_aggregation(model: SemanticModelFile, metric: str, grain: str) -> bool:
    """MetricFlow joins the metric's values to the time spine after aggregating them, by the
    time dimensions asked, so that with only the aggregation time dimension asked (no
    metric_time) it has none to bound by a window: a spined simple metric, a cumulative one by
    its finest grain (by a coarser one it reads metric_time by day too), an offset input no
    finer than the grain (dataflow_plan_builder's after_aggregation_time_spine_join)."""
    m = model.metric_index[metric]
    if m.join_to_timespine and (m.type != "cumulative" or grain == finest_grain(model, [metric])):
        return True
    for i in m.input_metrics:
        if _spine_after_aggregation(model, i.name, grain):
            return True
        if i.offset_window and GRAINS.index(grain) <= GRAINS.index(i.offset_window.grain):
            return True
        if i.offset_to_grain and grain != "week" and \
                GRAINS.index(grain) <= GRAINS.index(i.offset_to_grain):
            return True
    return False


def _spine_before_parts(model: SemanticModelFile, metrics: Sequence[str]) -> bool:
    """A metric joins its time spine where MetricFlow then has no metric_time at a standard
    grain to bound by a window when grouped by a date part: a simple metric's measure, or a
    conversion metric's base measure (its conversions joined to the spine: answered)."""
    for name in metrics:
        m = model.metric_index[name]
        if m.join_to_timespine or (m.conversion and m.conversion.base_spined) or \
                _spine_before_parts(model, [i.name for i in m.input_metrics]):
            return True
    return False


def _semi_additive(model: SemanticModelFile, metrics: Sequence[str]) -> bool:
    """A metric reads a semi-additive measure (non_additive_dimension)."""
    return any(model.measures[x][1].point_in_time
               for m in metrics for x in model.base_measures(m))


def _converts(model: SemanticModelFile, metrics: Sequence[str]) -> bool:
    """A metric asked, or one it is computed from, is a conversion metric."""
    return any(model.metric_index[m].conversion is not None or _converts(
        model, [i.name for i in model.metric_index[m].input_metrics]) for m in metrics)


def time_read(model: SemanticModelFile, metrics: Sequence[str]) -> bool:
    """The metrics join their time spine, or read time shifted or cumulated."""
    return joins_time_spine(model, metrics) or any(_reads(model, m) for m in metrics)


def check_time_spine_join(model: SemanticModelFile, metrics: tuple[str, ...],
                          group_by: Sequence[str], where: Sequence[Filter | AnyOf],
                          grain: str | None) -> None:
    """join_to_timespine shapes showwork does not compute MetricFlow's way yet: refused, named."""
    joined = [m for m in metrics if joins_time_spine(model, [m])]
    if not joined:
        return
    name = joined[0]
    joined_on = _spine_times(model, joined)
    period = agg_time_period(model, metrics, group_by, grain)
    by_part = part_period(model, metrics, group_by, grain)
    parts = [d for d in group_by if date_part_of(d.rsplit("__", 1)[-1])]
    if parts and len(parts) + (grain is not None) > 1:
        raise UnsupportedDimension(
            f"Metric {name!r} joins its time spine (join_to_timespine); by {len(parts)} date "
            f"part(s) ({', '.join(parts)}){' and a grain' if grain else ''} MetricFlow 0.210 "
            "joins the spine on the first of them alone (spine_part_join), so each of its rows "
            "repeats once for every other part's value in that period, carrying that value "
            "(duplicated keys, a period's total counted once per part), which showwork does not "
            "copy: group by one date part, or by the grain alone.")
    for dim in group_by:
        info = dimension_for(model, name, dim)
        if (period and period[0] == dim) or (by_part and dim in dict(by_part.parts)):
            continue  # read as metric_time (Compiler.compile)
        if info.dimension.type == "time" and (
                (info.owner, info.dimension.name) in joined_on or
                model.qualified_name(dim).startswith("metric_time__")):
            # (another time dimension groups as a categorical one does: MetricFlow joins the
            # spine on metric_time, or on no time when the query has none)
            raise UnsupportedDimension(
                f"Metric {name!r} joins its time spine (join_to_timespine); grouped by its "
                f"aggregation time dimension {dim!r} that is not supported yet: group it by "
                "metric_time (a grain).")
    if grain and model.spine_coverage is None and not model.time_spines:
        raise UnsupportedMetric(f"Metric {name!r} joins its time spine (join_to_timespine), and "
                                "the project defines none (a time_spine model, or the "
                                "metricflow_time_spine model).")


def _spine_times(model: SemanticModelFile, metrics: Sequence[str]) -> set[tuple[str, str]]:
    """(semantic model, time dimension) each measure joined to the spine is aggregated by, for
    the metrics and those they are computed from."""
    out: set[tuple[str, str]] = set()
    for name in metrics:
        m = model.metric_index[name]
        c = m.conversion
        measures = [m.measure] if m.join_to_timespine and m.measure else []
        measures += [c.base_measure] if c and c.base_spined else []
        measures += [c.conversion_measure] if c and c.conversion_spined else []
        for measure in measures:
            sm, me = model.measures[measure]
            out.add((sm.name, me.agg_time_dimension))
        out |= _spine_times(model, [i.name for i in m.input_metrics])
    return out


def _reads(model: SemanticModelFile, metric: str) -> set[str]:
    """How a metric reads time other than by its own day: cumulative, offset, offset_to_grain."""
    m = model.metric_index[metric]
    out = {"cumulative"} if m.type == "cumulative" else set()
    for i in m.input_metrics:
        out |= _reads(model, i.name)
        out |= {"offset"} if i.offset_window else set()
        out |= {"offset_to_grain"} if i.offset_to_grain else set()
    return out


def check_time_reads(model: SemanticModelFile, metrics: tuple[str, ...],
                     group_by: tuple[str, ...] | list[str], grain: str | None) -> None:
    """Shapes MetricFlow answers that showwork does not compute its way yet: refused, named."""
    period = agg_time_period(model, metrics, group_by, grain)
    for metric in metrics:
        reads = _reads(model, metric)
        if not reads:
            continue
        parts = [d for d in group_by if date_part_of(d.rsplit("__", 1)[-1])]
        if parts and reads & {"cumulative", "offset_to_grain"}:
            # MetricFlow's group-by resolution (NoneDatePartPattern): a cumulative metric, or
            # one reading an input offset to a grain, takes no date part
            raise UnsupportedDimension(
                f"Metric {metric!r} ({', '.join(sorted(reads))}) does not allow group-by items "
                f"with a date part ({', '.join(parts)}), as in MetricFlow; group it by "
                "metric_time (a grain) instead.")
        by_part = part_period(model, metrics, group_by, grain)
        read_so = {d for d, _ in by_part.parts} if by_part else set()
        if by_part and (reads - {"offset"} or _semi_additive(model, metrics)):
            raise UnsupportedDimension(
                f"Metric {metric!r} ({', '.join(sorted(reads))}) grouped by the date parts "
                f"{', '.join(sorted(read_so))} beside a semi-additive measure is not supported "
                "yet; ask them apart or group by metric_time (a grain).")
        for dim in group_by:
            if (period and period[0] == dim) or dim in read_so:
                continue  # read as metric_time (Compiler.compile)
            if dimension_for(model, metric, dim).dimension.type == "time":
                raise UnsupportedDimension(
                    f"Metric {metric!r} ({', '.join(sorted(reads))}) grouped by the time dimension "
                    f"{dim!r} is not supported yet; group it by metric_time (a grain) instead.")


def check_where_reads(model: SemanticModelFile, metrics: list[str], grain: str | None,
                      asked: Window | None, bounds: Window, grains: tuple[str, ...]) -> None:
    """A --where bounding metric_time (at `grains`) in one filter with other conditions, for a
    metric with an offset input. MetricFlow applies that filter with the offset input's rows:
    joined to the time spine after they are aggregated (an offset no finer than the grain, or
    by day), to the rows themselves, before the shift; joined before (a finer offset), to the
    days answered at the day or the query's grain, but to the rows' own period at another.
    Answered as a window when that is the days answered, or cannot matter: the bounds keep
    the whole window asked and every day the offsets read. Else refused, named, deliberately:
    the dates of a metric_time bound name the shifted periods, and MetricFlow's own fix for
    that placement (dbt-labs/metricflow#2016) calls it a bug."""
    names, _ = resolve_metrics(model, metrics)
    asked = widen(asked, grain) if asked and grain else asked  # the periods the answer reads
    for metric in names:
        shifted = [g for g in _offset_grains(model, metric)
                   if not (grain and GRAINS.index(grain) > GRAINS.index(g)
                           and set(grains) <= {"day", grain})]
        if not shifted:
            continue
        firsts = _offset_reads(model, metric, asked.start) if asked else []
        if asked is None or not (bounds.covers(asked) and all(d >= bounds.start for d in firsts)):
            raise WindowError(
                f"Metric {metric!r} reads an input shifted in time (an offset), and the --where "
                "bounds metric_time in one filter with other conditions: MetricFlow 0.210 applies "
                "such a filter to the offset input's rows before the shift, though its dates name "
                "the shifted periods, so its numbers change with how the same conditions are "
                "written (the same bounds as the window, or as a --where of their own, bound the "
                "periods after the shift) and the first period asked loses the rows its offset "
                "reads; MetricFlow's own fix (dbt-labs/metricflow#2016) calls that a bug, so "
                "showwork refuses rather than answer either way. Ask the metric_time bounds as "
                "the window (--start/--end) with the other conditions in the --where, or the "
                "bounds alone in the --where, or bounds that keep the whole window and every day "
                "the offset reads.")


def _offset_grains(model: SemanticModelFile, metric: str) -> list[str]:
    """The grain of each offset input of the metric (offset_window's, or offset_to_grain)."""
    out: list[str] = []
    for i in model.metric_index[metric].input_metrics:
        out += _offset_grains(model, i.name)
        if i.offset_window:
            out.append(i.offset_window.grain)
        if i.offset_to_grain:
            out.append(i.offset_to_grain)
    return out


def _offset_reads(model: SemanticModelFile, metric: str, start: dt.date) -> list[dt.date]:
    """The first day each offset input of the metric reads for a window starting at `start`."""
    from showwork.semantic_layer.sql import shift  # sqlglot: not needed to read a cached plan

    out: list[dt.date] = []
    for i in model.metric_index[metric].input_metrics:
        out += _offset_reads(model, i.name, start)
        if i.offset_window:
            out.append(shift(start, -i.offset_window.count, i.offset_window.grain))
        if i.offset_to_grain:
            out.append(period_start(start, i.offset_to_grain))
    return out


def _closed(model: SemanticModelFile, metrics: tuple[str, ...], window: Window,
            by_time: bool = False) -> Window:
    """A window open on one side (a --where bounding metric_time on one side only) closed at the
    metrics' coverage there: the same rows, as MetricFlow filters on the one bound."""
    if window.start != dt.date.min and window.end != dt.date.max:
        return window
    spans = [model.coverage(m) for m in metrics]
    first = min(s[0] for s in spans)
    last = max(_past_offsets(model, m, s[1], by_time) for m, s in zip(metrics, spans, strict=True))
    if by_time and joins_time_spine(model, metrics) and model.spine_coverage:
        # MetricFlow's spine join: the open side runs to the spine's end, as with no window
        first = min(first, model.spine_coverage.from_)
        last = max(last, model.spine_coverage.through)
    start = first if window.start == dt.date.min else window.start
    end = last if window.end == dt.date.max else window.end
    if start == dt.date.min or end == dt.date.max:
        raise WindowError("A metric_time bound on one side only needs the coverage of the "
                          "metrics' sources to close the other side, and it is not known; give "
                          "both bounds or a window.")
    if start > end:  # the bound leaves no day of the sources
        data = f"{min(s[0] for s in spans)}..{max(s[1] for s in spans)}"
        raise NoDays(f"The metric_time bound leaves no day to read: the sources of "
                     f"{', '.join(metrics)} cover {data}.",
                     f"no day is read: the metric_time bound leaves none of the days the "
                     f"sources cover ({data})", Window(start, end))
    return Window(start, end)


def _past_offsets(model: SemanticModelFile, metric: str, end: dt.date,
                  by_time: bool = False) -> dt.date:
    """The last day a metric has a value for when its sources end at `end`: an offset input
    (offset_window) carries the sources' last days that far forward, as MetricFlow's join to
    its time spine does, and so does a cumulative metric by a grain (`by_time`; without one it
    is read at the sources' last day: MetricFlow refuses it unless over all time, whose total
    that is)."""

    if end == dt.date.max:
        return end
    last = end
    m = model.metric_index[metric]
    for i in m.input_metrics:
        day = _past_offsets(model, i.name, end, by_time)
        if i.offset_window:
            day = _carried(day, i.offset_window.count, i.offset_window.grain)
        if i.offset_to_grain:  # each spine day reads its period's start: to the period's end
            day = _spine_clamped(model, period_end(period_start(day, i.offset_to_grain),
                                                   i.offset_to_grain), end)
        last = max(last, day)
    if m.type == "cumulative" and by_time:
        last = max(last, _past_cumulative(model, m, last))
    return last


def _carried(end: dt.date, count: int, grain: str) -> dt.date:
    """The last spine day whose day − offset is on or before `end`: MetricFlow joins each spine
    day to day − offset, and a calendar shift clamps to the month's last day, so Jul 31 − 1 month
    reads Jun 30 as Jul 30 does (`end` shifted forward alone stops at Jul 30).

    >>> _carried(dt.date(2024, 6, 30), 1, "month")
    datetime.date(2024, 7, 31)
    """
    from showwork.semantic_layer.sql import shift  # sqlglot: not needed to read a cached plan

    day = shift(end, count, grain)
    while shift(day + dt.timedelta(days=1), -count, grain) <= end:
        day += dt.timedelta(days=1)
    return day


def _past_cumulative(model: SemanticModelFile, m: Metric, end: dt.date) -> dt.date:
    """The last day a cumulative metric has a value for when its sources end at `end`, as
    MetricFlow's join to its time spine gives without a window: while the trailing range of a
    spine day still holds a day with data — a window's length on (a day too many reads no row:
    a day whose range holds no data has none), the end of the grain_to_date period, and the
    spine's last day for all time (kept at `end` when the spine's days are not known)."""
    from showwork.semantic_layer.sql import shift

    spine = model.spine_coverage
    if m.window:
        last = shift(end, m.window.count, m.window.grain)
    elif m.grain_to_date:
        last = period_end(period_start(end, m.grain_to_date), m.grain_to_date)
    else:
        last = spine.through if spine else end
    return _spine_clamped(model, last, end)


def _spine_clamped(model: SemanticModelFile, last: dt.date, end: dt.date) -> dt.date:
    """`last`, no later than the time spine's last day when the spine runs past `end`."""
    spine = model.spine_coverage
    return min(last, spine.through) if spine and spine.through >= end else last


def widen(window: Window, grain: str) -> Window:
    """The window grown to whole periods of the grain, as MetricFlow treats --start/--end.

    >>> str(widen(Window.from_json({"start": "2026-03-04", "end": "2026-03-10"}), "week"))
    '2026-03-02..2026-03-15'
    """
    start = period_start(window.start, grain)
    return Window(start, period_end(period_start(window.end, grain), grain))


def plan_compare(model: SemanticModelFile, args: CompareArgs) -> Plan:
    metrics, renamed = resolve_metrics(model, args.metrics)
    cur, prev = args.current_window.window(), args.previous_window.window()
    group_by = (args.by,) if args.by else ()
    check_dimensions(model, metrics, group_by, args.where)
    covs = (check_window(model, metrics, cur), check_window(model, metrics, prev))
    for w in (cur, prev):
        check_grain(model, metrics, None, w)
    if cur.intersect(prev):
        raise WindowError(f"The current window {cur} and previous window {prev} overlap; "
                          "compare two separate windows.")
    return Plan("compare", metrics, group_by, tuple(args.where), (cur, prev), renamed=renamed,
                coverage=covs)


def resolve_metrics(model: SemanticModelFile, asked: list[str]) -> tuple[tuple[str, ...], dict]:
    out: list[str] = []
    renamed: dict[str, str] = {}
    for name in asked:
        current = model.previous_names.get(name, name)
        if current not in model.metric_index:
            raise _unknown_metric(model, name)
        if current != name:
            renamed[name] = current
        if current not in out:
            out.append(current)
    return tuple(out), renamed


def _unknown_metric(model: SemanticModelFile, name: str) -> Exception:
    known = sorted(model.metric_index)
    why = model.refusal(name)
    if why:
        return UnsupportedMetric(f"Metric {name!r} cannot be computed yet: {why}. Metrics it "
                                 f"can compute: {', '.join(known)}.")
    parts = [p for p in _OPERATOR.split(name.strip()) if p]
    if len(parts) > 1 and all(model.previous_names.get(p, p) in known for p in parts):
        derived = [f"{m.name}" for m in model.metrics if m.type != "simple"]
        return UndefinedComposition(
            f"{name!r} combines governed metrics in a way the model does not define; "
            f"defined compositions: {', '.join(derived)}. Ask for those metrics separately "
            "or for a defined composition.")
    close = difflib.get_close_matches(name, known + list(model.previous_names), n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    return UnknownMetric(f"Unknown metric {name!r}.{hint} Governed metrics: {', '.join(known)}.")


def flat(filters: list[Filter | AnyOf] | tuple[Filter | AnyOf, ...]) -> list[Filter]:
    """Every filter, OR-groups opened."""
    return [x for f in filters for x in (f.any_of if isinstance(f, AnyOf) else [f])]


def check_dimensions(model: SemanticModelFile, metrics: tuple[str, ...],
                     group_by: tuple[str, ...] | list[str],
                     filters: list[Filter | AnyOf] | tuple[Filter | AnyOf, ...],
                     refuse_empty: bool = True) -> tuple[str, ...]:
    """The notes of filters naming members the dimension lacks (refuse_empty=False; else
    UnknownMember), after refusing any dimension the metrics cannot be read by."""
    if len(set(group_by)) != len(group_by):
        raise InvalidArguments(f"group_by repeats a dimension: {', '.join(group_by)}.")
    plain = [d for d in group_by if not date_part_of(d.rsplit("__", 1)[-1])]
    if len(plain) > MAX_DIMENSIONS:
        raise InvalidArguments(f"group_by names {len(plain)} dimensions ({', '.join(plain)}); "
                               f"at most {MAX_DIMENSIONS} besides date parts (metric_time__extract_"
                               "year, …).")
    infos: dict[str, DimensionInfo] = {}
    parted = any(d.is_partition for sm in model.semantic_models for d in sm.dimensions)
    for dim in [*group_by, *(f.dimension for f in flat(filters))]:
        for metric in metrics:
            infos[dim] = dimension_for(model, metric, dim)
            if parted:
                _check_partitions(model, metric, dim)
    notes = [note for f in flat(filters) for note in check_members(infos[f.dimension], f,
                                                                    refuse_empty)]
    check_rollup(model, metrics, group_by, filters)
    return tuple(dict.fromkeys(notes))


def dimension_for(model: SemanticModelFile, metric: str, name: str) -> DimensionInfo:
    """The dimension `name` (public or MetricFlow name) of a metric, or a refusal naming the
    supported ones."""
    from showwork.semantic_layer.joins import resolve_any

    offered = model.offered_dimensions(metric)
    if name in offered:
        return offered[name]
    models = [sm for sm in model.base_models(metric) if sm.entities]
    info, reason = None, ""
    try:
        for sm in models:
            ref = resolve_any(model, sm, model.qualified_name(name))
            if model.hidden(ref):
                raise UnsupportedDimension(name)
            info = model.dimension_info(ref)
    except AmbiguousDimension:
        raise
    except UnsupportedDimension as exc:
        info = None
        if "__" in name and exc.message != name:  # a MetricFlow name: say what went wrong
            reason = f" ({exc.message.rstrip('.')})"
    if info is None:
        supported = model.supported_dimensions(metric)
        listed = ", ".join(supported) if supported else "none"
        raise UnsupportedDimension(
            f"Unknown dimension {name!r} for metric {metric!r}{reason}"
            f"{_did_you_mean(name, supported)}; supported: {listed}.")
    return info


def _check_partitions(model: SemanticModelFile, metric: str, name: str) -> None:
    """MetricFlow joins two semantic models that both have partition dimensions (is_partition)
    on those too; showwork does not yet, so such a join is refused, never answered otherwise."""
    from showwork.semantic_layer.joins import resolve_any

    for fact in model.base_models(metric):
        if not fact.entities:
            continue
        ref = resolve_any(model, fact, model.qualified_name(name))
        names = [fact.name, *(h.target for h in ref.path)]
        parted = [n for n in names
                  if any(d.is_partition for d in model.models_by_name[n].dimensions)]
        if len(parted) > 1:
            raise UnsupportedDimension(
                f"Dimension {name!r} of metric {metric!r} joins semantic models {parted[0]!r} and "
                f"{parted[1]!r}, which both have partition dimensions (is_partition); MetricFlow "
                "joins them on those too, which showwork does not support yet.")


def _did_you_mean(name: str, known: list[str]) -> str:
    """' (did you mean X?)' for a name a letter or a prefix away from a known one ('' if
    none): the same name in another case, the known names it is the last part of, or close
    spellings."""
    same = [k for k in known if k.lower() == name.lower()]
    tail = [k for k in known if k.lower().split("__")[-1] == name.lower().split("__")[-1]]
    close = same or tail or difflib.get_close_matches(name, known, n=3, cutoff=0.75) or \
        [k for k in known if name.lower() in k.lower()][:3]
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def check_members(dim: DimensionInfo, f: Filter, refuse_empty: bool = True) -> list[str]:
    """An in/not_in filter's values are members of the dimension; a comparison's value is only
    citable (a bound need not be a member: order_total >= 20). With refuse_empty=False a value
    outside the closed member list is a note, not a refusal: MetricFlow filters on it, and no
    row has it."""
    notes = []
    for value in f.values:
        text = member_text(value)
        if not citable(text):
            raise UnknownMember(f"Member {text[:40]!r} of dimension {dim.name!r} cannot be cited: "
                                "a member is printable text of at most 200 characters.")
        if f.op not in ("in", "not_in"):
            continue
        if dim.members is not None and text not in dim.members:
            hint = _did_you_mean(text, list(dim.members))
            if not refuse_empty:
                notes.append(f"{text!r} is not a member of {dim.name!r}{hint}, so no row has "
                             f"it; members: {', '.join(dim.members)}")
                continue
            raise UnknownMember(f"Unknown member {text!r} of dimension {dim.name!r}{hint}; "
                                f"members: {', '.join(dim.members)}.")
        if dim.pattern and not re.fullmatch(dim.pattern, text):
            example = " expected YYYY-MM, e.g. 2026-03." if "[0-9]{2}-" in dim.pattern else ""
            raise UnknownMember(f"Member {text!r} of dimension {dim.name!r} has the wrong shape;"
                                f"{example or ' expected ' + dim.pattern + '.'}")
    return notes


def check_grain(model: SemanticModelFile, metrics: tuple[str, ...], grain: str | None,
                window: Window | None) -> None:
    for metric in metrics:
        grains = model.allowed_grains(metric)
        if grain is not None and grain not in grains:
            raise GrainNotAllowed(f"Grain {grain!r} is not allowed for metric {metric!r}; "
                                  f"allowed: {', '.join(grains)}.")
        whole = grains[0] if len(grains) == 1 else _data_grain(model, metric)
        if window is not None and whole != "day" and not aligned(window, whole):
            raise GrainNotAllowed(
                f"Metric {metric!r} is defined on whole {whole}s only; window {window} is not "
                f"a whole number of {whole}s (ISO weeks run Monday to Sunday).")


def _data_grain(model: SemanticModelFile, metric: str) -> str:
    """The coarsest grain of the metric's time columns: data by month read over part of a month
    is refused (MetricFlow widens such a window to whole months when no grain is asked)."""
    grains = [model.time_grain(model.measures[x][0], model.measures[x][1])
              for x in model.base_measures(metric)]
    return max(grains, key=GRAINS.index, default="day")


def check_aggregate(model: SemanticModelFile, metrics: tuple[str, ...], aggregate: str | None,
                    grain: str | None) -> None:
    if aggregate is None:
        return
    if grain is None:
        raise InvalidArguments("aggregate='sum' sums per-grain values; give a grain too.")
    for metric in metrics:
        if model.point_in_time(metric):
            raise PointInTimeOverPeriod(
                f"Metric {metric!r} is a point-in-time value (at the end of each period) and "
                "cannot be summed over a period; ask for its value at the end of the window, "
                "or by grain without aggregate.")
        if not model.additive(metric):
            raise NonAdditiveSum(
                f"Metric {metric!r} is not additive across periods (distinct counts and ratios "
                "double-count when summed); ask for it over the whole window without aggregate.")


def check_window(model: SemanticModelFile, metrics: tuple[str, ...], window: Window) -> Coverage:
    if window.start > window.end:
        raise NoDays(f"Window {window} is reversed: its start is after its end.",
                     f"no day is read: none is both on or after {window.start} and on or "
                     f"before {window.end} (the window and any metric_time bounds)", window)
    if window.start > model.as_of:
        raise NoDays(f"Window {window} is in the future: data runs to "
                     f"{model.as_of.isoformat()} (the warehouse's as-of date).",
                     f"no day of the window {window} is covered: data runs to "
                     f"{model.as_of.isoformat()} (the warehouse's as-of date)", window)
    covered: Window | None = window
    for metric in metrics:
        start, through = model.coverage(metric)
        source = Window(start, through)
        if window.end < start or window.start > through:
            raise NoDays(f"Window {window} is outside the coverage of metric {metric!r}: "
                         f"its sources cover {source}.",
                         f"no day of the window {window} is covered: the sources of "
                         f"{metric!r} cover {source}", window)
        covered = covered.intersect(source) if covered else None
    return Coverage(window, covered)


def check_spine_days(model: SemanticModelFile, metrics: tuple[str, ...], window: Window,
                     grain: str | None) -> None:
    """By a grain, a metric read shifted or cumulated has rows only on the time spine's days
    (MetricFlow joins the spine's days to the days they read): a window holding none of them
    is NoDays when every metric is so read, else refused (the others' rows are the data's)."""
    if grain is None or _meets_spine(model, window) or not any(_reads(model, m) for m in metrics):
        return
    spine = model.spine_coverage
    assert spine is not None
    held = f"the time spine holds {spine.from_.isoformat()}..{spine.through.isoformat()}"
    if all(time_read(model, [m]) for m in metrics):
        raise NoDays(f"Window {window} holds no day of the time spine: {held}.",
                     f"no day of the window {window} is on the time spine: {held}", window)
    raise WindowError(f"Window {window} holds no day of the time spine ({held}), which "
                      f"metrics {', '.join(m for m in metrics if _reads(model, m))} are read "
                      "by; ask them apart from the others, or a window the spine holds.")


def _has_days(model: SemanticModelFile, metrics: tuple[str, ...], window: Window) -> bool:
    """A window without data still has rows by a grain: the time spine's days it holds, for
    metrics joining the spine or reading time shifted or cumulated; bounds that cross (no day
    at all), only a spined metric's SQL gives its empty periods."""
    if window.start > window.end:
        return joins_time_spine(model, metrics)
    return time_read(model, metrics) and _meets_spine(model, window)


def _off_spine(model: SemanticModelFile, metrics: tuple[str, ...], window: Window,
               grain: str | None) -> tuple[str, ...]:
    """The note of a window outside the data that the time spine holds no day of either, when
    the metrics would have had rows on its days (check_spine_days)."""
    try:
        check_spine_days(model, metrics, window, grain)
    except NoDays as exc:
        return (exc.note,)
    except WindowError:
        return ()
    return ()


def _meets_spine(model: SemanticModelFile, window: Window) -> bool:
    """The window holds a day of the time spine (or the spine's days are not known)."""
    spine = model.spine_coverage
    return spine is None or (window.start <= spine.through and window.end >= spine.from_)


def _check_order(metrics: tuple[str, ...], group_by: list[str], order: object,
                 grain: str | None) -> tuple[str, bool] | None:
    if order is None:
        return None
    fieldname, desc = order.field, order.desc  # type: ignore[attr-defined]
    allowed = [*metrics, *group_by, *([grain] if grain else [])]
    if fieldname not in allowed:
        raise InvalidArguments(f"Cannot order by {fieldname!r}; order by one of: "
                               f"{', '.join(allowed)}.")
    return fieldname, desc
