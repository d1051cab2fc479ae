"""Semantic-layer benchmark: compile latency, and governed queries against hand-written SQL on the
same engine, DuckDB and Spark, in one run, on the demo or any project.

On each engine both SQL texts run through the same `Engine.run` (same limits, same row fetch),
interleaved, so machine noise hits both alike; the figure that matters is the ratio of medians,
not the absolute seconds. The hand-written SQL is written once, in DuckDB's dialect, and
transpiled by sqlglot for Spark.

The cases: the demo's and the shop example's are below; any other project's come from its
question file, each answerable question with gold SQL against the governed call the rules
analyst makes for it. The project's own warehouse is one engine; Spark, when the warehouse is
a DuckDB file or a folder of files, reads a Parquet export of the same tables.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import duckdb
from sqlglot import exp

from showwork.semantic_layer import SemanticLayer, SemanticModelFile, load_model
from showwork.semantic_layer import warehouse as demo_warehouse
from showwork.semantic_layer.engines import Engine, open_engine, resolve
from showwork.semantic_layer.errors import SemanticError, WarehouseSpecError
from showwork.semantic_layer.execute import Limits
from showwork.semantic_layer.sql import to_dialect

ROOT = Path(__file__).resolve().parents[1]

Case = tuple[str, str, dict[str, Any], str]
"""(name, governed call kind, its arguments, the same question written by hand over raw tables)."""
DEMO: list[Case] = [
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
SHOP: list[Case] = [
    ("revenue by region, quarterly (two joins)", "query",
     {"metrics": ["revenue"], "grain": "quarter", "group_by": ["region"],
      "window": {"start": "2018-04-01", "end": "2019-06-30"}},
     """SELECT date_trunc('quarter', o.ordered_at) AS quarter, r.region_name, sum(o.order_total)
        FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id
          LEFT JOIN regions r ON c.region_id = r.region_id
        WHERE NOT o.is_test AND o.status <> 'cancelled'
          AND o.ordered_at >= DATE '2018-04-01' AND o.ordered_at < DATE '2019-07-01'
        GROUP BY 1, 2 ORDER BY 1, 2"""),
    ("items sold by store, monthly (item → order → store)", "query",
     {"metrics": ["items_sold"], "grain": "month", "group_by": ["order__store__store_name"],
      "window": {"start": "2019-01-01", "end": "2019-06-30"}},
     """SELECT date_trunc('month', i.ordered_at) AS month, s.store_name, sum(i.quantity)
        FROM order_items i LEFT JOIN orders o ON i.order_id = o.order_id
          LEFT JOIN stores s ON o.store_id = s.store_id
        WHERE NOT o.is_test AND o.status <> 'cancelled'
          AND i.ordered_at >= DATE '2019-01-01' AND i.ordered_at < DATE '2019-07-01'
        GROUP BY 1, 2 ORDER BY 1, 2"""),
    ("revenue tree by store, month over month", "compare",
     {"metrics": ["revenue", "order_count", "average_order_value"], "by": "store",
      "current_window": {"start": "2019-05-01", "end": "2019-05-31"},
      "previous_window": {"start": "2019-04-01", "end": "2019-04-30"}},
     """SELECT o.ordered_at >= DATE '2019-05-01' AS is_current, s.store_name,
               sum(o.order_total), count(o.order_id), sum(o.order_total) / count(o.order_id)
        FROM orders o LEFT JOIN stores s ON o.store_id = s.store_id
        WHERE NOT o.is_test AND o.status <> 'cancelled'
          AND o.ordered_at >= DATE '2019-04-01' AND o.ordered_at < DATE '2019-06-01'
        GROUP BY 1, 2"""),
]
CASES = {"demo": DEMO, "shop": SHOP}
BUILT_IN = {ROOT / "examples" / "shop": "shop"}
"""Project folders whose cases are written above (any other's come from its question file)."""
TARGETS = {"duckdb": 1.2, "spark": 1.1, "postgres": 1.2}
"""Median ratio (governed / hand-written) each engine should stay under."""
ENGINES = ("duckdb", "spark", "postgres")
WARM_UP = {"duckdb": 2, "spark": 5, "postgres": 2}
"""Untimed runs of each text first: caches, and on Spark the JIT compiling its query code."""
MIN_TIMED_S = 0.5
"""A case runs past its `repeats` until each side has run this long (at most MAX_RUNS): a
query of a few milliseconds gets enough runs that one stall does not move its median."""
MAX_RUNS = 301


def _time(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def ensure_warehouse(home: Path, scale: float) -> Path:
    path = home / f"bench-v{demo_warehouse.GENERATOR_VERSION}-scale{scale:g}.duckdb"
    if not path.exists():
        demo_warehouse.build(path, scale=scale)
    return path


@dataclass(frozen=True)
class Source:
    """What a run measures: a project's model, its warehouse and its cases."""

    name: str
    """The project's name (demo for the embedded default)."""
    model: SemanticModelFile
    warehouse: dict[str, Any]
    """showwork.yaml's `warehouse:` (the demo's: the generated file at the asked scale)."""
    root: Path
    """The folder its warehouse paths resolve against."""
    cases: list[Case] | None
    """Written cases, or None: from the question file, once the catalog is known."""
    questions: Path | None = None


def source_of(home: Path, scale: float, project: Path | str | None) -> Source:
    """The embedded demo at `scale` (no project, or "demo"), else the project named."""
    from showwork.harness.project import Project, locate

    found = Project.load(locate(project if project is not None else "demo"))
    if found.demo:
        warehouse = ensure_warehouse(home, scale).resolve()  # home may be relative (./.showwork)
        return Source("demo", load_model(), {"duckdb": str(warehouse)}, home, DEMO)
    built_in = next((CASES[n] for folder, n in BUILT_IN.items()
                     if folder.resolve() == found.root.resolve()), None)
    return Source(found.name, found.model, found.warehouse(), found.root, built_in,
                  found.questions_path)


def question_cases(questions: Path | None, catalog: dict[str, Any]) -> list[Case]:
    """Each answerable question with gold SQL, against the first governed call the rules analyst
    makes for it (the one that measures; a diagnostic's drill-downs are left out)."""
    from showwork.analyst.rules import next_action
    from showwork.analyst.rules.calls import Call
    from showwork.harness.experiments.questions import load_questions
    from showwork.protocol.switches import Protocol

    if questions is None:
        raise WarehouseSpecError("bench semantic: the project has no question file to take "
                                 "cases from; add `questions: FILE` to showwork.yaml.")
    cases: list[Case] = []
    for spec in load_questions(questions).questions:
        sql = spec.gold and (spec.gold.sql or spec.gold.table_sql)
        if not spec.answerable or not sql or spec.category == "diagnostic":
            continue
        action = next_action([{"role": "user", "content": spec.text}], catalog,
                             Protocol.parse("claims"))
        if isinstance(action, Call) and action.tool in ("query", "compare"):
            cases.append((spec.id, action.tool, dict(action.arguments), sql))
    if not cases:
        raise WarehouseSpecError(f"{questions}: no answerable question with gold SQL (sql: or "
                                 "table_sql:) to measure.")
    return cases


def ensure_parquet(source: Source, home: Path) -> dict[str, str]:
    """Every table of the source's DuckDB file or files folder as Parquet under `home`,
    exported again only when the warehouse is newer than the export; table → path."""
    kind, value = next(iter(source.warehouse.items()))
    if kind not in ("duckdb", "files"):
        raise WarehouseSpecError(f"{source.name}: a {kind} warehouse has no Parquet export.")
    where = resolve(source.root, value, f"warehouse.{kind}")
    folder = home / f"{source.name}-{where.stem}-parquet"
    done = folder / ".complete"
    newest = max(p.stat().st_mtime for p in ([where] if where.is_file() else where.iterdir()))
    con = _unlocked(kind, where)
    try:
        tables = [t for (t,) in con.execute("SELECT table_name FROM information_schema.tables "
                                            "WHERE table_schema = 'main'").fetchall()]
        if not done.exists() or done.stat().st_mtime < newest:
            folder.mkdir(parents=True, exist_ok=True)
            for t in tables:
                target = exp.Literal.string(str(folder / f"{t}.parquet")).sql("duckdb")
                con.execute(f"COPY {exp.to_identifier(t, quoted=True).sql('duckdb')} "
                            f"TO {target} (FORMAT parquet)")
            done.touch()
    finally:
        con.close()
    return {t: str(folder / f"{t}.parquet") for t in tables}


def _unlocked(kind: str, where: Path) -> duckdb.DuckDBPyConnection:
    """A plain DuckDB connection over the warehouse's tables (the export writes files, which a
    governed connection may not)."""
    if kind == "duckdb":
        return duckdb.connect(str(where), read_only=True)
    from showwork.semantic_layer.engines.files import load, table_files

    con = duckdb.connect(":memory:")
    for table, path in table_files(where).items():
        load(con, table, path)
    return con


def open_bench_engine(kind: str, source: Source, home: Path, limits: Limits) -> Engine:
    """The project's own warehouse when it is of this kind (a files folder counts as DuckDB);
    a local Spark over a Parquet export of a DuckDB or files warehouse."""
    own = "spark" if "spark" in source.warehouse else "duckdb"
    if kind == "postgres":  # benchmarks/postgres.py: the project's server or a local cluster
        from showwork.benchmarks.postgres import postgres_engine

        return postgres_engine(source.name, source.warehouse, source.root, limits)
    if kind == own:
        return open_engine(source.warehouse, source.root, limits)
    if kind == "spark":
        tables = ensure_parquet(source, home)
        return open_engine({"spark": {"master": "local[2]", "tables": tables}}, home, limits)
    raise WarehouseSpecError(f"{source.name}'s warehouse is Spark; DuckDB is measured on a "
                             "project whose warehouse is a DuckDB file or a files folder.")


def measure(layer: SemanticLayer, cases: list[Case], repeats: int,
            say: Callable[[str], None]) -> dict[str, Any]:
    """Governed call against hand-written SQL, interleaved, on the layer's engine."""
    engine = layer.engine
    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    for name, kind, args, hand in cases:
        say(f"{engine.name}: {name}")
        sql = to_dialect(hand, engine.dialect)  # once, outside the timed runs
        run_governed, run_hand = partial(layer.call, kind, args), partial(engine.run, sql, layer.limits)
        try:
            for _ in range(WARM_UP[engine.name]):
                run_governed()
                run_hand()
        except SemanticError as exc:  # a question's call this project blocks: said, not timed
            skipped.append({"case": name, "reason": exc.message})
            continue
        governed: list[float] = []
        manual: list[float] = []
        i = 0
        while i < repeats or (min(sum(governed), sum(manual)) < MIN_TIMED_S and i < MAX_RUNS):
            # alternate which runs first: a JVM still speeding up favours whichever runs second
            if i % 2:
                manual.append(_time(run_hand))
                governed.append(_time(run_governed))
            else:
                governed.append(_time(run_governed))
                manual.append(_time(run_hand))
            i += 1
        g, m = statistics.median(governed), statistics.median(manual)
        rows.append({"case": name, "governed_s": g, "hand_sql_s": m, "ratio": g / m, "runs": i})
    if not rows:
        return {"skipped": "every case was blocked: " + "; ".join(
            f"{s['case']}: {s['reason']}" for s in skipped[:3])}
    return {"cases": rows, "median_ratio": statistics.median(c["ratio"] for c in rows),
            "max_ratio": max(c["ratio"] for c in rows), "target_ratio": TARGETS[engine.name],
            "skipped_cases": skipped}


def compile_times(layer: SemanticLayer, cases: list[Case], rounds: int = 200) -> dict[str, float]:
    """p50 and p90 of compiling every case the layer compiles, `rounds` times over (a case it
    blocks is left to `measure`, which reports it skipped with its reason)."""
    compiles = [partial(layer.compile, kind, args, layer.dialect) for _name, kind, args, _sql in cases]
    compiles = [c for c in compiles if _compiles(c)]
    if not compiles:
        return {"compile_p50_ms": float("nan"), "compile_p90_ms": float("nan")}
    times = sorted(_time(c) for _ in range(rounds) for c in compiles)
    return {"compile_p50_ms": 1000 * statistics.median(times),
            "compile_p90_ms": 1000 * times[int(0.9 * len(times))]}


def _compiles(compile_once: Callable[[], Any]) -> bool:
    try:
        compile_once()
    except SemanticError:
        return False
    return True


def run(home: Path, scale: float = 10.0, repeats: int = 7,
        progress: Callable[[str], None] | None = None, engines: Sequence[str] = ENGINES,
        project: Path | str | None = None, metricflow: bool = True,
        mf_repeats: int = 9) -> dict[str, Any]:
    """Every measure of one run: compile time, governed over hand-written SQL per engine, and
    (`metricflow`) our compile against MetricFlow's (benchmarks/compile_vs_mf.py)."""
    say = progress or (lambda _m: None)
    say(f"warehouse at scale {scale:g}" if project is None else f"project {project}")
    source = source_of(home, scale, project)
    cases = source.cases
    limits = Limits(timeout_s=600, memory="8GB")
    measured: dict[str, Any] = {}
    compiled: dict[str, float] | None = None
    for kind in engines:
        say(f"opening {kind}")
        try:
            layer = SemanticLayer(source.model, engine=open_bench_engine(kind, source, home, limits),
                                  limits=limits)
        except SemanticError as exc:  # recorded with its reason (no Java, no pyspark, …)
            measured[kind] = {"skipped": exc.message}
            continue
        try:
            if cases is None:  # the analyst reads questions against the inferred catalog
                cases = question_cases(source.questions, layer.catalog())
            compiled = compiled or compile_times(layer, cases)
            measured[kind] = measure(layer, cases, repeats, say)
        finally:
            layer.close()
    report: dict[str, Any] = {
        "project": source.name, "scale": scale if source.name == "demo" else None,
        "repeats": repeats, "cases": len(cases or []),
        "compile_p50_ms": compiled and compiled["compile_p50_ms"],
        "compile_p90_ms": compiled and compiled["compile_p90_ms"],
        "engines": measured, "targets": {"compile_p50_ms": 5.0, **{
            f"{k}_ratio": v for k, v in TARGETS.items()}},
    }
    if metricflow:
        from showwork.benchmarks import compile_vs_mf

        say("compiling against MetricFlow")
        report["metricflow"] = compile_vs_mf.run(mf_repeats)
    return report
