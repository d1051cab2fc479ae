"""A project's semantic model: dbt YAML or a semantic manifest, plus governance, assembled.

`load_project` takes a showwork project (a folder with showwork.yaml, or the file), a dbt project
(a folder with dbt_project.yml, or the file: its model paths), a folder or file of dbt YAML, or a
dbt `target/semantic_manifest.json`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import sqlglot
import yaml

from showwork.semantic_layer.dbt_project import is_dbt_project, place, read_dbt_project
from showwork.semantic_layer.dbt_yaml import RawManifest, read_dbt_yaml
from showwork.semantic_layer.errors import ModelError, SemanticError
from showwork.semantic_layer.governance import (
    CoverageSpec,
    DimensionGovernance,
    ExactEdge,
    Governance,
    InfluenceEdge,
    MetricGovernance,
    MetricTree,
    merged,
    meta_block,
    read_governance,
)
from showwork.semantic_layer.manifest import convert, read_manifest_json, to_dsi
from showwork.semantic_layer.model import GRAINS, Coverage, Metric, SemanticModel, SemanticModelFile
from showwork.semantic_layer.results import MAX_MEMBER, citable
from showwork.semantic_layer.tree import with_model_edges
from showwork.semantic_layer.windows import UNKNOWN_DAY

PROJECT_FILE = "showwork.yaml"


def load_project(path: Path, governance: Path | None = None, as_of: dt.date | None = None,
                 database: Path | None = None) -> SemanticModelFile:
    settings: dict[str, Any] = {}
    dbt_root: Path | None = None
    if path.is_dir() and (path / PROJECT_FILE).is_file():
        path = path / PROJECT_FILE
    elif is_dbt_project(path):  # a dbt project as it is: its model paths, no showwork.yaml
        dbt_root = path if path.is_dir() else path.parent
        path = read_dbt_project(path).semantic_source()
    if path.name in (PROJECT_FILE, "showwork.yml"):
        settings = _read_settings(path)
        base = path.parent
        dbt_root = base if is_dbt_project(base) else None
        path = (base / str(settings["semantic_models"]) if settings.get("semantic_models") else
                read_dbt_project(base).semantic_source() if is_dbt_project(base) else
                base / "models")
        if governance is None and settings.get("governance"):
            governance = base / str(settings["governance"])
        as_of = as_of or _day(settings.get("as_of"), path)
    dbt = read_dbt_project(dbt_root) if dbt_root is not None else None
    raw = read_manifest_json(path) if path.suffix == ".json" else read_dbt_yaml(
        path, *(dbt.other_model_paths(path) if dbt else ()))
    if dbt is not None:  # ref() where dbt builds the model for the profile's target
        place(raw, dbt, settings.get("warehouse"))
    if not raw.semantic_models and not raw.problems:
        raw.problems.append(f"{path}: no semantic_models found (dbt YAML with semantic_models: "
                            "and metrics:, or a target/semantic_manifest.json)")
    dsi = to_dsi(raw, check_shape=path.suffix != ".json")
    converted = convert(dsi, raw)
    gov = read_governance(governance) if governance else Governance()
    gov = _without(gov, {name for name, _ in converted.unsupported})
    source = str(governance) if governance else "governance"
    model = assemble(converted.models, converted.metrics, gov, dsi, raw, as_of, source)
    model = _withdrawn(replace(model, time_spines=converted.time_spines,
                               name=str(settings.get("name") or (dbt.name if dbt else ""))),
                       converted.unsupported)
    if database is not None:
        from showwork.semantic_layer.infer import infer_from_duckdb

        model = infer_from_duckdb(model, database)
    return model


def withdraw(model: SemanticModelFile, reasons: dict[str, str]) -> SemanticModelFile:
    """The model without more metrics (each refused when asked, by its reason), and what is
    computed from them."""
    return _withdrawn(model, (*model.unsupported, *reasons.items()))


def _withdrawn(model: SemanticModelFile, unsupported: tuple[tuple[str, str], ...]
               ) -> SemanticModelFile:
    """The model without the metrics showwork cannot compute yet (those `convert` found, and
    those whose filter uses what it does not support, e.g. a metric in a filter), each kept in
    `unsupported` with its reason, with the tree edges through them."""
    from showwork.semantic_layer.manifest import unqueryable

    reasons = dict(unsupported)
    for m in model.metrics:
        why = _filter_refusal(model, m)
        if why:
            reasons[m.name] = why
    if not reasons:
        return model
    reasons = unqueryable(list(model.metrics), reasons, {})
    kept = tuple(m for m in model.metrics if m.name not in reasons)
    names = {m.name for m in kept}
    tree = MetricTree(
        exact=[e for e in model.metric_tree.exact if {e.parent, *e.factors} <= names],
        influence=[i for i in model.metric_tree.influence if {i.source, i.target} <= names])
    return replace(model, metrics=kept, metric_tree=tree, unsupported=tuple(sorted(reasons.items())))


def _without(gov: Governance, names: set[str]) -> Governance:
    """Governance without what it says of metrics showwork cannot compute yet (they are not
    in the model, and asking for them is refused by name)."""
    if not names:
        return gov
    tree = gov.metric_tree
    return gov.model_copy(update={
        "metrics": {k: v for k, v in gov.metrics.items() if k not in names},
        "metric_tree": MetricTree(
            exact=[e for e in tree.exact if not {e.parent, *e.factors} & names],
            influence=[i for i in tree.influence if not {i.source, i.target} & names])})


def _filter_refusal(model: SemanticModelFile, m: Metric) -> str | None:
    """Why a metric's filter cannot be computed yet (None: it can, or fails for another reason,
    which check_references reports)."""
    from showwork.semantic_layer.compile import check_metric_filters

    try:
        check_metric_filters(model, m.name)
    except SemanticError as exc:
        if _UNSUPPORTED in exc.message:
            return f"a filter: {exc.message.rstrip('.')}, at {m.origin}: metric {m.name!r}"
    return None


_UNSUPPORTED = "not supported yet"
"""How a refusal of something valid that showwork cannot compute yet reads (never a bad input)."""


def _day(value: Any, path: Path) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError as exc:
        raise ModelError([f"{path}: as_of: {value!r} is not an ISO date"]) from exc


def _read_settings(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ModelError([f"{path}: {exc}"]) from exc
    if not isinstance(data, dict):
        raise ModelError([f"{path}: a project file is a mapping (name, semantic_models, …)"])
    return data


def assemble(models: tuple[SemanticModel, ...], metrics: tuple[Metric, ...], gov: Governance,
             dsi: Any, raw: RawManifest, as_of: dt.date | None, source: str) -> SemanticModelFile:
    """The model with governance from meta blocks and the file; ModelError on bad references."""
    problems: list[str] = []
    metric_gov = _metric_governance(metrics, gov, dsi, problems)
    dim_gov = _dimension_governance(models, gov, dsi, problems, source)
    coverage = _coverage(models, gov, dsi, problems, source)
    tree = with_model_edges(_tree(gov, metric_gov), metrics)
    governed = tuple(_governed(m, metric_gov.get(m.name)) for m in metrics)
    if problems:
        raise ModelError(problems)
    through = [c.through for c in coverage.values()]
    model = SemanticModelFile(
        version=gov.model_version or _digest(raw), as_of=as_of or gov.as_of or (
            max(through) if len(through) == len(models) and through else UNKNOWN_DAY),
        semantic_models=models, metrics=governed, metric_tree=tree, dimension_governance=dim_gov,
        coverage_by_model=coverage, grains=tuple(gov.grains or GRAINS), source=raw.source)
    problems = check_references(model, gov, source)
    if problems:
        raise ModelError(problems)
    return model


def _digest(raw: RawManifest) -> str:
    text = json.dumps([raw.semantic_models, raw.metrics], sort_keys=True, default=str)
    return "sha-" + hashlib.sha256(text.encode()).hexdigest()[:12]


def _metas(objects: Any) -> dict[str, dict[str, Any]]:
    return {o.name: (o.config.meta if getattr(o, "config", None) else {}) or {} for o in objects}


def _metric_governance(metrics: tuple[Metric, ...], gov: Governance, dsi: Any,
                       problems: list[str]) -> dict[str, MetricGovernance]:
    metas = _metas(dsi.metrics)
    out: dict[str, MetricGovernance] = {}
    names = {m.name for m in metrics}
    for name in gov.metrics:
        if name not in names:
            problems.append(f"governance: metrics.{name}: no metric named {name!r} in the dbt "
                            f"models; metrics: {', '.join(sorted(names))}")
    for m in metrics:
        try:
            meta = meta_block(metas.get(m.name), MetricGovernance, f"{m.origin}: metric {m.name!r}")
        except ModelError as exc:
            problems.extend(exc.problems)
            continue
        out[m.name] = merged(gov.metrics.get(m.name), meta, MetricGovernance)  # type: ignore[assignment]
    return out


def _governed(m: Metric, g: MetricGovernance | None) -> Metric:
    if g is None:
        return m
    unit = g.unit if "unit" in g.model_fields_set else (
        "fraction" if m.type == "ratio" and "rate" in m.name else None)
    return replace(m, label=g.label or m.label, synonyms=tuple(g.synonyms), owner=g.owner,
                   version=g.version, previous_names=tuple(g.previous_names), unit=unit,
                   grains=tuple(g.grains or ()), point_in_time_override=g.point_in_time,
                   not_aggregable_over=tuple(g.not_aggregable_over), draft=g.draft,
                   polarity=g.polarity)


def _dimension_governance(models: tuple[SemanticModel, ...], gov: Governance, dsi: Any,
                          problems: list[str], source: str) -> dict[str, DimensionGovernance]:
    out: dict[str, DimensionGovernance] = {}
    metas = {sm.name: _metas(sm.dimensions) for sm in dsi.semantic_models}
    for sm in models:
        for d in sm.dimensions:
            key = f"{sm.primary_entity}__{d.name}"
            try:
                meta = meta_block(metas[sm.name].get(d.name), DimensionGovernance,
                                  f"{sm.origin}: semantic model {sm.name!r}, dimension {d.name!r}")
            except ModelError as exc:
                problems.extend(exc.problems)
                continue
            if meta is not None or key in gov.dimensions:
                out[key] = merged(gov.dimensions.get(key), meta, DimensionGovernance)  # type: ignore[assignment]
    for key, g in gov.dimensions.items():
        out.setdefault(key, g)
    return out


def _coverage(models: tuple[SemanticModel, ...], gov: Governance, dsi: Any, problems: list[str],
              source: str) -> dict[str, Coverage]:
    out = {}
    metas = _metas(dsi.semantic_models)
    names = {sm.name for sm in models}
    for name in gov.coverage:
        if name not in names:
            problems.append(f"{source}: coverage.{name}: no semantic model named {name!r}; "
                            f"semantic models: {', '.join(sorted(names))}")
    for sm in models:
        spec = gov.coverage.get(sm.name)
        block = (metas.get(sm.name) or {}).get("showwork") or {}
        if spec is None and "coverage" in block:
            try:
                spec = CoverageSpec.model_validate(block["coverage"])
            except ValueError as exc:
                problems.append(f"{sm.origin}: semantic model {sm.name!r}: config.meta.showwork."
                                f"coverage: {' '.join(str(exc).split())[:200]}")
                continue
        if spec is not None:
            if spec.from_ > spec.through:
                problems.append(f"{source}: coverage.{sm.name}: from {spec.from_} is after "
                                f"through {spec.through}")
            out[sm.name] = Coverage(spec.from_, spec.through)
    return out


def _tree(gov: Governance, metric_gov: dict[str, MetricGovernance]) -> MetricTree:
    exact = list(gov.metric_tree.exact)
    influence = list(gov.metric_tree.influence)
    parents = {e.parent for e in exact}
    for name, g in metric_gov.items():
        if g.factors and name not in parents:
            exact.append(ExactEdge(parent=name, op=g.op, factors=g.factors))
        known = {(i.source, i.target) for i in influence}
        influence += [InfluenceEdge(source=s, target=name) for s in g.influenced_by
                      if (s, name) not in known]
    return MetricTree(exact=exact, influence=influence)


# -- references ---------------------------------------------------------------------------------
def check_references(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    """Every cross-reference problem, each naming where it is."""
    problems: list[str] = []
    for check in (_check_names, _check_inputs, _check_cycles):
        problems.extend(check(model, gov, source))
    if problems:  # the checks below follow metric references, which must end
        return problems
    for check in (_check_tree, _check_dimensions, _check_sql, _check_filters, _check_times):
        problems.extend(check(model, gov, source))
    return problems


def _check_names(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    out: list[str] = []
    seen: dict[str, str] = {}
    for m in model.metrics:
        for name in (m.name, *m.previous_names):
            where = f"{m.origin}: metric {m.name!r}"
            if name in seen:
                out.append(f"{where}: name {name!r} is already used by {seen[name]}")
            seen[name] = f"metric {m.name!r}"
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                out.append(f"{where}: name {name!r} must be snake_case")
    return out


def _check_inputs(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    out = []
    for m in model.metrics:
        for i in m.input_metrics:
            if i.name not in model.metric_index:
                out.append(f"{m.origin}: metric {m.name!r}: input metric {i.name!r} is not "
                           "defined")
        if m.measure and m.measure not in model.measures:
            out.append(f"{m.origin}: metric {m.name!r}: measure {m.measure!r} is not defined")
    return out


def _check_cycles(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    out = []
    for m in model.metrics:
        trail = _cycle(model, m.name, [])
        if trail:
            out.append(f"{m.origin}: metric {m.name!r} refers to itself: {' → '.join(trail)}")
    return out


def _cycle(model: SemanticModelFile, name: str, trail: list[str]) -> list[str] | None:
    if name in trail:
        return [*trail, name]
    m = model.metric_index.get(name)
    for i in (m.input_metrics if m else ()):
        found = _cycle(model, i.name, [*trail, name])
        if found:
            return found
    return None


def _check_tree(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    out: list[str] = []
    names = model.metric_index
    for i, e in enumerate(model.metric_tree.exact):
        for ref in (e.parent, *e.factors):
            if ref not in names:
                out.append(f"{source}: metric_tree.exact[{i}]: unknown metric {ref!r}")
    for i, inf in enumerate(model.metric_tree.influence):
        for ref in (inf.source, inf.target):
            if ref not in names:
                out.append(f"{source}: metric_tree.influence[{i}]: unknown metric {ref!r}")
    return out


def _check_dimensions(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    from showwork.semantic_layer.joins import reachable

    out: list[str] = []
    known = {f"{sm.primary_entity}__{d.name}" for sm in model.semantic_models for d in sm.dimensions}
    for sm in model.semantic_models:
        known |= set(reachable(model, sm))
    aliases: dict[str, str] = {}
    for key, g in model.dimension_governance.items():
        where = f"{source}: dimensions.{key}"
        if key not in known:
            out.append(f"{where}: no dimension is named {key!r} (entity__dimension, as MetricFlow "
                       "names it)")
        if g.alias:
            if g.alias in aliases or g.alias in known:
                out.append(f"{where}: alias {g.alias!r} is already a dimension name or alias")
            aliases[g.alias] = key
        for member in g.members or ():
            if not citable(member):
                out.append(f"{where}: member {member!r} cannot be cited (printable text, at most "
                           f"{MAX_MEMBER} characters)")
        if g.pattern:
            try:
                re.compile(g.pattern)
            except re.error as exc:
                out.append(f"{where}: pattern is not a regular expression: {exc}")
    return out


def _check_sql(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    out: list[str] = []
    for sm in model.semantic_models:
        items = [("measure", m.name, m.expr) for m in sm.measures]
        items += [("dimension", d.name, d.expr) for d in sm.dimensions]
        items += [("entity", e.name, e.expr) for e in sm.entities]
        for kind, name, text in items:
            try:
                sqlglot.parse_one(text, read="duckdb")
            except sqlglot.errors.SqlglotError:
                out.append(f"{sm.origin}: semantic model {sm.name!r}, {kind} {name!r}: expr "
                           f"{text!r} is not valid SQL")
    return out


def _check_filters(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    from showwork.semantic_layer.compile import check_metric_filters

    out = []
    for m in model.metrics:
        try:
            check_metric_filters(model, m.name)
        except SemanticError as exc:
            if _UNSUPPORTED not in exc.message:  # loads, refused when asked (_withdrawn)
                out.append(f"{m.origin}: metric {m.name!r}: filter: {exc.message}")
    return out


def _check_times(model: SemanticModelFile, gov: Governance, source: str) -> list[str]:
    out = []
    for sm in model.semantic_models:
        for me in sm.measures:
            where = f"{sm.origin}: semantic model {sm.name!r}, measure {me.name!r}"
            dim = sm.dimension(me.agg_time_dimension)
            if dim is None or dim.type != "time":
                out.append(f"{where}: agg_time_dimension {me.agg_time_dimension!r} is not a time "
                           f"dimension of {sm.name!r}")
            nad = me.non_additive
            for name in (nad.name, nad.valid_to) if nad else ():
                d = sm.dimension(name) if name else None
                if name and (d is None or d.type != "time"):
                    out.append(f"{where}: {name!r} is not a time dimension of {sm.name!r}")
            for entity in nad.window_groupings if nad else ():
                if sm.entity(entity) is None:
                    out.append(f"{where}: window_groupings names {entity!r}, not an entity of "
                               f"{sm.name!r}")
    return out
