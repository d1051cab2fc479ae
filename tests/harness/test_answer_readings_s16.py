"""What session 16's held-out edits (tests/harness/data/held_out_s16.yaml) found in the answer's
words, each reading tested with a lie and an honest rewrite on two domains or more, on the rules
analyst's clean answers (the bundled questions, the mf tutorial's and ACME's).

- A member that is a number (a policy or claim number, a departure hour) written as a label: in
  a list right before its row's value ('31003000336 5,086,000; 31003000337 612,000'), with a
  possessive ('12312702's'), or after its dimension's words and a comma ('By company claim
  number, 12312701 had …'): read as the member, so the pairing of a key and its value, a
  superlative and a ratio between two labelled rows are held to the rows.
- 'double', 'triple' before a member's value ('was double 12312701's'), and a part of another
  member's value ('about half of 12312702's'): held to the ratio of the two rows.
- A part of the whole is cut where a fifth or a tenth is nearer ('about a quarter' of 19.9 %).
- A gap after a comma ('Android narrowly led iOS, by 127 users'), counted in the metric's own
  noun ('users' of active users), or with the metric's words before 'than' ('took 9 longer to
  settle than claim 12312701').
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from answer_words import clean_cases

from showwork.benchmarks.audit import Case, case_report, cases_of, rules_traces
from showwork.harness.experiments.attempt import Question


def _with(case: Case, prose: str) -> Any:
    return case_report(case, {**case.answer, "answer": prose})


def _appended(case: Case, sentence: str) -> Any:
    return _with(case, f"{case.answer['answer']} {sentence}")


def _codes(report: Any) -> set[str]:
    return {d.code for d in report.defects} | {f.code for f in report.findings}


def _held(request: Any, fixture: str, domain: str, qid: str, honest: str, lie: str,
          code: str | None = None) -> None:
    """The question's clean answer with `honest` appended is served clean; with `lie`, it is
    withheld (with `code` among its defects and findings)."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    report = _appended(case, honest)
    assert report.decision == "serve", (honest, report.not_checked)
    report = _appended(case, lie)
    assert report.decision == "withhold", lie
    assert code is None or code in _codes(report), (lie, _codes(report))


def _asked(layer: Any, text: str) -> Case:
    """The rules analyst's clean answer to a question of no bundled file."""
    cases = cases_of(rules_traces(layer, [Question("q", text)]))
    assert cases, text
    return cases[0]


_HOURS = "Which departure hour had the highest average departure delay in 2013?"
_LISTED = re.compile(r"first: (?P<a>\S+) (?P<va>[^;]+); (?P<b>\S+) (?P<vb>[^;)]+)[;)]")


@pytest.mark.parametrize(("domain", "fixture", "qid", "text"), [
    ("acme", "acme_layer", "acme-032", None), ("acme", "acme_layer", "acme-033", None),
    ("flights", "flights_layer", None, _HOURS)])
def test_a_number_member_listed_with_its_value(request, domain: str, fixture: str,
                                               qid: str | None, text: str | None) -> None:
    """The ranking's list with two numbered members' values swapped is mislabelled_member
    (withheld); the list as it was is served clean."""
    layer = request.getfixturevalue(fixture)
    case = clean_cases(layer, domain, {qid})[qid] if qid else _asked(layer, text or "")
    prose = case.answer["answer"]
    found = _LISTED.search(prose)
    assert found is not None and found["a"][0].isdigit(), prose
    assert _with(case, prose).decision == "serve"
    swapped = (f"first: {found['a']} {found['vb']}; {found['b']} {found['va']}"
               f"{found.group(0)[-1]}")
    report = _with(case, prose.replace(found.group(0), swapped))
    assert report.decision == "withhold", swapped
    assert "mislabelled_member" in _codes(report)


@pytest.mark.parametrize(("domain", "fixture", "qid", "text"), [
    ("acme", "acme_layer", "acme-033", None), ("acme", "acme_layer", "acme-037", None),
    ("flights", "flights_layer", None, _HOURS)])
def test_a_superlative_of_a_numbered_member(request, domain: str, fixture: str,
                                            qid: str | None, text: str | None) -> None:
    """'By company claim number, 12312701 had the highest …' (or 'By scheduled departure
    hour, 20 had the highest …') of the member ranked second is mislabelled_member."""
    layer = request.getfixturevalue(fixture)
    case = clean_cases(layer, domain, {qid})[qid] if qid else _asked(layer, text or "")
    prose = case.answer["answer"]
    found = _LISTED.search(prose)
    assert found is not None, prose
    first, second = found["a"], found["b"]
    said = re.compile(rf", {first} had the (?:highest|lowest)")
    assert said.search(prose), prose
    lie = said.sub(lambda m: m.group(0).replace(first, second), prose, count=1)
    report = _with(case, lie)
    assert report.decision == "withhold", lie
    assert "mislabelled_member" in _codes(report)


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("acme", "acme_layer", "acme-034", "12312702's Loss Amount was double 12312701's.",
     "12312702's Loss Amount was triple 12312701's."),
    ("acme", "acme_layer", "acme-037", "12312701's reserve was about half of 12312702's.",
     "12312701's reserve was about a quarter of 12312702's."),
    ("demo", "layer", "breakdown-001", "Android's active users were double web's.",
     "Android's active users were triple web's."),
    ("demo", "layer", "breakdown-001", "Web's active users were about half of android's.",
     "Web's active users were about a third of android's."),
    ("shop", "shop_layer", "breakdown-002",
     "New York 5th Ave's orders were about three quarters of Brooklyn's.",
     "New York 5th Ave's orders were about half of Brooklyn's.")])
def test_double_and_a_part_of_another_members_value(request, domain: str, fixture: str,
                                                    qid: str, honest: str, lie: str) -> None:
    """A ratio between two cited members written 'double X's' or 'half of X's' is held to
    their rows: the one they bear out is not withheld, the other is (unsupported_number)."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    assert _appended(case, honest).decision != "withhold", honest
    report = _appended(case, lie)
    assert report.decision == "withhold", lie
    assert "unsupported_number" in _codes(report)


@pytest.mark.parametrize(("domain", "fixture", "qid"), [
    ("mf_tutorial", "tutorial_layer", "s6t-009"), ("flights", "flights_layer", "share-005")])
def test_a_part_of_the_whole_is_cut_at_a_fifth(request, domain: str, fixture: str,
                                               qid: str) -> None:
    """A share nearer 20 % than 25 % (19.9 %, 22.0 %) is 'about a fifth', never 'about a
    quarter': a fifth is one of the parts people say most (COMMON_PARTS)."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    prose = case.answer["answer"]
    share = re.search(r"had (\d+(?:\.\d+)?) % of", prose)
    assert share is not None, prose
    assert abs(float(share.group(1)) - 20) < abs(float(share.group(1)) - 25), prose
    honest = prose.replace(share.group(0), "had about a fifth of")
    assert _with(case, honest).decision == "serve", honest
    lie = prose.replace(share.group(0), "had about a quarter of")
    report = _with(case, lie)
    assert report.decision == "withhold", lie
    assert "unsupported_number" in _codes(report)


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("demo", "layer", "breakdown-001", "Android narrowly led iOS, by 127 users.",
     "Android narrowly led iOS, by 172 users."),
    ("mf_tutorial", "tutorial_layer", "tut-023", "CA led FR, by 4 transactions.",
     "CA led FR, by 5 transactions."),
    ("acme", "acme_layer", "acme-016",
     "Claim 12312702 took 9 longer to settle than claim 12312701.",
     "Claim 12312702 took 10 longer to settle than claim 12312701."),
    ("shop", "shop_layer", "breakdown-002", "Brooklyn took 63 more orders than New York 5th Ave.",
     "Brooklyn took 70 more orders than New York 5th Ave.")])
def test_a_gap_after_a_comma_in_the_metrics_own_words(request, domain: str, fixture: str,
                                                      qid: str, honest: str, lie: str) -> None:
    """A gap between two members held to their rows when a comma stands before 'by', the count
    is written in the metric's own noun, or the metric's words stand before 'than': served
    clean when the rows bear it out, withheld when they do not."""
    _held(request, fixture, domain, qid, honest, lie, "unsupported_number")


_SELECTOR = re.compile(r"\[(?P<dim>[\w]+)=(?P<member>[^\]]+)\]")


@pytest.mark.parametrize(("domain", "fixture", "qid"), [
    ("demo", "layer", "diag-003"), ("shop", "shop_layer", "diag-001"),
    ("flights", "flights_layer", "diag-001")])
def test_a_claims_number_said_of_another_cited_member(request, domain: str, fixture: str,
                                                      qid: str) -> None:
    """An attribution's claim ('Active users for platform ios rose 2.58 % (5,697 → 5,844)')
    cites its member's row and the other members' to weigh it: the same numbers said of another
    cited member ('for platform web') are that member's no longer (mislabelled_member,
    withheld); as written, served clean."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    claims = case.answer["claims"]
    i, claim = next((i, c) for i, c in enumerate(claims)
                    if "its share of the change" in c["text"])
    own = _SELECTOR.search(claim["sources"][0])
    assert own is not None, claim
    others = {m["member"].strip('"') for s in claim["sources"] if (m := _SELECTOR.search(s))
              and m["dim"] == own["dim"]} - {own["member"].strip('"'), ""}
    said = own["member"].strip('"')
    assert others and f" {said} " in claim["text"], claim
    assert case_report(case, case.answer).decision == "serve"
    other = sorted(others)[0]
    lie = {**claim, "text": claim["text"].replace(f" {said} ", f" {other} ", 1)}
    report = case_report(case, {**case.answer, "claims": [*claims[:i], lie, *claims[i + 1:]]})
    assert report.decision == "withhold", lie["text"]
    assert "mislabelled_member" in _codes(report)


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("demo", "layer", "series-001",
     "Over the eight weeks active users rose by 833, about 5.8 %.",
     "Over the eight weeks active users rose by 833, about 8.5 %."),
    ("shop", "shop_layer", "series-002", "Over the three months orders rose by 435, about 16.6 %.",
     "Over the three months orders rose by 435, about 61.6 %."),
    ("flights", "flights_layer", "series-006",
     "Over the six months flights rose 7.3 %, or about 340.",
     "Over the six months flights rose 7.3 %, or about 380.")])
def test_a_moves_size_said_again_in_the_other_measure(request, domain: str, fixture: str,
                                                      qid: str, honest: str, lie: str) -> None:
    """A move's size followed, after a comma, by the same size in the other measure (a percent
    after a difference, a difference after a percent) is held to the same two rows: served
    clean when they bear both out, withheld when they contradict the second."""
    _held(request, fixture, domain, qid, honest, lie, "unsupported_number")


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("shop", "shop_layer", "breakdown-002", "No store other than Online reached 300 orders.",
     "No store other than Online reached 200 orders."),
    ("mf_tutorial", "tutorial_layer", "tut-023", "No country reached 16 transactions.",
     "No country reached 15 transactions.")])
def test_reaching_a_mark_is_at_least_it(request, domain: str, fixture: str, qid: str,
                                        honest: str, lie: str) -> None:
    """'reached N' states N or more, as 'at least' does: a quantifier over the cited rows
    with it is held to every row (a row that reaches it, under 'no', withholds)."""
    _held(request, fixture, domain, qid, honest, lie, "unsupported_number")


@pytest.mark.parametrize(("domain", "fixture", "qid", "sentence"), [
    ("shop", "shop_layer", "breakdown-002", "No physical store reached 300 orders."),
    ("mf_tutorial", "tutorial_layer", "tut-023", "No European country reached 12 transactions.")])
def test_a_bound_over_rows_a_word_picks_is_unproven(request, domain: str, fixture: str,
                                                    qid: str, sentence: str) -> None:
    """'No physical store reached 300 orders': which rows 'physical' picks no reading knows,
    so the bound is unproven while some row meets it: served with the words quoted, never
    withheld, never clean."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    report = _appended(case, sentence)
    assert report.decision == "serve_with_caveats", sentence
    assert "unread_answer" in _codes(report)


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("flights", "flights_layer", "breakdown-006",
     "Two airlines, Hawaiian and Alaska, arrived early on average.",
     "Three airlines, Hawaiian and Alaska, arrived early on average."),
    ("shop", "shop_layer", "breakdown-002",
     "Two stores, Brooklyn and Philadelphia, took fewer than 300 orders each.",
     "Three stores, Brooklyn and Philadelphia, took fewer than 300 orders each.")])
def test_a_count_of_the_members_it_names(request, domain: str, fixture: str, qid: str,
                                         honest: str, lie: str) -> None:
    """A count with its members listed right after it ('Two airlines, Hawaiian and Alaska,')
    counts those, not every cited row: the count the list bears out is not withheld (what is
    said of them may stay unread), another is."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    report = _appended(case, honest)
    assert report.decision != "withhold", honest
    assert "unsupported_number" not in _codes(report)
    report = _appended(case, lie)
    assert report.decision == "withhold", lie
    assert "unsupported_number" in _codes(report)


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("mf_tutorial", "tutorial_layer", "tut-023",
     "CA had the most transactions, narrowly ahead of the US.",
     "US had the most transactions, narrowly ahead of CA."),
    ("shop", "shop_layer", "breakdown-002", "Online had the most orders, ahead of Brooklyn.",
     "Brooklyn had the most orders, ahead of Online.")])
def test_a_superlatives_member_is_not_its_comparand(request, domain: str, fixture: str,
                                                    qid: str, honest: str, lie: str) -> None:
    """'CA had the most transactions, narrowly ahead of the US': the member after 'ahead of'
    is what the first is measured against, not the one ranked first (served clean); the
    superlative said of the second is mislabelled_member (withheld)."""
    _held(request, fixture, domain, qid, honest, lie, "mislabelled_member")


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("shop", "shop_layer", "compare-004", "That was 19 fewer orders.", "That was 19 more orders."),
    ("demo", "layer", "compare-002", "That is 1,230 more active users than the week before.",
     "That is 1,230 fewer active users than the week before."),
    ("flights", "flights_layer", "change-001", "That is 446 more cancellations than in May.",
     "That is 446 fewer cancellations than in May.")])
def test_a_changes_direction_after_its_number(request, domain: str, fixture: str, qid: str,
                                              honest: str, lie: str) -> None:
    """'19 fewer orders', '1,230 more active users': the word after the number gives the
    change its direction, held with the number to the cited delta (served clean), and the
    other direction is withheld."""
    _held(request, fixture, domain, qid, honest, lie)


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("mf_tutorial", "tutorial_layer", "s6t-019",
     "CA had twice as many Quick Buy Transactions as each other country.",
     "CA had three times as many Quick Buy Transactions as each other country."),
    ("shop", "shop_layer", "breakdown-002",
     "Online took more than seven times as many orders as each other store.",
     "Online took more than ten times as many orders as each other store."),
    ("demo", "layer", "ranking-001",
     "paid_search had more than nine times as many new users as each other channel.",
     "paid_search had more than eleven times as many new users as each other channel.")])
def test_a_multiple_of_each_other_member(request, domain: str, fixture: str, qid: str,
                                         honest: str, lie: str) -> None:
    """'N times as many … as each other country' is held to the ratio of the member to every
    other row of its cited breakdown (a bound's side alone: 'more than seven times'): served
    clean when every ratio bears it out, withheld when one does not."""
    _held(request, fixture, domain, qid, honest, lie, "unsupported_number")


@pytest.mark.parametrize(("domain", "fixture", "qid", "honest", "lie"), [
    ("flights", "flights_layer", "ranking-002", "ATL was second, 68 flights behind.",
     "ATL was second, 86 flights behind."),
    ("shop", "shop_layer", "breakdown-002", "New York 5th Ave was third, 63 orders behind.",
     "New York 5th Ave was third, 36 orders behind.")])
def test_a_gap_to_the_member_ranked_next(request, domain: str, fixture: str, qid: str,
                                         honest: str, lie: str) -> None:
    """'ATL was second, 68 flights behind' names no second member: the gap is to the member
    ranked right before it (after it, for 'ahead'), where the cited breakdown puts it in that
    place; served clean when the rows bear it out, withheld when not."""
    _held(request, fixture, domain, qid, honest, lie, "unsupported_number")
