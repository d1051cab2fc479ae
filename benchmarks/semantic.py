"""Semantic-layer benchmark: compile latency, and governed queries against hand-written SQL.

Both SQL texts run on the same connection, interleaved, so machine noise hits both alike; the
figure that matters is the ratio of medians, not the absolute seconds.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from semantic_layer import SemanticLayer, load_model
from semantic_layer import warehouse as demo_warehouse
from semantic_layer.execute import Limits

# (governed call, the same question written by hand over the raw tables)
CASES: list[tuple[str, str, dict[str, Any], str]] = [
    ("weekly active users by platform, March", "query",
     {"metrics": ["active_users"], "window": {"start": "2026-03-02", "end": "2026-03-29"},
      "grain": "week", "group_by": ["platform"]},
     """SELECT date_trunc('week', e.event_ts) AS week, u.platform, count(DISTINCT e.user_id)
        FROM events e JOIN users u ON e.user_id = u.user_id
        WHERE e.event_type = 'app_open' AND NOT u.is_test
          AND e.event_ts >= DATE '2026-03-02' AND e.event_ts < DATE '2026-03-30'
        GROUP BY 1, 2 ORDER BY 1, 2"""),
    ("value-moment tree, week over week", "compare",
     {"metrics": ["weekly_value_moments", "active_users", "days_per_user", "moments_per_day"],
      "current_window": {"start": "2026-03-09", "end": "2026-03-15"},
      "previous_window": {"start": "2026-03-02", "end": "2026-03-08"}},
     """SELECT e.event_ts >= DATE '2026-03-09' AS current,
               count(*) FILTER (WHERE e.event_type = 'value_moment') AS vm,
               count(DISTINCT e.user_id) FILTER (WHERE e.event_type = 'app_open') AS au,
               count(DISTINCT (e.user_id, CAST(e.event_ts AS DATE)))
                 FILTER (WHERE e.event_type = 'app_open') AS ad
        FROM events e JOIN users u ON e.user_id = u.user_id
        WHERE NOT u.is_test AND e.event_ts >= DATE '2026-03-02' AND e.event_ts < DATE '2026-03-16'
        GROUP BY 1"""),
    ("reminder open rate by platform, April", "query",
     {"metrics": ["reminder_open_rate"], "window": {"start": "2026-04-01", "end": "2026-04-30"},
      "group_by": ["platform"]},
     """SELECT u.platform, count(r.opened_at)::DOUBLE / count(*)
        FROM reminders r JOIN users u ON r.user_id = u.user_id
        WHERE NOT u.is_test AND r.sent_at >= DATE '2026-04-01' AND r.sent_at < DATE '2026-05-01'
        GROUP BY 1 ORDER BY 1"""),
]


def _time(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def ensure_warehouse(home: Path, scale: float) -> Path:
    path = home / f"bench-v{demo_warehouse.GENERATOR_VERSION}-scale{scale:g}.duckdb"
    if not path.exists():
        demo_warehouse.build(path, scale=scale)
    return path


def _fetch(con: Any, sql: str) -> list[Any]:
    return con.execute(sql).fetchall()


def run(home: Path, scale: float = 10.0, repeats: int = 7,
        progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    say(f"warehouse at scale {scale:g}")
    layer = SemanticLayer(load_model(), ensure_warehouse(home, scale),
                          Limits(timeout_s=600, memory="8GB"))
    compile_times: list[float] = []
    for _ in range(200):
        for _name, kind, args, _sql in CASES:
            compile_times.append(_time(partial(layer.compile, kind, args)))
    con = layer.connection
    cases: list[dict[str, Any]] = []
    for name, kind, args, hand in CASES:
        say(f"timing: {name}")
        layer.call(kind, args)  # warm caches for both
        con.execute(hand).fetchall()
        governed: list[float] = []
        manual: list[float] = []
        for _ in range(repeats):
            governed.append(_time(partial(layer.call, kind, args)))
            manual.append(_time(partial(_fetch, con, hand)))
        g, m = statistics.median(governed), statistics.median(manual)
        cases.append({"case": name, "governed_s": g, "hand_sql_s": m, "ratio": g / m})
    layer.close()
    compile_times.sort()
    ratio = statistics.median(c["ratio"] for c in cases)
    return {
        "scale": scale, "repeats": repeats,
        "compile_p50_ms": 1000 * statistics.median(compile_times),
        "compile_p90_ms": 1000 * compile_times[int(0.9 * len(compile_times))],
        "cases": cases, "median_ratio": ratio, "max_ratio": max(c["ratio"] for c in cases),
        "targets": {"ratio": 1.2, "compile_p50_ms": 5.0},
    }
