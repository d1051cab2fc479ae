"""The audit's own adversary (benchmarks/adversary.py): each lie edits a clean answer, and each
honest rewrite changes how it is written but keeps its numbers; on rules answers of the demo and
the shop."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from showwork.benchmarks.adversary import LIE_CODES, LIES, REWRITES
from showwork.benchmarks.audit import Case, case_report, cases_of, rules_traces
from showwork.harness.experiments.questions import load_questions
from showwork.protocol.numbers import from_value, matches, read_numbers

ROOT = Path(__file__).resolve().parents[2]
PER_CATEGORY = 2
"""Rules answers per question category: one of each shape is enough to place every lie."""


def _some(questions: Iterable[Any]) -> list[Any]:
    taken: dict[str | None, int] = {}
    out = []
    for spec in questions:
        if spec.answerable and taken.get(spec.category, 0) < PER_CATEGORY:
            taken[spec.category] = taken.get(spec.category, 0) + 1
            out.append(spec.question())
    return out


@pytest.fixture(scope="module")
def demo(layer) -> list[Case]:
    return cases_of(rules_traces(layer, _some(load_questions().questions)))


@pytest.fixture(scope="module")
def shop(shop_layer) -> list[Case]:
    questions = load_questions(ROOT / "examples" / "shop" / "questions.yaml").questions
    return cases_of(rules_traces(shop_layer, _some(questions)))


@pytest.fixture(scope="module")
def domains(demo, shop) -> dict[str, list[Case]]:
    assert len(demo) >= 8 and len(shop) >= 8  # clean rules answers of every category
    return {"demo": demo, "shop": shop}


def _lies(cases: list[Case], kind: str) -> list[tuple[Case, dict[str, Any]]]:
    out = []
    for i, case in enumerate(cases):
        clean = copy.deepcopy(case.answer)
        lied = LIES[kind](case.answer, case.results, case.catalog, random.Random(i))
        assert case.answer == clean, "a lie must not edit the clean answer in place"
        if lied is not None:
            out.append((case, lied))
    return out


SHARE_ONLY = {"share_part"}
"""Lies placed only in an answer that states a share of the total (the flights' share
questions; tests/harness/test_change_findings.py holds them there, on the shop and the
flights)."""


@pytest.mark.parametrize("kind", sorted(set(LIES) - SHARE_ONLY))
def test_each_lie_edits_the_answer(domains, kind: str) -> None:
    """Every lie kind finds a place in some clean answer of the two domains, and each lie it
    tells is an answer other than the clean one, which the audit catches by the kind's codes."""
    made = caught = 0
    for cases in domains.values():
        for case, lied in _lies(cases, kind):
            assert lied != case.answer
            made += 1
            report = case_report(case, lied)
            codes = {d.code for d in report.defects} | {f.code for f in report.findings}
            caught += bool(codes & set(LIE_CODES[kind]))
    assert made >= 2, kind
    assert caught / made >= 0.9, (kind, caught, made)


def test_every_lie_kind_is_placed_on_both_domains_where_it_can_be(domains) -> None:
    """Each domain takes every lie but those its answers have no place for: a value in usd
    (the demo has none)."""
    placed = {name: {k for k in LIES if _lies(cases, k)} for name, cases in domains.items()}
    assert placed["shop"] == set(LIES) - SHARE_ONLY
    assert placed["demo"] == set(LIES) - {"wrong_unit"} - SHARE_ONLY


def _numbers(answer: dict[str, Any]) -> list[Any]:
    return list(read_numbers(answer.get("answer") or ""))


def _kept(new: Any, old: list[Any]) -> bool:
    """A number of the rewritten prose states one of the clean prose's values (or the size of
    one), at the precision the rewrite wrote it."""
    return any(matches(new, n.value, "percent" if n.percent else "number")
               or matches(new, -n.value, "percent" if n.percent else "number") for n in old)


def _untexted(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The claims but for their texts (a claim rewrite, `from_to`, changes only how a claim is
    written)."""
    return [{k: v for k, v in c.items() if k != "text"} for c in claims]


@pytest.mark.parametrize("kind", REWRITES)
def test_honest_rewrites_keep_the_numbers(domains, kind: str) -> None:
    """A rewrite changes only how the answer is written: its claims (but for their texts) and
    listed values are the clean answer's, its headline the same number, every number of its prose one the clean
    prose states, and its audit the clean one's (served, no finding)."""
    made = 0
    for cases in domains.values():
        for i, case in enumerate(cases):
            written = REWRITES[kind](case.answer, case.catalog, random.Random(i))
            if written is None:
                continue
            made += 1
            clean = case.answer
            assert written != clean
            assert (_untexted(written["claims"]), written.get("values")) == (
                _untexted(clean["claims"]), clean.get("values"))
            value = written.get("value")
            if isinstance(value, str) and not isinstance(clean.get("value"), str):
                (read,) = read_numbers(value)
                assert matches(read, clean["value"])
            else:
                assert value == clean.get("value")
            old = _numbers(clean)
            assert all(_kept(n, old) for n in _numbers(written)), written["answer"]
            report = case_report(case, written)
            assert (report.decision, report.findings, report.defects) == ("serve", [], [])
    assert made >= RARE.get(kind, 2), kind


RARE = {"true_flat": 1, "true_ratio": 0, "true_universal": 1, "true_run": 1,
        "true_share_part": 0}
"""Rewrites whose place is rare in two answers per category (a move within ±2 %, a rise of 50 %
or more, a series that moved one way every period, a series with two or more moves in a row,
a share of the total, which these two domains' answers never state);
the same rewrite is tried on more answers of three domains in tests/harness/test_change_findings.py,
tests/harness/test_count_claims.py and by `bench audit`'s adversary."""


def test_a_json_headline_is_read_as_its_repr() -> None:
    """The string headline a rewrite writes states its number: '11,343' is 11343."""
    assert matches(read_numbers("11,343")[0], 11343) and matches(from_value(11343), 11343)
