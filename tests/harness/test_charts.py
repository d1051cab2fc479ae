"""Charts: scores with intervals and a diagnostic move (series and LMDI waterfall), drawn from
results.json and the trace alone as inline SVG that the pages' CSP renders and no script hides in.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.results import build_results
from showwork.harness.experiments.scores import attempt_from_trace
from showwork.harness.experiments.stats import wilson
from showwork.harness.present import charts
from showwork.harness.present.report import render
from showwork.protocol.rendered import signed
from showwork.protocol.switches import Protocol
from showwork.semantic_layer.tree import lmdi
from showwork.traces import CallRecord, TraceRecord, read

GOLDEN = Path(__file__).resolve().parents[2] / "traces" / "golden" / "traces.jsonl"
HOSTILE = "<script>alert(1)</script> \"q\" & $x$ onload=alert(2)"


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"rate": k / n if n else None, "k": k, "n": n, "low": low, "high": high}


def _scores(coverage: tuple[int, int], grounded: tuple[int, int]) -> dict[str, Any]:
    return {"coverage": _rate(*coverage), "silent_error": _rate(2, 20),
            "balanced_accuracy": 0.6, "balanced_accuracy_by_repeat": {"0": 0.5, "1": 0.7},
            "balanced_accuracy_spread": 0.1, "grounded_answer_rate": _rate(*grounded)}


def _results(simulated: bool = False, names: tuple[str, str] = ("baseline", "claims+repair")
             ) -> dict[str, Any]:
    return {"model": "rules", "simulated": simulated, "comparisons": [], "attempts": [],
            "configs": {names[0]: _scores((12, 20), (0, 0)), names[1]: _scores((16, 20), (9, 15))}}


def _tree(chart: charts.Chart) -> ElementTree.Element:
    return ElementTree.fromstring(str(chart.svg))


def _texts(root: ElementTree.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter() if t.tag.endswith("}text")]


def _classed(root: ElementTree.Element, name: str) -> list[ElementTree.Element]:
    return [el for el in root.iter() if name in el.get("class", "").split()]


def _assert_inert(svg: str) -> None:
    """No script, no handler, no style (CSP blocks inline style), no link off the chart."""
    root = ElementTree.fromstring(svg)
    assert "<script" not in svg.lower() and "<style" not in svg
    for el in root.iter():
        for name, value in el.attrib.items():
            assert not name.lower().startswith("on") and name != "style"
            assert name != "href" or value.startswith("#")
    assert root.get("role") == "img" and root.get("aria-label")
    assert root[0].tag.endswith("}title") and root[0].text == root.get("aria-label")


@pytest.fixture(scope="module")
def golden() -> dict[str, TraceRecord]:
    return {r.attempt_id: r for r in read(GOLDEN)}


def _golden_attempt(golden: dict[str, TraceRecord], question: str) -> TraceRecord:
    """The rules analyst's golden answer to a bundled question (ids change on re-recording)."""
    return next(r for r in golden.values() if r.model == "rules" and r.question.id == question)


@pytest.fixture
def diag(golden) -> TraceRecord:
    """The rules analyst's answer to diag-001 (story 1: the week of 2026-03-09)."""
    return _golden_attempt(golden, "diag-001")


class TestScoreChart:
    def test_one_labelled_row_per_configuration(self) -> None:
        """Each configuration names exactly one row, and the axes and panels are labelled."""
        root = _tree(charts.score_chart(_results()))
        texts = _texts(root)
        assert texts.count("baseline") == 1 and texts.count("claims+repair") == 1
        assert {"coverage", "silent error rate", "balanced accuracy", "grounded-answer rate",
                "configuration", "95% Wilson interval", "Scores per configuration"} <= set(texts)

    def test_whiskers_span_their_dots(self) -> None:
        """Seven scored cells get a dot inside a whisker; the unmeasurable one says n/a."""
        root = _tree(charts.score_chart(_results()))
        whiskers = [[float(v) for v in re.findall(r"-?[\d.]+", p.get("d", ""))]
                    for g in _classed(root, "sw-whisker") for p in g.iter()
                    if p.tag.endswith("path") and p.get("id") is None]  # not the cap's marker
        dots = [(float(u.get("x")), float(u.get("y"))) for g in _classed(root, "sw-dot")
                for u in g.iter() if u.tag.endswith("use")]
        assert len(whiskers) == len(dots) == 7 and len(_classed(root, "sw-na")) == 1
        for x, y in dots:
            assert any(w[0] <= x <= w[2] and math.isclose(w[1], y) for w in whiskers)

    def test_simulated_run_is_labelled(self) -> None:
        """A simulated run's chart says SIMULATED in its title and label; a real run's does not."""
        sim = charts.score_chart(_results(simulated=True))
        real = charts.score_chart(_results())
        assert "SIMULATED" in " ".join(_texts(_tree(sim))) and "SIMULATED" in sim.svg
        assert "SIMULATED" not in real.svg

    def test_same_input_same_bytes(self) -> None:
        """Drawing the same results twice (cache cleared) gives byte-identical SVG."""
        first = str(charts.score_chart(_results()).svg)
        charts._score_svg.cache_clear()
        assert str(charts.score_chart(_results()).svg) == first

    def test_hostile_configuration_name_stays_text(self) -> None:
        """A name with a script tag, quotes, & and $ is escaped text, read back unchanged."""
        chart = charts.score_chart(_results(names=(HOSTILE, "$a$ & b")))
        _assert_inert(str(chart.svg))
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in chart.svg
        rows = [t for t in _texts(_tree(chart)) if t.startswith('<script>alert(1)</script> "q"')]
        assert len(rows) == 1 and "$a$ & b" in _texts(_tree(chart))  # $…$ is not mathtext

    def test_no_configs_no_chart(self) -> None:
        """A results file with nothing scored gives no chart."""
        assert charts.score_chart({"configs": {}}) is None


class TestSanitize:
    def test_strips_scripts_handlers_styles_and_foreign_links(self) -> None:
        """Scripts, handlers, <style>, foreign links and url() styles go; colours stay as attributes."""
        raw = ('<?xml version="1.0"?><!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg" '
               'xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">'
               '<style>*{fill:red}</style><script>alert(2)</script>'
               '<a href="javascript:alert(3)"><text>x</text></a>'
               '<image href="http://example.com/x.png"/><use xlink:href="http://e.com/#m"/>'
               '<path id="p1" onclick="alert(4)" style="fill: #ff0000; behavior: url(x); '
               'font: bold 10px \'DejaVu Sans\', sans-serif"/><use xlink:href="#p1"/></svg>')
        svg = str(charts.sanitize(raw, "a label", "k1", "test"))
        _assert_inert(svg)
        assert "alert" not in svg and "example.com" not in svg and "behavior" not in svg
        path = next(el for el in ElementTree.fromstring(svg).iter() if el.tag.endswith("path"))
        assert path.get("fill") == "#ff0000" and path.get("font-weight") == "bold"
        assert path.get("font-size") == "10px" and path.get("id") == "k1-p1"
        assert 'href="#k1-p1"' in svg

    def test_refuses_what_it_cannot_clean(self) -> None:
        """The last check raises on a script element or a handler attribute."""
        with pytest.raises(charts.UnsafeChart):
            charts._verify('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>')
        with pytest.raises(charts.UnsafeChart):
            charts._verify('<svg xmlns="http://www.w3.org/2000/svg"><g onmouseover="x"/></svg>')


class TestDiagnosticCharts:
    def test_waterfall_sums_from_previous_to_current(self, diag) -> None:
        """From the stored compare alone, previous plus each factor's LMDI step is current."""
        move = charts.find_move(diag)
        steps = charts.attribution(move)
        assert (move.parent, move.previous, move.current) == ("weekly_value_moments", 44268, 38886)
        assert [f for f, _ in steps] == ["active_users", "days_per_user", "moments_per_day"]
        assert math.isclose(move.previous + sum(c for _, c in steps), move.current, rel_tol=1e-12)
        assert min(steps, key=lambda s: s[1])[0] == "days_per_user"

    def test_waterfall_matches_the_analysts_own_attribution(self, diag) -> None:
        """The steps equal semantic_layer.tree.lmdi and the numbers the analyst wrote down."""
        move = charts.find_move(diag)
        direct = lmdi({f: now for f, _, now in move.factors},
                      {f: before for f, before, _ in move.factors}, move.current, move.previous)
        assert dict(charts.attribution(move)) == direct
        said = diag.served().audit["answer_text"]
        for factor, change in direct.items():
            assert f"{move.name(factor)} {signed(change)}" in said

    def test_waterfall_chart_draws_every_step(self, diag) -> None:
        """Three factor steps and two totals, each labelled with its value; the driver in bold."""
        chart = charts.diagnostic_charts(diag)[1]
        root = _tree(chart)
        _assert_inert(str(chart.svg))
        assert len(_classed(root, "sw-step")) == 3 and len(_classed(root, "sw-total")) == 2
        assert {"+4,274", "-7,235", "-2,422", "44,268", "38,886"} <= set(_texts(root))
        bold = [t for t in root.iter() if t.get("font-weight") in ("bold", "700")]
        assert ["".join(t.itertext()) for t in bold] == ["days per user"]
        assert "r1" in chart.caption
        assert "the week of 2 March 2026 → the week of 9 March 2026" in chart.caption
        assert ".." not in chart.caption  # the ISO range stays in the citation and the JSON
        assert "does not start at zero" in chart.caption

    def test_charts_name_metrics_by_their_labels(self, diag) -> None:
        """Titles, captions, axes and factor names say the governed labels, never the ids."""
        labels = {m: diag.catalog["metrics"][m]["label"] for m in
                  ("weekly_value_moments", "active_users", "days_per_user", "moments_per_day")}
        for chart in charts.diagnostic_charts(diag):
            words = " ".join([str(chart.svg), chart.caption])
            assert not [m for m in labels if m in words], chart.caption
            assert labels["weekly_value_moments"] in words
        waterfall = charts.diagnostic_charts(diag)[1]
        assert all(label in " ".join(_texts(_tree(waterfall))) for label in
                   (labels["active_users"], labels["days_per_user"], labels["moments_per_day"]))

    def test_rounded_factors_leave_a_residual_step(self, diag) -> None:
        """Factors that do not multiply to the parent get a residual step; the sum still holds."""
        move = charts.find_move(diag)
        rounded = charts.Move(move.parent, move.previous, move.current,
                              tuple((f, round(b, 2), round(n, 2)) for f, b, n in move.factors),
                              move.windows, move.handle, move.scope, move.partial)
        steps = charts.attribution(rounded)
        assert steps[-1][0] == charts.RESIDUAL
        assert math.isclose(rounded.previous + sum(c for _, c in steps), rounded.current)

    def test_the_rules_diagnosis_holds_its_series(self, diag) -> None:
        """The rules analyst queries the parent by week around the move (same filters), so the
        chart plots weeks before and after it with the compared weeks marked."""
        series = charts.find_series(diag, charts.find_move(diag))
        assert series.grain == "week" and len(series.points) >= 5
        assert series.marked == ("2026-03-02", "2026-03-09")
        assert [p for p, _, _ in series.points if p in series.marked] == list(series.marked)
        values = dict((p, v) for p, v, _ in series.points)
        assert (values["2026-03-02"], values["2026-03-09"]) == (44268, 38886)

    def test_series_falls_back_to_the_two_windows(self, diag) -> None:
        """Without a stored series the chart plots previous and current and says so."""
        diag = diag.model_copy(update={"calls": [c for c in diag.calls
                                                 if not (c.result or {}).get("grain")]})
        move = charts.find_move(diag)
        series = charts.find_series(diag, move)
        assert series.grain is None
        assert [v for _, v, _ in series.points] == [44268, 38886]
        chart = charts.diagnostic_charts(diag)[0]
        assert "no series" in chart.caption
        assert {"44,268", "38,886", "compared window"} <= set(_texts(_tree(chart)))

    def test_stored_series_is_plotted(self, diag) -> None:
        """A weekly series of the parent in the trace is plotted, compared weeks marked."""
        weeks = ["2026-02-23", "2026-03-02", "2026-03-09", "2026-03-16"]
        rows = [{"key": {"week": w}, "values": {"weekly_value_moments": {"value": v}},
                 "partial": False} for w, v in zip(weeks, [45000, 44268, 38886, 43270], strict=True)]
        call = CallRecord(index=9, tool="query", arguments_raw="{}", arguments={}, handle=9,
                          result={"kind": "query", "metrics": ["weekly_value_moments"],
                                  "keys": ["week"], "grain": "week", "rows": rows})
        others = [c for c in diag.calls if not (c.result or {}).get("grain")]
        trace = diag.model_copy(update={"calls": [*others, call]})
        series = charts.find_series(trace, charts.find_move(trace))
        assert series.grain == "week" and [p for p, _, _ in series.points] == weeks
        assert series.marked == ("2026-03-02", "2026-03-09")
        chart = charts.diagnostic_charts(trace)[0]
        texts = _texts(_tree(chart))  # the weeks by their Mondays, as people write them
        assert "r9" in chart.caption and "23 Feb 2026" in texts and "week starting" in texts
        assert "2026-02-23" not in texts

    def test_hostile_metric_names_stay_text(self, diag) -> None:
        """A parent and a factor named with script tags, quotes and & render as escaped text."""
        move = charts.find_move(diag)
        hostile = charts.Move(HOSTILE, move.previous, move.current,
                              ((HOSTILE + "f", *move.factors[0][1:]), *move.factors[1:]),
                              move.windows, move.handle, HOSTILE, move.partial)
        for chart in (charts.waterfall_chart(hostile, None, True, "x"),
                      charts.series_chart(charts.find_series(diag, hostile), hostile, True, "x")):
            _assert_inert(str(chart.svg))
            assert "&lt;script&gt;" in chart.svg and HOSTILE in _tree(chart).get("aria-label")

    def test_no_driver_no_chart(self, golden) -> None:
        """A lookup answer (no driver) gets no diagnostic chart."""
        assert charts.diagnostic_charts(_golden_attempt(golden, "lookup-001")) == []

    @pytest.mark.parametrize("result", [
        None, {"kind": "compare"}, {"kind": "compare", "keys": [], "rows": "x"},
        {"kind": "compare", "keys": [], "rows": [{"values": {"weekly_value_moments": 3}}]},
        {"kind": "compare", "keys": [], "rows": [{"values": {m: {"value": 1.0, "previous": 0}
                                                             for m in ("weekly_value_moments",
                                                                       "active_users",
                                                                       "days_per_user",
                                                                       "moments_per_day")}}]},
    ])
    def test_trace_without_what_the_chart_needs(self, diag, result) -> None:
        """A missing, malformed or zero-valued compare gives no move and no chart, never a crash."""
        call = diag.calls[0].model_copy(update={"result": result})
        trace = diag.model_copy(update={"calls": [call]})
        assert charts.find_move(trace) is None and charts.diagnostic_charts(trace) == []

    def test_live_rules_attempt(self, layer) -> None:
        """A fresh rules-analyst diagnostic trace gives both charts, and its waterfall sums."""
        from showwork.analyst.rules import RulesClient

        trace = run_attempt(Question("d", "Why did weekly value moments drop in the week of "
                                          "2026-03-09?"), RulesClient(), layer,
                            Protocol.parse("claims+repair"))
        move = charts.find_move(trace)
        assert move is not None and len(charts.diagnostic_charts(trace)) == 2
        assert math.isclose(move.previous + sum(c for _, c in charts.attribution(move)),
                            move.current, rel_tol=1e-12)


def test_report_embeds_the_charts(tmp_path: Path, golden) -> None:
    """report.html carries the score chart and one waterfall per diagnostic attempt, inline,
    with no script and no style attribute anywhere in the page."""
    shutil.copy(GOLDEN, tmp_path / "traces.jsonl")
    records = list(golden.values())
    attempts = [attempt_from_trace(r, None, {}) for r in records]
    results = build_results(attempts, sorted({r.config for r in records}), "mixed")
    (tmp_path / "results.json").write_text(json.dumps(results, default=str))
    html = render(tmp_path)
    diagnostic = [r for r in records if charts._driver(r)]
    assert html.count('class="chart scores"') == 1 and 'id="score-chart"' in html
    assert html.count('class="chart waterfall"') == html.count('class="chart series"') \
        == len(diagnostic) >= 5
    assert "<script" not in html and 'style="' not in html and " onload" not in html
    assert len(set(re.findall(r' id="([^"]+)"', html))) == len(re.findall(r' id="([^"]+)"', html))


class TestQuotientEdges:
    """A ratio metric's edge (parent = numerator / denominator) is drawn too: the denominator's
    step has the opposite sign of its move, and the steps sum to the move (shop and flights)."""

    def _check(self, layer, question: str, parent: str, denominator: str) -> None:
        trace = run_attempt(Question("q", question), RulesClient(),
                            layer, Protocol.parse("claims+repair"))
        record = TraceRecord.model_validate(json.loads(trace.model_dump_json()))
        move = charts.find_move(record)
        assert move is not None and move.parent == parent
        assert dict(move.powers)[denominator] == -1
        steps = dict(charts.attribution(move))
        assert charts.RESIDUAL not in steps
        assert math.isclose(move.previous + sum(steps.values()), move.current, rel_tol=1e-9)
        (_, before, now), = [f for f in move.factors if f[0] == denominator]
        assert steps[denominator] * (now - before) < 0  # more of the denominator pulls it down
        chart = charts.diagnostic_charts(record)[1]
        _assert_inert(str(chart.svg))
        assert len(_classed(_tree(chart), "sw-step")) == 2

    def test_shop_average_order_value(self, shop_layer) -> None:
        self._check(shop_layer, "Why did the average order value change in December 2018?",
                    "average_order_value", "order_count")

    def test_flights_draft_average_departure_delay(self, tmp_path) -> None:
        from flights_data import flights_db

        from showwork.benchmarks.init_questions import raw_flights
        from showwork.harness.init import init_project
        from showwork.harness.project import Project

        init_project(tmp_path / "p", raw_flights(flights_db(), tmp_path / "raw.duckdb"))
        layer = Project.open(tmp_path / "p").layer()
        try:
            self._check(layer, "Why did the average departure delay rise in June 2013?",
                        "avg_dep_delay", "dep_delay_n")
        finally:
            layer.close()
