"""The texts the golden traces hold: each record's question, and each round's prose and claim
texts (the prefilter tests read them as the unfiltered readers do)."""

from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[2] / "traces" / "golden"


def golden_texts() -> list[str]:
    out = []
    for path in sorted(GOLDEN.rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            out.append(record["question"]["text"])
            for r in record.get("rounds", []):
                answer = json.loads(r["answer_raw"]) if r.get("answer_raw") else {}
                if isinstance(answer, dict):
                    out.append(str(answer.get("answer", "")))
                    out += [str(c.get("text", "")) for c in answer.get("claims") or []
                            if isinstance(c, dict)]
    return out
