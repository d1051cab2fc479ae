"""The shape of answer a question asks for: a ranking (and of how many), a breakdown, a series.

The reader says what is asked; here each dimension is made one the question's metrics support
(a store reached from an order item is `order__store__store_name`, from an order `store`), and
'which 3 products sold the most' counts its members.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from showwork.analyst.rules import catalog as cat
from showwork.protocol.reading import Reading

if TYPE_CHECKING:
    from showwork.analyst.rules.understand import Understood

_N = r"(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)"
_NUMBERS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six",
                                        "seven", "eight", "nine", "ten"))}
_MOST = r"most|highest|largest|biggest|greatest|best|top|leading"
_LEAST = r"least|lowest|fewest|smallest|worst|bottom"
_WHICH_N = re.compile(rf"\b(?:which|what)\s+(?:were\s+the\s+|are\s+the\s+)?{_N}\s+", re.IGNORECASE)
_SUPERLATIVE = re.compile(rf"\b(?:(?P<most>{_MOST})|(?P<least>{_LEAST}))\b", re.IGNORECASE)


def read_shape(q: Understood, reading: Reading, catalog: dict[str, Any]) -> None:
    """Rank (and how many), group-by and grain: what shape of result the question asks for."""
    ranking = reading.asks.ranking
    if ranking is not None and ranking.grain is not None and ranking.dimension is None:
        q.rank, q.top = ranking.order, ranking.n  # 'which month had the most': the series, ranked
    elif ranking is not None and ranking.dimension is not None:
        q.rank, q.top = ranking.order, ranking.n
    elif (counted := _which_n(reading)) is not None:
        q.rank, q.top, dim = counted
        q.group_by.append(_resolve(dim, reading, q.metrics, catalog))
    for name in reading.asks.breakdown:
        dim = _resolve(name, reading, q.metrics, catalog)
        if dim not in q.group_by:
            q.group_by.append(dim)
    for gap in reading.gaps:
        if gap.kind == "dimension" and gap.term not in q.group_by:
            q.group_by.append(gap.term)  # "the average age of …": the layer names what is missing
    q.grain = reading.asks.grain or (ranking.grain if ranking is not None else None)
    if q.top == 1 and not ranking_listed(reading):
        q.top = None


def ranking_listed(reading: Reading) -> bool:
    """'top 1' asks for one member; 'which store had the most' names one but lists all."""
    return re.search(r"\b(?:top|bottom)[\s-]+(?:1|one)\b", reading.text, re.IGNORECASE) is not None


def _which_n(reading: Reading) -> tuple[str, int, str] | None:
    """'Which 3 products sold the most units': order, count and the dimension counted."""
    m = _WHICH_N.search(reading.text)
    if m is None:
        return None
    dim = next((d.name for d in reading.dimensions if d.span[0] == m.end()), None)
    most = _SUPERLATIVE.search(reading.text, m.end())
    if dim is None or most is None:
        return None
    word = m.group(1).lower()
    n = int(word) if word.isdigit() else _NUMBERS[word]
    return ("least" if most.group("least") else "most"), n, dim


def _resolve(name: str, reading: Reading, metrics: list[str], catalog: dict[str, Any]) -> str:
    """The dimension named, or the one named by the same words that the metrics support."""
    spans = {d.span for d in reading.dimensions if d.name == name}
    same_words = [d.name for d in reading.dimensions if d.span in spans]
    return dimension_for([name, *same_words], metrics, catalog)


def dimension_for(candidates: list[str], metrics: list[str], catalog: dict[str, Any]) -> str:
    """The first candidate every metric supports, else another path to the same attribute
    that they do, else the first (the layer will say what is supported)."""
    if not candidates:
        raise ValueError("no dimension to choose from")
    for dim in candidates:
        if cat.supports(catalog, metrics, dim):
            return dim
    for dim in candidates:
        for other in catalog.get("dimensions") or {}:
            if cat.same_attribute(catalog, dim, other) and cat.supports(catalog, metrics, other):
                return other
    return candidates[0]
