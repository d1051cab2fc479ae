"""MetricFlow's last refusals of issue 45, answered as MetricFlow 0.210 answers them and checked
beside MetricFlow itself (conformance/.venv, conformance/mf_driver.py: the SQL `mf query` runs)
on two projects, every row compared: the shop example's sign-ups and the conformance project's
refunds (both sparse: days without a row, which the time spine fills).

1. join_to_timespine on a cumulative metric's measure, with a window, grain_to_date or all
   time, with and without fill_nulls_with, `period_agg` first and last (dataflow_plan_builder's
   _build_cumulative_metric_output_node: the cumulated values LEFT JOINed to the spine by day,
   then each period's first or last day picked by WindowReaggregationNode);
2. a spined or filled metric read through an offset (offset_window, offset_to_grain) or a
   cumulative window in a derived metric (_build_simple_metric_recipe: the offset's INNER join
   to the spine turned LEFT OUTER by join_to_timespine);
3. a spined metric grouped by its own aggregation time dimension at any grain (MetricFlow's
   simple_fill_nulls_with_0_agg_time_dim: the spine joined on that dimension).

Where MetricFlow errors, showwork refuses with its reason (a window on a spined metric, or an
offset no coarser than the grain, grouped by its aggregation time dimension: "No metric time
dimensions with standard granularities found"); by a coarser grain the window bounds the offset
input's rows before the shift (test_offset_by_agg_time_window.py). conformance/differential.py's `spine_reads` cases ask the same on
generated worlds."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.project import load_project

ROOT = Path(__file__).resolve().parents[2]
MF_PYTHON = ROOT / "conformance" / ".venv" / "bin" / "python"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from test_conversion_spine_mf import _metricflow, _yaml_items, shop_with_spine  # noqa: E402

from conformance.differential import answer, compare  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not MF_PYTHON.exists(), reason="MetricFlow is in conformance/.venv "
                       "(make conformance builds it)"),
]

Case = tuple[SemanticLayer, dict[str, dict[str, Any]], list[dict[str, Any]]]


def spined_metrics(prefix: str, measure: str) -> list[dict[str, Any]]:
    """Metrics over one measure: cumulative ones joining the spine (a 7-day window, month to
    date, all time; filled or not; period_agg last), plain spined and filled ones, each read
    through an offset of a month, of 7 days and to the month's start, and a derived metric over
    a spined cumulative one."""
    spine, zero = {"join_to_timespine": True}, {"fill_nulls_with": 0}

    def cumulative(name: str, flags: dict[str, Any], **params: Any) -> dict[str, Any]:
        return {"name": f"{prefix}_{name}", "label": f"{prefix} {name}", "type": "cumulative",
                "type_params": {"measure": {"name": measure, **flags}, **params}}

    def simple(name: str, flags: dict[str, Any]) -> dict[str, Any]:
        return {"name": f"{prefix}_{name}", "label": f"{prefix} {name}", "type": "simple",
                "type_params": {"measure": {"name": measure, **flags}}}

    def derived(name: str, expr: str, inputs: list[dict[str, Any]]) -> dict[str, Any]:
        return {"name": f"{prefix}_{name}", "label": f"{prefix} {name}", "type": "derived",
                "type_params": {"expr": expr, "metrics": inputs}}

    out = [cumulative("cum7_sp", spine, window="7 days"),
           cumulative("cum7_spf", {**spine, **zero}, window="7 days"),
           cumulative("mtd_spf", {**spine, **zero}, grain_to_date="month"),
           cumulative("all_sp", spine),
           cumulative("cum7_spf_last", {**spine, **zero},
                      cumulative_type_params={"window": "7 days", "period_agg": "last"}),
           cumulative("mtd_sp_last", spine,
                      cumulative_type_params={"grain_to_date": "month", "period_agg": "last"}),
           cumulative("cum7_f", zero, window="7 days"),
           simple("sp", spine), simple("spf", {**spine, **zero}), simple("f", zero)]
    for base in ("sp", "spf", "f"):
        name = f"{prefix}_{base}"
        out += [derived(f"{base}_mom", "cur - prev", [
                    {"name": name, "alias": "cur"},
                    {"name": name, "offset_window": "1 month", "alias": "prev"}]),
                derived(f"{base}_week_ago", "prev", [
                    {"name": name, "offset_window": "7 days", "alias": "prev"}]),
                derived(f"{base}_since_month_start", "cur - prev", [
                    {"name": name, "alias": "cur"},
                    {"name": name, "offset_to_grain": "month", "alias": "prev"}])]
    out.append(derived("cum7_doubled", "cur * 2", [{"name": f"{prefix}_cum7_spf", "alias": "cur"}]))
    return out


def spine_queries(prefix: str, metrics: list[dict[str, Any]], window: tuple[str, str],
                  agg_time: str, dims: tuple[str, str], where: str) -> list[dict[str, Any]]:
    """Each metric by day, week, month and quarter, with a window and without, by a dimension,
    under a filter, and by its own aggregation time dimension at a day, week and month (no
    grain), with a window and without."""
    shapes: list[tuple[str | None, list[str], Any]] = [
        ("day", [], True), ("day", [], False), ("week", [], False), ("month", [], True),
        ("month", [], False), ("month", [dims[0]], True), ("quarter", [dims[1]], False),
        ("week", [], "where"), (None, [f"{agg_time}__day"], True),
        (None, [f"{agg_time}__day"], False), (None, [f"{agg_time}__month"], False),
        (None, [f"{agg_time}__month"], True), (None, [f"{agg_time}__week"], True)]
    out: list[dict[str, Any]] = []
    for m in metrics:
        for grain, group_by, bounded in shapes:
            q: dict[str, Any] = {"id": f"{prefix}.{m['name']}.q{len(out)}", "kind": "spine_reads",
                                 "metrics": [m["name"]], "grain": grain, "group_by": group_by,
                                 "where": where if bounded == "where" else None}
            if bounded is True:
                q["start"], q["end"] = window
            out.append(q)
    return out


def outcomes(case: Case) -> dict[str, list[tuple[dict[str, Any], Any]]]:
    """The queries by outcome (equal, both_refuse, different, …), each with what differs."""
    layer, theirs, queries = case
    out: dict[str, list[tuple[dict[str, Any], Any]]] = {}
    for q in queries:
        ours = answer(layer, q)
        outcome, found = compare(q, theirs[q["id"]], ours)
        out.setdefault(outcome, []).append((q, found or ours.get("error")))
    return out


def _with_metrics(folder: Path, metrics: list[dict[str, Any]]) -> None:
    path = folder / "metrics.yml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["metrics"] += metrics
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")


def _plain(item: Any) -> Any:
    """A YAML item without its descriptions (dbt's schema takes them where MetricFlow's own
    YAML parser does not; they change no number)."""
    if isinstance(item, dict):
        return {k: _plain(v) for k, v in item.items() if k != "description"}
    return [_plain(v) for v in item] if isinstance(item, list) else item


def _case(work: Path, folder: Path, db: Path, metrics: list[dict[str, Any]],
          queries: list[dict[str, Any]]) -> Iterator[Case]:
    """MetricFlow's answers over the project's semantic models and the new metrics (the only
    ones asked), and showwork's layer over the whole project."""
    models = _plain(_yaml_items(folder / "models", "semantic_models"))
    theirs = _metricflow(work, db, {"semantic_models": models, "metrics": metrics}, queries)
    layer = SemanticLayer(load_project(folder, database=db), db)
    yield layer, theirs, queries
    layer.close()


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Case]:
    """The shop's sign-ups (customers by signup_date) over a three-year day spine."""
    folder, db = shop_with_spine(tmp_path_factory.mktemp("shop_spine_reads"))
    metrics = spined_metrics("signup", "customers")
    _with_metrics(folder / "models", metrics)
    queries = spine_queries("shop", metrics, ("2019-01-05", "2019-06-20"),
                            "customer__signup_date", ("customer__segment", "customer__region"),
                            "{{ Dimension('customer__segment') }} = 'consumer'")
    yield from _case(folder.parent, folder, db, metrics, queries)


@pytest.fixture(scope="module")
def conformance(shop_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Case]:
    """The conformance project's refunds (123 rows over half a year, by refunded_on)."""
    work = tmp_path_factory.mktemp("conformance_spine_reads")
    folder, db = conformance_copy(work, shop_db)
    metrics = spined_metrics("refund", "refund_count")
    _with_metrics(folder / "models", metrics)
    queries = spine_queries("conformance", metrics, ("2024-02-10", "2024-05-20"),
                            "refund__refunded_on", ("transaction__channel",
                                                    "transaction__customer__segment"),
                            "{{ Dimension('transaction__channel') }} = 'web'")
    yield from _case(work, folder, db, metrics, queries)


def conformance_copy(work: Path, tables: Path) -> tuple[Path, Path]:
    """(folder, DuckDB file) of a copy of conformance/project under `work`, its tables copied
    from `tables` (conftest's shop_db)."""
    folder = work / "project"
    shutil.copytree(ROOT / "conformance" / "project", folder,
                    ignore=shutil.ignore_patterns("target", "logs", "*.duckdb"))
    db = work / "conformance.duckdb"
    shutil.copy(tables, db)
    return folder, db


@pytest.fixture(params=["shop", "conformance"])
def case(request: pytest.FixtureRequest) -> Case:
    return request.getfixturevalue(request.param)


def test_every_query_metricflow_answers_is_equal(case: Case) -> None:
    """Every query MetricFlow answers, showwork answers with the same rows and values (an
    offset grouped by the aggregation time dimension under a window too: the window bounds the
    input rows before the shift)."""
    found = outcomes(case)
    assert [(q["id"], str(why)[:300]) for q, why in found.get("different", [])] == []
    assert "known:offset_by_agg_time_window" not in found
    assert len(found["equal"]) > 200


def test_metricflow_errors_are_refused_with_its_reason(case: Case) -> None:
    """A window on a spined or offset metric grouped by its aggregation time dimension:
    MetricFlow errors, showwork refuses saying why; nothing MetricFlow refuses is answered."""
    found = outcomes(case)
    refused = [why for _, why in found["both_refuse"]]
    assert any("No metric time dimensions" in str(why) for why in refused)
    assert all("MetricFlow refuses" not in str(why) for _, why in found.get("different", []))


def test_a_spined_cumulative_metric_has_every_spine_day(case: Case) -> None:
    """Refusal 1: a cumulative metric joining the spine has a row on every day of the spine,
    the fill where its trailing week holds no row; unspined, days without one have no row."""
    layer, _, queries = case
    (name,) = {q["metrics"][0] for q in queries if q["metrics"][0].endswith("_cum7_spf")}
    spine = layer.model.spine_coverage
    assert spine is not None
    rows = layer.call("query", {"metrics": [name], "grain": "day"}).rows
    bare = layer.call("query", {"metrics": [name.replace("_spf", "_f")], "grain": "day"}).rows
    days = (spine.through - spine.from_).days + 1
    assert len(rows) == days
    filled = [r for r in rows if r.values[name]["value"] == 0]
    assert filled and len(bare) == days - len(filled)


def test_grouped_by_its_own_time_dimension_is_read_as_metric_time(case: Case) -> None:
    """Refusal 3 (MetricFlow's simple_fill_nulls_with_0_agg_time_dim): a spined, filled metric
    grouped by its aggregation time dimension has the rows and values it has by metric_time at
    that grain, the period named as the dimension."""
    layer, _, queries = case
    q = next(q for q in queries if q["metrics"][0].endswith("_spf") and q["group_by"]
             and q["group_by"][0].endswith("__month") and "start" not in q)
    (dim,) = q["group_by"]
    by_dim = layer.call("query", {"metrics": q["metrics"], "group_by": [dim]}).rows
    by_grain = layer.call("query", {"metrics": q["metrics"], "grain": "month"}).rows
    assert [(r.key[dim], r.values) for r in by_dim] == [
        (r.key["month"], r.values) for r in by_grain]
    assert len(by_dim) > 6
