"""Date parts (issue 45): `metric_time__extract_<part>` and `<entity>__<time>__extract_<part>`,
the columns MetricFlow outputs for its group-by objects' date parts, group any metric MetricFlow
lets be grouped so. Each part's value is that of the days it holds: on the demo, the shop and
the flights, every metric and time dimension taken from the project's own catalog, the parts'
rows add up to the rows by day; an offset metric made from the project's own metrics (a lag of
7 days and of a month) groups the spine days its input is shifted onto, as MetricFlow does;
cumulative metrics are refused as MetricFlow refuses them. The cases MetricFlow itself asks
are compared with it by conformance/mf_itests.py and the differential run's date_part kinds."""

from __future__ import annotations

import datetime as dt
import shutil
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.dateparts import DATE_PARTS
from showwork.semantic_layer.errors import InvalidArguments, UnsupportedDimension
from showwork.semantic_layer.model import SemanticModelFile
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.sql import date_part
from showwork.semantic_layer.validate import time_read

ROOT = Path(__file__).resolve().parents[2]
PROJECTS = {"demo": ROOT / "semantic_layer" / "demo", "shop": ROOT / "examples" / "shop",
            "flights": ROOT / "examples" / "flights"}
ADDITIVE = {"sum", "count", "sum_boolean"}


@pytest.fixture(params=["demo", "shop", "flights"])
def domain(request: pytest.FixtureRequest) -> SemanticLayer:
    return request.getfixturevalue({"demo": "layer", "shop": "shop_layer",
                                    "flights": "flights_layer"}[request.param])


def _part(day: dt.date, part: str) -> int:
    """The part as MetricFlow defines it (the ISO day of the week: Monday 1 … Sunday 7)."""
    return {"year": day.year, "quarter": (day.month - 1) // 3 + 1, "month": day.month,
            "day": day.day, "dow": day.isoweekday(), "doy": day.timetuple().tm_yday}[part]


def _additive(model: SemanticModelFile) -> list[str]:
    """Simple metrics of additive measures that read only their own rows (up to three)."""
    names = sorted(n for n, m in model.metric_index.items()
                   if m.type == "simple" and not time_read(model, [n])
                   and model.measures[m.measure][1].agg in ADDITIVE
                   and not model.measures[m.measure][1].point_in_time)
    assert names, "the project has no additive simple metric"
    return names[:3]


def _summed(rows: list[tuple[dict, float | None]], key) -> dict:
    out: dict = defaultdict(float)
    for k, value in rows:
        if value is not None:
            out[key(k)] += value
    return dict(out)


def _by_parts(layer: SemanticLayer, args: dict, names: list[str]) -> dict:
    result = layer.call("query", args, refuse_empty=False)
    assert result.keys[-len(names):] == tuple(names)
    metric = args["metrics"][0]
    return {tuple(int(r.key[n]) for n in names): r.values[metric]["value"] for r in result.rows
            if r.values[metric]["value"] is not None and all(r.key[n] for n in names)}


def _by_day(layer: SemanticLayer, args: dict) -> list[tuple[dt.date, float | None]]:
    result = layer.call("query", {**args, "grain": "day"}, refuse_empty=False)
    metric = args["metrics"][0]
    return [(dt.date.fromisoformat(r.key["day"]), r.values[metric]["value"]) for r in result.rows]


def _close(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert a[k] == pytest.approx(b[k], rel=1e-9, abs=1e-9), k


@pytest.mark.parametrize("parts", [("year",), ("quarter",), ("month",), ("day",), ("dow",),
                                   ("doy",), ("year", "dow")])
def test_metric_time_parts_add_up_the_days(domain: SemanticLayer, parts: tuple[str, ...]) -> None:
    """By metric_time's parts, each row is the sum of the days whose parts those are."""
    names = [f"metric_time__extract_{p}" for p in parts]
    for metric in _additive(domain.model):
        days = _by_day(domain, {"metrics": [metric]})
        assert days, f"{metric} has no rows by day"
        expected = _summed(days, lambda d: tuple(_part(d, p) for p in parts))
        _close(_by_parts(domain, {"metrics": [metric], "group_by": names}, names), expected)


def test_a_time_dimensions_part_is_its_days(domain: SemanticLayer) -> None:
    """`<entity>__<time>__extract_<part>` of each time dimension of a metric's semantic
    models: the rows by that time at day grain, summed by the part; within a window too."""
    checked = 0
    for metric in _additive(domain.model):
        times = sorted(f"{sm.primary_entity}__{d.name}" for sm in domain.model.base_models(metric)
                       for d in sm.dimensions if d.type == "time" and sm.primary_entity)
        for time in times[:2]:
            start, end = domain.model.coverage(metric)
            window = {"start": start.isoformat(), "end": min(end, start + dt.timedelta(days=90)
                                                             ).isoformat()}
            for extra in ({}, {"window": window}):
                base = {"metrics": [metric], **extra}
                result = domain.call("query", {**base, "group_by": [f"{time}__day"]})
                days = [(dt.date.fromisoformat(r.key[f"{time}__day"]),
                         r.values[metric]["value"]) for r in result.rows
                        if r.key[f"{time}__day"]]
                name = f"{time}__extract_month"
                expected = _summed(days, lambda d: (_part(d, "month"),))
                got = _by_parts(domain, {**base, "group_by": [name]}, [name])
                _close(got, expected)
                checked += 1
    if not checked:
        pytest.skip("no metric of the project offers a time dimension besides metric_time")


def _with_lags(source: Path, folder: Path, model: SemanticModelFile) -> tuple[Path, list[str]]:
    """The project copied with two metrics of its own added: a lag of 7 days and of a month of
    its first additive simple metric (derived, one input, offset_window)."""
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("*.duckdb", "*.wal"))
    base = _additive(model)[0]
    lags = [{"name": f"{base}_lag_{tag}", "label": f"{base} {window} before", "type": "derived",
             "type_params": {"expr": "before", "metrics": [
                 {"name": base, "alias": "before", "offset_window": window}]}}
            for tag, window in (("7d", "7 days"), ("1m", "1 month"))]
    (folder / "models" / "date_part_lags.yml").write_text(yaml.safe_dump({"metrics": lags}),
                                               encoding="utf-8")
    return folder / "showwork.yaml", [m["name"] for m in lags]


@pytest.mark.parametrize("name", ["demo", "shop"])
def test_an_offsets_parts_are_the_days_it_is_shifted_onto(
        name: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """An offset metric by a date part reads, for each spine day, the day the offset shifts it
    from, and groups those days by their part (MetricFlow joins the spine on day − offset):
    the rows by part are the rows by day summed by part, with a window and without."""
    layer = request.getfixturevalue({"demo": "layer", "shop": "shop_layer"}[name])
    path, lags = _with_lags(PROJECTS[name], tmp_path / name, layer.model)
    lagged = SemanticLayer(load_project(path, database=layer.database), layer.database)
    try:
        for metric in lags:
            start, end = lagged.model.coverage(metric)
            window = {"start": (start + dt.timedelta(days=40)).isoformat(),
                      "end": (start + dt.timedelta(days=130)).isoformat()}
            for extra in ({}, {"window": window}):
                base = {"metrics": [metric], **extra}
                days = _by_day(lagged, base)
                assert days
                for part in ("month", "dow"):
                    names = [f"metric_time__extract_{part}"]
                    _close(_by_parts(lagged, {**base, "group_by": names}, names),
                           _summed(days, lambda d, part=part: (_part(d, part),)))
    finally:
        lagged.close()


def test_cumulative_metrics_take_no_date_part(shop_layer: SemanticLayer, shop: SemanticLayer
                                              ) -> None:
    """MetricFlow lets no cumulative metric (nor one offset to a grain) be grouped by a date
    part; neither does showwork, saying so (the shop example and the conformance project)."""
    for layer in (shop_layer, shop):
        refused = sorted(n for n, m in layer.model.metric_index.items()
                         if m.type == "cumulative" or any(i.offset_to_grain
                                                          for i in m.input_metrics))
        assert refused
        for metric in refused:
            with pytest.raises(UnsupportedDimension, match="does not allow group-by items with "
                                                           "a date part"):
                layer.call("query", {"metrics": [metric],
                                     "group_by": ["metric_time__extract_month"]})


def test_names_and_counts(domain: SemanticLayer) -> None:
    """Only MetricFlow's parts are names (no week: dbt-semantic-interfaces has none); up to four
    parts in one query, still at most two other dimensions."""
    metric = _additive(domain.model)[0]
    with pytest.raises(UnsupportedDimension):
        domain.call("query", {"metrics": [metric], "group_by": ["metric_time__extract_week"]})
    four = [f"metric_time__extract_{p}" for p in ("quarter", "dow", "doy", "day")]
    assert domain.call("query", {"metrics": [metric], "group_by": four}).rows
    plain = sorted(n for n, i in domain.model.offered_dimensions(metric).items()
                   if i.dimension.type != "time")
    if len(plain) >= 3:
        with pytest.raises(InvalidArguments, match="at most 2 besides date parts"):
            domain.call("query", {"metrics": [metric], "group_by": plain[:3]})


@pytest.mark.parametrize("dialect", ["duckdb", "postgres", "snowflake", "bigquery",
                                     "databricks", "spark"])
def test_each_dialect_reads_the_iso_day_of_the_week(dialect: str) -> None:
    """EXTRACT per dialect, as MetricFlow's renderers write it: an integer, and the ISO day of
    the week (Monday 1) where the engine's own differs (BigQuery's Sunday 1 is mapped)."""
    from sqlglot import exp

    column = exp.column("d")
    written = {p: date_part(column, p, dialect).sql(dialect) for p in DATE_PARTS}
    iso = {"duckdb": "ISODOW", "postgres": "ISODOW", "snowflake": "DAYOFWEEKISO",
           "databricks": "DAYOFWEEK_ISO", "spark": "DAYOFWEEK_ISO", "bigquery": "DAYOFWEEK"}
    assert iso[dialect] in written["dow"].upper()
    if dialect == "bigquery":
        assert "CASE" in written["dow"].upper() and "THEN 7" in written["dow"].upper()
    assert all("INT" in text.upper() for text in written.values())
