"""showwork's governance: what MetricFlow has no word for (DESIGN.md, "Projects").

It comes from a governance file or from `config: {meta: {showwork: …}}` blocks in the dbt YAML
(the file wins where both say something). Everything is optional; what is left out is inferred
from the warehouse (`infer.py`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from showwork._plain import Plain, errors
from showwork.semantic_layer.errors import ModelError, NotAggregable

if TYPE_CHECKING:
    from pydantic import Field  # read by pydantic when a file is read (showwork._plain)

    from showwork.semantic_layer.model import SemanticModelFile

Grain = Literal["day", "week", "month", "quarter", "year"]
EdgeOp = Literal["multiply", "divide", "sum"]
"""PARENT = the factors' product, the first over the rest, or their sum."""
Polarity = Literal["higher_is_better", "lower_is_better"]
"""Which way of a metric's change is the good one (a judging word is held to it)."""


ALIASES = {"from_": "from"}
"""Fields written in a file under another name (a Python keyword)."""
S = TypeVar("S", bound="_Strict")


class _Strict(Plain):
    """A governance object: a frozen dataclass (a warm start unpickles the model's without
    pydantic), validated by pydantic when a file or a meta block is read. It remembers which
    fields its input set, as pydantic's `model_fields_set` did: a file's explicit value wins
    over a meta block's (`merged`), and an explicit `unit: null` is kept."""

    __pydantic_config__ = {"extra": "forbid", "alias_generator": lambda name: ALIASES.get(name, name)}

    @classmethod
    def model_validate(cls: type[S], data: Any) -> S:
        obj = super().model_validate(data)
        _mark_set(obj, data)
        return obj

    @property
    def model_fields_set(self) -> frozenset[str]:
        """The fields its input set; for one built in code, those not at their default."""
        given = getattr(self, "_fields_set", None)
        if given is not None:
            return given
        return frozenset(f.name for f in dataclasses.fields(self)  # type: ignore[arg-type]
                         if getattr(self, f.name) != _default(f))

    def model_copy(self: S, *, update: dict[str, Any] | None = None) -> S:
        copy = super().model_copy(update=update)
        object.__setattr__(copy, "_fields_set", self.model_fields_set | set(update or ()))
        return copy


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def _mark_set(obj: Any, raw: Any) -> None:
    """Record on each governance object of a validated tree the fields its input named."""
    if isinstance(obj, dict) and isinstance(raw, dict):
        for key, value in obj.items():
            _mark_set(value, raw.get(key))
    elif isinstance(obj, list) and isinstance(raw, list):
        for value, given in zip(obj, raw, strict=False):
            _mark_set(value, given)
    elif isinstance(obj, _Strict) and isinstance(raw, dict):
        names = {f.name: ALIASES.get(f.name, f.name) for f in dataclasses.fields(obj)}  # type: ignore[arg-type]
        object.__setattr__(obj, "_fields_set", frozenset(n for n, a in names.items() if a in raw))
        for name, alias in names.items():
            _mark_set(getattr(obj, name), raw.get(alias))


@dataclass(frozen=True, kw_only=True)
class MetricGovernance(_Strict):
    synonyms: list[str] = field(default_factory=list)
    """Words a question may use for the metric."""
    owner: str | None = None
    unit: str | None = None
    """usd | count | fraction (0.42 reads as 42 %) | …; default: fraction for a ratio named *rate*."""
    point_in_time: bool | None = None
    """The value at the end of the period, not a sum (default: from non_additive_dimension)."""
    previous_names: list[str] = field(default_factory=list)
    """Older names that now mean this metric."""
    version: int = 1
    grains: list[Grain] | None = None
    """Grains the metric is defined on (default: every offered grain its time dimension allows)."""
    label: str | None = None
    """Overrides the dbt label."""
    factors: list[str] | None = None
    """Meta shorthand for an exact tree edge with this metric as parent."""
    op: EdgeOp = "multiply"
    not_aggregable_over: list[str] = field(default_factory=list)
    """Dimensions the metric may not be rolled up across (a city's median price averaged over
    cities is not a median): a query over several of their members without grouping by them is
    refused."""
    influenced_by: list[str] = field(default_factory=list)
    """Meta shorthand for influence edges into this metric."""
    polarity: Polarity | None = None
    """higher_is_better (revenue, active users) | lower_is_better (delays, cancellations):
    what 'improved', 'worsened', 'got better' say of the metric's change (the audit holds them
    to the cited change's sign under it). Unset: those words are not read (a caveat)."""
    draft: str | None = None
    """The inference `showwork init` drafted the metric on ("Rate: averaged, never summed");
    a person removes it once the definition is reviewed. An answer citing it gets caveats."""


@dataclass(frozen=True, kw_only=True)
class DimensionGovernance(_Strict):
    alias: str | None = None
    """A short public name (e.g. `platform` for `user__platform`)."""
    synonyms: list[str] = field(default_factory=list)
    members: list[str] | None = None
    """Closed member list (default: distinct values in the data, for small dimensions)."""
    member_synonyms: dict[str, str] = field(default_factory=dict)
    pattern: str | None = None
    """For an open dimension: the regular expression a member must match."""
    hidden: bool = False
    """Used by metric filters, never offered to the analyst."""
    label: str | None = None
    draft: str | None = None
    """The inference `showwork init` drafted the dimension on; removed once reviewed."""


@dataclass(frozen=True, kw_only=True)
class CoverageSpec(_Strict):
    from_: dt.date
    """Written `from` in a file (ALIASES)."""
    through: dt.date


def _without_unset(data: dict[str, Any]) -> dict[str, Any]:
    """An edge as the catalog carries it: no null `exponents` or `description` keys."""
    return {k: v for k, v in data.items() if v is not None or k not in ("exponents", "description")}


@dataclass(frozen=True, kw_only=True)
class ExactEdge(_Strict):
    parent: str
    op: EdgeOp = "multiply"
    factors: list[str]
    exponents: list[Literal[1, -1]] | None = None
    """For a product: +1 for a factor that multiplies, -1 for one that divides (default all +1),
    e.g. a derived `revenue * margin / orders`."""
    description: str | None = None

    def __post_init__(self) -> None:
        if len(self.factors) < 2 or len(set(self.factors)) < len(self.factors):
            raise ValueError("an exact edge needs two or more distinct factors")
        if self.exponents is not None and (self.op != "multiply"
                                           or len(self.exponents) != len(self.factors)):
            raise ValueError("exponents: one +1/-1 per factor, for op multiply only")

    def model_dump(self, **how: Any) -> dict[str, Any]:
        return _without_unset(super().model_dump(**how))


@dataclass(frozen=True, kw_only=True)
class InfluenceEdge(_Strict):
    source: str
    target: str
    strength: Annotated[float | None, Field(ge=0, le=1)] = None
    description: str | None = None

    def model_dump(self, **how: Any) -> dict[str, Any]:
        return _without_unset(super().model_dump(**how))


@dataclass(frozen=True, kw_only=True)
class MetricTree(_Strict):
    exact: list[ExactEdge] = field(default_factory=list)
    """PARENT = product, quotient or sum of the factors, exactly (ratio and product/quotient
    derived metrics add theirs: tree.with_model_edges)."""
    influence: list[InfluenceEdge] = field(default_factory=list)
    """Correlational only: a hypothesis, never attributed."""


@dataclass(frozen=True, kw_only=True)
class Governance(_Strict):
    """The governance file (every key optional)."""

    version: Literal[1] = 1
    model_version: str | None = None
    """The version string results and traces carry (default: a digest of the model)."""
    as_of: dt.date | None = None
    grains: list[Grain] | None = None
    """Grains offered to the analyst (default: day, week, month, quarter, year)."""
    metrics: dict[str, MetricGovernance] = field(default_factory=dict)
    dimensions: dict[str, DimensionGovernance] = field(default_factory=dict)
    """Keyed by the dimension as MetricFlow names it (`entity__dimension`)."""
    coverage: dict[str, CoverageSpec] = field(default_factory=dict)
    """Keyed by semantic model."""
    metric_tree: MetricTree = field(default_factory=MetricTree)


def read_governance(path: Path) -> Governance:
    import yaml  # here, not at import: a warm start reads the model from the cache

    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ModelError([f"{path}: {exc}"]) from exc
    return parse_governance(raw, str(path))


def parse_governance(raw: Any, source: str) -> Governance:
    from pydantic import ValidationError

    try:
        return Governance.model_validate(raw)
    except ValidationError as exc:
        raise ModelError([f"{source}: {_loc(e['loc'])}: {e['msg']}" for e in errors(exc)]) from exc


def _loc(loc: tuple) -> str:
    return ".".join(f"[{x}]" if isinstance(x, int) else str(x) for x in loc).replace(".[", "[")


def meta_block(meta: dict[str, Any] | None, model: type[_Strict], where: str) -> _Strict | None:
    """The `showwork:` block of an object's config.meta, validated."""
    block = (meta or {}).get("showwork")
    if block is None:
        return None
    from pydantic import ValidationError

    try:
        return model.model_validate(block)
    except ValidationError as exc:
        raise ModelError([f"{where}: config.meta.showwork.{_loc(e['loc'])}: {e['msg']}"
                          for e in errors(exc)]) from exc


def merged(file_value: _Strict | None, meta_value: _Strict | None, model: type[_Strict]) -> _Strict:
    """Meta first, then what the governance file sets explicitly."""
    data: dict[str, Any] = {}
    for value in (meta_value, file_value):
        if value is not None:
            data.update({k: getattr(value, k) for k in value.model_fields_set})
    return model.model_validate(_by_alias(model, data))


def _by_alias(model: type[_Strict], data: dict[str, Any]) -> dict[str, Any]:
    return {ALIASES.get(k, k): v for k, v in data.items()}


# -- rollups the data cannot support ------------------------------------------------------------
def check_rollup(model: SemanticModelFile, metrics: tuple[str, ...],
                 group_by: tuple[str, ...] | list[str], filters: Any) -> None:
    """Refuse a query that rolls a metric up across a dimension its governance (or an input
    metric's) lists in `not_aggregable_over`: allowed when it groups by that dimension or keeps
    one member of it."""
    kept = {model.qualified_name(d) for d in group_by}
    kept |= {model.qualified_name(f.dimension) for f in filters
             if getattr(f, "op", None) == "in" and len(f.values) == 1}
    for metric in metrics:
        for source, dim in not_aggregable(model, metric):
            if model.qualified_name(dim) not in kept:
                public = model.public_name(model.qualified_name(dim))
                via = "" if source == metric else f" (through its input metric {source!r})"
                raise NotAggregable(
                    f"Metric {metric!r} cannot be rolled up across {public!r}{via}: its "
                    f"governance says it is not aggregable over {public}: values for different "
                    f"{public} members do not combine into one (a median per city is no median "
                    "of the cities; amounts in different currencies do not add up). Group by "
                    f"{public}, or filter to one {public}.")


def not_aggregable(model: SemanticModelFile, metric: str, seen: set[str] | None = None
                   ) -> list[tuple[str, str]]:
    """(metric, dimension) for the metric and every metric it is computed from."""
    seen = set() if seen is None else seen
    m = model.metric_index.get(metric)
    if m is None or metric in seen:
        return []
    seen.add(metric)
    out = [(metric, d) for d in m.not_aggregable_over]
    for i in m.input_metrics:
        out += not_aggregable(model, i.name, seen)
    return out
