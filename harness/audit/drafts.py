"""Answers resting on a draft: `draft_metric`.

A metric `showwork init` inferred carries a draft mark (config.meta.showwork.draft: the inference
it rests on) until a person reviews it and removes the mark. An answer citing such a metric may be
grounded and still wrong in what the metric means (a percentage summed, a stock summed over
time), so it is served with a caveat naming the inference, never served clean.
"""

from __future__ import annotations

from showwork.harness.audit.context import ClaimContext
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Finding


@emits("draft_metric")
def find_draft_metric(ctx: ClaimContext) -> list[Finding]:
    """One finding per drafted metric the claim cites (or rests on through its premises)."""
    out = []
    seen: set[str] = set()
    for item in ctx.cited:
        metric = ctx.index_.current.get(item.citation.metric, item.citation.metric)
        inference = ctx.catalog["metrics"].get(metric, {}).get("draft")
        if not inference or metric in seen:
            continue
        seen.add(metric)
        out.append(Finding(
            "draft_metric", ctx.cid,
            f"{metric}: {inference}; drafted by init, not reviewed.",
            {"citation": item.text, "metric": metric, "inference": inference},
            f"Review {metric}'s definition against what the data means, then remove its draft "
            "mark (config.meta.showwork.draft in the metric's YAML)."))
    return out
