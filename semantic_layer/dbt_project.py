"""A dbt project folder as it is (DESIGN.md, "Projects"): `dbt_project.yml` names the model paths
and the profile; the semantic models and metrics are the dbt YAML in those paths (or, when they
hold none, `target/semantic_manifest.json`); the connection is the profile's target in
`profiles.yml`, mapped to a warehouse engine.

profiles.yml is found as dbt finds it: DBT_PROFILES_DIR, else the project folder, else the
current folder, else ~/.dbt. Its values may call `env_var('NAME')` or `env_var('NAME', 'default')`
(optionally `| int` or `| as_number`), as dbt reads them; any other Jinja is refused, naming the
file and the key. A secret the profile holds (a password, a token) is wrapped in `Secret`, whose
text never prints.

A model's relation is where dbt builds it for that target (`placement`): the target's schema, or
`<target schema>_<custom>` for a model configured with a custom schema (dbt's default
`generate_schema_name`, or a project's override that uses the custom schema as it is), named by
its alias; the same in the YAML a project holds and in dbt's semantic manifest.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showwork.semantic_layer.errors import ModelError, WarehouseSpecError

if TYPE_CHECKING:
    from showwork.semantic_layer.dbt_yaml import RawManifest

PROJECT_FILE = "dbt_project.yml"
PROFILES_FILE = "profiles.yml"
ENV_VAR = re.compile(r"""\{\{\s*env_var\(\s*(['"])(?P<name>[^'"]+)\1"""
                     r"""\s*(?:,\s*(['"])(?P<default>.*?)\3\s*)?\)\s*(?:\|\s*(?P<filter>int|as_number|as_text|string|as_bool)\s*)?\}\}""")
SECRET_KEYS = ("password", "pass", "token", "private_key", "private_key_passphrase", "keyfile_json",
               "client_secret", "access_token")
"""Profile keys whose values are credentials (dbt adapters' names for them)."""


class Secret(str):
    """A credential read from a profile: usable as its text, printed as ***."""

    def __repr__(self) -> str:
        return "Secret('***')"


@dataclass(frozen=True)
class DbtProject:
    """What showwork reads of dbt_project.yml."""

    root: Path
    name: str
    profile: str | None
    model_paths: tuple[str, ...]
    target_path: str
    models_config: Mapping[str, Any] = field(default_factory=dict)
    """dbt_project.yml's `models:` configuration tree."""
    macro_paths: tuple[str, ...] = ("macros",)

    @property
    def manifest(self) -> Path:
        return self.root / self.target_path / "semantic_manifest.json"

    def other_model_paths(self, path: Path) -> tuple[Path, ...]:
        """The project's model paths beside `path` (one of them), which dbt reads too: none
        when `path` is not one of its model paths."""
        paths = [(self.root / rel).resolve() for rel in self.model_paths]
        if path.resolve() not in paths:
            return ()
        return tuple(p for p in dict.fromkeys(paths) if p != path.resolve() and p.is_dir())

    def semantic_source(self) -> Path:
        """The dbt YAML (the first model path holding semantic models), else the manifest, else
        the first model path (or the folder itself when there is none)."""
        from showwork.semantic_layer.dbt_yaml import read_dbt_yaml

        for rel in self.model_paths:
            path = self.root / rel
            if path.exists() and read_dbt_yaml(path).semantic_models:
                return path
        if self.manifest.is_file():
            return self.manifest
        first = self.root / self.model_paths[0]
        # YAML kept beside dbt_project.yml with no model folder (as a test fixture keeps it)
        return first if first.exists() else self.root


def is_dbt_project(path: Path) -> bool:
    return (path / PROJECT_FILE).is_file() if path.is_dir() else path.name == PROJECT_FILE


def read_dbt_project(path: Path) -> DbtProject:
    """dbt_project.yml (the file or its folder) read; ModelError naming the file if malformed."""
    file = path / PROJECT_FILE if path.is_dir() else path
    data = _yaml(file)
    if not isinstance(data.get("name"), str):
        raise ModelError([f"{file}: a dbt project names itself (name: my_project)"])
    paths = data.get("model-paths", data.get("source-paths", ["models"]))
    if isinstance(paths, str):
        paths = [paths]
    macros = data.get("macro-paths") or ["macros"]
    return DbtProject(root=file.parent, name=data["name"], profile=_opt(data.get("profile")),
                      model_paths=tuple(str(p) for p in paths) or ("models",),
                      target_path=str(data.get("target-path") or "target"),
                      models_config=models if isinstance(models := data.get("models"), dict)
                      else {},
                      macro_paths=tuple(str(p) for p in ([macros] if isinstance(macros, str)
                                                         else macros)))


# -- profiles.yml -------------------------------------------------------------------------------
def profiles_file(project: DbtProject, folder: str | Path | None = None) -> Path:
    """profiles.yml where dbt looks for it; WarehouseSpecError listing where it looked."""
    tried = [Path(folder)] if folder else []
    if os.environ.get("DBT_PROFILES_DIR"):
        tried.append(Path(os.environ["DBT_PROFILES_DIR"]))
    tried += [project.root, Path.cwd(), Path.home() / ".dbt"]
    for place in tried:
        if (place.expanduser() / PROFILES_FILE).is_file():
            return place.expanduser() / PROFILES_FILE
    raise WarehouseSpecError(f"dbt project {project.name}: no {PROFILES_FILE} in "
                             f"{', '.join(str(p) for p in dict.fromkeys(tried))}; set "
                             "DBT_PROFILES_DIR or add the file.")


def profile_target(project: DbtProject, profile: str | None = None, target: str | None = None,
                   folder: str | Path | None = None) -> tuple[str, dict[str, Any]]:
    """(where, the target's settings with env_var() rendered) of the profile the project names."""
    file, name, wanted, output = _target(project, profile, target, folder)
    where = f"{file}: {name}.outputs.{wanted}"
    settings = {str(k): _render(v, file, f"{name}.outputs.{wanted}.{k}", str(k) in SECRET_KEYS)
                for k, v in output.items()}
    return where, settings


def _target(project: DbtProject, profile: str | None, target: str | None,
            folder: str | Path | None) -> tuple[Path, str, str, Mapping[str, Any]]:
    """(profiles.yml, the profile's name, the target's name, its unrendered settings)."""
    file = profiles_file(project, folder)
    profiles = _yaml(file)
    name = profile or project.profile or project.name
    chosen = profiles.get(name)
    if not isinstance(chosen, Mapping):
        raise WarehouseSpecError(f"{file}: no profile {name!r} (dbt_project.yml's profile:); "
                                 f"profiles: {', '.join(k for k in profiles if k != 'config')}.")
    outputs = chosen.get("outputs") or {}
    wanted = target or os.environ.get("DBT_TARGET") or _render(chosen.get("target"), file,
                                                               f"{name}.target")
    if not wanted or wanted not in outputs or not isinstance(outputs[wanted], Mapping):
        raise WarehouseSpecError(f"{file}: profile {name!r} has no target {wanted!r}; targets: "
                                 f"{', '.join(outputs) or 'none'}.")
    return file, name, str(wanted), outputs[wanted]


def warehouse_of(project: DbtProject, spec: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The engine spec (as showwork.yaml's `warehouse:`) of the project's dbt profile target;
    `spec` is `dbt_profile: {profile, target, profiles_dir}`, each optional."""
    spec = spec or {}
    unknown = sorted(set(spec) - {"profile", "target", "profiles_dir"})
    if unknown:
        raise WarehouseSpecError(f"warehouse.dbt_profile: unknown key {unknown[0]!r}; supported: "
                                 "profile, target, profiles_dir.")
    where, t = profile_target(project, spec.get("profile"), spec.get("target"),
                              spec.get("profiles_dir"))
    kind = str(t.get("type") or "")
    mapper = MAPPERS.get(kind)
    if mapper is None:
        raise WarehouseSpecError(f"{where}: type {kind!r} is not a warehouse showwork reads; "
                                 f"supported: {', '.join(MAPPERS)}.")
    return mapper(t, project.root)


def _duckdb(t: dict[str, Any], root: Path) -> dict[str, Any]:
    """dbt-duckdb opens `path` as it is, so a relative path is relative to where dbt runs: the
    project folder (where dbt finds dbt_project.yml), else the current folder (dbt run there
    with --project-dir) when the file is there only."""
    raw = str(t.get("path") or ":memory:")
    if raw == ":memory:" or raw.split(":", 1)[0] in ("md", "motherduck"):
        raise WarehouseSpecError(f"dbt-duckdb path {raw!r}: showwork reads a DuckDB file dbt "
                                 "built (an in-memory or MotherDuck database is not one); set "
                                 "`path:` to the file.")
    path = Path(raw).expanduser()
    if path.is_absolute():
        return {"duckdb": str(path)}
    here = Path.cwd() / path
    return {"duckdb": str(here if not (root / path).exists() and here.is_file() else root / path)}


def _postgres(t: dict[str, Any], root: Path) -> dict[str, Any]:
    spec: dict[str, Any] = {k: t[k] for k in ("host", "port", "user", "sslmode", "connect_timeout")
                            if t.get(k) is not None}
    if t.get("dbname") or t.get("database"):
        spec["dbname"] = t.get("dbname") or t.get("database")
    if t.get("schema"):
        spec["schema"] = t["schema"]
    secret = t.get("password", t.get("pass"))
    if secret is not None:
        spec["password"] = Secret(secret)
    return {"postgres": spec}


def _snowflake(t: dict[str, Any], root: Path) -> dict[str, Any]:
    spec: dict[str, Any] = {k: t[k] for k in ("account", "user", "warehouse", "database",
                                              "schema", "role", "authenticator") if t.get(k)}
    if t.get("password") is not None:
        spec["password"] = Secret(t["password"])
    if t.get("private_key") is not None:
        spec["private_key"] = Secret(t["private_key"])
    return {"snowflake": spec}


def _bigquery(t: dict[str, Any], root: Path) -> dict[str, Any]:
    spec: dict[str, Any] = {"project": t.get("project") or t.get("database")}
    for key, theirs in (("dataset", "dataset"), ("dataset", "schema"), ("location", "location")):
        if t.get(theirs) and key not in spec:
            spec[key] = t[theirs]
    keyfile = t.get("keyfile_json")
    if keyfile is None and t.get("keyfile"):
        path = Path(str(t["keyfile"])).expanduser()
        keyfile = (path if path.is_absolute() else root / path).read_text(encoding="utf-8")
    if keyfile is not None:
        import json

        spec["credentials"] = Secret(keyfile if isinstance(keyfile, str) else json.dumps(
            dict(keyfile)))
    return {"bigquery": spec}


def _databricks(t: dict[str, Any], root: Path) -> dict[str, Any]:
    spec: dict[str, Any] = {k: t[k] for k in ("host", "http_path", "catalog", "schema")
                            if t.get(k)}
    if t.get("token") is not None:
        spec["token"] = Secret(t["token"])
    return {"databricks": spec}


MAPPERS = {"duckdb": _duckdb, "postgres": _postgres, "snowflake": _snowflake,
           "bigquery": _bigquery, "databricks": _databricks}
"""dbt adapter type → showwork engine spec."""


# -- where dbt builds a model --------------------------------------------------------------------
RELATION_KEYS = ("schema", "alias", "database")
"""The configs that place a model's relation."""
_SQL_CONFIG = re.compile(r"\{\{\s*config\((?P<args>.*?)\)\s*\}\}", re.S)
_KWARG = re.compile(r"""\b(?P<key>schema|alias|database)\s*=\s*(['"])(?P<value>[^'"]*)\2""")
_SCHEMA_MACRO = re.compile(r"\{%-?\s*macro\s+generate_schema_name\s*\(.*?\{%-?\s*endmacro",
                           re.S)


@dataclass(frozen=True)
class Placement:
    """Where dbt builds a project's models for one target, and the schema the warehouse engine
    reads bare table names in."""

    schema: str | None
    """The target's schema (None: no profile to read it from)."""
    target: str
    """The target's name (`generate_schema_name_for_env` reads it)."""
    default_schema: str | None
    """The engine's default schema: a relation there is named bare."""
    macro: str | None = None
    """The project's own `generate_schema_name` macro (its Jinja source), if it has one."""
    origin: str = ""
    """Where that macro is (for messages)."""

    def schema_of(self, custom: str | None, model: str = "") -> str | None:
        """The schema dbt's generate_schema_name gives a model configured with `custom` (or
        none): the project's own macro rendered as dbt renders it, else dbt's default."""
        if self.macro is not None and self.schema is not None:
            return _render_schema_macro(self, custom, model)
        if not custom or not custom.strip():
            return self.schema
        return f"{self.schema}_{custom.strip()}" if self.schema else custom.strip()

    def bare(self, schema: str | None) -> str:
        """A relation's schema as the model names it: empty in the engine's default schema."""
        if not schema or (self.default_schema and schema.lower() == self.default_schema.lower()):
            return ""
        return schema


def default_schema(spec: Mapping[str, Any] | None) -> str | None:
    """The schema a warehouse spec's engine reads bare table names in (None: unknown)."""
    if not isinstance(spec, Mapping) or len(spec) != 1:
        return None
    ((kind, value),) = spec.items()
    if kind in ("duckdb", "files"):
        return "main"
    if not isinstance(value, Mapping):
        return None
    if kind == "postgres":
        return str(value.get("schema") or "public")
    return _opt(value.get("dataset" if kind == "bigquery" else "schema"))


def target_schema(settings: Mapping[str, Any]) -> str | None:
    """The schema a dbt target builds into, as its adapter names it."""
    kind = str(settings.get("type") or "")
    value = settings.get("schema") or (settings.get("dataset") if kind == "bigquery" else None)
    return str(value) if value else ("main" if kind == "duckdb" else None)


def placement(project: DbtProject, warehouse: Mapping[str, Any] | None) -> Placement:
    """Where dbt builds the project's models for the target showwork reads, and the schema its
    engine names bare: the dbt profile's target (showwork.yaml's `warehouse: {dbt_profile: …}`,
    the default for a dbt project) or showwork.yaml's own warehouse."""
    via_profile = warehouse is None or "dbt_profile" in warehouse
    options = ((warehouse or {}).get("dbt_profile") or {}) if via_profile else {}
    try:
        file, name, target, output = _target(project, options.get("profile"),
                                             options.get("target"), options.get("profiles_dir"))
        # only what places a relation is rendered: a secret's env_var may be unset here
        settings = {k: _render(output.get(k), file, f"{name}.outputs.{target}.{k}")
                    for k in ("type", "schema", "dataset")}
    except WarehouseSpecError:  # no profile: the warehouse step says so when it opens one
        return Placement(None, "", None if via_profile else default_schema(warehouse))
    schema = target_schema(settings)
    # the engine a profile opens reads bare names in the target's schema (warehouse_of), a
    # DuckDB file in its main schema
    engine = ("main" if settings["type"] == "duckdb" else
              schema or ("public" if settings["type"] == "postgres" else None))
    macro, origin = _schema_macro(project)
    return Placement(schema, target, engine if via_profile else default_schema(warehouse),
                     macro, origin)


def place(raw: RawManifest, project: DbtProject, warehouse: Mapping[str, Any] | None) -> None:
    """Each semantic model's and time spine's relation where dbt builds it (a `ref()` read from
    the YAML: the model's schema and alias configs for the target), named bare in the engine's
    default schema; a manifest's relations, placed by dbt already, only named so."""
    where = placement(project, warehouse)
    for obj in [*raw.semantic_models, *raw.time_spines]:
        relation = obj.get("node_relation")
        if not isinstance(relation, dict):
            continue
        schema = relation.get("schema_name")
        if not schema and where.schema is not None:
            name = str(relation.get("alias"))
            config = model_config(project, name, raw.model_properties.get(name, {}))
            schema = where.schema_of(config.get("schema"), name)
            relation["alias"] = config.get("alias", name)
        relation["schema_name"] = where.bare(schema)


def _schema_macro(project: DbtProject) -> tuple[str | None, str]:
    """The project's `generate_schema_name` macro (source, file), if it overrides dbt's."""
    for folder in project.macro_paths:
        base = project.root / folder
        for file in sorted(base.rglob("*.sql")) if base.is_dir() else []:
            match = _SCHEMA_MACRO.search(file.read_text(encoding="utf-8", errors="replace"))
            if match is not None:
                return match.group(0) + " %}", str(file)
    return None, ""


class _Returned(Exception):  # noqa: N818 - dbt's return(): the macro's value, not an error
    def __init__(self, value: Any) -> None:
        self.value = value


def _render_schema_macro(where: Placement, custom: str | None, model: str) -> str | None:
    """The project's generate_schema_name rendered in Jinja's sandbox with what dbt gives it
    (target.schema and .name, node.resource_type 'model', the custom schema, dbt's
    generate_schema_name_for_env and default__generate_schema_name); WarehouseSpecError naming
    the macro's file if it reads anything else."""
    from jinja2 import StrictUndefined, TemplateError
    from jinja2.sandbox import SandboxedEnvironment

    def default(custom_name: str | None, node: Any = None) -> str | None:
        return where.schema if custom_name is None else f"{where.schema}_{custom_name.strip()}"

    def for_env(custom_name: str | None, node: Any = None) -> str | None:
        return custom_name.strip() if where.target == "prod" and custom_name else where.schema

    def returned(value: Any) -> None:
        raise _Returned(value)

    env = SandboxedEnvironment(undefined=StrictUndefined, extensions=["jinja2.ext.do"])
    source = f"{where.macro}{{{{ generate_schema_name(custom, node) }}}}"
    context = {"target": {"schema": where.schema, "name": where.target},
               "node": {"resource_type": "model", "name": model, "unique_id": f"model.{model}"},
               "custom": custom, "return": returned, "log": lambda *a, **k: "",
               "generate_schema_name_for_env": for_env,
               "default__generate_schema_name": default}
    try:
        text = env.from_string(source).render(context)
    except _Returned as value:
        text = str(value.value)
    except (TemplateError, TypeError, AttributeError) as exc:
        raise WarehouseSpecError(f"{where.origin}: generate_schema_name reads what showwork "
                                 f"does not render ({exc}); name the schema in the models' "
                                 "config instead.") from exc
    return text.strip() or where.schema


def model_config(project: DbtProject, name: str, properties: Mapping[str, Any]
                 ) -> dict[str, str]:
    """A model's schema, alias and database configs as dbt resolves them: dbt_project.yml's
    `models:` tree along the model's folder, then its YAML properties' `config:`, then the
    `{{ config(...) }}` of its SQL file, each overriding the one before."""
    sql = _model_file(project, name)
    out = _tree_config(project, [*sql[1], name] if sql else [name])
    config = properties.get("config")
    if isinstance(config, Mapping):
        out.update({k: str(config[k]) for k in RELATION_KEYS if config.get(k)})
    if sql:
        for block in _SQL_CONFIG.finditer(sql[0].read_text(encoding="utf-8", errors="replace")):
            out.update({m.group("key"): m.group("value")
                        for m in _KWARG.finditer(block.group("args"))})
    return out


def _model_file(project: DbtProject, name: str) -> tuple[Path, list[str]] | None:
    """The model's SQL (or Python) file and its folders below the model path."""
    for rel in project.model_paths:
        base = project.root / rel
        for suffix in (".sql", ".py"):
            for file in sorted(base.rglob(f"{name}{suffix}")) if base.is_dir() else []:
                return file, list(file.relative_to(base).parts[:-1])
    return None


def _tree_config(project: DbtProject, path: list[str]) -> dict[str, str]:
    """dbt_project.yml's `models:` configs on the way to a model (its project, folders, name)."""
    out: dict[str, str] = {}
    level: Any = project.models_config
    for step in [project.name, *path]:
        if not isinstance(level, Mapping):
            break
        for key in RELATION_KEYS:
            value = level.get(f"+{key}", level.get(key))
            if isinstance(value, str | int) and not isinstance(value, bool):
                out[key] = str(value)
        level = level.get(step)
    if isinstance(level, Mapping):  # the model's own entry
        out.update({k: str(level.get(f"+{k}", level.get(k))) for k in RELATION_KEYS
                    if isinstance(level.get(f"+{k}", level.get(k)), str)})
    return out


# -- rendering -----------------------------------------------------------------------------------
def _render(value: Any, file: Path, key: str, secret: bool = False) -> Any:
    """A profile value with env_var() calls replaced as dbt renders them."""
    if isinstance(value, Mapping):
        return {k: _render(v, file, f"{key}.{k}", secret) for k, v in value.items()}
    if not isinstance(value, str):
        return Secret(str(value)) if secret and value is not None else value
    out = value
    whole = ENV_VAR.fullmatch(value.strip())
    for m in ENV_VAR.finditer(value):
        name, default = m.group("name"), m.group("default")
        if name not in os.environ and default is None:
            raise WarehouseSpecError(f"{file}: {key}: env_var({name!r}) is not set and has no "
                                     "default; set the variable (dbt reads the same one).")
        out = out.replace(m.group(0), os.environ.get(name, default or ""), 1)
    if "{{" in out or "{%" in out:
        raise WarehouseSpecError(f"{file}: {key}: only env_var() is read in profiles.yml; "
                                 "render the rest (or set the value).")
    if whole and whole.group("filter") in ("int", "as_number"):
        try:
            return int(out)
        except ValueError as exc:
            raise WarehouseSpecError(f"{file}: {key}: {'***' if secret else repr(out)} is not "
                                     "a number.") from exc
    return Secret(out) if secret else out


def _yaml(file: Path) -> dict[str, Any]:
    import yaml  # here, not at import: a warm start reads the model from the cache

    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ModelError([f"{file}: {exc}"]) from exc
    if not isinstance(data, dict):
        raise ModelError([f"{file}: expected a mapping"])
    return data


def _opt(value: Any) -> str | None:
    return None if value is None else str(value)
