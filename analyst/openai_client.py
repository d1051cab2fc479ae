"""`openai:MODEL` — any OpenAI-compatible server through the openai SDK.

OPENAI_BASE_URL and OPENAI_API_KEY select the server (OpenAI, vLLM, Ollama, llama.cpp server,
LM Studio). The first request probes what the server supports: if it rejects structured outputs
or `parallel_tool_calls`, the client drops them, says so in `notes`, and relies on prompting plus
validation with the error handed back.
"""

from __future__ import annotations

import os
from typing import Any

import structlog

from showwork.analyst.client import Request, ToolCall, Turn, Usage
from showwork.analyst.errors import ModelCallError

log = structlog.get_logger("showwork.openai")


class OpenAIClient:
    simulated = False

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None,
                 timeout_s: float = 60.0, max_retries: int = 3) -> None:
        import openai  # imported here: the SDK is only needed when this client is used

        self.name = f"openai:{model}"
        self.model = model
        self._openai = openai
        self.client = openai.OpenAI(
            base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "not-needed-for-local",
            timeout=timeout_s, max_retries=max_retries)
        self.structured = True
        self.parallel_flag = True
        self.notes: list[str] = []

    def complete(self, request: Request) -> Turn:
        while True:
            try:
                response = self.client.chat.completions.create(**self._params(request))
                return _turn(response)
            except (self._openai.BadRequestError, self._openai.UnprocessableEntityError) as exc:
                # a FastAPI server refuses a body that fails validation with 422, not 400
                if not self._fall_back(str(exc)):
                    raise ModelCallError(f"The server rejected the request: {_short(exc)}",
                                         "bad_request") from exc
            except self._openai.RateLimitError as exc:
                raise ModelCallError(f"Rate limited after retries: {_short(exc)}",
                                     "rate_limited") from exc
            except self._openai.APITimeoutError as exc:
                raise ModelCallError("The model server timed out after retries.",
                                     "timeout") from exc
            except self._openai.APIConnectionError as exc:
                raise ModelCallError(f"Could not reach the model server: {_short(exc)}",
                                     "connection_error") from exc
            except self._openai.InternalServerError as exc:
                # llama-cpp-python's server answers a parameter it cannot validate (e.g.
                # response_format type json_schema) with 500 naming it: a rejection, not an outage
                if self._fall_back(str(exc)):
                    continue
                raise ModelCallError(f"The model server failed after retries: {_short(exc)}",
                                     "server_error") from exc
            except self._openai.APIStatusError as exc:
                raise ModelCallError(f"The model server answered {exc.status_code}: "
                                     f"{_short(exc)}", "model_error") from exc
            except (self._openai.OpenAIError, ValueError, TypeError, AttributeError) as exc:
                raise ModelCallError(f"The model server sent a response that could not be read: "
                                     f"{_short(exc)}", "invalid_response") from exc

    def _params(self, request: Request) -> dict[str, Any]:
        params: dict[str, Any] = {"model": self.model, "messages": request.messages,
                                  "tools": request.tools}
        if self.parallel_flag:
            params["parallel_tool_calls"] = False
        if self.structured:
            params["response_format"] = {"type": "json_schema", "json_schema": request.answer_schema}
        return params

    def _fall_back(self, message: str) -> bool:
        lowered = message.lower()
        if self.structured and ("response_format" in lowered or "json_schema" in lowered):
            self.structured = False
            self._note("the server does not support structured outputs; the answer schema is "
                       "in the prompt and answers are validated and handed back")
            return True
        if self.parallel_flag and "parallel_tool_calls" in lowered:
            self.parallel_flag = False
            self._note("the server does not accept parallel_tool_calls; calls are still "
                       "handled one at a time")
            return True
        return False

    def _note(self, text: str) -> None:
        self.notes.append(text)
        log.warning("model fallback", model=self.name, note=text)


def _short(exc: BaseException) -> str:
    return str(exc).replace("\n", " ")[:300]


def _turn(response: Any) -> Turn:
    choice = response.choices[0]
    message = choice.message
    calls = tuple(ToolCall(c.id or f"call_{i}", c.function.name, c.function.arguments or "")
                  for i, c in enumerate(message.tool_calls or []))
    usage = response.usage
    cached = 0
    if usage is not None and getattr(usage, "prompt_tokens_details", None) is not None:
        cached = usage.prompt_tokens_details.cached_tokens or 0
    return Turn(
        content=message.content, tool_calls=calls, finish_reason=choice.finish_reason or "stop",
        usage=Usage(usage.prompt_tokens if usage else 0, cached,
                    usage.completion_tokens if usage else 0),
        refusal=getattr(message, "refusal", None))
