"""Property tests: real citations resolve, every single mutation is caught, key order is irrelevant."""

from __future__ import annotations

import json
import random
from typing import Any

from audit_world import CATALOG, calls, evidence, good, results
from hypothesis import given, settings
from hypothesis import strategies as st

from showwork.analyst.faults.citations import ANSWER_INJECTORS, INJECTORS, inject
from showwork.harness.audit import DEFECT_CODES, audit

RESULTS = results()
EVIDENCE = evidence()


@st.composite
def citations(draw) -> tuple[str, Any, dict[str, Any]]:
    """A citation of a real field of a real result, with its value and its parts."""
    handle = draw(st.integers(1, len(RESULTS)))
    result = RESULTS[handle - 1]
    metric = draw(st.sampled_from(result.metrics))
    field = draw(st.sampled_from(result.fields))
    row = draw(st.sampled_from(result.rows))
    selector = ",".join(f"{k}={v}" for k, v in row.key.items())
    text = f"r{handle}{f'[{selector}]' if selector else ''}:{metric}.{field}"
    parts = {"handle": handle, "metric": metric, "field": field, "row": row.key,
             "result": result}
    return text, row.values[metric][field], parts


def one_claim(source: str, value: Any) -> dict[str, Any]:
    return {"status": "answered", "answer": "x", "value": None, "driver": None,
            "refusal_reason": None,
            "claims": [{"text": "A measurement", "kind": "measurement", "sources": [source],
                        "value": value}]}


@settings(max_examples=300, deadline=None)
@given(citations())
def test_real_citations_resolve(cited) -> None:
    """Any citation built from a real result field, stating its value, is grounded."""
    text, value, _ = cited
    report = audit(one_claim(text, value), EVIDENCE, CATALOG, "lookup")
    assert report.grounded is True, [d.message for d in report.defects]
    assert report.claims[0].resolved[0].value == value


def _mutations(text: str, value: Any, parts: dict[str, Any]) -> list[tuple[str, str, Any]]:
    result, metric, field, row = parts["result"], parts["metric"], parts["field"], parts["row"]
    sel = ",".join(f"{k}={v}" for k, v in row.items())
    sel = f"[{sel}]" if sel else ""
    other_metric = next(m for m in ("paid_subscribers", "mrr_usd") if m not in result.metrics)
    other_field = "pct_change" if field not in ("pct_change",) and result.kind == "query" else "total"
    out = [
        ("handle", f"r{len(RESULTS) + 3}{sel}:{metric}.{field}", value),
        ("metric", f"r{parts['handle']}{sel}:{other_metric}.{field}", value),
        ("field", f"r{parts['handle']}{sel}:{metric}.{other_field}", value),
    ]
    if row:
        key = next(iter(row))
        out.append(("row", f"r{parts['handle']}[{key}=zz-not-a-member]:{metric}.{field}", value))
    if isinstance(value, int | float):
        out.append(("value", text, value + max(1.0, abs(value) * 0.05)))
    return out


@settings(max_examples=300, deadline=None)
@given(citations())
def test_every_single_mutation_is_detected(cited) -> None:
    """Changing the handle, row, metric, field, or the stated value beyond tolerance breaks it,
    with the code that names what changed."""
    text, value, parts = cited
    expected = {"handle": "unknown_handle", "metric": "unknown_field", "field": "unknown_field",
                "row": "unknown_row", "value": "value_mismatch"}
    for what, source, stated in _mutations(text, value, parts):
        report = audit(one_claim(source, stated), EVIDENCE, CATALOG, "lookup")
        assert report.grounded is False, (what, source, stated)
        assert expected[what] in {d.code for d in report.defects}, (what, source, report.defects)


def _shuffle(obj: Any, rng: random.Random) -> Any:
    if isinstance(obj, dict):
        items = list(obj.items())
        rng.shuffle(items)
        return {k: _shuffle(v, rng) for k, v in items}
    if isinstance(obj, list):
        return [_shuffle(v, rng) for v in obj]
    return obj


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([None, 1, 4]))
def test_verdict_unchanged_under_key_reordering(seed: int, indent: int | None) -> None:
    """Shuffled keys and different whitespace in the answer and the trace give the same audit."""
    rng = random.Random(seed)
    base = audit(good(), EVIDENCE, CATALOG, "diagnostic").to_json()
    text = json.dumps(_shuffle(good(), rng), indent=indent)
    trace_calls = json.loads(json.dumps(_shuffle(calls(), rng), indent=indent))
    from showwork.harness.audit import Evidence

    again = audit(text, Evidence.from_json(trace_calls), CATALOG, "diagnostic").to_json()
    assert json.dumps(again, sort_keys=True) == json.dumps(base, sort_keys=True)


def _clean_answers(rng: random.Random) -> dict[str, Any]:
    """A random clean answer: some real measurements, sometimes an argument over them."""
    answer = good()
    measurements = answer["claims"][:4]
    rng.shuffle(measurements)
    keep = measurements[: rng.randint(1, 4)]
    if rng.random() < 0.7:
        keep.append({"text": "Weekly value moments fell because users came back on fewer days",
                     "kind": "causal",
                     "premises": [f"c{i}" for i in range(1, len(keep) + 1)]
                     + ["tree:weekly_value_moments>days_per_user"]})
    answer["claims"] = keep
    # the prose, headline and driver say only what the kept claims support
    answer["answer"] = "; ".join(c["text"] for c in keep if c["kind"] == "measurement") + "."
    sources = {s for c in keep for s in c.get("sources") or []}
    if "r1:weekly_value_moments.pct_change" not in sources:
        answer["value"] = None
    if not any(c["kind"] == "causal" for c in keep) and "r1:days_per_user.pct_change" not in sources:
        answer["driver"] = None
    return answer


def _view() -> dict[int, dict[str, Any]]:
    return {i: {"metrics": list(r.metrics), "fields": list(r.fields), "keys": list(r.keys),
                "rows": [{"key": row.key} for row in r.rows]} for i, r in enumerate(RESULTS, 1)}


def test_fault_injection_corpus() -> None:
    """1,200 generated answers: every injected defect detected, no defect on the clean ones."""
    rng = random.Random(20261129)
    view = _view()
    injected = clean = 0
    per_code: dict[str, int] = {}
    missed: list[tuple[str, Any]] = []
    for i in range(1200):
        answer = _clean_answers(rng)
        if i % 4 == 0:
            report = audit(answer, EVIDENCE, CATALOG, "diagnostic")
            assert report.defects == [], [d.message for d in report.defects]
            clean += 1
            continue
        code = rng.choice(sorted(INJECTORS | ANSWER_INJECTORS))
        faulty = inject(answer, view, code, rng)
        if faulty is None:
            continue
        injected += 1
        per_code[code] = per_code.get(code, 0) + 1
        report = audit(faulty, EVIDENCE, CATALOG, "diagnostic")
        if code not in {d.code for d in report.defects}:
            missed.append((code, faulty))
    assert missed == [], missed[:3]
    assert injected >= 700 and clean >= 300
    assert set(per_code) == set(INJECTORS | ANSWER_INJECTORS) == set(DEFECT_CODES)
    assert min(per_code.values()) >= 20, per_code
