"""Readings a fresh set of new-user questions found wrong (issue 42, session 10:
examples/*/questions_s10.yaml, written from the catalog and the data before reading the reader).
Each on two domains."""

from __future__ import annotations

from shipping import with_depots

from showwork.protocol.reading import read_text


class TestHowMuchIsAnAmount:
    """'How much did the O'Hare store sell': 'how much' asks an amount, so the verb never names
    a metric that counts (units sold): it stays unread, and the answer is never served clean."""

    def test_the_shop_never_answers_units_for_how_much(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("How much did the O'Hare store sell in May 2019?", catalog)
        assert "items_sold" not in reading.metric_names()
        assert any("sell" in w for w in reading.unread)
        counted = read_text("How many did the O'Hare store sell in May 2019?", catalog)
        assert counted.metric_names() == ["items_sold"] and counted.unread == []

    def test_flights_never_answers_a_count_for_how_much(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        reading = read_text("How much did Delta operate in 2013?", catalog)
        assert reading.metric_names() == []  # no metric: refused, never a count of departures
        counted = read_text("How many did Delta operate in 2013?", catalog)
        assert counted.metric_names() == ["departed_flights"] and counted.unread == []


class TestMisspelled:
    """'Revnue from Scotland', 'cancellatons per month', 'in Febuary': a word one slip from
    exactly one word of the catalog or the calendar is read as it, and stays in doubt (never
    served clean); generated over every month and every metric's label on two domains."""

    @staticmethod
    def _slip(word: str) -> str:
        """The word with its third and fourth letters swapped ('Febraury')."""
        return word[:2] + word[3] + word[2] + word[4:]

    def test_every_month_misspelled_reads_as_the_month(self, shop_layer, flights_layer) -> None:
        for layer, metric, year in ((shop_layer, "revenue", 2019), (flights_layer, "flights", 2013)):
            catalog = layer.catalog()
            for month in ("January", "February", "March", "April", "August", "September",
                          "October", "November", "December"):
                right = read_text(f"{metric} in {month} {year}", catalog)
                slipped = read_text(f"{metric} in {self._slip(month)} {year}", catalog)
                assert [p.period for p in slipped.periods] == [p.period for p in right.periods]
                assert [d.words for d in slipped.doubts] == [self._slip(month)]
                assert slipped.unread == [self._slip(month)]  # never served clean

    def test_every_metric_label_misspelled_reads_as_the_metric(self, shop_layer,
                                                               flights_layer) -> None:
        for layer in (shop_layer, flights_layer):
            catalog = layer.catalog()
            for name, info in catalog["metrics"].items():
                label = str(info.get("label") or "")
                right = read_text(f"{label} in 2013 and 2019", catalog)
                if right.metric_names() != [name] or right.unread:
                    continue
                words = label.split()
                long = max(range(len(words)), key=lambda i: len(words[i]) * words[i].isalpha())
                if len(words[long]) < 6:
                    continue
                slipped_label = " ".join(self._slip(w) if i == long else w
                                         for i, w in enumerate(words))
                slipped = read_text(f"{slipped_label} in 2013 and 2019", catalog)
                assert slipped.metric_names() == [name], (label, slipped_label)
                assert [d.words for d in slipped.doubts] == [self._slip(words[long])]

    def test_two_candidates_or_none_stay_unread(self, shop_layer, tutorial_layer) -> None:
        """'Chai' and 'Chat' are one slip from many; 'Bostn' from nothing the catalog says."""
        reading = read_text("revenue in Mosxow in 2019", shop_layer.catalog())
        assert reading.doubts == () and "Mosxow" in reading.unread
        reading = read_text("trasnactions in Atlantis in March 2022", tutorial_layer.catalog())
        assert reading.metric_names() == ["transactions"]
        assert "Atlantis" in reading.unread and "trasnactions" in reading.unread


class TestPluralOfShortNames:
    """'How many mugs', 'tote bags', 'quick buys': the plural of a member, or of a member's
    synonym, whose last word has three letters reads as the member (it had been unread)."""

    def test_the_shop_reads_mugs_and_tote_bags(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        for said, member in (("mugs", "Mug, 12 oz"), ("tote bags", "Tote bag & co.")):
            reading = read_text(f"How many {said} did we sell in 2019?", catalog)
            assert reading.member_keys() == [("product", member)], said
            assert reading.unread == []

    def test_the_tutorial_reads_quick_buys(self, tutorial_layer) -> None:
        reading = read_text("Transactions that were quick buys in March 2022",
                            tutorial_layer.catalog())
        assert ("transaction__quick_buy_transaction", "Quick Buy") in reading.member_keys()


class TestPlacesInLowerCase:
    """'flights to honolulu', 'shipments to salt lake city': a place written in lower case that
    is part of exactly one value of a name column reads as that value, as it does capitalised
    (it had been unread); a lower-case word that names nothing stays unread."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        for said, name in (("honolulu", "Honolulu Intl"), ("san francisco", "San Francisco Intl")):
            reading = read_text(f"average air time for flights to {said} in 2013", catalog)
            assert ("destination_airport_name", name) in reading.member_keys(), said
            assert reading.unread == []
        assert "blorp" in read_text("flights to blorp in 2013", catalog).unread
        # a code in lower case is a word ('how lax'), the place only after a route word
        assert "lax" in read_text("how lax were flights in 2013", catalog).unread

    def test_shipping(self) -> None:
        depots = with_depots(["Dallas Hub", "Reno Tahoe Depot", "Salt Lake City Yard"])
        for said, name in (("tahoe", "Reno Tahoe Depot"), ("salt lake city", "Salt Lake City Yard")):
            reading = read_text(f"How many shipments went to {said} in May 2024?", depots)
            assert reading.member_keys() == [("destination_depot", name)], said
            assert reading.unread == []


class TestSignedUp:
    """'How many new customers signed up', 'which month did we sign up the most new users':
    'up' is part of the verb, read where the verb is the metric's own or the two words are one
    of its names ('signups'); never in a question of change."""

    def test_the_shop_and_the_demo(self, shop_layer, layer) -> None:
        for catalog, metric in ((shop_layer.catalog(), "new_customers"),
                                (layer.catalog(), "new_users")):
            said = metric.replace("_", " ")
            reading = read_text(f"In which month did we sign up the most {said}?", catalog)
            assert reading.metric_names() == [metric] and reading.unread == [], metric
            assert reading.asks.ranking is not None and reading.asks.ranking.grain == "month"
        change = read_text("Did revenue go up from April to May 2019?", shop_layer.catalog())
        assert change.asks.change  # 'up' of a change is the change's
        assert not any(s.detail.startswith("part of the verb") for s in change.spans)

    def test_the_tutorial_reads_its_own_verb(self, tutorial_layer) -> None:
        reading = read_text("How many new customers signed up on March 7, 2022?",
                            tutorial_layer.catalog())
        assert reading.metric_names() == ["new_customers"] and reading.unread == []


class TestWeekOfAMonth:
    """'The first week of March 2013' is 1 to 7 March (the question files' gold), 'the second
    week' 8 to 14, 'the last week of June' its last seven days; it had been unread."""

    CASES = (("the first week of March 2013", "2013-03-01", "2013-03-07"),
             ("the second week of May 2013", "2013-05-08", "2013-05-14"),
             ("the last week of June 2013", "2013-06-24", "2013-06-30"))

    def test_flights(self, flights_layer) -> None:
        for said, start, end in self.CASES:
            reading = read_text(f"How many flights left JFK in {said}?", flights_layer.catalog())
            assert [(str(p.period.start), str(p.period.end)) for p in reading.periods] == [
                (start, end)], said
            assert reading.unread == []

    def test_tutorial(self, tutorial_layer) -> None:
        reading = read_text("How many transactions were there in the first week of April 2022?",
                            tutorial_layer.catalog())
        assert [(str(p.period.start), str(p.period.end)) for p in reading.periods] == [
            ("2022-04-01", "2022-04-07")]
        assert reading.unread == []


class TestAFlagSaidAsAWord:
    """'Large transactions' for `is_large`, 'refunded orders' for `is_refunded`: a true-or-false
    dimension named 'is X' reads its word X as the rows it holds true of (it had been unread)."""

    def test_tutorial(self, tutorial_layer) -> None:
        catalog = tutorial_layer.catalog()
        for text in ("How many large transactions were there in March 2022?",
                     "How many transactions were large in March 2022?"):
            reading = read_text(text, catalog)
            assert reading.member_keys() == [("transaction__is_large", "true")], text
            assert reading.unread == []

    def test_orders(self) -> None:
        catalog = {"metrics": {"orders": {"label": "orders", "synonyms": [], "unit": "count",
                                          "type": "simple", "grains": ["day", "month"],
                                          "dimensions": ["order__is_refunded", "store"]}},
                   "dimensions": {"order__is_refunded": {"label": "is refunded",
                                                         "members": ["false", "true"]},
                                  "store": {"label": "store", "members": ["Big", "Small"]}},
                   "tree": {"exact": [], "influence": []}}
        reading = read_text("How many refunded orders did we have in May 2024?", catalog)
        assert reading.member_keys() == [("order__is_refunded", "true")]
        assert reading.unread == []


class TestAllAfterAComma:
    """'Revenue overall, all stores, in 2018': 'all <dimension>' set off by a comma is the whole,
    no filter, as 'across all stores' is (it had been unread)."""

    def test_shop_and_flights(self, shop_layer, flights_layer) -> None:
        for layer, text, dimension in (
                (shop_layer, "Revenue overall, all stores, in 2018", "store"),
                (flights_layer, "Cancellations in 2013, all airlines", "airline")):
            reading = read_text(text, layer.catalog())
            assert reading.unread == [] and reading.member_keys() == [], text
            assert not reading.asks.breakdown
            assert f"every {dimension}: no filter" in {s.detail for s in reading.spans}


class TestAPlaceSaidAsAnAdjective:
    """'Canadian customers', 'German signups': a capitalised word with an adjective's ending
    whose stem begins exactly one member's name or synonym ('canada', 'germany') reads as that
    member, in doubt (never clean); a stem that begins none stays unread."""

    def test_shop_and_demo(self, shop_layer, layer) -> None:
        for catalog, text, key in (
                (shop_layer.catalog(), "Revenue from Canadian customers in 2019", ("country", "CA")),
                (shop_layer.catalog(), "British revenue in 2019", ("country", "GB")),
                (layer.catalog(), "How many German signups in May 2026?", ("country", "DE")),
                (layer.catalog(), "Brazilian active users in May 2026", ("country", "BR"))):
            reading = read_text(text, catalog)
            assert reading.member_keys() == [key], text
            assert len(reading.doubts) == 1 and reading.unread == [reading.doubts[0].words]
        assert "Scottish" in read_text("Revenue from Scottish customers in 2019",
                                       shop_layer.catalog()).unread


class TestTheMonthOf:
    """'In the month of May': the month, its words read (they had been unread)."""

    def test_flights_and_shop(self, flights_layer, shop_layer) -> None:
        for layer, text, start in (
                (flights_layer, "How many flights took off from LGA in the month of May?",
                 "2013-05-01"),
                (shop_layer, "revenue in the month of june 2019", "2019-06-01")):
            reading = read_text(text, layer.catalog())
            assert [str(p.period.start) for p in reading.periods] == [start], text
            assert reading.unread == []


class TestTheVerbOfARanking:
    """'Which store sold the most jaffles', 'which country altered the most': the verb of a
    ranking names the one summed metric whose own words hold it, as 'how many did we sell'
    does (it had been unread)."""

    def test_shop_and_tutorial(self, shop_layer, tutorial_layer) -> None:
        for layer, text, metric in (
                (shop_layer, "Which store sold the most jaffles in 2019?", "items_sold"),
                (tutorial_layer, "Which country altered the most in March 2022?", "alterations")):
            reading = read_text(text, layer.catalog())
            assert reading.metric_names() == [metric], text
            assert reading.asks.ranking is not None and reading.unread == []


class TestAPeriodOfTheYear:
    """'The second half of the year', 'March of the year': a period named without its year,
    where every named metric's data lies in one year, is that year's, the words read with it
    (they had been unread); data across years leaves them unread."""

    def test_flights_and_tutorial(self, flights_layer, tutorial_layer, shop_layer) -> None:
        for layer, text, window in (
                (flights_layer, "total cancellations in the second half of the year",
                 ("2013-07-01", "2013-12-31")),
                (tutorial_layer, "How many transactions were there in March of the year?",
                 ("2022-03-01", "2022-03-31"))):
            reading = read_text(text, layer.catalog())
            assert [(str(p.period.start), str(p.period.end)) for p in reading.periods] == [
                window], text
            assert reading.unread == []
        assert "year" in read_text("revenue in the second half of the year",
                                   shop_layer.catalog()).unread  # 2018 and 2019


class TestAnnual:
    """'What fraction of Delta's annual flights happened in July': 'annual' ('yearly',
    'quarterly') is the year (quarter) holding the other period named, as 'the year's' is."""

    def test_flights_and_shop(self, flights_layer, shop_layer) -> None:
        for layer, text, windows in (
                (flights_layer, "What fraction of Delta's annual flights happened in July?",
                 [("2013-01-01", "2013-12-31"), ("2013-07-01", "2013-07-31")]),
                (shop_layer, "What fraction of our quarterly revenue came in May 2019?",
                 [("2019-04-01", "2019-06-30"), ("2019-05-01", "2019-05-31")])):
            reading = read_text(text, layer.catalog())
            assert sorted((str(p.period.start), str(p.period.end))
                          for p in reading.periods) == windows, text
            assert reading.asks.share is not None and reading.unread == []
        said = read_text("What fraction of the year's cancellations happened in February?",
                         flights_layer.catalog())
        assert [p.words for p in said.periods] == ["the year's", "February"]
