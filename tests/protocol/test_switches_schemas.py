"""Protocol switches parse strictly; schemas are valid for OpenAI strict structured outputs."""

from __future__ import annotations

import jsonschema
import pytest

from showwork.protocol.errors import SwitchError
from showwork.protocol.prompts import repair_message, system_prompt
from showwork.protocol.schemas import answer_schema, strict_problems, tool_schemas
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import load_model
from showwork.semantic_layer.catalog import build_catalog

CONFIGS = ["baseline", "claims", "claims+repair", "claims+repair+purpose+rendered",
           "claims+repair+tree=auto", "claims+tree=never", "claims+purpose+tree=always"]


@pytest.mark.parametrize("name", CONFIGS)
def test_configs_round_trip(name: str) -> None:
    """Every DESIGN.md configuration parses and keeps its name."""
    assert Protocol.parse(name).name == name


@pytest.mark.parametrize(("text", "message"), [
    ("claims+repiar", "Unknown switch 'repiar'"),
    ("claims+tree=sometimes", "Unknown tree mode 'sometimes'"),
    ("repair", "add 'claims'"),
    ("", "Empty configuration"),
])
def test_bad_switches(text: str, message: str) -> None:
    """Unknown or inconsistent switches are refused with the list of valid ones."""
    with pytest.raises(SwitchError, match=message):
        Protocol.parse(text)


def test_tree_gate() -> None:
    """tree=auto injects the tree for diagnostic questions only."""
    auto, never, always = (Protocol.parse(f"claims+tree={m}") for m in ("auto", "never", "always"))
    assert auto.tree_in_prompt(True) and not auto.tree_in_prompt(False)
    assert not never.tree_in_prompt(True) and always.tree_in_prompt(False)


@pytest.mark.parametrize("name", CONFIGS)
def test_schemas_are_strict_and_valid(name: str) -> None:
    """Tool and answer schemas are valid JSON Schema and follow strict-mode rules."""
    proto = Protocol.parse(name)
    for tool in tool_schemas(proto):
        params = tool["function"]["parameters"]
        jsonschema.Draft202012Validator.check_schema(params)
        assert strict_problems(params) == []
        assert (params["properties"]["purpose"]["type"] == "string") is proto.purpose
    schema = answer_schema(proto)["schema"]
    jsonschema.Draft202012Validator.check_schema(schema)
    assert strict_problems(schema) == []
    assert ("claims" in schema["properties"]) is proto.claims


def test_strict_checker_catches_optional_property() -> None:
    """The strict-mode checker is not vacuous: an optional property is reported."""
    bad = {"type": "object", "properties": {"a": {"type": "string"}}, "required": [],
           "additionalProperties": False}
    assert strict_problems(bad) == ["$: every property must be required"]


def test_answer_schema_accepts_design_example() -> None:
    """DESIGN.md's example answer validates against the claims answer schema."""
    example = {"status": "answered", "answer": "Weekly value moments fell 9.1%.", "value": -9.1,
               "driver": "days_per_user", "refusal_reason": None, "values": None, "claims": [
                   {"text": "Days per user fell 16.4%", "kind": "measurement",
                    "sources": ["r2:days_per_user.pct_change"], "premises": None, "value": -16.44},
                   {"text": "So", "kind": "causal", "sources": None, "premises": ["c1"],
                    "value": None}]}
    jsonschema.validate(example, answer_schema(Protocol.parse("claims"))["schema"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**example, "extra": 1}, answer_schema(Protocol.parse("claims"))["schema"])


def test_prompt_renders_catalog_and_gates_tree() -> None:
    """The prompt carries the contract and catalog; the tree only when the gate opens."""
    catalog = build_catalog(load_model())
    proto = Protocol.parse("claims+purpose+tree=auto")
    diag = system_prompt(catalog, proto, diagnostic=True)
    lookup = system_prompt(catalog, proto, diagnostic=False)
    assert "rN[key=member]:METRIC.FIELD" in diag and "purpose" in diag
    assert "weekly_value_moments = active_users × days_per_user × moments_per_day" in diag
    assert "Metric tree" not in lookup and "- platform: members ios, android, web" in lookup
    baseline = system_prompt(catalog, Protocol.parse("baseline"), diagnostic=True)
    assert "claims" not in baseline.split("Governed catalog")[0]


def test_repair_message_lists_each_problem() -> None:
    """The repair message is the exact problems, one per line, with the round number."""
    text = repair_message(["Claim c3 cites r2:paid_search, but r2 has no field paid_search. "
                           "Fix the citation or remove the claim."], 1, 2)
    assert text.startswith("Repair round 1 of 2. The audit found 1 problem in your answer:")
    assert "- Claim c3 cites r2:paid_search" in text
