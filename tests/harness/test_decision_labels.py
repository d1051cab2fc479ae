"""The decision a person sees, on the surfaces that are not pages: MCP results and the terminal.
A refusal is 'refused' (never 'serve'), on the demo and on the shop."""

from __future__ import annotations

import pytest
from rich.console import Console

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.mcp.session import McpSession
from showwork.harness.present.decisions import DECISIONS, decision_key
from showwork.harness.present.display import show_trace
from showwork.protocol.switches import Protocol

REFUSALS = {"demo": "What was the average age of active users last month?",
            "shop": "What was revenue by city in Q2 2019?"}


def _layer(request: pytest.FixtureRequest, domain: str):
    return request.getfixturevalue("layer" if domain == "demo" else "shop_layer")


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_an_mcp_refusal_is_refused(request: pytest.FixtureRequest, domain: str) -> None:
    """An MCP client's refusal comes back with decision 'refused' and the word people read,
    in the reply and in what the session serves; the audit's own decision stays 'serve'."""
    layer = _layer(request, domain)
    session = McpSession(layer, layer.catalog())
    reply = session.submit({"status": "refused", "answer": "", "value": None, "claims": [],
                            "refusal_reason": "The catalog has no such dimension."},
                           REFUSALS[domain])
    assert (reply["decision"], reply["decision_label"]) == ("refused", "refused")
    assert reply["served"]["decision"] == "refused" and reply["final"]
    assert session.reports[0].decision == "serve"


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_the_terminal_names_each_decision(request: pytest.FixtureRequest, domain: str) -> None:
    """`ask`'s print-out ends on the decision's own word: '⊘ refused' for a refusal, '✓ served'
    or '⚠ served with caveats' for an answer (the baseline has no claim graph to check)."""
    layer, rules = _layer(request, domain), RulesClient()
    clean = {"demo": "How many active users did we have in the week of 2026-03-02?",
             "shop": "What was revenue in July 2019?"}[domain]
    for question, config, want in ((REFUSALS[domain], "claims+repair", "refused"),
                                   (clean, "claims+repair", "serve"),
                                   (clean, "baseline", "serve_with_caveats")):
        trace = run_attempt(Question("q", question), rules, layer, Protocol.parse(config))
        assert decision_key(trace.served().audit) == want
        console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        show_trace(console, trace)
        line = next(x for x in console.export_text().splitlines() if x.startswith("Decision:"))
        d = DECISIONS[want]
        assert line.startswith(f"Decision: {d.sign} {d.word} ·"), line
        assert ("serve" in line.split("·")[0]) == (want != "refused"), line
        assert ("claim graph" in line) == (want == "serve_with_caveats"), line  # a refusal
        # claims nothing: no "no claim graph (not measurable)" under it



@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_the_re_audit_names_a_refusal(request: pytest.FixtureRequest, domain: str, tmp_path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`showwork audit` prints a stored refusal as decision=refused (its JSON keeps the audit's
    own decision, `serve`, beside what a person is shown)."""
    from showwork.harness.cli.audit import _print_audits, _reaudit_file
    from showwork.traces import append

    layer, rules = _layer(request, domain), RulesClient()
    trace = run_attempt(Question("q", REFUSALS[domain]), rules, layer,
                        Protocol.parse("claims+repair"))
    append(tmp_path / "traces.jsonl", trace)
    rows = _reaudit_file(tmp_path / "traces.jsonl", [])
    assert [(r["decision"], r["shown"]) for r in rows] == [("serve", "refused")]
    _print_audits(rows, 0, [], verify=False)
    printed = capsys.readouterr().out
    assert "decision=refused" in printed and "decision=serve" not in printed
