"""The one interface every model client implements: openai:, rules, noisy:, replay:."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Usage:
    """Token usage of one model turn."""

    input_tokens: int = 0
    cached_tokens: int = 0
    """Input tokens served from the provider's prompt cache (a subset of input_tokens)."""
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input_tokens + other.input_tokens,
                     self.cached_tokens + other.cached_tokens,
                     self.output_tokens + other.output_tokens)


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str
    """Raw JSON text as the model sent it (it may be malformed)."""


@dataclass(frozen=True)
class Turn:
    """One model response."""

    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str = "stop"
    usage: Usage = field(default_factory=Usage)
    refusal: str | None = None
    """The model's own refusal text, when the API reports one."""

    def to_json(self) -> dict[str, Any]:
        """The turn as recorded in the trace, so `replay:` can give it back."""
        return {"content": self.content, "refusal": self.refusal,
                "finish_reason": self.finish_reason,
                "tool_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments}
                               for c in self.tool_calls]}


@dataclass(frozen=True)
class Request:
    """What a client is asked: the conversation so far and what it may do."""

    messages: list[dict[str, Any]]
    """OpenAI chat messages: system, user, assistant (with tool_calls), tool."""
    tools: list[dict[str, Any]]
    answer_schema: dict[str, Any]
    """The answer's JSON schema (for structured outputs where the server supports them)."""
    context: dict[str, Any] = field(default_factory=dict)
    """Structured copies of what the prompt says (catalog, configuration) for offline clients;
    remote clients ignore it."""


class ModelClient(Protocol):
    """A model: given the conversation, return the next turn."""

    name: str
    """The --model spec that made it, e.g. openai:gpt-4.1-mini or rules."""
    simulated: bool
    """True for simulators (noisy): every output that involves it says so."""

    def complete(self, request: Request) -> Turn: ...
