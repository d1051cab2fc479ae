"""--model specs → clients: rules, noisy:rules?…, openai:MODEL, replay:PATH[#attempt]."""

from __future__ import annotations

from showwork.analyst.client import ModelClient
from showwork.analyst.errors import ModelSpecError

KNOWN = "rules, noisy:rules?fault_rate=F&fix_rate=R&seed=N, openai:MODEL, replay:PATH[#attempt]"


def make_client(spec: str) -> ModelClient:
    spec = spec.strip()
    if spec == "rules":
        from showwork.analyst.rules import RulesClient

        return RulesClient()
    if spec.startswith("noisy:"):
        from showwork.analyst.noisy import NoisyClient

        return NoisyClient.from_spec(spec)
    if spec.startswith("openai:") and len(spec) > len("openai:"):
        from showwork.analyst.openai_client import OpenAIClient

        return OpenAIClient(spec.removeprefix("openai:"))
    if spec.startswith("replay:") and len(spec) > len("replay:"):
        from showwork.analyst.replay import ReplayClient

        path, _, attempt = spec.removeprefix("replay:").partition("#")
        return ReplayClient(path, attempt or None)
    raise ModelSpecError(f"Unknown model {spec!r}; use one of: {KNOWN}.")
