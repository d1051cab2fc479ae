"""MetricFlow's own test manifests (shipped in conformance/.venv with metricflow-semantics) load
unchanged in showwork, or are refused for a named, documented reason.

    python conformance/fixtures.py        # after conformance/run.py installed conformance/.venv

Each folder of metricflow_semantics/test_helpers/semantic_manifest_yamls is read as it is
(dbt-semantic-interfaces' YAML: one `semantic_model:` or `metric:` a document). Exits 1 when a
manifest loads that should not, or is refused for another reason than the one named below.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

REFUSED = {
    "config_linter_manifest": "does not define a primary entity",  # a linter's bad input
    "shared": "no semantic_models found",  # a project configuration only
    # a default time_granularity loads; read by a grain-less metric_time filter it does not yet
    "ambiguous_resolution_manifest": "a metric_time filter without a grain on a metric with a "
                                     "default time_granularity",
    "scd_manifest": "a slowly changing dimension",  # not supported yet
    "simple_manifest": "Invalid time granularity 'alien_day'",  # custom granularities: not yet
}


def main() -> int:
    from semantic_layer import load_model
    from semantic_layer.errors import ModelError

    found = sorted((HERE / ".venv" / "lib").glob(
        "python*/site-packages/metricflow_semantics/test_helpers/semantic_manifest_yamls"))
    if not found:
        sys.exit("MetricFlow is not installed in conformance/.venv (run conformance/run.py)")
    wrong = 0
    for folder in sorted(p for p in found[0].iterdir() if p.is_dir() and p.name[0] != "_"):
        expected = REFUSED.get(folder.name)
        try:
            model = load_model(folder)
        except ModelError as exc:
            ok = expected is not None and expected in str(exc)
            wrong += not ok
            print(f"{'refused' if ok else 'WRONG  '} {folder.name}: "
                  f"{' '.join(str(exc).split())[:160]}")
            continue
        wrong += expected is not None
        print(f"{'loads  ' if expected is None else 'WRONG  '} {folder.name}: "
              f"{len(model.semantic_models)} semantic models, {len(model.metrics)} metrics")
    print(f"\n{'all as expected' if not wrong else f'{wrong} not as expected'}")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
