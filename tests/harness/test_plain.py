"""The plain console prints the bytes rich prints to a file that is not a terminal: for every
golden trace, for live answers on the demo, the shop and the flights, and for thousands of
generated lines at many widths; what it cannot vouch for it leaves to rich."""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape as rich_escape
from rich.style import Style

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.present.decisions import DECISIONS
from showwork.harness.present.display import CLI_MARKS, STATE_STYLE, show_trace
from showwork.harness.present.plain import (
    ONE_CELL,
    STYLES,
    PlainConsole,
    escape,
    stdout_console,
    text_of,
    wrapped,
)
from showwork.protocol.switches import Protocol
from showwork.traces import read

GOLDEN = Path(__file__).resolve().parents[2] / "traces" / "golden" / "traces.jsonl"
QUESTIONS = {
    "layer": ("How many active users did we have in the week of 2026-03-09?",
              "Why did weekly value moments drop in the week of 2026-03-09?",
              "What was the average age of active users last month?",
              "Which platform had the most active users in March 2026?"),
    "shop_layer": ("What was revenue by store in June 2019?",
                   "Which 3 products sold the most items in July 2019?",
                   "What was revenue by city in Q2 2019?"),
    "flights_layer": ("How many flights departed from JFK in July 2013?",
                      "Which carrier had the longest average departure delay in 2013?"),
}


class Counting(PlainConsole):
    """A plain console that counts the lines it prints and those it hands to rich."""

    def __init__(self, width: int) -> None:
        super().__init__(width, lambda: Console(highlight=False, width=width))
        self.lines = self.to_rich = 0

    def print(self, markup: str) -> None:
        self.lines += 1
        text = text_of(markup)
        self.to_rich += text is None or wrapped(text, self.width) is None
        super().print(markup)


def _rich_bytes(width: int, show) -> str:
    out = io.StringIO()
    show(Console(file=out, highlight=False, width=width))
    return out.getvalue()


def _plain_bytes(width: int, show) -> tuple[str, Counting]:
    out = io.StringIO()
    console = Counting(width)
    with contextlib.redirect_stdout(out):
        show(console)
    return out.getvalue(), console


class TestSameBytesAsRich:
    @pytest.mark.parametrize("width", [80, 40, 132])
    def test_every_golden_trace(self, width: int) -> None:
        """Each golden trace's print-out is rich's, byte for byte, and printed by the plain
        console itself (no line left to rich)."""
        traces = read(GOLDEN)
        assert len(traces) >= 20
        for trace in traces:
            plain, console = _plain_bytes(width, lambda c, t=trace: show_trace(c, t))
            assert plain == _rich_bytes(width, lambda c, t=trace: show_trace(c, t)), \
                trace.question.text
            assert console.lines > 5 and console.to_rich == 0, trace.question.text

    @pytest.mark.parametrize("fixture", sorted(QUESTIONS))
    def test_live_answers_on_three_domains(self, request: pytest.FixtureRequest,
                                           fixture: str) -> None:
        """The rules analyst's answers (served, refused, ranked, diagnosed) on the demo, the
        shop and the flights print the same through both consoles."""
        layer = request.getfixturevalue(fixture)
        for question in QUESTIONS[fixture]:
            trace = run_attempt(Question("q", question), RulesClient(), layer,
                                Protocol.parse("claims+repair"))
            plain, _ = _plain_bytes(80, lambda c, t=trace: show_trace(c, t))
            assert plain == _rich_bytes(80, lambda c, t=trace: show_trace(c, t)), question
            assert "Decision:" in plain

    def test_generated_lines_at_many_widths(self) -> None:
        """Thousands of generated lines (words, runs of spaces, words longer than the line,
        brackets, escapes, backslashes, styles, emoji codes, wide and control characters)
        print the same; most are printed by the plain console itself."""
        rng = random.Random(46)
        common = ["revenue", "fell", "16.4 %", "r1:active_users.value", "=", "12,573", "·",
                  "✓", "⊘", "—", "Zürich", "a" * 30, "b" * 95, "  ", "   ", " ", "[", "]",
                  "[x]", "[bold]", "\\", "\\[", "[/]", "::", "-", "(c1)", "'quoted'"]
        rare = [":smile:", "12:30:45", "漢字", "😀", "\t", "\r", "\x1b", "e\u0301", "\u00a0",
                "[/bold]", "[link=x]"]
        styles = sorted(STYLES)
        same = plain_only = 0
        for _ in range(4000):
            words = [rng.choice(rare if rng.random() < 0.02 else common)
                     for _ in range(rng.randint(0, 25))]
            text = "".join(w + rng.choice(["", " ", " ", "  "]) for w in words)
            style = rng.choice(styles)
            markup = rng.choice([escape(text), f"[{style}]{escape(text)}[/{style}]",
                                 f"  [{style}]x[/{style}] {escape(text)}", text])
            width = rng.randint(10, 120)

            def show(console: Any, markup: str = markup) -> None:
                console.print(markup)
            try:
                expected = _rich_bytes(width, show)
            except Exception:  # noqa: BLE001 (markup rich refuses: the plain console must too)
                with pytest.raises(Exception):  # noqa: B017
                    _plain_bytes(width, show)
                continue
            plain, console = _plain_bytes(width, show)
            assert plain == expected, (markup, width)
            same += 1
            plain_only += console.to_rich == 0
        assert same > 3000 and plain_only > same // 2


class TestWhatItKnows:
    def test_escape_is_riches(self) -> None:
        """`escape` escapes as rich.markup.escape does, backslashes and brackets included."""
        rng = random.Random(7)
        alphabet = ["[", "]", "\\", "a", "b", "/", "@", "#", " ", "x=1", "bold"]
        for _ in range(3000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
            assert escape(text) == rich_escape(text), text

    def test_one_cell_characters_are_one_cell_in_rich(self) -> None:
        """Every character the plain console measures as one cell is one cell in rich."""
        wide = [c for c in sorted(ONE_CELL) if cell_len(c) != 1]
        assert wide == []

    def test_every_style_the_display_uses_is_known(self) -> None:
        """The terminal's styles (claim states, marks, decisions) are ones the plain console
        drops, and each is written as rich normalises it (so a closing tag matches)."""
        used = {*STATE_STYLE.values(), *CLI_MARKS.values(), *(d.style for d in DECISIONS.values()),
                "bold", "dim", "cyan", "yellow", "red", "green", "bold magenta"}
        assert used <= STYLES
        assert all(Style.normalize(s) == s for s in STYLES)

    def test_rich_where_colour_is_asked_for(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """FORCE_COLOR or TTY_COMPATIBLE (rich's variables) give rich's own console; COLUMNS
        sets the plain console's width, as it sets rich's."""
        assert not isinstance(stdout_console({"FORCE_COLOR": "1"}), PlainConsole)
        assert not isinstance(stdout_console({"TTY_COMPATIBLE": "0"}), PlainConsole)
        with contextlib.redirect_stdout(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")):
            console = stdout_console({"COLUMNS": "100"})
            assert isinstance(console, PlainConsole) and console.width == 100
            assert Console(highlight=False, _environ={"COLUMNS": "100"}).width == 100
