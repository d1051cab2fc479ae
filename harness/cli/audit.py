"""`showwork audit`: re-audit stored traces with no model and no database.

Imports only the audit and the trace reader, so it never loads DuckDB, sqlglot or
dbt-semantic-interfaces (a test checks this in a subprocess).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.progress import track

from showwork.harness.audit.types import Defect, Finding
from showwork.harness.cli.common import RunProjectOpt, check_run_project, err
from showwork.harness.experiments.reaudit import reaudit
from showwork.harness.present.decisions import decision_key
from showwork.traces import AuditView, DamagedTrace, TornLine, TraceError, read_views, verify_chain


def audit_cmd(paths: list[Path] = typer.Argument(..., help="Run folders or traces.jsonl files."),
              verify: bool = typer.Option(False, "--verify", help="Also check the hash chain and "
                                          "manifest, and that stored audits match a fresh "
                                          "re-audit; exit 1 if anything differs."),
              as_json: bool = typer.Option(False, "--json"),
              project: str | None = RunProjectOpt) -> None:
    """Re-audit stored traces (no model, no database); print every defect and finding."""
    rows, tampered = [], []
    for path in paths:
        if path.is_dir():
            check_run_project(path, project)
        file = path / "traces.jsonl" if path.is_dir() else path
        if verify and file.exists():
            tampered += [f"{file}: {p}" for p in verify_chain(file)]
        rows += _reaudit_file(file, tampered)
    mismatches = sum(not r["matches_stored"] for r in rows)
    if as_json:
        print(json.dumps({"attempts": rows, "mismatches": mismatches, "integrity": tampered},
                         indent=2))
    else:
        _print_audits(rows, mismatches, tampered, verify)
    if verify and (mismatches or tampered):
        raise typer.Exit(1)


def _reaudit_file(file: Path, tampered: list[str]) -> list[dict[str, Any]]:
    try:
        records = read_views(file)
    except TornLine:
        raise
    except (OSError, ValueError) as exc:
        problems = "".join(f"\nintegrity: {p}" for p in tampered)
        kind = DamagedTrace if tampered else TraceError
        raise kind(f"cannot read {file}: {str(exc)[:300]}{problems}") from exc
    return [_reaudit_row(file, record)
            for record in track(records, description=f"re-auditing {file.name}", console=err,
                                transient=True, disable=len(records) < 500)]


def _reaudit_row(file: Path, record: AuditView) -> dict[str, Any]:
    row: dict[str, Any] = {"file": str(file), "attempt": record.attempt_id,
                           "question": record.question.id, "config": record.config}
    try:
        fresh = reaudit(record)
    except DamagedTrace as exc:  # an edited catalog or stored result
        return {**row, "error": exc.message, "matches_stored": False}
    served = record.served()
    stored = served.stored_audit() if served else None
    return {**row, "grounded": fresh.grounded if fresh else None,
            "decision": fresh.decision if fresh else None,
            "shown": decision_key({"status": fresh.status, "decision": fresh.decision})
            if fresh else "none",
            "defects": [_defect(d) for d in fresh.defects] if fresh else [],
            "findings": [_finding(f) for f in fresh.findings] if fresh else [],
            "not_checked": fresh.not_checked if fresh else [],
            "matches_stored": (fresh.to_json() if fresh else None) == stored}


def _defect(d: Defect) -> dict[str, Any]:
    return {"code": d.code, "claim": d.claim, "citation": d.citation, "message": d.message}


def _finding(f: Finding) -> dict[str, Any]:
    return {"code": f.code, "claim": f.claim, "message": f.message, "suggestion": f.suggestion}


def _print_audits(rows: list[dict[str, Any]], mismatches: int, tampered: list[str],
                  verify: bool) -> None:
    for r in rows:
        head = f"{r['attempt']} {r['question']} [{r['config']}]"
        if "error" in r:
            print(f"{head} ✗ {r['error']}")
            continue
        mark = "✓" if r["matches_stored"] else "✗ differs from stored audit"
        print(f"{head} grounded={r['grounded']} decision={r['shown']} "
              f"defects={len(r['defects'])} findings={len(r['findings'])} {mark}")
        for d in r["defects"]:
            print(f"  defect {d['code']} {d['claim']} {d['citation'] or '-'}: {d['message']}")
        for f in r["findings"]:
            print(f"  finding {f['code']} {f['claim'] or '(answer)'}: {f['message']}")
        if r["not_checked"]:
            quoted = ", ".join(f"'{w}'" for w in r["not_checked"])
            print(f"  not checked: {quoted} (no check of the audit read these words)")
    print(f"{len(rows)} attempt(s) re-audited; {mismatches} differ from the stored audit.")
    for problem in tampered:
        print(f"integrity: {problem}")
    if verify and not tampered:
        print("integrity: hash chain and manifest intact.")
