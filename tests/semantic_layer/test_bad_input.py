"""Bad models are clear errors naming the file, the object and what is wrong: a dangling entity,
a cycle of joins, an ambiguous join path, a metric referring to a missing measure or metric. A
metric using a MetricFlow feature showwork does not compute yet loads and is refused when asked
for, by that feature (never silently dropped)."""

from __future__ import annotations

from pathlib import Path

import pytest

from showwork.semantic_layer import SemanticLayer, errors, load_model

BASE = """\
semantic_models:
  - name: orders
    model: ref('orders')
    defaults: {agg_time_dimension: ordered_at}
    entities:
      - {name: order, type: primary, expr: order_id}
      - {name: customer, type: foreign, expr: customer_id}
    dimensions:
      - {name: ordered_at, type: time, type_params: {time_granularity: day}}
      - {name: status, type: categorical}
    measures:
      - {name: revenue, agg: sum, expr: amount}
      - {name: order_count, agg: count, expr: order_id}
  - name: customers
    model: ref('customers')
    entities:
      - {name: customer, type: primary, expr: customer_id}
    dimensions:
      - {name: segment, type: categorical}
metrics:
  - {name: revenue, label: Revenue, type: simple, type_params: {measure: revenue}}
"""
W = {"start": "2024-01-01", "end": "2024-01-31"}


def project(tmp_path: Path, extra_metrics: str = "", edits: tuple[tuple[str, str], ...] = ()) -> Path:
    text = BASE + extra_metrics
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "models.yml"
    path.write_text(text)
    return path


def problems(path: Path, error: type[errors.ModelError] = errors.ModelError) -> list[str]:
    with pytest.raises(error) as info:
        load_model(path)
    return info.value.problems


def line(path: Path, text: str) -> int:
    return next(i for i, x in enumerate(path.read_text().splitlines(), 1) if text in x)


UNSUPPORTED = [
    ("metric default grain read by a grain-less metric_time filter",
     "  - {name: monthly, label: M, type: simple, type_params: {measure: revenue}, "
     "time_granularity: month, filter: \"{{ TimeDimension('metric_time') }} >= '2024-01-01'\"}\n",
     (), "monthly", "a metric_time filter without a grain on a metric with a default "
     "time_granularity"),
    ("average over a period",
     "  - name: weekly\n    label: W\n    type: cumulative\n    type_params: {measure: revenue,"
     " cumulative_type_params: {window: 7 days, period_agg: average}}\n", (), "weekly",
     "period_agg 'average'"),
    ("a window finer than a day",
     "  - {name: hourly, label: H, type: cumulative, type_params: {measure: revenue, "
     "cumulative_type_params: {window: 3 hours}}}\n", (), "hourly", "a window of 3 hours"),
    ("window groupings read as of", "",
     (("      - {name: order_count, agg: count, expr: order_id}",
       "      - {name: order_count, agg: count, expr: order_id}\n      - {name: balance, agg: sum,"
       " expr: amount, non_additive_dimension: {name: ordered_at, window_choice: max, "
       "window_groupings: [customer]}, config: {meta: {showwork: {as_of: true}}}}"),), "balance",
     "window_groupings with showwork's as_of or valid_to"),
]
MEASURE_METRIC = "  - {{name: {0}_metric, label: X, type: simple, type_params: {{measure: {0}}}}}\n"
"""A metric of a measure an entry adds (the measure is named by the entry's object)."""


@pytest.mark.parametrize(("name", "extra", "edits", "obj", "feature"), UNSUPPORTED,
                         ids=[u[0] for u in UNSUPPORTED])
def test_unsupported_feature_loads_and_is_refused_by_name(tmp_path: Path, name, extra, edits,
                                                          obj, feature) -> None:
    """The model loads; asking for the metric is refused saying where (file:line), which object,
    and which feature; the other metrics still answer and it is not in the catalog."""
    measure = not extra
    asked = f"{obj}_metric" if measure else obj
    path = project(tmp_path, extra + (MEASURE_METRIC.format(obj) if measure else ""), edits)
    model = load_model(path)
    assert asked not in model.metric_index and "revenue" in model.metric_index
    with pytest.raises(errors.UnsupportedMetric) as info:
        SemanticLayer(model).compile("query", {"metrics": [asked], "window": W})
    message = info.value.message
    placed = "orders" if measure else obj  # a measure is placed at its semantic model
    assert f"{path}:{line(path, f'name: {placed}')}: " in message, message
    assert f"'{obj}'" in message and feature in message and "not supported yet" in message
    assert "Metrics it can compute: revenue." in message
    SemanticLayer(model).compile("query", {"metrics": ["revenue"], "window": W})


def test_an_entity_role_is_refused_at_load(tmp_path: Path) -> None:
    """A semantic model's own feature showwork cannot read (an entity role) stays a load error
    naming the file, the model and the feature."""
    path = project(tmp_path, edits=(("{name: customer, type: foreign, expr: customer_id}",
                                     "{name: customer, type: foreign, expr: customer_id, "
                                     "role: buyer}"),))
    problems_ = [p for p in problems(path, errors.UnsupportedFeature) if "an entity role" in p]
    assert problems_ and "semantic model 'orders', entity 'customer'" in problems_[0]


def test_metric_with_a_missing_measure(tmp_path: Path) -> None:
    """dbt-semantic-interfaces' own validation names the metric, its file and line."""
    path = project(tmp_path, "  - {name: refunds, label: R, type: simple, type_params: {measure: nope}}\n")
    (found,) = problems(path)
    assert found.startswith(f"{path}:{line(path, 'name: refunds')}: metric 'refunds': ")
    assert "'nope'" in found


def test_ratio_of_a_missing_metric(tmp_path: Path) -> None:
    """A ratio naming a metric that does not exist is refused with the metric's place."""
    path = project(tmp_path, "  - {name: share, label: S, type: ratio, type_params: "
                             "{numerator: revenue, denominator: ghost}}\n")
    assert any(p.startswith(f"{path}:{line(path, 'name: share')}: metric 'share'") and "ghost" in p
               for p in problems(path))


def test_metrics_referring_to_each_other(tmp_path: Path) -> None:
    """Derived metrics that refer to each other are a cycle, each reported once."""
    path = project(tmp_path, "  - {name: aa, label: A, type: derived, type_params: {expr: bb + 1,"
                             " metrics: [bb]}}\n  - {name: bb, label: B, type: derived, "
                             "type_params: {expr: aa + 1, metrics: [aa]}}\n")
    assert problems(path) == [
        f"{path}:{line(path, 'name: aa')}: metric 'aa' refers to itself: aa → bb → aa",
        f"{path}:{line(path, 'name: bb')}: metric 'bb' refers to itself: bb → aa → bb"]


def test_dangling_entity_in_a_filter(tmp_path: Path) -> None:
    """A filter through an entity that is no model's key names the entity and the model."""
    path = project(tmp_path, "  - {name: city_revenue, label: C, type: simple, type_params: "
                             "{measure: revenue}, filter: \"{{ Dimension('store__city') }} = 'x'\"}\n",
                   (("      - {name: customer, type: foreign, expr: customer_id}\n",
                     "      - {name: customer, type: foreign, expr: customer_id}\n"
                     "      - {name: store, type: foreign, expr: store_id}\n"),))
    (found,) = problems(path)
    assert found == (f"{path}:{line(path, 'name: city_revenue')}: metric 'city_revenue': filter: "
                     "Dimension 'store__city': entity 'store' of semantic model 'orders' "
                     f"({path}:2) joins no semantic model: none has it as a primary, unique or "
                     "natural entity (a dangling entity).")


CYCLE = (("      - {name: customer, type: primary, expr: customer_id}\n    dimensions:",
          "      - {name: customer, type: primary, expr: customer_id}\n"
          "      - {name: order, type: foreign, expr: first_order_id}\n    dimensions:"),)


def test_cycle_of_joins_in_a_filter_and_a_query(tmp_path: Path) -> None:
    """A join path coming back to a semantic model it left is refused, with the path."""
    path = project(tmp_path, "  - {name: loop_revenue, label: L, type: simple, type_params: "
                             "{measure: revenue}, filter: \"{{ Dimension('order__status', "
                             "entity_path=['customer']) }} = 'x'\"}\n", CYCLE)
    (found,) = problems(path)
    assert "the join path orders → customers → orders comes back to 'orders' (a cycle of joins)" in found
    assert found.startswith(f"{path}:{line(path, 'name: loop_revenue')}: metric 'loop_revenue'")
    layer = SemanticLayer(load_model(project(tmp_path, "", CYCLE)))
    with pytest.raises(errors.UnsupportedDimension) as info:
        layer.compile("query", {"metrics": ["revenue"], "window": W,
                                "group_by": ["customer__order__status"]})
    assert "comes back to 'orders' (a cycle of joins)" in info.value.message
    assert info.value.message.endswith("; supported: customer__segment, order__status.")


AMBIGUOUS = (("    dimensions:\n      - {name: segment, type: categorical}",
              "    dimensions:\n      - {name: segment, type: categorical}\n"
              "  - name: customers_crm\n    model: ref('crm')\n    primary_entity: crm_row\n"
              "    entities:\n      - {name: customer, type: unique, expr: customer_id}\n"
              "    dimensions:\n      - {name: segment, type: categorical}"),)


def test_ambiguous_join_path(tmp_path: Path) -> None:
    """Two models keyed by the same entity with the same dimension: a query naming it is
    refused naming both models; the catalog does not offer it; a filter on it fails to load."""
    path = project(tmp_path, "", AMBIGUOUS)
    model = load_model(path)
    assert "customer__segment" not in model.supported_dimensions("revenue")
    with pytest.raises(errors.AmbiguousDimension) as info:
        SemanticLayer(model).compile("query", {"metrics": ["revenue"], "window": W,
                                               "group_by": ["customer__segment"]})
    assert info.value.message == (
        "Dimension 'customer__segment' is ambiguous: entity 'customer' joins semantic model "
        f"'customers' ({path}:{line(path, 'name: customers')}) and semantic model 'customers_crm' "
        f"({path}:{line(path, 'name: customers_crm')}); both have dimension 'segment'. Make the "
        "entity a key of one model only.")
    path = project(tmp_path, "  - {name: ent_revenue, label: E, type: simple, type_params: "
                             "{measure: revenue}, filter: \"{{ Dimension('customer__segment') }} "
                             "= 'enterprise'\"}\n", AMBIGUOUS)
    (found,) = problems(path)
    assert "metric 'ent_revenue': filter: Dimension 'customer__segment' is ambiguous" in found


def test_unknown_key_is_reported_not_ignored(tmp_path: Path) -> None:
    """A misspelt key is an error at its object (dbt-semantic-interfaces' schema)."""
    path = project(tmp_path, "", (("{name: revenue, agg: sum, expr: amount}",
                                   "{name: revenue, agg: sum, expr: amount, filter: 'x > 1'}"),))
    (found,) = problems(path)
    assert found.startswith(f"{path}:2: semantic model 'orders': measures[0]: Additional "
                            "properties are not allowed ('filter' was unexpected)")


class TestGovernance:
    def test_governance_naming_unknown_things(self, tmp_path: Path) -> None:
        """Governance about a metric, dimension or model the dbt project lacks is an error."""
        path = project(tmp_path)
        gov = tmp_path / "governance.yaml"
        gov.write_text("version: 1\nmetrics:\n  revnue: {owner: finance}\ndimensions:\n"
                       "  customer__segmnt: {synonyms: [tier]}\ncoverage:\n"
                       "  order: {from: 2024-01-01, through: 2024-12-31}\n")
        with pytest.raises(errors.ModelError) as info:
            load_model(path, governance=gov)
        text = "\n".join(info.value.problems)
        assert "metrics.revnue: no metric named 'revnue'" in text
        assert "coverage.order: no semantic model named 'order'" in text
        path.write_text(BASE)
        gov.write_text("version: 1\ndimensions:\n  customer__segmnt: {synonyms: [tier]}\n")
        with pytest.raises(errors.ModelError, match="dimensions.customer__segmnt: no dimension"):
            load_model(path, governance=gov)

    def test_uncitable_member_and_bad_keys(self, tmp_path: Path) -> None:
        """A closed member list with a member no citation can name, or an unknown governance
        key, is refused."""
        path = project(tmp_path)
        gov = tmp_path / "governance.yaml"
        gov.write_text("version: 1\ndimensions:\n  customer__segment: {members: [\"a\\nb\"]}\n")
        with pytest.raises(errors.ModelError, match="member 'a\\\\nb' cannot be cited"):
            load_model(path, governance=gov)
        gov.write_text("version: 1\nmetrics:\n  revenue: {owners: [ann]}\n")
        with pytest.raises(errors.ModelError, match="metrics.revenue.owners: Extra inputs"):
            load_model(path, governance=gov)


def test_governance_of_a_metric_it_cannot_compute_still_loads(tmp_path: Path) -> None:
    """Governance naming a metric that loads as not computable (a cumulative metric averaged
    over its period) is not an error: the project loads, the metric is refused by its feature,
    the rest keeps its governance."""
    (extra,) = [u[1] for u in UNSUPPORTED if u[0] == "average over a period"]
    path = project(tmp_path, extra)
    gov = tmp_path / "governance.yaml"
    gov.write_text("version: 1\nmetrics:\n  weekly: {synonyms: [weekly revenue]}\n"
                   "  revenue: {synonyms: [sales]}\nmetric_tree:\n  influence:\n"
                   "    - {source: weekly, target: revenue}\n")
    model = load_model(path, governance=gov)
    assert model.metric_index["revenue"].synonyms == ("sales",)
    assert model.refusal("weekly") and not model.metric_tree.influence
