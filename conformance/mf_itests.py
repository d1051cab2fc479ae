"""MetricFlow's own integration query cases, through showwork and through MetricFlow, numbers
compared row by row.

    python conformance/mf_itests.py                 # every case (make conformance)
    python conformance/mf_itests.py --only simple   # the cases whose name holds "simple"
    python conformance/mf_itests.py --show 40       # more of each list printed

The cases (metricflow_itests/cases/itest_*.yaml) and the tables they read
(metricflow_itests/snapshots) are MetricFlow's, copied unchanged from its repository at the release
conformance/.venv runs (NOTICE there). The tables are loaded into one DuckDB file; each case's
manifest is the one metricflow-semantics ships in conformance/.venv (SIMPLE_MODEL is
simple_manifest, …). MetricFlow plans and renders each case's query in-process (mf_driver.py,
as differential.py does) and its SQL runs on the same file; showwork loads the same manifest
folder unchanged and answers the same query through its layer.

A metric showwork refuses at load (a feature it does not support yet) is left out of showwork's
copy of the manifest with the reason, so the rest still loads; a case asking for it, or for a
query showwork's layer does not take (a sub-daily grain, a group-by object, min_max_only …), is
counted as refused with its reason. Prints the counts — cases tried, equal, refused by showwork
(by reason), both refuse, known differences by name, different — and every difference; exits 1
on any difference.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import jinja2
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from conformance.cells import key_text, limits, num  # noqa: E402 - after the path is set

DATA = HERE / "metricflow_itests"
EXTRA = HERE / "mf_itests_extra.yaml"
"""Cases of our own on MetricFlow's manifests: metrics they define that no MetricFlow case asks."""
MANIFESTS = {  # IntegrationTestModel → the manifest folder MetricFlow's test fixtures use
    "SIMPLE_MODEL": "simple_manifest",
    "SIMPLE_MODEL_NON_DS": "non_sm_manifest",
    "UNPARTITIONED_MULTI_HOP_JOIN_MODEL": "multi_hop_join_manifest",
    "PARTITIONED_MULTI_HOP_JOIN_MODEL": "partitioned_multi_hop_join_manifest",
    "EXTENDED_DATE_MODEL": "extended_date_manifest",
    "SCD_MODEL": "scd_manifest",
}
TYPES = {"TIME": "TIMESTAMP", "STRING": "VARCHAR", "FLOAT": "DOUBLE", "INT": "BIGINT",
         "BOOLEAN": "BOOLEAN"}
GRAINS = ("day", "week", "month", "quarter", "year")
REL_TOL = 1e-9
PROCESSES = 2

KNOWN: dict[str, str] = {
    # UNPARTITIONED_MULTI_HOP_JOIN_MODEL reads the partitioned tables: bridge_table's primary
    # entity account_id repeats (one row per ds). MetricFlow joins each dimension's model through
    # its own copy of the bridge, so two dimensions from two models pair every customer of an
    # account with every country of it; showwork joins the bridge once (each customer with its
    # own country). Only data breaking the primary key's uniqueness tells them apart.
    "multihop_join_two_dims_different_sources": "duplicate_primary_key",
}
"""Case name → the named known difference it shows (conformance/README.md explains each)."""


# -- the warehouse -------------------------------------------------------------------------------
def load_tables(database: Path) -> list[str]:
    """Every snapshot table in schema main, plus MetricFlow's day time spine (generated: its
    fiscal and alien_day columns follow the snapshot's rules, checked by tests)."""
    con = duckdb.connect(str(database))
    names = []
    for file in sorted((DATA / "snapshots").rglob("*.yaml")):
        snap = yaml.safe_load(file.read_text(encoding="utf-8"))["table_snapshot"]
        cols = [(c["name"], TYPES[c["type"]]) for c in snap["column_definitions"]]
        con.execute(f"CREATE TABLE {snap['table_name']} ("
                    + ", ".join(f"{n} {t}" for n, t in cols) + ")")
        rows = [tuple(_value(v, t) for v, (_, t) in zip(r, cols, strict=True))
                for r in snap.get("rows") or []]
        if rows:
            con.executemany(f"INSERT INTO {snap['table_name']} VALUES "
                            f"({', '.join('?' * len(cols))})", rows)
        names.append(snap["table_name"])
    con.execute(SPINE_SQL)
    con.close()
    return [*names, "mf_time_spine"]


SPINE_SQL = """
CREATE TABLE mf_time_spine AS
SELECT d::TIMESTAMP AS ds,
       'FQ' || CASE WHEN month(d) = 1 THEN 4 ELSE (month(d) + 1) // 3 END
           || ' ' || (year(d) + (month(d) >= 2)::INT) AS fiscal_quarter,
       'FY ' || (year(d) + (month(d) >= 2)::INT) AS fiscal_year,
       (DATE '2020-01-01' + INTERVAL ((year(d) - 2000) // 10) DAY)::TIMESTAMP AS alien_day
FROM range(DATE '2000-01-01', DATE '2041-01-01', INTERVAL 1 DAY) t(d)
"""


def _value(v: Any, sql_type: str) -> Any:
    if v is None:
        return None
    if sql_type == "BOOLEAN":
        return str(v).lower() == "true"
    return v


# -- the cases -----------------------------------------------------------------------------------
def read_cases(only: str | None) -> list[dict[str, Any]]:
    out = []
    for file in [*sorted((DATA / "cases").glob("itest_*.yaml")), EXTRA]:
        for doc in yaml.safe_load_all(file.read_text(encoding="utf-8")):
            if doc and "integration_test" in doc:
                case = dict(doc["integration_test"], file=file.stem)
                if only is None or only in case["name"]:
                    out.append(case)
    return out


class _Helpers:
    """The Jinja helpers MetricFlow's itests render a where_filter with (test_configured_cases.py)."""

    @staticmethod
    def render_dimension_template(name: str, entity_path: Any = ()) -> str:
        return f"{{{{ Dimension('{name}', entity_path={list(entity_path)!r}) }}}}"

    @staticmethod
    def render_entity_template(name: str, entity_path: Any = ()) -> str:
        return f"{{{{ Entity('{name}', entity_path={list(entity_path)!r}) }}}}"

    @staticmethod
    def render_metric_template(name: str, group_by: Any = ()) -> str:
        return f"{{{{ Metric('{name}', group_by={list(group_by)!r}) }}}}"

    @staticmethod
    def render_time_dimension_template(name: str, grain: str | None = None,
                                       entity_path: Any = ()) -> str:
        g = f"'{grain}', " if grain else ""
        return f"{{{{ TimeDimension('{name}', {g}entity_path={list(entity_path)!r}) }}}}"

    @staticmethod
    def cast_to_ts(text: str) -> str:
        return f"CAST('{text}' AS TIMESTAMP)"

    @staticmethod
    def cast_expr_to_ts(expr: str) -> str:
        return f"CAST({expr} AS TIMESTAMP)"

    @staticmethod
    def render_time_constraint(expr: str, start_time: str | None = None,
                               stop_time: str | None = None) -> str:
        """As MetricFlow's CheckQueryHelpers render it on DuckDB (raw SQL in a filter)."""
        parts = []
        if start_time:
            parts.append(f"CAST({expr} AS TIMESTAMP) >= CAST('{start_time}' AS TIMESTAMP)")
        if stop_time:
            stop = dt.datetime.fromisoformat(stop_time)
            stop += dt.timedelta(days=1) if len(stop_time) == 10 else dt.timedelta(seconds=1)
            stop_text = stop.isoformat(sep=" ")[:len(stop_time)]
            parts.append(f"CAST({expr} AS TIMESTAMP) < CAST('{stop_text}' AS TIMESTAMP)")
        return " AND ".join(parts)


class _Refuse(Exception):
    """A case whose query showwork's layer does not take (the reason is the message)."""


def where_text(case: dict[str, Any]) -> str | None:
    if not case.get("where_filter"):
        return None
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    helpers = {k: getattr(_Helpers, k) for k in dir(_Helpers) if k.startswith(("render_", "cast_"))}
    try:
        return env.from_string(case["where_filter"]).render(**helpers)
    except (jinja2.TemplateError, TypeError) as exc:
        raise _Refuse(f"a where_filter using {exc}") from exc


def group_bys(case: dict[str, Any]) -> list[str]:
    """The case's group-by names: `group_bys`, and `group_by_objs` as MetricFlow reads them (a
    name alone, `{"name": "booking__ds__day"}`; a name and a grain, `{"name": "metric_time",
    "grain": "month"}`, as `metric_time__month`: one time dimension spec either way); a name
    and a date part, `{"name": "metric_time", "date_part": "dow"}`, as the column MetricFlow
    names it, `metric_time__extract_dow` (a grain beside a date part changes nothing there)."""
    objs = case.get("group_by_objs") or ()
    if any(set(o) - {"name", "grain", "date_part"} for o in objs):
        raise _Refuse("group-by objects (group_by_objs) of another shape")
    return [*(case.get("group_bys") or ()),
            *(f"{o['name']}__extract_{o['date_part']}" if o.get("date_part")
              else f"{o['name']}__{o['grain']}" if o.get("grain") else o["name"] for o in objs)]


def _named(case: dict[str, Any]) -> list[str]:
    """group_bys(case) for MetricFlow's side (the objects as they are when it refuses them)."""
    try:
        return group_bys(case)
    except _Refuse:
        return list(case.get("group_bys") or ())


def mf_query(case: dict[str, Any], qid: str) -> dict[str, Any]:
    """The case as mf_driver.py runs it: MetricFlow's own names, unchanged."""
    tc = case.get("time_constraint")
    where = None
    with contextlib.suppress(_Refuse):  # a filter showwork cannot render MetricFlow cannot read
        where = where_text(case)
    return {"id": qid, "metrics": list(case.get("metrics") or ()), "group_by": [],
            "group_by_names": _named(case), "grain": None,
            "start": tc[0] if tc else None, "end": tc[1] if tc else None, "where": where,
            "order_by": list(case.get("order_bys") or ()), "limit": case.get("limit")}


def our_args(case: dict[str, Any], model: Any) -> tuple[dict[str, Any], list[str]]:
    """(query arguments for showwork's layer, output column names); _Refuse when it takes no
    such query."""
    for key, what in (("saved_query_name", "a saved query"), ("min_max_only", "min_max_only")):
        if case.get(key):
            raise _Refuse(what)
    if case.get("apply_group_by") is False:
        raise _Refuse("apply_group_by: false")
    if not case.get("metrics"):
        raise _Refuse("a query without metrics (dimension values)")
    grain = None
    group_by: list[str] = []
    for name in group_bys(case):
        parts = name.split("__")
        if parts[0] == "metric_time":  # bare: the coarsest of the metrics' default
            # time_granularity (or day), as MetricTimeDefaultGranularityPattern picks it
            g = parts[1] if len(parts) > 1 else max(
                (getattr(model.metric_index.get(m), "time_granularity", None) or "day"
                 for m in case["metrics"]),  # a metric it cannot compute: the layer says why
                key=GRAINS.index)
            if (g in model.custom_grains or g.startswith("extract_")) and len(parts) > 1:
                # a custom granularity or a date part: a dimension of the layer's
                group_by.append(name)
                continue
            if g not in GRAINS:
                raise _Refuse(f"metric_time at grain {g!r}")
            if grain is not None:
                raise _Refuse("metric_time at two grains")
            grain = g
        else:
            group_by.append(name)
    args: dict[str, Any] = {"metrics": list(case["metrics"]), "group_by": group_by}
    if grain:
        args["grain"] = grain
    tc = case.get("time_constraint")
    if tc:
        start, end = (str(x) for x in tc)
        if any(len(x) > 10 and x[10:].strip(" T") not in ("00:00:00", "") for x in (start, end)):
            raise _Refuse("a time constraint finer than a day")
        args["window"] = {"start": start[:10], "end": end[:10]}
        if grain:
            args["whole_periods"] = True
    orders = list(case.get("order_bys") or ())
    if len(orders) > 1:
        raise _Refuse("ordering by more than one field")
    if orders:
        field = orders[0].lstrip("-")
        if field.split("__")[0] == "metric_time":
            field = grain or "day"
        args["order_by"] = {"field": field, "desc": orders[0].startswith("-")}
    if case.get("limit") is not None:
        args["limit"] = case["limit"]
    where = where_text(case)
    if where:
        from showwork.semantic_layer import SemanticError, parse_where

        try:
            args = parse_where(where).apply(args, model, refuse_empty=False)
        except SemanticError as exc:
            raise _Refuse(f"--where: {exc.message}") from exc
    names = ([f"metric_time__{grain}"] if grain else []) + group_by
    return args, names


# -- showwork's side -----------------------------------------------------------------------------
_METRIC = re.compile(r"metric '([^']+)'")
_MEASURE = re.compile(r"semantic model '([^']+)', measure '([^']+)'")


def lenient_copy(manifest: Path, folder: Path, database: Path) -> tuple[Any, dict[str, str], str | None]:
    """(showwork's model, metric → why it was left out, why the whole manifest is refused):
    the manifest copied (symlinks read through), its metrics showwork refuses left out one round
    at a time until the rest loads."""
    from showwork.semantic_layer import load_model
    from showwork.semantic_layer.errors import ModelError

    shutil.copytree(manifest, folder, ignore=shutil.ignore_patterns("__*"))
    dropped: dict[str, str] = {}
    for _ in range(10):
        try:
            return load_model(folder, database=database), dropped, None
        except ModelError as exc:
            lines = [" ".join(x.split()) for x in str(exc).split("\n- ")[1:]] or [str(exc)]
            found: dict[str, str] = {}
            measures: dict[str, str] = {}
            for line in lines:
                m, ms = _METRIC.search(line), _MEASURE.search(line)
                if ms is not None:  # its metrics fail next round, and are left out then
                    measures[ms.group(2)] = ms.group(1)
                    dropped[f"measure {ms.group(2)}"] = line.split(ms.group(0), 1)[-1].strip(": ")
                elif m is not None:
                    found.setdefault(m.group(1), line.split(m.group(0), 1)[-1].strip(": "))
                else:
                    return None, dropped, line.replace(str(folder) + "/", "")
            dropped.update(found)
            _drop(folder, set(found), measures)
    return None, dropped, "metrics kept failing to load"


def _drop(folder: Path, metrics: set[str], measures: dict[str, str]) -> None:
    """Leave these metrics, and these measures (name → semantic model), out of the YAML."""
    for file in folder.rglob("*.yaml"):
        docs = list(yaml.safe_load_all(file.read_text(encoding="utf-8")))
        kept = [d for d in docs if not (isinstance(d, dict) and (d.get("metric") or {}).get("name")
                                        in metrics)]
        for d in kept:
            sm = d.get("semantic_model") if isinstance(d, dict) else None
            if sm and sm.get("name") in measures.values():
                sm["measures"] = [x for x in sm.get("measures") or []
                                  if measures.get(x["name"]) != sm["name"]]
        if kept != docs or measures:
            file.write_text(yaml.safe_dump_all(kept, sort_keys=False), encoding="utf-8")


def showwork(model: Any, database: Path, case: dict[str, Any], args: dict[str, Any],
             names: list[str]) -> dict[str, Any]:
    from showwork.semantic_layer import SemanticError, SemanticLayer

    layer = SemanticLayer(model, database, limits())
    try:
        result = layer.call("query", args, refuse_empty=False)  # as `semantic query` answers
    except SemanticError as exc:
        return {"error": exc.message}
    finally:
        layer.close()
    rows = []
    grain = args.get("grain")
    for row in result.rows:
        r: dict[str, Any] = {}
        for k, v in row.key.items():
            r[f"metric_time__{grain}" if k == grain else k] = v
        r.update({m: row.values[m]["value"] for m in args["metrics"]})
        rows.append(r)
    return {"rows": rows, "sql": result.sql}


# -- comparing -----------------------------------------------------------------------------------




def compare(case: dict[str, Any], names: list[str], mf: dict[str, Any], ours: dict[str, Any]
            ) -> tuple[str, list[str]]:
    if "error" in mf and "error" in ours:
        return "both_refuse", []
    if "error" in mf:
        if "percentile aggregate not supported" in mf["error"]:
            # the dialect has no approximate quantile of that kind: MetricFlow refuses, showwork
            # computes the exact percentile (docs/projects.md), counted by name
            return "known:exact_percentile", []
        return "different", [f"MetricFlow refuses ({mf['error'][:300]}); showwork answers"]
    if "error" in ours:
        return "refused", [ours["error"]]
    theirs = {}
    for row in mf["rows"]:
        rec = dict(zip(mf["columns"], row, strict=True))
        # a time dimension asked without a grain is named at its own (day) grain by MetricFlow
        theirs[tuple(key_text(rec[n] if n in rec else rec.get(f"{n}__day")) for n in names)] = rec
    mine = {tuple(key_text(r.get(n)) for n in names): r for r in ours["rows"]}
    problems = [f"row {k} only in {'MetricFlow' if k in theirs else 'showwork'}: "
                f"{theirs.get(k) or mine.get(k)}" for k in sorted(set(theirs) ^ set(mine))]
    for key in sorted(set(theirs) & set(mine)):
        for m in case["metrics"]:
            a, b = num(theirs[key].get(m)), num(mine[key].get(m))
            if a is None or b is None:
                if a is not b:
                    problems.append(f"row {key} {m}: MetricFlow {a}, showwork {b}")
            elif not math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-9):
                problems.append(f"row {key} {m}: MetricFlow {a!r}, showwork {b!r}")
    if problems:
        known = KNOWN.get(case["name"])
        return (f"known:{known}", []) if known else ("different", problems)
    return "equal", []


# -- running -------------------------------------------------------------------------------------
def installed_manifests() -> Path:
    from conformance.run import ensure_venv

    ensure_venv()
    found = sorted((HERE / ".venv" / "lib").glob(
        "python*/site-packages/metricflow_semantics/test_helpers/semantic_manifest_yamls"))
    if not found:
        sys.exit("metricflow-semantics' test manifests are not in conformance/.venv")
    return found[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="only the cases whose name holds this")
    parser.add_argument("--show", type=int, default=20, help="lines printed per list")
    parser.add_argument("--keep", type=Path, help="keep the database, manifests and results here")
    opts = parser.parse_args()
    from conformance.run import tool

    started = time.perf_counter()
    cases = read_cases(opts.only)
    shipped = installed_manifests()
    with tempfile.TemporaryDirectory(prefix="showwork-mf-itests-") as scratch:
        folder = opts.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        database = folder / "itests.duckdb"
        database.unlink(missing_ok=True)
        load_tables(database)
        by_manifest: dict[str, list[dict[str, Any]]] = {}
        for i, case in enumerate(cases):
            case["id"] = f"c{i}"
            by_manifest.setdefault(MANIFESTS[case["model"]], []).append(case)
        worlds = [{"id": m, "manifest": str(shipped / m),
                   "queries": [mf_query(c, c["id"]) for c in cs]}
                  for m, cs in sorted(by_manifest.items())]
        running = []
        for i in range(PROCESSES):
            part = worlds[i::PROCESSES]
            if not part:
                continue
            batch = folder / f"batch{i}.json"
            batch.write_text(json.dumps({"database": str(database), "worlds": part}),
                             encoding="utf-8")
            out = (folder / f"mf{i}.jsonl").open("w", encoding="utf-8")
            proc = subprocess.Popen([str(tool("python")), str(HERE / "mf_driver.py"), str(batch)],
                                    stdout=out, stderr=subprocess.PIPE, text=True,
                                    env={"DO_NOT_TRACK": "1", "PATH": "/usr/bin:/bin"})
            running.append((proc, out.name))

        outcomes: Counter[str] = Counter()
        reasons: Counter[str] = Counter()
        details: dict[str, list[str]] = {}
        ours: dict[str, tuple[dict[str, Any], list[str]]] = {}
        left_out: dict[str, dict[str, str]] = {}
        for manifest, cs in sorted(by_manifest.items()):
            model, dropped, whole = lenient_copy(shipped / manifest, folder / "ours" / manifest,
                                                 database)
            left_out[manifest] = dropped
            for case in cs:
                reason = None
                if whole:
                    reason = f"manifest {manifest}: {whole}"
                else:
                    gone = [m for m in case.get("metrics") or () if m in dropped]
                    if gone:
                        reason = f"metric {gone[0]!r}: {dropped[gone[0]]}"
                if reason is None:
                    try:
                        args, names = our_args(case, model)
                    except _Refuse as exc:
                        reason = str(exc)
                if reason is not None:
                    ours[case["id"]] = ({"error": reason, "early": True}, [])
                    continue
                ours[case["id"]] = (showwork(model, database, case, args, names), names)

        theirs: dict[str, dict[str, Any]] = {}
        for proc, path in running:
            _, err = proc.communicate()
            if proc.returncode:
                sys.exit(f"mf_driver failed:\n{err[-3000:]}")
            text = Path(path).read_text(encoding="utf-8")
            theirs.update((r["id"], r) for r in map(json.loads, text.splitlines()))

        for case in cases:
            result, names = ours[case["id"]]
            label = f"{case['file']}/{case['name']}"
            if result.get("early"):
                outcomes["refused"] += 1
                reasons[_reason_class(result["error"])] += 1
                details.setdefault("refused", []).append(f"{label}: {result['error'][:200]}")
                continue
            outcome, problems = compare(case, names, theirs[case["id"]], result)
            outcomes[outcome] += 1
            if outcome == "refused":
                reasons[_reason_class(problems[0])] += 1
            details.setdefault(outcome, []).append(
                f"{label}: " + " | ".join(p[:240] for p in problems[:4]))
        if opts.keep:
            (folder / "details.json").write_text(json.dumps(details, indent=1))
    return report(cases, outcomes, reasons, details, left_out, opts.show,
                  time.perf_counter() - started)


def _reason_class(text: str) -> str:
    """A refusal's reason without the names in it, to count alike ones together."""
    text = re.sub(r"'[^']*'", "'…'", text.split(";")[0])
    return re.sub(r"\([^)]*\)", "(…)", text)[:110]


def report(cases: list[dict[str, Any]], outcomes: Counter[str], reasons: Counter[str],
           details: dict[str, list[str]], left_out: dict[str, dict[str, str]], show: int,
           seconds: float) -> int:
    print(f"MetricFlow's integration cases (v0.210.0): {len(cases)} tried ({seconds:.0f} s)")
    print("  outcomes: " + ", ".join(f"{o} {n}" for o, n in sorted(outcomes.items())))
    for manifest, dropped in sorted(left_out.items()):
        if dropped:
            print(f"  {manifest}: {len(dropped)} metrics left out of showwork's copy")
    print("  refused by showwork, by reason:")
    for reason, n in reasons.most_common(show):
        print(f"    {n:>4}  {reason}")
    for kind in ("different", "both_refuse"):
        for line in details.get(kind, [])[:show]:
            print(f"  {kind}: {line}")
    different = outcomes["different"]
    print(f"\n{len(cases)} cases: {outcomes['equal']} equal, {different} different"
          + (" — all equal, refused or documented" if not different else ""))
    return 1 if different else 0


if __name__ == "__main__":
    raise SystemExit(main())
