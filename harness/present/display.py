"""Showing an audited answer to a person in the terminal.

Lines are rich markup, printed by rich's Console or, where stdout is not a terminal, by
plain.py's, which prints the same bytes without loading rich.
"""

from __future__ import annotations

from typing import Any

from showwork.harness.audit.types import not_checked_line
from showwork.harness.present.decisions import shown
from showwork.harness.present.headline import (
    cited_value,
    driver_label,
    headline,
    roots,
    stop_word,
)
from showwork.harness.present.marks import (
    Mark,
    answer_defects,
    headline_defect,
    layered,
    segments,
    spans,
    word_marks,
)
from showwork.harness.present.plain import Console, escape

TICK_NOTE = "A tick means the support link resolves; it does not mean the conclusion is true."
SIMULATED = "SIMULATED: this answer comes from the noisy simulator, not a model."
SIMULATED_RUN = "SIMULATED: this run's answers come from the noisy simulator, not a model."
STATE_STYLE = {"SUPPORTED": "green", "STALE": "yellow", "MISSING": "red", "CONFLICTING": "red"}
READ_AS = "Read as: "


def show_trace(console: Console, trace: Any) -> None:
    """The served answer, claim by claim with each citation's status, and the decision."""
    if trace.simulated:
        console.print(f"[bold magenta]{SIMULATED}[/bold magenta]")
    served = trace.served()
    audit = served.audit if served else None
    console.print(f"[bold]Q:[/bold] {escape(trace.question.text)}")
    console.print(f"[dim]model {escape(trace.model)} · config {trace.config} · "
                  f"{len(trace.calls)} governed calls · stop: "
                  f"{stop_word(trace.stop_reason, audit)}[/dim]")
    console.print(f"[cyan]{escape(read_as_of(trace))}[/cyan]")
    for note in trace.notes:
        if not note.startswith(READ_AS):
            console.print(f"[yellow]note:[/yellow] {escape(note)}")
    if audit is None:
        console.print(f"[red]No answer:[/red] {escape(trace.error or trace.stop_reason)}")
        console.print(decision_line(None))
        console.print(TICK_NOTE)
        return
    _show_audit(console, audit, served.round if served else 0, trace.catalog_snapshot(),
                roots(trace.calls))
    console.print(TICK_NOTE)


def read_as_of(trace: Any) -> str:
    """The trace's reading of its question (recorded in its notes; read again from its catalog
    snapshot for a trace written before readings were recorded)."""
    recorded = next((n for n in trace.notes if n.startswith(READ_AS)), None)
    if recorded is not None:
        return str(recorded)
    from showwork.harness.audit.scope import read_as

    return read_as(trace.question.text, trace.catalog_snapshot())


CLI_MARKS = {"unsupported": "reverse red", "unread": "underline yellow"}
"""How the terminal marks a piece of text by kind; a checked word is left plain."""


def marked(text: str, marks: list[Mark]) -> str:
    """Rich markup of `text`: each unsupported number reversed in red, each word not checked
    underlined in yellow."""
    out = []
    for s in segments(text, marks):
        style = CLI_MARKS.get(s["kind"] or "")
        out.append(f"[{style}]{escape(s['text'])}[/{style}]" if style else escape(s["text"]))
    return "".join(out)


def _show_audit(console: Console, audit: dict[str, Any], round_no: int,
                catalog: dict[str, Any] | None = None,
                root: dict[int, str] | None = None) -> None:
    if audit["status"] == "malformed":
        console.print(f"[red]Malformed answer:[/red] {escape(audit['protocol_error'])}")
    elif audit["status"] == "refused":
        console.print(f"[bold]Refused:[/bold] {escape(audit['refusal_reason'] or '')}")
    else:
        text = audit["answer_text"] or ""
        prose = marked(text, layered(spans(text, audit["defects"], "answer"),
                                     word_marks(text, audit, "answer")))
        console.print(f"[bold]A:[/bold] {prose}")
        value = headline(audit, catalog)
        extra = f" · driver {escape(driver_label(audit, catalog))}" if audit.get("driver") else ""
        bad = " [reverse red]✗ unsupported[/reverse red]" if headline_defect(audit) else ""
        console.print(f"[dim]value {escape(value)}{extra}[/dim]{bad}")
        for d in answer_defects(audit):
            console.print(f"  [red]✗ {d['code']}:[/red] {escape(d['message'])}")
    for claim in audit["claims"]:
        style = STATE_STYLE[claim["state"]]
        text = claim.get("rendered_text") or claim["text"]
        shown = marked(text, spans(text, claim["defects"], claim["id"]))
        console.print(f"  [bold]{claim['id']}[/bold] [{style}]{claim['state']}[/{style}] "
                      f"({claim['kind']}) {shown}")
        for r in claim["resolved"]:
            shown = "" if r["value"] is None or r["kind"] != "result" else \
                f" = {cited_value(r['citation'], r['value'], catalog, (root or {}).get(r['handle']))}"
            console.print(f"      [green]✓[/green] {escape(r['citation'])}{escape(shown)}")
        for d in claim["defects"]:
            console.print(f"      [red]✗[/red] {d['code']}: {escape(d['message'])}")
        for f in claim["findings"]:
            console.print(f"      [yellow]![/yellow] {f['code']}: {escape(f['message'])}")
    for f in audit["findings"]:
        if f["code"] == "unread_answer":
            continue  # listed once below, as the words not checked
        if f["claim"] is None or f["claim"].startswith("answer"):
            where = f" ({f['claim']})" if f["claim"] else ""
            console.print(f"  [yellow]! {f['code']}{escape(where)}:[/yellow] "
                          f"{escape(f['message'])}")
    unread = not_checked_line(audit["findings"])
    if unread:
        console.print(f"  [yellow]! {escape(unread)}[/yellow] [dim](no check of the audit read "
                      f"these words)[/dim]")
    if audit.get("scope_note"):
        console.print(f"  [dim]{escape(audit['scope_note'])}[/dim]")
    console.print(" · ".join(p for p in (decision_line(audit), graph_words(audit),
                                         f"served round {round_no}") if p))


def graph_words(audit: dict[str, Any]) -> str:
    """Whether the claims hold, in words; nothing for a refusal (it claims nothing)."""
    if audit["status"] == "refused":
        return ""
    if not audit["graphed"]:
        return "no claim graph (not measurable)"
    return "grounded" if audit["grounded"] else f"{len(audit['defects'])} broken citation(s)"


def decision_line(audit: dict[str, Any] | None) -> str:
    """'Decision: ⊘ refused' in the decision's own colour (rich markup)."""
    d = shown(audit)
    return f"[bold]Decision:[/bold] [{d.style}]{d.sign} {d.word}[/{d.style}]"
