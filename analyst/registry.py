"""--model specs → clients: rules, noisy:rules?…, openai:MODEL, replay:PATH[#attempt]."""

from __future__ import annotations

from analyst.client import ModelClient
from analyst.errors import ModelSpecError

KNOWN = "rules, noisy:rules?fault_rate=F&fix_rate=R&seed=N, openai:MODEL, replay:PATH[#attempt]"


def make_client(spec: str) -> ModelClient:
    spec = spec.strip()
    if spec == "rules":
        from analyst.rules import RulesClient

        return RulesClient()
    if spec.startswith("noisy:"):
        from analyst.noisy import NoisyClient

        return NoisyClient.from_spec(spec)
    if spec.startswith("openai:") and len(spec) > len("openai:"):
        from analyst.openai_client import OpenAIClient

        return OpenAIClient(spec.removeprefix("openai:"))
    if spec.startswith("replay:") and len(spec) > len("replay:"):
        from analyst.replay import ReplayClient

        path, _, attempt = spec.removeprefix("replay:").partition("#")
        return ReplayClient(path, attempt or None)
    raise ModelSpecError(f"Unknown model {spec!r}; use one of: {KNOWN}.")
