"""Every question of every domain's question file, asked of the built-in analyst, printed as
`showwork ask` prints it and rendered as the answer's page: no raw float anywhere a person reads
(the JSON keeps full precision), and no ISO range where showwork names a period in its own words."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from showwork.analyst.rules import RulesClient
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.harness.present.display import TICK_NOTE, show_trace
from showwork.harness.present.report import _env, attempt_view, csp
from showwork.protocol.periods import ISO_RANGE
from showwork.protocol.switches import Protocol
from showwork.traces import TraceRecord

ROOT = Path(__file__).resolve().parents[2]
FILES = {"demo": None, "shop": ROOT / "examples" / "shop" / "questions.yaml",
         "flights": ROOT / "examples" / "flights" / "questions.yaml"}

NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*\.\d+(?![\w.]*\d)")
"""A written decimal number (not a version, a date or part of a name)."""
EXPONENT = re.compile(r"(?<![\w.])-?\d+(\.\d+)?e[+-]?\d+\b", re.IGNORECASE)
"""A number in scientific notation: never how people write a business figure."""


def raw_floats(text: str) -> list[str]:
    """Decimals written with more than 4 significant digits and more decimals than cents:
    '0.3814043944221459' and '-2421.8742' are raw; '38.1 %', '$269,173.31', '2,421.9' and
    '0.3814' are as people write them.

    >>> raw_floats("share 0.3814043944221459, moved -2421.8742; $269,173.31, 0.3814, v1.2.3")
    ['0.3814043944221459', '-2421.8742']
    >>> raw_floats("revenue = 2.692e+05")
    ['2.692e+05']
    """
    out = [m.group(0) for m in EXPONENT.finditer(text)]
    for m in NUMBER.finditer(text):
        whole, decimals = m.group(0).lstrip("-").replace(",", "").split(".")
        if len((whole + decimals).lstrip("0")) > 4 and len(decimals) > 2:
            out.append(m.group(0))
    return out


class _Text(HTMLParser):
    """The text a person reads on a page: everything but the stylesheet."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = False

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.skip = tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self.skip = False

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


OWN_WORDS = re.compile(r"<figcaption>(.*?)</figcaption>|<small>(asked .*?)</small>|"
                       r'aria-label="(.*?)"', re.DOTALL)
"""Where the page names periods in its own words: chart captions and labels, coverage lines."""


def page_html(record: TraceRecord) -> str:
    return _env().get_template("attempt.html.j2").render(a=attempt_view(record), csp=csp(),
                                                         tick_note=TICK_NOTE)


def page_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.parts)


def iso_ranges_in_own_words(html: str) -> list[str]:
    """ISO ranges ('2026-03-02..2026-03-08') where the page names a period itself."""
    return [r for m in OWN_WORDS.finditer(html) for r in ISO_RANGE.findall(
        next(g for g in m.groups() if g is not None))]


def cli_text(record: TraceRecord) -> str:
    console = Console(width=100, record=True, file=open("/dev/null", "w"),  # noqa: SIM115
                      highlight=False)
    show_trace(console, record)
    return console.export_text()


def _layer(request: pytest.FixtureRequest, domain: str) -> Any:
    name = {"demo": "layer", "shop": "shop_layer", "flights": "flights_layer"}[domain]
    return request.getfixturevalue(name)


@pytest.mark.parametrize("domain", ["demo", pytest.param("shop", marks=pytest.mark.slow),
                                    pytest.param("flights", marks=pytest.mark.slow)])
def test_no_raw_float_on_any_answer(request: pytest.FixtureRequest, domain: str) -> None:
    """Each question of the domain's file, asked with claims+repair: its CLI print-out and its
    page hold no raw float (the failures name the question and the number)."""
    layer = _layer(request, domain)
    rules, protocol = RulesClient(), Protocol.parse("claims+repair")
    found: dict[str, list[str]] = {}
    iso: dict[str, list[str]] = {}
    charted = 0
    questions = load_questions(FILES[domain]).questions
    for q in questions:
        record = run_attempt(Question(q.id, q.text), rules, layer, protocol)
        html = page_html(record)
        raw = raw_floats(cli_text(record)) + raw_floats(page_text(html))
        if raw:
            found[q.id] = raw
        if ranges := iso_ranges_in_own_words(html):
            iso[q.id] = ranges
        charted += "<figcaption>" in html
    assert len(questions) > 50 and charted, "no chart to read the periods of"
    assert found == {}
    assert iso == {}
