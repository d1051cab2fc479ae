"""dbt's latest semantic-layer spec (dbt Core 1.12, Fusion: the semantic model and its metrics on
the `models:` entry) reads as the same project written in the legacy spec: the same metrics, and
every query answers the same rows. Each project here (the shop example, the conformance project,
dbt-metricflow's tutorial) is rewritten into the latest spec by `to_latest` below, as the dbt docs'
migration guide maps each key (docs.getdbt.com, "Migrate to the latest YAML spec"), then both
forms are loaded and queried over one warehouse."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from showwork.harness.project import Project
from showwork.semantic_layer import SemanticLayer, load_model
from showwork.semantic_layer.errors import SemanticError

ROOT = Path(__file__).resolve().parents[2]
_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_REF = re.compile(r"""ref\(\s*['"]([^'"]+)['"]\s*\)""")


# -- the rewrite: legacy → latest --------------------------------------------------------------
def to_latest(src: Path, dst: Path) -> None:
    """Every YAML file of the folder `src` written to `dst` in the latest spec (other files
    copied): semantic models onto their models' entries, measures into simple metrics."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.yml", "*.yaml"))
    docs = {p: list(yaml.safe_load_all(p.read_text(encoding="utf-8")))
            for p in sorted(src.rglob("*.y*ml"))}
    sms = [(p, sm) for p, ds in docs.items() for d in ds if isinstance(d, dict)
           for sm in d.get("semantic_models") or []]
    metrics = [m for ds in docs.values() for d in ds if isinstance(d, dict)
               for m in d.get("metrics") or [] if isinstance(d.get("metrics"), list)]
    measures = {ms["name"]: (sm, ms) for _, sm in sms for ms in sm.get("measures") or []}
    entries = {e["name"]: e for ds in docs.values() for d in ds if isinstance(d, dict)
               for e in d.get("models") or [] if isinstance(e, dict)}
    built: dict[str, dict[str, Any]] = {}  # semantic model name → its model entry
    for _, sm in sms:
        built[sm["name"]] = _entry(sm, entries)
    taken = {m["name"] for m in metrics}
    top: list[dict[str, Any]] = []
    # (measure, its input's fill and spine join) → the simple metric a cumulative or
    # conversion reads
    inputs: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = {}

    def simple_for(measure: str, flags: dict[str, Any] | None = None) -> str:
        """A simple metric reading the measure with these flags (fill_nulls_with,
        join_to_timespine): one of the project's, or a new one."""
        key = (measure, tuple(sorted((flags or {}).items())))
        if key not in inputs:
            plain = next((m["name"] for m in metrics if m.get("type") == "simple"
                          and _measure_name(m) == measure and not m.get("filter")
                          and _input_flags(m) == (flags or {})), None)
            if plain is None:
                plain = measure if measure not in taken else f"{measure}_input"
                while plain in taken:
                    plain += "_"
                taken.add(plain)
                sm, ms = measures[measure]
                built[sm["name"]]["metrics"].append(_simple(plain, ms, dict(flags or {})))
            inputs[key] = plain
        return inputs[key]

    for m in metrics:
        kind, p = m.get("type", "simple").lower(), m.get("type_params") or {}
        base = {k: m[k] for k in ("name", "label", "description", "filter", "config", "meta",
                                  "time_granularity") if k in m}
        if kind == "simple":
            sm, ms = measures[_measure_name(m)]
            built[sm["name"]]["metrics"].append(_simple(m["name"], ms, {**base, **_input_flags(m)}))
        elif kind == "ratio":
            top.append({**base, "type": "ratio", "numerator": p["numerator"],
                        "denominator": p["denominator"]})
        elif kind == "derived":
            top.append({**base, "type": "derived", "expr": p["expr"], "input_metrics": p["metrics"]})
        elif kind == "cumulative":
            c = p.get("cumulative_type_params") or {}
            out = {**base, "type": "cumulative", "input_metric": simple_for(_measure_name(m)),
                   **{k: c[k] for k in ("window", "grain_to_date", "period_agg") if k in c}}
            for k in ("window", "grain_to_date"):
                if k in p:
                    out[k] = p[k]
            top.append(out)
        elif kind == "conversion":
            c = p["conversion_type_params"]
            top.append({**base, "type": "conversion",
                        "base_metric": simple_for(_name(c["base_measure"]),
                                                  _side_flags(c["base_measure"])),
                        "conversion_metric": simple_for(_name(c["conversion_measure"]),
                                                        _side_flags(c["conversion_measure"])),
                        # dbt 1.12 has no default calculation (None is not a valid one)
                        "calculation": c.get("calculation", "conversion_rate"),
                        **{k: c[k] for k in ("entity", "window", "constant_properties") if k in c}})
    for measure, (sm, ms) in measures.items():
        if ms.get("create_metric") and measure not in taken:
            built[sm["name"]]["metrics"].append(_simple(measure, ms, {}))
    others = [e for name, e in entries.items()
              if name not in {_model_of(sm) for _, sm in sms}]
    out = {"models": [*built.values(), *others], "metrics": top}
    (dst / "semantic.yml").write_text(yaml.safe_dump(out, sort_keys=False), encoding="utf-8")


def _entry(sm: dict[str, Any], entries: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The semantic model as its model's entry: entities and dimensions on the columns they
    read (a column read once), the rest (expressions, a column read twice) derived."""
    model = _model_of(sm)
    entry = {k: v for k, v in entries.get(model, {"name": model}).items() if k != "columns"}
    columns = {c["name"]: dict(c) for c in entries.get(model, {}).get("columns") or []}
    entry["semantic_model"] = {"enabled": True, **({"name": sm["name"]} if sm["name"] != model
                                                   else {})}
    if (sm.get("defaults") or {}).get("agg_time_dimension"):
        entry["agg_time_dimension"] = sm["defaults"]["agg_time_dimension"]
    if sm.get("primary_entity"):
        entry["primary_entity"] = sm["primary_entity"]
    derived: dict[str, list[dict[str, Any]]] = {"dimensions": [], "entities": []}
    used: set[str] = set()
    for kind, items in (("entity", sm.get("entities") or []),
                        ("dimension", sm.get("dimensions") or [])):
        for item in items:
            expr = str(item.get("expr") or item["name"])
            grain = (item.get("type_params") or {}).get("time_granularity")
            element = {k: item[k] for k in ("type", "label", "description") if k in item}
            if _BARE.match(expr) and expr not in used:
                used.add(expr)
                column = columns.setdefault(expr, {"name": expr})
                column[kind] = {**element, "name": item["name"]}
                if grain:
                    column["granularity"] = grain
            else:
                derived["entities" if kind == "entity" else "dimensions"].append(
                    {**element, "name": item["name"], "expr": expr,
                     **({"granularity": grain} if grain else {})})
    entry["columns"] = list(columns.values())
    if derived["dimensions"] or derived["entities"]:
        entry["derived_semantics"] = derived
    entry["metrics"] = []
    return entry


def _simple(name: str, measure: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    out = {**base, "name": name, "type": "simple", "agg": measure["agg"],
           "expr": measure.get("expr", measure["name"])}
    if measure.get("agg_time_dimension"):
        out["agg_time_dimension"] = measure["agg_time_dimension"]
    params = measure.get("agg_params") or {}
    if "percentile" in params:
        out["percentile"] = params["percentile"]
        # dbt 1.12: `discrete` exact discrete, `continuous` approximate continuous, none exact
        # continuous (an approximate discrete percentile has no spelling)
        discrete, approximate = (params.get("use_discrete_percentile"),
                                 params.get("use_approximate_percentile"))
        assert not (discrete and approximate), measure["name"]
        if discrete or approximate:
            out["percentile_type"] = "discrete" if discrete else "continuous"
    nad = measure.get("non_additive_dimension")
    if nad:
        out["non_additive_dimension"] = {"name": nad["name"], "window_agg": nad.get("window_choice"),
                                         "group_by": nad.get("window_groupings") or []}
    return out


def _measure_name(metric: dict[str, Any]) -> str:
    return _name((metric.get("type_params") or {}).get("measure"))


def _input_flags(metric: dict[str, Any]) -> dict[str, Any]:
    measure = (metric.get("type_params") or {}).get("measure")
    flags = {k: measure[k] for k in ("fill_nulls_with", "join_to_timespine")
             if isinstance(measure, dict) and measure.get(k) is not None}
    flags.update({k: v for k, v in (metric.get("type_params") or {}).items()
                  if k in ("fill_nulls_with", "join_to_timespine") and v is not None})
    return flags


def _side_flags(value: Any) -> dict[str, Any]:
    """A conversion side's fill_nulls_with and join_to_timespine (the legacy measure input's)."""
    return {k: value[k] for k in ("fill_nulls_with", "join_to_timespine")
            if isinstance(value, dict) and value.get(k) is not None}


def _name(value: Any) -> str:
    return value["name"] if isinstance(value, dict) else str(value)


def _model_of(sm: dict[str, Any]) -> str:
    match = _REF.search(str(sm.get("model", "")))
    assert match, sm.get("model")
    return match.group(1)


# -- the comparison ------------------------------------------------------------------------------
def answers(legacy: SemanticLayer, latest: SemanticLayer) -> int:
    """Every metric of the legacy layer, with no grain, by month and by its first dimension,
    asked of both layers: the same rows (or both refused). Returns how many were compared."""
    compared = 0
    for name in legacy.model.metric_index:
        dims = legacy.model.supported_dimensions(name)[:1]
        for args in ({"metrics": [name]}, {"metrics": [name], "grain": "month"},
                     {"metrics": [name], "grain": "month", "group_by": dims}):
            rows = []
            for layer in (legacy, latest):
                try:
                    result = layer.call("query", args)
                except SemanticError as exc:
                    rows.append(("refused", type(exc).__name__))
                    continue
                rows.append(sorted(repr(_rounded(r)) for r in result.rows))
            assert rows[0] == rows[1], (name, args)
            compared += rows[0][0] != "refused"
    return compared


def _rounded(value: Any) -> Any:
    """A row with its floats to 10 significant digits: one DOUBLE sum added up in another order
    (another scan's shape) differs in its last bits; so does a difference of two equal sums
    (revenue − its month's revenue: 1e-13 or 0.0), held to 0 below 1e-9."""
    if isinstance(value, float):
        return 0.0 if abs(value) < 1e-9 else float(f"{value:.10g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if hasattr(value, "__dataclass_fields__"):
        return {k: _rounded(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


def test_the_shop_in_the_latest_spec_answers_as_in_the_legacy(shop_layer: SemanticLayer,
                                                              tmp_path: Path) -> None:
    """examples/shop rewritten into the latest spec: its metrics, and every metric's answers."""
    to_latest(ROOT / "examples" / "shop" / "models", tmp_path / "models")
    text = (tmp_path / "models" / "semantic.yml").read_text(encoding="utf-8")
    assert "semantic_models:" not in text and "type_params" not in text and "measures" not in text
    latest = SemanticLayer(load_model(tmp_path / "models"), shop_layer.database)
    try:
        assert set(latest.model.metric_index) == set(shop_layer.model.metric_index)
        legacy = SemanticLayer(load_model(ROOT / "examples" / "shop" / "models"),
                               shop_layer.database)
        try:
            assert answers(legacy, latest) >= 40
        finally:
            legacy.close()
    finally:
        latest.close()


def test_the_conformance_project_in_the_latest_spec(shop: SemanticLayer, tmp_path: Path) -> None:
    """conformance/project (conversion, cumulative, offsets, fill_nulls_with, percentiles)
    rewritten into the latest spec: the same metrics and answers."""
    to_latest(ROOT / "conformance" / "project" / "models", tmp_path / "models")
    latest = SemanticLayer(load_model(tmp_path / "models"), shop.database)
    try:
        # a conversion side joining the spine reads a simple metric that does: one is added
        extra = set(latest.model.metric_index) - set(shop.model.metric_index)
        assert set(shop.model.metric_index) <= set(latest.model.metric_index)
        assert {latest.model.metric_index[m].type for m in extra} <= {"simple"} and len(extra) <= 1
        assert answers(shop, latest) >= 40
    finally:
        latest.close()


def test_the_tutorial_in_the_latest_spec(tutorial_layer: SemanticLayer, tmp_path: Path) -> None:
    """dbt-metricflow's tutorial project (a domain nobody here wrote) rewritten into the latest
    spec, read as a dbt project (its profile, its schema): the same metrics and answers."""
    models = Path(tutorial_layer.model.source)
    built = models.parent
    assert (built / "dbt_project.yml").is_file(), models
    root = tmp_path / "project"
    shutil.copytree(built, root, ignore=shutil.ignore_patterns("models", "target", "logs",
                                                               "*.duckdb*"))
    to_latest(models, root / "models")
    layer = Project.open(root).layer()  # its profile names the tutorial's DuckDB file
    try:
        # the latest spec reads a cumulative metric's input as a metric: one is added where none was
        assert set(tutorial_layer.model.metric_index) <= set(layer.model.metric_index)
        assert answers(tutorial_layer, layer) >= 30
    finally:
        layer.close()


@pytest.mark.parametrize("spec", ["shorthand", "full"])
def test_column_shorthands_read_as_dbt_reads_them(tmp_path: Path, spec: str) -> None:
    """`entity: primary` and `dimension: categorical` name the element after its column; a
    full block named otherwise reads the column (dbt-core's expr = column name)."""
    entity: Any = "primary" if spec == "shorthand" else {"type": "primary", "name": "sale"}
    dimension: Any = "categorical" if spec == "shorthand" else {"type": "categorical",
                                                                "name": "kind_of_sale"}
    doc = {"models": [{"name": "sales", "semantic_model": {"enabled": True},
                       "agg_time_dimension": "sold_on",
                       "columns": [{"name": "sale_id", "entity": entity},
                                   {"name": "kind", "dimension": dimension},
                                   {"name": "sold_on", "granularity": "day",
                                    "dimension": {"type": "time"}}],
                       "metrics": [{"name": "sales", "type": "simple", "agg": "count",
                                    "expr": 1}]}]}
    (tmp_path / "m.yml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    model = load_model(tmp_path / "m.yml")
    sm = model.semantic_models[0]
    (ent,) = sm.entities
    dim = next(d for d in sm.dimensions if d.type == "categorical")
    if spec == "shorthand":
        assert (ent.name, dim.name) == ("sale_id", "kind")
    else:
        assert (ent.name, dim.name, dim.expr) == ("sale", "kind_of_sale", "kind")
    assert model.metric_index["sales"].type == "simple"


@pytest.mark.parametrize(("kind", "discrete", "approximate"), [
    (None, False, False), ("discrete", True, False), ("continuous", False, True)])
def test_percentile_type_reads_as_dbt_reads_it(tmp_path: Path, kind: str | None, discrete: bool,
                                               approximate: bool) -> None:
    """dbt-core 1.12 writes `percentile_type: continuous` as MetricFlow's approximate
    continuous percentile, `discrete` as the exact discrete one, none as the exact continuous
    one (schema_yaml_readers.py): the numbers are those MetricFlow computes from its manifest."""
    metric = {"name": "p90", "type": "simple", "agg": "percentile", "expr": "amount",
              "percentile": 0.9, **({"percentile_type": kind} if kind else {})}
    doc = {"models": [{"name": "sales", "semantic_model": {"enabled": True},
                       "agg_time_dimension": "sold_on",
                       "columns": [{"name": "sale_id", "entity": "primary"},
                                   {"name": "sold_on", "granularity": "day",
                                    "dimension": "time"}],
                       "metrics": [metric]}]}
    (tmp_path / "m.yml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    _, measure = load_model(tmp_path / "m.yml").measures["p90"]
    assert (measure.percentile, measure.discrete, measure.approximate) == (0.9, discrete,
                                                                           approximate)
