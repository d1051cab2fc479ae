"""Validate an example's dbt YAML with dbt-semantic-interfaces alone, as dbt itself would.

Runs without showwork: it needs only PyYAML and dbt-semantic-interfaces
(`pip install dbt-semantic-interfaces`). It takes the `semantic_models:` and `metrics:` blocks
of every YAML file under models/ (dbt's `models:` and `sources:` blocks are skipped), makes the
small step dbt-core makes before dbt-semantic-interfaces sees them (`model: ref('x')` becomes a
node_relation, string shorthands become objects), checks each object against
dbt-semantic-interfaces' JSON schemas, parses it with its pydantic types, and runs
`SemanticManifestValidator` on the manifest as dbt builds it and again after the transformations
MetricFlow applies when it loads one. Errors fail; warnings are printed.

    python examples/validate_models.py examples/shop/models      # exit 0 when valid
    python examples/validate_models.py examples/flights/models
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

_REF = re.compile(r"""^\s*ref\(\s*['"]([^'"]+)['"]\s*\)\s*$""")


def read_objects(folder: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(semantic models, metrics) of every YAML file under `folder`, in dbt's list form."""
    models: list[dict[str, Any]] = []
    metrics: list[dict[str, Any]] = []
    for path in sorted(folder.rglob("*.y*ml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        models += [_semantic_model(sm) for sm in doc.get("semantic_models") or []]
        metrics += [_metric(m) for m in doc.get("metrics") or []]
    return models, metrics


def _semantic_model(sm: dict[str, Any]) -> dict[str, Any]:
    sm = dict(sm)
    match = _REF.match(str(sm.pop("model", "")))
    if not match:
        raise SystemExit(f"semantic model {sm.get('name')!r}: model: expects ref('<table>')")
    sm["node_relation"] = {"alias": match.group(1), "schema_name": "main",
                           "relation_name": match.group(1)}
    return sm


def _metric(m: dict[str, Any]) -> dict[str, Any]:
    m = dict(m)
    params = dict(m.get("type_params") or {})
    for key in ("numerator", "denominator"):
        if isinstance(params.get(key), str):
            params[key] = {"name": params[key]}
    if isinstance(params.get("metrics"), list):
        params["metrics"] = [{"name": x} if isinstance(x, str) else x for x in params["metrics"]]
    m["type_params"] = params
    return m


def build_manifest(folder: Path) -> Any:
    """The folder's objects as a dbt-semantic-interfaces PydanticSemanticManifest."""
    from dbt_semantic_interfaces.implementations.metric import PydanticMetric
    from dbt_semantic_interfaces.implementations.project_configuration import (
        PydanticProjectConfiguration,
    )
    from dbt_semantic_interfaces.implementations.semantic_manifest import PydanticSemanticManifest
    from dbt_semantic_interfaces.implementations.semantic_model import PydanticSemanticModel
    from dbt_semantic_interfaces.parsing.schemas import metric_validator, semantic_model_validator

    models, metrics = read_objects(folder)
    for sm in models:
        semantic_model_validator.validate(sm)
    for m in metrics:
        metric_validator.validate(m)
    return PydanticSemanticManifest(
        semantic_models=[PydanticSemanticModel.parse_obj(sm) for sm in models],
        metrics=[PydanticMetric.parse_obj(m) for m in metrics],
        project_configuration=PydanticProjectConfiguration())


def validate(folder: Path) -> tuple[list[str], list[str]]:
    """(errors, warnings) on the manifest as built and, when that is valid, as transformed."""
    from dbt_semantic_interfaces.errors import ModelTransformError
    from dbt_semantic_interfaces.transformations.semantic_manifest_transformer import (
        PydanticSemanticManifestTransformer,
    )
    from dbt_semantic_interfaces.validations.semantic_manifest_validator import (
        SemanticManifestValidator,
    )

    manifest = build_manifest(folder)
    errors: list[str] = []
    warnings: list[str] = []
    for stage in ("as built", "transformed"):
        if stage == "transformed":
            if errors:
                break
            try:
                manifest = PydanticSemanticManifestTransformer.transform(manifest)
            except ModelTransformError as exc:
                errors.append(f"{stage}: {exc}")
                break
        results = SemanticManifestValidator().validate_semantic_manifest(manifest)
        errors += [f"{stage}: {' '.join(e.message.split())}" for e in results.errors]
        warnings += [f"{stage}: {' '.join(w.message.split())}" for w in results.warnings]
    return errors, warnings


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python examples/validate_models.py MODELS_DIR (e.g. examples/shop/models)",
              file=sys.stderr)
        return 2
    folder = Path(argv[0])
    manifest = build_manifest(folder)
    errors, warnings = validate(folder)
    for line in errors:
        print(f"error: {line}", file=sys.stderr)
    for line in warnings:
        print(f"warning: {line}", file=sys.stderr)
    if errors:
        return 1
    print(f"{folder}: {len(manifest.semantic_models)} semantic models and "
          f"{len(manifest.metrics)} metrics pass dbt-semantic-interfaces' validations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
