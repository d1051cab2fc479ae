"""showwork's governance: from a governance file or `config: {meta: {showwork: …}}` blocks, with
defaults inferred from the warehouse; the demo's short dimension names are governance aliases."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from showwork.semantic_layer import SemanticLayer, errors, load_model
from showwork.semantic_layer.catalog import build_catalog

PROJECT = Path(__file__).resolve().parents[2] / "conformance" / "project"
W = {"start": "2026-03-09", "end": "2026-03-15"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A writable copy of the conformance project's dbt YAML."""
    return Path(shutil.copytree(PROJECT / "models", tmp_path / "models"))


def test_meta_blocks_govern_metrics_and_dimensions(project: Path) -> None:
    """Synonyms, owner, unit, previous names, an alias, members and a tree edge from meta."""
    metrics = project / "metrics.yml"
    metrics.write_text(metrics.read_text().replace(
        "  - {name: revenue, label: Revenue, type: simple, type_params: {measure: revenue}}",
        "  - name: revenue\n    label: Revenue\n    type: simple\n    type_params: {measure: revenue}\n"
        "    config:\n      meta:\n        showwork:\n          synonyms: [takings]\n"
        "          owner: finance\n          unit: usd\n          previous_names: [gross_sales]\n"
        "          factors: [orders, average_order]\n          influenced_by: [visits]"))
    geo = project / "geography.yml"
    geo.write_text(geo.read_text().replace(
        "      - name: region\n        type: categorical",
        "      - name: region\n        type: categorical\n        config:\n          meta:\n"
        "            showwork: {alias: region, synonyms: [area], member_synonyms: {NA: North America}}"))
    model = load_model(project)
    cat = build_catalog(model)
    revenue = cat["metrics"]["revenue"]
    assert (revenue["synonyms"], revenue["owner"], revenue["unit"], revenue["previous_names"]) == (
        ["takings"], "finance", "usd", ["gross_sales"])
    assert cat["tree"]["exact"][0] == {"parent": "revenue", "op": "multiply",
                                       "factors": ["orders", "average_order"]}
    assert cat["tree"]["influence"] == [{"source": "visits", "target": "revenue", "strength": None}]
    assert model.previous_names == {"gross_sales": "revenue"}
    # the alias names the countries model's own dimension; other paths keep MetricFlow names
    assert "region" in cat["metrics"]["customers"]["dimensions"]
    assert cat["dimensions"]["region"]["synonyms"] == ["area"]
    assert "customer__country__region" in cat["metrics"]["revenue"]["dimensions"]


def test_governance_file_wins_over_meta(project: Path, tmp_path: Path) -> None:
    """Where both say something, the governance file decides; the rest of meta stays."""
    metrics = project / "metrics.yml"
    metrics.write_text(metrics.read_text().replace(
        "  - {name: orders, label: Orders, type: simple, type_params: {measure: orders}}",
        "  - name: orders\n    label: Orders\n    type: simple\n    type_params: {measure: orders}\n"
        "    config: {meta: {showwork: {owner: ops, synonyms: [purchases]}}}"))
    gov = tmp_path / "governance.yaml"
    gov.write_text("version: 1\nas_of: 2024-06-30\ngrains: [week, month]\n"
                   "metrics:\n  orders: {owner: sales, version: 3}\n"
                   "coverage:\n  transactions: {from: 2024-01-01, through: 2024-06-30}\n")
    model = load_model(project, governance=gov)
    orders = model.metric_index["orders"]
    assert (orders.owner, orders.synonyms, orders.version) == ("sales", ("purchases",), 3)
    assert model.allowed_grains("orders") == ("week", "month")
    assert model.as_of.isoformat() == "2024-06-30"
    assert [d.isoformat() for d in model.coverage("orders")] == ["2024-01-01", "2024-06-30"]


def test_defaults_are_inferred_from_the_warehouse(shop: SemanticLayer, shop_sql) -> None:
    """Coverage is min..max of each time dimension; as_of is the end of coverage; small
    dimensions get closed member lists; an orphan key's null is not a member."""
    model = shop.model
    first, last = shop_sql.execute("SELECT min(refunded_on::DATE), max(refunded_on::DATE) "
                                   "FROM refunds").fetchone()
    assert model.coverage("refunds_usd") == (first, last)
    assert model.as_of == last and last.isoformat() > "2024-06-30"  # refunds run past June
    regions = model.dimensions["customer__country__region"].members
    assert regions == ("Africa", "Asia", "Europe", "North America", "South America")
    cat = build_catalog(model)
    assert cat["metrics"]["revenue"]["coverage"] == {"start": "2024-01-01", "end": "2024-06-30"}
    assert cat["grains"] == ["day", "week", "month", "quarter", "year"]


class TestDemoNames:
    def test_alias_and_metricflow_name_give_the_same_numbers(self, layer: SemanticLayer) -> None:
        """`platform` is the governance alias of `user__platform`; both work, each keyed as asked."""
        short = layer.call("query", {"metrics": ["active_users"], "window": W, "group_by": ["platform"]})
        long = layer.call("query", {"metrics": ["active_users"], "window": W,
                                    "group_by": ["user__platform"]})
        assert [r.key["platform"] for r in short.rows] == [r.key["user__platform"] for r in long.rows]
        assert [r.values for r in short.rows] == [r.values for r in long.rows]

    def test_hidden_dimensions_are_refused(self, layer: SemanticLayer) -> None:
        """Dimensions the governance hides (used by metric filters) are never offered."""
        for name in ("user__is_test", "event__event_type", "is_test"):
            with pytest.raises(errors.UnsupportedDimension, match="supported: channel, country"):
                layer.call("query", {"metrics": ["active_users"], "window": W, "group_by": [name]})

    def test_quarter_is_not_a_demo_grain(self, layer: SemanticLayer) -> None:
        """The demo's governance offers day, week and month only."""
        with pytest.raises(errors.GrainNotAllowed, match="allowed: day, week, month"):
            layer.call("query", {"metrics": ["new_users"], "grain": "quarter",
                                 "window": {"start": "2026-01-01", "end": "2026-03-31"}})


# -- not_aggregable_over: a rollup the data cannot support is refused ---------------------------
def _with_rule(source: Path, tmp_path: Path, metric: str, dims: list[str]) -> Path:
    """The project's governance file with `not_aggregable_over` added to one metric."""
    import yaml

    gov = yaml.safe_load(source.read_text())
    gov["metrics"].setdefault(metric, {})["not_aggregable_over"] = dims
    out = tmp_path / "governance.yaml"
    out.write_text(yaml.safe_dump(gov))
    return out


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_rollup_across_a_not_aggregable_dimension_is_refused(domain, tmp_path, demo_db) -> None:
    """Without grouping by the dimension or keeping one member, the query is refused with a
    message naming the metric, the dimension and why; grouped or filtered it runs; a metric
    computed from it inherits the rule."""
    from shop_data import shop_db

    from showwork.semantic_layer.model import default_model_path
    from showwork.semantic_layer.project import load_project

    root = Path(__file__).resolve().parents[2]
    if domain == "demo":
        path, db, metric, dim, member = default_model_path(), demo_db, "active_days", \
            "platform", "ios"
        window, child = W, "days_per_user"
        gov = _with_rule(root / "semantic_layer/demo/governance.yaml", tmp_path, metric, [dim])
    else:
        path, db, metric, dim, member = root / "examples/shop", shop_db(), "revenue", \
            "store", None
        window, child = {"start": "2019-03-01", "end": "2019-03-31"}, "average_order_value"
        gov = _with_rule(root / "examples/shop/governance.yaml", tmp_path, metric, [dim])
    layer = SemanticLayer(load_project(path, governance=gov, database=db), db)
    try:
        for asked in (metric, child):
            with pytest.raises(errors.NotAggregable) as refused:
                layer.query(metrics=[asked], window=window)
            message = str(refused.value)
            assert repr(asked) in message and dim in message and "not aggregable" in message
        grouped = layer.query(metrics=[metric], window=window, group_by=[dim])
        assert len(grouped.rows) > 1
        member = member or str(grouped.rows[0].key[dim])
        one = layer.query(metrics=[metric], window=window,
                          where=[{"dimension": dim, "values": [member]}])
        assert one.rows[0].values[metric]["value"] == grouped.rows[0].values[metric]["value"] \
            or member != str(grouped.rows[0].key[dim])
        with pytest.raises(errors.NotAggregable):
            layer.compare(metrics=[metric], current_window=window, previous_window=window | {
                "start": "2019-02-01" if domain == "shop" else "2026-03-02",
                "end": "2019-02-28" if domain == "shop" else "2026-03-08"})
    finally:
        layer.close()
