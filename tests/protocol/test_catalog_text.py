"""The catalog the model reads (prompt and MCP instructions) describes each dimension by its
own members, pattern or openness, never one shape for all."""

from __future__ import annotations

import re

import pytest

from showwork.protocol.catalog_text import describe_dimension
from showwork.protocol.prompts import render_catalog


def _dimension_lines(catalog: dict) -> dict[str, str]:
    text = render_catalog(catalog).split("Dimensions:\n", 1)[1]
    return {line[2:].split(":")[0].split(" (")[0]: line for line in text.splitlines()}


@pytest.mark.parametrize("fixture", ["layer", "shop_layer"])
def test_each_dimension_is_described_by_its_own_members_or_pattern(fixture, request) -> None:
    """On the demo and the shop, a listed dimension's line names every member it has (up to
    the cap), a patterned one the shape its pattern accepts, and no line claims YYYY-MM for a
    dimension whose pattern does not accept a month."""
    catalog = request.getfixturevalue(fixture).catalog()
    lines = _dimension_lines(catalog)
    assert set(lines) == set(catalog["dimensions"])
    for name, d in catalog["dimensions"].items():
        line = lines[name]
        if d["members"]:
            assert all(str(m) in line for m in d["members"][:30]), name
        elif d["pattern"]:
            accepts_month = re.fullmatch(d["pattern"], "2026-03") is not None
            assert ("YYYY-MM (" in line) == accepts_month, line


def test_patterns_and_open_dimensions_are_said_as_they_are() -> None:
    """A date pattern reads as a date, a year as a year, an unknown pattern is quoted, and a
    dimension with neither members nor pattern says it is open."""
    date = describe_dimension("flight_date", {"label": "flight date", "members": None,
                                              "pattern": r"^\d{4}-\d{2}-\d{2}$"})
    year = describe_dimension("cohort", {"members": [], "pattern": r"^20\d\d$"})
    code = describe_dimension("tail", {"members": None, "pattern": r"^N[0-9A-Z]{1,5}$"})
    open_ = describe_dimension("carrier_name", {"label": "carrier", "members": None})
    assert "a date, YYYY-MM-DD" in date and "YYYY-MM (" not in date
    assert "a year, YYYY" in year
    assert "^N[0-9A-Z]{1,5}$" in code
    assert open_ == "carrier_name (carrier): open (any value the data holds; members are not listed)"
