"""The period scan skips a pattern only where it cannot match: every text of the bundled
question files (with their paraphrases), of the golden traces' answers, and of a set of period
phrasings built here, is read exactly as the unfiltered scan reads it."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import pytest
import yaml
from golden_texts import golden_texts

from showwork.protocol.reading import periods

ROOT = Path(__file__).resolve().parents[2]
QUESTION_FILES = (ROOT / "harness/questions/demo.yaml", ROOT / "examples/shop/questions.yaml",
                  ROOT / "examples/flights/questions.yaml")
AS_OF = (dt.date(2026, 6, 18), dt.date(2013, 12, 31), None)


def _question_texts() -> list[str]:
    out = []
    for path in QUESTION_FILES:
        for q in yaml.safe_load(path.read_text())["questions"]:
            out += [q["text"], *q.get("paraphrases", [])]
    return out


_PHRASES = (
    "the week of 2026-03-09", "week starting on the 9 March 2026", "2026-W16", "week 16 of 2026",
    "W16", "iso week 3", "March 2026", "2026-03", "Mar. 2026", "in March", "Sept 2019",
    "Q2 2019", "2019 Q2", "q3", "the 2nd quarter of 2019", "H1 2019", "the first half of 2013",
    "FY2019", "fiscal year 2019", "fiscal Q2", "in the summer", "over the holiday season",
    "during black friday", "last Monday", "on fridays", "since Sunday", "April 13", "13 April 2026",
    "April 13–19", "13-19 April 2026", "from March to May", "between 2019-01-01 and 2019-03-31",
    "2026-04-13..2026-04-19", "in 2019", "calendar year 2013", "CY2013", "the last 8 weeks",
    "past thirty days", "previous 3 months", "prior two quarters", "year to date", "YTD",
    "so far this year", "MTD", "this month so far", "qtd", "the week before last", "this week",
    "current month", "past quarter", "next year", "yesterday", "today", "since the start of 2013",
    "from the end of February to the end of March",
    # each pattern's own needs: a year's century, Q, W, H, the hyphen of ISO forms, a relative
    # phrase's lead word
    "coming week", "the current quarter", "past year", "next month", "2019-Q3", "2019q1",
    "Q4, 2019", "h2 2013", "2013W05", "w7 of 2014", "19 March", "March 19th", "1999-12",
    "2026-06-01", "the week before last month", "this past week", "on Mondays", "for TUESDAY",
    "since wedneſday", "last Thursday's", "every friday", "today",
)
_ODD_LETTERS = (
    # re's IGNORECASE reads 'ſ' as 's' and 'ı' as 'i', and the Kelvin sign as 'k'; Unicode
    # digits are \d
    "the ſummer of 2013", "ſince ſunday", "ıso week 12", "fıscal year", "this WEEK",
    "la\u017ft week", "Q\u0663 2019", "week \u0661\u0662", "ÁPRIL 2019", "the fırst half",
)


def _built_texts() -> list[str]:
    frames = ("{}", "Revenue fell 4.2% in {}.", "How many orders were placed {}?",
              "{} compared with {}", "Sales {} were 1,204, up from {}.")
    out = []
    for frame in frames:
        for a, b in itertools.islice(itertools.product(_PHRASES + _ODD_LETTERS, repeat=2), 0,
                                     None, 7):
            out.append(frame.format(a, b) if frame.count("{}") == 2 else frame.format(a))
    return out + [p.upper() for p in _PHRASES] + list(_ODD_LETTERS)


class _Everything(periods._Holds):
    """The unfiltered scan: every pattern is searched."""

    def all(self, needs: periods.Needs) -> bool:
        return True


def _read_all(texts: list[str], as_of: dt.date | None) -> list[object]:
    return [periods.find_periods(t, as_of) for t in texts]


@pytest.mark.parametrize("as_of", AS_OF)
def test_the_prefilter_reads_every_text_as_the_full_scan(monkeypatch, as_of) -> None:
    """Each text's periods, problems and comparison are those of the unfiltered scan."""
    texts = _question_texts() + golden_texts() + _built_texts()
    assert len(texts) > 1500
    filtered = _read_all(texts, as_of)
    monkeypatch.setattr(periods, "_Holds", _Everything)
    full = _read_all(texts, as_of)
    differ = [(t, f, u) for t, f, u in zip(texts, filtered, full, strict=True) if f != u]
    assert not differ, differ[:3]
    assert sum(bool(p.found) for p in full) > 1000  # the corpus names periods


def test_a_text_without_a_pattern_s_words_skips_it() -> None:
    """What a text holds is a necessary condition of each pattern; a text without digits,
    months or unit words is searched by none of them."""
    holds = periods._Holds("Revenue fell because orders fell.")
    assert not any(holds.all(needs) for _p, _b, needs in periods._PATTERNS)
    odd = periods._Holds("the ſummer")
    assert odd.all(periods._needs(("summer",)))
    assert periods._Holds("Q\u0663").all(periods._DIGITS)
    assert periods._Holds("this month").all(periods._needs(("month",)))
    assert not periods._Holds("this month").all(periods._needs(periods.MONTH))
