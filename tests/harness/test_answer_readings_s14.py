"""What session 14's held-out edits (tests/harness/data/held_out_s14.yaml) found served clean in
the answer's words, each case generated from the rules analyst's clean answers on two domains.

- 'Monthly recurring revenue was $61,014.03 on 1 May 2026', 'Customer base was 4,716 on 1 March
  2019': the value is the month's last day's (an end-of-period metric), yet a day that starts a
  cited window named the window, as a series' rows are labelled by their first day. A day
  written out names that day: it names a cited window it ends (a snapshot's value on it), and
  a window's first day only written as the result labels its rows ('2019-05-01').
  (Two metrics' changes compared, the other kind served clean: tests/harness/test_speeds.py.)
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from answer_words import clean_cases

from showwork.benchmarks.audit import case_report

MONTHS = [("demo", "layer", "lookup-006"), ("demo", "layer", "lookup-007"),
          ("shop", "shop_layer", "lookup-012"), ("shop", "shop_layer", "lookup-002"),
          ("flights", "flights_layer", "level-001")]
"""Lookups over one whole month: end-of-month snapshots (the demo's MRR and paid subscribers,
the shop's customer base) and sums over the month (orders, flights)."""
_MONTH = re.compile(r"(?:in|at the end of) ((?:January|February|March|April|May|June|July|August|"
                    r"September|October|November|December) (\d{4}))")


def _days(month: str) -> tuple[dt.date, dt.date]:
    first = dt.datetime.strptime(month, "%B %Y").date()
    after = dt.date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return first, after - dt.timedelta(days=1)


@pytest.mark.parametrize(("domain", "fixture", "qid"), MONTHS)
def test_a_day_written_out_names_that_day(request, domain: str, fixture: str, qid: str) -> None:
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    prose = case.answer["answer"]
    said = _MONTH.search(prose)
    assert said is not None, prose
    first, last = _days(said.group(1))
    point_in_time = "at the end of" in said.group(0)

    def restated(day: str, word: str = "on") -> str:
        return prose[:said.start()] + f"{word} {day}" + prose[said.end():]

    assert case_report(case, case.answer).decision == "serve"
    for written, word in ((f"{first.day} {first:%B %Y}", "on"),
                          (f"{first:%B} {first.day}, {first.year}", "on"),
                          (f"{first.day} {first:%B %Y}", "as of")):
        lie = case_report(case, case.answer | {"answer": restated(written, word)})
        assert lie.decision == "withhold", (written, lie.findings)
        assert any(f.code == "mislabelled_window" for f in lie.findings), written
    if point_in_time:  # the snapshot's own day, written out: true
        honest = case_report(case, case.answer | {"answer": restated(f"{last.day} {last:%B %Y}")})
        assert honest.decision == "serve", honest.findings


CURRENCY = [("demo", "layer"), ("shop", "shop_layer")]


@pytest.mark.parametrize(("domain", "fixture"), CURRENCY)
def test_a_currency_code_on_its_sign_is_no_member(request, domain: str, fixture: str) -> None:
    """'Revenue came to US$59,224.50' was withheld: 'US' was read as the country member US,
    which the cited result is not filtered to. Letters written onto a currency sign are the
    currency's: every clean answer with a dollar amount keeps its decision with 'US$' for '$'
    (and a changed amount is still withheld)."""
    cases = clean_cases(request.getfixturevalue(fixture), domain)
    tried = 0
    for qid, case in cases.items():
        prose = case.answer["answer"]
        if "$" not in prose or case_report(case, case.answer).decision != "serve":
            continue
        written = case_report(case, case.answer | {"answer": prose.replace("$", "US$")})
        assert written.decision == "serve", (qid, written.findings)
        tried += 1
    assert tried >= 1


def test_a_duration_in_two_units(flights_layer) -> None:
    """'10 h 17 min' of a cited 617.4 min was withheld: '17' was read as a number of its own.
    A duration written in two units of time, the second smaller, is one number in the smaller
    ('10 hours and 17 minutes' is 617 ± 0.5 min); a wrong one is still withheld. Every clean
    flights answer that states a duration of an hour or more."""
    tried = 0
    for qid, case in clean_cases(flights_layer, "flights").items():
        said = re.search(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?) min\b", case.answer["answer"])
        if said is None or case_report(case, case.answer).decision != "serve":
            continue
        minutes = float(said.group(1).replace(",", ""))
        if minutes < 61 or minutes >= 6000:
            continue
        hours, rest = divmod(round(minutes), 60)
        for honest in (f"{hours} h {rest} min", f"{hours} hours and {rest} minutes"):
            prose = case.answer["answer"].replace(said.group(0), honest, 1)
            report = case_report(case, case.answer | {"answer": prose})
            assert report.decision != "withhold", (qid, honest, report.findings)
        lie = f"{hours} h {(rest + 25) % 60} min"
        prose = case.answer["answer"].replace(said.group(0), lie, 1)
        assert case_report(case, case.answer | {"answer": prose}).decision == "withhold", lie
        tried += 1
    assert tried >= 1


def test_a_duration_in_two_units_converts_to_any_governed_unit() -> None:
    from showwork.protocol.numbers import in_time_unit, read_numbers

    text = "averaged 2 h 5 min; the other was 1 hour and 30 minutes"
    assert [n.value for n in in_time_unit(text, read_numbers(text), "minutes")] == [125, 90]
    assert [n.value for n in in_time_unit(text, read_numbers(text), "seconds")] == [7500, 5400]


SERIES = [("demo", "layer", "series-001"), ("shop", "shop_layer", "series-006"),
          ("flights", "flights_layer", "series-006"), ("flights", "flights_layer", "series-001")]
_LISTED = re.compile(r"(?P<period>\d{4}-\d\d-\d\d) (?P<value>\$?[\d,]+(?:\.\d+)?)(?=[;.]\s|[;.]?$)")


@pytest.mark.parametrize(("domain", "fixture", "qid"), SERIES)
def test_a_series_number_is_its_period_s(request, domain: str, fixture: str, qid: str) -> None:
    """'2026-05-04 14,777; 2026-05-11 14,597' (the two weeks' values swapped) was served clean:
    each number was held to some cited value of the metric, not to the row of the period the
    list writes before it. Every two neighbours of each series' list swapped: withheld
    (`mislabelled_window`); the list as written: served."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    prose = case.answer["answer"]
    listed = list(_LISTED.finditer(prose))
    assert len(listed) >= 3, prose
    assert case_report(case, case.answer).decision == "serve"
    for a, b in zip(listed, listed[1:], strict=False):
        if a["value"] == b["value"]:
            continue
        swapped = (prose[:a.start("value")] + b["value"] + prose[a.end("value"):b.start("value")]
                   + a["value"] + prose[b.end("value"):])
        report = case_report(case, case.answer | {"answer": swapped})
        assert report.decision == "withhold", (a["period"], b["period"])
        assert any(f.code == "mislabelled_window" for f in report.findings)


DIAGNOSES = [("demo", "layer", "diag-001"), ("demo", "layer", "diag-005"),
             ("shop", "shop_layer", "diag-001"), ("flights", "flights_layer", "diag-006")]
_MIX = re.compile(r"(?:shifted (?:toward|away from)|moved within|most of all for) "
                  r"(?:[a-z][a-z ]*? )??(?P<member>\S+?)(?= \(|[,;.]|$)")


@pytest.mark.parametrize(("domain", "fixture", "qid"), DIAGNOSES)
def test_a_mix_conclusion_names_its_member(request, domain: str, fixture: str,
                                           qid: str) -> None:
    """'The store mix shifted toward Brooklyn (a mix effect)' in a conclusion whose premises cite
    Online's change was served clean: the member a move was mostly of was held to the cited
    changes in the prose only. Each claim text of the diagnosis naming such a member, with each
    other member of that dimension in its place: never served clean."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    dims = case.catalog["dimensions"]
    tried = 0
    for i, claim in enumerate(case.answer["claims"]):
        for said in _MIX.finditer(claim.get("text") or ""):
            members = next((d["members"] for d in dims.values()
                            if said["member"] in (d.get("members") or [])), [])
            for other in [m for m in members if m != said["member"] and " " not in m][:4]:
                answer = {**case.answer, "claims": [
                    {**c, "text": c["text"][:said.start("member")] + other
                     + c["text"][said.end("member"):]} if j == i else c
                    for j, c in enumerate(case.answer["claims"])]}
                report = case_report(case, answer)
                assert report.decision != "serve", (claim["text"], other)
                tried += 1
    assert tried >= 1


RANKINGS = [("shop", "shop_layer", "ranking-003"), ("shop", "shop_layer", "ranking-005"),
            ("flights", "flights_layer", "ranking-001"), ("demo", "layer", "ranking-001")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), RANKINGS)
def test_a_second_superlative_in_a_clause(request, domain: str, fixture: str, qid: str) -> None:
    """'By store, Online had the highest revenue in July 2019, and O'Hare Airport the lowest'
    was served clean: with two members in the clause neither superlative was held. Each is said
    of the members after the one before it: the ranking's conclusion with ', and X the lowest'
    added, for every listed member X, is served clean only for the cited lowest (never withheld
    or mislabelled for it)."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    conclusion = next((i for i, c in enumerate(case.answer["claims"])
                       if c.get("kind") == "conclusion"), None)
    if conclusion is None:
        pytest.skip("no conclusion claim")
    rows = {str(v["key"]): v["value"] for v in case.answer.get("values") or []
            if isinstance(v.get("key"), str) and isinstance(v.get("value"), (int, float))}
    if len(rows) < 3:
        pytest.skip("no breakdown listed")
    lowest = min(rows, key=lambda m: rows[m])
    text = case.answer["claims"][conclusion]["text"]
    for member in rows:
        claims = [dict(c) for c in case.answer["claims"]]
        claims[conclusion]["text"] = f"{text}, and {member} the lowest"
        report = case_report(case, case.answer | {"claims": claims})
        if member == lowest:  # a member word no reading takes alone stays a caveat
            assert report.decision != "withhold", (member, report.findings)
            assert not [f for f in report.findings if f.code == "mislabelled_member"], member
        else:
            assert report.decision != "serve", member
