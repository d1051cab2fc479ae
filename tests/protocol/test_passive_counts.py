"""'How many X were Y': a count named by its noun, then what is said of its things (issue 42).
Two counts ('departures were cancelled'): the second is asked, the first names its things; a
member whose words and the noun make another count's label ('orders were cancelled', and the
shop's 'Cancelled orders'): that count is asked, not the first filtered to the member, which
may exclude it by definition. A question naming two counts side by side keeps both. Against
the rules analyst's answer and raw SQL, on the flights and the shop."""

from __future__ import annotations

import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol

CASES = [
    ("flights_layer", "How many JFK departures were cancelled during the week starting 2013-02-04?",
     ["cancelled_flights"], {"origin": ["JFK"]},
     "SELECT count(*) FROM flights WHERE origin = 'JFK' AND dep_time IS NULL "
     "AND flight_date BETWEEN DATE '2013-02-04' AND DATE '2013-02-10'"),
    ("flights_layer", "How many departures from LGA got delayed in May 2013?",
     ["delayed_flights"], {"origin": ["LGA"]},
     "SELECT count(*) FROM flights WHERE origin = 'LGA' AND dep_delay > 15 "
     "AND flight_date BETWEEN DATE '2013-05-01' AND DATE '2013-05-31'"),
    ("shop_layer", "How many orders were cancelled in May 2019?", ["cancelled_orders"], {},
     None),
    ("shop_layer", "How many Online orders were cancelled in May 2019?", ["cancelled_orders"],
     {"store": ["Online"]}, None),
]


def _metrics(reading) -> list[str]:
    return sorted({m.name for m in reading.metrics})


@pytest.mark.parametrize(("layer", "text", "metrics", "members", "sql"), CASES)
def test_the_count_said_of_the_things_is_asked(request, layer, text, metrics, members, sql) -> None:
    lay = request.getfixturevalue(layer)
    reading = read_text(text, lay.catalog())
    assert _metrics(reading) == metrics and reading.unread == []
    filters = {m.name: [m.member] for m in reading.members}
    assert {k: v for k, v in filters.items() if k in members} == members
    served = run_attempt(Question("t", text), RulesClient(), lay,
                         Protocol.parse("claims")).served()
    assert served is not None and (served.audit or {}).get("decision") == "serve"
    if sql:
        ((want,),) = lay.run_sql(sql)
        assert json.loads(served.answer_raw)["value"] == want


@pytest.mark.parametrize(("layer", "text", "metrics"), [
    ("flights_layer", "How many flights and cancellations were there in May 2013?",
     ["cancelled_flights", "flights"]),
    ("shop_layer", "How many orders and cancelled orders were there in May 2019?",
     ["cancelled_orders", "order_count"]),
])
def test_two_counts_side_by_side_stay_two(request, layer, text, metrics) -> None:
    reading = read_text(text, request.getfixturevalue(layer).catalog())
    assert _metrics(reading) == metrics
