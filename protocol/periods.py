"""Periods as people write them, wherever the words are showwork's own: 'March 2013', 'Q1 2013',
'the week of 9 March 2026', '2013'. The ISO range stays in citations and the JSON.

Every form written here is one the question reader reads back to the same dates
(protocol/reading/periods.py), so words shown to a person and words the audit reads agree.
"""

from __future__ import annotations

import datetime as dt
import re

ISO_RANGE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})\b")
HALVES = {1: "the first half of", 7: "the second half of"}


def period_words(start: dt.date | str, end: dt.date | str) -> str:
    """The inclusive period from `start` to `end` as a person names it.

    >>> period_words("2013-03-01", "2013-03-31"), period_words("2013-01-01", "2013-03-31")
    ('March 2013', 'Q1 2013')
    >>> period_words("2026-03-09", "2026-03-15"), period_words("2013-01-01", "2013-12-31")
    ('the week of 9 March 2026', '2013')
    >>> period_words("2026-03-09", "2026-03-09"), period_words("2019-07-01", "2019-12-31")
    ('9 March 2026', 'the second half of 2019')
    >>> period_words("2026-03-04", "2026-03-17"), period_words("2026-02-26", "2026-03-03")
    ('4 to 17 March 2026', '26 February to 3 March 2026')
    """
    a, b = _date(start), _date(end)
    if a == b:
        return day_words(a)
    months = _whole_months(a, b)
    if months == 1:
        return f"{a:%B %Y}"
    if months == 3 and a.month % 3 == 1:
        return f"Q{(a.month - 1) // 3 + 1} {a.year}"
    if months == 6 and a.month in HALVES:
        return f"{HALVES[a.month]} {a.year}"
    if months == 12 and a.month == 1:
        return str(a.year)
    if a.weekday() == 0 and (b - a).days == 6:
        return f"the week of {day_words(a)}"
    if months and a.year == b.year:
        return f"{a:%B} to {b:%B %Y}"
    if a.year == b.year and a.month == b.month:
        return f"{a.day} to {day_words(b)}"
    if a.year == b.year:
        return f"{a.day} {a:%B} to {day_words(b)}"
    return f"{day_words(a)} to {day_words(b)}"


def in_period(start: dt.date | str, end: dt.date | str) -> str:
    """The period with its preposition: 'in March 2013', 'on 9 March 2026', 'from 4 to 17
    March 2026'."""
    words = period_words(start, end)
    if _date(start) == _date(end):
        return f"on {words}"
    return f"from {words}" if " to " in words else f"in {words}"


def window_words(text: str) -> str:
    """Every ISO range `start..end` in a text of showwork's own, named as people name it.

    >>> window_words("asked 2026-03-02..2026-03-08; covered 2026-03-02..2026-03-04")
    'asked the week of 2 March 2026; covered 2 to 4 March 2026'
    """
    return ISO_RANGE.sub(lambda m: period_words(m.group(1), m.group(2)), text)


def start_words(start: dt.date | str, grain: str | None) -> str:
    """A series period by its start, short, as a chart's axis names it: '9 Mar 2026' (a day,
    or the week starting then), 'Mar 2026', 'Q1 2026', '2026'; anything else as stored.

    >>> start_words("2026-03-09", "week"), start_words("2019-03-01", "month")
    ('9 Mar 2026', 'Mar 2019')
    >>> start_words("2019-04-01", "quarter"), start_words("2019-01-01", "year")
    ('Q2 2019', '2019')
    """
    try:
        day = _date(start)
    except ValueError:
        return str(start)
    if grain == "month":
        return f"{day:%b %Y}"
    if grain == "quarter":
        return f"Q{(day.month - 1) // 3 + 1} {day.year}"
    if grain == "year":
        return str(day.year)
    return f"{day.day} {day:%b %Y}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
             "tenth", "eleventh", "twelfth", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th",
             "8th", "9th", "10th", "11th", "12th")
"""A month's place in its year, spelled or in digits (the n-th is index n-1 mod 12)."""
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_NAME = (r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
               r"aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_SLASH_DAY = r"(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4}|\d{2})(?![\d/])"
WRITTEN = re.compile(
    rf"(?i)(?P<week>\b(?:the\s+)?week\s+(?:of|starting|beginning)\s+)?(?<![\w/.]){_SLASH_DAY}"
    rf"|(?<![\w/.])(?P<mm>\d{{1,2}})/(?P<yyyy>\d{{4}})(?![\d/])"
    rf"|\b{_MONTH_NAME}\.?\s*['’](?P<yy>\d{{2}})(?!\d)"
    rf"|\bthe\s+(?P<nth>{'|'.join(_ORDINALS)})\s+month\s+of\s+(?:the\s+year\s+)?"
    r"(?P<oy>\d{4})\b")
"""Dates as people write them that the question reader does not: '03/02/2026' (in the
project's date order, month first unless it says day first), 'the week of 03/09/2026',
'07/2019', "Feb. '13", "July ’13", 'the third month of 2026'."""


def written_dates(text: str, day_first: bool = False
                  ) -> list[tuple[dt.date, dt.date, str, tuple[int, int]]]:
    """Each date or month of `WRITTEN` in the text: (start, end, grain, span).

    >>> [(str(a), str(b), g) for a, b, g, _ in written_dates("the week of 03/09/2026 and 07/2019")]
    [('2026-03-09', '2026-03-15', 'week'), ('2019-07-01', '2019-07-31', 'month')]
    >>> [(str(a), g) for a, _, g, _ in written_dates("in Feb. '13, on 03/09/26", day_first=True)]
    [('2013-02-01', 'month'), ('2026-09-03', 'day')]
    """
    out = []
    for m in WRITTEN.finditer(text):
        try:
            if m.group("a"):
                a, b = int(m.group("a")), int(m.group("b"))
                month, day = (b, a) if day_first else (a, b)
                start = dt.date(_full_year(m.group("y")), month, day)
                week = bool(m.group("week"))
                end = start + dt.timedelta(days=6 if week else 0)
                out.append((start, end, "week" if week else "day", m.span()))
                continue
            if m.group("nth"):
                place = _ORDINALS.index(m.group("nth").lower()) % 12 + 1
                start = dt.date(int(m.group("oy")), place, 1)
            elif m.group("mm"):
                start = dt.date(int(m.group("yyyy")), int(m.group("mm")), 1)
            else:
                month_no = _MONTHS.index(m.group("mon")[:3].lower()) + 1
                start = dt.date(_full_year(m.group("yy")), month_no, 1)
        except ValueError:
            continue  # '13/45/2026' is no date: left to the other readings, unread
        out.append((start, _month_end(start), "month", m.span()))
    return out


def _full_year(written: str) -> int:
    """'13' is 2013 and '87' 1987 (a two-digit year within 70 years behind 2000 is the 1900s)."""
    year = int(written)
    return year if len(written) == 4 else 2000 + year if year < 70 else 1900 + year


def _month_end(start: dt.date) -> dt.date:
    after = dt.date(start.year + start.month // 12, start.month % 12 + 1, 1)
    return after - dt.timedelta(days=1)


def day_words(day: dt.date) -> str:
    """'9 March 2026'."""
    return f"{day.day} {day:%B %Y}"


def _date(value: dt.date | str) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)[:10])


def _whole_months(a: dt.date, b: dt.date) -> int | None:
    """How many whole calendar months `a`..`b` spans, or None when it is not whole months."""
    after = b + dt.timedelta(days=1)
    if a.day != 1 or after.day != 1:
        return None
    return (after.year - a.year) * 12 + after.month - a.month
