"""'Flights to san fran': a member's name said with its words cut short.

Two or more words the reading left unread, each the start of the next word of one member's name
(its first word on), one of them cut short by three letters or more of the name's word ('fran'
of 'Francisco'), are that member's name, where exactly one name of the catalog's members (and of
the names a coded dimension's members are known by) begins so. The question is read again with
the name in their place, and the words stay in doubt, as a place said as an adjective is
(spelling.py): the answer is never served clean. All words said whole ('new york', of 'New York
5th Ave' and a borough besides) are no name cut short and stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

_WORD = re.compile(r"[A-Za-z0-9][\w'.-]*")
MIN_CUT = 3
"""The fewest letters a word cut short keeps ('fran'); shorter ones begin too many words."""


def names_cut_short(spans: list[tuple[tuple[int, int], str]], catalog: dict[str, Any]
                    ) -> list[tuple[tuple[int, int], str]]:
    """(span, full name) for each run of unread words (`spans`: each unread span and its
    words) that is one member's name cut short."""
    index = _index(catalog)
    out = []
    for (start, _end), words in spans:
        said = list(_WORD.finditer(words))
        for i in range(len(said) - 1):
            first = said[i].group(0).lower()
            names = index.get(first[:MIN_CUT], ()) if len(first) >= MIN_CUT else \
                index.get(first, ())
            for j in range(len(said), i + 1, -1) if names else ():
                run = [w.group(0).lower() for w in said[i:j]]
                fits = {n for n in names if _begins(run, n)}
                if len(fits) == 1:
                    out.append(((start + said[i].start(), start + said[j - 1].end()), fits.pop()))
                    break
            else:
                continue
            break
    return out


def _begins(run: list[str], name: str) -> bool:
    """Each word of `run` begins the name's word in its place, and one is cut short."""
    words = name.lower().split()
    if len(run) > len(words):
        return False
    pairs = list(zip(run, words, strict=False))
    return all(w.startswith(r) for r, w in pairs) and any(
        len(r) >= MIN_CUT and len(r) < len(w) for r, w in pairs) and all(
        len(r) >= MIN_CUT or r == w for r, w in pairs)


_INDEXED: dict[int, tuple[dict[str, Any], dict[str, tuple[str, ...]]]] = {}


def _index(catalog: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """The names (`_names`) by their first word's first MIN_CUT letters, and by a shorter first
    word whole; built once per catalog."""
    kept = _INDEXED.get(id(catalog))
    if kept is not None and kept[0] is catalog:
        return kept[1]
    index: dict[str, list[str]] = {}
    for name in _names(catalog):
        first = name.split()[0].lower()
        index.setdefault(first[:MIN_CUT] if len(first) >= MIN_CUT else first, []).append(name)
    if len(_INDEXED) > 64:
        _INDEXED.clear()
    built = {k: tuple(v) for k, v in index.items()}
    _INDEXED[id(catalog)] = (catalog, built)
    return built


def _names(catalog: dict[str, Any]) -> frozenset[str]:
    """Every member's name of two words or more, and every name a coded member is known by."""
    out: set[str] = set()
    for info in (catalog.get("dimensions") or {}).values():
        out |= {str(m) for m in (info.get("members") or info.get("values") or ())}
        for names in (info.get("named_by") or {}).values():
            out |= {str(n) for n in names.values()}
    return frozenset(n for n in out if len(n.split()) >= 2)
