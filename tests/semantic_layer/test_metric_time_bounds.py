"""A `--where` bounding metric_time on one side only, with no window: MetricFlow filters on the
bound, and so does the layer (the open side closed at the sources' coverage) — on the demo and
on the shop (conformance project), metrics picked from each model's own catalog."""

from __future__ import annotations

import datetime as dt

import pytest

from showwork.semantic_layer import SemanticLayer, parse_where


def _bound(day: dt.date, op: str) -> str:
    return f"{{{{ TimeDimension('metric_time', 'day') }}}} {op} '{day.isoformat()}'"


def _metric(layer: SemanticLayer, kind: str) -> str:
    model = layer.model
    names = [n for n, m in model.metric_index.items()
             if m.type == kind and (kind != "simple" or model.additive(n))]
    assert names, f"the model has no {kind} metric"
    return sorted(names)[0]


def _values(layer: SemanticLayer, args: dict) -> dict:
    result = layer.call("query", args)
    return {tuple(r.key.values()): r.values[args["metrics"][0]]["value"] for r in result.rows}


def _call(layer: SemanticLayer, where: str, **args) -> dict:
    return _values(layer, parse_where(where).apply(args))


@pytest.fixture(params=["demo", "shop"])
def domain(request: pytest.FixtureRequest) -> SemanticLayer:
    return request.getfixturevalue("layer" if request.param == "demo" else "shop")


def test_the_two_sides_of_a_bound_add_up(domain: SemanticLayer) -> None:
    """>= d and < d split the coverage: their totals add up to the whole coverage's, and each
    equals the same query with the window written out."""
    metric = _metric(domain, "simple")
    start, end = domain.model.coverage(metric)
    cut = start + (end - start) // 3
    upper = _call(domain, _bound(cut, ">="), metrics=[metric])
    lower = _call(domain, _bound(cut, "<"), metrics=[metric])
    whole = _values(domain, {"metrics": [metric], "window": {"start": start.isoformat(),
                                                             "end": end.isoformat()}})
    assert upper[()] + lower[()] == pytest.approx(whole[()], rel=1e-12)
    assert 0 < upper[()] < whole[()]  # the bound cut something off
    assert upper == _values(domain, {"metrics": [metric], "window": {
        "start": cut.isoformat(), "end": end.isoformat()}})


def test_a_bound_by_month_keeps_the_cut_partial_month(domain: SemanticLayer) -> None:
    """By month, the bound's month holds only the days from the bound (MetricFlow does not widen
    a where filter to whole periods)."""
    metric = _metric(domain, "simple")
    start, end = domain.model.coverage(metric)
    cut = start + (end - start) // 2
    cut = cut.replace(day=15)
    by_month = _call(domain, _bound(cut, ">="), metrics=[metric], grain="month")
    days = _call(domain, _bound(cut, ">="), metrics=[metric], grain="day")
    month = cut.replace(day=1).isoformat()
    assert by_month[(month,)] == pytest.approx(
        sum(v for (d,), v in days.items() if d[:7] == month[:7] and v is not None), rel=1e-12)
    assert min(d for (d,) in by_month) == month


def test_a_cumulative_metric_under_a_one_sided_bound(shop: SemanticLayer) -> None:
    """A cumulative metric by day after a bound is its rows without a bound from the bound on,
    as MetricFlow filters them: past the sources' last day while the trailing range still holds
    data (conformance/run.py's no_window_cum_where_start against `mf query`)."""
    metric = _metric(shop, "cumulative")
    start, end = shop.model.coverage(metric)
    cut = start + (end - start) // 2
    got = _call(shop, _bound(cut, ">="), metrics=[metric], grain="day")
    unbounded = _values(shop, {"metrics": [metric], "grain": "day"})
    assert got == {k: v for k, v in unbounded.items() if k[0] >= cut.isoformat()}
    window = shop.model.metric_index[metric].window
    assert window and window.count == 7 and window.grain == "day"
    assert len(got) == (end - cut).days + 1 + 6  # a 7-day range holds the last day 6 days on
