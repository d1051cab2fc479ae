"""Table answers (DESIGN.md, Answer shape): listed `values` on the wire, in the schema and the
prompt, held to the number checks, and scored against `table_sql` and `members` gold."""

from __future__ import annotations

import json

import jsonschema
import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.errors import GoldError
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.gold import evaluate_table, gold_values, is_correct, values_of
from showwork.protocol.answer import MAX_VALUES, parse_answer
from showwork.protocol.errors import AnswerError
from showwork.protocol.prompts import system_prompt
from showwork.protocol.schemas import answer_schema, strict_problems
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import load_model
from showwork.semantic_layer.catalog import build_catalog

ANSWER = {"status": "answered", "answer": "Revenue by store.", "value": None, "driver": None,
          "refusal_reason": None}


class TestWire:
    def test_values_parse_in_order(self) -> None:
        """Listed values keep their keys, values and order; a null value is allowed."""
        parsed = parse_answer({**ANSWER, "values": [{"key": "Brooklyn", "value": 269173.31},
                                                    {"key": "Queens", "value": None},
                                                    {"key": "2019-03-01", "value": 3}]})
        assert [(v.key, v.value) for v in parsed.values] == [
            ("Brooklyn", 269173.31), ("Queens", None), ("2019-03-01", 3)]

    @pytest.mark.parametrize(("item", "message"), [
        ({"key": "a", "value": True}, "values.0.value"),
        ({"key": 2019, "value": 1}, "values.0.key"),
        ({"key": "a"}, "values.0.value: Field required"),
        ({"key": "a", "value": 1, "rank": 1}, "values.0.rank: Extra inputs"),
        ({"key": "a", "value": "12"}, "values.0.value"),
    ])
    def test_each_item_is_exactly_key_and_number(self, item: dict, message: str) -> None:
        """An item other than {key: string, value: number | null} is refused, naming the field."""
        with pytest.raises(AnswerError, match=message):
            parse_answer({**ANSWER, "values": [item]})

    def test_count_is_limited(self) -> None:
        """More listed values than the limit are refused with the limit in the message."""
        many = [{"key": str(i), "value": i} for i in range(MAX_VALUES + 1)]
        with pytest.raises(AnswerError, match=f"at most {MAX_VALUES}"):
            parse_answer({**ANSWER, "values": many})

    @pytest.mark.parametrize("config", ["baseline", "claims"])
    def test_schema_lists_values_in_strict_form(self, config: str) -> None:
        """The answer schema carries `values` (nullable, items exactly key and value) and stays
        valid for strict structured outputs."""
        schema = answer_schema(Protocol.parse(config))["schema"]
        assert strict_problems(schema) == []
        item = schema["properties"]["values"]["items"]
        assert item["required"] == ["key", "value"] and item["additionalProperties"] is False
        answer = {**ANSWER, "values": [{"key": "ios", "value": 3.5}]}
        if config == "claims":
            answer["claims"] = []
        jsonschema.validate(answer, schema)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**answer, "values": [{"key": "ios"}]}, schema)

    def test_prompt_explains_values_and_quoted_members(self) -> None:
        """The prompt shows the values field, the period-start key and a quoted member."""
        prompt = system_prompt(build_catalog(load_model()), Protocol.parse("claims"), False)
        assert '"values": [{"key": member or period start' in prompt
        assert 'r5[store="New York 5th Ave"]:revenue.value' in prompt


def _answered(layer, text: str, config: str = "claims") -> tuple[dict, Evidence, dict]:
    trace = run_attempt(Question("t", text), RulesClient(), layer, Protocol.parse(config))
    return json.loads(trace.served().answer_raw), Evidence.from_calls(trace.calls), trace.catalog


def _defects(answer: dict, evidence: Evidence, catalog: dict, text: str) -> list:
    return audit(answer, evidence, catalog, question=text).defects


RANKED = "Which platform had the most active users in March 2026?"
SERIES = "What were monthly new users from February to April 2026?"


class TestListedValuesAudit:
    def test_rules_tables_are_grounded(self, layer) -> None:
        """A ranking and a series from the rules analyst list values that all check clean."""
        for text in (RANKED, SERIES):
            answer, evidence, catalog = _answered(layer, text)
            assert answer["values"] and len(answer["values"]) == 3
            assert _defects(answer, evidence, catalog, text) == []

    def test_value_no_claim_supports_is_flagged(self, layer) -> None:
        """A listed value no claim states or cites is an unsupported_number on its index; so is
        a row no claim cites, whatever its number."""
        answer, evidence, catalog = _answered(layer, RANKED)
        key = answer["values"][1]["key"]
        answer["values"][1] = {"key": key, "value": 123456}
        found = _defects(answer, evidence, catalog, RANKED)
        assert [(d.code, d.claim, d.citation) for d in found] == [
            ("unsupported_number", "answer.values[1]", "123456")]
        assert f"no claim citing the row {key} states or cites it" in found[0].message
        answer["values"][1] = {"key": "windows", "value": 123456}
        found = _defects(answer, evidence, catalog, RANKED)
        assert [(d.code, d.claim) for d in found] == [("unsupported_number", "answer.values[1]")]
        assert "no claim cites a row for windows" in found[0].message

    def test_value_under_the_wrong_member_is_flagged(self, layer) -> None:
        """Two members' values swapped: each is a cited number, but not its own row's."""
        answer, evidence, catalog = _answered(layer, RANKED)
        first, second = answer["values"][0]["value"], answer["values"][1]["value"]
        answer["values"][0]["value"], answer["values"][1]["value"] = second, first
        found = _defects(answer, evidence, catalog, RANKED)
        assert [d.claim for d in found] == ["answer.values[0]", "answer.values[1]"]
        assert f"no claim citing the row {answer['values'][0]['key']}" in found[0].message

    def test_series_key_may_be_written_as_its_month(self, layer) -> None:
        """A series keyed '2026-03' is the row of 2026-03-01: no defect."""
        answer, evidence, catalog = _answered(layer, SERIES)
        for item in answer["values"]:
            item["key"] = item["key"][:7]
        assert _defects(answer, evidence, catalog, SERIES) == []

    def test_no_claim_graph_is_not_measured(self, layer) -> None:
        """The baseline answer lists values but carries no claims: nothing to hold them to."""
        answer, evidence, catalog = _answered(layer, RANKED, "baseline")
        answer["values"][0]["value"] = 1
        assert answer["values"] and _defects(answer, evidence, catalog, RANKED) == []


TABLE = [("Brooklyn", 100.0), ("Queens", 50.0)]


class TestGold:
    def test_table_sql_evaluates_to_keys_and_values(self, raw) -> None:
        """table_sql gives (key, value) rows, dates as ISO period starts."""
        rows = evaluate_table(raw, "SELECT CAST(date_trunc('month', signup_date) AS DATE), "
                                   "count(*) FROM users WHERE NOT is_test AND signup_date "
                                   "BETWEEN DATE '2026-02-01' AND DATE '2026-03-31' GROUP BY 1 "
                                   "ORDER BY 1")
        assert [k for k, _ in rows] == ["2026-02-01", "2026-03-01"]
        assert all(isinstance(v, float) and v > 0 for _, v in rows)

    @pytest.mark.parametrize("sql", ["SELECT platform FROM users GROUP BY 1",
                                     "SELECT platform, 1 FROM users",
                                     "SELECT platform, 'x' FROM users GROUP BY 1"])
    def test_table_sql_of_the_wrong_shape_is_refused(self, raw, sql: str) -> None:
        """One column, repeated keys or a non-number value is a gold error."""
        with pytest.raises(GoldError):
            evaluate_table(raw, sql)

    def test_gold_values_fill_the_table(self, raw) -> None:
        """gold_values evaluates table_sql beside sql."""
        golds = gold_values(raw, {"q": {"table_sql": "SELECT platform, count(*) FROM users "
                                                     "GROUP BY 1", "tolerance": 0.01}})
        assert sorted(k for k, _ in golds["q"]["table"]) == ["android", "ios", "web"]

    @pytest.mark.parametrize(("values", "correct"), [
        ([{"key": "Queens", "value": 50.2}, {"key": "Brooklyn", "value": 100.0}], True),
        ([{"key": "brooklyn", "value": 100.0}, {"key": "Queens", "value": 50.0}], True),
        ([{"key": "Brooklyn", "value": 100.0}, {"key": "Queens", "value": 51.0}], False),
        ([{"key": "Brooklyn", "value": 100.0}], False),
        ([{"key": "Brooklyn", "value": 100.0}, {"key": "Queens", "value": 50.0},
          {"key": "Bronx", "value": 1.0}], False),
        (None, False),
    ])
    def test_table_correct_on_same_keys_within_tolerance(self, values, correct: bool) -> None:
        """A table is correct when the listed keys are the gold's and each value is close."""
        gold = {"table": TABLE, "tolerance": 0.005}
        assert is_correct(None, None, gold, values=values) is correct

    def test_series_key_reads_as_period_start(self) -> None:
        """'2019-03' and '2019-03-01' are the same period."""
        gold = {"table": [("2019-03-01", 10.0), ("2019-04-01", 12.0)]}
        values = [{"key": "2019-03", "value": 10.0}, {"key": "2019-04", "value": 12.0}]
        assert is_correct(None, None, gold, values=values)

    @pytest.mark.parametrize(("keys", "value", "correct"), [
        (["Online", "Brooklyn", "Queens"], None, True),
        (["Online", "Brooklyn"], None, True),
        (["Brooklyn", "Online"], None, False),
        (["Online"], None, False),
        (None, "Online", False),
    ])
    def test_members_first_n_in_order(self, keys, value, correct: bool) -> None:
        """A ranking is correct when its first N listed members are the gold's, in order."""
        values = None if keys is None else [{"key": k, "value": 1.0} for k in keys]
        assert is_correct(value, None, {"members": ["Online", "Brooklyn"]}, values=values) \
            is correct

    def test_one_member_ranking_reads_the_headline(self) -> None:
        """With no listed values, a one-member gold is the headline member."""
        assert is_correct("Online", None, {"members": ["Online"]})
        assert not is_correct("Brooklyn", None, {"members": ["Online"]})

    def test_scalar_golds_keep_the_old_signature(self) -> None:
        """is_correct(value, driver, gold) still scores scalars, members and drivers."""
        assert is_correct(100.4, None, {"value": 100.0, "tolerance": 0.005})
        assert is_correct("Android", None, {"value": "android"})
        assert is_correct(None, "days_per_user", {"driver": "days_per_user"})
        assert not is_correct(1.0, None, {"sql": "SELECT 1"})

    def test_values_of_reads_a_stored_answer(self) -> None:
        """The listed values of a trace's raw answer, for scoring; None when absent or bad."""
        raw = json.dumps({**ANSWER, "values": [{"key": "ios", "value": 3}]})
        assert values_of(raw) == [{"key": "ios", "value": 3}]
        assert values_of(json.dumps(ANSWER)) is None and values_of("not json") is None
