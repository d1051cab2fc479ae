"""The answer's `driver` — the field that is scored and shown as "the driver" — must be what its
argument names: the factor of a tree edge its causal claim cites (or, with no causal claim, a
metric some claim cites)."""

from __future__ import annotations

from showwork.harness.audit.context import AnswerContext, ClaimContext
from showwork.harness.audit.steps import emits
from showwork.harness.audit.types import Defect


@emits("unsupported_driver")
def check_driver(ctx: AnswerContext) -> list[Defect]:
    driver = ctx.answer.driver
    if ctx.answer.status != "answered" or not driver or not ctx.answer.has_graph:
        return []
    named = _current(ctx, driver)
    causal = [c for c in ctx.claims if c.claim.kind == "causal"]
    if causal:
        factors = {_current(ctx, s.child): (c, s) for c in causal for s in c.statements}
        return [] if named in factors else [_unargued(ctx, driver, causal, factors)]
    cited = {c.metric for claim in ctx.claims for c in claim.cited}
    if named in {_current(ctx, m) for m in cited}:
        return []
    listed = ", ".join(sorted(cited)) or "none"
    return [ctx.defect("unsupported_driver", f"The answer names driver {driver}, but no claim "
                       f"cites {driver} (cited metrics: {listed}). Set driver to the metric the "
                       "claims argue, or add the claims that support it.")]


def _current(ctx: AnswerContext, metric: str) -> str:
    return ctx.index_.current.get(metric, metric)


def _unargued(ctx: AnswerContext, driver: str, causal: list[ClaimContext],
              factors: dict) -> Defect:
    if not factors:
        ids = ", ".join(c.cid for c in causal)
        return ctx.defect("unsupported_driver", f"The answer names driver {driver}, but its "
                          f"causal claim ({ids}) cites no tree edge. Cite the edge "
                          f"tree:PARENT>{driver} in the causal claim's premises, or set driver "
                          "to the factor it argues.")
    claim, edge = next(iter(factors.values()))
    return ctx.defect("unsupported_driver", f"The answer names driver {driver}, but its causal "
                      f"claim {claim.cid} cites the edge {edge}: set driver to {edge.child}, or "
                      f"argue {driver} with its own edge.", citation=str(edge))
