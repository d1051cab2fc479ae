"""What MetricFlow's own query cases (conformance/mf_itests.py) found, on the demo and on the
shop (conformance project) — each model copied and given the shape the case has:

- an offset metric asked with no window has values past its sources' end (MetricFlow's time
  spine carries the last days forward by the offset);
- a join between two semantic models that both have partition dimensions is refused (MetricFlow
  joins them on those too); a query needing no such join still answers;
- a metric's default `time_granularity` loads; with a grain-less metric_time filter it loads and
  is refused when asked for;
- cumulative and offset metrics by a time dimension other than metric_time, offset_to_grain by a
  grain coarser than a day, and a window covering part of a monthly metric's months are refused.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
import yaml

from showwork.semantic_layer import SemanticLayer, errors, load_model
from showwork.semantic_layer.sql import shift

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "conformance" / "project" / "models"
DEMO = ROOT / "semantic_layer" / "demo" / "models"


def _copy(src: Path, dst: Path, edit) -> Path:
    """The models folder copied, each YAML document passed through edit(doc) -> doc."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.sql"))
    for file in dst.glob("*.yml"):
        doc = yaml.safe_load(file.read_text(encoding="utf-8"))
        file.write_text(yaml.safe_dump(edit(doc), sort_keys=False), encoding="utf-8")
    return dst


def _fact(folder: Path, measure_of: str) -> dict:
    """(semantic model, its time dimension) of the metric's measure in dbt YAML."""
    for file in folder.glob("*.yml"):
        for sm in (yaml.safe_load(file.read_text()) or {}).get("semantic_models") or []:
            if any(m["name"] == measure_of for m in sm.get("measures") or []):
                return sm
    raise AssertionError(measure_of)


DOMAINS = {"shop": (SHOP, "shop_db"), "demo": (DEMO, "demo_db")}


@pytest.fixture(params=sorted(DOMAINS))
def domain(request: pytest.FixtureRequest) -> tuple[Path, Path]:
    folder, db = DOMAINS[request.param]
    return folder, request.getfixturevalue(db)


def _simple(folder: Path, database: Path) -> tuple[str, str]:
    """An additive simple metric of the model and its measure, from the model itself."""
    model = load_model(folder, database=database)
    name = sorted(n for n, m in model.metric_index.items() if m.type == "simple"
                  and model.additive(n))[0]
    return name, model.metric_index[name].measure  # type: ignore[return-value]


def test_an_offset_without_window_runs_past_the_sources_end(domain, tmp_path: Path) -> None:
    folder, database = domain
    base, _ = _simple(folder, database)

    def edit(doc: dict) -> dict:
        if "metrics" in doc:
            doc["metrics"].append({"name": "week_later", "label": "A week later", "type": "derived",
                                   "type_params": {"expr": "before", "metrics": [
                                       {"name": base, "alias": "before",
                                        "offset_window": "1 week"}]}})
        return doc

    layer = SemanticLayer(load_model(_copy(folder, tmp_path / "m", edit), database=database),
                          database)
    try:
        end = layer.model.coverage(base)[1]
        shifted = {r.key["day"]: r.values["week_later"]["value"]
                   for r in layer.call("query", {"metrics": ["week_later"], "grain": "day"}).rows}
        plain = {r.key["day"]: r.values[base]["value"]
                 for r in layer.call("query", {"metrics": [base], "grain": "day"}).rows}
    finally:
        layer.close()
    last = shift(end, 1, "week")
    assert max(shifted) == last.isoformat()
    assert shifted[last.isoformat()] == pytest.approx(plain[end.isoformat()], rel=1e-12)


def test_a_join_of_two_partitioned_models_is_refused(domain, tmp_path: Path) -> None:
    folder, database = domain
    model = load_model(folder, database=database)
    found = []
    for base in sorted(n for n, m in model.metric_index.items() if m.type == "simple"):
        sm = model.base_models(base)[0]
        if not any(d.type == "categorical" for d in sm.dimensions):
            continue  # a local dimension shows the rest still answers
        found += [(base, sm, n) for n in model.supported_dimensions(base) if n.count("__") == 1
                  and model.dimension_info(_resolve(model, sm, n)).owner != sm.name]
    assert found, "no metric's model joins another semantic model"
    base, sm, joined = found[0]
    joined = [joined]
    owner = model.dimension_info(_resolve(model, sm, joined[0])).owner
    local = next(f"{sm.primary_entity}__{d.name}" for d in sm.dimensions if d.type == "categorical")

    def edit(doc: dict) -> dict:
        for s in doc.get("semantic_models") or []:
            if s["name"] in (sm.name, owner):
                for d in s.get("dimensions") or []:
                    if d["type"] == "time":
                        d["is_partition"] = True
        return doc

    parted = SemanticLayer(load_model(_copy(folder, tmp_path / "m", edit), database=database),
                           database)
    plain = SemanticLayer(model, database)
    try:
        with pytest.raises(errors.UnsupportedDimension, match="partition"):
            parted.call("query", {"metrics": [base], "group_by": [joined[0]]})
        args = {"metrics": [base], "group_by": [local]}
        assert _rows(parted.call("query", args)) == _rows(plain.call("query", args))
    finally:
        parted.close()
        plain.close()


def _resolve(model, sm, name):
    from showwork.semantic_layer.joins import resolve_any

    return resolve_any(model, sm, name)


def _rows(result) -> list:
    return sorted((tuple(r.key.values()), tuple(v["value"] for v in r.values.values()))
                  for r in result.rows)


def test_a_default_time_granularity_loads(domain, tmp_path: Path) -> None:
    folder, database = domain
    base, _ = _simple(folder, database)

    def edit(doc: dict) -> dict:
        for m in doc.get("metrics") or []:
            if m["name"] == base:
                m["time_granularity"] = "month"
        return doc

    model = load_model(_copy(folder, tmp_path / "a", edit), database=database)
    assert model.metric_index[base].time_granularity == "month"

    def bare(doc: dict) -> dict:
        for m in edit(doc).get("metrics") or []:
            if m["name"] == base:
                m["filter"] = "{{ TimeDimension('metric_time') }} >= '2024-01-01'"
        return doc

    model = load_model(_copy(folder, tmp_path / "b", bare), database=database)
    with pytest.raises(errors.UnsupportedMetric, match="metric_time filter without a grain"):
        SemanticLayer(model, database).compile("query", {"metrics": [base]})


def test_time_reads_refused_where_they_differ(shop: SemanticLayer) -> None:
    """The shop's cumulative metric by a time dimension other than its aggregation's (a joined
    one), named by what it is; by its own aggregation time dimension it is read as by
    metric_time (MetricFlow's offset_window_with_agg_time_dim reading: test_spine_reads_mf.py);
    its offset_to_grain metric is answered by any grain (test_offset_to_grain.py)."""
    model = shop.model
    cumulative = sorted(n for n, m in model.metric_index.items() if m.type == "cumulative")[0]
    to_grain = next(n for n, m in model.metric_index.items()
                    if any(i.offset_to_grain for i in m.input_metrics))
    sm = model.base_models(cumulative)[0]
    measure = model.measures[model.base_measures(cumulative)[0]][1]
    own = f"{sm.primary_entity}__{measure.agg_time_dimension}__month"
    entities = {e.name for e in sm.entities} - {sm.primary_entity}
    other = next(f"{o.primary_entity}__{d.name}__month" for o in model.semantic_models
                 if o.primary_entity in entities for d in o.dimensions if d.type == "time")
    with pytest.raises(errors.UnsupportedDimension, match="metric_time"):
        shop.call("query", {"metrics": [cumulative], "group_by": [other]})
    by_own = shop.call("query", {"metrics": [cumulative], "group_by": [own]}).rows
    by_grain = shop.call("query", {"metrics": [cumulative], "grain": "month"}).rows
    assert [(r.key[own], r.values) for r in by_own] == [
        (r.key["month"], r.values) for r in by_grain] and len(by_own) > 6
    for grain in ("day", "week", "month"):
        assert shop.call("query", {"metrics": [to_grain], "grain": grain}).rows


def test_part_of_a_monthly_metrics_months_is_refused(domain, tmp_path: Path) -> None:
    folder, database = domain
    base, measure = _simple(folder, database)
    fact = _fact(folder, measure)
    time = (fact.get("defaults") or {}).get("agg_time_dimension")

    def edit(doc: dict) -> dict:
        for s in doc.get("semantic_models") or []:
            if s["name"] == fact["name"]:
                for d in s["dimensions"]:
                    if d["name"] == time:
                        d["type_params"]["time_granularity"] = "month"
        return doc

    layer = SemanticLayer(load_model(_copy(folder, tmp_path / "m", edit), database=database),
                          database)
    try:
        start = layer.model.coverage(base)[0].replace(day=1)
        end = start + dt.timedelta(days=40)
        with pytest.raises(errors.GrainNotAllowed, match="whole months"):
            layer.call("query", {"metrics": [base], "window": {
                "start": (start + dt.timedelta(days=14)).isoformat(), "end": end.isoformat()}})
        whole = shift(start, 2, "month") - dt.timedelta(days=1)
        assert layer.call("query", {"metrics": [base], "window": {
            "start": start.isoformat(), "end": whole.isoformat()}}).rows
    finally:
        layer.close()
