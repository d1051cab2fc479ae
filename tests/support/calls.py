"""Small catalogs of no real project for readings tried on a second domain: calls by the hour
(an hour dimension, as the flights' departure_hour) and stores by a code the data names (as the
flights' airports, `named_by`)."""

from __future__ import annotations

from typing import Any

CALLS: dict[str, Any] = {
    "metrics": {"calls": {"label": "calls", "synonyms": [], "previous_names": [],
                          "grains": ["day", "month"], "unit": "count", "type": "simple",
                          "dimensions": ["call_hour"]}},
    "dimensions": {"call_hour": {"label": "hour of the call", "pattern": None,
                                 "members": [str(h) for h in range(24)]}},
    "tree": {"exact": [], "influence": []},
}

STORES: dict[str, Any] = {
    "metrics": {"sales": {"label": "sales", "synonyms": [], "previous_names": [],
                          "grains": ["day", "month"], "unit": "usd", "type": "simple",
                          "dimensions": ["store_code"]}},
    "dimensions": {"store_code": {"label": "store code", "pattern": None,
                                  "members": ["BKH", "SOH"],
                                  "named_by": {"store_name": {"BKH": "Brooklyn Heights",
                                                              "SOH": "SoHo"}}}},
    "tree": {"exact": [], "influence": []},
}
