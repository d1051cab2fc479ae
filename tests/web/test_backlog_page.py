"""The findings page as the data team's backlog, in headless Debian chromium: wrong answers
against gold, refusals grouped by the words that caused them with a suggested catalog change,
counts per metric and per dimension, and no claim that a run with wrong answers is clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from screens import served, shot

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, QuestionSpec, load_questions
from showwork.harness.present.report import write_report

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = {
    "demo": (None, "lookup-001", ("refuse-008", "refuse-009"), "2026",
             ("April", "May", "June"), "open"),
    "shop": (ROOT / "examples" / "shop" / "questions.yaml", "lookup-001",
             ("refuse-006", "refuse-008"), "2019", ("April", "May", "June"), "cancellation"),
}
"""Per domain: its question file, an answerable question given a wrong gold, two bundled
refusals, and the year and months of three questions about 'the WORD' (a word no governed
metric is called, but a part of one: 'reminder_open_rate', 'cancellation_rate'; not 'rate',
which the reader reads as the one ratio metric since issue 42)."""


def _questions(domain: str) -> QuestionFile:
    path, answerable, refusals, year, months, word = DOMAINS[domain]
    qs = {q.id: q for q in load_questions(path).questions}
    wrong = QuestionSpec(id="wrong-gold", text=qs[answerable].text, category="lookup",
                         answerable=True, gold={"sql": "SELECT -1"})
    rate = [QuestionSpec(id=f"part-{m.lower()}", text=f"What was the {word} in {m} {year}?",
                         category="undefined_metric", answerable=False) for m in months]
    return QuestionFile(questions=[qs[answerable], wrong, *(qs[i] for i in refusals), *rate])


@pytest.fixture(scope="module")
def runs(layer, shop_layer, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("backlog") / "runs"
    for domain, on in (("demo", layer), ("shop", shop_layer)):
        exp.run(exp.Experiment(_questions(domain), ["claims+repair"], "rules", root / domain),
                RulesClient(), on)
    return root


@pytest.fixture
def site(runs: Path):
    with served(runs, runs.parent / "asks.jsonl") as base:
        yield base


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_the_backlog_groups_what_a_data_team_acts_on(page, site: str, runs: Path,
                                                     domain: str) -> None:
    """Wrong answers are listed against gold; the three refusals over one word are one group
    whose suggestion is the governed metric holding that word; each bundled refusal is its own
    group; the counts per metric include the wrong answer's metric; and the summary's counts
    are results.json's."""
    results = json.loads((runs / domain / "results.json").read_text())
    attempts = results["attempts"]
    page.goto(f"{site}/findings/{domain}")
    wrong = page.locator("#wrong-answers tr.wrong-answer")
    assert wrong.count() == 1 and "wrong-gold" in wrong.first.inner_text()
    (scored,) = [a for a in attempts if a["question_id"] == "wrong-gold"]
    served = scored["decision"] in ("serve", "serve_with_caveats")
    assert wrong.first.locator("td").nth(2).inner_text() == str(int(served))
    groups = page.locator("#refusal-groups tr.refusal-group")
    word = DOMAINS[domain][5]
    rate = groups.filter(has_text=f"“{word}”")
    assert rate.count() == 1
    cells = rate.locator("td").all_inner_texts()
    assert cells[2] == "3"
    catalog_metrics = [m for m in _catalog(runs / domain)["metrics"] if word in m.split("_")]
    assert any(f"synonym of metric '{m}'" in cells[4] for m in catalog_metrics), cells[4]
    refused = sum(a["status"] == "refused" for a in attempts)
    assert refused == 5 and groups.count() >= 3
    summary = page.locator("#backlog-summary").inner_text()
    assert "1 wrong answer against gold" in summary and f"{refused} refusals" in summary
    metric = next(r for r in page.locator("#per-metric tbody tr").all()
                  if r.locator("td").nth(1).inner_text() != "0")
    assert metric.get_attribute("data-name") in _catalog(runs / domain)["metrics"]
    no_findings = page.locator("#no-findings")
    if no_findings.count():
        assert "words matched" not in no_findings.inner_text()
        assert "1 answer is wrong against gold" in no_findings.inner_text()
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids))
    page.locator("#refusals").scroll_into_view_if_needed()
    shot(page, f"backlog-{domain}")


def _catalog(run: Path) -> dict:
    line = (run / "traces.jsonl").read_text().splitlines()[0]
    return json.loads(line)["catalog"]


def test_the_report_carries_the_same_backlog(page, runs: Path) -> None:
    """report.html (offline) shows the same backlog as the findings page, its wrong answer
    linking the attempt on the same page, and never calls a run with a wrong answer clean."""
    for domain in DOMAINS:
        write_report(runs / domain)
        page.goto((runs / domain / "report.html").as_uri())
        link = page.locator("#wrong-answers tr.wrong-answer a")
        assert link.count() == 1 and link.get_attribute("href").startswith("#attempt-")
        assert page.locator(link.get_attribute("href")).count() == 1
        word = DOMAINS[domain][5]
        assert page.locator("#refusal-groups tr.refusal-group", has_text=f"“{word}”").count() == 1
        assert "1 wrong answer against gold" in page.inner_text("#backlog-summary")
        assert "No findings." not in page.inner_text("body")
