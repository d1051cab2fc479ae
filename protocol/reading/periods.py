"""The periods a text names, resolved to inclusive date ranges with a grain.

Read: ISO dates and ranges ("2026-04-13..2026-04-19"), days ("April 13", "13 April 2026"),
compact ranges ("April 13–19", "13-19 April 2026"), "from A to B" and "between A and B" over any
two periods, weeks ("week of 13 April", "2026-W16", "week 16 of 2026", "W16"), months ("March
2026", "2026-03", "Mar 2026", "in March"), quarters ("Q2 2019", "2nd quarter of 2019"), halves,
years ("in 2019"), and relative phrases ("this week", "last month", "last 8 weeks", "past 30
days", "yesterday", "year to date"). A date without a year takes the text's first year, else the
as-of year. Relative phrases resolve against the as-of date, never the wall clock: with no as-of
date they are problems, as are fiscal periods, seasons and impossible dates.

>>> import datetime as dt
>>> p = find_periods("the week of 2026-03-09 compared with the week before", dt.date(2026, 6, 18))
>>> [str(f.period) for f in p.found], p.compare
(['2026-03-09..2026-03-15'], 'previous')
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from showwork.protocol.reading._calendar import (
    Period,
    add_months,
    iso_week,
    months,
    previous_period,
    quarter,
    quarter_of,
    weeks_before,
    year,
)
from showwork.protocol.reading._literals import may_match, plain, scan, search
from showwork.protocol.reading._words import Span, overlaps
from showwork.protocol.reading.holidays import HOLIDAY_RE, WORDS, holiday

__all__ = ["Period", "PeriodMention", "PeriodProblem", "Periods", "find_periods", "parse_day",
           "previous_period"]

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9
MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
NUMBERS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six",
                                        "seven", "eight", "nine", "ten", "eleven", "twelve"))}
_ORD = r"(?:st|nd|rd|th)?"
_MONTH = rf"\b(?:{MONTH_RE})\b\.?"
_YEAR = r"(?:19|20)\d{2}"
_SLASHED = r"\b(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])(?:/(?:19|20)\d{2})?\b(?![/\d])"
"""A day written with slashes, month first ('10/31', '3/31/2022'): parse_day reads it only
where no other order can be meant."""
DAY_RE = (rf"(?:{_SLASHED}|\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+\d{{1,2}}{_ORD}(?!\d)(?:,?\s+{_YEAR}\b)?"
          rf"|\b\d{{1,2}}{_ORD}(?:\s+of)?\s+{_MONTH}(?:,?\s+{_YEAR}\b)?)")
_TO = r"(?:\s*[–—-]\s*|\s+(?:to|through|thru|until|till)\s+)"
_PREPOSITIONS = {"versus", "vs", "against", "with", "in", "during", "for", "throughout", "over",
                 "of", "since", "from", "to", "and", "between", "through", "until", "till", "by",
                 "before", "after", "across"}
COMPARE = re.compile(  # with the period before, or between two named periods
    r"(?:^|(?<=[.?!;:]\s))compare\b|"  # 'Compare the rate in 2013 Q1 and Q2': the imperative
    r"\b(?:compared? (?:with|to)|versus|vs\.?|than|against|over the previous|"
    r"(?:week|month|quarter)[- ]over[- ](?:week|month|quarter)|wow|mom|from the (?:prior|previous)|"
    r"(?:prior|previous|preceding) (?:week|month|quarter|year|period)|"
    r"the (?:week|month|quarter|year) before(?! last))\b", re.IGNORECASE)
_MERGE = re.compile(rf"\s*\.\.\s*|{_TO}", re.IGNORECASE)


@dataclass(frozen=True)
class PeriodMention:
    """A period the text names, with the words that name it."""

    period: Period
    words: str
    """The words as the text writes them."""
    span: Span
    parts: tuple[PeriodMention, ...] = ()
    """For 'from A to B' and 'between A and B': A and B as named (a change between them asks
    for A versus B, never the span A..B)."""


@dataclass(frozen=True)
class PeriodProblem:
    """Words that look like a period but cannot be resolved to dates."""

    words: str
    span: Span
    reason: str


@dataclass(frozen=True)
class Periods:
    """Every period a text names, in text order, and whether it compares periods."""

    found: tuple[PeriodMention, ...]
    compare: Literal["previous", "explicit"] | None
    """'explicit' when the text compares two named periods, 'previous' with the one before."""
    problems: tuple[PeriodProblem, ...]


class _Unreadable(ValueError):
    """Raised by a builder: the words look like a period but name no dates."""


@dataclass(frozen=True)
class _Context:
    as_of: dt.date | None
    year: int | None
    """The year of a date written without one: the text's first year, else the as-of year."""
    text_year: bool = False
    """The year came from the text."""

    def today(self) -> dt.date:
        if self.as_of is None:
            raise _Unreadable("a relative period needs an as-of date")
        return self.as_of

    def year_of(self, written: str | None) -> int:
        if written:
            return int(written)
        if self.year is None:
            raise _Unreadable("a date without a year needs an as-of date or a year in the text")
        return self.year

    def begun(self, written: str | None, first_month: int) -> int:
        """The year of a month, quarter or half written without one: the text's year, else the
        latest that has begun before the as-of date ('June', as of 1 January 2014, is June
        2013)."""
        y = self.year_of(written)
        if written or self.text_year or self.as_of is None:
            return y
        return y - 1 if dt.date(y, first_month, 1) >= self.as_of else y

    def passed(self, written: str | None, month: int, day: int) -> int:
        """The year of a day written without one: the text's year, else the latest in which that
        day is on or before the as-of date ('June 30', as of 1 January 2014, is 30 June 2013;
        'April 2', as of 4 April 2022, is 2 April 2022)."""
        y = self.year_of(written)
        if written or self.text_year or self.as_of is None:
            return y
        try:
            return y - 1 if dt.date(y, month, day) > self.as_of else y
        except ValueError:
            return y


Builder = Callable[[re.Match[str], _Context], Period | None]


def parse_day(text: str, year: int | None) -> dt.date | None:
    """A day written as ISO, "March 2, 2026", "2 March", "2nd of March", or month first with
    slashes where the day cannot be a month ("10/31", "3/31/2022"; "3/4" could be either, and
    "1/2" a fraction: None); None when it is not one.

    >>> parse_day("13th of April", 2019), parse_day("10/31", 2013), parse_day("3/4/2022", None)
    (datetime.date(2019, 4, 13), datetime.date(2013, 10, 31), None)
    """
    slashed = _SLASHED_DAY.fullmatch(text)
    if slashed is not None:
        month, day, written = slashed.groups()
        if int(day) <= 12 and day.lstrip("0") != month.lstrip("0"):
            return None
        text = f"{calendar.month_name[int(month)] if 1 <= int(month) <= 12 else '?'} {day} {written or ''}"
    text = _DAY_PUNCT.sub(" ", text.strip().lower())
    text = " ".join(text.split())
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        pass
    m = _MONTH_FIRST.fullmatch(text) or _DAY_FIRST.fullmatch(text)
    if not m or (m.group(3) is None and year is None):
        return None
    a, b, y = m.groups()
    month, day = (MONTHS[a], int(b)) if a in MONTHS else (MONTHS[b], int(a))
    try:
        return dt.date(int(y) if y else year, month, day)  # type: ignore[arg-type]
    except ValueError:
        return None


_DAY_PUNCT = re.compile(r"[,.]")
_SLASHED_DAY = re.compile(r"\s*(\d{1,2})/(\d{1,2})(?:/(\d{4}))?\s*")
_MONTH_FIRST = re.compile(rf"({MONTH_RE}) (\d{{1,2}}){_ORD}(?: (\d{{4}}))?")
_DAY_FIRST = re.compile(rf"(\d{{1,2}}){_ORD}(?: of)? ({MONTH_RE})(?: (\d{{4}}))?")
"""`parse_day`'s patterns, compiled once (not a pattern string built and looked up in re's
cache at each call)."""
_FOUR_DIGITS = re.compile(r"\d{4}")


def _day(words: str, ctx: _Context) -> dt.date:
    written = _FOUR_DIGITS.search(words) is not None
    if not written:
        ctx.year_of(None)
    d = parse_day(words, ctx.year)
    if d is None:
        raise _Unreadable("not a date")
    return d if written else parse_day(words, ctx.passed(None, d.month, d.day)) or d


def _single_day(m: re.Match[str], ctx: _Context) -> Period:
    d = _day(m.group(0), ctx)
    return Period(d, d, "day")


def _month_range(m: re.Match[str], ctx: _Context) -> Period:
    """'April 13–19, 2026' and '13–19 April 2026'."""
    g = m.groupdict()
    month = MONTHS[g["m"].lower().rstrip(".")]
    y = ctx.passed(g["y"], month, int(g["a"]))
    try:
        start, end = dt.date(y, month, int(g["a"])), dt.date(y, month, int(g["b"]))
    except ValueError as exc:
        raise _Unreadable(f"not a date range ({exc})") from None
    return _ordered(start, end, m.group(0))


def _week_of_month(m: re.Match[str], ctx: _Context) -> Period:
    """'The first week of March 2013' (1 to 7 March), 'the second week of April' (8 to 14),
    'the last week of June' (its last seven days): seven days counted from the month's start or
    back from its end, not the calendar weeks that touch it."""
    month = MONTHS[m.group("m").lower().rstrip(".")]
    y, said = ctx.begun(m.group("y"), month), m.group("o").lower()
    if said in ("last", "final"):
        end = add_months(dt.date(y, month, 1), 1) - dt.timedelta(days=1)
        return Period(end - dt.timedelta(days=6), end, "range")
    n = int(said[0]) if said[0].isdigit() else _ORDINALS.index(said) + 1
    start = dt.date(y, month, 7 * n - 6)
    return Period(start, start + dt.timedelta(days=6), "range")


def _ordered(start: dt.date, end: dt.date, words: str) -> Period:
    if end < start:
        raise _Unreadable("ends before it starts")
    return Period(start, end, "range")


def _week_of(m: re.Match[str], ctx: _Context) -> Period:
    return iso_week(_day(m.group("d"), ctx))


def _days_ending(m: re.Match[str], ctx: _Context) -> Period:
    """'The 7 days ending March 31', 'the week ending 2022-03-31', '14 days up to April 4': the
    days counted back from the day named, that day included."""
    n, unit = (1, "week") if m.group("w") else (_count(m.group("n")), m.group("u").lower())
    size = n * (7 if unit.startswith("week") else 1)
    if size < 1:
        raise _Unreadable("names no days")
    end = _day(m.group("d"), ctx)
    return Period(end - dt.timedelta(days=size - 1), end, "range")


def _iso_week(m: re.Match[str], ctx: _Context) -> Period:
    y, w = ctx.year_of(m.group("y")), int(m.group("w"))
    try:
        monday = dt.date.fromisocalendar(y, w, 1)
    except ValueError:
        raise _Unreadable(f"{y} has no ISO week {w}") from None
    return iso_week(monday)


_ORDINALS = ("first", "second", "third", "fourth")
_LAST = ("last", "final")
"""'The last quarter of 2018': the year's last one (a named year's; alone, 'last quarter' is the
one before the current)."""


def _quarter(m: re.Match[str], ctx: _Context) -> Period:
    q = m.group("q").lower()
    number = int(q[0]) if q[0].isdigit() else 4 if q in _LAST else _ORDINALS.index(q) + 1
    return quarter(ctx.begun(m.group("y"), 3 * number - 2), number)


def _half(m: re.Match[str], ctx: _Context) -> Period:
    h = m.group("h").lower()
    number = 1 if h in ("1", "first", "1st") else 2
    return months(dt.date(ctx.begun(m.group("y"), 6 * number - 5), 6 * number - 5, 1), 6, "half")


def _half_of_month(m: re.Match[str], ctx: _Context) -> Period:
    """'The second half of March' (16 March to its end), 'the first half of June 2013' (1 to
    15 June): a month's halves, never the year's."""
    month = MONTHS[m.group("m").lower().rstrip(".")]
    first = dt.date(ctx.begun(m.group("y"), month), month, 1)
    if m.group("h").lower() in ("first", "1st"):
        return Period(first, first.replace(day=15), "range")
    return Period(first.replace(day=16), add_months(first, 1) - dt.timedelta(days=1), "range")


def _months_of_year(m: re.Match[str], ctx: _Context) -> Period:
    """'The first month of 2019' (January), 'the last month of 2013' (December), 'the first five
    months of 2013' (January to May), 'the last two quarters of 2018' (July to December): whole
    months or quarters from the year's start or to its end."""
    size = 3 if m.group("u").lower().startswith("quarter") else 1
    count = (_count(m.group("n")) if m.group("n") else 1) * size
    if not 0 < count <= 12:
        raise _Unreadable("more months than a year has")
    start = 1 if m.group("o").lower() == "first" else 13 - count
    return months(dt.date(ctx.year_of(m.group("y")), start, 1), count,
                  "month" if count == 1 else "range")


def _fiscal(m: re.Match[str], ctx: _Context) -> Period:
    raise _Unreadable("a fiscal period, and the catalog has no fiscal calendar")


def _season(m: re.Match[str], ctx: _Context) -> Period:
    raise _Unreadable("a season or holiday, not dates")


def _holiday(m: re.Match[str], ctx: _Context) -> Period:
    month = holiday(m.group("h"), 2000).month
    day = holiday(m.group("h"), ctx.begun(m.group("y"), month))
    return Period(day, day, "day")


def _weekday(m: re.Match[str], ctx: _Context) -> Period:
    raise _Unreadable("a weekday, not a date")


def _iso_month(m: re.Match[str], ctx: _Context) -> Period:
    return months(dt.date(int(m.group("y")), int(m.group("m")), 1), 1, "month")


def _named_month(m: re.Match[str], ctx: _Context) -> Period:
    month = MONTHS[m.group("m").lower().rstrip(".")]
    return months(dt.date(ctx.begun(m.group("y"), month), month, 1), 1, "month")


def _preceded(m: re.Match[str]) -> bool:
    """True when the word before the match is a preposition ("in March", "the end of 2026")."""
    before = re.findall(r"[a-z]+", m.string[:m.start()].lower()[-20:])
    if bool(before) and before[-1] in _PREPOSITIONS:
        return True
    if before[-2:-1] and before[-1] == "or" and before[-2] in MONTHS:
        return True  # 'in July or August': the second of two months set side by side
    if _in_a_list(m):
        return True  # 'June, July and August': a month between two others of one list
    if _RANGE_ON.match(m.string, m.end()) is not None:
        return True  # 'January to June 2019': the range's first month
    if _RANGE_OFF.search(m.string, 0, m.start()) is not None:
        return True  # 'April–June': the range's last month, after a dash
    if m.group(0)[:1].isupper() and not _FOCUS_WORD.sub("", m.string[:m.start()]).rstrip()[-1:] \
            .isalnum() and _SUBJECT.match(m.string, m.end()) is not None:
        return True  # 'February was the quietest month', 'Only December topped': a subject
    return _SET_AGAINST.match(m.string, m.end()) is not None  # 'June versus May'


_LIST_BEFORE = re.compile(rf"\b(?:{MONTH_RE})\.?\s*,\s*$", re.IGNORECASE)
_LIST_AFTER = re.compile(rf"(?:\s*,\s*(?:{MONTH_RE})\b\.?)*\s*,?\s+(?:and|or)\s+(?:{MONTH_RE})\b",
                         re.IGNORECASE)


def _in_a_list(m: re.Match[str]) -> bool:
    """A month after a month and a comma, in a list that 'and' or 'or' closes with another
    month: 'July' of 'June, July and August' (the list's first month is read by its own
    preposition, its last by 'and')."""
    return _LIST_BEFORE.search(m.string, 0, m.start()) is not None and \
        _LIST_AFTER.match(m.string, m.end()) is not None


_FOCUS_WORD = re.compile(r"(?:^|(?<=[.;:!?\s]))(?:only|just|even|also)\s*$", re.IGNORECASE)
"""A word that may stand before a sentence's subject: 'Only December topped $25'."""
_SET_AGAINST = re.compile(rf"\s*(?:versus|vs\.?|compared (?:with|to)|against)\s+(?:{MONTH_RE}|{_YEAR})\b",
                          re.IGNORECASE)
"""A period set against another: 'June versus May', '1988 versus 1982'."""
_RANGE_ON = re.compile(rf"{_TO}(?:{MONTH_RE})\b", re.IGNORECASE)
_RANGE_OFF = re.compile(rf"\b(?:{MONTH_RE}){_TO}$", re.IGNORECASE)
_SUBJECT = re.compile(r"\s+(?:was|were|had|saw|brought|showed|added|gained|lost|rose|fell|grew|"
                      r"dropped|jumped|climbed|slipped|dipped|took|topped|led|trailed|beat|"
                      r"ended|closed|posted|recorded|accounted|came|made|drew|sold|flew|"
                      r"averaged|outpaced|outsold|edged)\b")
"""After a month that starts a sentence, a verb in the past tense that makes it the subject
('July had the most flights', 'March added 3,900 flights'): a period, where 'May' alone could
be a modal verb (which a past tense never follows)."""


def _lone_month(m: re.Match[str], ctx: _Context) -> Period | None:
    return _named_month(m, ctx) if _preceded(m) else None


_ADJECTIVE_YEAR = re.compile(r"(?:\b(?:all|the|our|their|its|of)|['’]s|s['’])\s+$", re.IGNORECASE)


_YEAR_LAST = re.compile(r"(?i)\s*(?:,?\s*(?:ytd|year[\s-]+to[\s-]+date|to[\s-]+date|so\s+far)\b)?"
                        r"\s*[.?!]*\s*$")


def _year(m: re.Match[str], ctx: _Context) -> Period | None:
    """'in 2013', 'calendar year 2013', a year before a noun: 'all 2013 flights', 'JFK's
    2013 flights', a year set off by a comma at the end: 'orders by month, 2019', and a year
    last after a word ('top products 2019', 'revenue 2019 ytd')."""
    adjective = _ADJECTIVE_YEAR.search(m.string[:m.start()]) is not None and \
        re.match(r"\s+[a-z]{3,}", m.string[m.end():], re.IGNORECASE) is not None
    set_off = re.search(r"[a-z],\s*$", m.string[:m.start()], re.IGNORECASE) is not None and \
        re.match(r"\s*(?:[.?!]|$)", m.string[m.end():]) is not None  # 'orders by month, 2019'
    # 'revenue 2019 ytd', 'orders 2019 so far', 'top products 2019': a year after a word, with
    # only a to-date word (or nothing) after it
    last = re.search(r"[a-z]\s+$", m.string[:m.start()], re.IGNORECASE) is not None and \
        _YEAR_LAST.match(m.string, m.end()) is not None
    if not (_preceded(m) or m.group("lead") or adjective or set_off or last):
        return None
    return year(int(m.group("y")))


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def _last_n(m: re.Match[str], ctx: _Context) -> Period:
    """'last 8 weeks': whole weeks (months, quarters, years) before the current one; 'past 30
    days': the 30 days before the as-of date."""
    n, unit, today = _count(m.group("n")), m.group("u").lower().rstrip("s"), ctx.today()
    if n < 1:
        raise _Unreadable("names no days")
    if unit == "day":
        return Period(today - dt.timedelta(days=n), today - dt.timedelta(days=1), "range")
    if unit == "week":
        return weeks_before(today, n)
    size = {"month": 1, "quarter": 3, "year": 12}[unit]
    first = quarter_of(today).start if unit == "quarter" else today.replace(
        month=1 if unit == "year" else today.month, day=1)
    return months(add_months(first, -n * size), n * size, unit)


def _relative(phrase: str) -> Builder:
    def build(m: re.Match[str], ctx: _Context) -> Period:
        return _RELATIVE[phrase](ctx.today())
    return build


_RELATIVE: dict[str, Callable[[dt.date], Period]] = {
    "week before last": lambda t: iso_week(t - dt.timedelta(days=14)),
    "this week": iso_week,
    "last week": lambda t: iso_week(t - dt.timedelta(days=7)),
    "next week": lambda t: iso_week(t + dt.timedelta(days=7)),
    "this month": lambda t: months(t, 1, "month"),
    "last month": lambda t: months(add_months(t, -1), 1, "month"),
    "next month": lambda t: months(add_months(t, 1), 1, "month"),
    "this quarter": quarter_of,
    "last quarter": lambda t: quarter_of(add_months(t, -3)),
    "next quarter": lambda t: quarter_of(add_months(t, 3)),
    "this year": lambda t: year(t.year),
    "last year": lambda t: year(t.year - 1),
    "next year": lambda t: year(t.year + 1),
    "year to date": lambda t: Period(dt.date(t.year, 1, 1), t, "range"),
    "month to date": lambda t: Period(t.replace(day=1), t, "range"),
    "quarter to date": lambda t: Period(quarter_of(t).start, t, "range"),
    "yesterday": lambda t: Period(t - dt.timedelta(days=1), t - dt.timedelta(days=1), "day"),
    "today": lambda t: Period(t, t, "day"),
}
_RELATIVE_RE = {
    "year to date": r"\b(?:year[- ]to[- ]date|ytd|so far this year|this year so far|this year to date)\b",
    "month to date": r"\b(?:month[- ]to[- ]date|mtd|so far this month|this month so far)\b",
    "quarter to date": r"\b(?:quarter[- ]to[- ]date|qtd|so far this quarter|this quarter so far)\b",
    "week before last": r"\b(?:the )?week before last\b",
    "this week": r"\b(?:this|current) week\b", "last week": r"\b(?:last|past) week\b",
    "next week": r"\b(?:next|coming) week\b",
    "this month": r"\b(?:this|current) month\b", "last month": r"\b(?:last|past) month\b",
    "next month": r"\b(?:next|coming) month\b",
    "this quarter": r"\b(?:this|current) quarter\b", "last quarter": r"\b(?:last|past) quarter\b",
    "next quarter": r"\b(?:next|coming) quarter\b",
    "this year": r"\b(?:this|current) year\b", "last year": r"\b(?:last|past) year\b",
    "next year": r"\b(?:next|coming) year\b",
    "yesterday": r"\byesterday\b", "today": r"\btoday\b",
}
_N = r"(?P<n>\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_QY = rf"(?:(?:\s+of|,)?\s+(?P<y>{_YEAR}))?"
_MONTH_G = rf"\b(?P<m>{MONTH_RE})\b\.?"

Needs = tuple[frozenset[str], ...]
"""What a text must hold for a pattern to match in it: of each set, one of DIGIT (a `\\d`),
MONTH (a month's name as a word) or a word it holds in lower case. Each is a necessary
condition (tests/protocol/test_periods_prefilter.py holds the scan to the unfiltered one)."""


DIGIT, MONTH = "<digit>", "<month>"


def _needs(*groups: str | tuple[str, ...]) -> Needs:
    return tuple(frozenset((g,) if isinstance(g, str) else g) for g in groups)


_DIGITS = _needs(DIGIT)
_MONTH_DAY = _needs(MONTH, DIGIT)
_TO_DATE = {"year": "ytd", "month": "mtd", "quarter": "qtd"}


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_CENTURIES = ("19", "20")
"""What a year (`_YEAR`) is written with."""
_QUARTERS, _HALVES = ("q1", "q2", "q3", "q4"), ("h1", "h2")
"""What 'Q2' and 'H1' are written with, lower-cased: the letter and an ASCII digit side by side
(a 'q' alone is in 'quarter' and 'quantity', an 'h' in most texts)."""
_LEADS = {"this": (("this", "current"),), "last": (("last", "past"),),
          "next": (("next", "coming"),), "week": (("before",),)}
"""The words a relative phrase's pattern starts with, by the phrase's first word ('this week':
this or current week; 'week before last')."""


def _unit_words(phrase: str) -> tuple[str, ...]:
    """The words every match of a relative phrase's pattern holds one of."""
    units = tuple(u for u in ("week", "month", "quarter", "year", "yesterday", "today")
                  if u in phrase)
    return units + tuple(_TO_DATE[u] for u in units if "to date" in phrase and u in _TO_DATE)


_PATTERNS: tuple[tuple[str, Builder, Needs], ...] = (
    (rf"{_MONTH_G}\s+(?P<a>\d{{1,2}}){_ORD}{_TO}(?P<b>\d{{1,2}}){_ORD}(?!\d)(?!\s*{_MONTH})"
     rf"(?:,?\s+(?P<y>{_YEAR}))?", _month_range, _MONTH_DAY),
    (rf"\b(?P<a>\d{{1,2}}){_ORD}{_TO}(?P<b>\d{{1,2}}){_ORD}\s+{_MONTH_G}(?:,?\s+(?P<y>{_YEAR}))?",
     _month_range, _MONTH_DAY),
    (rf"\bweek\s+(?:of|starting|beginning|commencing)(?:\s+on)?\s+(?:the\s+)?(?P<d>{DAY_RE})",
     _week_of, _needs(("week",), DIGIT)),
    (rf"\b(?:the\s+)?(?P<o>first|second|third|fourth|1st|2nd|3rd|4th|last|final)\s+week\s+of\s+"
     rf"(?:the\s+month\s+of\s+)?{_MONTH_G}(?:,?\s+(?P<y>{_YEAR}))?", _week_of_month,
     _needs(("week",), MONTH)),
    (rf"\b(?:(?:the\s+)?{_N}\s+(?P<u>days?|weeks?)|(?:the\s+)?(?P<w>week))\s+"
     r"(?:ending|ended|up\s+to(?:\s+and\s+including)?)"
     rf"(?:\s+on)?\s+(?:the\s+)?(?P<d>{DAY_RE})", _days_ending,
     _needs(("day", "week"), ("ending", "ended", "up to"), DIGIT)),
    (rf"\b(?P<y>{_YEAR})-?W(?P<w>\d{{1,2}})\b", _iso_week, _needs(_CENTURIES, ("w",))),
    (rf"\b(?:iso\s+)?week\s+(?P<w>\d{{1,2}})\b{_QY}", _iso_week, _needs(("week",), DIGIT)),
    (rf"\bW(?P<w>\d{{1,2}})\b{_QY}", _iso_week, _needs(("w",), DIGIT)),
    (rf"\b(?P<y>{_YEAR})[\s-]?Q(?P<q>[1-4])\b", _quarter, _needs(_CENTURIES, _QUARTERS)),
    (rf"\bQ(?P<q>[1-4])\b(?:(?:\s+of|,|\s*-)?\s*(?P<y>{_YEAR}))?", _quarter, _needs(_QUARTERS)),
    (rf"\b(?:the\s+)?(?P<q>last|final)\s+quarter\s+of\s+(?P<y>{_YEAR})\b", _quarter,
     _needs(("quarter",), DIGIT)),
    (rf"\b(?:the\s+)?(?P<q>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\b{_QY}",
     _quarter, _needs(("quarter",))),
    (rf"\b(?:the\s+)?(?P<h>first|second|1st|2nd|last|final)\s+half\s+of\s+(?:the\s+month\s+of\s+)?"
     rf"{_MONTH_G}(?:,?\s+(?P<y>{_YEAR}))?", _half_of_month, _needs(("half",), MONTH)),
    (rf"\b(?:the\s+)?(?P<h>last|final)\s+half\s+of\s+(?P<y>{_YEAR})\b", _half,
     _needs(("half",), DIGIT)),
    (rf"\b(?:the\s+)?(?P<o>first|last|final)\s+(?:{_N}\s+)?(?P<u>months?|quarters)\s+of\s+"
     rf"(?P<y>{_YEAR})\b", _months_of_year, _needs(("month", "quarters"), DIGIT)),
    (rf"\bH(?P<h>[12])\b(?:(?:\s+of|,|\s*-)?\s*(?P<y>{_YEAR}))?", _half, _needs(_HALVES)),
    (rf"\b(?:the\s+)?(?P<h>first|second|1st|2nd)\s+half\b{_QY}", _half, _needs(("half",))),
    (r"\bFY\s?'?(?:\d{4}|\d{2})\b|\bfiscal\s+(?:year|quarter|half|Q[1-4]|H[12])\b(?:\s+\d{4})?",
     _fiscal, _needs(("fy", "fiscal"))),
    (rf"\b(?P<h>{HOLIDAY_RE})\b(?:,?\s+(?P<y>{_YEAR})\b)?", _holiday, _needs(WORDS)),
    (r"\b(?:in|during|over|this|last|next|for)\s+(?:the\s+)?(?:spring|summer|autumn|winter|"
     r"holidays|holiday season|christmas|black friday)\b", _season,
     _needs(("spring", "summer", "autumn", "winter", "holiday", "christmas", "friday"))),
    (r"\b(?:on|for|last|this|next|since)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|"
     r"sunday)s?\b(?!,?\s+(?:\d|the\s+\d))", _weekday, _needs(_WEEKDAYS)),
    (rf"\b{DAY_RE}", _single_day, _needs(DIGIT, (MONTH, "-", "/"))),
    (r"\b(?P<y>\d{4})-(?P<m>0[1-9]|1[0-2])\b(?!-\d)", _iso_month, _needs(("-",), DIGIT)),
    (rf"\b(?:(?:the\s+)?month\s+of\s+)?(?P<m>{MONTH_RE})\b\.?,?\s+(?P<y>{_YEAR})\b", _named_month,
     _MONTH_DAY),
    (rf"\b(?:(?:the\s+)?month\s+of\s+)?(?P<m>{MONTH_RE})\b\.?(?P<y>)(?!\s*\d)", _lone_month,
     _needs(MONTH)),
    (rf"\b(?P<lead>(?:calendar\s+)?year\s+|CY\s?)?(?P<y>{_YEAR})\b(?![-/]\d)", _year,
     _needs(_CENTURIES)),
    (rf"\b(?:the\s+)?(?:last|past|previous|prior)\s+{_N}\s+(?P<u>days?|weeks?|months?|quarters?"
     r"|years?)\b", _last_n, _needs(("last", "past", "previous", "prior"))),
    *((pattern, _relative(phrase), _needs(_unit_words(phrase), *_LEADS.get(phrase.split()[0], ())))
      for phrase, pattern in _RELATIVE_RE.items()),
)
_COMPILED = tuple((re.compile(p, re.IGNORECASE), b, n) for p, b, n in _PATTERNS)
_DIGIT = re.compile(r"\d")
_MONTH_WORD = re.compile(rf"\b(?:{MONTH_RE})\b", re.IGNORECASE)
_MONTH_LOW = re.compile(rf"\b(?:{MONTH_RE})\b", re.ASCII)
"""`_MONTH_WORD` in a `plain` text's lower case: the same matches (there a letter is ASCII, and
lower-casing keeps each character a letter, digit or neither), compared without IGNORECASE
(about half the time of its ASCII twin in the text itself)."""
_WORDS = frozenset(w for _p, _b, needs in _PATTERNS for need in needs for w in need) - {DIGIT,
                                                                                      MONTH}
"""Every word some pattern needs."""


def find_periods(text: str, as_of: dt.date | None = None) -> Periods:
    """Every period the text names, resolved against `as_of`, with what could not be read."""
    written = _text_year(text)
    ctx = _Context(as_of, written or (as_of.year if as_of else None), written is not None)
    ascii = plain(text)
    found, problems = _scan(text, ctx, ascii)
    found = _merge(text, found, ctx, problems)
    found = _one_after_another(text, found)
    earlier = _year_earlier(text, found)
    compare: Literal["previous", "explicit"] | None = None
    if earlier is not found:  # 'year over year' compares the two, whatever else it says
        found, compare = earlier, "explicit"
    elif search(COMPARE, text):
        compare = "explicit" if len(found) >= 2 else "previous"
    elif which_of_two(text, found) is not None:
        compare = "explicit"
    return Periods(tuple(found), compare, tuple(problems))


COMPARATIVE = re.compile(r"\b(?:more|fewer|less|higher|lower|greater|bigger|smaller|larger)\b",
                         re.IGNORECASE)
_EITHER = re.compile(r"\s*,?\s*or\s+(?:in\s+|during\s+)?(?:the\s+)?", re.IGNORECASE)


def which_of_two(text: str, found: list[PeriodMention] | tuple[PeriodMention, ...]
                 ) -> re.Match[str] | None:
    """'Were there more cancellations in July or August', 'was revenue higher in April or May':
    the comparative word before two periods set side by side with 'or', else None."""
    if len(found) != 2 or not _EITHER.fullmatch(text, found[0].span[1], found[1].span[0]):
        return None
    return COMPARATIVE.search(text, 0, found[0].span[0])


_WRITTEN_YEAR = re.compile(rf"(?<![\d,.])({_YEAR})(?!\d)")


def _text_year(text: str) -> int | None:
    m = search(_WRITTEN_YEAR, text)
    return int(m.group(1)) if m else None


def _scan(text: str, ctx: _Context, ascii: bool
          ) -> tuple[list[PeriodMention], list[PeriodProblem]]:
    """The periods `text` names, before ranges are joined; `ascii`: the text is plain
    (`_literals.plain`), searched with the patterns' ASCII twins (the same matches, found
    faster)."""
    found: list[PeriodMention] = []
    problems: list[PeriodProblem] = []
    taken: list[Span] = []
    holds = _Holds(text, ascii)
    for regex, build, needs in _COMPILED:
        if not holds.all(needs):
            continue  # no match can be in the text: the pattern is not searched
        for m in scan(regex, text):  # its ASCII twin where the text is plain (`fit`)
            if overlaps(m.span(), taken):
                continue
            try:
                period = build(m, ctx)
            except _Unreadable as exc:
                problems.append(PeriodProblem(m.group(0), m.span(), str(exc)))
                taken.append(m.span())
                continue
            if period is not None:
                found.append(PeriodMention(period, m.group(0), m.span()))
                taken.append(m.span())
    return sorted(found, key=lambda f: f.span), problems


class _Holds:
    """What a text holds of the patterns' needs (DIGIT, MONTH, their words), found once per
    text.

    The words are compared as the patterns' IGNORECASE compares: 'ſ' is an 's' and 'ı' an 'i'
    there (re's extra cases), and every other letter by its lower case."""

    def __init__(self, text: str, ascii: bool = False) -> None:
        low = text.lower()
        if not low.isascii():
            low = low.replace("ſ", "s").replace("ı", "i")
        held = {w for w in _WORDS if w in low}
        if _DIGIT.search(text):
            held.add(DIGIT)
        if ascii:  # a plain text: its lower case searched without IGNORECASE (`_MONTH_LOW`)
            month = _MONTH_LOW.search(low) is not None
        else:
            month = may_match(_MONTH_WORD, text) and _MONTH_WORD.search(text) is not None
        if month:
            held.add(MONTH)
        self.held = frozenset(held)

    def all(self, needs: Needs) -> bool:
        held = self.held
        for need in needs:  # noqa: SIM110 - a loop, not all(): no generator per pattern
            if held.isdisjoint(need):
                return False
        return True


_LEAD = re.compile(r"\b(?:from|between)\s+(?:the\s+)?(?:(?:start|beginning)\s+of\s+)?$",
                   re.IGNORECASE)
"""'from' or 'between' before a period: the range's lead (`_merge`)."""


def _merge(text: str, found: list[PeriodMention], ctx: _Context,
           problems: list[PeriodProblem]) -> list[PeriodMention]:
    """'from A to B', 'between A and B', 'A–B', 'A..B' become one range; 'since A' runs to the
    as-of date."""
    out: list[PeriodMention] = []
    i = 0
    while i < len(found):
        a = found[i]
        b = found[i + 1] if i + 1 < len(found) else None
        lead = search(_LEAD, text[:a.span[0]])
        if b is not None and _joined(text, a, b, lead is not None):
            start = lead.start() if lead else a.span[0]
            span = (start, b.span[1])
            try:
                words = text[span[0]:span[1]]
                out.append(PeriodMention(_ordered(a.period.start, b.period.end, words), words, span,
                                         (a, b)))
            except _Unreadable as exc:
                problems.append(PeriodProblem(text[span[0]:span[1]], span, str(exc)))
            i += 2
            continue
        out.append(_since(text, a, ctx))
        i += 1
    return out


_COMMA = re.compile(r"\s*,\s*")
_AND = re.compile(r"\s*,?\s+and\s+")


def _one_after_another(text: str, found: list[PeriodMention]) -> list[PeriodMention]:
    """'June, July and August': three or more periods listed with commas and a closing 'and',
    each starting the day after the one before, are one window from the first's start to the
    last's end (a total over them; two periods joined by 'and' stay two)."""
    out: list[PeriodMention] = []
    i = 0
    while i < len(found):
        j = i
        while j + 1 < len(found) and found[j + 1].period.start == found[j].period.end + \
                dt.timedelta(days=1) and _COMMA.fullmatch(text[found[j].span[1]:found[j + 1].span[0]]):
            j += 1
        closed = j + 1 < len(found) and found[j + 1].period.start == found[j].period.end + \
            dt.timedelta(days=1) and _AND.fullmatch(text[found[j].span[1]:found[j + 1].span[0]])
        if not closed or j == i:
            out.append(found[i])
            i += 1
            continue
        span = (found[i].span[0], found[j + 1].span[1])
        words = text[span[0]:span[1]]
        out.append(PeriodMention(_ordered(found[i].period.start, found[j + 1].period.end, words),
                                 words, span))
        i = j + 2
    return out


_SAME = r"(?:the\s+)?same\s+(?:period|time|day|date|week|month|quarter|half|season)"
_YEAR_EARLIER = re.compile(
    rf"\b(?:{_SAME}\s+(?:(?:of|in)\s+)?(?:a|one|the)\s+year\s+(?:earlier|before|prior)|"
    rf"{_SAME}\s+(?:a|one)\s+year\s+ago|{_SAME}\s+last\s+year|"
    rf"{_SAME}\s+(?:(?:of|in)\s+)?the\s+(?:previous|prior|preceding)\s+year|"
    r"year[- ]over[- ]year|yoy|y/y|(?:a|one)\s+year\s+(?:earlier|prior))\b"
    rf"|\b{_SAME}\s+(?:of|in)\s+(?P<year>{_YEAR})\b", re.IGNORECASE)
"""The period a year before the one named: 'compared with the same month last year', 'the
same period a year earlier', 'year over year', 'yoy'; or in a year named ('the same month in
2018')."""


def _year_earlier(text: str, found: list[PeriodMention]) -> list[PeriodMention]:
    """One period named and compared with the same period a year before (or in a year named):
    the two periods, the second said by the phrase's words. A period the phrase's own words
    name ('last year', '2018') is the phrase's; with no one period before it, nothing is
    added."""
    m = search(_YEAR_EARLIER, text)
    if m is None:
        return found
    own = [f for f in found if not overlaps(f.span, [m.span()])]
    named = [f for f in own if f.span[1] <= m.start()]
    if len(own) != 1 or len(named) != 1:
        return found
    period = named[0].period
    shift = int(m.group("year")) - period.start.year if m.group("year") else -1
    if shift == 0:
        return found
    return [*own, PeriodMention(_years_on(period, shift), m.group(0), m.span())]


def _years_on(period: Period, years: int) -> Period:
    """The same period `years` later (earlier when negative): the same week by its weekday
    (52 weeks a year), the same months whole, the same days (29 February as the 28th)."""
    if period.grain == "week":
        return Period(period.start + dt.timedelta(weeks=52 * years),
                      period.end + dt.timedelta(weeks=52 * years), "week")
    start = _same_day(period.start, period.start.year + years)
    after = period.end + dt.timedelta(days=1)
    if period.start.day == 1 and after.day == 1:  # whole months
        end = _same_day(after, after.year + years) - dt.timedelta(days=1)
    else:
        end = _same_day(period.end, period.end.year + years)
    return Period(start, end, period.grain)


def _same_day(day: dt.date, year: int) -> dt.date:
    return day.replace(year=year, day=min(day.day, calendar.monthrange(year, day.month)[1]))


_TO_END = re.compile(r"\s+(?:up\s+)?(?:to|through|thru|until|till)\s+the\s+end\s+of\s+", re.IGNORECASE)
"""'2013 up to the end of May', 'the start of 2013 to the end of May': one range."""
_RUNS_TO_DATE = re.compile(r"\bto[- ]date\b|\b(?:ytd|mtd|qtd)\b", re.IGNORECASE)
_FROM_END = re.compile(r"\bend\s+of\s+$", re.IGNORECASE)


def _joined(text: str, a: PeriodMention, b: PeriodMention, lead: bool) -> bool:
    between = text[a.span[1]:b.span[0]]
    if _RUNS_TO_DATE.search(a.words):
        return False  # 'year to date through the end of June': to the period named (_anchored)
    if _MERGE.fullmatch(between):
        return True
    if _TO_END.fullmatch(between) and not _FROM_END.search(text[:a.span[0]]):
        return True  # 'from the end of February to the end of March' stays two periods
    return lead and re.fullmatch(r"\s+and\s+(?:the\s+)?", between, re.IGNORECASE) is not None


_SINCE = re.compile(r"\bsince\s+(?:the\s+)?(?:(?:start|beginning)\s+of\s+(?:the\s+)?)?$",
                    re.IGNORECASE)
"""'since March', 'since the start of 2019': from the period's first day to the as-of date."""


_ONWARD = re.compile(r"\s+(?:onwards?\b|and\s+(?:later|after|beyond)\b|on(?=\s*(?:[,.;:!?)]|$)))",
                     re.IGNORECASE)
"""After a period, what makes it run on to the as-of date: 'from March onward', 'May and
later', 'from March on.'."""
_FROM = re.compile(r"\bfrom\s+(?:the\s+)?$", re.IGNORECASE)


def _since(text: str, a: PeriodMention, ctx: _Context) -> PeriodMention:
    if ctx.as_of is None:
        return a
    onward = _ONWARD.match(text, a.span[1])
    lead = _FROM.search(text, 0, a.span[0]) if onward is not None else None
    if onward is not None and (lead is not None or onward.group().strip().lower() != "on"):
        span = (lead.start() if lead else a.span[0], onward.end())  # 'on' alone: after 'from'
        return PeriodMention(Period(a.period.start, ctx.as_of, "range"), text[span[0]:span[1]],
                             span)
    before = text[:a.span[0]]
    if before.isascii() and "since" not in before.lower():
        return a  # most periods: no 'since' before them, and no search of all the text before
    lead = _SINCE.search(before)
    if lead is None:
        return a
    span = (lead.start(), a.span[1])
    return PeriodMention(Period(a.period.start, ctx.as_of, "range"), text[span[0]:span[1]], span)
