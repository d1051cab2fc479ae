"""A small catalog of no real project (shipments to depots), for readings tried on a second
domain whose members are places written as part of a name column."""

from __future__ import annotations

from typing import Any

SHIPPING: dict[str, Any] = {
    "metrics": {"shipments": {"label": "shipments", "synonyms": [], "previous_names": [],
                              "grains": ["day", "month"], "unit": "count", "type": "simple",
                              "dimensions": ["destination_depot"]}},
    "dimensions": {"destination_depot": {
        "label": "destination depot", "pattern": None,
        "values": ["Dallas", "Dallas Hub", "Reno Tahoe Depot"],
        "with_facts": [{"metrics": ["shipments"], "values": ["Dallas Hub", "Reno Tahoe Depot"]}]}},
    "tree": {"exact": [], "influence": []},
}


def with_depots(values: list[str]) -> dict[str, Any]:
    """The shipping catalog with these depots (every one reached by shipments)."""
    return {**SHIPPING, "dimensions": {"destination_depot": {
        **SHIPPING["dimensions"]["destination_depot"], "values": values, "with_facts": None}}}
