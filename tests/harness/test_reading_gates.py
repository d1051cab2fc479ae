"""The gates that let a reader skip a sentence (or a text) it can find nothing in, and the
prefilters' index of a text, change no reading: each gate asks only for what every match of
what it guards holds (harness/audit/quantifiers.py `may_bound`, rates.py, sums.py), and the
index keeps what a text's prefilters found for the text alone (protocol/reading/_literals.py
`_text`)."""

from __future__ import annotations

from showwork.harness.audit.quantifiers import BOUND_WORDS, may_bound
from showwork.protocol import numbers
from showwork.protocol.reading import _literals


def test_every_bound_holds_a_bound_word() -> None:
    """Each bound a number may be said with ('more than', 'shy of') holds a word of
    BOUND_WORDS, so a sentence without one has no bounded number."""
    for bound in numbers._BOUNDS:
        assert any(w in bound for w in BOUND_WORDS), bound


def test_a_bounded_number_is_read_where_its_sentence_may_bound() -> None:
    """Every sentence whose numbers carry a bound passes the gate; one without passes none."""
    said = ["Brooklyn had fewer than 300 orders", "SkyWest flew just SHY of 40 flights",
            "Revenue topped $59,000", "Online took at least 68 % of orders"]
    for sentence in said:
        assert any(n.bound for n in numbers._candidates(sentence)), sentence
        assert may_bound(sentence), sentence
    assert not may_bound("Brooklyn had 300 orders in May")


def test_a_text_is_read_once_for_its_prefilters_and_let_go_when_told() -> None:
    """The lower case and plainness of a text are kept by the text, not its object; `forget`
    lets them go."""
    text = "Orders ROSE 4 % → 1,204"
    copy = "".join(list(text))
    assert copy is not text
    assert _literals._text(text) is _literals._text(copy)
    assert _literals.lowered(copy) == "orders rose 4 % → 1,204"
    assert _literals.plain(copy)
    _literals.forget()
    assert text not in _literals._TEXTS


def test_the_identifier_mask_is_searched_wherever_it_matches() -> None:
    """A text the identifiers' mask matches in holds an underscore or a digit right after a
    word character that is no digit (numbers.py `_LETTER_DIGIT`): the gate skips no match."""
    said = ["c2 rose", "FY2026 revenue", "top_3", "x_", "__", "W11 and Q2", "v1.2.3 shipped",
            "aé1 x", "é2", "\u01c59", "ſ1", "Revenue rose 4.2 % to $1,204", "in 2024-05",
            "id:A7", "(r4)", "days 7-9"]
    for text in said:
        if list(numbers._IDENTIFIER.finditer(text)):
            assert "_" in text or numbers._LETTER_DIGIT.search(text), text
    assert not numbers._LETTER_DIGIT.search("Revenue rose 4.2 % to $1,204 in May 2024")
