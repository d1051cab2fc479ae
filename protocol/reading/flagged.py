"""'How much premium did policy 31003000336 carry': where no metric is named, a flag's state
said after 'how much' ('premium' of `policy_amount__has_premium`, 1 where a policy amount is a
premium) names the one summed amount of the flag's own rows (`total_policy_amount`, the sum of
the policy amounts): the amount of those of them the flag holds of."""

from __future__ import annotations

import re
from typing import Any

from showwork.protocol.reading.account import lemma
from showwork.protocol.reading.mentions import Mention, flag_words

_HOW_MUCH = re.compile(r"\bhow\s+much\s+(?:(?:total|of\s+(?:the|our))\s+)?$", re.IGNORECASE)


def flag_amount(text: str, catalog: dict[str, Any], mentions: list[Mention]) -> list[Mention]:
    """The metric a flag's state names right after 'how much' (see the module), on the state's
    words; none where a metric is named, or where not exactly one summed metric, not a count,
    carries the flag and is named by its rows' own words (the flag's entity, 'policy amount')."""
    if any(m.kind == "metric" for m in mentions):
        return []
    dims = catalog.get("dimensions") or {}
    for m in mentions:
        info = dims.get(m.name) or {}
        if m.kind != "member" or _HOW_MUCH.search(text, 0, m.span[0]) is None or not flag_words(
                m.name, info.get("label"), tuple(info.get("members") or ())):
            continue
        found = _amounts_of(m.name, catalog)
        if len(found) == 1:
            return [Mention("metric", found[0], None, m.words, m.span, "said")]
    return []


def _amounts_of(flag: str, catalog: dict[str, Any]) -> list[str]:
    """The summed metrics, not counts, that carry the flag and whose name holds every word of
    the flag's entity ('policy_amount__has_premium': total_policy_amount)."""
    entity = flag.rpartition("__")[0].rpartition("__")[2]
    words = {lemma(w) for w in entity.split("_") if w}
    return [name for name, info in (catalog.get("metrics") or {}).items()
            if words and flag in (info.get("dimensions") or ()) and info.get("type") == "simple"
            and not info.get("counts") and info.get("unit") != "count"
            and words <= {lemma(w) for w in name.split("_")}]
