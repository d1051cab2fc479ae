"""A question that says more never gets the same reading (issue 42, item 2), for three kinds of
words the generated invariant had not tried: a second grain beside the one read ('weekly
cancellations in 2013, by month': the weekly series had been read with 'by month' counted as
read), a change between consecutive periods of a grain said of periods that are not of it
('December compared with November, week over week'), and a comparison with the period before
beside the two periods named ('May 2019 with May 2018, vs the prior quarter'). And the period a
year before, as people say it ('compared with the same month last year', 'year over year',
'the same quarter a year earlier', 'the same month in 2018'): read as the two periods side by
side; 'the same month last year' had been refused ('same month' unread) and 'the same month
in 2018' read against the whole of 2018."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol

SAYS_MORE = [
    # (fixture, the question, a phrase added, the words left unread)
    ("flights_layer", "weekly cancellations in 2013", ", by month", "by month"),
    ("shop_layer", "monthly revenue in 2019", " by week", "by week"),
    ("layer", "weekly new users in march 2026", ", by day", "by day"),
    ("flights_layer", "Monthly average departure delay at Newark for 2013", ", per day", "per day"),
    ("flights_layer", "How did flights in H2 2013 compare with H1 2013", ", week over week",
     "week over week"),
    ("shop_layer", "revenue in 2019", ", month over month", "month over month"),
    ("flights_layer", "How did cancelled flights change in June 2013 compared with May 2013",
     ", week over week", "week over week"),
    ("shop_layer", "compare revenue in May 2019 with May 2018", ", vs the prior quarter",
     "prior quarter"),
    ("shop_layer", "How did orders change in the week of 2019-06-10 versus the week before",
     ", vs the prior quarter", "prior quarter"),
    ("layer", "compare new users in march 2026 with february 2026", ", vs the previous week",
     "previous week"),
]


@pytest.mark.parametrize(("fixture", "question", "added", "unread"), SAYS_MORE)
def test_a_grain_or_a_period_more_is_never_read_as_the_question(
        request, fixture: str, question: str, added: str, unread: str) -> None:
    catalog = request.getfixturevalue(fixture).catalog()
    assert read_text(question, catalog).unread == []
    assert unread in read_text(question + added, catalog).unread


REPEATS = [
    # the same grain or comparison said twice: read, nothing unread
    ("shop_layer", "monthly revenue in 2019, month by month"),
    ("flights_layer", "daily flights out of laguardia from sept 1 to sept 7, by day"),
    ("shop_layer", "How did average order value change in December 2018 compared with November "
                   "2018, the previous month"),
    ("flights_layer", "How did cancelled flights change in June 2013 compared with May 2013, "
                      "month over month"),
    ("shop_layer", "revenue in june 2019, month over month"),
    ("shop_layer", "Q2 2019 revenue versus the prior quarter"),
    ("layer", "new users in march 2026 versus the previous month"),
]


@pytest.mark.parametrize(("fixture", "question"), REPEATS)
def test_the_grain_or_comparison_said_again_is_read(request, fixture: str, question: str) -> None:
    assert read_text(question, request.getfixturevalue(fixture).catalog()).unread == []


YEAR_BEFORE = [
    # (fixture, the question, the two windows read)
    ("shop_layer", "how did revenue in may 2019 compare with the same month last year?",
     ("2019-05-01", "2019-05-31"), ("2018-05-01", "2018-05-31")),
    ("shop_layer", "revenue in may 2019 vs the same month in 2018",
     ("2019-05-01", "2019-05-31"), ("2018-05-01", "2018-05-31")),
    ("shop_layer", "Q2 2019 orders yoy", ("2019-04-01", "2019-06-30"), ("2018-04-01", "2018-06-30")),
    ("shop_layer", "orders at brooklyn in q2 2019 compared with the same quarter a year earlier",
     ("2019-04-01", "2019-06-30"), ("2018-04-01", "2018-06-30")),
    ("shop_layer", "how did revenue in the week of 2019-06-10 compare with the same week last "
                   "year", ("2019-06-10", "2019-06-16"), ("2018-06-11", "2018-06-17")),
    ("layer", "new users in march 2026 versus the same month a year earlier",
     ("2026-03-01", "2026-03-31"), ("2025-03-01", "2025-03-31")),
    ("flights_layer", "flights in june 2013 compared with the same period the previous year",
     ("2013-06-01", "2013-06-30"), ("2012-06-01", "2012-06-30")),
    ("tutorial_layer", "transactions in march 2022 year over year",
     ("2022-03-01", "2022-03-31"), ("2021-03-01", "2021-03-31")),
]


@pytest.mark.parametrize(("fixture", "question", "now", "before"), YEAR_BEFORE)
def test_the_same_period_a_year_before_is_read_as_the_second_window(
        request, fixture: str, question: str, now: tuple[str, str],
        before: tuple[str, str]) -> None:
    reading = read_text(question, request.getfixturevalue(fixture).catalog())
    assert reading.unread == []
    windows = [(p.period.start, p.period.end) for p in reading.periods]
    assert windows == [tuple(dt.date.fromisoformat(d) for d in w) for w in (now, before)]
    assert reading.asks.compare == "explicit"


@pytest.mark.parametrize(("fixture", "question", "said"), [
    ("shop_layer", "how did revenue in may 2019 compare with the same month last year?",
     "May 2019 versus May 2018"),
    ("shop_layer", "Q2 2019 orders yoy", "Q2 2019 versus Q2 2018"),
])
def test_the_analyst_compares_the_two_and_the_audit_serves_it(request, fixture: str,
                                                               question: str, said: str) -> None:
    layer = request.getfixturevalue(fixture)
    record = run_attempt(Question("ask", question), RulesClient(), layer, Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw
    assert served.audit["decision"] == "serve" and not served.audit["findings"]
    assert said in json.loads(served.answer_raw)["answer"]


def test_a_year_before_the_data_is_refused_for_its_coverage(flights_layer) -> None:
    """2012 is outside the flights' data: refused for the window, not for the words."""
    record = run_attempt(Question("ask", "flights in june 2013 compared with the same month last "
                                         "year"), RulesClient(), flights_layer,
                         Protocol.parse("claims"))
    answer = json.loads(record.served().answer_raw)
    assert answer["status"] == "refused" and "2012-06-01..2012-06-30" in answer["refusal_reason"]


@pytest.fixture(scope="module")
def trips_catalog(tmp_path_factory) -> dict:
    """A project whose destinations are codes known only from the data (tests/support)."""
    from trips_project import build

    from showwork.harness.project import Project

    project = Project.open(build(tmp_path_factory.mktemp("trips")))
    try:
        return project.catalog
    finally:
        project.close()


@pytest.mark.parametrize(("domain", "question", "member"), [
    ("flights", "average arrival delay for flights from jfk to lax in q3", ("destination", "LAX")),
    ("flights", "flights to sfo in q3", ("destination", "SFO")),
    ("flights", "flights to den in july", ("destination", "DEN")),
    ("trips", "flights to sfo in march 2013", ("trip__dest", "SFO")),
    ("trips", "how many flights went to atl in 2013", ("trip__dest", "ATL")),
])
def test_a_code_in_lower_case_after_a_route_word_is_the_place(request, trips_catalog,
                                                               domain: str, question: str,
                                                               member: tuple[str, str]) -> None:
    """'flights to lax': a code the data keeps in capitals, written in lower case right after
    'to', 'from', 'into', 'out of' or 'via', is the place (it had been unread: refused, naming
    LAX as the closest); elsewhere a lower-case code may be a word and stays unread."""
    catalog = trips_catalog if domain == "trips" else request.getfixturevalue(
        "flights_layer").catalog()
    reading = read_text(question, catalog)
    assert reading.unread == [] and member in {(m.name, m.member) for m in reading.members}
    assert "lax" in read_text("how lax was it in q3", catalog).unread
    # a code that starts a longer name is not the place: 'to san francisco' is no SAN
    assert ("destination", "SAN") not in read_text("flights to san francisco in q3",
                                                   catalog).member_keys()


@pytest.mark.parametrize(("fixture", "question", "unread"), [
    ("flights_layer", "total flights per carrier in june, sorted", None),
    ("shop_layer", "orders per store in june 2019, sorted", None),
    ("shop_layer", "orders per store in june 2019, sorted from highest to lowest", None),
    ("layer", "new users by platform in march 2026, highest first", None),
    ("shop_layer", "orders per store in june 2019, sorted by name", "sorted by"),
    ("flights_layer", "total flights in june, sorted", "sorted"),
])
def test_a_breakdown_asked_largest_first_is_read(request, fixture: str, question: str,
                                                 unread: str | None) -> None:
    """'per carrier in june, sorted': a breakdown asked in the order its answer lists it, the
    largest first (refused before, 'sorted' unread); another order ('sorted by name'), or no
    breakdown to sort, stays unread."""
    reading = read_text(question, request.getfixturevalue(fixture).catalog())
    assert reading.unread == ([unread] if unread else [])


def test_the_busiest_hour_of_the_day(flights_layer) -> None:
    """'the busiest hour of the day at lga': a ranking of the hours (the hour dimension),
    'of the day' read with it as after 'which hour' ('day' had been unread, naming DAY)."""
    reading = read_text("busiest hour of the day at lga", flights_layer.catalog())
    assert reading.unread == [] and reading.asks.ranking is not None
    assert "week" in read_text("the busiest day of the week at jfk", flights_layer.catalog()).unread


@pytest.mark.parametrize(("fixture", "question", "window", "ranked"), [
    ("shop_layer", "which product sold the most units in 2019 ytd", ("2019-01-01", "2019-08-14"),
     True),
    ("shop_layer", "revenue 2019 ytd", ("2019-01-01", "2019-08-14"), False),
    ("shop_layer", "revenue 2019 year-to-date", ("2019-01-01", "2019-08-14"), False),
    ("layer", "which platform had the most new users in 2026 ytd", ("2026-01-01", "2026-06-17"),
     True),
    ("flights_layer", "which airline had the most cancellations in 2013 ytd",
     ("2013-01-01", "2013-12-31"), True),
])
def test_a_year_to_date_of_the_year_named(request, fixture: str, question: str,
                                          window: tuple[str, str], ranked: bool) -> None:
    """'2019 ytd' is 2019 to date (as '2019 to date' and '2019 so far' are): the year from its
    start to where the data ends; of a ranking, only its window (the ranking had been read as a
    running total over the whole of 2019, and the analyst's right answer flagged off the
    question's window and shape); 'revenue 2019 ytd' read the year at all ('2019' unread)."""
    reading = read_text(question, request.getfixturevalue(fixture).catalog())
    assert reading.unread == []
    assert [(str(p.period.start), str(p.period.end)) for p in reading.periods] == [window]
    assert (reading.asks.ranking is not None) == ranked
    if ranked:
        assert not reading.asks.cumulative
