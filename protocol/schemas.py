"""JSON schemas the model is given: governed tools and the answer.

They are valid for OpenAI strict structured outputs: every property is required, an optional one
is a union with null, and no object admits additional properties.
"""

from __future__ import annotations

from typing import Any

from showwork.protocol.answer import MAX_VALUES
from showwork.protocol.switches import Protocol


def _obj(properties: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties,
                              "required": list(properties), "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _window(what: str) -> dict[str, Any]:
    return _obj({"start": {"type": "string", "description": "First day, ISO date YYYY-MM-DD."},
                 "end": {"type": "string", "description": "Last day (inclusive), ISO date."}},
                f"{what} (inclusive dates)")


_METRICS = {"type": "array", "items": {"type": "string"},
            "description": "Governed metric names from the catalog."}
_FILTERS = _nullable({"type": "array", "items": _obj({
    "dimension": {"type": "string"},
    "op": {"type": "string", "enum": ["in", "not_in"]},
    "values": {"type": "array", "items": {"type": "string"}}})})


def _purpose(protocol: Protocol) -> dict[str, Any]:
    text = "One line: why this call is needed for the question."
    if protocol.purpose:
        return {"type": "string", "description": text}
    return {"type": ["string", "null"], "description": text + " Optional."}


def tool_schemas(protocol: Protocol) -> list[dict[str, Any]]:
    """The governed tools as OpenAI function tools."""
    query = _obj({
        "metrics": _METRICS,
        "window": _window("The window to measure"),
        "group_by": _nullable({"type": "array", "items": {"type": "string"}}),
        "where": _FILTERS,
        "grain": {"type": ["string", "null"], "enum": ["day", "week", "month", None]},
        "aggregate": {"type": ["string", "null"], "enum": ["sum", None],
                      "description": "Sum per-grain values over the window (additive only)."},
        "order_by": _nullable(_obj({"field": {"type": "string"}, "desc": {"type": "boolean"}})),
        "limit": {"type": ["integer", "null"]},
        "share": {"type": ["boolean", "null"],
                  "description": "With group_by: each row's share of the total too (field "
                                 "share_of_total, a fraction: the metric with the same filters "
                                 "and window, not grouped). Counts and sums only."},
        "purpose": _purpose(protocol),
    })
    compare = _obj({
        "metrics": _METRICS,
        "current_window": _window("The window of interest"),
        "previous_window": _window("The window to compare against"),
        "by": {"type": ["string", "null"], "description": "Optional dimension to split by."},
        "where": _FILTERS,
        "purpose": _purpose(protocol),
    })
    return [
        _function("query", "Measure governed metrics over one window, optionally by dimensions "
                  "or a grain. Each successful call returns a result handle rN.", query),
        _function("compare", "Compare governed metrics between two windows: value, previous, "
                  "delta, pct_change (percent units) per metric and member.", compare),
    ]


def _function(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": description,
                                             "strict": True, "parameters": parameters}}


_VALUES = {"type": ["array", "null"], "items": _obj({
    "key": {"type": "string", "description": "The member, or the period start for a series."},
    "value": {"type": ["number", "null"]}}),
    "description": f"Breakdown, ranking and series answers: every row, in the order the answer "
                   f"gives them (at most {MAX_VALUES}); null otherwise."}


def answer_schema(protocol: Protocol) -> dict[str, Any]:
    """The final answer's JSON schema; with `claims` off it carries no claims."""
    props: dict[str, Any] = {
        "status": {"type": "string", "enum": ["answered", "refused"]},
        "answer": {"type": "string"},
        "value": {"type": ["number", "string", "null"]},
        "driver": {"type": ["string", "null"]},
        "refusal_reason": {"type": ["string", "null"]},
        "values": _VALUES,
    }
    if protocol.claims:
        claim = _obj({
            "text": {"type": "string"},
            "kind": {"type": "string", "enum": ["measurement", "conclusion", "causal"]},
            "sources": {"type": ["array", "null"], "items": {"type": "string"}},
            "premises": {"type": ["array", "null"], "items": {"type": "string"}},
            "value": {"type": ["number", "string", "null"]},
        })
        props["claims"] = {"type": "array", "items": claim}
    return {"name": "answer", "strict": True, "schema": _obj(props)}


def strict_problems(schema: Any, path: str = "$") -> list[str]:
    """Where a schema breaks the strict-mode rules (empty when it follows them)."""
    problems: list[str] = []
    if isinstance(schema, dict):
        if schema.get("type") == "object" or "properties" in schema:
            if schema.get("additionalProperties") is not False:
                problems.append(f"{path}: additionalProperties must be false")
            if sorted(schema.get("required", [])) != sorted(schema.get("properties", {})):
                problems.append(f"{path}: every property must be required")
        for key, value in schema.items():
            problems += strict_problems(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            problems += strict_problems(value, f"{path}[{i}]")
    return problems
