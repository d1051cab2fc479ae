"""The evidence graph of an answer, drawn as SVG on the server (no script, works offline).

Claims stand in the left column, the result fields they cite in the right; an edge is a tick
where the citation resolves and a cross where it does not. Premise edges join claims.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

CLAIM_X, CLAIM_W, FIELD_X, FIELD_W, WIDTH = 40, 300, 440, 330, 790
LINE_H, PAD_TOP, GAP = 15, 18, 12
"""A label's line height, the first line's baseline below a box's top, the space between boxes."""
_BREAKS = re.compile(r"(?<=[\s\]:=])(?=\S)|(?<=[.,])(?=[^\d\s])")
"""Where a label may break: after a space or a citation's punctuation."""
CLAIM_CHARS, FIELD_CHARS = 40, 44
"""Characters a line holds in a claim box and a field box: labels wrap, never cut."""


def _lines(text: str, width: int) -> list[str]:
    """A label wrapped to lines of at most `width` characters: after a space, or inside a
    citation after `]`, `:`, `.`, `,` or `=`; a longer run is broken where it must be."""
    lines, line = [], ""
    for token in _BREAKS.split(text):
        while len(token) > width:
            if line:
                lines.append(line.rstrip())
                line = ""
            lines.append(token[:width])
            token = token[width:]
        if len(line) + len(token.rstrip()) > width and line:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def _tspans(x: int, y: int, lines: list[str]) -> str:
    return "".join(f'<tspan x="{x}" y="{y + i * LINE_H}">{escape(line)}</tspan>'
                   for i, line in enumerate(lines))


def _stack(heights: list[int]) -> list[int]:
    """The top of each box, stacked with a gap."""
    tops, y = [], 10
    for h in heights:
        tops.append(y)
        y += h + GAP
    return tops


def graph_svg(claims: list[dict[str, Any]]) -> Markup:
    """The SVG for one attempt's claims (as `report.attempt_view` shapes them)."""
    fields: list[str] = []
    for c in claims:
        for link in c["links"]:
            if link.get("kind", "result") == "result" and link["citation"] not in fields and \
                    not link["citation"].startswith(("c", "tree:")):
                fields.append(link["citation"])
    claim_lines = [_lines(c.get("rendered_text") or c["text"], CLAIM_CHARS) for c in claims]
    field_lines = [_lines(f + _shown(claims, f), FIELD_CHARS) for f in fields]
    claim_h = [PAD_TOP + LINE_H * (len(lines) + 1) - 6 for lines in claim_lines]
    field_h = [PAD_TOP + LINE_H * len(lines) for lines in field_lines]
    claim_top, field_top = _stack(claim_h), _stack(field_h)
    height = max([t + h for t, h in zip(claim_top, claim_h, strict=True)]
                 + [t + h for t, h in zip(field_top, field_h, strict=True)] + [40]) + 10
    out = [f'<svg class="evidence" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
           f'height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" '
           'aria-label="evidence graph">']
    claim_y = {c["id"]: claim_top[i] for i, c in enumerate(claims)}
    field_y = {f: field_top[i] for i, f in enumerate(fields)}
    for c in claims:
        y = claim_y[c["id"]] + 20
        for link in c["links"]:
            cit = link["citation"]
            if cit in field_y:
                cls = "edge ok" if link["ok"] else "edge bad"
                out.append(f'<line class="{cls}" x1="{CLAIM_X + CLAIM_W}" y1="{y}" '
                           f'x2="{FIELD_X}" y2="{field_y[cit] + 20}"/>')
                mark = "✓" if link["ok"] else "✗"
                out.append(f'<text class="mark {"ok" if link["ok"] else "bad"}" '
                           f'x="{(CLAIM_X + CLAIM_W + FIELD_X) // 2}" '
                           f'y="{(y + field_y[cit] + 20) // 2}">'
                           f'{mark}</text>')
            elif cit.startswith("c") and cit[1:].isdigit() and cit in claim_y:
                py = claim_y[cit] + 20
                cls = "premise ok" if link["ok"] else "premise bad"
                bend = max(2, CLAIM_X - 5 * abs(y - py) // 56)
                out.append(f'<path class="{cls}" d="M {CLAIM_X} {y} C {bend} {y}, {bend} {py}, '
                           f'{CLAIM_X} {py}"/>')
    for c, lines, h in zip(claims, claim_lines, claim_h, strict=True):
        y = claim_y[c["id"]]
        out.append(f'<g class="node claim {escape(c["state"])}">'
                   f'<rect x="{CLAIM_X}" y="{y}" width="{CLAIM_W}" height="{h}" rx="6"/>'
                   f'<text x="{CLAIM_X + 8}" y="{y + PAD_TOP}">{escape(c["id"])} · '
                   f'{escape(c["state"])}</text><text class="label">'
                   f'{_tspans(CLAIM_X + 8, y + PAD_TOP + LINE_H, lines)}</text></g>')
    for f, lines, h in zip(fields, field_lines, field_h, strict=True):
        y = field_y[f]
        out.append(f'<g class="node field"><rect x="{FIELD_X}" y="{y}" width="{FIELD_W}" '
                   f'height="{h}" rx="6"/><text class="label">'
                   f'{_tspans(FIELD_X + 8, y + PAD_TOP, lines)}</text></g>')
    out.append("</svg>")
    return Markup("".join(out))


def _shown(claims: list[dict[str, Any]], field: str) -> str:
    """' = value' of a resolved field as a person reads it (the page's own wording of the
    value, as the first claim citing it got it)."""
    link = next((link for c in claims for link in c["links"]
                 if link["citation"] == field and link["ok"]), None)
    if link is None or link.get("value") is None:
        return ""
    return f" = {link.get('shown') or link['value']}"
