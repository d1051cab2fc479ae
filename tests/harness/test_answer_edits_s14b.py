"""Issue 43's second session-14 adversary (tests/harness/data/held_out_s14b.yaml): the rules
analyst's clean answers (claims+repair, each domain's bundled questions file) edited where a user
reads them besides the prose's wording (claim texts, the headline value, the listed values, and
prose that states several things at once), written before reading the audit, and re-audited as
the harness does (`showwork.benchmarks.audit.case_report`). The goals, the strict
xfails of today's misses and the floors: edit_corpus.py."""

from __future__ import annotations

from edit_corpus import BUNDLED, ROOT, EditCorpus, corpus_tests

DATA = ROOT / "tests" / "harness" / "data" / "held_out_s14b.yaml"
DOMAINS = BUNDLED
CORPUS = EditCorpus(DATA, DOMAINS)
ENTRIES = CORPUS.entries

# Today's misses, with the decision and codes observed (session 14): lies served clean, honest
# rewrites withheld. Mended since first measured: a series' numbers swapped between the periods a
# prose list writes before them (harness/audit/prose.py `_number_period`), on the three domains;
# the member a mix or rate conclusion's text names, held to the changes the claims cite as the
# prose's is (`_claims_led`: served with caveats, mislabelled_member); a second superlative in a
# clause said of the member after the first ('Online had the highest revenue, and O'Hare Airport
# the lowest': comparisons.py `_quantified_in`); a hedged or bounded number of a measurement
# claim's text that the cited rows its sentence names give together (derivable.py, as the
# prose's) is unread, not text_value_mismatch ('the only region above $10,000': served with
# caveats; and so a lie of that kind, 'the only region above $9,000', was no longer withheld but
# served with caveats: shop's floor 24 -> 23).
# Session 15 (issue 43 item 3), 14 of the 15 honest rewrites then withheld: a claim's text is
# read as the prose is for what the cited rows give together (audit.py `_derived_in_texts`:
# gaps, 'N times', sums, shares, quantified bounds), so 'the only X below 10 %', 'every channel
# but paid_search had fewer than 100', 'more than 80 % of new users', '6 fewer than Mug, 12 oz',
# 'over $4,000 ahead of doctor stew', 'about 6 minutes more than Virgin America' are served with
# caveats at most, and a reading the rows contradict stays withheld ('the only region above
# $9,000' is withheld again: shop's floor 23 -> 24); 'a drop of 37.7 points' of a rate's two
# cited ends (numbers.py `_as_points`) and '7.8 minutes longer' of 13.0 → 20.8 (the difference
# of the ends as written, `_of_rounded_ends`); 'more than tenfold' (derivable.py `_bounded`
# takes a ratio's word); a member the claim measures its own row against is no mislabelled
# member, nor a period one it says of its own ('more than EWR and JFK combined', 'about twice
# Virgin America's', 'the highest of the year and twice the fourth quarter's': labels.py
# `measured_against`, comparisons.py `_extremes_in`); a listed key in the words of its member
# ('paid search': audit.py `_keys_as_members`).
# And 'android ahead by 81' after 'ios 7,397' in the prose: a gap with the second member left
# out, of a breakdown of two rows (gaps.py `_of_two`).
MISSES: dict[str, str] = {
}

FLOORS = {
    # domain: (lies withheld at least, honest rewrites served clean at least), today's counts
    "demo": (21, 12),     # of 29 lies and 19 honest rewrites (20 lies withheld when written;
    # 10 honest served clean until session 16's readings, s16e)
    "shop": (23, 9),      # of 31 and 17 (7 honest until s16e; 23; 24 once 'the only region above $9,000' was
    # withheld again, then 23 since 'All physical stores averaged above $21.50' is served with
    # caveats: which stores are physical no reading knows, and some row meets the bound, so it
    # is unproven, not proven false: quantifiers.py, session 15)
    "flights": (23, 13),  # of 30 and 23 (22)
}


globals().update(corpus_tests(CORPUS, MISSES, FLOORS, lies=60, honest=30))
