"""Issue 43's session-15 adversary (tests/harness/data/held_out_s15.yaml): the rules analyst's
clean answers (claims+repair, each domain's bundled questions file, and the mf tutorial and ACME
projects besides) edited the way a careless or dishonest model writes (lies) and the way an honest
one restates (honest rewrites), written without reading the audit or any earlier edit list, and
re-audited as the harness does (`showwork.benchmarks.audit.case_report`). The goals, the strict
xfails of today's misses and the floors: edit_corpus.py."""

from __future__ import annotations

from edit_corpus import FIVE, ROOT, EditCorpus, corpus_tests

DATA = ROOT / "tests" / "harness" / "data" / "held_out_s15.yaml"
DOMAINS = FIVE


CORPUS = EditCorpus(DATA, DOMAINS)
ENTRIES = CORPUS.entries

# Today's misses, with the decision and codes observed (session 15, on main at 8318ec0).
MISSES: dict[str, str] = {
    # Mended since first measured: a change's endpoints written in the wrong order in the prose
    # ('fell 16.0 % (2.35 -> 2.80)', 'from 2.35 to 2.80': prose.py `_prose_ends`, as a claim's
    # text was held), 7 lies on the five domains; a currency the metric is not in, where no
    # governed unit says it but its columns' names do ('€831.6' of a sum of
    # 'cancellations_usd': the catalog's `currency`; '¥' read as a currency), 4 lies; '61,014.03
    # US dollars' ('US' read as the country member). Honest rewrites withheld, mended: a move
    # over the whole series said before its verb ('Over the eight weeks active users grew
    # about 5.8 %': rowmoves.py); 'Android was ahead by 81' of two rows (gaps.py `_of_two`); 'the
    # third month of 2026' (protocol/periods.py); 'all but one store' (quantifiers.py); 'every
    # physical store' (a word that says which rows no reading knows: unproven, a caveat); 'CA
    # and US together made up over half' (sums.py: two members' share of the whole).
    #
    # 'had three quarters' for 66.7 %: a part of the whole is now cut where another common part
    # is nearer (two thirds: protocol/numbers.py COMMON_PARTS).
    #
    # lie served clean: 'grew by about an eighth' for +10.8 % (an eighth is 12.5 %): inside the
    # documented band of a part of a change (within 20 % of itself: docs/citations.md), which
    # the edit argues is too wide; no common part lies nearer, so left as it is
    "demo/compare-002:fraction_words:lie": "serve []",
    # honest rewrites withheld
    # 'Orders placed': 'placed' read as the order_status member (ambiguous; see its why)
    "shop/lookup-002:metric_synonym:honest": "withhold [mislabelled_member]",
    "flights/level-014:unit_conversion:honest#2": "withhold [unread_answer, unsupported_number]",
    "tutorial/s6t-019:multiplier:honest": "withhold [unread_answer, unsupported_number]",
}

FLOORS = {
    # domain: (lies withheld at least, honest rewrites served clean at least). First measured
    # (main 8318ec0): demo 62/33, shop 52/31, flights 54/35, tutorial 28/20, acme 15/4; after
    # the session's mends, and session 16's readings (s16e):
    "demo": (65, 39),      # of 93 lies and 55 honest rewrites
    "shop": (55, 35),      # of 69 and 51
    "flights": (56, 37),   # of 72 and 56
    "tutorial": (33, 22),  # of 46 and 33
    "acme": (16, 4),       # of 26 and 10
}


globals().update(corpus_tests(CORPUS, MISSES, FLOORS, lies=150, honest=70))
