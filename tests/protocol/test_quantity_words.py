"""Words of quantity read only beside a metric whose values they fit (issue 42,
protocol/reading/quantity.py). 'The number of', 'how many', 'X count', 'X volume' ask a count;
'the value of', 'the amount of' an amount. They were on the filler list, read in every question:
'What was the value of orders in June 2019?' was served clean as the number of orders (2,533),
'What was the sales volume in June 2019?' as revenue, and on dbt-metricflow's tutorial 'How many
cancellations were there?' as the sum of cancelled dollars. Whether a metric counts comes from
the catalog: a governed unit, else what the layer derives from its measure (`counts`)."""

from __future__ import annotations

import pytest

from showwork.protocol.reading import read_text
from showwork.protocol.reading.quantity import amount_fits, count_fits, counts

DOMAINS = ["layer", "shop_layer", "flights_layer", "tutorial_layer", "intro_layer"]


@pytest.mark.parametrize(("fixture", "text", "unread"), [
    ("shop_layer", "What was the value of orders in June 2019?", ["value"]),
    ("shop_layer", "What was the sales volume in June 2019?", ["volume"]),
    ("shop_layer", "What was the number of orders in June 2019?", []),
    ("shop_layer", "What was the order volume in June 2019?", []),  # a synonym
    ("shop_layer", "What was the total value of sales in June 2019?", []),
    ("shop_layer", "What was the total value of orders in June 2019?", ["value"]),
    ("flights_layer", "What was the value of flights in July 2013?", ["value"]),
    ("flights_layer", "What was the flight count at JFK in July 2013?", []),
    ("flights_layer", "How many minutes of total departure delay were there in July 2013?", []),
    ("flights_layer", "What was the total number of JFK flights in July 2013?", []),
    ("tutorial_layer", "How many cancellations were there in March 2022?", ["many"]),
    ("tutorial_layer", "How many transactions were there in March 2022?", []),
    ("tutorial_layer", "transaction count in March 2022", ["count"]),  # no metric, said so
    ("intro_layer", "What was the value of orders?", ["value"]),
    ("intro_layer", "What was the number of orders?", []),
])
def test_a_word_of_quantity_is_read_where_it_fits(request, fixture: str, text: str,
                                                  unread: list[str]) -> None:
    reading = read_text(text, request.getfixturevalue(fixture).catalog())
    assert reading.unread == unread, (text, reading.unread)


def test_the_layer_says_what_a_dbt_metric_counts(tutorial_layer, intro_layer) -> None:
    """Where no governed unit says it: a count, or a sum of 1, counts; a sum of dollars and a
    ratio do not (the tutorial's `cancellations` sums cancelled USD)."""
    tutorial = tutorial_layer.catalog()["metrics"]
    assert counts(tutorial["transactions"]) is True
    assert counts(tutorial["cancellations"]) is False
    assert counts(tutorial["cancellation_rate"]) is False
    intro = intro_layer.catalog()["metrics"]
    assert counts(intro["total_orders"]) is True and counts(intro["total_revenue"]) is False


@pytest.mark.parametrize("fixture", DOMAINS)
def test_generated_from_each_catalog(request, fixture: str) -> None:
    """For every metric whose label is read whole alone: 'the number of <label>' is read whole
    unless the metric is known not to count (a count per something counts: 'the number of days
    per user'), and 'the value of <label>' unless it is known to count; where the catalog says,
    the word that does not fit is unread."""
    catalog = request.getfixturevalue(fixture).catalog()
    tried = 0
    for name, info in catalog["metrics"].items():
        label = str(info.get("label") or name).lower()
        plain = read_text(f"What was {label}?", catalog)
        if plain.metric_names() != [name] or plain.unread or plain.notes:
            continue
        for word, fits in (("number", count_fits(catalog["metrics"], name)),
                           ("value", amount_fits(catalog["metrics"], name))):
            reading = read_text(f"What was the {word} of {label}?", catalog)
            if reading.metric_names() != [name]:
                continue
            tried += 1
            assert (word in reading.unread) is (not fits), (name, word, reading.unread)
    assert tried >= 4


def test_a_sibling_the_question_points_to_bears_the_words() -> None:
    """'How many Black men were in prison': the reader names a percentage ('black'), and the
    question's other words point it to its sibling that counts the men in prison, which the
    answer gives (init's public 'texas' set: tests/harness/test_init_public.py). The count's
    words fit that sibling; without it they are unread."""
    from showwork.protocol.reading import Mention
    from showwork.protocol.reading.quantity import quantity_words

    catalog = {"metrics": {"avg_black": {"unit": "percent", "type": "ratio"},
                           "bmprison": {"unit": "count", "type": "simple"}}}
    text = "How many Black men were in prison in Texas?"
    named = [Mention("metric", "avg_black", None, "Black", (9, 14), "name")]
    assert quantity_words(text, named, [], catalog) == []
    read = quantity_words(text, named, [], catalog, {"avg_black": {"bmprison"}})
    assert [s.words for s in read] == ["How many"]
