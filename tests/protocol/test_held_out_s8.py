"""Readings the held-out files of issue 42, session 8 (examples/*/questions_s8.yaml) found wrong,
each on two domains: a participle the reader passed over as neutral that, with the verb after
it, says the named metric's own entry ('flights scheduled to depart' are the catalog's
'departures scheduled', not departed flights); a day named by its holiday ('Black Friday 2018',
'christmas day') refused as unread."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from showwork.analyst.rules.metrics import metrics_of
from showwork.protocol.reading import read_text
from showwork.protocol.reading.holidays import holiday

_SHIPPING: dict[str, Any] = {
    "metrics": {
        "shipments": {"label": "shipments", "synonyms": ["deliveries scheduled"],
                      "previous_names": [], "grains": ["day", "month"], "unit": "count",
                      "type": "simple", "dimensions": ["depot"]},
        "delivered_shipments": {"label": "delivered shipments", "synonyms": [],
                                "previous_names": [], "grains": ["day", "month"],
                                "unit": "count", "type": "simple", "dimensions": ["depot"]}},
    "dimensions": {"depot": {"label": "depot", "pattern": None, "values": ["Dallas", "Reno"]}},
    "tree": {"exact": [], "influence": []},
}


class TestScheduledToVerb:
    """'Scheduled to depart' says the counted metric's own entry; the verb alone, or after the
    participle without 'to' ('scheduled … departed'), names the other metric, and a metric said
    in two places is no composition."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        planned = read_text("How many flights were scheduled to depart JFK in June 2013?", catalog)
        assert metrics_of(planned, catalog) == ["flights"] and planned.unread == []
        for done_text in ("How many flights departed JFK in June 2013?",
                          "How many flights that were scheduled departed JFK in June 2013?"):
            assert metrics_of(read_text(done_text, catalog), catalog) == ["departed_flights"]

    def test_shipping(self) -> None:
        planned = read_text("How many shipments were scheduled to be delivered in May 2024?",
                            _SHIPPING, as_of="2024-12-31")
        assert metrics_of(planned, _SHIPPING) == ["shipments"] and planned.unread == []
        for done_text in ("How many shipments were delivered in May 2024?",
                          "How many shipments that were scheduled were delivered in May 2024?"):
            done = read_text(done_text, _SHIPPING, as_of="2024-12-31")
            assert metrics_of(done, _SHIPPING) == ["delivered_shipments"]


def _days(reading) -> list[tuple[str, str]]:
    return [(str(p.period.start), str(p.period.end)) for p in reading.periods]


class TestHolidays:
    """A holiday's name is one day, in the year written, else the latest begun by the as-of
    date; read on the flights (as of 2014-01-01) and the shop (as of 2019-08-15)."""

    @pytest.mark.parametrize(("layer", "text", "day"), [
        ("flights_layer", "How many flights were scheduled on Independence Day 2013?",
         "2013-07-04"),
        ("flights_layer", "how many flights got cancelled on christmas day?", "2013-12-25"),
        ("flights_layer", "Flights from JFK on Thanksgiving", "2013-11-28"),
        ("shop_layer", "How many orders did we get on Black Friday 2018?", "2018-11-23"),
        ("shop_layer", "revenue on christmas eve", "2018-12-24"),
        ("shop_layer", "Revenue on New Year's Eve 2018", "2018-12-31"),
    ])
    def test_the_day_is_read(self, request, layer, text, day) -> None:
        reading = read_text(text, request.getfixturevalue(layer).catalog())
        assert _days(reading) == [(day, day)] and reading.unread == []

    @pytest.mark.parametrize("year", range(2000, 2031))
    def test_the_weekday_holidays_fall_on_their_weekday(self, year: int) -> None:
        """Thanksgiving is November's fourth Thursday, Black Friday the day after, Memorial Day
        May's last Monday, Labor Day September's first: checked against the calendar."""
        thanksgiving = holiday("Thanksgiving", year)
        assert thanksgiving.weekday() == 3 and 22 <= thanksgiving.day <= 28
        assert holiday("Black Friday", year) == thanksgiving + dt.timedelta(days=1)
        memorial = holiday("Memorial Day", year)
        assert memorial.weekday() == 0 and (memorial + dt.timedelta(days=7)).month == 6
        labor = holiday("Labor Day", year)
        assert labor.weekday() == 0 and labor.month == 9 and labor.day <= 7

    def test_a_season_stays_unreadable(self, shop_layer) -> None:
        """'Over the holidays' names no dates: still refused as unread, never a guessed day."""
        reading = read_text("What was revenue over the holidays in 2018?", shop_layer.catalog())
        assert _days(reading) == [("2018-01-01", "2018-12-31")]
        assert reading.unread == ["over the holidays"]


class TestWhichOfTwoPeriods:
    """'More X in July or August', 'higher in April or May 2019': the comparative before two
    periods joined by 'or' compares them; the same comparative with one period stays unread."""

    @pytest.mark.parametrize(("layer", "text", "word", "days", "one"), [
        ("flights_layer", "Were there more cancellations in July or August?", "more",
         [("2013-07-01", "2013-07-31"), ("2013-08-01", "2013-08-31")],
         "Were there more cancellations in July?"),
        ("shop_layer", "Was revenue higher in April or May 2019?", "higher",
         [("2019-04-01", "2019-04-30"), ("2019-05-01", "2019-05-31")],
         "Was revenue higher in May 2019?"),
    ])
    def test_two_periods_compared(self, request, layer, text, word, days, one) -> None:
        catalog = request.getfixturevalue(layer).catalog()
        reading = read_text(text, catalog)
        assert _days(reading) == days and reading.asks.compare == "explicit"
        assert reading.unread == [] and any(s.words == word for s in reading.asks.spans)
        alone = read_text(one, catalog)
        assert alone.asks.compare is None and word in alone.unread


class TestTwoWordsOfOneRunningTotal:
    """'By the end of Q3 2013, year to date': both phrases say the running total, and both are
    read by it."""

    @pytest.mark.parametrize(("layer", "text"), [
        ("flights_layer", "How many flights had departed by the end of Q3 2013, year to date?"),
        ("shop_layer", "What was revenue through the end of March 2019, year to date?"),
    ])
    def test_both_read(self, request, layer, text) -> None:
        reading = read_text(text, request.getfixturevalue(layer).catalog())
        assert reading.asks.cumulative and reading.unread == []
        assert sum(s.detail == "cumulative" for s in reading.asks.spans) == 2
