"""Re-record the golden traces (only when a change to the audit or the trace is deliberate).

    .venv/bin/python tests/golden/record_traces.py

Runs the rules analyst and the noisy simulator on a fixed set of bundled questions against the
demo warehouse the tests cache, and writes them as one hash-chained traces file. The golden test
then holds every later version of the code to loading these lines and re-auditing them to the
audits stored in them.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from showwork.analyst.noisy import NoisyClient  # noqa: E402  (after the path is set)
from showwork.analyst.rules import RulesClient  # noqa: E402
from showwork.harness.experiments.attempt import run_attempt  # noqa: E402
from showwork.harness.experiments.questions import load_questions  # noqa: E402
from showwork.protocol.switches import Protocol  # noqa: E402
from showwork.semantic_layer import SemanticLayer, load_model  # noqa: E402
from showwork.semantic_layer import warehouse as demo_warehouse  # noqa: E402
from showwork.traces import TraceWriter  # noqa: E402

HERE = ROOT / "traces" / "golden"  # the golden traces are data of the traces package
PLAN = [
    ("rules", "claims+repair+rendered", ["lookup-001", "compare-002", "diag-001", "refuse-001"]),
    ("noisy", "claims", ["lookup-004", "lookup-007", "breakdown-001", "breakdown-002",
                         "breakdown-003", "breakdown-004", "compare-001", "compare-003",
                         "diag-002", "diag-004", "diag-005", "diag-007", "diag-009", "diag-010"]),
    ("noisy", "claims+repair", ["lookup-006", "diag-001", "diag-003"]),
]
NOISY_SEED = 16
"""Chosen so the noisy answers carry every defect code and the three findings the golden test
asks for (re-recording after a change to the simulator may need another seed)."""


def main() -> None:
    database = ROOT / ".showwork" / "test-cache" / (
        f"demo-v{demo_warehouse.GENERATOR_VERSION}-scale1-seed7.duckdb")
    if not database.exists():
        demo_warehouse.build(database, scale=1.0, seed=7)
    questions = {q.id: q for q in load_questions().questions}
    clients = {"rules": RulesClient(), "noisy": NoisyClient(0.25, 0.7, NOISY_SEED)}
    target = HERE / "traces.jsonl"
    for stale in (target, target.with_name("traces.manifest.json")):
        stale.unlink(missing_ok=True)
    writer = TraceWriter(target)
    layer = SemanticLayer(load_model(), database)
    try:
        for client, config, ids in PLAN:
            for qid in ids:
                record = run_attempt(questions[qid].question(), clients[client], layer,
                                     Protocol.parse(config))
                writer.append(record)
    finally:
        layer.close()
    print(f"{writer.count} golden traces written to {target}")


if __name__ == "__main__":
    main()
