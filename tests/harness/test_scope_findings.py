"""Does the answer answer the question? off_question_metric, _window, _filter and _shape on the
demo (the rules analyst answering the question, or a neighbouring one) and on a second catalog,
the record of what was not checked, and detection of the noisy simulator's scope faults."""

from __future__ import annotations

from typing import Any

import pytest
import shop_world as shop

from showwork.analyst.noisy import NoisyClient, _asking
from showwork.analyst.rules import RulesClient
from showwork.benchmarks.audit import scope_detection
from showwork.harness.audit import audit
from showwork.harness.audit.types import SCOPE_CODES
from showwork.harness.experiments import experiment as exp
from showwork.harness.experiments.attempt import Question, reaudit, run_attempt
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.harness.present.backlog import backlog, headline
from showwork.harness.present.table import COLUMNS, rows
from showwork.protocol.switches import Protocol
from showwork.traces import AuditView


class AnswersAnother:
    """The rules analyst answering `asked` instead of the question it is given (or the question
    itself when `asked` is None): a grounded answer to a neighbouring question."""

    name, simulated = "rules", False

    def __init__(self, asked: str | None) -> None:
        self.asked, self.inner = asked, RulesClient()

    def complete(self, request):
        return self.inner.complete(_asking(request, self.asked) if self.asked else request)


def demo_audit(layer, question: str, asked: str | None = None) -> dict[str, Any]:
    """The stored audit of the rules analyst's answer to `asked`, held to `question`."""
    record = run_attempt(Question("q", question), AnswersAnother(asked), layer,
                         Protocol.parse("claims"))
    return record.served().audit


def scope_codes(audit_: dict[str, Any]) -> list[str]:
    return [f["code"] for f in audit_["findings"] if f["code"] in SCOPE_CODES]


REAL = "How many value moments did real, non-test users create in the week of 2026-05-04?"
BOTH = "Compare android and ios active users in May 2026"
TREND = "What is the weekly active users trend over the last 8 weeks?"
PAID = ("How did the number of paid subscribers change, in percent, from the end of February "
        "to the end of March?")
Q = {spec.id: spec.text for spec in load_questions().questions}

DEMO = [
    # (question, the question answered instead or None, scope code, expected?)
    (REAL, "How many value moments did we have in the week of 2026-05-04?",
     "off_question_metric", True),
    (Q["lookup-001"], "How many new users did we have in the week of 2026-03-02?",
     "off_question_metric", True),
    (Q["compare-001"], "How did active users change in the week of 2026-03-09 compared with the "
     "week before?", "off_question_metric", True),
    (REAL, None, "off_question_metric", False),
    (Q["compare-003"], None, "off_question_metric", False),
    (Q["diag-001"], None, "off_question_metric", False),
    (Q["lookup-002"], "How many signups did we get in February 2026?", "off_question_window",
     True),
    (TREND, "How many active users did we have last week?", "off_question_window", True),
    (Q["diag-001"], "Why did weekly value moments drop in the week of 2026-03-02?",
     "off_question_window", True),
    (TREND, None, "off_question_window", False),
    (Q["compare-002"], None, "off_question_window", False),
    (Q["lookup-003"], "What was the reminder open rate for ios users in the week of 2026-04-13?",
     "off_question_filter", True),
    (BOTH, "How many active users did we have in May 2026?", "off_question_filter", True),
    (Q["diag-002"], "Why did weekly value moments for web users dip in the week of 2026-04-13?",
     "off_question_filter", True),
    (Q["lookup-003"], None, "off_question_filter", False),
    (BOTH, None, "off_question_filter", False),
    (Q["diag-008"], None, "off_question_filter", False),
    (BOTH, "How many active users did we have on android in May 2026?", "off_question_shape",
     True),
    (PAID, "How many paid subscribers did we have at the end of March 2026?",
     "off_question_shape", True),
    (Q["breakdown-001"], "How many active users did we have in March 2026?",
     "off_question_shape", True),
    (TREND, "How many active users did we have last week?", "off_question_shape", True),
    (Q["compare-001"], None, "off_question_shape", False),
    (BOTH, None, "off_question_shape", False),
    (PAID, None, "off_question_shape", False),
    (Q["breakdown-001"], None, "off_question_shape", False),
    (TREND, None, "off_question_shape", False),
]


@pytest.mark.parametrize(("question", "asked", "code", "present"), DEMO,
                         ids=[f"{c[2]}-{'pos' if c[3] else 'neg'}-{i}" for i, c in enumerate(DEMO)])
def test_demo_scope(layer, question: str, asked: str | None, code: str, present: bool) -> None:
    """The scope finding appears exactly when the answer answers another question; the answer
    stays grounded either way (scope never breaks grounding)."""
    audit_ = demo_audit(layer, question, asked)
    assert audit_["status"] == "answered" and audit_["grounded"] is True
    assert (code in scope_codes(audit_)) is present, audit_["findings"]
    if present:
        assert audit_["decision"] == "serve_with_caveats"


def test_real_value_moments_backlog_fix(layer) -> None:
    """The legacy answer to 'real, non-test' value moments names the words and the model fix."""
    audit_ = demo_audit(layer, REAL, "How many value moments did we have in the week of "
                        "2026-05-04?")
    f = next(f for f in audit_["findings"] if f["code"] == "off_question_metric")
    assert f["claim"] is None
    assert f["evidence"]["asked"] == "real_value_moments"
    assert f["evidence"]["cited"] == "value_moments"
    assert "relabel value_moments" in f["suggestion"] and "real_value_moments" in f["suggestion"]


def test_unread_words_skip_their_check_and_say_so(layer) -> None:
    """'in pounds' (a qualifier the catalog cannot read: MRR is in usd) skips the metric check,
    records it, and the other checks still run; 'in percent' of a change is read (the percent
    change), so that question is checked in full."""
    audit_ = demo_audit(layer, "How did MRR in pounds change from the end of February to the end "
                        "of March 2026?", "What was MRR at the end of March 2026?")
    assert audit_["scope_checked"] is False
    assert audit_["scope_note"].startswith("scope partly checked: metric not checked")
    assert "'in pounds'" in audit_["scope_note"]
    assert "off_question_shape" in scope_codes(audit_)
    level = demo_audit(layer, PAID, "How many paid subscribers did we have at the end of March "
                       "2026?")
    assert level["scope_checked"] is True and "off_question_shape" in scope_codes(level)


def test_refusal_and_no_question_are_not_checked(layer) -> None:
    """A refusal, or an audit without the question, records that scope was not checked."""
    refused = demo_audit(layer, Q["refuse-013"])
    assert refused["status"] == "refused" and refused["scope_checked"] is False
    assert refused["scope_note"] == "scope not checked: the answer is a refusal"
    _q, answer = shop.clean(4)
    report = audit(answer, shop.evidence(), shop.CATALOG)
    assert (report.scope_checked, report.scope_note) == (
        False, "scope not checked: no question was given")


def test_no_scope_finding_on_any_rules_answer(layer) -> None:
    """The rules analyst's answer to every bundled question carries no scope finding, and is
    checked in full unless the question has words the catalog cannot read (then the record
    says which check was skipped)."""
    answered = 0
    for spec in load_questions().questions:
        record = run_attempt(spec.question(), RulesClient(), layer, Protocol.parse("claims"))
        stored = record.served().audit
        if stored["status"] != "answered":
            continue
        answered += 1
        assert stored["scope_checked"] or stored["scope_note"].startswith(
            "scope partly checked: "), (spec.id, stored["scope_note"])
        assert scope_codes(stored) == [], (spec.id, stored["findings"])
        assert reaudit(AuditView.decode(record.model_dump_json())).to_json() == stored
    assert answered >= 30


@pytest.mark.slow
def test_noisy_scope_faults_at_30_percent(layer) -> None:
    """Scope faults injected by the noisy simulator at 30 %: each kind found in ≥ 95 % of the
    answers that carry it, and ≤ 2 % of the other answers get a scope finding."""
    found, alarms, clean = scope_detection(layer, seeds=16, rate=0.3)
    for kind, tally in found.items():
        assert tally.injected >= 10, kind
        assert tally.detected / tally.injected >= 0.95, (kind, tally)
    assert clean >= 300
    assert sum(alarms.values()) / clean <= 0.02, alarms


SHOP = [
    # (question, the clean answer it is held to, scope code, expected?)
    ("What was net revenue at Brooklyn Heights in the week of 13 April?", 4,
     "off_question_metric", True),
    ("How many orders did Brooklyn Heights take in 2026-W16?", 4, "off_question_metric", True),
    ("What was revenue, after refunds, in the IN region in April 13–19?", 3,
     "off_question_metric", True),
    ("What was revenue at Brooklyn Heights in the week of 6 April?", 4, "off_question_window",
     True),
    ("What was weekly revenue from 2026-03-02 to 2026-03-29?", 5, "off_question_window", True),
    ("How many orders did first-time customers place in April 2026?", 6, "off_question_window",
     True),
    ("What was revenue at Brooklyn in the week of 13 April?", 4, "off_question_filter", True),
    ("How did revenue change in the EU region in 2026-W16 compared with the week before?", 3,
     "off_question_filter", True),
    ("How many orders did the returning segment place in the week of 13 April?", 6,
     "off_question_filter", True),
    ("How did revenue at Brooklyn Heights change in the week of 13 April compared with the week "
     "before?", 4, "off_question_shape", True),
    ("Which product had the most items sold in April 2026?", -2, "off_question_shape", True),
    ("What was weekly revenue from 2026-03-30 to 2026-04-26?", -5, "off_question_shape", True),
]
"""A negative index holds the question to the clean answer's first claim alone."""


def _shop_answer(index: int) -> dict[str, Any]:
    _q, answer = shop.clean(abs(index))
    if index < 0:
        answer["claims"] = answer["claims"][:1]
    return answer


@pytest.mark.parametrize(("question", "index", "code", "present"), SHOP,
                         ids=[f"{c[2]}-{i}" for i, c in enumerate(SHOP)])
def test_shop_scope_positives(question: str, index: int, code: str, present: bool) -> None:
    """Each shop answer held to a neighbouring question gets that question's scope finding."""
    report = audit(_shop_answer(index), shop.evidence(), shop.CATALOG, question=question)
    codes = [f.code for f in report.findings]
    assert (code in codes) is present, [f.message for f in report.findings]
    assert report.scope_checked, report.scope_note


@pytest.mark.parametrize("index", range(len(shop.ANSWERS)))
def test_shop_scope_negatives(index: int) -> None:
    """Every clean shop answer, held to its own question, is checked in full with no scope
    finding (eight negatives for each kind)."""
    question, answer = shop.clean(index)
    report = audit(answer, shop.evidence(), shop.CATALOG, question=question)
    assert report.scope_checked, report.scope_note
    assert [f.code for f in report.findings if f.code in SCOPE_CODES] == []


def test_shop_qualified_sibling() -> None:
    """'revenue, after refunds' points at net_revenue (its synonym 'revenue after refunds')."""
    report = audit(_shop_answer(3), shop.evidence(), shop.CATALOG,
                   question="What was revenue, after refunds, in the IN region in April 13–19?")
    f = next(f for f in report.findings if f.code == "off_question_metric")
    assert f.evidence["asked"] == "net_revenue" and f.evidence["cited"] == "revenue"


def test_shop_unread_member_skips_the_filter_check() -> None:
    """A place no dimension has ('France') is never guessed: the filter check is skipped and
    the record says why."""
    report = audit(_shop_answer(4), shop.evidence(), shop.CATALOG,
                   question="What was revenue in France in the week of 13 April?")
    assert not report.scope_checked
    assert report.scope_note == ("scope partly checked: filter not checked, the question says "
                                 "'France' (no dimension has this member)")
    assert [f.code for f in report.findings if f.code in SCOPE_CODES] == []


def test_scope_findings_reach_results_scores_and_backlog(layer, tmp_path) -> None:
    """A run where every answer answers a neighbouring question: each attempt row lists its
    scope finding and whether scope was checked, the scores count the answers, the table shows
    the column, and the backlog groups them with a fix."""
    ids = ("lookup-003", "compare-001", "breakdown-001", "diag-002")
    pick = QuestionFile(warehouse="demo", questions=[q for q in load_questions().questions
                                                     if q.id in ids])
    run = exp.Experiment(pick, ["claims"], "noisy", tmp_path / "run")
    results = exp.run(run, NoisyClient(0.0, 0.0, seed=1, scope_rate=1.0), layer)
    attempts = results["attempts"]
    assert all(set(a["findings"]) & set(SCOPE_CODES) for a in attempts), attempts
    assert all(a["scope_checked"] is True for a in attempts)
    assert results["configs"]["claims"]["scope_answers"] == len(ids)
    row = dict(zip(COLUMNS, rows(results)[0], strict=True))
    assert row["off-question answers"] == str(len(ids))
    groups = [g for g in backlog(tmp_path / "run") if g["kind"] in SCOPE_CODES]
    assert sum(g["answers"] for g in groups) >= len(ids)
    assert all(g["suggestion"] and headline(g).startswith(f"{g['kind']}: question asked")
               for g in groups)
