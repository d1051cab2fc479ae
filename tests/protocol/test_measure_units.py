"""A number written in another unit of what its metric measures is converted to the metric's unit
before it is held to the cited value: '22 centimetres' of rain governed in inches, '1.9 °C' of
a temperature in °F, '59 million kilometres' of a distance in miles (the lead's held-out edits of
session 6: each honest conversion was withheld as a number no field cites, while the issue's
'°C for °F' lie had been served clean). A quantity two cited units measure is not converted."""

from __future__ import annotations

import pytest

from showwork.protocol.numbers import (
    MEASURE_SPELLINGS,
    MEASURES,
    in_measure_unit,
    measure_unit,
    near,
    read_numbers,
)


def _converted(text: str, units: list[str]):
    (number,) = in_measure_unit(text, read_numbers(text), units)
    return number


@pytest.mark.parametrize(("text", "units", "cited", "holds"), [
    ("was about 22 centimetres", ["inches"], 8.73, True),
    ("was about 8.7 centimetres", ["inches"], 8.73, False),
    ("was about 1.9 °C", ["degrees_f"], 35.4, True),
    ("was about 5 °C", ["degrees_f"], 35.4, False),
    ("was 35.4 °C", ["degrees_f"], 35.4, False),  # the lie: °C for °F
    ("was 95.7 °F", ["degrees_c"], 35.4, True),
    ("was nearly 59 million kilometres", ["miles"], 36_649_007, True),
    ("was nearly 37 million kilometres", ["miles"], 36_649_007, False),
    ("weighed 12.5 kg", ["lb"], 27.56, True),
    ("weighed 12.5 lbs", ["kilograms"], 5.67, True),
    ("averaged 50 km/h", ["mph"], 31.07, True),
    ("averaged 50 mph", ["kmh"], 31.07, False),
    ("was 10 gallons", ["litres"], 37.85, True),
    ("ran 2,578.7 miles", ["miles"], 2_578.7, True),  # its own unit: unchanged
])
def test_a_number_in_another_unit_is_held_in_the_metrics(text: str, units: list[str],
                                                         cited: float, holds: bool) -> None:
    assert near(_converted(text, units), cited) is holds


def test_a_quantity_two_cited_units_measure_is_not_converted() -> None:
    """Distance in miles and rain in inches: which one '22 centimetres' states is not known."""
    number = _converted("was about 22 centimetres", ["miles", "inches"])
    assert number.value == 22


def test_money_and_percent_are_never_measures() -> None:
    assert _converted("rose 5 % km", ["miles"]).value == 5


@pytest.mark.parametrize(("name", "unit"), [
    ("miles", "miles"), ("degrees_f", "degrees_f"), ("km", "kilometres"), ("Celsius", "degrees_c"),
    ("kilograms", "kilograms"), ("usd", None), ("count", None), ("minutes", None), (None, None),
])
def test_the_catalogs_unit_names_a_measure(name: str | None, unit: str | None) -> None:
    assert measure_unit(name) == unit


def test_every_measure_is_spelled() -> None:
    assert set(MEASURE_SPELLINGS) == set(MEASURES)
