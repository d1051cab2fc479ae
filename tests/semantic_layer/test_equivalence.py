"""Governed queries equal SQL written by hand over the raw tables (every metric, dimension, grain)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from showwork.semantic_layer import SemanticLayer

W_MAR = {"start": "2026-03-02", "end": "2026-03-29"}
NOT_TEST = "NOT u.is_test"

# (id, tool, arguments, hand SQL returning key columns then one column per metric value;
#  for compare: key columns, then current and previous per metric)
CASES: list[tuple[str, str, dict[str, Any], str]] = [
    ("active_users_week", "query",
     {"metrics": ["active_users"], "window": {"start": "2026-03-09", "end": "2026-03-15"}},
     f"""SELECT count(DISTINCT e.user_id) FROM events e JOIN users u USING (user_id)
         WHERE e.event_type='app_open' AND {NOT_TEST}
           AND CAST(e.event_ts AS DATE) BETWEEN '2026-03-09' AND '2026-03-15'"""),
    ("active_days_by_platform", "query",
     {"metrics": ["active_days"], "window": W_MAR, "group_by": ["platform"]},
     f"""SELECT u.platform, count(*) FROM (SELECT DISTINCT user_id, CAST(event_ts AS DATE) d
           FROM events WHERE event_type='app_open'
           AND CAST(event_ts AS DATE) BETWEEN '2026-03-02' AND '2026-03-29') x
         JOIN users u USING (user_id) WHERE {NOT_TEST} GROUP BY 1 ORDER BY 1"""),
    ("days_per_user_by_plan", "query",
     {"metrics": ["days_per_user"], "window": W_MAR, "group_by": ["plan"]},
     f"""SELECT u.plan, count(*)::DOUBLE / count(DISTINCT x.user_id)
         FROM (SELECT DISTINCT user_id, CAST(event_ts AS DATE) d FROM events
               WHERE event_type='app_open'
               AND CAST(event_ts AS DATE) BETWEEN '2026-03-02' AND '2026-03-29') x
         JOIN users u USING (user_id) WHERE {NOT_TEST} GROUP BY 1 ORDER BY 1"""),
    ("real_value_moments_by_country", "query",
     {"metrics": ["real_value_moments"], "window": W_MAR, "group_by": ["country"]},
     f"""SELECT u.country, count(*) FROM events e JOIN users u USING (user_id)
         WHERE e.event_type='value_moment' AND {NOT_TEST}
           AND CAST(e.event_ts AS DATE) BETWEEN '2026-03-02' AND '2026-03-29'
         GROUP BY 1 ORDER BY 1"""),
    ("legacy_value_moments_includes_test", "query",
     {"metrics": ["value_moments"], "window": {"start": "2026-05-04", "end": "2026-05-10"}},
     """SELECT count(*) FROM events WHERE event_type='value_moment'
          AND CAST(event_ts AS DATE) BETWEEN '2026-05-04' AND '2026-05-10'"""),
    ("weekly_value_moments_by_week", "query",
     {"metrics": ["weekly_value_moments"], "window": W_MAR, "grain": "week"},
     f"""SELECT CAST(date_trunc('week', e.event_ts) AS DATE)::VARCHAR, count(*)
         FROM events e JOIN users u USING (user_id)
         WHERE e.event_type='value_moment' AND {NOT_TEST}
           AND e.event_ts >= '2026-03-02' AND e.event_ts < '2026-03-30' GROUP BY 1 ORDER BY 1"""),
    ("moments_per_day_by_channel", "query",
     {"metrics": ["moments_per_day"], "window": W_MAR, "group_by": ["channel"]},
     f"""WITH vm AS (SELECT u.channel, count(*) n FROM events e JOIN users u USING (user_id)
           WHERE e.event_type='value_moment' AND {NOT_TEST}
             AND CAST(e.event_ts AS DATE) BETWEEN '2026-03-02' AND '2026-03-29' GROUP BY 1),
         ad AS (SELECT u.channel, count(*) n FROM (SELECT DISTINCT user_id, CAST(event_ts AS DATE)
             FROM events WHERE event_type='app_open'
             AND CAST(event_ts AS DATE) BETWEEN '2026-03-02' AND '2026-03-29') x
           JOIN users u USING (user_id) WHERE {NOT_TEST} GROUP BY 1)
         SELECT ad.channel, vm.n::DOUBLE / ad.n FROM ad JOIN vm USING (channel) ORDER BY 1"""),
    ("new_users_by_month", "query",
     {"metrics": ["new_users"], "window": {"start": "2026-01-01", "end": "2026-05-31"},
      "grain": "month"},
     f"""SELECT strftime(signup_date, '%Y-%m-01'), count(*) FROM users u
         WHERE {NOT_TEST} AND signup_date BETWEEN '2026-01-01' AND '2026-05-31'
         GROUP BY 1 ORDER BY 1"""),
    ("new_users_by_channel_campaign", "query",
     {"metrics": ["new_users"], "window": {"start": "2026-03-09", "end": "2026-03-22"},
      "group_by": ["channel"]},
     f"""SELECT channel, count(*) FROM users u WHERE {NOT_TEST}
           AND signup_date BETWEEN '2026-03-09' AND '2026-03-22' GROUP BY 1 ORDER BY 1"""),
    ("new_users_by_signup_month", "query",
     {"metrics": ["new_users"], "window": {"start": "2026-01-01", "end": "2026-03-31"},
      "group_by": ["signup_month"]},
     f"""SELECT strftime(signup_date, '%Y-%m'), count(*) FROM users u WHERE {NOT_TEST}
           AND signup_date BETWEEN '2026-01-01' AND '2026-03-31' GROUP BY 1 ORDER BY 1"""),
    ("reminders_sent_by_day", "query",
     {"metrics": ["reminders_sent"], "window": {"start": "2026-04-13", "end": "2026-04-16"},
      "grain": "day"},
     f"""SELECT CAST(r.sent_at AS DATE)::VARCHAR, count(*) FROM reminders r
         JOIN users u USING (user_id) WHERE {NOT_TEST}
           AND CAST(r.sent_at AS DATE) BETWEEN '2026-04-13' AND '2026-04-16'
         GROUP BY 1 ORDER BY 1"""),
    ("reminders_opened_android", "query",
     {"metrics": ["reminders_opened"], "window": {"start": "2026-04-13", "end": "2026-04-19"},
      "where": [{"dimension": "platform", "op": "in", "values": ["android"]}]},
     f"""SELECT count(*) FROM reminders r JOIN users u USING (user_id)
         WHERE {NOT_TEST} AND u.platform = 'android' AND r.opened_at IS NOT NULL
           AND CAST(r.sent_at AS DATE) BETWEEN '2026-04-13' AND '2026-04-19'"""),
    ("reminder_open_rate_by_platform", "query",
     {"metrics": ["reminder_open_rate"], "window": {"start": "2026-04-13", "end": "2026-04-19"},
      "group_by": ["platform"]},
     f"""SELECT u.platform, avg(CASE WHEN r.opened_at IS NULL THEN 0 ELSE 1 END)
         FROM reminders r JOIN users u USING (user_id) WHERE {NOT_TEST}
           AND CAST(r.sent_at AS DATE) BETWEEN '2026-04-13' AND '2026-04-19'
         GROUP BY 1 ORDER BY 1"""),
    ("paid_subscribers_end_of_march", "query",
     {"metrics": ["paid_subscribers"], "window": {"start": "2026-03-01", "end": "2026-03-31"}},
     f"""SELECT count(*) FROM subscriptions s JOIN users u USING (user_id)
         WHERE {NOT_TEST} AND s.plan = 'plus' AND s.started_on <= DATE '2026-03-31'
           AND (s.ended_on IS NULL OR s.ended_on > DATE '2026-03-31')"""),
    ("paid_subscribers_by_country", "query",
     {"metrics": ["paid_subscribers"], "window": {"start": "2026-05-01", "end": "2026-05-31"},
      "group_by": ["country"]},
     f"""SELECT u.country, count(*) FROM subscriptions s JOIN users u USING (user_id)
         WHERE {NOT_TEST} AND s.plan = 'plus' AND s.started_on <= DATE '2026-05-31'
           AND (s.ended_on IS NULL OR s.ended_on > DATE '2026-05-31') GROUP BY 1 ORDER BY 1"""),
    ("mrr_by_month", "query",
     {"metrics": ["mrr_usd"], "window": {"start": "2026-02-01", "end": "2026-04-30"},
      "grain": "month"},
     f"""WITH ends(m, d) AS (VALUES ('2026-02-01', DATE '2026-02-28'),
                                   ('2026-03-01', DATE '2026-03-31'),
                                   ('2026-04-01', DATE '2026-04-30'))
         SELECT m, (SELECT count(*) FROM subscriptions s JOIN users u USING (user_id)
                    WHERE {NOT_TEST} AND s.plan='plus' AND s.started_on <= d
                      AND (s.ended_on IS NULL OR s.ended_on > d))
                 * (SELECT monthly_price_usd FROM prices WHERE plan='plus' AND effective_from <= d
                    ORDER BY effective_from DESC LIMIT 1)
         FROM ends ORDER BY m"""),
    ("plus_price_after_rise", "query",
     {"metrics": ["plus_price"], "window": {"start": "2026-03-01", "end": "2026-03-31"}},
     "SELECT 12.99"),
    ("active_users_filter_not_in", "query",
     {"metrics": ["active_users"], "window": W_MAR,
      "where": [{"dimension": "country", "op": "not_in", "values": ["US", "GB"]}]},
     f"""SELECT count(DISTINCT e.user_id) FROM events e JOIN users u USING (user_id)
         WHERE e.event_type='app_open' AND {NOT_TEST} AND u.country NOT IN ('US', 'GB')
           AND CAST(e.event_ts AS DATE) BETWEEN '2026-03-02' AND '2026-03-29'"""),
    ("active_users_two_dims_top3", "query",
     {"metrics": ["active_users"], "window": W_MAR, "group_by": ["platform", "plan"],
      "order_by": {"field": "active_users", "desc": True}, "limit": 3},
     f"""SELECT u.platform, u.plan, count(DISTINCT e.user_id) n FROM events e
         JOIN users u USING (user_id) WHERE e.event_type='app_open' AND {NOT_TEST}
           AND CAST(e.event_ts AS DATE) BETWEEN '2026-03-02' AND '2026-03-29'
         GROUP BY 1, 2 ORDER BY n DESC, 1, 2 LIMIT 3"""),
    ("new_users_summed_over_weeks", "query",
     {"metrics": ["new_users"], "window": {"start": "2026-03-02", "end": "2026-03-29"},
      "grain": "week", "aggregate": "sum"},
     f"""SELECT count(*) FROM users u WHERE {NOT_TEST}
           AND signup_date BETWEEN '2026-03-02' AND '2026-03-29'"""),
    ("compare_tree_story1", "compare",
     {"metrics": ["active_users", "real_value_moments"],
      "current_window": {"start": "2026-03-09", "end": "2026-03-15"},
      "previous_window": {"start": "2026-03-02", "end": "2026-03-08"}},
     f"""SELECT
          count(DISTINCT e.user_id) FILTER (WHERE e.event_type='app_open' AND e.event_ts >= '2026-03-09'),
          count(DISTINCT e.user_id) FILTER (WHERE e.event_type='app_open' AND e.event_ts < '2026-03-09'),
          count(*) FILTER (WHERE e.event_type='value_moment' AND e.event_ts >= '2026-03-09'),
          count(*) FILTER (WHERE e.event_type='value_moment' AND e.event_ts < '2026-03-09')
         FROM events e JOIN users u USING (user_id)
         WHERE {NOT_TEST} AND e.event_ts >= '2026-03-02' AND e.event_ts < '2026-03-16'"""),
    ("compare_open_rate_by_platform", "compare",
     {"metrics": ["reminder_open_rate"], "by": "platform",
      "current_window": {"start": "2026-04-13", "end": "2026-04-19"},
      "previous_window": {"start": "2026-04-06", "end": "2026-04-12"}},
     f"""SELECT u.platform,
          avg(CASE WHEN r.opened_at IS NULL THEN 0 ELSE 1 END) FILTER (WHERE r.sent_at >= '2026-04-13'),
          avg(CASE WHEN r.opened_at IS NULL THEN 0 ELSE 1 END) FILTER (WHERE r.sent_at < '2026-04-13')
         FROM reminders r JOIN users u USING (user_id)
         WHERE {NOT_TEST} AND r.sent_at >= '2026-04-06' AND r.sent_at < '2026-04-20'
         GROUP BY 1 ORDER BY 1"""),
    ("compare_paid_subscribers", "compare",
     {"metrics": ["paid_subscribers"],
      "current_window": {"start": "2026-03-01", "end": "2026-03-31"},
      "previous_window": {"start": "2026-02-01", "end": "2026-02-28"}},
     f"""SELECT
          count(*) FILTER (WHERE s.started_on <= '2026-03-31' AND (s.ended_on IS NULL OR s.ended_on > '2026-03-31')),
          count(*) FILTER (WHERE s.started_on <= '2026-02-28' AND (s.ended_on IS NULL OR s.ended_on > '2026-02-28'))
         FROM subscriptions s JOIN users u USING (user_id) WHERE {NOT_TEST} AND s.plan = 'plus'"""),
]


def governed_rows(result) -> list[tuple]:
    rows = []
    for row in result.rows:
        key = tuple(row.key[k] for k in result.keys)
        if result.kind == "compare":
            vals = tuple(v for m in result.metrics
                         for v in (row.values[m]["value"], row.values[m]["previous"]))
        else:
            vals = tuple(row.values[m]["value"] for m in result.metrics)
        rows.append(key + vals)
    return rows


def same(a: object, b: object) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
    return str(a) == str(b)


@pytest.mark.parametrize(("case_id", "tool", "args", "sql"), CASES, ids=[c[0] for c in CASES])
def test_governed_equals_hand_sql(layer: SemanticLayer, raw, case_id, tool, args, sql) -> None:
    """The governed result has exactly the rows and values of the hand-written query."""
    result = layer.call(tool, args)
    expected = [tuple(float(v) if hasattr(v, "as_integer_ratio") and not isinstance(v, int)
                      else v for v in r) for r in raw.execute(sql).fetchall()]
    got = governed_rows(result)
    assert len(got) == len(expected) and got, (got, expected)
    for g, e in zip(got, expected, strict=True):
        assert len(g) == len(e) and all(same(x, y) for x, y in zip(g, e, strict=True)), (g, e)


def test_cases_cover_every_metric_dimension_and_grain(layer: SemanticLayer) -> None:
    """The case table exercises every governed metric, every dimension, every grain, both tools."""
    metrics = {m for _, _, a, _ in CASES for m in a["metrics"]}
    dims = {d for _, _, a, _ in CASES for d in a.get("group_by", []) + [a.get("by")]
            + [f["dimension"] for f in a.get("where", [])] if d}
    grains = {a["grain"] for _, _, a, _ in CASES if a.get("grain")}
    tools = {t for _, t, _, _ in CASES}
    assert metrics == set(layer.model.metric_index)
    assert dims == set(layer.model.dimensions)
    assert grains == {"day", "week", "month"}
    assert tools == {"query", "compare"}
    assert len(CASES) >= 20
