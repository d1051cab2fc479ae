"""Pages that show what failed, in headless Debian chromium: a withheld answer under its banner
with the reasons first, the run page's right/wrong/refused/errored marks linking each attempt,
the findings page's counts by code (zeros included) with the claims behind them, the ask box's
project questions, and no text cut off anywhere (element widths, and each graph label's length
against its box)."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest
from screens import shot
from shop_data import shop_db

from showwork.analyst.noisy import NoisyClient
from showwork.harness.audit.types import FINDING_CODES
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, QuestionSpec, load_questions
from showwork.harness.experiments.results import build_results
from showwork.harness.experiments.scores import attempt_from_trace
from showwork.harness.present.report import mark, write_report
from showwork.harness.present.web import App, finding_counts, serve, suggestions
from showwork.semantic_layer import SemanticLayer, load_model
from showwork.traces import read

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "traces" / "golden" / "traces.jsonl"

CUT_OFF = """() => [...document.querySelectorAll(
    'p, li, td, th, summary, h1, h2, h3, code, .withheld, .mark, table, form, section')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.tagName + ': ' + e.textContent.slice(0, 80))"""
"""Visible elements whose content is wider than their box (cut off or overflowing)."""

LABELS_OUTSIDE = """() => [...document.querySelectorAll('svg.evidence g.node')]
  .filter(g => g.getBoundingClientRect().width > 0)
  .flatMap(g => { const box = g.querySelector('rect').getBBox();
    return [...g.querySelectorAll('text')].filter(t => {
      const b = t.getBBox(); return b.x + b.width > box.x + box.width - 2 || b.y + b.height > box.y + box.height + 2;
    }).map(t => t.textContent.slice(0, 80)); })"""
"""Evidence-graph labels that run past their box."""

PLACEHOLDER_CUT = """() => [...document.querySelectorAll('input[placeholder]')].filter(i => {
    const s = getComputedStyle(i), c = document.createElement('canvas').getContext('2d');
    c.font = s.font;
    return c.measureText(i.placeholder).width >
      i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  }).map(i => i.placeholder)"""
"""Input boxes too narrow for the question they suggest."""


@pytest.fixture(scope="module")
def run_dir(layer, tmp_path_factory) -> Path:
    """A noisy run without repair (so some answers are withheld), with one question whose
    gold is deliberately not the data's answer (so one attempt is wrong)."""
    bundled = {q.id: q for q in load_questions().questions}
    picked = [bundled[i] for i in ("diag-001", "lookup-001", "compare-002", "breakdown-001",
                                   "refuse-008")]
    wrong = QuestionSpec(id="wrong-gold-001", text=bundled["lookup-002"].text,
                         category="lookup", answerable=True, gold={"sql": "SELECT 1"})
    out = tmp_path_factory.mktemp("pages") / "runs" / "marks-run"
    exp.run(exp.Experiment(QuestionFile(questions=[*picked, wrong]), ["claims", "claims+repair"],
                           "noisy:rules?fault_rate=0.5&seed=3", out), NoisyClient(0.5, 0.7, 3),
            layer)
    write_report(out)
    return out


@pytest.fixture(scope="module")
def results(run_dir: Path) -> dict:
    return json.loads((run_dir / "results.json").read_text(encoding="utf-8"))


@pytest.fixture
def site(run_dir: Path, tmp_path: Path, demo_db: Path):
    app = App(run_dir.parent, tmp_path / "asks.jsonl", lambda: SemanticLayer(load_model(), demo_db),
              questions=suggestions(load_questions().questions))
    server = serve(app, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _open_all(page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def _nothing_cut_off(page, name: str) -> None:
    _open_all(page)
    assert page.evaluate(CUT_OFF) == [], name
    assert page.evaluate(LABELS_OUTSIDE) == [], name
    assert page.evaluate(PLACEHOLDER_CUT) == [], name


def test_a_withheld_answer_is_shown_under_its_banner_with_the_reasons_first(
        page, site: str, results: dict) -> None:
    """Every withheld attempt opens on 'Withheld — not served' and its reasons, above the
    answer, which is labelled as not served; served answers carry no banner."""
    withheld = [a for a in results["attempts"] if a["decision"] == "withhold"]
    assert withheld, "the run has no withheld attempt to show"
    page.goto(site + "/runs/marks-run")
    banners = page.locator(".withheld")
    assert banners.count() == len(withheld)
    attempt = page.locator("details.attempt", has=page.locator(".withheld")).first
    attempt.locator("summary").first.click()
    banner = attempt.locator(".withheld")
    assert banner.locator(".withheld-title").inner_text() == "Withheld — not served"
    reasons = banner.locator("ul.reasons li")
    assert reasons.count() >= 1 and all(r.inner_text().strip() for r in reasons.all())
    answer = attempt.locator("p", has_text="Withheld answer (not served):")
    assert banner.bounding_box()["y"] < answer.bounding_box()["y"]
    served = [a for a in results["attempts"] if a["decision"] in ("serve", "serve_with_caveats")]
    assert served and page.locator("p", has_text="Answer:").count() >= 1
    banner.scroll_into_view_if_needed()
    shot(page, "pages-withheld")
    _nothing_cut_off(page, "run page")


def test_the_run_page_marks_every_attempt_and_links_it(page, site: str, results: dict,
                                                       run_dir: Path) -> None:
    """The marks table has one row per attempt, marked as results.json scores it (right,
    wrong, refused, errored; 'no gold' otherwise), and each row links its attempt."""
    page.goto(site + "/runs/marks-run")
    rows = page.locator("#attempt-marks tr.attempt-row")
    assert rows.count() == len(results["attempts"])
    expected = sorted((a["question_id"], a["config"], mark(a) or "no gold")
                      for a in results["attempts"])
    shown = []
    for row in rows.all():
        cells = row.locator("td").all_inner_texts()
        word = cells[3].replace("✓ ", "").replace("✗ ", "").strip()
        shown.append((cells[0].split()[0], cells[1].strip(), word))
    assert sorted(shown) == expected
    assert {"right", "wrong", "refused"} <= {w for _q, _c, w in shown}
    link = rows.filter(has_text="wrong-gold-001").first.locator("a")
    target = link.get_attribute("href")
    link.click()
    assert page.url.endswith(target) and page.locator(target).count() == 1
    assert page.locator(f"{target} .mark-wrong").count() == 1
    page.locator("#attempt-marks").scroll_into_view_if_needed()
    shot(page, "pages-run-marks")
    _nothing_cut_off(page, "run page")
    page.goto((run_dir / "report.html").as_uri())
    assert page.locator("#attempt-marks tr.attempt-row").count() == len(results["attempts"])
    _nothing_cut_off(page, "report")


def _golden_run(root: Path) -> Path:
    """The golden traces (they carry findings) as a run folder."""
    out = root / "runs" / "golden"
    out.mkdir(parents=True)
    shutil.copy(GOLDEN, out / "traces.jsonl")
    attempts = [attempt_from_trace(t, None, {}) for t in read(GOLDEN)]
    (out / "results.json").write_text(json.dumps(build_results(
        attempts, sorted({a.config for a in attempts}), "golden"), default=str))
    return out


def test_the_findings_page_explains_and_counts_every_code(page, tmp_path: Path) -> None:
    """The findings page says what findings are, counts every code (zeros included) as the
    traces hold them, and lists the claims behind each code it counts."""
    run = _golden_run(tmp_path)
    app = App(tmp_path / "runs", tmp_path / "asks.jsonl", lambda: None)
    server = serve(app, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/findings/golden")
        assert "Findings are what the audit reports" in page.locator(
            "#findings-explained").inner_text()
        counts, _served = finding_counts(run)
        shown = {r.get_attribute("data-code"): int(r.locator("td").nth(1).inner_text())
                 for r in page.locator("tr.finding-count").all()}
        assert set(FINDING_CODES) <= set(shown)
        assert shown == {c["code"]: c["findings"] for c in counts}
        assert 0 in shown.values() and sum(shown.values()) >= 3
        for code, n in shown.items():
            listed = page.locator(f"#code-{code} ul.finding-claims li")
            assert listed.count() == n, code
            for item in listed.all():
                assert item.locator("a").get_attribute("href").startswith("/runs/golden#attempt-")
        page.locator("section.finding-code").first.scroll_into_view_if_needed()
        shot(page, "pages-findings")
        _nothing_cut_off(page, "findings page")
    finally:
        server.shutdown()
        server.server_close()


def test_the_ask_box_suggests_the_project_s_own_questions(page, tmp_path: Path) -> None:
    """On the shop the ask box offers the shop's questions, on the demo the demo's: never
    one project's question on another."""
    shop_file = ROOT / "examples" / "shop" / "questions.yaml"
    db = shop_db()
    for questions, other in ((load_questions(shop_file).questions, load_questions().questions),
                             (load_questions().questions, load_questions(shop_file).questions)):
        offered = suggestions(questions)
        app = App(tmp_path / "runs", tmp_path / "asks.jsonl", lambda: None, questions=offered)
        server = serve(app, port=0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            placeholder = page.locator("#question").get_attribute("placeholder")
            options = page.locator("#suggested-questions option").evaluate_all(
                "os => os.map(o => o.value)")
            assert placeholder == offered[0] and options == list(offered[:len(options)])
            assert not set(options) & {q.text for q in other}
            assert page.locator("#suggested li").all_inner_texts() == options
            _nothing_cut_off(page, "index")
        finally:
            server.shutdown()
            server.server_close()
    assert db.exists()
    shot(page, "pages-ask-box")


def test_graph_labels_wrap_inside_their_boxes(page, site: str, tmp_path: Path) -> None:
    """A diagnosis's long claims and quoted citations wrap onto lines inside their boxes, at a
    wide and a narrow window."""
    page.goto(site + "/runs/marks-run")
    attempt = page.locator("details.attempt", has_text="diag-001").first
    attempt.locator("summary").first.click()
    labels = attempt.locator("svg.evidence g.node.claim text.label")
    assert labels.count() >= 5
    assert max(t.locator("tspan").count() for t in labels.all()) >= 3
    attempt.locator("svg.evidence").scroll_into_view_if_needed()
    shot(page, "pages-graph")
    _nothing_cut_off(page, "graph")
    page.set_viewport_size({"width": 820, "height": 900})
    _nothing_cut_off(page, "graph, narrow")
    shot(page, "pages-graph-narrow")
