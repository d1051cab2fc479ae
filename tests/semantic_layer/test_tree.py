"""LMDI attribution is exact and picks the driver by sign and magnitude."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_layer.tree import driver, lmdi, log_mean

positive = st.floats(min_value=0.01, max_value=1e6, allow_nan=False)


@given(st.lists(st.tuples(positive, positive), min_size=1, max_size=4))
def test_contributions_sum_to_change(pairs) -> None:
    """For any positive factors, the contributions add up to the change in their product."""
    now = {f"f{i}": a for i, (a, _) in enumerate(pairs)}
    before = {f"f{i}": b for i, (_, b) in enumerate(pairs)}
    y1, y0 = math.prod(now.values()), math.prod(before.values())
    total = sum(lmdi(now, before, y1, y0).values())
    assert math.isclose(total, y1 - y0, rel_tol=1e-6, abs_tol=1e-6 * max(abs(y1), abs(y0), 1))


def test_driver_takes_sign_of_move() -> None:
    """A large positive factor is not the driver of a fall."""
    assert driver({"a": 50.0, "b": -30.0, "c": -10.0}, -5.0) == "b"
    assert driver({"a": 1.0}, -1.0) is None


def test_log_mean_rejects_non_positive() -> None:
    """LMDI is undefined for zero or negative values; the error says so."""
    with pytest.raises(ValueError, match="positive"):
        log_mean(0.0, 1.0)
