"""The rules analyst on a fresh batch of new-user questions (issue 42, session 14:
examples/flights/questions_s14.yaml, 70 questions, and examples/shop/questions_s14.yaml, 45,
written from the catalog and the raw data before reading the reader, the analyst, the audit or any
earlier question file): the figures first measured on them under claims+repair are held as
floors, and no wrong answer is served clean beyond the one the first run had."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_runs import rules_attempts, wrong_served_clean

from showwork.harness.experiments.scores import Attempt, score
from showwork.semantic_layer import SemanticLayer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

HELD = {
    # domain: how many questions, the balanced accuracy of the first run (main 6415aa7), the ids
    # answered wrong and served clean then
    # flights: 43 of 59 answerable right, 14 refused, 1 wrong served clean and 1 wrong served with
    # caveats (s14f-043); 11 of 11 refused. The one served clean, s14f-037 'flights departing
    # between 5pm and 8pm from JFK in June', was answered with departed flights (2,076); the gold
    # counts every flight scheduled in those hours, cancelled ones included (2,189): the gold's
    # reading of 'departing' is arguable, the reader's defensible.
    # Raised to 0.949 after the reader's fixes of this file's misses (a list of three months,
    # 'at each airport' / 'which of the 3 airports', 'in terms of', 'thru the end of',
    # 'windiest', 'flew the most miles', 'landed (arrived)', 'excluding cancelled ones'): 55 of
    # 59 answerable right, 3 refused, the same 1 wrong served clean and 1 with caveats.
    "flights": (70, 0.949, {"s14f-037"}),
    # shop: 32 of 38 answerable right, 6 refused, none wrong; 7 of 7 refused. Raised to 0.960
    # ('consumer customers only', 'not counting test orders or cancellations', 'did the shop
    # make'): 35 of 38 right, the 3 left are misspellings and an adjective of place refused
    # with a did-you-mean.
    "shop": (45, 0.960, set()),
}


@pytest.fixture(scope="module")
def runs(flights_layer: SemanticLayer, shop_layer: SemanticLayer) -> dict[str, list[Attempt]]:
    return {domain: rules_attempts(layer, EXAMPLES / domain / "questions_s14.yaml")
            for domain, layer in (("flights", flights_layer), ("shop", shop_layer))}


@pytest.mark.parametrize("domain", list(HELD))
def test_balanced_accuracy_held(runs: dict[str, list[Attempt]], domain: str) -> None:
    """Every question answered or refused, and a balanced accuracy at least the first run's."""
    n, held, _known = HELD[domain]
    assert len(runs[domain]) == n
    assert score(runs[domain])["balanced_accuracy"] >= held


@pytest.mark.parametrize("domain", list(HELD))
def test_no_new_wrong_answer_served_clean(runs: dict[str, list[Attempt]], domain: str) -> None:
    """No wrong answer served clean beyond the first run's."""
    assert wrong_served_clean(runs[domain]) <= HELD[domain][2]
