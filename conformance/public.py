"""Public dbt projects with MetricFlow models, as dbt builds them, against MetricFlow's answers.

    python conformance/public.py                          # every project: build, compare
    python conformance/public.py --offline                # the packaged ones only (make conformance)
    python conformance/public.py --built DIR              # a project dbt already built (seed, run,
                                                          # parse): its DuckDB from its profile

Offline (PACKAGED): dbt-metricflow's own tutorial project (`mf tutorial`), assembled from the
files the dbt-metricflow wheel in conformance/.venv ships, as the command assembles them (Apache-2.0).
Networked (PROJECTS):
each project is cloned at a pinned commit, its dbt packages installed (`dbt deps`), its data
made (jaffle-shop: `jafgen`, PyPI, one year), then built by dbt into DuckDB through a profile
with a target schema (`dbt_sl_test`, as dbt's template projects name it), all in
conformance/.venv. showwork reads the folder as it is (dbt_project.yml, profiles.yml, the YAML);
MetricFlow reads dbt's target/semantic_manifest.json (mf_driver.py, in-process, the SQL `mf query`
runs). The queries: every metric by no grain and each grain; by each of its categorical
dimensions (and entities) at month grain; under range and null filters on its dimensions; with a
window. Each compared row by row (conformance/differential.py's compare); exit 1 on any
difference or any refusal where MetricFlow answers.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from conformance.differential import _ref, compare  # noqa: E402 - after the path is set

PROJECTS: dict[str, dict[str, Any]] = {
    "jaffle-shop": {"url": "https://github.com/dbt-labs/jaffle-shop",
                    "commit": "7be2c58", "profile": "default", "data": "jafgen",
                    "seed_vars": '{"load_source_data": true}',
                    "window": ("2018-10-01", "2019-03-31")},
}
GRAINS = (None, "day", "week", "month", "quarter", "year")
MF_PYTHON: Path | None = None
"""The Python whose MetricFlow answers (--metricflow); None: conformance/.venv's."""
MAX_DIMENSIONS = 5
"""Dimensions each metric is grouped by (the first of its list)."""


PACKAGED: dict[str, dict[str, Any]] = {
    "conformance-project": {"window": ("2024-02-10", "2024-05-20")},
    "mf-tutorial": {"window": ("2022-03-01", "2022-09-30")},
    "dbt-metricflow-intro": {"window": ("2023-02-01", "2023-04-30")},
    "acme-insurance": {"window": ("2015-01-01", "2019-12-31")},
}
"""Projects built with no network: conformance/project itself (run.py asks it chosen queries;
here every metric by every grain, dimension and filter), from files a package in
conformance/.venv ships (mf-tutorial), or vendored under conformance/projects with their license (MIT:
github.com/qiubite31/dbt-metricflow-intro at 08f36a0, its semantic models and metrics in
model paths of their own, its data written by its setup_data.py; Apache-2.0:
github.com/dbt-labs/semantic-layer-llm-benchmarking at 0448f7c, its ACME insurance models with
their seed CSVs, conformance/projects/acme-insurance/README.md names each edit)."""


def built_project(name: str, work: Path) -> Path:
    """A public dbt project with MetricFlow models, built by dbt into DuckDB under `work`: its
    folder (dbt_project.yml, profiles.yml naming the DuckDB file, target/semantic_manifest.json).
    For other suites wanting a domain no one here wrote, e.g.

        from conformance.public import built_project
        root = built_project("mf-tutorial", tmp_path)   # no network; dbt in conformance/.venv
        project = showwork.harness.project.Project.open(root)

    `name` is one of PACKAGED (offline) or PROJECTS (cloned: needs the network)."""
    work.mkdir(parents=True, exist_ok=True)
    if name == "mf-tutorial":
        return tutorial(work)
    if name == "conformance-project":
        return own(work)
    if name in PACKAGED:
        return vendored(name, work)
    return fetch(name, PROJECTS[name], work)


def own(work: Path) -> Path:
    """conformance/project (run.py's) copied, its profile naming a DuckDB file in the folder,
    then seeded, run and parsed by dbt."""
    root = work / "conformance-project"
    shutil.copytree(HERE / "project", root, ignore=shutil.ignore_patterns(
        "target", "logs", "*.duckdb*"))
    (root / "profiles.yml").write_text(
        "conformance:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n"
        f"      path: {str(root / 'conformance.duckdb')!r}\n      threads: 1\n", encoding="utf-8")
    _dbt(root, [["seed"], ["run"], ["parse"]])
    return root


def vendored(name: str, work: Path) -> Path:
    """A project vendored under conformance/projects as its author keeps it (its profiles.yml
    beside dbt_project.yml), its data written by its own setup_data.py (pandas and DuckDB, in
    this Python) or, without one, its seeds loaded by dbt; then run and parsed by dbt."""
    root = work / name
    shutil.copytree(HERE / "projects" / name, root, ignore=shutil.ignore_patterns(
        "target", "logs", "*.duckdb*"))
    if (root / "setup_data.py").exists():
        subprocess.run([sys.executable, "setup_data.py"], cwd=root, check=True,
                       capture_output=True)
        _dbt(root, [["run"], ["parse"]])
    else:
        _dbt(root, [["seed"], ["run"], ["parse"]])
    return root


def tutorial(work: Path) -> Path:
    """dbt-metricflow's `mf tutorial` project as the command writes it (mf_tutorial_project,
    its sample models in models/sample_model, its seeds in seeds/sample_seeds, the profile's
    DuckDB file in the folder), then seeded, run and parsed by dbt."""
    from conformance.run import ensure_venv, tool

    ensure_venv()
    cli = Path(subprocess.run([str(tool("python")), "-c", "import dbt_metricflow.cli as c; "
                               "print(c.__file__)"], check=True, capture_output=True,
                              text=True).stdout.strip()).parent
    root = work / "mf_tutorial_project"
    shutil.copytree(cli / "mf_tutorial_project", root)
    shutil.copytree(cli / "sample_dbt_models" / "sample_models", root / "models" / "sample_model")
    shutil.copytree(cli / "sample_dbt_models" / "seeds", root / "seeds" / "sample_seeds")
    profiles = root / "profiles.yml"
    profiles.write_text(profiles.read_text(encoding="utf-8").replace(
        "$db_file_path", repr(str(root / "mf_tutorial.duckdb"))), encoding="utf-8")
    _dbt(root, [["seed"], ["run"], ["parse"]])
    return root


def _dbt(root: Path, steps: list[list[str]]) -> None:
    from conformance.run import tool

    env = {**os.environ, "DBT_PROFILES_DIR": str(root), "DO_NOT_TRACK": "1",
           "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    for step in steps:
        done = subprocess.run([str(tool("dbt")), *step], cwd=root, env=env, capture_output=True,
                              text=True)
        if done.returncode:
            sys.exit(f"{root.name}: dbt {step[0]} failed:\n{done.stdout[-3000:]}")


def fetch(name: str, spec: dict[str, Any], work: Path) -> Path:
    """The project cloned at its commit, packages installed, data made, built by dbt."""
    from conformance.run import ensure_venv

    ensure_venv()
    root = work / name
    subprocess.run(["git", "clone", "--quiet", spec["url"], str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "checkout", "--quiet", spec["commit"]], check=True)
    (root / "profiles.yml").write_text(
        f"{spec['profile']}:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n"
        f"      path: {name}.duckdb\n      schema: dbt_sl_test\n      threads: 2\n",
        encoding="utf-8")
    if spec.get("data") == "jafgen":
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "jafgen"], check=True)
        subprocess.run(["jafgen", "1"], cwd=work, check=True, capture_output=True)
        data = root / "seeds" / "jaffle-data"
        data.mkdir(parents=True, exist_ok=True)
        for csv in (work / "jaffle-data").glob("raw_*.csv"):
            if csv.stem != "raw_tweets":
                shutil.copy(csv, data / csv.name)
    _dbt(root, [["deps"], ["seed", "--vars", spec.get("seed_vars", "{}")], ["run"], ["parse"]])
    return root


def queries(model: Any, window: tuple[str, str] | None) -> list[dict[str, Any]]:
    """Every metric by each grain, by each of its dimensions, under range and null filters."""
    out: list[dict[str, Any]] = []

    def add(kind: str, metric: str, grain: str | None, group_by: list[str],
            where: str | None = None, span: tuple[str, str] | None = None) -> None:
        q = {"id": f"q{len(out)}", "kind": kind, "metrics": [metric], "grain": grain,
             "group_by": group_by, "where": where}
        if span:
            q["start"], q["end"] = span
        out.append(q)

    for m in model.metrics:
        for grain in GRAINS:
            add("grain", m.name, grain, [])
        dims = model.supported_dimensions(m.name)
        for dim in dims[:MAX_DIMENSIONS]:
            add("dimension", m.name, "month", [dim])
        if window:
            add("window", m.name, "month", [], span=window)
        categorical = [d for d in dims if model.dimensions.get(d) is not None
                       and model.dimensions[d].dimension.type == "categorical"]
        for dim in categorical[:1]:
            ref = f"{{{{ {_ref(dim)} }}}}"
            add("range_where", m.name, "month", [], f"{ref} >= '3'")
            add("null_where", m.name, None, [dim], f"{ref} IS NOT NULL")
    return out


def showwork(root: Path, qs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    from conformance.cells import limits
    from conformance.differential import answer
    from showwork.harness.project import Project

    layer = Project.open(root).layer(limits())
    out: dict[str, dict[str, Any]] = {}
    try:
        for q in qs:
            out[q["id"]] = {k: v for k, v in answer(layer, q).items() if k != "sql"}
    finally:
        layer.close()
    return out


def metricflow(root: Path, database: Path, qs: list[dict[str, Any]], work: Path
               ) -> dict[str, dict[str, Any]]:
    from conformance.run import tool

    batch = work / "public-batch.json"
    batch.write_text(json.dumps({"database": str(database), "queries": qs,
                                 "semantic_manifest": str(root / "target" /
                                                          "semantic_manifest.json")}),
                     encoding="utf-8")
    python = MF_PYTHON or tool("python")
    done = subprocess.run([str(python), str(HERE / "mf_driver.py"), str(batch)],
                          capture_output=True, text=True, env={"DO_NOT_TRACK": "1",
                                                               "PATH": "/usr/bin:/bin"})
    if done.returncode:
        sys.exit(f"mf_driver failed:\n{done.stderr[-3000:]}")
    return {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}


def run_project(name: str, root: Path, window: tuple[str, str] | None, work: Path,
                show: int, kinds: set[str] | None = None) -> int:
    from showwork.harness.project import Project

    os.environ["DBT_PROFILES_DIR"] = str(root)
    project = Project.open(root)
    qs = [q for q in queries(project.model, window) if not kinds or q["kind"] in kinds]
    print(f"{name}: {len(qs)} queries, MetricFlow first", file=sys.stderr, flush=True)
    database = _database(root)
    theirs = metricflow(root, database, qs, work)
    print(f"{name}: showwork", file=sys.stderr, flush=True)
    ours = showwork(root, qs)
    outcomes: Counter[str] = Counter()
    per_kind: Counter[tuple[str, str]] = Counter()
    differences = []
    for q in qs:
        outcome, problems = _compare(q, theirs[q["id"]], ours[q["id"]])
        outcomes[outcome] += 1
        per_kind[(q["kind"], outcome)] += 1
        if problems:
            differences.append((q, problems))
    print(f"{name}: {len(project.model.metrics)} metrics, {len(qs)} queries; refused by "
          f"showwork at load: {len(project.model.unsupported)}")
    for kind in sorted({k for k, _ in per_kind}):
        parts = ", ".join(f"{o} {n}" for (k, o), n in sorted(per_kind.items()) if k == kind)
        print(f"  {kind:<11} {parts}")
    print("  outcomes: " + ", ".join(f"{o} {n}" for o, n in sorted(outcomes.items())))
    for q, problems in differences[:show]:
        print(f"\n  {q['metrics']} grain {q['grain']} by {q['group_by']} where {q['where']} "
              f"window {q.get('start')}..{q.get('end')}")
        for p in problems[:4]:
            print(f"    - {p[:300]}")
    return len(differences)


def _compare(q: dict[str, Any], mf: dict[str, Any], ours: dict[str, Any]
             ) -> tuple[str, list[str]]:
    """differential.compare, with two deliberate differences named (conformance/README.md):
    `row_cap` (more rows than the layer's cap: an error, never a truncation) and
    `without_metric_time` (an offset or windowed cumulative metric asked with no grain:
    MetricFlow requires metric_time, showwork reads it at the sources' last day)."""
    if "error" in ours and "error" not in mf and "more than" in ours["error"] and \
            "rows" in ours["error"]:
        return "known:row_cap", []
    if "error" in mf and "error" not in ours and "do not include 'metric_time'" in mf["error"]:
        return "known:without_metric_time", []
    return compare(q, mf, ours)


def _database(root: Path) -> Path:
    from showwork.semantic_layer.dbt_project import read_dbt_project, warehouse_of

    return Path(warehouse_of(read_dbt_project(root))["duckdb"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--built", type=Path, action="append",
                        help="a dbt project folder dbt already built (repeatable)")
    parser.add_argument("--offline", action="store_true",
                        help="only the projects a package ships (PACKAGED): no network")
    parser.add_argument("--only", help="only these projects (comma-separated names)")
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--kinds", help="only these kinds of query (comma-separated: grain, "
                        "dimension, window, range_where, null_where)")
    parser.add_argument("--metricflow", type=Path, help="the Python whose MetricFlow answers "
                        "(default conformance/.venv's): another dbt's, for a project it parsed")
    opts = parser.parse_args()
    global MF_PYTHON
    MF_PYTHON = opts.metricflow
    different = 0
    with tempfile.TemporaryDirectory(prefix="showwork-public-") as scratch:
        work = Path(scratch)
        if opts.built:
            built = [(p.resolve().name, p.resolve(), None) for p in opts.built]
            built = [(n, p, next((s["window"] for k, s in {**PACKAGED, **PROJECTS}.items()
                                  if k in n), None))
                     for n, p, _ in built]
        else:
            chosen = {n: s for n, s in {**PACKAGED, **({} if opts.offline else PROJECTS)}.items()
                      if not opts.only or n in opts.only.split(",")}
            built = [(n, built_project(n, work / n), s.get("window")) for n, s in chosen.items()]
        for name, root, window in built:
            different += run_project(name, root, window, work, opts.show,
                                     set(opts.kinds.split(",")) if opts.kinds else None)
    print(f"\n{different} queries different (or refused where MetricFlow answers)")
    return 1 if different else 0


if __name__ == "__main__":
    raise SystemExit(main())
