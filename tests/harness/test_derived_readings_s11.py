"""A number in words no reading knows, which the cited rows its sentence names give together,
is not withheld but quoted unread (harness/audit/derivable.py, issue 43: withhold only what is
proven false); the same sentence with a number no derivation gives is withheld. And the
readings the lead's held-out edits of session 11 showed missing: a part of another member's
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


# --- derivations in words no reading knows: served with caveats, the number quoted ------------

PAIRS = [("flights", "flights_layer", "breakdown-004", True),
         ("shop", "shop_layer", "breakdown-002", True),
         ("demo", "layer", "breakdown-002", True),
         ("flights", "flights_layer", "breakdown-002", False),   # averages: no sum
         ("shop", "shop_layer", "breakdown-005", False)]


@pytest.mark.parametrize(("domain", "fixture", "qid", "additive"), PAIRS)
def test_a_derived_number_in_unknown_words_is_a_caveat_not_a_withhold(
        request, domain, fixture, qid, additive):
    case = _case(request, fixture, domain, qid)
    rows = _rows(case.answer)
    (a, va), (b, vb) = rows[0], rows[1]
    honest = [f"Set {a} beside {b}: the gap comes to about {va - vb:,.0f}.",
              f"Set {a} beside {b}: {a} comes to about {va / vb * 100:.0f} % of {b}."]
    lies = [f"Set {a} beside {b}: the gap comes to about {(va - vb) * 1.6 + 40:,.0f}.",
            f"Set {a} beside {b}: {a} comes to about {va / vb * 100 * 1.5 + 20:.0f} % of {b}."]
    if additive:
        honest.append(f"Pooling {a} and {b} gives about {va + vb:,.0f}.")
        lies.append(f"Pooling {a} and {b} gives about {(va + vb) * 1.4 + 30:,.0f}.")
    wrong = []
    for sentence in honest:
        report = appended(case, sentence)
        number = sentence.split("about ")[1].split()[0].rstrip(".")
        if report.decision != "serve_with_caveats" or number not in _unread_numbers(report):
            wrong.append(f"honest {report.decision} {report.not_checked}: {sentence}")
    wrong += [f"lie {d}: {s}" for s in lies if (d := appended(case, s).decision) != "withhold"]
    assert not wrong, "\n".join(wrong)


SPANS = [("flights", "flights_layer", "series-001", "June to August", (5, 8)),
         ("shop", "shop_layer", "series-003", "17 to 30 June 2019", (2, 4)),
         ("demo", "layer", "series-001", "4 to 17 May 2026", (2, 4))]


@pytest.mark.parametrize(("domain", "fixture", "qid", "span", "rows"), SPANS)
def test_rows_a_named_span_holds_give_a_caveat(request, domain, fixture, qid, span, rows):
    """'June to August had about 87,000 flights': the rows the span holds add (of a metric that
    adds) or average to it; the window is the cited rows', not a result no claim cites."""
    case = _case(request, fixture, domain, qid)
    values = [v for _, v in _rows(case.answer)][rows[0]:rows[1]]
    additive = domain != "demo"  # active users are a distinct count: their mean, not sum
    said = sum(values) if additive else sum(values) / len(values)
    word = "gives" if additive else "centres on"
    honest = f"Taken as one stretch, {span} {word} about {said:,.0f}."
    lie = f"Taken as one stretch, {span} {word} about {said * 1.5 + 100:,.0f}."
    assert appended(case, honest).decision == "serve_with_caveats", honest
    assert appended(case, lie).decision == "withhold", lie


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


# --- the lead's second held-out batch of session 11 ---------------------------------------------

DAILY = [("flights", "flights_layer", "series-004"), ("shop", "shop_layer", "series-007")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), DAILY)
def test_weekdays_and_the_weekend_of_a_daily_series(request, domain, fixture, qid):
    import datetime as dt

    case = _case(request, fixture, domain, qid)
    rows = [(dt.date.fromisoformat(k[:10]).weekday(), v) for k, v in _rows(case.answer)]
    week = [v for d, v in rows if d < 5]
    end = [v for d, v in rows if d >= 5]
    for said, values in (("Weekdays", week), ("The weekend", end)):
        mean = sum(values) / len(values)
        honest = f"{said} came in at about {mean:,.0f} a day."
        lie = f"{said} came in at about {mean * 1.3 + 20:,.0f} a day."
        assert appended(case, honest).decision == "serve_with_caveats", honest
        assert appended(case, lie).decision == "withhold", lie


LEADER = [("shop", "shop_layer", "breakdown-001"), ("flights", "flights_layer", "breakdown-004"),
          ("demo", "layer", "breakdown-002")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), LEADER)
def test_every_row_but_the_leader(request, domain, fixture, qid):
    case = _case(request, fixture, domain, qid)
    values = sorted((v for _, v in _rows(case.answer)), reverse=True)
    honest = f"Leaving out the leader, the field comes to about {sum(values[1:]):,.0f}."
    lie = f"Leaving out the leader, the field comes to about {sum(values[1:]) * 1.4 + 30:,.0f}."
    assert appended(case, honest).decision == "serve_with_caveats", honest
    assert appended(case, lie).decision == "withhold", lie


SHARES = [("flights", "flights_layer", "share-002"), ("flights", "flights_layer", "share-003"),
          ("shop", "shop_layer", "breakdown-001")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), SHARES)
def test_what_a_share_leaves(request, domain, fixture, qid):
    """'The other airlines flew the remaining 82.6 %' of United's cited 17.4 %."""
    case = _case(request, fixture, domain, qid)
    shares = [c["value"] for c in case.answer["claims"] if "share" in c["sources"][0]]
    if not shares:  # a breakdown: the leader's share of the rows' sum
        values = [v for _, v in _rows(case.answer)]
        shares = [max(values) / sum(values) * 100]
        honest = f"Everyone else took the remaining {100 - shares[0]:.1f} %."
        assert appended(case, honest).decision != "withhold", honest
        return
    share = shares[0] * (100 if shares[0] <= 1 else 1)
    honest = f"Everyone else took the remaining {100 - share:.1f} %."
    lie = f"Everyone else took the remaining {100 - share - 9:.1f} %."
    assert appended(case, honest).decision == "serve_with_caveats", honest
    assert appended(case, lie).decision == "withhold", lie


SOME = [("shop", "shop_layer", "breakdown-002"), ("flights", "flights_layer", "breakdown-008"),
        ("demo", "layer", "breakdown-002")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), SOME)
def test_each_of_fewer_than_all_the_rows(request, domain, fixture, qid):
    """'Each of the five physical stores took fewer than 300 orders' of six cited stores:
    which five, no reading knows; withheld only when fewer than five rows meet the bound."""
    case = _case(request, fixture, domain, qid)
    values = sorted(v for _, v in _rows(case.answer))
    k = len(values) - 1
    words = {2: "two", 3: "three", 4: "four", 5: "five"}
    meets = values[k - 1] * 1.05 + 1  # the k smallest are under it, the largest is not
    fails = values[k - 2] * 1.01 + 0.5 if k >= 2 else values[0] * 0.5  # fewer than k are under
    assert values[-1] > meets
    honest = f"Each of the {words[k]} smaller ones was under {meets:,.0f}."
    lie = f"Each of the {words[k]} smaller ones was under {fails:,.0f}."
    assert appended(case, honest).decision != "withhold", honest
    assert appended(case, lie).decision == "withhold", lie
