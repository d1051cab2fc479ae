"""`showwork init`: a starter project drafted from a warehouse's own catalog and data.

From a DuckDB file or a folder of CSV/Parquet files: showwork.yaml, one dbt semantic model per
usable table, the metrics that answer (counts, sums, averages as ratios, shares, levels) and a
governance draft (synonyms, units, coverage, member lists, rollups that are not allowed). What
was inferred and why is returned as roles (column → role → reason) and warnings. The draft is
written into a temporary folder beside the target and moved into place only when it loads,
validates and matches the warehouse: init never half-writes. Everything drafted is marked so (a
header comment, `config.meta.showwork.draft: true`): a person reviews it before trusting answers.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from sqlglot import exp

from showwork.harness.project import PROJECT_FILE, Project, ProjectError
from showwork.semantic_layer.draft.docs import column_docs, doc_file, doc_names
from showwork.semantic_layer.draft.models import (
    Drafted,
    Role,
    TableDraft,
    TimeDim,
    draft,
    singular,
    snake,
    words,
)
from showwork.semantic_layer.draft.profile import (
    Column,
    Source,
    Table,
    find_keys,
    kind_of,
    primary_key,
    profile,
)
from showwork.semantic_layer.execute import Limits
from showwork.semantic_layer.windows import period_end

__all__ = ["Column", "DraftInvalid", "DraftMark", "Drafted", "InitResult", "Role", "Table",
           "find_key", "init_project", "kind_of", "review", "singular", "snake"]

DATA_SUFFIXES = (".csv", ".parquet")
GOVERNANCE_FILE = "governance.yaml"
DRAFT_FILES = (PROJECT_FILE, GOVERNANCE_FILE, "models")
"""What init writes into the project folder (and what --force replaces)."""


# -- reading the warehouse ----------------------------------------------------------------------
@dataclass
class EngineSource:
    """A warehouse engine (semantic_layer.engines) as a draft source."""

    engine: Any
    limits: Limits = field(default_factory=Limits)

    @property
    def dialect(self) -> str:
        return str(self.engine.dialect)

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        return dict(self.engine.tables())

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        return list(self.engine.run(sql, self.limits))

    def close(self) -> None:
        self.engine.close()


@dataclass
class DuckSource:
    """A DuckDB connection as a draft source: a file opened read-only, or views over files."""

    con: Any
    dialect: str = "duckdb"
    notes: list[str] = field(default_factory=list)
    """What loading the files noted (a column kept as text), printed as init's warnings."""
    documented: dict[tuple[str, str], str] = field(default_factory=dict)
    """(table, column) → its description in the documentation shipped beside the file."""

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for table, column, kind in self.con.execute(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position").fetchall():
            out.setdefault(str(table), []).append((str(column), str(kind)))
        return out

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        return self.con.execute(sql).fetchall()

    def comments(self) -> dict[tuple[str, str], str]:
        """(table, column) → the column's comment, where the warehouse has one (or the
        documentation shipped with its file describes it)."""
        return {**self.documented, **{(str(t), str(c)): str(x) for t, c, x in self.con.execute(
            "SELECT table_name, column_name, comment FROM duckdb_columns() WHERE schema_name = "
            "'main' AND comment IS NOT NULL AND comment <> ''").fetchall()}}

    def close(self) -> None:
        self.con.close()


def warehouse_spec(path: Path) -> dict[str, str]:
    """{"duckdb": FILE} or {"files": DIR}, as showwork.yaml writes a warehouse."""
    if path.is_dir():
        return {"files": str(path)}
    if path.is_file():
        return {"duckdb": str(path)}
    raise ProjectError(f"{path}: no such DuckDB file or folder of CSV/Parquet files.")


def open_source(spec: dict[str, str]) -> Source:
    """The warehouse, read with DuckDB: a file read-only, or the folder's files loaded as the
    `files:` warehouse loads them — one table per file, a malformed CSV or a value breaking its
    column's type refused naming the file and the line (profiling runs many small queries; the
    governed engines' row caps do not apply here)."""
    import duckdb

    from showwork.semantic_layer.engines.files import kept_as_text, load
    from showwork.semantic_layer.errors import FileLoadError

    if "duckdb" in spec:
        try:
            return DuckSource(duckdb.connect(spec["duckdb"], read_only=True))
        except duckdb.Error as exc:
            raise ProjectError(f"{spec['duckdb']}: not a DuckDB file DuckDB can open: "
                               f"{exc}") from exc
    con = duckdb.connect()
    notes = []
    documented: dict[tuple[str, str], str] = {}
    try:
        for name, file in data_files(Path(spec["files"])):
            load(con, name, file)
            notes += kept_as_text(con, name, file) if _suffix(file) == ".csv" else []
            documented |= _documented(con, name, file)
    except FileLoadError as exc:
        con.close()
        raise ProjectError(str(exc)) from exc
    return DuckSource(con, notes=notes, documented=documented)


def _documented(con: Any, table: str, file: Path) -> dict[tuple[str, str], str]:
    """(table, column) → description, from the documentation shipped beside the file."""
    doc = doc_file(file)
    if doc is None:
        return {}
    columns = [str(r[0]) for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
        [table]).fetchall()]
    text = doc.read_text(encoding="utf-8", errors="replace")
    return {(table, c): x for c, x in column_docs(text, columns).items()}


def data_files(folder: Path) -> Iterator[tuple[str, Path]]:
    """(table name, file) for each CSV or Parquet file in the folder: one table per file."""
    files = sorted(p for p in folder.iterdir() if p.is_file() and _suffix(p) in DATA_SUFFIXES)
    if not files:
        raise ProjectError(f"{folder}: no CSV or Parquet files here (one table per file).")
    for file in files:
        yield file.stem, file


def _suffix(path: Path) -> str:
    return path.suffix.lower()


def find_key(source: Source, table: Table) -> tuple[str, str | None]:
    """(entity, primary key column) of one table: a unique, never-null id or code."""
    key = primary_key(source, table, snake)
    return singular(snake(table.name)), key.column if key and not key.duplicates else None


# -- drafting -----------------------------------------------------------------------------------
class DraftInvalid(ProjectError):
    """The draft did not validate: nothing was written, but what init inferred is kept, so
    the inference table can still be printed beside what to fix."""

    def __init__(self, message: str, roles: list[Role], warnings: list[str]) -> None:
        super().__init__(message)
        self.roles = roles
        self.warnings = warnings


@dataclass(frozen=True)
class InitResult:
    """What init wrote and why."""

    written: list[Path]
    roles: list[Role]
    """column → role → reason, for every column of every table."""
    warnings: list[str]


def draft_warehouse(source: Source, catalog: dict[str, list[tuple[str, str]]]) -> Drafted:
    tables = [profile(source, name, cols) for name, cols in sorted(catalog.items())]
    comments = source.comments() if hasattr(source, "comments") else {}
    if comments:  # synonyms and descriptions from the warehouse's own words
        tables = [_commented(t, {c: x for (n, c), x in comments.items() if n == t.name})
                  for t in tables]
    keys = find_keys(source, tables, snake)
    drafted = draft(source, tables, keys, lambda d, t: _coverage(source, d, t))
    drafted.warnings[:0] = getattr(source, "notes", [])
    return drafted


def _commented(t: Table, comments: dict[str, str]) -> Table:
    """The table's columns with their comments and the names those give them."""
    names = doc_names(comments, {c.name: words(c.name) for c in t.columns})
    return replace(t, columns=tuple(replace(c, comment=comments.get(c.name),
                                            names=names.get(c.name, ())) for c in t.columns))


def _coverage(source: Source, d: TableDraft, time: TimeDim) -> tuple[Any, Any]:
    """The first and last day the table's default time covers."""
    day = exp.Cast(this=exp.maybe_parse(time.expr, dialect="duckdb"),
                   to=exp.DataType.build("date"))
    select = exp.select(exp.Min(this=day), exp.Max(this=day.copy())).from_(
        exp.table_(d.table.name, quoted=True))
    ((low, high),) = source.rows(select.sql(source.dialect))
    high = _date(high)
    return _date(low), period_end(high, time.grain) if high else None


def _date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    return value if isinstance(value, dt.date) else None


# -- writing ------------------------------------------------------------------------------------
HEADER = ("# A DRAFT by `showwork init`, inferred from the catalog and data of\n"
          "#   {source}\n"
          "# Review it before trusting answers: keys, dimensions, measures and metrics are guesses\n"
          "# (each semantic model says so: config.meta.showwork.draft).\n")


def init_project(folder: Path, source_path: Path, name: str | None = None,
                 force: bool = False) -> InitResult:
    """Draft a project into `folder` from a warehouse; nothing is written unless the draft
    validates against the warehouse. `force` replaces an earlier draft's files."""
    _check_target(folder, force)
    spec = warehouse_spec(source_path)
    source = open_source(spec)
    try:
        tables = source.tables()
        drafted = draft_warehouse(source, tables)
    finally:
        source.close()
    if not drafted.models:
        raise ProjectError(f"{source_path}: no table with a time column, a small categorical "
                           "column or a key; nothing to draft.")
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.resolve().name}.init-",
                                    dir=folder.resolve().parent))
    try:
        # the staging folder sits beside the target, so relative warehouse paths hold for both
        _write(staging, drafted, _relative(spec, folder), source_path,
               name or snake(folder.resolve().name).replace("_", "-") or "project")
        try:
            _validate(staging / PROJECT_FILE, tables)
        except ProjectError as exc:
            raise DraftInvalid(str(exc), drafted.roles, drafted.warnings) from exc
        written = _move(staging, folder, force)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return InitResult(written, drafted.roles, drafted.warnings)


def _check_target(folder: Path, force: bool) -> None:
    if force:
        return
    target = folder / PROJECT_FILE
    if target.exists():
        raise ProjectError(f"{target} already exists; init writes a new project (pick another "
                           "folder, or pass --force to replace the draft).")
    models_dir = folder / "models"
    if models_dir.exists() and any(models_dir.iterdir()):
        raise ProjectError(f"{models_dir} is not empty; init writes its drafts there "
                           "(--force replaces them).")


def _validate(project_file: Path, tables: dict[str, list[tuple[str, str]]]) -> None:
    """The draft loads, passes MetricFlow's validations, reads only what the warehouse has, and
    every metric compiles."""
    from showwork.semantic_layer import SemanticLayer
    from showwork.semantic_layer.governance import not_aggregable

    try:
        project = Project.load(project_file)
        project.check_tables(lambda: tables)
        layer = SemanticLayer(project.model)
        for metric in project.model.metric_index:
            start, end = project.model.coverage(metric)
            by = sorted({d for _, d in not_aggregable(project.model, metric)})
            layer.compile("query", {"metrics": [metric], "group_by": by, "window": {
                "start": start.isoformat(), "end": end.isoformat()}})
    except Exception as exc:  # noqa: BLE001 — any failure means: do not write; say why
        raise ProjectError("The draft did not validate, so nothing was written:\n"
                           f"{getattr(exc, 'message', None) or exc}") from exc


def _move(staging: Path, folder: Path, force: bool) -> list[Path]:
    """The staged files into the project folder (an earlier draft's replaced under force)."""
    written = []
    for name in DRAFT_FILES:
        src, dst = staging / name, folder / name
        if not src.exists():
            continue
        if dst.exists() and force:
            shutil.rmtree(dst) if dst.is_dir() else dst.unlink()
        if dst.is_dir():  # an empty models/ left from before
            dst.rmdir()
        shutil.move(str(src), str(dst))
        written += sorted(dst.rglob("*.yml")) if dst.is_dir() else [dst]
    return written


def _relative(spec: dict[str, str], folder: Path) -> dict[str, str]:
    """The warehouse path relative to the project folder (symlinks kept, as the user named it)."""
    kind, path = next(iter(spec.items()))
    return {kind: Path(os.path.relpath(os.path.abspath(path), os.path.abspath(folder))).as_posix()}


def _write(folder: Path, drafted: Drafted, spec: dict[str, str], source: Path,
           name: str) -> None:
    models_dir = folder / "models"
    models_dir.mkdir(parents=True, exist_ok=True)
    header = HEADER.format(source=source)
    for model in drafted.models:
        _dump(models_dir / f"{model['name']}.yml", header,
              {"version": 2, "semantic_models": [model]})
    if drafted.metrics:
        _dump(models_dir / "metrics.yml", header, {"version": 2, "metrics": drafted.metrics})
    settings: dict[str, Any] = {"name": name, "semantic_models": "models/", "warehouse": spec}
    latest = [v["through"] for v in drafted.governance["coverage"].values() if v.get("through")]
    if latest:  # a snapshot: "last month" and "this year" are read from the day after its data
        settings["as_of"] = max(latest) + dt.timedelta(days=1)
    settings["governance"] = GOVERNANCE_FILE
    _dump(folder / GOVERNANCE_FILE, header, _governance(drafted))
    _dump(folder / PROJECT_FILE, header + ("# as_of: the day after the latest data, as for a "
                                           "snapshot; remove it for a live warehouse.\n"
                                           if "as_of" in settings else ""), settings)


def _governance(drafted: Drafted) -> dict[str, Any]:
    """The governance draft without empty entries."""
    gov = drafted.governance
    return {"version": 1,
            "metrics": {k: v for k, v in gov["metrics"].items() if v},
            "dimensions": {k: v for k, v in gov["dimensions"].items() if v},
            "coverage": {k: {"from": v["from"], "through": v["through"]}
                         for k, v in gov["coverage"].items()},
            **({"metric_tree": {"exact": drafted.edges}} if drafted.edges else {})}


class _Dumper(yaml.SafeDumper):
    """YAML without anchors: a person reads and edits the draft."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _dump(path: Path, header: str, data: dict[str, Any]) -> Path:
    path.write_text(header + yaml.dump(data, Dumper=_Dumper, sort_keys=False,
                                       allow_unicode=True, width=100), encoding="utf-8")
    return path


# -- review -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DraftMark:
    """One decision init drafted and no person has signed off yet."""

    kind: str
    """metric or dimension."""
    name: str
    """The metric, or the dimension as semantic_model.dimension."""
    inference: str
    """What it rests on (config.meta.showwork.draft)."""
    file: Path


def review(folder: Path) -> list[DraftMark]:
    """Every metric and dimension of the project's dbt YAML still carrying a draft mark, with
    the inference it rests on: what a person signs off (by deleting the mark)."""
    project_file = folder / PROJECT_FILE
    if not project_file.is_file():
        raise ProjectError(f"{project_file}: no project here to review (showwork init writes "
                           "one).")
    settings = yaml.safe_load(project_file.read_text(encoding="utf-8")) or {}
    models = folder / str(settings.get("semantic_models") or "models")
    out = []
    for path in sorted(models.rglob("*.yml")) + sorted(models.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for metric in data.get("metrics") or []:
            if (mark := _mark(metric)) is not None:
                out.append(DraftMark("metric", str(metric["name"]), mark, path))
        for model in data.get("semantic_models") or []:
            for dim in model.get("dimensions") or []:
                if (mark := _mark(dim)) is not None:
                    out.append(DraftMark("dimension", f"{model['name']}.{dim['name']}", mark,
                                         path))
    return out


def _mark(item: dict[str, Any]) -> str | None:
    mark = (((item.get("config") or {}).get("meta") or {}).get("showwork") or {}).get("draft")
    return str(mark) if mark not in (None, False) else None
