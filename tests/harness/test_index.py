"""The catalog index's readings: each text is read once per catalog, whatever its reading."""

from __future__ import annotations

from audit_world import CATALOG

from showwork.harness.audit.index import MAX_READINGS, CatalogIndex


def test_a_reading_is_read_once_even_when_it_is_none_or_false() -> None:
    """A reader that finds nothing (None, as a regex's search does) is not asked again: the
    index keeps the reading, not only the ones that are true."""
    index = CatalogIndex.build(CATALOG)
    asked: list[str] = []

    def reader(text: str) -> object:
        asked.append(text)
        return {"none": None, "false": False, "found": ("x",)}[text]

    for _ in range(3):
        assert [index.read("k", t, reader) for t in ("none", "false", "found")] == \
            [None, False, ("x",)]
    assert asked == ["none", "false", "found"]
    assert index.read("other kind", "none", reader) is None  # the kind is part of the key
    assert asked == ["none", "false", "found", "none"]


def test_readings_are_let_go_past_the_cap_over_all_kinds() -> None:
    """The index keeps at most MAX_READINGS readings, counted over every kind: past it, all are
    let go and read again when asked."""
    index = CatalogIndex.build(CATALOG)
    asked: list[str] = []

    def reader(text: str) -> str:
        asked.append(text)
        return text.upper()

    half = MAX_READINGS // 2
    for kind in ("a", "b"):
        for i in range(half):
            index.read(kind, str(i), reader)
    assert len(asked) == 2 * half
    assert index.read("a", "0", reader) == "0" and len(asked) == 2 * half  # still kept
    index.read("c", "new", reader)  # the cap is reached: everything is let go
    assert index.read("a", "0", reader) == "0" and asked[-1] == "0"
    assert sum(map(len, index.readings.values())) == 2


def test_a_reader_may_read_another_kind() -> None:
    """A reading made of another kind's reading keeps both."""
    index = CatalogIndex.build(CATALOG)
    outer = index.read("outer", "x", lambda t: ("outer", index.read("inner", t, str.upper)))
    assert outer == ("outer", "X")
    assert index.read("inner", "x", lambda _t: "asked again") == "X"
