"""The index as a review queue, in headless Debian chromium: every ask and every run with its
project, decision (or scores against gold) and time; filters by project and by decision; a
question asked again grouped with its earlier asks; the served project's own work first."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from decided import four
from screens import shot

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.questions import QuestionFile, QuestionSpec, load_questions
from showwork.harness.present.decisions import DECISIONS, decision_key
from showwork.harness.present.web import App, serve
from showwork.traces import TraceWriter

ROOT = Path(__file__).resolve().parents[2]
SHOP_QUESTIONS = ROOT / "examples" / "shop" / "questions.yaml"


def _run(layer, path: Path | None, ids: tuple[str, ...], out: Path) -> None:
    """A rules run of `ids`, plus one question whose gold is deliberately not the data's
    answer (so one answer is wrong against gold)."""
    qs = {q.id: q for q in load_questions(path).questions}
    wrong = QuestionSpec(id="wrong-gold", text=qs[ids[0]].text, category="lookup",
                         answerable=True, gold={"sql": "SELECT 1"})
    exp.run(exp.Experiment(QuestionFile(questions=[*(qs[i] for i in ids), wrong]),
                           ["baseline", "claims"], "rules", out), RulesClient(), layer)


@pytest.fixture(scope="module")
def world(layer, shop_layer, tmp_path_factory):
    root = tmp_path_factory.mktemp("queue")
    made = {"demo": four(layer, "demo"), "shop": four(shop_layer, "shop")}
    writer = TraceWriter(root / "asks.jsonl")
    for traces in made.values():
        for trace in traces.values():
            writer.append(trace)
    _run(layer, None, ("lookup-001", "refuse-008"), root / "runs" / "demo-run")
    _run(shop_layer, SHOP_QUESTIONS, ("lookup-001", "refuse-008"), root / "runs" / "shop-run")
    return root, made


def _site(root: Path, project: str | None):
    def no_layer() -> None:
        raise AssertionError("these tests ask nothing through the form")

    server = serve(App(root / "runs", root / "asks.jsonl", no_layer, project=project), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def site(world):
    server, base = _site(world[0], None)
    yield base
    server.shutdown()
    server.server_close()


def _follow(page, selector: str) -> None:
    """Open the link `selector` names and wait for its page (a filter is a plain link)."""
    href = page.locator(selector).get_attribute("href")
    page.goto(page.url.split("/?")[0].rstrip("/") + href)


def _rows(page) -> list[dict[str, str]]:
    return [{"project": r.get_attribute("data-project"),
             "decision": r.get_attribute("data-decision")}
            for r in page.locator("#asked tr.ask").all()]


def test_a_question_asked_again_is_one_row_with_its_earlier_asks(page, site: str,
                                                                  world) -> None:
    """The three asks of each domain's answerable question are one row under the latest ask,
    which lists the two earlier ones with their own decisions; each refusal is its own row."""
    _, made = world
    page.goto(site + "/")
    assert len(_rows(page)) == 4  # per domain: the answerable question and the refusal
    for traces in made.values():
        latest = page.locator(f"#asked tr[data-attempt='{traces['serve'].attempt_id}']")
        assert "asked 3 times: 2 earlier" in latest.inner_text()
        latest.locator("details.earlier summary").click()
        earlier = latest.locator("details.earlier li")
        assert sorted(e.locator(".decision").get_attribute("data-decision")
                      for e in earlier.all()) == ["serve_with_caveats", "withhold"]
        assert all(e.locator("a").inner_text()[0].isdigit() for e in earlier.all())  # when
    shot(page, "queue-grouped")


def test_filters_by_project_and_by_decision(page, site: str) -> None:
    """Choosing a project shows only its asks and runs; choosing a decision then shows only
    the questions whose latest answer has it, and the counts beside each decision agree."""
    page.goto(site + "/")
    projects = [a.get_attribute("data-project")
                for a in page.locator("#project-filter a[data-project]").all()]
    assert len(projects) == 2
    for project in projects:
        _follow(page, f"#project-filter a[data-project='{project}']")
        rows = _rows(page)
        assert rows and {r["project"] for r in rows} == {project}
        runs = page.locator("#runs tr.run").all()
        assert len(runs) == 1 and runs[0].get_attribute("data-project") == project
        counts = {a.get_attribute("data-decision"): int(a.locator("small").inner_text()
                                                        .strip("()"))
                  for a in page.locator("#decision-filter a[data-decision]").all()}
        assert counts == {"serve": 1, "serve_with_caveats": 0, "withhold": 0, "refused": 1}
        _follow(page, "#decision-filter a[data-decision='refused']")
        assert [r["decision"] for r in _rows(page)] == ["refused"]
        assert {r["project"] for r in _rows(page)} == {project}
        assert page.locator("#decision-filter a.on").get_attribute("data-decision") == "refused"
        shot(page, "queue-filtered")
        _follow(page, "#decision-filter a[data-decision='withhold']")
        assert _rows(page) == [] and "whose latest answer was withheld" in page.inner_text(
            "#nothing-asked")
        _follow(page, "#decision-filter a:text('any')")
    _follow(page, "#project-filter a:text('all projects')")
    assert len(_rows(page)) == 4


def test_runs_show_their_scores_against_gold(page, site: str, world) -> None:
    """Each run lists, per configuration, its right, wrong and refused answers against gold
    (as results.json scores them), its balanced accuracy, and how many answers got each
    decision (a refusal counted as refused)."""
    root, _ = world
    page.goto(site + "/")
    for name in ("demo-run", "shop-run"):
        results = json.loads((root / "runs" / name / "results.json").read_text())
        row = page.locator("#runs tr.run", has=page.locator(f"a:text-is('{name}')"))
        lines = row.locator("ul.gold li").all_inner_texts()
        assert len(lines) == len(results["configs"])
        for config, line in zip(results["configs"], lines, strict=True):
            mine = [a for a in results["attempts"] if a["config"] == config]
            right = sum(a["correct"] is True for a in mine)
            wrong = sum(a["correct"] is False and a["status"] != "refused" for a in mine)
            refused = sum(a["status"] == "refused" for a in mine)
            assert line.startswith(f"{config}: {right} right {wrong} wrong {refused} refused "
                                   f"of {len(mine)}"), line
            assert wrong >= 1 and right >= 1 and refused >= 1
        for config, item in zip(results["configs"], row.locator("ul.gold li").all(), strict=True):
            mine = [a for a in results["attempts"] if a["config"] == config]
            want = " · ".join(f"{d.sign} {d.word} {n}" for d in DECISIONS.values()
                              if (n := sum(decision_key(a) == d.key for a in mine)))
            assert item.locator(".run-decisions").inner_text() == want
            assert "refused" in want  # each run refuses one question, and says so
    shot(page, "queue-runs")


def test_the_served_project_comes_first(page, world) -> None:
    """`serve` on one project opens the queue on that project: another project's asks and
    runs (the demo's, in a user's own project) are one click away, not mixed in."""
    root, made = world
    shop = made["shop"]["serve"].catalog["model_version"]
    server, base = _site(root, shop)
    try:
        page.goto(base + "/")
        assert {r["project"] for r in _rows(page)} == {shop}
        assert [r.get_attribute("data-project") for r in page.locator("#runs tr.run").all()] \
            == [shop]
        _follow(page, "#project-filter a:text('all projects')")
        assert len({r["project"] for r in _rows(page)}) == 2
    finally:
        server.shutdown()
        server.server_close()
