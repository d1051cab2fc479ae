"""Held-out answer edits of session 14 (issue 43, tests/harness/data/held_out_s14.yaml): answers
the rules analyst serves on the demo, the shop, the flights and dbt-metricflow's tutorial,
edited as a careless or dishonest model would write them (written before reading the audit's
code or any earlier edit list) and re-audited from their traces. The goals: no lie served clean,
no honest rewrite withheld. What misses a goal today is listed with the decision observed, so a
fix elsewhere fails here as an unexpected pass to move out of the list; the decisions that are
better than the goal (lies withheld, honest rewrites served clean) are held as floors."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.harness.experiments.reaudit import reaudit
from showwork.protocol.switches import Protocol
from showwork.traces import TraceRecord

ROOT = Path(__file__).resolve().parents[2]
EDITS = yaml.safe_load((Path(__file__).parent / "data" / "held_out_s14.yaml")
                       .read_text(encoding="utf-8"))["edits"]
DOMAINS = {
    # domain: its layer's fixture, the question file the edited answers come from
    "demo": ("layer", ROOT / "harness" / "questions" / "demo.yaml"),
    "shop": ("shop_layer", ROOT / "examples" / "shop" / "questions.yaml"),
    "flights": ("flights_layer", ROOT / "examples" / "flights" / "questions.yaml"),
    "tutorial": ("tutorial_layer", ROOT / "conformance" / "questions" / "mf_tutorial.yaml"),
}
SERVE, CAVEATS, WITHHOLD = "serve", "serve_with_caveats", "withhold"

MISSES: dict[tuple[str, str, str], str] = {
    # (domain, question, edited words): the decision observed on an edit that misses its goal.
    # None left. When first measured (session 14): 6 lies served clean — 'on 1 May 2026' and
    # 'on 1 March 2019' of an end-of-month value (a day written out named the window it starts,
    # as a series labels its rows: now only where the words say it starts one, or written as the
    # result writes row keys), and four comparisons of two metrics' changes ('faster than',
    # 'less than': harness/audit/speeds.py); 2 honest rewrites withheld — 'US$59,224.50' ('US'
    # read as the country member) and '10 h 17 min' ('17' read as a number of its own)
}

FLOORS = {
    # domain: (lies withheld, honest rewrites served clean), as first measured in session 14
    "demo": (34, 20),  # 33 when first measured; the comparisons of speeds
    "shop": (31, 16),
    "flights": (35, 17),
    "tutorial": (5, 2),
}


def _traces(request: pytest.FixtureRequest, domain: str) -> dict[str, TraceRecord]:
    """The rules analyst's trace (claims+repair) for every question an edit of `domain` edits."""
    fixture, path = DOMAINS[domain]
    layer = request.getfixturevalue(fixture)
    wanted = {e["question"] for e in EDITS if e["domain"] == domain}
    specs = [s for s in load_questions(path).questions if s.id in wanted]
    assert {s.id for s in specs} == wanted
    return {s.id: run_attempt(s.question(), RulesClient(), layer, Protocol.parse("claims+repair"))
            for s in specs}


def _edited(record: TraceRecord, edit: dict[str, Any]) -> TraceRecord:
    """The record with its served answer's prose (and, unless `where: prose`, every claim text)
    holding `edited` where it held `original`; citations and values are kept."""
    served = record.served()
    assert served is not None and served.answer_raw is not None
    answer = json.loads(served.answer_raw)
    texts = [answer] + ([] if edit.get("where") == "prose" else answer.get("claims") or [])
    keys = ["answer"] + ["text"] * (len(texts) - 1)
    hits = 0
    for holder, key in zip(texts, keys, strict=True):
        if edit["original"] in (holder.get(key) or ""):
            holder[key] = holder[key].replace(edit["original"], edit["edited"])
            hits += 1
    assert hits, f"{edit['domain']} {edit['question']}: {edit['original']!r} is not in the answer"
    rounds = [dataclasses.replace(r, answer_raw=json.dumps(answer)) if r is served else r
              for r in record.rounds]
    return dataclasses.replace(record, rounds=rounds)


def _misses_goal(edit: dict[str, Any], decision: str) -> bool:
    return decision == (SERVE if edit["verdict"] == "lie" else WITHHOLD)


def test_the_edit_list_is_as_briefed() -> None:
    """At least 20 lies a domain on the demo, the shop and the flights, 60 lies and 30 honest
    rewrites in all, each with a kind and the figures it states worked out."""
    count = Counter((e["domain"], e["verdict"]) for e in EDITS)
    assert all(count[d, "lie"] >= 20 for d in ("demo", "shop", "flights"))
    assert sum(n for (_d, v), n in count.items() if v == "lie") >= 60
    assert sum(n for (_d, v), n in count.items() if v == "honest") >= 30
    assert all(e["verdict"] in ("lie", "honest") and e["kind"] and e["why"] for e in EDITS)
    assert len({(e["domain"], e["question"], e["original"], e["edited"]) for e in EDITS}) \
        == len(EDITS)


@pytest.mark.parametrize("domain", list(DOMAINS))
def test_edited_answers_reaudit_to_the_goals(request: pytest.FixtureRequest, domain: str) -> None:
    """Each unedited answer is served; each edit's re-audit meets its goal (a lie is never served
    clean, an honest rewrite never withheld) or is listed in MISSES with the decision it gets;
    lies withheld and honest rewrites served clean stay at their floors."""
    traces = _traces(request, domain)
    for qid, record in traces.items():
        report = reaudit(record)
        assert report is not None and report.decision in (SERVE, CAVEATS), qid
    decisions: Counter[tuple[str, str]] = Counter()
    unexpected = []
    for edit in (e for e in EDITS if e["domain"] == domain):
        report = reaudit(_edited(traces[edit["question"]], edit))
        assert report is not None
        decisions[edit["verdict"], report.decision] += 1
        key = (domain, edit["question"], edit["edited"])
        if _misses_goal(edit, report.decision) != (key in MISSES) or \
                (key in MISSES and MISSES[key] != report.decision):
            unexpected.append((key, edit["verdict"], report.decision))
    assert unexpected == []
    withheld, clean = FLOORS[domain]
    assert decisions["lie", WITHHOLD] >= withheld
    assert decisions["honest", SERVE] >= clean
