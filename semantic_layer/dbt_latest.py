"""dbt's latest semantic-layer spec (dbt Core 1.12, the Fusion engine) in the legacy manifest shape.

In the latest spec a model's `models:` entry carries its semantic model: `semantic_model:
{enabled: true}`, entities and dimensions on its `columns:` (or in `derived_semantics:`),
`agg_time_dimension` and `primary_entity` beside them, and its metrics in `metrics:` with no
`type_params` (a simple metric names its own `agg` and `expr`: there are no measures). Metrics
that combine metrics of several models stay in a top-level `metrics:` list, in the same form.

dbt-core's own parser (`parse_v2_semantic_model_from_dbt_model_patch`) builds the semantic model
the same way: a dimension or entity named otherwise than its column reads the column (`expr`), a
time dimension's grain is the column's `granularity`. Each simple metric here becomes a measure of
its model named after it, and the metric reads that measure (its fill_nulls_with and
join_to_timespine as the measure input's, as the legacy spec wrote them); every other kind names
the simple metrics' measures where the legacy spec named measures (a cumulative metric's
`input_metric`, a conversion's `base_metric` and `conversion_metric`). What follows is the legacy
spec's own reading (dbt_yaml.py, manifest.py).
"""

from __future__ import annotations

from typing import Any

_ELEMENT_KEYS = ("description", "label", "config", "meta")
_MEASURE_KEYS = ("agg", "expr", "agg_time_dimension", "description", "label", "config", "meta")
_INPUT_KEYS = ("fill_nulls_with", "join_to_timespine")
_CUMULATIVE_KEYS = ("window", "grain_to_date", "period_agg")
_CONVERSION_KEYS = ("entity", "calculation", "window", "constant_properties")
LATEST_KEYS = ("agg", "numerator", "denominator", "input_metrics", "input_metric", "base_metric",
               "conversion_metric")
"""Keys only a latest-spec metric has at its top level (the legacy spec nests them in
type_params)."""


def has_semantic_model(model: dict[str, Any]) -> bool:
    """A `models:` entry that declares a semantic model (`semantic_model: true` or
    `{enabled: true}`)."""
    sm = model.get("semantic_model")
    return sm is True or (isinstance(sm, dict) and sm.get("enabled") is True)


def is_latest(metric: dict[str, Any]) -> bool:
    """A metric written in the latest spec: no type_params, its parameters at the top level."""
    return "type_params" not in metric and any(k in metric for k in LATEST_KEYS)


def semantic_model(model: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A `models:` entry's semantic model in the legacy shape (`model: ref(...)`, entities,
    dimensions, a measure for each simple metric) and its metrics, still in the latest spec."""
    sm_config = model["semantic_model"] if isinstance(model["semantic_model"], dict) else {}
    columns = [c for c in model.get("columns") or [] if isinstance(c, dict) and c.get("name")]
    derived = model.get("derived_semantics") or {}
    metrics = [m for m in model.get("metrics") or [] if isinstance(m, dict)]
    out: dict[str, Any] = {
        "name": sm_config.get("name") or model["name"],
        "model": f"ref('{model['name']}')",
        "entities": [*(_column_entity(c) for c in columns if c.get("entity")),
                     *(dict(e) for e in derived.get("entities") or [] if isinstance(e, dict))],
        "dimensions": [*(_column_dimension(c) for c in columns if c.get("dimension")),
                       *(_derived_dimension(d) for d in derived.get("dimensions") or []
                         if isinstance(d, dict))],
        "measures": [_measure(m) for m in metrics if m.get("type", "simple") == "simple"],
    }
    if model.get("description"):
        out["description"] = model["description"]
    if model.get("agg_time_dimension"):
        out["defaults"] = {"agg_time_dimension": model["agg_time_dimension"]}
    if model.get("primary_entity"):
        out["primary_entity"] = model["primary_entity"]
    if isinstance(sm_config.get("config"), dict):
        out["config"] = sm_config["config"]
    return out, metrics


def _column_entity(column: dict[str, Any]) -> dict[str, Any]:
    entity = column["entity"]
    if isinstance(entity, str):  # `entity: primary`: named after the column
        return {"name": column["name"], "type": entity}
    out = {k: entity[k] for k in ("type", *_ELEMENT_KEYS, "role") if k in entity}
    out["name"] = entity.get("name") or column["name"]
    if out["name"] != column["name"]:
        out["expr"] = column["name"]
    return out


def _column_dimension(column: dict[str, Any]) -> dict[str, Any]:
    dimension = column["dimension"]
    if isinstance(dimension, str):  # `dimension: categorical`
        dimension = {"type": dimension}
    out = {k: dimension[k] for k in ("type", *_ELEMENT_KEYS, "is_partition") if k in dimension}
    out.setdefault("description", column.get("description"))
    out = {k: v for k, v in out.items() if v is not None}
    out["name"] = dimension.get("name") or column["name"]
    if out["name"] != column["name"]:
        out["expr"] = column["name"]
    return _time_params(out, column.get("granularity"), dimension.get("validity_params"))


def _derived_dimension(dimension: dict[str, Any]) -> dict[str, Any]:
    out = {k: dimension[k] for k in ("name", "type", "expr", *_ELEMENT_KEYS, "is_partition")
           if k in dimension}
    return _time_params(out, dimension.get("granularity"), dimension.get("validity_params"))


def _time_params(out: dict[str, Any], grain: Any, validity: Any) -> dict[str, Any]:
    """A time dimension's grain (the column's `granularity`) as the legacy type_params."""
    if grain is not None:
        out["type_params"] = {"time_granularity": grain}
        if isinstance(validity, dict):
            out["type_params"]["validity_params"] = validity
    return out


def _measure(metric: dict[str, Any]) -> dict[str, Any]:
    """A simple metric's aggregation as the measure it reads (named after it)."""
    out = {k: metric[k] for k in _MEASURE_KEYS if k in metric}
    out["name"] = metric["name"]
    params: dict[str, Any] = {}
    if "percentile" in metric:
        params["percentile"] = metric["percentile"]
    # as dbt-core 1.12 reads `percentile_type` (schema_yaml_readers.py): `discrete` is the exact
    # discrete percentile, `continuous` the approximate continuous one, none the exact continuous
    kind = str(metric.get("percentile_type") or "").lower()
    if kind == "discrete":
        params["use_discrete_percentile"] = True
    if kind == "continuous":
        params["use_approximate_percentile"] = True
    if params:
        out["agg_params"] = params
    nad = metric.get("non_additive_dimension")
    if isinstance(nad, dict):
        out["non_additive_dimension"] = {
            "name": nad.get("name"), "window_choice": nad.get("window_agg", nad.get("window_choice")),
            "window_groupings": nad.get("group_by", nad.get("window_groupings")) or []}
    return out


def legacy_metric(metric: dict[str, Any], simple: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A latest-spec metric in the legacy shape (type_params). `simple`: every simple metric of
    the project by name, whose measure (its own name) another metric's input reads."""
    kind = str(metric.get("type", "simple")).lower()
    out = {k: v for k, v in metric.items()
           if k in ("name", "label", "description", "filter", "config", "meta",
                    "time_granularity")}
    out["type"] = kind
    params: dict[str, Any] = {}
    if kind == "simple":
        params["measure"] = _input(metric, metric["name"])
    elif kind == "ratio":
        params.update({k: metric[k] for k in ("numerator", "denominator") if k in metric})
    elif kind == "derived":
        params["expr"] = metric.get("expr")
        params["metrics"] = metric.get("input_metrics") or []
    elif kind == "cumulative":
        name = _name(metric.get("input_metric"))
        source = simple.get(name or "")
        params["measure"] = _input(source or {}, name)
        if source and source.get("filter"):  # the input metric's filter reads its rows
            out["filter"] = [*_filters(out.get("filter")), *_filters(source["filter"])]
        params["cumulative_type_params"] = {k: metric[k] for k in _CUMULATIVE_KEYS if k in metric}
    elif kind == "conversion":
        c = {k: metric[k] for k in _CONVERSION_KEYS if k in metric}
        for side in ("base", "conversion"):
            name = _name(metric.get(f"{side}_metric"))
            source = simple.get(name or "")
            c[f"{side}_measure"] = _input(source or {}, name)
            if source and source.get("filter"):
                c[f"{side}_measure"]["filter"] = source["filter"]
        params["conversion_type_params"] = c
    out["type_params"] = params
    return out


def _input(metric: dict[str, Any], name: str | None) -> dict[str, Any]:
    """The measure input of a simple metric (its name), with its fill and spine join."""
    return {"name": name, **{k: metric[k] for k in _INPUT_KEYS if metric.get(k) is not None}}


def _name(value: Any) -> str | None:
    return value.get("name") if isinstance(value, dict) else value


def _filters(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value] if value else []
