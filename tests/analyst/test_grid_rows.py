"""A breakdown by two dimensions claims every row (issue 42, session 7): the rules analyst had
claimed the first dozen rows of a grid and served it clean with the rest missing ('active users
by platform and country': 12 of 15). Against raw SQL on the demo and the shop."""

from __future__ import annotations

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.switches import Protocol

CASES = [
    ("layer", "Active users in May 2026 by platform and country",
     "SELECT count(*) FROM (SELECT u.platform, u.country FROM events e JOIN users u USING (user_id) "
     "WHERE NOT u.is_test AND e.event_type = 'app_open' "
     "AND CAST(e.event_ts AS DATE) BETWEEN DATE '2026-05-01' AND DATE '2026-05-31' GROUP BY 1, 2)"),
    ("shop_layer", "Revenue by store and region in March 2019",
     "SELECT count(*) FROM (SELECT s.store_name, r.region_name FROM orders o "
     "JOIN stores s USING (store_id) LEFT JOIN customers c USING (customer_id) "
     "LEFT JOIN regions r USING (region_id) WHERE NOT o.is_test AND o.status <> 'cancelled' "
     "AND CAST(o.ordered_at AS DATE) BETWEEN DATE '2019-03-01' AND DATE '2019-03-31' "
     "AND r.region_name IS NOT NULL GROUP BY 1, 2)"),
]


@pytest.mark.parametrize(("domain", "text", "sql"), CASES)
def test_every_row_of_a_grid_is_claimed(request, domain, text, sql) -> None:
    """As many measurement claims as the grid has rows (with a member on both keys)."""
    lay = request.getfixturevalue(domain)
    served = run_attempt(Question("t", text), RulesClient(), lay, Protocol.parse("claims")).served()
    assert served is not None and served.audit["decision"] == "serve"
    ((rows,),) = lay.run_sql(sql)
    assert rows > 12
    measured = [c for c in served.audit["claims"] if c["kind"] == "measurement"]
    assert len(measured) == rows
