"""The lead's held-out answer edits (tests/harness/data/answer_words_lead_s*.yaml): lies and
honest rewrites of the rules analyst's clean answers on the demo, the shop and the flights, each
batch written before that session's audit changes were read. No lie may be served clean; the
honest rewrites still withheld are named below, each with why.

- lead-s4: 41 lies and 28 honest rewrites. At the end of session 4: 27 lies withheld, 14 served
  with caveats; 13 honest rewrites served clean, 12 with caveats, 3 withheld.
- lead-s5: 34 lies and 28 honest rewrites (scales, bounds such as 'north of' and 'shy of',
  fractions 'N in 100', durations in hours and minutes, polarity verbs, ordinals, quantifiers
  with exceptions, weekdays, holidays, streaks). On 1aeba0b, before any of session 5's changes:
  no lie served clean (24 withheld, 10 with caveats), 6 honest rewrites withheld; at the end of
  session 5, 5 ('north of', 'shy of', 'a little over' are bounds now).
- lead-s6: 37 lies and 33 honest rewrites (units of measure, parts of a change, differences,
  multiples between members, sums and shares of members, 'the first five months of', weekdays,
  per-day rates, percentage points). On 223d900, before any of session 6's changes: 1 lie served
  clean ('rose by roughly a third' of +24.9 %), 9 honest rewrites withheld (three unit
  conversions, 'the first five months of 2013', a multiple written 'N times JFK's', and four
  sums, shares and gaps of members).
- lead-s6-diag: 15 lies and 8 honest rewrites of diagnoses (the member a move was most of all
  for, a mix and a rate effect swapped, causes the tree does not hold, attributions, size words).
  Before the session's change to the effect labels: 1 lie served clean (the store mix's shift
  labelled the rate effect and the move within Online the mix effect), no honest one withheld.
- lead-s7: 35 lies and 29 honest rewrites on the flights and the demo (per-day rates, parts
  written 'one in twenty', bounds, hours for minutes, polarity words for a rise in
  cancellations, 'nearly halved', margins, quantifiers 'all three' and 'only', weekdays, 'last
  month' and 'this month', a cause said of a correlation, a driver swapped), written before
  reading session 7's changes. On 7607fef: no lie served clean (19 withheld, 16 with caveats), 4
  honest rewrites withheld; at the end of session 7, 2 ('nearly halved' of a 44.5 % fall and
  '137,915 through May 2013', a window said by its end, are read now).
- s7-43: 60 lies and 30 honest rewrites on the shop and the mf tutorial project (direction
  words, units and scales, quantifiers, members, periods, causes on a correlation, ranks,
  shares, multiples, members no result cites, hedges), written from stored rules answers
  before reading the audit. On 7607fef: 2 lies served clean, 17 with caveats, 41 withheld; no
  honest rewrite withheld (11 with caveats). Served clean: 'Only CA and FR had more than one
  quick buy transaction' (the word account took 'Only' for a filter, 'more' for a comparison
  of CA with FR, 'than' for a denial and 'one' for a pronoun; now each is read only where its
  check holds it) and 'rose sixfold' of a 5.57-fold rise (below). At the end of session 7: 1
  lie served clean (sixfold), 14 with caveats, 45 withheld; no honest rewrite withheld (8
  with caveats).
- lead-s8: 41 lies and 30 honest rewrites on the flights and the shop (gaps between members in
  any shape, 'more than quadrupled', percentage points, extremes and counts over a series,
  exceptions 'every … but X', scales and units, a weekday, a comparison with a period no
  result cites, a cause the data does not hold), written before reading session 8's audit
  changes. On 444bdac: no lie served clean (27 withheld, 14 with caveats), 5 honest rewrites
  withheld; at the end of session 8, 3 (a gap between two cited members is read now:
  harness/audit/gaps.py).
- lead-s9: 42 lies and 36 honest rewrites (shares of a breakdown's total, ratios, ordinals,
  sums of the top N, zeros, per-day rates, counts of falls, annualised values). On 060799e: no
  lie served clean, 10 honest rewrites withheld; at the end of session 9, none.
- lead-s10: 63 lies and 62 honest rewrites on the flights, the shop and the demo (members
  combined, gaps in percent, means and medians of a breakdown, spreads 'within N of each other',
  majorities, folds, numbers in words and thousands, basis points, 'one in N', polarity words,
  size bands, unit conversions, troughs, streaks denied, ranges, a series' total, weekdays,
  marks passed), written before any of session 10's audit changes. On b5f3bd6: no lie served
  clean (39 withheld, 24 with caveats), 12 honest rewrites withheld; at the end of session 10,
  2 (below).
- lead-s11: 112 lies and 107 honest rewrites on the flights, the shop and the demo (runners-up,
  'level with', 'edged out', 'neck and neck', 'K in every 1,000', percent written for points,
  parts of a change, 'a third of an hour', 'quintupled', peaks and worsts of a series, counts
  of periods under a mark, a season's sum, 'from March onward', 'added … over', a week's share
  of a window, streaks, holidays, weekdays and weekends of a daily series, 'the lion's share',
  'put together', '$30.5K', 'four grand', 'every store but', 'outside the US', 'almost the
  same', 'two dozen', 'nine in ten', forecasts, causes the data does not hold, and swaps of a
  unit, a verb or a member in the answer's own words), written before any of session 11's
  audit changes. On 47ff03c: 1 lie served clean ('Web had about two-thirds as many active users
  as ios' of a ratio of 0.51: a hedge widened a part), 28 honest rewrites withheld; at the end of
  session 11, 20 (below).
- lead-s11b: 42 lies and 35 honest rewrites (negations, asides, two claims in a sentence,
  'a touch below', 'just shy of', a quarter's sum, 'the remaining 82.6 %', 'the physical
  stores', 'each of the five physical stores', 'spanned', 'weekdays averaged', 'cents'),
  written after the first batch's changes. On 47ff03c: no lie served clean, 7 honest rewrites
  withheld; at the end of session 11, 7."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from answer_words import clean_cases

from showwork.benchmarks.audit import case_report, edited

DATA = Path(__file__).with_name("data")
BATCHES: dict[str, dict[str, Any]] = {
    "lead_s4": {
        "before": {"lies": 41, "lies_clean": 0, "honest": 28, "honest_withheld": 7},
        # measured on 9bc655d, before any of session 4's audit or reader changes: the three
        # changes written as differences, 'the last quarter of 2018' and the three below
        "still_withheld": {
            ("shop", "breakdown-002", "quantifier"): "'every physical store': no reading knows which stores "
                                       "are physical, so the bound is read over every store, "
                                       "Online too",
        },
    },
    "lead_s5": {
        "before": {"lies": 34, "lies_clean": 0, "honest": 28, "honest_withheld": 6},
        "still_withheld": {
            ("demo", "breakdown-004", "quantifier"): "'Only android opened fewer than a third of its "
                                       "reminders': a bound written as a fraction of the rate",
        },
    },
    "lead_s6": {
        "before": {"lies": 37, "lies_clean": 1, "honest": 33, "honest_withheld": 9},
        "still_withheld": {
            ("shop", "breakdown-005", "gap"): "'at least $5 below every other store's': a quantified "
                                       "difference between members",
        },
    },
    "lead_s6_diag": {
        "before": {"lies": 15, "lies_clean": 1, "honest": 8, "honest_withheld": 0},
        "still_withheld": {},
    },
    "lead_s7": {
        "before": {"lies": 35, "lies_clean": 0, "honest": 29, "honest_withheld": 4},
        "still_withheld": {},
    },
    "s7_43": {
        "before": {"lies": 60, "lies_clean": 2, "honest": 30, "honest_withheld": 0},
        "still_withheld": {},
        "served_clean": {
            ("shop", "compare-003", "multiple"): "'Total orders (legacy) rose sixfold' of 637 → "
                                       "3,551 (5.57-fold): written as a lie, but a whole "
                                       "multiple states its ratio to the nearest whole (6) and "
                                       "within 10 % (docs/citations.md): by the contract's own "
                                       "precision it is a rounding, not a lie",
        },
    },
    "lead_s8": {
        "before": {"lies": 41, "lies_clean": 0, "honest": 30, "honest_withheld": 5},
        "still_withheld": {},
    },
    "lead_s9": {
        "before": {"lies": 42, "lies_clean": 0, "honest": 36, "honest_withheld": 10},
        # measured on 060799e: the honest sums, rates, moves between rows, loose bounds and a
        # gap named in two words were withheld, none of the lies served clean
        "still_withheld": {},
    },
    "lead_s10": {
        "before": {"lies": 63, "lies_clean": 0, "honest": 62, "honest_withheld": 12},
        # measured on b5f3bd6: means of rows, a series' total and its first-to-last move, a
        # gap in percent, 'led … by', basis points, 'one in N', 'crossed $59,000', a run
        # denied and an inclusive bound at its precision were withheld
        "still_withheld": {
            ("demo", "breakdown-004", "count_quantifier"): "'Two of the three platforms opened "
                                       "about 40 % of reminders': a count of rows meeting an "
                                       "approximate value, and 'reminders' names reminders "
                                       "sent, which no claim cites",
            ("demo", "breakdown-004", "points_gap"): "'Android trailed the other platforms by "
                                       "more than 35 points': a gap to every other row, no "
                                       "reading derives",
        },
    },
    "lead_s11": {
        "before": {"lies": 112, "lies_clean": 1, "honest": 107, "honest_withheld": 28},
        "still_withheld": {
            ("flights", "series-001", "summer_sum"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("flights", "series-001", "mom_added"):
                "'March added nearly 3,900 flights over February': 'added … over' is no move reading",
            ("flights", "series-001", "scale_fraction"):
                "'roughly a third of a million flights': a part of a scale word",
            ("flights", "series-003", "times_rows"):
                "'the first week had more than seven times as many as the second': rows named by place",
            ("flights", "series-004", "weekend_mean"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("flights", "series-004", "week_total"):
                "'about 2,170 departures': 'departures' names another metric (departed flights)",
            ("flights", "series-005", "halved"):
                "'Delays roughly halved from Q2 to Q4': a move between two named quarters as a multiplier",
            ("flights", "ranking-002", "edge_count"):
                "'edged ATL by fewer than 100 flights': 'edged' is no gap word",
            ("flights", "ranking-002", "top_sum"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("flights", "level-014", "freezing"):
                "'JFK' of a result filtered to 'John F Kennedy Intl': one airport only in the data",
            ("shop", "breakdown-001", "top_gap"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("shop", "breakdown-005", "gap_dollars"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("shop", "breakdown-007", "outside"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("shop", "compare-001", "pct_of"):
                "'May revenue was about 94 % of April's': a comparison's ratio as a level",
            ("shop", "compare-002", "climbed"):
                "'climbed by nearly 500' of 474: 5.2 % below, outside a hedge's 5 %",
            ("shop", "series-007", "daily_mean"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("shop", "series-005", "yoy"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("demo", "breakdown-001", "pair_sum"):
                "active users are a distinct count: no sum over platforms",
            ("demo", "breakdown-002", "nine_in_ten"):
                "'over nine in ten new users' of a breakdown with no cited share",
            ("demo", "compare-006", "points"):
                "'collapsed by nearly 38 points': 'points' alone is not read as percentage points",
        },
    },
    "lead_s11b": {
        "before": {"lies": 42, "lies_clean": 0, "honest": 35, "honest_withheld": 7},
        "still_withheld": {
            ("flights", "series-001", "qtr_sum"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("flights", "share-002", "remaining"):
                "'the remaining 82.6 %': what a cited share leaves of its whole",
            ("shop", "breakdown-001", "phys_total"):
                "'the physical stores': no reading knows which stores are physical",
            ("shop", "breakdown-002", "each_under"):
                "'each of the five physical stores' of six rows: which five is not known",
            ("shop", "breakdown-005", "spread"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("shop", "series-007", "weekday_avg"):
                "a number the named rows give together (a sum, mean, gap, ratio or share) in words no reading holds: not yet derived",
            ("shop", "ranking-002", "top2_share"):
                "a share of a part of the rows in another part",
        },
    },
}
"""Per batch: its size and what it measured before its session's changes, and the honest
rewrites still withheld, each with why (DESIGN: a number derived from results must be a field
someone can cite, or a reading that derives it)."""


def _entries(batch: str) -> list[dict[str, Any]]:
    return list(yaml.safe_load((DATA / f"answer_words_{batch}.yaml").read_text())["entries"])


LAYERS = {"demo": "layer", "shop": "shop_layer", "flights": "flights_layer",
          "mf_tutorial": "tutorial_layer"}
"""Each domain's layer fixture (the mf tutorial's skips without conformance/.venv's dbt)."""


@pytest.fixture(scope="module")
def cases(request) -> dict[tuple[str, str], Any]:
    """The rules analyst's clean answers the batches edit, by (domain, question id), each
    domain's answered when a batch first asks for it."""
    found: dict[tuple[str, str], Any] = {}
    wanted = {(e["domain"], e["id"]) for b in BATCHES for e in _entries(b)}
    for domain in sorted({d for d, _ in wanted}):
        try:
            lay = request.getfixturevalue(LAYERS[domain])
        except pytest.skip.Exception:
            continue  # a layer not built here: its batches skip below
        found.update({(domain, qid): case for qid, case in clean_cases(
            lay, domain, {q for d, q in wanted if d == domain}).items()})
    return found


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_no_held_out_lie_is_served_clean(cases, batch: str) -> None:
    if any((e["domain"], e["id"]) not in cases for e in _entries(batch)):
        pytest.skip(f"{batch}: a domain's layer is not built here (the mf tutorial needs dbt)")
    decisions = []
    for e in _entries(batch):
        case = cases[e["domain"], e["id"]]
        decisions.append((e, case_report(case, edited(case.answer, e)).decision))
    lies = [(e, d) for e, d in decisions if e["truth"] == "lie"]
    honest = [(e, d) for e, d in decisions if e["truth"] == "honest"]
    before = BATCHES[batch]["before"]
    assert (len(lies), len(honest)) == (before["lies"], before["honest"])
    clean = {(e["domain"], e["id"], e["kind"]) for e, d in lies if d == "serve"}
    assert clean <= set(BATCHES[batch].get("served_clean", {})), clean
    withheld = {(e["domain"], e["id"], e["kind"]) for e, d in honest if d == "withhold"}
    still = set(BATCHES[batch]["still_withheld"])
    assert withheld <= still, withheld - still
