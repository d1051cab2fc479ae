"""A cause word in an argued answer is read only where it links what follows it (the 20,000
one-word mutants of session 7 found 'By causes, android had the most active users …' served
clean: a ranking's conclusion rests on premises, so every cause word of the answer had counted as
held). 'because …', 'drove …' still read. On the demo and the flights."""

from __future__ import annotations

import pytest
from answer_words import clean_cases

from showwork.benchmarks.audit import case_report


@pytest.mark.parametrize(("domain", "fixture", "qid", "said"), [
    ("demo", "layer", "breakdown-001", "By platform"),
    ("flights", "flights_layer", "ranking-002", "By destination airport"),
])
def test_a_cause_word_that_links_nothing_is_unread(request, domain: str, fixture: str, qid: str,
                                                   said: str) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    assert case.answer["answer"].startswith(said)
    for word in ("causes", "because", "drove"):
        answer = {**case.answer, "answer": case.answer["answer"].replace(said, f"By {word}", 1)}
        report = case_report(case, answer)
        assert report.decision != "serve" and word in " ".join(report.not_checked), word
