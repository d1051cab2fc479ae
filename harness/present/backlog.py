"""`showwork findings DIR`: the semantic-model backlog, grouped by kind and metric."""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from showwork.harness.audit.types import FINDING_CODES, SCOPE_CODES
from showwork.harness.present.headline import headline as headline_value
from showwork.protocol.periods import window_words
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
    """One group in a line, its windows named as people name them ('March 2019')."""
    return window_words(_headline(g))


def _headline(g: dict[str, Any]) -> str:
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


# --- what a data team acts on beyond findings: wrong answers, refusals, counts ----------------

SERVED_DECISIONS = ("serve", "serve_with_caveats")


def _attempts(run_dir: Path) -> list[dict[str, Any]]:
    """results.json's attempts, each with its trace's question text, catalog and served audit
    (without results.json, the traces alone: no attempt is then scored against gold)."""
    traces = {(r.question.id, r.config, r.repeat): r for r in read(run_dir / "traces.jsonl")}
    path = run_dir / "results.json"
    if path.is_file():
        attempts = json.loads(path.read_text(encoding="utf-8")).get("attempts") or []
    else:
        attempts = [{"question_id": q, "config": c, "repeat": n, "status": _status(r)}
                    for (q, c, n), r in traces.items()]
    out = []
    for a in attempts:
        record = traces.get((a.get("question_id"), a.get("config"), a.get("repeat")))
        served = record.served() if record else None
        out.append({**a, "text": record.question.text if record else a.get("question_id"),
                    "catalog": record.catalog if record else {},
                    "audit": served.audit if served else None, "attempt": record.attempt_id
                    if record else None})
    return out


def _status(record: Any) -> str:
    served = record.served()
    return str((served.audit or {}).get("status")) if served and served.audit else "errored"


def wrong_answers(run_dir: Path) -> list[dict[str, Any]]:
    """Answers gold says are wrong, one group per question: how many attempts, in which
    configurations, the values given, and how many of them the audit served anyway."""
    groups: dict[str, dict[str, Any]] = {}
    for a in _attempts(run_dir):
        if a.get("correct") is not False or a.get("status") != "answered":
            continue
        g = groups.setdefault(a["question_id"], {
            "kind": "wrong_answer", "question_id": a["question_id"], "question": a["text"],
            "answers": 0, "configs": [], "given": [], "served": 0, "attempts": [],
            "suggestion": "Read the answer's claims against the question's gold: a wrong "
                          "answer the audit served points at a metric, member or window the "
                          "catalog lets the words mislead about; one it withheld was caught."})
        g["answers"] += 1
        g["served"] += a.get("decision") in SERVED_DECISIONS
        g["attempts"].append(a["attempt"])
        if a["config"] not in g["configs"]:
            g["configs"].append(a["config"])
        shown = headline_value(a["audit"], a["catalog"]) if a["audit"] else str(a.get("value"))
        if shown not in g["given"]:
            g["given"].append(shown)
    return sorted(groups.values(), key=lambda g: (-g["served"], -g["answers"], g["question_id"]))


def refusal_groups(run_dir: Path) -> list[dict[str, Any]]:
    """Refusals grouped by the words that caused them (the question's words the catalog has
    no entry for, as the reader finds them), each with the closest governed entry as a
    suggested synonym or member; refusals with no such words grouped by their reason."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for a in _attempts(run_dir):
        if a.get("status") != "refused":
            continue
        reason = (a["audit"] or {}).get("refusal_reason") or ""
        for kind, words, term in _causes(a["text"], a["catalog"]) or [("reason", _shape(reason),
                                                                        "")]:
            g = groups.setdefault((kind, (term or words).lower()), {
                "kind": "refusal", "cause": kind, "words": words, "term": term, "answers": 0,
                "answerable": 0, "questions": [], "attempts": [], "suggestion": _suggest(kind, words, term,
                                                                       a["catalog"])})
            g["answers"] += 1
            g["answerable"] += a.get("answerable") is True
            g["attempts"].append(a["attempt"])
            if a["text"] not in g["questions"]:
                g["questions"].append(a["text"])
    return sorted(groups.values(), key=lambda g: (-g["answerable"], -g["answers"],
                                                  g["cause"] == "reason", g["words"]))


def refused_attempts(groups: list[dict[str, Any]]) -> set[str]:
    """The refused attempts behind the groups, each once (a refusal may have several causes)."""
    return {a for g in groups for a in g["attempts"] if a}


def _causes(question: str, catalog: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(kind, words, term) of each gap the reader finds in the question (words that look like
    a metric, dimension, member, grain or qualifier the catalog lacks); else its unread words,
    together."""
    if not catalog:
        return []
    from showwork.protocol.reading import read_text

    reading = read_text(question, catalog)
    if reading.gaps:
        return [(g.kind, g.words, g.term) for g in reading.gaps]
    words = ", ".join(dict.fromkeys(u.words.lower() for u in reading.unread_content))
    return [("unread", words, "")] if words else []


def _shape(reason: str) -> str:
    """A refusal's reason with its particulars (quoted names, dates, numbers) left out, so
    refusals for the same reason group together."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "…", reason.split(";")[0])
    text = re.sub(r"\d{4}-\d{2}-\d{2}(\.\.\d{4}-\d{2}-\d{2})?", "…", text)
    return re.sub(r"\d[\d,.]*", "N", text).strip() or "no reason given"


def _suggest(kind: str, words: str, term: str, catalog: dict[str, Any]) -> str:
    """The catalog change that would let such a question be read: the closest governed
    metric, dimension or member to add the words to as a synonym, or a new entry."""
    if kind == "reason":
        return "A refusal the catalog cannot change (a window, a shape, an instruction): " \
               "nothing to add unless people keep asking it."
    if kind == "grain":  # a grain is no entry a synonym could be added to
        return f"No grain '{term or words}' is offered: add it to the model's grains if " \
               f"people ask for it, or leave the refusal standing."
    names = _names(catalog)
    pool = {"metric": names["metric"], "dimension": names["dimension"],
            "member": names["member"]}.get(kind) or {
        **names["metric"], **names["dimension"], **names["member"]}
    said = term if kind in ("dimension", "grain") and term else words
    match = _closest(said.lower(), pool) if kind != "unread" else None
    if match is None:
        what = {"grain": "grain", "member": "member", "dimension": "dimension",
                "metric": "metric"}.get(kind, "entry")
        return f"No governed {what} is close to '{said}': define one in the model if people " \
               f"mean something governed, or leave the refusal standing."
    entry, target = pool[match]
    return f"Add '{said}' as a synonym of {entry} '{target}'? (governance.yaml)"


def _names(catalog: dict[str, Any]) -> dict[str, dict[str, tuple[str, str]]]:
    """Every governed name a question may use, lowered → (what it is, its catalog id)."""
    out: dict[str, dict[str, tuple[str, str]]] = {"metric": {}, "dimension": {}, "member": {}}
    for name, m in (catalog.get("metrics") or {}).items():
        for said in (name, m.get("label"), *(m.get("synonyms") or [])):
            if said:
                out["metric"][str(said).lower()] = ("metric", name)
    for name, d in (catalog.get("dimensions") or {}).items():
        for said in (name, d.get("label"), *(d.get("synonyms") or [])):
            if said:
                out["dimension"][str(said).lower()] = ("dimension", name)
        for member in d.get("members") or []:
            out["member"][str(member).lower()] = ("member of " + name, str(member))
    return out


def _closest(term: str, pool: dict[str, tuple[str, str]]) -> str | None:
    """The governed name closest to `term`: one that holds all its words ('rate' in
    'occupancy_rate'), else the nearest by spelling.

    >>> pool = {"occupancy_rate": ("metric", "occupancy_rate"), "gross_orders": ("metric", "x")}
    >>> _closest("rate", pool), _closest("gross margin", pool), _closest("ocupancy rate", pool)
    ('occupancy_rate', None, 'occupancy_rate')
    """
    words = set(re.split(r"[\s_]+", term))
    holding = sorted(n for n in pool if words <= set(re.split(r"[\s_]+", n)))
    if holding:
        return min(holding, key=lambda n: (-difflib.SequenceMatcher(None, term, n).ratio(), n))
    close = difflib.get_close_matches(term, list(pool), n=1, cutoff=0.75)
    return close[0] if close else None


def per_metric(run_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """How many wrong answers, refusals and findings touch each metric and each dimension the
    questions name (read against the catalog) or the findings cite."""
    from showwork.protocol.reading import read_text

    counts: dict[str, dict[str, dict[str, int]]] = {"metric": {}, "dimension": {}}

    def add(kind: str, name: str, what: str) -> None:
        row = counts[kind].setdefault(name, {"wrong": 0, "refused": 0, "findings": 0})
        row[what] += 1

    for a in _attempts(run_dir):
        what = ("wrong" if a.get("correct") is False and a.get("status") == "answered" else
                "refused" if a.get("status") == "refused" else None)
        reading = read_text(a["text"], a["catalog"]) if a["catalog"] and what else None
        if reading is not None and what:
            for metric in dict.fromkeys(reading.metric_names()):
                add("metric", metric, what)
            for dim in dict.fromkeys(_dimensions(reading, a["catalog"])):
                add("dimension", dim, what)
        for f in (a["audit"] or {}).get("findings") or []:
            target = _target(f.get("evidence") or {})
            if target and target in (a["catalog"].get("metrics") or {}):
                add("metric", target, "findings")
            named = (f.get("evidence") or {}).get("dimension")
            if isinstance(named, str) and named:
                label = ((a["catalog"].get("dimensions") or {}).get(named) or {}).get("label")
                add("dimension", str(label or named), "findings")
    return {kind: [{"name": n, **c, "total": sum(c.values())} for n, c in sorted(
        rows.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))]
        for kind, rows in counts.items()}


def _dimensions(reading: Any, catalog: dict[str, Any]) -> list[str]:
    """Dimensions a reading names, by name or through a member (a mention's `name` is its
    dimension), each by its governed label: one dimension reached by two join paths
    ('store', 'order__store__store_name') counts once."""
    dims = catalog.get("dimensions") or {}
    return [(dims.get(m.name) or {}).get("label") or m.name
            for m in (*reading.dimensions, *reading.members)]


def finding_counts(run: Path) -> tuple[list[dict[str, Any]], int]:
    """Every finding code (the audit's, and any other a served answer carries) with its count,
    the answers it is on, and each finding's claim; and the number of answers (refusals
    aside: findings are about what an answer says)."""
    rows: dict[str, list[dict[str, Any]]] = {code: [] for code in FINDING_CODES}
    served = 0
    for record in read(run / "traces.jsonl"):
        served_round = record.served()
        audit = served_round.audit if served_round else None
        if not audit:
            continue
        served += audit.get("status") == "answered"  # a refusal is no answer to find fault in
        texts = {c["id"]: c.get("text") for c in audit.get("claims") or []}
        for f in audit.get("findings") or []:
            rows.setdefault(f["code"], []).append({
                "attempt": record.attempt_id, "question": record.question.text,
                "claim": f.get("claim"), "text": texts.get(f.get("claim") or ""),
                "message": f.get("message", ""), "suggestion": f.get("suggestion")})
    counts = [{"code": code, "findings": len(found), "rows": found,
               "answers": len({f["attempt"] for f in found})} for code, found in rows.items()]
    return counts, served


def draft_metrics(run_dir: Path) -> list[dict[str, Any]]:
    """Metrics `showwork init` drafted that served answers cited (the `draft_metric` finding),
    one row per metric: the inference it rests on, how many answers cited it, their questions."""
    rows: dict[str, dict[str, Any]] = {}
    for record in read(run_dir / "traces.jsonl"):
        served = record.served()
        audit = served.audit if served else None
        for f in (audit or {}).get("findings") or []:
            ev = f.get("evidence") or {}
            if f["code"] != "draft_metric" or not ev.get("metric"):
                continue
            row = rows.setdefault(ev["metric"], {
                "metric": ev["metric"], "inference": ev.get("inference") or "", "answers": 0,
                "attempts": [], "questions": [], "suggestion": f.get("suggestion") or ""})
            if record.attempt_id not in row["attempts"]:
                row["attempts"].append(record.attempt_id)
                row["answers"] += 1
            if record.question.text not in row["questions"]:
                row["questions"].append(record.question.text)
    return sorted(rows.values(), key=lambda r: (-r["answers"], r["metric"]))


MISLABELLED = tuple(c for c in FINDING_CODES if c.startswith("mislabelled_"))
"""Findings of words naming another metric, member or window than the claim cites."""


def of_kinds(groups: list[dict[str, Any]], codes: tuple[str, ...]) -> list[dict[str, Any]]:
    """The backlog's groups of these finding codes, each with its headline."""
    return [{**g, "headline": headline(g)} for g in groups if g["kind"] in codes]


def backlog_view(run_dir: Path) -> dict[str, Any]:
    """Everything the backlog shows of a run (the findings page and the report alike): wrong
    answers, refusal groups, draft metrics cited, mislabelled and scope findings, counts per
    metric and dimension, and the totals."""
    counts, served = finding_counts(run_dir)
    wrong, refusals, groups = wrong_answers(run_dir), refusal_groups(run_dir), backlog(run_dir)
    return {"wrong": wrong, "refusals": refusals, "per": per_metric(run_dir),
            "drafts": draft_metrics(run_dir), "mislabelled": of_kinds(groups, MISLABELLED),
            "scope": of_kinds(groups, SCOPE_CODES),
            "wrong_total": sum(g["answers"] for g in wrong),
            "wrong_served": sum(g["served"] for g in wrong),
            "refused_total": len(refused_attempts(refusals)),
            "total": sum(c["findings"] for c in counts), "served": served}
