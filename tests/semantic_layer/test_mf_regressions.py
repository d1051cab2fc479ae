"""Differences the differential run (conformance/differential.py) found against MetricFlow, each
fixed and kept here as a case that needs no MetricFlow: the expected rows are SQL written by hand
in the shape MetricFlow itself renders (read from its own SQL for the same query), each
checked against MetricFlow 0.210 through conformance/mf_driver.py.

- sum_boolean: MetricFlow sums CASE WHEN x THEN 1 ELSE 0 END, so a group of nulls is 0;
- an offset no finer than the grain reads the period whose start is the period's start shifted
  back (a week back by a month: none unless that day is a Monday); by day, day − offset exactly;
  a calendar offset finer than the grain (a month by quarter) reads day − offset for every day;
- a cumulative metric by a coarser grain than a day (period_agg first) is its value on the first
  day of the period that has rows in its range, per group;
- a dimension three joins away is refused (MetricFlow's limit is two);
- offset_cut_period: an offset no finer than the grain under a --where bounding metric_time
  that cuts a period reads the whole period shifted back (MetricFlow filters its time spine, not
  the shifted rows); a finer offset shifts each day the bound keeps;
- offset_mixed_where: a --where bounding metric_time in one filter with other conditions is
  applied by MetricFlow to the offset input's rows before the shift: refused unless the bounds
  keep the window and every day the offset reads (or a finer offset, bounded by day);
- last_day_with_data / last_day_per_group: a cumulative metric with period_agg last by a coarser
  grain is its value on the period's last day whose trailing range has rows, per group."""

from __future__ import annotations

import duckdb
import pytest

from showwork.semantic_layer import SemanticLayer, errors, load_model, parse_where

MODELS = """
semantic_models:
  - name: sales
    model: ref('sales')
    defaults: {agg_time_dimension: sold_on}
    entities:
      - {name: sale, type: primary, expr: sale_id}
      - {name: store, type: foreign, expr: store_id}
    dimensions:
      - {name: sold_on, type: time, type_params: {time_granularity: day}}
    measures:
      - {name: amount, agg: sum}
      - {name: gifts, agg: sum_boolean, expr: is_gift}
      - {name: sales_count, agg: count, expr: sale_id}
  - name: stores
    model: ref('stores')
    entities:
      - {name: store, type: primary, expr: store_id}
      - {name: town, type: foreign, expr: town_id}
    dimensions:
      - {name: store_kind, type: categorical, expr: kind}
  - name: towns
    model: ref('towns')
    entities:
      - {name: town, type: primary, expr: town_id}
      - {name: region, type: foreign, expr: region_id}
    dimensions:
      - {name: town_name, type: categorical, expr: name}
  - name: regions
    model: ref('regions')
    entities:
      - {name: region, type: primary, expr: region_id}
    dimensions:
      - {name: region_name, type: categorical, expr: name}
metrics:
  - {name: amount, label: Amount, type: simple, type_params: {measure: amount}}
  - {name: gifts, label: Gifts, type: simple, type_params: {measure: gifts}}
  - name: amount_mom
    label: Amount against a month before
    type: derived
    type_params:
      expr: amount - before
      metrics: [{name: amount}, {name: amount, alias: before, offset_window: 1 month}]
  - name: sales_mtd
    label: Sales month to date
    type: cumulative
    type_params: {measure: sales_count, cumulative_type_params: {grain_to_date: month}}
  - name: sales_7d
    label: Sales trailing week
    type: cumulative
    type_params: {measure: sales_count, cumulative_type_params: {window: 7 days}}
  - name: amount_7d_last
    label: Amount trailing week, at the period's last day
    type: cumulative
    type_params: {measure: amount, cumulative_type_params: {window: 7 days, period_agg: last}}
  - name: amount_mtd_last
    label: Amount month to date, at the period's last day
    type: cumulative
    type_params: {measure: amount, cumulative_type_params: {grain_to_date: month, period_agg: last}}
  - name: amount_wow
    label: Amount against a week before
    type: derived
    type_params:
      expr: amount - before
      metrics: [{name: amount}, {name: amount, alias: before, offset_window: 1 week}]
"""

SALES = [  # sale_id, store_id, sold_on, amount, is_gift
    (1, 1, "2024-02-29", 10.0, None), (2, 2, "2024-02-29", 5.0, None),
    (3, 1, "2024-03-04", 7.0, True), (4, 2, "2024-03-30", 3.0, None),
    (5, 1, "2024-03-31", 2.0, False), (6, 1, "2024-04-04", 1.0, None),
    (7, 2, "2024-04-30", 4.0, True), (8, 1, "2024-05-06", 8.0, None),
]


@pytest.fixture(scope="module")
def sales(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    root = tmp_path_factory.mktemp("sales")
    (root / "models").mkdir()
    (root / "models" / "sales.yml").write_text(MODELS)
    db = root / "sales.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE sales (sale_id INT, store_id INT, sold_on DATE, amount DOUBLE, "
                "is_gift BOOLEAN)")
    con.executemany("INSERT INTO sales VALUES (?, ?, ?, ?, ?)", SALES)
    con.execute("CREATE TABLE stores AS SELECT * FROM (VALUES (1, 'kiosk', 1), (2, 'mall', 2)) "
                "v(store_id, kind, town_id)")
    con.execute("CREATE TABLE towns AS SELECT * FROM (VALUES (1, 'Ayr', 1), (2, 'Bow', 1)) "
                "v(town_id, name, region_id)")
    con.execute("CREATE TABLE regions AS SELECT * FROM (VALUES (1, 'North')) v(region_id, name)")
    con.close()
    layer = SemanticLayer(load_model(root / "models", database=db), db)
    yield layer
    layer.close()


def _rows(layer: SemanticLayer, args: dict) -> list[tuple]:
    result = layer.call("query", args)
    return sorted((tuple(row.key[k] for k in result.keys)
                   + tuple(row.values[m]["value"] for m in result.metrics)) for row in result.rows)


def test_sum_boolean_of_nulls_is_zero(sales: SemanticLayer) -> None:
    got = _rows(sales, {"metrics": ["gifts"], "grain": "day",
                        "window": {"start": "2024-02-29", "end": "2024-03-04"}})
    assert got == [("2024-02-29", 0), ("2024-03-04", 1)]


def test_offset_a_month_by_week_reads_the_week_a_month_back_only_from_a_monday(
        sales: SemanticLayer) -> None:
    """Week of Apr 1: a month back is Mar 1, a Friday, no week start: no previous value. Week
    of Apr 29: Mar 29 is a Friday too. Mar 4 − 1 month = Feb 4, a Monday: the week of Feb 5 …
    is empty; only weeks with a current value show one."""
    got = _rows(sales, {"metrics": ["amount_mom"], "grain": "week", "whole_periods": True,
                        "window": {"start": "2024-04-01", "end": "2024-05-12"}})
    assert got == [("2024-04-01", None), ("2024-04-29", None), ("2024-05-06", None)]


def test_offset_a_month_by_day_reads_day_minus_a_month(sales: SemanticLayer) -> None:
    """Mar 30 and Mar 31 both read Feb 29 (15.0); Apr 30 reads Mar 30 only (3.0)."""
    got = _rows(sales, {"metrics": ["amount_mom"], "grain": "day",
                        "window": {"start": "2024-03-30", "end": "2024-04-30"}})
    assert ("2024-03-30", 3.0 - 15.0) in got and ("2024-03-31", 2.0 - 15.0) in got
    assert ("2024-04-30", 4.0 - 3.0) in got


def test_offset_a_month_by_quarter_shifts_every_day(sales: SemanticLayer) -> None:
    """Q1: Mar 29, 30 and 31 all read Feb 29 (15 three times) → 27 − 45. Q2: May 30 and 31 both
    read Apr 30 (4 twice), Mar 31 is read by no day → 13 − (7 + 3 + 1 + 4 + 4 + 8)."""
    got = _rows(sales, {"metrics": ["amount_mom"], "grain": "quarter",
                        "window": {"start": "2024-01-01", "end": "2024-06-30"}})
    assert got == [("2024-01-01", 27.0 - 45.0), ("2024-04-01", 13.0 - 27.0)]


def test_cumulative_by_month_is_its_value_on_the_first_day_with_data(sales: SemanticLayer) -> None:
    """March: the 1st has no sale since the month began, the first day with one is the 4th (1);
    April: the 4th (1). By store, each group its own first day."""
    got = _rows(sales, {"metrics": ["sales_mtd", "sales_7d"], "grain": "month",
                        "whole_periods": True,
                        "window": {"start": "2024-03-01", "end": "2024-04-30"}})
    # trailing week at Mar 1 holds the two sales of Feb 29
    assert got == [("2024-03-01", 1, 2), ("2024-04-01", 1, 2)]
    by_store = _rows(sales, {"metrics": ["sales_mtd"], "grain": "month", "whole_periods": True,
                             "group_by": ["store__store_kind"],
                             "window": {"start": "2024-03-01", "end": "2024-04-30"}})
    assert by_store == [("2024-03-01", "kiosk", 1), ("2024-03-01", "mall", 1),
                        ("2024-04-01", "kiosk", 1), ("2024-04-01", "mall", 1)]


def test_two_joins_answer_three_are_refused(sales: SemanticLayer) -> None:
    two = _rows(sales, {"metrics": ["amount"], "group_by": ["store__town__town_name"],
                        "window": {"start": "2024-01-01", "end": "2024-12-31"}})
    assert two == [("Ayr", 28.0), ("Bow", 12.0)]
    with pytest.raises(errors.UnsupportedDimension, match="crosses 3 joins; at most 2"):
        sales.call("query", {"metrics": ["amount"], "group_by": ["store__town__region__region_name"],
                             "window": {"start": "2024-01-01", "end": "2024-12-31"}})


def _where_rows(layer: SemanticLayer, args: dict, where: str) -> list[tuple]:
    return _rows(layer, parse_where(where).apply(args, layer.model))


MARCH_TO_MAY = {"grain": "month", "whole_periods": True,
                "window": {"start": "2024-03-01", "end": "2024-05-31"}}


def test_offset_by_month_under_a_bound_cutting_april_reads_all_of_march(
        sales: SemanticLayer) -> None:
    """metric_time >= Apr 15: April's current value is Apr 30's 4.0, its month before is all of
    March (7 + 3 + 2), not Mar 15–31; by store, the mall's April reads March's 3.0."""
    where = "{{ TimeDimension('metric_time', 'day') }} >= '2024-04-15'"
    got = _where_rows(sales, {"metrics": ["amount_mom"], **MARCH_TO_MAY}, where)
    assert got == [("2024-04-01", 4.0 - 12.0), ("2024-05-01", 8.0 - 5.0)]
    by_store = _where_rows(sales, {"metrics": ["amount_mom"], **MARCH_TO_MAY,
                                   "group_by": ["store__store_kind"]}, where)
    assert by_store == [("2024-04-01", "kiosk", None), ("2024-04-01", "mall", 1.0),
                        ("2024-05-01", "kiosk", 7.0), ("2024-05-01", "mall", None)]


def test_offset_by_week_under_bounds_on_both_sides_reads_whole_weeks_before(
        sales: SemanticLayer) -> None:
    """Apr 3 – Apr 30, by week: the week of Apr 1 (cut) reads the whole week of Mar 25 (3 + 2),
    the week of Apr 29 (cut to one day) the week of Apr 22 (none)."""
    where = ("{{ TimeDimension('metric_time', 'day') }} > '2024-04-02' AND "
             "{{ TimeDimension('metric_time', 'day') }} < '2024-05-01'")
    got = _where_rows(sales, {"metrics": ["amount_wow"], "grain": "week", "whole_periods": True,
                              "window": {"start": "2024-03-25", "end": "2024-05-12"}}, where)
    assert got == [("2024-04-01", 1.0 - 5.0), ("2024-04-08", None), ("2024-04-29", None)]


@pytest.mark.parametrize(("grain", "start", "where"), [
    ("month", "2024-03-01", "{{ Dimension('store__store_kind') }} = 'kiosk' AND "
                            "{{ TimeDimension('metric_time', 'day') }} >= '2024-04-15'"),
    ("day", "2024-03-30", "{{ Dimension('store__store_kind') }} = 'mall' AND "
                          "{{ TimeDimension('metric_time', 'day') }} >= '2024-04-01'"),
])
def test_offset_under_a_bound_mixed_with_other_conditions_is_refused(
        sales: SemanticLayer, grain: str, start: str, where: str) -> None:
    """MetricFlow applies the one filter to the month before's rows before the shift (by month:
    May alone, null; by day: Apr 30 alone, null): not answered as a window."""
    args = {"metrics": ["amount_mom"], "grain": grain, "whole_periods": True,
            "window": {"start": start, "end": "2024-05-31" if grain == "month" else "2024-04-30"}}
    with pytest.raises(errors.WindowError, match="before the shift"):
        _where_rows(sales, args, where)


def test_offset_under_a_mixed_bound_that_cannot_matter_is_answered(sales: SemanticLayer) -> None:
    """Bounds from Feb 1 keep April–May and the March they read; by quarter a month's offset
    shifts each day the bound keeps (Q1 from Mar 15: Mar 29–31 all read Feb 29's 10.0)."""
    kiosk = "{{ Dimension('store__store_kind') }} = 'kiosk' AND "
    wide = _where_rows(sales, {"metrics": ["amount_mom"], "grain": "month", "whole_periods": True,
                               "window": {"start": "2024-04-01", "end": "2024-05-31"}},
                       kiosk + "{{ TimeDimension('metric_time', 'day') }} >= '2024-02-01'")
    assert wide == [("2024-04-01", 1.0 - 9.0), ("2024-05-01", 8.0 - 1.0)]
    by_quarter = _where_rows(
        sales, {"metrics": ["amount_mom"], "grain": "quarter", "whole_periods": True,
                "window": {"start": "2024-01-01", "end": "2024-06-30"}},
        kiosk + "{{ TimeDimension('metric_time', 'day') }} >= '2024-03-15'")
    assert by_quarter == [("2024-01-01", 2.0 - 30.0), ("2024-04-01", 9.0 - 16.0)]


def test_cumulative_last_by_month_is_its_value_on_the_last_day_with_data(
        sales: SemanticLayer) -> None:
    """Trailing week, at the period's last day with rows in its range: May 31's range is empty,
    May 12's holds May 6 (8.0). By store, each its own: the kiosk's April at Apr 10 (1.0), the
    mall's May at May 6 (Apr 30's 4.0)."""
    got = _rows(sales, {"metrics": ["amount_7d_last"], **MARCH_TO_MAY})
    assert got == [("2024-03-01", 5.0), ("2024-04-01", 4.0), ("2024-05-01", 8.0)]
    by_store = _rows(sales, {"metrics": ["amount_7d_last"], **MARCH_TO_MAY,
                             "group_by": ["store__store_kind"]})
    assert by_store == [("2024-03-01", "kiosk", 2.0), ("2024-03-01", "mall", 3.0),
                        ("2024-04-01", "kiosk", 1.0), ("2024-04-01", "mall", 4.0),
                        ("2024-05-01", "kiosk", 8.0), ("2024-05-01", "mall", 4.0)]


def test_cumulative_month_to_date_last_by_quarter_stops_at_the_last_month_with_data(
        sales: SemanticLayer) -> None:
    """Q2's June has no sale: its last day with data is May 31 (8.0); the mall's, Apr 30 (4.0)."""
    half = {"grain": "quarter", "whole_periods": True,
            "window": {"start": "2024-01-01", "end": "2024-06-30"}}
    got = _rows(sales, {"metrics": ["amount_mtd_last"], **half})
    assert got == [("2024-01-01", 12.0), ("2024-04-01", 8.0)]
    by_store = _rows(sales, {"metrics": ["amount_mtd_last"], **half,
                             "group_by": ["store__store_kind"]})
    assert by_store == [("2024-01-01", "kiosk", 9.0), ("2024-01-01", "mall", 3.0),
                        ("2024-04-01", "kiosk", 8.0), ("2024-04-01", "mall", 4.0)]
