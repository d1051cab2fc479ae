"""The plain contract classes (issue 46) read and write as the pydantic models they replace:
pydantic's own serializer and validator, run over the same dataclasses, are the oracle."""

from __future__ import annotations

import copy
import json
import random
import struct
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from pydantic_core import to_json

from showwork._plain import dumps
from showwork.protocol import answer
from showwork.semantic_layer import requests
from showwork.semantic_layer.governance import parse_governance
from showwork.traces.records import TraceRecord

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "traces" / "golden" / "traces.jsonl"


def _floats(count: int) -> list[float]:
    rng = random.Random(46)
    out = [1e-5, 1e-7, -3.2e-5, 1e16, 1e-10, 0.0, -0.0, 1 / 3, 5e-324, float("inf"), float("nan")]
    for _ in range(count):
        out.append(rng.random() * 10 ** rng.randint(-12, 25))
        out.append(struct.unpack("d", rng.randbytes(8))[0])
    return out


class TestJson:
    def test_floats_are_written_as_pydantic_writes_them(self) -> None:
        """Every float, at every exponent (and NaN, infinity), is the text pydantic wrote."""
        floats = _floats(20_000)
        # a model (ser_json_inf_nan "null") writes NaN and infinity as null
        assert [dumps(x) for x in floats] == [to_json(x, inf_nan_mode="null").decode() for x in floats]

    @pytest.mark.parametrize("indent", [None, 2])
    def test_nested_values_are_written_as_pydantic_writes_them(self, indent: int | None) -> None:
        """Objects, lists, text with escapes and non-ASCII, numbers, nulls, empty containers."""
        value = {"a": [1, 2.5, None, True, {}, []], "é\n": "\u2028 \x00 \x7f \"q\" <", "n": {"m": [{}]}}
        assert dumps(value, indent=indent) == to_json(value, indent=indent).decode()


class TestTraceRecords:
    def test_golden_traces_read_and_write_back_byte_for_byte(self) -> None:
        """Each stored golden line reads into the plain records and is written back as it was,
        and pydantic's serializer of the same dataclasses writes the same text."""
        serializer = TypeAdapter(TraceRecord)
        lines = GOLDEN.read_text(encoding="utf-8").splitlines()
        assert lines
        for line in lines:
            record = TraceRecord.model_validate_json(line)
            assert record.model_dump_json() == line
            assert record.model_dump_json(indent=2) == serializer.dump_json(record, indent=2).decode()
            assert record.model_dump(mode="json") == json.loads(line)

    def test_float_fields_hold_floats_as_pydantic_did(self) -> None:
        """An int given to a float field is stored (and written) as a float."""
        record = TraceRecord.model_validate_json(GOLDEN.read_text(encoding="utf-8").splitlines()[0])
        built = record.model_copy(update={"elapsed_s": 2, "timing": {"queries_s": 1}})
        assert '"elapsed_s":2.0' in built.model_dump_json()
        assert built.timing == {"queries_s": 1.0} and type(built.timing["queries_s"]) is float


def _mutants(base: dict[str, Any], pool: list[Any], count: int, seed: int) -> list[dict[str, Any]]:
    """The base with one or two values (nested too) swapped for one of the pool, or a key added
    or dropped: the shapes a model gets slightly wrong."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        data = copy.deepcopy(base)
        for _ in range(rng.randint(1, 2)):
            target = data
            while True:
                key = rng.choice(list(target))
                inner = target[key]
                if isinstance(inner, list) and inner and isinstance(inner[0], dict) and rng.random() < 0.6:
                    target = rng.choice(inner)
                elif isinstance(inner, dict) and inner and rng.random() < 0.6:
                    target = inner
                else:
                    break
            move = rng.random()
            if move < 0.1:
                target["extra"] = 1
            elif move < 0.2:
                target.pop(key)
            else:
                target[key] = copy.deepcopy(rng.choice(pool))
            if not target and data is not target:
                break
        out.append(data)
    return out


POOL = [None, True, False, 0, 1, -3, 7, 2.5, float("nan"), float("inf"), "", "x", "answered",
        "refused", "measurement", "causal", "2026-03-09", "2026-02-30", "2026-03-09T00:00:00",
        "x" * 201, "y" * 2001, "z" * 4001, [], ["a"], ["a", "b", "c"], [1, None], {}, {"a": 1},
        ["r1"] * 21, 10**30, 1e-7, {"start": "2026-03-01", "end": "2026-03-09"}, "day", "sum"]
ANSWER = {"status": "answered", "answer": "About 12,573.", "value": 12573, "driver": None,
          "claims": [{"text": "Active users were 12,573.", "kind": "measurement",
                      "sources": ["r1:active_users.value"], "value": 12573},
                     {"text": "So it grew.", "kind": "conclusion", "premises": ["c1"]}],
          "values": [{"key": "ios", "value": 2.5}, {"key": "web", "value": None}]}
QUERY = {"metrics": ["revenue"], "window": {"start": "2024-03-01", "end": "2024-03-31"},
         "group_by": ["channel"], "order_by": {"field": "revenue", "desc": True}, "limit": 5,
         "where": [{"dimension": "channel", "values": ["web"]},
                   {"any_of": [{"dimension": "store", "op": "ge", "values": [1]},
                               {"dimension": "store", "op": "is_null"}]}],
         "grain": "month", "whole_periods": True, "share": False}
COMPARE = {"metrics": ["revenue"], "current_window": {"start": "2024-03-01", "end": "2024-03-31"},
           "previous_window": {"start": "2024-02-01", "end": "2024-02-29"}, "by": "channel",
           "where": [{"dimension": "channel", "op": "not_in", "values": ["web", True]}]}


def _same(plain: Any, validated: Any) -> bool:
    """Equal, and with values of the same types (1 is not 1.0, a list is not a tuple)."""
    return plain == validated and repr(plain.model_dump()) == repr(validated.model_dump())


class TestPlainChecks:
    """What the plain checks build without pydantic is what pydantic builds from the same input."""

    def test_an_answer_of_the_plain_shape_is_the_one_pydantic_validates(self) -> None:
        cases = [ANSWER, *_mutants(ANSWER, POOL, 3000, 1)]
        built = [(data, answer._plain_answer(copy.deepcopy(data))) for data in cases]
        plain = [(data, a) for data, a in built if a is not None]
        assert len(plain) > 300 and len(plain) < len(cases)  # both ways are exercised
        for data, a in plain:
            assert _same(a, answer.Answer.model_validate(data)), data

    @pytest.mark.parametrize(("kind", "base"), [("query", QUERY), ("compare", COMPARE)])
    def test_arguments_of_the_plain_shape_are_the_ones_pydantic_validates(
            self, kind: str, base: dict[str, Any]) -> None:
        model = requests.QueryArgs if kind == "query" else requests.CompareArgs
        cases = [base, *_mutants(base, POOL, 3000, 2)]
        built = [(data, requests._plain_args(model, copy.deepcopy(data))) for data in cases]
        plain = [(data, a) for data, a in built if a is not None]
        assert len(plain) > 100 and len(plain) < len(cases)
        for data, a in plain:
            assert _same(a, model.model_validate(data)), data


class TestGovernance:
    def test_fields_set_are_those_the_file_names(self) -> None:
        """A file's explicit value (even the default, even null) counts as set, at every depth:
        `merged` lets it win over a meta block's."""
        gov = parse_governance({"metrics": {"a": {"op": "multiply", "unit": None}},
                                "coverage": {"m": {"from": "2024-01-01", "through": "2024-02-01"}},
                                "metric_tree": {"exact": [{"parent": "a", "factors": ["b", "c"]}]}},
                               "file")
        assert gov.model_fields_set == {"metrics", "coverage", "metric_tree"}
        assert gov.metrics["a"].model_fields_set == {"op", "unit"}
        assert gov.coverage["m"].model_fields_set == {"from_", "through"}
        assert gov.metric_tree.exact[0].model_fields_set == {"parent", "factors"}
        assert gov.metric_tree.exact[0].model_dump() == {"parent": "a", "op": "multiply",
                                                         "factors": ["b", "c"]}
