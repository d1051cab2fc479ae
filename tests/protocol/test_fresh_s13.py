"""Readings the new-user question files of the public dbt projects still missed (issue 42,
session 13: conformance/questions/intro_s12.yaml and mf_tutorial_s11.yaml). Each on two domains."""

from __future__ import annotations

import datetime as dt

from showwork.protocol.reading import read_text
from showwork.protocol.reading.account import read_as_line


def _days(reading) -> list[tuple[dt.date, dt.date]]:
    return [(p.period.start, p.period.end) for p in reading.periods]


class TestACodeInEitherOrder:
    """'pending return' for the member return_pending: a code of two lower-case words joined by
    '_' is read in either word order, its last word said in the plural too; a name written
    with a space ('Quick Buy') is said as written, and is not turned round."""

    def test_the_intro_project(self, intro_layer) -> None:
        catalog = intro_layer.catalog()  # order__status: return_pending among its members
        for text in ("How many orders are pending return?", "pending returns in april",
                     "orders with status return_pending"):
            reading = read_text(text, catalog)
            assert reading.member_keys() == [("order__status", "return_pending")], text
            assert reading.unread == [], text

    def test_the_demo(self, layer) -> None:
        catalog = layer.catalog()  # channel: paid_search
        reading = read_text("signups from search paid in May", catalog)
        assert reading.member_keys() == [("channel", "paid_search")] and reading.unread == []

    def test_a_name_keeps_its_order(self, tutorial_layer) -> None:
        reading = read_text("transactions that were buy quick in March 2022",
                            tutorial_layer.catalog())
        assert ("transaction__quick_buy_transaction", "Quick Buy") not in reading.member_keys()
        assert reading.unread != []


class TestMembersJoinedByOr:
    """'Orders that were returned or pending return', 'flights from JFK or LGA': members of one
    dimension joined by 'or' (the last join of a list) are one filter keeping any of them,
    wherever they stand; asked which of them has more, they are still ranked."""

    def test_the_intro_project(self, intro_layer) -> None:
        reading = read_text("revenue from orders that were returned or pending return",
                            intro_layer.catalog())
        assert reading.members == () and reading.unread == []
        assert {(m.name, m.member) for m in reading.ranges} == {
            ("order__status", "returned"), ("order__status", "return_pending")}
        assert "order__status in returned, return_pending" in read_as_line(reading)

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("cancelled flights at JFK, EWR or LGA in July", catalog)
        assert reading.members == () and reading.unread == []
        assert [m.member for m in reading.ranges] == ["JFK", "EWR", "LGA"]
        mixed = read_text("flights to LAX or SFO from JFK", catalog)  # one of each dimension
        assert [m.member for m in mixed.ranges] == ["LAX", "SFO"]
        assert mixed.member_keys() == [("origin", "JFK")]
        which = read_text("which airport had more cancellations, JFK or LGA?", catalog)
        assert which.ranges == () and which.asks.ranking is not None

    def test_the_demo(self, layer) -> None:
        reading = read_text("signups from organic or paid search in May", layer.catalog())
        assert [m.member for m in reading.ranges] == ["organic", "paid_search"]
        assert reading.members == () and reading.unread == []


class TestTheLastDaysToACoveredAsOfDay:
    """'Revenue over the last 7 days': the N days before the as-of day, unless the data of every
    metric named covers the as-of day itself (a project whose as_of is its default, the last day
    of coverage): then the N days up to and including it, and Read as says so."""

    def test_the_tutorial(self, tutorial_layer) -> None:
        catalog = tutorial_layer.catalog()  # as of 2022-04-04, the data's last day
        reading = read_text("revenue over the last 7 days", catalog)
        assert _days(reading) == [(dt.date(2022, 3, 29), dt.date(2022, 4, 4))]
        assert "taken as 29 March to 4 April 2022, up to the as-of day" in read_as_line(reading)
        # 'last week' is the whole week before the as-of day's, as before
        assert _days(read_text("transactions last week", catalog)) == [
            (dt.date(2022, 3, 28), dt.date(2022, 4, 3))]

    def test_the_intro_project(self, intro_layer) -> None:
        reading = read_text("orders in the past 30 days", intro_layer.catalog())  # as of 05-15
        assert _days(reading) == [(dt.date(2023, 4, 16), dt.date(2023, 5, 15))]

    def test_an_as_of_day_after_the_data_is_left_out(self, layer, flights_layer) -> None:
        reading = read_text("signups over the last 7 days", layer.catalog())  # data to 06-17
        assert _days(reading) == [(dt.date(2026, 6, 11), dt.date(2026, 6, 17))]
        assert "up to the as-of day" not in read_as_line(reading)
        reading = read_text("flights over the past 3 days", flights_layer.catalog())
        assert _days(reading) == [(dt.date(2013, 12, 29), dt.date(2013, 12, 31))]


class TestAShareOfAllTheData:
    """'What fraction of all alterations happened in the week of March 21': 'all' of the metric
    after a share's 'of', with one period named, is the whole of the metric's data, and the
    period named its part (a share of a whole across periods), never that period's rate."""

    def test_the_tutorial(self, tutorial_layer) -> None:
        reading = read_text("What fraction of all alterations happened in the week of March 21?",
                            tutorial_layer.catalog())
        assert reading.metric_names() == ["alterations"] and reading.unread == []
        assert _days(reading) == [(dt.date(2022, 3, 7), dt.date(2022, 4, 4)),
                                  (dt.date(2022, 3, 21), dt.date(2022, 3, 27))]
        assert "'all' read as all the data of alterations, 2022-03-07..2022-04-04" in \
            read_as_line(reading)

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("What fraction of all cancellations happened in February?", catalog)
        assert reading.metric_names() == ["cancelled_flights"]  # not cancellation_rate
        assert _days(reading) == [(dt.date(2013, 1, 1), dt.date(2013, 12, 31)),
                                  (dt.date(2013, 2, 1), dt.date(2013, 2, 28))]
        rate = read_text("What share of flights were cancelled in February 2013?", catalog)
        assert rate.metric_names() == ["cancellation_rate"]  # no 'all': the rate, as before
        # the period named is all the data (2013): no part, the share of a member as before
        whole = read_text("What share of all flights in 2013 did United Air Lines operate?", catalog)
        assert _days(whole) == [(dt.date(2013, 1, 1), dt.date(2013, 12, 31))]
