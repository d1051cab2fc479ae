"""Issue 43's session-15 adversary (tests/harness/data/held_out_s15.yaml): the rules analyst's
clean answers (claims+repair, each domain's bundled questions file, and the mf tutorial and ACME
projects besides) edited the way a careless or dishonest model writes (lies) and the way an honest
one restates (honest rewrites), written without reading the audit or any earlier edit list, and
re-audited as the harness does (`showwork.benchmarks.audit.case_report`).

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
DATA = ROOT / "tests" / "harness" / "data" / "held_out_s15.yaml"
DOMAINS = {
    # domain: its bundled questions file, its layer's fixture
    "demo": (ROOT / "harness" / "questions" / "demo.yaml", "layer"),
    "shop": (ROOT / "examples" / "shop" / "questions.yaml", "shop_layer"),
    "flights": (ROOT / "examples" / "flights" / "questions.yaml", "flights_layer"),
    "tutorial": (ROOT / "conformance" / "questions" / "mf_tutorial.yaml", "tutorial_layer"),
    "acme": (ROOT / "conformance" / "questions" / "acme_s14.yaml", "acme_layer"),
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

# Today's misses, with the decision and codes observed (session 15, on main at 8318ec0).
MISSES: dict[str, str] = {
    # Mended since first measured: a change's endpoints written in the wrong order in the prose
    # ('fell 16.0 % (2.35 -> 2.80)', 'from 2.35 to 2.80': prose.py `_prose_ends`, as a claim's
    # text was held), 7 lies on the five domains; a currency the metric is not in, where no
    # governed unit says it but its columns' names do ('€831.6' of a sum of
    # 'cancellations_usd': the catalog's `currency`; '¥' read as a currency), 4 lies; '61,014.03
    # US dollars' ('US' read as the country member). Honest rewrites withheld, mended: a move
    # over the whole series said before its verb ('Over the eight weeks active users grew
    # about 5.8 %': rowmoves.py); 'Android was ahead by 81' of two rows (gaps.py `_of_two`); 'the
    # third month of 2026' (protocol/periods.py); 'all but one store' (quantifiers.py); 'every
    # physical store' (a word that says which rows no reading knows: unproven, a caveat); 'CA
    # and US together made up over half' (sums.py: two members' share of the whole).
    #
    # 'had three quarters' for 66.7 %: a part of the whole is now cut where another common part
    # is nearer (two thirds: protocol/numbers.py COMMON_PARTS).
    #
    # lie served clean: 'grew by about an eighth' for +10.8 % (an eighth is 12.5 %): inside the
    # documented band of a part of a change (within 20 % of itself: docs/citations.md), which
    # the edit argues is too wide; no common part lies nearer, so left as it is
    "demo/compare-002:fraction_words:lie": "serve []",
    # honest rewrites withheld
    # 'Orders placed': 'placed' read as the order_status member (ambiguous; see its why)
    "shop/lookup-002:metric_synonym:honest": "withhold [mislabelled_member]",
    "flights/level-014:unit_conversion:honest#2": "withhold [unread_answer, unsupported_number]",
    "tutorial/s6t-019:multiplier:honest": "withhold [unread_answer, unsupported_number]",
}

FLOORS = {
    # domain: (lies withheld at least, honest rewrites served clean at least). First measured
    # (main 8318ec0): demo 62/33, shop 52/31, flights 54/35, tutorial 28/20, acme 15/4; after
    # the session's mends:
    "demo": (65, 37),      # of 93 lies and 55 honest rewrites
    "shop": (54, 32),      # of 69 and 51
    "flights": (55, 35),   # of 72 and 56
    "tutorial": (33, 21),  # of 46 and 33
    "acme": (16, 4),       # of 26 and 10
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
    """At least 150 lies and 70 honest rewrites, 15 lies per domain, each with its arithmetic."""
    counts = Counter((e["domain"], e["truth"]) for e in ENTRIES)
    assert sum(n for (_d, t), n in counts.items() if t == "lie") >= 150
    assert sum(n for (_d, t), n in counts.items() if t == "honest") >= 70
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

