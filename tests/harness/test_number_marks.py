"""The issue's three edits of a stored answer — a claim's text, the prose, the headline — each
re-audit to their code, and the ask output and the page mark the number where it is written."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, reaudit, run_attempt
from showwork.harness.present.display import show_trace
from showwork.harness.present.report import _env, attempt_view, csp
from showwork.protocol.switches import Protocol
from showwork.traces import RoundRecord, TraceRecord


@pytest.fixture(scope="module")
def stored(layer) -> TraceRecord:
    """A stored rules answer to "How many active users … in the week of 2026-03-09?"."""
    question = Question("lookup", "How many active users did we have in the week of 2026-03-09?")
    return run_attempt(question, RulesClient(), layer, Protocol.parse("claims"))


def _edited(record: TraceRecord, edit) -> TraceRecord:
    """The stored answer edited, re-audited as `showwork audit` would."""
    served = record.served()
    answer = json.loads(served.answer_raw)
    edit(answer)
    raw = json.dumps(answer)
    rounds = [RoundRecord(round=served.round, answer_raw=raw, audit=None)]
    draft = record.model_copy(update={"rounds": rounds, "served_round": served.round})
    audit = reaudit(draft).to_json()
    rounds = [RoundRecord(round=served.round, answer_raw=raw, audit=audit)]
    return record.model_copy(update={"rounds": rounds})


def _claim_text(answer: dict) -> None:
    answer["claims"][0]["text"] = "Active users (week 2026-03-09) was 99,999"


def _prose(answer: dict) -> None:
    answer["answer"] = "Active users were 99,999 in that week."


def _headline(answer: dict) -> None:
    answer["value"] = 99999


EDITS = [(_claim_text, "text_value_mismatch", "c1"), (_prose, "unsupported_number", "answer"),
         (_headline, "unsupported_number", "answer.value")]


def test_the_stored_answer_is_clean(stored) -> None:
    """Unedited, the stored answer is grounded and served."""
    audit = stored.served().audit
    assert audit["grounded"] is True and audit["decision"] == "serve"


@pytest.mark.parametrize(("edit", "code", "where"), EDITS, ids=[e[0].__name__ for e in EDITS])
def test_each_edit_is_caught(stored, edit, code: str, where: str) -> None:
    """The edit is a defect of the right code and place, and the answer is withheld."""
    audit = _edited(stored, edit).served().audit
    assert [(d["code"], d["claim"]) for d in audit["defects"]] == [(code, where)]
    assert audit["grounded"] is False and audit["decision"] == "withhold"


def test_repair_message_says_what_to_write(stored) -> None:
    """The text edit's message names the written number, the cited field and its value."""
    defect = _edited(stored, _claim_text).served().audit["defects"][0]
    cited = stored.served().audit["claims"][0]["resolved"][0]
    assert defect["message"] == (
        f"Claim c1's text says 99,999 but cites {cited['citation']} = {cited['value']:,}: write "
        f"{cited['value']:,} or cite the field that says 99,999.")


@pytest.mark.parametrize(("edit", "code", "where"), EDITS[:2], ids=["claim", "prose"])
def test_ask_output_marks_the_number(stored, edit, code: str, where: str) -> None:
    """`showwork ask` shows the unsupported number itself marked (reversed red)."""
    console = Console(record=True, width=200, force_terminal=True, highlight=False,
                      file=open("/dev/null", "w"))  # noqa: SIM115
    show_trace(console, _edited(stored, edit))
    styled = console.export_text(styles=True)
    assert "\x1b[7;31m99,999\x1b[0m" in styled, styled


@pytest.mark.parametrize(("edit", "code", "where"), EDITS, ids=[e[0].__name__ for e in EDITS])
def test_page_marks_the_number(stored, edit, code: str, where: str) -> None:
    """The report and web page wrap the number in <mark class="unsupported"> (or flag the
    headline), escaped, with the defect message as its title."""
    html = _env().get_template("attempt.html.j2").render(
        a=attempt_view(_edited(stored, edit)), csp=csp("'self'"), tick_note="")
    if where == "answer.value":
        assert '<code class="unsupported"' in html and "✗ unsupported" in html
    else:
        assert '<mark class="unsupported" title="' in html
        assert ">99,999</mark>" in html
