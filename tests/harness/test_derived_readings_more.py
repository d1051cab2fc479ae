"""More of what a model derives from the rows it cites, read and held to them (issue 43): a gap
between two members in percent, the mean of a breakdown's rows, the total of a whole series
('for the year', 'for the period'), a move over the whole series ('over the eight weeks'), a
rate as 'one in N' and in basis points, a mark passed ('crossed $59,000'), a run denied ('never
rose two months in a row'), and an inclusive bound at its written precision ('at least 19
minutes' of 18.995).

Every case is generated from the rules analyst's own clean answers on two domains or more: the
honest sentence the cited values give is served clean, the same sentence with a number or a
direction the rows contradict is withheld. Before these readings each honest sentence was
withheld as an unsupported number (the lead's held-out edits of session 10: 12 honest rewrites
withheld)."""

from __future__ import annotations

import calendar
import datetime as dt
import math
import re
from itertools import combinations

import pytest
from answer_words import appended, clean_cases

_ROW = re.compile(r"\[(?P<dim>\w+)=(\"?)(?P<member>.*?)\2\]")


def _rows(answer: dict) -> list[tuple[str, float]]:
    """The members (or periods) a breakdown or series answer cites, with their values."""
    out = []
    for claim in answer["claims"]:
        m = _ROW.search(claim["sources"][0]) if claim["kind"] == "measurement" else None
        if m is not None:
            out.append((m["member"], float(claim["value"])))
    return out


def _case(request, fixture: str, domain: str, qid: str):
    return clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]


def _check(case, honest: list[str], lies: list[str]) -> None:
    assert honest and lies
    wrong = [f"honest {d}: {s}" for s in honest
             if (d := appended(case, s).decision) != "serve"]
    wrong += [f"lie {d}: {s}" for s in lies if (d := appended(case, s).decision) != "withhold"]
    assert not wrong, "\n".join(wrong)


# --- a gap between two members in percent ------------------------------------------------------

GAPS = [("flights", "flights_layer", "breakdown-004"),
        ("shop", "shop_layer", "breakdown-001"),
        ("demo", "layer", "breakdown-001")]


@pytest.mark.parametrize(("domain", "fixture", "qid"), GAPS)
def test_a_gap_in_percent_is_the_second_members_share(request, domain, fixture, qid):
    """'A was about 8 % higher than B' is (A − B) / B; 'B was about 7 % lower than A' is
    (A − B) / A."""
    case = _case(request, fixture, domain, qid)
    honest, lies = [], []
    for (a, va), (b, vb) in combinations(_rows(case.answer)[:4], 2):
        if not va > vb > 0:
            continue
        up, down = (va - vb) / vb * 100, (va - vb) / va * 100
        if up < 2:
            continue
        honest += [f"{a} was about {up:.0f} % higher than {b}.",
                   f"{b} was about {down:.0f} % lower than {a}."]
        lies += [f"{a} was about {up * 1.5 + 5:.0f} % higher than {b}.",
                 f"{b} was about {down:.0f} % higher than {a}."]
    _check(case, honest, lies)


# --- the mean of a breakdown's rows ------------------------------------------------------------

MEANS = [("shop", "shop_layer", "breakdown-002", "stores", "store", "took", "orders"),
         ("flights", "flights_layer", "breakdown-004", "airlines", "airline", "flew", "flights"),
         ("demo", "layer", "breakdown-003", "countries", "country", "had", "new users")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "plural", "single", "verb", "unit"), MEANS)
def test_the_mean_of_the_rows(request, domain, fixture, qid, plural, single, verb, unit):
    case = _case(request, fixture, domain, qid)
    values = [v for _, v in _rows(case.answer)]
    mean = sum(values) / len(values)
    honest = [f"The {len(values)} {plural} averaged about {mean:,.0f} {unit} each.",
              f"The average {single} {verb} about {mean:,.0f} {unit}.",
              f"Together the {plural} {verb} {sum(values):,.0f} {unit}."]
    lies = [f"The {len(values)} {plural} averaged about {mean * 1.3 + 10:,.0f} {unit} each.",
            f"The average {single} {verb} about {mean * 0.7 - 10:,.0f} {unit}.",
            f"Together the {plural} {verb} {sum(values) * 1.1 + 10:,.0f} {unit}."]
    _check(case, honest, lies)


# --- a whole series: its total, and its move from the first row to the last ---------------------

WHOLE = [("flights", "flights_layer", "series-001", "flights", "months", "year"),
         ("shop", "shop_layer", "series-001", "revenue", "months", "period"),
         ("demo", "layer", "series-001", "active users", "weeks", "period")]
_WORDS = {3: "three", 8: "eight", 12: "twelve"}


@pytest.mark.parametrize(("domain", "fixture", "qid", "metric", "grain", "span"), WHOLE)
def test_a_whole_series(request, domain, fixture, qid, metric, grain, span):
    case = _case(request, fixture, domain, qid)
    values = [v for _, v in _rows(case.answer)]
    money = "$" if metric == "revenue" else ""
    step = values[-1] - values[0]
    way, other = ("rose", "fell") if step > 0 else ("fell", "rose")
    over = f"over the {_WORDS[len(values)]} {grain}"
    honest = [f"{metric.capitalize()} {way} by about {money}{abs(step):,.0f} {over}.",
              f"{metric.capitalize()} {way} {abs(step) / values[0] * 100:.1f} % {over}.",
              # the span before the verb (the held-out edits of session 15)
              f"{over.capitalize()} {metric} {way} about {abs(step) / values[0] * 100:.1f} %."]
    lies = [f"{metric.capitalize()} {other} by about {money}{abs(step):,.0f} {over}.",
            f"{metric.capitalize()} {way} by about {money}{abs(step) * 2 + 100:,.0f} {over}.",
            f"{over.capitalize()} {metric} {other} about {abs(step) / values[0] * 100:.1f} %."]
    if domain != "demo":  # active users are no sum of weeks
        total = sum(values)
        of = "of " if money else ""
        honest.append(f"That is about {money}{total:,.0f} {of}{metric} for the {span}.")
        lies.append(f"That is about {money}{total * 1.1 + 100:,.0f} {of}{metric} for the {span}.")
    _check(case, honest, lies)


# --- a rate as 'one in N' and in basis points --------------------------------------------------

RATES = [("shop", "shop_layer", "lookup-011", "order", "was cancelled"),
         ("flights", "flights_layer", "level-003", "flight", "at LGA"),
         ("flights", "flights_layer", "share-002", "flight", "was United's")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "noun", "said"), RATES)
def test_a_rate_as_one_in_n_and_in_basis_points(request, domain, fixture, qid, noun, said):
    case = _case(request, fixture, domain, qid)
    value = min(float(c["value"]) for c in case.answer["claims"] if c.get("value") is not None)
    n = round(1 / value)
    honest = [f"Roughly one {noun} in {n} {said}.", f"About 1 in every {n} {said}."]
    lies = [f"Roughly one {noun} in {2 * n + 1} {said}.", f"About 1 in every {n // 2} {said}."]
    if domain == "shop" or "LGA" in said:  # a rate
        bp = round(value * 10_000)
        honest.append(f"That is {bp} basis points.")
        lies.append(f"That is {bp // 10} basis points.")
    _check(case, honest, lies)


# --- a mark passed --------------------------------------------------------------------------

MARKS = [("demo", "layer", "lookup-006", "MRR"), ("shop", "shop_layer", "lookup-001", "Revenue")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "metric"), MARKS)
def test_a_mark_passed(request, domain, fixture, qid, metric):
    case = _case(request, fixture, domain, qid)
    value = float(case.answer["claims"][0]["value"])
    below, above = math.floor(value / 1000) * 1000, math.ceil(value / 1000) * 1000
    _check(case, [f"{metric} crossed ${below:,}.", f"{metric} topped ${below:,}."],
           [f"{metric} crossed ${above:,}.", f"{metric} topped ${above + 5000:,}."])


# --- a run denied ------------------------------------------------------------------------------

RUNS = [("flights", "flights_layer", "series-001", "Flights", "month"),
        ("demo", "layer", "series-001", "Active users", "week")]


def _longest(values: list[float], way: int) -> int:
    best = run = 0
    for a, b in zip(values, values[1:], strict=False):
        run = run + 1 if (b - a) * way > 0 else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize(("domain", "fixture", "qid", "metric", "grain"), RUNS)
def test_a_run_denied(request, domain, fixture, qid, metric, grain):
    case = _case(request, fixture, domain, qid)
    values = [v for _, v in _rows(case.answer)]
    honest, lies = [], []
    for verb, way in (("rose", 1), ("fell", -1)):
        longest = _longest(values, way)
        if longest + 1 <= 10:
            honest.append(f"{metric} never {verb} {longest + 1} {grain}s in a row.")
        if longest >= 2:
            lies.append(f"{metric} never {verb} {longest} {grain}s in a row.")
    _check(case, honest, lies)


# --- an inclusive bound at its written precision -----------------------------------------------

BOUNDS = [("flights", "flights_layer", "breakdown-002", "origin airport", "averaged", "minutes",
           ""),
          ("shop", "shop_layer", "breakdown-005", "store", "averaged", "", "$")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "dim", "verb", "unit", "money"), BOUNDS)
def test_an_inclusive_bound_at_its_written_precision(request, domain, fixture, qid, dim, verb,
                                                     unit, money):
    """'Every airport averaged at least 19 minutes' of 18.995 (shown 19.0) holds, as a number
    holds at its precision; a strict bound does not ('more than 19')."""
    case = _case(request, fixture, domain, qid)
    low = min(v for _, v in _rows(case.answer))
    shown = round(low)
    honest = [f"Every {dim} {verb} at least {money}{shown} {unit}".rstrip() + "."]
    lies = [f"Every {dim} {verb} at least {money}{shown + 2} {unit}".rstrip() + "."]
    if shown > low:
        lies.append(f"Every {dim} {verb} more than {money}{shown} {unit}".rstrip() + ".")
    _check(case, honest, lies)


# --- a count of a series' periods that meet a bound --------------------------------------------

COUNTED = [("flights", "flights_layer", "series-001", "Flights", "month", ""),
           ("demo", "layer", "series-001", "Active users", "week", ""),
           ("shop", "shop_layer", "series-001", "Revenue", "month", "$")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "metric", "grain", "money"), COUNTED)
def test_a_count_of_periods_meeting_a_bound(request, domain, fixture, qid, metric, grain,
                                            money):
    """'Flights topped 29,000 in two months': as many rows of the series meet the bound (the
    lead's held-out edits of session 8 had it served clean with 'three months' once 'topped'
    was read as a bound)."""
    case = _case(request, fixture, domain, qid)
    values = sorted(v for _, v in _rows(case.answer))
    honest, lies = [], []
    for cut in (values[len(values) // 2], values[-2]):
        mark = math.floor(cut / 100) * 100
        if mark >= values[-1] or any(mark == v for v in values):
            continue
        k = sum(1 for v in values if v > mark)
        plural = "s" if k > 1 else ""
        honest += [f"{metric} topped {money}{mark:,} in {k} {grain}{plural}.",
                   f"{metric} were over {money}{mark:,} in {k} of the {len(values)} {grain}s."]
        lies += [f"{metric} topped {money}{mark:,} in {k + 1} {grain}s.",
                 f"{metric} were over {money}{mark:,} in {k} of the {len(values) + 1} {grain}s."]
    _check(case, honest, lies)


# --- a part of another member's value: 'half as many' ------------------------------------------

PARTS = {"half": 0.5, "a third": 1 / 3, "a quarter": 0.25, "a fifth": 0.2, "two thirds": 2 / 3,
         "three quarters": 0.75, "a tenth": 0.1}
PARTS_AS = [("demo", "layer", "breakdown-001", "had", "active users"),
            ("flights", "flights_layer", "breakdown-004", "flew", "flights"),
            ("shop", "shop_layer", "breakdown-002", "took", "orders")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "verb", "unit"), PARTS_AS)
def test_a_part_of_another_members_value(request, domain, fixture, qid, verb, unit):
    """'Web had about half as many active users as android': the ratio of the two rows, within
    a part's tolerance (a fifth of the part)."""
    case = _case(request, fixture, domain, qid)
    honest, lies = [], []
    for (a, va), (b, vb) in combinations(_rows(case.answer)[:5], 2):
        if not va > vb > 0:
            continue
        ratio = vb / va
        near = [w for w, p in PARTS.items() if abs(ratio - p) <= 0.1 * p]
        far = [w for w, p in PARTS.items() if abs(ratio - p) > 0.4 * p]
        if near and far:
            honest.append(f"{b} {verb} about {near[0]} as many {unit} as {a}.")
            lies.append(f"{b} {verb} about {far[0]} as many {unit} as {a}.")
    _check(case, honest, lies)


# --- a series' busiest and quietest period, said as the sentence's subject ----------------------

EXTREMES = [("flights", "flights_layer", "series-001", "month"),
            ("shop", "shop_layer", "series-001", "month"),
            ("demo", "layer", "series-001", "week")]


def _said(period: str, grain: str) -> str:
    day = dt.date.fromisoformat(period[:10])
    if grain == "month":
        return calendar.month_name[day.month]
    return f"The week of {day.day} {calendar.month_name[day.month]}"


@pytest.mark.parametrize(("domain", "fixture", "qid", "grain"), EXTREMES)
def test_the_busiest_and_quietest_period(request, domain, fixture, qid, grain):
    """'February was the quietest month', 'July was the busiest month': the row the cited
    series puts there (a lone month that starts a sentence, before 'was', is a period)."""
    case = _case(request, fixture, domain, qid)
    rows = _rows(case.answer)
    top, low = max(rows, key=lambda r: r[1]), min(rows, key=lambda r: r[1])
    other = next(r for r in rows if r not in (top, low))
    _check(case, [f"{_said(top[0], grain)} was the busiest {grain}.",
                  f"{_said(low[0], grain)} was the quietest {grain}."],
           [f"{_said(other[0], grain)} was the busiest {grain}.",
            f"{_said(top[0], grain)} was the quietest {grain}."])


# --- a row compared with the sum of others -------------------------------------------------------

SUMMED_SIDES = [("shop", "shop_layer", "breakdown-002", "took", "orders", "stores"),
                ("flights", "flights_layer", "breakdown-004", "flew", "flights", "airlines"),
                ("demo", "layer", "breakdown-003", "had", "new users", "countries")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "verb", "unit", "plural"), SUMMED_SIDES)
def test_a_row_against_the_sum_of_others(request, domain, fixture, qid, verb, unit, plural):
    """'Online took more orders than all the other stores combined', 'Brooklyn took fewer
    orders than New York 5th Ave and O'Hare Airport combined' (the pair Brooklyn–New York alone
    goes the other way: the sum is what is compared)."""
    case = _case(request, fixture, domain, qid)
    rows = _rows(case.answer)
    (top, vt), rest = rows[0], sum(v for _, v in rows[1:])
    way = "more" if vt > rest else "fewer"
    other = "fewer" if way == "more" else "more"
    honest = [f"{top} {verb} {way} {unit} than all the other {plural} combined."]
    lies = [f"{top} {verb} {other} {unit} than all the other {plural} combined."]
    for (a, va), (b, vb), (c, vc) in combinations(rows[1:5], 3):
        right = "more" if va > vb + vc else "fewer"
        wrong = "fewer" if right == "more" else "more"
        honest.append(f"{a} {verb} {right} {unit} than {b} and {c} combined.")
        lies.append(f"{a} {verb} {wrong} {unit} than {b} and {c} combined.")
        if va > vb:  # 'together' of the pair itself: the pair is still held
            lies.append(f"{a} {verb} fewer {unit} than {b}, and together they {verb} "
                        f"{va + vb:,.0f} {unit}.")
    _check(case, honest, lies)


# --- a spread and a range of cited rows -----------------------------------------------------------

SPREADS = [("flights", "flights_layer", "breakdown-002", "minutes", "airports"),
           ("shop", "shop_layer", "breakdown-002", "orders", "stores"),
           ("flights", "flights_layer", "series-001", "flights", "months")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "unit", "plural"), SPREADS)
def test_a_spread_and_a_range(request, domain, fixture, qid, unit, plural):
    """'The three airports were within 5 minutes of each other', 'Monthly flights ranged from
    about 25,000 to about 29,400': the rows' greatest distance, their lowest and highest."""
    case = _case(request, fixture, domain, qid)
    values = [v for _, v in _rows(case.answer)]
    low, high = min(values), max(values)
    spread = high - low
    step = 10 ** max(0, len(f"{spread:.0f}") - 2)
    above = math.ceil(spread / step + 1) * step
    below = math.floor(spread / step * 0.5) * step
    n = len(values)
    lo, hi = (f"{low:,.1f}", f"{high:,.1f}") if high < 100 else (f"{low:,.0f}", f"{high:,.0f}")
    honest = [f"All {n} {plural} were within {above:,} {unit} of each other.",
              f"The {plural} ranged from {lo} to {hi}."]
    lies = [f"All {n} {plural} were within {below:,} {unit} of each other.",
            f"The {plural} ranged from {lo} to {high * 1.2 + 5:,.0f}."]
    _check(case, honest, lies)


# --- a count of a breakdown's rows that meet a bound -----------------------------------------

K_OF_M = [("flights", "flights_layer", "breakdown-002", "averaged", "minutes", ""),
          ("shop", "shop_layer", "breakdown-002", "took", "orders", ""),
          ("shop", "shop_layer", "breakdown-005", "averaged", "", "$")]
_COUNTS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five"}


@pytest.mark.parametrize(("domain", "fixture", "qid", "verb", "unit", "money"), K_OF_M)
def test_k_of_m_rows_meet_a_bound(request, domain, fixture, qid, verb, unit, money):
    """'Two of the three airports averaged over 20 minutes': as many of the breakdown's rows
    meet the bound ('One of the three' was not read as a count at all, 'Two of the three' as
    a count of rows that moved)."""
    case = _case(request, fixture, domain, qid)
    values = sorted((v for _, v in _rows(case.answer)), reverse=True)
    honest, lies = [], []
    for i in (1, 2):
        if i >= len(values) or values[i - 1] == values[i]:
            continue
        mark = math.floor(values[i]) + 1 if values[i - 1] > math.floor(values[i]) + 1 else None
        if mark is None:
            continue
        tail = f" {unit}" if unit else ""
        honest.append(f"{_COUNTS[i]} of the {len(values)} {verb} over {money}{mark:,}{tail}.")
        lies.append(f"{_COUNTS[i + 1]} of the {len(values)} {verb} over {money}{mark:,}{tail}.")
    _check(case, honest, lies)
