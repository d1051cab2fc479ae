"""The citation grammar, exactly as DESIGN.md writes it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.citations import (
    CitationSyntaxError,
    PremiseCitation,
    ResultCitation,
    StatementCitation,
    parse_citation,
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
