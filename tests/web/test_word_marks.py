"""Checked and unchecked words marked in the answer's text (issue 47, item 6), in headless
Debian chromium: on the answer's page and in report.html, a word no check of the audit read is
marked "not checked" where it stands; the words a check read (the cited numbers, metrics,
members, periods) are marked checked; a clean answer has no word marked "not checked"."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from decided import QUESTIONS, with_prose
from screens import shot

from showwork.analyst.rules import RulesClient
from showwork.harness.audit.types import not_checked
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.results import build_results
from showwork.harness.experiments.scores import attempt_from_trace
from showwork.harness.present.marks import CHECKED, NOT_CHECKED
from showwork.harness.present.report import write_report
from showwork.harness.present.web import App, serve
from showwork.protocol.switches import Protocol
from showwork.traces import TraceRecord, TraceWriter

DOMAINS = ("demo", "shop")
ADDED = "The team celebrated wildly."
"""A sentence stating nothing any cited result holds: its words are read by no check."""


@pytest.fixture(scope="module")
def traces(layer, shop_layer) -> dict[str, dict[str, TraceRecord]]:
    out = {}
    for domain, on in (("demo", layer), ("shop", shop_layer)):
        clean = run_attempt(Question(f"{domain}-clean", QUESTIONS[domain]["clean"]),
                            RulesClient(), on, Protocol.parse("claims+repair"))
        out[domain] = {"clean": clean, "unread": with_prose(clean, ADDED)}
    return out


@pytest.fixture(scope="module")
def runs(traces, tmp_path_factory) -> Path:
    """One run folder per domain holding both traces, with its report written."""
    root = tmp_path_factory.mktemp("words") / "runs"
    for domain, made in traces.items():
        out = root / domain
        out.mkdir(parents=True)
        writer = TraceWriter(out / "traces.jsonl")
        for trace in made.values():
            writer.append(trace)
        # asked ad hoc: no gold to score against (the report says "no gold", never "wrong")
        attempts = [replace(attempt_from_trace(t, None, {}), correct=None)
                    for t in made.values()]
        (out / "results.json").write_text(json.dumps(
            build_results(attempts, ["claims+repair"], "rules"), default=str))
        write_report(out)
    return root


@pytest.fixture
def site(traces, runs: Path):
    asks = runs.parent / "asks.jsonl"
    writer = TraceWriter(asks)
    for made in traces.values():
        for trace in made.values():
            writer.append(trace)

    def no_layer() -> None:
        raise AssertionError("nothing is asked here")

    server = serve(App(runs, asks, no_layer), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_edited_answer_carries_unread_words_and_the_clean_one_none(traces) -> None:
    """The audit quotes the added sentence's words as not checked, with spans into the prose;
    the clean answer it was made from has none (the premise of the browser tests)."""
    for domain, made in traces.items():
        assert not_checked(made["clean"].served().audit["findings"]) == [], domain
        audit = made["unread"].served().audit
        (finding,) = [f for f in audit["findings"] if f["code"] == "unread_answer"]
        ev = finding["evidence"]
        assert ev["text"] == audit["answer_text"] and ev["text"].endswith(ADDED)
        assert [ev["text"][a:b] for a, b in ev["spans"]] == ev["words"]
        assert set(" ".join(ev["words"]).lower().split()) >= {"celebrated", "wildly"}


def _marks(page, scope: str) -> tuple[list[str], list[str], list[str], list[str]]:
    """The texts and titles of the unread and the checked marks inside `scope`."""
    unread = page.locator(f"{scope} mark.unread")
    checked = page.locator(f"{scope} mark.checked")
    return (unread.all_inner_texts(), [m.get_attribute("title") for m in unread.all()],
            checked.all_inner_texts(), [m.get_attribute("title") for m in checked.all()])


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d[\d,.]*\d|\d", text)


def _check_answer(page, trace: TraceRecord) -> None:
    """The prose's unread marks are the audit's words, titled 'not checked'; every number of
    the prose outside them sits in a checked mark; the legend names both marks."""
    audit = trace.served().audit
    scope = f"#attempt-{trace.attempt_id}"
    unread, unread_titles, checked, checked_titles = _marks(page, f"{scope} p.answer-text")
    assert unread == not_checked(audit["findings"])
    assert set(unread_titles) <= {NOT_CHECKED} and set(checked_titles) == {CHECKED}
    prose_numbers = _numbers(audit["answer_text"])
    assert prose_numbers, audit["answer_text"]
    in_marks = [n for text in checked for n in _numbers(text)]
    assert all(n in in_marks for n in prose_numbers), (prose_numbers, checked)
    legend = page.locator(f"{scope} .word-legend")
    assert legend.count() == 1
    assert legend.locator("mark.unread").get_attribute("title") == NOT_CHECKED
    assert legend.locator("mark.checked").count() == 1


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_answer_page_marks_unread_words(page, site: str, traces, domain: str) -> None:
    """On the answer's page an unread word is marked 'not checked' in the prose, in its own
    style (not the style of a checked word); the clean answer shows no word not checked."""
    made = traces[domain]
    page.goto(f"{site}/asks/{made['unread'].attempt_id}")
    _check_answer(page, made["unread"])
    unread = page.locator("p.answer-text mark.unread").first
    checked = page.locator("p.answer-text mark.checked").first
    style = "e => getComputedStyle(e).backgroundColor + getComputedStyle(e).borderBottomStyle"
    assert unread.evaluate(style) != checked.evaluate(style)
    assert "wildly" in page.locator("p.answer-text mark.unread").all_inner_texts()[-1]
    page.locator("p.answer-text").scroll_into_view_if_needed()
    shot(page, f"words-{domain}-unread")
    page.goto(f"{site}/asks/{made['clean'].attempt_id}")
    _check_answer(page, made["clean"])
    assert page.locator("mark.unread:not(.word-legend mark)").count() == 0
    shot(page, f"words-{domain}-clean")


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_report_marks_unread_words(page, runs: Path, traces, domain: str) -> None:
    """report.html marks the same words in each attempt's prose: the edited answer's unread
    words, none in the clean one; claims' texts carry checked marks and no unread one."""
    page.goto((runs / domain / "report.html").as_uri())
    for key, trace in traces[domain].items():
        scope = f"#attempt-{trace.attempt_id}"
        page.locator(f"{scope} > summary").click()
        _check_answer(page, trace)
        claims = page.locator(f"{scope} details.claim summary")
        assert claims.count() >= 1
        assert claims.locator("mark.checked").count() >= 1
        assert claims.locator("mark.unread").count() == 0, key
