"""Where the audit's verdicts sit in the text the user reads, so every surface can mark them:
an unsupported number, a word no check of the audit read, a word the audit checked."""

from __future__ import annotations

from typing import Any

from showwork.harness.audit.words import stating

MARKED = ("text_value_mismatch", "unsupported_number")
NOT_CHECKED = "not checked"
"""The title of a word no check of the audit read (the finding `unread_answer`)."""
CHECKED = "checked against the cited results"
"""The title of a word a reading of the audit held to the cited results."""
KINDS = ("unsupported", "unread", "checked")
"""Mark kinds, strongest first: where two overlap, the stronger is shown."""

Mark = tuple[int, int, str, str]
"""(start, end, title, kind) of one marked run of the text."""


def spans(text: str, defects: list[dict[str, Any]], claim: str) -> list[Mark]:
    """Each number defect of `claim` found at its position in `text`, marked 'unsupported'.

    The defect's citation is the number as written and its position where it starts; a span
    that no longer lines up with the text (an edited trace) is not marked, never mis-marked.
    """
    out = []
    for d in defects:
        number, at = d.get("citation") or "", d.get("position")
        if d["code"] in MARKED and d["claim"] == claim and isinstance(at, int) and number \
                and text[at:at + len(number)] == number:
            out.append((at, at + len(number), d["message"], "unsupported"))
    return sorted(out)


def word_marks(text: str, audit: dict[str, Any], where: str) -> list[Mark]:
    """The words of `text` (the audited text at `where`: 'answer', 'answer.value' or a claim
    id) that no check read, marked 'unread', and the words a check read, marked 'checked'.

    The audit accounts for every word of an answered answer's texts: read by a check, neutral
    (an article, a preposition), or quoted with its span in an `unread_answer` finding. So a
    word that is neither neutral nor quoted was read. A finding whose text is not `text` (an
    edited trace) marks nothing, never the wrong words.

    >>> audit = {"status": "answered", "words_checked": True, "findings": [{"code":
    ...     "unread_answer", "claim": "answer",
    ...     "evidence": {"text": "Revenue was 5 thanks to luck.", "spans": [[14, 28]]}}]}
    >>> text = "Revenue was 5 thanks to luck."
    >>> [(text[a:b], kind) for a, b, _, kind in word_marks(text, audit, "answer")]
    [('Revenue', 'checked'), ('5', 'checked'), ('thanks to luck', 'unread')]
    >>> word_marks(text, {**audit, "words_checked": None}, "answer")  # an older audit
    []
    """
    if audit.get("status") != "answered" or not text or not audit.get("words_checked"):
        return []  # an audit older than the closed-world reading: what it read is unknown
    found = [f.get("evidence") or {} for f in audit.get("findings") or []
             if f.get("code") == "unread_answer" and f.get("claim") == where]
    if any(e.get("text") != text or "spans" not in e for e in found):
        return []
    unread = sorted((a, b) for e in found for a, b in e.get("spans") or []
                    if 0 <= a < b <= len(text))
    out = [(a, b, NOT_CHECKED, "unread") for a, b in unread]
    out += [(a, b, CHECKED, "checked") for a, b in _stated(text, unread)]
    return sorted(out)


def _stated(text: str, unread: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Runs of the words outside `unread` that state something (the audit's tokens that are
    not neutral), words next to each other and a number's or a date's parts ('12,834',
    '3.8 %', '2013-03-01') kept in one run."""
    runs: list[tuple[int, int]] = []
    for a, b in stating(text):
        if any(u < b and a < v for u, v in unread):
            continue
        if runs and _joined(text, runs[-1][1], a):
            runs[-1] = (runs[-1][0], b)
        else:
            runs.append((a, b))
    return [_with_unit(text, a, b) for a, b in runs]


def _joined(text: str, end: int, start: int) -> bool:
    """Two stated words next to each other ('Active users'), or the parts of one number or
    date ('12' and '834' of '12,834', '03' and '01' of '2013-03-01'), are one run.

    >>> _joined("Active users", 6, 7), _joined("12,834", 2, 3), _joined("users. Revenue", 5, 7)
    (True, True, False)
    """
    between = text[end:start]
    if between.isspace():
        return True
    return between in (",", ".", "-", "..", "/", "–") and text[end - 1].isdigit() \
        and text[start].isdigit()


def _with_unit(text: str, a: int, b: int) -> tuple[int, int]:
    """A number's run with its sign, currency and percent ('$1,200', '-3.8 %')."""
    while text[a].isdigit() and a > 0 and text[a - 1] in "$€£¥-−+":
        a -= 1
    for tail in (" %", "%"):
        if text[b:b + len(tail)] == tail and text[b - 1].isdigit():
            return a, b + len(tail)
    return a, b


def layered(*marks: list[Mark]) -> list[Mark]:
    """Every mark, in order of the text, a weaker mark left out where a stronger one lies."""
    kept: list[Mark] = []
    for mark in sorted((m for ms in marks for m in ms), key=lambda m: KINDS.index(m[3])):
        if not any(k[0] < mark[1] and mark[0] < k[1] for k in kept):
            kept.append(mark)
    return sorted(kept)


def segments(text: str, marks: list[Mark]) -> list[dict[str, Any]]:
    """The text cut into plain and marked pieces, in order (overlapping marks merged away).

    >>> [(s["text"], s["kind"]) for s in segments("was 99,999 users", [(4, 10, "m", "unread")])]
    [('was ', None), ('99,999', 'unread'), (' users', None)]
    """
    out: list[dict[str, Any]] = []
    at = 0
    for start, end, message, kind in marks:
        if start < at:
            continue
        out.append({"text": text[at:start], "mark": None, "kind": None})
        out.append({"text": text[start:end], "mark": message, "kind": kind})
        at = end
    out.append({"text": text[at:], "mark": None, "kind": None})
    return [s for s in out if s["text"]]


def headline_defect(audit: dict[str, Any]) -> str | None:
    """The message of a headline-value defect, if any."""
    return next((d["message"] for d in audit.get("defects", [])
                 if d["claim"] == "answer.value"), None)


def answer_defects(audit: dict[str, Any]) -> list[dict[str, Any]]:
    """Defects of the answer as a whole (prose, headline, driver), not of one claim."""
    return [d for d in audit.get("defects", []) if not d["claim"].startswith("c")]
