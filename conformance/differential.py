"""Differential testing: random semantic models, data and queries, through showwork and through
MetricFlow itself, numbers compared row by row.

    python conformance/differential.py                      # the fixed-seed run (make conformance)
    python conformance/differential.py --cases 10000 --seed 7   # a longer opt-in run
    python conformance/differential.py --seed 7 --only w12  # one world again, its SQL kept

Each world is a fact semantic model joined along a chain of 0–3 entity hops (primary and unique
entities, bare and expression keys), with categorical dimensions of every shape (a column with
NULLs, a constant flag, a CASE, a COALESCE, an expression), data with NULLs, orphan and null
foreign keys, an empty column, and metrics of every type (simple over every aggregation, filtered
on joined dimensions, ratio, derived, cumulative with a window, grain_to_date or all time and
period_agg first or last, offset windows). Each query picks metrics, a grain (or none), up to two
dimensions, a window (or none) and a `--where` on a joined dimension, metric_time bounded on one
side or both, or both. MetricFlow runs in conformance/.venv in one process for
the whole batch (mf_driver.py: its engine plans and renders the SQL `mf query` would run);
showwork reads the same worlds from their dbt YAML. Prints the seed, the counts per kind, and
every difference; exits 1 on any. Documented differences (conformance/README.md) are counted by
name, never skipped silently.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from conformance.cells import key_text, limits, num  # noqa: E402 - after the path is set

DEFAULT_SEED = 20261201
DEFAULT_CASES = 2000
QUERIES_PER_WORLD = 20
GRAINS = ("day", "week", "month", "quarter", "year")
REL_TOL = 1e-9
YEAR = dt.date(2024, 1, 1)
COLORS = ("red", "green", "blue", "it's", "Ünï")


@dataclass
class World:
    id: str
    hops: int
    semantic_models: list[dict[str, Any]]
    metrics: list[dict[str, Any]]
    tables: dict[str, tuple[list[str], list[tuple[Any, ...]]]]
    dims: list[tuple[str, str]]
    """(group-by name, kind): every categorical dimension and entity a query may use."""
    members: dict[str, list[Any]]
    """where-able dimensions → values a filter may compare with."""
    kinds: dict[str, str]
    """metric → its kind (simple, filtered, ratio, derived, cumulative, offset, filled,
    spined)."""
    queries: list[dict[str, Any]] = field(default_factory=list)
    spine: str = "new"
    """How the day spine is declared: `new` (time_spines) or `legacy`
    (time_spine_table_configurations, as dbt-core writes a metricflow_time_spine model)."""
    extra: random.Random | None = None
    """The generator of what later features add (its own stream: the worlds and queries
    before them stay as they were for a seed)."""
    conversion: random.Random | None = None
    """The generator of the conversion metrics' models, data and queries (a stream of its own)."""
    conversion_dims: list[str] = field(default_factory=list)
    """What a conversion metric's query may group by (its base model's dimensions and chain)."""
    conversion_fill: random.Random | None = None
    """The generator of the conversion metrics with a filled measure and their queries (a
    stream of its own: the conversion cases before them stay as they were for a seed)."""
    conversion_spine: random.Random | None = None
    """The generator of the conversion metrics whose base measure joins the time spine, and
    their queries (a stream of its own, as conversion_fill)."""
    conversion_spine_fill: random.Random | None = None
    """The generator of the conversion metrics whose conversion measure joins the time spine, or
    whose spined measures fill their nulls, and their queries (a stream of its own)."""
    time_where: random.Random | None = None
    """The generator of the queries filtering a time dimension at a grain (a stream of its own)."""
    spine_reads: random.Random | None = None
    """The generator of the metrics reading spined and filled metrics through a cumulative
    window or an offset, and their queries (a stream of its own)."""
    date_parts: random.Random | None = None
    """The generator of the queries grouping by date parts (a stream of its own)."""
    outside: random.Random | None = None
    """The generator of the queries whose window runs partly or wholly outside the data (a
    stream of its own)."""


# -- generating --------------------------------------------------------------------------------
def _entity_expr(rng: random.Random, column: str) -> str:
    return rng.choice([column, column, f"{column} + 0", f"CAST({column} AS BIGINT)"])


def generate_world(rng: random.Random, index: int) -> World:
    wid = f"w{index}"
    hops = rng.choice([0, 1, 1, 2, 2, 3])
    n_fact = rng.randint(30, 160)
    keys = [list(range(1, rng.randint(4, 12))) for _ in range(hops)]
    models: list[dict[str, Any]] = []
    tables: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
    dims: list[tuple[str, str]] = []
    members: dict[str, list[Any]] = {}

    # the chain of dimension models: level k holds key k_id and (but the last) a foreign key
    for level in range(hops, 0, -1):
        name, entity = f"{wid}_d{level}", f"e{level}"
        key_type = rng.choice(["primary", "primary", "unique"])
        cols = [f"k{level}", f"c{level}", f"n{level}"]
        has_next = level < hops
        if has_next:
            cols.append(f"k{level + 1}")
        rows = []
        for k in keys[level - 1]:
            if rng.random() < 0.2:
                continue  # a key the fact refers to but this table lacks (orphan)
            row: list[Any] = [k, rng.choice([*COLORS, None]), rng.choice([None, *range(0, 90, 7)])]
            if has_next:
                row.append(rng.choice([*keys[level], 999, None]))
            rows.append(tuple(row))
        tables[name] = (cols, rows)
        entities = [{"name": entity, "type": key_type, "expr": _entity_expr(rng, f"k{level}")}]
        if has_next:
            entities.append({"name": f"e{level + 1}", "type": "foreign",
                             "expr": _entity_expr(rng, f"k{level + 1}")})
        shapes = [
            {"name": f"color{level}", "type": "categorical", "expr": f"c{level}"},
            {"name": f"flag{level}", "type": "categorical", "expr": rng.choice(["1", "'yes'", "true"])},
            {"name": f"band{level}", "type": "categorical",
             "expr": f"CASE WHEN n{level} >= 40 THEN 'high' ELSE 'low' END"},
            {"name": f"colour{level}", "type": "categorical", "expr": f"COALESCE(c{level}, 'none')"},
            {"name": f"upper{level}", "type": "categorical", "expr": f"upper(c{level})"},
        ]
        chosen = rng.sample(shapes, rng.randint(2, len(shapes)))
        path = "__".join(f"e{i}" for i in range(1, level + 1))
        for d in chosen:
            dims.append((f"{path}__{d['name']}", d["expr"]))
        model = {"name": f"{wid}_d{level}", "model": f"ref('{name}')", "entities": entities,
                 "dimensions": chosen}
        if key_type != "primary":  # dimensions need a primary entity to be named by
            model["primary_entity"] = f"row{level}"
        models.append(model)
        for d in chosen:
            qualified = f"{path}__{d['name']}"
            if d["name"].startswith("flag"):
                members[qualified] = [{"1": 1, "'yes'": "yes", "true": True}[d["expr"]]]
            elif d["name"].startswith("band"):
                members[qualified] = ["high", "low"]
            elif d["name"].startswith(("colour", "color")):
                # mostly members the data holds; now and then one it lacks (closed_member_list)
                present = sorted({r[1] for r in rows if r[1] is not None}) or ["red"]
                if d["name"].startswith("colour") and any(r[1] is None for r in rows):
                    present.append("none")
                absent = [c for c in COLORS if c not in present]
                members[qualified] = present * 4 + absent[:1]
        dims.append((path, "entity"))

    # the fact
    fact = f"{wid}_f"
    time_type = rng.choice(["DATE", "TIMESTAMP"])
    cols = ["f_id", "ts", "amount", "qty", "is_gift", "channel", "empty"]
    if hops:
        cols.append("k1")
    rows = []
    for i in range(n_fact):
        day = YEAR + dt.timedelta(days=rng.randint(0, 365 + 180))
        ts: Any = day if time_type == "DATE" else dt.datetime(day.year, day.month, day.day,
                                                             rng.randint(0, 23))
        if rng.random() < 0.03:
            ts = None
        row = [i + 1, ts, rng.choice([None, round(rng.uniform(-20, 200), 2), 10.0, 0.0]),
               rng.randint(0, 5), rng.choice([True, False, None]),
               rng.choice(["web", "store", None]), None]
        if hops:
            row.append(rng.choice([*keys[0], *keys[0], 999, None]))
        rows.append(tuple(row))
    tables[fact] = (cols, rows)
    entities = [{"name": "fact", "type": "primary", "expr": "f_id"}]
    if hops:
        entities.append({"name": "e1", "type": "foreign", "expr": _entity_expr(rng, "k1")})
    fact_dims = [{"name": "ts", "type": "time", "type_params": {"time_granularity": "day"}},
                 {"name": "channel", "type": "categorical"},
                 {"name": "big", "type": "categorical",
                  "expr": "CASE WHEN amount > 100 THEN 'big' ELSE 'small' END"}]
    dims += [("fact__channel", "channel"), ("fact__big", "case")]
    members["fact__channel"] = ["web", "store"]
    members["fact__big"] = ["big", "small"]
    measures: list[dict[str, Any]] = [
        {"name": "amount_sum", "agg": "sum", "expr": "amount"},
        {"name": "rows_count", "agg": "count", "expr": "f_id"},
        {"name": "qty_count", "agg": "count", "expr": "amount"},
        {"name": "key_distinct", "agg": "count_distinct", "expr": "k1" if hops else "channel"},
        {"name": "amount_min", "agg": "min", "expr": "amount"},
        {"name": "amount_max", "agg": "max", "expr": "amount"},
        {"name": "amount_avg", "agg": "average", "expr": "amount"},
        {"name": "gifts", "agg": "sum_boolean", "expr": "is_gift"},
        {"name": "ones", "agg": "sum", "expr": "1"},
        {"name": "big_amount", "agg": "sum", "expr": "CASE WHEN amount > 50 THEN amount END"},
        {"name": "empty_sum", "agg": "sum", "expr": "empty"},
    ]
    models.insert(0, {"name": fact, "model": f"ref('{fact}')",
                      "defaults": {"agg_time_dimension": "ts"}, "entities": entities,
                      "dimensions": fact_dims, "measures": measures})

    metrics: list[dict[str, Any]] = []
    kinds: dict[str, str] = {}

    def add(kind: str, m: dict[str, Any]) -> None:
        metrics.append({"label": m["name"].replace("_", " "), **m})
        kinds[m["name"]] = kind

    for ms in measures:
        add("simple", {"name": ms["name"], "type": "simple",
                       "type_params": {"measure": ms["name"]}})
    # a metric's filter at most two joins away (MetricFlow refuses three at query time, showwork
    # when the model loads); queries may still name three, which both refuse
    filterable = [d for d in members if d != "fact__channel" and d.count("__") <= 2] or [
        "fact__channel"]
    for i in range(rng.randint(1, 3)):
        dim = rng.choice(filterable)
        add("filtered", {"name": f"filtered_{i}", "type": "simple",
                         "type_params": {"measure": rng.choice(["amount_sum", "rows_count", "ones",
                                                                "amount_max", "gifts"])},
                         "filter": _where(dim, rng.choice(members[dim]), rng)})
    add("ratio", {"name": "ratio_1", "type": "ratio",
                  "type_params": {"numerator": "big_amount", "denominator": "amount_sum"}})
    add("ratio", {"name": "ratio_2", "type": "ratio",
                  "type_params": {"numerator": {"name": "rows_count",
                                                "filter": _where(rng.choice(filterable), None, rng, members)},
                                  "denominator": "ones"}})
    add("derived", {"name": "derived_1", "type": "derived",
                    "type_params": {"expr": "amount_sum - big_amount * 2",
                                    "metrics": [{"name": "amount_sum"}, {"name": "big_amount"}]}})
    add("derived", {"name": "derived_2", "type": "derived",
                    "type_params": {"expr": "gg + rr", "metrics": [
                        {"name": "gifts", "alias": "gg"}, {"name": "rows_count", "alias": "rr"}]}})
    cumulative = rng.choice([{"window": "7 days"}, {"window": "1 month"}, {"grain_to_date": "month"},
                             {}])
    cumulative["period_agg"] = rng.choice(["first", "last"])  # by a grain coarser than a day
    add("cumulative", {"name": "cumulative_1", "type": "cumulative",
                       "type_params": {"measure": rng.choice(["amount_sum", "rows_count", "ones"]),
                                       **({"cumulative_type_params": cumulative} if cumulative else {})}})
    offset = rng.choice(["1 month", "7 days", "1 week", "1 quarter"])
    add("offset", {"name": "offset_1", "type": "derived",
                   "type_params": {"expr": "cur - prev", "metrics": [
                       {"name": "amount_sum", "alias": "cur"},
                       {"name": "amount_sum", "alias": "prev", "offset_window": offset}]}})
    seed = f"{index}:{rng.getstate()[1][0]}"
    extra = random.Random(seed)
    _filled_and_spined(extra, add, filterable, members)
    measures.append({"name": "amount_approx", "agg": "percentile", "expr": "amount",
                     "agg_params": {"percentile": extra.choice([0.5, 0.8, 0.25]),
                                    "use_approximate_percentile": True}})
    add("approx", {"name": "amount_approx", "type": "simple",
                   "type_params": {"measure": "amount_approx"}})
    world = World(wid, hops, models, metrics, tables, dims, members, kinds,
                  spine=extra.choice(["new", "legacy"]), extra=extra)
    world.conversion = random.Random(f"conversion:{seed}")
    _conversions(world.conversion, world, time_type)
    world.conversion_fill = random.Random(f"conversion-fill:{seed}")
    _filled_conversions(world.conversion_fill, world)
    world.conversion_spine = random.Random(f"conversion-spine:{seed}")
    _spined_conversions(world.conversion_spine, world)
    world.conversion_spine_fill = random.Random(f"conversion-spine-fill:{seed}")
    _spined_filled_conversions(world.conversion_spine_fill, world)
    world.time_where = random.Random(f"time-where:{seed}")
    world.spine_reads = random.Random(f"spine-reads:{seed}")
    _spine_reads(world.spine_reads, add)
    world.date_parts = random.Random(f"date-parts:{seed}")
    world.outside = random.Random(f"outside:{seed}")
    return world


def _spine_reads(rng: random.Random, add: Any) -> None:
    """A cumulative metric whose measure joins the spine (a window, grain_to_date or all time;
    filled or not; period_agg first or last), a derived metric over it, and the world's spined
    and filled metrics read through an offset_window or offset_to_grain (issue 45's last
    refusals)."""
    cumulative: dict[str, Any] = rng.choice([{"window": "7 days"}, {"window": "1 month"},
                                             {"grain_to_date": "month"}, {}])
    cumulative["period_agg"] = rng.choice(["first", "last"])
    fill = rng.choice([{}, {"fill_nulls_with": 0}, {"fill_nulls_with": 7}])
    add("spine_reads", {"name": "spine_cumulative", "type": "cumulative", "type_params": {
        "measure": {"name": rng.choice(["amount_sum", "rows_count", "ones"]),
                    "join_to_timespine": True, **fill}, "cumulative_type_params": cumulative}})
    add("spine_reads", {"name": "spine_cumulative_doubled", "type": "derived", "type_params": {
        "expr": "cc * 2", "metrics": [{"name": "spine_cumulative", "alias": "cc"}]}})
    for i, base in enumerate(("spined_1", "spined_2", "filled_1")):
        shift = rng.choice([{"offset_window": rng.choice(["1 month", "7 days", "1 week",
                                                          "1 quarter", "2 days"])},
                            {"offset_to_grain": rng.choice(["month", "week", "quarter"])}])
        lone = rng.random() < 0.4  # the shifted input alone (MetricFlow fills it only where it has rows)
        add("spine_reads", {"name": f"spine_shifted_{i}", "type": "derived", "type_params": {
            "expr": "prev" if lone else "cur - prev", "metrics": [
                *([] if lone else [{"name": base, "alias": "cur"}]),
                {"name": base, "alias": "prev", **shift}]}})


def _conversions(rng: random.Random, world: World, time_type: str) -> None:
    """A base event model (visits) and a conversion event model (buys) sharing an entity (the
    chain's first, so its dimensions group them, or one of their own), and conversion metrics
    over them: conversion_rate and conversions, with a window or none, a constant property or
    none, a metric filter or none. One visit per entity and day: MetricFlow credits a
    conversion to the latest base event by day, its pick among a day's ties unspecified."""
    wid, hops = world.id, world.hops
    fact_cols, fact_rows = world.tables[f"{wid}_f"]
    keys = sorted({r[-1] for r in fact_rows if r[-1] is not None}) if hops else list(range(1, 9))
    keys = keys or [1]
    entity = "e1" if hops else "visitor"

    def when(day: dt.date) -> Any:
        return day if time_type == "DATE" else dt.datetime(day.year, day.month, day.day,
                                                          rng.randint(0, 23))

    visits, seen = [], set()
    for i in range(rng.randint(20, 120)):
        key, day = rng.choice([*keys, None]), YEAR + dt.timedelta(days=rng.randint(0, 365 + 120))
        if (key, day) in seen:
            continue
        seen.add((key, day))
        visits.append((i + 1, key, None if rng.random() < 0.03 else when(day),
                       rng.choice(["ads", "mail", "seo", None]), rng.choice(["x", "y", None])))
    buys = [(i + 1, rng.choice([*keys, None]),
             None if rng.random() < 0.03 else when(YEAR + dt.timedelta(days=rng.randint(0, 365 + 180))),
             rng.choice(["x", "y", None]), rng.choice([None, 5.0, round(rng.uniform(0, 90), 2)]))
            for i in range(rng.randint(10, 120))]
    world.tables[f"{wid}_v"] = (["v_id", "uk", "ts", "src", "tier"], visits)
    world.tables[f"{wid}_b"] = (["b_id", "uk", "ts", "tier", "val"], buys)
    ts = {"name": "ts", "type": "time", "type_params": {"time_granularity": "day"}}
    world.semantic_models += [
        {"name": f"{wid}_v", "model": f"ref('{wid}_v')", "defaults": {"agg_time_dimension": "ts"},
         "entities": [{"name": "visit", "type": "primary", "expr": "v_id"},
                      {"name": entity, "type": "foreign", "expr": "uk"}],
         "dimensions": [ts, {"name": "src", "type": "categorical"},
                        {"name": "tier", "type": "categorical"}],
         "measures": [{"name": "visits", "agg": "sum", "expr": "1"},
                      {"name": "visitors", "agg": "count_distinct", "expr": "uk"}]},
        {"name": f"{wid}_b", "model": f"ref('{wid}_b')", "defaults": {"agg_time_dimension": "ts"},
         "entities": [{"name": "buy", "type": "primary", "expr": "b_id"},
                      {"name": entity, "type": "foreign", "expr": "uk"}],
         "dimensions": [ts, {"name": "tier", "type": "categorical"}],
         "measures": [{"name": "buys", "agg": "sum", "expr": "1"},
                      {"name": "buy_value", "agg": "sum", "expr": "val"},
                      {"name": "buy_rows", "agg": "count", "expr": "val"},
                      {"name": "buyers", "agg": "count_distinct", "expr": "uk"}]}]
    world.conversion_dims = ["visit__src", "visit__tier"] + [
        d for d, kind in world.dims if d.startswith("e1__") and d.count("__") <= 2] + (
        ["e1"] if hops else [])
    for i, calculation in enumerate(["conversion_rate", "conversion_rate", "conversions"]):
        params: dict[str, Any] = {
            "base_measure": {"name": rng.choice(["visits", "visits", "visitors"])},
            # MetricFlow's validation: a COUNT, SUM(1) or COUNT_DISTINCT measure on each side
            "conversion_measure": {"name": rng.choice(["buys", "buys", "buy_rows", "buyers"])},
            "entity": entity, "calculation": calculation}
        _add_conversion(rng, world, i, params, "conversion",
                        ([None, "7 days", "1 month", "2 weeks", "1 day"], 0.4, 0.3))
    world.metrics.append({"name": "visits", "label": "visits", "type": "simple",
                          "type_params": {"measure": "visits"}})
    world.kinds["visits"] = "conversion_base"



def _add_conversion(rng: random.Random, world: World, i: int, params: dict[str, Any], kind: str,
                    odds: tuple[list[str | None], float, float]) -> None:
    """Conversion metric `conversion_{i}` over `params`, with one of the windows, the constant
    property `tier` and a metric filter on the base events each at its odds."""
    windows, constant, filtered = odds
    window = rng.choice(windows)
    if window:
        params["window"] = window
    if rng.random() < constant:
        params["constant_properties"] = [{"base_property": "tier", "conversion_property": "tier"}]
    metric: dict[str, Any] = {"name": f"conversion_{i}", "type": "conversion",
                              "label": f"conversion {i}",
                              "type_params": {"conversion_type_params": params}}
    if rng.random() < filtered:
        metric["filter"] = _where("visit__src", None, rng, SOURCES)
    world.metrics.append(metric)
    world.kinds[metric["name"]] = kind


def _filled_conversions(rng: random.Random, world: World) -> None:
    """Two conversion metrics (conversion_rate and conversions) over the same events whose base
    and/or conversion measure has a fill_nulls_with (0 or a number no count reaches), with a
    window, a constant property and a metric filter or none."""
    for i, calculation in ((3, "conversion_rate"), (4, "conversions")):
        base: dict[str, Any] = {"name": rng.choice(["visits", "visitors"])}
        conversion: dict[str, Any] = {"name": rng.choice(["buys", "buy_rows", "buyers"])}
        for side in rng.choice([[base], [conversion], [base, conversion]]):
            side["fill_nulls_with"] = rng.choice([0, 0, 7, 1000])
        _add_sides(rng, world, i, calculation, (base, conversion), "conversion_fill")


def _spined_conversions(rng: random.Random, world: World) -> None:
    """Two conversion metrics (conversion_rate and conversions) whose base measure joins the
    time spine (join_to_timespine: MetricFlow LEFT JOINs the spine's periods to the base
    events' aggregate), with a window, a constant property and a metric filter or none."""
    entity = "e1" if world.hops else "visitor"
    for i, calculation in ((5, "conversion_rate"), (6, "conversions")):
        params: dict[str, Any] = {
            "base_measure": {"name": rng.choice(["visits", "visitors"]), "join_to_timespine": True},
            "conversion_measure": {"name": rng.choice(["buys", "buy_rows", "buyers"])},
            "entity": entity, "calculation": calculation}
        _add_conversion(rng, world, i, params, "conversion_spine",
                        ([None, "7 days", "1 month", "1 day"], 0.3, 0.4))


def _spined_filled_conversions(rng: random.Random, world: World) -> None:
    """Two conversion metrics (conversion_rate and conversions) joining the time spine on the
    conversion measure, the base measure or both, each side filling its nulls or not (MetricFlow's
    own visit_buy_conversion_rate_7days_fill_nulls_with_0 spines and fills both), with a window,
    a constant property and a metric filter or none."""
    for i, calculation in ((7, "conversion_rate"), (8, "conversions")):
        base: dict[str, Any] = {"name": rng.choice(["visits", "visitors"])}
        conversion: dict[str, Any] = {"name": rng.choice(["buys", "buy_rows", "buyers"])}
        for side in rng.choice([[conversion], [base, conversion], [base]]):
            side["join_to_timespine"] = True
        for side in (base, conversion):
            if rng.random() < 0.6:
                side["fill_nulls_with"] = rng.choice([0, 0, 7, 1000])
        _add_sides(rng, world, i, calculation, (base, conversion), "conversion_spine_fill")


def _add_sides(rng: random.Random, world: World, i: int, calculation: str,
               sides: tuple[dict[str, Any], dict[str, Any]], kind: str) -> None:
    """Conversion metric `conversion_{i}` over a base and a conversion measure (each with what
    its generator set)."""
    base, conversion = sides
    params: dict[str, Any] = {"base_measure": base, "conversion_measure": conversion,
                              "entity": "e1" if world.hops else "visitor",
                              "calculation": calculation}
    _add_conversion(rng, world, i, params, kind, ([None, "7 days", "1 month", "1 day"], 0.3, 0.4))


def _filled_and_spined(rng: random.Random, add: Any, filterable: list[str],
                       members: dict[str, list[Any]]) -> None:
    """fill_nulls_with and join_to_timespine metrics (on the measure input, as dbt writes
    them): simple, filtered, and a ratio and a derived metric over a filled one."""
    additive = ["amount_sum", "rows_count", "ones", "gifts", "amount_max", "key_distinct"]
    fill = rng.choice([0, 0, -1, 100])
    add("filled", {"name": "filled_1", "type": "simple", "type_params": {
        "measure": {"name": rng.choice(additive), "fill_nulls_with": fill}},
        "filter": _where(rng.choice(filterable), None, rng, members)})
    add("filled", {"name": "filled_2", "type": "ratio", "type_params": {
        "numerator": "filled_1", "denominator": rng.choice(["rows_count", "ones"])}})
    add("filled", {"name": "filled_3", "type": "derived", "type_params": {
        "expr": "ff * 2 + 1", "metrics": [{"name": "filled_1", "alias": "ff"}]}})
    add("spined", {"name": "spined_1", "type": "simple", "type_params": {
        "measure": {"name": rng.choice(additive), "join_to_timespine": True,
                    **({"fill_nulls_with": fill} if rng.random() < 0.6 else {})}}})
    add("spined", {"name": "spined_2", "type": "simple", "type_params": {
        "measure": {"name": rng.choice(additive), "join_to_timespine": True,
                    "fill_nulls_with": 0}},
        "filter": _where(rng.choice(filterable), None, rng, members)})


def _where(dim: str, value: Any, rng: random.Random, members: dict[str, list[Any]] | None = None
           ) -> str:
    if value is None and members is not None:
        value = rng.choice(members[dim])
    literal = (str(value).lower() if isinstance(value, bool) else str(value)
               if isinstance(value, int) else "'" + str(value).replace("'", "''") + "'")
    op = rng.choice(["=", "=", "!="]) if not isinstance(value, bool | int) else "="
    parts = dim.split("__")
    if len(parts) > 2:  # MetricFlow names a dimension past one join by its entity path
        ref = f"Dimension('{'__'.join(parts[-2:])}', entity_path={parts[:-2]!r})"
    else:
        ref = f"Dimension('{dim}')"
    return f"{{{{ {ref} }}}} {op} {literal}"


def generate_queries(rng: random.Random, world: World, n: int) -> None:
    by_kind: dict[str, list[str]] = {}
    for name, kind in world.kinds.items():
        if kind not in ("filled", "spined", "approx", "conversion", "conversion_base",
                        "conversion_fill", "conversion_spine", "conversion_spine_fill",
                        "spine_reads"):
            # queried from the world's own stream
            by_kind.setdefault(kind, []).append(name)
    kinds = list(by_kind)
    for i in range(n):
        kind = kinds[i % len(kinds)]
        metrics = rng.sample(by_kind[kind], min(len(by_kind[kind]), rng.choice([1, 1, 2])))
        timed = kind in ("cumulative", "offset")
        grain = rng.choice(GRAINS) if timed or rng.random() < 0.6 else None
        group_by = rng.sample([d for d, _ in world.dims], min(len(world.dims), rng.choice([0, 1, 1, 2])))
        q: dict[str, Any] = {"id": f"{world.id}.q{i}", "kind": kind, "metrics": metrics,
                             "grain": grain, "group_by": group_by, "where": None}
        if timed or rng.random() < 0.6:
            _window(rng, q)
        if world.members and rng.random() < 0.4:
            dim = rng.choice(list(world.members))
            q["where"] = _where(dim, None, rng, world.members)
        if rng.random() < 0.25:  # metric_time bounded in the --where: one side, or both
            q["where"] = " AND ".join(x for x in [q["where"], *_time_bounds(rng)] if x)
        world.queries.append(q)
    if world.extra is not None:
        _feature_queries(world.extra, world, n)
    if world.conversion is not None:
        _conversion_queries(world.conversion, world, n + EXTRA_QUERIES)
    if world.conversion_fill is not None:
        _conversion_queries(world.conversion_fill, world,
                            n + EXTRA_QUERIES + CONVERSION_QUERIES, "conversion_fill")
    if world.conversion_spine is not None:
        _conversion_queries(world.conversion_spine, world,
                            n + EXTRA_QUERIES + 2 * CONVERSION_QUERIES, "conversion_spine")
    if world.conversion_spine_fill is not None:
        _conversion_queries(world.conversion_spine_fill, world,
                            n + EXTRA_QUERIES + 3 * CONVERSION_QUERIES, "conversion_spine_fill")
    if world.time_where is not None:
        _time_where_queries(world.time_where, world, n + EXTRA_QUERIES + 4 * CONVERSION_QUERIES)
    if world.spine_reads is not None:
        _spine_read_queries(world.spine_reads, world, n + EXTRA_QUERIES + 4 * CONVERSION_QUERIES
                            + TIME_WHERE_QUERIES)
    if world.date_parts is not None:
        _date_part_queries(world.date_parts, world, n + EXTRA_QUERIES + 4 * CONVERSION_QUERIES
                           + TIME_WHERE_QUERIES + SPINE_READ_QUERIES)
    if world.outside is not None:
        _outside_queries(world.outside, world, n + EXTRA_QUERIES + 4 * CONVERSION_QUERIES
                         + TIME_WHERE_QUERIES + SPINE_READ_QUERIES + DATE_PART_QUERIES)


DATE_PART_QUERIES = 2
"""Queries per world grouping by date parts."""
DATE_PARTS = ("year", "quarter", "month", "day", "dow", "doy")


def _date_part_queries(rng: random.Random, world: World, first: int) -> None:
    """Metrics of every kind by one or two date parts (MetricFlow's `metric_time__extract_dow`,
    or of the fact's own time, `fact__ts__extract_year`), with a grain or not, by 0–1
    dimensions, with a window or not, under a filter or not. Cumulative metrics and offsets to
    a grain take no date part in MetricFlow (both refuse)."""
    pools: dict[str, list[str]] = {}
    for name, kind in world.kinds.items():
        pools.setdefault(kind, []).append(name)
    kinds = sorted(k for k in pools if k != "conversion_base")
    for i in range(first, first + DATE_PART_QUERIES):
        kind = rng.choice(kinds)
        metrics = rng.sample(pools[kind], min(len(pools[kind]), rng.choice([1, 1, 2])))
        time = rng.choice(["metric_time", "metric_time", "fact__ts"])
        if kind.startswith("conversion"):
            time = "metric_time"  # (the fact's time is not the conversions' events' own)
        parts = rng.sample(DATE_PARTS, rng.choice([1, 1, 1, 2]))
        group_by = [f"{time}__extract_{p}" for p in parts]
        dims = world.conversion_dims if kind.startswith("conversion") else [d for d, _ in world.dims]
        group_by += rng.sample(dims, min(len(dims), rng.choice([0, 0, 1])))
        grain = rng.choice(GRAINS) if rng.random() < 0.25 else None
        q: dict[str, Any] = {"id": f"{world.id}.q{i}", "kind": f"date_part_{kind}",
                             "metrics": metrics, "grain": grain, "group_by": group_by,
                             "where": None}
        if rng.random() < 0.5:
            _window(rng, q)
        if world.members and rng.random() < 0.25 and not kind.startswith("conversion"):
            dim = rng.choice(list(world.members))
            q["where"] = _where(dim, None, rng, world.members)
        world.queries.append(q)


OUTSIDE_QUERIES = 3
"""Queries per world whose window runs partly or wholly outside the data."""
OUTSIDE_KINDS = ("spined", "filled", "offset", "cumulative", "spine_reads")
"""The metrics asked over such windows: those reaching the time spine (a spine join, an offset,
a cumulative window) and, beside them, those whose nulls are filled."""
SPINE_DAYS = (dt.date(2022, 1, 1), dt.date(2026, 12, 31))
"""The first and last day of the worlds' time spine (write())."""


def _outside_queries(rng: random.Random, world: World, first: int) -> None:
    """Metrics reaching the time spine (a spine join, an offset, a cumulative window) over a
    window beginning before the fact's first day, ending after its last, or wholly before or
    after them (now and then past the spine's own bounds too), by a grain or none, by 0–1
    dimensions, under a filter or not; the window given as --start/--end or as metric_time
    bounds in the --where."""
    pools: dict[str, list[str]] = {}
    for name, kind in world.kinds.items():
        if kind in OUTSIDE_KINDS:
            pools.setdefault(kind, []).append(name)
    days = [r[1].date() if isinstance(r[1], dt.datetime) else r[1]
            for r in world.tables[f"{world.id}_f"][1] if r[1] is not None]
    data = (min(days), max(days))
    for i in range(first, first + OUTSIDE_QUERIES):
        kind = rng.choice(sorted(pools))
        metrics = rng.sample(pools[kind], min(len(pools[kind]), rng.choice([1, 1, 2])))
        shape = rng.choice(["before", "after", "wholly_before", "wholly_after", "around"])
        start, end = _outside_window(rng, shape, *data)
        # (an offset or cumulative metric by no grain: MetricFlow requires metric_time)
        grain = rng.choice([*GRAINS, *GRAINS[:3], *([None] if kind in ("spined", "filled")
                                                      else [])])
        q: dict[str, Any] = {
            "id": f"{world.id}.q{i}", "kind": f"outside_{kind}", "metrics": metrics,
            "grain": grain, "where": None, "shape": shape,
            "group_by": rng.sample([d for d, _ in world.dims],
                                   min(len(world.dims), rng.choice([0, 0, 1])))}
        where = []
        if rng.random() < 0.25:
            ref = "{{ TimeDimension('metric_time', 'day') }}"
            where += [f"{ref} >= '{start}'", f"{ref} <= '{end}'"]
        else:
            q["start"], q["end"] = start.isoformat(), end.isoformat()
        if world.members and rng.random() < 0.25:
            dim = rng.choice(list(world.members))
            where.insert(0, _where(dim, None, rng, world.members))
        q["where"] = " AND ".join(where) or None
        world.queries.append(q)


def _outside_window(rng: random.Random, shape: str, first: dt.date, last: dt.date
                    ) -> tuple[dt.date, dt.date]:
    """A window of the shape: partly before the data's first day, partly after its last, wholly
    before or after them, or around all of them; its far side now and then past the spine's."""
    def days(lo: int, hi: int) -> dt.timedelta:
        return dt.timedelta(days=rng.randint(lo, hi))

    far = rng.random() < 0.15  # past the spine's own bounds
    if shape == "before":
        start, end = first - days(1, 150), first + days(0, 120)
    elif shape == "after":
        start, end = last - days(0, 120), last + days(1, 150)
    elif shape == "wholly_before":
        end = first - days(1, 200)
        start = end - days(0, 150)
    elif shape == "wholly_after":
        start = last + days(1, 200)
        end = start + days(0, 150)
    else:
        start, end = first - days(1, 60), last + days(1, 60)
    if far and shape in ("before", "wholly_before", "around"):
        start = SPINE_DAYS[0] - days(1, 60)
    if far and shape in ("after", "wholly_after", "around"):
        end = SPINE_DAYS[1] + days(1, 60)
    return start, end


SPINE_READ_QUERIES = 3
"""Queries per world of its spined metrics read through a cumulative window or an offset."""


def _spine_read_queries(rng: random.Random, world: World, first: int) -> None:
    """One or two of the world's spine_reads metrics (with a spined, filled or plain one or
    not) by a grain, or by the fact's own time dimension at a grain (MetricFlow reads it as
    metric_time), by 0–1 dimensions, with a window or not, under a filter on a dimension or
    not."""
    own = [m for m, k in world.kinds.items() if k == "spine_reads"]
    others = [m for m, k in world.kinds.items() if k in ("spined", "filled", "simple")]
    for i in range(first, first + SPINE_READ_QUERIES):
        metrics = rng.sample(own, rng.choice([1, 1, 2]))
        if rng.random() < 0.25:
            metrics.append(rng.choice(others))
        grain: str | None = rng.choice(GRAINS)
        group_by = rng.sample([d for d, _ in world.dims], min(len(world.dims),
                                                               rng.choice([0, 0, 1])))
        if rng.random() < 0.3:
            group_by.insert(0, f"fact__ts__{grain}")
            grain = None
        q: dict[str, Any] = {"id": f"{world.id}.q{i}", "kind": "spine_reads", "metrics": metrics,
                             "grain": grain, "group_by": group_by, "where": None}
        if rng.random() < 0.5:
            _window(rng, q)
        if world.members and rng.random() < 0.25:
            dim = rng.choice(list(world.members))
            q["where"] = _where(dim, None, rng, world.members)
        world.queries.append(q)


EXTRA_QUERIES = 4
"""Queries per world of the features added later (fill_nulls_with, join_to_timespine, range
and null filters), from the world's own stream."""


def _feature_queries(rng: random.Random, world: World, first: int) -> None:
    spined = [m for m, k in world.kinds.items() if k == "spined"]
    filled = [m for m, k in world.kinds.items() if k in ("filled", "approx")]
    plain = [m for m, k in world.kinds.items() if k in ("simple", "filtered", "ratio", "derived")]
    for i in range(first, first + EXTRA_QUERIES):
        kind = ("spined", "filled", "range_where", "null_where")[i % EXTRA_QUERIES]
        pool = {"spined": spined, "filled": filled}.get(kind, plain)
        metrics = rng.sample(pool, min(len(pool), rng.choice([1, 1, 2])))
        if kind == "spined" and rng.random() < 0.4:
            metrics.append(rng.choice(plain))
        grain = rng.choice(GRAINS[1:]) if kind == "spined" and rng.random() < 0.8 else (
            rng.choice([*GRAINS, None]))
        group_by = rng.sample([d for d, _ in world.dims],
                              min(len(world.dims), rng.choice([0, 0, 1, 2])))
        q: dict[str, Any] = {"id": f"{world.id}.q{i}", "kind": kind, "metrics": metrics,
                             "grain": grain, "group_by": group_by, "where": None}
        if rng.random() < 0.7:  # inside the data, as above: a window past the sources'
            # coverage is refused by design (their coverage is what showwork cites)
            _window(rng, q, 300)
        if kind in ("range_where", "null_where") or rng.random() < 0.3:
            q["where"] = _range_where(rng, world, null=kind == "null_where")
        world.queries.append(q)


SOURCES = {"visit__src": ["ads", "mail", "seo"]}
"""The members a filter on the base events' source compares with."""
CONVERSION_QUERIES = 3
"""Queries per world of its conversion metrics."""


def _conversion_queries(rng: random.Random, world: World, first: int,
                        kind: str = "conversion") -> None:
    conversions = [m for m, k in world.kinds.items() if k == "conversion"]
    own = [m for m, k in world.kinds.items() if k == kind]
    for i in range(first, first + CONVERSION_QUERIES):
        metrics = rng.sample(conversions, rng.choice([1, 1, 2])) if kind == "conversion" else [
            rng.choice(own), *rng.sample(conversions, rng.choice([0, 1, 1]))]
        if rng.random() < 0.2:
            metrics.append("visits")
        if kind in ("conversion_spine", "conversion_spine_fill") and rng.random() < 0.3:
            # a simple join_to_timespine metric under the same --where shapes (one-sided and
            # mixed metric_time bounds), which its own queries do not ask
            metrics.append(rng.choice([m for m, k in world.kinds.items() if k == "spined"]))
        # the spine adds rows by a grain only (without one a spined metric's fill still holds)
        nones = {"conversion_spine": [], "conversion_spine_fill": [None]}.get(kind, [None, None])
        grain = rng.choice([*GRAINS, *nones])
        group_by = rng.sample(world.conversion_dims, rng.choice([0, 1, 1, 2]))
        q: dict[str, Any] = {"id": f"{world.id}.q{i}", "kind": kind, "metrics": metrics,
                             "grain": grain, "group_by": group_by, "where": None}
        if rng.random() < 0.5:
            _window(rng, q)
        where = []
        if rng.random() < 0.3:
            where.append(_where("visit__src", None, rng, SOURCES))
        if rng.random() < 0.2:
            dim = rng.choice(["visit__src", "visit__tier"])
            where.append(f"{{{{ Dimension('{dim}') }}}} IS {rng.choice(['', 'NOT '])}NULL")
        if rng.random() < 0.2:
            where += _time_bounds(rng)
        q["where"] = " AND ".join(where) or None
        world.queries.append(q)


TIME_WHERE_QUERIES = 2
"""Queries per world filtering a time dimension at a grain."""


def _time_where_queries(rng: random.Random, world: World, first: int) -> None:
    """Plain, filled and spined metrics under a filter on a time dimension that is not
    metric_time, at a grain: IS [NOT] NULL, IN, NOT IN, =, !=, BETWEEN (MetricFlow passes each
    to SQL on the period's start), alone or with a condition on a dimension."""
    from showwork.semantic_layer.windows import period_start

    pool = [m for m, k in world.kinds.items() if k in ("simple", "filtered", "ratio", "derived",
                                                      "filled", "spined")]
    for i in range(first, first + TIME_WHERE_QUERIES):
        grain = rng.choice(["day", "week", "month", "quarter", "year"])
        ref = f"{{{{ TimeDimension('fact__ts', '{grain}') }}}}"

        def day(grain: str = grain) -> str:
            return f"'{period_start(YEAR + dt.timedelta(days=rng.randint(0, 420)), grain)}'"

        shape = rng.choice(["null", "not_null", "in", "not_in", "eq", "ne", "between"])
        where = {"null": f"{ref} IS NULL", "not_null": f"{ref} IS NOT NULL",
                 "in": f"{ref} IN ({day()}, {day()})", "not_in": f"{ref} NOT IN ({day()})",
                 "eq": f"{ref} = {day()}", "ne": f"{ref} != {day()}",
                 "between": f"{ref} BETWEEN {day()} AND {day()}"}[shape]
        if world.members and rng.random() < 0.3:
            dim = rng.choice(list(world.members))
            where = f"{where} AND {_where(dim, None, rng, world.members)}"
        q: dict[str, Any] = {"id": f"{world.id}.q{i}", "kind": "time_where",
                             "metrics": rng.sample(pool, rng.choice([1, 1, 2])),
                             "grain": rng.choice([*GRAINS, None]), "where": where,
                             "group_by": rng.sample([d for d, _ in world.dims],
                                                    min(len(world.dims), rng.choice([0, 1])))}
        if rng.random() < 0.6:
            _window(rng, q, 300)
        world.queries.append(q)


def _range_where(rng: random.Random, world: World, null: bool) -> str:
    """A --where MetricFlow passes to SQL: <, <=, >, >=, BETWEEN, NOT BETWEEN on a time
    dimension at a grain, an entity or a categorical dimension; IS [NOT] NULL on one."""
    categorical = [d for d, kind in world.dims if kind != "entity" and d.count("__") <= 2]
    entities = [d for d, kind in world.dims if kind == "entity" and "__" not in d]
    if null:
        dim = rng.choice(categorical + ["fact__channel"])
        return f"{{{{ {_ref(dim)} }}}} IS {rng.choice(['', 'NOT '])}NULL"
    choice = rng.choice(["time", "time", "entity", "categorical"])
    op = rng.choice(["<", "<=", ">", ">=", "BETWEEN", "NOT BETWEEN"])
    if choice == "entity" and entities:
        ref, lo, hi = f"Entity('{entities[0]}')", str(rng.randint(1, 6)), str(rng.randint(6, 12))
    elif choice == "categorical":
        ref, lo, hi = _ref(rng.choice(categorical + ["fact__channel"])), "'g'", "'t'"
    else:
        grain = rng.choice(["day", "day", "month"])
        day = YEAR + dt.timedelta(days=rng.randint(0, 400))
        later = day + dt.timedelta(days=rng.randint(0, 120))
        ref, lo, hi = f"TimeDimension('fact__ts', '{grain}')", f"'{day}'", f"'{later}'"
    if "BETWEEN" in op:
        return f"{{{{ {ref} }}}} {op} {lo} AND {hi}"
    return f"{{{{ {ref} }}}} {op} {rng.choice([lo, hi])}"


def _ref(dim: str) -> str:
    parts = dim.split("__")
    if len(parts) > 2:
        return f"Dimension('{'__'.join(parts[-2:])}', entity_path={parts[:-2]!r})"
    return f"Dimension('{dim}')"


def _window(rng: random.Random, q: dict[str, Any], longest: int = 200) -> None:
    """A window for query `q`: a start 20-300 days into the year, an end 0-`longest` days on."""
    start = YEAR + dt.timedelta(days=rng.randint(20, 300))
    q["start"], q["end"] = start.isoformat(), (start + dt.timedelta(
        days=rng.randint(0, longest))).isoformat()


def _time_bounds(rng: random.Random) -> list[str]:
    ref = f"{{{{ TimeDimension('metric_time', '{rng.choice(['day', 'day', 'month'])}') }}}}"
    day = YEAR + dt.timedelta(days=rng.randint(10, 420))
    later = day + dt.timedelta(days=rng.randint(0, 150))
    return rng.choice([[f"{ref} >= '{day}'"], [f"{ref} > '{day}'"], [f"{ref} <= '{later}'"],
                       [f"{ref} < '{later}'"], [f"{ref} >= '{day}'", f"{ref} <= '{later}'"]])


# -- writing -----------------------------------------------------------------------------------
def write(worlds: list[World], folder: Path) -> Path:
    database = folder / "differential.duckdb"
    database.unlink(missing_ok=True)
    con = duckdb.connect(str(database))
    con.execute("CREATE TABLE metricflow_time_spine AS SELECT d::DATE AS date_day FROM "
                f"range(DATE '{SPINE_DAYS[0]}', DATE '{SPINE_DAYS[1]}' + 1, INTERVAL 1 DAY) t(d)")
    for w in worlds:
        for table, (cols, rows) in w.tables.items():
            types = {"f_id": "INTEGER", "ts": None, "amount": "DOUBLE", "qty": "INTEGER",
                     "is_gift": "BOOLEAN", "channel": "VARCHAR", "empty": "DOUBLE",
                     "src": "VARCHAR", "tier": "VARCHAR", "val": "DOUBLE"}
            decl = []
            for c in cols:
                t = types.get(c) or ("VARCHAR" if c.startswith("c") else "INTEGER")
                if c == "ts":
                    at = cols.index("ts")
                    t = "TIMESTAMP" if any(isinstance(r[at], dt.datetime) for r in rows) else "DATE"
                decl.append(f"{c} {t}")
            con.execute(f"CREATE TABLE {table} ({', '.join(decl)})")
            if rows:
                con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(cols))})", rows)
        folder.joinpath(w.id).mkdir(exist_ok=True)
        folder.joinpath(w.id, "semantic.yml").write_text(yaml.safe_dump(
            {"semantic_models": w.semantic_models, "metrics": w.metrics}, sort_keys=False,
            allow_unicode=True), encoding="utf-8")
        folder.joinpath(w.id, "spine.yml").write_text(yaml.safe_dump(
            {"project_configuration": spine_configuration(w.spine)}, sort_keys=False),
            encoding="utf-8")
    con.close()
    return database


def spine_configuration(form: str) -> dict[str, Any]:
    """The day spine as dbt-semantic-interfaces' project configuration, in either form."""
    if form == "legacy":
        return {"time_spine_table_configurations": [
            {"location": "main.metricflow_time_spine", "column_name": "date_day", "grain": "day"}]}
    return {"time_spines": [{"node_relation": {"alias": "metricflow_time_spine",
                                               "schema_name": "main"},
                             "primary_column": {"name": "date_day", "time_granularity": "day"}}]}


# -- running -----------------------------------------------------------------------------------
PROCESSES = 2
"""MetricFlow driver processes (CI has two cores; showwork runs alongside in this one)."""


def metricflow(worlds: list[World], database: Path, folder: Path) -> list[subprocess.Popen]:
    """Start MetricFlow on the worlds, split over PROCESSES drivers; collect() reads them."""
    from conformance.run import ensure_venv, tool

    ensure_venv()
    running = []
    for i in range(PROCESSES):
        part = worlds[i::PROCESSES]
        if not part:
            continue
        batch = folder / f"batch{i}.json"
        batch.write_text(json.dumps({"database": str(database), "worlds": [
            {"id": w.id, "semantic_models": w.semantic_models, "metrics": w.metrics,
             "queries": w.queries, "spine": spine_configuration(w.spine)} for w in part]},
            default=str), encoding="utf-8")
        out = (folder / f"mf{i}.jsonl").open("w", encoding="utf-8")
        running.append(subprocess.Popen(
            [str(tool("python")), str(HERE / "mf_driver.py"), str(batch)], stdout=out,
            stderr=subprocess.PIPE, text=True, env={"DO_NOT_TRACK": "1", "PATH": "/usr/bin:/bin"}))
        running[-1].output = out.name  # type: ignore[attr-defined]
    return running


def collect(running: list[subprocess.Popen]) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    for proc in running:
        _, err = proc.communicate()
        if proc.returncode:
            sys.exit(f"mf_driver failed:\n{err[-3000:]}")
        text = Path(proc.output).read_text(encoding="utf-8")  # type: ignore[attr-defined]
        results.update((r["id"], r) for r in map(json.loads, text.splitlines()))
    return results


def showwork(world: World, database: Path, folder: Path) -> dict[str, dict[str, Any]]:
    from showwork.semantic_layer import SemanticLayer, load_model

    out: dict[str, dict[str, Any]] = {}
    try:
        layer = SemanticLayer(load_model(folder / world.id, database=database), database,
                              limits())
    except Exception as exc:  # noqa: BLE001 - a world showwork cannot load is a result
        return {q["id"]: {"error": f"load: {exc}"} for q in world.queries}
    try:
        for q in world.queries:
            out[q["id"]] = answer(layer, q)
    finally:
        layer.close()
    return out


def answer(layer: Any, q: dict[str, Any]) -> dict[str, Any]:
    """showwork's answer to one generated query in MetricFlow's columns ({"rows", "sql"}), or its
    refusal ({"error"})."""
    from showwork.semantic_layer import SemanticError

    try:
        result = layer.call("query", layer_args(q, layer.model), refuse_empty=False)
    except SemanticError as exc:
        return {"error": exc.message}
    rows = []
    for row in result.rows:
        r: dict[str, Any] = {f"metric_time__{q['grain']}" if k == q["grain"] else k: v
                             for k, v in row.key.items()}
        r.update({m: row.values[m]["value"] for m in q["metrics"]})
        rows.append(r)
    return {"rows": rows, "sql": result.sql}


# -- comparing ---------------------------------------------------------------------------------


def compare(q: dict[str, Any], mf: dict[str, Any], ours: dict[str, Any]
            ) -> tuple[str, list[str]]:
    """(outcome, problems): outcome is equal, both_refuse, known:<name> or different."""
    if "error" in mf and "error" in ours:
        return "both_refuse", []
    if "error" in mf:
        if mf["error"].startswith("sql: Binder Error: Referenced table"):
            return "known:metricflow_sql_error", []  # its own SQL does not bind (README)
        return "different", [f"MetricFlow refuses ({mf['error'][:300]}); showwork answers"]
    if "error" in ours:
        if "before the shift" in ours["error"]:
            return "known:offset_mixed_where", []
        if "before they are shifted" in ours["error"]:
            return "known:offset_by_agg_time_window", []
        if "(spine_part_join)" in ours["error"]:
            return "known:spine_part_join", []  # MetricFlow's spine join on the grain alone
        return "different", [f"showwork refuses ({ours['error'][:300]}); MetricFlow answers"]
    names = ([f"metric_time__{q['grain']}"] if q["grain"] else []) + list(q["group_by"])
    cols = mf["columns"]
    theirs = {}
    for row in mf["rows"]:
        rec = dict(zip(cols, row, strict=True))
        theirs[tuple(key_text(rec.get(n.split("__")[-1] if n not in rec else n)) for n in names)] = rec
    mine = {tuple(key_text(r.get(n)) for n in names): r for r in ours["rows"]}
    problems: list[str] = []
    for key in sorted(set(theirs) ^ set(mine)):
        side = theirs.get(key) or mine.get(key)
        problems.append(f"row {key} only in {'MetricFlow' if key in theirs else 'showwork'}: {side}")
    for key in sorted(set(theirs) & set(mine)):
        for m in q["metrics"]:
            a, b = num(theirs[key].get(m)), num(mine[key].get(m))
            if a is None or b is None:
                if a is not b:
                    problems.append(f"row {key} {m}: MetricFlow {a}, showwork {b}")
                continue
            if not math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-9):
                problems.append(f"row {key} {m}: MetricFlow {a!r}, showwork {b!r}")
    return ("different", problems) if problems else ("equal", [])


def layer_args(q: dict[str, Any], model: Any = None) -> dict[str, Any]:
    """A generated query as the governed call's arguments (SemanticError for a --where the layer
    refuses, or with the model one MetricFlow reads otherwise for its metrics): the same
    arguments the differential run and bench semantic's compile timing use."""
    from showwork.semantic_layer import parse_where

    args: dict[str, Any] = {"metrics": q["metrics"], "group_by": q["group_by"]}
    if q.get("start"):
        args["window"] = {"start": q["start"], "end": q["end"]}
    if q["grain"]:
        args.update(grain=q["grain"], whole_periods=bool(q.get("start")))
    return parse_where(q["where"]).apply(args, model, refuse_empty=False) if q["where"] else args




def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--cases", type=int, default=DEFAULT_CASES)
    parser.add_argument("--only", help="run only this world (e.g. w12)")
    parser.add_argument("--kinds", help="ask only the queries of these kinds (comma-separated, "
                        "e.g. spine_reads; date_part_* for every kind so named)")
    parser.add_argument("--keep", type=Path, help="keep the worlds, database and results here")
    parser.add_argument("--show", type=int, default=10, help="differences printed in full")
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    worlds = []
    for i in range(math.ceil(opts.cases / QUERIES_PER_WORLD)):
        w = generate_world(rng, i)
        generate_queries(rng, w, QUERIES_PER_WORLD)
        worlds.append(w)
    if opts.only:
        worlds = [w for w in worlds if w.id == opts.only]
    if opts.kinds:
        for w in worlds:
            w.queries = [q for q in w.queries if any(
                q["kind"] == k or (k.endswith("*") and q["kind"].startswith(k[:-1]))
                for k in opts.kinds.split(","))]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="showwork-differential-") as scratch:
        folder = opts.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        database = write(worlds, folder)
        running = metricflow(worlds, database, folder)
        ours = {}
        for w in worlds:  # while MetricFlow runs
            ours.update(showwork(w, database, folder))
        ours_seconds = time.perf_counter() - started
        theirs = collect(running)
        mf_seconds = time.perf_counter() - started
        outcomes: Counter[str] = Counter()
        per_kind: Counter[tuple[str, str]] = Counter()
        differences: list[tuple[dict[str, Any], list[str], str]] = []
        for w in worlds:
            for q in w.queries:
                outcome, problems = compare(q, theirs[q["id"]], ours[q["id"]])
                outcomes[outcome] += 1
                per_kind[(q["kind"], outcome)] += 1
                if problems:
                    differences.append((q, problems, ours[q["id"]].get("sql", "")))
        print(f"showwork {ours_seconds:.0f} s, MetricFlow done at {mf_seconds:.0f} s",
              file=sys.stderr)
        if opts.keep:
            (folder / "differences.json").write_text(json.dumps(
                [{"query": q, "problems": p, "sql": s} for q, p, s in differences], indent=1,
                default=str))
    return report(opts, worlds, outcomes, per_kind, differences, mf_seconds,
                  time.perf_counter() - started)


def report(opts: argparse.Namespace, worlds: list[World], outcomes: Counter[str],
           per_kind: Counter[tuple[str, str]], differences: list, mf_seconds: float,
           seconds: float) -> int:
    cases = sum(outcomes.values())
    print(f"differential run: seed {opts.seed}, {len(worlds)} worlds, {cases} model × query cases "
          f"({seconds:.0f} s)")
    hops = Counter(w.hops for w in worlds)
    print("  worlds by join hops: " + ", ".join(f"{h}: {n}" for h, n in sorted(hops.items())))
    kinds = sorted({k for k, _ in per_kind})
    for kind in kinds:
        parts = ", ".join(f"{o} {n}" for (k, o), n in sorted(per_kind.items()) if k == kind)
        print(f"  {kind:<11} {parts}")
    grains = Counter(q["grain"] or "none" for w in worlds for q in w.queries)
    print("  grains: " + ", ".join(f"{g} {n}" for g, n in sorted(grains.items())))
    print("  with a window: " + str(sum(1 for w in worlds for q in w.queries if q.get("start")))
          + ", with --where: " + str(sum(1 for w in worlds for q in w.queries if q["where"])))
    print("  outcomes: " + ", ".join(f"{o} {n}" for o, n in sorted(outcomes.items())))
    for q, problems, _ in differences[:opts.show]:
        print(f"\n{q['id']} ({q['kind']}): metrics {q['metrics']} grain {q['grain']} by "
              f"{q['group_by']} window {q.get('start')}..{q.get('end')} where {q['where']}")
        for p in problems[:6]:
            print(f"  - {p}")
    different = outcomes["different"]
    print(f"\n{cases} cases: {different} different" + (" — all equal or documented" if not different
                                                       else ""))
    return 1 if different else 0


if __name__ == "__main__":
    raise SystemExit(main())
