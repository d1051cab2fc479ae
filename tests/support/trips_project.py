"""A small project of trips for the member index: an open dimension with more values than a
closed list holds (dest, 80 airport codes), a joined table's name column (carriers.name) and a
patterned open dimension (tail numbers), so the reader's members come from the data."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb

DESTS = [f"{a}{b}{c}" for a in "BCDFGHJKLMNPRSTVWXZ" for b in "AEIOU" for c in "DKLMNPRTX"][:80]
DESTS[:5] = ["LAX", "SFO", "ORD", "ATL", "JFK"]  # JFK is also an origin: one code, two roles
CARRIERS = [("UA", "United Air Lines Inc."), ("AA", "American Airlines Inc."),
            ("DL", "Delta Air Lines Inc."), ("B6", "JetBlue Airways")]

MODELS = """
version: 2
semantic_models:
  - name: trips
    model: ref('trips')
    defaults: {agg_time_dimension: trip_date}
    entities:
      - {name: trip, type: primary, expr: trip_id}
      - {name: carrier, type: foreign, expr: carrier}
    dimensions:
      - {name: trip_date, type: time, type_params: {time_granularity: day}}
      - {name: dest, type: categorical, label: destination}
      - {name: origin, type: categorical}
      - {name: tailnum, type: categorical, label: tail number}
    measures:
      - {name: trips, agg: count, expr: trip_id}
  - name: carriers
    model: ref('carriers')
    entities:
      - {name: carrier, type: primary, expr: carrier}
    dimensions:
      - {name: name, type: categorical, label: carrier name}
metrics:
  - name: trips
    label: flights
    type: simple
    type_params: {measure: trips}
"""
GOVERNANCE = """
version: 1
metrics:
  trips:
    synonyms: [flights, departures, flights departed]
    unit: count
dimensions:
  trip__tailnum:
    pattern: "^N[0-9A-Z]+$"
"""


def build(folder: Path) -> Path:
    """Write the project into `folder` (its showwork.yaml, models, governance, warehouse)."""
    (folder / "models").mkdir(parents=True, exist_ok=True)
    (folder / "models" / "trips.yml").write_text(MODELS)
    (folder / "governance.yaml").write_text(GOVERNANCE)
    (folder / "showwork.yaml").write_text(
        "name: trips\nsemantic_models: models/\nwarehouse:\n  duckdb: warehouse.duckdb\n"
        "governance: governance.yaml\n")
    con = duckdb.connect(str(folder / "warehouse.duckdb"))
    rows = []
    start = dt.date(2013, 1, 1)
    for i in range(4000):
        day = start + dt.timedelta(days=i % 365)
        dest = DESTS[(i * 7) % len(DESTS)] if i % 5 else "LAX"
        rows.append((i, day, dest, "EWR" if i % 2 else "JFK", CARRIERS[i % 4][0], f"N{i % 120}XA"))
    con.execute("CREATE TABLE trips (trip_id INT, trip_date DATE, dest VARCHAR, origin VARCHAR, "
                "carrier VARCHAR, tailnum VARCHAR)")
    con.executemany("INSERT INTO trips VALUES (?, ?, ?, ?, ?, ?)", rows)
    con.execute("CREATE TABLE carriers (carrier VARCHAR, name VARCHAR)")
    con.executemany("INSERT INTO carriers VALUES (?, ?)", CARRIERS)
    con.close()
    return folder
