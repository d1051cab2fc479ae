"""Readings the second session-14 new-user files missed (issue 42: harness/questions/
demo_s14.yaml and conformance/questions/mf_tutorial_s14.yaml): each read only where a rule used
its words, from the catalog alone, and each on two domains."""

from __future__ import annotations

import datetime as dt

from showwork.protocol.reading import read_text
from showwork.protocol.reading.account import read_as_line


def _days(reading) -> list[tuple[dt.date, dt.date]]:
    return [(p.period.start, p.period.end) for p in reading.periods]


def _metrics(reading) -> list[str]:
    return [m.name for m in reading.metrics]


class TestTheWholePeriod:
    """'Over the whole period', 'for the entire time range': the whole covered range, as 'in the
    data' and 'all-time' are; beside a period named, 'whole' is not read."""

    def test_tutorial(self, tutorial_layer) -> None:
        catalog = tutorial_layer.catalog()
        reading = read_text("cancellation rate per region over the whole period", catalog)
        assert reading.unread == [] and not reading.periods
        assert "all the data (no window named)" in read_as_line(reading)

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("how many flights were cancelled for the entire time range", catalog)
        assert reading.unread == [] and _metrics(reading) == ["cancelled_flights"]

    def test_beside_a_period_named(self, shop_layer) -> None:
        reading = read_text("orders in 2019 over the whole period", shop_layer.catalog())
        assert "whole" in reading.unread


class TestRightNow:
    """'Right now', 'currently' of a metric held at a point in time: its value on the last day
    the data covers, said in Read as; of a metric summed over a window, or in a change, the
    words stay unread (no window nobody asked for)."""

    def test_demo(self, layer) -> None:
        catalog = layer.catalog()
        reading = read_text("What's the plus price right now?", catalog)
        assert reading.unread == [] and _metrics(reading) == ["plus_price"]
        end = catalog["metrics"]["plus_price"]["coverage"]["end"]
        assert f"'right now' read as the latest value: the end of the data, {end}" \
            in read_as_line(reading)
        current = read_text("how many paid subscribers do we have currently", catalog)
        assert current.unread == [] and any("'currently'" in n for n in current.notes)

    def test_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("what is the customer base right now", catalog)
        assert reading.unread == [] and _metrics(reading) == ["customer_base"]
        assert any(n.startswith("'right now' read as the latest value") for n in reading.notes)
        summed = read_text("revenue right now", catalog)
        assert "right now" in " ".join(summed.unread)

    def test_a_change_keeps_now_unread(self, layer) -> None:
        reading = read_text("how have paid subscribers changed and where are they now",
                            layer.catalog())
        assert "now" in reading.unread and reading.notes == ()


class TestDaysEnding:
    """'The 7 days ending March 31', 'the week ending 2022-03-20', 'the two weeks ended …': the
    days counted back from the day named, that day included; 'the days ending X' (no count) is
    not read as any number of days."""

    def test_tutorial(self, tutorial_layer) -> None:
        catalog = tutorial_layer.catalog()
        reading = read_text("transactions in the 7 days ending March 31", catalog)
        assert reading.unread == []
        assert _days(reading) == [(dt.date(2022, 3, 25), dt.date(2022, 3, 31))]
        week = read_text("transactions in the week ending 2022-03-20", catalog)
        assert _days(week) == [(dt.date(2022, 3, 14), dt.date(2022, 3, 20))]
        vague = read_text("transactions for the days ending March 31", catalog)
        assert "days ending" in vague.unread

    def test_demo(self, layer) -> None:
        reading = read_text("active users in the two weeks ending 2026-05-31", layer.catalog())
        assert reading.unread == []
        assert _days(reading) == [(dt.date(2026, 5, 18), dt.date(2026, 5, 31))]


class TestAVerbOrAdjectiveNamesTheMetric:
    """'How many were active' (several metrics hold 'active'): the one whose label's other words
    the question says too ('plus users' → active users, not active days); none said: unread.
    A verb after a subject the catalog reads only in part ('did Canadian customers cancel')
    names its metric, the subject's other words left unread."""

    def test_demo(self, layer) -> None:
        catalog = layer.catalog()
        reading = read_text("Only plus users: how many were active in the week of June 1 2026?",
                            catalog)
        assert _metrics(reading) == ["active_users"] and reading.unread == []
        alone = read_text("how many were active in May 2026", catalog)
        assert _metrics(alone) == [] and "were active" in alone.unread

    def test_flights(self, flights_layer) -> None:
        """'Arrived' is arrived flights' and the arrival delay's: neither's other words said."""
        reading = read_text("At LAX, how many arrived in July 2013?", flights_layer.catalog())
        assert _metrics(reading) == [] and "arrived" in reading.unread

    def test_subject_read_in_part(self, tutorial_layer, shop_layer) -> None:
        canadian = read_text("How much did Canadian customers cancel in March?",
                             tutorial_layer.catalog())
        assert _metrics(canadian) == ["cancellations"] and canadian.unread == ["Canadian"]
        shoppers = read_text("how many did weekend shoppers sell in 2019", shop_layer.catalog())
        assert _metrics(shoppers) == ["items_sold"] and shoppers.unread == ["weekend shoppers"]


class TestAMetricInAClause:
    """'Users who signed up in February were active in April': a metric named in a clause on
    what another counts is a cohort no rule applies: its words are unread, never a second value
    served beside the first."""

    def test_demo(self, layer) -> None:
        catalog = layer.catalog()
        reading = read_text("active users who signed up in March 2026, in May 2026", catalog)
        assert "signed up" in reading.unread
        cohort = read_text("How many users who signed up in 2026-02 were active in the week of "
                           "2026-04-06?", catalog)
        assert cohort.unread != []  # 'active' or 'signed up': never two values served clean

    def test_shop(self, shop_layer) -> None:
        reading = read_text("how many ordering customers who signed up in 2018 were there in 2019",
                            shop_layer.catalog())
        assert "signed up" in reading.unread
        one = read_text("how many customers signed up in 2018", shop_layer.catalog())
        assert "signed up" not in one.unread
