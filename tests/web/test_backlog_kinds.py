"""The backlog's finding sections, in headless Debian chromium and on the terminal (issue 47,
item 3): draft metrics that answers cited, listed by metric with how many answers cited each;
mislabelled words and answers off the question's scope, each group with its count. On the demo
and the shop: the rules analyst's answers on a catalog whose every metric is drafted (as
`showwork init` leaves it), one answer given to another question, one whose prose names
another metric than its claims cite."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from decided import reaudited
from screens import served, shot

from showwork.analyst.rules import RulesClient
from showwork.harness.audit.types import SCOPE_CODES
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.gold import gold_values
from showwork.harness.experiments.questions import load_questions
from showwork.harness.experiments.results import build_results
from showwork.harness.experiments.scores import attempt_from_trace
from showwork.harness.present.backlog import MISLABELLED
from showwork.harness.present.report import write_report
from showwork.harness.project import sql_rows
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol
from showwork.traces import TraceRecord, TraceWriter, digest

ROOT = Path(__file__).resolve().parents[2]
FILES = {"demo": None, "shop": ROOT / "examples" / "shop" / "questions.yaml"}
LOOKUPS = 4
"""Answerable lookup questions of each domain's file the rules analyst answers."""


LINKS_BROKEN = """() => [...document.querySelectorAll('table#runs a')].flatMap(a => {
    const s = getComputedStyle(a), c = document.createElement('canvas').getContext('2d');
    c.font = s.font;
    const td = a.closest('td'), t = getComputedStyle(td);
    const room = td.clientWidth - parseFloat(t.paddingLeft) - parseFloat(t.paddingRight);
    return a.textContent.split(/[\\s/]+/).filter(w => w && c.measureText(w).width > room + 1); })"""
"""Words of the queue's run links wider than their cell: a link broken inside a word."""


def drafted(trace: TraceRecord) -> TraceRecord:
    """The attempt as it runs on the same catalog with every metric marked a draft (what
    `showwork init` writes until a person reviews it), its answer audited again."""
    catalog = copy.deepcopy(trace.catalog)
    for name, metric in catalog["metrics"].items():
        metric["draft"] = f"{name} drafted from its table's columns"
    moved = trace.model_copy(update={"catalog": catalog, "catalog_digest": digest(catalog)})
    return reaudited(moved, json.loads(trace.served().answer_raw), "d")


def asked_instead(trace: TraceRecord, other: TraceRecord) -> TraceRecord:
    """`trace`'s answer given to `other`'s question (a second repeat of it): an answer off the
    question's scope, and wrong against its gold."""
    moved = trace.model_copy(update={"question": other.question, "repeat": 1})
    return reaudited(moved, json.loads(trace.served().answer_raw), "s")


def named_otherwise(trace: TraceRecord) -> TraceRecord:
    """`trace`'s answer whose prose calls its cited metric by another metric's label (one
    sharing no word with it): words naming another metric than the claims cite."""
    answer = json.loads(trace.served().answer_raw)
    metrics = trace.catalog["metrics"]
    cited = sorted(cited_metrics(trace))[0]
    label = metrics[cited].get("label") or cited
    other = next(m.get("label") or n for n, m in metrics.items()
                 if not set((m.get("label") or n).lower().split()) & set(label.lower().split()))
    answer["answer"] = re.sub(re.escape(label), other, answer["answer"], count=1, flags=re.I)
    return reaudited(trace.model_copy(update={"repeat": 1}), answer, "m")


def dimensions_named(trace: TraceRecord) -> set[str]:
    """The dimensions (by governed label) the question names, itself or through a member, as
    the question reader reads it against the catalog."""
    reading = read_text(trace.question.text, trace.catalog)
    dims = trace.catalog.get("dimensions") or {}
    return {(dims.get(m.name) or {}).get("label") or m.name
            for m in (*reading.dimensions, *reading.members)}


def cited_metrics(trace: TraceRecord) -> set[str]:
    """The metrics the served answer's claims cite, read from the audit's resolved citations."""
    return {r["metric"] for c in trace.served().audit["claims"] for r in c["resolved"]
            if r.get("metric")}


def codes(trace: TraceRecord) -> set[str]:
    return {f["code"] for f in trace.served().audit["findings"]}


@pytest.fixture(scope="module")
def runs(layer, shop_layer, tmp_path_factory) -> dict[str, list[TraceRecord]]:
    root = tmp_path_factory.mktemp("kinds") / "runs"
    made = {}
    for domain, on in (("demo", layer), ("shop", shop_layer)):
        qs = [q for q in load_questions(FILES[domain]).questions
              if q.answerable and q.category == "lookup"][:LOOKUPS]
        plain = [run_attempt(Question(q.id, q.text, q.category, q.answerable), RulesClient(),
                             on, Protocol.parse("claims+repair")) for q in qs]
        traces = [drafted(t) for t in plain if t.served() and t.served().audit["graphed"]]
        named = next(t for t in traces[1:] if dimensions_named(t))
        traces += [named_otherwise(traces[0]), asked_instead(traces[0], named)]
        out = root / domain
        out.mkdir(parents=True)
        writer = TraceWriter(out / "traces.jsonl")
        for t in traces:
            writer.append(t)
        golds = gold_values(sql_rows(on), {q.id: q.gold.model_dump(exclude_none=True)
                                           for q in qs if q.gold})
        (out / "results.json").write_text(json.dumps(build_results(
            [attempt_from_trace(t, golds.get(t.question.id), {}) for t in traces],
            ["claims+repair"], "rules"), default=str))
        write_report(out)
        made[domain] = traces
    made["root"] = root  # type: ignore[assignment]
    return made


@pytest.fixture
def site(runs):
    root: Path = runs["root"]
    with served(root, root.parent / "asks.jsonl") as base:
        yield base


def test_the_runs_carry_each_kind(runs) -> None:
    """Every answer cites a drafted metric; the answer given to another question is off its
    scope, the one naming another metric is mislabelled (the premise of the page tests)."""
    for domain in FILES:
        traces = runs[domain]
        assert all("draft_metric" in codes(t) for t in traces), domain
        assert codes(traces[-1]) & set(SCOPE_CODES), (domain, codes(traces[-1]))
        assert "mislabelled_metric" in codes(traces[-2]), (domain, codes(traces[-2]))


@pytest.mark.parametrize("where", ["page", "report"])
@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_the_backlog_lists_draft_metrics_and_finding_kinds(page, site: str, runs, domain: str,
                                                          where: str) -> None:
    """The draft-metric table lists exactly the metrics the answers cited, each with the
    number of answers citing it; the scope table's groups are scope findings whose counts add
    up to the answers carrying one; the mislabelled section lists only mislabelled findings."""
    traces = runs[domain]
    page.goto(f"{site}/findings/{domain}" if where == "page" else
              (runs["root"] / domain / "report.html").as_uri())
    want = Counter(m for t in traces for m in cited_metrics(t))
    rows = page.locator("#draft-metrics tr.draft-metric")
    shown = {r.get_attribute("data-metric"): int(r.locator("td").nth(1).inner_text())
             for r in rows.all()}
    assert shown == dict(want) and shown
    for kind, codes_of in (("scope", SCOPE_CODES), ("mislabelled", MISLABELLED)):
        groups = page.locator(f"#{kind}-findings tr.finding-group")
        found = Counter(f["code"] for t in traces for f in t.served().audit["findings"]
                        if f["code"] in codes_of)
        assert {g.get_attribute("data-kind") for g in groups.all()} == set(found), kind
        assert found, kind
        answers = Counter(f["code"] for t in traces for f in {
            f["code"]: f for f in t.served().audit["findings"] if f["code"] in codes_of}.values())
        counted = Counter()
        for g in groups.all():
            counted[g.get_attribute("data-kind")] += int(g.locator("td").nth(1).inner_text())
        assert counted == answers, kind
    page.locator("#drafts").scroll_into_view_if_needed()
    shot(page, f"backlog-kinds-{domain}-{where}")


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_counts_per_metric_and_dimension(page, site: str, runs, domain: str) -> None:
    """The per-metric table counts, for each metric, at least the draft findings of the
    answers citing it; the wrong answer (given to a question naming a dimension) is counted
    under each dimension that question names; results.json agrees it is the one wrong."""
    traces = runs[domain]
    page.goto(f"{site}/findings/{domain}")
    results = json.loads((runs["root"] / domain / "results.json").read_text())
    wrong = [a for a in results["attempts"] if a["correct"] is False]
    assert [(a["question_id"], a["repeat"]) for a in wrong] == [
        (traces[-1].question.id, 1)]

    def row(kind: str, name: str) -> list[int]:
        cells = page.locator(f"#per-{kind} tr[data-name='{name}'] td").all_inner_texts()
        return [int(c) for c in cells[1:]]

    for metric, n in Counter(m for t in traces for m in cited_metrics(t)).items():
        assert row("metric", metric)[2] >= n, metric
    for dimension in dimensions_named(traces[-1]):
        assert row("dimension", dimension)[0] == 1, dimension
    page.locator("#counts-per").scroll_into_view_if_needed()
    shot(page, f"backlog-counts-{domain}")


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_showwork_findings_prints_the_same(runs, domain: str) -> None:
    """`showwork findings` prints each draft metric with its count, the scope and mislabelled
    findings under their own headings, the wrong answer under its question's dimensions, and
    every window as people name it (no ISO range)."""
    traces = runs[domain]
    out = subprocess.run([sys.executable, "-m", "showwork", "findings",
                          str(runs["root"] / domain)], capture_output=True, text=True,
                         env={**os.environ, "COLUMNS": "80"}, timeout=300)
    assert out.returncode == 0, out.stderr
    want = Counter(m for t in traces for m in cited_metrics(t))
    assert f"Draft metrics answers cited: {len(want)}" in out.stdout
    for metric, n in want.items():
        assert f"- {metric} × {n}:" in out.stdout
    for title in ("Off the question's scope:", "Mislabelled words:"):
        assert title in out.stdout and f"{title} none" not in out.stdout
    per = {line.split(" (")[0]: line for line in out.stdout.splitlines()
           if line.startswith("Per ")}
    for dimension in dimensions_named(traces[-1]):
        assert f"{dimension} 1/0/" in per["Per dimension"], per
    assert not re.search(r"\d{4}-\d{2}-\d{2}\.\.\d{4}", out.stdout), "windows as people name them"


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_a_missing_grain_is_never_a_metric_synonym(runs, domain: str) -> None:
    """A refusal over a grain the catalog lacks ('by day') suggests offering the grain, never
    a synonym of a metric whose name holds the word (the demo's moments_per_day)."""
    from showwork.harness.present.backlog import _suggest

    catalog = runs[domain][0].catalog
    said = _suggest("grain", "by day", "day", catalog)
    assert "synonym" not in said and "'day'" in said and "grain" in said


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_pages_fit_800_pixels(page, site: str, domain: str) -> None:
    """At 800 px the queue, the run page and the findings page scroll down, never sideways,
    and no word of the backlog's 'read as' or the queue's run name is cut mid-word."""
    page.set_viewport_size({"width": 800, "height": 900})
    for path in ("/", f"/runs/{domain}", f"/findings/{domain}"):
        page.goto(site + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 800, (path, width)
    page.goto(site + "/?project=all")
    assert page.locator("table#runs a").count() >= 2
    assert page.evaluate(LINKS_BROKEN) == []
    shot(page, f"queue-800-{domain}")
