"""Readings the session-14 new-user question files missed (issue 42: examples/flights/
questions_s14.yaml and examples/shop/questions_s14.yaml), each read only where a rule used its
words, from the catalog alone, and each on two domains."""

from __future__ import annotations

import datetime as dt

from showwork.protocol.reading import read_text
from showwork.protocol.reading.account import read_as_line


def _days(reading) -> list[tuple[dt.date, dt.date]]:
    return [(p.period.start, p.period.end) for p in reading.periods]


class TestAMonthList:
    """'June, July and August': every month of a list joined by commas and a closing 'and' is
    read (the middle one was left unread), and months that follow one another are one window;
    a list with a gap stays months side by side."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("cancelled flights out of JFK in June, July and August 2013", catalog)
        assert reading.unread == []
        assert _days(reading) == [(dt.date(2013, 6, 1), dt.date(2013, 8, 31))]
        gap = read_text("flights in March, May and June 2013", catalog)
        assert gap.unread == [] and len(gap.periods) == 3

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("revenue in March, April, May and June 2019", shop_layer.catalog())
        assert reading.unread == []
        assert _days(reading) == [(dt.date(2019, 3, 1), dt.date(2019, 6, 30))]

    def test_two_months_stay_two(self, shop_layer) -> None:
        reading = read_text("revenue in April and May 2019", shop_layer.catalog())
        assert len(reading.periods) == 2


class TestAThingByItsNoun:
    """'At each airport', 'which of the 3 airports', 'by status': a noun no dimension is named
    by is the one dimension every named metric supports whose label, attribute or synonym ends
    in it; after 'each' or a count, of several such, the one whose members the catalog lists
    (and as many as counted). None or several: it stays unknown."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        each = read_text("number of flights at each airport in Q2", catalog)
        assert each.asks.breakdown == ("origin",) and each.unread == []
        weather = read_text("average visibility at each airport in november", catalog)
        assert weather.asks.breakdown == ("origin_airport_name",) and weather.unread == []
        counted = read_text("Which of the 3 airports had the highest cancellation rate in 2013?",
                            catalog)
        assert counted.asks.ranking is not None and counted.asks.ranking.dimension == "origin"
        wrong = read_text("Which of the 4 airports had the highest cancellation rate in 2013?",
                          catalog)
        assert wrong.asks.ranking is not None and wrong.asks.ranking.dimension == "airport"

    def test_a_ranking_without_each_or_a_count_is_not_guessed(self, flights_layer) -> None:
        """Origin or destination airport: nothing says which."""
        reading = read_text("which airport had the most flights in Q2", flights_layer.catalog())
        assert reading.asks.ranking is not None and reading.asks.ranking.dimension == "airport"

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()  # order_status, labelled 'order status'
        for text in ("gross orders for each status in 2019", "gross orders by status in 2019",
                     "which status had the most gross orders in 2019",
                     "which of the 3 statuses had the most gross orders in 2019"):
            reading = read_text(text, catalog)
            assert "order_status" in reading.asks.breakdown and reading.unread == [], text
        four = read_text("which of the 4 statuses had the most gross orders in 2019", catalog)
        assert "order_status" not in four.asks.breakdown and four.unread != []

    def test_an_entity_by_its_name_is_left_to_its_key(self, tutorial_layer) -> None:
        """'Which customer': the customer entity's key, never a dimension of the customer."""
        reading = read_text("which customer had the most transactions?", tutorial_layer.catalog())
        assert reading.asks.ranking is not None
        assert reading.asks.ranking.dimension == "customer"


class TestWordingThatChangesNothing:
    """'thru' is 'through'; 'in terms of' before a metric says it is the measure; 'only' after a
    member and a noun of its entity is the member's filter; a word followed by a parenthesis
    read whole as one catalog entry is the word it restates. Each read where a rule used it."""

    def test_thru(self, flights_layer, shop_layer) -> None:
        flights = read_text("ytd flights from JFK to LAX thru the end of Q3", flights_layer.catalog())
        shop = read_text("ytd revenue thru the end of Q2 2019", shop_layer.catalog())
        for reading in (flights, shop):
            assert reading.asks.cumulative and reading.unread == []

    def test_in_terms_of(self, flights_layer, shop_layer) -> None:
        flights = read_text("busiest hour at Newark in July, in terms of scheduled departures?",
                            flights_layer.catalog())
        assert flights.metric_names() == ["departed_flights"] and flights.unread == []
        shop = read_text("which store was best in terms of the number of orders in 2019",
                         shop_layer.catalog())
        assert shop.metric_names() == ["order_count"] and shop.unread == []
        nothing = read_text("which store was best in terms of growth in 2019", shop_layer.catalog())
        assert "terms" in " ".join(nothing.unread)

    def test_only_after_a_member_and_its_noun(self, shop_layer, layer) -> None:
        shop = read_text("Revenue from consumer customers only, at the Online store, Q2 2019",
                         shop_layer.catalog())
        assert ("segment", "consumer") in [(m.name, m.member) for m in shop.members]
        assert shop.unread == []
        demo = read_text("active users among ios users only in May 2026", layer.catalog())
        assert demo.member_keys() == [("platform", "ios")] and demo.unread == []

    def test_a_parenthesis_restates_a_word(self, flights_layer, layer) -> None:
        flights = read_text("how many flights from LGA actually landed (arrived) in October?",
                            flights_layer.catalog())
        assert flights.metric_names() == ["arrived_flights"] and flights.unread == []
        demo = read_text("active users on apple (ios) in May 2026", layer.catalog())
        assert demo.member_keys() == [("platform", "ios")] and demo.unread == []
        unglossed = read_text("active users on apple in May 2026", layer.catalog())
        assert unglossed.unread == ["apple"]

    def test_the_business_by_the_project_s_name(self, shop_layer, flights_layer) -> None:
        """'The shop' of the project named shop is the whole of it, said so; 'the store' (which
        one?) and 'the shop' of another project stay unread."""
        reading = read_text("How much revenue did the shop make on Aug 1 2019?",
                            shop_layer.catalog())
        assert reading.unread == [] and reading.members == ()
        assert "'the shop', the project as a whole: no filter" in read_as_line(reading)
        store = read_text("How much revenue did the store make on Aug 1 2019?", shop_layer.catalog())
        assert store.unread == ["store"]
        other = read_text("How many flights did the shop have in May", flights_layer.catalog())
        assert other.unread == ["shop"]


class TestMetricWords:
    """A superlative of one metric's word ('windiest', 'priciest') is the highest of it; 'the
    most <unit>' names the one total metric of that unit, as 'how many <unit>' does."""

    def test_a_superlative(self, flights_layer, shop_layer) -> None:
        windy = read_text("which month was the windiest at LaGuardia, on average?",
                          flights_layer.catalog())
        assert windy.metric_names() == ["average_wind_speed"] and windy.unread == []
        assert windy.asks.ranking is not None and windy.asks.ranking.grain == "month"
        pricey = read_text("which store was the priciest in 2019", shop_layer.catalog())
        assert pricey.metric_names() == ["average_unit_price"] and pricey.unread == []
        assert pricey.asks.ranking is not None and pricey.asks.ranking.order == "most"
        rainy = read_text("which month was the rainiest in 2013", flights_layer.catalog())
        assert rainy.metrics == () and "rainiest" in rainy.unread

    def test_the_most_of_a_unit(self, flights_layer, shop_layer) -> None:
        miles = read_text("which airline flew the most miles out of Newark", flights_layer.catalog())
        assert miles.metric_names() == ["total_distance"] and miles.unread == []
        # the shop has two totals in dollars (revenue, product revenue): neither is guessed
        dollars = read_text("which region brought in the most dollars in 2019",
                            shop_layer.catalog())
        assert dollars.metrics == () and "dollars" in dollars.unread


class TestASiblingKeptOut:
    """'Flights, excluding cancelled ones': the metric of the same things whose definition
    leaves out what is kept out (departed flights: 'flights minus cancellations'), or the named
    one when its own definition does; never the count of what was to be left out, and with no
    such metric the words stay unread."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("Flights by origin airport in December, excluding cancelled ones",
                            catalog)
        assert reading.metric_names() == ["departed_flights"] and reading.unread == []
        assert "departed_flights, whose definition leaves them out" in read_as_line(reading)
        none = read_text("cancelled flights in December, excluding diverted ones", catalog)
        assert none.unread != []

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("orders in april 2019, not counting test orders or cancellations",
                            catalog)
        assert reading.metric_names() == ["order_count"] and reading.unread == []
        assert "already leaves them out" in read_as_line(reading)
        gross = read_text("gross orders in april 2019, excluding cancellations", catalog)
        assert gross.unread != []  # order count and items sold both leave them out: no guess

    def test_a_member_kept_out_is_still_a_filter(self, flights_layer) -> None:
        reading = read_text("flights in December not counting Delta", flights_layer.catalog())
        assert reading.metric_names() == ["flights"] and len(reading.excluded) == 1
