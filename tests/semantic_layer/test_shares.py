"""Each row's share of the total (`query(..., share=True)`, field `share_of_total`): the member's
value over the same metric, filters and window without the grouping, checked against hand SQL on
the raw tables of the demo, the shop and flights; refused where a share means nothing."""

from __future__ import annotations

import math
import shutil

import pytest
from flights_data import FLIGHTS, flights_db

from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.errors import InvalidArguments, NoShare
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.results import Result

MAY_2019 = {"start": "2019-05-01", "end": "2019-05-31"}
YEAR_2013 = {"start": "2013-01-01", "end": "2013-12-31"}
MARCH_2026 = {"start": "2026-03-02", "end": "2026-03-29"}


@pytest.fixture(scope="module")
def flights(tmp_path_factory) -> SemanticLayer:
    copy = tmp_path_factory.mktemp("flights") / "warehouse.duckdb"
    shutil.copy(flights_db(), copy)
    layer = SemanticLayer(load_project(FLIGHTS, database=copy), copy)
    yield layer
    layer.close()


def shares(result: Result, metric: str, key: str) -> dict[str, float]:
    return {r.key[key]: r.values[metric]["share_of_total"] for r in result.rows}


def hand(layer: SemanticLayer, sql: str) -> dict[str, float]:
    return {str(k): float(v) for k, v in layer.run_sql(sql)}


def same(got: dict[str, float], want: dict[str, float]) -> bool:
    return got.keys() == want.keys() and all(math.isclose(got[k], want[k], rel_tol=1e-9)
                                             for k in want)


class TestAgainstHandSQL:
    def test_a_count_within_a_filtered_whole(self, flights) -> None:
        """Each airline's share of the flights out of LGA in 2013: its flights over all of LGA's."""
        result = flights.query(metrics=["flights"], window=YEAR_2013, group_by=["airline"],
                               where=[{"dimension": "origin", "values": ["LGA"]}], share=True)
        want = hand(flights, """
            SELECT a.name, count(*)::DOUBLE / (SELECT count(*) FROM flights WHERE origin = 'LGA'
                AND flight_date BETWEEN DATE '2013-01-01' AND DATE '2013-12-31')
            FROM flights f JOIN airlines a ON a.carrier = f.carrier
            WHERE f.origin = 'LGA' AND f.flight_date BETWEEN DATE '2013-01-01' AND DATE '2013-12-31'
            GROUP BY 1""")
        assert same(shares(result, "flights", "airline"), want)
        assert math.isclose(sum(want.values()), 1.0)

    def test_a_sum(self, shop_layer) -> None:
        """Each store's share of May 2019 revenue (real, not cancelled orders)."""
        result = shop_layer.query(metrics=["revenue"], window=MAY_2019, group_by=["store"],
                                  share=True)
        want = hand(shop_layer, """
            WITH r AS (SELECT s.store_name AS store, sum(i.quantity * i.unit_price) AS revenue
                FROM order_items i JOIN orders o ON o.order_id = i.order_id
                JOIN stores s ON s.store_id = o.store_id
                WHERE NOT o.is_test AND o.status <> 'cancelled'
                AND CAST(o.ordered_at AS DATE) BETWEEN DATE '2019-05-01' AND DATE '2019-05-31'
                GROUP BY 1)
            SELECT store, revenue / (SELECT sum(revenue) FROM r) FROM r""")
        assert same(shares(result, "revenue", "store"), want)

    def test_a_distinct_count_divides_by_the_distinct_total(self, shop_layer) -> None:
        """A customer who orders from two stores counts once in the total: the shares of
        ordering customers add up to more than 1, each the store's customers over all customers,
        never over the sum of the stores' rows."""
        result = shop_layer.query(metrics=["ordering_customers"], window=MAY_2019,
                                  group_by=["store"], share=True)
        want = hand(shop_layer, """
            WITH o AS (SELECT s.store_name AS store, o.customer_id FROM orders o
                JOIN stores s ON s.store_id = o.store_id
                WHERE NOT o.is_test AND o.status <> 'cancelled'
                AND CAST(o.ordered_at AS DATE) BETWEEN DATE '2019-05-01' AND DATE '2019-05-31')
            SELECT store, count(DISTINCT customer_id)::DOUBLE
                / (SELECT count(DISTINCT customer_id) FROM o) FROM o GROUP BY 1""")
        got = shares(result, "ordering_customers", "store")
        assert same(got, want)
        assert sum(got.values()) > 1.0

    def test_distinct_users_on_the_demo(self, layer) -> None:
        """Each platform's share of active users (distinct users with an app_open, test users
        excluded) in March 2026."""
        result = layer.query(metrics=["active_users"], window=MARCH_2026, group_by=["platform"],
                             share=True)
        want = hand(layer, """
            WITH a AS (SELECT DISTINCT u.platform, e.user_id FROM events e JOIN users u USING (user_id)
                WHERE e.event_type = 'app_open' AND NOT u.is_test
                AND CAST(e.event_ts AS DATE) BETWEEN DATE '2026-03-02' AND DATE '2026-03-29')
            SELECT platform, count(*)::DOUBLE / (SELECT count(DISTINCT user_id) FROM a)
            FROM a GROUP BY 1""")
        assert same(shares(result, "active_users", "platform"), want)

    def test_a_point_in_time_count(self, layer) -> None:
        """Paid subscribers are counted at the end of the window; each plan's share is of all
        paid subscribers at that end, as the ungrouped query gives them."""
        result = layer.query(metrics=["paid_subscribers"], window=MARCH_2026,
                             group_by=["platform"], share=True)
        (total,) = layer.query(metrics=["paid_subscribers"], window=MARCH_2026).rows
        whole = total.values["paid_subscribers"]["value"]
        assert whole and result.totals["rows"][0]["values"]["paid_subscribers"]["value"] == whole
        for row in result.rows:
            fields = row.values["paid_subscribers"]
            assert math.isclose(fields["share_of_total"], fields["value"] / whole)


class TestTheTotal:
    def test_a_limit_cuts_rows_not_the_total(self, flights) -> None:
        """The top three destinations keep their shares of every destination's flights."""
        args = {"metrics": ["flights"], "window": YEAR_2013, "group_by": ["destination"],
                "share": True}
        every = shares(flights.query(**args), "flights", "destination")
        top = flights.query(**args, order_by={"field": "flights"}, limit=3)
        assert len(top.rows) == 3
        assert shares(top, "flights", "destination") == {
            k: every[k] for k in shares(top, "flights", "destination")}
        assert math.isclose(sum(every.values()), 1.0)

    def test_a_grain_shares_each_period_s_total(self, flights) -> None:
        """By month and airline, each month's airlines share that month's flights."""
        result = flights.query(metrics=["flights"], window=YEAR_2013, group_by=["airline"],
                               grain="month", share=True)
        months: dict[str, float] = {}
        for row in result.rows:
            months[row.key["month"]] = months.get(row.key["month"], 0.0) + \
                row.values["flights"]["share_of_total"]
        assert len(months) == 12 and all(math.isclose(v, 1.0) for v in months.values())

    def test_the_total_is_kept_and_the_field_survives_the_trace(self, flights) -> None:
        """The result keeps the total's SQL and rows; share_of_total round-trips through JSON and
        is a field citations may name."""
        result = flights.query(metrics=["flights"], window=YEAR_2013, group_by=["origin"],
                               share=True)
        again = Result.from_json(result.to_json())
        assert again == result and again.fields_of("flights") == ("value", "share_of_total")
        assert "GROUP BY" not in result.totals["sql"].upper()
        plain = flights.query(metrics=["flights"], window=YEAR_2013, group_by=["origin"])
        assert plain.fields_of("flights") == ("value",) and "totals" not in plain.to_json()
        assert flights.query(metrics=["flights"], window=YEAR_2013, group_by=["origin"],
                             share=False) == plain


class TestRefused:
    @pytest.mark.parametrize(("fixture", "metric", "dimension", "why"), [
        ("flights", "cancellation_rate", "airline", "ratio metric"),
        ("flights", "average_departure_delay", "airline", "ratio metric"),
        ("shop_layer", "revenue_per_customer", "store", "derived metric"),
        ("shop_layer", "average_unit_price", "product", "aggregated as average"),
        ("layer", "days_per_user", "platform", "ratio metric"),
    ])
    def test_where_members_do_not_make_up_the_total(self, request, fixture, metric, dimension,
                                                    why) -> None:
        """A rate, a combination or an average has no share of its total; the refusal says why
        and names the metrics that have one."""
        layer = request.getfixturevalue(fixture)
        with pytest.raises(NoShare) as caught:
            layer.query(metrics=[metric], group_by=[dimension], share=True)
        assert why in caught.value.message and metric in caught.value.message
        assert "Shares are given for metrics that count or sum" in caught.value.message

    def test_without_group_by(self, shop_layer) -> None:
        """A share is of members: with nothing grouped the call is refused, saying so."""
        with pytest.raises(InvalidArguments, match="give group_by"):
            shop_layer.query(metrics=["revenue"], window=MAY_2019, share=True)
