"""A small support-desk project for tests: tickets timed in hours between two dates
(`date_diff('hour', opened_at, closed_at)`, averaged; governed in hours), a team and a priority
kept as codes (`priority_code`): a domain whose units and names come only from its own YAML and
data."""

from __future__ import annotations

from pathlib import Path

import duckdb

MODELS = """
version: 2
semantic_models:
  - name: tickets
    model: ref('tickets')
    defaults: {agg_time_dimension: opened_at}
    entities:
      - {name: ticket, type: primary, expr: ticket_id}
    dimensions:
      - {name: opened_at, type: time, type_params: {time_granularity: day}}
      - {name: team, type: categorical}
      - {name: priority_code, type: categorical}
    measures:
      - {name: hours_to_resolve, agg: average, expr: "date_diff('hour', opened_at, closed_at)"}
      - {name: tickets, agg: count, expr: ticket_id}
metrics:
  - {name: time_to_resolve, label: average time to resolve, type: simple,
     type_params: {measure: hours_to_resolve}}
  - {name: tickets, type: simple, type_params: {measure: tickets}}
"""


GOVERNANCE = """
version: 1
metrics:
  time_to_resolve:
    unit: hours
  tickets:
    unit: count
"""


def build(folder: Path) -> Path:
    """Write the project into `folder` (its showwork.yaml, models, warehouse): 60 tickets, one
    a day from 1 January 2024, each closed 30 to 41 hours after it opened."""
    (folder / "models").mkdir(parents=True, exist_ok=True)
    (folder / "models" / "tickets.yml").write_text(MODELS)
    (folder / "governance.yaml").write_text(GOVERNANCE)
    (folder / "showwork.yaml").write_text(
        "name: tickets\nsemantic_models: models/\nwarehouse:\n  duckdb: warehouse.duckdb\n"
        "governance: governance.yaml\n")
    con = duckdb.connect(str(folder / "warehouse.duckdb"))
    con.execute("CREATE TABLE tickets AS SELECT i AS ticket_id, "
                "TIMESTAMP '2024-01-01 08:00:00' + INTERVAL (i) DAY AS opened_at, "
                "TIMESTAMP '2024-01-01 08:00:00' + INTERVAL (i) DAY + INTERVAL (30 + i % 12) HOUR "
                "AS closed_at, CASE WHEN i % 2 = 0 THEN 'north' ELSE 'south' END AS team, "
                "CASE WHEN i % 3 = 0 THEN 'P1' ELSE 'P2' END AS priority_code "
                "FROM range(60) t(i)")
    con.close()
    return folder
