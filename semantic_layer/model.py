"""The semantic model: a MetricFlow-shaped YAML, loaded, validated and indexed.

Shape errors come from pydantic with their location; cross-reference errors (a metric naming a
missing measure, a tree edge naming a missing metric, …) are collected by `check_references`.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import sqlglot
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from semantic_layer.errors import ModelError

GRAINS = ("day", "week", "month")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Entity(_Strict):
    name: str
    type: Literal["primary", "foreign", "unique"]
    expr: str


class TypeParams(_Strict):
    time_granularity: Literal["day", "week", "month"] = "day"


class Dimension(_Strict):
    name: str
    type: Literal["categorical", "time"]
    label: str | None = None
    expr: str | None = None
    """SQL over the model's tables (trusted configuration, never user or model input)."""
    members: list[str] | None = None
    """Closed member list; a filter or row outside it is refused."""
    pattern: str | None = None
    """For open dimensions: the shape a member must have."""
    type_params: TypeParams | None = None


class NonAdditive(_Strict):
    name: str
    """The time column the value is taken at."""
    window_choice: Literal["max"] = "max"
    valid_to: str | None = None
    """Extension: rows are valid from `name` until `valid_to` (exclusive, NULL = open)."""


class Measure(_Strict):
    name: str
    agg: Literal["count", "count_distinct", "sum", "max", "min"]
    expr: str
    filter: str | None = None
    non_additive_dimension: NonAdditive | None = None

    @property
    def point_in_time(self) -> bool:
        return self.non_additive_dimension is not None


class Coverage(_Strict):
    from_: dt.date = Field(alias="from")
    through: dt.date


class Defaults(_Strict):
    agg_time_dimension: str


class SemanticModel(_Strict):
    name: str
    model: str
    description: str | None = None
    entities: list[Entity] = []
    defaults: Defaults
    coverage: Coverage
    dimensions: list[Dimension] = []
    measures: list[Measure] = []

    @property
    def joins_users(self) -> bool:
        return self.name != "users" and any(e.name == "user" for e in self.entities)


class MetricParams(_Strict):
    measure: str | None = None
    numerator: str | None = None
    denominator: str | None = None
    expr: str | None = None
    metrics: list[str] | None = None


class Metric(_Strict):
    name: str
    type: Literal["simple", "ratio", "derived"]
    label: str
    synonyms: list[str] = []
    description: str | None = None
    type_params: MetricParams
    grains: list[Literal["day", "week", "month"]] = ["day", "week", "month"]
    owner: str | None = None
    version: int = 1
    previous_names: list[str] = []


class ExactEdge(_Strict):
    parent: str
    op: Literal["multiply"]
    factors: list[str]


class InfluenceEdge(_Strict):
    source: str
    target: str
    strength: float = Field(ge=0, le=1)


class MetricTree(_Strict):
    exact: list[ExactEdge] = []
    influence: list[InfluenceEdge] = []


class SemanticModelFile(_Strict):
    version: str
    as_of: dt.date
    default_join: str = "users"
    semantic_models: list[SemanticModel]
    metrics: list[Metric]
    metric_tree: MetricTree = MetricTree()

    @cached_property
    def measures(self) -> dict[str, tuple[SemanticModel, Measure]]:
        return {m.name: (sm, m) for sm in self.semantic_models for m in sm.measures}

    @cached_property
    def metric_index(self) -> dict[str, Metric]:
        return {m.name: m for m in self.metrics}

    @cached_property
    def previous_names(self) -> dict[str, str]:
        return {old: m.name for m in self.metrics for old in m.previous_names}

    @cached_property
    def dimensions(self) -> dict[str, Dimension]:
        users = self.semantic_model(self.default_join)
        return {d.name: d for d in users.dimensions if d.type == "categorical"}

    def semantic_model(self, name: str) -> SemanticModel:
        return next(sm for sm in self.semantic_models if sm.name == name)

    def base_measures(self, metric: str) -> list[str]:
        """The measures a metric is computed from, through ratios and derived metrics."""
        m = self.metric_index[metric]
        p = m.type_params
        if m.type == "simple":
            return [p.measure or ""]
        if m.type == "ratio":
            return [*self.base_measures(p.numerator or ""), *self.base_measures(p.denominator or "")]
        return [x for sub in (p.metrics or []) for x in self.base_measures(sub)]

    def point_in_time(self, metric: str) -> bool:
        return any(self.measures[x][1].point_in_time for x in self.base_measures(metric))

    def supported_dimensions(self, metric: str) -> list[str]:
        """Dimensions every base measure can be grouped by (via its join to users)."""
        models = [self.measures[x][0] for x in self.base_measures(metric)]
        if any(sm.joins_users or sm.name == self.default_join for sm in models):
            return sorted(self.dimensions)
        return []

    def coverage(self, metric: str) -> tuple[dt.date, dt.date]:
        """The intersection of the coverage windows of the metric's sources."""
        covs = [self.measures[x][0].coverage for x in self.base_measures(metric)]
        return max(c.from_ for c in covs), min(c.through for c in covs)


def default_model_path() -> Path:
    return Path(str(resources.files("semantic_layer") / "demo_model.yaml"))


def load_model(path: Path | str | None = None) -> SemanticModelFile:
    """Load and validate a semantic model file; raise ModelError listing every problem."""
    path = Path(path) if path else default_model_path()
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ModelError([f"{path}: {exc}"]) from exc
    return parse_model(raw, source=str(path))


def parse_model(raw: Any, source: str = "<model>") -> SemanticModelFile:
    try:
        model = SemanticModelFile.model_validate(raw)
    except ValidationError as exc:
        raise ModelError([_where(source, e) for e in exc.errors()]) from exc
    problems = check_references(model)
    if problems:
        raise ModelError([f"{source}: {p}" for p in problems])
    return model


def _where(source: str, err: Any) -> str:
    loc = ".".join(str(x) if not isinstance(x, int) else f"[{x}]" for x in err["loc"])
    return f"{source}: {loc.replace('.[', '[')}: {err['msg']}"


def check_references(model: SemanticModelFile) -> list[str]:
    """Every cross-reference problem in a shape-valid model, each with where it is."""
    problems: list[str] = []
    for check in (_check_names, _check_sql, _check_metrics, _check_tree):
        problems.extend(check(model))
    return problems


def _check_names(model: SemanticModelFile) -> list[str]:
    out: list[str] = []
    seen: dict[str, str] = {}
    for i, m in enumerate(model.metrics):
        for name in (m.name, *m.previous_names):
            if name in seen:
                out.append(f"metrics[{i}]: name {name!r} already used by {seen[name]}")
            seen[name] = f"metrics[{i}]"
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                out.append(f"metrics[{i}]: name {name!r} must be snake_case")
    if model.default_join not in {sm.name for sm in model.semantic_models}:
        out.append(f"default_join: no semantic model named {model.default_join!r}")
    return out


def _check_sql(model: SemanticModelFile) -> list[str]:
    out: list[str] = []
    for i, sm in enumerate(model.semantic_models):
        for j, me in enumerate(sm.measures):
            for field, text in (("expr", me.expr), ("filter", me.filter)):
                if text and not _parses(text):
                    out.append(f"semantic_models[{i}].measures[{j}].{field}: not valid SQL")
        for j, d in enumerate(sm.dimensions):
            if d.expr and not _parses(d.expr):
                out.append(f"semantic_models[{i}].dimensions[{j}].expr: not valid SQL")
    return out


def _parses(text: str) -> bool:
    try:
        sqlglot.parse_one(text, read="duckdb")
    except sqlglot.errors.SqlglotError:
        return False
    return True


def _check_metrics(model: SemanticModelFile) -> list[str]:
    out: list[str] = []
    names = model.metric_index
    for i, m in enumerate(model.metrics):
        p, where = m.type_params, f"metrics[{i}] ({m.name}).type_params"
        if m.type == "simple" and p.measure not in model.measures:
            out.append(f"{where}.measure: unknown measure {p.measure!r}; known: "
                       + ", ".join(sorted(model.measures)))
        if m.type == "ratio":
            for part in ("numerator", "denominator"):
                ref = getattr(p, part)
                if ref not in names:
                    out.append(f"{where}.{part}: unknown metric {ref!r}")
        if m.type == "derived":
            if not p.expr or not p.metrics:
                out.append(f"{where}: a derived metric needs expr and metrics")
            for ref in p.metrics or []:
                if ref not in names or ref == m.name:
                    out.append(f"{where}.metrics: unknown metric {ref!r}")
    return out


def _check_tree(model: SemanticModelFile) -> list[str]:
    out: list[str] = []
    names = model.metric_index
    for i, e in enumerate(model.metric_tree.exact):
        for ref in (e.parent, *e.factors):
            if ref not in names:
                out.append(f"metric_tree.exact[{i}]: unknown metric {ref!r}")
    for i, inf in enumerate(model.metric_tree.influence):
        for ref in (inf.source, inf.target):
            if ref not in names:
                out.append(f"metric_tree.influence[{i}]: unknown metric {ref!r}")
    return out
