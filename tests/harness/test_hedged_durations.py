"""A hedged count of time units after a move's 'by' is the move's size, not a window's length:
'rose by about 12 minutes' is held to the cited change (it was read as a window, 'the last 12
minutes', and left unchecked: the lie was only shown as unread). A bound is not ('averaged over
20 minutes' of two members of three is no value). 'lengthened' and
'shortened' are verbs of motion. On the flights (delays in minutes) and the demo (days per
user)."""

from __future__ import annotations

import pytest
from answer_words import appended, clean_cases

CASES = [
    # (domain, fixture, question, honest sentences, lies)
    ("flights", "flights_layer", "change-002",  # 13.0 → 20.8 min
     ["The average delay lengthened by about 8 minutes.", "It rose by roughly 8 minutes."],
     ["The average delay lengthened by about 12 minutes.", "It rose by roughly 10 minutes.",
      "The average delay shortened by about 8 minutes."]),
    ("flights", "flights_layer", "change-006",  # United 12.4 → 6.89 min
     ["United's average delay shortened by roughly 6 minutes."],
     ["United's average delay shortened by roughly 8 minutes.",
      "United's average delay lengthened by roughly 6 minutes."]),
    ("demo", "layer", "compare-001",  # days per user 2.80 → 2.35
     [],
     ["Days per user fell by about 1 day.", "Days per user fell by about 2 days."]),
]


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lies"), CASES)
def test_a_hedged_duration_is_the_moves_size(request, domain: str, fixture: str, qid: str,
                                             honest: list[str], lies: list[str]) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]

    for sentence in honest:
        report = appended(case, sentence)
        assert report.decision != "withhold", (sentence, report.to_json()["defects"])
        unread = " ".join(report.not_checked)
        assert not any(w in unread for w in ("lengthened", "shortened", "by")), (sentence, unread)
    for sentence in lies:
        assert appended(case, sentence).decision == "withhold", sentence
