"""`noisy:rules?fault_rate=F&fix_rate=R&seed=N` — a SIMULATOR, labelled as one everywhere.

It wraps `rules` and, seeded, corrupts each claim of an answer with probability F (a citation
fault of a kind the claim can carry, or — for measurement claims — a mislabelled metric in the
text, or a changed number in its text); with probability F each, a number in the answer prose or
the headline value is changed, and the driver is set to a metric the argument never names; a
diagnostic answer loses its argument (flat reasoning) with probability F. Handed a repair
message, it fixes each named faulty claim with probability R. It exists so the repair loop and
the scores can be exercised with no model at all.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from analyst.client import Request, Turn
from analyst.errors import ModelSpecError
from analyst.rules import RulesClient, outcomes_of, question_of
from protocol.catalog_text import MetricNames
from protocol.faults import ANSWER_INJECTORS, applicable, inject_claim

REPAIR = re.compile(r"^Repair round (\d+)")
NAMED = re.compile(r"^- Claim c(\d+)\b", re.MULTILINE)
ANSWER_LEVEL = re.compile(r"^- The (?:answer|headline)\b", re.MULTILINE)
"""A repair line about the prose, the headline value or the driver."""
ANSWER_FAULTS = {-2: "unsupported_number", -3: "unsupported_driver"}
"""Injection keys of the answer-level faults (-1 is flat reasoning)."""


@dataclass
class Injection:
    """What the simulator did to one answer (for measuring it, never shown to the audit)."""

    question: str
    round: int
    claims: int
    faults: dict[int, str] = field(default_factory=dict)
    """0-based claim index → defect code, or 'mislabelled_metric'; -1 flat reasoning, -2 a
    number in the prose or headline, -3 the driver."""


class NoisyClient:
    simulated = True

    def __init__(self, fault_rate: float = 0.2, fix_rate: float = 0.7, seed: int = 0) -> None:
        for name, rate in (("fault_rate", fault_rate), ("fix_rate", fix_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ModelSpecError(f"{name} must be between 0 and 1, got {rate}.")
        self.fault_rate, self.fix_rate, self.seed = fault_rate, fix_rate, seed
        self.name = f"noisy:rules?fault_rate={fault_rate:g}&fix_rate={fix_rate:g}&seed={seed}"
        self.inner = RulesClient()
        self.injections: list[Injection] = []

    @classmethod
    def from_spec(cls, spec: str) -> NoisyClient:
        base, _, query = spec.removeprefix("noisy:").partition("?")
        if base != "rules":
            raise ModelSpecError(f"noisy wraps the rules analyst only: use noisy:rules?…, got "
                                 f"{spec!r}.")
        params = {k: v[-1] for k, v in parse_qs(query).items()}
        unknown = set(params) - {"fault_rate", "fix_rate", "seed"}
        if unknown:
            raise ModelSpecError(f"Unknown noisy parameter(s) {sorted(unknown)}; use fault_rate, "
                                 "fix_rate and seed.")
        try:
            return cls(float(params.get("fault_rate", 0.2)), float(params.get("fix_rate", 0.7)),
                       int(params.get("seed", 0)))
        except ValueError as exc:
            raise ModelSpecError(f"Bad noisy parameter in {spec!r}: {exc}") from exc

    def complete(self, request: Request) -> Turn:
        turn = self.inner.complete(request)
        if turn.tool_calls or not turn.content:
            return turn
        clean = json.loads(turn.content)
        if not clean.get("claims"):
            return turn
        question = question_of(request.messages)
        results = _results_view(request.messages)
        answer, faults, clean = self._corrupt(clean, question, results,
                                              request.context["catalog"])
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
                                         dict(faults)))
        return Turn(json.dumps(answer), (), "stop")

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
            kinds = applicable(answer, index, results)
            if answer["claims"][index].get("sources"):
                kinds.append("mislabelled_metric")
            code = rng.choice(sorted(kinds)) if kinds else None
            if code == "mislabelled_metric":
                changed = _mislabel(answer["claims"][index], catalog, rng)
                if changed is not None:
                    answer["claims"][index] = changed
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
        answer["answer"], answer["value"] = clean["answer"], clean["value"]
    elif ANSWER_FAULTS.get(index) == "unsupported_driver":
        answer["driver"] = clean["driver"]


def _mislabel(claim: dict[str, Any], catalog: dict[str, Any], rng: random.Random
              ) -> dict[str, Any] | None:
    """Say another governed metric's label where the claim names the cited one."""
    spans = MetricNames(catalog).spans(claim["text"])
    if not spans:
        return None
    start, end, metric = spans[0]
    others = sorted(m for m in catalog["metrics"] if m != metric)
    label = catalog["metrics"][rng.choice(others)]["label"]
    return {**claim, "text": claim["text"][:start] + label.capitalize() + claim["text"][end:]}


def _results_view(messages: list[dict[str, Any]]) -> dict[int, Any]:
    return {o.handle: {"metrics": o.result.get("metrics", []), "keys": o.result.get("keys", []),
                       "rows": o.result.get("rows", [])}
            for o in outcomes_of(messages) if o.handle is not None and o.result is not None}
