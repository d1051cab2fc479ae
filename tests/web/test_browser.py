"""The report and the local page in headless Debian chromium, driven by Playwright."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest
from screens import shot

from showwork.analyst.noisy import NoisyClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.harness.experiments.results import build_results
from showwork.harness.experiments.scores import attempt_from_trace
from showwork.harness.present.report import write_report
from showwork.harness.present.web import App, serve
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer, load_model
from showwork.traces import CallRecord, RoundRecord, TraceWriter, digest


@pytest.fixture(scope="module")
def run_dir(layer, tmp_path_factory) -> Path:
    picked = [q for q in load_questions().questions
              if q.id in ("diag-001", "lookup-001", "refuse-008")]
    out = tmp_path_factory.mktemp("web") / "runs" / "demo-run"
    exp.run(exp.Experiment(QuestionFile(questions=picked), ["claims", "claims+repair"],
                           "noisy:rules?fault_rate=0.3&seed=4", out), NoisyClient(0.3, 0.7, 4),
            layer)
    write_report(out)
    return out


def test_report_claim_shows_cited_value_and_sql(page, run_dir: Path) -> None:
    """Open the report, open an attempt, click a claim: its cited value and SQL are shown."""
    page.goto((run_dir / "report.html").as_uri())
    assert page.locator("#tick-note").inner_text().startswith("A tick means the support link")
    assert "SIMULATED" in page.inner_text("body")
    attempt = page.locator("details.attempt", has_text="diag-001").first
    attempt.locator("summary").first.click()
    assert attempt.locator("svg.evidence").is_visible()
    claim = attempt.locator("details.claim").first
    claim.locator("summary").first.click()
    value = claim.locator(".cited-value").first
    assert value.is_visible() and value.inner_text().strip()
    claim.locator("details.sql summary").first.click()
    assert "SELECT" in claim.locator("details.sql pre").first.inner_text()
    shot(page, "report-claim")
    assert page.dialogs == []


def test_report_shows_charts(page, run_dir: Path) -> None:
    """The report shows the score chart and a diagnostic attempt's series and waterfall as
    labelled inline SVG, coloured through attributes the CSP allows, with no script anywhere."""
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Refused" in m.text else None)
    page.goto((run_dir / "report.html").as_uri())
    scores = page.locator("#score-chart svg.chart")
    assert scores.is_visible() and scores.get_attribute("role") == "img"
    assert "SIMULATED" in scores.get_attribute("aria-label")
    assert scores.locator("title").count() == 1 and scores.bounding_box()["width"] > 600
    scores.scroll_into_view_if_needed()
    shot(page, "report-chart-scores")
    attempt = page.locator("details.attempt", has_text="diag-001").first
    attempt.locator("summary").first.click()
    waterfall = attempt.locator("svg.chart.waterfall")
    assert waterfall.is_visible() and attempt.locator("svg.chart.series").is_visible()
    assert waterfall.get_attribute("aria-label").startswith("Change in weekly value moments")
    steps = page.evaluate("[...document.querySelectorAll('svg.waterfall .sw-step path')]"
                          ".map(p => getComputedStyle(p).fill)")
    assert steps[:3] == ["rgb(46, 158, 91)", "rgb(214, 69, 69)", "rgb(214, 69, 69)"]
    waterfall.scroll_into_view_if_needed()
    shot(page, "report-chart-diagnostic")
    assert page.evaluate("document.querySelectorAll('script').length") == 0
    assert refused == [] and page.dialogs == []


def test_serve_ask_shows_graph(page, layer, run_dir: Path, tmp_path: Path, demo_db: Path) -> None:
    """Ask a question on the local page and see the answer with its evidence graph."""
    app = App(run_dir.parent, tmp_path / "asks" / "traces.jsonl",
              lambda: SemanticLayer(load_model(), demo_db))
    server = serve(app, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page.goto(base + "/")
        assert page.locator("#runs a", has_text="demo-run").count() == 1
        page.fill("#question", "Why did weekly value moments drop in the week of 2026-03-09?")
        page.select_option("#config", "claims+repair")
        page.click("#ask")
        page.wait_for_url("**/asks/*")
        assert page.locator("svg.evidence").is_visible()
        body = page.inner_text("body")
        assert "days_per_user" in body and "serve" in body
        assert page.locator("svg.evidence .claim").count() >= 5
        assert page.locator("svg.chart.waterfall").is_visible()
        shot(page, "serve-ask")
        page.goto(base + "/runs/demo-run")
        assert page.locator("#scores").is_visible()
        page.goto(base + "/findings/demo-run")
        assert page.locator("h1").inner_text().startswith("Findings")
        page.goto(base + "/runs/..%2F..%2F..%2Fetc")
        assert "No such run folder" in page.inner_text("body")
    finally:
        server.shutdown()
        server.server_close()


XSS = ["<script>alert('xss-script')</script>", "<img src=x onerror=alert('xss-img')>",
       "javascript:alert('xss-url')", "</script><script>alert('xss-close')</script>",
       "\"><svg onload=alert('xss-svg')>", "{{7*7}} ${7*7}", "<a href=\"javascript:alert(1)\">x</a>"]


def _xss_run(root: Path, layer) -> Path:
    """A run folder whose claim texts and member names are the XSS corpus."""
    catalog = layer.catalog()
    catalog["tree"] = {**catalog["tree"], "exact": [
        *catalog["tree"]["exact"], {"parent": XSS[0], "op": "multiply", "factors": XSS[4:7:2]}]}
    rows = [{"key": {"platform": payload}, "values": {"active_users": {"value": i}}}
            for i, payload in enumerate(XSS, 1)]
    result = {"kind": "query", "metrics": ["active_users"], "keys": ["platform"], "rows": rows,
              "coverage": [{"requested": {"start": "2026-03-02", "end": "2026-03-08"},
                            "covered": {"start": "2026-03-02", "end": "2026-03-08"},
                            "partial": False}], "sql": XSS[3], "model_version": "x"}
    call = CallRecord(index=1, tool="query", arguments_raw=XSS[0], handle=1, result=result,
                      sql=XSS[3])
    moved = {m: {"value": now, "previous": before, "delta": now - before,
                 "pct_change": 100 * (now - before) / before}
             for m, now, before in ((XSS[0], 120, 100), (XSS[4], 12, 10), (XSS[6], 10, 10))}
    compare = CallRecord(index=2, tool="compare", arguments_raw=XSS[1], handle=2, sql=XSS[3],
                         arguments={"where": [{"dimension": XSS[2], "values": [XSS[5]]}]},
                         result={**result, "kind": "compare", "metrics": list(moved), "keys": [],
                                 "rows": [{"key": {}, "values": moved}]})
    claims = [{"text": payload, "kind": "measurement", "sources": [
        f"r1[platform={payload}]:active_users.value" if i % 2 else "r1:bad<b>.value"],
        "premises": None, "value": i + 1} for i, payload in enumerate(XSS)]
    answer = {"status": "answered", "answer": XSS[1], "value": XSS[2], "driver": XSS[4],
              "refusal_reason": None, "claims": claims}
    report = audit(answer, Evidence.from_calls([call, compare]), catalog, "lookup")
    trace = run_attempt(Question("xss", XSS[0]), NoisyClient(0, 1, 0), layer,
                        Protocol.parse("claims"))
    trace = trace.model_copy(update={
        "calls": [call, compare], "rounds": [RoundRecord(round=0, answer_raw=json.dumps(answer),
                                                audit=report.to_json())],
        "served_round": 0, "catalog": catalog, "catalog_digest": digest(catalog)})
    out = root / "runs" / "xss"
    out.mkdir(parents=True)
    TraceWriter(out / "traces.jsonl").append(trace)
    attempts = [attempt_from_trace(trace, None, {})]
    (out / "results.json").write_text(json.dumps(build_results(attempts, ["claims"], "x"),
                                                 default=str))
    write_report(out)
    shutil.copy(out / "traces.jsonl", root / "asks.jsonl")
    return out


def test_xss_corpus_stays_inert(page, layer, tmp_path: Path, demo_db: Path) -> None:
    """Script tags, handlers, javascript: URLs and closing-script tricks in claim text and
    member names render as text: no dialog, no script element, no handler attribute."""
    run = _xss_run(tmp_path, layer)
    app = App(tmp_path / "runs", tmp_path / "asks.jsonl",
              lambda: SemanticLayer(load_model(), demo_db))
    server = serve(app, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    attempt_id = json.loads((run / "traces.jsonl").read_text().splitlines()[0])["attempt_id"]
    try:
        for url in ((run / "report.html").as_uri(), f"{base}/asks/{attempt_id}",
                    f"{base}/runs/xss", f"{base}/"):
            page.goto(url)
            for details in page.locator("details").all():
                if details.is_visible():
                    details.locator("summary").first.click()
            assert page.evaluate("document.querySelectorAll('script').length") == 0
            assert page.evaluate("document.querySelectorAll('[onerror],[onload]').length") == 0
            assert page.evaluate(
                "[...document.querySelectorAll('a')].filter(a => a.href.startsWith('javascript'))"
                ".length") == 0
            text = page.inner_text("body")
            assert "<script>alert('xss-script')</script>" in text or url.endswith(f"{base}/")
            if not url.endswith(f"{base}/"):  # the hostile tree edge is charted, as text
                waterfall = page.locator("svg.chart.waterfall")
                assert waterfall.get_attribute("aria-label") \
                    .startswith(f"Change in {XSS[0]} ({XSS[2]} in {XSS[5]})")
                if url.startswith("file:"):
                    waterfall.scroll_into_view_if_needed()
                    shot(page, "xss-chart")
        shot(page, "xss-corpus")
        assert page.dialogs == []
    finally:
        server.shutdown()
        server.server_close()
