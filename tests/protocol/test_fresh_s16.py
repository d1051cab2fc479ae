"""Readings the fresh set of session 16 found refused (issue 42: examples/flights/
questions_s16.yaml, examples/shop/questions_s16.yaml, harness/questions/demo_s16.yaml, written
from the catalogs and the data before reading the reader). Each on two domains, and each with a
question that says more left unread."""

from __future__ import annotations

import copy
from typing import Any

from calls import STORES as _STORES

from showwork import audit_answer
from showwork.protocol.reading import read_text


def _in(reading) -> dict[str, set[str]]:
    """Each dimension of a range or set said, and its members."""
    out: dict[str, set[str]] = {}
    for m in reading.ranges:
        out.setdefault(m.name, set()).add(m.member or "")
    return out


class TestPoliteness:
    """'hi, could you tell me … ? thanks' was refused over 'thanks': greetings and thanks say
    nothing about data, and are read as the question's politeness ('please' already was)."""

    def test_flights(self, flights_layer) -> None:
        reading = read_text("hi, could you tell me the average visibility at lga in january? "
                            "thanks", flights_layer.catalog())
        assert reading.metric_names() == ["average_visibility"] and reading.unread == []

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("hello! how many orders did philadelphia have in march 2019? thank "
                            "you", shop_layer.catalog())
        assert reading.metric_names() == ["order_count"] and reading.unread == []
        assert "widgets" in read_text("hello, how many widgets in march 2019? thanks",
                                      shop_layer.catalog()).unread


class TestTheWholeOfAPeriod:
    """'…out of newark, all of 2013' was refused over 'all': 'all of', 'the whole of', 'over
    the course of' right before a period say the whole of it, which the window is."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("how many more flights did united have than delta out of newark, "
                            "all of 2013", catalog)
        assert [str(p.period) for p in reading.periods] == ["2013-01-01..2013-12-31"]
        assert reading.unread == []
        assert read_text("flights from jfk, all of march", catalog).unread == []

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        for text in ("revenue for the whole of 2019", "revenue over the course of 2019"):
            reading = read_text(text, catalog)
            assert reading.unread == [] and len(reading.periods) == 1, text
        assert "whole" in " ".join(read_text("revenue for the whole summer of 2019", catalog).unread)


class TestThroughAMember:
    """'Orders that came through the website', 'signups that came in through paid search' were
    refused over 'through': right before a member it says what the things came by, as 'via'
    does; between two members it stays unread (no range of members is read)."""

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("what % of 2018 orders came through the website", shop_layer.catalog())
        assert ("store", "Online") in reading.member_keys() and reading.unread == []

    def test_demo(self, layer) -> None:
        catalog = layer.catalog()
        reading = read_text("how many new signups came in through paid search in march 2026",
                            catalog)
        assert reading.member_keys() == [("channel", "paid_search")] and reading.unread == []
        assert "through" in read_text("signups from organic through paid search in march",
                                      catalog).unread


class TestShortFormsEveryoneWrites:
    """'avg active days per user' was refused where no metric word is 'average' (the demo) and
    in doubt where one is: 'avg', 'incl' are the short forms of one English word each, read as
    it with no doubt and said in a note; 'subs' (subscribers, subscriptions, …) stays in doubt."""

    def test_demo(self, layer) -> None:
        catalog = layer.catalog()
        reading = read_text("avg active days per user in april", catalog)
        assert reading.metric_names() == ["days_per_user"] and reading.unread == []
        assert "'avg' read as 'average'" in reading.notes
        assert read_text("paid subs as of june 1 2026", catalog).unread == ["subs"]

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("how many orders incl cancellations did 5th ave have in march 2019",
                            catalog)
        assert reading.metric_names() == ["gross_orders"] and reading.unread == []
        assert read_text("avg order value for the online store in jan 2019", catalog).unread == []

    def test_flights(self, flights_layer) -> None:
        reading = read_text("avg wind speed at jfk in december", flights_layer.catalog())
        assert reading.metric_names() == ["average_wind_speed"] and reading.doubts == ()


class TestAPeriodSaidInParentheses:
    """'Over the summer (jun through aug)' was refused: a season or holiday the calendar cannot
    read, followed by a period in parentheses the reading reads whole, is that period; with no
    such parenthesis it stays unread."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("how many flights went to ORD over the summer (jun through aug)",
                            catalog)
        assert [str(p.period) for p in reading.periods] == ["2013-06-01..2013-08-31"]
        assert reading.unread == [] and reading.gaps == ()

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("how much revenue over the holidays (december 2018)", catalog)
        assert [str(p.period) for p in reading.periods] == ["2018-12-01..2018-12-31"]
        assert reading.unread == []
        assert "over the summer" in read_text("revenue over the summer in 2019", catalog).unread


class TestAnApostropheInsideAName:
    """'Chicago o'hare' was refused where the airport's name is 'Chicago Ohare Intl': a word
    with an apostrophe inside (no possessive) is read as the word without it, as names are
    matched ("O'Hare Airport" is read from 'ohare')."""

    def test_flights(self, flights_layer) -> None:
        reading = read_text("how many flights went to chicago o'hare in july",
                            flights_layer.catalog())
        assert reading.member_keys() == [("destination_airport_name", "Chicago Ohare Intl")]
        assert reading.unread == []

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("orders at o'hare in 2019", catalog)
        assert ("store", "O'Hare Airport") in reading.member_keys() and reading.unread == []
        assert read_text("what was brooklyn's revenue in 2019", catalog).unread == []
        assert "o'xyz" in " ".join(read_text("orders at o'xyz in 2019", catalog).unread)


class TestAMisspellingIsNotTheOtherNumber:
    """'cancelation rate' was refused: one slip from 'cancellation' and from 'cancelations' (a
    US plural the catalog has), two candidates; a word's own plural is not a slip toward it, so
    'cancellation' is the one, in doubt as every misspelling is."""

    def test_flights(self, flights_layer) -> None:
        reading = read_text("what was the cancelation rate for flights to miami in sept",
                            flights_layer.catalog())
        assert reading.metric_names() == ["cancellation_rate"]
        assert reading.member_keys() == [("destination_airport_name", "Miami Intl")]
        assert [d.words for d in reading.doubts] == ["cancelation"]

    def test_a_catalog_of_no_project(self) -> None:
        catalog = copy.deepcopy(_STORES)
        catalog["metrics"]["refund_rate"] = {
            "label": "refund rate", "synonyms": [], "grains": ["month"], "unit": "fraction",
            "type": "ratio", "dimensions": ["store_code"]}
        catalog["metrics"]["refunds"] = {
            "label": "refunds", "synonyms": ["refund"], "grains": ["month"], "unit": "count",
            "type": "simple", "dimensions": ["store_code"]}
        reading = read_text("refnd rate in may 2024", catalog)
        assert reading.metric_names() == ["refund_rate"]
        assert [d.words for d in reading.doubts] == ["refnd"]


class TestASharePartSaidByItsVerb:
    """'What fraction of the reminders sent to iOS users got opened' and 'what fraction of
    orders got cancelled' were refused: a count's things said at the end to have been opened
    (cancelled) are the count whose label is the noun and that verb, and a governed fraction
    of the two is the share asked (the open rate, the cancellation rate)."""

    def test_demo(self, layer) -> None:
        catalog = layer.catalog()
        reading = read_text("what fraction of the reminders sent to ios users in march got "
                            "opened?", catalog)
        assert reading.metric_names() == ["reminder_open_rate"] and reading.unread == []
        assert reading.member_keys() == [("platform", "ios")] and reading.asks.share is None
        assert "deleted" in read_text("what fraction of the reminders sent in march got deleted?",
                                      catalog).unread

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("what fraction of orders got cancelled in june 2019",
                            shop_layer.catalog())
        assert reading.metric_names() == ["cancellation_rate"] and reading.unread == []
        assert reading.asks.share is None

    def test_flights(self, flights_layer) -> None:
        reading = read_text("what fraction of the flights scheduled from jfk in july got cancelled",
                            flights_layer.catalog())
        assert reading.metric_names() == ["cancellation_rate"] and reading.unread == []


class TestAPlaceEveryMemberIs:
    """'What share of all nyc flights', 'flights from new york to san francisco' were refused:
    the origin's synonyms 'nyc airport', 'new york airport' say every origin is one, so 'nyc',
    'new york' said where flights come from, or after 'all' right before them, are every origin
    (one filter keeping them all), in doubt: a reading of the catalog's words, never served
    clean. Said as where they go ('to new york') or alone ('nyc flights') they stay unread."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("what share of all nyc flights in 2013 were united flights", catalog)
        assert _in(reading) == {"origin": {"EWR", "JFK", "LGA"}} and reading.unread == ["nyc"]
        assert reading.unread_content == () and reading.gaps == ()
        assert "EWR, JFK, LGA" in reading.doubts[0].detail
        reading = read_text("what fraction of flights from new york to san francisco were "
                            "canceled", catalog)
        assert reading.metric_names() == ["cancellation_rate"]
        assert _in(reading) == {"origin": {"EWR", "JFK", "LGA"}}
        assert [d.words for d in reading.doubts] == ["new york"]
        for text in ("how many flights to new york in 2013", "how many nyc flights in 2013"):
            reading = read_text(text, catalog)
            assert reading.ranges == () and reading.unread_content != (), text

    def test_a_catalog_of_no_project(self) -> None:
        catalog: dict[str, Any] = copy.deepcopy(_STORES)
        catalog["dimensions"]["store_code"].update(label="store",
                                                   synonyms=["manhattan store", "store code"])
        for text in ("sales from manhattan in may 2024", "all manhattan sales in may 2024"):
            reading = read_text(text, catalog)
            assert _in(reading) == {"store_code": {"BKH", "SOH"}}, text
            assert [d.words for d in reading.doubts] == ["manhattan"], text
        reading = read_text("sales to manhattan in may 2024", catalog)
        assert reading.ranges == () and "manhattan" in reading.unread


class TestAMemberOfAJoinedAttribute:
    """'New customers in quebec in 2019' was answered right (a query filtered to
    region__region_name = Québec) but the audit said no cited result filters to the region
    named: a filter on another name of the same attribute (region of customers,
    region__region_name) carries the member."""

    @staticmethod
    def _audit(question: str, catalog: dict[str, Any], dim: str, member: str, value: float
               ) -> list[str]:
        answer = {"status": "answered", "answer": f"{value:g}.", "value": value,
                  "claims": [{"text": f"It was {value:g}", "kind": "measurement",
                              "sources": ["r1:m.value"], "value": value}]}
        metric = next(iter(catalog["metrics"]))
        answer["claims"][0]["sources"] = [f"r1:{metric}.value"]
        results = {"r1": {"metrics": [metric], "rows": [{metric: value}],
                          "window": {"start": "2019-01-01", "end": "2019-12-31"},
                          "where": [{"dimension": dim, "op": "in", "values": [member]}]}}
        report = audit_answer(answer, results=results, catalog=catalog, question=question)
        return [f.code for f in report.findings]

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        catalog = {**catalog, "metrics": {"new_customers": catalog["metrics"]["new_customers"]}}
        codes = self._audit("new customers in quebec in 2019", catalog, "region__region_name",
                            "Québec", 47)
        assert "off_question_filter" not in codes
        codes = self._audit("new customers in quebec in 2019", catalog, "region__region_name",
                            "Ontario", 47)
        assert "off_question_filter" in codes

    def test_a_catalog_of_no_project(self) -> None:
        catalog: dict[str, Any] = copy.deepcopy(_STORES)
        catalog["dimensions"]["store_code"]["qualified"] = "sale__store__store_code"
        catalog["dimensions"]["store__store_code"] = {"label": "store code", "pattern": None}
        codes = self._audit("sales at BKH in 2019", catalog, "store__store_code", "BKH", 12)
        assert "off_question_filter" not in codes
        codes = self._audit("sales at BKH in 2019", catalog, "store__store_code", "SOH", 12)
        assert "off_question_filter" in codes


class TestAShareByAMemberTheMetricCannotSplit:
    """'What share of 2019 sales came from drinks' was refused (revenue has no product type): a
    share whose part is a member of a dimension the metric named cannot be split by is the one
    metric named in that dimension's entity's words and the metric's (product_revenue), as a
    breakdown by it already was; a member the metric can split by leaves it alone."""

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("what share of 2019 sales came from drinks?", catalog)
        assert reading.metric_names() == ["product_revenue"] and reading.unread == []
        assert reading.member_keys() == [("product_type", "beverage")]
        assert any("product_revenue" in n for n in reading.notes)
        kept = read_text("what share of 2019 revenue came from brooklyn", catalog)
        assert kept.metric_names() == ["revenue"] and kept.notes == ()

    def test_a_catalog_of_no_project(self) -> None:
        catalog: dict[str, Any] = copy.deepcopy(_STORES)
        catalog["dimensions"]["item_category"] = {
            "label": "item category", "pattern": None, "qualified": "item__item_category",
            "members": ["snacks", "drinks"]}
        catalog["metrics"]["item_sales"] = {
            "label": "item sales", "synonyms": [], "grains": ["month"], "unit": "usd",
            "type": "simple", "dimensions": ["store_code", "item_category"]}
        reading = read_text("what share of sales in may 2024 came from snacks", catalog)
        assert reading.metric_names() == ["item_sales"] and reading.unread == []
        assert read_text("what share of sales in may 2024 came from SoHo",
                         catalog).metric_names() == ["sales"]
