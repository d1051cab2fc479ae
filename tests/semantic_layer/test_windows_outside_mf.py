"""A window partly or wholly outside the data, on metrics that reach the time spine (a spine
join, an offset, a cumulative window), answered as MetricFlow 0.210 answers it and checked
beside MetricFlow itself (conformance/.venv, conformance/mf_driver.py: the SQL `mf query` runs)
on two projects, every row compared: the shop example's sign-ups and the conformance project's
refunds. The windows are made from each project's own coverage and spine: beginning before the
data's first day, ending after its last, wholly before or after them, and across the spine's
first or last day (MetricFlow gives the spine's periods inside the window rows, up to the
spine's bounds). conformance/differential.py's `outside_*` cases ask the same on generated
worlds."""

from __future__ import annotations

import datetime as dt
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.project import load_project

sys.path.insert(0, str(Path(__file__).parent))

import test_spine_reads_mf as spine_reads  # noqa: E402 - after the path is set (it sets ROOT's)
from test_conversion_spine_mf import _metricflow, _yaml_items, shop_with_spine  # noqa: E402
from test_spine_reads_mf import _plain, _with_metrics, spined_metrics  # noqa: E402

from conformance.differential import answer, compare  # noqa: E402

pytestmark = spine_reads.pytestmark  # slow; skipped without conformance/.venv's MetricFlow

Case = tuple[SemanticLayer, dict[str, dict[str, Any]], list[dict[str, Any]]]
GRAINS = ("day", "week", "month", "quarter")


def metrics_of(prefix: str, measure: str) -> list[dict[str, Any]]:
    """The spined, filled and cumulative metrics of test_spine_reads_mf, and a cumulative metric
    and an offset that read the bare measure (no spine join, no fill)."""
    bare = {"name": measure}
    return [*spined_metrics(prefix, measure),
            {"name": f"{prefix}_cum_month", "label": f"{prefix} cum month", "type": "cumulative",
             "type_params": {"measure": bare, "cumulative_type_params": {"window": "1 month"}}},
            {"name": f"{prefix}_all_time", "label": f"{prefix} all time", "type": "cumulative",
             "type_params": {"measure": bare}},
            {"name": f"{prefix}_bare", "label": f"{prefix} bare", "type": "simple",
             "type_params": {"measure": bare}},
            {"name": f"{prefix}_bare_qoq", "label": f"{prefix} bare qoq", "type": "derived",
             "type_params": {"expr": "cur - prev", "metrics": [
                 {"name": f"{prefix}_bare", "alias": "cur"},
                 {"name": f"{prefix}_bare", "offset_window": "1 quarter", "alias": "prev"}]}}]


def windows(first: dt.date, last: dt.date, spine: tuple[dt.date, dt.date]
            ) -> dict[str, tuple[dt.date, dt.date]]:
    """Windows outside the data (first..last) by shape, and across the spine's bounds."""
    day = dt.timedelta(days=1)
    return {"before": (first - 45 * day, first + 20 * day),
            "after": (last - 20 * day, last + 45 * day),
            "wholly_before": (first - 120 * day, first - 31 * day),
            "wholly_after": (last + 31 * day, last + 100 * day),
            "across_spine_start": (spine[0] - 25 * day, spine[0] + 40 * day),
            "across_spine_end": (spine[1] - 40 * day, spine[1] + 25 * day)}


def outside_queries(prefix: str, metrics: list[dict[str, Any]], shapes: dict[str, Any],
                    dim: str) -> list[dict[str, Any]]:
    """Each metric over each window, at a grain in turn; every third query by a dimension too,
    every fourth with the window as metric_time bounds in the --where."""
    grains = itertools.cycle(GRAINS)
    out: list[dict[str, Any]] = []
    for m in metrics:
        for shape, (start, end) in shapes.items():
            q: dict[str, Any] = {"id": f"{prefix}.q{len(out)}", "kind": f"outside_{shape}",
                                 "metrics": [m["name"]], "grain": next(grains),
                                 "group_by": [dim] if len(out) % 3 == 0 else [], "where": None}
            if len(out) % 4 == 0:
                ref = "{{ TimeDimension('metric_time', 'day') }}"
                q["where"] = f"{ref} >= '{start}' AND {ref} <= '{end}'"
            else:
                q["start"], q["end"] = start.isoformat(), end.isoformat()
            out.append(q)
    return out


def _case(work: Path, folder: Path, db: Path, prefix: str, measure: str, dim: str
          ) -> Iterator[Case]:
    metrics = metrics_of(prefix, measure)
    _with_metrics(folder / "models", metrics)
    layer = SemanticLayer(load_project(folder, database=db), db)
    first, last = layer.model.coverage(f"{prefix}_bare")
    spine = layer.model.spine_coverage
    assert spine is not None and last < spine.through  # (the shop's spine starts with its data)
    queries = outside_queries(prefix, metrics, windows(first, last, (spine.from_, spine.through)),
                              dim)
    models = _plain(_yaml_items(folder / "models", "semantic_models"))
    theirs = _metricflow(work, db, {"semantic_models": models, "metrics": metrics}, queries)
    yield layer, theirs, queries
    layer.close()


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Case]:
    """The shop's sign-ups (customers by signup_date) over a three-year day spine."""
    folder, db = shop_with_spine(tmp_path_factory.mktemp("shop_outside"))
    yield from _case(folder.parent, folder, db, "signup", "customers", "customer__segment")


@pytest.fixture(scope="module")
def conformance(shop_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Case]:
    """The conformance project's refunds (by refunded_on) over its own spine (2023–2025)."""
    work = tmp_path_factory.mktemp("conformance_outside")
    folder, db = spine_reads.conformance_copy(work, shop_db)
    yield from _case(work, folder, db, "refund", "refund_count", "transaction__channel")


@pytest.fixture(params=["shop", "conformance"])
def case(request: pytest.FixtureRequest) -> Case:
    return request.getfixturevalue(request.param)


Outcomes = dict[str, list[tuple[dict[str, Any], Any, dict[str, Any]]]]
_OUTCOMES: dict[str, Outcomes] = {}


def outcomes(case: Case) -> Outcomes:
    """The queries by outcome (equal, both_refuse, different, …), with what differs and
    showwork's answer (asked once per project)."""
    layer, theirs, queries = case
    key = queries[0]["id"]
    if key not in _OUTCOMES:
        out: Outcomes = {}
        for q in queries:
            ours = answer(layer, q)
            outcome, found = compare(q, theirs[q["id"]], ours)
            out.setdefault(outcome, []).append((q, found or ours.get("error"), ours))
        _OUTCOMES[key] = out
    return _OUTCOMES[key]


def test_every_window_outside_the_data_is_answered_as_metricflow_answers(case: Case) -> None:
    """Every query MetricFlow answers over a window partly or wholly outside the data, or
    across the spine's bounds, showwork answers with the same rows and values; none is
    refused where MetricFlow answers."""
    found = outcomes(case)
    assert [(q["id"], q["kind"], str(why)[:300]) for q, why, _ in found.get("different", [])] == []
    # (MetricFlow's own SQL for offset_to_grain under a time constraint does not bind: README)
    assert set(found) <= {"equal", "both_refuse", "known:metricflow_sql_error"}
    assert len(found["equal"]) > 120


def test_wholly_outside_windows_have_metricflows_rows(case: Case) -> None:
    """A window wholly before or after the data: where MetricFlow gives rows (a spined metric's
    periods, an offset's shifted data, a cumulative window's trailing data), showwork gives the
    same rows, none refused; across the spine's last day, no row after it."""
    layer, theirs, queries = case
    found = outcomes(case)
    wholly = [q for q in queries if q["kind"] in ("outside_wholly_before", "outside_wholly_after")
              and theirs[q["id"]].get("rows")]
    equal = {q["id"]: ours for q, _, ours in found["equal"]}
    assert len(wholly) > 10 and all(q["id"] in equal and equal[q["id"]]["rows"] for q in wholly)
    spine = layer.model.spine_coverage
    assert spine is not None
    ends = [(q["grain"], equal[q["id"]]) for q in queries
            if q["kind"] == "outside_across_spine_end" and equal.get(q["id"], {}).get("rows")]
    assert ends and all(r[f"metric_time__{grain}"] <= spine.through.isoformat()
                        for grain, ours in ends for r in ours["rows"])
