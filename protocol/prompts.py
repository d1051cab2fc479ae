"""Prompt text: the contract explained to the model, the catalog, the tree, repair messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from showwork.protocol.catalog_text import describe_dimension
from showwork.protocol.switches import Protocol

CONTRACT = """\
You are a data analyst. You may learn about the data ONLY through the governed tools `query` and
`compare`. Each successful call returns a result handle (r1, r2, …) and a typed result; a blocked
call returns its reason and no handle. Never invent numbers.

When you are done, reply with one JSON object (no code fence) of this shape:
{"status": "answered" | "refused", "answer": "...", "value": number | string | null,
 "driver": metric name | null, "refusal_reason": string | null,
 "values": [{"key": member or period start, "value": number | null}] | null%s
A breakdown, ranking or series ("revenue by store", "top 3 products", "monthly revenue") lists
its rows in `values`, in the order the answer gives them (a series keyed by the period start,
2019-03-01); `value` is then the headline: the top member's value, or null. A question that
names no window is answered over the whole covered range (a point-in-time metric: its value at
the end of coverage), and the answer says so.
Refuse (status "refused", with the reason) when the governed layer cannot answer the question:
an undefined metric or composition, an unsupported dimension, grain or member, a window outside
the data, or a question that is not about the data."""

CLAIMS = """\
,
 "claims": [{"text": "...", "kind": "measurement" | "conclusion" | "causal",
             "sources": [citations] | null, "premises": [citations] | null, "value": number | null}]}

Claims are numbered c1, c2, … in the order you give them. Citations:
- rN:METRIC.FIELD — a field of a result, e.g. r2:days_per_user.pct_change. Comparison fields:
  value, previous, delta, pct_change (percent units: -16.44 means fell 16.44 %). Query field:
  value, and share_of_total when the query asked share: true (the row's share of the total, a
  fraction). Rates, ratios and share_of_total are fractions (0.42, not 42).
- rN[key=member]:METRIC.FIELD — a row of a result with several rows (exactly one must match),
  e.g. r3[platform=ios]:days_per_user.pct_change; for a grain use the period start,
  r4[week=2026-03-09]:active_users.value. Quote a member with spaces or punctuation, escaping
  \" and \\: r5[store="New York 5th Ave"]:revenue.value.
- cN — an earlier claim; tree:PARENT>CHILD — an edge of the metric tree.
A measurement claim cites results in `sources` and states the cited number in `value`, at the
precision you write it (-16.4 for -16.44 is fine; -16 is not). A conclusion or causal claim cites
earlier claims (and tree edges) in `premises`, never results. For a "why" question, end with a
causal claim whose premises are the measurements that explain the move, and declare the driver.
Each value listed in `values` is a measurement claim citing its row.
"""
NO_CLAIMS = "}"
"""Closes the answer shape when the answer carries no claims (the baseline protocol)."""

RENDERED = """\
Measurement sentences will be rewritten by the harness from the values you cite; cite exactly."""

PURPOSE = """\
Every tool call must carry `purpose`: one line saying why the call is needed."""


def system_prompt(catalog: dict[str, Any], protocol: Protocol, diagnostic: bool) -> str:
    parts = [CONTRACT % (CLAIMS if protocol.claims else NO_CLAIMS)]
    if protocol.purpose:
        parts.append(PURPOSE)
    if protocol.rendered:
        parts.append(RENDERED)
    parts.append(render_catalog(catalog))
    if protocol.tree_in_prompt(diagnostic):
        parts.append(render_tree(catalog))
    return "\n\n".join(parts)


def render_catalog(catalog: dict[str, Any]) -> str:
    lines = [f"Governed catalog (model {catalog['model_version']}; as-of date {catalog['as_of']}: "
             "relative dates resolve against it; ISO weeks start on Monday).", "Metrics:"]
    for name, m in catalog["metrics"].items():
        notes = [f"grains {'/'.join(m['grains'])}", f"data {m['coverage']['start']}.."
                 f"{m['coverage']['end']}"]
        if m["point_in_time"]:
            notes.append("point in time (value at the end of the window)")
        if m["previous_names"]:
            notes.append("formerly " + ", ".join(m["previous_names"]))
        desc = f" — {m['description']}" if m.get("description") else ""
        lines.append(f"- {name} ({m['label']}){desc} [{'; '.join(notes)}]")
    lines.append("Dimensions:")
    for name, d in catalog["dimensions"].items():
        lines.append(f"- {describe_dimension(name, d)}")
    return "\n".join(lines)


def edge_formula(edge: dict[str, Any]) -> str:
    """An exact edge's right-hand side: `a × b`, `a / b`, `a + b`, or `a × b / c` with exponents."""
    factors = list(edge["factors"])
    if edge.get("op") == "sum":
        return " + ".join(factors)
    if edge.get("op") == "divide":
        return " / ".join(factors)
    exponents = edge.get("exponents") or [1] * len(factors)
    up = [f for f, p in zip(factors, exponents, strict=True) if p > 0]
    down = [f for f, p in zip(factors, exponents, strict=True) if p < 0]
    return " × ".join(up) + "".join(f" / {f}" for f in down)


def render_tree(catalog: dict[str, Any]) -> str:
    lines = ["Metric tree:"]
    for e in catalog["tree"]["exact"]:
        lines.append(f"- exact: {e['parent']} = {edge_formula(e)} (attribute a change "
                     "exactly across these factors; cite tree:PARENT>FACTOR)")
    for i in catalog["tree"]["influence"]:
        lines.append(f"- influence (correlational, a hypothesis only): {i['source']} → "
                     f"{i['target']}")
    return "\n".join(lines)


def repair_message(problems: list[str], round_no: int, max_rounds: int,
                   unread: Sequence[str] = ()) -> str:
    """The message sent back for a repair round: exact, mechanical, one line per fault; then
    the words no check of the audit read (`unread_answer`), quoted, so the model can restate
    them in words the audit checks (a number with its unit, a direction, a cited member).

    >>> print(repair_message(["Claim c1 says 5 %."], 1, 2, ["improved", "in the hundreds"]))
    ... # doctest: +NORMALIZE_WHITESPACE
    Repair round 1 of 2. The audit found 1 problem in your answer:
    - Claim c1 says 5 %.
    Not checked (no check of the audit read these words): 'improved', 'in the hundreds'.
    Restate them in words a check reads, or leave them out.
    You may make more governed calls. Then return the whole answer again as one JSON object.
    """
    listed = "\n".join(f"- {p}" for p in problems)
    words = ", ".join(f"'{w}'" for w in unread)
    not_checked = (f"Not checked (no check of the audit read these words): {words}.\nRestate "
                   "them in words a check reads, or leave them out.\n") if unread else ""
    return (f"Repair round {round_no} of {max_rounds}. The audit found {len(problems)} "
            f"problem{'s' if len(problems) != 1 else ''} in your answer:\n{listed}\n"
            f"{not_checked}You may make more governed calls. Then return the whole answer again "
            "as one JSON object.")
