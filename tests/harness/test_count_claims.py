"""Counts of cited rows, runs of a series and a series' extremes are numbers the audit checks
(harness/audit/counts.py, numbers.py `check_counts`, comparisons.py): on rules answers of the
demo and the shop, a true count, run or extreme is served and a wrong one withheld."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from showwork.analyst.faults.findings import support
from showwork.benchmarks.adversary import (
    _counted,
    _plural,
    _row_value,
    _series_values,
    _true_counts,
)
from showwork.benchmarks.audit import Case, case_report, cases_of, rules_traces
from showwork.harness.experiments.questions import load_questions
from showwork.protocol.numbers import longest_run

ROOT = Path(__file__).resolve().parents[2]
CATEGORIES = ("breakdown", "ranking", "diagnostic", "series")


def _some(questions: list[Any]) -> list[Any]:
    taken: dict[str | None, int] = {}
    out = []
    for spec in questions:
        if spec.answerable and spec.category in CATEGORIES and taken.get(spec.category, 0) < 3:
            taken[spec.category] = taken.get(spec.category, 0) + 1
            out.append(spec.question())
    return out


@pytest.fixture(scope="module")
def domains(layer, shop_layer) -> dict[str, list[Case]]:
    shop = load_questions(ROOT / "examples" / "shop" / "questions.yaml").questions
    return {"demo": cases_of(rules_traces(layer, _some(load_questions().questions))),
            "shop": cases_of(rules_traces(shop_layer, _some(shop)))}


def _said(case: Case, sentence: str, question: str | None = None) -> tuple[str, set[str]]:
    """The decision and codes of the case's answer with `sentence` appended to its prose."""
    answer = {**case.answer, "answer": f"{case.answer['answer'].rstrip()} {sentence}"}
    report = case_report(Case(question or case.question, case.category, case.answer,
                              case.calls, case.catalog), answer)
    return report.decision, {d.code for d in report.defects} | {f.code for f in report.findings}


def _places(cases: list[Case]) -> list[tuple[Case, str, str, set[str], dict[int, set[str]]]]:
    return [(case, *place) for case in cases
            for place in _counted(case.answer, case.results, case.catalog)]


def test_a_count_of_cited_members_is_their_count(domains) -> None:
    for name, cases in domains.items():
        places = _places(cases)
        assert places, name
        for case, dim, dims, named, _moved in places:
            n = len(named)
            assert _said(case, f"All {n} {dims} are listed.") == ("serve", set())
            assert _said(case, f"The figures cover {n} {dims}.") == ("serve", set())
            wrong = next(x for x in (n + 1, n + 2, n + 3)
                         if x not in _true_counts(case.answer, case.results, dim, named))
            for sentence in (f"All {wrong} {dims} are listed.", f"Across {wrong} {dims}, it moved.",
                             "All twenty of them are listed." if n != 20 else "Two listed."):
                decision, codes = _said(case, sentence)
                assert decision == "withhold" and "unsupported_number" in codes, sentence


def test_a_part_counts_the_members_whose_change_moved_that_way(domains) -> None:
    tried = set()
    for name, cases in domains.items():
        for case, _dim, dims, named, moved in _places(cases):
            for sign, members in moved.items():
                verb = "rose" if sign > 0 else "fell"
                k, n = len(members), len(named)
                assert _said(case, f"{k} of the {n} {dims} {verb}.") == ("serve", set())
                decision, codes = _said(case, f"{(k + 1) % (n + 1)} of the {n} {dims} {verb}.")
                assert decision == "withhold" and "unsupported_number" in codes
                tried.add(name)
    assert tried == {"demo", "shop"}


def test_a_count_in_a_claim_is_held_to_the_rows(domains) -> None:
    for name, cases in domains.items():
        case, dim, dims, named, _moved = _places(cases)[0]
        claims = [dict(c) for c in case.answer["claims"]]
        wrong = max(_true_counts(case.answer, case.results, dim, named)) + 1
        claims[0]["text"] = f"{claims[0]['text']}, one of {wrong} {dims}"
        report = case_report(case, {**case.answer, "claims": claims})
        assert report.decision == "withhold", name
        assert "text_value_mismatch" in {d.code for d in report.defects}, name


def test_a_count_of_a_dimension_no_cited_result_lists_has_no_support(domains) -> None:
    for name, cases in domains.items():
        dims = cases[0].catalog["dimensions"]
        for case in cases[:4]:
            listed = {k for c in case.calls for k in (c.get("result") or {}).get("keys") or []}
            dim = next(d for d in sorted(dims) if d not in listed and "__" not in d
                       and d not in ("day", "week", "month", "quarter", "year")
                       and not str(dims[d].get("label") or d).endswith("s"))
            noun = _plural(str(dims[dim].get("label") or dim).lower())
            n = next(n for n in range(3, 10) if str(n) not in case.question)
            decision, codes = _said(case, f"The figures cover {n} {noun}.")
            assert decision == "withhold" and "unsupported_number" in codes, (name, noun)
            # the question's own number is not read as a claim (its new words may be read as
            # scope: only the number check is asked here)
            assert "unsupported_number" not in _said(
                case, f"The figures cover {n} {noun}.", question=f"{case.question} (top {n})")[1]


def _series_cases(cases: list[Case]) -> list[tuple[Case, str, list[float]]]:
    out = []
    for case in cases:
        grain, rows = _series_values(case.answer)
        if rows:
            out.append((case, grain, [rows[p] for p in sorted(rows)]))
    return out


def test_a_run_of_moves_is_held_to_the_cited_series(domains) -> None:
    for name, cases in domains.items():
        series = _series_cases(cases)
        assert series, name
        for case, grain, values in series:
            other = "month" if grain != "month" else "week"
            for way, verb in ((1, "rose"), (-1, "fell")):
                n = longest_run(values, way)
                if n >= 2:
                    assert _said(case, f"It {verb} for {n} {grain}s in a row.") == \
                        ("serve", set())
                decision, codes = _said(case, f"It {verb} for {n + 1} consecutive {grain}s.")
                assert decision == "withhold" and "unsupported_number" in codes
            decision, codes = _said(case, f"It rose for the second {other} in a row.")
            assert decision == "withhold" and "unsupported_number" in codes


def test_a_series_extreme_is_the_period_whose_row_holds_it(domains) -> None:
    for name, cases in domains.items():
        series = _series_cases(cases)
        assert series, name
        for case, _grain, _values in series:
            _g, rows = _series_values(case.answer)
            high = max(rows, key=lambda p: rows[p])
            low = min(rows, key=lambda p: rows[p])
            assert _said(case, f"It peaked in {high}; it was lowest in {low}.") == \
                ("serve", set())
            other = next(p for p in sorted(rows) if rows[p] not in (rows[high], rows[low]))
            for sentence in (f"It peaked in {other}.", f"It was lowest in {other}."):
                decision, codes = _said(case, sentence)
                assert decision == "withhold" and "mislabelled_window" in codes, sentence


def test_a_prose_number_only_an_unnamed_member_s_row_holds_is_unsupported(domains) -> None:
    """'active users six thousand', 6,007 being one channel's row: a member's value said of
    what the prose names (no member of that row); naming the member, it is that row's."""
    tried = set()
    for name, cases in domains.items():
        for case in cases:
            if case.category != "diagnostic":
                continue
            prose = case.answer["answer"].lower()
            whole = {c["value"] for c in case.answer["claims"] if isinstance(c.get("value"), int)}
            cited = [(k, v, _row_value(case.results, c.handle, dict(c.selector), c.metric,
                                       c.field))
                     for i in range(len(case.answer["claims"]))
                     for c in support(case.answer, i).citations
                     if c.field in ("value", "previous") and len(c.selector) == 1
                     for k, v in c.selector if k not in ("week", "month", "day")]
            for key, member, level in cited:
                if not isinstance(level, int) or not member or member.lower() in prose \
                        or level in whole or level < 100:
                    continue
                decision, codes = _said(case, f"The level was {level:,}.")
                assert decision == "withhold" and "unsupported_number" in codes, (name, member)
                label = case.catalog["dimensions"][key].get("label") or key
                assert "unsupported_number" not in _said(
                    case, f"For {label} {member}, the level was {level:,}.")[1], (name, member)
                tried.add(name)
                break
    assert tried == {"demo", "shop"}


def test_lies_draw_from_their_rng_alone(domains) -> None:
    """The count and series lies are the same for the same seed (the bench's draws repeat)."""
    from showwork.benchmarks.adversary import wrong_count, wrong_peak, wrong_run
    case = domains["shop"][0]
    for lie in (wrong_count, wrong_peak, wrong_run):
        assert lie(case.answer, case.results, case.catalog, random.Random(3)) == \
            lie(case.answer, case.results, case.catalog, random.Random(3))


def test_counts_are_read_with_a_dimension_s_nouns(domains) -> None:
    from showwork.harness.audit.counts import read_counts
    from showwork.harness.audit.index import CatalogIndex

    shop = CatalogIndex.build(domains["shop"][0].catalog)
    demo = CatalogIndex.build(domains["demo"][0].catalog)
    said = {text: [(c.value, c.dim, c.of) for c in read_counts(shop, text)] for text in (
        "Sales rose across 7 stores.", "All 8 of them fell.", "(46 listed)",
        "It rose in 4 of the 5 regions.", "Three customer segments moved.",
        "A 12 oz cup; 3 reasons; 11,343 in 2026-03-02..2026-03-08; -4 stores")}
    assert said == {"Sales rose across 7 stores.": [(7, "store", None)],
                    "All 8 of them fell.": [(8, "", None)], "(46 listed)": [(46, "", None)],
                    "It rose in 4 of the 5 regions.": [(4, "region", 5), (5, "region", None)],
                    "Three customer segments moved.": [(3, "segment", None)],
                    "A 12 oz cup; 3 reasons; 11,343 in 2026-03-02..2026-03-08; -4 stores": []}
    assert [(c.value, c.dim) for c in read_counts(demo, "the 3 platforms")] == [(3, "platform")]
