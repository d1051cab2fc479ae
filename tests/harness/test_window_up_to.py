"""A window said by where it ends ('137,915 through May 2013', 'through June 2019') names a cited
window that ends with it and starts no later: held to the cited windows, 'through' read by that
check (the lead's held-out edits of session 7 had the honest 'through May 2013' of a January-May
total withheld as a mislabelled window, 'through' unread). A wrong end is still a mislabelled
window. On the flights and the shop."""

from __future__ import annotations

import pytest
from answer_words import clean_cases

from showwork.benchmarks.audit import case_report, edited

CASES = [
    ("flights", "flights_layer", "cumulative-001", "from January to May 2013", "May 2013",
     "April 2013"),
    ("shop", "shop_layer", "ranking-004", "in the first half of 2019", "June 2019", "May 2019"),
]


@pytest.mark.parametrize(("domain", "fixture", "qid", "said", "end", "wrong"), CASES)
def test_a_window_said_by_its_end(request, domain: str, fixture: str, qid: str, said: str,
                                  end: str, wrong: str) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    assert said in case.answer["answer"]
    honest = case_report(case, edited(case.answer, {"replace": [[said, f"through {end}"]]}))
    assert honest.decision == "serve", (honest.findings, honest.not_checked)
    lie = case_report(case, edited(case.answer, {"replace": [[said, f"through {wrong}"]]}))
    assert lie.decision != "serve"
    assert "mislabelled_window" in {f.code for f in lie.findings} | {
        f.code for c in lie.claims for f in c.findings}
