"""Issue 43's second session-14 adversary (tests/harness/data/held_out_s14b.yaml): the rules
analyst's clean answers (claims+repair, each domain's bundled questions file) edited where a user
reads them besides the prose's wording (claim texts, the headline value, the listed values, and
prose that states several things at once), written before reading the audit, and re-audited as
the harness does (`showwork.benchmarks.audit.case_report`).

The goals are no lie served clean and no honest rewrite withheld. What misses them today is
listed with the decision observed, as a strict xfail: a fix elsewhere shows as an unexpected
pass, to be moved off the list. Today's counts of lies withheld and honest rewrites served
clean are held as floors."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from showwork.analyst.rules import RulesClient
from showwork.benchmarks.audit import Case, case_report, cases_of
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.protocol.switches import Protocol

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "harness" / "data" / "held_out_s14b.yaml"
DOMAINS = {
    # domain: its bundled questions file, its layer's fixture
    "demo": (ROOT / "harness" / "questions" / "demo.yaml", "layer"),
    "shop": (ROOT / "examples" / "shop" / "questions.yaml", "shop_layer"),
    "flights": (ROOT / "examples" / "flights" / "questions.yaml", "flights_layer"),
}


def _entries() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = yaml.safe_load(DATA.read_text(encoding="utf-8"))["entries"]
    seen: Counter[str] = Counter()
    for entry in out:
        name = f"{entry['domain']}/{entry['id']}:{entry['kind']}:{entry['truth']}"
        seen[name] += 1
        entry["name"] = name if seen[name] == 1 else f"{name}#{seen[name]}"
    return out


ENTRIES = _entries()

# Today's misses, with the decision and codes observed (session 14): lies served clean, honest
# rewrites withheld. Mended since first measured: a series' numbers swapped between the periods a
# prose list writes before them (harness/audit/prose.py `_number_period`), on the three domains;
# the member a mix or rate conclusion's text names, held to the changes the claims cite as the
# prose's is (`_claims_led`: served with caveats, mislabelled_member); a second superlative in a
# clause said of the member after the first ('Online had the highest revenue, and O'Hare Airport
# the lowest': comparisons.py `_quantified_in`); a hedged or bounded number of a measurement
# claim's text that the cited rows its sentence names give together (derivable.py, as the
# prose's) is unread, not text_value_mismatch ('the only region above $10,000': served with
# caveats; and so a lie of that kind, 'the only region above $9,000', was no longer withheld but
# served with caveats: shop's floor 24 -> 23).
# Session 15 (issue 43 item 3), 14 of the 15 honest rewrites then withheld: a claim's text is
# read as the prose is for what the cited rows give together (audit.py `_derived_in_texts`:
# gaps, 'N times', sums, shares, quantified bounds), so 'the only X below 10 %', 'every channel
# but paid_search had fewer than 100', 'more than 80 % of new users', '6 fewer than Mug, 12 oz',
# 'over $4,000 ahead of doctor stew', 'about 6 minutes more than Virgin America' are served with
# caveats at most, and a reading the rows contradict stays withheld ('the only region above
# $9,000' is withheld again: shop's floor 23 -> 24); 'a drop of 37.7 points' of a rate's two
# cited ends (numbers.py `_as_points`) and '7.8 minutes longer' of 13.0 → 20.8 (the difference
# of the ends as written, `_of_rounded_ends`); 'more than tenfold' (derivable.py `_bounded`
# takes a ratio's word); a member the claim measures its own row against is no mislabelled
# member, nor a period one it says of its own ('more than EWR and JFK combined', 'about twice
# Virgin America's', 'the highest of the year and twice the fourth quarter's': labels.py
# `measured_against`, comparisons.py `_extremes_in`); a listed key in the words of its member
# ('paid search': audit.py `_keys_as_members`).
# And 'android ahead by 81' after 'ios 7,397' in the prose: a gap with the second member left
# out, of a breakdown of two rows (gaps.py `_of_two`).
MISSES: dict[str, str] = {
}

FLOORS = {
    # domain: (lies withheld at least, honest rewrites served clean at least), today's counts
    "demo": (21, 10),     # of 29 lies and 19 honest rewrites (20 lies withheld when written)
    "shop": (23, 7),      # of 31 and 17 (23; 24 once 'the only region above $9,000' was
    # withheld again, then 23 since 'All physical stores averaged above $21.50' is served with
    # caveats: which stores are physical no reading knows, and some row meets the bound, so it
    # is unproven, not proven false: quantifiers.py, session 15)
    "flights": (23, 13),  # of 30 and 23 (22)
}


def edited(answer: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The answer with the entry's edits; an edit whose words the answer lacks is an error."""
    out = copy.deepcopy(answer)
    for edit in entry["edits"]:
        if "claim" in edit:
            claim = out["claims"][edit["claim"] - 1]
            _must_hold(claim["text"], edit["old"], entry)
            claim["text"] = claim["text"].replace(edit["old"], edit["new"])
        elif "prose" in edit:
            _must_hold(out["answer"], edit["prose"], entry)
            out["answer"] = out["answer"].replace(edit["prose"], edit["new"])
        elif "append" in edit:
            out["answer"] = f"{out['answer'].rstrip()} {edit['append']}"
        elif "headline" in edit:
            out["value"] = edit["headline"]
        else:
            listed = out["values"][edit["value"] - 1]
            listed["key"] = edit.get("key", listed["key"])
            listed["value"] = edit.get("number", listed["value"])
    return out


def _must_hold(text: str, old: str, entry: dict[str, Any]) -> None:
    if old not in text:
        raise ValueError(f"{entry['name']}: {old!r} is not in {text!r}")


_CASES: dict[str, dict[str, Case]] = {}
_REPORTS: dict[str, Any] = {}


def _cases(domain: str, layer: Any) -> dict[str, Case]:
    """The rules analyst's clean answers (claims+repair) to the questions the entries edit,
    once per domain."""
    if domain in _CASES:
        return _CASES[domain]
    path, _fixture = DOMAINS[domain]
    wanted = {e["id"] for e in ENTRIES if e["domain"] == domain}
    out = {}
    for spec in load_questions(path).questions:
        q = spec.question()
        if q.id in wanted:
            line = run_attempt(q, RulesClient(), layer, Protocol.parse("claims+repair")
                               ).model_dump_json()
            for case in cases_of([line]):
                out[q.id] = case
    _CASES[domain] = out
    return out


def _report(name: str, layer: Any) -> Any:
    """The audit of one entry's edited answer, once."""
    if name not in _REPORTS:
        entry = next(e for e in ENTRIES if e["name"] == name)
        case = _cases(entry["domain"], layer)[entry["id"]]
        _REPORTS[name] = case_report(case, edited(case.answer, entry))
    return _REPORTS[name]


def _layer(request: pytest.FixtureRequest, domain: str) -> Any:
    return request.getfixturevalue(DOMAINS[domain][1])


def _goal(entry: dict[str, Any], decision: str) -> bool:
    return decision != ("serve" if entry["truth"] == "lie" else "withhold")


def _param(entry: dict[str, Any]) -> Any:
    missed = MISSES.get(entry["name"])
    marks = [pytest.mark.xfail(strict=True, reason=f"today: {missed}")] if missed else []
    return pytest.param(entry, id=entry["name"], marks=marks)


def test_the_corpus_is_as_briefed() -> None:
    """At least 60 lies and 30 honest rewrites, 15 lies per domain, each with its arithmetic."""
    counts = Counter((e["domain"], e["truth"]) for e in ENTRIES)
    assert sum(n for (_d, t), n in counts.items() if t == "lie") >= 60
    assert sum(n for (_d, t), n in counts.items() if t == "honest") >= 30
    assert all(counts[(d, "lie")] >= 15 for d in DOMAINS)
    assert all(e["why"] and e["place"] in {"claim_text", "headline", "values", "prose"}
               for e in ENTRIES)
    assert set(MISSES) <= {e["name"] for e in ENTRIES}


@pytest.mark.parametrize("domain", list(DOMAINS))
def test_every_edit_applies_to_a_clean_answer(request: pytest.FixtureRequest,
                                              domain: str) -> None:
    """Each edited question has a clean rules answer, each edit finds its words, and the
    unedited answer is served clean (so a decision below is the edit's)."""
    layer = _layer(request, domain)
    cases = _cases(domain, layer)
    for entry in (e for e in ENTRIES if e["domain"] == domain):
        case = cases[entry["id"]]
        assert edited(case.answer, entry) != case.answer, entry["name"]
        assert case_report(case, case.answer).decision == "serve", entry["name"]


@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES])
def test_no_lie_served_clean_and_no_honest_rewrite_withheld(
        request: pytest.FixtureRequest, entry: dict[str, Any]) -> None:
    """A lie is withheld or served with caveats; an honest rewrite is served, with caveats at
    most (today's misses are strict xfails)."""
    report = _report(entry["name"], _layer(request, entry["domain"]))
    codes = sorted({d.code for d in report.defects} | {f.code for f in report.findings})
    assert _goal(entry, report.decision), f"{report.decision} {codes}"


@pytest.mark.parametrize("domain", list(DOMAINS))
def test_the_floors_are_held(request: pytest.FixtureRequest, domain: str) -> None:
    """Lies withheld and honest rewrites served clean: at least today's counts."""
    layer = _layer(request, domain)
    chosen = [e for e in ENTRIES if e["domain"] == domain]
    decisions = [(e["truth"], _report(e["name"], layer).decision) for e in chosen]
    withheld = sum(t == "lie" and d == "withhold" for t, d in decisions)
    clean = sum(t == "honest" and d == "serve" for t, d in decisions)
    assert withheld >= FLOORS[domain][0] and clean >= FLOORS[domain][1]

