"""Governed calls are validated before anything runs; each refusal names what is supported."""

from __future__ import annotations

import pytest

from showwork.semantic_layer import SemanticLayer, errors

W = {"start": "2026-03-09", "end": "2026-03-15"}


def _q(**kw):
    return {"metrics": ["active_users"], "window": W, **kw}


BLOCKED = [
    ("unknown metric with close match", _q(metrics=["active_user"]), errors.UnknownMetric,
     "Did you mean active_users"),
    ("undefined composition", _q(metrics=["real_value_moments / active_users"]),
     errors.UndefinedComposition, "defined compositions: days_per_user"),
    ("unsupported dimension", _q(group_by=["age"]), errors.UnsupportedDimension,
     "supported: channel, country, plan, platform, signup_month"),
    ("unknown member", _q(where=[{"dimension": "platform", "values": ["windows"]}]),
     errors.UnknownMember, "members: ios, android, web"),
    ("open dimension wrong shape", _q(where=[{"dimension": "signup_month", "values": ["March"]}]),
     errors.UnknownMember, "expected YYYY-MM"),
    ("grain not allowed", {"metrics": ["weekly_value_moments"], "window": W, "grain": "day"},
     errors.GrainNotAllowed, "allowed: week"),
    ("week metric on a partial week window",
     {"metrics": ["weekly_value_moments"], "window": {"start": "2026-03-10", "end": "2026-03-15"}},
     errors.GrainNotAllowed, "whole weeks"),
    ("point in time summed", {"metrics": ["paid_subscribers"], "grain": "month",
                              "aggregate": "sum",
                              "window": {"start": "2026-01-01", "end": "2026-03-31"}},
     errors.PointInTimeOverPeriod, "point-in-time"),
    ("distinct count summed", _q(grain="day", aggregate="sum"), errors.NonAdditiveSum,
     "not additive"),
    ("future window", _q(window={"start": "2026-07-01", "end": "2026-07-07"}), errors.WindowError,
     "in the future"),
    ("before coverage", {"metrics": ["reminders_sent"],
                         "window": {"start": "2026-01-05", "end": "2026-01-11"}},
     errors.WindowError, "sources cover 2026-02-02..2026-06-17"),
    ("reversed window", _q(window={"start": "2026-03-15", "end": "2026-03-09"}), errors.WindowError,
     "reversed"),
    ("overlapping compare windows",
     ("compare", {"metrics": ["active_users"], "current_window": W,
                  "previous_window": {"start": "2026-03-12", "end": "2026-03-18"}}),
     errors.WindowError, "overlap"),
    ("absurd limit", _q(limit=10**9), errors.InvalidArguments, "limit"),
    ("negative limit", _q(limit=-1), errors.InvalidArguments, "limit"),
    ("unknown grain", _q(grain="hour"), errors.InvalidArguments, "grain"),
    ("extra key", _q(sql="SELECT 1"), errors.InvalidArguments, "Extra inputs"),
    ("not an object", ["active_users"], errors.InvalidArguments, "JSON object"),
    ("order by something not asked", _q(order_by={"field": "new_users"}),
     errors.InvalidArguments, "order by one of"),
]


@pytest.mark.parametrize(("name", "args", "error", "message"), BLOCKED,
                         ids=[b[0] for b in BLOCKED])
def test_blocked_with_clear_reason(layer: SemanticLayer, name, args, error, message) -> None:
    """The call is refused with a typed error whose message names the fix."""
    kind, raw = args if isinstance(args, tuple) else ("query", args)
    with pytest.raises(error) as info:
        layer.call(kind, raw)
    assert message in info.value.message


INJECTIONS = ["active_users; DROP TABLE users", "active_users' OR '1'='1", "x\") --",
              "active_users/*", "1; SELECT * FROM read_csv('/etc/passwd')"]


@pytest.mark.parametrize("evil", INJECTIONS)
def test_injection_in_every_argument_is_refused(layer: SemanticLayer, evil: str) -> None:
    """SQL in a metric, dimension, member or filter value is a typed refusal; nothing runs."""
    attempts = [
        _q(metrics=[evil]), _q(group_by=[evil]),
        _q(where=[{"dimension": evil, "values": ["ios"]}]),
        _q(where=[{"dimension": "platform", "values": [evil]}]),
        _q(where=[{"dimension": "signup_month", "values": [evil]}]),
        _q(order_by={"field": evil}),
    ]
    for raw in attempts:
        with pytest.raises(errors.BlockedQuery):
            layer.call("query", raw)
    assert layer.connection.execute("SELECT count(*) FROM users").fetchone()[0] > 0


def test_homoglyph_metric_is_unknown_not_silently_fixed(layer: SemanticLayer) -> None:
    """A Cyrillic 'а' in a metric name is refused and the real name suggested."""
    with pytest.raises(errors.UnknownMetric, match="Did you mean active_users"):
        layer.call("query", _q(metrics=["\u0430ctive_users"]))


def test_previous_name_resolves_and_says_so(layer: SemanticLayer) -> None:
    """Asking by a previous name answers for the current metric and records the rename."""
    result = layer.call("query", _q(metrics=["stickiness_days"]))
    assert result.metrics == ("days_per_user",)
    assert result.renamed == {"stickiness_days": "days_per_user"}
    direct = layer.call("query", _q(metrics=["days_per_user"]))
    assert result.rows[0].values == direct.rows[0].values


def test_partly_covered_window_is_answered_and_flagged(layer: SemanticLayer) -> None:
    """A window reaching past the data is answered for what is covered and flagged partial."""
    result = layer.call("query", _q(window={"start": "2026-06-15", "end": "2026-06-21"}))
    assert result.partial
    assert result.coverage[0]["covered"] == {"start": "2026-06-15", "end": "2026-06-17"}


def test_member_filter_values_are_literals(layer: SemanticLayer) -> None:
    """A quote in an allowed open-dimension value cannot escape; compiled SQL quotes it."""
    compiled = layer.compile("query", _q(where=[{"dimension": "platform", "values": ["ios"]}]))
    assert "IN ('ios')" in compiled.sql
