"""The run page's experiment table in headless Debian chromium: the configurations side by side
(one column each, the scores as rows with their intervals), headers that wrap at most once and
only at a '+', and comparisons only between measurable figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from screens import shot

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.harness.present.report import write_report
from showwork.harness.present.table import SCORES

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ["baseline", "claims", "claims+repair+purpose+rendered"]
PICK = {"demo": (None, ("lookup-001", "diag-001", "refuse-008")),
        "shop": (ROOT / "examples" / "shop" / "questions.yaml",
                 ("lookup-001", "refuse-008", "breakdown-001"))}


def _run(layer: Any, domain: str, root: Path) -> Path:
    path, ids = PICK[domain]
    qf = load_questions(path)
    picked = QuestionFile(questions=[q for q in qf.questions if q.id in ids])
    out = root / domain
    exp.run(exp.Experiment(picked, CONFIGS, "rules", out), RulesClient(), layer)
    write_report(out)
    return out


@pytest.fixture(scope="module")
def reports(layer, shop_layer, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("table")
    return {"demo": _run(layer, "demo", root), "shop": _run(shop_layer, "shop", root)}


HEADER_LINES = """() => [...document.querySelectorAll('#scores th.config')].map(th => {
    const lh = parseFloat(getComputedStyle(th).lineHeight);
    const pad = parseFloat(getComputedStyle(th).paddingTop) + parseFloat(getComputedStyle(th).paddingBottom);
    return Math.round((th.clientHeight - pad) / lh); })"""
"""How many lines each configuration's header takes."""

WORDS_BROKEN = """(sel = 'th') => [...document.querySelectorAll(sel)].filter(th => th.offsetParent !== null)
  .flatMap(th => { const s = getComputedStyle(th), c = document.createElement('canvas').getContext('2d');
    c.font = s.font;
    const room = th.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    return th.textContent.split(/\\s+/).filter(w => w && c.measureText(w).width > room + 1); })"""
"""Header words wider than their column: a header broken inside a word ('question' / 's')."""


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_configurations_side_by_side_with_intervals(page, reports: dict[str, Path],
                                                    domain: str) -> None:
    """One column per configuration in the run's order, one row per score, each rate with its
    interval under it; headers take at most two lines at 1300 px and no header on the page is
    broken inside a word; the baseline's grounded
    rate reads 'not measurable' and is compared with nothing."""
    run = reports[domain]
    page.goto((run / "report.html").as_uri())
    heads = page.locator("#scores thead th").all_inner_texts()
    assert [h.replace("\n", "") for h in heads] == ["score", *CONFIGS]
    rows = page.locator("#scores tr.score-row")
    assert rows.all_inner_texts() and rows.count() == len(SCORES)
    coverage = page.locator("#scores tr[data-score='coverage'] td").all()
    assert len(coverage) == 3 and all(c.locator("small.detail").inner_text().startswith("[")
                                      for c in coverage)
    grounded = page.locator("#scores tr[data-score='grounded-answer rate'] td").all_inner_texts()
    assert grounded[0].split("\n") == ["not measurable", "no claim graphs"]
    assert all("%" in g and "n=" in g for g in grounded[1:])
    assert max(page.evaluate(HEADER_LINES)) <= 2
    assert page.evaluate(WORDS_BROKEN) == []
    assert page.evaluate(WORDS_BROKEN, "#comparisons td") == []  # no p-value as '0.2' / '5'
    results = json.loads((run / "results.json").read_text())
    diffs = page.locator("#comparisons td.grounded-diff").all_inner_texts()
    assert len(diffs) == len(results["comparisons"]) == 3
    for c, said in zip(results["comparisons"], diffs, strict=True):
        if "baseline" in (c["a"], c["b"]):
            assert said == "grounded not comparable: baseline has no claim graphs"
        else:
            rates = [f"{100 * results['configs'][n]['grounded_answer_rate']['rate']:.1f}%"
                     for n in (c["a"], c["b"])]
            assert said.startswith(f"grounded {rates[0]} → {rates[1]} (") and said.endswith(
                " pp)")
    page.locator("#scores").scroll_into_view_if_needed()
    shot(page, f"report-table-{domain}")
