"""What a model derives from the rows it cites is read and held to them (issue 43): a bound said
of a member, a move between two rows of a series, a sum of rows, a member's share of the whole,
a total per unit of time, a gap named with a metric of several words.

Every case is generated from the rules analyst's own clean answers on two domains or more (the
flights, the shop, the demo): the honest sentence the cited values give is served clean, the
same sentence with the number or the direction the rows contradict is withheld. Before these
readings each honest sentence was withheld as an unsupported number or a window no claim
cites, or shown unread (issue 43: "withhold only what is proven false")."""

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
    """The members (or periods) a breakdown or series answer cites, with their values, in the
    answer's order."""
    out = []
    for claim in answer["claims"]:
        m = _ROW.search(claim["sources"][0]) if claim["kind"] == "measurement" else None
        if m is not None:
            out.append((m["member"], float(claim["value"])))
    return out


def _n(value: float) -> str:
    return f"{value:,.0f}"


def _served(case, sentence: str) -> str:
    return appended(case, sentence).decision


def _check(case, honest: list[str], lies: list[str]) -> None:
    assert honest and lies
    wrong = [f"honest {_served(case, s)}: {s}" for s in honest if _served(case, s) != "serve"]
    wrong += [f"lie {_served(case, s)}: {s}" for s in lies if _served(case, s) != "withhold"]
    assert not wrong, "\n".join(wrong)


# --- a bound said of a member: a one-sided interval its row lies in ----------------------------

BOUNDED = [("flights", "flights_layer", "breakdown-004", "flew", "flights"),
           ("flights", "flights_layer", "breakdown-001", "had", "cancelled flights"),
           ("shop", "shop_layer", "breakdown-002", "took", "orders")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "verb", "unit"), BOUNDED)
def test_a_bound_said_of_a_member_holds_its_row(request, domain, fixture, qid, verb, unit):
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    honest, lies = [], []
    for member, v in _rows(case.answer)[:5]:
        if v < 30:
            continue  # a small count is a list's length as often as a value
        above, below = 10 * math.ceil(v * 1.3 / 10), 10 * math.floor(v * 0.7 / 10)
        honest += [f"{member} {verb} fewer than {_n(above)} {unit}.",
                   f"{member} {verb} more than {_n(below)} {unit}."]
        lies += [f"{member} {verb} more than {_n(above)} {unit}.",
                 f"{member} {verb} fewer than {_n(below)} {unit}."]
    _check(case, honest, lies)


def test_a_bound_in_another_unit_of_time_is_converted(request):
    """'LGA averaged under 20 minutes' of a metric in minutes; said of a member, not of every
    row ('only', 'every' are their own reading)."""
    case = clean_cases(request.getfixturevalue("flights_layer"), "flights",
                       {"breakdown-002"})["breakdown-002"]
    _check(case, ["LGA averaged under 20 minutes.", "JFK averaged over 20 minutes.",
                  "JFK averaged under 1 hour.", "Only LGA averaged under 20 minutes."],
           ["JFK averaged over 25 minutes.", "LGA averaged over 20 minutes.",
            "Only EWR averaged under 20 minutes."])


# --- a move between two rows of a cited series ------------------------------------------------

SERIES = [("flights", "flights_layer", "series-001", "Flights", "", "flights"),
          ("shop", "shop_layer", "series-001", "Revenue", "$", "revenue"),
          ("shop", "shop_layer", "series-004", "New customers", "", "new customers")]


def _month(period: str) -> str:
    return calendar.month_name[dt.date.fromisoformat(period).month]


@pytest.mark.parametrize(("domain", "fixture", "qid", "metric", "money", "noun"), SERIES)
def test_a_move_between_two_rows_is_held_to_them(request, domain, fixture, qid, metric, money,
                                                 noun):
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case.answer)
    honest, lies = [], []
    for (p0, v0), (p1, v1) in zip(rows, rows[1:], strict=False):
        if v0 == v1:
            continue
        way, other = ("rose", "fell") if v1 > v0 else ("fell", "rose")
        step, pct = abs(v1 - v0), abs(v1 - v0) / v0 * 100
        honest += [f"{metric} {way} in {_month(p1)}.",
                   f"{metric} {way} by {money}{_n(step)} in {_month(p1)}.",
                   f"In {_month(p1)}, {noun} {way} {pct:.1f} %.",
                   f"From {_month(p0)} to {_month(p1)} {noun} {way} by about {money}"
                   f"{_n(round(step, -1) if step > 100 else step)}."]
        lies += [f"{metric} {other} in {_month(p1)}.",
                 f"{metric} {way} by {money}{_n(step * 1.5 + 10)} in {_month(p1)}.",
                 f"In {_month(p1)}, {noun} {way} {pct * 1.5 + 1:.1f} %."]
    _check(case, honest, lies)


# --- a sum of cited rows ----------------------------------------------------------------------

SUMMED = [("flights", "flights_layer", "breakdown-001", "had", "cancelled flights"),
          ("shop", "shop_layer", "breakdown-002", "took", "orders"),
          ("flights", "flights_layer", "breakdown-004", "flew", "flights")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "verb", "unit"), SUMMED)
def test_a_sum_of_cited_rows_is_held_to_them(request, domain, fixture, qid, verb, unit):
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case.answer)
    ranked = sorted((v for _, v in rows), reverse=True)
    honest, lies = [], []
    for (a, va), (b, vb) in combinations(rows[:4], 2):
        honest.append(f"{a} and {b} together {verb} {_n(va + vb)} {unit}.")
        lies.append(f"{a} and {b} together {verb} {_n((va + vb) * 1.3 + 10)} {unit}.")
    for k in (2, 3):
        honest.append(f"The top {k} accounted for {_n(sum(ranked[:k]))} {unit}.")
        lies.append(f"The top {k} accounted for {_n(sum(ranked[:k]) * 1.2 + 10)} {unit}.")
    honest.append(f"All {len(rows)} {verb} {_n(sum(ranked))} {unit} in total.")
    lies.append(f"All {len(rows)} {verb} {_n(sum(ranked) + 100)} {unit} in total.")
    _check(case, honest, lies)


def test_a_sum_of_a_series_rows_over_a_named_period(request):
    case = clean_cases(request.getfixturevalue("shop_layer"), "shop",
                       {"series-001"})["series-001"]
    rows = _rows(case.answer)  # April, May, June 2019
    total = sum(v for _, v in rows)
    _check(case, [f"Q2 revenue totalled about ${round(total, -2):,.0f}.",
                  f"Revenue in April and May combined was ${rows[0][1] + rows[1][1]:,.2f}."],
           [f"Q2 revenue totalled about ${round(total * 1.1, -2):,.0f}.",
            f"Revenue in April and May combined was ${rows[0][1] + rows[2][1]:,.2f}."])


# --- a member's share of the whole ------------------------------------------------------------

SHARED = [("flights", "flights_layer", "breakdown-001", "February's cancellations"),
          ("shop", "shop_layer", "breakdown-002", "May's orders")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "whole"), SHARED)
def test_a_members_share_of_the_whole(request, domain, fixture, qid, whole):
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case.answer)
    total = sum(v for _, v in rows)
    honest, lies = [], []
    for member, v in rows[:4]:
        share = v / total * 100
        honest.append(f"{member} accounted for {share:.1f} % of {whole}.")
        lies.append(f"{member} accounted for {share + 10:.1f} % of {whole}.")
    _check(case, honest, lies)


# --- a cited total per unit of time -----------------------------------------------------------

def test_a_total_per_unit_of_time(request):
    flights = request.getfixturevalue("flights_layer")
    june = clean_cases(flights, "flights", {"change-001"})["change-001"]  # 563 → 1,009
    _check(june, ["That is about 34 cancellations a day in June.",
                  "That is about 18 cancellations a day in May."],
           ["That is about 50 cancellations a day in June.",
            "That is about 28 cancellations a day in May."])
    year = clean_cases(flights, "flights", {"series-001"})["series-001"]
    second = sum(v for p, v in _rows(year.answer) if p >= "2013-07-01") / 6
    _check(year, [f"The second half averaged about {round(second, -2):,.0f} flights a month."],
           [f"The second half averaged about {round(second * 1.04, -2):,.0f} flights a month."])
    shop = clean_cases(request.getfixturevalue("shop_layer"), "shop", {"lookup-010"})
    _check(shop["lookup-010"], ["That is roughly $5,000 a month."],  # $14,938.80 over 3 months
           ["That is roughly $7,000 a month."])
    demo = clean_cases(request.getfixturevalue("layer"), "demo", {"lookup-006"})
    _check(demo["lookup-006"], ["Annualised, that is about $732k."],  # monthly: × 12
           ["Annualised, that is about $832k."])


# --- a gap named with a metric of several words -----------------------------------------------

def test_a_gap_names_its_metric_in_several_words(request):
    demo = clean_cases(request.getfixturevalue("layer"), "demo", {"breakdown-006"})
    _check(demo["breakdown-006"], ["Android had 81 more active users than iOS."],
           ["Android had 181 more active users than iOS."])
    flights = clean_cases(request.getfixturevalue("flights_layer"), "flights",
                          {"breakdown-001"})
    _check(flights["breakdown-001"], ["ExpressJet had 89 more cancelled flights than United."],
           ["ExpressJet had 49 more cancelled flights than United."])


# --- what the readings must not license -------------------------------------------------------

def test_one_rows_value_said_of_a_span_of_rows_is_no_sum(request):
    """A span of several cited rows ('from February to March', 'the second half') is named by
    the claims only for what the rows give together; one row's value said of it stays a window
    no claim cites. A bound inside an adding sentence is the sum's, not each member's; a bound
    per day is a rate, not the member's level."""
    flights = clean_cases(request.getfixturevalue("flights_layer"), "flights", {"series-001"})
    rows = dict(_rows(flights["series-001"].answer))
    feb, mar, jul = rows["2013-02-01"], rows["2013-03-01"], rows["2013-07-01"]
    _check(flights["series-001"], [f"Flights totalled {_n(feb + mar)} from February to March.",
                                   "Flights rose from February to March."],
           [f"Flights were {_n(feb)} from February to March.",
            f"The second half had {_n(jul)} flights."])
    shop = clean_cases(request.getfixturevalue("shop_layer"), "shop", {"series-001"})
    months = [v for _, v in _rows(shop["series-001"].answer)]
    _check(shop["series-001"], [f"From April to May revenue fell by ${months[0] - months[1]:,.2f}."],
           [f"Revenue was ${months[0]:,.2f} from April to May."])
    stores = clean_cases(request.getfixturevalue("shop_layer"), "shop", {"breakdown-002"})
    _check(stores["breakdown-002"],  # Brooklyn 263, Philadelphia 174 in May (31 days)
           ["Brooklyn and Philadelphia together took more than 400 orders.",
            "Brooklyn had more than 5 orders a day."],
           ["Brooklyn and Philadelphia together took more than 500 orders.",
            "Brooklyn had more than 50 orders a day."])


# --- a member named with a value -------------------------------------------------------------

NAMED = [("flights", "flights_layer", "breakdown-004", "flights"),
         ("shop", "shop_layer", "breakdown-002", "orders"),
         ("demo", "layer", "breakdown-006", "active users")]


@pytest.mark.parametrize(("domain", "fixture", "qid", "unit"), NAMED)
def test_a_member_named_before_its_value_is_held_to_its_row(request, domain, fixture, qid,
                                                            unit):
    """'Brooklyn had 2,093 orders' (Online's), "Brooklyn's orders were 2,093", 'Brooklyn was
    2,093': the member named before the number and the metric after it (or before, with the
    member its possessive; or none, of an answer citing one metric) bind the number to that
    member's row; another member's value is `mislabelled_member`. Before, only 'Orders at
    Brooklyn were 2,093' bound them, and these shapes were served clean ('came first … then' is
    unread: the lie is at least withheld, the honest one caveated)."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case.answer)[:4]
    honest, lies = [], []
    for (a, va), (b, vb) in combinations(rows, 2):
        if va == vb:
            continue
        honest += [f"{a} had {_n(va)} {unit}.", f"{b}'s {unit} were {_n(vb)}.",
                   f"{a} was {_n(va)}."]
        lies += [f"{a} had {_n(vb)} {unit}.", f"{b}'s {unit} were {_n(va)}.",
                 f"{a} was {_n(vb)}.", f"{a} came first with {_n(vb)}, then {b} at {_n(va)}."]
    _check(case, honest, lies)
