"""report.html: self-contained, offline, autoescaped; the table and every attempt's evidence."""

from __future__ import annotations

import base64
import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from showwork.harness.audit.types import not_checked
from showwork.harness.present.backlog import backlog, backlog_view, headline
from showwork.harness.present.charts import diagnostic_charts, score_chart
from showwork.harness.present.decisions import Shown, shown
from showwork.harness.present.display import SIMULATED_RUN, TICK_NOTE, read_as_of
from showwork.harness.present.graph import graph_svg
from showwork.harness.present.headline import cited_value, driver_label
from showwork.harness.present.headline import headline as headline_value
from showwork.harness.present.marks import (
    answer_defects,
    headline_defect,
    layered,
    segments,
    spans,
    word_marks,
)
from showwork.harness.present.table import grounded_comparison, scores
from showwork.protocol.periods import period_words, window_words
from showwork.traces import TraceRecord, read

CSS = (resources.files("showwork.harness.present") / "templates" / "style.css").read_text(encoding="utf-8")
CSS_HASH = base64.b64encode(hashlib.sha256(CSS.encode("utf-8")).digest()).decode()


def csp(form_action: str = "'none'") -> str:
    """No scripts at all, no external requests; the one inline stylesheet allowed by its hash."""
    return (f"default-src 'none'; style-src 'sha256-{CSS_HASH}'; img-src data:; "
            f"base-uri 'none'; form-action {form_action}; frame-ancestors 'none'")


def _env() -> Environment:
    env = Environment(loader=PackageLoader("showwork.harness.present", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["num"] = _num
    env.filters["periods"] = window_words  # the audit's messages, windows as people name them
    env.globals.update(graph=graph_svg, css=CSS, marks=MARKS, decision=decision_badge,
                       period=period_words, marked=marked_piece)
    return env


def decision_badge(d: Shown) -> Markup:
    """The decision in its own word, sign and colour (the class `decision-KEY`)."""
    return Markup('<span class="decision decision-{0}" data-decision="{0}">{1} {2}</span>').format(
        d.key, d.sign, escape(d.word))


def marked_piece(piece: dict[str, Any]) -> Markup:
    """One piece of a text: plain, or in a <mark> of its kind titled with why."""
    if not piece["kind"]:
        return escape(piece["text"])
    return Markup('<mark class="{0}" title="{1}">{2}</mark>').format(
        piece["kind"], piece["mark"], piece["text"])


def _num(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.4f}".rstrip("0").rstrip(".")
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return "–" if value is None else str(value)


MARKS = {"right": "✓ right", "wrong": "✗ wrong", "refused": "refused", "errored": "errored"}
"""How an attempt did against gold, as the run page marks it."""


def mark(attempt: dict[str, Any] | None) -> str | None:
    """right, wrong, refused or errored for a results.json attempt; None without gold."""
    if attempt is None:
        return None
    if attempt.get("status") == "errored" or attempt.get("stop_reason") == "errored":
        return "errored"
    if attempt.get("status") == "refused":
        return "refused"
    correct = attempt.get("correct")
    return None if correct is None else ("right" if correct else "wrong")


def withheld_reasons(audit: dict[str, Any] | None) -> list[str]:
    """Why a withheld answer is not served: every defect, then every conflicting claim."""
    if not audit or audit.get("decision") != "withhold":
        return []
    out = [f"{d.get('claim') or 'answer'}: {d['message']}" for d in audit.get("defects") or []]
    for claim in audit.get("claims") or []:
        if claim.get("state") == "CONFLICTING":
            said = "; ".join(f["message"] for f in claim.get("findings") or []) or (
                "its text states another value, member, window or direction than it cites")
            out.append(f"{claim['id']} conflicts with what it cites: {said}")
    return out or ["the answer is not grounded"]


def caveat_reasons(audit: dict[str, Any] | None) -> list[str]:
    """Why an answer is served with caveats: no claim graph to check, each finding, each claim
    not SUPPORTED, a scope not read and checked."""
    if not audit or audit.get("decision") != "serve_with_caveats" or \
            audit.get("status") == "refused":
        return []
    out = [] if audit.get("graphed") else [
        "the answer carries no claims: nothing it says was checked against the results"]
    out += [f"{f.get('claim') or 'answer'}: {f['code']}: {f['message']}"
            for f in audit.get("findings") or []]
    out += [f"{c['id']} is {c['state']}" for c in audit.get("claims") or []
            if c.get("state") not in ("SUPPORTED", None)]
    if audit.get("graphed") and audit.get("scope_checked") is False and audit.get("scope_note"):
        out.append(audit["scope_note"])
    return out or ["the audit marked it so"]


def answer_segments(audit: dict[str, Any]) -> list[dict[str, Any]]:
    """The prose cut into pieces: unsupported numbers, words not checked, words checked."""
    text = audit["answer_text"] or ""
    return segments(text, layered(spans(text, audit["defects"], "answer"),
                                  word_marks(text, audit, "answer")))


def claim_segments(audit: dict[str, Any], claim: dict[str, Any]) -> list[dict[str, Any]]:
    """A claim's text cut likewise; a sentence the harness rendered is its own, not marked."""
    text = claim.get("rendered_text") or claim["text"] or ""
    words = [] if claim.get("rendered_text") else word_marks(text, audit, claim["id"])
    return segments(text, layered(spans(text, claim["defects"], claim["id"]), words))


def attempt_view(record: TraceRecord, scored: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the page shows of one attempt: served answer, claims, citations with SQL, and
    (from results.json, `scored`) how it did against gold."""
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
                          "shown": cited_value(r["citation"], r["value"], record.catalog,
                                               (call.result or {}).get("metrics", [None])[0]
                                               if call else None),
                          "sql": call.sql if call else None,
                          "coverage": (call.result or {}).get("coverage") if call else None})
        for d in claim["defects"]:
            links.append({"ok": False, "citation": d.get("citation") or "", "message": d["message"],
                          "code": d["code"]})
        claims.append({**claim, "links": links, "segments": claim_segments(audit or {}, claim)})
    return {"id": record.attempt_id, "question": record.question, "read_as": read_as_of(record),
            "config": record.config, "repeat": record.repeat,
            "model": record.model, "simulated": record.simulated, "stop": record.stop_reason,
            "error": record.error, "audit": audit, "claims": claims,
            "rounds": len(record.rounds), "served_round": record.served_round,
            "flat": any(f["code"] == "flat_reasoning" for f in (audit or {}).get("findings", [])),
            "charts": diagnostic_charts(record),
            "answer_segments": answer_segments(audit) if audit else [],
            "words_marked": bool(audit and audit.get("status") == "answered"),
            "not_checked": not_checked((audit or {}).get("findings") or []),
            "headline_defect": headline_defect(audit) if audit else None,
            "headline": headline_value(audit, record.catalog) if audit else "–",
            "driver_label": driver_label(audit, record.catalog) if audit else "",
            "withheld": withheld_reasons(audit),
            "caveats": caveat_reasons(audit),
            "decision": shown(audit),
            "mark": mark(scored),
            "answer_defects": answer_defects(audit) if audit else []}


def render(run_dir: Path) -> str:
    results = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    records = read(run_dir / "traces.jsonl")
    template = _env().get_template("report.html.j2")
    findings = backlog(run_dir)
    scored = {(a.get("question_id"), a.get("config"), a.get("repeat")): a
              for a in results.get("attempts") or []}
    attempts = [attempt_view(r, scored.get((r.question.id, r.config, r.repeat)))
                for r in records]
    return template.render(
        csp=csp(), title=f"showwork run — {run_dir.name}", results=results,
        configs=list(results["configs"]), scores=scores(results),
        comparisons=[{**c, "grounded": grounded_comparison(c, results["configs"])}
                     for c in results.get("comparisons") or []],
        score_chart=score_chart(results), marks=MARKS,
        attempts=attempts, tick_note=TICK_NOTE,
        simulated_note=SIMULATED_RUN, findings=[{**g, "headline": headline(g)} for g in findings],
        **backlog_view(run_dir))


def write_report(run_dir: Path) -> Path:
    path = run_dir / "report.html"
    path.write_text(render(run_dir), encoding="utf-8")
    return path
