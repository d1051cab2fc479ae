"""Seeded citation faults, one per defect kind: for the fault-injection corpus and `noisy`.

Works on plain answer dicts and a plain view of the results (handle → metrics, fields, rows), so
it needs nothing but the protocol. Each injector returns the mutated answer, or None when the
answer offers no place for that fault.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

Answer = dict[str, Any]
Results = dict[int, dict[str, Any]]
"""handle → {"metrics": [...], "fields": [...], "keys": [...], "rows": [{"key": {...}}]}"""

_RESULT = re.compile(r"^r(\d+)(\[[^\]]*\])?:([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$")


def _measurements(answer: Answer) -> list[int]:
    return [i for i, c in enumerate(answer.get("claims") or [])
            if c.get("sources") and _RESULT.match(c["sources"][0])]


def _arguments(answer: Answer) -> list[int]:
    return [i for i, c in enumerate(answer.get("claims") or []) if c.get("premises")]


def _pick(rng: random.Random, options: list[int]) -> int | None:
    return rng.choice(options) if options else None


def _with_source(answer: Answer, rng: random.Random, edit: Callable[[re.Match], str | None]
                 ) -> Answer | None:
    i = _pick(rng, _measurements(answer))
    if i is None:
        return None
    out = copy.deepcopy(answer)
    m = _RESULT.match(out["claims"][i]["sources"][0])
    assert m is not None
    new = edit(m)
    if new is None:
        return None
    out["claims"][i]["sources"][0] = new
    return out


def malformed_citation(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    return _with_source(answer, rng, lambda m: m.group(0).replace(":", "::", 1))


def unknown_handle(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    missing = max(results, default=0) + rng.randint(1, 3)
    return _with_source(answer, rng, lambda m: f"r{missing}{m.group(2) or ''}:{m.group(3)}."
                                               f"{m.group(4)}")


def unknown_field(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    bogus = rng.choice(["total", "pct", "value_pct", "mean"])
    return _with_source(answer, rng, lambda m: f"r{m.group(1)}{m.group(2) or ''}:{m.group(3)}."
                                               f"{bogus}")


def unknown_row(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    def edit(m: re.Match) -> str | None:
        keys = results.get(int(m.group(1)), {}).get("keys") or ["platform"]
        return f"r{m.group(1)}[{keys[0]}=nowhere]:{m.group(3)}.{m.group(4)}"
    return _with_source(answer, rng, edit)


def ambiguous_row(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    def edit(m: re.Match) -> str | None:
        if not m.group(2) or len(results.get(int(m.group(1)), {}).get("rows", [])) < 2:
            return None
        return f"r{m.group(1)}:{m.group(3)}.{m.group(4)}"
    return _with_source(answer, rng, edit)


def value_mismatch(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    options = [i for i in _measurements(answer)
               if isinstance(answer["claims"][i].get("value"), int | float)]
    i = _pick(rng, options)
    if i is None:
        return None
    out = copy.deepcopy(answer)
    value = out["claims"][i]["value"]
    out["claims"][i]["value"] = round(value * rng.choice([1.5, 0.5, -1.0]) + rng.choice([7, -7]), 2)
    return out


def unknown_premise(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    i = _pick(rng, _arguments(answer))
    if i is None:
        return None
    out = copy.deepcopy(answer)
    out["claims"][i]["premises"][0] = rng.choice([f"c{i + 1}", f"c{i + 2 + rng.randint(0, 5)}"])
    return out


def mixed_support(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    i, j = _pick(rng, _arguments(answer)), _pick(rng, _measurements(answer))
    if i is None or j is None:
        return None
    out = copy.deepcopy(answer)
    out["claims"][i]["sources"] = list(answer["claims"][j]["sources"])
    return out


def no_support(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    claims = answer.get("claims") or []
    if not claims:
        return None
    out = copy.deepcopy(answer)
    i = rng.randrange(len(claims))
    out["claims"][i]["sources"], out["claims"][i]["premises"] = None, None
    return out


def unknown_statement(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    i = _pick(rng, _arguments(answer))
    if i is None:
        return None
    out = copy.deepcopy(answer)
    out["claims"][i]["premises"].append(rng.choice(["tree:active_users>weekly_value_moments",
                                                    "tree:new_users>mrr_usd"]))
    return out


INJECTORS: dict[str, Callable[[Answer, Results, random.Random], Answer | None]] = {
    "malformed_citation": malformed_citation, "unknown_handle": unknown_handle,
    "unknown_field": unknown_field, "unknown_row": unknown_row, "ambiguous_row": ambiguous_row,
    "value_mismatch": value_mismatch, "unknown_premise": unknown_premise,
    "mixed_support": mixed_support, "no_support": no_support,
    "unknown_statement": unknown_statement,
}


def inject(answer: Answer, results: Results, code: str, rng: random.Random) -> Answer | None:
    return INJECTORS[code](answer, results, rng)
