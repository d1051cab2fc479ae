"""A number in a claim's text that the cited rows give together is read as that derivation and
held to it (issue 43 item 3): a true one is not withheld, one of the wrong size is, naming the
span. Generated from the rules analyst's own clean answers on the demo, the shop and the
flights: the sizes are worked out from the cited rows, never written in."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

import pytest
from answer_words import clean_cases

from showwork.benchmarks.audit import Case, case_report

COMPARISONS = [
    # domain, layer fixture, question: a change between two periods whose claim cites both ends
    ("demo", "layer", "compare-006"),  # android reminder open rate: a rate, in points
    ("demo", "layer", "compare-007"),  # new users
    ("shop", "shop_layer", "compare-006"),  # new customers
    ("flights", "flights_layer", "change-002"),  # average departure delay, minutes
    ("flights", "flights_layer", "change-005"),  # cancellation rate: a rate, in points
]


def _claim_edited(case: Case, index: int, text: str) -> Any:
    """The audit of the case's clean answer with claim `index` (0-based) holding `text`."""
    claims = [dict(c) for c in case.answer["claims"]]
    claims[index]["text"] = text
    return case_report(case, {**case.answer, "claims": claims})


def _ends(case: Case) -> tuple[int, float, float, str | None]:
    """The claim citing a comparison's two ends: its index, the ends, its metric's unit."""
    for i, claim in enumerate(case.answer["claims"]):
        fields = {s.rsplit(".", 1)[1] for s in claim.get("sources") or []}
        if {"value", "previous"} <= fields:
            handle, rest = claim["sources"][0][1:].split(":", 1)
            metric = rest.split(".")[0]
            values = case.results[int(handle)]["rows"][0]["values"][metric]
            unit = (case.catalog["metrics"].get(metric) or {}).get("unit")
            return i, float(values["value"]), float(values["previous"]), unit
    raise AssertionError("no claim cites both ends")


def _size(delta: float, unit: str | None) -> str:
    """A difference written as a person writes it beside the ends, in the metric's units."""
    if unit == "fraction":
        return f"{abs(delta) * 100:.1f} points"
    if unit == "minutes":
        return f"{abs(delta):.1f} minutes"
    return f"{abs(delta):,.0f}" if float(delta).is_integer() else f"{abs(delta):,.1f}"


def _with(text: str, words: str) -> str:
    """The claim's text with `words` after its two ends ('(154 → 1,974, …)')."""
    at = text.index(")")
    return f"{text[:at]}, {words}{text[at:]}"


@pytest.mark.parametrize(("domain", "fixture", "qid"), COMPARISONS)
def test_a_difference_of_the_two_cited_ends(request: pytest.FixtureRequest, domain: str,
                                            fixture: str, qid: str) -> None:
    """'a drop of 37.7 points', '7.8 minutes longer': the difference of the two cited ends
    (of a rate in percentage points) is read and served; half as large again is withheld as
    a mismatch naming what the text says."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    i, now, before, unit = _ends(case)
    text = case.answer["claims"][i]["text"]
    way = "a rise of" if now > before else "a drop of"
    honest = _claim_edited(case, i, _with(text, f"{way} {_size(now - before, unit)}"))
    assert honest.decision != "withhold", (honest.to_json()["defects"], honest.not_checked)
    wrong = _size((now - before) * 1.5 + (0.01 if unit == "fraction" else 1), unit)
    lie = _claim_edited(case, i, _with(text, f"{way} {wrong}"))
    assert lie.decision == "withhold"
    assert [d.code for d in lie.defects] == ["text_value_mismatch"]
    assert lie.defects[0].citation in wrong and wrong.split()[0] in lie.defects[0].message


def test_points_of_a_rate_are_checked_whole(layer: Any, flights_layer: Any) -> None:
    """'a drop of 37.7 points' of a rate's two cited ends is read, 'points' included: served
    clean on the demo and the flights, as 'percentage points' is."""
    for layer_, domain, qid in ((layer, "demo", "compare-006"),
                                (flights_layer, "flights", "change-005")):
        case = clean_cases(layer_, domain, {qid})[qid]
        i, now, before, unit = _ends(case)
        assert unit == "fraction"
        way = "a rise of" if now > before else "a drop of"
        text = _with(case.answer["claims"][i]["text"], f"{way} {_size(now - before, unit)}")
        report = _claim_edited(case, i, text)
        assert report.decision == "serve", (domain, report.not_checked)


@pytest.mark.parametrize(("domain", "fixture", "qid"), [("demo", "layer", "compare-007"),
                                                        ("shop", "shop_layer", "compare-006")])
def test_a_bounded_multiple_of_the_previous_end(request: pytest.FixtureRequest, domain: str,
                                                fixture: str, qid: str) -> None:
    """'more than 11-fold' of 154 → 1,974 (12.8 times), 'more than 3-fold' of 190 → 702 (3.7
    times): a multiple the ratio of the cited ends exceeds, past a bound's own reach, is
    not withheld; one it misses ('more than 14-fold', 'more than 5-fold') is."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    i, now, before, _unit = _ends(case)
    ratio = now / before
    assert ratio >= 3 and not ratio.is_integer()
    text = case.answer["claims"][i]["text"]
    met = _claim_edited(case, i, _with(text, f"more than {math.floor(ratio / 1.15)}-fold"))
    assert met.decision != "withhold", met.to_json()["defects"]
    missed = _claim_edited(case, i, _with(text, f"more than {math.ceil(ratio) + 1}-fold"))
    assert missed.decision == "withhold"
    assert [d.code for d in missed.defects] == ["text_value_mismatch"]


RANKINGS = [
    # domain, layer fixture, question: a ranking whose conclusion names the top member
    ("shop", "shop_layer", "ranking-002"),
    ("flights", "flights_layer", "ranking-003"),
    ("demo", "layer", "ranking-001"),
]

_MEMBER = re.compile(r"\[\w+=(\"?)(?P<member>.*?)\1\]")


def _rows(case: Case) -> list[tuple[int, str, float]]:
    """Each measurement claim citing one member's row: its index, the member, the value,
    largest first."""
    out = []
    for i, claim in enumerate(case.answer["claims"]):
        if claim["kind"] == "measurement" and (m := _MEMBER.search(claim["sources"][0])):
            out.append((i, m["member"], float(claim["value"])))
    return sorted(out, key=lambda r: -r[2])


def _gap(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 or float(value).is_integer() else f"{value:,.1f}"


@pytest.mark.parametrize(("domain", "fixture", "qid"), RANKINGS)
def test_a_gap_to_another_cited_member(request: pytest.FixtureRequest, domain: str,
                                       fixture: str, qid: str) -> None:
    """'…, 6 fewer than Mug, 12 oz' in the top member's measurement claim and in the ranking's
    conclusion: the gap the two cited rows give is not withheld (the other member is what the
    claim measures its own row against, no mislabelled member); half as large again is."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    (top, first, a), (_, second, b) = _rows(case)[:2]
    conclusion = next(i for i, c in enumerate(case.answer["claims"]) if c["kind"] != "measurement")
    for i in (top, conclusion):
        text = case.answer["claims"][i]["text"]
        honest = _claim_edited(case, i, f"{text}, {_gap(a - b)} more than {second}")
        assert honest.decision != "withhold", (i, honest.to_json()["defects"],
                                               [f.code for f in honest.findings])
        lie = _claim_edited(case, i, f"{text}, {_gap((a - b) * 1.5 + 1)} more than {second}")
        assert lie.decision == "withhold", (i, [f.code for f in lie.findings])
    assert first != second


@pytest.mark.parametrize(("domain", "fixture", "qid"), [("shop", "shop_layer", "breakdown-003"),
                                                        ("flights", "flights_layer",
                                                         "breakdown-008")])
def test_members_measured_against_are_no_mislabel(request: pytest.FixtureRequest, domain: str,
                                                  fixture: str, qid: str) -> None:
    """'more than beverage and merch combined' in the top member's claim names the members it
    is measured against, not its own row: no mislabelled member, so not withheld when true,
    and never served clean ('combined' is read by no check), true or not."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = _rows(case)
    (top, _first, a), rest = rows[0], rows[1:]
    text = case.answer["claims"][top]["text"]
    honest = [m for _, m, _ in rest[-2:]]  # the two smallest
    assert sum(v for _, _, v in rest[-2:]) < a
    said = _claim_edited(case, top, f"{text}, more than {' and '.join(honest)} combined")
    assert said.decision == "serve_with_caveats"
    assert not [f for f in said.findings if f.code == "mislabelled_member"]
    if len(rest) >= 2 and sum(v for _, _, v in rest[:2]) > a:
        lie = _claim_edited(case, top, f"{text}, more than {' and '.join(m for _, m, _ in rest[:2])}"
                                       " combined")
        assert lie.decision != "serve"
    # the member the claim states stays held to its row: the top named as another's is withheld
    swapped = _claim_edited(case, rows[1][0], case.answer["claims"][rows[1][0]]["text"]
                            .replace(rows[1][1], rows[0][1]))
    assert swapped.decision == "withhold"


@pytest.mark.parametrize(("domain", "fixture", "qid"), [("demo", "layer", "ranking-001"),
                                                        ("flights", "flights_layer",
                                                         "ranking-003")])
def test_a_listed_key_in_words(request: pytest.FixtureRequest, domain: str, fixture: str,
                               qid: str) -> None:
    """A listed key written as the words that name its member ('paid search' of paid_search,
    an airline in lower case) is that member's: served as the clean answer is; a key naming
    another member is withheld."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    values = [dict(v) for v in case.answer["values"]]
    words = [{**v, "key": v["key"].replace("_", " ").lower()} for v in values]
    assert words != values
    same = case_report(case, {**case.answer, "values": words,
                              "value": words[0]["key"] if isinstance(case.answer["value"], str)
                              else case.answer["value"]})
    assert same.decision == case_report(case, case.answer).decision
    swapped = [{**values[0], "key": values[1]["key"]}, {**values[1], "key": values[0]["key"]},
               *values[2:]]
    assert case_report(case, {**case.answer, "values": swapped}).decision == "withhold"


def _period_words(start: str, grain: str) -> str:
    """A period as people write it: 'Q4 2013', 'September 2018'."""
    day = dt.date.fromisoformat(start[:10])
    return f"Q{(day.month - 1) // 3 + 1} {day.year}" if grain == "quarter" else \
        day.strftime("%B %Y")


@pytest.mark.parametrize(("domain", "fixture", "qid", "grain"),
                         [("flights", "flights_layer", "series-005", "quarter"),
                          ("shop", "shop_layer", "series-004", "month")])
def test_a_period_measured_against(request: pytest.FixtureRequest, domain: str, fixture: str,
                                   qid: str, grain: str) -> None:
    """'…, higher than Q4 2013' in the highest period's claim names the period it is measured
    against, not its own: no mislabelled window, not withheld; said of the lowest period, the
    comparison is never served clean."""
    case = clean_cases(request.getfixturevalue(fixture), domain, {qid})[qid]
    rows = []
    for i, claim in enumerate(case.answer["claims"]):
        m = re.search(rf"\[{grain}=\"?([\d-]+)", (claim.get("sources") or [""])[0])
        if claim["kind"] == "measurement" and m:
            rows.append((float(claim["value"]), m.group(1), i))
    rows.sort()
    (low, low_start, low_i), (high, high_start, high_i) = rows[0], rows[-1]
    assert high > low
    text = case.answer["claims"][high_i]["text"]
    honest = _claim_edited(case, high_i, f"{text}, higher than {_period_words(low_start, grain)}")
    assert honest.decision != "withhold", [f.message for f in honest.findings]
    assert not [f for f in honest.findings if f.code == "mislabelled_window"]
    text = case.answer["claims"][low_i]["text"]
    lie = _claim_edited(case, low_i, f"{text}, higher than {_period_words(high_start, grain)}")
    assert lie.decision != "serve"
