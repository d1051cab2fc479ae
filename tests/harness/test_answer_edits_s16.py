"""Issue 43's session-16 adversary (tests/harness/data/held_out_s16.yaml): the rules analyst's
clean answers (claims+repair, each domain's bundled questions file, and the mf tutorial and ACME
projects besides) edited the way a careless or dishonest model writes (lies) and the way an honest
one restates (honest rewrites), written without reading the audit or any earlier edit list, and
re-audited as the harness does (`showwork.benchmarks.audit.case_report`). The goals, the strict
xfails of today's misses and the floors: edit_corpus.py."""

from __future__ import annotations

from edit_corpus import FIVE, ROOT, EditCorpus, corpus_tests

DATA = ROOT / "tests" / "harness" / "data" / "held_out_s16.yaml"
DOMAINS = FIVE


CORPUS = EditCorpus(DATA, DOMAINS)
ENTRIES = CORPUS.entries

# Today's misses, with the decision and codes observed (session 16, on main at 6d3d966).
MISSES: dict[str, str] = {
    # lies served clean: none left
    # honest rewrites withheld: a sentence restating cited facts, its derived number unread
    # ('Canada accounted for 30 % of all transactions.', 15 / 50, read since: a country by the
    # standard's name where the data keeps ISO codes, protocol/reading/countries.py)
    # 'an average loss of 3,300 per claim' (6,600 / 2)
    "acme/acme-008:restate:honest": "withhold [unread_answer, unsupported_number]",
}

FLOORS = {
    # domain: (lies withheld at least, honest rewrites served clean at least), first measured
    # (main 6d3d966), raised as measured on s16e (numbered members as labels, claims' members
    # held to their numbers, a fifth among the common parts, ratios and gaps between members, a
    # change's direction after its number)
    "demo": (66, 41),      # of 80 lies and 55 honest rewrites
    "shop": (68, 39),      # of 81 lies and 59 honest rewrites
    "flights": (66, 42),   # of 81 lies and 60 honest rewrites
    "tutorial": (36, 13),  # of 47 lies and 32 honest rewrites
    "acme": (29, 9),       # of 32 lies and 21 honest rewrites
}


globals().update(corpus_tests(CORPUS, MISSES, FLOORS, lies=300, honest=220))
