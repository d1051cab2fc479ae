"""Words of quantity, read only beside a metric whose values they fit (issue 42).

'How many', 'the number of', 'the count of', 'order volume' ask a count: they are read where a
metric named beside them counts things. 'The value of', 'the amount of' ask an amount: read
where the metric named beside them does not count. 'The sum of' is read beside a metric whose
values add up. Anywhere else the words stay unread: 'the value of orders' is not the number of
orders, 'how many cancellations' is not a sum of cancelled dollars, and a reading that answers
them anyway must say it did not read them.

Whether a metric counts comes from the catalog: its unit ('count' counts; any other unit does
not), else the `counts` the layer derives from its measure (a count, a distinct count, a sum of
1 or of a boolean). Where neither says (a derived metric, a catalog stored before it said), the
words are not held against the metric.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from showwork.protocol.reading.account import ReadSpan

if TYPE_CHECKING:
    from showwork.protocol.reading.mentions import Mention

_COUNT = r"number|numbers|count|counts|tally|quantity|volume"
_AMOUNT = r"value|values|amount|amounts|worth"
_WORD = re.compile(rf"\b(?:(?P<count>{_COUNT})|(?P<amount>{_AMOUNT})|(?P<sum>sum))\b", re.IGNORECASE)
_OF_WORD = re.compile(r"\s+of\s+", re.IGNORECASE)
_DETERMINER = re.compile(r"(?:the|all|our|total|overall)\s+", re.IGNORECASE)
"""'the number of orders', 'the value of all our sales': the word, then the metric."""
_AFTER = re.compile(r"\s+")
"""'order volume', 'flight count': the metric, then the word."""
_HOW_MANY = re.compile(r"\bhow\s+many\b", re.IGNORECASE)
_UNIT_WORD = re.compile(r"\s+(?:(?:more|fewer|less|additional|extra)\s+)?(?P<unit>[a-z]+)",
                        re.IGNORECASE)
_UNITS = {"minutes": "minutes", "minute": "minutes", "hours": "minutes", "seconds": "minutes",
          "miles": "miles", "inches": "inches", "dollars": "usd", "degrees": "degrees_f"}
"""'How many minutes of delay', 'how many miles': the unit a count of it is in, as the
catalog's units are named (a unit of time in any of its units: converted)."""


def counts(info: dict[str, Any]) -> bool | None:
    """Whether a catalog metric's values count things; None when the catalog cannot say."""
    unit = info.get("unit")
    if unit:
        return unit == "count"
    if info.get("type") == "ratio":
        return False
    said = info.get("counts")
    return said if isinstance(said, bool) else None


def count_fits(entries: dict[str, Any], name: str) -> bool:
    """'The number of', 'how many' fit the metric: it counts, or is a count per something ('the
    number of days per user'), or the catalog cannot say."""
    return counts(entries.get(name) or {}) is not False or _per_counted(entries, name)


def amount_fits(entries: dict[str, Any], name: str) -> bool:
    """'The value of', 'the amount of' fit the metric: it does not count, or the catalog cannot
    say. Where the catalog cannot say, the words are not held against the metric (a derived
    metric; a trace stored before catalogs said it): read as they were before."""
    return counts(entries.get(name) or {}) is not True


def quantity_words(text: str, metrics: list[Mention], members: list[Mention],
                   catalog: dict[str, Any], pointed: dict[str, set[str]] | None = None
                   ) -> list[ReadSpan]:
    """The words of quantity the named metrics bear out, each read as 'a question of quantity'.
    Members may stand between the word and its metric ('the number of JFK flights'). A metric
    the question's other words point a named one to (`pointed`: 'how many Black men were in
    prison' of a percentage named 'black' whose sibling counts the men in prison) may bear them
    out instead."""
    entries = catalog.get("metrics") or {}
    pointed = pointed or {}

    def count_fits_any(name: str) -> bool:
        return any(count_fits(entries, n) for n in {name, *pointed.get(name, ())})

    def amount_fits_any(name: str) -> bool:
        return any(amount_fits(entries, n) for n in {name, *pointed.get(name, ())})

    out: list[ReadSpan] = []
    for said in _WORD.finditer(text):
        starts = _thing_starts(text, said.end(), members)
        for m in metrics:
            if m.span[0] not in starts and not (
                    said.start() > m.span[1] and _AFTER.fullmatch(text, m.span[1], said.start())):
                continue
            kind = said.lastgroup
            if kind == "count" and count_fits_any(m.name) or \
                    kind == "amount" and amount_fits_any(m.name) or \
                    kind == "sum" and (entries.get(m.name) or {}).get("additive") is True:
                out.append(ReadSpan(said.group(0), said.span(), "qualifier",
                                    f"a question of quantity: {m.name}"))
                break
    for said in _HOW_MANY.finditer(text):
        unit = _UNIT_WORD.match(text, said.end())
        asked = _UNITS.get(unit.group("unit").lower()) if unit else None
        if any(count_fits_any(m.name) or asked is not None
               and (entries.get(m.name) or {}).get("unit") == asked for m in metrics):
            out.append(ReadSpan(said.group(0), said.span(), "qualifier", "a question of quantity"))
    return out


def _thing_starts(text: str, end: int, members: list[Mention]) -> set[int]:
    """Where the thing a word of quantity is of may start: after 'of' and each of 'the', 'all',
    'our', 'total' that follow ('the number of total orders' names `total_orders`), and past any
    members named before it ('the number of JFK flights')."""
    of = _OF_WORD.match(text, end)
    if of is None:
        return set()
    out = {of.end()}
    at = of.end()
    while step := _DETERMINER.match(text, at):
        at = step.end()
        out.add(at)
    for at in list(out):
        while nxt := next((m for m in members if m.span[0] == at), None):
            gap = _AFTER.match(text, nxt.span[1])
            at = gap.end() if gap else nxt.span[1]
            out.add(at)
    return out


def _per_counted(entries: dict[str, Any], name: str) -> bool:
    """A ratio of a count per something ('how many days per user', 'flights a day'), not a rate
    or a share (a fraction or percent of its whole)."""
    info = entries.get(name) or {}
    formula = info.get("formula") or {}
    top = formula.get("numerator") if formula.get("op") == "divide" else None
    return isinstance(top, str) and counts(entries.get(top) or {}) is True \
        and info.get("unit") not in ("fraction", "percent")
