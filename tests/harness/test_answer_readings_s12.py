"""What the lead's held-out answer edits of session 12 (data/answer_words_lead_s12.yaml) showed
missing, each case generated from the rules analyst's own clean answers:

- a frequency word after a verb of motion ('dipped twice, in February and in May') crashed
  the audit (times.py took 'twice' for a multiplier and asserted a word after it);
- a month written without its year in prose about a series that crosses a year's end
  ('slipped back in January' of November 2018 to February 2019) was read in another year and
  withheld as a window no claim cites;
- 'at the close of Q1 2019' of a snapshot cited for March 2019, 'by the close of the first
  quarter' of a running total, were windows no claim cites;
- 'which may or may not explain it': the modal verb was read as the month of May;
- the whole a cited share is of ('around 3,750 flights went to BOS' of JetBlue's 1,025, 27.3 %
  of them) was withheld; it is derived now (harness/audit/derivable.py) and served with caveats.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from answer_words import appended, clean_cases

from showwork.harness.audit.labels import names_said_window
from showwork.protocol.reading import Period, PeriodMention


def _case(request, fixture: str, domain: str, qid: str):
    return clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]


def _codes(report) -> set[str]:
    return {d.code for d in report.defects} | {f.code for f in report.findings}


SERIES = [("flights", "flights_layer", "series-006"), ("shop", "shop_layer", "series-004"),
          ("demo", "layer", "series-001")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), SERIES)
def test_a_frequency_word_after_a_move_is_audited_not_a_crash(request, domain, fixture, qid):
    """'twice' ending a clause is how often, not a multiplier of a member named after it. Since
    session 13 the count is read (rowmoves.py `read_counted_moves`): served clean only where
    the cited series fell exactly twice from one row to the next, never with words no check
    reads ('early and late')."""
    case = _case(request, fixture, domain, qid)
    values = [float(v["value"]) for v in case.answer["values"]]
    falls = sum(b < a for a, b in zip(values, values[1:], strict=False))
    report = appended(case, "It dipped twice, early and late.")  # raised in times._direct
    assert report.decision != "serve"
    report = appended(case, "It dipped twice.")
    assert (report.decision == "serve") == (falls == 2), (falls, report.decision)


def test_a_month_without_its_year_names_the_one_cited_month_of_that_name():
    """Of windows that cross a year's end, 'January' read in another year names the cited
    January when exactly one year of the cited windows has one; two Januaries cited, neither."""
    months = [(dt.date(2018, 11, 1), dt.date(2018, 11, 30)), (dt.date(2018, 12, 1), dt.date(2018, 12, 31)),
              (dt.date(2019, 1, 1), dt.date(2019, 1, 31)), (dt.date(2019, 2, 1), dt.date(2019, 2, 28))]
    january = PeriodMention(Period(dt.date(2018, 1, 1), dt.date(2018, 1, 31), "month"), "January",
                            (0, 7))
    assert names_said_window(january, months)
    written = PeriodMention(january.period, "January 2018", (0, 12))
    assert not names_said_window(written, months)  # its year written: it is that year's
    march = PeriodMention(Period(dt.date(2018, 3, 1), dt.date(2018, 3, 31), "month"), "March", (0, 5))
    assert not names_said_window(march, months)
    two = months + [(dt.date(2020, 1, 1), dt.date(2020, 1, 31))]
    assert not names_said_window(january, two)


def test_a_month_without_its_year_across_a_years_end(request):
    case = _case(request, "shop_layer", "shop", "series-006")  # November 2018 to February 2019
    honest = "Order value slipped back in January after December's peak."
    lie = "Order value climbed further in January after December's peak."
    assert "mislabelled_window" not in _codes(appended(case, honest)), honest
    assert appended(case, honest).decision != "withhold", honest
    assert appended(case, lie).decision != "serve", lie


ENDS = [("shop", "shop_layer", "lookup-012", "That is the count at the close of Q1 2019.",
         "That is the count at the close of Q2 2019."),
        ("flights", "flights_layer", "cumulative-002",
         "JetBlue had cancelled 181 flights by the close of the first quarter.",
         "JetBlue had cancelled 181 flights by the close of the second quarter.")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), ENDS)
def test_the_close_of_a_period_is_where_a_cited_window_ends(request, domain, fixture, qid,
                                                            honest, lie):
    case = _case(request, fixture, domain, qid)
    assert "mislabelled_window" not in _codes(appended(case, honest)), honest
    assert appended(case, lie).decision == "withhold", lie


MODAL = [("flights", "flights_layer", "level-006"), ("shop", "shop_layer", "lookup-015"),
         ("demo", "layer", "series-001")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), MODAL)
def test_may_in_lower_case_is_a_verb_not_a_month(request, domain, fixture, qid):
    case = _case(request, fixture, domain, qid)
    report = appended(case, "Part of that may not last.")
    assert "mislabelled_window" not in _codes(report)
    report = appended(case, "Part of that came in May 1999.")
    assert "mislabelled_window" in _codes(report)  # the month, capitalised, is still read


SHARES = [("flights", "flights_layer", "share-004"), ("flights", "flights_layer", "share-005")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), SHARES)
def test_the_whole_a_cited_share_is_of(request, domain, fixture, qid):
    """'Airline JetBlue Airways had 27.3 % of flights … : 1,025 of them': the whole is about
    3,751; a number no derivation gives is withheld as before."""
    case = _case(request, fixture, domain, qid)
    m = re.search(r"had (?P<pct>[0-9.]+) % of .*: (?P<part>[0-9,]+) of them", case.answer["answer"])
    assert m is not None, case.answer["answer"]
    whole = float(m["part"].replace(",", "")) / float(case.answer["value"])
    honest = f"Around {whole:,.0f} flights made up the whole."
    lie = f"Around {whole * 1.3 + 50:,.0f} flights made up the whole."
    report = appended(case, honest)
    assert report.decision == "serve_with_caveats", (honest, report.not_checked)
    assert f"{whole:,.0f}" in " ".join(report.not_checked)  # derived, not read: shown unchecked
    assert appended(case, lie).decision == "withhold", lie


QUARTERS = [("flights", "flights_layer", "level-009"), ("shop", "shop_layer", "lookup-018")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), QUARTERS)
def test_a_quarter_written_as_a_dashed_month_range(request, domain, fixture, qid):
    """'in April–June' of a value cited for Q2: the dash's second month was not read, so
    'April' alone was a window no claim cites."""
    case = _case(request, fixture, domain, qid)
    assert "Q2" in case.answer["answer"], case.answer["answer"]
    honest, lie = "That covers April–June.", "That covers January–March."
    assert "mislabelled_window" not in _codes(appended(case, honest)), honest
    assert appended(case, honest).decision != "withhold", honest
    assert appended(case, lie).decision == "withhold", lie
