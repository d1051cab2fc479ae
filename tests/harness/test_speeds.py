"""Two metrics' changes compared in an answer's words (harness/audit/speeds.py, issue 43).

Session 14's held-out edits served clean 'Revenue fell 5.73 %, faster than average order value,
which fell 20.4 %' and 'Average departure delay rose 60.5 %, less than total departure delay,
which rose 54.8 %' on three domains: in an argued answer a comparative between two metrics was
read as its premises' and held to nothing. Generated here from the rules analyst's diagnoses on
the demo, the shop and the flights: for every two metrics whose whole changes the answer cites
(at least 10 % apart in size), the true comparison stays as the clean answer is audited and the
false one is withheld, in 'faster', 'more', 'slower' and 'less' wordings."""

from __future__ import annotations

import itertools
import re

import pytest
from answer_words import appended, clean_cases

CASES = [("demo", "layer", "diag-001"), ("shop", "shop_layer", "diag-001"),
         ("flights", "flights_layer", "diag-001"), ("flights", "flights_layer", "diag-007")]
_WHOLE_CHANGE = re.compile(r"^r(\d+):(\w+)\.pct_change$")


def _changes(case) -> dict[str, float]:
    """metric → its cited change over the whole (no row selector, no filter on the call)."""
    out: dict[str, float] = {}
    unfiltered = {h for h, r in case.results.items() if not r.get("where")}
    for claim in case.answer["claims"]:
        for cite in claim.get("sources") or []:
            m = _WHOLE_CHANGE.match(cite)
            if m and int(m.group(1)) in unfiltered:
                rows = case.results[int(m.group(1))]["rows"]
                out[m.group(2)] = float(rows[0]["values"][m.group(2)]["pct_change"])
    return out


def _label(case, metric: str) -> str:
    return str(case.catalog["metrics"][metric].get("label") or metric.replace("_", " "))


@pytest.mark.parametrize(("domain", "fixture", "qid"), CASES)
def test_comparisons_of_two_changes(request, domain: str, fixture: str, qid: str) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    clean = appended(case, "").decision
    changes = _changes(case)
    tried = 0
    for a, b in itertools.permutations(changes, 2):
        big, small = abs(changes[a]), abs(changes[b])
        if min(big, small) == 0 or max(big, small) / min(big, small) < 1.1:
            continue
        more = big > small
        la, lb = _label(case, a).capitalize(), _label(case, b)
        for word_more, word_less in (("faster", "slower"), ("more", "less")):
            true_word, false_word = (word_more, word_less) if more else (word_less, word_more)
            honest = appended(case, f"{la} moved {true_word} than {lb}.")
            lie = appended(case, f"{la} moved {false_word} than {lb}.")
            assert not [f for f in honest.findings if f.code == "direction_mismatch"
                        and "cited changes" in f.message], (a, b, true_word)
            assert honest.decision != "withhold" or clean == "withhold", (a, b, true_word)
            assert lie.decision == "withhold", (a, b, false_word, lie.findings)
            tried += 1
    assert tried >= 2
