"""The number reader: what a user reads as a number, and when it states a value."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from showwork.harness.audit import values
from showwork.protocol.numbers import Kind, ReadNumber, from_value, matches, read_numbers, say


def only(text: str, question: str = "") -> ReadNumber:
    """The one number `text` states."""
    found = read_numbers(text, question)
    assert len(found) == 1, found
    return found[0]


READ = [
    # text, literal, value, percent, sign word, scale, currency
    ("Active users were 12,573.", "12,573", 12573, False, "", "", ""),
    ("Active users reached 12.6k.", "12.6k", 12600.0, False, "", "k", ""),
    ("Revenue was $1.2M", "$1.2M", 1_200_000.0, False, "", "M", "$"),
    ("Revenue was £12m", "£12m", 12_000_000, False, "", "m", "£"),
    ("GMV hit €3B", "€3B", 3_000_000_000, False, "", "B", "€"),
    ("Orders were 1.2 million", "1.2 million", 1_200_000.0, False, "", "million", ""),
    ("Conversion was 42%", "42%", 42, True, "", "", ""),
    ("Conversion was 42 percent", "42 percent", 42, True, "", "", ""),
    ("Conversion was 0.42", "0.42", 0.42, False, "", "", ""),
    ("Days per user changed −16.4 %", "−16.4 %", -16.4, True, "", "", ""),
    ("Days per user fell 16.4 %", "16.4 %", -16.4, True, "fell", "", ""),
    ("Days per user fell by 16.4%", "16.4%", -16.4, True, "fell", "", ""),
    ("Days per user was down 16.4 %", "16.4 %", -16.4, True, "down", "", ""),
    ("Days per user fell −16.4 %", "−16.4 %", -16.4, True, "fell", "", ""),
    ("Days per user dropped sharply by about 16.4%", "16.4%", -16.4, True, "dropped", "", ""),
    ("a drop of 16.4% in days per user", "16.4%", -16.4, True, "drop", "", ""),
    ("days per user were 16.4% lower", "16.4%", -16.4, True, "lower", "", ""),
    ("Active users rose 6.0%", "6.0%", 6.0, True, "rose", "", ""),
    ("Share moved 3 pp", "3 pp", 3, True, "", "", ""),
    ("Revenue lost 1,234 dollars", "1,234 dollars", -1234, False, "lost", "", ""),
]


class TestReading:
    @pytest.mark.parametrize(("text", "literal", "value", "percent", "word", "scale", "currency"), READ)
    def test_reads_the_number_as_written(self, text: str, literal: str, value: float, percent: bool,
                                         word: str, scale: str, currency: str) -> None:
        """Each written form is read with its value, sign, scale, percent and currency."""
        n = only(text)
        assert (n.text, n.value, n.percent, n.sign_word, n.scale, n.currency) == (
            literal, value, percent, word, scale, currency)
        assert text[n.start:n.end] == literal

    @pytest.mark.parametrize(("text", "value", "money"), [
        ("Revenue was $1.2M", 1_200_000.0, "usd"), ("GMV hit €3B", 3_000_000_000, "eur"),
        ("Revenue lost 1,234 dollars", -1234, "usd"), ("Revenue was 12.50 euros", 12.5, "eur"),
        ("Revenue was 6,101,403 cents", 61014.03, "cents"), ("Orders were 1,234", 1234, ""),
    ])
    def test_reads_the_currency_as_money(self, text: str, value: float, money: str) -> None:
        """A currency symbol or word is the number's money; cents are read in whole units."""
        n = only(text)
        assert (n.value, n.money) == (value, money)

    def test_records_precision(self) -> None:
        """Decimals, significant digits and the unit of the last digit are those written."""
        assert [(n.decimals, n.significant, n.unit) for n in read_numbers("12.6k, 12,573 and -16.4")] == [
            (1, 3, 100.0), (0, 5, 1), (1, 3, 0.1)]

    def test_a_level_after_fell_keeps_its_sign(self) -> None:
        """'fell to 2.26' and 'fell from 2.67' state levels, so the fall does not negate them."""
        found = read_numbers("Days per user fell 15.28% from 2.67 to 2.26")
        assert [n.value for n in found] == [-15.28, 2.67, 2.26]

    def test_a_phrasal_down_is_no_fall(self) -> None:
        """'broken down by' is not a fall, so the number after it keeps its sign."""
        found = read_numbers("Revenue of 269,173.31 broken down by 52 stores")
        assert [(n.value, n.sign_word) for n in found] == [(269173.31, ""), (52, "")]

    def test_citations_are_skipped(self) -> None:
        """Handles, selectors (dates, quoted members) and fields inside citations are never read."""
        text = ('c2: r1[week=2026-03-09]:active_users.value and '
                'r4[product__product_name="nutellaphone 2 who dis?"]:revenue.value say 12,573 '
                '(tree:weekly_value_moments>days_per_user, r12:p90_latency.value)')
        assert [n.text for n in read_numbers(text)] == ["12,573"]

    def test_question_numbers_are_skipped(self) -> None:
        """A number the question contains is not a claim, however the answer writes its digits."""
        question = "Did revenue rise more than 10% above the 1,000 orders of 2026-W15?"
        found = read_numbers("Revenue rose 12.3%, above 10% and 1000 orders.", question)
        assert [n.text for n in found] == ["12.3%"]


NOT_CLAIMS = [
    "2026-03-09", "2026-03", "13 April", "April 13–19", "April 13, 2026", "03/09/2026", "March 2019",
    "the 13th of April", "Apr. 13 to Apr. 19", "2026-W16", "week 11", "weeks 10–11", "W11",
    "Q2 2019", "Q2", "2019", "in 2026", "FY2026", "FY 2026", "2026-04-13..2026-04-19",
    "top 3", "the top 3 products", "3 products", "across 4 channels", "first", "#1", "No. 1",
    "the 2 largest stores", "last 8 weeks", "over the last 8 weeks", "12 months", "7 days",
    "a 7-day window", "the 3rd store", "at 10:30", "at 9 am", "v1.2.3", "release 1.2.3",
    "moments_per_day", "p90", "top_3", "COVID-19", "per 1,000 users", "1. Brooklyn\n2. Queens",
    "revenue broken down by 3 regions", "10am", "12m",
]


class TestNotClaims:
    @pytest.mark.parametrize("text", NOT_CLAIMS)
    def test_is_never_read(self, text: str) -> None:
        """Dates, periods, ranks, list counts, identifiers, times and versions are not claims."""
        assert read_numbers(text) == ()

    @pytest.mark.parametrize("text", [
        "Revenue rose 5.2 % in the 4 weeks to June.", "over the last 8 weeks to 2026-03-01",
        "up to 8 weeks", "The delay fell 3.1 %. Over the 8 weeks to June it held."])
    def test_a_window_s_length_beside_a_move_is_not_read(self, text: str) -> None:
        """A count of periods that is a window's length stays unread beside a move ('in the 4
        weeks to June'); only the move's own number is."""
        assert [n.text for n in read_numbers(text)] == [
            n for n in ("5.2 %", "3.1 %") if n in text]

    def test_claims_beside_periods_are_still_read(self) -> None:
        """A claim next to a date or a rank is read; only the date and the rank are skipped."""
        text = ("In the week of April 13–19, 2026 (week 16) the top 3 products sold 3,856 units, "
                "and in March 4,102 users came back 2.26 days on average over the last 8 weeks.")
        assert [n.text for n in read_numbers(text)] == ["3,856", "4,102", "2.26"]

    @pytest.mark.parametrize(("text", "value"), [
        ("The average delay was 10 minutes.", 10), ("Delays averaged 41 minutes.", 41),
        ("Departures ran later by 5 minutes.", 5), ("Days per user is 3 days.", 3),
        ("The delay rose to 28 minutes.", 28), ("Flights left 9 minutes later.", 9),
        ("Departures were 9 minutes longer.", 9), ("The delay fell from 41 minutes", 41)])
    def test_a_duration_stated_as_a_value_is_read(self, text: str, value: int) -> None:
        """A count of periods a verb states as a value, or a move gives as its size, is a
        duration in the metric's units ('was 10 minutes' of a delay in minutes): a claim. A
        window's length ('over the last 8 weeks', 'for 7 days', 'had 7 days') is not."""
        assert only(text).value == value
        assert read_numbers("The week had 7 days, for 3 weeks in a row, over 8 weeks.") == ()

    @pytest.mark.parametrize("text", [
        "Online took 10 times Brooklyn's revenue.", "Online took 10 times what Brooklyn took.",
        "ios had 3 times Android's users.", "Orders rose to 4 times that of May."])
    def test_n_times_another_value_is_a_multiplier(self, text: str) -> None:
        """'N times' before what it multiplies (a possessive, a name, 'what', 'that') is a
        ratio; 'opened it 10 times in a row' counts occurrences."""
        (number,) = read_numbers(text)
        assert number.width > 0
        assert read_numbers("Users opened it 10 times in a row.") == ()

    def test_a_year_stated_as_a_value_is_read(self) -> None:
        """A four-digit number a verb states ('was 2019') is a claim, not a year."""
        assert only("Orders were 2019 in Q2 2019").value == 2019


MATCHES: list[tuple[str, float, Kind, bool]] = [
    ("12,573", 12573, "number", True),
    ("12,573", 12574, "number", False),
    ("12.6k", 12573, "number", True),
    ("12.6k", 12650, "number", True),
    ("12.6k", 12700, "number", False),
    ("1.2M", 1_234_567, "number", True),
    ("1.2M", 1_260_000, "number", False),
    ("3B", 3_000_000_000, "number", True),
    ("3B", 3_100_000_000, "number", True),  # 3.1B written to the billion is 3B
    ("3B", 3_600_000_000, "number", False),
    ("42%", 0.42, "fraction", True),
    ("42.0%", 0.4204, "fraction", True),
    ("42%", 0.4204, "fraction", True),  # a whole number in text is rounded too
    ("42%", 0.4254, "fraction", False),
    ("42%", 42, "percent", True),
    ("42%", 42, "number", False),
    ("42", 0.42, "fraction", False),
    ("0.42", 0.42, "fraction", True),
    ("0.42%", 0.42, "fraction", False),
    ("−16.4 %", -16.44, "percent", True),
    ("fell 16.4 %", -16.44, "percent", True),
    ("fell 16.4 %", 16.44, "percent", False),
    ("fell −16.4 %", -16.44, "percent", True),
    ("rose 16.4 %", -16.44, "percent", False),
    ("rose 6.0%", 5.98, "percent", True),
    ("-16.4", -16.44, "number", True),
    ("-16", -16.44, "number", True),
    ("fell 16%", -15.99, "percent", True),
    ("-16", -16.6, "number", False),
    ("-17", -16.44, "number", False),
    ("16", -16.44, "number", False),  # an unsigned size states a change only through Supports
    ("5.98", 5.98, "number", True),
    ("0.5", 0.54, "number", True),  # a one-digit decimal in text: 0.54 to one decimal is 0.5
    ("0.5", 0.56, "number", False),
    ("0.05", 0.054, "number", True),
    ("0.05", 0.0551, "number", False),
    ("fell 0.5%", -0.54, "percent", True),
    ("$269,173.31", 269173.31, "number", True),
    ("2.26", 2.264, "number", True),
    # percentage points are a difference of rates: a fraction × 100, never a relative change
    ("fell 2.1 pp", -0.021, "fraction", True),
    ("fell 2.1 percentage points", -0.021, "fraction", True),
    ("2.1 % pts", 0.021, "fraction", True),
    ("fell 2.1 pp", -2.1, "percent", False),
    ("fell 2.1 percentage points", -2.1, "percent", False),
    ("fell 2.1%", -2.1, "percent", True),
]


class TestMatching:
    @pytest.mark.parametrize(("text", "value", "kind", "expected"), MATCHES)
    def test_matches_at_the_written_precision(self, text: str, value: float, kind: Kind,
                                              expected: bool) -> None:
        """A number matches when equal, or rounded from the value at its written precision."""
        assert matches(only(text), value, kind) is expected

    def test_non_numbers_never_match(self) -> None:
        """Strings, booleans and null are not values a number can state."""
        n = only("12,573")
        assert [matches(n, v) for v in ("12573", True, None)] == [False, False, False]  # type: ignore[arg-type]

    def test_non_finite_values_never_match_a_rounded_number(self) -> None:
        """Infinity would swallow any tolerance and NaN equals nothing, so neither matches '12.6k'."""
        assert [matches(only("12.6k"), v) for v in (float("inf"), float("-inf"), float("nan"))] == [
            False, False, False]

    @pytest.mark.parametrize(("stated", "cited"), [(1, 1.03125), (-16, -16.44), (3, 3.4)])
    def test_a_json_integer_is_exact(self, stated: int, cited: float) -> None:
        """A claim's JSON `value` is exact at its repr: 1 states only 1, never 1.03125, while
        the same integer written in text is rounded to its unit."""
        assert not matches(from_value(stated), cited)
        assert not values.matches(stated, cited)
        assert matches(only(f"Revenue was {stated} overall"), cited)

    def test_from_value_refuses_a_boolean(self) -> None:
        """A JSON boolean has no precision, so it is not read as a number."""
        with pytest.raises(TypeError, match="not a number"):
            from_value(True)


class TestSay:
    @pytest.mark.parametrize(("value", "kind", "said"), [
        (12573, "number", "12,573"), (12573.0, "number", "12,573"), (-16.44, "percent", "-16.44%"),
        (269173.31, "number", "269,173.31"), (2.2640000001, "number", "2.264"), (0.42, "fraction", "0.42"),
        (0.1 + 0.2, "number", "0.3"), (1.5e-07, "number", "0.00000015"),
    ])
    def test_says_a_value(self, value: float, kind: Kind, said: str) -> None:
        """A repair message writes the value with separators, its own decimals, and % for percents."""
        assert say(value, kind) == said


# ---------------------------------------------------------------------------------------------
# Properties

magnitudes = st.floats(min_value=1, max_value=1e12, allow_nan=False)
signed = st.builds(lambda m, neg: -m if neg else m, magnitudes, st.booleans())


def sentence(written: str) -> str:
    return f"Active users were {written} in the window."


@st.composite
def written_forms(draw: st.DrawFn) -> tuple[str, float, Kind]:
    """A value and one way a writer could put it: separators, k, M, fixed decimals, %, −."""
    value = draw(signed)
    form = draw(st.sampled_from(["fixed", "k", "M", "int", "percent"]))
    decimals = draw(st.integers(1, 4))
    if form == "k":
        assume(abs(value) >= 1e3)
        written = f"{value / 1e3:,.{decimals}f}k"
    elif form == "M":
        assume(abs(value) >= 1e6)
        written = f"{value / 1e6:,.{decimals}f}M"
    elif form == "int":
        value = float(round(value))
        written = f"{int(value):,}"
    elif form == "percent":
        value = value / 1e10
        assume(abs(value) >= 0.01)
        return f"{value * 100:.{decimals}f}%", value, "fraction"
    else:
        written = f"{value:,.{decimals}f}"
    if draw(st.booleans()):
        written = written.replace("-", "−")
    return written, value, "number"


class TestProperties:
    @given(written_forms())
    def test_written_forms_read_back_as_matches(self, case: tuple[str, float, Kind]) -> None:
        """A value written with separators, k, M, fixed decimals or % reads back as a match."""
        written, value, kind = case
        assert matches(only(sentence(written)), value, kind)

    @given(st.integers(10, 10**12), st.data(), st.booleans())
    def test_one_wrong_digit_does_not_match(self, value: int, data: st.DataObject, commas: bool) -> None:
        """Changing one digit of a written integer of at least 10 makes it not match."""
        digits = str(value)
        i = data.draw(st.integers(0, len(digits) - 1))
        new = data.draw(st.sampled_from([d for d in "0123456789" if d != digits[i] and (i or d != "0")]))
        changed = int(digits[:i] + new + digits[i + 1:])
        written = f"{changed:,}" if commas else str(changed)
        assert not matches(only(sentence(written)), value)

    @given(st.floats(min_value=1e-6, max_value=1e12), st.integers(0, 4))
    def test_dropping_the_minus_does_not_match(self, magnitude: float, decimals: int) -> None:
        """A negative value written without its minus does not match, unless it rounds to zero
        at the written precision (-0.4 written '0' is honest)."""
        written = f"{-magnitude:,.{decimals}f}".lstrip("-")
        assume(float(written.replace(",", "")) != 0)
        assert not matches(only(sentence(written)), -magnitude)

    @given(signed, st.sampled_from([10, 100, 1000, 0.1, 0.01, 0.001]), st.integers(0, 4))
    def test_a_wrong_scale_does_not_match(self, value: float, factor: float, decimals: int) -> None:
        """A value written ten or a thousand times too large or too small does not match."""
        written = f"{value * factor:,.{decimals}f}"
        assert not matches(only(sentence(written)), value)
        assert not matches(only(sentence(f"{value:,.{decimals}f}k")), value)

    @given(st.floats(min_value=0.01, max_value=1), st.integers(1, 4))
    def test_a_fraction_in_the_wrong_unit_does_not_match(self, value: float, decimals: int) -> None:
        """A fraction written ×100 without %, or as it is with %, does not match."""
        assert not matches(only(sentence(f"{value * 100:.{decimals}f}")), value, "fraction")
        assert not matches(only(sentence(f"{value:.{decimals}f}%")), value, "fraction")

    @given(st.one_of(st.integers(-10**9, 10**9), st.floats(-1e9, 1e9)), st.data())
    def test_agrees_with_values_matches(self, cited: float, data: st.DataObject) -> None:
        """For a numeric stated value, JSON or written as its repr, the rule is values.matches;
        only a number written in text is rounded to its unit whatever its digits (values.matches
        keeps a JSON integer and a one-digit decimal exact)."""
        stated = data.draw(st.one_of(
            st.integers(0, 6).map(lambda d: round(float(cited), d)),
            st.integers(0, 6).map(lambda d: round(float(cited) + 0.004, d)),
            st.just(round(cited)), st.just(cited), st.floats(-1e9, 1e9), st.integers(-10**9, 10**9)))
        expected = values.matches(stated, cited)
        assert matches(from_value(stated), cited) is expected
        if "e" not in repr(stated):
            unit = 10.0 ** -len(repr(stated).partition(".")[2])  # its last written digit's
            assume(abs(abs(stated - cited) - 0.5 * unit) > 1e-3 * unit)  # the tie: float slack
            in_text = expected or abs(stated - cited) <= 0.5 * unit
            assert matches(only(f"Revenue was {stated!r} overall"), cited) is in_text

    @given(st.one_of(st.floats(-1e15, 1e15), st.integers(-10**15, 10**15)), st.sampled_from(["number", "percent"]))
    def test_said_values_read_back_as_matches(self, value: float, kind: Kind) -> None:
        """What `say` writes reads back as a number that matches the value."""
        assume(value == 0 or abs(value) >= 1e-9)  # beyond MAX_DIGITS nobody reads it as a number
        n = only(sentence(say(value, kind)))
        assert n.percent is (kind == "percent")
        assert matches(n, value, kind)


class TestHedgesAndBounds:
    """A hedged number is rounded at the precision its zeros give, or within its hedge's band
    (5 %; 'nearly' below the number only); a range holds both ends; a bound states a side at
    its precision; a bare number keeps its written digits."""

    @pytest.mark.parametrize(("text", "value", "kind"), [
        ("were about 11,000", 11343, "number"), ("about $61,000", 61014.03, "number"),
        ("roughly 11,300", 11343, "number"), ("~11,000", 11343, "number"),
        ("approximately 20 %", 20.44, "percent"), ("rose over 10 %", 10.84, "percent"),
        ("were about 60,000", 60214, "number"), ("about 100 users", 104, "number"),
        ("more than 11,000", 11343, "number"), ("under 11 %", 10.84, "percent"),
        ("fell more than 10 %", -10.84, "percent"), ("fell less than 11 %", -10.84, "percent"),
        ("under 12,000", 11343, "number"), ("at least 11,343", 11343, "number"),
        ("at most 11,343", 11343, "number"), ("were about 60,000", 61014.03, "number"),
        ("nearly $60,000", 59224.5, "number"), ("roughly 80 %", 79.2, "percent"),
        ("rose between 10 and 12 %", 10.8, "percent"), ("between $50k and $60k", 59224.5, "number"),
        ("fell between 5 and 6 %", -5.73, "percent")])
    def test_honest(self, text: str, value: float, kind: Kind) -> None:
        """Each states the value."""
        assert matches(only(text), value, kind)

    @pytest.mark.parametrize(("text", "value", "kind"), [
        ("were 11,000", 11343, "number"), ("about 12,000", 11343, "number"),
        ("nearly 12,000", 11343, "number"), ("rose over 1 %", 10.84, "percent"),
        ("rose over 12 %", 10.84, "percent"), ("more than 12,000", 11343, "number"),
        ("under 11,000", 11343, "number"), ("over 11,343", 11343, "number"),
        ("under 11,343", 11343, "number"), ("fell over 10 %", 10.84, "percent"),
        ("under 11 %", 11.0, "percent"), ("approximately 20 %", 16.44, "percent"),
        ("were about 65,000", 61014.03, "number"), ("about 100 users", 130, "number"),
        ("nearly 15", 15.4, "number"), ("nearly 15", 12.6, "number"),
        ("rose between 12 and 14 %", 10.8, "percent"), ("rose between 10 and 12 %", -10.8, "percent")])
    def test_lies(self, text: str, value: float, kind: Kind) -> None:
        """None states the value: a bare rounded number, the wrong side, an edge, the wrong
        sign, a hedge beyond its band ("about 20 %" of 16.44 %, "nearly 15" of 15.4), a range
        that misses it or is of the other sign."""
        assert not matches(only(text), value, kind)

    def test_read(self) -> None:
        """The hedge and the bound are read with the number, and a bound keeps its sign word."""
        n = only("Orders fell just under 12 % in May")
        assert (n.hedge, n.bound, n.value, n.sign_word) == ("just under", "<", -12, "fell")
        assert (only("were about 11,000").unit, only("were 11,000").unit) == (1000, 1)
