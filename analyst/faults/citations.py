"""Seeded faults, one kind per defect code: for the fault-injection corpus and `noisy`.

Works on plain answer dicts and a plain view of the results (handle → metrics, keys, rows), so it
needs nothing but the protocol. Each injector corrupts one chosen claim, or returns None when
that claim offers no place for its fault.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

from showwork.analyst.faults import numbers as number_faults
from showwork.protocol.numbers import Kind

Answer = dict[str, Any]
Results = dict[int, dict[str, Any]]
"""handle → {"metrics": [...], "keys": [...], "rows": [{"key": {...}}]}"""

_RESULT = re.compile(r"^r(\d+)(\[[^\]]*\])?:([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$")

Injector = Callable[[dict[str, Any], Results, random.Random], dict[str, Any] | None]


def is_measurement(claim: dict[str, Any]) -> bool:
    sources = claim.get("sources") or []
    return bool(sources) and isinstance(sources[0], str) and bool(_RESULT.match(sources[0]))


def is_argument(claim: dict[str, Any]) -> bool:
    return bool(claim.get("premises"))


def _source(claim: dict[str, Any], results: Results, rng: random.Random,
            edit: Callable[[re.Match, Results], str | None]) -> dict[str, Any] | None:
    if not is_measurement(claim):
        return None
    m = _RESULT.match(claim["sources"][0])
    assert m is not None
    new = edit(m, results)
    if new is None:
        return None
    return {**claim, "sources": [new, *claim["sources"][1:]]}


def _sel(m: re.Match) -> str:
    return m.group(2) or ""


def malformed_citation(claim, results, rng):
    return _source(claim, results, rng, lambda m, _r: m.group(0).replace(":", "::", 1))


def unknown_handle(claim, results, rng):
    missing = max(results, default=0) + rng.randint(1, 3)
    return _source(claim, results, rng,
                   lambda m, _r: f"r{missing}{_sel(m)}:{m.group(3)}.{m.group(4)}")


def unknown_field(claim, results, rng):
    bogus = rng.choice(["total", "pct", "value_pct", "mean"])
    return _source(claim, results, rng,
                   lambda m, _r: f"r{m.group(1)}{_sel(m)}:{m.group(3)}.{bogus}")


def unknown_row(claim, results, rng):
    def edit(m: re.Match, r: Results) -> str | None:
        keys = r.get(int(m.group(1)), {}).get("keys") or ["platform"]
        return f"r{m.group(1)}[{keys[0]}=nowhere]:{m.group(3)}.{m.group(4)}"
    return _source(claim, results, rng, edit)


def ambiguous_row(claim, results, rng):
    def edit(m: re.Match, r: Results) -> str | None:
        if not m.group(2) or len(r.get(int(m.group(1)), {}).get("rows", [])) < 2:
            return None
        return f"r{m.group(1)}:{m.group(3)}.{m.group(4)}"
    return _source(claim, results, rng, edit)


def value_mismatch(claim, results, rng):
    value = claim.get("value")
    if not is_measurement(claim) or not isinstance(value, int | float) or isinstance(value, bool):
        return None
    return {**claim, "value": round(value * rng.choice([1.5, 0.5, -1.0]) + rng.choice([7, -7]), 2)}


def unknown_premise(claim, results, rng, index: int = 1):
    if not is_argument(claim):
        return None
    premises = list(claim["premises"])
    premises[0] = rng.choice([f"c{index}", f"c{index + 1 + rng.randint(0, 5)}"])
    return {**claim, "premises": premises}


def mixed_support(claim, results, rng):
    if is_argument(claim):
        handle = min(results, default=1)
        metric = (results.get(handle, {}).get("metrics") or ["active_users"])[0]
        return {**claim, "sources": [f"r{handle}:{metric}.value"]}
    if is_measurement(claim):
        return {**claim, "premises": ["c1"]}
    return None


def no_support(claim, results, rng):
    if not (is_argument(claim) or is_measurement(claim)):
        return None
    return {**claim, "sources": None, "premises": None}


def unknown_statement(claim, results, rng):
    if not is_argument(claim):
        return None
    return {**claim, "premises": [*claim["premises"], rng.choice(
        ["tree:active_users>weekly_value_moments", "tree:new_users>mrr_usd"])]}


def _kinds(source: str) -> tuple[Kind, ...]:
    m = _RESULT.match(source)
    return ("percent",) if m and m.group(4) in ("pct_change", "share") else ("number", "fraction")


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def text_value_mismatch(claim, results, rng):
    """A number in a measurement claim's text changed; its citation and value left as they were."""
    value = claim.get("value")
    if not is_measurement(claim) or not _numeric(value) or not isinstance(claim.get("text"), str):
        return None
    for kind in _kinds(claim["sources"][0]):
        changed = number_faults.in_text(claim["text"], value, kind, rng)
        if changed is not None:
            return {**claim, "text": changed[0]}
    return None


INJECTORS: dict[str, Injector] = {
    "malformed_citation": malformed_citation, "unknown_handle": unknown_handle,
    "unknown_field": unknown_field, "unknown_row": unknown_row, "ambiguous_row": ambiguous_row,
    "value_mismatch": value_mismatch, "unknown_premise": unknown_premise,
    "mixed_support": mixed_support, "no_support": no_support,
    "unknown_statement": unknown_statement, "text_value_mismatch": text_value_mismatch,
}
"""Claim-level faults: each corrupts one claim."""

AnswerInjector = Callable[[Answer, Results, random.Random], Answer | None]


def unsupported_number(answer: Answer, results: Results, rng: random.Random,
                       places: tuple[str, ...] | None = None,
                       hows: tuple[str, ...] = number_faults.HOWS) -> Answer | None:
    """A number in the answer prose, the headline value or one listed value (a table answer's
    `values`) changed; the claims left alone. The places are tried in a random order.

    The prose and the headline are held to every value the answer states, so a number changed
    into another claim's value (a listed member's, say) is no unsupported number: it is not
    made.
    """
    where = places or NUMBER_PLACES
    for place in rng.sample(where, len(where)):
        changed = _NUMBER_PLACES[place](answer, rng, hows)
        if changed is not None:
            return changed
    return None


def _stated(answer: Answer) -> number_faults.Stated:
    """Each claim's stated value, in each unit its first source may carry."""
    return tuple((c["value"], kind) for c in answer.get("claims") or []
                 if is_measurement(c) and _numeric(c.get("value"))
                 for kind in _kinds(c["sources"][0]))


def _prose_number(answer: Answer, rng: random.Random, hows: tuple[str, ...]) -> Answer | None:
    text = answer.get("answer")
    if not isinstance(text, str):
        return None
    claims = [c for c in answer.get("claims") or [] if is_measurement(c) and _numeric(c.get("value"))]
    rng.shuffle(claims)
    avoid = _stated(answer)
    for claim in claims:
        for kind in _kinds(claim["sources"][0]):
            changed = number_faults.in_text(text, claim["value"], kind, rng, hows=hows,
                                            avoid=avoid)
            if changed is not None:
                return {**copy.deepcopy(answer), "answer": changed[0]}
    return None


def _headline_number(answer: Answer, rng: random.Random, hows: tuple[str, ...]) -> Answer | None:
    changed = number_faults.headline(answer.get("value"), rng, hows, _stated(answer))
    return None if changed is None else {**copy.deepcopy(answer), "value": changed[0]}


def _listed_number(answer: Answer, rng: random.Random, hows: tuple[str, ...]) -> Answer | None:
    changed = number_faults.listed(answer.get("values"), rng, hows)
    if changed is None:
        return None
    out = copy.deepcopy(answer)
    index, value, _how = changed
    out["values"][index]["value"] = value
    return out


_NUMBER_PLACES: dict[str, Callable[[Answer, random.Random, tuple[str, ...]], Answer | None]] = {
    "prose": _prose_number, "headline": _headline_number, "values": _listed_number}
NUMBER_PLACES = tuple(_NUMBER_PLACES)
"""Where an answer-level number fault goes: the prose, the headline value, a listed value."""


def unsupported_driver(answer: Answer, results: Results, rng: random.Random) -> Answer | None:
    """The driver set to another metric the results hold, one the argument never names."""
    driver = answer.get("driver")
    if not driver or not answer.get("claims"):
        return None
    argued = {driver} | {p.split(">")[-1] for c in answer["claims"] for p in c.get("premises") or []
                         if isinstance(p, str) and p.startswith("tree:")}
    others = sorted({m for r in results.values() for m in r.get("metrics", [])} - argued)
    if not others:
        return None
    causal = any(c.get("kind") == "causal" for c in answer["claims"])
    if not causal:  # with no causal claim, the driver must merely be cited: pick one that is not
        cited = {m.group(3) for c in answer["claims"] for s in c.get("sources") or []
                 if isinstance(s, str) and (m := _RESULT.match(s))}
        others = [m for m in others if m not in cited]
    return {**copy.deepcopy(answer), "driver": rng.choice(others)} if others else None


ANSWER_INJECTORS: dict[str, AnswerInjector] = {
    "unsupported_number": unsupported_number, "unsupported_driver": unsupported_driver,
}
"""Answer-level faults: the prose, the headline value, the driver."""


def inject_claim(answer: Answer, index: int, code: str, results: Results,
                 rng: random.Random) -> Answer | None:
    """Corrupt claim `index` (0-based) with a fault of kind `code`; None when it cannot."""
    claim = answer["claims"][index]
    if code == "unknown_premise":
        new = unknown_premise(claim, results, rng, index + 1)
    else:
        new = INJECTORS[code](claim, results, rng)
    if new is None:
        return None
    out = copy.deepcopy(answer)
    out["claims"][index] = new
    return out


def applicable(answer: Answer, index: int, results: Results) -> list[str]:
    """The fault kinds claim `index` can carry (checked by trying each on a scratch copy)."""
    probe = random.Random(0)
    return [code for code in INJECTORS
            if inject_claim(answer, index, code, results, probe) is not None]


def inject(answer: Answer, results: Results, code: str, rng: random.Random) -> Answer | None:
    """Corrupt a randomly chosen claim that can carry `code` (or the answer, for answer-level
    codes)."""
    if code in ANSWER_INJECTORS:
        return ANSWER_INJECTORS[code](answer, results, rng)
    claims = answer.get("claims") or []
    options = [i for i in range(len(claims)) if code in applicable(answer, i, results)]
    if not options:
        return None
    return inject_claim(answer, rng.choice(options), code, results, rng)
