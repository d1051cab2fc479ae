"""Continents named as people say them, where the data keeps them as two-letter codes: 'europe'
is the member `EU` of a dimension whose name or label says region or continent and whose every
member is one of the seven continent codes in common use (GeoNames' and the UN M49 continents:
AF, AN, AS, EU, NA, OC, SA). A dimension with any other member is not one of continents, and
is left to its own names.
"""

from __future__ import annotations

import re

CONTINENTS = {"AF": ("Africa",), "AN": ("Antarctica",), "AS": ("Asia",), "EU": ("Europe",),
              "NA": ("North America",), "OC": ("Oceania",), "SA": ("South America",)}
"""The continent codes and their names (a standard table, not a domain's)."""

_REGION = re.compile(r"\b(?:region|regions|continent|continents)\b", re.IGNORECASE)


def continent_names(dimension: str, label: str | None, members: tuple[object, ...]
                    ) -> list[tuple[str, str]]:
    """(name, member) for each member of a region or continent dimension kept as continent
    codes; [] for any other dimension.

    >>> continent_names("customer__country__region", "region", ("EU", "NA"))
    [('Europe', 'EU'), ('North America', 'NA')]
    >>> continent_names("region", "region", ("EU", "West"))
    []
    """
    said = f"{dimension.rpartition('__')[2].replace('_', ' ')} {label or ''}"
    codes = [str(m) for m in members]
    if not codes or not _REGION.search(said) or not all(c in CONTINENTS for c in codes):
        return []
    return [(name, code) for code in codes for name in CONTINENTS[code]]
