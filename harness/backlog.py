"""`showwork findings DIR`: the semantic-model backlog, grouped by kind and metric."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from traces import read


def backlog(run_dir: Path) -> list[dict[str, Any]]:
    """Findings of served answers grouped by (kind, metric, what was said), largest first."""
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for record in read(run_dir / "traces.jsonl"):
        served = record.served()
        if not served or not served.audit:
            continue
        for f in served.audit["findings"]:
            ev = f.get("evidence") or {}
            metric = ev.get("cited") or ev.get("metric") or ev.get("current") or \
                (ev.get("citation", "").split(":")[-1].split(".")[0] if ev.get("citation") else "")
            said = ev.get("phrase") or ev.get("said") or ev.get("previous") or ""
            key = (f["code"], metric or "(answer)", str(said))
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


def headline(g: dict[str, Any]) -> str:
    if g["kind"] == "mislabelled_metric":
        return (f"text said {g['said']}, cited {g['metric']}: {g['answers']} "
                f"answer{'s' if g['answers'] != 1 else ''}")
    target = f" ({g['metric']})" if g["metric"] else ""
    return f"{g['kind']}{target}: {g['answers']} answer{'s' if g['answers'] != 1 else ''}"
