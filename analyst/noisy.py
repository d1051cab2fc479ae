"""`noisy:rules?fault_rate=F&fix_rate=R&seed=N&scope_rate=S` — a SIMULATOR, labelled as one
everywhere.

It wraps `rules` and, seeded, corrupts each claim of an answer with probability F (a citation
fault of a kind the claim can carry, a changed number in its text, or a label fault: its text
names another metric — for a causal claim another factor —, a neighbouring member or a
neighbouring period than it cites); with probability F each, a number in the answer prose, the
headline value or a listed value of a table answer is changed, and the driver is set to a metric
the argument never names; a diagnostic answer loses its argument (flat reasoning) with
probability F. With probability S
(default 0) it answers a neighbouring question instead of the one asked — another metric, the
window before, another member, or a plain level where a change, ranking, breakdown or series was
asked — honestly, through governed calls (a scope fault). Handed a repair message, it fixes each
named faulty claim with probability R. It exists so the repair loop, the audit's findings and
the scores can be exercised with no model at all.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from showwork.analyst.client import Request, Turn
from showwork.analyst.errors import ModelSpecError
from showwork.analyst.faults.citations import ANSWER_INJECTORS, applicable, inject_claim
from showwork.analyst.faults.findings import (
    label_fault,
    label_kinds,
    neighbour_question,
    scope_kinds,
)
from showwork.analyst.rules import RulesClient, question_of

REPAIR = re.compile(r"^Repair round (\d+)")
NAMED = re.compile(r"^- Claim c(\d+)\b", re.MULTILINE)
ANSWER_LEVEL = re.compile(r"^- (?:The (?:answer|headline)\b|answer\.values\[)", re.MULTILINE)
"""A repair line about the prose, the headline value, a listed value or the driver."""
ANSWER_FAULTS = {-2: "unsupported_number", -3: "unsupported_driver"}
"""Injection keys of the answer-level faults (-1 is flat reasoning)."""
MISLABEL = "mislabel"
"""The label faults' one place among a claim's fault kinds (mislabelled metric, member or
window, whichever the claim can carry)."""
SCOPE_KEY = -4
"""Injection key of a scope fault (the answer is about a neighbouring question)."""
PARAMS = ("fault_rate", "fix_rate", "seed", "scope_rate")


@dataclass
class Injection:
    """What the simulator did to one answer (for measuring it, never shown to the audit)."""

    question: str
    round: int
    claims: int
    faults: dict[int, str] = field(default_factory=dict)
    """0-based claim index → defect code or label finding code (mislabelled_metric, _member,
    _window); -1 flat reasoning, -2 a number in the prose, headline or listed values, -3 the
    driver, -4 a scope finding code (off_question_…)."""
    asked: str | None = None
    """The neighbouring question answered instead of `question` (a scope fault)."""


class NoisyClient:
    simulated = True

    def __init__(self, fault_rate: float = 0.2, fix_rate: float = 0.7, seed: int = 0,
                 scope_rate: float = 0.0) -> None:
        for name, rate in (("fault_rate", fault_rate), ("fix_rate", fix_rate),
                           ("scope_rate", scope_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ModelSpecError(f"{name} must be between 0 and 1, got {rate}.")
        self.fault_rate, self.fix_rate, self.seed = fault_rate, fix_rate, seed
        self.scope_rate = scope_rate
        self.name = (f"noisy:rules?fault_rate={fault_rate:g}&fix_rate={fix_rate:g}&seed={seed}"
                     + (f"&scope_rate={scope_rate:g}" if scope_rate else ""))
        self.inner = RulesClient()
        self.injections: list[Injection] = []
        self._asked: dict[str, tuple[str, str] | None] = {}

    @classmethod
    def from_spec(cls, spec: str) -> NoisyClient:
        base, _, query = spec.removeprefix("noisy:").partition("?")
        if base != "rules":
            raise ModelSpecError(f"noisy wraps the rules analyst only: use noisy:rules?…, got "
                                 f"{spec!r}.")
        params = {k: v[-1] for k, v in parse_qs(query).items()}
        unknown = set(params) - set(PARAMS)
        if unknown:
            raise ModelSpecError(f"Unknown noisy parameter(s) {sorted(unknown)}; use "
                                 f"{', '.join(PARAMS)}.")
        try:
            return cls(float(params.get("fault_rate", 0.2)), float(params.get("fix_rate", 0.7)),
                       int(params.get("seed", 0)), float(params.get("scope_rate", 0.0)))
        except ValueError as exc:
            raise ModelSpecError(f"Bad noisy parameter in {spec!r}: {exc}") from exc

    def complete(self, request: Request) -> Turn:
        question = question_of(request.messages)
        scope = self._scope_fault(question, request.context["catalog"])
        turn = self.inner.complete(_asking(request, scope[1]) if scope else request)
        if turn.tool_calls or not turn.content:
            return turn
        clean = json.loads(turn.content)
        if not clean.get("claims"):
            return turn
        results = _results_view(request.messages)
        answer, faults, clean = self._corrupt(clean, question, results,
                                              request.context["catalog"])
        if scope:
            faults[SCOPE_KEY] = scope[0]
        repairs = [m["content"] for m in request.messages
                   if m["role"] == "user" and REPAIR.match(m.get("content") or "")]
        for round_no, message in enumerate(repairs, 1):
            named = {int(n) - 1 for n in NAMED.findall(message)}
            if ANSWER_LEVEL.search(message):
                named |= set(ANSWER_FAULTS)
            rng = self._rng(question, f"fix-{round_no}")
            for index in sorted(faults):
                if index in named and rng.random() < self.fix_rate:
                    _fix(answer, clean, index)
                    del faults[index]
        self.injections.append(Injection(question, len(repairs), len(clean["claims"]),
                                         dict(faults), scope[1] if scope else None))
        return Turn(json.dumps(answer), (), "stop")

    def _scope_fault(self, question: str, catalog: dict[str, Any]) -> tuple[str, str] | None:
        """(scope finding code, the neighbouring question to answer), drawn once per question."""
        if question not in self._asked:
            rng = self._rng(question, "scope")
            found = None
            if rng.random() < self.scope_rate:
                kinds = scope_kinds(question, catalog)
                kind = rng.choice(kinds) if kinds else None
                asked = neighbour_question(question, kind, catalog, rng) if kind else None
                found = (kind, asked) if kind and asked else None
            self._asked[question] = found
        return self._asked[question]

    def _rng(self, question: str, salt: str) -> random.Random:
        digest = hashlib.sha256(f"{self.seed}|{question}|{salt}".encode()).hexdigest()
        return random.Random(int(digest[:16], 16))

    def _corrupt(self, clean: dict[str, Any], question: str, results: dict[int, Any],
                 catalog: dict[str, Any]
                 ) -> tuple[dict[str, Any], dict[int, str], dict[str, Any]]:
        """The corrupted answer, its faults, and the clean answer aligned with it claim by
        claim (flat reasoning drops the argument from both)."""
        rng = self._rng(question, "faults")
        answer = json.loads(json.dumps(clean))
        faults: dict[int, str] = {}
        for index in range(len(answer["claims"])):
            if rng.random() >= self.fault_rate:
                continue
            labels = label_kinds(answer, index, results, catalog)
            kinds = applicable(answer, index, results) + ([MISLABEL] if labels else [])
            code = rng.choice(sorted(kinds)) if kinds else None
            if code == MISLABEL:  # one draw for the label faults, as one for each defect kind
                code = rng.choice(labels)
                changed = label_fault(answer, index, code, results, catalog, rng)
                if changed is not None:
                    answer = changed
                    faults[index] = code
            elif code is not None:
                answer = inject_claim(answer, index, code, results, rng) or answer
                faults[index] = code
        for key, code in ANSWER_FAULTS.items():
            if rng.random() < self.fault_rate:
                changed = ANSWER_INJECTORS[code](answer, results, rng)
                if changed is not None:
                    answer, faults[key] = changed, code
        if clean.get("driver") and rng.random() < self.fault_rate:
            # flat reasoning: every number cited, the diagnosis never argued
            keep = [i for i, c in enumerate(clean["claims"]) if c["kind"] == "measurement"]
            if len(keep) < len(clean["claims"]):
                answer["claims"] = [answer["claims"][i] for i in keep]
                faults = {(keep.index(i) if i >= 0 else i): f for i, f in faults.items()
                          if i < 0 or i in keep}
                faults[-1] = "flat_reasoning"
                clean = {**clean, "claims": [clean["claims"][i] for i in keep]}
        return answer, faults, clean


def _fix(answer: dict[str, Any], clean: dict[str, Any], index: int) -> None:
    """Undo one fault: a claim, or the answer-level field the fault changed."""
    if index >= 0:
        answer["claims"][index] = clean["claims"][index]
    elif ANSWER_FAULTS.get(index) == "unsupported_number":
        for key in ("answer", "value", "values"):
            if key in clean:
                answer[key] = clean[key]
    elif ANSWER_FAULTS.get(index) == "unsupported_driver":
        answer["driver"] = clean["driver"]


def _asking(request: Request, question: str) -> Request:
    """The request with its question (the first user message) replaced."""
    messages = list(request.messages)
    at = next(i for i, m in enumerate(messages) if m["role"] == "user")
    messages[at] = {**messages[at], "content": question}
    return dataclasses.replace(request, messages=messages)


def _results_view(messages: list[dict[str, Any]]) -> dict[int, Any]:
    """handle → what its call returned (metrics, keys, rows, coverage, grain) and asked (where)."""
    asked = {c["id"]: c["function"]["arguments"] for m in messages if m["role"] == "assistant"
             for c in m.get("tool_calls") or []}
    out: dict[int, Any] = {}
    for m in messages:
        data = json.loads(m["content"]) if m["role"] == "tool" else {}
        handle = data.get("handle")
        if isinstance(handle, str) and handle.startswith("r"):
            out[int(handle[1:])] = {
                **{k: data.get(k) or [] for k in ("metrics", "keys", "rows", "coverage")},
                "grain": data.get("grain"), "where": _where(asked.get(m.get("tool_call_id")))}
    return out


def _where(arguments: str | None) -> list[Any]:
    try:
        decoded = json.loads(arguments or "{}")
    except json.JSONDecodeError:
        return []
    return decoded.get("where") or [] if isinstance(decoded, dict) else []
