"""Windows written in questions: dates, weeks, months, quarters and relative phrases.

Relative phrases resolve against the warehouse's as-of date, never the wall clock.

>>> import datetime as dt
>>> w = find_windows("the week of 2026-03-09 compared with the week before", dt.date(2026, 6, 18))
>>> [str(x.window) for x in w.windows], w.compare
(['2026-03-09..2026-03-15'], 'previous')
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, field

from semantic_layer.windows import Window, iso_week, period_end

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
DAY_RE = (rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|(?:{MONTH_RE})\.? \d{{1,2}}(?:st|nd|rd|th)?(?:,? \d{{4}})?"
          rf"|\d{{1,2}}(?:st|nd|rd|th)? (?:{MONTH_RE})(?:,? \d{{4}})?)")


@dataclass(frozen=True)
class Found:
    window: Window
    grain: str
    """day, week, month, quarter or range: what the phrase named."""
    start: int
    """Position in the text, to order what was found."""


@dataclass
class Windows:
    windows: list[Found] = field(default_factory=list)
    compare: str | None = None
    """'previous' when the text compares with the period before; 'explicit' with two windows."""
    problems: list[str] = field(default_factory=list)


def parse_day(text: str, year: int) -> dt.date | None:
    text = text.strip().lower().replace(",", "")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        pass
    m = re.fullmatch(rf"({MONTH_RE})\.? (\d{{1,2}})(?:st|nd|rd|th)?(?: (\d{{4}}))?", text) or \
        re.fullmatch(rf"(\d{{1,2}})(?:st|nd|rd|th)? ({MONTH_RE})(?: (\d{{4}}))?", text)
    if not m:
        return None
    a, b, y = m.groups()
    month, day = (MONTHS[a], int(b)) if a in MONTHS else (MONTHS[b], int(a))
    try:
        return dt.date(int(y) if y else year, month, day)
    except ValueError:
        return None


def _month(year: int, month: int) -> Window:
    start = dt.date(year, month, 1)
    return Window(start, period_end(start, "month"))


def _previous(window: Window, grain: str) -> Window:
    if grain in ("week", "day"):
        return Window(window.start - dt.timedelta(days=window.days),
                      window.end - dt.timedelta(days=window.days))
    if grain == "month":
        prev_end = window.start - dt.timedelta(days=1)
        return _month(prev_end.year, prev_end.month)
    if grain == "quarter":
        end = window.start - dt.timedelta(days=1)
        return Window(dt.date(end.year, end.month - 2, 1), end)
    return Window(window.start - dt.timedelta(days=window.days), window.start - dt.timedelta(days=1))


def previous_window(found: Found) -> Window:
    return _previous(found.window, found.grain)


def find_windows(text: str, as_of: dt.date) -> Windows:
    lowered = text.lower()
    out = Windows()
    taken: list[tuple[int, int]] = []

    def add(m: re.Match, window: Window | None, grain: str) -> None:
        if any(s < m.end() and m.start() < e for s, e in taken):
            return
        taken.append((m.start(), m.end()))
        if window is not None:
            out.windows.append(Found(window, grain, m.start()))

    for pattern, build in _patterns(as_of):
        for m in re.finditer(pattern, lowered):
            try:
                window, grain = build(m)
            except ValueError as exc:
                out.problems.append(str(exc))
                continue
            add(m, window, grain)
    out.windows.sort(key=lambda f: f.start)
    if re.search(r"\b(?:compared? (?:with|to)|versus|vs\.?|than|against|over the previous|"
                 r"week[- ]over[- ]week|month[- ]over[- ]month|from the (?:prior|previous))\b",
                 lowered) or re.search(r"\b(?:prior|previous|preceding) (?:week|month|period)\b|"
                                       r"\bthe (?:week|month) before\b", lowered):
        out.compare = "explicit" if len(out.windows) >= 2 else "previous"
    return out


def _patterns(as_of: dt.date):
    year = as_of.year
    this_week = iso_week(as_of)
    last_week = iso_week(as_of - dt.timedelta(days=7))

    def day(s: str) -> dt.date:
        d = parse_day(s, year)
        if d is None:
            raise ValueError(f"cannot read the date {s!r}")
        return d

    def rng(m: re.Match) -> tuple[Window, str]:
        a, b = day(m.group(1)), day(m.group(2))
        return Window(a, b), "range"

    def quarter(m: re.Match) -> tuple[Window, str]:
        q, y = int(m.group(1)), int(m.group(2) or year)
        start = dt.date(y, 3 * q - 2, 1)
        return Window(start, period_end(dt.date(y, 3 * q, 1), "month")), "quarter"

    def ordinal_quarter(m: re.Match) -> tuple[Window, str]:
        q = ("first", "second", "third", "fourth").index(m.group(1)) + 1
        return quarter(re.match(r"(\d)(?: (\d{4}))?", f"{q} {m.group(2) or year}"))  # type: ignore[arg-type]

    def month_name(m: re.Match) -> tuple[Window, str]:
        return _month(int(m.group(2) or year), MONTHS[m.group(1)]), "month"

    def last_n_days(m: re.Match) -> tuple[Window, str]:
        n = int(m.group(1))
        return Window(as_of - dt.timedelta(days=n), as_of - dt.timedelta(days=1)), "range"

    last_month_end = as_of.replace(day=1) - dt.timedelta(days=1)
    yesterday = as_of - dt.timedelta(days=1)
    next_month_start = period_end(as_of.replace(day=1), "month") + dt.timedelta(days=1)
    return [
        (rf"(?:between|from) ({DAY_RE}) (?:and|to|through|until) ({DAY_RE})", rng),
        (rf"({DAY_RE}) (?:to|through|until) ({DAY_RE})", rng),
        (rf"week (?:of|starting|beginning)(?: on)? ({DAY_RE})",
         lambda m: (iso_week(day(m.group(1))), "week")),
        (r"\bq([1-4])(?: (\d{4}))?\b", quarter),
        (r"\b(?:the )?(first|second|third|fourth) quarter(?: of (\d{4}))?", ordinal_quarter),
        (r"\b(\d{4})-(\d{2})\b(?!-)", lambda m: (_month(int(m.group(1)), int(m.group(2))), "month")),
        (rf"\b({MONTH_RE}) (\d{{4}})\b", month_name),
        (rf"\bin ({MONTH_RE})\b()", month_name),
        (rf"\b(?:on )?({DAY_RE})", lambda m: (Window(day(m.group(1)), day(m.group(1))), "day")),
        (r"\bthe week before last\b",
         lambda m: (iso_week(as_of - dt.timedelta(days=14)), "week")),
        (r"\bthis week\b", lambda m: (this_week, "week")),
        (r"\b(?:last|past|previous) week\b", lambda m: (last_week, "week")),
        (r"\bnext week\b", lambda m: (iso_week(as_of + dt.timedelta(days=7)), "week")),
        (r"\bthis month\b", lambda m: (_month(as_of.year, as_of.month), "month")),
        (r"\b(?:last|past|previous) month\b",
         lambda m: (_month(last_month_end.year, last_month_end.month), "month")),
        (r"\bnext month\b",
         lambda m: (_month(next_month_start.year, next_month_start.month), "month")),
        (r"\b(?:last|past) (\d{1,3}) days\b", last_n_days),
        (r"\byesterday\b", lambda m: (Window(yesterday, yesterday), "day")),
        (r"\btoday\b", lambda m: (Window(as_of, as_of), "day")),
        (r"\b(?:next|coming) (?:quarter|year)\b",
         lambda m: (Window(as_of + dt.timedelta(days=30), as_of + dt.timedelta(days=120)),
                    "range")),
    ]
