"""'How many more active users did we have in May 2026 than in April 2026' (issue 42, held-out
demo s9d-diff-002): a change between two named periods asked as a difference. It was refused
('more' unread); now read as a change as a difference, answered with the comparison's cited
`delta` (the later period's value less the earlier's) as its headline, and held by the audit:
an answer that gives the percent change instead is `off_question_shape`.

Generated from each domain's catalog (demo, shop, flights): every metric that is no rate, over
two consecutive whole months its coverage holds; the value is checked against the layer's own
two levels. 'More' with the earlier period first (whose answer would be a negative delta
written the other way round) stays unread, so the question is refused, never answered with
another sign."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace

import pytest

from showwork.analyst.rules import RulesClient
from showwork.benchmarks.audit import case_report, cases_of
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading.quantity import counts
from showwork.protocol.switches import Protocol

DOMAINS = ["layer", "shop_layer", "flights_layer"]


def _months(catalog: dict, metric: str) -> tuple[dt.date, dt.date] | None:
    """The first two whole months the metric's coverage holds."""
    cov = catalog["metrics"][metric].get("coverage") or {}
    if not cov.get("start") or not cov.get("end"):
        return None
    start = dt.date.fromisoformat(cov["start"])
    first = start if start.day == 1 else dt.date(start.year + start.month // 12,
                                                 start.month % 12 + 1, 1)
    second = dt.date(first.year + first.month // 12, first.month % 12 + 1, 1)
    after = dt.date(second.year + second.month // 12, second.month % 12 + 1, 1)
    return (first, second) if after <= dt.date.fromisoformat(cov["end"]) else None


def _said(month: dt.date) -> str:
    return month.strftime("%B %Y")


def _cases(layer) -> list[tuple[str, str, dt.date, dt.date]]:
    catalog = layer.catalog()
    out = []
    for name, m in catalog["metrics"].items():
        if m.get("unit") == "fraction" or m.get("point_in_time") or m.get("draft"):
            continue
        months = _months(catalog, name)
        if months:
            out.append((name, m.get("label") or name, *months))
    return out[:4]


def _ask(layer, text: str):
    record = run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse("claims"))
    return record, record.served()


def _level(layer, metric: str, month: dt.date) -> float:
    end = dt.date(month.year + month.month // 12, month.month % 12 + 1, 1) - dt.timedelta(days=1)
    result = layer.query(metrics=[metric], window={"start": month.isoformat(),
                                                   "end": end.isoformat()})
    return float(result.rows[0].values[metric]["value"])


@pytest.mark.parametrize("fixture", DOMAINS)
def test_how_many_more_is_the_later_value_less_the_earlier(request, fixture) -> None:
    layer = request.getfixturevalue(fixture)
    cases = _cases(layer)
    assert cases
    entries = layer.catalog()["metrics"]
    for metric, label, first, second in cases:
        want = _level(layer, metric, second) - _level(layer, metric, first)
        # 'how many' of what counts, 'how much' of an amount ('how many more revenue' is not read)
        more, fewer = ("many more", "many fewer") if counts(entries[metric]) is not False else \
            ("much more", "much less")
        for text in (f"How {more} {label} were there in {_said(second)} than in "
                     f"{_said(first)}?",
                     f"How {fewer} {label} were there in {_said(first)} than in "
                     f"{_said(second)}?"):
            record, served = _ask(layer, text)
            answer = json.loads(served.answer_raw)
            assert answer["status"] == "answered", (text, answer.get("refusal_reason"))
            assert answer["value"] == pytest.approx(want), text
            audit = served.audit
            assert audit["decision"] in ("serve", "serve_with_caveats"), (text, audit)
            assert not [f for f in audit["findings"] if f["code"] == "off_question_shape"], text
        # the other order: 'more' of the earlier period stays unread, refused
        _, served = _ask(layer, f"How {more} {label} were there in {_said(first)} than in "
                                f"{_said(second)}?")
        assert json.loads(served.answer_raw)["status"] == "refused"


@pytest.mark.parametrize("fixture", DOMAINS)
def test_a_percent_change_does_not_answer_how_many_more(request, fixture) -> None:
    """The plain change question's answer (its headline the percent change), audited as the
    answer to 'how many more': off_question_shape, never served clean."""
    layer = request.getfixturevalue(fixture)
    metric, label, first, second = _cases(layer)[0]
    plain, _ = _ask(layer, f"How did {label} change in {_said(second)} compared with "
                           f"{_said(first)}?")
    case = cases_of([plain.model_dump_json()])[0]
    asked = f"How many more {label} were there in {_said(second)} than in {_said(first)}?"
    report = case_report(replace(case, question=asked), case.answer)
    codes = {f.code for f in report.findings}
    assert "off_question_shape" in codes and report.decision != "serve"
