"""Conformance: showwork's numbers against dbt MetricFlow's own, query by query, row by row.

    python conformance/run.py            # or: make conformance

1. Installs dbt-core, dbt-duckdb and dbt-metricflow (pinned below) into conformance/.venv, a
   virtualenv of their own (git-ignored), once.
2. Builds the dbt project in conformance/project (seeds, models, semantic manifest) into a
   DuckDB file.
3. Runs every query below with `mf query` and with showwork's semantic layer — from the dbt YAML
   and from dbt's target/semantic_manifest.json — and compares the rows: the same keys, and every
   number equal to 1e-9 relative. Prints a table; exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile
import venv
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PROJECT = HERE / "project"
VENV = HERE / ".venv"
PINS = ["dbt-core==1.11.*", "dbt-duckdb==1.10.*", "dbt-metricflow==0.12.*"]
REL_TOL = 1e-9

sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class Query:
    id: str
    metrics: tuple[str, ...]
    start: str | None
    end: str | None
    """None and None: no time constraint (neither side adds one)."""
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    where: str | None = None
    why: str = ""


H1 = ("2024-01-01", "2024-06-30")     # a Monday .. a Sunday: whole weeks, months, quarters
Q1 = ("2024-01-01", "2024-03-31")
MARCH = ("2024-03-01", "2024-03-31")
FEB = ("2024-02-01", "2024-02-29")

QUERIES = [
    Query("sum_total", ("revenue",), *H1, why="sum over a window"),
    Query("sum_by_month", ("revenue",), *H1, grain="month"),
    Query("sum_by_iso_week", ("revenue",), *H1, grain="week", why="ISO weeks"),
    Query("sum_by_quarter", ("revenue",), *H1, grain="quarter"),
    Query("sum_by_year", ("revenue",), *H1, grain="year"),
    Query("daily_three_aggs", ("revenue", "orders", "buyers"), *MARCH, grain="day",
          why="sum, count, count_distinct"),
    Query("avg_max_min", ("average_order", "largest_order", "smallest_order"), *H1, grain="month"),
    Query("boolean_and_sum_by_segment", ("gift_orders", "items"), *H1,
          group_by=("customer__segment",), why="sum_boolean; a joined dimension"),
    Query("percentiles", ("median_order", "p90_order", "p90_order_discrete"), *H1, grain="month",
          why="median, percentile, discrete percentile"),
    Query("multi_hop_region", ("revenue",), *H1, group_by=("customer__country__region",),
          why="two joins; the orphan foreign key stays, under null"),
    Query("multi_hop_name_by_quarter", ("revenue", "orders"), *H1, grain="quarter",
          group_by=("customer__country__country_name",),
          why="a member with an apostrophe; a customer in an unknown country"),
    Query("widen_to_months", ("revenue", "orders"), "2024-01-15", "2024-03-10", grain="month",
          why="--start/--end inside months widen to whole months"),
    Query("widen_to_weeks", ("revenue",), "2024-01-03", "2024-02-14", grain="week"),
    Query("fact_dimension_by_month", ("revenue",), *H1, grain="month",
          group_by=("transaction__channel",), why="a dimension of the fact table itself"),
    Query("fact_expr_dimension", ("revenue", "orders"), *H1, group_by=("transaction__is_large",)),
    Query("two_dimensions", ("revenue",), *Q1, group_by=("customer__country__region",
                                                        "transaction__channel")),
    Query("metric_filter_multi_hop", ("revenue_north_america",), *H1, grain="month",
          why="a metric filter two joins away"),
    Query("metric_filters_fact", ("web_revenue", "completed_orders"), *H1, grain="month"),
    Query("count_of_nothing", ("orders", "completed_orders"), "2024-01-01", "2024-01-31",
          grain="day", group_by=("transaction__channel",),
          why="a filtered count over a group its filter leaves no row: null, as in MetricFlow"),
    Query("metric_filter_list", ("europe_enterprise_revenue",), *H1, grain="quarter"),
    Query("ratio_across_models", ("revenue_per_visit",), *H1, grain="month",
          why="a ratio of two semantic models"),
    Query("ratio_by_region", ("revenue_per_visit",), *H1, group_by=("customer__country__region",)),
    Query("ratio_text_time", ("refund_rate",), *H1, grain="month",
          why="a time dimension stored as text, cast by the model"),
    Query("ratio_input_filter", ("web_share",), *H1, grain="quarter"),
    Query("two_hop_from_refunds", ("refunds_usd", "refund_count"), *H1,
          group_by=("transaction__customer__segment",)),
    Query("derived_across_models", ("net_revenue",), *H1, grain="month"),
    Query("offset_week_by_week", ("revenue_wow",), "2024-01-08", "2024-06-30", grain="week",
          why="offset_window: 1 week"),
    Query("offset_week_by_day", ("revenue_wow",), *FEB, grain="day"),
    Query("offset_month_by_week", ("revenue_mom",), "2024-02-05", "2024-06-30", grain="week",
          why="regression: a month back from a week start is a week only on a Monday"),
    Query("offset_month_by_day", ("revenue_mom",), "2024-03-25", "2024-05-05", grain="day",
          why="regression: Mar 30 and Mar 31 both read Feb 29"),
    Query("offset_month_by_quarter", ("revenue_mom",), *H1, grain="quarter"),
    Query("offset_to_grain", ("revenue_since_month_start",), *MARCH, grain="day"),
    Query("cumulative_all_time", ("revenue_all_time",), *H1, grain="month",
          why="cumulative, first day of each month"),
    Query("cumulative_by_quarter", ("revenue_all_time", "revenue_mtd"), *H1, grain="quarter"),
    Query("cumulative_window_daily", ("revenue_7d",), *MARCH, grain="day"),
    Query("cumulative_grain_to_date", ("revenue_mtd",), *FEB, grain="day"),
    Query("cumulative_first_day_with_data", ("refunds_mtd", "refunds_7d"), *H1, grain="month",
          why="regression: sparse days, the first day of each period with data"),
    Query("cumulative_first_day_by_week", ("refunds_mtd", "refunds_7d"), *Q1, grain="week",
          why="regression: weeks"),
    Query("sum_boolean_by_day", ("gift_orders",), *MARCH, grain="day",
          group_by=("customer__segment",), why="regression: a null counts 0"),
    Query("cumulative_last_day_weekly", ("orders_7d_last_day",), "2024-01-08", "2024-06-30",
          grain="week", why="period_agg: last"),
    Query("semi_additive_by_month", ("closing_balance", "opening_balance",
                                     "account_closing_balance"), *H1, grain="month",
          why="non_additive_dimension: max, min, window_groupings"),
    Query("semi_additive_window", ("closing_balance", "account_closing_balance"), *Q1,
          why="non_additive_dimension without metric_time: the window's last day"),
    Query("semi_additive_by_segment", ("closing_balance",), *H1, grain="quarter",
          group_by=("customer__segment",)),
    Query("customers_multi_hop", ("customers", "vip_customers"), "2023-06-01", "2024-05-31",
          group_by=("country__region",), why="another fact model; count_distinct, sum_boolean"),
    Query("visits_by_region_quarter", ("visits", "pages"), *H1, grain="quarter",
          group_by=("customer__country__region",)),
    Query("constant_flag_where", ("revenue", "orders"), *H1, grain="month",
          where="{{ Dimension('customer__is_customer') }} = 1",
          why="a constant flag of a joined model, filtered: null where the join finds no row"),
    Query("constant_flag_two_hops", ("revenue",), *H1, group_by=("customer__country__is_listed",),
          where="{{ Dimension('country__is_listed', entity_path=['customer']) }} = 1"),
    Query("constant_flag_metric_filter", ("revenue_listed_country", "orders_of_customers"), *H1,
          grain="quarter", why="metric filters on constant flags of joined models"),
    Query("case_and_coalesce_joined", ("revenue",), *H1,
          group_by=("customer__country__region_class", "customer__segment_or_none"),
          why="a CASE and a COALESCE of joined models: null where unmatched"),
    Query("no_window_total", ("revenue", "orders", "refunds_usd"), None, None,
          why="no --start/--end: no time constraint on either side"),
    Query("no_window_by_month", ("revenue", "visits"), None, None, grain="month",
          group_by=("customer__segment",)),
    Query("no_window_text_time", ("refund_rate",), None, None, grain="quarter"),
    Query("no_window_flag", ("orders_of_customers",), None, None,
          group_by=("customer__country__region",)),
    Query("no_window_cum_by_day", ("revenue_7d", "revenue_14d", "refunds_7d", "revenue_mtd",
                                   "revenue_all_time"), None, None, grain="day",
          why="no window, cumulative: MetricFlow's rows run past the last day with data"),
    Query("no_window_cum_by_week", ("revenue_7d", "revenue_14d", "refunds_mtd", "revenue_mtd",
                                    "revenue_all_time"), None, None, grain="week"),
    Query("no_window_cum_by_month", ("revenue_7d", "refunds_7d", "revenue_mtd",
                                     "revenue_all_time"), None, None, grain="month"),
    Query("no_window_cum_last_day", ("orders_7d_last_day",), None, None, grain="week"),
    Query("no_window_cum_segment", ("revenue_7d", "revenue_mtd"), None, None, grain="day",
          group_by=("customer__segment",)),
    Query("no_window_cum_where_start", ("revenue_7d", "revenue_all_time"), None, None,
          grain="week", where="{{ TimeDimension('metric_time', 'day') }} >= '2024-03-01'",
          why="a metric_time bound on one side: the rows run on as without a window"),
    Query("where_and_in", ("revenue",), *H1, grain="month",
          where="{{ Dimension('customer__segment') }} = 'enterprise' AND "
                "{{ Dimension('transaction__channel') }} IN ('web', 'phone')",
          why="--where: AND, IN"),
    Query("where_or", ("revenue", "orders"), *H1, group_by=("transaction__channel",),
          where="{{ Dimension('transaction__channel') }} = 'web' OR "
                "{{ Dimension('customer__segment') }} = 'enterprise'", why="--where: OR"),
    Query("where_metric_time", ("revenue",), *H1, grain="month",
          where="{{ TimeDimension('metric_time', 'day') }} >= '2024-03-01'",
          why="--where: a metric_time bound"),
    Query("where_not_equal", ("revenue",), *H1, group_by=("customer__country__region",),
          where="{{ Dimension('transaction__channel') }} != 'store'"),
    Query("conversion_by_month", ("visit_to_order_rate", "visit_to_order_count",
                                  "visit_to_buyer_rate"), *H1, grain="month",
          why="conversion metrics: a window, a metric filter, none and all time"),
    Query("conversion_by_segment", ("visit_to_order_rate", "visits"), *H1,
          group_by=("customer__segment",)),
    Query("conversion_two_hops_week", ("visit_to_order_rate", "visit_to_buyer_rate"), *Q1,
          grain="week", group_by=("customer__country__region",)),
    Query("conversion_no_window", ("visit_to_order_rate", "visit_to_order_count"), None, None,
          grain="quarter", where="{{ Dimension('customer__segment') }} != 'consumer'"),
    Query("conversion_spined_week", ("visit_to_order_rate_every_week", "visits"),
          "2023-11-06", "2024-08-04", grain="week", group_by=("customer__segment",),
          why="join_to_timespine on a conversion metric's base measure: the spine's weeks"),
    Query("conversion_spined_mixed_where", ("visit_to_order_rate_every_week",),
          "2023-12-01", "2024-05-31", grain="month",
          where="{{ Dimension('customer__segment') }} = 'enterprise' AND "
                "{{ TimeDimension('metric_time', 'day') }} <= '2024-02-20'",
          why="metric_time bounded with another filter: the asked window's spine"),
    Query("conversion_spined_one_bound", ("visit_to_order_rate_every_week",), None, None,
          grain="quarter", where="{{ TimeDimension('metric_time', 'day') }} >= '2024-02-01'",
          why="a bound on one side: the spine runs to its end"),
]


# -- the MetricFlow side ------------------------------------------------------------------------
def tool(name: str) -> Path:
    return VENV / ("Scripts" if os.name == "nt" else "bin") / name


def ensure_venv() -> None:
    """conformance/.venv with the pinned dbt and MetricFlow (installed once)."""
    if not tool("mf").exists():
        print(f"installing {', '.join(PINS)} into {VENV} …", file=sys.stderr)
        venv.create(VENV, with_pip=True)
        subprocess.run([str(tool("python")), "-m", "pip", "install", "--quiet", *PINS], check=True)
    out = subprocess.run([str(tool("python")), "-c", "import importlib.metadata as m; print("
                          "m.version('dbt-core'), m.version('dbt-duckdb'), m.version('dbt-metricflow'))"],
                         check=True, capture_output=True, text=True).stdout.split()
    for pin, got in zip(PINS, out, strict=True):
        if not got.startswith(pin.split("==")[1].rstrip("*")):
            sys.exit(f"{VENV}: found {pin.split('==')[0]} {got}, expected {pin}; delete the folder")


def env(database: Path) -> dict[str, str]:
    return {**os.environ, "CONFORMANCE_DUCKDB": str(database), "DBT_PROFILES_DIR": str(PROJECT),
            "DO_NOT_TRACK": "1", "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}


def build(database: Path) -> None:
    for step in (["seed"], ["run"], ["parse"]):
        done = subprocess.run([str(tool("dbt")), *step, "--project-dir", str(PROJECT)], cwd=PROJECT,
                              env=env(database), capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"dbt {step[0]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")


def mf_rows(q: Query, database: Path, tmp: Path) -> list[dict[str, str]]:
    out = tmp / f"{q.id}.csv"
    group_by = ([f"metric_time__{q.grain}"] if q.grain else []) + list(q.group_by)
    cmd = [str(tool("mf")), "query", "--metrics", ",".join(q.metrics), "--csv", str(out), "--quiet"]
    if q.start and q.end:
        cmd += ["--start-time", q.start, "--end-time", q.end]
    if group_by:
        cmd += ["--group-by", ",".join(group_by)]
    if q.where:
        cmd += ["--where", q.where]
    done = subprocess.run(cmd, cwd=PROJECT, env=env(database), capture_output=True, text=True)
    if done.returncode and "cannot be volatile" in done.stdout + done.stderr:
        done = _explained(cmd, database, out)
    if done.returncode or not out.exists():
        text = "\n".join(line for line in (done.stdout + done.stderr).splitlines()
                         if "ERROR" in line or "Error" in line)
        raise RuntimeError(f"mf query failed: {text[-1500:] or done.stderr[-1500:]}")
    with out.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _explained(cmd: list[str], database: Path, out: Path) -> subprocess.CompletedProcess:
    """A conversion metric `mf query` cannot run on DuckDB 1.2+ (its row UUID inlined into a
    PARTITION BY): the SQL `mf query --explain` prints, run by mf_driver.py with one id per
    conversion row (mf_driver._row_ids), its rows written to `out` as `mf query --csv` would."""
    explain = [c for c in cmd if c not in ("--csv", str(out))] + ["--explain"]
    done = subprocess.run(explain, cwd=PROJECT, env=env(database), capture_output=True, text=True)
    if done.returncode:
        return done
    lines = done.stdout.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith(("WITH", "SELECT"))), None)
    if first is None:
        return subprocess.CompletedProcess(explain, 1, done.stdout, "no SQL in --explain")
    sql = out.with_suffix(".sql")
    sql.write_text("\n".join(lines[first:]), encoding="utf-8")
    return subprocess.run([str(tool("python")), str(HERE / "mf_driver.py"), "--sql", str(database),
                           str(sql), str(out)], capture_output=True, text=True)


# -- the showwork side --------------------------------------------------------------------------
def our_rows(layer, q: Query) -> list[dict[str, object]]:
    from showwork.semantic_layer.where import parse_where

    args: dict[str, object] = {"metrics": list(q.metrics), "group_by": list(q.group_by)}
    if q.start and q.end:
        args["window"] = {"start": q.start, "end": q.end}
    if q.grain:
        args.update(grain=q.grain, whole_periods=bool(q.start))
    if q.where:
        args = parse_where(q.where).apply(args, layer.model, refuse_empty=False)
    result = layer.call("query", args, refuse_empty=False)  # as `semantic query` answers
    rows = []
    for row in result.rows:
        out: dict[str, object] = {}
        for k, v in row.key.items():
            out[f"metric_time__{q.grain}" if k == q.grain else k] = v
        out.update({m: row.values[m]["value"] for m in q.metrics})
        rows.append(out)
    return rows


# -- comparing ----------------------------------------------------------------------------------
@dataclass
class Outcome:
    query: Query
    mf: int = 0
    ours: dict[str, int] = field(default_factory=dict)
    worst: float = 0.0
    problems: list[str] = field(default_factory=list)


def _key(row: Mapping[str, object], q: Query) -> tuple[str, ...]:
    names = ([f"metric_time__{q.grain}"] if q.grain else []) + list(q.group_by)
    return tuple(str(row.get(n) or "")[:10] if n.startswith("metric_time") else str(row.get(n) or "")
                 for n in names)


def _number(v: object) -> float | None:
    if v is None or v == "":
        return None
    return float(v)  # type: ignore[arg-type]


def compare(q: Query, mf: list[dict[str, str]], ours: list[dict[str, object]], side: str,
            outcome: Outcome) -> None:
    theirs = {_key(r, q): r for r in mf}
    mine = {_key(r, q): r for r in ours}
    for key in sorted(set(theirs) ^ set(mine)):
        where = "only in MetricFlow" if key in theirs else f"only in showwork ({side})"
        outcome.problems.append(f"row {key} {where}")
    for key in sorted(set(theirs) & set(mine)):
        for m in q.metrics:
            a, b = _number(theirs[key].get(m)), _number(mine[key].get(m))
            if a is None or b is None:
                if a is not b:
                    outcome.problems.append(f"{side} row {key} {m}: MetricFlow {a}, showwork {b}")
                continue
            rel = abs(a - b) / max(abs(a), abs(b), 1e-300) if a != b else 0.0
            outcome.worst = max(outcome.worst, rel)
            if not math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-12):
                outcome.problems.append(f"{side} row {key} {m}: MetricFlow {a!r}, showwork {b!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="run the queries whose id contains this text")
    parser.add_argument("--keep", type=Path, help="keep the DuckDB file and CSVs in this folder")
    opts = parser.parse_args()
    ensure_venv()
    from conformance.cells import limits
    from showwork.semantic_layer import SemanticError, SemanticLayer, load_model

    with tempfile.TemporaryDirectory(prefix="showwork-conformance-") as scratch:
        work = opts.keep or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        database = work / "conformance.duckdb"
        build(database)
        selected = [q for q in QUERIES if not opts.only or opts.only in q.id]
        outcomes = {q.id: Outcome(q) for q in selected}
        answers: dict[str, list[dict[str, str]]] = {}
        # MetricFlow opens the DuckDB file for writing: all its queries first, then showwork's
        for q in selected:
            try:
                answers[q.id] = mf_rows(q, database, work)
                outcomes[q.id].mf = len(answers[q.id])
            except RuntimeError as exc:
                outcomes[q.id].problems.append(str(exc))
        sources = {"dbt YAML": PROJECT / "models",
                   "manifest": PROJECT / "target" / "semantic_manifest.json"}
        for side, source in sources.items():
            layer = SemanticLayer(load_model(source, database=database), database, limits())
            try:
                for q in selected:
                    if q.id not in answers:
                        continue
                    try:
                        ours = our_rows(layer, q)
                    except SemanticError as exc:
                        outcomes[q.id].problems.append(f"showwork ({side}): {exc.message}")
                        continue
                    outcomes[q.id].ours[side] = len(ours)
                    compare(q, answers[q.id], ours, side, outcomes[q.id])
            finally:
                layer.close()
    return report(list(outcomes.values()))


def report(outcomes: list[Outcome]) -> int:
    rows = [("query", "metrics", "by", "MF rows", "ours", "max rel diff", "result")]
    for o in outcomes:
        q = o.query
        by = ",".join(([f"metric_time__{q.grain}"] if q.grain else []) + list(q.group_by)) or "-"
        ours = "/".join(str(n) for n in o.ours.values()) or "-"
        status = "DIFFERENT" if o.problems else "ok"
        rows.append((q.id, ",".join(q.metrics), by + (" +where" if q.where else ""), str(o.mf), ours,
                     f"{o.worst:.1e}", status))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    failed = [o for o in outcomes if o.problems]
    for o in failed:
        print(f"\n{o.query.id}:")
        for p in o.problems[:12]:
            print(f"  - {p}")
    checked = sum(o.mf for o in outcomes)
    print(f"\n{len(outcomes)} queries, {checked} MetricFlow rows, each compared with showwork from "
          f"the dbt YAML and from the semantic manifest: "
          f"{'all equal' if not failed else f'{len(failed)} different'} "
          f"(relative tolerance {REL_TOL:g}).")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
