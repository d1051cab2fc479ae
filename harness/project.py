"""A project at run time (DESIGN.md, "Projects"): showwork.yaml, its semantic model, its
warehouse and its question file.

Every command opens one: `--project DIR` (or SHOWWORK_PROJECT), else `./showwork.yaml`, else the
embedded demo. The demo is a project like any other; only its warehouse is special (generated
into SHOWWORK_HOME when missing). Relative paths resolve against the folder of showwork.yaml.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import os
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from functools import cached_property
from importlib import import_module, resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from showwork._plain import Plain, errors
from showwork.harness.errors import HarnessError
from showwork.harness.home import warehouse_path
from showwork.semantic_layer.catalog import build_catalog
from showwork.semantic_layer.dbt_project import PROJECT_FILE as DBT_PROJECT_FILE
from showwork.semantic_layer.dbt_project import is_dbt_project, read_dbt_project, warehouse_of
from showwork.semantic_layer.errors import SemanticError
from showwork.semantic_layer.model import SemanticModelFile, default_model_path

if TYPE_CHECKING:  # the layer, its engines and sqlglot load when a project opens, not on import
    import yaml
    from pydantic import Field  # read by pydantic when a file is read (showwork._plain)

    from showwork.semantic_layer import SemanticLayer
    from showwork.semantic_layer.execute import Limits

PROJECT_FILE = "showwork.yaml"
ENV_VAR = "SHOWWORK_PROJECT"
DEMO = "demo"
WAREHOUSE_KINDS = ("duckdb", "files", "spark", "postgres", "snowflake", "bigquery", "databricks",
                   "dbt_profile")
Rows = Callable[[str], list[tuple[Any, ...]]]


class ProjectError(HarnessError):
    """A project that cannot be opened: a missing or malformed showwork.yaml, a missing models
    folder or warehouse, a model naming a table or column the warehouse lacks."""


@dataclass(kw_only=True)
class Settings(Plain):
    """showwork.yaml, as DESIGN.md's "Projects" writes it (validated by pydantic when a file is
    read; a warm start unpickles it from the cache)."""

    __pydantic_config__ = {"extra": "forbid"}
    name: Annotated[str | None, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")] = None
    """Default: the project folder's name."""
    semantic_models: str = "models"
    """dbt YAML (a folder or file) or a dbt target/semantic_manifest.json."""
    warehouse: dict[str, Any] | None = None
    """{duckdb: FILE} | {files: DIR} | {spark: {...}}; the demo's is built into SHOWWORK_HOME."""
    as_of: dt.date | None = None
    """Default: the end of the data's coverage."""
    governance: str | None = None
    questions: str | None = None
    """The default question file of `showwork experiment` and `showwork demo`."""


@dataclass(frozen=True)
class ProjectFile:
    """A read and checked showwork.yaml, with the line each top-level key is on."""

    path: Path
    settings: Settings
    lines: dict[str, int]

    @property
    def root(self) -> Path:
        return self.path.parent

    def where(self, key: str) -> str:
        """`file:line` of a key, for messages."""
        return f"{self.path}:{self.lines.get(key, 1)}"


# -- finding and reading showwork.yaml ----------------------------------------------------------
def locate(ref: str | Path | None = None) -> Path:
    """The showwork.yaml a reference names: "demo", a folder, or a file; None discovers one
    (SHOWWORK_PROJECT, else ./showwork.yaml, else the embedded demo)."""
    if ref is None or str(ref) == "":
        ref = os.environ.get(ENV_VAR) or (PROJECT_FILE if Path(PROJECT_FILE).is_file() else DEMO)
    if str(ref) == DEMO:
        return default_model_path()
    path = Path(ref)
    if path.is_dir():
        if not (path / PROJECT_FILE).is_file() and is_dbt_project(path):
            return path / DBT_PROJECT_FILE  # a dbt project as it is, no showwork.yaml
        if not (path / PROJECT_FILE).is_file():
            raise ProjectError(f"{path}: no {PROJECT_FILE} in this folder; make one with "
                               f"`showwork init {path} --from WAREHOUSE`, or name another project.")
        return path / PROJECT_FILE
    if not path.is_file():
        raise ProjectError(f"{path}: no such project folder or {PROJECT_FILE}.")
    return path


def is_demo(file: Path) -> bool:
    return file.resolve() == default_model_path().resolve()


def read_project_file(path: Path) -> ProjectFile:
    """showwork.yaml read and checked; ProjectError naming the file and line of each problem.
    A dbt_project.yml is read as the showwork.yaml it implies (its name, model paths and
    profile); a showwork.yaml beside one takes what it leaves out from it."""
    if path.name == DBT_PROJECT_FILE:
        return _dbt_project_file(path)
    if is_dbt_project(path.parent):  # its settings depend on dbt's files too: read each time
        return _parse_project_file(path, _read_text(path))
    from showwork.harness import cache

    text = _read_text(path)
    entry = cache.key(str(path), str(path.resolve()), hashlib.sha256(text.encode()).hexdigest(),
                      _SOURCE_DIGEST)
    return cache.get("project-file", entry, lambda: _parse_project_file(path, text))


_SOURCE_DIGEST = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
"""This module's source: a cached showwork.yaml reading is only as good as the code that read it."""


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProjectError(f"{path}: cannot read it: {exc.strerror or exc}") from exc


def _parse_project_file(path: Path, text: str) -> ProjectFile:
    data, lines = _load_yaml(path, text)
    if is_dbt_project(path.parent):
        data = {**_dbt_defaults(path.parent), **data}
    keys = [f.name for f in fields(Settings)]
    known = {k: v for k, v in data.items() if k in keys}
    problems = [(lines[k], f"unknown key {k!r}; known keys: {', '.join(keys)}")
                for k in data if k not in known]
    if isinstance(known.get("warehouse"), dict):
        problems += [(lines["warehouse"], p) for p in _warehouse_problems(known["warehouse"])]
    settings = None
    from pydantic import ValidationError

    try:
        settings = Settings.model_validate(known)
    except ValidationError as exc:
        problems += [(lines.get(str(e["loc"][0]), 1), f"{'.'.join(map(str, e['loc']))}: {e['msg']}")
                     for e in errors(exc)]
    if problems or settings is None:
        raise ProjectError("\n".join(f"{path}:{line}: {text}" for line, text in sorted(problems)))
    return ProjectFile(path, settings, lines)


def _dbt_defaults(root: Path) -> dict[str, Any]:
    try:
        dbt = read_dbt_project(root)
    except SemanticError as exc:
        raise ProjectError(exc.message) from exc
    models = dbt.semantic_source()
    return {"name": dbt.name, "semantic_models": models.relative_to(dbt.root).as_posix(),
            "warehouse": {"dbt_profile": {}}}


def _dbt_project_file(path: Path) -> ProjectFile:
    settings = Settings.model_validate(_dbt_defaults(path.parent))
    return ProjectFile(path, settings, {})


def _load_yaml(path: Path, text: str) -> tuple[dict[str, Any], dict[str, int]]:
    import yaml  # here: a warm start reads showwork.yaml from the cache

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        raise ProjectError(_yaml_problem(path, exc)) from exc
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        raise ProjectError(f"{path}:1: a project file is a mapping of keys (name, "
                           "semantic_models, warehouse, as_of, governance, questions).")
    return data, {str(k.value): k.start_mark.line + 1 for k, _ in node.value}


def _yaml_problem(path: Path, exc: yaml.MarkedYAMLError) -> str:
    """`file:line:column: problem`, and where the construct it is in started."""
    mark = exc.problem_mark or exc.context_mark
    at = f"{mark.line + 1}:{mark.column + 1}" if mark else "1"
    text = f"{path}:{at}: not valid YAML: {exc.problem or exc}"
    if exc.context and exc.context_mark and exc.context_mark is not mark:
        text += f" ({exc.context} that starts on line {exc.context_mark.line + 1})"
    return text


def _warehouse_problems(spec: dict[str, Any]) -> list[str]:
    kinds = [k for k in spec if k in WAREHOUSE_KINDS]
    if len(spec) != 1 or len(kinds) != 1:
        return [f"warehouse: give exactly one of {', '.join(WAREHOUSE_KINDS)} (got "
                f"{', '.join(map(str, spec)) or 'nothing'}), e.g. warehouse: {{duckdb: "
                "warehouse.duckdb}"]
    kind = kinds[0]
    if kind in ("duckdb", "files") and not isinstance(spec[kind], str):
        return [f"warehouse.{kind}: a path (relative to this file), got {spec[kind]!r}"]
    if kind == "spark" and not isinstance(spec[kind], dict):
        return [f"warehouse.spark: a mapping (master/remote, tables), got {spec[kind]!r}"]
    if kind != "spark" and kind not in ("duckdb", "files") and not isinstance(
            spec[kind], dict | None):
        return [f"warehouse.{kind}: a mapping of connection settings, got {spec[kind]!r}"]
    return []


# -- the project --------------------------------------------------------------------------------
_STAMPS: weakref.WeakKeyDictionary[SemanticLayer, dict[str, str]] = weakref.WeakKeyDictionary()


def bundled_path() -> Path:
    """The demo's question file, bundled with the harness."""
    return Path(str(resources.files("showwork.harness") / "questions" / "demo.yaml"))


def stamp_of(layer: SemanticLayer) -> dict[str, str] | None:
    """The project a layer was opened for (name, model digest), so every attempt run on it
    records it — from the CLI, the web page or Python alike."""
    return _STAMPS.get(layer)


class Project:
    """A semantic model, its governance and its warehouse, named by showwork.yaml."""

    def __init__(self, file: ProjectFile, model: SemanticModelFile) -> None:
        self.file = file
        self.model = model
        """The semantic model as declared (governance left out is inferred by `layer()`)."""
        self.demo = is_demo(file.path)
        self._checked = False
        self._catalog_layer: SemanticLayer | None = None

    @classmethod
    def open(cls, ref: str | Path | None = None) -> Project:
        """The project a reference names ("demo", a folder, a showwork.yaml); None discovers."""
        return cls.load(locate(ref))

    @classmethod
    def load(cls, path: Path) -> Project:
        from showwork.harness import cache

        file = read_project_file(path)
        _check_paths(file)
        # the model names its files by absolute path (each element's origin): a copy of the
        # project elsewhere is another entry, or its messages would name the first copy's files
        entry = cache.key(files_digest(file), cache.code_digest(), str(file.root.resolve()))
        return cls(file, cache.get("model", entry, lambda: _load_model(file.path)))

    @property
    def name(self) -> str:
        return self.file.settings.name or self.root.resolve().name

    @property
    def root(self) -> Path:
        """The folder holding showwork.yaml; relative paths in it resolve here."""
        return self.file.root

    @property
    def questions_path(self) -> Path | None:
        """showwork.yaml's `questions:`; the demo's is the bundled question file."""
        if self.file.settings.questions:
            return self.root / self.file.settings.questions
        if self.demo:
            return bundled_path()
        return None

    @cached_property
    def digest(self) -> str:
        """SHA-256 over the project's files (showwork.yaml, the models, governance)."""
        return files_digest(self.file)

    @property
    def stamp(self) -> dict[str, str]:
        """What traces and run.json record about the project."""
        return {"name": self.name, "digest": self.digest}

    def warehouse(self) -> dict[str, Any]:
        """The warehouse settings; the demo's is the generated file in SHOWWORK_HOME."""
        spec = self.file.settings.warehouse
        if spec is not None:
            return spec
        if self.demo:
            return {"duckdb": str(warehouse_path().resolve())}
        raise ProjectError(f"{self.file.path}: no warehouse; add e.g. `warehouse: {{duckdb: "
                           "warehouse.duckdb}` (or files: DIR, or spark: {...}).")

    @property
    def build_needed(self) -> bool:
        """The demo's warehouse is not built yet (it is built on first use)."""
        return self.demo and not warehouse_path().exists()

    def build(self, progress: Callable[[str], None] | None = None) -> None:
        """Generate the demo warehouse into SHOWWORK_HOME."""
        from showwork.semantic_layer import warehouse as demo_warehouse

        demo_warehouse.build(warehouse_path(), progress=progress)

    def layer(self, limits: Limits | None = None) -> SemanticLayer:
        """A new governed layer on the project's warehouse; the caller closes it."""
        from showwork.semantic_layer.execute import Limits

        if self.build_needed:
            self.build()
        layer = _open_layer(self, limits or Limits())
        _STAMPS[layer] = self.stamp
        return layer

    @property
    def catalog(self) -> dict[str, Any]:
        """What can be asked; governance left out is inferred from the warehouse."""
        from showwork.semantic_layer.infer import needs_inference

        if not needs_inference(self.model):
            return build_catalog(self.model)
        if self._catalog_layer is None:
            self._catalog_layer = self.layer()
        return self._catalog_layer.catalog()

    def close(self) -> None:
        """Close the layer `catalog` opened (layers from `layer()` belong to their callers)."""
        if self._catalog_layer is not None:
            self._catalog_layer.close()
            self._catalog_layer = None

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check_tables(self, tables: Callable[[], dict[str, list[tuple[str, str]]]]) -> None:
        """ProjectError listing every table and column the model reads that the warehouse's
        `tables()` lacks; checked once per project."""
        if self._checked:
            return
        problems = missing_columns(self.model, tables())
        if problems:
            raise ProjectError("The semantic model does not match the warehouse "
                               f"({self.warehouse()}):\n" + "\n".join(f"- {p}" for p in problems))
        self._checked = True


def files_digest(file: ProjectFile) -> str:
    """SHA-256 over a project's files (showwork.yaml, the models, governance; in a dbt project
    also dbt_project.yml, profiles.yml and the macros)."""
    h = hashlib.sha256()
    for path in sorted(set(_files(file))):
        named = path.relative_to(file.root) if path.is_relative_to(file.root) else path
        h.update(named.as_posix().encode() + b"\0")  # models may live outside the folder
        h.update(path.read_bytes() + b"\0")
    return "sha256:" + h.hexdigest()[:16]


def _files(file: ProjectFile) -> Iterator[Path]:
    yield file.path
    models = file.root / file.settings.semantic_models
    yield from ([models] if models.is_file() else
                (p for p in models.rglob("*") if p.suffix in (".yml", ".yaml", ".json")))
    if file.settings.governance:
        yield file.root / file.settings.governance
    yield from _dbt_files(file)


def _dbt_files(file: ProjectFile) -> Iterator[Path]:
    """In a dbt project, the files `ref()` resolves by besides the models: dbt_project.yml, the
    profiles.yml dbt reads (a target's schema) and the macros (generate_schema_name)."""
    from showwork.semantic_layer.dbt_project import profiles_file

    if not is_dbt_project(file.root):
        return
    try:
        dbt = read_dbt_project(file.root)
    except SemanticError:
        return  # loading the model names the problem
    yield dbt.root / DBT_PROJECT_FILE
    spec = (file.settings.warehouse or {}).get("dbt_profile") or {}
    with contextlib.suppress(SemanticError):  # none: opening the warehouse names where dbt looked
        yield profiles_file(dbt, spec.get("profiles_dir") if isinstance(spec, dict) else None)
    for folder in dbt.macro_paths:
        if (dbt.root / folder).is_dir():
            yield from sorted(p for p in (dbt.root / folder).rglob("*") if p.is_file())


def _load_model(path: Path) -> SemanticModelFile:
    """Read and validate the model (a cache miss: the reader, sqlglot and dbt-semantic-interfaces
    load only here)."""
    from showwork.semantic_layer.project import load_project

    return load_project(path)


def _check_paths(file: ProjectFile) -> None:
    s = file.settings
    paths = [("semantic_models", s.semantic_models), ("governance", s.governance),
             ("questions", s.questions)]
    problems = [f"{file.where(key)}: {key}: {value} does not exist ({(file.root / value)})"
                for key, value in paths if value and not (file.root / value).exists()]
    if problems:
        raise ProjectError("\n".join(problems))


# -- warehouses ---------------------------------------------------------------------------------
def _open_layer(project: Project, limits: Limits) -> SemanticLayer:
    """The layer on the warehouse engine; DuckDB files directly until semantic_layer.engines
    lands."""
    from showwork.semantic_layer import SemanticLayer

    spec = project.warehouse()
    if "dbt_profile" in spec:  # the connection dbt's profiles.yml gives the project
        spec = warehouse_of(read_dbt_project(project.root), spec["dbt_profile"] or {})
    _check_local(project, spec)
    try:
        from showwork.semantic_layer.engines import open_engine
    except ImportError:
        return _duckdb_layer(project, spec, limits)
    engine = open_engine(spec, project.root, limits, project=project.name)
    try:  # the layer checks the model's tables and columns against the engine's
        # `engine=` as a mapping: the same code type-checks before and after the engines land
        options: dict[str, Any] = {"engine": engine, "checked": _checked(project, spec, engine),
                                   "prepared": _prepared(project, spec)}
        return SemanticLayer(_inferred(project, spec, engine, limits), limits=limits, **options)
    except BaseException:
        engine.close()
        raise


def _inferred(project: Project, spec: dict[str, Any], engine: Any, limits: Limits
              ) -> SemanticModelFile:
    """The model with what governance leaves out (coverage, member lists) inferred from the
    warehouse, cached by the model and the warehouse's fingerprint (harness/cache.py): a warm
    start reads no table, however large."""
    from showwork.harness import cache
    from showwork.semantic_layer.infer import infer_from_engine, needs_inference

    if not needs_inference(project.model):
        return project.model
    entry = _warehouse_key(project, spec)
    if entry is None:  # a server: its data may change unseen, so infer every time
        return infer_from_engine(project.model, engine, limits)
    return cache.get("inferred", entry, lambda: infer_from_engine(project.model, engine, limits))


def _checked(project: Project, spec: dict[str, Any], engine: Any) -> Any:
    """The model checked against the warehouse's tables and columns (semantic_layer.layer's
    WarehouseCheck), cached like the inferred model: a warm start lists no table and parses no
    expr."""
    from showwork.harness import cache
    from showwork.semantic_layer.layer import inspect_warehouse

    def build() -> Any:
        return inspect_warehouse(project.model, engine.tables())

    entry = _warehouse_key(project, spec)
    return build() if entry is None else cache.get("checked", entry, build)


def _prepared(project: Project, spec: dict[str, Any]) -> Callable[..., Any] | None:
    """The layer's store of prepared calls (each call's SQL and how to type its rows), kept like
    the inferred model it was prepared on: a question asked before compiles nothing and loads no
    sqlglot. Its rows are read afresh every time; a server's layer keeps its calls in memory."""
    from showwork.harness import cache

    entry = _warehouse_key(project, spec)
    if entry is None:
        return None

    def store(key: tuple[str, ...], build: Callable[[], Any]) -> Any:
        return cache.get("prepared", cache.key(entry, *key), build)

    return store


def _warehouse_key(project: Project, spec: dict[str, Any]) -> str | None:
    """The cache key of what the model and a local warehouse determine; None for a server."""
    from showwork.harness import cache

    fingerprint = cache.warehouse_fingerprint(spec, project.root)
    if fingerprint is None:
        return None
    return cache.key(project.digest, cache.code_digest(), fingerprint, str(project.root.resolve()))


def _check_local(project: Project, spec: dict[str, Any]) -> None:
    """A warehouse file or folder named in showwork.yaml exists (said with its line)."""
    for kind, wanted in (("duckdb", Path.is_file), ("files", Path.is_dir)):
        path = project.root / spec[kind] if kind in spec else None
        if path is not None and not wanted(path):
            raise ProjectError(f"{project.file.where('warehouse')}: warehouse.{kind}: {path} "
                               "does not exist; build or copy the warehouse there, or fix the "
                               "path.")


def _duckdb_layer(project: Project, spec: dict[str, Any], limits: Limits) -> SemanticLayer:
    if "duckdb" not in spec:
        kind = next(iter(spec))
        raise ProjectError(f"{project.file.where('warehouse')}: a {kind} warehouse needs the "
                           "warehouse engines (semantic_layer.engines), which this install does "
                           "not have yet; use warehouse: {duckdb: FILE}.")
    from showwork.semantic_layer import SemanticLayer

    path = project.root / spec["duckdb"]
    project.check_tables(lambda: duckdb_tables(path, limits))
    return SemanticLayer(project.model, path, limits)


def duckdb_tables(path: Path, limits: Limits) -> dict[str, list[tuple[str, str]]]:
    """Every table of a DuckDB file's main schema with its columns and types."""
    from showwork.semantic_layer.execute import connect

    con = connect(path, limits)
    try:
        rows = con.execute("SELECT table_name, column_name, data_type FROM "
                           "information_schema.columns WHERE table_schema = 'main' "
                           "ORDER BY table_name, ordinal_position").fetchall()
    finally:
        con.close()
    tables: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in rows:
        tables.setdefault(str(table), []).append((str(column), str(kind)))
    return tables


def missing_columns(model: SemanticModelFile, tables: dict[str, list[tuple[str, str]]]
                    ) -> list[str]:
    """Each table or column the model reads that the warehouse lacks, named where it is used:
    the semantic layer's own check where it has one, else the same check here."""
    layer_check = getattr(import_module("showwork.semantic_layer.layer"), "warehouse_problems", None)
    if layer_check is None:  # until the engines' check lands in the semantic layer
        return _missing_columns(model, tables)
    return list(layer_check(model, tables))


def _missing_columns(model: SemanticModelFile, tables: dict[str, list[tuple[str, str]]]
                     ) -> list[str]:
    problems = []
    for sm in model.semantic_models:
        where = f"{sm.origin}: semantic model {sm.name!r}"
        found = _find_table(tables, sm.table)
        if found is None:
            problems.append(f"{where} reads table {sm.table!r}, which the warehouse lacks; its "
                            f"tables: {', '.join(sorted(tables)) or 'none'}")
            continue
        columns = {c.lower() for c, _ in found}
        for kind, name, expr in _exprs(sm):
            for column in sorted(_columns(expr) - columns):
                problems.append(f"{where}, {kind} {name!r}: column {column!r} is not in table "
                                f"{sm.table!r}; its columns: {', '.join(c for c, _ in found)}")
    return problems


def _find_table(tables: dict[str, list[tuple[str, str]]], table: str
                ) -> list[tuple[str, str]] | None:
    """A table's columns by name, in any case, with or without a schema before it."""
    wanted = table.lower()
    return next((cols for name, cols in tables.items()
                 if name.lower() == wanted or name.lower().rsplit(".", 1)[-1] == wanted), None)


def _exprs(sm: Any) -> Iterator[tuple[str, str, str]]:
    yield from (("entity", e.name, e.expr) for e in sm.entities)
    yield from (("dimension", d.name, d.expr) for d in sm.dimensions)
    yield from (("measure", m.name, m.expr) for m in sm.measures)


def _columns(expr: str) -> set[str]:
    from sqlglot import exp

    from showwork.semantic_layer.sql import parse_trusted

    return {c.name.lower() for c in parse_trusted(expr).find_all(exp.Column)}


def sql_rows(layer: SemanticLayer) -> Rows:
    """Hand-written SQL (gold queries, in DuckDB's dialect) on the layer's warehouse, whatever
    its engine, under the layer's limits."""
    return layer.run_sql
