"""A tick only for what was read (issue 42): a word that can change the answer is read only where
a rule used it, and the shapes those words ask for, on the shop and the flights."""

from __future__ import annotations

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.gold import values_of
from showwork.protocol.reading import read_text
from showwork.protocol.reading.account import read_as_line
from showwork.protocol.switches import Protocol

LAYER = {"shop": "shop_layer", "flights": "flights_layer"}


@pytest.fixture
def catalogs(request):
    return lambda name: request.getfixturevalue(LAYER[name]).catalog()


def _served(request, name: str, text: str) -> tuple[dict, list | None]:
    """The served audit and the answer's listed values."""
    layer = request.getfixturevalue(LAYER[name])
    trace = run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims"))
    served = trace.served()
    return served.audit, values_of(served.answer_raw)


class TestUnusedWordsAreUnread:
    @pytest.mark.parametrize(("name", "text", "unread"), [
        ("flights", "What share of flights from EWR were cancelled in 2013, as a running total?",
         ["running total"]),
        ("shop", "What share of revenue in June 2019 came from Online, as a running total?",
         ["running total"]),
        ("flights", "How many flights left JFK in July 2013 at each of the five airports?",
         ["each", "five"]),
        ("shop", "Did revenue grow from May to June 2019 at each of the four stores?",
         ["each", "four"]),
        # 'best' and 'worst' judge: read only by a metric's governed polarity (temperature
        # and the shop's gross orders have none)
        ("flights", "What was the worst month for average temperature in 2013?", ["worst"]),
        ("shop", "What was the best week for gross orders in Q2 2019?", ["best"]),
        ("flights", "Did the total distance get better from May to June 2013?", ["better"]),
        ("shop", "Did gross orders get worse from May to June 2019?", ["worse"]),
        ("shop", "How many orders were there in June 2019, excluding refunds?",
         ["excluding refunds"]),
    ])
    def test_a_list_word_no_rule_used(self, catalogs, name: str, text: str, unread: list) -> None:
        """A running total said of a share, a count of members the dimension does not have,
        a judgement of good and bad, an exclusion of no member: no rule acted on them, so they
        are unread."""
        assert read_text(text, catalogs(name)).unread == unread


class TestShapes:
    @pytest.mark.parametrize(("name", "text", "detail"), [
        ("flights", "Did the cancellation rate get better from May to June 2013?",
         "change: better is lower by the metric's polarity (lower_is_better)"),
        ("flights", "Did flights get worse from May to June 2013?",
         "change: worse is lower by the metric's polarity (higher_is_better)"),
        ("shop", "Did revenue get better from May to June 2019?",
         "change: better is higher by the metric's polarity (higher_is_better)"),
        ("shop", "Did the cancellation rate get worse in June 2019?",
         "change: worse is higher by the metric's polarity (lower_is_better)"),
    ])
    def test_better_and_worse_by_polarity(self, catalogs, name, text, detail) -> None:
        """'Did X get better': a change (two periods named: one against the other), its good
        direction the metric's governed polarity, every word read."""
        reading = read_text(text, catalogs(name))
        assert reading.asks.change and reading.unread == []
        assert detail in [s.detail for s in reading.spans]
        assert (len(reading.periods) == 2) == ("from May" in text)

    @pytest.mark.parametrize(("name", "text", "grain", "order"), [
        ("flights", "Which month had the most cancellations?", "month", "most"),
        ("flights", "What was the busiest week of 2013 for flights out of JFK?", "week", "most"),
        ("shop", "Which quarter of 2018 had the lowest average order value?", "quarter", "least"),
        ("shop", "Which day in July 2019 had the most cancelled orders?", "day", "most"),
    ])
    def test_a_ranking_over_a_time_grain(self, catalogs, name, text, grain, order) -> None:
        """'Which month had the most': a ranking of the grain's periods, every word read."""
        reading = read_text(text, catalogs(name))
        ranking = reading.asks.ranking
        assert (ranking.grain, ranking.order, ranking.dimension, reading.unread) == (
            grain, order, None, [])
        assert f"by {grain}" in read_as_line(reading)

    @pytest.mark.parametrize(("name", "text", "start", "end"), [
        ("flights", "Year to date through the end of June 2013, how many United flights were "
         "cancelled?", "2013-01-01", "2013-06-30"),
        ("flights", "Year-to-date cancellations as of September 30, 2013?", "2013-01-01",
         "2013-09-30"),
        ("shop", "Year-to-date revenue as of June 30, 2019?", "2019-01-01", "2019-06-30"),
    ])
    def test_year_to_date_as_of_is_cumulative(self, catalogs, name, text, start, end) -> None:
        """Year to date as of a day, or through the end of a month: from the year's start."""
        reading = read_text(text, catalogs(name))
        [period] = reading.periods
        assert (str(period.period.start), str(period.period.end)) == (start, end)
        assert reading.asks.cumulative and reading.unread == []

    @pytest.mark.parametrize(("name", "text"), [
        ("flights", "Compare the cancellation rate between June and July 2013"),
        ("shop", "Compare revenue between March and April 2019"),
    ])
    def test_compare_between_two_periods(self, catalogs, name, text) -> None:
        """'Compare A between P1 and P2': two windows side by side, not one span."""
        reading = read_text(text, catalogs(name))
        assert reading.asks.compare == "explicit" and len(reading.periods) == 2
        assert reading.unread == []

    @pytest.mark.parametrize(("name", "text", "dimension"), [
        ("flights", "Did the number of flights grow from January to February 2013 at each of the "
         "three airports?", "origin"),
        ("shop", "Did revenue grow from May to June 2019 at each of the six stores?", "store"),
    ])
    def test_at_each_of_the_n(self, catalogs, name, text, dimension) -> None:
        """'At each of the three airports': a breakdown by the dimension with three members."""
        reading = read_text(text, catalogs(name))
        assert reading.asks.breakdown == (dimension,) and reading.asks.ranking is None
        assert reading.unread == []

    def test_a_clock_time_where_the_model_has_an_hour(self, catalogs) -> None:
        """'At 6pm' is the departure hour 18 on the flights; the shop has no hour: unread."""
        flights = read_text("How many flights were scheduled to leave at 6pm on July 4, 2013?",
                            catalogs("flights"))
        assert flights.member_keys() == [("departure_hour", "18")] and flights.unread == []
        shop = read_text("How many orders were placed at 6pm on July 4, 2019?", catalogs("shop"))
        # 'were placed' is the status placed or every order's placing: in doubt either way
        assert shop.unread == ["placed", "6pm"]

    def test_a_place_of_two_words_in_one_name(self, catalogs) -> None:
        """'San Francisco' is the one airport whose name holds it; 'Boston' alone names only a
        station no flight reaches, so it is not read (the refusal says so,
        tests/protocol/test_names.py); 'Chicago' (two names with flights) is not read."""
        reading = read_text("What was the average arrival delay for flights into San Francisco "
                            "in 2013?", catalogs("flights"))
        assert ("destination_airport_name", "San Francisco Intl") in reading.member_keys()
        boston = read_text("How many flights left from Boston in 2013?", catalogs("flights"))
        assert not boston.members and boston.unread == ["Boston"]
        assert read_text("How many flights went to Chicago in 2013?",
                         catalogs("flights")).unread == ["Chicago"]


class TestAnswers:
    @pytest.mark.parametrize(("name", "text", "headline"), [
        ("flights", "Which month had the most cancellations?", "2013-02-01"),
        ("shop", "Which month had the highest revenue in the first half of 2019?", None),
    ])
    def test_the_extreme_period_is_the_headline(self, request, name, text, headline) -> None:
        """Answered from the series, the extreme period the headline, its value cited."""
        audit, values = _served(request, name, text)
        assert audit["status"] == "answered", audit.get("refusal_reason")
        if headline is not None:
            assert audit["value"] == headline
        assert values and max(values, key=lambda v: v["value"])["key"] == audit["value"]
        assert audit["decision"] == "serve" and audit["grounded"]

    @pytest.mark.parametrize(("name", "text", "first", "last"), [
        ("flights", "Give me a running total of flights by month in 2013", 27004, 336776),
        ("shop", "Running total of revenue for the Online store, month by month, in Q4 2018",
         None, None),
    ])
    def test_a_running_total_is_a_cumulative_series(self, request, name, text, first, last
                                                    ) -> None:
        """Each period's value runs from the window's start; the series never falls."""
        audit, listed = _served(request, name, text)
        assert audit["status"] == "answered", audit.get("refusal_reason")
        assert audit["grounded"]
        values = [v["value"] for v in listed or []]
        assert len(values) >= 3 and values == sorted(values)
        if first is not None:
            assert (values[0], values[-1]) == (first, last)


class TestTheAuditReadsTheSameWay:
    @pytest.mark.parametrize(("name", "metric", "window", "value", "question", "unread"), [
        ("flights", "flights", ("2013-03-01", "2013-03-31"), 28834,
         "How many flights were there in March 2013 at each of the five airports?",
         ["at each of the five airports"]),
        ("shop", "revenue", ("2019-06-01", "2019-06-30"), 59000.0,
         "What was revenue in June 2019, excluding refunds?", ["excluding refunds"]),
    ])
    def test_an_unread_span_is_never_served_clean(self, catalogs, name, metric, window, value,
                                                  question, unread) -> None:
        """`audit_answer(question=…)` reads with the reader: a grounded answer to a question
        with an unread span carries `unread_question` and is not served clean."""
        import showwork

        answer = {"status": "answered", "answer": f"The value was {value:,}.", "value": value,
                  "claims": [{"text": f"The value was {value:,}", "kind": "measurement",
                              "sources": [f"r1:{metric}.value"], "value": value}]}
        results = {"r1": {"metrics": [metric], "rows": [{metric: value}],
                          "window": {"start": window[0], "end": window[1]}}}
        report = showwork.audit_answer(answer, results, catalogs(name), question=question)
        found = [f for f in report.findings if f.code == "unread_question"]
        assert found and found[0].evidence["unread"] == unread
        assert report.decision != "serve"
