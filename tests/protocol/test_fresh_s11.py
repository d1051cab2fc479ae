"""Readings a fresh set of new-user questions found wrong (issue 42, session 11:
examples/*/questions_s11.yaml and conformance/questions/mf_tutorial_s11.yaml, written from the
catalog and the data before reading the reader). Each on two domains."""

from __future__ import annotations

import datetime as dt

from showwork.protocol.reading import read_text


def _days(reading) -> list[tuple[dt.date, dt.date]]:
    return [(p.period.start, p.period.end) for p in reading.periods]


class TestADayWithoutItsYear:
    """'June 30', 'from Feb 7 to Feb 10', 'the 4th of July': a day written without a year is the
    latest one on or before the as-of date, as a month written without one is ('June', as of
    1 January 2014, is June 2013), never a day after the as-of date."""

    def test_flights_as_of_new_year_reads_the_data_year(self, flights_layer) -> None:
        catalog = flights_layer.catalog()  # as of 2014-01-01
        assert _days(read_text("cancelled flights on June 30", catalog)) == [
            (dt.date(2013, 6, 30), dt.date(2013, 6, 30))]
        assert _days(read_text("How many flights were there on the 4th of July?", catalog)) == [
            (dt.date(2013, 7, 4), dt.date(2013, 7, 4))]
        assert _days(read_text("daily cancelled flights from feb 7 to feb 10", catalog)) == [
            (dt.date(2013, 2, 7), dt.date(2013, 2, 10))]

    def test_the_shop_reads_a_day_before_or_after_its_as_of_day(self, shop_layer) -> None:
        catalog = shop_layer.catalog()  # as of 2019-08-15
        assert _days(read_text("revenue on August 10", catalog)) == [
            (dt.date(2019, 8, 10), dt.date(2019, 8, 10))]
        assert _days(read_text("revenue on August 20", catalog)) == [
            (dt.date(2018, 8, 20), dt.date(2018, 8, 20))]
        assert _days(read_text("revenue on August 20, 2019", catalog)) == [
            (dt.date(2019, 8, 20), dt.date(2019, 8, 20))]  # a year written is kept


class TestSlashedDays:
    """'thru 10/31', 'as of 3/31/2022': a day written month first with slashes is read where the
    day cannot be a month; '3/4' (either order) and '1/2' (a fraction) name no day."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("ytd departures thru 10/31", catalog)
        assert _days(reading) == [(dt.date(2013, 1, 1), dt.date(2013, 10, 31))]
        assert reading.asks.cumulative and reading.unread == []
        either = read_text("How many flights were cancelled on 3/4?", catalog)
        assert either.periods == () and "3/4" not in " ".join(p.words for p in either.periods)

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("revenue on 3/15/2019", catalog)
        assert _days(reading) == [(dt.date(2019, 3, 15), dt.date(2019, 3, 15))]
        assert reading.unread == []
        assert _days(read_text("revenue on 12/25", catalog)) == [
            (dt.date(2018, 12, 25), dt.date(2018, 12, 25))]


class TestPercentSign:
    """'% of transactions that were large', 'what % of flights were cancelled': the sign asks
    for a share as 'percent of' does; a sign no rule took is unread, never quietly dropped (a
    count served clean for a share asked)."""

    def test_flights_reads_the_rate(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("what % of flights were cancelled in July", catalog)
        assert reading.metric_names() == ["cancellation_rate"] and reading.unread == []

    def test_the_shop_reads_a_share(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("% of revenue from business customers in 2019", catalog)
        assert reading.asks.share is not None and reading.unread == []
        assert ("segment", "business") in reading.member_keys()

    def test_a_sign_no_rule_took_is_unread(self, shop_layer, flights_layer) -> None:
        assert "%" in read_text("revenue in 2019 as a %", shop_layer.catalog()).unread
        assert "%" in read_text("cancelled flights in July as a %", flights_layer.catalog()).unread


class TestAnEntityByItsName:
    """'revenue by order', 'which order had the highest amount', 'transactions for each
    customer': a breakdown or ranking by an entity its own name says, the key's marks left out (the tutorial's
    entity id_order, keyed by id_order), where every named metric holds it; a name no entity has
    stays unread."""

    def test_the_tutorial(self, tutorial_layer) -> None:
        catalog = tutorial_layer.catalog()
        reading = read_text("revenue by order", catalog)
        assert reading.asks.breakdown == ("id_order",) and reading.unread == []
        ranked = read_text("which order had the highest transaction amount?", catalog)
        assert ranked.asks.ranking is not None and ranked.asks.ranking.dimension == "id_order"
        assert ranked.unread == []
        each = read_text("transactions for each customer", catalog)
        assert each.asks.breakdown == ("customer",) and each.unread == []
        # 'per customer' is an average over customers, no breakdown: unread, as before
        assert read_text("transactions per customer", catalog).unread == ["per customer"]
        assert read_text("revenue by shipment", catalog).unread == ["by shipment"]

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()  # the plane entity, keyed by tailnum
        reading = read_text("flights by plane in July", catalog)
        assert reading.asks.breakdown == ("plane",) and reading.unread == []
        ranked = read_text("which plane flew the most flights in July?", catalog)
        assert ranked.asks.ranking is not None and ranked.asks.ranking.dimension == "plane"


class TestOverTheLastDays:
    """'revenue over the last 7 days' asks the total of those days; only a trend asked ('how
    have orders trended over the past 3 months') is a series by the unit named."""

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        total = read_text("orders over the past 3 months", catalog)
        assert total.asks.shape == "level" and total.unread == []
        trend = read_text("How have orders trended over the past 3 months?", catalog)
        assert trend.asks.shape == "series" and trend.asks.grain == "month"

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        assert read_text("flights over the last 2 weeks", catalog).asks.shape == "level"
        trend = read_text("flights trend over the last 2 weeks", catalog)
        assert trend.asks.shape == "series" and trend.asks.grain == "week"


class TestHowManyDifferent:
    """'How many different customers ordered', 'how many unique active users': 'different'
    right before a metric that counts distinct entities (its description says so) is read with
    it; before a metric that does not, it stays unread."""

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("How many different customers ordered online in July 2019?", catalog)
        assert reading.metric_names() == ["ordering_customers"] and reading.unread == []
        assert read_text("how many different orders in July 2019", catalog).unread == ["different"]

    def test_the_demo(self, layer) -> None:
        catalog = layer.catalog()
        reading = read_text("how many different users were active in the week of 2026-03-02?",
                            catalog)
        assert reading.metric_names() == ["active_users"] and reading.unread == []


class TestAbbreviated:
    """'avg temp', 'qty sold': a word cut short, or its first letter and some of the rest in
    order, of exactly one word of the catalog's metric names is read as it, in doubt (never
    served clean); of none or several it stays unread. A short form everyone writes for one
    English word ('avg': average) is read as that word with no doubt (session 16)."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("avg temp at JFK in july", catalog)
        assert reading.metric_names() == ["average_temperature"]
        assert [d.words for d in reading.doubts] == ["temp"]

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("avg unit price of beverages in 2019", catalog)
        assert reading.metric_names() == ["average_unit_price"]
        assert reading.doubts == () and "'avg' read as 'average'" in reading.notes
        assert "xq" in " ".join(read_text("xq unit price in 2019", catalog).unread)


class TestPlaceAdjectiveDoubled:
    """'Scottish customers': an adjective whose stem doubles its last letter ('Scott-ish') is the
    one member its undoubled stem begins ('Scotland'), in doubt, as 'English' is England."""

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("revenue from Scottish customers in 2019", catalog)
        assert ("region", "Scotland") in reading.member_keys()
        assert [d.words for d in reading.doubts] == ["Scottish"]


class TestMembersSideBySide:
    """'revenue in the northeast vs the west', 'flights from JFK vs EWR': 'versus' right between
    two members of one dimension sets them side by side, as 'and' does (no second period, no
    change); between members of two dimensions it stays unread."""

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("revenue in the northeast vs the west, july 2019", catalog)
        assert reading.unread == [] and reading.asks.compare is None
        assert {m for _d, m in reading.member_keys()} == {"Northeast", "West"}
        assert "vs" in read_text("revenue in the northeast vs Online in 2019", catalog).unread

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("cancelled flights at JFK versus LaGuardia in 2013", catalog)
        assert reading.unread == [] and reading.asks.compare is None
        assert reading.member_keys() == [("origin", "JFK"), ("origin", "LGA")]


class TestHalfOfAMonth:
    """'the second half of march', 'the first half of February': a month's halves (16 to its
    end, 1 to 15), never the year's second half."""

    def test_the_tutorial(self, tutorial_layer) -> None:
        reading = read_text("how many large transactions were there in the second half of march",
                            tutorial_layer.catalog())
        assert _days(reading) == [(dt.date(2022, 3, 16), dt.date(2022, 3, 31))]
        assert reading.unread == []

    def test_flights(self, flights_layer) -> None:
        reading = read_text("cancelled flights in the first half of February 2013",
                            flights_layer.catalog())
        assert _days(reading) == [(dt.date(2013, 2, 1), dt.date(2013, 2, 15))]


class TestAYearSetOff:
    """'product revenue for chai latte, per month, 2019': a year set off by a comma at the end
    of the question is its period; a number after a comma elsewhere is not."""

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("product revenue for chai latte, per month, 2019", shop_layer.catalog())
        assert _days(reading) == [(dt.date(2019, 1, 1), dt.date(2019, 12, 31))]
        assert reading.unread == []

    def test_flights(self, flights_layer) -> None:
        reading = read_text("cancelled flights by month at JFK, 2013.", flights_layer.catalog())
        assert _days(reading) == [(dt.date(2013, 1, 1), dt.date(2013, 12, 31))]
        assert reading.unread == []


class TestSinceTheStart:
    """'since the start of 2019', 'since the beginning of December': from the period's first day
    to the as-of date, as 'since March 2019' is."""

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("sales at every store since the start of 2019", shop_layer.catalog())
        assert _days(reading) == [(dt.date(2019, 1, 1), dt.date(2019, 8, 15))]
        assert reading.unread == []

    def test_flights(self, flights_layer) -> None:
        reading = read_text("cancelled flights since the beginning of December",
                            flights_layer.catalog())
        assert _days(reading) == [(dt.date(2013, 12, 1), dt.date(2014, 1, 1))]
        assert reading.unread == []


class TestDidAOrB:
    """'Did JFK or EWR have more cancellations', 'Did Brooklyn or Philadelphia take more orders':
    a question asked of two members side by side is which of them has more, as 'which … A or B'
    is; one attribute reached two ways (a store of an order, of an order item) is one."""

    def test_flights(self, flights_layer) -> None:
        reading = read_text("Did JFK or EWR have more cancellations in January?",
                            flights_layer.catalog())
        ranking = reading.asks.ranking
        assert ranking is not None and ranking.order == "most" and ranking.dimension == "origin"
        assert reading.unread == []

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        for text in ("Did Brooklyn or Philadelphia take more orders in June 2019?",
                     "Which store took more orders in June 2019, Brooklyn or Philadelphia?"):
            reading = read_text(text, catalog)
            assert reading.asks.ranking is not None and reading.unread == [], text
        fewer = read_text("Was revenue lower in Brooklyn or Philadelphia in June 2019?", catalog)
        assert fewer.asks.ranking is not None and fewer.asks.ranking.order == "least"


class TestSplitByItsOwnMetric:
    """'top 3 products by revenue': revenue cannot be split by product, and exactly one metric
    is named in the dimension's words and revenue's (product_revenue) and can: read as it, said
    in 'Read as'; a metric that splits by the dimension asked keeps its reading."""

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("top 3 products by revenue last month", catalog)
        assert reading.metric_names() == ["product_revenue"] and reading.unread == []
        assert any("product_revenue" in n for n in reading.notes)  # said in 'Read as'
        kept = read_text("revenue by store in June 2019", catalog)
        assert kept.metric_names() == ["revenue"] and kept.notes == ()

    def test_flights_keeps_a_metric_with_no_such_sibling(self, flights_layer) -> None:
        reading = read_text("average temperature by airline in July", flights_layer.catalog())
        assert reading.metric_names() == ["average_temperature"] and reading.notes == ()


def _renamed(catalog: dict, old: str, new: str) -> dict:
    """The catalog with one metric under another name, its label and synonyms dropped (as a
    project that names its metrics as columns are named: `avg_time_to_settle_claim`)."""
    import copy

    out = copy.deepcopy(catalog)
    info = out["metrics"].pop(old)
    out["metrics"][new] = {**info, "label": None, "synonyms": []}
    return out


class TestNamesAsColumnsAreNamed:
    """A metric named as columns are ('avg_order_value', 'avg_time_in_air'): its short forms
    read as the words they shorten ('average order value'), and an article may stand between
    the words of a name of three or more ('average time in the air')."""

    def test_the_shop(self, shop_layer) -> None:
        catalog = _renamed(shop_layer.catalog(), "average_order_value", "avg_order_value")
        reading = read_text("average order value in June 2019", catalog)
        assert reading.metric_names() == ["avg_order_value"] and reading.unread == []

    def test_flights(self, flights_layer) -> None:
        catalog = _renamed(flights_layer.catalog(), "average_air_time", "avg_time_in_air")
        for text in ("average time in air in July", "average time in the air in July"):
            reading = read_text(text, catalog)
            assert reading.metric_names() == ["avg_time_in_air"] and reading.unread == [], text

    def test_a_label_is_read_as_written(self, tutorial_layer) -> None:
        """'Transaction Amount in NA' is a label, written as said: 'the transaction amount in the
        NA region' is the amount, NA a member, not that metric with 'region' left over."""
        reading = read_text("What's the transaction amount in the NA region in March 2022?",
                            tutorial_layer.catalog())
        assert reading.metric_names() == ["transaction_amount"] and reading.unread == []
