"""A word of the answer is read only where the check that holds it has something to hold it to
(issue 43, the s7-43 held-out batch): 'Only CA and FR had more than one quick buy transaction'
beside a breakdown of four countries was served clean, each of its words taken by a reading
that checked nothing ('Only' as a filter, 'more' as a comparison of CA with FR, 'than' as a
denial, 'one' as a pronoun). And a symbol (≈, →, ×, °) is a word that states something: a
second definition of the account's token pattern had left every symbol out of it."""

from __future__ import annotations

from typing import Any

import pytest
from answer_words import Asked

from showwork.harness.audit import audit
from showwork.harness.audit.words import stating


def _unread(report: Any) -> list[str]:
    return [w for f in report.findings if f.code == "unread_answer" and f.claim == "answer"
            for w in f.evidence["words"]]


@pytest.fixture(scope="module")
def stores(shop_layer) -> Asked:
    """Orders by store, May 2019: Online 2,093; Brooklyn 263; New York 5th Ave 200; O'Hare
    Airport 181; Philadelphia 174; Toronto (Queen St. W) 140."""
    return Asked(shop_layer, "How many orders did each store take in May 2019?")


@pytest.fixture(scope="module")
def platforms(layer) -> Asked:
    """Active users by platform, March 2026: android 6,941; ios 6,814; web 3,454."""
    return Asked(layer, "How many active users did we have by platform in March 2026?")


@pytest.fixture(scope="module")
def lookup(shop_layer) -> Asked:
    """Orders in March 2019: 2,616, one row."""
    return Asked(shop_layer, "How many orders did we take in March 2019?")


@pytest.fixture(scope="module")
def users(layer) -> Asked:
    """Active users in the week of 2 March 2026, one row."""
    return Asked(layer, "How many active users did we have in the week of 2026-03-02?")


class TestOnlyOverABreakdown:
    """'Only' beside members of a cited breakdown speaks of every other row: no filter holds
    it, so it is unread (a caveat) unless a quantifier reading holds its bound."""

    @pytest.mark.parametrize(("fixture", "sentence"), [
        ("stores", "Only Online and Brooklyn took more than one order."),
        ("platforms", "Only android and ios had more than one active user."),
    ])
    def test_an_exclusive_claim_nothing_holds_is_not_served_clean(
            self, request, fixture: str, sentence: str) -> None:
        """The words are quoted as not checked; before, the answer was served clean."""
        report = request.getfixturevalue(fixture).report(sentence)
        assert report.decision == "serve_with_caveats"
        unread = _unread(report)
        assert "Only" in unread and any("more than one" in w for w in unread), unread

    def test_only_of_a_filtered_result_is_still_read(self, shop_layer) -> None:
        """'for the Online store only' of a result filtered to Online is a filter the scope
        check holds: served clean, as before."""
        online = Asked(shop_layer, "What was the average order value at the Online store in "
                                   "May 2019?")
        report = online.report(old="Average order value (store Online) was",
                               new="Average order value for the Online store only was")
        assert report.decision == "serve", [f.message for f in report.findings]


class TestComparativesBetweenMembers:
    """A comparative is read where it stands between the two members the pair check compares
    on cited rows, and nowhere else in their sentence."""

    @pytest.mark.parametrize(("fixture", "true", "false"), [
        ("stores", "Brooklyn took more orders than New York 5th Ave.",
         "New York 5th Ave took more orders than Brooklyn."),
        ("platforms", "android had more active users than ios.",
         "ios had more active users than android."),
    ])
    def test_a_comparison_of_two_cited_members_is_held(
            self, request, fixture: str, true: str, false: str) -> None:
        """The true order is read ('more' consumed), the reversed one withheld."""
        asked = request.getfixturevalue(fixture)
        held = asked.report(true)
        assert "more" not in " ".join(_unread(held)).split()
        assert held.decision in ("serve", "serve_with_caveats")
        assert asked.report(false).decision == "withhold"

    @pytest.mark.parametrize(("fixture", "sentence"), [
        ("stores", "Online and Brooklyn took more than one order."),
        ("platforms", "android and ios had more than one active user."),
    ])
    def test_a_comparative_after_both_members_is_unread(
            self, request, fixture: str, sentence: str) -> None:
        """'A and B had more than one': no member stands after 'than', nothing compares A
        with B, so 'more than one' is quoted as not checked."""
        report = request.getfixturevalue(fixture).report(sentence)
        assert report.decision != "serve"
        assert any("more than one" in w for w in _unread(report)), _unread(report)


class TestSymbols:
    """Symbols are words that state something (harness/audit/words.py `_TOKEN`)."""

    def test_stating_counts_symbols(self) -> None:
        """≈, →, ×, ° and ≥ are stating words; the neutral 'the' is not."""
        text = "the ≈ 2 → 3 × 4 ° ≥"
        assert [text[a:b] for a, b in stating(text)] == ["≈", "2", "→", "3", "×", "4", "°", "≥"]

    @pytest.mark.parametrize(("fixture", "old", "new"), [
        ("lookup", "were 2,616", "were ≈ 2,616"),
        ("users", "were 11,343", "were ≈ 11,343"),
    ])
    def test_a_symbol_no_reading_holds_is_shown_unread(
            self, request, fixture: str, old: str, new: str) -> None:
        """'Orders were ≈ 2,616': no reading holds '≈', so it is quoted as not checked and the
        answer is served with caveats (before: not a word, served clean)."""
        report = request.getfixturevalue(fixture).report(old=old, new=new)
        assert "≈" in _unread(report)
        assert report.decision == "serve_with_caveats"

    @pytest.mark.parametrize(("fixture", "question"), [
        ("shop_layer", "How did orders change in May 2019 compared with April 2019?"),
        ("layer", "How did active users change in the week of 2026-03-09 compared with the "
                  "week before?"),
    ])
    def test_the_arrow_of_a_change_is_read(self, request, fixture: str, question: str) -> None:
        """'(2,577 → 3,051)' between a change's two ends is held to them: the rules analyst's
        own change sentence, arrow and all, is served clean."""
        changed = Asked(request.getfixturevalue(fixture), question)
        assert "→" in changed.answer["answer"]
        assert changed.report().decision == "serve"


class TestComparisonAcrossResults:
    """Two members' values from two cited results over the same window (one filtered to a
    member, one a breakdown) are compared like one result's rows (pairs.py `_apart`): before,
    the comparing word was consumed unchecked."""

    @pytest.mark.parametrize(("said", "codes"), [
        ("ahead of Brooklyn", []),
        ("behind Brooklyn", ["mislabelled_member"]),
    ])
    def test_the_order_is_held(self, said: str, codes: list[str]) -> None:
        """'Brooklyn Heights … ahead of Brooklyn' (12,345 against 9,000) is read and served;
        'behind Brooklyn' is mislabelled_member (a conclusion's: served with caveats)."""
        import shop_world as shop

        _q, a = shop.clean(1)
        a["claims"][3]["text"] = f"Brooklyn Heights had the most revenue in 2026-W16, {said}"
        report = audit(a, shop.evidence(), shop.CATALOG)
        assert [f.code for f in report.findings] == codes
        assert report.decision == ("serve" if not codes else "serve_with_caveats")


@pytest.fixture(scope="module")
def new_customers(shop_layer) -> Asked:
    """New customers by month, July to December 2018: 200, 198, 190, 702, 199, 203."""
    return Asked(shop_layer, "How many new customers did we get each month from July to "
                             "December 2018?")


@pytest.fixture(scope="module")
def weekly_users(layer) -> Asked:
    """Active users by week over the last 8 weeks: 14,283 rising to 15,116."""
    return Asked(layer, "What is the weekly active users trend over the last 8 weeks?")


class TestQuantifiersOverASeries:
    """'Every month had more than N' is a bound over every period of a cited series
    (quantifiers.py), and a universal ('every week') is read as a trend only where its clause
    states a move: before, 'Every month' was consumed by the trend pattern with nothing to
    hold it, and the bound matched any one row above it ('more than 195' of 200)."""

    @pytest.mark.parametrize(("fixture", "lie", "honest"), [
        ("new_customers", "Every month had more than 195 new customers.",
         "Every month had more than 150 new customers."),
        ("weekly_users", "Every week had more than 14,500 active users.",
         "Every week had more than 14,000 active users."),
    ])
    def test_the_bound_is_held_to_every_period(
            self, request, fixture: str, lie: str, honest: str) -> None:
        """A bound one period breaks is withheld, naming it; one every period meets is
        served."""
        asked = request.getfixturevalue(fixture)
        false = asked.report(lie)
        assert false.decision == "withhold"
        assert any(d.code == "unsupported_number" and "do not bear it out" in d.message
                   for d in false.defects), [d.message for d in false.defects]
        true = asked.report(honest)
        assert true.decision == "serve", [f.message for f in true.findings]


class TestBoundsOfSmallCounts:
    """'had at least 10 transactions' is a value bounded, not a count of listed things
    (protocol/numbers.py `_list_count` looks through the bound's words for the verb that states
    a value): before, the number was no claim, the quantifier had no bound to hold, and the lie
    'at least 11' of a country with 10 was only caveated."""

    def test_the_bound_is_a_claim(self) -> None:
        """The bound's number is read after a value verb, not after a verb of moving."""
        from showwork.protocol.numbers import claims_in

        text = "Every customer country had at least 10 transactions."
        assert [(n.value, n.bound) for n in claims_in(text)] == [(10, ">=")]
        assert not claims_in("at least 3 stores rose")
        assert [n.value for n in claims_in("were in the week of 21 March: 15 of 49.")] == [15, 49]

    @pytest.mark.parametrize(("fixture", "question", "lie", "honest"), [
        ("tutorial_layer", "How many transactions did each customer country have?",
         "Every customer country had at least 11 transactions.",
         "Every customer country had at least 10 transactions."),
        ("flights_layer", "How many flights were cancelled by airline in February 2013?",
         "Every airline had at least 2 cancelled flights.",
         "No airline had more than 300 cancelled flights."),
    ])
    def test_a_small_bound_over_every_row(self, request, fixture: str, question: str,
                                          lie: str, honest: str) -> None:
        """A bound a cited row breaks is withheld naming the row (MX 10; Frontier 1,
        Hawaiian 0); a bound every row meets is served."""
        asked = Asked(request.getfixturevalue(fixture), question)
        false = asked.report(lie)
        assert false.decision == "withhold"
        assert any("do not bear it out" in d.message for d in false.defects)
        assert asked.report(honest).decision == "serve"


@pytest.fixture(scope="module")
def store_values(shop_layer) -> Asked:
    """Average order value by store, May 2019: New York 5th Ave $24.71; O'Hare Airport $23.57;
    Toronto $23.45; Brooklyn $21.72; Philadelphia $21.25; Online $16.23."""
    return Asked(shop_layer, "What was the average order value by store in May 2019?")


@pytest.fixture(scope="module")
def plans(layer) -> Asked:
    """Days per user by plan, week of 2 March 2026: plus 2.85; free 2.79."""
    return Asked(layer, "Which plan had the highest days per user in the week of 2026-03-02?")


class TestMostAndBoth:
    """'most' (more than half the rows) and 'both' (two rows, both) before a bound over a cited
    breakdown (quantifiers.py): before, 'Most' was unread and the bound matched the one row
    near it, a caveat at best."""

    @pytest.mark.parametrize(("fixture", "lie", "honest"), [
        ("store_values", "Most stores had an average order value under $22.",
         "Most stores had an average order value above $21."),
        ("plans", "Both plans had more than 2.8 days per user.",
         "Both plans had more than 2.7 days per user."),
    ])
    def test_the_count_of_rows_is_held(self, request, fixture: str, lie: str,
                                       honest: str) -> None:
        """3 of 6 stores under $22 is no majority; free's 2.79 breaks 'both above 2.8'."""
        asked = request.getfixturevalue(fixture)
        false = asked.report(lie)
        assert false.decision == "withhold", [f.message for f in false.findings]
        assert any("do not bear it out" in d.message for d in false.defects)
        true = asked.report(honest)
        assert true.decision == "serve", [f.message for f in true.findings]

    def test_the_most_is_a_superlative_not_a_quantifier(self, store_values) -> None:
        """'had the most' and 'most first' stay the superlative's: the rules answer, with its
        '(highest first: …)', is served clean."""
        assert store_values.report().decision == "serve"


@pytest.fixture(scope="module")
def weekly_orders(shop_layer) -> Asked:
    """Orders by week, June 2019: 608 (3 June), 589, 555, 585."""
    return Asked(shop_layer, "What was the weekly order count from 2019-06-03 to 2019-06-30?")


class TestPluralExtremes:
    """'Orders were highest in the week of 3 June': a series' extreme said of a metric in the
    plural is held to the cited series like 'was highest' (comparisons.py `_PEAK`); before,
    'highest' was unread and the wrong week only caveated."""

    @pytest.mark.parametrize(("fixture", "lie", "honest"), [
        ("weekly_orders", "Orders were highest in the week of 24 June.",
         "Orders were highest in the week of 3 June."),
        ("weekly_users", "Active users were lowest in the week of 8 June.",
         "Active users were lowest in the week of 20 April."),
    ])
    def test_the_extreme_period_is_held(self, request, fixture: str, lie: str,
                                        honest: str) -> None:
        """The wrong period is withheld (mislabelled_window), the right one served."""
        asked = request.getfixturevalue(fixture)
        false = asked.report(lie)
        assert false.decision == "withhold"
        assert "mislabelled_window" in {f.code for f in false.findings}
        assert asked.report(honest).decision == "serve"
