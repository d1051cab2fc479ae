"""The evidence graph of an answer, drawn as SVG on the server (no script, works offline).

Claims stand in the left column, the result fields they cite in the right; an edge is a tick
where the citation resolves and a cross where it does not. Premise edges join claims.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

ROW_H, CLAIM_X, CLAIM_W, FIELD_X, FIELD_W, WIDTH = 56, 40, 300, 440, 330, 790


def _short(text: str, n: int = 46) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def graph_svg(claims: list[dict[str, Any]]) -> Markup:
    """The SVG for one attempt's claims (as `report.attempt_view` shapes them)."""
    fields: list[str] = []
    for c in claims:
        for link in c["links"]:
            if link.get("kind", "result") == "result" and link["citation"] not in fields and \
                    not link["citation"].startswith(("c", "tree:")):
                fields.append(link["citation"])
    height = max(len(claims), len(fields), 1) * ROW_H + 20
    out = [f'<svg class="evidence" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
           f'height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" '
           'aria-label="evidence graph">']
    claim_y = {c["id"]: 10 + i * ROW_H for i, c in enumerate(claims)}
    field_y = {f: 10 + i * ROW_H for i, f in enumerate(fields)}
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
                bend = max(2, CLAIM_X - 5 * abs(y - py) // ROW_H)
                out.append(f'<path class="{cls}" d="M {CLAIM_X} {y} C {bend} {y}, {bend} {py}, '
                           f'{CLAIM_X} {py}"/>')
    for c in claims:
        y = claim_y[c["id"]]
        out.append(f'<g class="node claim {escape(c["state"])}">'
                   f'<rect x="{CLAIM_X}" y="{y}" width="{CLAIM_W}" height="{ROW_H - 12}" rx="6"/>'
                   f'<text x="{CLAIM_X + 8}" y="{y + 18}">{escape(c["id"])} · '
                   f'{escape(c["state"])}</text><text x="{CLAIM_X + 8}" y="{y + 34}">'
                   f'{escape(_short(c.get("rendered_text") or c["text"], 42))}'
                   '</text></g>')
    for f in fields:
        y = field_y[f]
        value = next((link.get("value") for c in claims for link in c["links"]
                      if link["citation"] == f and link["ok"]), None)
        shown = "" if value is None else f" = {value:,.4g}" if isinstance(value, float) else \
            f" = {value}"
        out.append(f'<g class="node field"><rect x="{FIELD_X}" y="{y}" width="{FIELD_W}" '
                   f'height="{ROW_H - 12}" rx="6"/><text x="{FIELD_X + 8}" y="{y + 26}">'
                   f'{escape(_short(f + shown, 52))}</text></g>')
    out.append("</svg>")
    return Markup("".join(out))
