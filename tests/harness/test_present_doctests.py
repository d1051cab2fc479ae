"""The examples in the docstrings of the page's pure helpers hold (marks: where words are
marked; headline: numbers in their units, a contribution in its root metric's unit)."""

from __future__ import annotations

import doctest

import pytest

from showwork.harness.present import headline, marks


@pytest.mark.parametrize("module", [marks, headline], ids=["marks", "headline"])
def test_docstring_examples(module) -> None:
    """Every example of the module's docstrings gives what it shows."""
    failed, tried = doctest.testmod(module)
    assert tried > 0 and failed == 0
