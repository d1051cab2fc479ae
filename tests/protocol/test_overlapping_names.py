"""Two metric names that overlap in a question (issue 42, item 1): 'the total transaction amount'
holds 'Total Transactions' (leftmost) and 'transaction amount'. The words after the metric taken
that end the other name are not read by it, whatever list they are on: the reading takes the
other metric or leaves them unread — never the first metric with every word read. The cases are
generated from each catalog's own names, labels and synonyms, on every domain."""

from __future__ import annotations

import re

import pytest

from showwork.protocol.reading import read_text
from showwork.protocol.reading.account import entry_words, lemma

DOMAINS = {"demo": "layer", "shop": "shop_layer", "flights": "flights_layer",
           "tutorial": "tutorial_layer"}
_WORDS = re.compile(r"[a-z0-9]+")


def phrases(catalog: dict) -> list[tuple[str, tuple[str, ...]]]:
    """(metric, words) of each way the catalog names a metric."""
    out = []
    for name, m in (catalog.get("metrics") or {}).items():
        for said in {name.replace("_", " "), re.sub(r"\(.*?\)", "", m.get("label") or ""),
                     *(m.get("synonyms") or ())}:
            words = tuple(_WORDS.findall(said.lower()))
            if words:
                out.append((name, words))
    return out


def _one(word: str) -> str:
    """A word and its plural compare equal ('transactions' ends what 'transaction' starts)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def overlapping(catalog: dict) -> list[tuple[str, str, str, str]]:
    """(question, first metric, second metric, the second's words after the overlap) for each
    pair of names where the first's last words are the second's first words and each has a
    word of its own."""
    names = phrases(catalog)
    out = set()
    for a, wa in names:
        for b, wb in names:
            for k in range(1, min(len(wa), len(wb))):
                if a != b and [_one(w) for w in wa[-k:]] == [_one(w) for w in wb[:k]]:
                    tail = " ".join(wb[k:])
                    out.add((f"What was the {' '.join(wa[:-k] + wb)}?", a, b, tail))
    return sorted(out)


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_overlapping_names_never_read_as_the_first_alone(request, domain: str) -> None:
    """Each question naming two overlapping metric names reads the second name's last words
    as something (the second metric, a grain, a breakdown, …), or leaves them unread, or they
    are words of the first metric's own catalog entries ('average departure delay minutes');
    none reads the first metric alone and passes over them."""
    catalog = request.getfixturevalue(DOMAINS[domain]).catalog()
    cases = overlapping(catalog)
    wrong = []
    for text, first, _second, tail in cases:
        reading = read_text(text, catalog)
        at = text.rindex(tail)
        read = [s for s in reading.spans if s.span[0] < at + len(tail) and at < s.span[1]
                and not (s.read_as == "metric" and s.detail == first)]
        own = entry_words(catalog, [first], [])
        if reading.metric_names() == [first] and not read and not reading.unread \
                and not all(lemma(w) in own for w in tail.split()):
            wrong.append((text, reading.metric_names()))
    assert cases and wrong == [], f"{len(wrong)} of {len(cases)}: {wrong[:5]}"


@pytest.mark.parametrize(("domain", "text", "unread"), [
    ("tutorial", "What was the total transaction amount?", []),
    ("shop", "What was the revenue per customer count in May 2019?", ["count"]),
    ("flights", "What was the average departure delay minutes in July 2013?", []),
])
def test_the_words_left_over(request, domain: str, text: str, unread: list[str]) -> None:
    """'Revenue per customer count' leaves the other name's words unread, so the question is
    refused rather than answered as the count; 'total transaction amount' is read whole as
    transaction_amount, 'total' its qualifier (not Total Transactions with 'amount' left over:
    test_fresh_readings.TestTotalOf); 'minutes' of an average delay in minutes is its
    own word."""
    reading = read_text(text, request.getfixturevalue(DOMAINS[domain]).catalog())
    assert reading.unread == unread


def test_the_tutorial_case_is_generated(tutorial_layer) -> None:
    """The case found by hand, 'the total transaction amount', is among the generated ones."""
    assert ("What was the total transaction amount?", "cumulative_transactions",
            "transaction_amount", "amount") in overlapping(tutorial_layer.catalog())
