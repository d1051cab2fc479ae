"""Bad answers become defects or protocol errors with a message, never an escaping exception."""

from __future__ import annotations

import json
from typing import Any

import pytest
from audit_world import CATALOG, evidence, good, with_claim

from showwork.harness.audit import audit


def _claims(n: int) -> dict[str, Any]:
    answer = good()
    answer["claims"] = [{"text": "Active users", "kind": "measurement",
                         "sources": ["r5:active_users.value"], "value": 12834}] * n
    return answer


def _nested(depth: int) -> str:
    return '{"status": "answered", "answer": "x", "value": ' + "[" * depth + "]" * depth + "}"


PROTOCOL_ERRORS = [
    ("malformed JSON", '{"status": "answered", "answer": ', "not valid JSON"),
    ("prose instead of JSON", "Weekly value moments fell because of days per user.",
     "not valid JSON"),
    ("JSON in a code fence", "```json\n" + json.dumps(good()) + "\n```", "code fence"),
    ("extra keys", json.dumps({**good(), "confidence": 0.9}), "confidence"),
    ("extra key in a claim", json.dumps(with_claim({"text": "x", "kind": "measurement",
                                                    "sources": ["r1:active_users.value"],
                                                    "weight": 1})), "weight"),
    ("10,000-deep nesting", _nested(10_000), "nests too deeply"),
    ("100,000-deep nesting", _nested(100_000), "nests too deeply"),
    ("50 MB answer", '{"status": "answered", "answer": "' + "x" * 50_000_000 + '"}',
     "larger than"),
    ("100,000 claims (as JSON: over the size cap)", json.dumps(_claims(100_000)), "larger than"),
    ("100,000 claims (decoded: over the count cap)", _claims(100_000), "100,000 claims"),
    ("NaN", '{"status": "answered", "answer": "x", "value": NaN}', "NaN"),
    ("Infinity", '{"status": "answered", "answer": "x", "value": -Infinity}', "Infinity"),
    ("duplicate keys", '{"status": "answered", "status": "refused", "answer": "x"}',
     "repeats the key 'status'"),
    ("duplicate keys in a claim", json.dumps(with_claim({"text": "x", "kind": "measurement"}))
     .replace('"kind": "measurement"', '"kind": "measurement", "kind": "causal"'),
     "repeats the key 'kind'"),
    ("a byte-order mark", "\ufeff" + json.dumps(good()), "Unexpected UTF-8 BOM"),
    ("a 5,000-digit number", '{"status": "answered", "answer": "x", "value": ' + "1" * 5000
     + "}", "number too long to read"),
    ("unknown status", json.dumps({**good(), "status": "maybe"}), "status"),
    ("not an object", "[1, 2, 3]", "JSON object"),
    ("empty", "", "not valid JSON"),
    ("NaN in a dict", {**good(), "value": float("nan")}, "NaN"),
]


@pytest.mark.parametrize(("name", "raw", "message"), PROTOCOL_ERRORS,
                         ids=[p[0] for p in PROTOCOL_ERRORS])
def test_protocol_errors(name: str, raw: Any, message: str) -> None:
    """The answer is reported malformed with a message the model can act on; it is withheld."""
    report = audit(raw, evidence(), CATALOG, "diagnostic")
    assert report.status == "malformed" and report.decision == "withhold"
    assert message in report.protocol_error


DEFECTS = [
    ("premise cycle and forward reference", with_claim(
        {"text": "a", "kind": "conclusion", "premises": ["c7"]}) | {}, "unknown_premise"),
    ("12% as a value", with_claim({"text": "Active users", "kind": "measurement",
                                   "sources": ["r5:active_users.value"], "value": "12%"}),
     "value_mismatch"),
    ("confusable handle", with_claim({"text": "Active users", "kind": "measurement",
                                      "sources": ["\u0433\u0031:active_users.value"]}),
     "malformed_citation"),
    ("blocked call's would-be handle", with_claim({"text": "by age", "kind": "measurement",
                                                   "sources": ["r7:active_users.value"]}),
     "unknown_handle"),
    ("citation that is not a string", with_claim({"text": "x", "kind": "measurement",
                                                  "sources": [12]}), "malformed_citation"),
    ("premises that are not strings", with_claim({"text": "x", "kind": "conclusion",
                                                  "premises": [1.5, {"c": 1}, None]}),
     "malformed_citation"),
]


@pytest.mark.parametrize(("name", "answer", "code"), DEFECTS, ids=[d[0] for d in DEFECTS])
def test_defects(name: str, answer: dict[str, Any], code: str) -> None:
    """The bad citation is a defect of its claim; the rest of the answer is still audited."""
    report = audit(answer, evidence(), CATALOG, "diagnostic")
    assert code in [d.code for d in report.defects]
    assert [c.state for c in report.claims[:5]] == ["SUPPORTED"] * 5


def test_premise_cycle_is_impossible_and_forward_refs_break() -> None:
    """c1 → c2 → c1: the forward reference is the defect, so no cycle can resolve."""
    answer = good()
    answer["claims"] = [{"text": "a", "kind": "conclusion", "premises": ["c2"]},
                        {"text": "b", "kind": "conclusion", "premises": ["c1"]}]
    report = audit(answer, evidence(), CATALOG)
    assert [d.code for d in report.defects if d.claim.startswith("c")] == ["unknown_premise"]
    assert [c.state for c in report.claims] == ["MISSING", "MISSING"]


def test_premise_on_broken_claim_is_missing() -> None:
    """A conclusion resting on a broken measurement is not supported, though its own link resolves."""
    answer = good()
    answer["claims"][0]["sources"] = ["r9:days_per_user.pct_change"]
    report = audit(answer, evidence(), CATALOG, "diagnostic")
    assert report.claims[4].defects == [] and report.claims[4].state == "MISSING"


@pytest.mark.parametrize(("name", "raw", "message"),
                         [p for p in PROTOCOL_ERRORS if isinstance(p[1], str)][:8],
                         ids=[p[0] for p in PROTOCOL_ERRORS if isinstance(p[1], str)][:8])
def test_a_text_audited_again_gets_the_same_report(name: str, raw: str, message: str) -> None:
    """An answer text audited twice gets the same report (no state kept between audits): a
    malformed one is malformed with the same message every time, and a good one audits as its
    decoded dict does."""
    first, again = (audit(raw, evidence(), CATALOG, "diagnostic") for _ in range(2))
    assert first.protocol_error == again.protocol_error and message in again.protocol_error
    text = json.dumps(good())
    reports = [audit(a, evidence(), CATALOG, "diagnostic").to_json() for a in (text, text, good())]
    assert reports[0] == reports[1] == reports[2]
