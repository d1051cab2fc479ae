"""report.html: self-contained, offline, autoescaped; the table and every attempt's evidence."""

from __future__ import annotations

import base64
import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from harness.backlog import backlog, headline
from harness.charts import diagnostic_charts, score_chart
from harness.display import SIMULATED, TICK_NOTE, read_as_of
from harness.graph import graph_svg
from harness.marks import answer_defects, headline_defect, segments, spans
from harness.table import COLUMNS, rows
from traces import TraceRecord, read

CSS = (resources.files("harness") / "templates" / "style.css").read_text(encoding="utf-8")
CSS_HASH = base64.b64encode(hashlib.sha256(CSS.encode("utf-8")).digest()).decode()


def csp(form_action: str = "'none'") -> str:
    """No scripts at all, no external requests; the one inline stylesheet allowed by its hash."""
    return (f"default-src 'none'; style-src 'sha256-{CSS_HASH}'; img-src data:; "
            f"base-uri 'none'; form-action {form_action}; frame-ancestors 'none'")


def _env() -> Environment:
    env = Environment(loader=PackageLoader("harness", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["num"] = _num
    env.globals.update(graph=graph_svg, css=CSS)
    return env


def _num(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.4f}".rstrip("0").rstrip(".")
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return "–" if value is None else str(value)


def attempt_view(record: TraceRecord) -> dict[str, Any]:
    """What the page shows of one attempt: served answer, claims, citations with SQL."""
    served = record.served()
    audit = served.audit if served else None
    calls = {c.handle: c for c in record.calls if c.handle is not None}
    claims = []
    for claim in (audit or {}).get("claims", []):
        links = []
        for r in claim["resolved"]:
            call = calls.get(r["handle"]) if r["kind"] == "result" else None
            links.append({"ok": True, "citation": r["citation"], "kind": r["kind"],
                          "value": r["value"], "row": r.get("row"),
                          "sql": call.sql if call else None,
                          "coverage": (call.result or {}).get("coverage") if call else None})
        for d in claim["defects"]:
            links.append({"ok": False, "citation": d.get("citation") or "", "message": d["message"],
                          "code": d["code"]})
        text = claim.get("rendered_text") or claim["text"]
        claims.append({**claim, "links": links,
                       "segments": segments(text, spans(text, claim["defects"], claim["id"]))})
    return {"id": record.attempt_id, "question": record.question, "read_as": read_as_of(record),
            "config": record.config,
            "model": record.model, "simulated": record.simulated, "stop": record.stop_reason,
            "error": record.error, "audit": audit, "claims": claims,
            "rounds": len(record.rounds), "served_round": record.served_round,
            "flat": any(f["code"] == "flat_reasoning" for f in (audit or {}).get("findings", [])),
            "charts": diagnostic_charts(record),
            "answer_segments": segments(audit["answer_text"],
                                        spans(audit["answer_text"], audit["defects"], "answer"))
            if audit else [],
            "headline_defect": headline_defect(audit) if audit else None,
            "answer_defects": answer_defects(audit) if audit else []}


def render(run_dir: Path) -> str:
    results = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    records = read(run_dir / "traces.jsonl")
    template = _env().get_template("report.html.j2")
    findings = backlog(run_dir)
    return template.render(
        csp=csp(), title=f"showwork run — {run_dir.name}", results=results, columns=COLUMNS,
        rows=rows(results), score_chart=score_chart(results),
        attempts=[attempt_view(r) for r in records], tick_note=TICK_NOTE,
        simulated_note=SIMULATED, findings=[{**g, "headline": headline(g)} for g in findings])


def write_report(run_dir: Path) -> Path:
    path = run_dir / "report.html"
    path.write_text(render(run_dir), encoding="utf-8")
    return path
