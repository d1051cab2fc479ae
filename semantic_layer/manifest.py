"""A semantic manifest, read and validated with dbt-semantic-interfaces, as showwork's model.

dbt YAML goes through `dbt_yaml.py` first; a dbt `target/semantic_manifest.json` is read as is.
Both are parsed with dbt-semantic-interfaces' pydantic types and checked with its
`SemanticManifestValidator`; every MetricFlow feature showwork does not support yet is then a
problem naming the file, the object and the feature — never silently dropped.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from showwork.semantic_layer.dbt_yaml import Origin, RawManifest, legacy_spine, with_legacy_spines
from showwork.semantic_layer.errors import ModelError, UnsupportedFeature
from showwork.semantic_layer.model import (
    AGGREGATIONS,
    GRAINS,
    Conversion,
    Dimension,
    Entity,
    Measure,
    Metric,
    MetricInput,
    Offset,
    PointInTime,
    SemanticModel,
    TimeSpine,
)

log = structlog.get_logger(__name__)


def read_manifest_json(path: Path) -> RawManifest:
    """A dbt `semantic_manifest.json` as a RawManifest (objects are already in manifest shape)."""
    raw = RawManifest(source=str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raw.problems.append(f"{path}: not a readable semantic manifest: {exc}")
        return raw
    if not isinstance(data, dict):
        raw.problems.append(f"{path}: a semantic manifest is a JSON object")
        return raw
    for kind, key in (("semantic_model", "semantic_models"), ("metric", "metrics")):
        for obj in data.get(key) or []:
            name = obj.get("name") if isinstance(obj, dict) else None
            if isinstance(name, str):
                raw.origins[(kind, name)] = Origin(str(path))
                getattr(raw, key).append(obj)
    for q in data.get("saved_queries") or []:
        raw.skipped.append(f"{path}: saved query {q.get('name')!r} is not used by showwork (not a metric)")
    config = data.get("project_configuration") or {}
    for spine in config.get("time_spines") or []:
        name = (spine.get("node_relation") or {}).get("alias")
        raw.time_spines.append(dict(spine, name=name, origin=str(path)))
    for spine in config.get("time_spine_table_configurations") or []:
        if isinstance(spine, dict) and spine.get("location") and spine.get("column_name"):
            raw.legacy_spines.append(legacy_spine(spine["location"], spine["column_name"],
                                                  spine.get("grain") or "day", Origin(str(path))))
    return with_legacy_spines(raw)


# -- dbt-semantic-interfaces ------------------------------------------------------------------
def to_dsi(raw: RawManifest, check_shape: bool) -> Any:
    """Parse with dbt-semantic-interfaces and run its validations; ModelError on any error."""
    from dbt_semantic_interfaces.errors import ParsingException
    from dbt_semantic_interfaces.implementations.metric import PydanticMetric
    from dbt_semantic_interfaces.implementations.project_configuration import (
        PydanticProjectConfiguration,
    )
    from dbt_semantic_interfaces.implementations.semantic_manifest import PydanticSemanticManifest
    from dbt_semantic_interfaces.implementations.semantic_model import PydanticSemanticModel
    from dbt_semantic_interfaces.parsing.schemas import metric_validator, semantic_model_validator
    from jsonschema.exceptions import ValidationError as JsonSchemaError
    from pydantic.v1 import ValidationError as V1ValidationError

    problems = list(raw.problems)
    parsed: dict[str, list[Any]] = {"semantic_models": [], "metrics": []}
    kinds = (("semantic_model", "semantic_models", semantic_model_validator, PydanticSemanticModel),
             ("metric", "metrics", metric_validator, PydanticMetric))
    for kind, key, validator, cls in kinds:
        for obj in getattr(raw, key):
            where = f"{raw.origin(kind, obj['name'])}: {kind.replace('_', ' ')} {obj['name']!r}"
            try:
                if check_shape:
                    validator.validate(_schema_view(obj))
                parsed[key].append(cls.parse_obj(_with_metadata(obj, raw.origin(kind, obj["name"]))))
            except (JsonSchemaError, V1ValidationError, ParsingException, ValueError) as exc:
                problems.append(f"{where}: {_first_line(exc)}")
    spines = _time_spines(raw, problems)
    if problems:
        raise ModelError(problems)
    manifest = PydanticSemanticManifest(
        semantic_models=parsed["semantic_models"], metrics=parsed["metrics"],
        project_configuration=PydanticProjectConfiguration(time_spines=spines))
    _validate(manifest, raw)
    return manifest


def _time_spines(raw: RawManifest, problems: list[str]) -> list[Any]:
    """The project's time spines as dbt-semantic-interfaces' types: its validations read the
    custom granularities they define (`offset_window: 1 fiscal_quarter`)."""
    from dbt_semantic_interfaces.implementations.time_spine import PydanticTimeSpine
    from pydantic.v1 import ValidationError as V1ValidationError

    out = []
    for spine in raw.time_spines:
        body = {k: v for k, v in spine.items() if k not in ("name", "origin")}
        relation = body.get("node_relation")
        if isinstance(relation, dict):
            body["node_relation"] = {"schema_name": "", **relation}
        try:
            out.append(PydanticTimeSpine.parse_obj(body))
        except (V1ValidationError, ValueError) as exc:
            problems.append(f"{spine.get('origin')}: time spine {spine.get('name')!r}: "
                            f"{_first_line(exc)}")
    return out


_DOCUMENTATION = ("description", "label", "config")
"""Keys dbt accepts on every element (dbt-core's own schema) that the YAML schema of
dbt-semantic-interfaces lacks on some (an entity's description); its pydantic types read them."""


def _schema_view(obj: Any) -> Any:
    """The object as the YAML schema is asked about it: without documentation keys on its
    entities, dimensions and measures (the pydantic parse still reads them)."""
    if not isinstance(obj, dict):
        return obj
    out = dict(obj)
    for key in ("entities", "dimensions", "measures"):
        if isinstance(out.get(key), list):
            out[key] = [{k: v for k, v in e.items() if k not in _DOCUMENTATION}
                        if isinstance(e, dict) else e for e in out[key]]
    return out


def _with_metadata(obj: dict[str, Any], origin: Origin) -> dict[str, Any]:
    """The object with dbt-semantic-interfaces' file context, so its messages can say where."""
    if obj.get("metadata"):
        return obj
    line = origin.line or 1
    return {**obj, "metadata": {"repo_file_path": origin.file, "file_slice": {
        "filename": os.path.basename(origin.file), "content": "", "start_line_number": line,
        "end_line_number": line}}}


def _first_line(exc: Exception) -> str:
    text = getattr(exc, "message", None) or str(exc)
    path = getattr(exc, "absolute_path", None)
    where = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in path or ()).replace(".[", "[")
    first = " ".join(str(text).split())
    return f"{where}: {first}" if where else first


def _validate(manifest: Any, raw: RawManifest) -> None:
    from dbt_semantic_interfaces.validations.semantic_manifest_validator import (
        SemanticManifestValidator,
    )
    from dbt_semantic_interfaces.validations.validator_helpers import ValidationIssueLevel

    results = SemanticManifestValidator[Any]().validate_semantic_manifest(manifest)
    problems = []
    for issue in results.all_issues:
        message = " ".join(issue.message.split(" Traceback:")[0].split())
        text = f"{_context(issue, raw)}{message}"
        if issue.level is ValidationIssueLevel.ERROR:
            problems.append(text)
        else:
            log.warning("semantic model warning", issue=text)
    if problems:
        raise ModelError(problems)


def _context(issue: Any, raw: RawManifest) -> str:
    ctx = issue.context
    metric = getattr(getattr(ctx, "metric", None), "metric_name", None)
    if metric:
        return f"{raw.origin('metric', metric)}: metric {metric!r}: "
    sm = getattr(getattr(ctx, "semantic_model", None), "semantic_model_name", None)
    element = getattr(ctx, "semantic_model_element", None)
    if element is not None:
        sm = element.semantic_model_name
        return (f"{raw.origin('semantic_model', sm)}: semantic model {sm!r}, "
                f"{element.element_name!r}: ")
    if sm:
        return f"{raw.origin('semantic_model', sm)}: semantic model {sm!r}: "
    return f"{raw.source}: "


# -- showwork's model -------------------------------------------------------------------------
class _Problems:
    def __init__(self) -> None:
        self.items: list[str] = []
        self.scope: tuple[str, str] | None = None
        """("metric" or "measure", name) while one is converted: what it uses that showwork
        cannot compute makes it unqueryable, not the manifest unloadable."""
        self.deferred: dict[tuple[str, str], list[str]] = {}

    def unsupported(self, where: str, feature: str, hint: str = "") -> None:
        hint = f" ({hint})" if hint else ""
        if self.scope is None:
            self.items.append(f"{where}: {feature} is not supported yet{hint}")
        else:  # the feature first: it is what a refusal is about
            self.deferred.setdefault(self.scope, []).append(
                f"{feature} is not supported yet{hint}, at {where}")

    def reasons(self, kind: str) -> dict[str, str]:
        return {name: "; ".join(texts) for (k, name), texts in self.deferred.items() if k == kind}


@dataclass(frozen=True)
class Converted:
    """showwork's model of a validated manifest."""

    models: tuple[SemanticModel, ...]
    metrics: tuple[Metric, ...]
    """The metrics showwork can compute."""
    time_spines: tuple[TimeSpine, ...]
    unsupported: tuple[tuple[str, str], ...]
    """(metric, why not) for the metrics it cannot compute yet: they load, and are refused when
    asked for."""


def convert(manifest: Any, raw: RawManifest) -> Converted:
    """showwork's model of a validated manifest; UnsupportedFeature names each feature of a
    semantic model it cannot read yet. A metric using a feature it cannot compute yet (a
    conversion metric, an offset by a custom granularity, …) loads as unsupported, with the
    feature named."""
    problems = _Problems()
    models = tuple(_semantic_model(sm, raw, problems) for sm in manifest.semantic_models)
    metrics = []
    for m in manifest.metrics:
        problems.scope = ("metric", m.name)
        metrics.append(_metric(m, raw, problems))
    problems.scope = None
    metrics += _proxy_metrics(manifest, raw, {m.name for m in metrics})
    if problems.items:
        raise UnsupportedFeature(problems.items)
    for line in raw.skipped:
        log.warning("not used", detail=line)
    reasons = unqueryable(metrics, problems.reasons("metric"), problems.reasons("measure"))
    for reason in reasons.values():
        log.warning("not queryable", detail=reason)
    return Converted(models, tuple(m for m in metrics if m.name not in reasons),
                     _spines(manifest), tuple(sorted(reasons.items())))


def unqueryable(metrics: list[Metric], reasons: dict[str, str], measures: dict[str, str]
                ) -> dict[str, str]:
    """Metric → why showwork cannot compute it: a feature of its own (`reasons`), of its
    measure (`measures`), or of a metric it is computed from."""
    reasons = dict(reasons)
    changed = True
    while changed:
        changed = False
        for m in metrics:
            if m.name in reasons:
                continue
            why = (f"its measure {m.measure!r}: {measures[m.measure]}" if m.measure in measures
                   else next((f"its input metric {i.name!r}: {reasons[i.name]}"
                              for i in m.input_metrics if i.name in reasons), None))
            if why:
                reasons[m.name], changed = why, True
    return reasons


def _spines(manifest: Any) -> tuple[TimeSpine, ...]:
    out = []
    for s in manifest.project_configuration.time_spines:
        relation = s.node_relation
        out.append(TimeSpine(
            table=relation.alias, schema=relation.schema_name or None, column=s.primary_column.name,
            grain=s.primary_column.time_granularity.value,
            custom=tuple((c.name, c.column_name or c.name) for c in s.custom_granularities)))
    return tuple(out)


def _semantic_model(sm: Any, raw: RawManifest, problems: _Problems) -> SemanticModel:
    origin = raw.origin("semantic_model", sm.name)
    where = f"{origin}: semantic model {sm.name!r}"
    entities = []
    for e in sm.entities:
        if getattr(e, "role", None):
            problems.unsupported(f"{where}, entity {e.name!r}", "an entity role")
        entities.append(Entity(e.name, e.type.value, _expr(e.expr, e.name)))
    dims = tuple(_dimension(d, f"{where}, dimension {d.name!r}", problems) for d in sm.dimensions)
    default_time = sm.defaults.agg_time_dimension if sm.defaults else None
    measures = []
    for m in sm.measures:
        problems.scope = ("measure", m.name)
        measures.append(_measure(m, sm.name, default_time, f"{where}, measure {m.name!r}", problems))
    problems.scope = None
    primary = sm.primary_entity or next((e.name for e in entities if e.type == "primary"), None)
    relation = sm.node_relation
    return SemanticModel(
        name=sm.name, table=relation.alias, entities=tuple(entities), dimensions=dims,
        measures=tuple(measures), agg_time_dimension=default_time, primary_entity=primary,
        origin=origin, description=sm.description,
        schema=relation.schema_name or None)


def _expr(expr: Any, name: str) -> str:
    if expr is None:
        return name
    if isinstance(expr, bool):
        return "TRUE" if expr else "FALSE"
    return str(expr).strip()


def _dimension(d: Any, where: str, problems: _Problems) -> Dimension:
    params = d.type_params
    granularity = None
    validity = None
    if params is not None:
        granularity = params.time_granularity.value
        bounds = params.validity_params
        validity = "start" if bounds and bounds.is_start else "end" if bounds and bounds.is_end else None
    meta = (d.config.meta if d.config else {}) or {}
    return Dimension(name=d.name, type=d.type.value, expr=_expr(d.expr, d.name),
                     granularity=granularity, label=d.label, description=d.description,
                     meta=dict(meta.get("showwork") or {}), is_partition=bool(d.is_partition),
                     validity=validity)


def _measure(m: Any, sm_name: str, default_time: str | None, where: str,
             problems: _Problems) -> Measure:
    agg = m.agg.value
    if agg not in AGGREGATIONS:
        problems.unsupported(where, f"aggregation {agg!r}", f"supported: {', '.join(AGGREGATIONS)}")
    params = m.agg_params
    percentile, discrete = (0.5, False) if agg == "median" else (None, False)
    approximate = False
    if params is not None and agg == "percentile":
        percentile, discrete = params.percentile, params.use_discrete_percentile
        approximate = bool(params.use_approximate_percentile)
    meta = ((m.config.meta if m.config else {}) or {}).get("showwork") or {}
    nad = None
    if m.non_additive_dimension is not None:
        n = m.non_additive_dimension
        nad = PointInTime(n.name, n.window_choice.value, as_of=bool(meta.get("as_of")),
                          valid_to=meta.get("valid_to"), window_groupings=tuple(n.window_groupings))
        if nad.showwork and nad.window_groupings:
            problems.unsupported(where, "window_groupings with showwork's as_of or valid_to")
    unknown = set(meta) - {"as_of", "valid_to"}
    if unknown:
        problems.items.append(f"{where}: config.meta.showwork: unknown keys {', '.join(sorted(unknown))}; "
                              "a measure takes as_of and valid_to")
    return Measure(name=m.name, agg=agg, expr=_expr(m.expr, m.name), semantic_model=sm_name,
                   agg_time_dimension=m.agg_time_dimension or default_time or "",
                   percentile=percentile, discrete=discrete, approximate=approximate,
                   non_additive=nad)


def _offset(window: Any, where: str, problems: _Problems) -> Offset | None:
    if window is None:
        return None
    grain = _grain(window.granularity)
    if grain not in GRAINS:
        problems.unsupported(where, f"a window of {window.count} {window.granularity}",
                             f"grains: {', '.join(GRAINS)}")
        return None
    return Offset(window.count, grain)


def _grain(text: str | None) -> str:
    g = (text or "").lower()
    return g[:-1] if g.endswith("s") and g[:-1] in GRAINS else g


def _filters(f: Any) -> tuple[str, ...]:
    return tuple(w.where_sql_template.strip() for w in f.where_filters) if f else ()


def _input(i: Any, where: str, problems: _Problems, offsets: bool) -> MetricInput:
    offset = _offset(i.offset_window, f"{where}, input {i.name!r}", problems) \
        if getattr(i, "offset_window", None) else None
    to_grain = _grain(getattr(i, "offset_to_grain", None)) or None
    if to_grain and to_grain not in GRAINS:
        problems.unsupported(f"{where}, input {i.name!r}", f"offset_to_grain {to_grain!r}")
    if (offset or to_grain) and not offsets:
        problems.unsupported(f"{where}, input {i.name!r}",
                             "an offset on a ratio input (use a derived metric)")
    return MetricInput(i.name, _filters(i.filter), i.alias, offset, to_grain)


def _metric(m: Any, raw: RawManifest, problems: _Problems) -> Metric:
    origin = raw.origin("metric", m.name)
    where = f"{origin}: metric {m.name!r}"
    kind = m.type.value
    p = m.type_params
    fields: dict[str, Any] = {}
    if kind == "conversion":
        fields["conversion"] = _conversion(p.conversion_type_params, raw, where, problems)
        fields["measure"] = fields["conversion"].base_measure if fields["conversion"] else None
    default_grain = _grain(m.time_granularity) or None
    if default_grain and default_grain not in GRAINS:
        problems.unsupported(where, f"a default time_granularity {m.time_granularity!r}",
                             f"grains: {', '.join(GRAINS)}")
    inner = [f for i in (p.metrics or ()) for f in _filters(i.filter)] if kind == "derived" else []
    if default_grain and any(_BARE_METRIC_TIME.search(f) for f in [*_filters(m.filter), *inner]):
        problems.unsupported(where, "a metric_time filter without a grain on a metric with a "
                             "default time_granularity (MetricFlow reads it at that grain)")
    fields["time_granularity"] = default_grain
    for flag in ("join_to_timespine", "fill_nulls_with"):
        values = [getattr(p, flag, None), getattr(p.measure, flag, None) if p.measure else None]
        value = next((v for v in values if v is not None and v is not False), None)
        if value is None:
            continue
        if kind not in ("simple", "cumulative"):
            problems.unsupported(where, f"{flag} on a {kind} metric")
        fields[flag] = value if flag == "fill_nulls_with" else bool(value)
    filters = _filters(m.filter)
    if kind in ("simple", "cumulative"):
        cumulative = p.cumulative_type_params
        measure = p.measure.name if p.measure else None
        if measure is None and cumulative is not None and cumulative.metric is not None:
            fields["inputs"] = (_input(cumulative.metric, where, problems, offsets=False),)
        if p.measure is not None:
            filters += _filters(p.measure.filter)
        if measure is None and "inputs" not in fields:
            problems.unsupported(where, "a metric without a measure (agg on the metric itself)",
                                 "name a measure in type_params.measure")
        fields["measure"] = measure
    if kind == "cumulative":
        c = p.cumulative_type_params
        fields["window"] = _offset((c.window if c else None) or p.window, where, problems)
        g2d = (c.grain_to_date if c else None) or (p.grain_to_date.value if p.grain_to_date else None)
        fields["grain_to_date"] = _grain(g2d) or None
        if fields["grain_to_date"] and fields["grain_to_date"] not in GRAINS:
            problems.unsupported(where, f"grain_to_date {g2d!r}")
        period_agg = c.period_agg.value if c else "first"
        if period_agg not in ("first", "last"):
            problems.unsupported(where, f"period_agg {period_agg!r}", "first and last are")
        fields["period_agg"] = period_agg
    if kind == "ratio":
        fields["numerator"] = _input(p.numerator, where, problems, offsets=False)
        fields["denominator"] = _input(p.denominator, where, problems, offsets=False)
    if kind == "derived":
        fields["expr"] = str(p.expr)
        fields["inputs"] = tuple(_input(i, where, problems, offsets=True) for i in p.metrics or ())
    return Metric(name=m.name, type=kind, label=m.label or m.name.replace("_", " "), origin=origin,
                  description=m.description or None, filters=filters, **fields)


def _conversion(c: Any, raw: RawManifest, where: str, problems: _Problems) -> Conversion | None:
    """A conversion metric's parameters, its inputs as measures (a simple metric named as
    base_metric or conversion_metric reads its measure). None when unsupported (named)."""
    sides: list[str] = []
    fills: list[int | float | None] = []
    for side in ("base", "conversion"):
        measure, metric = getattr(c, f"{side}_measure", None), getattr(c, f"{side}_metric", None)
        if measure is None and metric is not None:
            problems.unsupported(where, f"{side}_metric on a conversion metric",
                                 f"name a measure in {side}_measure")
            return None
        if measure is None:
            problems.unsupported(where, f"a conversion metric without a {side}_measure")
            return None
        if measure.filter:
            problems.unsupported(where, f"a filter on the {side}_measure of a conversion metric")
            return None
        sides.append(measure.name)
        fills.append(getattr(measure, "fill_nulls_with", None))
    spined = [bool(getattr(m, "join_to_timespine", False))
              for m in (c.base_measure, c.conversion_measure)]
    window = _offset(c.window, where, problems) if c.window else None
    props = tuple((p.base_property, p.conversion_property) for p in c.constant_properties or ())
    return Conversion(sides[0], sides[1], c.entity, c.calculation.value, window, props,
                      base_fill=fills[0], conversion_fill=fills[1], base_spined=spined[0],
                      conversion_spined=spined[1])


_BARE_METRIC_TIME = re.compile(r"TimeDimension\(\s*['\"]metric_time['\"]\s*\)")


def _proxy_metrics(manifest: Any, raw: RawManifest, names: set[str]) -> list[Metric]:
    """MetricFlow's `create_metric: true`: a simple metric named after the measure."""
    out = []
    for sm in manifest.semantic_models:
        for m in sm.measures:
            if m.create_metric and m.name not in names:
                out.append(Metric(name=m.name, type="simple", label=m.label or m.name.replace("_", " "),
                                  origin=raw.origin("semantic_model", sm.name),
                                  description=m.description, measure=m.name))
    return out
