"""Start-up benchmark: what a command costs before and beyond its work, in one run, as ratios to
a bare `python -c pass`.

Each figure is a whole process (the median of `repeats` runs): `showwork --help`, `showwork
audit` of the stored golden run, and `showwork ask` on the demo and on a generated project of
`rows` fact rows — first with the project cache cleared (cold), then again (warm). For an ask,
"start-up" is its wall time less the attempt's own recorded time (the governed queries, the
analyst and the audit: the trace's `elapsed_s`), so it shows what the process pays to begin.
`init --from` on the generated warehouse is timed once per repeat too.

Targets (issue 30): `--help` ≤ 0.3 s; a warm ask's start-up ≤ 0.3 s and not growing with the
warehouse (generated ÷ demo); init on 10 M rows ≤ 10 s.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "traces" / "golden" / "traces.jsonl"
DEMO_QUESTION = "How many active users did we have in the week of 2026-03-09?"
BIG_QUESTION = "What was revenue in March 2024?"
TARGETS = {"help_s": 0.3, "warm_startup_s": 0.3, "warm_growth": 1.5, "init_s": 10.0}

MODELS = """\
semantic_models:
  - name: orders
    model: ref('orders')
    defaults: {agg_time_dimension: ordered_at}
    entities:
      - {name: order, type: primary, expr: order_id}
      - {name: customer, type: foreign, expr: customer_id}
    dimensions:
      - {name: ordered_at, type: time, type_params: {time_granularity: day}}
      - {name: channel, type: categorical}
    measures:
      - {name: revenue, agg: sum, expr: amount}
      - {name: order_count, agg: count, expr: order_id}
  - name: customers
    model: ref('customers')
    entities:
      - {name: customer, type: primary, expr: customer_id}
    dimensions:
      - {name: region, type: categorical}
metrics:
  - {name: revenue, label: Revenue, type: simple, type_params: {measure: revenue}}
  - {name: order_count, label: Orders, type: simple, type_params: {measure: order_count}}
"""


def generate(folder: Path, rows: int) -> Path:
    """A project of `rows` orders over 100k customers (built once per size; members and
    coverage left to inference, so a cold start must scan the fact table)."""
    import duckdb

    project = folder / f"orders-{rows}"
    db = project / "warehouse.duckdb"
    if db.exists():
        return project
    (project / "models").mkdir(parents=True, exist_ok=True)
    (project / "models" / "orders.yml").write_text(MODELS, encoding="utf-8")
    (project / "showwork.yaml").write_text("name: orders\nsemantic_models: models/\n"
                                           "warehouse: {duckdb: warehouse.duckdb}\n",
                                           encoding="utf-8")
    partial = db.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    con = duckdb.connect(str(partial))
    try:
        con.execute("CREATE TABLE customers AS SELECT i AS customer_id, "
                    "['north', 'south', 'east', 'west'][1 + i % 4] AS region FROM range(100000) t(i)")
        con.execute(f"CREATE TABLE orders AS SELECT i AS order_id, hash(i) % 100000 AS customer_id, "
                    f"DATE '2024-01-01' + CAST(i % 366 AS INTEGER) AS ordered_at, "
                    f"(hash(i * 7) % 10000) / 100.0 AS amount, "
                    f"['web', 'store', 'app', 'phone'][1 + i % 4] AS channel FROM range({rows}) t(i)")
    finally:
        con.close()
    os.replace(partial, db)
    return project


def _timed(args: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=900)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:4])} … exited {done.returncode}: "
                           f"{(done.stderr or done.stdout)[-600:]}")
    return elapsed


def _last_attempt_s(home: Path) -> float:
    lines = (home / "asks" / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    return float(json.loads(lines[-1])["elapsed_s"])


def run(work: Path, rows: int, repeats: int, progress: Callable[[str], None] | None = None,
        demo_warehouse: Path | None = None) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    work = work.resolve()  # the commands run in `work`: a relative SHOWWORK_HOME would move
    work.mkdir(parents=True, exist_ok=True)
    home = work / "home"
    home.mkdir(exist_ok=True)
    if demo_warehouse is not None and demo_warehouse.exists() and not (home / "demo.duckdb").exists():
        os.symlink(demo_warehouse.resolve(), home / "demo.duckdb")
    env = {**os.environ, "SHOWWORK_HOME": str(home)}
    env.pop("SHOWWORK_PROJECT", None)
    showwork = [sys.executable, "-m", "showwork"]
    say(f"generating a {rows:,}-row project")
    big = generate(work, rows)
    if not (home / "demo.duckdb").exists():
        say("building the demo warehouse")
        _timed([*showwork, "warehouse", "build"], env, work)
    samples: dict[str, list[float]] = {}

    def sample(name: str, seconds: float) -> None:
        samples.setdefault(name, []).append(seconds)

    for i in range(repeats):
        say(f"repeat {i + 1}/{repeats}")
        sample("python", _timed([sys.executable, "-c", "pass"], env, work))
        sample("help", _timed([*showwork, "--help"], env, work))
        sample("audit", _timed([*showwork, "audit", str(GOLDEN)], env, work))
        for name, project, question in (("demo", "demo", DEMO_QUESTION),
                                        ("generated", str(big), BIG_QUESTION)):
            shutil.rmtree(home / "cache", ignore_errors=True)
            for state in ("cold", "warm"):
                wall = _timed([*showwork, "ask", question, "--project", project], env, work)
                sample(f"ask_{name}_{state}", wall)
                sample(f"startup_{name}_{state}", wall - _last_attempt_s(home))
        draft = work / "init-draft"
        shutil.rmtree(draft, ignore_errors=True)
        sample("init", _timed([*showwork, "init", str(draft), "--from",
                               str(big / "warehouse.duckdb")], env, work))
    return _report(samples, rows, repeats)


def _report(samples: dict[str, list[float]], rows: int, repeats: int) -> dict[str, Any]:
    median = {k: statistics.median(v) for k, v in samples.items()}
    bare = median["python"]
    figures = {k: {"seconds": v, "ratio_to_python": v / bare if bare else None}
               for k, v in median.items()}
    growth = (median["startup_generated_warm"] / median["startup_demo_warm"]
              if median["startup_demo_warm"] > 0 else None)
    checks = {
        "help_s": median["help"] <= TARGETS["help_s"],
        "warm_startup_s": max(median["startup_demo_warm"], median["startup_generated_warm"])
        <= TARGETS["warm_startup_s"],
        "warm_growth": growth is not None and growth <= TARGETS["warm_growth"],
        "init_s": median["init"] <= TARGETS["init_s"],
    }
    return {"rows": rows, "repeats": repeats, "figures": figures, "warm_growth": growth,
            "targets": TARGETS, "met": checks}
