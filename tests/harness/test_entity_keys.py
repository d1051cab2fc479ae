"""A breakdown by an entity's key ('by order id', 'which tail number'): the keys are labels the
answer names its rows by, never numbers to check (harness/audit/numbers.py `_names_row`,
words.py `_entity_keys`), and a key written where it would be a value is still checked."""

from __future__ import annotations

from typing import Any

import pytest

import showwork

Domain = tuple[str, str, str | None, list[tuple[str, float]], str]
"""(entity, metric, unit, rows as (key, value), the currency sign written)."""
DOMAINS: dict[str, Domain] = {
    # an order id (a number) of the shop; a tail number (a code) of the flights
    "shop": ("order", "revenue", "usd", [("36175", 99.0), ("40671", 97.0)], "$"),
    "flights": ("plane", "flights", None, [("N725MQ", 575), ("N722MQ", 513)], ""),
    # a policy number of an insurance project's claims (the shape of the held-out dbt project)
    "claims": ("policy", "claim_amount", "usd", [("10021", 4250.0), ("10388", 3980.5)], "$"),
}
NUMERIC = [d for d in DOMAINS if DOMAINS[d][3][0][0].isdigit()]


def _audit(domain: str, prose: str, value: Any = None) -> Any:
    entity, metric, unit, rows, money = DOMAINS[domain]
    results = {"r1": {"metrics": [metric], "where": [],
                      "rows": [{entity: key, metric: v} for key, v in rows]}}
    catalog = {"entities": {entity: {"column": f"{entity}_id", "metrics": [metric]}},
               "metrics": {metric: {"label": metric, **({"unit": unit} if unit else {})}}}
    claims = [{"kind": "measurement", "value": v,
               "text": f"{metric.capitalize()} for {entity} {key} was {money}{v:,}",
               "sources": [f"r1[{entity}={key}]:{metric}.value"]} for key, v in rows]
    answer = {"status": "answered", "answer": prose, "claims": claims,
              "value": rows[0][0] if value is None else value}
    return showwork.audit_answer(answer, results, catalog)


def _listing(domain: str) -> str:
    entity, metric, _unit, rows, money = DOMAINS[domain]
    listed = "; ".join(f"{key} {money}{v:,}" for key, v in rows)
    return f"By {entity}, {rows[0][0]} led on {metric} ({listed})."


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_keys_that_name_rows_are_labels(domain: str) -> None:
    """'By order, 36175 …(36175 $99.00; …)': no key is an unsupported number or an unread word,
    and the headline naming the first key is no number either."""
    report = _audit(domain, _listing(domain))
    assert not report.defects, [d.code for d in report.defects]
    unread = [f for f in report.findings if f.code == "unread_answer"]
    keys = [key for key, _ in DOMAINS[domain][3]]
    assert not any(key in f.message for f in unread for key in keys)


@pytest.mark.parametrize("domain", NUMERIC)
def test_a_key_written_as_a_value_is_checked(domain: str) -> None:
    """A key said as the metric's value ('revenue was 36175') is a number no field states."""
    entity, metric, _unit, rows, _money = DOMAINS[domain]
    key = rows[0][0]
    report = _audit(domain, f"{metric.capitalize()} was {key} for {entity} {key}.")
    assert report.decision == "withhold"
    assert "unsupported_number" in {d.code for d in report.defects}


def test_a_key_is_a_label_only_of_an_entity() -> None:
    """Without the catalog's entity, an id-like member in the text is a number like any other."""
    entity, metric, unit, rows, money = DOMAINS["shop"]
    results = {"r1": {"metrics": [metric], "where": [],
                      "rows": [{entity: key, metric: v} for key, v in rows]}}
    claims = [{"kind": "measurement", "value": v,
               "text": f"Revenue for {entity} {key} was ${v:,}",
               "sources": [f"r1[{entity}={key}]:{metric}.value"]} for key, v in rows]
    answer = {"status": "answered", "answer": _listing("shop"), "claims": claims,
              "value": rows[0][0]}
    report = showwork.audit_answer(answer, results, {"metrics": {metric: {"unit": unit}}})
    assert "unsupported_number" in {d.code for d in report.defects}
