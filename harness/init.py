"""`showwork init`: a starter project drafted from a warehouse's own catalog and data.

From a DuckDB file or a folder of CSV/Parquet files: showwork.yaml and one dbt semantic model per
table — primary keys by name and uniqueness, foreign keys by name and values, time dimensions,
small categorical dimensions, a count measure and sum measures — and a simple metric per measure.
Everything drafted is marked so (a header comment, and `config: {meta: {showwork: {draft:
true}}}` on each semantic model): a person reviews it before trusting answers.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import yaml
from sqlglot import exp

from harness.project import PROJECT_FILE, Project, ProjectError
from semantic_layer.execute import Limits
from semantic_layer.infer import MAX_MEMBERS

FK_MATCH = 0.9
"""A foreign key: at least this share of a column's values are the target's keys (orphans
happen: deleted customers keep their orders)."""
DATA_SUFFIXES = {".csv": "read_csv_auto", ".parquet": "read_parquet"}
TIME_NAMES = ("_at", "_ts", "_date", "_time", "date", "time", "_on")
"""Name endings that make a time column the default time of its table, in order of preference."""


# -- reading the warehouse ----------------------------------------------------------------------
class Source(Protocol):
    """A warehouse to draft from: its catalog, and SQL over it."""

    @property
    def dialect(self) -> str: ...

    def tables(self) -> dict[str, list[tuple[str, str]]]: ...

    def rows(self, sql: str) -> list[tuple[Any, ...]]: ...

    def close(self) -> None: ...


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

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for table, column, kind in self.con.execute(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position").fetchall():
            out.setdefault(str(table), []).append((str(column), str(kind)))
        return out

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        return self.con.execute(sql).fetchall()

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
    """The warehouse through its engine; DuckDB directly until semantic_layer.engines lands."""
    try:
        from semantic_layer.engines import open_engine
    except ImportError:
        return _duck_source(spec)
    return EngineSource(open_engine(spec, Path.cwd()))


def _duck_source(spec: dict[str, str]) -> DuckSource:
    import duckdb

    if "duckdb" in spec:
        try:
            return DuckSource(duckdb.connect(spec["duckdb"], read_only=True))
        except duckdb.Error as exc:
            raise ProjectError(f"{spec['duckdb']}: not a DuckDB file DuckDB can open: "
                               f"{exc}") from exc
    con = duckdb.connect()
    for name, file in data_files(Path(spec["files"])):
        reader = exp.func(DATA_SUFFIXES[_suffix(file)], exp.Literal.string(str(file.resolve())))
        view = exp.select("*").from_(reader)
        con.execute(f"CREATE VIEW {exp.to_identifier(name, quoted=True).sql('duckdb')} AS "
                    f"{view.sql('duckdb')}")
    return DuckSource(con)


def data_files(folder: Path) -> Iterator[tuple[str, Path]]:
    """(table name, file) for each CSV or Parquet file in the folder: one table per file."""
    files = sorted(p for p in folder.iterdir() if p.is_file() and _suffix(p) in DATA_SUFFIXES)
    if not files:
        raise ProjectError(f"{folder}: no CSV or Parquet files here (one table per file).")
    for file in files:
        yield file.stem, file


def _suffix(path: Path) -> str:
    return path.suffix.lower()


# -- profiling ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    name: str
    type: str
    kind: str
    """time, integer, number, text, bool or other."""
    distinct: int | None
    """Distinct non-null values (None: not counted, for times and decimals)."""
    non_null: int


@dataclass(frozen=True)
class Table:
    name: str
    rows: int
    columns: tuple[Column, ...]

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


def kind_of(sql_type: str) -> str:
    """The draft's reading of a warehouse type.

    >>> [kind_of(t) for t in ("DECIMAL(10,2)", "BIGINT", "TIMESTAMP WITH TIME ZONE", "varchar")]
    ['number', 'integer', 'time', 'text']
    """
    t = sql_type.upper()
    if t == "DATE" or t.startswith("TIMESTAMP"):
        return "time"
    if re.match(r"(U?(BIG|SMALL|TINY|HUGE)?INT(EGER)?|LONG|SHORT|BYTE)\b", t):
        return "integer"
    if re.match(r"(DECIMAL|NUMERIC|DOUBLE|FLOAT|REAL)", t):
        return "number"
    if re.match(r"(VARCHAR|STRING|TEXT|CHAR)", t):
        return "text"
    return "bool" if t.startswith("BOOL") else "other"


def profile(source: Source, name: str, columns: list[tuple[str, str]]) -> Table:
    """Row count, and distinct and non-null counts of each column, in one query."""
    kinds = [(c, t, kind_of(t)) for c, t in columns]
    counted = [k in ("integer", "text", "bool") for _, _, k in kinds]
    select = exp.select(exp.Count(this=exp.Star()))
    for (column, _, _), distinct in zip(kinds, counted, strict=True):
        ref = exp.column(column, quoted=True)
        select = select.select(exp.Count(this=ref))
        if distinct:
            select = select.select(exp.Count(this=exp.Distinct(expressions=[ref.copy()])))
    ((rows, *values),) = source.rows(select.from_(_table(name)).sql(source.dialect))
    it = iter(values)
    out = []
    for (column, sql_type, kind), distinct in zip(kinds, counted, strict=True):
        non_null = int(next(it))
        out.append(Column(column, sql_type, kind, int(next(it)) if distinct else None, non_null))
    return Table(name, int(rows), tuple(out))


def matched_share(source: Source, fact: Table, column: str, target: Table, key: str) -> float:
    """The share of a column's non-null values that are keys of the target table."""
    left, right = exp.column(column, "f", quoted=True), exp.column(key, "t", quoted=True)
    select = (exp.select(exp.Count(this=left), exp.Count(this=right))
              .from_(_table(fact.name, "f"))
              .join(_table(target.name, "t"), on=exp.EQ(this=left.copy(), expression=right.copy()),
                    join_type="left"))
    ((values, matched),) = source.rows(select.sql(source.dialect))
    return matched / values if values else 0.0


def _table(name: str, alias: str | None = None) -> exp.Table:
    return exp.table_(name, quoted=True, alias=alias)


# -- drafting -----------------------------------------------------------------------------------
@dataclass
class Draft:
    """What init infers about one table."""

    table: Table
    entity: str
    key: str | None = None
    foreign: dict[str, str] = field(default_factory=dict)
    """column → entity of the table it points to."""


def snake(text: str) -> str:
    """A MetricFlow name for a warehouse name.

    >>> snake("Order Date"), snake("2nd-Value"), snake("a__b")
    ('order_date', 'c_2nd_value', 'a_b')
    """
    name = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "column"
    return f"c_{name}" if name[0].isdigit() else name


def singular(name: str) -> str:
    """The entity a table name holds rows of: orders → order, categories → category."""
    if name.endswith("ies"):
        return name[:-3] + "y"
    return name[:-1] if name.endswith("s") and not name.endswith(("ss", "us", "is")) else name


def find_key(table: Table) -> tuple[str, str | None]:
    """(entity, primary key column): `<entity>_id` or `id`, unique and never null."""
    base = snake(table.name)
    for c in table.columns:
        name = snake(c.name)
        entity = singular(base) if name == "id" else name.removesuffix("_id")
        named = name == "id" or (name.endswith("_id") and base.startswith(entity))
        if named and table.rows and c.distinct == c.non_null == table.rows:
            return entity, c.name
    return singular(base), None


def link(source: Source, drafts: list[Draft]) -> None:
    """Foreign keys: a column named as another table's key whose values are its keys."""
    keyed = [d for d in drafts if d.key]
    for draft in drafts:
        for c in draft.table.columns:
            if c.name == draft.key or c.kind not in ("integer", "text"):
                continue
            for target in keyed:
                key = target.table.column(target.key or "")
                if target is draft or key.kind != c.kind or not _names_key(c.name, target):
                    continue
                if matched_share(source, draft.table, c.name, target.table,
                                 target.key or "") >= FK_MATCH:
                    draft.foreign[c.name] = target.entity
                    break


def _names_key(column: str, target: Draft) -> bool:
    name = snake(column)
    return name == snake(target.key or "") != "id" or name == f"{target.entity}_id"


def time_column(table: Table) -> Column | None:
    """The table's default time: the first time column, preferring `…_at`, `…_date`, …"""
    times = [c for c in table.columns if c.kind == "time"]
    for ending in TIME_NAMES:
        named = [c for c in times if snake(c.name).endswith(ending)]
        if named:
            return named[0]
    return times[0] if times else None


def semantic_model(draft: Draft, measure_names: set[str]) -> dict[str, Any] | None:
    """One dbt semantic model for a table, or None when nothing in it can be used."""
    table = draft.table
    entities = _entities(draft)
    names = {e["name"] for e in entities}
    dims, skipped = _dimensions(draft, names)
    default_time = time_column(table)
    measures = _measures(draft, measure_names) if default_time else []
    if not dims and not measures and not draft.foreign:
        return None
    model: dict[str, Any] = {
        "name": snake(table.name),
        "description": _description(table, skipped),
        "model": f"ref('{table.name}')",
        "config": {"meta": {"showwork": {"draft": True}}}}
    if default_time:
        model["defaults"] = {"agg_time_dimension": snake(default_time.name)}
    if draft.key is None:
        model["primary_entity"] = draft.entity
    if entities:
        model["entities"] = entities
    if dims:
        model["dimensions"] = dims
    if measures:
        model["measures"] = measures
    return model


def _expr(column: str) -> str:
    """The column as SQL: bare when it is a plain name, quoted otherwise."""
    return column if snake(column) == column else exp.column(column, quoted=True).sql("duckdb")


def _entities(draft: Draft) -> list[dict[str, Any]]:
    out = [{"name": draft.entity, "type": "primary", "expr": _expr(draft.key)}] if draft.key else []
    out += [{"name": entity, "type": "foreign", "expr": _expr(column)}
            for column, entity in draft.foreign.items() if entity != draft.entity]
    return out


def _dimensions(draft: Draft, taken: set[str]) -> tuple[list[dict[str, Any]], list[str]]:
    dims: list[dict[str, Any]] = []
    skipped: list[str] = []
    keys = {draft.key, *draft.foreign}
    for c in draft.table.columns:
        name = snake(c.name)
        if c.name in keys or name in taken:
            continue
        if c.kind == "time":
            dims.append({"name": name, "type": "time", "expr": _expr(c.name),
                         "type_params": {"time_granularity": "day"}})
        elif c.kind in ("text", "bool") and (c.distinct or 0) <= MAX_MEMBERS:
            dims.append({"name": name, "type": "categorical", "expr": _expr(c.name)})
        elif c.kind == "text":
            skipped.append(f"{c.name} ({c.distinct:,} distinct values)")
        else:
            continue
        taken.add(name)
    return dims, skipped


def _measures(draft: Draft, taken: set[str]) -> list[dict[str, Any]]:
    keys = {draft.key, *draft.foreign}
    count = _unique(f"{draft.entity}_count", taken)
    out = [{"name": count, "description": f"Rows of {draft.table.name}.", "agg": "count",
            "expr": _expr(draft.key) if draft.key else "1"}]
    for c in draft.table.columns:
        if c.kind in ("integer", "number") and c.name not in keys \
                and not snake(c.name).endswith("_id"):
            out.append({"name": _unique(snake(c.name), taken, draft.entity),
                        "description": f"Sum of {draft.table.name}.{c.name}.", "agg": "sum",
                        "expr": _expr(c.name)})
    return out


def _unique(name: str, taken: set[str], prefix: str | None = None) -> str:
    """The name, or the name after the prefix, or numbered: one not taken yet (now taken)."""
    candidates = [name, *([f"{prefix}_{name}"] if prefix else [])]
    candidate = next((c for c in candidates if c not in taken), None)
    n = 2
    while candidate is None or candidate in taken:
        candidate, n = f"{name}_{n}", n + 1
    taken.add(candidate)
    return candidate


def _description(table: Table, skipped: list[str]) -> str:
    rows = f"{table.rows:,} row{'' if table.rows == 1 else 's'}"
    text = (f"Draft by showwork init from table {table.name} ({rows}); review the keys, "
            "dimensions and measures before trusting answers.")
    if skipped:
        text += " Not dimensions (too many values): " + ", ".join(skipped) + "."
    return text


def metrics(models: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A simple metric per measure, named as the measure."""
    return [{"name": m["name"], "label": m["name"].replace("_", " "),
             "description": f"Draft: {m['description']}", "type": "simple",
             "type_params": {"measure": m["name"]}}
            for sm in models for m in sm.get("measures", [])]


def draft_models(source: Source, catalog: dict[str, list[tuple[str, str]]]
                 ) -> list[dict[str, Any]]:
    """Semantic models for every usable table in the warehouse's catalog."""
    tables = [profile(source, name, cols) for name, cols in sorted(catalog.items())]
    drafts = []
    for table in tables:
        entity, key = find_key(table)
        drafts.append(Draft(table, entity, key))
    _distinct_entities(drafts)
    link(source, drafts)
    taken = {snake(c.name) for t in tables for c in t.columns
             if c.kind not in ("integer", "number")} | {d.entity for d in drafts}
    models = [semantic_model(d, taken) for d in drafts]
    return [m for m in models if m is not None]


def _distinct_entities(drafts: list[Draft]) -> None:
    """Two tables never share a primary entity (their dimensions would be ambiguous)."""
    seen: set[str] = set()
    for d in drafts:
        d.entity = _unique(d.entity, seen)


# -- writing ------------------------------------------------------------------------------------
HEADER = ("# A DRAFT by `showwork init`, inferred from the catalog and data of\n"
          "#   {source}\n"
          "# Review it before trusting answers: keys, dimensions, measures and metrics are guesses\n"
          "# (each semantic model says so: config.meta.showwork.draft).\n")


def init_project(folder: Path, source_path: Path, name: str | None = None) -> list[Path]:
    """Write a starter project into `folder` from a warehouse; return the files written.

    The draft is opened and checked against the warehouse before this returns."""
    target = folder / PROJECT_FILE
    if target.exists():
        raise ProjectError(f"{target} already exists; init writes a new project (pick another "
                           "folder, or edit that one).")
    models_dir = folder / "models"
    if models_dir.exists() and any(models_dir.iterdir()):
        raise ProjectError(f"{models_dir} is not empty; init writes its drafts there.")
    spec = warehouse_spec(source_path)
    source = open_source(spec)
    try:
        tables = source.tables()
        models = draft_models(source, tables)
    finally:
        source.close()
    if not models:
        raise ProjectError(f"{source_path}: no table with a time column, a small categorical "
                           "column or a key; nothing to draft.")
    written = _write(folder, models, _relative(spec, folder), source_path, name)
    # the draft loads, passes the model's validations and reads only what the warehouse has
    Project.load(target).check_tables(lambda: tables)
    return written


def _relative(spec: dict[str, str], folder: Path) -> dict[str, str]:
    """The warehouse path relative to the project folder (symlinks kept, as the user named it)."""
    kind, path = next(iter(spec.items()))
    return {kind: Path(os.path.relpath(os.path.abspath(path), os.path.abspath(folder))).as_posix()}


def _write(folder: Path, models: list[dict[str, Any]], spec: dict[str, str], source: Path,
           name: str | None) -> list[Path]:
    models_dir = folder / "models"
    models_dir.mkdir(parents=True, exist_ok=True)
    header = HEADER.format(source=source)
    written = []
    for model in models:
        written.append(_dump(models_dir / f"{model['name']}.yml", header,
                             {"version": 2, "semantic_models": [model]}))
    drafted = metrics(models)
    if drafted:
        written.append(_dump(models_dir / "metrics.yml", header,
                             {"version": 2, "metrics": drafted}))
    settings = {"name": name or snake(folder.resolve().name).replace("_", "-") or "project",
                "semantic_models": "models/", "warehouse": spec}
    return [_dump(folder / PROJECT_FILE, header, settings), *written]


def _dump(path: Path, header: str, data: dict[str, Any]) -> Path:
    path.write_text(header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True,
                                            width=100), encoding="utf-8")
    return path
