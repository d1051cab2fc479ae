"""`showwork findings DIR`: the semantic-model backlog, grouped by kind and metric."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from showwork.harness.audit.types import SCOPE_CODES
from showwork.traces import read


def backlog(run_dir: Path) -> list[dict[str, Any]]:
    """Findings of served answers grouped by (kind, metric, what was said), largest first."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for record in read(run_dir / "traces.jsonl"):
        served = record.served()
        if not served or not served.audit:
            continue
        for f in served.audit["findings"]:
            metric, said = _target(f.get("evidence") or {}), _said(f.get("evidence") or {})
            key = (f["code"], metric or "(answer)", said)
            group = groups.setdefault(key, {
                "kind": f["code"], "metric": metric or None, "said": said or None, "answers": 0,
                "attempts": set(), "suggestion": f["suggestion"], "examples": []})
            group["attempts"].add(record.attempt_id)
            if len(group["examples"]) < 3:
                group["examples"].append({"question": record.question.text,
                                          "claim": f["claim"], "message": f["message"]})
    out = []
    for g in groups.values():
        g["answers"] = len(g.pop("attempts"))
        out.append(g)
    return sorted(out, key=lambda g: (-g["answers"], g["kind"], g["metric"] or ""))


def _text(value: Any) -> str:
    """A list of evidence (windows, members) as one text; anything else as itself."""
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return str(value) if value else ""


def _target(ev: dict[str, Any]) -> str:
    """What was cited: the metric (or members, windows) the finding is about."""
    cited = ev.get("cited") or ev.get("metric") or ev.get("current")
    if cited:
        return _text(cited)
    citation = ev.get("citation") or ""
    return citation.split(":")[-1].split(".")[0] if citation else ""


def _said(ev: dict[str, Any]) -> str:
    """What the text or the question said."""
    return _text(ev.get("phrase") or ev.get("said") or ev.get("previous") or ev.get("asked"))


def headline(g: dict[str, Any]) -> str:
    n = f"{g['answers']} answer{'s' if g['answers'] != 1 else ''}"
    if g["kind"] == "mislabelled_metric":
        return f"text said {g['said']}, cited {g['metric']}: {n}"
    if g["kind"] in ("mislabelled_member", "mislabelled_window"):
        return f"{g['kind']}: text said {g['said']}, cited {g['metric'] or 'nothing of it'}: {n}"
    if g["kind"] in SCOPE_CODES:
        cited = g["metric"] or "none of it"
        return f"{g['kind']}: question asked {g['said']}, answer cited {cited}: {n}"
    target = f" ({g['metric']})" if g["metric"] else ""
    return f"{g['kind']}{target}: {n}"
