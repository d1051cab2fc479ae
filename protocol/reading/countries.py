"""Countries named as people say them, where the data keeps them as ISO 3166 codes: 'mexico' is
the member `MX` of a dimension whose name or label says country ('customer country',
`country_code`) and whose every member is an ISO 3166 code (two letters or three), from the
standard's own names (the `iso3166` package: its one table of codes and names, no translations).

A name's common short form is kept where no other country shares it: 'United States' of 'United
States of America', 'Iran' of 'Iran, Islamic Republic of', 'Falkland Islands' of 'Falkland
Islands (Malvinas)'; 'Korea' is two countries' and names neither. Names the standard does not
write ('Russia' for 'Russian Federation', 'Vietnam', 'UK') are the catalog's to add as the
dimension's `member_synonyms`, which come first.
"""

from __future__ import annotations

import re
from functools import lru_cache

_COUNTRY = re.compile(r"\b(?:country|countries|nation)\b", re.IGNORECASE)


def country_names(dimension: str, label: str | None, members: tuple[object, ...]
                  ) -> list[tuple[str, str]]:
    """(name, member) for each member of a country dimension kept as ISO 3166 codes, its
    standard names and their unshared short forms; [] for any other dimension.

    >>> country_names("customer__customer_country", "customer country", ("MX", "US"))[:3]
    [('Mexico', 'MX'), ('United States of America', 'US'), ('United States', 'US')]
    >>> country_names("customer__state", "state", ("CA", "NY"))
    []
    """
    said = f"{dimension.rpartition('__')[2].replace('_', ' ')} {label or ''}"
    codes = [str(m) for m in members]
    if not codes or not _COUNTRY.search(said):
        return []
    table = _table()
    if not all(c.upper() in table for c in codes):
        return []
    return [(name, code) for code in codes for name in table[code.upper()]]


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, ...]]:
    """Each code (two letters and three) to its country's names, short forms no other country
    shares included."""
    from iso3166 import countries

    forms = {c.alpha2: _forms(c.name, c.apolitical_name) for c in countries}
    owners: dict[str, set[str]] = {}
    for code, said in forms.items():
        for name in said:
            owners.setdefault(name.lower(), set()).add(code)
    out: dict[str, tuple[str, ...]] = {}
    for c in countries:
        unshared = tuple(n for n in forms[c.alpha2] if owners[n.lower()] == {c.alpha2})
        out[c.alpha2] = out[c.alpha3] = unshared
    return out


def _forms(name: str, apolitical: str) -> list[str]:
    """A country's names: the standard's, its apolitical name, and the name before a comma, a
    bracket, or an ' of ' that follows two words or more ('United Kingdom of Great Britain …')."""
    out = [name, apolitical]
    for full in (name, apolitical):
        head = re.split(r",|\s\(", full)[0].strip()
        of = re.match(r"(\S+(?:\s\S+)+?)\s+of\s", head)
        out += [head, *([of.group(1)] if of else [])]
    return list(dict.fromkeys(n for n in out if n))
