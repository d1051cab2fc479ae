"""The lead's question readings of session 14 (issue 42), each on two domains."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text


@pytest.mark.parametrize(("fixture", "text", "member"), [
    ("shop_layer", "What was revenue from customers who placed orders in 2019?", "placed"),
    ("shop_layer", "How many items did customers who shipped 2 orders buy in 2019?", "shipped"),
    ("intro_layer", "What was the total revenue from customers who returned orders?", "returned"),
    ("intro_layer", "What was total revenue from customers who placed orders?", "placed"),
])
def test_a_status_said_as_a_verb_is_in_doubt(request, fixture: str, text: str,
                                             member: str) -> None:
    """'Customers who placed orders' was read as order status = placed with nothing unread
    (served as the revenue of orders still in that status): a member that is a participle said
    as a verb after who did it, before what it was done to, names the status or only the
    event every order had. Read as the member, in doubt: never served clean."""
    reading = read_text(text, request.getfixturevalue(fixture).catalog())
    assert member in reading.unread, (text, reading.unread)
    assert any(d.words == member for d in reading.doubts)


@pytest.mark.parametrize(("fixture", "text"), [
    ("shop_layer", "What was revenue from placed orders in June 2019?"),
    ("intro_layer", "What was total revenue from returned orders?"),
])
def test_a_status_before_its_noun_is_the_member(request, fixture: str, text: str) -> None:
    reading = read_text(text, request.getfixturevalue(fixture).catalog())
    assert reading.unread == [] and len(reading.member_keys()) == 1
