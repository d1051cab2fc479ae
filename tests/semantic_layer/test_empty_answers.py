"""A query no day of whose window is read, or naming a member outside a dimension's closed list:
`semantic query` and the public API answer it as MetricFlow does (no rows, or the rows of the
members there are, and a note saying why); the analyst's tool refuses it with the message it
always gave (issue 45). On the demo, the shop and the flights, every metric and dimension taken
from each project's own catalog and coverage."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from showwork import Project
from showwork.analyst.tools import Toolbox
from showwork.semantic_layer import SemanticError, SemanticLayer, parse_where
from showwork.semantic_layer.errors import InvalidFilter, UnknownMember, WindowError
from showwork.semantic_layer.results import Result


@pytest.fixture(params=["demo", "shop", "flights"])
def domain(request: pytest.FixtureRequest) -> SemanticLayer:
    return request.getfixturevalue({"demo": "layer", "shop": "shop_layer",
                                    "flights": "flights_layer"}[request.param])


def _plain_metrics(layer: SemanticLayer) -> list[str]:
    """Simple metrics that read only their own rows (no spine, offset or cumulative window)."""
    from showwork.semantic_layer.validate import time_read

    model = layer.model
    names = sorted(n for n, m in model.metric_index.items()
                   if m.type == "simple" and not time_read(model, [n]))
    assert names, "the project has no plain simple metric"
    return names


def _closed(layer: SemanticLayer) -> list[tuple[str, str, tuple[str, ...]]]:
    """Up to three plain metrics, each with a dimension of it that has a closed member list (a
    different one each where there are), and its members."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for metric in _plain_metrics(layer):
        closed = sorted((name, info.members) for name, info in
                        layer.model.offered_dimensions(metric).items()
                        if info.members and info.dimension.type != "time")
        fresh = [c for c in closed if c[0] not in {d for _, d, _ in out}] or closed
        if fresh:
            out.append((metric, *fresh[0]))
    assert out, "no plain metric has a dimension with a closed member list"
    return out[:3]


def _stranger(members: tuple[str, ...]) -> str:
    """A value no member is (built from the members, so it is one for any project)."""
    value = members[0] + " (none such)"
    assert value not in members
    return value


def _bound(day: dt.date, op: str) -> str:
    return f"{{{{ TimeDimension('metric_time', 'day') }}}} {op} '{day.isoformat()}'"


def _answer(layer: SemanticLayer, args: dict, where: str | None = None) -> Result:
    if where:
        args = parse_where(where).apply(args, layer.model, refuse_empty=False)
    return layer.call("query", args, refuse_empty=False)


def _empty(result: Result, keys: tuple[str, ...], why: str) -> None:
    assert result.rows == ()
    assert result.keys == keys  # the columns MetricFlow gives: the period, then the dimensions
    assert result.notes and why in result.notes[-1]
    assert result.to_json()["notes"] == list(result.notes)
    assert Result.from_json(result.to_json()).notes == result.notes


@pytest.mark.parametrize("grain", [None, "month"])
def test_bounds_leaving_no_day_answer_no_rows(domain: SemanticLayer, grain: str | None) -> None:
    """A --where bound after the window's end (and one past the sources' end with no window):
    no rows and a note; the analyst's tool, without refuse_empty=False, refuses as before."""
    for metric, dim, _ in _closed(domain):
        start, end = domain.model.coverage(metric)
        mid = start + (end - start) // 2
        args = {"metrics": [metric], "group_by": [dim],
                "window": {"start": start.isoformat(), "end": mid.isoformat()},
                **({"grain": grain} if grain else {})}
        keys = ((grain,) if grain else ()) + (dim,)
        after = _bound(mid + dt.timedelta(days=1), ">=")
        _empty(_answer(domain, args, after), keys, "no day is read")
        with pytest.raises(InvalidFilter, match="leave no day to read"):
            parse_where(after).apply(args, domain.model)
        unbounded = {k: v for k, v in args.items() if k != "window"}
        past = _bound(end + dt.timedelta(days=1), ">=")
        _empty(_answer(domain, unbounded, past), keys, f"{start}..{end}")
        with pytest.raises(WindowError, match="leaves no day to read"):
            domain.call("query", parse_where(past).apply(unbounded, domain.model))


def test_a_window_outside_the_data_answers_no_rows(domain: SemanticLayer) -> None:
    """A window wholly before the sources' first day: no rows, the coverage in the note."""
    for metric in _plain_metrics(domain)[:3]:
        start, end = domain.model.coverage(metric)
        before = {"start": (start - dt.timedelta(days=40)).isoformat(),
                  "end": (start - dt.timedelta(days=10)).isoformat()}
        args = {"metrics": [metric], "window": before, "grain": "week"}
        _empty(_answer(domain, args), ("week",), f"{start}..{end}")
        with pytest.raises(WindowError, match="outside the coverage"):
            domain.call("query", args)


def test_a_member_outside_the_list_is_filtered_on(domain: SemanticLayer) -> None:
    """IN (a stranger): no rows and a note naming the members; IN (a member, a stranger): the
    member's rows, as IN (the member) gives them; NOT IN (a stranger): every member's rows."""
    for metric, dim, members in _closed(domain):
        stranger = _stranger(members)
        base = {"metrics": [metric], "group_by": [dim]}

        def where(op: str, *values: str, base: dict = base, dim: str = dim) -> dict:
            return {**base, "where": [{"dimension": dim, "op": op, "values": list(values)}]}

        alone = _answer(domain, where("in", stranger))
        _empty(alone, (dim,), f"{stranger!r} is not a member")
        assert all(m in alone.notes[0] for m in members)
        present = domain.call("query", base).rows
        assert present, f"{metric} by {dim} has no rows"
        member = present[0].key[dim]
        mixed = _answer(domain, where("in", member, stranger))
        assert mixed.rows == domain.call("query", where("in", member)).rows
        assert mixed.rows and mixed.notes
        # NOT IN keeps every member's rows (not the nulls': SQL's NULL NOT IN (…) is unknown)
        assert _answer(domain, where("not_in", stranger)).rows == tuple(
            r for r in present if r.key[dim] != "")
        with pytest.raises(UnknownMember, match=re.escape(f"Unknown member {stranger!r}")):
            domain.call("query", where("in", member, stranger))


def test_the_analysts_tool_refuses_and_the_public_api_answers(domain: SemanticLayer) -> None:
    """The analyst's tool (Toolbox as the loop and MCP make it) refuses both kinds with the
    layer's own message and no handle; the public API's (refuse_empty=False) answers them."""
    metric, dim, members = _closed(domain)[0]
    start, _ = domain.model.coverage(metric)
    calls = [
        {"metrics": [metric], "group_by": [dim],
         "where": [{"dimension": dim, "op": "in", "values": [_stranger(members)]}]},
        {"metrics": [metric], "group_by": [dim],
         "window": {"start": (start - dt.timedelta(days=9)).isoformat(),
                    "end": (start - dt.timedelta(days=2)).isoformat()}},
    ]
    for args in calls:
        with pytest.raises(SemanticError) as refused:
            domain.call("query", args)
        _, record = Toolbox(domain).dispatch("query", json.dumps(args))
        assert record.handle is None and record.error == {
            "code": refused.value.code, "message": refused.value.message}
        _, record = Toolbox(domain, refuse_empty=False).dispatch("query", json.dumps(args))
        assert record.handle == 1 and record.result is not None
        assert record.result["rows"] == [] and record.result["notes"]
        answered = Project(domain).query(**args)  # the public API (not closed: the layer is shared)
        assert answered.result["rows"] == [] and answered.result["notes"] == record.result["notes"]


def test_without_groups_no_day_is_the_metric_over_no_rows(domain: SemanticLayer) -> None:
    """With no grain and no dimension, MetricFlow's one row over no rows (a sum's null, a
    distinct count's 0): the same row as a filter on a member no row has gives over the whole
    data, reached another way."""
    for metric, dim, members in _closed(domain):
        start, end = domain.model.coverage(metric)
        nothing = _answer(domain, {"metrics": [metric], "where": [
            {"dimension": dim, "op": "in", "values": [_stranger(members)]}]})
        assert len(nothing.rows) == 1 and nothing.keys == ()
        for where in (_bound(end + dt.timedelta(days=1), ">="),
                      _bound(start - dt.timedelta(days=1), "<=")):
            empty = _answer(domain, {"metrics": [metric]}, where)
            assert empty.rows == nothing.rows and empty.notes, where


def test_the_sql_of_an_empty_answer_is_compiled(domain: SemanticLayer) -> None:
    """`semantic compile` (SemanticLayer.compile, refuse_empty=False) of a window wholly
    outside the data gives SQL as `mf query --explain` does, and that SQL reads no row; the
    analyst's side (refuse_empty) still refuses."""
    for metric in _plain_metrics(domain)[:3]:
        start, _ = domain.model.coverage(metric)
        before = {"start": (start - dt.timedelta(days=40)).isoformat(),
                  "end": (start - dt.timedelta(days=10)).isoformat()}
        args = {"metrics": [metric], "window": before, "grain": "week"}
        compiled = domain.compile("query", args, refuse_empty=False)
        assert compiled.sql
        assert domain.connection.execute(compiled.sql).fetchall() == []
        with pytest.raises(WindowError, match="outside the coverage"):
            domain.compile("query", args)
