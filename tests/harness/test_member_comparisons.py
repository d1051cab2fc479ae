"""Comparisons and ranks between named members are held to the cited values (harness/audit/
pairs.py): on real rules answers of the shop (a breakdown by store), the flights (a ranking of
airlines) and the demo (a comparison by platform), a true comparative, level or rank is served
and a wrong one withheld as `mislabelled_member`; a member the cited results never hold makes
it `unbacked_comparison`."""

from __future__ import annotations

from pathlib import Path

import pytest
from answer_words import Asked

ROOT = Path(__file__).resolve().parents[2]



@pytest.fixture(scope="module")
def stores(shop_layer) -> Asked:
    """Revenue by store, June 2019: Online 30,533.50 > New York 5th Ave 6,772.50 > Brooklyn
    6,614.00 > O'Hare Airport 6,109.00 > Philadelphia 4,711.50 > Toronto 3,990.50."""
    return Asked(shop_layer, "What was revenue by store in June 2019?")


@pytest.fixture(scope="module")
def airlines(flights_layer) -> Asked:
    """The three highest average departure delays of July 2013: AirTran 41.2, Virgin America
    35.3, Frontier 31.8 min."""
    return Asked(flights_layer,
                 "Which three airlines had the highest average departure delay in July 2013?")


@pytest.fixture(scope="module")
def platforms(layer) -> Asked:
    """Active users by platform, week of 2026-03-09 against the week before: ios +11.4 %
    (+511), android +10.5 % (+481), web +10.5 % (+238)."""
    return Asked(layer, "How did active users change by platform in the week of 2026-03-09 "
                        "compared with the week before?")


def test_the_clean_answers_are_served(stores, airlines, platforms) -> None:
    for asked in (stores, airlines, platforms):
        report = asked.report()
        assert (report.decision, report.findings) == ("serve", [])


WITHHELD = ("withhold", ["mislabelled_member"])
SERVED = ("serve", [])


@pytest.mark.parametrize(("sentence", "expected"), [
    ("New York 5th Ave took more revenue than Brooklyn.", SERVED),
    ("Brooklyn took more revenue than New York 5th Ave.", WITHHELD),
    ("Toronto (Queen St. W) trailed Philadelphia.", SERVED),
    ("Philadelphia trailed Toronto (Queen St. W).", WITHHELD),
    ("Philadelphia's revenue was lower than O'Hare Airport's.", SERVED),
    ("O'Hare Airport had less revenue than Philadelphia.", WITHHELD),
    ("Brooklyn and New York 5th Ave were roughly level.", SERVED),  # 2.3 % apart, hedged
    ("Brooklyn and O'Hare Airport were level.", WITHHELD),  # 7.9 % apart
    ("Brooklyn was level with Philadelphia.", WITHHELD),
    ("Brooklyn ranked third.", SERVED),
    ("Brooklyn ranked second.", WITHHELD),
    ("The third-largest store was Brooklyn.", SERVED),
    ("The third-largest store was Philadelphia.", WITHHELD),
    ("Philadelphia came in fifth.", SERVED),
    ("Philadelphia came in fourth.", WITHHELD),
    ("New York 5th Ave, in second place, took more than Brooklyn.", SERVED),
    ("New York 5th Ave, in second place, took less than Brooklyn.", WITHHELD),
    ("Online did not take less than Brooklyn.", SERVED),  # negated: not read as a comparison
], ids=lambda x: x if isinstance(x, str) else "")
def test_shop_store_comparisons(stores, sentence: str, expected: tuple[str, list[str]]) -> None:
    assert stores.codes(sentence) == expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("AirTran's delay was higher than Virgin America's.", SERVED),
    ("Virgin America's delay was higher than AirTran's.", WITHHELD),
    ("Frontier Airlines Inc. had a lower average departure delay than Virgin America.", SERVED),
    ("Frontier Airlines Inc. had a higher average departure delay than Virgin America.",
     WITHHELD),
    ("Frontier Airlines Inc. came third.", SERVED),
    ("Frontier Airlines Inc. came second.", WITHHELD),
    ("Virgin America ranked first.", WITHHELD),
], ids=lambda x: x if isinstance(x, str) else "")
def test_flights_airline_comparisons(airlines, sentence: str,
                                     expected: tuple[str, list[str]]) -> None:
    assert airlines.codes(sentence) == expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("ios rose more than android.", SERVED),  # +11.4 % against +10.5 %, +511 against +481
    ("Android rose more than ios.", WITHHELD),
    ("ios grew faster than web.", SERVED),
    ("web grew faster than ios.", WITHHELD),
], ids=lambda x: x if isinstance(x, str) else "")
def test_demo_platform_changes(platforms, sentence: str, expected: tuple[str, list[str]]) -> None:
    """Of two moves the same way, 'more' and 'faster' are the larger move: on every change field
    both rows hold."""
    assert platforms.codes(sentence) == expected


def test_a_fall_compared_by_its_size(layer) -> None:
    """'fell more than' is the larger fall (the more negative change), not the larger value:
    days per user, week of 2026-03-09, android -16.6 % (-0.47), web -15.0 % (-0.41)."""
    asked = Asked(layer, "How did days per user change by platform in the week of 2026-03-09 "
                         "compared with the week before?")
    assert asked.codes("android fell more than web.") == SERVED
    assert asked.codes("web fell more than android.") == WITHHELD
    assert asked.codes("web fell less than android.") == SERVED


def test_a_comparison_with_no_compared_rows_is_unbacked(shop_layer) -> None:
    """One store's sales cited: a rank, or a comparison with a store no cited result holds, is
    not backed by compared evidence (and the other store is a member no cited row has)."""
    asked = Asked(shop_layer, "What were sales at O'Hare Airport in Q2 2019?")
    assert asked.codes() == SERVED
    decision, codes = asked.codes("O'Hare Airport ranked second.")
    assert (decision, codes) == ("serve_with_caveats", ["unbacked_comparison"])
    decision, codes = asked.codes("O'Hare Airport took more than Brooklyn.")
    assert decision == "withhold" and "unbacked_comparison" in codes
