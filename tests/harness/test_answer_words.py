"""Issue 43: every word of an answer is read or shown as not read. The corpus
(tests/harness/data/answer_words.yaml) edits the rules analyst's clean answers on the demo, the
shop and the flights with lies and honest rewrites in words the audit was never shown."""

from __future__ import annotations

import pytest
from answer_words import clean_cases, edited, entries, tally


@pytest.fixture(scope="module")
def cases(layer, shop_layer, flights_layer):
    return {"demo": clean_cases(layer, "demo"), "shop": clean_cases(shop_layer, "shop"),
            "flights": clean_cases(flights_layer, "flights")}


def test_the_corpus_covers_every_kind_on_two_domains(cases) -> None:
    """Each kind of edit has lies on at least two domains, and every entry's words are in its
    clean answer (an edit of nothing would prove nothing)."""
    domains: dict[tuple[str, str], set[str]] = {}
    for entry in entries():
        assert entry["id"] in cases[entry["domain"]], entry
        domains.setdefault((entry["kind"], entry["truth"]), set()).add(entry["domain"])
    for (kind, truth), seen in domains.items():
        assert truth != "lie" or len(seen) >= 2, (kind, seen)


BASELINE = {"lies": 33, "lies_clean": 19, "honest": 22, "honest_withheld": 7}
"""Measured before issue 43 (the audit of main at 80cf4d6), on the first batch."""
NOW = {"lies_clean": 0, "honest_withheld": 0}
"""With the closed-world reading (words.py), the quantifier reading (quantifiers.py), size bands,
units of time converted, approximations and ranges as intervals and dates as people write them:
no lie is served clean and no honest rewrite is withheld (it was 5: 'about 10.3 hours' of 617.4
min, 'nearly $60,000', 'between 10 and 12 %', '03/02/2026', "July '13")."""
S2_BEFORE = {"lies": 44, "lies_clean": 1, "honest": 31, "honest_withheld": 9}
"""The second batch (batch: s2), measured on d29b3fc before any reading of it was built: one lie
served clean ('6.17 days' for 6.17 min); 19 lies served with caveats only; the honest rewrites
withheld are unit conversions ('about 756 seconds', '10.29 hours'), ranges ('roughly 80 %',
'between 15 and 20 %'), 'N times' (3) and dates ("Feb. '13", '03/2019')."""
S2_NOW = {"lies_clean": 0, "honest_withheld": 0}
"""With units of time converted from the metric's unit, approximations and ranges read as
intervals, 'N times' held to two cited members (times.py) and dates as people write them
(protocol/periods.py `written_dates`); the first batch's figures are 0 and 0 too."""
WITHHELD = ("date", "range", "times")
"""Kinds whose every lie is proven false (withheld) and every honest rewrite accepted."""


def test_no_lie_is_served_clean_and_no_honest_rewrite_withheld(cases) -> None:
    """Every lie of the corpus is withheld or served with caveats; no honest rewrite is
    withheld (a rewrite whose words no reading knows is a caveat, never a withhold)."""
    measured = tally(cases, [e for e in entries() if "batch" not in e])
    assert (measured.lies, measured.honest) == (BASELINE["lies"], BASELINE["honest"])
    assert len(measured.lies_clean) <= NOW["lies_clean"], measured.lies_clean
    assert len(measured.honest_withheld) <= NOW["honest_withheld"], measured.honest_withheld


def test_the_second_batch_of_lies_and_honest_rewrites(cases) -> None:
    """The second batch (written before its readings were built): lies are not served clean,
    honest rewrites are not withheld, within the figures measured now."""
    measured = tally(cases, [e for e in entries() if e.get("batch") == "s2"])
    assert (measured.lies, measured.honest) == (S2_BEFORE["lies"], S2_BEFORE["honest"])
    assert len(measured.lies_clean) <= S2_NOW["lies_clean"], measured.lies_clean
    assert len(measured.honest_withheld) <= S2_NOW["honest_withheld"], measured.honest_withheld


S3_BEFORE = {"lies": 33, "lies_clean": 1, "honest": 16, "honest_withheld": 3}
"""The lead's held-out batch (batch: s3), measured on 7159883 (32 of its lies; the 33rd, a sum
of two members, was added after): 'roughly a quarter of flights' of 17.4 % served clean; 'just
over $60k' of $61,014, 'more than tripled' of +269.5 % and 'more than half of all revenue'
withheld."""
S3_NOW = {"lies_clean": 0, "honest_withheld": 1}
"""A bound reaches as far as 'about' would, a hedge before a multiplier is read, and a part of a
whole is held as a share within 12 % (25 % hedged). The one honest rewrite still withheld states
a share of the total no result cites ('Online brought in more than half of all revenue'): a
number derived from results must be a field someone can cite (docs/citations.md)."""


def test_the_leads_held_out_batch(cases) -> None:
    """The s3 batch, written by the lead before this session's audit changes: no lie served
    clean; only the rewrite that states an uncited share is withheld."""
    measured = tally(cases, [e for e in entries() if e.get("batch") == "s3"])
    assert (measured.lies, measured.honest) == (S3_BEFORE["lies"], S3_BEFORE["honest"])
    assert len(measured.lies_clean) <= S3_NOW["lies_clean"], measured.lies_clean
    assert len(measured.honest_withheld) <= S3_NOW["honest_withheld"], measured.honest_withheld


def test_dates_ranges_and_multipliers_are_held_to_the_cited_values(cases) -> None:
    """A wrong period in any written form ('03/02/2026', "Mar. '13", 'H1 2019'), a range or
    approximation that misses the value, and 'N times' two cited members do not bear out are
    withheld; the right ones in any form are not (demo, shop and flights)."""
    from showwork.benchmarks.audit import case_report

    seen: dict[str, set[str]] = {}
    for entry in entries():
        if entry["kind"] not in WITHHELD:
            continue
        case = cases[entry["domain"]][entry["id"]]
        decision = case_report(case, edited(case.answer, entry)).decision
        assert (decision == "withhold") == (entry["truth"] == "lie"), (entry, decision)
        seen.setdefault(entry["kind"], set()).add(entry["domain"])
    assert all(len(domains) >= 2 for domains in seen.values()), seen


def test_a_duration_in_another_unit_of_time_is_converted(cases) -> None:
    """A duration written in hours, seconds or days is converted from the metric's minutes and
    held to the cited value: a unit that changes the value is withheld, a conversion that
    keeps it is served clean (the flights: the only bundled domain with a unit of time)."""
    from showwork.benchmarks.audit import case_report

    for qid, old, new, decision in (
            ("level-012", "617.4 min", "10.29 hours", "serve"),
            ("level-016", "12.6 min", "about 756 seconds", "serve"),
            ("level-004", "20.4 min", "20.4 hours", "withhold"),
            ("level-005", "6.17 min", "6.17 days", "withhold"),
            ("level-016", "12.6 min", "0.21 hours", "serve")):
        case = cases["flights"][qid]
        report = case_report(case, edited(case.answer, {"replace": [[old, new]]}))
        assert report.decision == decision, (new, report.not_checked)


@pytest.mark.parametrize(("domain", "qid", "old", "new", "read"), [
    ("demo", "compare-004", "rose 0.949 %", "ticked up 0.949 %", True),
    ("demo", "compare-004", "rose 0.949 %", "ticked down 0.949 %", False),
    ("demo", "compare-003", "rose 87.4 %", "rose sharply, 87.4 %", True),
    ("shop", "compare-002", "rose 18.4 %", "rose slightly, 18.4 %", False),
    ("shop", "compare-002", "rose 18.4 %", "rose in the double digits", True),
    ("shop", "lookup-005", "were 702", "were in the hundreds", True),
    ("shop", "lookup-005", "were 702", "were a handful", False),
    ("flights", "level-009", "were 669", "were in the hundreds", True),
    ("flights", "level-006", "were 8,255", "were in the hundreds", False),
    ("flights", "change-004", "rose 6.38 %", "rose in the single digits", True)])
def test_size_words_are_read_only_inside_their_band(cases, domain, qid, old, new, read) -> None:
    """A size word (docs/citations.md, "Size words") is read where every cited change or value
    of its metric lies in its band; outside it, it is quoted back as not checked (or, moving
    the other way, withheld as a direction the change does not have)."""
    from showwork.benchmarks.audit import case_report

    case = cases[domain][qid]
    report = case_report(case, edited(case.answer, {"replace": [[old, new]]}))
    assert (report.decision == "serve") is read, (new, report.not_checked)
    assert read or report.decision == "withhold" or report.not_checked, new


def test_repair_messages_name_the_words_no_check_read(cases) -> None:
    """The repair message quotes the unread words back, so a model can restate them."""
    from showwork.benchmarks.audit import case_report
    from showwork.protocol.prompts import repair_message

    case = cases["shop"]["compare-002"]
    report = case_report(case, edited(case.answer, {"replace": [["rose 18.4 %",
                                                                 "blossomed 18.4 %"]]}))
    message = repair_message([d.message for d in report.defects], 1, 2, report.not_checked)
    # the change's size is quoted with it: no word left says which way it moved
    assert "Not checked (no check of the audit read these words): 'blossomed 18.4'." in message


def test_the_rules_answers_the_corpus_edits_are_fully_read(cases) -> None:
    """Every clean rules answer the corpus edits (every shape, three domains) is served clean:
    each word of its prose, headline and claims is read or neutral (no unread_answer)."""
    from showwork.benchmarks.audit import case_report

    for domain, by_id in cases.items():
        for qid, case in by_id.items():
            report = case_report(case, case.answer)
            assert report.decision == "serve", (domain, qid, report.not_checked)


def test_an_unread_word_is_a_caveat_never_a_withhold(cases) -> None:
    """A word no reading knows, put into a clean answer, is quoted back as not checked and the
    answer is served with caveats (shop and flights)."""
    from showwork.benchmarks.audit import case_report

    for domain, qid, old, new in (("shop", "compare-002", "rose 18.4 %", "blossomed 18.4 %"),
                                  ("flights", "level-004", "20.4 min", "20.4 fortnights")):
        case = cases[domain][qid]
        report = case_report(case, edited(case.answer, {"replace": [[old, new]]}))
        assert report.decision == "serve_with_caveats"
        assert report.not_checked == ["blossomed 18.4" if "blossomed" in new else "fortnights"]
        unread = [f.evidence for f in report.findings if f.code == "unread_answer"]
        assert [unread[0]["text"][a:b] for a, b in unread[0]["spans"]] == unread[0]["words"]


@pytest.mark.parametrize(("domain", "qid", "old", "new"), [
    ("shop", "compare-002", "rose 18.4 %", "roughly 18.4 %"),
    ("demo", "compare-001", "fell 16.0 %", "approximately 16.0 %")])
def test_a_change_with_no_word_saying_it_moved_is_not_read(cases, domain, qid, old,
                                                           new) -> None:
    """A hedge where the verb of motion was ('Orders roughly 18.4 %') leaves a change's size no
    word says moved: quoted as not checked (a caveat), while the same number as the headline
    string states the value asked for and is read (shop and demo)."""
    from showwork.benchmarks.audit import case_report

    case = cases[domain][qid]
    report = case_report(case, edited(case.answer, {"prose": [[old, new]]}))
    assert report.decision == "serve_with_caveats"
    assert report.not_checked == [new.removesuffix(" %")], report.not_checked
    headline = {**case.answer, "value": f"{case.answer['value']:,}"}
    assert case_report(case, headline).decision == "serve"


SHAPES = {"accelerated": "accelerated", "slowed": "slowed", "steepest": "the steepest",
          "first time since": "for the first time since", "since": "since"}
"""Each form of a series' shape (shape.py) and the words that mark it in an edit."""


def _shape_form(text: str) -> str:
    return next(form for form, words in SHAPES.items() if words in text)


def test_a_series_shape_is_read_only_where_the_cited_series_holds_it(cases) -> None:
    """The s4 batch's shapes ('the rise accelerated in the week of 11 May 2026', 'the steepest
    rise of the year in March', 'for the first time since May', 'have fallen since July'): each
    honest one is served clean, each lie is not (unread, or withheld where the period it names
    is no cited window); every form has lies and honest rewrites on two domains."""
    from showwork.benchmarks.audit import case_report

    seen: dict[tuple[str, str], set[str]] = {}
    for entry in entries():
        if entry.get("batch") != "s4" or entry["kind"] != "shape":
            continue
        case = cases[entry["domain"]][entry["id"]]
        report = case_report(case, edited(case.answer, entry))
        assert (report.decision == "serve") is (entry["truth"] == "honest"), (
            entry["append"], report.decision, report.not_checked)
        seen.setdefault((_shape_form(entry["append"]), entry["truth"]), set()).add(
            entry["domain"])
    lies = {form for (form, truth), domains in seen.items() if truth == "lie" and len(domains) >= 2}
    assert lies == set(SHAPES), seen
    honest = {form for (form, truth), domains in seen.items() if truth == "honest"}
    assert honest == set(SHAPES), seen


def test_a_cause_no_claim_carries_is_never_served_clean(cases) -> None:
    """A cause the prose names that no causal claim or tree edge carries ('driven by the spring
    campaign', 'thanks to the new onboarding flow', 'on the back of summer travel'), on the
    three domains: quoted back as not checked, never clean."""
    from showwork.benchmarks.audit import case_report

    domains = set()
    for entry in entries():
        if entry.get("batch") != "s4" or entry["kind"] != "cause":
            continue
        case = cases[entry["domain"]][entry["id"]]
        report = case_report(case, edited(case.answer, entry))
        assert report.decision != "serve" and report.not_checked, entry["append"]
        domains.add(entry["domain"])
    assert domains == {"demo", "shop", "flights"}
