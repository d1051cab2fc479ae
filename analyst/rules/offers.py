"""What the catalog offers instead of words it cannot read: the refusal quotes the words and
names what is there ("I could not read 'age': order_count can be split by store, region, …;
none is 'age'"), with the closest governed names or members as a hint."""

from __future__ import annotations

import difflib
import re
from typing import Any

from showwork.protocol.reading import Reading, rate_metrics
from showwork.protocol.reading.members import holding, with_facts

MAX_NAMED = 8
"""Dimensions named at most in a refusal."""


MAX_WORDS = 6
"""Unread words quoted at most in one refusal; more are said as '…'."""


def unread_refusal(reading: Reading, metrics: list[str], catalog: dict[str, Any]) -> str:
    """The refusal for content words no reader consumed. Several words are quoted together,
    each with its own hint, before what the metrics can be split or filtered by, said once: a
    question of many unread words ('quick one for finance: how much more have we paid …') must
    not repeat the catalog's offer per word past the answer contract's length."""
    words = [u.words for u in reading.unread_content]
    if len(words) == 1:
        said = f"I could not read {words[0]!r}: {offered(words[0], metrics, catalog)}"
    else:
        quoted = ", ".join(f"{w!r}{_aside(_hint(w, metrics, catalog))}" for w in words[:MAX_WORDS])
        more = ", …" if len(words) > MAX_WORDS else ""
        said = (f"I could not read {quoted}{more}: {_split_by(metrics, catalog)}; no dimension, "
                "member or metric is any of them")
    return (f"{said}. Answering without those words would answer a different question, so I "
            "refuse rather than guess.")


def offered(words: str, metrics: list[str], catalog: dict[str, Any]) -> str:
    """What the named metrics can be split or filtered by, and the closest names to the words."""
    text = _split_by(metrics, catalog)
    text += (f"; no dimension, member or metric is {words!r}" if _dimensions(metrics, catalog)
             else f"; no metric is {words!r}")
    hint = _hint(words, metrics, catalog)
    return text + (f"; {hint}" if hint.startswith("the rates") else _aside(hint))


def _split_by(metrics: list[str], catalog: dict[str, Any]) -> str:
    """'order_count can be split or filtered by store, region, …' (at most MAX_NAMED)."""
    dims = _dimensions(metrics, catalog)
    metric = ", ".join(metrics) or "the catalog"
    shown = ", ".join(dims[:MAX_NAMED]) + (" …" if len(dims) > MAX_NAMED else "")
    return f"{metric} can be split or filtered by {shown}" if dims else f"{metric} has no dimensions"


def _hint(words: str, metrics: list[str], catalog: dict[str, Any]) -> str:
    """The closest governed names to the words ('closest: …'), or, for 'the rates' where
    several are governed, which ones ('the rates governed are …: which one do you mean?')."""
    rates = rate_metrics(catalog) if re.fullmatch(r"(?i)rates?", words.strip()) else []
    if len(rates) > 1:  # 'the rates': several are governed; which one is asked back
        return f"the rates governed are {' and '.join(rates)}: which one do you mean?"
    close = closest(words, catalog, metrics=tuple(metrics))
    return f"closest: {', '.join(close)}" if close else ""


def _aside(hint: str) -> str:
    return f" ({hint})" if hint else ""


def _dimensions(metrics: list[str], catalog: dict[str, Any]) -> list[str]:
    entries = catalog.get("metrics") or {}
    known = [entries[m] for m in metrics if m in entries]
    if not known:
        return list(catalog.get("dimensions") or {})
    common = [d for d in known[0].get("dimensions") or () if all(
        d in (k.get("dimensions") or ()) for k in known)]
    return common


def without_facts(words: str, catalog: dict[str, Any], metrics: list[str]) -> list[str]:
    """The values whose name holds the words that the metrics' facts never reach ('Boston':
    'Boston Back Bay Station', an airport no flight left from), said in a refusal."""
    reached = set(holding(words, with_facts(catalog, tuple(metrics))))
    return list(dict.fromkeys(v for d, v in holding(words, catalog) if (d, v) not in reached))


def closest(words: str, catalog: dict[str, Any], n: int = 3, metrics: tuple[str, ...] = ()
            ) -> list[str]:
    """Governed names and members spelled closest to the words (difflib's ratio ≥ 0.75; a
    member synonym counts as its member's spelling: 'Deltta' is closest to 'delta'), else the
    few members whose name holds the words as a whole word ('Chicago': 'Chicago Midway Intl',
    'Chicago Ohare Intl'), among the values the `metrics`' facts reach."""
    catalog = with_facts(catalog, metrics)
    names = list(catalog.get("metrics") or {})
    synonyms: dict[str, str] = {}
    for dim, info in (catalog.get("dimensions") or {}).items():
        names.append(dim)
        names += [f"{dim} = {m}" for m in (info.get("members") or info.get("values") or ())]
        synonyms |= {str(w).lower(): f"{dim} = {m}"
                     for w, m in (info.get("member_synonyms") or {}).items()}
    by_key = synonyms | {n.rsplit(" = ", 1)[-1].lower(): n for n in names}
    found = difflib.get_close_matches(words.lower(), list(by_key), n=n, cutoff=0.75)
    if found:
        return list(dict.fromkeys(by_key[f] for f in found))
    said = " ".join(re.findall(r"[a-z0-9]+", words.lower()))
    holding = [name for key, name in by_key.items() if said and " = " in name
               and re.search(rf"(?<![a-z0-9]){re.escape(said)}(?![a-z0-9])", key)]
    return holding if 1 < len(holding) <= n + 2 else []
