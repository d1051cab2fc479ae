"""Golden traces: stored trace lines from an earlier version keep loading and re-auditing to
the audits stored in them, through both the full record and the re-audit view.

The lines are real runs (the rules analyst under claims+repair+rendered, the noisy simulator
under claims and claims+repair). A deliberate change to the audit or the trace format re-records
them with `tests/golden/record_traces.py`; any other difference is a regression.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from showwork.harness.audit.index import CatalogIndex
from showwork.harness.experiments.attempt import reaudit
from showwork.traces import AuditView, read, read_views, verify_chain

GOLDEN = Path(__file__).resolve().parents[2] / "traces" / "golden" / "traces.jsonl"


@pytest.fixture(autouse=True)
def cold_catalog_cache():
    """Each test reads the catalog from the trace itself, not from an index built earlier."""
    CatalogIndex.clear()
    yield
    CatalogIndex.clear()


def test_golden_file_is_intact_and_varied() -> None:
    """The golden file's hash chain holds, and it covers defects, findings, repairs, a refusal
    and rendered text, so the re-audit below is not checking easy cases only."""
    assert verify_chain(GOLDEN) == []
    audits = [r.served().audit for r in read(GOLDEN)]
    defects = {d["code"] for a in audits for d in a["defects"]}
    findings = {f["code"] for a in audits for f in a["findings"]}
    assert {"no_support", "value_mismatch", "malformed_citation", "unknown_handle",
            "unknown_row", "ambiguous_row", "mixed_support", "unknown_premise",
            "unknown_statement", "text_value_mismatch", "unsupported_number",
            "unsupported_driver"} <= defects
    assert {"mislabelled_metric", "flat_reasoning", "weak_causal"} <= findings
    assert {a["decision"] for a in audits} == {"serve", "serve_with_caveats", "withhold"}
    assert any(a["status"] == "refused" for a in audits)
    assert any(c["rendered_text"] for a in audits for c in a["claims"])
    assert any(r.served_round == 2 for r in read(GOLDEN))


def test_full_records_reaudit_to_the_stored_audit() -> None:
    """Every golden record re-audits, with no model and no database, to its stored audit."""
    for record in read(GOLDEN):
        assert reaudit(record).to_json() == record.served().audit, record.attempt_id


def test_views_reaudit_to_the_stored_audit() -> None:
    """The re-audit view (results and catalog kept as raw JSON until needed) gives the same
    audit as the full record, line by line."""
    views = read_views(GOLDEN)
    assert [v.attempt_id for v in views] == [r.attempt_id for r in read(GOLDEN)]
    for view in views:
        assert reaudit(view).to_json() == view.served().stored_audit(), view.attempt_id


def test_view_rejects_a_line_that_is_not_a_trace() -> None:
    """A line missing what a re-audit reads is a ValueError naming the field, not a crash later."""
    with pytest.raises(ValueError, match="attempt_id"):
        AuditView.decode('{"question": {"id": "q", "text": "t"}, "config": "claims"}')
    with pytest.raises(ValueError, match=r"\$\.calls\[0\]\.handle"):
        AuditView.decode('{"attempt_id": "a", "question": {"id": "q", "text": "t"}, '
                         '"config": "claims", "catalog_digest": "x", '
                         '"calls": [{"tool": "query", "handle": "r1"}]}')


def test_reaudit_leaves_no_reference_cycle() -> None:
    """A re-audit's objects are freed by reference counting when it returns: no cycle is left
    for the garbage collector, so a long re-audit never stops to trace its own leftovers."""
    views = list(read_views(GOLDEN))
    for view in views:  # warm: readings and the catalog index are built and kept on purpose
        reaudit(view)
    gc.collect()
    gc.disable()
    try:
        reports = [reaudit(view) for view in views]
        assert any(r is not None and r.defects for r in reports)
        assert any(r is not None and len(r.claims) > 3 for r in reports)
        del reports
        assert gc.collect() == 0
    finally:
        gc.enable()
