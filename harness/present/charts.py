"""Charts for the report and the web page: drawn on the server with matplotlib, embedded as
inline SVG.

The pages' CSP allows no script and no inline style (only their one stylesheet, by hash), so
every chart goes through `sanitize`: matplotlib's `style="…"` becomes SVG presentation
attributes, `<style>`, `<script>`, metadata, event handlers and non-local links are dropped, and
ids get a per-chart prefix so two charts on one page never share one. The diagnostic charts read
the trace alone (the stored compare and series results), never the database.
"""

from __future__ import annotations

import functools
import io
import math
import re
import textwrap
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

from markupsafe import Markup

from showwork.harness.present.headline import four
from showwork.protocol.periods import start_words, window_words
from showwork.semantic_layer.tree import lmdi, powers
from showwork.traces import CallRecord, TraceRecord

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

SIMULATED_TITLE = "SIMULATED (noisy simulator, not a model)"
SCORES = (("coverage", "coverage"), ("silent_error", "silent error rate"),
          ("balanced_accuracy", "balanced accuracy"),
          ("grounded_answer_rate", "grounded-answer rate"))
RC: dict[RcKeyType, Any] = {
    "svg.hashsalt": "showwork", "svg.fonttype": "none", "text.parse_math": False,
    "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"], "font.size": 8.5,
    "axes.spines.top": False, "axes.spines.right": False, "axes.titlesize": 9.5,
    "figure.titlesize": 10.5}
"""Fixed hash salt: the same chart gives the same bytes; text stays text (readable, labelled);
a `$` in a metric or member name is a dollar sign, never the start of mathtext."""
RESIDUAL = "rounding residual"
"""The step shown when the stored factors do not multiply exactly to the stored parent."""
INK, MUTED, UP, DOWN, ACCENT = "#1d2330", "#9aa3b5", "#2e9e5b", "#d64545", "#3b6fd4"
_LOCK = threading.Lock()
"""matplotlib's rcParams are global; one chart at a time keeps the web server's threads apart."""

SVG_NS = "http://www.w3.org/2000/svg"
DROPPED = {"script", "style", "metadata", "foreignObject", "iframe", "object", "embed", "a",
           "animate", "set", "animateTransform", "animateMotion", "image"}
PRESENTATION = {"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
                "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "stroke-dashoffset",
                "stroke-miterlimit", "opacity", "font-family", "font-size", "font-weight",
                "font-style", "font-stretch", "font-variant", "text-anchor", "dominant-baseline",
                "clip-path", "clip-rule", "visibility", "display", "color"}


class UnsafeChart(ValueError):
    """A chart's SVG still held a script, a handler or a foreign link after sanitizing."""


@dataclass(frozen=True)
class Chart:
    """One chart as a page shows it."""

    svg: Markup
    """The sanitized inline <svg> element."""
    caption: str
    """What the chart shows and where its numbers come from (plain text, escaped by the page)."""


# --- sanitizing -------------------------------------------------------------------------------

def sanitize(svg: str, label: str, key: str, kind: str) -> Markup:
    """matplotlib's SVG as an inline element the pages' CSP renders and no script can hide in.

    `label` becomes the chart's <title> and aria-label; `key` prefixes its ids; `kind` its class.
    """
    root = ElementTree.fromstring(svg)
    prefix = re.sub(r"[^A-Za-z0-9-]", "", key)[:40] or "chart"
    refs = _referenced_ids(root)
    _clean(root, prefix, refs)
    root.attrib.update({"xmlns": SVG_NS, "class": f"chart {kind}", "role": "img",
                        "aria-label": label, "stroke-linejoin": "round"})
    title = ElementTree.Element("title")
    title.text = label
    root.insert(0, title)
    out = ElementTree.tostring(root, encoding="unicode")
    _verify(out)
    return Markup(out)


def _referenced_ids(root: ElementTree.Element) -> set[str]:
    refs: set[str] = set()
    for el in root.iter():
        for value in el.attrib.values():
            refs.update(re.findall(r"url\(#([^)]+)\)", value))
            if value.startswith("#"):
                refs.add(value[1:])
    return refs


def _clean(el: ElementTree.Element, prefix: str, refs: set[str]) -> None:
    el.tag = _local(el.tag)  # one namespace, declared once on the root
    for child in list(el):
        if _local(child.tag) in DROPPED:
            el.remove(child)
        else:
            _clean(child, prefix, refs)
    attrs = dict(el.attrib)
    el.attrib.clear()
    for name, value in attrs.items():
        el.attrib.update(_attribute(_local(name), value, prefix, refs))


def _attribute(name: str, value: str, prefix: str, refs: set[str]) -> dict[str, str]:
    """The safe form of one attribute: maybe renamed, split (style) or dropped (empty)."""
    if name.lower().startswith("on"):
        return {}
    if name == "style":
        return _presentation(value)
    if name == "href":
        return {"href": f"#{prefix}-{value[1:]}"} if value.startswith("#") else {}
    if name == "id":
        if value in refs:
            return {"id": f"{prefix}-{value}"}
        return {"class": value} if value.startswith("sw-") else {}
    if "url(" in value:
        value = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})", value)
        return {name: value} if re.fullmatch(r"url\(#[\w-]+\)", value) else {}
    return {name: value}


def _presentation(style: str) -> dict[str, str]:
    """CSS declarations as SVG presentation attributes (CSP blocks style attributes)."""
    out: dict[str, str] = {}
    for declaration in style.split(";"):
        prop, _, value = (part.strip() for part in declaration.partition(":"))
        if prop == "font":
            out.update(_font(value))
        elif prop in PRESENTATION and "url(" not in value:
            out[prop] = value
    return out


def _font(shorthand: str) -> dict[str, str]:
    """matplotlib's `font: [style] [weight] 10px 'Family', generic` as separate attributes."""
    match = re.match(r"(?P<pre>.*?)(?P<size>[\d.]+px)\s+(?P<family>.+)", shorthand)
    if not match:
        return {}
    out = {"font-size": match["size"], "font-family": match["family"]}
    for token in match["pre"].split():
        out["font-style" if token in ("italic", "oblique") else "font-weight"] = token
    return out


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _verify(svg: str) -> None:
    """Refuse, loudly, an SVG with a script, a handler or a link off the page."""
    if "<script" in svg.lower():
        raise UnsafeChart("chart SVG holds a <script> element; refusing to embed it")
    for el in ElementTree.fromstring(svg).iter():
        if _local(el.tag) in DROPPED:
            raise UnsafeChart(f"chart SVG holds a <{_local(el.tag)}> element")
        for name, value in el.attrib.items():
            if _local(name).lower().startswith("on"):
                raise UnsafeChart(f"chart SVG holds an event-handler attribute {_local(name)}")
            if _local(name) == "href" and not value.startswith("#"):
                raise UnsafeChart("chart SVG links off the page")


# --- drawing ----------------------------------------------------------------------------------

def _render(draw: Callable[[Figure], None], width: float, height: float) -> str:
    """matplotlib's SVG text for one figure, drawn without pyplot's global state."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    with _LOCK, matplotlib.rc_context(RC):
        fig = Figure(figsize=(width, height), layout="constrained")
        FigureCanvasSVG(fig)
        draw(fig)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def _text(value: str, limit: int = 40) -> str:
    """A label with each line cut to `limit` characters.

    >>> _text("previous\\n2026-03-02..2026-03-08", 12)
    'previous\\n2026-03-02.…'
    """
    return "\n".join(line if len(line) <= limit else line[: limit - 1] + "…"
                     for line in value.split("\n"))


def _title(text: str, simulated: bool) -> str:
    """A chart title; a simulated run's says so on a line of its own."""
    return f"{text}\n{SIMULATED_TITLE}" if simulated else text


def _label(text: str, simulated: bool) -> str:
    """A chart's one-line description (its <title> and aria-label)."""
    return f"{text} — {SIMULATED_TITLE}" if simulated else text


def _num(value: float) -> str:
    """A value on a chart: whole above 100, four significant digits below, never in
    scientific notation.

    >>> _num(44268.2), _num(2.80313), _num(0.0000123456)
    ('44,268', '2.803', '0.00001235')
    """
    return f"{value:,.0f}" if abs(value) >= 100 else four(value)


def _tick(value: float, _position: Any = None) -> str:
    """An axis tick as people write it: '24M', '2.5B', '12,500', '0.25'.

    >>> _tick(24_000_000), _tick(2_500_000_000), _tick(12_500), _tick(0.25)
    ('24M', '2.5B', '12,500', '0.25')
    """
    for scale, word in ((1e9, "B"), (1e6, "M")):
        if abs(value) >= scale:
            return f"{four(value / scale)}{word}"
    return _num(value)


# --- scores per configuration -----------------------------------------------------------------

@dataclass(frozen=True)
class ScorePoint:
    """One configuration's score with its interval."""

    config: str
    rate: float | None
    """None: not measurable (no attempt in the denominator)."""
    low: float | None
    high: float | None
    """The interval; None when the score has none (balanced accuracy over one repeat)."""


def score_points(results: dict[str, Any]) -> tuple[tuple[str, tuple[ScorePoint, ...]], ...]:
    """(score title, one point per configuration) for each score, from results.json."""
    return tuple((title, tuple(_point(name, s, key) for name, s in results["configs"].items()))
                 for key, title in SCORES)


def _point(config: str, s: dict[str, Any], key: str) -> ScorePoint:
    value = s.get(key)
    if isinstance(value, dict):
        return ScorePoint(config, value.get("rate"), value.get("low"), value.get("high"))
    if value is None or len(s.get("balanced_accuracy_by_repeat") or {}) < 2:
        return ScorePoint(config, value, None, None)
    spread = s.get("balanced_accuracy_spread") or 0.0
    return ScorePoint(config, value, max(0.0, value - spread), min(1.0, value + spread))


def score_chart(results: dict[str, Any]) -> Chart | None:
    """Dot and whisker per configuration, one panel per score; None when nothing was scored."""
    if not results.get("configs"):
        return None
    panels = score_points(results)
    simulated = bool(results.get("simulated"))
    label = _label(f"Scores per configuration: {', '.join(t for t, _ in panels)}, with "
                   "95% Wilson intervals", simulated)
    raw = _score_svg(panels, simulated)
    caption = ("Dot: the score; whisker: its 95% Wilson interval (balanced accuracy: ± its "
               "spread across repeats, when there is more than one). n/a: not measurable.")
    return Chart(sanitize(raw, label, "scores", "scores"), caption)


@functools.lru_cache(maxsize=32)
def _score_svg(panels: tuple[tuple[str, tuple[ScorePoint, ...]], ...], simulated: bool) -> str:
    rows = len(panels[0][1])
    return _render(lambda fig: _draw_scores(fig, panels, simulated), 9.0, 1.3 + 0.3 * rows)


def _draw_scores(fig: Figure, panels: tuple[tuple[str, tuple[ScorePoint, ...]], ...],
                 simulated: bool) -> None:
    from matplotlib.ticker import PercentFormatter

    axes = fig.subplots(1, len(panels), sharey=True)
    for ax, (title, points) in zip(axes, panels, strict=True):
        for y, p in enumerate(points):
            _score_row(ax, y, p)
        ax.set_title(title)
        ax.set_xlim(-0.04, 1.04)  # a dot at 0% or 100% stays whole
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1])
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xlabel(_interval_name(title, points))
        ax.grid(axis="x", color="#e6e9f0", linewidth=0.6)
        ax.set_axisbelow(True)
    first = axes[0]
    configs = [p.config for p in panels[0][1]]
    first.set_yticks(range(len(configs)), labels=[_text(c, 30) for c in configs])
    first.set_ylim(len(configs) - 0.5, -0.5)
    first.set_ylabel("configuration")
    fig.suptitle(_title("Scores per configuration", simulated))


def _interval_name(title: str, points: tuple[ScorePoint, ...]) -> str:
    if title != "balanced accuracy":
        return "95% Wilson interval"
    return "± spread over repeats" if any(p.low is not None for p in points) else \
        "one repeat: no spread"


def _score_row(ax: Axes, y: int, p: ScorePoint) -> None:
    if p.rate is None:
        ax.text(0.5, y, "n/a", ha="center", va="center", color=MUTED, gid="sw-na")
        return
    if p.low is not None and p.high is not None:
        ax.plot([p.low, p.high], [y, y], color=MUTED, linewidth=2, marker="|", markersize=7,
                gid="sw-whisker")
    ax.plot([p.rate], [y], "o", color=ACCENT, markersize=5, gid="sw-dot")
    ax.annotate(f"{p.rate:.0%}", (p.rate, y), xytext=(0, 5), textcoords="offset points",
                ha="center", fontsize=7.5, color=INK)


# --- the move of a diagnostic attempt (from the trace alone) ----------------------------------

@dataclass(frozen=True)
class Move:
    """A parent metric of an exact tree edge and its factors in two windows, from one compare."""

    parent: str
    previous: float
    current: float
    factors: tuple[tuple[str, float, float], ...]
    """(factor, previous, current), in the tree's order."""
    windows: tuple[str, str]
    """The previous and current windows, as `start..end`."""
    handle: int | None
    scope: str
    """The call's filters as text (`platform in android`), or empty."""
    partial: bool
    names: tuple[tuple[str, str], ...] = ()
    """(metric, governed label): what the charts' words call each metric."""
    powers: tuple[tuple[str, int], ...] = ()
    """(factor, +1 or -1): -1 for a quotient's denominator (empty: every factor multiplies)."""

    def name(self, metric: str) -> str:
        """A metric's governed label, its id when the catalog gives none."""
        return dict(self.names).get(metric, metric)


@dataclass(frozen=True)
class Series:
    """The parent metric over periods: a stored grain series, or just the two windows."""

    metric: str
    points: tuple[tuple[str, float, bool], ...]
    """(period or window label, value, partial)."""
    marked: tuple[str, ...]
    """Periods that start inside a compared window."""
    grain: str | None
    """None: no series in the trace, the points are the two compared windows."""
    handle: int | None


def find_move(record: TraceRecord) -> Move | None:
    """The first stored compare holding an exact edge's parent and all its factors, both windows
    positive; edges naming the answer's driver are tried first."""
    driver = _driver(record)
    edges = [(e["parent"], tuple(e["factors"]), e) for e in
             _get(record.catalog, "tree", "exact") or [] if _is_edge(e)]
    edges.sort(key=lambda edge: driver not in edge[1])
    for parent, factors, edge in edges:
        for call in _results(record, "compare"):
            move = _move(call, parent, factors)
            if move is not None:
                metrics = _get(record.catalog, "metrics") or {}
                names = tuple((m, str(_get(metrics, m, "label") or m))
                              for m in (parent, *factors) if isinstance(m, str))
                return replace(move, names=names, powers=tuple(powers(edge).items()))
    return None


def _is_edge(edge: Any) -> bool:
    """An exact edge named by strings: a product parent = factor × factor × …, or a quotient
    parent = numerator / denominator (a ratio metric, an average)."""
    if not (isinstance(edge, dict) and isinstance(edge.get("parent"), str)
            and isinstance(edge.get("factors"), list) and bool(edge["factors"])
            and all(isinstance(f, str) for f in edge["factors"])):
        return False
    op = edge.get("op", "multiply")
    exponents = edge.get("exponents")
    if op == "divide":
        return len(edge["factors"]) == 2
    return op == "multiply" and (exponents is None or (
        isinstance(exponents, list) and len(exponents) == len(edge["factors"])
        and all(isinstance(x, int) and not isinstance(x, bool) for x in exponents)))


def _get(value: Any, *path: str | int) -> Any:
    """value[p0][p1]…, or None where a step is missing or not a container (stored JSON)."""
    for step in path:
        if isinstance(value, dict):
            value = value.get(step)
        elif isinstance(value, list) and isinstance(step, int) and -len(value) <= step < len(value):
            value = value[step]
        else:
            return None
    return value


def _driver(record: TraceRecord) -> str | None:
    served = record.served()
    driver = (served.audit or {}).get("driver") if served else None
    return driver if isinstance(driver, str) else None


def _results(record: TraceRecord, kind: str) -> Iterator[CallRecord]:
    for call in record.calls:
        if call.handle is not None and isinstance(call.result, dict) and \
                call.result.get("kind") == kind:
            yield call


def _move(call: CallRecord, parent: str, factors: tuple[str, ...]) -> Move | None:
    result = call.result or {}
    rows = result.get("rows")
    if result.get("keys") or not isinstance(rows, list) or len(rows) != 1:
        return None
    pairs = {m: _pair(_get(rows, 0, "values", m)) for m in (parent, *factors)}
    known = {m: p for m, p in pairs.items() if p is not None}
    if len(known) != len(pairs):
        return None
    windows = (_window(result, 1), _window(result, 0))
    return Move(parent, *known[parent], tuple((f, *known[f]) for f in factors), windows,
                call.handle, _scope(call.arguments), bool(result.get("partial")))


def _pair(fields: Any) -> tuple[float, float] | None:
    """(previous, value) when both are positive numbers (LMDI takes logarithms)."""
    if not isinstance(fields, dict):
        return None
    before, now = _number(fields.get("previous")), _number(fields.get("value"))
    return (before, now) if before and now and before > 0 and now > 0 else None


def _number(value: Any) -> float | None:
    """A finite stored number as a float (booleans and text are not numbers)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _window(result: dict[str, Any], i: int) -> str:
    """The i-th window a compare asked for (0: current, 1: previous), as `start..end`."""
    start, end = (_get(result, "coverage", i, "requested", k) for k in ("start", "end"))
    if isinstance(start, str) and isinstance(end, str):
        return f"{start}..{end}"
    return "previous" if i else "current"


def _scope(arguments: Any) -> str:
    where = arguments.get("where") if isinstance(arguments, dict) else None
    parts = []
    for f in where or []:
        if isinstance(f, dict):
            op = "not in" if f.get("op") == "not_in" else "in"
            parts.append(f"{f.get('dimension')} {op} {', '.join(map(str, f.get('values') or []))}")
    return "; ".join(parts)


def attribution(move: Move) -> tuple[tuple[str, float], ...]:
    """Each factor's LMDI contribution in the parent's units (a denominator's with its sign
    turned: a rising count of flights lowers their average delay); a residual step when the
    stored factors do not give exactly the stored parent, so the steps always sum to the move."""
    steps = lmdi({f: now for f, _, now in move.factors},
                 {f: before for f, before, _ in move.factors}, move.current, move.previous,
                 dict(move.powers))
    out = tuple((f, steps[f]) for f, _, _ in move.factors)
    residual = (move.current - move.previous) - sum(c for _, c in out)
    if abs(residual) > 1e-9 * max(1.0, abs(move.current - move.previous)):
        out += ((RESIDUAL, residual),)
    return out


def find_series(record: TraceRecord, move: Move) -> Series:
    """A stored grain series of the move's parent under the same filters, else the two windows."""
    for call in _results(record, "query"):
        series = _series(call, move)
        if series is not None:
            return series
    points = ((f"previous\n{window_words(move.windows[0])}", move.previous, False),
              (f"current\n{window_words(move.windows[1])}", move.current, move.partial))
    return Series(move.parent, points, (), None, move.handle)


def _series(call: CallRecord, move: Move) -> Series | None:
    result = call.result or {}
    grain = result.get("grain")
    if not isinstance(grain, str) or result.get("keys") != [grain] or \
            _scope(call.arguments) != move.scope or not isinstance(result.get("rows"), list):
        return None
    points = []
    for row in result["rows"]:
        value, period = _number(_get(row, "values", move.parent, "value")), _get(row, "key", grain)
        if value is not None and isinstance(period, str):
            points.append((period, value, bool(_get(row, "partial"))))
    if len(points) < 2:
        return None
    spans = [w.split("..") for w in move.windows if ".." in w]
    marked = tuple(p for p, _, _ in points if any(a <= p <= b for a, b in spans))
    return Series(move.parent, tuple(sorted(points)), marked, grain, call.handle)


def diagnostic_charts(record: TraceRecord) -> list[Chart]:
    """The metric's series around the move and its attribution waterfall, for an attempt whose
    answer names a driver; no chart when the trace lacks what a chart needs."""
    driver = _driver(record)
    move = find_move(record) if driver else None
    if move is None:
        return []
    key = f"a{record.attempt_id}"
    return [series_chart(find_series(record, move), move, record.simulated, key),
            waterfall_chart(move, driver, record.simulated, key)]


def waterfall_chart(move: Move, driver: str | None, simulated: bool, key: str) -> Chart:
    """Previous value → each factor's contribution → current value."""
    steps = attribution(move)
    scope = f" ({move.scope})" if move.scope else ""
    label = _label(f"Change in {move.name(move.parent)}{scope} from {_num(move.previous)} to "
                   f"{_num(move.current)}, split across " + ", ".join(move.name(f) for f, _ in steps)
                   + " (LMDI)", simulated)
    raw = _waterfall_svg(move, steps, driver, simulated)
    caption = (f"From r{move.handle} in the trace: {move.name(move.parent)}{scope} in "
               f"{window_words(move.windows[0])} → {window_words(move.windows[1])}; each "
               f"factor's exact LMDI contribution in "
               f"{move.name(move.parent)} units "
               "(they sum to the change). Bold: the driver the answer names."
               + (" The axis does not start at zero." if _limits(_running(move, steps))[0] > 0
                  else ""))
    return Chart(sanitize(raw, label, f"{key}-waterfall", "waterfall"), caption)


@functools.lru_cache(maxsize=128)
def _waterfall_svg(move: Move, steps: tuple[tuple[str, float], ...], driver: str | None,
                   simulated: bool) -> str:
    return _render(lambda fig: _draw_waterfall(fig, move, steps, driver, simulated), 5.6, 3.1)


def _draw_waterfall(fig: Figure, move: Move, steps: tuple[tuple[str, float], ...],
                    driver: str | None, simulated: bool) -> None:
    ax = fig.add_subplot()
    totals = _running(move, steps)
    for i, ((_, change), base) in enumerate(zip(steps, totals, strict=False), start=1):
        ax.bar(i, change, bottom=base, color=UP if change >= 0 else DOWN, width=0.6,
               gid="sw-step")
        ax.annotate(("+" if change > 0 else "") + _num(change),
                    (i, max(base, base + change)), xytext=(0, 2), textcoords="offset points",
                    ha="center", fontsize=7.5)
    ends = (0, len(steps) + 1)
    for x, value in zip(ends, (move.previous, move.current), strict=True):
        ax.bar(x, value, color=MUTED, width=0.6, gid="sw-total")
        ax.annotate(_num(value), (x, value), xytext=(0, 2), textcoords="offset points",
                    ha="center", fontsize=7.5)
    for x, level in enumerate(totals):
        ax.plot([x + 0.3, x + 0.7], [level, level], color=INK, linewidth=0.6)
    _waterfall_axes(ax, move, steps, driver, totals)
    scope = f" ({move.scope})" if move.scope else ""
    title = _text(f"Change in {move.name(move.parent)}{scope} by factor (LMDI)", 68)
    ax.set_title(_title(title, simulated), loc="left")


def _running(move: Move, steps: tuple[tuple[str, float], ...]) -> list[float]:
    """The running total before each step, then after the last."""
    totals = [move.previous]
    for _, change in steps:
        totals.append(totals[-1] + change)
    return totals


def _limits(totals: list[float]) -> tuple[float, float]:
    """The value axis around the moving part: zero is kept only when it is near."""
    low, high = min(totals), max(totals)
    pad = max((high - low) * 0.35, abs(high) * 0.01, 1e-9)
    return (max(0.0, low - pad) if low >= 0 else low - pad, high + pad)


def _waterfall_axes(ax: Axes, move: Move, steps: tuple[tuple[str, float], ...],
                    driver: str | None, totals: list[float]) -> None:
    from matplotlib.ticker import FuncFormatter

    names = [_text(textwrap.fill(move.name(f), 16), 16) for f, _ in steps]  # wrapped, not cut
    labels = [f"previous\n{window_words(move.windows[0])}", *names,
              f"current\n{window_words(move.windows[1])}"]
    ax.set_xticks(range(len(labels)), labels=labels, fontsize=7.5)
    for tick, (name, _) in zip(ax.get_xticklabels()[1:-1], steps, strict=True):
        if name == driver:
            tick.set_fontweight("bold")
    ax.set_ylim(*_limits(totals))
    ax.yaxis.set_major_formatter(FuncFormatter(_tick))
    ax.set_ylabel(_text(move.name(move.parent), 30))


def series_chart(series: Series, move: Move, simulated: bool, key: str) -> Chart:
    """The parent metric over the stored periods (or the two compared windows), windows marked."""
    scope = f" ({move.scope})" if move.scope else ""
    metric = move.name(series.metric)
    if series.grain:
        what = f"{metric}{scope} by {series.grain}"
        caption = (f"From r{series.handle} in the trace: {metric}{scope} by "
                   f"{series.grain}; the compared periods are marked. Hollow: partial period.")
    else:
        what = f"{metric}{scope} in the two compared windows"
        caption = (f"The trace holds no series of {metric}; shown are only the two "
                   f"compared windows from r{series.handle} ({window_words(move.windows[0])} → "
                   f"{window_words(move.windows[1])}).")
    label = _label(f"{what}: {move.name(move.parent)} went from {_num(move.previous)} in "
                   f"{window_words(move.windows[0])} to {_num(move.current)} in "
                   f"{window_words(move.windows[1])}", simulated)
    raw = _series_svg(replace(series, metric=metric), scope, simulated)  # drawn with its label
    return Chart(sanitize(raw, label, f"{key}-series", "series"), caption)


@functools.lru_cache(maxsize=128)
def _series_svg(series: Series, scope: str, simulated: bool) -> str:
    return _render(lambda fig: _draw_series(fig, series, scope, simulated), 5.0, 3.1)


def _draw_series(fig: Figure, series: Series, scope: str, simulated: bool) -> None:
    from matplotlib.ticker import FuncFormatter

    ax = fig.add_subplot()
    xs = range(len(series.points))
    values = [v for _, v, _ in series.points]
    ax.plot(xs, values, color=ACCENT, linewidth=1.5, linestyle="-" if series.grain else "--",
            gid="sw-line")
    for x, (period, value, partial) in zip(xs, series.points, strict=True):
        marked = not series.grain or period in series.marked
        ax.plot([x], [value], "o", markersize=6 if marked else 3.5,
                markerfacecolor="white" if partial else (INK if marked else ACCENT),
                markeredgecolor=INK if marked else ACCENT, gid="sw-point")
        if marked:
            ax.annotate(_num(value), (x, value), xytext=(0, 6), textcoords="offset points",
                        ha="center", fontsize=7.5)
    step = math.ceil(len(series.points) / 8)
    ticks = list(xs)[::step]
    few = len(series.points) <= 3
    names = [start_words(series.points[i][0], series.grain) if series.grain
             else series.points[i][0] for i in ticks]
    ax.set_xticks(ticks, labels=[_text(n, 24) for n in names], fontsize=7.5,
                  rotation=0 if few else 30, ha="center" if few else "right")
    if not series.grain:
        ax.set_xlim(-0.5, 1.5)
    ax.margins(y=0.25)
    ax.yaxis.set_major_formatter(FuncFormatter(_tick))
    ax.set_ylabel(_text(series.metric, 30))
    ax.set_xlabel(({"week": "week starting", "day": "day"}.get(series.grain)
                   or series.grain) if series.grain else "compared window")
    ax.set_title(_title(_text(f"{series.metric}{scope} around the move", 62), simulated),
                 loc="left")
