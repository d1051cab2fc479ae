"""A name the catalog writes with a hyphen inside a word ('sign-ups', 'on-time failure rate')
reads the same written with a space ('sign ups'), as people type it: generated from every
metric entry and member of the demo, the shop and the flights that holds such a hyphen."""

from __future__ import annotations

import re

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import find_mentions, find_metrics
from showwork.protocol.switches import Protocol

LAYER = {"demo": "layer", "shop": "shop_layer", "flights": "flights_layer"}
_INNER = re.compile(r"[A-Za-z]-[A-Za-z]")


def _metric_phrases(catalog: dict) -> list[tuple[str, str]]:
    return [(text, name) for name, info in catalog["metrics"].items()
            for text in (info.get("label") or "", *(info.get("synonyms") or ()))
            if _INNER.search(text)]


def _member_phrases(catalog: dict) -> list[tuple[str, str]]:
    return [(str(m), name) for name, info in catalog["dimensions"].items()
            for m in info.get("members") or () if _INNER.search(str(m))]


@pytest.mark.parametrize("name", sorted(LAYER))
def test_a_hyphenated_metric_name_reads_with_a_space(request, name: str) -> None:
    catalog = request.getfixturevalue(LAYER[name]).catalog()
    phrases = _metric_phrases(catalog)
    for text, metric in phrases:
        spaced = _INNER.sub(lambda m: m.group(0).replace("-", " "), text)
        got = [(m.name, m.words) for m in find_metrics(f"how many {spaced} in 2019", catalog)]
        assert got and got[0][0] == metric and got[0][1] == spaced, (text, got)


@pytest.mark.parametrize("name", sorted(LAYER))
def test_a_hyphenated_member_reads_with_a_space(request, name: str) -> None:
    catalog = request.getfixturevalue(LAYER[name]).catalog()
    for text, dim in _member_phrases(catalog)[:200]:
        spaced = _INNER.sub(lambda m: m.group(0).replace("-", " "), text)
        got = [m for m in find_mentions(f"flights for {spaced}", catalog)
               if m.kind == "member" and m.words == spaced]
        assert any(m.name == dim and m.member == text for m in got), (text, got)


def test_the_domains_hold_such_names(layer, shop_layer, flights_layer) -> None:
    """The invariant has cases: the demo's and the shop's 'sign-ups', the flights' 'on-time'."""
    assert sum(len(_metric_phrases(x.catalog())) for x in (layer, shop_layer, flights_layer)) >= 3


@pytest.mark.parametrize(("text", "layer_name", "metric"), [
    ("how many sign ups from the UK in january 2026", "layer", "new_users"),
    ("how many sign ups did we get in March 2019", "shop_layer", "new_customers")])
def test_the_rules_analyst_answers_sign_ups(request, text, layer_name, metric) -> None:
    trace = run_attempt(Question("t", text), RulesClient(), request.getfixturevalue(layer_name),
                        Protocol.parse("claims+repair"))
    got = trace.served().audit
    assert got["status"] == "answered" and got["decision"] == "serve", got.get("refusal_reason")
    assert trace.calls[0].arguments["metrics"] == [metric]
