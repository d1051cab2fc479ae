"""The catalog index's readings: each text is read once per catalog, whatever its reading."""

from __future__ import annotations

from audit_world import CATALOG

from harness.audit.index import CatalogIndex


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
