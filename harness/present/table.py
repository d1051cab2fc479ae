"""The experiment table, printed for people (rich) or as plain rows for reports."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

COLUMNS = ("configuration", "attempts", "coverage", "silent error", "balanced accuracy",
           "grounded-answer rate (n graphed)", "broken citations", "mislabelled",
           "off-question answers", "flat reasoning", "output tokens/attempt", "$/attempt",
           "p50 s")


def pct(rate: dict[str, Any] | float | None, interval: bool = True) -> str:
    if rate is None:
        return "–"
    if isinstance(rate, dict):
        if rate["rate"] is None:
            return "n/a"
        text = f"{rate['rate']:.1%}"
        return f"{text} [{rate['low']:.0%}–{rate['high']:.0%}]" if interval else text
    return f"{rate:.1%}"


def rows(results: dict[str, Any]) -> list[list[str]]:
    out = []
    for name, s in results["configs"].items():
        cost = s["cost_per_attempt_usd"]
        out.append([
            name, str(s["attempts"]), pct(s["coverage"]), pct(s["silent_error"]),
            pct(s["balanced_accuracy"]) + (f" ±{s['balanced_accuracy_spread']:.1%}"
                                           if len(s["balanced_accuracy_by_repeat"]) > 1 else ""),
            (f"{pct(s['grounded_answer_rate'])} (n={s['graphed_answers']})"
             if s["graphed_answers"] else "not measurable (n=0)"),
            str(s["broken_citations"]), str(s["mislabelled_answers"]),
            str(s.get("scope_answers", 0)),
            pct(s["flat_reasoning"], interval=False),
            f"{s['tokens_per_attempt']['output']:.0f}",
            "unknown" if cost is None else f"{cost:.4f}",
            f"{s['latency_p50_s']:.2f}" if s["latency_p50_s"] is not None else "–",
        ])
    return out


def print_table(console: Console, results: dict[str, Any], title: str) -> None:
    """The scores, readable at any width: configurations side by side as columns when they fit,
    else one block (one column of scores) per configuration; nothing is cut to an ellipsis."""
    if results.get("simulated"):
        title += " — SIMULATED (noisy simulator, not a model)"
    table = rows(results)
    side = _side_by_side(table, title)
    console.print(side if fits(console, side) else _blocks(COLUMNS, table, title))
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


def _side_by_side(table: list[list[str]], title: str) -> Table:
    """Scores as rows, one column per configuration."""
    out = Table(title=title, title_justify="left")
    out.add_column(COLUMNS[0], no_wrap=True)
    for row in table:
        out.add_column(row[0], justify="right", no_wrap=True)
    for i, name in enumerate(COLUMNS[1:], start=1):
        out.add_row(name, *(row[i] for row in table))
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
    for c in results["comparisons"]:
        console.print(f"{c['b']} vs {c['a']}: right-answer rate {c['difference']:+.1%} "
                      f"[{c['ci_low']:+.1%}, {c['ci_high']:+.1%}], grounded "
                      f"{c['grounded_difference']:+.1%}, McNemar p={c['p_value']:.3g} "
                      f"(Holm {c['p_holm']:.3g}), {c['questions']} questions")
