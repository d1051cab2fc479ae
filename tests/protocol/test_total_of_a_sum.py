"""'Total revenue' of a derived metric that only adds and subtracts summable metrics (the mf
tutorial's revenue_usd = transaction_amount - cancellations + alterations) reads 'total' as its
qualifier, as of a simple sum; of a ratio, or a derived metric that divides or multiplies, it
stays unread ('the total cancellation rate': no sum of a rate). On the tutorial as its authors
ship it, and on the demo, shop and flights catalogs each given such a metric from two of their
own summable metrics."""

from __future__ import annotations

import copy

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol

LAYER = {"demo": "layer", "shop": "shop_layer", "flights": "flights_layer"}


def _with(catalog: dict, expr: str) -> tuple[dict, str]:
    """The catalog with one derived metric over its first two summable simple metrics."""
    out = copy.deepcopy(catalog)
    a, b = [n for n, m in out["metrics"].items()
            if m["type"] == "simple" and not m["point_in_time"] and m.get("unit") != "fraction"
            and not any(w in (m.get("label") or n).lower() for w in ("average", "rate"))][:2]
    base = out["metrics"][a]
    out["metrics"]["zq_derived"] = {**base, "label": "zq derived", "synonyms": [], "unit": None,
                                    "description": None, "type": "derived",
                                    "formula": {"op": "expr", "expr": expr.format(a=a, b=b),
                                                "metrics": [a, b]}}
    return out, "zq derived"


@pytest.mark.parametrize("name", sorted(LAYER))
@pytest.mark.parametrize(("expr", "read"), [("{a} - {b}", True), ("{a} + {b}", True),
                                            ("{a} / {b}", False), ("{a} * {b}", False)])
def test_total_reads_only_of_a_sum(request, name: str, expr: str, read: bool) -> None:
    catalog, label = _with(request.getfixturevalue(LAYER[name]).catalog(), expr)
    reading = read_text(f"What was the total {label} in 2019?", catalog)
    assert [m.name for m in reading.metrics] == ["zq_derived"]
    assert ("total" not in reading.unread) is read, reading.unread


def test_total_revenue_on_the_tutorial(tutorial_layer) -> None:
    """Answered and served clean; 'the total cancellation rate' stays unread."""
    catalog = tutorial_layer.catalog()
    assert "total" in read_text("What was the total cancellation rate in March 2022?",
                                catalog).unread
    trace = run_attempt(Question("t", "What was total revenue in the week of March 14, 2022?"),
                        RulesClient(), tutorial_layer, Protocol.parse("claims+repair"))
    audit = trace.served().audit
    assert audit["status"] == "answered" and audit["decision"] == "serve", audit
    assert trace.calls[0].arguments["metrics"] == ["revenue_usd"]
