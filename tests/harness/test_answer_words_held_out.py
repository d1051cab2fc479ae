"""The lead's held-out answer edits of session 4 (tests/harness/data/answer_words_lead_s4.yaml):
41 lies and 28 honest rewrites of the rules analyst's clean answers on the demo, the shop and the
flights, written before that session's audit changes were read. No lie may be served clean; the
honest rewrites still withheld are named below, each with why. At the end of session 4: 27 lies
withheld, 14 served with caveats; 13 honest rewrites served clean, 12 with caveats, 3 withheld."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from answer_words import clean_cases

from showwork.benchmarks.audit import case_report, edited

BATCH = Path(__file__).with_name("data") / "answer_words_lead_s4.yaml"
BEFORE = {"lies": 41, "lies_clean": 0, "honest": 28, "honest_withheld": 7}
"""Measured on 9bc655d, before any of session 4's audit or reader changes: no lie served clean
(14 with caveats only), 7 honest rewrites withheld: three changes written as differences ('rose
by about $4,000', 'by more than 1,200', 'by more than 37 percentage points'), 'the last quarter
of 2018' (read as the quarter before the as-of date), 'topped 28,000 for the first time', 'within
2 % of each other' and 'Every physical store took fewer than 300 orders'."""
STILL_WITHHELD = {
    ("flights", "series-001"): "'In March flights topped 28,000 for the first time in 2013': "
                               "'topped' is no bound word, so 28,000 reads as a value no "
                               "field cites",
    ("shop", "breakdown-002"): "'every physical store': no reading knows which stores are "
                               "physical, so the bound is read over every store, Online too",
    ("demo", "breakdown-001"): "'within 2 % of each other': a relative difference of two "
                               "members no reading derives",
}
"""The honest rewrites still withheld, and why: each states a number no cited field or
reading derives (DESIGN: a number derived from results must be a field someone can cite)."""


def _entries() -> list[dict[str, Any]]:
    return list(yaml.safe_load(BATCH.read_text())["entries"])


@pytest.fixture(scope="module")
def cases(layer, shop_layer, flights_layer) -> dict[tuple[str, str], Any]:
    layers = {"demo": layer, "shop": shop_layer, "flights": flights_layer}
    return {(domain, qid): case for domain, lay in layers.items()
            for qid, case in clean_cases(lay, domain, {e["id"] for e in _entries() if e["domain"] == domain}).items()}


def test_no_held_out_lie_is_served_clean(cases) -> None:
    decisions = []
    for e in _entries():
        case = cases[e["domain"], e["id"]]
        decisions.append((e, case_report(case, edited(case.answer, e)).decision))
    lies = [(e, d) for e, d in decisions if e["truth"] == "lie"]
    honest = [(e, d) for e, d in decisions if e["truth"] == "honest"]
    assert (len(lies), len(honest)) == (BEFORE["lies"], BEFORE["honest"])
    assert [(e["domain"], e["id"], e["kind"]) for e, d in lies if d == "serve"] == []
    withheld = {(e["domain"], e["id"]) for e, d in honest if d == "withhold"}
    assert withheld <= set(STILL_WITHHELD), withheld - set(STILL_WITHHELD)
