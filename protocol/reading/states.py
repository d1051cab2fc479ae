"""US states named as people say them, where the data keeps them as their two-letter codes:
'texas' is the member `TX` of a dimension whose name or label says state ('state code',
`state_code`) and whose every member is such a code, from the standard's table (ISO 3166-2:US,
whose subdivision codes are the USPS abbreviations: the 50 states, the District of Columbia and
the outlying areas), as countries.py reads ISO 3166 country codes. Names the standard does not
write ('Cali', 'the Lone Star State') are the catalog's to add as `member_synonyms`.
"""

from __future__ import annotations

import re

_STATE = re.compile(r"\bstates?\b", re.IGNORECASE)

US_STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia",
    "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa",
    "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
    "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi",
    "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire",
    "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee",
    "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
    "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "DC": "District of Columbia",
    "AS": "American Samoa", "GU": "Guam", "MP": "Northern Mariana Islands",
    "PR": "Puerto Rico", "UM": "United States Minor Outlying Islands", "VI": "Virgin Islands",
}
"""ISO 3166-2:US: each subdivision's code (after 'US-') and its name."""


def state_names(dimension: str, label: str | None, members: tuple[object, ...]
                ) -> list[tuple[str, str]]:
    """(name, member) for each member of a US state dimension kept as its two-letter codes;
    [] for any other dimension, or one with a member that is no state's code.

    >>> state_names("geographic_location__state_code", "state code", ("TX",))
    [('Texas', 'TX')]
    >>> state_names("customer__country", "country", ("CA", "US")), state_names("x__state", "", ("ON",))
    ([], [])
    """
    said = f"{dimension.rpartition('__')[2].replace('_', ' ')} {label or ''}"
    codes = [str(m) for m in members]
    if not codes or not _STATE.search(said) or not all(c.upper() in US_STATES for c in codes):
        return []
    return [(US_STATES[c.upper()], c) for c in codes]
