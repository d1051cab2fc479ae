"""Governed tool dispatch: arguments checked, calls run, handles issued only on success."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from showwork.protocol import strict_json
from showwork.protocol.sanitize import clean_for_model
from showwork.semantic_layer import SemanticError, SemanticLayer
from showwork.traces import CallRecord, canonical_json

TOOLS = ("query", "compare")
MAX_ARGUMENT_CHARS = 20_000


@dataclass
class Toolbox:
    """The governed tools of one attempt, and the handles issued so far."""

    layer: SemanticLayer
    require_purpose: bool = False
    refuse_empty: bool = True
    """A query no day of whose window is read, or naming a member outside a closed list, is
    refused (the analyst's tools: the refusal lets a model repair, and an empty result must never
    become a 0); False answers it as MetricFlow does, no rows and a note (the public API)."""
    calls: list[CallRecord] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)
    """Canonical call → index of the first call that made it."""

    @property
    def handles(self) -> int:
        return sum(1 for c in self.calls if c.handle is not None)

    def dispatch(self, name: str, raw_arguments: str, round_no: int = 0) -> tuple[str, CallRecord]:
        """Run one tool call; return (what the model sees, the call record)."""
        started = time.perf_counter()
        record = self._dispatch(name, raw_arguments, round_no)
        record.elapsed_s = time.perf_counter() - started
        self.calls.append(record)
        return _model_view(record), record

    def _dispatch(self, name: str, raw: str, round_no: int) -> CallRecord:
        index = len(self.calls) + 1
        base: dict[str, Any] = {"index": index, "round": round_no, "tool": name,
                                "arguments_raw": raw[:MAX_ARGUMENT_CHARS]}
        if name not in TOOLS:
            return CallRecord(**base, error=_err("unknown_tool", f"Unknown tool {name!r}; the tools "
                                                 f"are: {', '.join(TOOLS)}."))
        args, problem = _decode(raw)
        if problem:
            return CallRecord(**base, error=_err("invalid_arguments", problem))
        purpose = args.pop("purpose", None)
        args = {k: v for k, v in args.items() if v is not None}
        base.update(arguments=args, purpose=purpose if isinstance(purpose, str) else None)
        if self.require_purpose and not (isinstance(purpose, str) and purpose.strip()):
            return CallRecord(**base, error=_err("missing_purpose", "Every call must carry "
                                                 "`purpose`: one line saying why it is needed."))
        key = canonical_json([name, args])
        if key in self.seen:
            first = self.calls[self.seen[key] - 1]
            note = (f"This call repeats call {first.index}; its result is r{first.handle}."
                    if first.handle else f"This call repeats call {first.index}, which was "
                    f"blocked: {first.error['message'] if first.error else ''}")
            return CallRecord(**base, error=_err("repeated_call", note))
        self.seen[key] = index
        try:
            result = self.layer.call(name, args, refuse_empty=self.refuse_empty)
        except SemanticError as exc:
            return CallRecord(**base, error=_err(exc.code, exc.message))
        return CallRecord(**base, handle=self.handles + 1, result=result.to_json(), sql=result.sql)


def _err(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message}


def _decode(raw: str) -> tuple[dict[str, Any], str | None]:
    if len(raw) > MAX_ARGUMENT_CHARS:
        return {}, f"Arguments are longer than {MAX_ARGUMENT_CHARS:,} characters."
    try:
        args = strict_json.loads(raw or "{}", "arguments")
    except json.JSONDecodeError as exc:
        hint = " They look truncated; send the whole object." if _truncated(raw, exc) else ""
        return {}, f"Arguments are not valid JSON ({exc.msg}, character {exc.pos + 1}).{hint}"
    except strict_json.StrictJSONError as exc:
        return {}, str(exc)
    if not isinstance(args, dict):
        return {}, "Arguments must be a JSON object."
    return args, None


def _truncated(raw: str, exc: json.JSONDecodeError) -> bool:
    """Cut off mid-way: an unterminated string, or brackets still open at the end."""
    if exc.msg.startswith("Unterminated string") or exc.pos >= len(raw.rstrip()):
        return True
    depth, in_string, escaped = 0, False, False
    for ch in raw:
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = not (ch == '"' and not escaped)
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth > 0


def _model_view(record: CallRecord) -> str:
    """What the model is shown: the typed result under its handle, or the blocked reason.

    Strings are cleaned of control, bidi and zero-width characters in this copy (the trace keeps
    the raw result); `sanitized` counts what was removed."""
    if record.handle is None:
        error = record.error or {}
        view: dict[str, Any] = {"blocked": True, "code": error.get("code"),
                                "reason": error.get("message"), "handle": None}
    else:
        result = dict(record.result or {})
        result.pop("sql", None)
        view = {"handle": f"r{record.handle}", **result}
    removed = [0]
    clean = _clean(view, removed)
    if removed[0]:
        clean["sanitized"] = removed[0]
    return json.dumps(clean)


def _clean(value: Any, removed: list[int]) -> Any:
    if isinstance(value, str):
        text, n = clean_for_model(value)
        removed[0] += n
        return text
    if isinstance(value, dict):
        return {_clean(k, removed): _clean(v, removed) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v, removed) for v in value]
    return value
