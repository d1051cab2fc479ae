"""Issue 43: a metric's polarity (governance `polarity: higher_is_better | lower_is_better`)
turns the words that judge a move ('improved', 'worsened', 'deteriorated', 'got better',
'recovered') into a direction the audit holds to the cited change; of a metric with none they
stay unread (a caveat), never guessed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from answer_words import clean_cases, edited, entries

from showwork.benchmarks.audit import case_report


@pytest.fixture(scope="module")
def cases(layer, shop_layer, flights_layer):
    return {"demo": clean_cases(layer, "demo"), "shop": clean_cases(shop_layer, "shop"),
            "flights": clean_cases(flights_layer, "flights")}


def _report(cases, domain: str, qid: str, old: str, new: str):
    case = cases[domain][qid]
    return case_report(case, edited(case.answer, {"replace": [[old, new]]}))


def test_the_catalog_carries_each_governed_polarity(cases) -> None:
    """The governance files' polarity reaches the catalog the audit reads (three domains)."""
    metrics = {d: next(iter(by_id.values())).catalog["metrics"] for d, by_id in cases.items()}
    assert metrics["demo"]["new_users"]["polarity"] == "higher_is_better"
    assert metrics["shop"]["cancellation_rate"]["polarity"] == "lower_is_better"
    assert metrics["flights"]["average_departure_delay"]["polarity"] == "lower_is_better"
    assert "polarity" not in metrics["flights"]["average_temperature"]


def test_the_corpus_polarity_lies_are_withheld_and_honest_rewrites_served(cases) -> None:
    """Every polarity edit of the corpus (demo, shop, flights): a judging word against the
    cited change under the metric's polarity is withheld; one that agrees is served clean."""
    seen = set()
    for entry in entries():
        if entry["kind"] != "polarity" or "lengthened" in str(entry) or "shortened" in str(entry):
            continue
        case = cases[entry["domain"]][entry["id"]]
        report = case_report(case, edited(case.answer, entry))
        want = "withhold" if entry["truth"] == "lie" else "serve"
        assert report.decision == want, (entry, report.not_checked)
        seen.add(entry["domain"])
    assert seen == {"demo", "shop", "flights"}


@pytest.mark.parametrize(("domain", "qid", "old", "new", "decision"), [
    ("flights", "change-001", "rose 79.2 %", "improved by 79.2 %", "withhold"),
    ("flights", "change-001", "rose 79.2 %", "worsened by 79.2 %", "serve"),
    ("flights", "change-001", "rose 79.2 %", "got worse, up 79.2 %", "serve"),
    ("flights", "change-001", "rose 79.2 %", "got better, up 79.2 %", "withhold"),
    ("flights", "change-001", "rose 79.2 %", "got worse by 79.2 %", "serve"),
    ("flights", "change-001", "rose 79.2 %", "got better by 79.2 %", "withhold"),
    ("flights", "change-006", "fell 44.5 %", "got better by 44.5 %", "serve"),
    ("flights", "change-006", "fell 44.5 %", "deteriorated by 44.5 %", "withhold"),
    ("flights", "change-006", "fell 44.5 %", "recovered by 44.5 %", "serve"),
    ("shop", "compare-001", "fell 5.73 %", "deteriorated 5.73 %", "serve"),
    ("shop", "compare-001", "fell 5.73 %", "recovered 5.73 %", "withhold"),
    ("shop", "compare-002", "rose 18.4 %", "did not improve, up 18.4 %", "withhold"),
    ("demo", "compare-001", "fell 16.0 %", "got worse by 16.0 %", "serve"),
    ("demo", "compare-001", "fell 16.0 %", "improved 16.0 %", "withhold")])
def test_a_judging_word_is_held_under_the_polarity(cases, domain, qid, old, new,
                                                   decision) -> None:
    """A judging word is a move of the polarity's sign: withheld against the cited change,
    served clean with it (flights: lower is better; shop and demo: higher is better). The
    number after 'got worse by' states the change's size, not a fall."""
    report = _report(cases, domain, qid, old, new)
    assert report.decision == decision, (new, report.not_checked)


def test_a_withheld_judging_word_names_its_span_the_polarity_and_the_cited_value(cases) -> None:
    """The defect quotes the judging word, the metric's polarity and the cited change."""
    report = _report(cases, "flights", "change-001", "rose 79.2 %", "improved by 79.2 %")
    found = [f for f in report.findings if f.code == "direction_mismatch"]
    assert report.decision == "withhold" and found, report.findings
    assert any("improved" in d.message and "lower is better" in d.message and "+79.2" in d.message
               for d in found), [d.message for d in found]


def test_without_a_polarity_a_judging_word_stays_unread(cases) -> None:
    """Of a metric whose governance states no polarity the word is a caveat, not a verdict:
    the same edit with the polarity taken out of the catalog is served with caveats."""
    case = cases["flights"]["change-001"]
    metrics = {k: {kk: vv for kk, vv in v.items() if kk != "polarity"}
               for k, v in case.catalog["metrics"].items()}
    bare = replace(case, catalog={**case.catalog, "metrics": metrics})
    for new in ("improved by 79.2 %", "worsened by 79.2 %"):
        report = case_report(bare, edited(case.answer, {"replace": [["rose 79.2 %", new]]}))
        assert report.decision == "serve_with_caveats", (new, report.decision)
        assert new.split()[0] in report.not_checked



def test_the_key_is_read_from_dbt_meta_and_a_wrong_value_is_named() -> None:
    """`config: {meta: {showwork: {polarity: …}}}` sets it as the file does; a value that is
    neither polarity is refused with its place and the two it accepts."""
    from showwork.semantic_layer.errors import ModelError
    from showwork.semantic_layer.governance import MetricGovernance, meta_block

    block = meta_block({"showwork": {"polarity": "lower_is_better"}}, MetricGovernance, "m")
    assert isinstance(block, MetricGovernance) and block.polarity == "lower_is_better"
    with pytest.raises(ModelError) as caught:
        meta_block({"showwork": {"polarity": "up"}}, MetricGovernance, "metric 'delay'")
    assert "metric 'delay': config.meta.showwork.polarity" in str(caught.value)
    assert "higher_is_better" in str(caught.value) and "lower_is_better" in str(caught.value)
