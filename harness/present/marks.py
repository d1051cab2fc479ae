"""Where an unsupported number sits in the text the user reads, so every surface can mark it."""

from __future__ import annotations

from typing import Any

MARKED = ("text_value_mismatch", "unsupported_number")


def spans(text: str, defects: list[dict[str, Any]], claim: str) -> list[tuple[int, int, str]]:
    """(start, end, message) of each number defect of `claim` found at its position in `text`.

    The defect's citation is the number as written and its position where it starts; a span
    that no longer lines up with the text (an edited trace) is not marked, never mis-marked.
    """
    out = []
    for d in defects:
        number, at = d.get("citation") or "", d.get("position")
        if d["code"] in MARKED and d["claim"] == claim and isinstance(at, int) and number \
                and text[at:at + len(number)] == number:
            out.append((at, at + len(number), d["message"]))
    return sorted(out)


def segments(text: str, marks: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    """The text cut into plain and marked pieces, in order (overlapping marks merged away).

    >>> [s["text"] for s in segments("was 99,999 users", [(4, 10, "m")])]
    ['was ', '99,999', ' users']
    """
    out: list[dict[str, Any]] = []
    at = 0
    for start, end, message in marks:
        if start < at:
            continue
        out.append({"text": text[at:start], "mark": None})
        out.append({"text": text[start:end], "mark": message})
        at = end
    out.append({"text": text[at:], "mark": None})
    return [s for s in out if s["text"]]


def headline_defect(audit: dict[str, Any]) -> str | None:
    """The message of a headline-value defect, if any."""
    return next((d["message"] for d in audit.get("defects", [])
                 if d["claim"] == "answer.value"), None)


def answer_defects(audit: dict[str, Any]) -> list[dict[str, Any]]:
    """Defects of the answer as a whole (prose, headline, driver), not of one claim."""
    return [d for d in audit.get("defects", []) if not d["claim"].startswith("c")]
