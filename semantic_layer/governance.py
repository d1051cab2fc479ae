"""showwork's governance: what MetricFlow has no word for (DESIGN.md, "Projects").

It comes from a governance file or from `config: {meta: {showwork: …}}` blocks in the dbt YAML
(the file wins where both say something). Everything is optional; what is left out is inferred
from the warehouse (`infer.py`).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from semantic_layer.errors import ModelError

Grain = Literal["day", "week", "month", "quarter", "year"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MetricGovernance(_Strict):
    synonyms: list[str] = []
    """Words a question may use for the metric."""
    owner: str | None = None
    unit: str | None = None
    """usd | count | fraction (0.42 reads as 42 %) | …; default: fraction for a ratio named *rate*."""
    point_in_time: bool | None = None
    """The value at the end of the period, not a sum (default: from non_additive_dimension)."""
    previous_names: list[str] = []
    """Older names that now mean this metric."""
    version: int = 1
    grains: list[Grain] | None = None
    """Grains the metric is defined on (default: every offered grain its time dimension allows)."""
    label: str | None = None
    """Overrides the dbt label."""
    factors: list[str] | None = None
    """Meta shorthand for an exact tree edge with this metric as parent."""
    op: Literal["multiply"] = "multiply"
    influenced_by: list[str] = []
    """Meta shorthand for influence edges into this metric."""


class DimensionGovernance(_Strict):
    alias: str | None = None
    """A short public name (e.g. `platform` for `user__platform`)."""
    synonyms: list[str] = []
    members: list[str] | None = None
    """Closed member list (default: distinct values in the data, for small dimensions)."""
    member_synonyms: dict[str, str] = {}
    pattern: str | None = None
    """For an open dimension: the regular expression a member must match."""
    hidden: bool = False
    """Used by metric filters, never offered to the analyst."""
    label: str | None = None


class CoverageSpec(_Strict):
    from_: dt.date = Field(alias="from")
    through: dt.date


class ExactEdge(_Strict):
    parent: str
    op: Literal["multiply"] = "multiply"
    factors: list[str]


class InfluenceEdge(_Strict):
    source: str
    target: str
    strength: float | None = Field(default=None, ge=0, le=1)


class MetricTree(_Strict):
    exact: list[ExactEdge] = []
    """PARENT = product of the factors, exactly."""
    influence: list[InfluenceEdge] = []
    """Correlational only: a hypothesis, never attributed."""


class Governance(_Strict):
    """The governance file (every key optional)."""

    version: Literal[1] = 1
    model_version: str | None = None
    """The version string results and traces carry (default: a digest of the model)."""
    as_of: dt.date | None = None
    grains: list[Grain] | None = None
    """Grains offered to the analyst (default: day, week, month, quarter, year)."""
    metrics: dict[str, MetricGovernance] = {}
    dimensions: dict[str, DimensionGovernance] = {}
    """Keyed by the dimension as MetricFlow names it (`entity__dimension`)."""
    coverage: dict[str, CoverageSpec] = {}
    """Keyed by semantic model."""
    metric_tree: MetricTree = MetricTree()


def read_governance(path: Path) -> Governance:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ModelError([f"{path}: {exc}"]) from exc
    return parse_governance(raw, str(path))


def parse_governance(raw: Any, source: str) -> Governance:
    try:
        return Governance.model_validate(raw)
    except ValidationError as exc:
        raise ModelError([f"{source}: {_loc(e['loc'])}: {e['msg']}" for e in exc.errors()]) from exc


def _loc(loc: tuple) -> str:
    return ".".join(f"[{x}]" if isinstance(x, int) else str(x) for x in loc).replace(".[", "[")


def meta_block(meta: dict[str, Any] | None, model: type[_Strict], where: str) -> _Strict | None:
    """The `showwork:` block of an object's config.meta, validated."""
    block = (meta or {}).get("showwork")
    if block is None:
        return None
    try:
        return model.model_validate(block)
    except ValidationError as exc:
        raise ModelError([f"{where}: config.meta.showwork.{_loc(e['loc'])}: {e['msg']}"
                          for e in exc.errors()]) from exc


def merged(file_value: _Strict | None, meta_value: _Strict | None, model: type[_Strict]) -> _Strict:
    """Meta first, then what the governance file sets explicitly."""
    data: dict[str, Any] = {}
    for value in (meta_value, file_value):
        if value is not None:
            data.update({k: getattr(value, k) for k in value.model_fields_set})
    return model.model_validate(_by_alias(model, data))


def _by_alias(model: type[_Strict], data: dict[str, Any]) -> dict[str, Any]:
    fields = model.model_fields
    return {(fields[k].alias or k) if k in fields else k: v for k, v in data.items()}
