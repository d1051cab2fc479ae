"""The citation grammar, exactly as DESIGN.md writes it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showwork.protocol.citations import (
    CitationSyntaxError,
    PremiseCitation,
    ResultCitation,
    StatementCitation,
    format_selector,
    parse_citation,
    period_start,
)

VALID = [
    ("r2:days_per_user.pct_change", ResultCitation(2, (), "days_per_user", "pct_change")),
    ("r3[platform=ios]:days_per_user.pct_change",
     ResultCitation(3, (("platform", "ios"),), "days_per_user", "pct_change")),
    ("r12[platform=android,plan=plus]:active_users.value",
     ResultCitation(12, (("platform", "android"), ("plan", "plus")), "active_users", "value")),
    ("r4[week=2026-03-09]:active_users.value",
     ResultCitation(4, (("week", "2026-03-09"),), "active_users", "value")),
    ("c1", PremiseCitation(1)),
    ("c17", PremiseCitation(17)),
    ("tree:weekly_value_moments>days_per_user",
     StatementCitation("weekly_value_moments", "days_per_user")),
]

INVALID = [
    ("r2:days_per_user", 16, "'.' then a field"),
    ("r2.days_per_user.value", 2, "':'"),
    ("R2:a.value", 0, "'r' (result)"),
    ("r0:a.value", 1, "a number from 1 up"),
    ("r2[platform=ios:a.value", 15, "',' or ']'"),
    ("r2[]:a.value", 3, "a selector key"),
    ("r2[platform]:a.value", 11, "'='"),
    ("r2:a.value extra", 10, "the end"),
    ("c0", 1, "a number from 1 up"),
    ("c1a", 2, "the end"),
    ("tree:a<b", 6, "'>'"),
    ("tree:>b", 5, "a metric name"),
    ("r\uff12:a.value", 1, "an ASCII digit"),
    ("\u0433\u0032:a.value", 0, "'r' (result)"),
    ("r2:a\u200b.value", 4, "'.'"),
    ("", 0, "'r' (result)"),
]


@pytest.mark.parametrize(("text", "expected"), VALID, ids=[v[0] for v in VALID])
def test_valid(text: str, expected: object) -> None:
    """Each valid form parses to its parts and prints back unchanged."""
    parsed = parse_citation(text)
    assert parsed == expected and str(parsed) == text


@pytest.mark.parametrize(("text", "position", "expected"), INVALID, ids=[i[0] for i in INVALID])
def test_invalid_points_at_offending_character(text: str, position: int, expected: str) -> None:
    """A bad citation names the character position and what was expected there."""
    with pytest.raises(CitationSyntaxError) as info:
        parse_citation(text)
    assert info.value.position == position
    assert f"expected {expected}" in info.value.message


def test_confusable_named_by_unicode_name() -> None:
    """A look-alike character is named, so the model can see what it typed."""
    with pytest.raises(CitationSyntaxError, match="CYRILLIC SMALL LETTER GHE"):
        parse_citation("\u0433\u0032:a.value")


names = st.from_regex(r"[a-z][a-z0-9_]{0,15}", fullmatch=True)
members = st.from_regex(r"[A-Za-z0-9_.\-]{1,12}", fullmatch=True)


@given(st.integers(1, 10**6), st.lists(st.tuples(names, members), max_size=3), names, names)
def test_round_trip(handle, selector, metric, field) -> None:
    """Every citation the grammar allows parses back to the same parts."""
    c = ResultCitation(handle, tuple(selector), metric, field)
    assert parse_citation(str(c)) == c


@given(st.text(max_size=40))
def test_never_crashes(text: str) -> None:
    """Arbitrary text parses or raises the grammar's own error, nothing else."""
    try:
        parse_citation(text)
    except CitationSyntaxError as exc:
        assert 0 <= exc.position <= len(text)


QUOTED = [
    ('r4[store="New York 5th Ave"]:revenue.value', "New York 5th Ave"),
    ('r4[product="Mel\'s \\"mocha\\""]:revenue.value', 'Mel\'s "mocha"'),
    ('r4[product="a\\\\b"]:revenue.value', "a\\b"),
    ('r4[product="Mug, 12 oz"]:revenue.value', "Mug, 12 oz"),
    ('r4[product="T-Shirt [XL]"]:revenue.value', "T-Shirt [XL]"),
    ('r4[region="Québec"]:revenue.value', "Québec"),
    ('r4[product="key=value: x"]:revenue.value', "key=value: x"),
    ('r4[store=""]:revenue.value', ""),
]


@pytest.mark.parametrize(("text", "member"), QUOTED, ids=[q[1] or "empty" for q in QUOTED])
def test_quoted_member(text: str, member: str) -> None:
    """A quoted member holds spaces, quotes, backslashes, commas and brackets, and prints back
    as written."""
    parsed = parse_citation(text)
    assert parsed == ResultCitation(4, ((text[3:text.index("=")], member),), "revenue", "value")
    assert str(parsed) == text


def test_quoted_and_bare_members_mix() -> None:
    """Quoted and bare members sit side by side in one selector."""
    parsed = parse_citation('r2[store="O\'Hare Airport",month=2019-03-01]:revenue.value')
    assert parsed.selector == (("store", "O'Hare Airport"), ("month", "2019-03-01"))


BAD_QUOTED = [
    ('r4[store="New York:revenue.value', 32, "closing the quoted member"),
    ('r4[store="a\\x"]:revenue.value', 12, "after '\\\\'"),
    ('r4[store="a\u200bb"]:revenue.value', 11, "a printable character"),
    ('r4[store="a"b]:revenue.value', 12, "',' or ']'"),
    ("r4[store=New York]:revenue.value", 12, "quoted"),
    ("r4[region=Qu\u00e9bec]:revenue.value", 12, "U+00E9"),
]


@pytest.mark.parametrize(("text", "position", "expected"), BAD_QUOTED,
                         ids=[b[0] for b in BAD_QUOTED])
def test_bad_quoted_member_points_at_character(text: str, position: int, expected: str) -> None:
    """An unclosed quote, an unknown escape, an unprintable character, text after the closing
    quote, or an unquoted space is reported at its character."""
    with pytest.raises(CitationSyntaxError) as info:
        parse_citation(text)
    assert info.value.position == position
    assert expected in info.value.message


def test_format_selector_quotes_only_when_needed() -> None:
    """Bare members stay bare; anything else is quoted with \\" and \\\\ escaped."""
    key = {"platform": "ios", "week": "2026-03-09", "product": 'Mel\'s "mocha" \\ co'}
    assert format_selector(key) == 'platform=ios,week=2026-03-09,product="Mel\'s \\"mocha\\" \\\\ co"'


any_members = st.text(max_size=20).filter(str.isprintable)


@given(st.lists(st.tuples(names, any_members), min_size=1, max_size=3), names, names)
def test_any_printable_member_round_trips(selector, metric, field) -> None:
    """Every printable member, formatted by format_selector, parses back to itself."""
    c = ResultCitation(7, tuple(selector), metric, field)
    assert parse_citation(str(c)) == c


def test_grain_member_reads_as_period_start() -> None:
    """r5[month=2019-03] selects the row of 2019-03-01; a dimension member is left as written."""
    assert parse_citation("r5[month=2019-03]:revenue.value").row_selector() == {
        "month": "2019-03-01"}
    assert parse_citation("r5[signup_month=2019-03]:revenue.value").row_selector() == {
        "signup_month": "2019-03"}
    assert period_start("2019-03") == "2019-03-01" and period_start("2019-13") == "2019-13"
