"""The re-audit keeps whole audits by what they read: a repeat of a stored trace (another attempt
id, the same answer, question, configuration and calls) gets the report already made, and a view
that differs in anything the audit reads is audited afresh, to the report it gets with nothing
kept."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from showwork.harness.audit.index import CatalogIndex
from showwork.harness.experiments.reaudit import reaudit
from showwork.traces import AuditView

GOLDEN = Path(__file__).resolve().parents[2] / "traces" / "golden" / "traces.jsonl"
Edit = Callable[[dict[str, Any]], bool]
"""Changes one input of a trace record in place; False when the record has nothing to change."""


@pytest.fixture(autouse=True)
def cold_catalog_cache() -> Iterator[None]:
    CatalogIndex.clear()
    yield
    CatalogIndex.clear()


def _records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def _view(record: dict[str, Any]) -> AuditView:
    return AuditView.decode(json.dumps(record))


def _served(record: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in record["rounds"] if r["round"] == record["served_round"])


def _question(record: dict[str, Any]) -> bool:
    record["question"]["text"] = "How many active users did we have in the week of 2026-03-09?"
    return True


def _category(record: dict[str, Any]) -> bool:
    record["question"]["category"] = ("lookup" if record["question"].get("category")
                                      == "diagnostic" else "diagnostic")
    return True


def _rendered(record: dict[str, Any]) -> bool:
    config = record["config"]
    record["config"] = (config.replace("+rendered", "") if "rendered" in config
                        else config + "+rendered")
    return "claims" in config


def _answer(record: dict[str, Any]) -> bool:
    """One digit of the served answer's text changed."""
    served = _served(record)
    raw = served.get("answer_raw") or ""
    digit = re.search(r"(?<=[ $])\d", raw)
    if digit is None:
        return False
    changed = str((int(digit.group()) + 1) % 10)
    served["answer_raw"] = raw[:digit.start()] + changed + raw[digit.end():]
    return True


def _value(record: dict[str, Any]) -> bool:
    """The first value of the first cited result's first row, one more."""
    for call in record["calls"]:
        rows = (call.get("result") or {}).get("rows") or []
        for cell in (rows[0]["values"].values() if rows else ()):
            if isinstance(cell.get("value"), (int, float)):
                cell["value"] += 1
                return True
    return False


def _blocked(record: dict[str, Any]) -> bool:
    """The first call loses its result and handle: blocked, with a reason."""
    if not record["calls"]:
        return False
    call = record["calls"][0]
    call.update(handle=None, result=None, error={"message": "blocked by governance"})
    return True


def _reason(record: dict[str, Any]) -> bool:
    """A blocked call's reason reworded (the audit quotes it)."""
    for call in record["calls"]:
        if call.get("error"):
            call["error"]["message"] = "Refused by the reviewer."
            return True
    return False


def _tool(record: dict[str, Any]) -> bool:
    """A blocked call's tool renamed (the audit names it)."""
    for call in record["calls"]:
        if call.get("error"):
            call["tool"] = "compare" if call["tool"] != "compare" else "query"
            return True
    return False


EDITS: tuple[Edit, ...] = (_question, _category, _rendered, _answer, _value, _blocked)
BLOCKED_EDITS: tuple[Edit, ...] = (_reason, _tool)
"""Edits of a record whose first call was blocked."""


def _cases() -> Iterator[tuple[dict[str, Any], Edit]]:
    """Each golden record with each edit, and a copy whose first call was blocked (a claim
    citing r1 then quotes the call's tool and reason) with each edit of a blocked call."""
    for record in _records():
        yield from ((record, edit) for edit in EDITS)
        blocked = copy.deepcopy(record)
        if _blocked(blocked):
            yield from ((blocked, edit) for edit in BLOCKED_EDITS)


def _json(view: AuditView) -> Any:
    report = reaudit(view)
    return report.to_json() if report else None


def test_a_repeat_gets_the_report_already_made() -> None:
    """Every golden trace re-audited under another attempt id returns the very report its first
    re-audit made, equal to the one stored in it."""
    for record in _records():
        first = reaudit(_view(record))
        if first is None:
            continue
        again = {**record, "attempt_id": record["attempt_id"] + "-repeat"}
        assert reaudit(_view(again)) is first
        assert first.to_json() == _served(record)["audit"]


def test_a_view_that_differs_in_what_the_audit_reads_is_audited_afresh() -> None:
    """For each golden trace (and a copy with its first call blocked) and each input the audit reads (the question's text and category,
    rendering, one digit of the answer, one cited value, a call blocked, a blocked call's
    reason and tool), the edited view
    re-audited after the original (its report kept) equals its re-audit with nothing kept;
    the edits change the report often enough that a key missing one would show."""
    changed = tried = 0
    for record, edit in _cases():
        edited = copy.deepcopy(record)
        if not edit(edited):
            continue
        CatalogIndex.forget_readings()
        fresh = _json(_view(edited))
        CatalogIndex.forget_readings()
        original = _json(_view(record))
        assert _json(_view(edited)) == fresh, (record["attempt_id"], edit.__name__)
        tried += 1
        changed += fresh != original
    assert tried >= 5 * len(_records()) and changed >= tried // 3, (tried, changed)
