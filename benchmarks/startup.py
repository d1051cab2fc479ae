"""Start-up benchmark: what a command costs before and beyond its work, in one run, as ratios to
a bare `python -c pass`.

Each figure is a whole process (the median of `repeats` runs): `showwork --help`, `showwork
audit` of the stored golden run, and `showwork ask` on the demo and on a generated project of
`rows` fact rows — first with the project cache cleared (cold), then again (warm). For an ask,
"start-up" is what the issue names: its wall time less the time inside its governed queries and
its audit, as the attempt records them (the trace's `timing`), and of those only their work — an
import a query or the audit makes on first use is start-up (`timing.imports_s`, analyst/clock.py).
Everything else counts: the interpreter, imports, opening the project, the analyst, writing the
trace, printing. `init --from` on the generated warehouse is timed once per repeat too.

The commands run with bytecode cached, as an installed package runs (a `PYTHONDONTWRITEBYTECODE`
in the caller's environment is dropped; the bytecode goes under the work folder), after one
untimed pass that writes it.

Targets: `--help` ≤ 0.3 s (issue 30); a warm ask's start-up ≤ 0.2 s (issue 46, was 0.3 s in
issue 30) and not growing with the warehouse (generated ÷ demo); init on 10 M rows ≤ 10 s; a
governed query ≤ 1.3 × the same SQL run by hand.
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
QUERY = ["semantic", "query", "--metric", "revenue", "--by", "customer__region"]
"""A governed query of the generated project, timed as a whole command (`--json`)."""
BY_HAND = ("import sys, json, duckdb\n"
           "con = duckdb.connect(sys.argv[1], read_only=True)\n"
           "print(json.dumps(con.execute(sys.argv[2]).fetchall(), default=str))")
"""The same SQL run by hand in a Python process: what the query command is measured against."""
TARGETS = {"query_vs_by_hand": 1.3, "help_s": 0.3, "warm_startup_s": 0.2, "warm_growth": 1.5, "init_s": 10.0}

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


def timed(args: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=900)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:4])} … exited {done.returncode}: "
                           f"{(done.stderr or done.stdout)[-600:]}")
    return elapsed


def _last_work(home: Path) -> tuple[float, float]:
    """(seconds of governed-query and audit work, seconds of imports inside them) of the last ask."""
    lines = (home / "asks" / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    timing = json.loads(lines[-1]).get("timing") or {}
    if "imports_s" not in timing:
        raise RuntimeError("the ask recorded no import time (analyst/clock.py could not run), so "
                           "its start-up cannot be told from its work")
    imports = float(timing["imports_s"])
    return float(timing["queries_s"]) + float(timing["audit_s"]) - imports, imports


def run(work: Path, rows: int, repeats: int, progress: Callable[[str], None] | None = None,
        demo_warehouse: Path | None = None) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    work = work.resolve()  # the commands run in `work`: a relative SHOWWORK_HOME would move
    work.mkdir(parents=True, exist_ok=True)
    home = work / "home"
    home.mkdir(exist_ok=True)
    if demo_warehouse is not None and demo_warehouse.exists() and not (home / "demo.duckdb").exists():
        os.symlink(demo_warehouse.resolve(), home / "demo.duckdb")
    env = {**os.environ, "SHOWWORK_HOME": str(home), "PYTHONPYCACHEPREFIX": str(work / "pycache")}
    env.pop("SHOWWORK_PROJECT", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    showwork = [sys.executable, "-m", "showwork"]
    say(f"generating a {rows:,}-row project")
    big = generate(work, rows)
    if not (home / "demo.duckdb").exists():
        say("building the demo warehouse")
        timed([*showwork, "warehouse", "build"], env, work)
    samples: dict[str, list[float]] = {}
    sql = subprocess.run([*showwork, "semantic", "compile", *QUERY[2:], "--project", str(big)],
                         env=env, cwd=work, capture_output=True, text=True, check=True).stdout

    def sample(name: str, seconds: float) -> None:
        samples.setdefault(name, []).append(seconds)

    for i in range(-1, repeats):  # pass -1 writes the bytecode and is not kept
        say(f"repeat {i + 1}/{repeats}" if i >= 0 else "writing bytecode (untimed)")
        keep = sample if i >= 0 else (lambda _n, _s: None)
        keep("python", timed([sys.executable, "-c", "pass"], env, work))
        keep("help", timed([*showwork, "--help"], env, work))
        keep("audit", timed([*showwork, "audit", str(GOLDEN)], env, work))
        for name, project, question in (("demo", "demo", DEMO_QUESTION),
                                        ("generated", str(big), BIG_QUESTION)):
            shutil.rmtree(home / "cache", ignore_errors=True)
            for state in ("cold", "warm"):
                wall = timed([*showwork, "ask", question, "--project", project], env, work)
                work_s, imports_s = _last_work(home)
                keep(f"ask_{name}_{state}", wall)
                keep(f"work_{name}_{state}", work_s)
                keep(f"imports_in_work_{name}_{state}", imports_s)
                keep(f"startup_{name}_{state}", wall - work_s)
        query = [*showwork, *QUERY, "--json", "--project", str(big)]
        timed(query, env, work)  # the first prepares the call; a person's next query is warm
        keep("query", timed(query, env, work))
        keep("query_by_hand", timed([sys.executable, "-c", BY_HAND, str(big / "warehouse.duckdb"),
                                      sql], env, work))
        draft = work / "init-draft"
        shutil.rmtree(draft, ignore_errors=True)
        keep("init", timed([*showwork, "init", str(draft), "--from",
                             str(big / "warehouse.duckdb")], env, work))
    return _report(samples, rows, repeats)


def _report(samples: dict[str, list[float]], rows: int, repeats: int) -> dict[str, Any]:
    median = {k: statistics.median(v) for k, v in samples.items()}
    bare = median["python"]
    figures = {k: {"seconds": v, "ratio_to_python": v / bare if bare else None}
               for k, v in median.items()}
    growth = (median["startup_generated_warm"] / median["startup_demo_warm"]
              if median["startup_demo_warm"] > 0 else None)
    by_hand = median["query"] / median["query_by_hand"] if median["query_by_hand"] else None
    checks = {
        "query_vs_by_hand": by_hand is not None and by_hand <= TARGETS["query_vs_by_hand"],
        "help_s": median["help"] <= TARGETS["help_s"],
        "warm_startup_s": max(median["startup_demo_warm"], median["startup_generated_warm"])
        <= TARGETS["warm_startup_s"],
        "warm_growth": growth is not None and growth <= TARGETS["warm_growth"],
        "init_s": median["init"] <= TARGETS["init_s"],
    }
    return {"rows": rows, "repeats": repeats, "figures": figures, "warm_growth": growth,
            "query_vs_by_hand": by_hand,
            "targets": TARGETS, "met": checks}
