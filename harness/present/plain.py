"""Printing rich markup where rich would print plain text, without importing rich.

Where stdout is not a terminal, rich prints the text of its markup, wrapped at the console's
width, and nothing else: no colour, no style. Loading rich to do that is about a tenth of a warm
`showwork ask`'s instructions, so `stdout_console()` gives a console that prints such lines
itself, the same bytes rich prints (tests/harness/test_plain.py holds the two to each other over
every golden trace and thousands of generated lines and widths). It does so only for what it
knows to be plain; a line it cannot vouch for (a tab, a control or wide character, an emoji code,
a style or tag it does not know) is handed to a rich console, as is every line when stdout is a
terminal or rich's colour variables are set.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

_TAGS = re.compile(r"""((\\*)\[([a-z#/@][^[]*?)])""", re.VERBOSE)
"""A markup tag, with the backslashes before it (rich.markup's RE_TAGS)."""
_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
_EMOJI = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")
"""What rich would read as an emoji code (`:smile:`): such text is left to rich."""
_WORD = re.compile(r"\s*\S+\s*")
_TRAILING_SPACE = re.compile(r"\s+$")

STYLES = frozenset({
    "bold", "dim", "red", "green", "yellow", "cyan", "magenta", "bold magenta", "reverse red",
    "underline yellow", "bold red", "bold green", "bold yellow", "blue", "bold blue",
})
"""The styles this console drops; a tag naming another is left to rich (which may refuse it)."""

ONE_CELL = frozenset(
    [chr(c) for c in range(0x20, 0x7F)]
    + [chr(c) for c in range(0xA1, 0x100) if c != 0xAD]
    + [chr(c) for c in range(0x100, 0x180)]
    + list("‐‑‒–—―‘’‚‛“”„‟†‡•…‰′″‹›€₹→←↑↓−×÷≈≠≤≥✓✗✔✘⊘⚠·")
)
"""Characters one cell wide in rich's table (a test checks each): a line of any other
character is left to rich, which measures cells."""


class Console(Protocol):
    """What `display.show_trace` prints through: rich's Console or `PlainConsole`."""

    def print(self, markup: str) -> None: ...


def escape(markup: str) -> str:
    r"""Text with its square brackets escaped, so markup prints it as it is (rich.markup.escape).

    >>> escape("[bold] is text")
    '\\[bold] is text'
    """
    markup = _ESCAPE.sub(lambda m: f"{m[1]}{m[1]}\\{m[2]}", markup)
    if markup.endswith("\\") and not markup.endswith("\\\\"):
        return markup + "\\"
    return markup


def text_of(markup: str) -> str | None:
    """The text rich prints for `markup` before wrapping; None where this module cannot say."""
    if "[" not in markup:
        return None if _emoji_like(markup) else markup
    parts: list[str] = []
    opened: list[str] = []
    for text, tag in _parse(markup):
        if text is not None:
            text = text.replace("\\[", "[")
            if _emoji_like(text):
                return None
            parts.append(text)
        elif tag in STYLES:
            opened.append(tag)
        elif tag is None or not tag.startswith("/") or not opened or \
                tag[1:].strip() != opened[-1]:
            return None  # a closing tag out of order, or a tag rich reads otherwise
        else:
            opened.pop()
    return "".join(parts)


def _emoji_like(text: str) -> bool:
    """Whether rich could read part of `text` as an emoji code (`::` names none)."""
    return any(match[2] for match in _EMOJI.finditer(text))


def _parse(markup: str) -> Iterator[tuple[str | None, str | None]]:
    """(text, None) and (None, tag) pieces of markup, as rich.markup reads them."""
    position = 0
    for match in _TAGS.finditer(markup):
        whole, escapes, tag = match.groups()
        start, end = match.span()
        if start > position:
            yield markup[position:start], None
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            if backslashes:
                yield "\\" * backslashes, None
            if escaped:
                yield whole[len(escapes):], None
                position = end
                continue
        yield None, tag
        position = end
    if position < len(markup):
        yield markup[position:], None


def wrapped(text: str, width: int) -> list[str] | None:
    """The lines rich prints `text` as at `width` cells; None unless every character is one
    cell wide and printable (a newline, tab or control character is rich's to handle)."""
    if not ONE_CELL.issuperset(text):
        return None
    lines = []
    start = 0
    for end in [*_breaks(text, width), len(text)]:
        line = text[start:end]
        if len(line) > width:  # whitespace past the edge goes (rich's rstrip_end, then crop)
            match = _TRAILING_SPACE.search(line)
            if match is not None:
                line = line[:len(line) - min(len(match[0]), len(line) - width)]
            line = line[:width]
        lines.append(line)
        start = end
    return lines


def _breaks(text: str, width: int) -> Iterator[int]:
    """Where rich breaks a line of one-cell characters (rich._wrap.divide_line, fold on)."""
    offset = 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match[0]
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:  # longer than a line: folded across lines
            pieces = [word[i:i + width] for i in range(0, len(word), width)]
            for i, piece in enumerate(pieces):
                if start:
                    yield start
                if i == len(pieces) - 1:
                    offset = len(piece)
                else:
                    start += len(piece)
        elif offset and start:
            yield start
            offset = len(word)


class PlainConsole:
    """Prints markup as rich prints it to a file that is not a terminal, where it can vouch for
    the bytes; any other line goes to a rich console made on first need."""

    def __init__(self, width: int, rich: Callable[[], Any]) -> None:
        self.width = width
        self._make_rich = rich
        self._rich: Any = None

    def print(self, markup: str) -> None:
        text = text_of(markup)
        lines = None if text is None else wrapped(text, self.width)
        if lines is None:
            if self._rich is None:
                self._rich = self._make_rich()
            self._rich.print(markup)
            return
        sys.stdout.write("\n".join(lines) + "\n")


def stdout_console(environ: Mapping[str, str] = os.environ) -> Console:
    """A console for stdout like `rich.console.Console(highlight=False)`: plain where rich would
    print plain text, else rich's own."""

    def rich() -> Any:
        from rich.console import Console as RichConsole

        return RichConsole(highlight=False)

    width = _plain_width(environ)
    return rich() if width is None else PlainConsole(width, rich)


def _plain_width(environ: Mapping[str, str]) -> int | None:
    """The width rich would wrap at, where it would print plain text: stdout is no terminal
    and no variable asks for colour (rich's Console.is_terminal and size); else None."""
    if os.name == "nt" or "TTY_COMPATIBLE" in environ or "FORCE_COLOR" in environ:
        return None
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    try:
        if encoding != "utf8" or sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    columns = environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns) if columns.isascii() and 10 <= int(columns) <= 10_000 else None
    for fd in (0, 1, 2):  # rich asks stdin, stdout and stderr in turn
        try:
            return os.get_terminal_size(fd).columns or 80
        except (AttributeError, ValueError, OSError):
            continue
    return 80
