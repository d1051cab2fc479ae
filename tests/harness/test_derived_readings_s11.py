"""The readings the lead's held-out edits of session 11 showed missing: a part of another member's
value is not widened by a hedge ('about two-thirds as many'), 'N times as many as' is no level,
'the five other stores' is a part of the rows, 'K in every 1,000' of a rate names its parts,
a quantifier over 'every month from March onward' reads the months it names.

Every case is generated from the rules analyst's own clean answers on two domains or more."""

from __future__ import annotations

import pytest
from answer_words import appended, clean_cases
from test_derived_readings_more import _rows


def _case(request, fixture: str, domain: str, qid: str):
    return clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]


def _unread_numbers(report) -> str:
    return " ".join(report.not_checked)


# --- parts and multipliers ---------------------------------------------------------------------

PARTS = {0.5: "half", 1 / 3: "a third", 2 / 3: "two-thirds", 0.25: "a quarter",
         0.75: "three-quarters"}
SMALLER = [("demo", "layer", "breakdown-001"), ("shop", "shop_layer", "breakdown-002"),
           ("flights", "flights_layer", "breakdown-008")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), SMALLER)
def test_a_hedged_part_is_not_widened(request, domain, fixture, qid):
    """'about two-thirds as many' of a ratio of 0.51 is a lie: a part is a rounded figure, a
    hedge does not widen it (PART_TOLERANCE); 'N times as many as' is never read as 'as many
    as' (a level two rows more than 2 % apart would contradict)."""
    case = _case(request, fixture, domain, qid)
    rows = _rows(case.answer)
    (a, va), (b, vb) = rows[0], rows[-1]
    ratio = vb / va
    far = [w for f, w in PARTS.items() if abs(f - ratio) > 0.3 * f]
    close = min(PARTS, key=lambda f: abs(f - ratio))
    times = va / vb
    assert far
    lies = [f"{b} had about {w} as many as {a}." for w in far]
    honest = [f"{a} had about {times:.1f} times as many as {b}."]
    if abs(close - ratio) <= 0.1 * close:
        honest.append(f"{b} had about {PARTS[close]} as many as {a}.")
    wrong = [f"lie {d}: {s}" for s in lies if (d := appended(case, s).decision) != "withhold"]
    wrong += [f"honest {d}: {s}" for s in honest if (d := appended(case, s).decision) == "withhold"]
    assert not wrong, "\n".join(wrong)


# --- parts of the rows, rates in their parts, quantifiers over a named span ---------------------

OTHERS = [("shop", "shop_layer", "breakdown-002", "stores"),
          ("demo", "layer", "breakdown-002", "channels"),
          ("flights", "flights_layer", "breakdown-008", "airports")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "plural"), OTHERS)
def test_the_n_other_rows(request, domain, fixture, qid, plural):
    """'The five other stores together took 958 orders': a part of the cited rows, not a count
    of all of them."""
    case = _case(request, fixture, domain, qid)
    values = sorted((v for _, v in _rows(case.answer)), reverse=True)
    rest = values[1:]  # every row but the highest
    words = {2: "two", 3: "three", 4: "four", 5: "five"}
    honest = f"The {words[len(rest)]} other {plural} together had {sum(rest):,.0f}."
    lie = f"The {words[len(rest)]} other {plural} together had {sum(rest) * 1.3 + 20:,.0f}."
    assert appended(case, honest).decision == "serve", honest
    assert appended(case, lie).decision == "withhold", lie


RATES = [("flights", "flights_layer", "breakdown-003", "flights were cancelled"),
         ("flights", "flights_layer", "level-003", "flights were cancelled"),
         ("shop", "shop_layer", "lookup-011", "orders were cancelled")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "parts"), RATES)
def test_a_rate_in_its_parts(request, domain, fixture, qid, parts):
    """'About 27 in every 1,000 flights were cancelled' of a cancellation rate of 2.7 %: the
    rate's numerator and denominator named, as people say a rate; a thousandth of another
    value is withheld."""
    case = _case(request, fixture, domain, qid)
    rate = [v for _, v in _rows(case.answer)][0] if _rows(case.answer) else \
        case.answer["claims"][0]["value"]
    honest = f"About {rate * 1000:.0f} in every 1,000 {parts}."
    lie = f"About {rate * 1000 + 12:.0f} in every 1,000 {parts}."
    assert appended(case, honest).decision != "withhold", honest
    assert appended(case, lie).decision == "withhold", lie


SCOPED = [("flights", "flights_layer", "series-001", "Every month from March onward", 2, "over"),
          ("shop", "shop_layer", "series-004", "Every month from October to December 2018", 3,
           "over"),
          ("flights", "flights_layer", "series-005", "Both quarters of the second half", 2,
           "under")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "said", "start", "side"), SCOPED)
def test_every_period_of_a_named_span(request, domain, fixture, qid, said, start, side):
    """'Every month from March onward had at least 27,000 flights' holds of March to the end
    (an open span runs to the as-of date, the day after the data's last); the rows before March,
    which do not meet it, are not its rows. 'Every month from October to December', 'both
    quarters of the second half' likewise."""
    case = _case(request, fixture, domain, qid)
    everything = [v for _, v in _rows(case.answer)]
    values = everything[start:]
    if side == "over":
        assert min(everything) < min(values)  # the bound fails a row outside the span
        honest = f"{said} had at least {min(values) * 0.99:,.0f}."
        lie = f"{said} had at least {max(values) * 1.01:,.0f}."
    else:
        assert max(everything) > max(values)
        honest = f"{said} were under {max(values) * 1.01:,.1f}."
        lie = f"{said} were under {min(values) * 0.99:,.1f}."
    assert appended(case, honest).decision != "withhold", honest
    assert appended(case, lie).decision == "withhold", lie


# --- found by perturbing the held-out honest edits the audit serves clean -----------------------
# (each honest sentence served clean, with one number scaled, one direction word swapped or one
# member swapped: 255 perturbations, 20 served clean; these were lies, the rest weaker bounds
# or statements still true)

EXTREMES = [("flights", "flights_layer", "series-001"), ("shop", "shop_layer", "series-004"),
            ("demo", "layer", "series-001")]


def _period_names(case) -> list[tuple[str, float]]:
    """Each cited row of a monthly or weekly series as the period words the prose may say."""
    import datetime as dt

    out = []
    for key, value in _rows(case.answer):
        day = dt.date.fromisoformat(key[:10])
        grain = case.answer["claims"][0]["sources"][0]
        said = day.strftime("%B %Y") if "month=" in grain else \
            f"the week of {day.day} {day.strftime('%B %Y')}"
        out.append((said, value))
    return out


@pytest.mark.parametrize(("domain", "fixture", "qid"), EXTREMES)
def test_two_extremes_in_one_sentence(request, domain, fixture, qid):
    """'July was the busiest month and February the quietest': each extreme is held to the
    period named before it; swapped, or both said of one extreme, it is withheld."""
    case = _case(request, fixture, domain, qid)
    rows = _period_names(case)
    high = max(rows, key=lambda r: r[1])[0]
    low = min(rows, key=lambda r: r[1])[0]
    honest = f"{high} had the highest value and {low} the lowest."
    lies = [f"{low} had the highest value and {high} the lowest.",
            f"{high} had the highest value and {low} the highest.",
            f"{high} had the lowest value and {low} the lowest."]
    assert appended(case, honest).decision != "withhold", honest
    wrong = [f"{d}: {s}" for s in lies if (d := appended(case, s).decision) != "withhold"]
    assert not wrong, "\n".join(wrong)


ORDINAL_WEEKS = [("shop", "shop_layer", "series-003"), ("flights", "flights_layer", "series-003"),
                 ("demo", "layer", "series-001")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), ORDINAL_WEEKS)
def test_an_extreme_of_no_period_is_unread(request, domain, fixture, qid):
    """'Orders were highest in the third week': no period the series check reads, so
    'highest' is not held (it was consumed as read, and 'the third week' as a run): never
    served clean, whichever row it names."""
    case = _case(request, fixture, domain, qid)
    metric = case.answer["answer"].split(" by ")[0]  # 'Orders', 'Cancelled flights'
    for word in ("highest", "lowest"):
        sentence = f"{metric} were {word} in the third week."
        assert appended(case, sentence).decision != "serve", sentence


def test_every_verb_of_motion_makes_a_change() -> None:
    """A number after a verb the audit reads as a move is a change, never a level ('the
    average delay lengthened by about 13 minutes' of 13.0 → 20.8 was the May level)."""
    from showwork.harness.audit.prose import FALLS, RISES
    from showwork.protocol.numbers import read_numbers

    unsigned = [w for w in sorted(RISES | FALLS) if w not in ("doubled", "tripled", "halved")
                and not read_numbers(f"The value {w} by about 8 units.")[0].sign_word]
    assert not unsigned


MOVES = [("flights", "flights_layer", "change-002"), ("shop", "shop_layer", "compare-005"),
         ("demo", "layer", "compare-002")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), MOVES)
def test_a_move_by_a_level_is_withheld(request, domain, fixture, qid):
    case = _case(request, fixture, domain, qid)
    claim = case.answer["claims"][0]
    values = next(iter(case.results.values()))["rows"][0]["values"]
    (_, field), = [(k, v) for k, v in values.items()]
    previous, delta = field["previous"], field["delta"]
    verb = "lengthened" if delta > 0 else "shortened"
    lie = f"It {verb} by about {abs(previous):,.2f}."
    honest = f"It {verb} by about {abs(delta):,.2f}."
    assert claim
    assert appended(case, lie).decision == "withhold", lie
    assert appended(case, honest).decision != "withhold", honest


SETTINGS = [("flights", "flights_layer", "breakdown-003"), ("shop", "shop_layer", "breakdown-002"),
            ("demo", "layer", "breakdown-003")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), SETTINGS)
def test_a_member_that_sets_the_scene(request, domain, fixture, qid):
    """'At LGA, about 27 in every 1,000 flights were cancelled' of EWR's 2.7 %: the member
    before the comma is whose value the number is."""
    case = _case(request, fixture, domain, qid)
    (a, va), (_, vb) = _rows(case.answer)[0], _rows(case.answer)[1]
    number = (lambda v: f"{v * 100:.1f} %") if va < 1 else (lambda v: f"{v:,.0f}")
    assert appended(case, f"At {a}, the figure was {number(va)}.").decision != "withhold"
    lie = f"At {a}, the figure was {number(vb)}."
    assert appended(case, lie).decision == "withhold", lie
