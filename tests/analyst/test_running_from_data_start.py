"""A running total by a grain over a window the data begins inside (issue 42, held-out shop
s8s-cum-001): the periods that end before the data begins have no total yet; the series starts
where the data does and says so, each value checked against raw SQL. It was refused, the first
period's query lying outside coverage. On the shop (data from 2018-02-01) and the flights (from
2013-01-01)."""

from __future__ import annotations

import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol

CASES = [
    ("shop_layer", "Show me a running total of orders by month in 2018",
     "SELECT strftime(m, '%Y-%m-%d'), sum(n) OVER (ORDER BY m) FROM (SELECT date_trunc('month', "
     "ordered_at) m, count(*) n FROM orders WHERE NOT is_test AND status <> 'cancelled' "
     "AND year(ordered_at) = 2018 GROUP BY 1) ORDER BY m"),
    ("flights_layer", "Running total of flights by month from December 2012 to March 2013",
     "SELECT strftime(m, '%Y-%m-%d'), sum(n) OVER (ORDER BY m) FROM (SELECT date_trunc('month', "
     "flight_date) m, count(*) n FROM flights WHERE month <= 3 GROUP BY 1) ORDER BY m"),
]


@pytest.mark.parametrize(("layer", "text", "sql"), CASES)
def test_the_series_starts_where_the_data_does(request, layer, text, sql) -> None:
    lay = request.getfixturevalue(layer)
    served = run_attempt(Question("t", text), RulesClient(), lay,
                         Protocol.parse("claims")).served()
    assert served is not None
    answer = json.loads(served.answer_raw)
    want = [(key, float(value)) for key, value in lay.run_sql(sql)]
    assert [(v["key"], float(v["value"])) for v in answer["values"]] == want
    assert "The data begins" in answer["answer"]
