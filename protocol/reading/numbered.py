"""'Claim no. 12312702', 'policy num 31003000336': the short forms people write for 'number'
between a thing and its number. A number member is read only beside its dimension's words
(mentions.py `_bare_number`); the short form there is that dimension's own word, read as it."""

from __future__ import annotations

import re

from showwork.protocol.reading.account import ReadSpan
from showwork.protocol.reading.mentions import Mention

NUMBER_SHORT = r"(?:no|nos|num|nbr|number)\.?"
"""'No.', 'num', 'nbr': what people write for 'number' before one ('claim no. 12312702')."""

_BETWEEN = re.compile(rf"\s*(?P<short>{NUMBER_SHORT})(?!\w)\s*#?\s*", re.IGNORECASE)


def number_short_forms(text: str, mentions: list[Mention]) -> list[ReadSpan]:
    """The short form for 'number' right between a dimension's words and a number member of
    that dimension ('claim no. 12312702'), read as the dimension's own word. Anywhere else
    ('no 5 claims', 'number of claims') nothing is read here."""
    dims = [m for m in mentions if m.kind == "dimension"]
    out = []
    for member in (m for m in mentions if m.kind == "member" and (m.member or "").isdigit()):
        for d in (d for d in dims if d.name == member.name and d.span[1] <= member.span[0]):
            said = _BETWEEN.fullmatch(text, d.span[1], member.span[0])
            if said is not None:
                out.append(ReadSpan(said["short"], said.span("short"), "dimension",
                                    f"{member.name}: its number"))
    return out
