"""The semantic model the compiler uses: dbt MetricFlow's objects plus showwork's governance.

The model is read from dbt YAML or a dbt `semantic_manifest.json` with dbt-semantic-interfaces'
own types and validations (`manifest.py`), governance comes from a governance file or
`config: {meta: {showwork: …}}` blocks (`governance.py`); this module holds the result as small
frozen values, and answers the questions validation, compilation and the catalog ask of it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showwork.semantic_layer.dbt_yaml import Origin

if TYPE_CHECKING:
    from showwork.semantic_layer.governance import DimensionGovernance, MetricTree
    from showwork.semantic_layer.joins import DimensionRef

GRAINS = ("day", "week", "month", "quarter", "year")
"""Calendar grains, finest first (weeks are ISO weeks, Monday to Sunday)."""
AGGREGATIONS = ("sum", "count", "count_distinct", "min", "max", "average", "sum_boolean",
                "median", "percentile")
ADDITIVE = ("sum", "count", "sum_boolean")
"""Aggregations whose per-period values may be summed over periods."""
_AMOUNT_WORDS = re.compile(r"(?i)(?:^|[\W_])(?:usd|eur|gbp|amount|amt|revenue|price|cost|costs|"
                           r"spend|spent|sales|paid|payment|payments|"
                           r"dollars?|cents?|fee|fees)(?:$|[\W_])")
"""Words of a summed column's name that say it holds money, not counts."""
_CURRENCY_CODE = re.compile(r"(?i)(?:^|[\W_])(usd|eur|gbp|cad|aud|jpy|chf|inr|cny)(?:$|[\W_])")
"""An ISO currency code written as a word of a column's or metric's name ('amount_usd')."""


@dataclass(frozen=True)
class Entity:
    """A join key of a semantic model."""

    name: str
    type: str
    """primary, unique, foreign or natural."""
    expr: str
    """SQL over the semantic model's table (trusted configuration)."""

    @property
    def joinable(self) -> bool:
        """Another model's rows may join to this one on this entity (at most one row matches)."""
        return self.type in ("primary", "unique", "natural")


@dataclass(frozen=True)
class Dimension:
    name: str
    type: str
    """categorical or time."""
    expr: str
    """SQL over the semantic model's table (trusted configuration)."""
    granularity: str | None = None
    """Time dimensions: the finest grain the column holds."""
    label: str | None = None
    description: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    """config.meta.showwork of the dimension."""
    is_partition: bool = False
    """MetricFlow's is_partition: a join between two models that have one matches on it too."""
    validity: str | None = None
    """A slowly changing dimension's bound (validity_params): start or end of the row's window."""


@dataclass(frozen=True)
class PointInTime:
    """A measure read at a point in time (MetricFlow's non_additive_dimension)."""

    name: str
    """The time dimension the value is taken at."""
    window_choice: str = "max"
    as_of: bool = False
    """showwork: the row in force at the end of the period, however old (not only in-period rows)."""
    valid_to: str | None = None
    """showwork: rows hold from `name` until this time dimension (exclusive; NULL = open)."""
    window_groupings: tuple[str, ...] = ()
    """MetricFlow: entities the max (or min) day is taken per."""

    @property
    def showwork(self) -> bool:
        """Read with showwork's as-of semantics rather than MetricFlow's in-period max/min."""
        return self.as_of or self.valid_to is not None


@dataclass(frozen=True)
class Measure:
    name: str
    agg: str
    expr: str
    semantic_model: str
    agg_time_dimension: str
    percentile: float | None = None
    discrete: bool = False
    """percentile: PERCENTILE_DISC rather than PERCENTILE_CONT."""
    approximate: bool = False
    """percentile: the dialect's approximate quantile where it has one (compile._percentile)."""
    non_additive: PointInTime | None = None

    @property
    def point_in_time(self) -> bool:
        return self.non_additive is not None


@dataclass(frozen=True)
class SemanticModel:
    name: str
    table: str
    """The warehouse relation (dbt's node_relation alias)."""
    entities: tuple[Entity, ...]
    dimensions: tuple[Dimension, ...]
    measures: tuple[Measure, ...]
    agg_time_dimension: str | None
    primary_entity: str | None
    """The entity local dimensions are named by (`primary_entity__dimension`)."""
    origin: Origin
    description: str | None = None
    schema: str | None = None

    def entity(self, name: str) -> Entity | None:
        return next((e for e in self.entities if e.name == name), None)

    def dimension(self, name: str) -> Dimension | None:
        return next((d for d in self.dimensions if d.name == name), None)

    @property
    def validity(self) -> tuple[Dimension, Dimension] | None:
        """(start, end) of a slowly changing dimension's rows (a Type II table): a row holds from
        its start until its end (exclusive; a null end is open)."""
        start = next((d for d in self.dimensions if d.validity == "start"), None)
        end = next((d for d in self.dimensions if d.validity == "end"), None)
        return (start, end) if start and end else None


@dataclass(frozen=True)
class TimeSpine:
    """A time spine table (dbt's `time_spine:`): one row per period of its grain, with the
    custom granularities (a fiscal calendar) it defines as columns."""

    table: str
    schema: str | None
    column: str
    """The primary column: the period's start."""
    grain: str
    custom: tuple[tuple[str, str], ...] = ()
    """(custom granularity, its column)."""


@dataclass(frozen=True)
class Offset:
    """A count of calendar grains, e.g. `7 days`, `1 month`."""

    count: int
    grain: str

    def __str__(self) -> str:
        return f"{self.count} {self.grain}"


@dataclass(frozen=True)
class Conversion:
    """A conversion metric's parameters (MetricFlow's conversion_type_params): each conversion
    event (a row of the conversion measure) is credited to the latest base event (a row of the
    base measure, filtered as the query and the metric filter it) of the same entity, with equal
    constant properties, on the conversion's day or within `window` before it; the base event's
    period and dimensions are the conversion's."""

    base_measure: str
    conversion_measure: str
    entity: str
    calculation: str = "conversion_rate"
    """conversion_rate (conversions / base events, as DOUBLE) or conversions."""
    window: Offset | None = None
    """None: any earlier base event counts."""
    constant_properties: tuple[tuple[str, str], ...] = ()
    """(base model's element, conversion model's element) pairs that must be equal."""
    base_fill: int | float | None = None
    """The base measure's fill_nulls_with: its value in a group the metric has no base events in."""
    conversion_fill: int | float | None = None
    """The conversion measure's fill_nulls_with: its value in a group of base events without
    conversions (MetricFlow's COALESCE on each side of its own join, before the rate)."""
    base_spined: bool = False
    """The base measure's join_to_timespine: by a grain, every time spine period of the query's
    range has a row (a period without base events: null), as a simple metric's."""
    conversion_spined: bool = False
    """The conversion measure's join_to_timespine: by a grain, every period of the whole time
    spine without conversions has a row (MetricFlow joins the conversions' aggregate to the spine
    without the query's window or filters: they reach only the base events)."""


@dataclass(frozen=True)
class MetricInput:
    """A metric used by a ratio, derived or cumulative metric, with what the use adds."""

    name: str
    filters: tuple[str, ...] = ()
    """MetricFlow where-filter templates added to the input's own."""
    alias: str | None = None
    offset_window: Offset | None = None
    offset_to_grain: str | None = None

    @property
    def ref(self) -> str:
        """The name the derived metric's expr uses."""
        return self.alias or self.name


@dataclass(frozen=True)
class Metric:
    name: str
    type: str
    """simple, ratio, derived, cumulative or conversion."""
    label: str
    origin: Origin
    description: str | None = None
    filters: tuple[str, ...] = ()
    """MetricFlow where-filter templates ({{ Dimension('entity__dim') }} = 'x')."""
    measure: str | None = None
    """simple and cumulative: the measure aggregated; conversion: its base measure."""
    numerator: MetricInput | None = None
    denominator: MetricInput | None = None
    expr: str | None = None
    inputs: tuple[MetricInput, ...] = ()
    """derived: the input metrics."""
    window: Offset | None = None
    """cumulative: a trailing window; None with no grain_to_date means all time."""
    grain_to_date: str | None = None
    period_agg: str = "first"
    """cumulative at a coarser grain than day: the value at the first or last day of the period."""
    time_granularity: str | None = None
    """MetricFlow's default grain of the metric: metric_time asked without a grain is read at it."""
    fill_nulls_with: int | float | None = None
    """simple and cumulative: the value written where the metric is null (MetricFlow's
    COALESCE), in its own rows and as an input of a ratio or derived metric."""
    conversion: Conversion | None = None
    """conversion: how its conversions are found."""
    join_to_timespine: bool = False
    """simple: grouped by metric_time, every period of the time spine in the query's range is
    a row (MetricFlow's LEFT JOIN from the spine), null (or fill_nulls_with) where no data."""
    # -- governance ---------------------------------------------------------------------------
    synonyms: tuple[str, ...] = ()
    grains: tuple[str, ...] = ()
    owner: str | None = None
    version: int = 1
    previous_names: tuple[str, ...] = ()
    unit: str | None = None
    point_in_time_override: bool | None = None
    not_aggregable_over: tuple[str, ...] = ()
    """Dimensions a query may not roll the metric up across (governance.check_rollup)."""
    draft: str | None = None
    """The inference `showwork init` drafted the metric on, until a person reviews it."""
    polarity: str | None = None
    """higher_is_better | lower_is_better: which way of a change is the good one (governance)."""

    @property
    def input_metrics(self) -> tuple[MetricInput, ...]:
        if self.type == "ratio":
            return tuple(x for x in (self.numerator, self.denominator) if x)
        return self.inputs


@dataclass(frozen=True)
class Coverage:
    """The days a semantic model's data covers (inclusive)."""

    from_: dt.date
    through: dt.date


@dataclass(frozen=True)
class DimensionInfo:
    """A dimension as the catalog offers it."""

    name: str
    """The public name: the governance alias, or the MetricFlow name."""
    qualified: str
    """The MetricFlow name (entity path and dimension: user__platform)."""
    dimension: Dimension
    owner: str
    """The semantic model holding the column."""
    label: str
    members: tuple[str, ...] | None = None
    """Closed member list; a filter or row outside it is refused."""
    pattern: str | None = None
    """For open dimensions: the shape a member must have."""
    synonyms: tuple[str, ...] = ()
    member_synonyms: dict[str, str] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True, eq=False)
class SemanticModelFile:
    """A loaded, validated semantic model with its governance."""

    version: str
    as_of: dt.date
    semantic_models: tuple[SemanticModel, ...]
    metrics: tuple[Metric, ...]
    metric_tree: MetricTree
    dimension_governance: dict[str, DimensionGovernance]
    """Keyed by the dimension's MetricFlow name (owner's primary entity + name)."""
    coverage_by_model: dict[str, Coverage]
    grains: tuple[str, ...] = GRAINS
    """Grains offered to the analyst."""
    source: str = ""
    """Where the model was read from."""
    member_index: dict[str, Any] = field(default_factory=dict, compare=False)
    """Qualified dimension → the members the warehouse holds (semantic_layer.infer)."""
    time_spines: tuple[TimeSpine, ...] = ()
    spine_coverage: Coverage | None = None
    """The days the day-grain time spine holds, read from the warehouse (semantic_layer.infer);
    None when not read. Without a window MetricFlow's cumulative rows run through it."""
    unsupported: tuple[tuple[str, str], ...] = ()
    """(metric, why showwork cannot compute it yet): defined in the dbt models, loaded, left out
    of the catalog and refused when asked for, by that reason."""
    name: str = ""
    """The project's name (showwork.yaml's `name`, else dbt_project.yml's): the business the
    data is about ('the shop' of a project named shop); '' when none is given."""

    # -- indexes --------------------------------------------------------------------------------
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
    def models_by_name(self) -> dict[str, SemanticModel]:
        return {sm.name: sm for sm in self.semantic_models}

    def semantic_model(self, name: str) -> SemanticModel:
        return self.models_by_name[name]

    @cached_property
    def aliases(self) -> dict[str, str]:
        """Governance alias → MetricFlow name."""
        return {g.alias: name for name, g in self.dimension_governance.items() if g.alias}

    @cached_property
    def custom_grains(self) -> dict[str, tuple[TimeSpine, str]]:
        """Custom granularity → (the day spine defining it, its column)."""
        return {name: (spine, column) for spine in self.time_spines if spine.grain == "day"
                for name, column in spine.custom}

    def refusal(self, metric: str) -> str | None:
        """Why a metric the dbt models define cannot be queried yet (None: it can)."""
        return dict(self.unsupported).get(metric)

    # -- metrics --------------------------------------------------------------------------------
    def base_measures(self, metric: str) -> list[str]:
        """The measures a metric is computed from, through ratios, derived and cumulative metrics."""
        m = self.metric_index[metric]
        if m.measure:
            return [m.measure]
        return [x for sub in m.input_metrics for x in self.base_measures(sub.name)]

    def base_models(self, metric: str) -> list[SemanticModel]:
        names = dict.fromkeys(self.measures[x][0].name for x in self.base_measures(metric))
        return [self.models_by_name[n] for n in names]

    def point_in_time(self, metric: str) -> bool:
        m = self.metric_index[metric]
        if m.point_in_time_override is not None:
            return m.point_in_time_override
        if m.type == "cumulative":
            return True
        if m.type in ("ratio", "derived"):
            return any(self.point_in_time(x.name) for x in m.input_metrics)
        return any(self.measures[x][1].point_in_time for x in self.base_measures(metric))

    def additive(self, metric: str) -> bool:
        """Per-period values may be summed over periods (a plain sum or count)."""
        m = self.metric_index[metric]
        return (m.type == "simple" and not self.point_in_time(metric)
                and all(self.measures[x][1].agg in ADDITIVE for x in self.base_measures(metric)))

    def counts(self, metric: str) -> bool | None:
        """Whether the metric's values count things (a count, a distinct count, a sum of 1 or of
        a boolean), from its measures: True; False for a ratio or a sum of a column its name says
        is money ('cancellations_usd', 'order_total', 'amount'); None where it cannot tell (a sum
        of another column: 'guests' counts, 'weight' does not; an average; a derived metric).
        'How many' and 'the number of' ask a count; 'the value of' asks an amount
        (protocol/reading/quantity.py)."""
        m = self.metric_index[metric]
        if m.type in ("ratio", "conversion"):
            return False
        if m.type == "derived":
            return None
        agg = self.measures[self.base_measures(metric)[0]][1]
        if agg.agg in ("count", "count_distinct", "sum_boolean"):
            return True
        if agg.agg != "sum":
            return None  # an average or an extreme of what? its column does not say
        if agg.expr.strip().strip("'\"") == "1":
            return True
        # a sum of a column of money ('cancellations_usd', 'order_total'), not of counts
        # ('guests'): only its name can say which
        return False if _AMOUNT_WORDS.search(f"{agg.name} {agg.expr}") else None

    def currency(self, metric: str) -> str | None:
        """The currency a metric's values are in where no governed unit says it, from the names
        its data team gave: every measure it sums names one and the same ISO code
        ('transaction_amount_usd', 'cancellations_usd': 'usd'), and a derived metric only adds
        and subtracts such metrics. None where a name says none, two, or the metric divides or
        averages (a rate of dollars is no amount of dollars)."""
        m = self.metric_index[metric]
        if m.type in ("ratio", "conversion"):
            return None
        if m.type == "derived":  # each input in one currency, only added and subtracted
            if re.search(r"[*/]", m.expr or ""):
                return None
            inputs = {self.currency(x.name) for x in m.input_metrics}
            return inputs.pop() if len(inputs) == 1 and None not in inputs else None
        codes = set()
        for name in self.base_measures(metric):
            agg = self.measures[name][1]
            if agg.agg != "sum":
                return None
            found = {c.lower() for c in _CURRENCY_CODE.findall(f"{agg.name} {agg.expr}")}
            if len(found) != 1:
                return None
            codes |= found
        return codes.pop() if len(codes) == 1 else None

    def allowed_grains(self, metric: str) -> tuple[str, ...]:
        m = self.metric_index[metric]
        if m.grains:
            return m.grains
        finest = max((GRAINS.index(self.time_grain(sm, self.measures[x][1]))
                      for x in self.base_measures(metric) for sm in [self.measures[x][0]]), default=0)
        return tuple(g for g in self.grains if GRAINS.index(g) >= finest)

    def time_grain(self, sm: SemanticModel, measure: Measure) -> str:
        dim = sm.dimension(measure.agg_time_dimension)
        grain = dim.granularity if dim and dim.granularity else "day"
        return grain if grain in GRAINS else "day"

    def coverage(self, metric: str) -> tuple[dt.date, dt.date]:
        """The intersection of the coverage windows of the metric's sources (unbounded where
        neither the governance nor the warehouse said)."""
        unknown = Coverage(dt.date.min, dt.date.max)
        covs = [self.coverage_by_model.get(sm.name, unknown) for sm in self.base_models(metric)]
        return max(c.from_ for c in covs), min(c.through for c in covs)

    # -- dimensions -----------------------------------------------------------------------------
    def public_name(self, qualified: str) -> str:
        g = self.dimension_governance.get(qualified)
        return g.alias if g and g.alias else qualified

    def qualified_name(self, name: str) -> str:
        return self.aliases.get(name, name)

    def dimension_info(self, ref: DimensionRef) -> DimensionInfo:
        """What the catalog says of a dimension reached by a join path."""
        owner = self.models_by_name[ref.owner]
        own_name = f"{owner.primary_entity}__{ref.dimension.name}"
        g = self.dimension_governance.get(ref.name) or self.dimension_governance.get(own_name)
        label = ref.dimension.label or (g.alias if g and g.alias else ref.dimension.name)
        return DimensionInfo(
            name=self.public_name(ref.name), qualified=ref.name, dimension=ref.dimension,
            owner=ref.owner, label=label.replace("_", " "),
            members=tuple(g.members) if g and g.members is not None else None,
            pattern=g.pattern if g else None, synonyms=tuple(g.synonyms) if g else (),
            member_synonyms=dict(g.member_synonyms) if g else {})

    def hidden(self, ref: DimensionRef) -> bool:
        owner = self.models_by_name[ref.owner]
        for key in (ref.name, f"{owner.primary_entity}__{ref.dimension.name}"):
            g = self.dimension_governance.get(key)
            if g and g.hidden:
                return True
        return False

    @cached_property
    def _offered(self) -> dict[str, dict[str, DimensionInfo]]:
        """Per semantic model with measures: the categorical dimensions offered, by public name."""
        from showwork.semantic_layer.joins import reachable

        out: dict[str, dict[str, DimensionInfo]] = {}
        for sm in self.semantic_models:
            if not sm.measures:
                continue
            dims = {}
            for ref in reachable(self, sm).values():
                if ref.dimension.type == "categorical" and not self.hidden(ref):
                    info = self.dimension_info(ref)
                    dims[info.name] = info
            out[sm.name] = dims
        return out

    def offered_dimensions(self, metric: str) -> dict[str, DimensionInfo]:
        """Dimensions every base measure of the metric can be grouped by. A semantic model without
        entities (a global table, like a price list) holds for every member and is left out."""
        per_model = [self._offered[sm.name] for sm in self.base_models(metric) if sm.entities]
        if not per_model:
            return {}
        common = set(per_model[0]).intersection(*per_model[1:])
        return {n: info for n, info in per_model[0].items() if n in common}

    def supported_dimensions(self, metric: str) -> list[str]:
        return sorted(self.offered_dimensions(metric))

    @cached_property
    def dimensions(self) -> dict[str, DimensionInfo]:
        """Every dimension offered with some metric, by public name."""
        out: dict[str, DimensionInfo] = {}
        for m in self.metrics:
            for name, info in self.offered_dimensions(m.name).items():
                out.setdefault(name, info)
        return out


def default_model_path() -> Path:
    """The embedded demo project (dbt YAML + governance)."""
    return Path(str(resources.files("showwork.semantic_layer") / "demo" / "showwork.yaml"))


def load_model(path: Path | str | None = None, governance: Path | str | None = None,
               as_of: dt.date | None = None, database: Path | None = None) -> SemanticModelFile:
    """Load a semantic model: a showwork project (folder or showwork.yaml), a folder or file of
    dbt YAML, or a dbt target/semantic_manifest.json; raise ModelError listing every problem.

    Without a path, the embedded demo. Governance left out is inferred from the warehouse at
    `database` (coverage from the data, member lists of small dimensions)."""
    from showwork.semantic_layer.project import load_project

    return load_project(Path(path) if path else default_model_path(),
                        Path(governance) if governance else None, as_of, database)

