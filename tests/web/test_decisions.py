"""The four decisions a person tells apart, in headless Debian chromium: a refusal, a withheld
answer, an answer served with caveats and a clean one, each under its own word and colour on the
answer's page, the index and the run page; never a refusal shown as served."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from decided import four
from screens import shot

from showwork.harness.present.decisions import DECISIONS, decision_key
from showwork.harness.present.web import App, serve
from showwork.traces import TraceRecord, TraceWriter


@pytest.fixture(scope="module")
def asks(layer, shop_layer, tmp_path_factory) -> tuple[Path, dict[str, dict[str, TraceRecord]]]:
    path = tmp_path_factory.mktemp("decisions") / "asks" / "traces.jsonl"
    made = {"demo": four(layer, "demo"), "shop": four(shop_layer, "shop")}
    writer = TraceWriter(path)
    for traces in made.values():
        for trace in traces.values():
            writer.append(trace)
    return path, made


@pytest.fixture
def site(asks, tmp_path: Path):
    path, _ = asks

    def no_layer() -> None:
        raise AssertionError("these tests ask nothing through the form")

    app = App(tmp_path / "runs", path, no_layer)
    server = serve(app, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_each_trace_has_the_decision_it_was_made_for(asks) -> None:
    """The four traces of each domain carry the four decisions a person should see, refusals
    included (the audit serves a refusal; people see it as refused)."""
    _, made = asks
    for domain, traces in made.items():
        for want, trace in traces.items():
            assert decision_key(trace.served().audit) == want, (domain, want)
        assert made[domain]["refused"].served().audit["decision"] == "serve"


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_the_answer_page_shows_each_decision_in_its_own_word_and_colour(
        page, site: str, asks, domain: str) -> None:
    """Each answer's page names its decision (served, served with caveats, withheld, refused)
    in a badge of its own colour; a withheld answer opens on its reasons, one served with
    caveats on its caveats; a refusal's page never says 'serve'."""
    _, made = asks
    colours = {}
    for want, trace in made[domain].items():
        page.goto(f"{site}/asks/{trace.attempt_id}")
        badges = page.locator(".decision:visible")
        assert badges.count() >= 1
        assert {b.get_attribute("data-decision") for b in badges.all()} == {want}
        assert badges.first.inner_text().strip().endswith(DECISIONS[want].word)
        colours[want] = badges.first.evaluate(
            "e => getComputedStyle(e).backgroundColor + ' ' + getComputedStyle(e).color")
        assert (page.locator(".caveats-box").count() == 1) == (want == "serve_with_caveats")
        assert (page.locator(".withheld").count() == 1) == (want == "withhold")
        if want == "serve_with_caveats":
            assert "no claims" in page.locator(".caveats-box li").first.inner_text()
        if want == "refused":
            body = page.inner_text("body")
            assert "Refused — no answer given" in body
            assert "serve" not in body.lower().replace("served round", "")
        shot(page, f"decision-{domain}-{want}")
    assert len(set(colours.values())) == 4, colours


def test_the_index_lists_each_ask_with_its_decision(page, site: str, asks) -> None:
    """The index shows every ask with its decision's badge (an earlier ask of the same question
    under its latest): all four decisions appear, and the refusals are marked refused."""
    _, made = asks
    page.goto(site + "/")
    for traces in made.values():
        for want, trace in traces.items():
            badge = page.locator(f"tr[data-attempt='{trace.attempt_id}'] > td > .decision, "
                                 f"li[data-attempt='{trace.attempt_id}'] > .decision")
            assert badge.get_attribute("data-decision") == want
    shot(page, "decision-index")
