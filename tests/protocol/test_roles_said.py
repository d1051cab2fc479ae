"""A member read in a dimension of one role where the words before it say the other (issue 42):
'out of Chicago Midway', when the data holds Midway as a destination and never as an origin,
was read as the destination and served clean (held-out s5-028: 4,113 flights *to* Midway). It is
now left unread, so the question is refused; said in the role the data holds, it reads as
before. On the flights and a shipping catalog (a source and a destination warehouse)."""

from __future__ import annotations

from typing import Any

from showwork.protocol.reading import read_text

SHIPPING: dict[str, Any] = {
    "metrics": {"shipments": {"label": "shipments", "synonyms": [], "previous_names": [],
                              "grains": ["day", "month"], "unit": "count", "type": "simple",
                              "dimensions": ["source_warehouse", "destination_city"]}},
    "dimensions": {
        "source_warehouse": {"label": "source warehouse", "synonyms": ["origin"], "pattern": None,
                             "members": ["Reno Depot", "Dallas Hub"]},
        "destination_city": {"label": "destination city", "pattern": None,
                             "members": ["Austin", "Boise", "Fresno"]},
    },
    "tree": {"exact": [], "influence": []},
}


def test_a_destination_said_as_an_origin_is_unread(flights_layer) -> None:
    catalog = flights_layer.catalog()
    out_of = read_text("How many flights did Southwest operate out of Chicago Midway in 2013?",
                       catalog)
    assert "Chicago Midway" in out_of.unread
    assert all(m.name != "destination_airport_name" for m in out_of.members)
    to = read_text("How many flights did Southwest fly to Chicago Midway in 2013?", catalog)
    assert to.unread == []
    assert [m.name for m in to.members if m.member == "Chicago Midway Intl"] == \
        ["destination_airport_name"]


def test_a_city_said_as_a_source_is_unread() -> None:
    wrong = read_text("How many shipments went out of Boise in May 2024?", SHIPPING)
    assert "Boise" in wrong.unread and wrong.members == ()
    right = read_text("How many shipments went to Boise in May 2024?", SHIPPING)
    assert right.member_keys() == [("destination_city", "Boise")]
    source = read_text("How many shipments left from Reno Depot in May 2024?", SHIPPING)
    assert source.member_keys() == [("source_warehouse", "Reno Depot")]


def test_a_member_without_a_role_keeps_its_reading(flights_layer) -> None:
    """'from JetBlue': the airline has no role, so the role word says nothing about it."""
    reading = read_text("How many flights from JetBlue were there in May 2013?",
                        flights_layer.catalog())
    assert [m.name for m in reading.members] == ["airline"]
