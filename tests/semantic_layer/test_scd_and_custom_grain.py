"""Slowly changing dimensions and custom granularities, answered as MetricFlow answers them.

Two models, each with small DuckDB data: one shaped like MetricFlow's own `scd_manifest` (its
YAML form: one object a document, a `project_configuration` with the time spine and its custom
granularity), and one of our own in dbt's YAML (`semantic_models:`, `metrics:`, a `models:`
entry with `time_spine:`). The expected numbers are what `mf query` (MetricFlow 0.210) gave on
the same models and data (conformance/.venv, mf_driver.py); no MetricFlow runs here.

- a dimension of a Type II table (validity_params) joins on its natural key and the fact's time
  within [start, end) of the row, a null end open, each bound at its own grain; a fact row with
  no row in force groups under null;
- `entity__dim__<custom>` and `metric_time__<custom>` group by the time spine's column for the
  day (null on a day the spine lacks);
- a manifest with a custom granularity loads; what showwork cannot compute yet (an offset by a
  custom granularity) loads and is refused when asked for, naming the feature.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from showwork.semantic_layer import SemanticLayer, errors, load_model

# -- MetricFlow's scd_manifest shape (dbt-semantic-interfaces' YAML) ----------------------------
MF_DOCS: list[dict[str, Any]] = [
    {"project_configuration": {"time_spines": [{
        "node_relation": {"alias": "mf_time_spine", "schema_name": "$source_schema"},
        "primary_column": {"name": "ds", "time_granularity": "day"},
        "custom_granularities": [{"name": "alien_day"}]}]}},
    {"semantic_model": {
        "name": "bookings_source", "node_relation": {"schema_name": "$source_schema",
                                                     "alias": "fct_bookings"},
        "defaults": {"agg_time_dimension": "ds"},
        "measures": [{"name": "bookings", "expr": "1", "agg": "sum"},
                     {"name": "booking_value", "agg": "sum"}],
        "dimensions": [{"name": "is_instant", "type": "categorical"},
                       {"name": "ds", "type": "time", "type_params": {"time_granularity": "day"}}],
        "primary_entity": "booking",
        "entities": [{"name": "listing", "type": "foreign", "expr": "listing_id"}]}},
    {"semantic_model": {
        "name": "listings", "node_relation": {"schema_name": "$source_schema",
                                              "alias": "dim_listings"},
        "dimensions": [
            {"name": "window_start", "type": "time", "expr": "active_from",
             "type_params": {"time_granularity": "day", "validity_params": {"is_start": True}}},
            {"name": "window_end", "type": "time", "expr": "active_to",
             "type_params": {"time_granularity": "day", "validity_params": {"is_end": True}}},
            {"name": "capacity", "type": "categorical"},
            {"name": "is_lux", "type": "categorical"}],
        "primary_entity": "listing",
        "entities": [{"name": "listing", "type": "natural", "expr": "listing_id"},
                     {"name": "user", "type": "foreign", "expr": "user_id"}]}},
    {"semantic_model": {
        "name": "users_latest", "node_relation": {"schema_name": "$source_schema",
                                                  "alias": "dim_users_latest"},
        "dimensions": [{"name": "home_state_latest", "type": "categorical"}],
        "entities": [{"name": "user", "type": "primary", "expr": "user_id"}]}},
    {"semantic_model": {
        "name": "lux_listing_mapping", "node_relation": {"schema_name": "$source_schema",
                                                         "alias": "dim_lux_listing_id_mapping"},
        "entities": [{"name": "listing", "type": "primary", "expr": "listing_id"},
                     {"name": "lux_listing", "type": "foreign", "expr": "lux_listing_id"}]}},
    {"semantic_model": {
        "name": "lux_listings", "node_relation": {"schema_name": "$source_schema",
                                                  "alias": "dim_lux_listings"},
        "dimensions": [
            {"name": "window_start", "type": "time", "expr": "valid_from",
             "type_params": {"time_granularity": "day", "validity_params": {"is_start": True}}},
            {"name": "window_end", "type": "time", "expr": "valid_to",
             "type_params": {"time_granularity": "day", "validity_params": {"is_end": True}}},
            {"name": "is_confirmed_lux", "type": "categorical"}],
        "primary_entity": "lux_listing",
        "entities": [{"name": "lux_listing", "type": "natural", "expr": "lux_listing_id"}]}},
    {"metric": {"name": "bookings", "type": "SIMPLE", "type_params": {"measure": "bookings"}}},
    {"metric": {"name": "booking_value", "type": "SIMPLE",
                "type_params": {"measure": "booking_value"}}},
    {"metric": {"name": "family_bookings", "type": "SIMPLE",
                "filter": "{{ Dimension('listing__capacity') }} > 2",
                "type_params": {"measure": "bookings"}}},
    {"metric": {"name": "bookings_offset_one_alien_day", "type": "DERIVED",
                "type_params": {"expr": "bookings", "metrics": [
                    {"name": "bookings", "offset_window": "1 alien_day"}]}}},
]
MF_DATA = """
CREATE TABLE fct_bookings (listing_id INT, is_instant BOOLEAN, ds TIMESTAMP, booking_value DOUBLE);
INSERT INTO fct_bookings VALUES
  (1, true, '2020-01-01', 10), (1, false, '2020-01-04', 20), (1, true, '2020-01-05', 30),
  (2, false, '2020-01-02', 40), (2, true, '2020-01-10', 50), (3, false, '2020-01-03', 60),
  (9, true, '2020-01-03', 70), (1, false, '2019-12-31', 80);
CREATE TABLE dim_listings (listing_id INT, active_from TIMESTAMP, active_to TIMESTAMP,
                           capacity INT, is_lux BOOLEAN, user_id INT);
INSERT INTO dim_listings VALUES
  (1, '2020-01-01', '2020-01-05', 2, false, 100), (1, '2020-01-05', NULL, 4, true, 101),
  (2, '2020-01-01 12:00:00', '2020-01-08', 3, false, 101), (3, '2020-01-04', NULL, 5, true, 100);
CREATE TABLE dim_users_latest (user_id INT, home_state_latest VARCHAR);
INSERT INTO dim_users_latest VALUES (100, 'CA'), (101, 'NY');
CREATE TABLE dim_lux_listing_id_mapping (listing_id INT, lux_listing_id INT);
INSERT INTO dim_lux_listing_id_mapping VALUES (1, 10), (2, 20), (3, 30);
CREATE TABLE dim_lux_listings (lux_listing_id INT, valid_from DATE, valid_to DATE,
                               is_confirmed_lux BOOLEAN);
INSERT INTO dim_lux_listings VALUES (10, '2020-01-01', '2020-01-04', false),
  (10, '2020-01-04', NULL, true), (20, '2020-01-05', NULL, true);
CREATE TABLE mf_time_spine AS
SELECT d::TIMESTAMP AS ds, (DATE '2020-01-01' + ((day(d) - 1) // 4) * INTERVAL 4 DAY)::TIMESTAMP
       AS alien_day
FROM range(DATE '2020-01-01', DATE '2020-01-09', INTERVAL 1 DAY) t(d);
"""
"""Listing 1 is 2 guests until Jan 5 (exclusive), then 4, open-ended; listing 2's row starts at
noon on Jan 1 (a day grain reads it from Jan 1) and ends Jan 8; listing 3 has no row before Jan 4;
listing 9 has none. The spine covers Jan 1–8 only: alien days start on Jan 1 and Jan 5."""


# -- our own: dbt's YAML, a fiscal calendar on the time spine ------------------------------------
OWN_YAML = """\
semantic_models:
  - name: orders
    model: ref('orders')
    defaults: {agg_time_dimension: ordered_at}
    entities:
      - {name: order, type: primary, expr: order_id}
      - {name: customer, type: foreign, expr: customer_id}
    dimensions:
      - {name: ordered_at, type: time, type_params: {time_granularity: day}}
      - {name: shipped_at, type: time, type_params: {time_granularity: day}}
    measures:
      - {name: revenue, agg: sum, expr: amount}
      - {name: shipped_revenue, agg: sum, expr: amount, agg_time_dimension: shipped_at}
  - name: customer_tiers
    description: One row per customer and tier, while it held (a Type II table).
    model: ref('customer_tiers')
    primary_entity: customer
    entities:
      - {name: customer, type: natural, expr: customer_id}
    dimensions:
      - {name: tier, type: categorical}
      - {name: tier_from, type: time, expr: valid_from,
         type_params: {time_granularity: day, validity_params: {is_start: true}}}
      - {name: tier_to, type: time, expr: valid_to,
         type_params: {time_granularity: day, validity_params: {is_end: true}}}
metrics:
  - {name: revenue, label: Revenue, type: simple, type_params: {measure: revenue}}
  - {name: shipped_revenue, label: Shipped revenue, type: simple,
     type_params: {measure: shipped_revenue}}
  - name: gold_revenue
    label: Gold revenue
    type: simple
    filter: "{{ Dimension('customer__tier') }} = 'gold'"
    type_params: {measure: revenue}
models:
  - name: fiscal_calendar
    time_spine:
      standard_granularity_column: date_day
      custom_granularities:
        - {name: fiscal_quarter, column_name: fq}
    columns:
      - {name: date_day, granularity: day}
"""
OWN_DATA = """
CREATE TABLE orders (order_id INT, customer_id INT, ordered_at DATE, shipped_at DATE, amount DOUBLE);
INSERT INTO orders VALUES
  (1, 1, '2024-01-15', '2024-02-02', 100), (2, 1, '2024-03-01', '2024-03-03', 200),
  (3, 2, '2024-02-10', '2024-02-11', 50), (4, 2, '2024-04-30', '2024-05-02', 70),
  (5, 3, '2024-05-01', '2024-05-05', 30), (6, 4, '2024-01-31', '2024-02-01', 5),
  (7, 1, '2025-03-01', '2025-03-02', 1000);
CREATE TABLE customer_tiers (customer_id INT, tier VARCHAR, valid_from DATE, valid_to DATE);
INSERT INTO customer_tiers VALUES
  (1, 'silver', '2024-01-01', '2024-03-01'), (1, 'gold', '2024-03-01', NULL),
  (2, 'gold', '2024-01-01', '2024-04-30'), (3, 'silver', '2024-05-02', NULL),
  (4, 'bronze', '2023-01-01', '2024-01-31');
CREATE TABLE fiscal_calendar AS
SELECT d::DATE AS date_day,
       'FY' || (year(d) + (month(d) >= 2)::INT) || '-Q'
           || ((month(d) + 10) % 12) // 3 + 1 AS fq
FROM range(DATE '2024-01-01', DATE '2025-01-01', INTERVAL 1 DAY) t(d);
"""
"""Customer 1 is silver until Mar 1 (exclusive), then gold; customer 2 gold until Apr 30
(its order that day has no tier); customer 3's row starts the day after its order; customer 4's
row ends the day of its order. The fiscal year starts in February; the calendar covers 2024, so
the 2025 order has no fiscal quarter."""


def _database(path: Path, sql: str) -> Path:
    con = duckdb.connect(str(path))
    try:
        con.execute(sql)
    finally:
        con.close()
    return path


@pytest.fixture(scope="module")
def mf_like(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    folder = tmp_path_factory.mktemp("scd_manifest")
    (folder / "manifest.yaml").write_text(yaml.safe_dump_all(MF_DOCS, sort_keys=False))
    layer = SemanticLayer(load_model(folder), _database(folder / "w.duckdb", MF_DATA))
    yield layer
    layer.close()


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    folder = tmp_path_factory.mktemp("own")
    (folder / "models.yml").write_text(OWN_YAML)
    layer = SemanticLayer(load_model(folder), _database(folder / "w.duckdb", OWN_DATA))
    yield layer
    layer.close()


def rows(layer: SemanticLayer, **args: Any) -> list[tuple[Any, ...]]:
    """The result's rows as (members…, metric values…), sorted. A member is text as results
    cite it: '' is MetricFlow's null, 'true' its True."""
    result = layer.call("query", args)
    out = [(*r.key.values(), *(r.values[m]["value"] for m in args["metrics"])) for r in result.rows]
    return sorted(out, key=lambda r: tuple((v is not None, str(v)) for v in r))


class TestSlowlyChangingDimension:
    """A Type II table's dimension joins the row in force at the fact's time."""

    def test_grouped_by_a_dimension_in_force(self, mf_like: SemanticLayer) -> None:
        """Capacity at each booking's day: a booking before any row, or of a listing the table
        lacks, groups under null; the row ending on a day does not hold on it."""
        assert rows(mf_like, metrics=["bookings"], group_by=["listing__capacity"]) == [
            ("", 4), ("2", 2), ("3", 1), ("4", 1)]

    def test_metric_filter_on_it(self, mf_like: SemanticLayer) -> None:
        """A metric filtered on the dimension reads it at each row's time, by the fact's own
        dimension."""
        assert rows(mf_like, metrics=["family_bookings"], group_by=["booking__is_instant"]) == [
            ("false", 1), ("true", 1)]

    def test_through_it_to_another_model(self, mf_like: SemanticLayer) -> None:
        """A dimension reached through the Type II table follows the row in force."""
        assert rows(mf_like, metrics=["booking_value"],
                    group_by=["listing__user__home_state_latest"]) == [
            ("", 260.0), ("CA", 30.0), ("NY", 70.0)]

    def test_two_dimensions_one_row_in_force(self, mf_like: SemanticLayer) -> None:
        """Two dimensions of the same Type II row (one directly, one through it) agree."""
        assert rows(mf_like, metrics=["booking_value"],
                    group_by=["listing__is_lux", "listing__user__home_state_latest"]) == [
            ("", "", 260.0), ("false", "CA", 30.0), ("false", "NY", 40.0), ("true", "NY", 30.0)]

    def test_to_it_through_another_model(self, mf_like: SemanticLayer) -> None:
        """A Type II table two joins away matches at the fact's time; another one on another
        path is matched on its own."""
        assert rows(mf_like, metrics=["booking_value"],
                    group_by=["listing__lux_listing__is_confirmed_lux"]) == [
            ("", 250.0), ("false", 10.0), ("true", 100.0)]
        assert rows(mf_like, metrics=["booking_value"],
                    group_by=["listing__capacity", "listing__lux_listing__is_confirmed_lux"]) == [
            ("", "", 210.0), ("", "true", 50.0), ("2", "false", 10.0), ("2", "true", 20.0),
            ("3", "", 40.0), ("4", "true", 30.0)]

    def test_the_model_on_the_way_read_too_is_refused(self, mf_like: SemanticLayer) -> None:
        """MetricFlow reads the mapping's own columns through the Type II match (listing 2's
        lux_listing is null before its row starts), not as a plain join would: refused."""
        with pytest.raises(errors.UnsupportedDimension, match="read along with a column of a "
                                                              "model joined on the way"):
            mf_like.call("query", {"metrics": ["booking_value"], "group_by": [
                "listing__lux_listing", "listing__lux_listing__is_confirmed_lux"]})

    def test_by_day_at_the_bounds(self, own: SemanticLayer) -> None:
        """A row holds on its start day, not on its end day (customers 2 and 4, Apr 30 and Jan
        31), nor before its start (customer 3)."""
        assert rows(own, metrics=["revenue"], group_by=["customer__tier"], grain="day") == [
            ("2024-01-15", "silver", 100.0), ("2024-01-31", "", 5.0),
            ("2024-02-10", "gold", 50.0), ("2024-03-01", "gold", 200.0),
            ("2024-04-30", "", 70.0), ("2024-05-01", "", 30.0), ("2025-03-01", "gold", 1000.0)]

    def test_own_model_by_day(self, own: SemanticLayer) -> None:
        """Our own model, by month in a window."""
        assert rows(own, metrics=["revenue"], group_by=["customer__tier"], grain="month",
                    window={"start": "2024-01-01", "end": "2024-12-31"}) == [
            ("2024-01-01", "", 5.0), ("2024-01-01", "silver", 100.0),
            ("2024-02-01", "gold", 50.0), ("2024-03-01", "gold", 200.0),
            ("2024-04-01", "", 70.0), ("2024-05-01", "", 30.0)]

    def test_the_measures_own_time_decides(self, own: SemanticLayer) -> None:
        """A measure with its own agg_time_dimension reads the tier at that time (shipped, not
        ordered), as MetricFlow's metric_time is the measure's."""
        assert rows(own, metrics=["shipped_revenue"], group_by=["customer__tier"]) == [
            ("", 75.0), ("gold", 1250.0), ("silver", 130.0)]

    def test_filtered_metric_of_our_own(self, own: SemanticLayer) -> None:
        assert rows(own, metrics=["gold_revenue"]) == [(1250.0,)]


class TestCustomGranularity:
    """A custom granularity groups by the time spine's column for the day."""

    def test_a_dimension_at_it(self, mf_like: SemanticLayer) -> None:
        """Days outside the spine group under null."""
        assert rows(mf_like, metrics=["bookings"], group_by=["booking__ds__alien_day"]) == [
            ("", 2), ("2020-01-01", 5), ("2020-01-05", 1)]

    def test_metric_time_at_it_with_a_type_ii_dimension(self, mf_like: SemanticLayer) -> None:
        assert rows(mf_like, metrics=["bookings"],
                    group_by=["metric_time__alien_day", "listing__is_lux"]) == [
            ("", "", 2), ("2020-01-01", "", 2), ("2020-01-01", "false", 3),
            ("2020-01-05", "true", 1)]

    def test_a_dimension_at_it_with_a_filtered_metric(self, own: SemanticLayer) -> None:
        assert rows(own, metrics=["revenue", "gold_revenue"],
                    group_by=["order__ordered_at__fiscal_quarter", "customer__tier"]) == [
            ("", "gold", 1000.0, 1000.0), ("FY2024-Q4", "", 5.0, None),
            ("FY2024-Q4", "silver", 100.0, None), ("FY2025-Q1", "", 70.0, None),
            ("FY2025-Q1", "gold", 250.0, 250.0), ("FY2025-Q2", "", 30.0, None)]

    def test_metric_time_at_it_across_two_metrics(self, own: SemanticLayer) -> None:
        """Each metric at its own time dimension, the rows joined on the quarter."""
        assert rows(own, metrics=["revenue", "shipped_revenue"],
                    group_by=["metric_time__fiscal_quarter"]) == [
            ("", 1000.0, 1000.0), ("FY2024-Q4", 105.0, None), ("FY2025-Q1", 320.0, 355.0),
            ("FY2025-Q2", 30.0, 100.0)]

    def test_a_joined_dimension_at_it(self, own: SemanticLayer) -> None:
        """The Type II table's own bound at a custom granularity (a dimension like any other)."""
        assert rows(own, metrics=["revenue"], group_by=["customer__tier_from__fiscal_quarter"]) == [
            ("", 105.0), ("FY2024-Q4", 150.0), ("FY2025-Q1", 1200.0)]

    def test_what_it_cannot_compute_loads_and_is_refused(self, mf_like: SemanticLayer) -> None:
        """An offset by a custom granularity loads; asking for it names the feature."""
        with pytest.raises(errors.UnsupportedMetric, match="a window of 1 alien_day is not "
                                                           "supported yet"):
            mf_like.call("query", {"metrics": ["bookings_offset_one_alien_day"]})
        assert "bookings_offset_one_alien_day" not in mf_like.model.metric_index


@pytest.mark.parametrize(("form", "spine", "args"), [
    ("dbt", "fiscal_calendar", {"metrics": ["revenue"], "group_by": ["metric_time__fiscal_quarter"]}),
    ("dbt", "fiscal_calendar", {"metrics": ["revenue"],
                                "group_by": ["order__ordered_at__fiscal_quarter"]}),
    ("metricflow", "mf_time_spine", {"metrics": ["bookings"],
                                     "group_by": ["booking__ds__alien_day"]}),
])
def test_a_missing_time_spine_table_is_named(tmp_path: Path, form: str, spine: str,
                                             args: dict[str, Any]) -> None:
    """A custom granularity whose time spine table the warehouse lacks: one SemanticError naming
    the granularity, the table and the project, not the engine's catalog error; a query at a
    standard grain still runs."""
    if form == "dbt":
        (tmp_path / "models.yml").write_text(OWN_YAML)
        data, plain = OWN_DATA.split("CREATE TABLE fiscal_calendar")[0], "revenue"
    else:
        (tmp_path / "manifest.yaml").write_text(yaml.safe_dump_all(MF_DOCS, sort_keys=False))
        data, plain = MF_DATA.split("CREATE TABLE mf_time_spine")[0], "bookings"
    layer = SemanticLayer(load_model(tmp_path), _database(tmp_path / "w.duckdb", data))
    try:
        with pytest.raises(errors.SemanticError) as caught:
            layer.call("query", args)
        message = caught.value.message
        assert f"time spine table {spine!r}" in message and str(tmp_path) in message
        assert "Catalog Error" not in message
        assert layer.call("query", {"metrics": [plain], "grain": "month"}).rows
    finally:
        layer.close()
