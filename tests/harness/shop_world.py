"""A second, hand-built domain the audit tests read against: a shop's catalog, results and
clean answers (stores with spaces and punctuation, a member inside another, members that are
common words, dates written as 'week of 13 April', 'April 13–19' and '2026-W16').

Members with spaces or punctuation are cited through a result filtered to them (the citation
grammar's quoted members are not needed for that)."""

from __future__ import annotations

import copy
from typing import Any

from showwork.harness.audit import Evidence
from showwork.semantic_layer.results import Result, Row

STORE, REGION, PRODUCT, SEGMENT = ("store__store_name", "store__region", "product__product_name",
                                   "customer__segment")
DIMS = [STORE, REGION, PRODUCT, SEGMENT]
GRAINS = ["day", "week", "month"]


def _metric(label: str, synonyms: list[str], description: str | None = None,
            unit: str | None = None, previous: list[str] | None = None) -> dict[str, Any]:
    return {"label": label, "synonyms": synonyms, "description": description, "unit": unit,
            "previous_names": previous or [], "grains": GRAINS, "point_in_time": False,
            "dimensions": DIMS}


CATALOG: dict[str, Any] = {
    "model_version": "shop-1", "as_of": "2026-06-30", "grains": GRAINS,
    "metrics": {
        "revenue": _metric("revenue", ["sales", "takings"], "Gross sales in USD.", "usd",
                           ["gross_sales"]),
        "net_revenue": _metric("net revenue", ["revenue after refunds"],
                               "Revenue minus refunds, in USD.", "usd"),
        "order_count": _metric("orders", ["order count", "number of orders"], "Orders placed."),
        "average_order_value": _metric("average order value", ["aov", "basket size"],
                                       "revenue / order_count.", "usd"),
        "items_sold": _metric("items sold", ["units sold"]),
    },
    "dimensions": {
        STORE: {"label": "store", "synonyms": ["shop"], "pattern": None,
                "members": ["Brooklyn", "Brooklyn Heights", "St. Mark's Place",
                            "Joe's (Downtown)", "Soho"]},
        REGION: {"label": "region", "members": ["US", "IN", "EU"], "pattern": None},
        PRODUCT: {"label": "product", "pattern": None,
                  "members": ["jaffle", "nutellaphone who dis?", "chai and mighty",
                              "vanilla ice"]},
        SEGMENT: {"label": "segment", "members": ["new", "returning"], "pattern": None,
                  "member_synonyms": {"first-time": "new"}},
    },
    "tree": {"exact": [{"parent": "revenue", "op": "multiply",
                        "factors": ["order_count", "average_order_value"]}],
             "influence": [{"source": "items_sold", "target": "order_count"}]},
}

W16 = {"start": "2026-04-13", "end": "2026-04-19"}
W15 = {"start": "2026-04-06", "end": "2026-04-12"}
APRIL = {"start": "2026-04-01", "end": "2026-04-30"}
WEEKS = {"start": "2026-03-30", "end": "2026-04-26"}


def _cov(*windows: dict[str, str]) -> tuple[dict[str, Any], ...]:
    return tuple({"requested": w, "covered": w, "partial": False} for w in windows)


def _cmp(now: float, before: float) -> dict[str, float]:
    return {"value": now, "previous": before, "delta": round(now - before, 2),
            "pct_change": round((now - before) / before * 100, 2)}


COMMON = {"sql": "SELECT 1", "model_version": "shop-1"}
STORES = {"Brooklyn": 9000.0, "Brooklyn Heights": 12345.0, "St. Mark's Place": 7000.0,
          "Joe's (Downtown)": 5000.0, "Soho": 3000.0}
PRODUCTS = {"jaffle": 410.0, "nutellaphone who dis?": 40.0, "chai and mighty": 120.0,
            "vanilla ice": 75.0}
REGIONS = {"US": (20000.0, 25000.0), "IN": (6000.0, 5000.0), "EU": (10345.0, 9000.0)}
TREND = {"2026-03-30": 30000.0, "2026-04-06": 39000.0, "2026-04-13": 36345.0,
         "2026-04-20": 41000.0}
TREE = {"revenue": _cmp(36345.0, 39000.0), "order_count": _cmp(1200.0, 1300.0),
        "average_order_value": _cmp(30.29, 30.0)}


def results() -> list[tuple[Result, dict[str, Any]]]:
    """(result, the call's arguments) for r1…r10."""
    def where(dim: str, member: str) -> dict[str, Any]:
        return {"where": [{"dimension": dim, "op": "in", "values": [member]}]}

    return [
        (Result("compare", tuple(TREE), (), (Row({}, TREE),), _cov(W16, W15), **COMMON), {}),
        (Result("query", ("revenue",), (STORE,), tuple(
            Row({STORE: s}, {"revenue": {"value": v}}) for s, v in STORES.items()),
            _cov(W16), **COMMON), {"group_by": [STORE]}),
        (Result("query", ("items_sold",), (PRODUCT,), tuple(
            Row({PRODUCT: p}, {"items_sold": {"value": v}}) for p, v in PRODUCTS.items()),
            _cov(APRIL), **COMMON), {"group_by": [PRODUCT]}),
        (Result("compare", ("revenue",), (REGION,), tuple(
            Row({REGION: r}, {"revenue": _cmp(*v)}) for r, v in REGIONS.items()),
            _cov(W16, W15), **COMMON), {"by": REGION}),
        (Result("query", ("revenue",), (), (Row({}, {"revenue": {"value": 12345.0}}),),
                _cov(W16), **COMMON), where(STORE, "Brooklyn Heights")),
        (Result("query", ("revenue",), ("week",), tuple(
            Row({"week": w}, {"revenue": {"value": v}}) for w, v in TREND.items()),
            _cov(WEEKS), grain="week", **COMMON), {"grain": "week"}),
        (Result("query", ("order_count",), (), (Row({}, {"order_count": {"value": 480.0}}),),
                _cov(W16), **COMMON), where(SEGMENT, "new")),
        (Result("compare", ("net_revenue",), (), (Row({}, {"net_revenue": _cmp(5600.0, 4800.0)}),),
                _cov(W16, W15), **COMMON), where(REGION, "IN")),
        (Result("query", ("items_sold",), (), (Row({}, {"items_sold": {"value": 40.0}}),),
                _cov(APRIL), **COMMON), where(PRODUCT, "nutellaphone who dis?")),
        (Result("query", ("revenue",), (), (Row({}, {"revenue": {"value": 7000.0}}),),
                _cov(W16), **COMMON), where(STORE, "St. Mark's Place")),
    ]


def calls() -> list[dict[str, Any]]:
    return [{"tool": r.kind, "arguments": args, "handle": i, "result": r.to_json(), "error": None}
            for i, (r, args) in enumerate(results(), 1)]


def evidence() -> Evidence:
    return Evidence.from_json(calls())


def results_view() -> dict[int, dict[str, Any]]:
    """The plain view the fault injectors read: what each call returned and asked."""
    return {i: {**r.to_json(), "where": args.get("where", [])}
            for i, (r, args) in enumerate(results(), 1)}


def m(text: str, source: str, value: Any, *also: str) -> dict[str, Any]:
    return {"text": text, "kind": "measurement", "sources": [source, *also], "value": value}


def argue(text: str, premises: list[str], kind: str = "conclusion") -> dict[str, Any]:
    return {"text": text, "kind": kind, "premises": premises}


def answer(text: str, claims: list[dict[str, Any]], value: Any = None,
           driver: str | None = None) -> dict[str, Any]:
    return {"status": "answered", "answer": text, "value": value, "driver": driver,
            "refusal_reason": None, "claims": claims}


def _pct(key: str) -> float:
    return TREE[key]["pct_change"]


ANSWERS: list[tuple[str, dict[str, Any]]] = [
    ("Why did revenue fall in the week of 13 April 2026?", answer(
        "Revenue fell 6.81% because orders fell 7.69%.", [
            m("Revenue fell 6.81% in the week of 13 April versus the week of 6 April",
              "r1:revenue.pct_change", _pct("revenue")),
            m("Orders fell 7.69%", "r1:order_count.pct_change", _pct("order_count")),
            m("Average order value rose 0.97%", "r1:average_order_value.pct_change",
              _pct("average_order_value")),
            argue("Revenue fell because orders fell", ["c1", "c2", "tree:revenue>order_count"],
                  "causal")], _pct("revenue"), "order_count")),
    ("Which store had the most revenue in 2026-W16?", answer(
        "Brooklyn Heights had the most revenue in 2026-W16.", [
            m("Revenue at Brooklyn Heights was 12,345 in April 13–19", "r5:revenue.value",
              12345.0),
            m("Revenue at Brooklyn was 9,000 in 2026-W16",
              "r2[store__store_name=Brooklyn]:revenue.value", 9000.0),
            m("Revenue at St. Mark's Place was 7,000 in the week of 13 April",
              "r10:revenue.value", 7000.0),
            argue("Brooklyn Heights had the most revenue in 2026-W16, ahead of Brooklyn",
                  ["c1", "c2", "c3"])], "Brooklyn Heights")),
    ("What were items sold by product in April 2026?", answer(
        "Items sold by product in April 2026: jaffle 410, nutellaphone who dis? 40.", [
            m("Items sold of jaffle were 410 in April 2026",
              "r3[product__product_name=jaffle]:items_sold.value", 410.0),
            m("Units sold of nutellaphone who dis? were 40 in 2026-04-01..2026-04-30",
              "r9:items_sold.value", 40.0)])),
    ("How did revenue change in region IN in the week of 2026-04-13 compared with the week "
     "before?", answer(
        "Revenue in region IN rose 20.0%.", [
            m("Revenue in region IN rose 20.0% (5,000 → 6,000), April 13–19 versus April 6–12",
              "r4[store__region=IN]:revenue.pct_change", 20.0,
              "r4[store__region=IN]:revenue.previous", "r4[store__region=IN]:revenue.value"),
            m("Revenue in the US fell 20.0% in 2026-W16",
              "r4[store__region=US]:revenue.pct_change", -20.0)], 20.0)),
    ("What was revenue at Brooklyn Heights in the week of 13 April?", answer(
        "Revenue at Brooklyn Heights was 12,345 in 2026-W16.", [
            m("Revenue at Brooklyn Heights was 12,345 in 2026-W16", "r5:revenue.value",
              12345.0)], 12345.0)),
    ("What was weekly revenue from 2026-03-30 to 2026-04-26?", answer(
        "Weekly revenue went from 30,000 to 41,000.", [
            m("Revenue in the week of 30 March was 30,000", "r6[week=2026-03-30]:revenue.value",
              30000.0),
            m("Revenue in the week of 2026-04-06 was 39,000", "r6[week=2026-04-06]:revenue.value",
              39000.0),
            m("Revenue in 2026-W16 was 36,345", "r6[week=2026-04-13]:revenue.value", 36345.0),
            m("Revenue in April 20–26 was 41,000", "r6[week=2026-04-20]:revenue.value",
              41000.0)])),
    ("How many orders did first-time customers place in the week of 13 April?", answer(
        "Orders from the new segment were 480 in the week of 13 April.", [
            m("Orders from the new segment were 480 in the week of 13 April",
              "r7:order_count.value", 480.0)], 480.0)),
    ("How did net revenue change in the IN region in April 13–19 compared with the week before?",
     answer("Net revenue in the IN region rose 16.67%.", [
         m("Net revenue in the IN region rose 16.67% in the week of 13 April 2026",
           "r8:net_revenue.pct_change", 16.67)], 16.67)),
]
"""(question, a clean answer to it): every claim grounded, every label and scope right."""


def clean(i: int) -> tuple[str, dict[str, Any]]:
    question, a = ANSWERS[i]
    return question, copy.deepcopy(a)
