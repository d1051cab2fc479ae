"""What session 13's adversary pass found weak in the answer's readings, each case generated
from the rules analyst's own clean answers on two domains:

- a move named by two periods joined by a word ('climbed further in January after December's
  peak', 'rose in May compared with February') was read by no check: the lie was served with
  a caveat, not withheld. It is the move from the earlier row to the later of one cited series
  (harness/audit/rowmoves.py) — with 'after' or 'following', only of adjacent rows (the step
  it names) — a month written without its year naming the one cited month of that name when
  the series crosses a year's end;
- 'Only December topped $25': 'only' over a series' periods was not read (withheld);
- 'dipped twice, in February and in May': a count of a series' moves was read as a multiplier
  (withheld); 'never dipped twice' then read as the count (served clean) — a denial leaves it
  unread;
- 'Flights never fell in February' of a fall was served clean (the negation was not read);
- 'roughly a third of a million' was read as 'a million' and the third row;
- 'March was the low point', 'hit their high in January': a series' extreme in words no check
  read (a lie served with caveats), and 'was highest in January' across a year's end looked
  January up in the reader's year;
- 'Philadelphia finished second to last' (true) was withheld as 'second', 'came in last' and
  'brought up the rear' read by no check (a lie served with caveats);
- 'Brooklyn edged out the 5th Ave store' (the other way round), 'narrowly beat': read by no
  check (served with caveats); a narrow margin is held to a 10 % band (docs/citations.md);
- 'Revenue was essentially unchanged in May' of a cited -5.7 % was served clean: only a
  claim's text was held to the flat band, not the prose's.
"""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from answer_words import appended, clean_cases

MONTHLY = [("flights", "flights_layer", "series-001"), ("flights", "flights_layer", "series-006"),
           ("shop", "shop_layer", "series-002"), ("shop", "shop_layer", "series-006")]
"""Series by month; shop series-006 runs from November 2018 to February 2019."""
JOINS = ("{verb} in {later} after {earlier}", "{verb} in {later} compared with {earlier}",
         "{verb} in {later}, following {earlier}")


def _case(request, fixture: str, domain: str, qid: str):
    return clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]


def _months(case) -> list[tuple[dt.date, float]]:
    return [(dt.date.fromisoformat(str(v["key"])[:10]), float(v["value"]))
            for v in case.answer["values"]]


@pytest.mark.parametrize(("domain", "fixture", "qid"), MONTHLY)
def test_a_move_named_by_two_adjacent_months(request, domain, fixture, qid):
    """Each adjacent pair of the series' months, the later named first and the month's name
    without its year: the verb the rows bear out is never withheld, the other always is."""
    case = _case(request, fixture, domain, qid)
    months = _months(case)
    assert len(months) >= 3
    for (a, before), (b, after) in itertools.pairwise(months):
        if after == before:
            continue
        went, other = ("rose", "fell") if after > before else ("fell", "rose")
        for join in JOINS:
            honest = "It " + join.format(verb=went, later=f"{b:%B}", earlier=f"{a:%B}") + "."
            lie = "It " + join.format(verb=other, later=f"{b:%B}", earlier=f"{a:%B}") + "."
            assert appended(case, honest).decision != "withhold", honest
            assert appended(case, lie).decision == "withhold", lie


@pytest.mark.parametrize(("domain", "fixture", "qid"), MONTHLY[1:3])
def test_after_two_months_that_are_not_adjacent_is_no_move(request, domain, fixture, qid):
    """'rose in March after January' speaks of no one step the rows hold: no move is read
    (the verb is left to the other readings, never held to a step it does not name), while
    'compared with' holds the two rows it names."""
    case = _case(request, fixture, domain, qid)
    months = _months(case)
    (a, before), (c, after) = months[0], months[2]
    went, other = ("rose", "fell") if after > before else ("fell", "rose")
    for verb in (went, other):
        report = appended(case, f"It {verb} in {c:%B} after {a:%B}.")
        assert not any(f.code == "direction_mismatch" and "the cited rows are" in f.message
                       for f in report.findings), report.findings
    compared = appended(case, f"It {other} in {c:%B} compared with {a:%B}.")
    assert compared.decision == "withhold", compared.findings
    assert appended(case, f"It {went} in {c:%B} compared with {a:%B}.").decision != "withhold"


def _money(case, value: float) -> str:
    return f"${value:,.2f}" if "$" in case.answer["answer"] else f"{value:,.0f}"


@pytest.mark.parametrize(("domain", "fixture", "qid"), MONTHLY)
def test_only_a_period_of_a_series_meets_a_bound(request, domain, fixture, qid):
    """'Only December topped $25' of a monthly series was withheld (the quantifier over a
    series' periods was not read, and $25 is no cited value): the month named is held to the
    bound and every other row to its opposite. The highest month alone above a bound between
    it and the next is true, the next month named instead is false; the same of the lowest
    with 'fell below'."""
    case = _case(request, fixture, domain, qid)
    months = sorted(_months(case), key=lambda r: r[1])
    (low, a), (second_low, b), (second_high, y), (high, z) = months[0], months[1], months[-2], \
        months[-1]
    assert a < b and y < z, months
    above = _money(case, (y + z) / 2)
    below = _money(case, (a + b) / 2)
    for sentence in (f"Only {high:%B} topped {above}.", f"Only {low:%B} fell below {below}."):
        assert appended(case, sentence).decision == "serve", sentence
    for sentence in (f"Only {second_high:%B} topped {above}.",
                     f"Only {second_low:%B} fell below {below}."):
        assert appended(case, sentence).decision == "withhold", sentence


_TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times", 5: "five times"}


@pytest.mark.parametrize(("domain", "fixture", "qid"), MONTHLY)
def test_a_count_of_a_series_moves(request, domain, fixture, qid):
    """'Flights dipped twice, in February and in May' was withheld ('twice' read as a multiplier
    no claim cites): a count after a verb of motion is how many steps between the series'
    cited rows went that way, and the months named after it the rows those steps end on. The
    true count (with its months) is served clean; one more, or a month swapped, is withheld."""
    case = _case(request, fixture, domain, qid)
    months = _months(case)
    for verb, way in (("rose", 1), ("fell", -1)):
        ends = [b for (_a, x), (b, y) in itertools.pairwise(months) if (y - x) * way > 0]
        if not ends or len(ends) + 1 not in _TIMES:
            continue
        named = " and ".join(f"in {m:%B}" for m in ends)
        honest = [f"It {verb} {_TIMES[len(ends)]}.", f"It {verb} {_TIMES[len(ends)]}, {named}."]
        for sentence in honest:
            assert appended(case, sentence).decision == "serve", sentence
        lie = f"It {verb} {_TIMES[len(ends) + 1]}."
        assert appended(case, lie).decision == "withhold", lie
        others = [m for m, _v in months[1:] if m not in ends]
        if others:
            swapped = " and ".join(f"in {m:%B}" for m in [*ends[:-1], others[0]])
            lie = f"It {verb} {_TIMES[len(ends)]}, {swapped}."
            assert appended(case, lie).decision == "withhold", lie


@pytest.mark.parametrize(("text", "value", "scale"), [
    ("roughly a third of a million flights", 1e6 / 3, 1e6),
    ("about half a million dollars", 5e5, 1e6),
    ("nearly three quarters of a billion", 7.5e8, 1e9),
    ("a quarter of a million", 2.5e5, 1e6), ("two-thirds of a thousand", 2e3 / 3, 1e3)])
def test_a_part_of_a_scale_word_is_that_part(text, value, scale):
    """'a third of a million' was read as 'a million' (and 'third' as a series' third row): it
    is the part of the scale, stated within 5 % either way — never the scale itself."""
    from showwork.protocol.numbers import claims_in, matches

    read = claims_in(text)
    assert len(read) == 1 and read[0].value == pytest.approx(value), read
    assert matches(read[0], value * 1.04) and matches(read[0], value * 0.96)
    assert not matches(read[0], value * 1.08) and not matches(read[0], value * 0.9)
    assert not matches(read[0], scale)


def test_a_part_of_a_scale_word_of_a_series_total(request):
    """The flights' monthly series of 2013 adds to 336,776: 'roughly a third of a million' is
    derived from the rows (served, the number quoted unread); half a million is withheld."""
    case = _case(request, "flights_layer", "flights", "series-001")
    honest = "The year's total was roughly a third of a million flights."
    assert appended(case, honest).decision != "withhold", honest
    for lie in ("The year's total was roughly half a million flights.",
                "The year's total was roughly a quarter of a million flights."):
        assert appended(case, lie).decision == "withhold", lie


@pytest.mark.parametrize(("domain", "fixture", "qid"), MONTHLY)
def test_a_denied_move(request, domain, fixture, qid):
    """'Flights never fell in February' (February fell) was served clean: the verb's move was
    read and the negation before it was not. A denied move holds when the rows did not go the
    verb's way; a count denied ('never dipped twice') is read by no check (never clean)."""
    case = _case(request, fixture, domain, qid)
    months = _months(case)
    for (_a, before), (b, after) in itertools.pairwise(months):
        if after == before:
            continue
        went, base, other, other_base = ("rose", "rise", "fell", "fall") if after > before \
            else ("fell", "fall", "rose", "rise")
        for honest in (f"It never {other} in {b:%B}.", f"It didn't {other_base} in {b:%B}."):
            assert appended(case, honest).decision != "withhold", honest
        for lie in (f"It never {went} in {b:%B}.", f"It did not {base} in {b:%B}."):
            assert appended(case, lie).decision == "withhold", lie
        # a negation further back, or 'not only', denies nothing of the move
        for honest in (f"No member was named, but it {went} in {b:%B}.",
                       f"Not only did it {base} in {b:%B}, it was cited."):
            assert appended(case, honest).decision != "withhold", honest
    falls = sum(y < x for (_a, x), (_b, y) in itertools.pairwise(months))
    if falls in _TIMES:
        denied = f"It never fell {_TIMES[falls]}."
        assert appended(case, denied).decision != "serve", denied


@pytest.mark.parametrize(("domain", "fixture", "qid"), MONTHLY)
def test_a_series_high_or_low_point(request, domain, fixture, qid):
    """'March was the low point', 'hit their high in January' were read by no check (served
    with caveats, a lie too), and 'was highest in January' of a series crossing a year's end
    looked January up in the reader's year. The month named must hold the series' extreme."""
    case = _case(request, fixture, domain, qid)
    months = sorted(_months(case), key=lambda r: r[1])
    (low, _), (high, _) = months[0], months[-1]
    other_low, other_high = months[1][0], months[-2][0]
    said = [("{m:%B} was the high point.", high, other_high),
            ("It hit its high in {m:%B}.", high, other_high),
            ("{m:%B} was the low point.", low, other_low),
            ("It was lowest in {m:%B}.", low, other_low)]
    for sentence, true, false in said:
        honest, lie = sentence.format(m=true), sentence.format(m=false)
        assert appended(case, honest).decision == "serve", honest
        assert appended(case, lie).decision == "withhold", lie


BREAKDOWNS = [("shop", "shop_layer", "breakdown-001"), ("flights", "flights_layer", "breakdown-002")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), BREAKDOWNS)
def test_a_rank_from_the_bottom(request, domain, fixture, qid):
    """'Philadelphia finished second to last' (true) was withheld as 'second'; 'came in last',
    'brought up the rear' were read by no check. A rank from the bottom counts from the other
    end of the cited breakdown: the member there is served clean, another withheld."""
    case = _case(request, fixture, domain, qid)
    rows = sorted(((str(v["key"]), float(v["value"])) for v in case.answer["values"]),
                  key=lambda r: r[1])
    assert len(rows) >= 3 and rows[0][1] < rows[1][1] < rows[2][1], rows
    last, second, third = rows[0][0], rows[1][0], rows[2][0]
    for sentence, true, false in (("{m} came in last.", last, second),
                                  ("{m} brought up the rear.", last, third),
                                  ("{m} finished second to last.", second, last),
                                  ("{m} was next to last.", second, third)):
        honest, lie = sentence.format(m=true), sentence.format(m=false)
        assert appended(case, honest).decision == "serve", honest
        assert appended(case, lie).decision == "withhold", lie


@pytest.mark.parametrize(("domain", "fixture", "qid"), [
    ("shop", "shop_layer", "breakdown-001"), ("flights", "flights_layer", "ranking-002")])
def test_a_narrow_margin_between_members(request, domain, fixture, qid):
    """'Brooklyn edged out the 5th Ave store' (the other way round) and 'narrowly beat' were
    read by no check: a narrow margin says the first member is ahead by under 10 % of the
    second (docs/citations.md). Of each two members adjacent in the cited order: within the
    band, the true order is served clean and the reverse withheld; 'narrowly' of the top
    member over the bottom one is withheld."""
    from showwork.harness.audit.pairs import NARROW

    case = _case(request, fixture, domain, qid)
    rows = sorted(((str(v["key"]), float(v["value"])) for v in case.answer["values"]),
                  key=lambda r: r[1])
    close = [(a, b) for a, b in itertools.pairwise(rows) if b[1] - a[1] < NARROW * a[1]
             and b[1] > a[1]]
    assert close, rows
    for (low, _), (high, _) in close:
        for said in ("{a} edged out {b}.", "{a} narrowly beat {b}."):
            honest, lie = said.format(a=high, b=low), said.format(a=low, b=high)
            assert appended(case, honest).decision == "serve", honest
            assert appended(case, lie).decision == "withhold", lie
    (bottom, x), (top, y) = rows[0], rows[-1]
    assert y > (1 + 2 * NARROW) * x
    assert appended(case, f"{top} narrowly beat {bottom}.").decision == "withhold"


CHANGES = [("shop", "shop_layer", "compare-001"), ("shop", "shop_layer", "compare-002"),
           ("flights", "flights_layer", "change-001"), ("flights", "flights_layer", "change-002")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), CHANGES)
def test_a_move_called_flat_in_the_prose(request, domain, fixture, qid):
    """'Revenue was essentially unchanged in May' of a cited -5.7 % was served clean: a claim's
    text called flat was held to FLAT_BAND, the prose's was not. The prose's flat words are
    held to the cited relative change of the metric named before them."""
    from showwork.harness.audit.findings import FLAT_BAND

    case = _case(request, fixture, domain, qid)
    changes = [c for c in case.answer["claims"] for s in c["sources"] if "pct_change" in s]
    assert changes
    metric = changes[0]["text"].split(" changed")[0].split(" rose")[0].split(" fell")[0]
    pct = float(changes[0]["value"])
    assert abs(pct) > FLAT_BAND, pct
    for said in ("was essentially unchanged.", "was flat.", "stayed flat over the period."):
        lie = f"{metric} {said}"
        assert appended(case, lie).decision == "withhold", lie
