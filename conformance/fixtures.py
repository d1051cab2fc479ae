"""MetricFlow's own test manifests (shipped in conformance/.venv with metricflow-semantics) load
unchanged in showwork exactly when dbt-semantic-interfaces finds them valid.

    python conformance/fixtures.py        # after conformance/run.py installed conformance/.venv

Each folder of metricflow_semantics/test_helpers/semantic_manifest_yamls is read as it is
(dbt-semantic-interfaces' YAML: one `semantic_model:` or `metric:` a document) by showwork, and
by the dbt-semantic-interfaces MetricFlow ships (parsed and validated in conformance/.venv, as
MetricFlow's tests load them). A manifest it finds valid must load; one it finds invalid must be
refused. A metric using what showwork does not compute yet loads and is refused when asked for:
those are counted by the feature named. Exits 1 on any disagreement.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

DSI_CHECK = """
import json, sys
from dbt_semantic_interfaces.parsing.dir_to_model import (
    parse_directory_of_yaml_files_to_semantic_manifest)
from dbt_semantic_interfaces.validations.semantic_manifest_validator import (
    SemanticManifestValidator)
out = {}
for folder in sys.argv[1:]:
    built = parse_directory_of_yaml_files_to_semantic_manifest(
        folder, template_mapping={"source_schema": "main"}, raise_issues_as_exceptions=False)
    found = SemanticManifestValidator().validate_semantic_manifest(built.semantic_manifest)
    out[folder] = [" ".join(i.message.split())[:160] for i in (*built.issues.errors, *found.errors)]
print(json.dumps(out))
"""
"""Each folder → dbt-semantic-interfaces' errors, run by the Python MetricFlow is installed in."""


def dsi_errors(folders: list[Path]) -> dict[str, list[str]]:
    python = HERE / ".venv" / "bin" / "python"
    done = subprocess.run([str(python), "-c", DSI_CHECK, *map(str, folders)], capture_output=True,
                          text=True, env={"DO_NOT_TRACK": "1", "PATH": "/usr/bin:/bin"})
    if done.returncode:
        sys.exit(f"dbt-semantic-interfaces could not check the manifests:\n{done.stderr[-2000:]}")
    return {Path(k).name: v for k, v in json.loads(done.stdout).items()}


def _feature(reason: str) -> str:
    """A refusal's feature without the file and names in it, to count alike ones together."""
    text = reason.split(" is not supported yet")[0].split("': ")[-1]
    return re.sub(r"'[^']*'", "'…'", text)[:100]


def main() -> int:
    from showwork.semantic_layer import load_model
    from showwork.semantic_layer.errors import ModelError

    found = sorted((HERE / ".venv" / "lib").glob(
        "python*/site-packages/metricflow_semantics/test_helpers/semantic_manifest_yamls"))
    if not found:
        sys.exit("MetricFlow is not installed in conformance/.venv (run conformance/run.py)")
    folders = sorted(p for p in found[0].iterdir() if p.is_dir() and p.name[0] != "_")
    theirs = dsi_errors(folders)
    wrong, loaded, unqueryable = 0, 0, Counter[str]()
    for folder in folders:
        errors = theirs[folder.name]
        try:
            model = load_model(folder)
        except ModelError as exc:
            ok = bool(errors)
            wrong += not ok
            print(f"{'refused' if ok else 'WRONG  '} {folder.name}: "
                  f"{' '.join(str(exc).split())[:140]}"
                  + (f"\n          dbt-semantic-interfaces too: {errors[0]}" if ok else
                     "\n          (dbt-semantic-interfaces finds it valid)"))
            continue
        wrong += bool(errors)
        loaded += 1
        unqueryable.update(_feature(why) for _, why in model.unsupported)
        note = f", {len(model.unsupported)} refused when asked" if model.unsupported else ""
        print(f"{'loads  ' if not errors else 'WRONG  '} {folder.name}: "
              f"{len(model.semantic_models)} semantic models, {len(model.metrics)} metrics{note}"
              + (f"\n          (dbt-semantic-interfaces: {errors[0]})" if errors else ""))
    if unqueryable:
        print("\nmetrics that load and are refused when asked, by the feature named:")
        for feature, n in unqueryable.most_common():
            print(f"  {n:>4}  {feature}")
    print(f"\n{len(folders)} manifests: {loaded} load, {len(folders) - loaded} refused; "
          + ("showwork and dbt-semantic-interfaces agree on each" if not wrong
             else f"{wrong} disagree"))
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
