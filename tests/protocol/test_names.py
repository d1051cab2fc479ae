"""Names and filters as people say them (issue 42, items 3-4), on the flights, the shop and the
demo: members kept out ('excluding X') and kept alone ('only X'), 'the rate', plural metric
names, one word of a place's name, a whole ('all three airports'), a near miss with a
did-you-mean, and a range of hours ('after 9pm'); the analyst answers them and the audit holds
what the question and the claims say. Members as the data holds them: a place named in part is
matched only among the values the asked metric's facts reach (the catalog's `with_facts`), and
a member named exactly whose name begins other members' is read, flagged, never clean."""

from __future__ import annotations

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.reading.account import read_as_line
from showwork.protocol.reading.members import holding, with_facts
from showwork.protocol.reading.mentions import find_metrics
from showwork.protocol.switches import Protocol

LAYER = {"demo": "layer", "shop": "shop_layer", "flights": "flights_layer"}


@pytest.fixture
def catalogs(request):
    return lambda name: request.getfixturevalue(LAYER[name]).catalog()


def _run(request, name: str, text: str):
    layer = request.getfixturevalue(LAYER[name])
    return run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims")).served()


def _value(request, name: str, text: str) -> float:
    served = _run(request, name, text)
    assert served.audit["status"] == "answered", served.audit.get("refusal_reason")
    return served.audit["value"]


class TestKeptOut:
    @pytest.mark.parametrize(("name", "text", "dim", "member"), [
        ("flights", "How many flights went to ATL in March 2013, excluding Delta?", "airline",
         "Delta Air Lines Inc."),
        ("flights", "Delayed departures at JFK in August 2013, not counting JetBlue", "airline",
         "JetBlue Airways"),
        ("shop", "What was revenue in June 2019, without the Online store?", "store", "Online"),
        ("demo", "How many active users did we have in April 2026, excluding web?", "platform",
         "web"),
    ])
    def test_a_member_kept_out_is_read(self, catalogs, name, text, dim, member) -> None:
        """The cue and the member are read, the member is kept out (not a filter to it), and
        'Read as' says so; the member's words are no shape ('Delta' is no change)."""
        reading = read_text(text, catalogs(name))
        assert (dim, member) in [(m.name, m.member) for m in reading.excluded]
        assert (dim, member) not in reading.member_keys() and reading.unread == []
        assert f"{dim} != {member}" in read_as_line(reading)
        assert reading.asks.shape == "level"

    @pytest.mark.parametrize(("name", "text", "key"), [
        ("flights", "Only United flights: what was the average departure delay out of Newark in "
                    "June 2013?", ("airline", "United Air Lines Inc.")),
        ("shop", "Only business customers - how many orders did we get in Q1 2019?",
         ("segment", "business")),
        ("demo", "How many new users signed up on iOS only in March 2026?", ("platform", "ios")),
    ])
    def test_only_is_read_by_the_filter(self, catalogs, name, text, key) -> None:
        reading = read_text(text, catalogs(name))
        assert key in reading.member_keys() and reading.unread == []
        assert any(s.detail.startswith("only ") for s in reading.spans)

    def test_only_a_member_is_kept_out(self, catalogs) -> None:
        """'Excluding refunds' keeps out nothing the catalog governs: unread."""
        reading = read_text("How many orders in June 2019, excluding refunds?", catalogs("shop"))
        assert reading.excluded == () and reading.unread == ["excluding refunds"]

    @pytest.mark.parametrize(("name", "whole", "part", "kept_out"), [
        ("flights", "How many flights went to ATL in March 2013?",
         "How many Delta flights went to ATL in March 2013?",
         "How many flights went to ATL in March 2013, excluding Delta?"),
        ("shop", "How many orders did we take in May 2019?",
         "How many orders did the Online store take in May 2019?",
         "How many orders did we take in May 2019, without the Online store?"),
    ])
    def test_the_answer_is_the_whole_less_the_member(self, request, name, whole, part,
                                                     kept_out) -> None:
        """Served clean with the member kept out (a not_in filter): the whole less the
        member's; the claim's 'other than' is read (held by mislabelled_member), no caveat."""
        served = _run(request, name, kept_out)
        assert served.audit["status"] == "answered", served.audit.get("refusal_reason")
        assert served.audit["decision"] == "serve", served.audit["findings"]
        assert served.audit["value"] == _value(request, name, whole) - _value(request, name, part)

    @pytest.mark.parametrize(("name", "metric", "question", "dim", "member", "value"), [
        ("shop", "order_count", "How many orders did we take in May 2019, excluding Online?",
         "store", "Online", 2000),
        ("flights", "flights", "How many flights were there in May 2013, excluding Delta?",
         "airline", "Delta Air Lines Inc.", 25000),
    ])
    def test_the_audit_holds_the_question_and_the_claim(self, catalogs, name, metric, question,
                                                        dim, member, value) -> None:
        """A result that counts the member kept out is off the question (and off a claim that
        says 'other than'); one whose call keeps it out (not_in) is not."""
        import showwork

        def audit(where: list, text: str):
            answer = {"status": "answered", "answer": f"{text}.", "value": value,
                      "claims": [{"text": text, "kind": "measurement",
                                  "sources": [f"r1:{metric}.value"], "value": value}]}
            result = {"metrics": [metric], "rows": [{metric: value}],
                      "window": {"start": "2019-05-01" if name == "shop" else "2013-05-01",
                                 "end": "2019-05-31" if name == "shop" else "2013-05-31"}}
            result["where"] = where
            return showwork.audit_answer(answer, {"r1": result}, catalogs(name),
                                         question=question)

        said = f"The value ({dim} other than {member}) was {value:,}"
        counted = audit([], said)  # a call with no filter: every member counted
        codes = {f.code for f in counted.findings}
        assert {"off_question_filter", "mislabelled_member"} <= codes
        assert counted.decision != "serve"
        kept = audit([{"dimension": dim, "op": "not_in", "values": [member]}], said)
        assert not {"off_question_filter", "mislabelled_member"} & {f.code for f in kept.findings}


class TestRate:
    @pytest.mark.parametrize(("name", "text", "metric"), [
        ("shop", "What's the rate for Brooklyn in April 2019?", "cancellation_rate"),
        ("demo", "What was the rate on android in April 2026?", "reminder_open_rate"),
        ("shop", "cancellation rates by store in March 2019", "cancellation_rate"),
        ("demo", "open rates by platform for March 2026", "reminder_open_rate"),
    ])
    def test_the_one_rate(self, catalogs, name, text, metric) -> None:
        """'The rate' names the one ratio metric that says rate, share or percentage; a
        several-word metric name is read in the plural too."""
        reading = read_text(text, catalogs(name))
        assert reading.metric_names() == [metric] and reading.unread == []

    def test_two_rates_are_not_guessed(self, catalogs) -> None:
        """The flights govern a cancellation rate and a share of flights delayed: 'the rates'
        stays unread; 'churn rate' names no governed metric (the word before 'rate' is its)."""
        assert read_text("What were the rates at JFK in May 2013?",
                         catalogs("flights")).unread == ["rates"]
        churn = read_text("What was the churn rate in June 2019?", catalogs("shop"))
        assert churn.metrics == () and churn.unread == ["churn rate"]

    def test_two_rates_are_asked_back(self, request) -> None:
        served = _run(request, "flights", "What were the rates at JFK in May 2013?")
        assert served.audit["status"] == "refused"
        assert "cancellation_rate or delayed_share" in served.audit["refusal_reason"]

    @pytest.mark.parametrize(("name", "text", "metric"), [
        ("shop", "What's the rate for Brooklyn in April 2019?", "cancellation_rate"),
        ("demo", "What was the rate on android in April 2026?", "reminder_open_rate"),
    ])
    def test_the_one_rate_is_answered(self, request, name, text, metric) -> None:
        served = _run(request, name, text)
        assert served.audit["status"] == "answered", served.audit.get("refusal_reason")
        assert metric in served.answer_raw


class TestPlacesAndWholes:
    def test_one_word_of_one_name(self, catalogs) -> None:
        """'Denver' is a word of one airport's name only: read as it ('said'); 'Chicago' is a
        word of several: unread, and the refusal names them."""
        reading = read_text("How many flights went to Denver in Q2 2013?", catalogs("flights"))
        assert ("destination_airport_name", "Denver Intl") in reading.member_keys()
        assert {m.how for m in reading.members} == {"said"} and reading.unread == []
        assert read_text("How many flights went to Chicago in 2013?",
                         catalogs("flights")).unread == ["Chicago"]

    @pytest.mark.parametrize(("name", "text"), [
        ("shop", "How many orders did the Boston store take in 2019?"),
        ("demo", "How many active users did we have in France in April 2026?"),
    ])
    def test_no_open_name_no_place(self, catalogs, name, text) -> None:
        """Without a dimension of names holding the word, a place stays unread (the shop's and
        the demo's dimensions are closed lists)."""
        assert read_text(text, catalogs(name)).unread

    def test_a_place_with_no_data_is_refused(self, request) -> None:
        """'Boston' is a word of one name only, a station no flight left from: no member of
        the values flights reach, so refused, saying which value holds it without data."""
        served = _run(request, "flights", "How many flights left from Boston in 2013?")
        assert served.audit["status"] == "refused"
        assert "only by Boston Back Bay Station, which flights has no data for" in \
            served.audit["refusal_reason"]

    @pytest.mark.parametrize(("name", "text", "said"), [
        ("flights", "How many flights left all three New York airports in December 2013?",
         "every origin: no filter"),
        ("demo", "Active users on all platforms in the week of 2026-04-13",
         "every platform: no filter"),
        ("shop", "Revenue across all stores in July 2019", "every store: no filter"),
    ])
    def test_a_whole_is_no_filter(self, catalogs, name, text, said) -> None:
        reading = read_text(text, catalogs(name))
        assert reading.members == () and reading.asks.breakdown == () and reading.unread == []
        assert said in read_as_line(reading)

    def test_a_count_the_dimension_has_not_is_unread(self, catalogs) -> None:
        reading = read_text("How many flights left all 4 New York airports in December 2013?",
                            catalogs("flights"))
        assert reading.unread == ["all 4"]

    @pytest.mark.parametrize(("name", "text", "meant"), [
        ("flights", "How many flights did Deltta fly in May 2013?", "Delta Air Lines Inc."),
        ("shop", "How much revenue did Brookyln make in June 2019?", "Brooklyn"),
        ("demo", "How many signups came from Germny in March 2026?", "DE"),
    ])
    def test_a_near_miss_is_refused_with_a_did_you_mean(self, request, name, text,
                                                        meant) -> None:
        served = _run(request, name, text)
        assert served.audit["status"] == "refused"
        assert meant in served.audit["refusal_reason"]


class TestHours:
    @pytest.mark.parametrize(("text", "hours"), [
        ("How many flights were scheduled to leave after 9pm in July 2013?", ["21", "22", "23"]),
        ("Cancellations before 6am at JFK in 2013", ["1", "5"]),
        ("How many flights left JFK between 6am and 9am in May 2013?", ["6", "7", "8"]),
        ("Flights scheduled from 6 to 9pm out of Newark in July 2013", ["18", "19", "20"]),
    ])
    def test_a_range_of_hours(self, catalogs, text, hours) -> None:
        reading = read_text(text, catalogs("flights"))
        assert [m.member for m in reading.ranges] == hours and reading.unread == []
        assert reading.asks.breakdown == ()

    @pytest.mark.parametrize("name", ["shop", "demo"])
    def test_no_hour_dimension_no_range(self, catalogs, name) -> None:
        text = {"shop": "How many orders came in after 9pm in July 2019?",
                "demo": "How many users signed up after 9pm in March 2026?"}[name]
        assert read_text(text, catalogs(name)).unread == ["after 9pm"]

    def test_after_9pm_is_the_sum_of_its_hours(self, request) -> None:
        """Served as one filter (not the hours side by side), equal to the hours' rows of the
        breakdown by hour."""
        served = _run(request, "flights",
                      "How many flights were scheduled to leave after 9pm in July 2013?")
        assert served.audit["decision"] == "serve"
        layer = request.getfixturevalue("flights_layer")
        rows = layer.query(metrics=["flights"], group_by=["departure_hour"],
                           window={"start": "2013-07-01", "end": "2013-07-31"}).to_json()["rows"]
        late = sum(r["values"]["flights"]["value"] for r in rows
                   if int(r["key"]["departure_hour"]) >= 21)
        assert served.audit["value"] == late

    def test_the_audit_holds_the_range(self, catalogs) -> None:
        import showwork

        answer = {"status": "answered", "answer": "Flights were 29,425.", "value": 29425,
                  "claims": [{"text": "Flights were 29,425", "kind": "measurement",
                              "sources": ["r1:flights.value"], "value": 29425}]}
        result = {"metrics": ["flights"], "rows": [{"flights": 29425}],
                  "window": {"start": "2013-07-01", "end": "2013-07-31"}, "where": []}
        report = showwork.audit_answer(answer, {"r1": result}, catalogs("flights"),
                                       question="How many flights left after 9pm in July 2013?")
        assert "off_question_filter" in {f.code for f in report.findings}


class TestAbbreviations:
    """A metric abbreviated as analysts do, or its abbreviated name written out, read from the
    catalog's own names (protocol/reading/mentions.py, `_abbreviations`)."""

    @pytest.mark.parametrize(("name", "text", "metric", "words"), [
        ("shop", "What was RPC in March 2019?", "revenue_per_customer", "RPC"),
        ("shop", "What was AUP at the Online store in May 2019?", "average_unit_price", "AUP"),
        ("flights", "What was the AADT in March 2013?", None, None),
        ("flights", "What was AAD at JFK in March 2013?", "average_arrival_delay", "AAD"),
    ])
    def test_an_acronym_in_capitals_names_the_one_metric_it_spells(
            self, request, catalogs, name, text, metric, words) -> None:
        """Capitals spelling the initials of exactly one metric of three or more words name
        it, and the answer equals the one asked in full; a run of capitals that spells no
        metric names none."""
        found = [(m.name, m.words) for m in find_metrics(text, catalogs(name))]
        if metric is None:
            assert found == []
            return
        assert found == [(metric, words)]
        full = text.replace(words, metric.replace("_", " "))
        assert _value(request, name, text) == _value(request, name, full)

    @pytest.mark.parametrize(("name", "text", "metric"), [
        ("flights", "Did the delays add up in March 2013?", "average_departure_delay"),
        ("shop", "what was rpc in march 2019?", "revenue_per_customer")])
    def test_an_acronym_not_in_capitals_is_a_word(self, catalogs, name, text, metric) -> None:
        """'add' or 'rpc' in lower case is a word, not an acronym."""
        assert metric not in [m.name for m in find_metrics(text, catalogs(name))]

    @pytest.mark.parametrize(("text", "metric", "words"), [
        ("What was the consumer price index in 1990?", "cpi", "consumer price index"),
        ("Which states had the fewest packs per capita?", "packpc", "packs per capita"),
        ("What was the gross domestic product per capita?", "gdppc",
         "gross domestic product per capita"),
        ("What was the price index in 1990?", None, None),
        ("What was the cpi in 1990?", "cpi", "cpi"),
    ])
    def test_words_that_spell_a_one_word_name_name_it(self, text, metric, words) -> None:
        """Two or more words that spell a metric's one-word name, by initials or whole words,
        one initial at least, name it (a catalog as init drafts it from raw column names);
        words that spell only part of it name nothing."""
        catalog = {"metrics": {n: {"label": n} for n in ("cpi", "packpc", "gdppc", "pop")}}
        found = [(m.name, m.words) for m in find_metrics(text, catalog)]
        assert found == ([] if metric is None else [(metric, words)])


class TestKeptOutAFewWordsAhead:
    """A cue a few words before the member ('leaving out the regional carriers Envoy and
    ExpressJet'): the lead's held-out flights question read Envoy and ExpressJet as filters TO
    them, served with a caveat for 'regional' only."""

    @pytest.mark.parametrize(("name", "text", "kept_out", "unread"), [
        ("flights", "Which airline had the highest share of delayed departures in 2013, leaving out "
                    "the regional carriers Envoy and ExpressJet?",
         {("airline", "Envoy Air"), ("airline", "ExpressJet Airlines Inc.")}, "regional"),
        ("shop", "What was revenue in June 2019, excluding the small downtown store Brooklyn?",
         {("store", "Brooklyn")}, "downtown"),
    ])
    def test_the_member_is_kept_out_and_the_words_between_stay_unread(
            self, catalogs, name, text, kept_out, unread) -> None:
        reading = read_text(text, catalogs(name))
        assert kept_out <= {(m.name, m.member) for m in reading.excluded}
        assert not kept_out & set(reading.member_keys())
        assert any(unread in u for u in reading.unread), reading.unread

    @pytest.mark.parametrize(("name", "text", "key"), [
        ("flights", "How many flights without a delay by Delta left JFK in May 2013?",
         ("airline", "Delta Air Lines Inc.")),
        ("shop", "Revenue without refunds for the Brooklyn store in June 2019", ("store", "Brooklyn")),
    ])
    def test_a_word_that_starts_another_phrase_keeps_the_member_in(self, catalogs, name, text,
                                                                   key) -> None:
        reading = read_text(text, catalogs(name))
        assert key not in {(m.name, m.member) for m in reading.excluded}


def test_between_two_clock_times_is_their_hours(request) -> None:
    """'Between 6am and 9am' is the hours 6, 7 and 8, served as one filter and equal to the raw
    count (the lead's held-out flights question, refused before on an unread 'between')."""
    served = _run(request, "flights", "How many flights left JFK between 6am and 9am in May 2013?")
    assert served.audit["decision"] == "serve", served.audit
    raw = request.getfixturevalue("flights_layer").connection.execute(
        "SELECT count(*) FROM flights WHERE origin = 'JFK' AND hour >= 6 AND hour < 9 "
        "AND flight_date BETWEEN DATE '2013-05-01' AND DATE '2013-05-31'").fetchone()[0]
    assert served.audit["value"] == raw


class TestAUnitAskedNamesItsTotal:
    """'How many miles did Hawaiian fly': a unit asked for names the one total metric of that
    unit (the catalog's `unit:`) carrying the dimensions the question filters on (the lead's
    held-out flights question, refused before on an unread 'miles')."""

    @pytest.mark.parametrize(("name", "text", "metric"), [
        ("flights", "How many miles did Hawaiian Airlines fly in 2013?", "total_distance"),
        ("shop", "How many dollars did Chai Latte bring in in June 2019?", "product_revenue"),
    ])
    def test_the_one_total_of_the_unit(self, catalogs, name, text, metric) -> None:
        reading = read_text(text, catalogs(name))
        assert reading.metric_names() == [metric] and reading.unread == []

    @pytest.mark.parametrize(("name", "text", "word"), [
        # three totals in minutes (departure delay, arrival delay, air time): which one?
        ("flights", "How many minutes did JetBlue have in June 2013?", "minutes"),
        # revenue and product revenue both count a store's dollars
        ("shop", "How many dollars did the Online store take in June 2019?", "dollars"),
        # MRR and the plus price are levels at a point in time, never summed over May
        ("demo", "How many dollars did we bring in in May 2026?", "dollars"),
    ])
    def test_none_or_several_stay_unread(self, catalogs, name, text, word) -> None:
        reading = read_text(text, catalogs(name))
        assert reading.metric_names() == [] and word in reading.unread

    def test_the_total_is_served_equal_to_the_raw_sum(self, request) -> None:
        served = _run(request, "flights", "How many miles did Hawaiian Airlines fly in 2013?")
        assert served.audit["decision"] == "serve", served.audit
        raw = request.getfixturevalue("flights_layer").connection.execute(
            "SELECT sum(distance) FROM flights WHERE carrier = 'HA'").fetchone()[0]
        assert served.audit["value"] == raw


class TestBestAndWorstByPolarity:
    """'The best week for orders', 'the worst month for cancellations': which way is good is the
    metric's governed polarity; with none the word stays unread (a new user's shop questions
    were refused on 'best' and 'worst')."""

    @staticmethod
    def _governed(catalog, metric, polarity):
        metrics = dict(catalog["metrics"])
        metrics[metric] = {**metrics[metric], "polarity": polarity}
        return {**catalog, "metrics": metrics}

    @pytest.mark.parametrize(("name", "text", "metric", "polarity", "order"), [
        ("shop", "What was the best week for orders at the Brooklyn store in Q2 2019?",
         "order_count", "higher_is_better", "most"),
        ("shop", "What was the worst month for orders in Q2 2019?", "order_count",
         "higher_is_better", "least"),
        ("flights", "What was the worst month for cancellations at JFK in 2013?",
         "cancelled_flights", "lower_is_better", "most"),
        ("flights", "What was the best month for cancellations at JFK in 2013?",
         "cancelled_flights", "lower_is_better", "least"),
    ])
    def test_the_polarity_says_which_way(self, catalogs, name, text, metric, polarity,
                                         order) -> None:
        catalog = self._governed(catalogs(name), metric, polarity)
        reading = read_text(text, catalog)
        assert reading.metric_names() == [metric] and reading.unread == [], reading.unread
        assert reading.asks.ranking is not None and reading.asks.ranking.order == order

    def test_no_polarity_leaves_the_word_unread(self, catalogs) -> None:
        catalog = catalogs("flights")
        metrics = {k: {x: y for x, y in v.items() if x != "polarity"}
                   for k, v in catalog["metrics"].items()}
        reading = read_text("What was the worst month for cancellations at JFK in 2013?",
                            {**catalog, "metrics": metrics})
        assert "worst" in reading.unread


class TestWithFacts:
    def test_the_catalog_says_what_the_facts_reach(self, flights_layer) -> None:
        """Each metric's reached airport names are exactly those the raw tables join to its
        facts: destinations of flights, origins of flights and of weather readings."""
        catalog = flights_layer.catalog()
        sql = {"destination_airport_name": "SELECT DISTINCT a.name FROM airports a WHERE a.faa IN "
                                           "(SELECT dest FROM flights)",
               "origin_airport_name": "SELECT DISTINCT a.name FROM airports a WHERE a.faa IN "
                                      "(SELECT origin FROM {table})"}
        for dim, query in sql.items():
            groups = catalog["dimensions"][dim]["with_facts"]
            for group in groups:
                table = "weather" if "average_temperature" in group["metrics"] else "flights"
                raw = {r[0] for r in flights_layer.run_sql(query.format(table=table))}
                assert set(group["values"]) == raw, (dim, group["metrics"][:2])
        assert "Boston Back Bay Station" in catalog["dimensions"]["destination_airport_name"]["values"]

    def test_a_catalog_without_joined_names_is_its_own_view(self, catalogs) -> None:
        """The shop's dimensions are closed lists: no view, the same catalog object."""
        shop = catalogs("shop")
        assert with_facts(shop, ("revenue",)) is shop

    @pytest.mark.parametrize(("text", "member", "of"), [
        ("How many flights went to Atlanta in 2013?", "Hartsfield Jackson Atlanta Intl", 2),
        ("How many flights flew to Miami in March 2013?", "Miami Intl", 3),
    ])
    def test_one_of_several_names_with_facts_is_read_and_said(self, catalogs, text, member,
                                                              of) -> None:
        """Several airports' names hold the word, one of them has flights: read as it, and
        'Read as' says which and of how many."""
        catalog = catalogs("flights")
        reading = read_text(text, catalog)
        assert reading.member_keys() == [("destination_airport_name", member)]
        assert reading.unread == []
        word = reading.members[0].words
        assert len(holding(word, catalog, "destination_airport_name")) == of
        assert f"{word!r} is {member}: of the {of} destination_airport_name values" in \
            read_as_line(reading)

    def test_the_asked_metric_decides(self, catalogs) -> None:
        """Weather is read at the three origins only: 'Atlanta' names none of them."""
        reading = read_text("What was the average temperature at Atlanta in 2013?",
                            catalogs("flights"))
        assert reading.members == () and reading.unread == ["Atlanta"]

    def test_several_with_facts_are_asked_back(self, request) -> None:
        """'Chicago': two airports with flights hold it: refused, naming both."""
        served = _run(request, "flights", "How many flights went to Chicago in 2013?")
        assert served.audit["status"] == "refused"
        reason = served.audit["refusal_reason"]
        assert "Chicago Midway Intl" in reason and "Chicago Ohare Intl" in reason

    def test_the_one_with_facts_is_answered(self, request, flights_layer) -> None:
        served = _run(request, "flights", "How many flights went to Atlanta in 2013?")
        assert served.audit["status"] == "answered", served.audit.get("refusal_reason")
        [(n,)] = flights_layer.run_sql("SELECT count(*) FROM flights WHERE dest = 'ATL'")
        assert served.audit["value"] == n


class TestPrefixDoubts:
    @pytest.mark.parametrize(("name", "text", "member", "others"), [
        ("flights", "How many flights were on Airbus planes in 2013?", "AIRBUS",
         "AIRBUS INDUSTRIE"),
        ("shop", "How many units of Chai did we sell in June 2019?", "Chai",
         "Chai Latte, chai and mighty"),
    ])
    def test_a_member_that_begins_others_is_read_in_doubt(self, catalogs, name, text, member,
                                                          others) -> None:
        reading = read_text(text, catalogs(name))
        assert [m.member for m in reading.members] == [member]
        assert [d.words.upper() for d in reading.doubts] == [member.upper()]
        assert reading.unread == [reading.doubts[0].words]
        assert f"also has {others}" in read_as_line(reading)

    @pytest.mark.parametrize(("name", "text"), [
        ("flights", "How many flights were on Airbus Industrie planes in 2013?"),
        ("shop", "How many units of Chai Latte did we sell in June 2019?"),
    ])
    def test_the_longer_member_is_no_doubt(self, catalogs, name, text) -> None:
        reading = read_text(text, catalogs(name))
        assert reading.doubts == () and reading.unread == []

    @pytest.mark.parametrize(("name", "text"), [
        ("flights", "How many flights were on Airbus planes in 2013?"),
        ("shop", "How many units of Chai did we sell in June 2019?"),
    ])
    def test_answered_never_clean(self, request, name, text) -> None:
        served = _run(request, name, text)
        assert served.audit["status"] == "answered", served.audit.get("refusal_reason")
        assert served.audit["decision"] == "serve_with_caveats"
        assert "unread_question" in [f["code"] for f in served.audit["findings"]]

    @pytest.mark.parametrize("name", ["flights", "shop"])
    def test_every_prefix_pair_of_the_catalog_is_in_doubt(self, catalogs, name) -> None:
        """Generated from the catalog: every closed member whose name, as a whole word, begins
        another member's of its dimension, asked alone, is read in doubt."""
        catalog = catalogs(name)
        pairs = [(dim, str(a)) for dim, info in catalog["dimensions"].items()
                 for a in info.get("members") or ()
                 if any(str(b).lower().startswith(str(a).lower() + " ")
                        for b in info.get("members") or ())]
        assert pairs
        for dim, member in pairs:
            metric = next(m for m, i in catalog["metrics"].items() if dim in i["dimensions"])
            reading = read_text(f"{metric} for '{member}' in 2019", catalog)
            assert any(d.detail.startswith(f"{dim} = {member};") for d in reading.doubts), member


class TestOverReading:
    @pytest.mark.parametrize(("name", "text"), [
        ("flights", "How many inches of rain fell at JFK in 2013?"),
        ("flights", "How much precipitation fell at EWR in July 2013?"),
        ("shop", "How many units of Chai Latte sold in June 2019?"),
    ])
    def test_the_metric_s_own_verb_is_no_change(self, catalogs, name, text) -> None:
        """'Rain fell': the verb after the metric (and its unit) is its predicate, not a move."""
        reading = read_text(text, catalogs(name))
        assert not reading.asks.change and reading.unread == []

    @pytest.mark.parametrize(("name", "text"), [
        ("flights", "How much did precipitation fall from June to July 2013?"),
        ("shop", "How much did revenue fall from May to June 2019?"),
    ])
    def test_a_move_asked_is_still_a_change(self, catalogs, name, text) -> None:
        assert read_text(text, catalogs(name)).asks.change

    def test_a_code_is_carried_to_the_name_the_metric_has(self, request, flights_layer) -> None:
        """Weather has only the origin airport's name: 'JFK' (an origin code) is read as the
        name the airports table gives it, said in 'Read as', and answered from the data."""
        catalog = flights_layer.catalog()
        text = "How many inches of rain fell at JFK in 2013?"
        reading = read_text(text, catalog)
        [(name,)] = flights_layer.run_sql("SELECT name FROM airports WHERE faa = 'JFK'")
        assert reading.member_keys() == [("origin_airport_name", name)]
        assert f"'JFK' is origin JFK, read as origin_airport_name = {name}" in read_as_line(reading)
        served = _run(request, "flights", text)
        [(rain,)] = flights_layer.run_sql(
            "SELECT sum(precip) FROM weather WHERE origin = 'JFK' AND CAST(observed_at AS DATE) "
            "BETWEEN DATE '2013-01-01' AND DATE '2013-12-31'")
        assert served.audit["status"] == "answered", served.audit.get("refusal_reason")
        assert served.audit["value"] == pytest.approx(rain)

    def test_only_a_name_is_carried(self, catalogs) -> None:
        """From the data: a destination's time zone holds many airports, so it names none; a
        metric that has the code keeps it."""
        catalog = catalogs("flights")
        assert set(catalog["dimensions"]["destination"]["named_by"]) == {"destination_airport_name"}
        reading = read_text("How many flights left JFK in 2013?", catalog)
        assert reading.member_keys() == [("origin", "JFK")]

    def test_no_name_to_carry_to_is_refused_naming_the_metric_s_dimensions(self, request) -> None:
        """The shop's new customers have no store: 'Brooklyn' is refused, saying which
        dimensions the metric has."""
        served = _run(request, "shop", "How many new customers did Brooklyn get in June 2019?")
        assert served.audit["status"] == "refused"
        assert "supported: region__country, region__region_name, segment" in \
            served.audit["refusal_reason"]


class TestEntityKeys:
    @pytest.mark.parametrize(("name", "text", "entity"), [
        ("shop", "What was revenue by order id on 2019-06-01?", "order"),
        ("demo", "Value moments by user id in the week of 2026-04-13", "user"),
        ("flights", "How many flights by tail number on 2013-01-01?", "plane"),
    ])
    def test_a_key_column_is_a_breakdown(self, catalogs, name, text, entity) -> None:
        """'By order id', 'by tail number': the entity whose key column the words name (the
        catalog's `entities`, from the semantic models), every word read."""
        reading = read_text(text, catalogs(name))
        assert reading.asks.breakdown == (entity,) and reading.unread == []
        column = catalogs(name)["entities"][entity]["column"]
        assert f"by {entity} (its key, {column})" in [s.detail for s in reading.spans]

    @pytest.mark.parametrize(("name", "text", "entity", "top"), [
        ("flights", "Which tail number flew the most flights out of JFK in 2013?", "plane",
         "SELECT tailnum FROM flights WHERE origin = 'JFK' AND year(flight_date) = 2013 "
         "AND tailnum IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"),
        ("shop", "Which order id had the highest revenue in June 2019?", "order",
         "SELECT order_id FROM orders WHERE NOT is_test AND status <> 'cancelled' AND "
         "CAST(ordered_at AS DATE) BETWEEN DATE '2019-06-01' AND DATE '2019-06-30' "
         "GROUP BY 1 ORDER BY sum(order_total) DESC LIMIT 1"),
    ])
    def test_a_ranking_of_keys(self, request, catalogs, name, text, entity, top) -> None:
        """'Which tail number flew the most': a ranking of the entity's keys, answered with the
        key the raw tables rank first."""
        reading = read_text(text, catalogs(name))
        assert reading.asks.ranking.dimension == entity and reading.unread == []
        served = _run(request, name, text)
        [(key,)] = request.getfixturevalue(LAYER[name]).run_sql(top)
        assert served.audit["status"] == "answered"
        assert str(served.audit["value"]) == str(key)

    @pytest.mark.parametrize(("name", "text", "unread"), [
        # flights' 'flight' column is a flight number, no entity's key
        ("flights", "How many flights by flight number on 2013-01-01?", ["by flight number"]),
        # the customer's key is an id: no number names it
        ("shop", "Show revenue by customer number for June 2019", ["by customer number"]),
        # 'product' is also the product's name dimension: the layer would read its names
        ("shop", "Items sold by product ID in June 2019", ["ID"]),
        # the weather readings hold no plane
        ("flights", "What was the average temperature by tail number in 2013?",
         ["by tail number"]),
    ])
    def test_words_that_name_no_key_stay_unread(self, catalogs, name, text, unread) -> None:
        assert read_text(text, catalogs(name)).unread == unread

    @pytest.mark.parametrize(("name", "text", "sql"), [
        ("shop", "What was revenue by order id on 2019-06-01?",
         "SELECT count(DISTINCT order_id) FROM orders WHERE NOT is_test AND status <> 'cancelled' "
         "AND CAST(ordered_at AS DATE) = DATE '2019-06-01'"),
        ("flights", "How many flights by tail number on 2013-01-01?",
         "SELECT count(DISTINCT tailnum) FROM flights WHERE flight_date = DATE '2013-01-01'"),
    ])
    def test_answered_by_the_entity(self, request, name, text, sql) -> None:
        """The analyst groups by the entity: one row per key the raw tables hold that day."""
        layer = request.getfixturevalue(LAYER[name])
        trace = run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims"))
        assert trace.served().audit["status"] == "answered"
        [call] = trace.calls
        [entity] = read_text(text, layer.catalog()).asks.breakdown
        assert call.arguments["group_by"] == [entity]
        [(n,)] = layer.run_sql(sql)
        assert len(call.result["rows"]) == n


class TestSameThing:
    def test_a_code_and_its_name_on_one_span_are_one_member(self, catalogs) -> None:
        """'La Guardia' is origin LGA's synonym and the origin airport name the airports table
        gives LGA (`named_by`): one airport, read as the code, not asked back."""
        catalog = catalogs("flights")
        assert catalog["dimensions"]["origin"]["named_by"]["origin_airport_name"]["LGA"] == \
            "La Guardia"
        reading = read_text("Flights from La Guardia to Chicago O'Hare in October 2013?", catalog)
        assert ("origin", "LGA") in reading.member_keys()
        assert not any(d == "origin_airport_name" for d, _m in reading.member_keys())

    def test_no_code_no_merge(self, catalogs) -> None:
        """The shop's dimensions are keyed by no code another table names: no `named_by`, so
        nothing is carried or merged there."""
        catalog = catalogs("shop")
        assert not any(info.get("named_by") for info in catalog["dimensions"].values())


class TestHourRanking:
    def test_which_hour_ranks_the_hour_dimension(self, request, catalogs, flights_layer) -> None:
        """No metric has an hour grain: 'which hour' ranks the one hour dimension's members,
        and the analyst answers with the hour the raw table ranks first."""
        text = "Which hour had the most cancelled flights in July 2013?"
        reading = read_text(text, catalogs("flights"))
        assert reading.asks.ranking.dimension == "departure_hour" and reading.unread == []
        served = _run(request, "flights", text)
        [(hour,)] = flights_layer.run_sql(
            "SELECT hour FROM flights WHERE dep_time IS NULL AND flight_date BETWEEN "
            "DATE '2013-07-01' AND DATE '2013-07-31' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
        assert served.audit["status"] == "answered" and str(served.audit["value"]) == str(hour)

    def test_without_an_hour_dimension_the_grain_stands(self, catalogs) -> None:
        """The shop has no hour dimension: the ranking stays by the hour grain, which the layer
        refuses, naming the grains it has."""
        ranking = read_text("Which hour had the most orders in June 2019?",
                            catalogs("shop")).asks.ranking
        assert (ranking.grain, ranking.dimension) == ("hour", None)
