"""Look-ups over a catalog snapshot, built once per audit rather than once per claim."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from showwork.protocol.catalog_text import MetricNames
from showwork.protocol.numbers import forget as forget_numbers
from showwork.protocol.reading._literals import forget as forget_texts

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
_UNREAD: Any = object()
"""A text not read yet (a reading may itself be None)."""
MAX_READINGS = 16_384
"""Readings kept per catalog: texts repeat across the repeats and configurations of a run. A
reading costs about 1.4 kB; one pass over the demo's 86 distinct recorded traces keeps 4,158
(5.9 MB), so this holds four such sets (about 23 MB). At 4,096 it held less than one, and every
repeat of a run read every text again (`bench audit`'s copies reused nothing). A whole re-audit
kept (harness/experiments/reaudit.py) counts as one reading and costs about 15 kB, its key
included: one per distinct trace, about a sixth more than that trace's readings of texts."""


@dataclass(frozen=True)
class CatalogIndex:
    catalog: dict[str, Any]
    edges: dict[tuple[str, str], str]
    """(parent, child) → 'exact' or 'influence'."""
    current: dict[str, str]
    """Any metric name, current or previous → the current name."""
    names: MetricNames
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What is found of the catalog alone (its count nouns, its metrics' polarities), by kind:
    found once per catalog, as the index is, and kept when the readings of texts are let go."""
    readings: dict[str, dict[Any, Any]] = field(default_factory=dict, compare=False, repr=False)
    """What was read (a kind of reading) → text → its reading against this catalog: one dict per
    kind, so that a look-up (about 70 per audit) builds no key. (The re-audit keeps whole audits
    here too, keyed by everything they read: harness/experiments/reaudit.py.)"""
    kept: list[int] = field(default_factory=lambda: [0], compare=False, repr=False)
    """How many readings `readings` holds, over every kind (one cell, the index being frozen):
    counted as each is kept, not summed over the kinds at each new text."""

    @classmethod
    def build(cls, catalog: dict[str, Any], digest: str | None = None) -> CatalogIndex:
        """Build the index; with the trace's catalog digest, reuse one built for that digest."""
        if digest is None:
            return cls._build(catalog)
        cached = _BY_DIGEST.get(digest)
        if cached is None:
            cached = _BY_DIGEST[digest] = cls._build(catalog)
            if len(_BY_DIGEST) > 64:
                _BY_DIGEST.pop(next(iter(_BY_DIGEST)))
        return cached

    @staticmethod
    def clear() -> None:
        _BY_DIGEST.clear()

    @staticmethod
    def forget_readings(keep: tuple[str, ...] = ()) -> None:
        """Let go of every index's readings but those of the kinds in `keep`, keeping the
        indexes (`bench audit`'s fresh pass: each answer read as if no audit had read its texts
        before, its question as any run reads it, once per catalog)."""
        for index in _BY_DIGEST.values():
            kept = {kind: index.readings[kind] for kind in keep if kind in index.readings}
            index.readings.clear()
            index.readings.update(kept)
            index.kept[0] = sum(map(len, kept.values()))
        forget_numbers()  # the numbers of texts, kept by the text alone
        forget_texts()  # what the prefilters found of texts (_literals._text)

    @staticmethod
    def cached(digest: str) -> CatalogIndex | None:
        """The index already built for a catalog digest, if any."""
        return _BY_DIGEST.get(digest)

    @classmethod
    def _build(cls, catalog: dict[str, Any]) -> CatalogIndex:
        edges = {(e["parent"], f): "exact" for e in catalog["tree"]["exact"] for f in e["factors"]}
        edges.update({(i["source"], i["target"]): "influence"
                      for i in catalog["tree"]["influence"]})
        current = {name: name for name in catalog["metrics"]}
        for name, m in catalog["metrics"].items():
            current.update({old: name for old in m.get("previous_names", [])})
        return cls(catalog, edges, current, MetricNames(catalog))

    def read(self, kind: str, text: K, reader: Callable[[K], T]) -> T:
        """`reader(text)`, read once per catalog for each text (a claim, a question)."""
        kept = self.readings.get(kind)
        if kept is not None:
            found = kept.get(text, _UNREAD)
            if found is not _UNREAD:  # not `is None`: a reading may be None (no match), kept
                return found
        return self._read(kind, text, reader)

    def _read(self, kind: str, text: K, reader: Callable[[K], T]) -> T:
        """A text not read yet: read, and kept (all readings are let go past MAX_READINGS)."""
        if self.kept[0] >= MAX_READINGS:
            self.readings.clear()
            self.kept[0] = 0
        found = reader(text)  # before the kind's dict is taken: a reader may read other kinds
        kept = self.readings.setdefault(kind, {})
        if text not in kept:  # a reader may have read this very text and kind already
            self.kept[0] += 1
        kept[text] = found
        return found

    def derive(self, kind: str, build: Callable[[dict[str, Any]], T]) -> T:
        """`build(catalog)`, found once per catalog index."""
        found = self.derived.get(kind, _UNREAD)
        if found is _UNREAD:
            found = self.derived[kind] = build(self.catalog)
        return found

    def metric(self, name: str) -> dict[str, Any]:
        return self.catalog["metrics"].get(self.current.get(name, name), {})


_BY_DIGEST: dict[str, CatalogIndex] = {}
