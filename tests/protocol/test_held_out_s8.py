"""Readings the held-out files of issue 42, session 8 (examples/*/questions_s8.yaml) found wrong,
each on two domains: a participle the reader passed over as neutral that, with the verb after
it, says the named metric's own entry ('flights scheduled to depart' are the catalog's
'departures scheduled', not departed flights)."""

from __future__ import annotations

from typing import Any

from showwork.analyst.rules.metrics import metrics_of
from showwork.protocol.reading import read_text

_SHIPPING: dict[str, Any] = {
    "metrics": {
        "shipments": {"label": "shipments", "synonyms": ["deliveries scheduled"],
                      "previous_names": [], "grains": ["day", "month"], "unit": "count",
                      "type": "simple", "dimensions": ["depot"]},
        "delivered_shipments": {"label": "delivered shipments", "synonyms": [],
                                "previous_names": [], "grains": ["day", "month"],
                                "unit": "count", "type": "simple", "dimensions": ["depot"]}},
    "dimensions": {"depot": {"label": "depot", "pattern": None, "values": ["Dallas", "Reno"]}},
    "tree": {"exact": [], "influence": []},
}


class TestScheduledToVerb:
    """'Scheduled to depart' says the counted metric's own entry; the verb alone names the
    other metric ('departed'), and a metric said in two places is no composition."""

    def test_flights(self, flights_layer) -> None:
        catalog = flights_layer.catalog()
        planned = read_text("How many flights were scheduled to depart JFK in June 2013?", catalog)
        assert metrics_of(planned, catalog) == ["flights"] and planned.unread == []
        done = read_text("How many flights departed JFK in June 2013?", catalog)
        assert metrics_of(done, catalog) == ["departed_flights"]

    def test_shipping(self) -> None:
        planned = read_text("How many shipments were scheduled to be delivered in May 2024?",
                            _SHIPPING, as_of="2024-12-31")
        assert metrics_of(planned, _SHIPPING) == ["shipments"] and planned.unread == []
        done = read_text("How many shipments were delivered in May 2024?", _SHIPPING,
                         as_of="2024-12-31")
        assert metrics_of(done, _SHIPPING) == ["delivered_shipments"]
