"""A hand-built attempt (results and one blocked call) that audit tests cite against."""

from __future__ import annotations

import copy
from typing import Any

from showwork.harness.audit import Evidence
from showwork.semantic_layer import load_model
from showwork.semantic_layer.catalog import build_catalog
from showwork.semantic_layer.results import Result, Row

CUR = {"start": "2026-03-09", "end": "2026-03-15"}
PREV = {"start": "2026-03-02", "end": "2026-03-08"}


def _cov(req: dict, covered: dict | None = None) -> dict[str, Any]:
    covered = covered or req
    return {"requested": req, "covered": covered, "partial": covered != req}


def _cmp(now: float, before: float) -> dict[str, Any]:
    return {"value": now, "previous": before, "delta": now - before,
            "pct_change": (now - before) / before * 100}


AU, AD, RVM = (12834, 11705), (29056, 31281), (37994, 44025)


def _tree_row() -> dict[str, dict[str, Any]]:
    return {"weekly_value_moments": _cmp(*RVM), "active_users": _cmp(*AU),
            "days_per_user": _cmp(AD[0] / AU[0], AD[1] / AU[1]),
            "moments_per_day": _cmp(RVM[0] / AD[0], RVM[1] / AD[1])}


def results() -> list[Result]:
    common = {"sql": "SELECT 1", "model_version": "demo-2026.06"}
    r1 = Result("compare", ("weekly_value_moments", "active_users", "days_per_user",
                            "moments_per_day"), (), (Row({}, _tree_row()),),
                (_cov(CUR), _cov(PREV)), **common)
    r2 = Result("compare", ("reminder_open_rate", "days_per_user"), ("platform",), tuple(
        Row({"platform": p}, {"reminder_open_rate": _cmp(o, 0.41), "days_per_user": _cmp(d, 2.47)})
        for p, o, d in [("android", 0.021, 2.398), ("ios", 0.401, 2.463), ("web", 0.407, 2.432)]),
        (_cov({"start": "2026-04-13", "end": "2026-04-19"}),
         _cov({"start": "2026-04-06", "end": "2026-04-12"})), **common)
    part = {"start": "2026-06-15", "end": "2026-06-21"}
    r3 = Result("query", ("active_users",), (), (Row({}, {"active_users": {"value": 11742}}),),
                (_cov(part, {"start": "2026-06-15", "end": "2026-06-17"}),), **common)
    march = {"start": "2026-03-01", "end": "2026-03-31"}
    r4 = Result("query", ("paid_subscribers",), (), (
        Row({}, {"paid_subscribers": {"value": 4202}}),), (_cov(march),),
        point_in_time=("paid_subscribers",), **common)
    r5 = Result("query", ("active_days", "active_users", "new_users"), (), (
        Row({}, {"active_days": {"value": AD[0]}, "active_users": {"value": AU[0]},
                 "new_users": {"value": 1950}}),), (_cov(CUR),), **common)
    r6 = Result("query", ("weekly_value_moments",), ("week",), (
        Row({"week": "2026-03-02"}, {"weekly_value_moments": {"value": RVM[1]}}),
        Row({"week": "2026-03-09"}, {"weekly_value_moments": {"value": RVM[0]}})),
        (_cov({"start": "2026-03-02", "end": "2026-03-15"}),), grain="week", **common)
    return [r1, r2, r3, r4, r5, r6]


def calls() -> list[dict[str, Any]]:
    out = [{"tool": r.kind, "arguments": {}, "handle": i, "result": r.to_json(), "error": None}
           for i, r in enumerate(results(), 1)]
    out.append({"tool": "query", "arguments": {"metrics": ["active_users"], "group_by": ["age"]},
                "handle": None, "result": None,
                "error": {"code": "unsupported_dimension",
                          "message": "Unknown dimension 'age' for metric 'active_users'; "
                                     "supported: channel, country, plan, platform, signup_month."}})
    return out


def evidence() -> Evidence:
    return Evidence.from_json(calls())


CATALOG = build_catalog(load_model())

TREE = _tree_row()
GOOD: dict[str, Any] = {
    "status": "answered",
    "answer": "Weekly value moments fell 13.7% because days per user fell.",
    "value": round(TREE["weekly_value_moments"]["pct_change"], 2),
    "driver": "days_per_user",
    "refusal_reason": None,
    "claims": [
        {"text": "Days per user fell 15.3%", "kind": "measurement",
         "sources": ["r1:days_per_user.pct_change"],
         "value": round(TREE["days_per_user"]["pct_change"], 2)},
        {"text": "Active users rose 9.6%", "kind": "measurement",
         "sources": ["r1:active_users.pct_change"],
         "value": round(TREE["active_users"]["pct_change"], 2)},
        {"text": "Weekly value moments fell 13.7%", "kind": "measurement",
         "sources": ["r1:weekly_value_moments.pct_change"],
         "value": round(TREE["weekly_value_moments"]["pct_change"], 2)},
        {"text": "Android reminder open rate collapsed", "kind": "measurement",
         "sources": ["r2[platform=android]:reminder_open_rate.pct_change"],
         "value": round((0.021 - 0.41) / 0.41 * 100, 2)},
        {"text": "Weekly value moments fell because days per user fell",
         "kind": "causal",
         "premises": ["c1", "c2", "c3", "tree:weekly_value_moments>days_per_user"]},
    ],
}


def good() -> dict[str, Any]:
    return copy.deepcopy(GOOD)


def with_claim(claim: dict[str, Any], driver: str | None = None) -> dict[str, Any]:
    answer = good()
    answer["claims"].append(claim)
    if driver is not None:
        answer["driver"] = driver
    return answer
