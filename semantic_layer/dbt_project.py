"""A dbt project folder as it is (DESIGN.md, "Projects"): `dbt_project.yml` names the model paths
and the profile; the semantic models and metrics are the dbt YAML in those paths (or, when they
hold none, `target/semantic_manifest.json`); the connection is the profile's target in
`profiles.yml`, mapped to a warehouse engine.

profiles.yml is found as dbt finds it: DBT_PROFILES_DIR, else the project folder, else the
current folder, else ~/.dbt. Its values may call `env_var('NAME')` or `env_var('NAME', 'default')`
(optionally `| int` or `| as_number`), as dbt reads them; any other Jinja is refused, naming the
file and the key. A secret the profile holds (a password, a token) is wrapped in `Secret`, whose
text never prints.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from showwork.semantic_layer.errors import ModelError, WarehouseSpecError

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

    @property
    def manifest(self) -> Path:
        return self.root / self.target_path / "semantic_manifest.json"

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
    return DbtProject(root=file.parent, name=data["name"], profile=_opt(data.get("profile")),
                      model_paths=tuple(str(p) for p in paths) or ("models",),
                      target_path=str(data.get("target-path") or "target"))


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
    if not wanted or wanted not in outputs:
        raise WarehouseSpecError(f"{file}: profile {name!r} has no target {wanted!r}; targets: "
                                 f"{', '.join(outputs) or 'none'}.")
    where = f"{file}: {name}.outputs.{wanted}"
    settings = {str(k): _render(v, file, f"{name}.outputs.{wanted}.{k}", str(k) in SECRET_KEYS)
                for k, v in outputs[wanted].items()}
    return where, settings


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
    path = Path(str(t.get("path") or ":memory:")).expanduser()
    return {"duckdb": str(path if path.is_absolute() else root / path)}


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
