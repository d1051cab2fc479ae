"""`showwork ask` and `showwork audit`."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import track

from analyst.registry import make_client
from harness.attempt import Question, reaudit, run_attempt
from harness.cli import app
from harness.display import show_trace
from harness.home import home, warehouse_path
from protocol.switches import Protocol
from semantic_layer import SemanticLayer, load_model
from semantic_layer import warehouse as demo_warehouse
from traces import TornLine, append, read_views, verify_chain

err = Console(stderr=True)


def open_layer() -> SemanticLayer:
    """The governed layer on the demo warehouse, built first if it is missing."""
    path = warehouse_path()
    if not path.exists():
        with err.status(f"building the demo warehouse at {path} (once)") as status:
            demo_warehouse.build(path, progress=lambda m: status.update(m))
    return SemanticLayer(load_model(), path)


@app.command()
def ask(question: str = typer.Argument(..., help="The business question."),
        model: str = typer.Option("rules", help="rules, noisy:rules?…, openai:MODEL, "
                                  "replay:PATH"),
        config: str = typer.Option("claims+repair", help="Protocol switches, e.g. "
                                   "claims+repair+purpose."),
        as_json: bool = typer.Option(False, "--json", help="Print the trace as JSON.")) -> None:
    """Ask one question; print the answer, each claim's support, and the serving decision."""
    protocol = Protocol.parse(config)
    client = make_client(model)
    layer = open_layer()
    try:
        trace = run_attempt(Question("ask", question), client, layer, protocol)
    finally:
        layer.close()
    trace = append(home() / "asks" / "traces.jsonl", trace)
    if as_json:
        print(trace.model_dump_json(indent=2))
        return
    show_trace(Console(), trace)


@app.command("audit")
def audit_cmd(paths: list[Path] = typer.Argument(..., help="Run folders or traces.jsonl files."),
              verify: bool = typer.Option(False, "--verify", help="Also check the hash chain and "
                                          "manifest, and that stored audits match a fresh "
                                          "re-audit; exit 1 if anything differs."),
              as_json: bool = typer.Option(False, "--json")) -> None:
    """Re-audit stored traces: no model, no database."""
    rows, mismatches, tampered = [], 0, []
    for path in paths:
        file = path / "traces.jsonl" if path.is_dir() else path
        if verify and file.exists():
            tampered += [f"{file}: {p}" for p in verify_chain(file)]
        try:
            records = read_views(file)
        except (OSError, ValueError) as exc:
            for problem in tampered:
                print(f"integrity: {problem}")
            if isinstance(exc, TornLine):
                err.print(f"[red]{exc}[/red]")
                raise typer.Exit(1) from exc
            err.print(f"[red]error:[/red] cannot read {file}: {str(exc)[:300]}")
            raise typer.Exit(1 if tampered else 2) from exc
        for record in track(records, description=f"re-auditing {file.name}", console=err,
                            transient=True, disable=len(records) < 500):
            row = {"file": str(file), "attempt": record.attempt_id,
                   "question": record.question.id, "config": record.config}
            try:
                fresh = reaudit(record)
            except ValueError as exc:  # an edited catalog or stored result
                rows.append({**row, "error": str(exc), "matches_stored": False})
                mismatches += 1
                continue
            served = record.served()
            same = (fresh.to_json() if fresh else None) == (served.stored_audit() if served
                                                            else None)
            mismatches += 0 if same else 1
            rows.append({**row, "grounded": fresh.grounded if fresh else None,
                         "decision": fresh.decision if fresh else None,
                         "defects": len(fresh.defects) if fresh else 0, "matches_stored": same})
    if as_json:
        print(json.dumps({"attempts": rows, "mismatches": mismatches, "integrity": tampered},
                         indent=2))
    else:
        for r in rows:
            if "error" in r:
                print(f"{r['attempt']} {r['question']} [{r['config']}] ✗ {r['error']}")
                continue
            mark = "✓" if r["matches_stored"] else "✗ differs from stored audit"
            print(f"{r['attempt']} {r['question']} [{r['config']}] grounded={r['grounded']} "
                  f"decision={r['decision']} defects={r['defects']} {mark}")
        print(f"{len(rows)} attempt(s) re-audited; {mismatches} differ from the stored audit.")
        for problem in tampered:
            print(f"integrity: {problem}")
        if verify and not tampered:
            print("integrity: hash chain and manifest intact.")
    if verify and (mismatches or tampered):
        raise typer.Exit(1)
