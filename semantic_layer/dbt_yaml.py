"""dbt YAML (one file or a folder, as dbt writes them) to the semantic-manifest shape.

dbt's schema files hold `semantic_models:` and `metrics:` next to `models:`, `sources:` and data
tests; only the first two are read. This is the small step dbt-core itself takes before
dbt-semantic-interfaces sees the objects: `model: ref('x')` becomes a `node_relation`, string
shorthands become objects, `meta` moves under `config`. Everything else (types, validations) is
dbt-semantic-interfaces' own (see `manifest.py`).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showwork.semantic_layer.dbt_latest import (
    has_semantic_model,
    is_latest,
    legacy_metric,
    semantic_model,
)

if TYPE_CHECKING:  # yaml loads where a file is read, not on import: a warm start reads none
    import yaml

SKIPPED_DIRS = {"target", "dbt_packages", "dbt_modules", "logs", "node_modules", "seeds"}
_REF = re.compile(r"""^\s*ref\(\s*(?:['"][^'"]+['"]\s*,\s*)?['"]([^'"]+)['"]\s*(?:,[^)]*)?\)\s*$""")
# keys dbt accepts that carry no meaning for the semantic layer
_DBT_ONLY = ("group", "tags", "docs", "deprecation_date")


@dataclass(frozen=True)
class Origin:
    """Where an object was defined: a file and, when known, the line it starts on."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass
class RawManifest:
    """Semantic models and metrics in the manifest's dict shape, with where each came from."""

    semantic_models: list[dict[str, Any]] = field(default_factory=list)
    metrics: list[dict[str, Any]] = field(default_factory=list)
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    """(kind, name) → origin, kind being 'semantic_model' or 'metric'."""
    problems: list[str] = field(default_factory=list)
    """Problems found while reading, each naming where it is."""
    skipped: list[str] = field(default_factory=list)
    """Objects read but not used (saved queries, exports), each naming where it is."""
    time_spines: list[dict[str, Any]] = field(default_factory=list)
    legacy_spines: list[dict[str, Any]] = field(default_factory=list)
    """Legacy time spines (a `metricflow_time_spine` model without YAML, a manifest's
    time_spine_table_configurations), in the time spines' shape: used for a grain no time
    spine has (MetricFlow's TimeSpineSource), by `with_legacy_spines`."""
    model_properties: dict[str, dict[str, Any]] = field(default_factory=dict)
    """dbt model name → its YAML properties (`models:` entries: config, columns, time_spine)."""
    source: str = ""
    """The file or folder read."""

    def origin(self, kind: str, name: str) -> Origin:
        return self.origins.get((kind, name), Origin(self.source))


def yaml_files(path: Path) -> list[Path]:
    """The YAML files of a dbt folder (or the one file), in a stable order."""
    if path.is_file():
        return [path]
    out = []
    for p in sorted(path.rglob("*")):
        parts = p.relative_to(path).parts
        if any(x.startswith(".") or x in SKIPPED_DIRS for x in parts[:-1]) or parts[-1].startswith("."):
            continue
        if p.suffix in (".yml", ".yaml") and p.is_file():
            out.append(p)
    return out


def read_dbt_yaml(path: Path, *more: Path) -> RawManifest:
    """Every semantic model and metric in the dbt YAML at `path` (a file or a folder) and the
    folders `more` (a dbt project's other model paths: dbt reads them all)."""
    raw = RawManifest(source=str(path))
    if not path.exists():
        raw.problems.append(f"{path}: no such file or folder")
        return raw
    folders = [path, *(p for p in more if p.is_dir())]
    for file in (f for folder in folders for f in yaml_files(folder)):
        _read_file(file, raw)
    _latest_metrics(raw)
    _proxy_metrics(raw)
    models = (m for folder in folders if folder.is_dir()
              for m in sorted(folder.rglob(f"{LEGACY_SPINE}.*")))
    for model in models:
        if model.suffix in (".sql", ".py") and model.stem not in {s.get("name")
                                                                  for s in raw.time_spines}:
            # dbt-core writes the model without time_spine config into the manifest as the
            # legacy time spine: its date_day column, by day
            raw.legacy_spines.append(legacy_spine(LEGACY_SPINE, "date_day", "day",
                                                  Origin(str(model))))
            break
    return with_legacy_spines(raw)


LEGACY_SPINE = "metricflow_time_spine"
"""The model dbt-core reads as the time spine when no YAML configures one (dbt's constants)."""


def legacy_spine(location: str, column: str, grain: str, origin: Origin) -> dict[str, Any]:
    """A legacy time spine (`schema.table` location, its day column) in the manifest's time
    spine shape; `$source_schema` (MetricFlow's test manifests) as the default schema."""
    parts = [p.strip('"`') for p in str(location).split(".")]
    schema = parts[-2] if len(parts) > 1 and not parts[-2].startswith("$") else ""
    return {"node_relation": {"alias": parts[-1], "schema_name": schema},
            "primary_column": {"name": column, "time_granularity": str(grain).lower()},
            "custom_granularities": [], "name": parts[-1], "origin": str(origin)}


def with_legacy_spines(raw: RawManifest) -> RawManifest:
    """The legacy time spines added for each grain no time spine has, as MetricFlow's
    TimeSpineSource adds them (once: they are consumed)."""
    for spine in raw.legacy_spines:
        grain = spine["primary_column"]["time_granularity"]
        if grain not in {s.get("primary_column", {}).get("time_granularity", "day")
                         for s in raw.time_spines if isinstance(s.get("primary_column"), dict)}:
            raw.time_spines.append(spine)
    raw.legacy_spines = []
    return raw


def _latest_metrics(raw: RawManifest) -> None:
    """Metrics written in dbt 1.12's spec (no type_params) in the legacy shape, their inputs
    naming the measures of the simple metrics they read (dbt_latest.py)."""
    simple = {m["name"]: m for m in raw.metrics
              if is_latest(m) and m.get("type", "simple") == "simple"}
    for i, metric in enumerate(raw.metrics):
        if is_latest(metric):
            raw.metrics[i] = legacy_metric(metric, simple)
            _metric(raw.metrics[i])  # its shorthands, as a legacy metric's


def _proxy_metrics(raw: RawManifest) -> None:
    """A measure with `create_metric: true` is also a simple metric of its name, as
    dbt-semantic-interfaces' transformations make it (unless a metric has that name)."""
    names = {m.get("name") for m in raw.metrics}
    for sm in raw.semantic_models:
        origin = raw.origin("semantic_model", sm["name"])
        for measure in sm.get("measures") or []:
            if isinstance(measure, dict) and measure.get("create_metric") is True and measure.get(
                    "name") not in names:
                name = measure["name"]
                raw.metrics.append({"name": name, "label": measure.get("label") or name,
                                    "type": "simple", "type_params": {"measure": name}})
                raw.origins[("metric", name)] = origin
                names.add(name)


def _read_file(file: Path, raw: RawManifest) -> None:
    import yaml

    try:
        text = file.read_text(encoding="utf-8")
        docs = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
        values = list(yaml.safe_load_all(text))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raw.problems.append(f"{file}: not readable YAML: {exc}")
        return
    for node, doc in zip(docs, values, strict=True):
        if not isinstance(doc, dict):
            continue
        lines = _item_lines(node)
        line = node.start_mark.line + 1
        # dbt-semantic-interfaces' own YAML (MetricFlow's test manifests): one object a document
        if isinstance(doc.get("semantic_model"), dict):
            _add(raw, "semantic_model", _relation(doc["semantic_model"]), Origin(str(file), line))
        if isinstance(doc.get("metric"), dict):
            _add(raw, "metric", doc["metric"], Origin(str(file), line))
        if isinstance(doc.get("saved_query"), dict):
            raw.skipped.append(f"{Origin(str(file), line)}: saved query "
                               f"{doc['saved_query'].get('name')!r} is not used by showwork")
        if _is_dbt_list(doc.get("semantic_models")):
            for i, item in enumerate(doc["semantic_models"]):
                _add(raw, "semantic_model", item, Origin(str(file), lines["semantic_models"].get(i)))
        if _is_dbt_list(doc.get("metrics")):
            for i, item in enumerate(doc["metrics"]):
                _add(raw, "metric", item, Origin(str(file), lines["metrics"].get(i)))
        for key, what in (("saved_queries", "saved query"), ("exports", "export")):
            for i, item in enumerate(doc.get(key) or []):
                name = item.get("name") if isinstance(item, dict) else None
                raw.skipped.append(f"{Origin(str(file), lines[key].get(i))}: {what} {name!r} is "
                                   "not used by showwork (not a metric)")
        for i, model in enumerate(doc.get("models") or []):
            if isinstance(model, dict) and isinstance(model.get("name"), str):
                raw.model_properties.setdefault(model["name"], model)
                if has_semantic_model(model):  # dbt 1.12's spec: on the model
                    origin = Origin(str(file), lines["models"].get(i))
                    sm, metrics = semantic_model(model)
                    _add(raw, "semantic_model", sm, origin)
                    for metric in metrics:
                        _add(raw, "metric", metric, origin)
            if isinstance(model, dict) and isinstance(model.get("time_spine"), dict):
                raw.time_spines.append(_dbt_time_spine(model, Origin(str(file), lines["models"].get(i))))
        config = doc.get("project_configuration")
        for spine in (config.get("time_spines") or []) if isinstance(config, dict) else []:
            if isinstance(spine, dict):  # dbt-semantic-interfaces' own YAML (MetricFlow's tests)
                raw.time_spines.append(_placed(spine, Origin(str(file), line)))
        legacy = config.get("time_spine_table_configurations") if isinstance(config, dict) else None
        for spine in legacy or []:
            if isinstance(spine, dict) and spine.get("location") and spine.get("column_name"):
                raw.legacy_spines.append(legacy_spine(spine["location"], spine["column_name"],
                                                      spine.get("grain") or "day",
                                                      Origin(str(file), line)))


def _dbt_time_spine(model: dict[str, Any], origin: Origin) -> dict[str, Any]:
    """dbt's `time_spine:` block on a model, in the manifest's shape (as dbt-core writes it into
    project_configuration.time_spines): the model is the relation, its standard granularity
    column the primary column (at the granularity its `columns:` entry gives, day by default)."""
    spine = model["time_spine"]
    column = spine.get("standard_granularity_column")
    grain = next((c.get("granularity") for c in model.get("columns") or []
                  if isinstance(c, dict) and c.get("name") == column), None)
    customs = [{"name": c.get("name"), "column_name": c.get("column_name")} if isinstance(c, dict)
               else c for c in spine.get("custom_granularities") or []]
    return {"node_relation": {"alias": model.get("name"), "schema_name": ""},
            "primary_column": {"name": column, "time_granularity": grain or "day"},
            "custom_granularities": customs, "name": model.get("name"), "origin": str(origin)}


def _placed(spine: dict[str, Any], origin: Origin) -> dict[str, Any]:
    """A manifest-shaped time spine with where it was read (its `$source_schema` placeholder as
    the warehouse's default schema, as for semantic models)."""
    relation = spine.get("node_relation")
    name = relation.get("alias") if isinstance(relation, dict) else None
    return dict(_relation(spine), name=name, origin=str(origin))


def _relation(sm: dict[str, Any]) -> dict[str, Any]:
    """A node_relation's `$source_schema` placeholder (MetricFlow's test manifests) as the
    warehouse's default schema."""
    relation = sm.get("node_relation")
    if isinstance(relation, dict) and str(relation.get("schema_name", "")).startswith("$"):
        return {**sm, "node_relation": {**relation, "schema_name": ""}}
    return sm


def _is_dbt_list(value: Any) -> bool:
    # a showwork governance file keys `metrics:` by name (a mapping); dbt lists them
    return isinstance(value, list)


def _item_lines(node: yaml.Node) -> dict[str, dict[int, int]]:
    """For each top-level list, the 1-based line each item starts on."""
    import yaml

    out: dict[str, dict[int, int]] = {k: {} for k in
                                      ("semantic_models", "metrics", "saved_queries", "exports", "models")}
    if not isinstance(node, yaml.MappingNode):
        return out
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value in out and isinstance(value, yaml.SequenceNode):
            out[key.value] = {i: item.start_mark.line + 1 for i, item in enumerate(value.value)}
    return out


def _add(raw: RawManifest, kind: str, item: Any, origin: Origin) -> None:
    what = kind.replace("_", " ")
    if not isinstance(item, dict):
        raw.problems.append(f"{origin}: a {what} must be a mapping, got {type(item).__name__}")
        return
    name = item.get("name")
    if not isinstance(name, str):
        raw.problems.append(f"{origin}: a {what} needs a name")
        return
    if (kind, name) in raw.origins:
        raw.problems.append(f"{origin}: {what} {name!r} is already defined at "
                            f"{raw.origins[(kind, name)]}")
        return
    obj = copy.deepcopy(item)
    if not _enabled(obj):
        return
    raw.origins[(kind, name)] = origin
    if kind == "semantic_model":
        problem = _semantic_model(obj)
        if problem:
            raw.problems.append(f"{origin}: semantic model {name!r}: {problem}")
            return
        raw.semantic_models.append(obj)
    else:
        _metric(obj)
        raw.metrics.append(obj)


def _enabled(obj: dict[str, Any]) -> bool:
    config = obj.get("config")
    return not (isinstance(config, dict) and config.get("enabled") is False)


def _config(obj: dict[str, Any]) -> None:
    """dbt's `meta` (top level or under config) as the manifest's `config: {meta: …}`."""
    meta = obj.pop("meta", None)
    config = obj.pop("config", None)
    for key in _DBT_ONLY:
        obj.pop(key, None)
    merged: dict[str, Any] = {}
    if isinstance(config, dict):
        merged.update(config.get("meta") or {})
    if isinstance(meta, dict):
        merged.update(meta)
    if merged or isinstance(config, dict):
        obj["config"] = {"meta": merged}


def _semantic_model(sm: dict[str, Any]) -> str | None:
    model = sm.pop("model", None)
    if "node_relation" not in sm:
        match = _REF.match(model) if isinstance(model, str) else None
        if not match:
            return f"model: expected ref('<dbt model>'), got {model!r}"
        table = match.group(1)
        sm["node_relation"] = {"alias": table, "schema_name": "", "relation_name": table}
    _config(sm)
    for key in ("entities", "dimensions", "measures"):
        for element in sm.get(key) or []:
            if isinstance(element, dict):
                _config(element)
    return None


def _metric(m: dict[str, Any]) -> None:
    _config(m)
    if isinstance(m.get("type"), str):
        m["type"] = m["type"].lower()
    params = m.get("type_params")
    if not isinstance(params, dict):
        return
    for key in ("numerator", "denominator"):
        if isinstance(params.get(key), str):
            params[key] = {"name": params[key]}
    if isinstance(params.get("metrics"), list):
        params["metrics"] = [{"name": x} if isinstance(x, str) else x for x in params["metrics"]]
    cumulative = params.get("cumulative_type_params")
    if isinstance(cumulative, dict) and isinstance(cumulative.get("metric"), str):
        cumulative["metric"] = {"name": cumulative["metric"]}
