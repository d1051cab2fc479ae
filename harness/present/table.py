"""The experiment table: configurations side by side (one column each), one row per score with
its interval under it; printed for people (rich) and rendered on the report.

The point of the table is to compare configurations, so they always stand side by side: where
a terminal is too narrow for all of them, they are split into groups of columns that fit, each
group with the score names beside it. Comparisons are stated only between figures that exist
on both sides (a baseline without claim graphs has no grounded rate to compare).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

CONFIG_WIDTH = 16
"""A configuration's name wraps at its '+' beyond this many characters."""


@dataclass(frozen=True)
class Cell:
    """One configuration's figure for one score."""

    value: str
    """The figure: '87.5%', '12', 'not measurable'."""
    detail: str = ""
    """Under it: the interval ('[61–100%]'), the spread over repeats, the n it rests on."""


@dataclass(frozen=True)
class Score:
    """One row of the table: a score and its cell for each configuration, in order."""

    label: str
    cells: tuple[Cell, ...]


def interval(rate: dict[str, Any] | None) -> str:
    """A 95% Wilson interval as '[61–100%]'."""
    if not rate or rate.get("rate") is None:
        return ""
    return f"[{rate['low']:.0%}–{rate['high']:.0%}]".replace("%–", "–")


def pct(rate: dict[str, Any] | float | None, with_interval: bool = True) -> str:
    """A rate in percent, with its interval after it (one line, as results are listed)."""
    if rate is None:
        return "–"
    if isinstance(rate, dict):
        if rate["rate"] is None:
            return "n/a"
        text = f"{rate['rate']:.1%}"
        return f"{text} {interval(rate)}" if with_interval else text
    return f"{rate:.1%}"


def _rate(rate: dict[str, Any] | None) -> Cell:
    return Cell(pct(rate, with_interval=False), interval(rate))


def _balanced(s: dict[str, Any]) -> Cell:
    spread = (f"±{s['balanced_accuracy_spread']:.1%}"
              if len(s["balanced_accuracy_by_repeat"]) > 1 else "")
    return Cell(pct(s["balanced_accuracy"], with_interval=False), spread)


def _grounded(s: dict[str, Any]) -> Cell:
    if not s["graphed_answers"]:
        return Cell("not measurable", "no claim graphs")
    rate = s["grounded_answer_rate"]
    return Cell(pct(rate, with_interval=False), f"{interval(rate)} n={s['graphed_answers']}")


def _cost(s: dict[str, Any]) -> Cell:
    cost = s["cost_per_attempt_usd"]
    return Cell("unknown" if cost is None else f"${cost:.4f}")


def _latency(s: dict[str, Any]) -> Cell:
    p50, p90 = s["latency_p50_s"], s.get("latency_p90_s")
    if p50 is None:
        return Cell("–")
    return Cell(f"{p50:.2f} s", f"p90 {p90:.2f} s" if p90 is not None else "")


SCORES: tuple[tuple[str, Any], ...] = (
    ("attempts", lambda s: Cell(str(s["attempts"]))),
    ("coverage", lambda s: _rate(s["coverage"])),
    ("silent error", lambda s: _rate(s["silent_error"])),
    ("balanced accuracy", _balanced),
    ("grounded-answer rate", _grounded),
    ("broken citations", lambda s: Cell(str(s["broken_citations"]))),
    ("mislabelled", lambda s: Cell(str(s["mislabelled_answers"]))),
    ("off-question answers", lambda s: Cell(str(s.get("scope_answers", 0)))),
    ("flat reasoning", lambda s: Cell(pct(s["flat_reasoning"], with_interval=False))),
    ("output tokens/attempt", lambda s: Cell(f"{s['tokens_per_attempt']['output']:,.0f}")),
    ("$/attempt", _cost),
    ("latency p50", _latency),
)
"""Each score's label and how its cell is read from one configuration's scores."""

COLUMNS = ("configuration", *(label for label, _ in SCORES))
"""The scores as flat columns (one row per configuration): results listed, not compared."""


def scores(results: dict[str, Any]) -> list[Score]:
    """One row per score, one cell per configuration in the run's order."""
    configs = list(results["configs"].values())
    return [Score(label, tuple(read(s) for s in configs)) for label, read in SCORES]


def rows(results: dict[str, Any]) -> list[list[str]]:
    """One row per configuration (its name, then each score on one line)."""
    table = scores(results)
    return [[name, *(" ".join(filter(None, (row.cells[i].value, row.cells[i].detail)))
                     for row in table)] for i, name in enumerate(results["configs"])]


def config_header(name: str, width: int = CONFIG_WIDTH) -> str:
    """A configuration's name wrapped at its '+' to lines of at most `width` characters.

    >>> config_header("claims+repair+purpose+rendered")
    'claims+repair+\\npurpose+rendered'
    """
    lines = [""]
    for part in name.split("+"):
        piece = part if not lines[-1] else f"+{part}"
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines[-1] += "+"
            lines.append(part)
        else:
            lines[-1] += piece
    return "\n".join(lines)


def comparison_lines(results: dict[str, Any]) -> list[str]:
    """Each paired comparison in words: the right-answer rate always (every attempt has an
    outcome); the grounded rate only when both configurations have claim graphs to measure."""
    configs = results["configs"]
    out = []
    for c in results.get("comparisons") or []:
        line = (f"{c['b']} vs {c['a']} ({c['questions']} questions): right answers "
                f"{100 * c['difference']:+.1f} pp [{100 * c['ci_low']:+.1f}, "
                f"{100 * c['ci_high']:+.1f}], McNemar p={c['p_value']:.3g} "
                f"(Holm {c['p_holm']:.3g}); ")
        out.append(line + grounded_comparison(c, configs))
    return out


def grounded_comparison(c: dict[str, Any], configs: dict[str, Any]) -> str:
    """'grounded 37.2% → 90.7% (+53.5 pp)', or why the grounded rates cannot be compared."""
    missing = [n for n in (c["a"], c["b"]) if not (configs.get(n) or {}).get("graphed_answers")]
    if missing:
        return (f"grounded not comparable: {' and '.join(missing)} "
                f"{'has' if len(missing) == 1 else 'have'} no claim graphs")
    a, b = (configs[n]["grounded_answer_rate"] for n in (c["a"], c["b"]))
    # The rates the table shows (over answers with claim graphs), not results.json's paired
    # grounded_difference (over every question, an ungraphed answer counted as 0): a reader
    # checks the difference against the two figures above it.
    return (f"grounded {pct(a, with_interval=False)} → {pct(b, with_interval=False)} "
            f"({100 * (b['rate'] - a['rate']):+.1f} pp)")


def print_table(console: Console, results: dict[str, Any], title: str) -> None:
    """The scores with the configurations side by side, in as many groups of columns as the
    terminal needs; nothing is cut to an ellipsis."""
    if results.get("simulated"):
        title += " — SIMULATED (noisy simulator, not a model)"
    console.print(Text(title, style="bold", overflow="fold"))
    names = list(results["configs"])
    table = scores(results)
    start = 0
    while start < len(names):
        count = len(names) - start
        while count > 1 and not fits(console, _side_by_side(table, names, start, count)):
            count -= 1
        console.print(_side_by_side(table, names, start, count))
        start += count
    console.print("Under each figure: its 95% Wilson interval [low–high]; ± the spread of "
                  "balanced accuracy over repeats; n the answers with claim graphs.", style="dim",
                  markup=False)
    _notes(console, results)


def print_rows(console: Console, title: str, columns: tuple[str, ...] | list[str],
               table: list[list[str]]) -> None:
    """Rows under their column headers when each fits on one line of the terminal, else one
    block per row (titled by its first cell, every other column a line): no column is lost
    and no word is cut."""
    wide = Table(title=title, title_justify="left")
    for col in columns:
        wide.add_column(col, no_wrap=True)
    for row in table:
        wide.add_row(*row)
    console.print(wide if fits(console, wide) else _blocks(tuple(columns), table, title))


def fits(console: Console, renderable: Table) -> bool:
    """Whether the renderable's natural width (no wrapping) fits the console."""
    unbounded = console.options.update_width(100_000)
    return Measurement.get(console, unbounded, renderable).maximum <= console.width


def _side_by_side(table: list[Score], names: list[str], start: int, count: int) -> Table:
    """Scores as rows; configurations start..start+count as columns, each figure above its
    interval."""
    out = Table(show_edge=False, pad_edge=False, padding=(0, 1))
    out.add_column("score", no_wrap=True)
    for name in names[start:start + count]:
        out.add_column(config_header(name), justify="right", no_wrap=True)
    for row in table:
        out.add_row(row.label, *(c.value + (f"\n{c.detail}" if c.detail else "")
                                 for c in row.cells[start:start + count]))
    return out


def _blocks(columns: tuple[str, ...], table: list[list[str]], title: str) -> Group:
    blocks: list[Text | Table] = [Text(title, style="bold", overflow="fold")]
    for row in table:
        block = Table(title=row[0], title_justify="left", show_header=False, box=None,
                      padding=(0, 1, 0, 2))
        block.add_column("name", no_wrap=True)
        block.add_column("value", overflow="fold")
        for name, value in zip(columns[1:], row[1:], strict=True):
            if value:
                block.add_row(name, value)
        blocks.append(block)
    return Group(*blocks)


def _notes(console: Console, results: dict[str, Any]) -> None:
    errored = {n: s["errored_reasons"] for n, s in results["configs"].items() if s["errored"]}
    for name, reasons in errored.items():
        console.print(f"[yellow]errored in {name}:[/yellow] "
                      + ", ".join(f"{k} ×{v}" for k, v in reasons.items()))
    for line in comparison_lines(results):
        console.print(line, highlight=False, markup=False)
