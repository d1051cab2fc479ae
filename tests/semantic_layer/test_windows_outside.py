"""A window partly or wholly outside the data, on a cumulative metric (which MetricFlow joins to
its time spine): `semantic query` and the public API answer it as MetricFlow does — the spine's
periods inside the window get rows, up to the spine's last day — where it was refused in both
modes; the analyst's tool still refuses a window wholly outside the data. On the conformance
project and the shop example with a day spine, each all-time cumulative metric found in the
project's own catalog (test_windows_outside_mf.py checks every shape against MetricFlow)."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from showwork.semantic_layer import SemanticLayer, parse_where
from showwork.semantic_layer.errors import NoDays
from showwork.semantic_layer.project import load_project
from showwork.semantic_layer.windows import DIALECTS, period_start

sys.path.insert(0, str(Path(__file__).parent))

from test_conversion_spine_mf import shop_with_spine  # noqa: E402

DAY = dt.timedelta(days=1)


@pytest.fixture(scope="module")
def spined_shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SemanticLayer]:
    """The shop example with a day spine (2017–2019) beside its data."""
    folder, db = shop_with_spine(tmp_path_factory.mktemp("shop_outside_fast"))
    layer = SemanticLayer(load_project(folder, database=db), db)
    yield layer
    layer.close()


@pytest.fixture(params=["conformance", "shop"])
def domain(request: pytest.FixtureRequest) -> SemanticLayer:
    # (conftest's `shop` fixture is the conformance project's layer)
    return request.getfixturevalue({"conformance": "shop", "shop": "spined_shop"}[request.param])


def _all_time(layer: SemanticLayer) -> list[str]:
    """The project's cumulative metrics over all time (no window, no grain_to_date)."""
    names = sorted(n for n, m in layer.model.metric_index.items()
                   if m.type == "cumulative" and m.window is None and m.grain_to_date is None)
    assert names, "the project has no all-time cumulative metric"
    return names


def _months_after(layer: SemanticLayer, metric: str) -> dict[str, str]:
    """Three whole months beginning two months after the metric's last day of data."""
    _, last = layer.model.coverage(metric)
    start = period_start(period_start(last, "month") + 62 * DAY, "month")
    end = period_start(start + 100 * DAY, "month") - DAY
    spine = layer.model.spine_coverage
    assert spine is not None and end <= spine.through
    return {"start": start.isoformat(), "end": end.isoformat()}


def test_after_the_data_an_all_time_total_holds_every_month(domain: SemanticLayer) -> None:
    """Wholly after the data, an all-time cumulative metric by month is the all-time total in
    every month of the window (the spine's months; nothing is refused)."""
    for metric in _all_time(domain):
        window = _months_after(domain, metric)
        total = domain.call("query", {"metrics": [metric]}, refuse_empty=False).rows
        rows = domain.call("query", {"metrics": [metric], "grain": "month", "window": window},
                           refuse_empty=False).rows
        assert [r.key["month"] for r in rows] == [
            window["start"][:8] + "01", *(
                period_start(dt.date.fromisoformat(window["start"]) + k * 31 * DAY,
                             "month").isoformat() for k in (1, 2))]
        (whole,) = total
        expected = whole.values[metric]["value"]
        assert expected and all(r.values[metric]["value"] == pytest.approx(expected, rel=1e-9)
                                for r in rows)


def test_across_the_spines_last_day_the_rows_stop_there(domain: SemanticLayer) -> None:
    """A window running past the spine's last day has a row for each spine day in it, and
    none after (MetricFlow joins the spine's days)."""
    spine = domain.model.spine_coverage
    assert spine is not None
    for metric in _all_time(domain):
        window = {"start": (spine.through - 9 * DAY).isoformat(),
                  "end": (spine.through + 20 * DAY).isoformat()}
        rows = domain.call("query", {"metrics": [metric], "grain": "day", "window": window},
                           refuse_empty=False).rows
        assert [r.key["day"] for r in rows] == [
            (spine.through - k * DAY).isoformat() for k in range(9, -1, -1)]
        beyond = {"start": (spine.through + DAY).isoformat(),
                  "end": (spine.through + 40 * DAY).isoformat()}
        result = domain.call("query", {"metrics": [metric], "grain": "week", "window": beyond},
                             refuse_empty=False)
        assert result.rows == () and "time spine holds" in result.notes[-1]


def test_before_the_data_a_cumulative_metric_has_no_rows(domain: SemanticLayer) -> None:
    """Wholly before the data an unspined cumulative metric has nothing to trail: no rows (as
    MetricFlow), with the coverage in the note."""
    for metric in _all_time(domain):
        first, _ = domain.model.coverage(metric)
        window = {"start": (first - 60 * DAY).isoformat(), "end": (first - DAY).isoformat()}
        result = domain.call("query", {"metrics": [metric], "grain": "week", "window": window},
                             refuse_empty=False)
        assert result.rows == () and any("is covered" in n for n in result.notes)


def test_the_analysts_tool_still_refuses(domain: SemanticLayer) -> None:
    """The analyst's tool (refuse_empty) refuses a window wholly outside the data, saying the
    sources' coverage: an all-spine answer must not read as measured."""
    for metric in _all_time(domain):
        window = _months_after(domain, metric)
        with pytest.raises(NoDays, match="outside the coverage|in the future"):
            domain.call("query", {"metrics": [metric], "grain": "month", "window": window})


def test_bounds_that_cross_have_no_rows(domain: SemanticLayer) -> None:
    """A --where bound before the window's start leaves no day at all: an all-time cumulative
    metric by a grain has no rows there (and compiles), as MetricFlow gives none."""
    for metric in _all_time(domain):
        first, last = domain.model.coverage(metric)
        args = {"metrics": [metric], "grain": "week", "whole_periods": True,
                "window": {"start": (last - 30 * DAY).isoformat(), "end": last.isoformat()}}
        where = f"{{{{ TimeDimension('metric_time', 'day') }}}} < '{first + 10 * DAY}'"
        crossed = parse_where(where).apply(args, domain.model, refuse_empty=False)
        result = domain.call("query", crossed, refuse_empty=False)
        assert result.rows == () and result.notes


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_dialect_compiles_the_spines_periods(domain: SemanticLayer, dialect: str) -> None:
    """Each dialect's SQL of a window wholly after the data reads the periods the spine holds
    (the bucket rows are literals: the same months whatever the dialect)."""
    from showwork.semantic_layer.compile import Compiler

    for metric in _all_time(domain):
        window = _months_after(domain, metric)
        plan = domain.plan("query", {"metrics": [metric], "grain": "month", "window": window},
                           refuse_empty=False)
        sql = Compiler(domain.model).compile(plan, dialect).sql
        assert window["start"] in sql and "SELECT" in sql.upper()
