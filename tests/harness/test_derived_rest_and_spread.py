"""Two honest numbers the cited rows give that were withheld as unsupported (issue 43: withhold
only what is proven false). What a share leaves of its whole in the row's unit ('Online took
53.6 % of the orders: 1,378 of them. The physical stores took 1,193 orders'), and the spread
between the highest and the lowest row of a breakdown or series ('the spread between the best
and the worst month was 606 orders'). Both are derivations (harness/audit/derivable.py): their
words are not read, so the answer is served with caveats, and a number off by a tenth is still
withheld. Generated from each domain's cited values."""

from __future__ import annotations

import pytest
from appended import clean_answer, decision_with


@pytest.mark.parametrize(("fixture", "question", "rest"), [
    ("shop_layer", "What share of July 2019 orders came from the Online store?",
     "The physical stores took {n} orders."),
    ("flights_layer", "What share of flights in 2013 were United Air Lines flights?",
     "The other airlines flew {n} flights."),
])
def test_the_rest_of_a_shares_whole(request, fixture: str, question: str, rest: str) -> None:
    answer, evidence, catalog, _calls = clean_answer(request.getfixturevalue(fixture), question)
    cited = next(c for c in answer["claims"] if c["kind"] == "measurement"
                 and "share" in " ".join(c["sources"]))
    share = cited["value"] if cited["value"] <= 1 else cited["value"] / 100
    part = next(c["value"] for c in answer["claims"] if c["kind"] == "measurement"
                and c["value"] > 1)
    others = round(part / share - part)
    assert decision_with(answer, evidence, catalog, question, rest.format(n=f"{others:,}")) == \
        "serve_with_caveats"
    assert decision_with(answer, evidence, catalog, question,
                   rest.format(n=f"{round(others * 1.1):,}")) == "withhold"


@pytest.mark.parametrize(("fixture", "question", "unit"), [
    ("shop_layer", "monthly orders from january to july 2019", "orders"),
    ("flights_layer", "monthly flights from january to june 2013", "flights"),
])
def test_the_spread_of_a_series(request, fixture: str, question: str, unit: str) -> None:
    answer, evidence, catalog, _calls = clean_answer(request.getfixturevalue(fixture), question)
    values = [c["value"] for c in answer["claims"] if c["kind"] == "measurement"]
    assert len(values) >= 3
    spread = max(values) - min(values)
    said = "The spread between the best and the worst month was {n:,} " + unit + "."
    assert decision_with(answer, evidence, catalog, question, said.format(n=spread)) == \
        "serve_with_caveats"
    assert decision_with(answer, evidence, catalog, question,
                   said.format(n=round(spread * 1.1))) == "withhold"
