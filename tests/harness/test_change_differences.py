"""A comparison's change written as a difference ('rose by about $4,000', 'fell 37 percentage
points'): read as the row's delta when the claim cites both of its ends (harness/audit/numbers.py
`_difference`), on the rules analyst's own comparison answers of the demo, the shop and the
flights. Before, every such honest rewrite was withheld as an unsupported number."""

from __future__ import annotations

from typing import Any

import pytest
from answer_words import clean_cases

from showwork.benchmarks.audit import case_report, edited

HONEST = [
    ("demo", "compare-002", "Active users rose 10.8 %", "Active users rose by more than 1,200"),
    ("demo", "compare-005", "rose 7.33 %", "rose by about $4,000"),
    ("demo", "compare-006", "fell 95.1 %", "fell by more than 37 percentage points"),
    ("shop", "compare-002", "Orders rose 18.4 %", "Orders rose by 474"),
    ("shop", "compare-001", "Revenue fell 5.73 %", "Revenue fell by about $3,400"),
    ("flights", "change-001", "rose 79.2 %", "rose by 446"),
    ("flights", "change-006", "fell 44.5 %", "fell by 5.5 min"),
]
LIES = [
    ("demo", "compare-002", "Active users rose 10.8 %", "Active users rose by more than 2,000"),
    ("demo", "compare-002", "Active users rose 10.8 %", "Active users fell by 1,230"),
    ("demo", "compare-005", "rose 7.33 %", "rose by about $7,000"),
    ("demo", "compare-006", "fell 95.1 %", "fell by more than 37 percent"),
    ("shop", "compare-002", "Orders rose 18.4 %", "Orders rose by 574"),
    ("shop", "compare-001", "Revenue fell 5.73 %", "Revenue rose by about $3,400"),
    ("flights", "change-001", "rose 79.2 %", "rose by 1,009"),
    ("flights", "change-006", "fell 44.5 %", "fell by 6.5 min"),
]


@pytest.fixture(scope="module")
def cases(layer, shop_layer, flights_layer) -> dict[tuple[str, str], Any]:
    layers = {"demo": layer, "shop": shop_layer, "flights": flights_layer}
    return {(domain, qid): case for domain, lay in layers.items()
            for qid, case in clean_cases(lay, domain, {qid for d, qid, _, _ in HONEST + LIES if d == domain}).items()}


def _decision(cases: dict[tuple[str, str], Any], domain: str, qid: str, old: str, new: str) -> str:
    case = cases[domain, qid]
    return str(case_report(case, edited(case.answer, {"domain": domain, "id": qid,
                                                      "replace": [[old, new]]})).decision)


@pytest.mark.parametrize(("domain", "qid", "old", "new"), HONEST,
                         ids=[f"{d}/{q}:{n}" for d, q, _, n in HONEST])
def test_an_honest_difference_is_accepted(cases, domain: str, qid: str, old: str, new: str
                                          ) -> None:
    assert _decision(cases, domain, qid, old, new) == "serve"


@pytest.mark.parametrize(("domain", "qid", "old", "new"), LIES,
                         ids=[f"{d}/{q}:{n}" for d, q, _, n in LIES])
def test_a_false_difference_is_withheld(cases, domain: str, qid: str, old: str, new: str
                                        ) -> None:
    """Its size, its direction, a level said as a move ('rose by 1,009' of the later end) and
    percent for percentage points are all proven false by the cited ends."""
    assert _decision(cases, domain, qid, old, new) == "withhold"
