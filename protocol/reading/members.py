"""Members read from the data: every dimension's values (closed lists, and the member index of
open dimensions, `values` in the catalog), matched case-, space- and punctuation-insensitively,
as whole words, multi-word, and quoted.

A value is found in free text when the words match its key (lower-case letters and digits, the
rest as spaces) and, for a value that could be an ordinary word, when the text writes it as the
data does: a code in capitals ('LAX', 'UA') only in capitals (or right after 'to', 'from',
'into', 'out of', 'via': 'flights to lax'), a number or a date never (those are
periods and counts), a common word only in quotes. A company's legal suffix is optional ('United
Air Lines' is 'United Air Lines Inc.'). The same search serves outside agents (MCP
`dimension_values`, `Project.members`): case-insensitive, fuzzy, with the closest values on a miss.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from showwork.protocol.reading._words import COMMON_WORDS
from showwork.protocol.reading.mentions import How, Mention

if TYPE_CHECKING:
    from showwork.protocol.reading.account import ReadSpan

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_QUOTED = re.compile(r"[\"“”']([^\"“”']{2,80})[\"“”']")
_SUFFIX = re.compile(r"\s+(?:inc|incorporated|co|corp|corporation|company|llc|ltd|limited|plc|"
                     r"gmbh|ag|sa|nv|bv)$")
_ACROSS = re.compile(r"[^\w\s'’.&/-]")
_DATE_OR_NUMBER = re.compile(r"[\d\s./:-]+")


def key(text: str) -> str:
    """The match key of a value or words: lower-case letters and digits, one space between.

    >>> key("United Air Lines Inc.") == key("united air-lines inc")
    True
    """
    return " ".join(_TOKEN.findall(text.lower()))


@dataclass(frozen=True)
class _Entry:
    dimension: str
    member: str
    free: bool
    """Found in free text (else only quoted)."""
    caps: bool
    """Found only written in capitals, as the data writes it."""


def _entries(catalog: dict[str, Any]) -> tuple[tuple[str, tuple[str, ...], bool], ...]:
    """(dimension, values, indexed): an open dimension's index, or the closed members whose
    legal suffix may be left out (the closed lists' other forms are the phrase scanner's)."""
    out = []
    for dim, info in (catalog.get("dimensions") or {}).items():
        if info.get("values"):
            out.append((dim, tuple(str(v) for v in info["values"]), True))
            continue
        suffixed = tuple(str(v) for v in info.get("members") or () if _SUFFIX.search(key(str(v))))
        if suffixed:
            out.append((dim, suffixed, False))
    return tuple(out)


def _closed(catalog: dict[str, Any]) -> tuple[tuple[str, tuple[str, ...], bool], ...]:
    """The names of several words in closed member lists, as names a place's part may be
    matched in ('O'Hare' of the store "O'Hare Airport"), as an open dimension's values are; a
    code or an identifier ('America/Denver', a time zone) is no name."""
    out = []
    for dim, info in (catalog.get("dimensions") or {}).items():
        names = tuple(str(v) for v in info.get("members") or () if _NAME.fullmatch(str(v)))
        if names and not info.get("values"):
            out.append((dim, names, True))
    return tuple(out)


_NAME = re.compile(r"[A-Z][\w'’.&-]*(?: [\w'’.&()-]+)+")


@lru_cache(maxsize=16)
def _table(entries: tuple[tuple[str, tuple[str, ...], bool], ...]
           ) -> tuple[dict[str, list[_Entry]], int]:
    table: dict[str, list[_Entry]] = {}
    longest = 1
    for dim, values, indexed in entries:
        for value in values:
            k = key(value)
            if not k:
                continue
            entry = _Entry(dim, value, _free(value, k), value.isupper() and len(k) <= 4)
            for form in ({k, _SUFFIX.sub("", k)} if indexed else {_SUFFIX.sub("", k)}):
                if form:
                    table.setdefault(form, []).append(entry)
                    longest = max(longest, form.count(" ") + 1)
    return table, longest


def _free(value: str, k: str) -> bool:
    """A value free text may name: not a number or date, not one common word."""
    if _DATE_OR_NUMBER.fullmatch(value):
        return False
    return not (" " not in k and (k in COMMON_WORDS or len(k) < 2))


_TABLES: dict[int, tuple[dict[str, Any], tuple[dict[str, list[_Entry]], int]]] = {}
"""Catalog object → its member table: a catalog is read many times (each question, each
claim), and its index holds thousands of values. The catalog is kept, so its id stays its own."""


def member_table(catalog: dict[str, Any]) -> tuple[dict[str, list[_Entry]], int]:
    """The match table of a catalog's members (built once per catalog object)."""
    found = _TABLES.get(id(catalog))
    if found is not None and found[0] is catalog:
        return found[1]
    table = _table(_entries(catalog))
    if len(_TABLES) >= 32:
        _TABLES.clear()
    _TABLES[id(catalog)] = (catalog, table)
    return table


def with_facts(catalog: dict[str, Any], metrics: tuple[str, ...]) -> dict[str, Any]:
    """The catalog whose joined dimensions hold only the values the metrics' facts reach (the
    catalog's `with_facts`: 'Boston Back Bay Station' is an airport no flight reaches); the
    catalog itself where no dimension says so or no metric is named. Kept per catalog object,
    so that its member tables are built once."""
    dims = catalog.get("dimensions") or {}
    if not metrics or not any(info.get("with_facts") for info in dims.values()):
        return catalog
    kept = _VIEWS.get((id(catalog), metrics))
    if kept is not None and kept[0] is catalog:
        return kept[1]
    view = {**catalog, "dimensions": {
        dim: ({**info, "values": reached} if (reached := _reached(info, metrics)) is not None
              else info) for dim, info in dims.items()}}
    if len(_VIEWS) >= 64:
        _VIEWS.clear()
    _VIEWS[(id(catalog), metrics)] = (catalog, view)
    return view


_VIEWS: dict[tuple[int, tuple[str, ...]], tuple[dict[str, Any], dict[str, Any]]] = {}


def _reached(info: dict[str, Any], metrics: tuple[str, ...]) -> list[str] | None:
    """The values every named metric's facts reach together, or None when some metric's are
    not known (the dimension's whole list stands)."""
    groups = info.get("with_facts") or []
    found = [g for g in groups if set(g.get("metrics") or ()) & set(metrics)]
    if not found or not all(any(m in (g.get("metrics") or ()) for g in found) for m in metrics):
        return None
    return sorted({str(v) for g in found for v in g.get("values") or ()})


def holding(words: str, catalog: dict[str, Any], dimension: str | None = None) -> list[tuple[str, str]]:
    """(dimension, value) of the indexed values whose name holds the words as whole words
    ('Atlanta': 'Hartsfield Jackson Atlanta Intl', 'Atlanta Regional Airport - Falcon Field')."""
    form = key(_SQUEEZE.sub("", words))
    if not form:
        return []
    out = []
    for dim, values, indexed in _entries(catalog):
        if indexed and dimension in (None, dim):
            out += [(dim, v) for v in values
                    if f" {form} " in f" {key(_SQUEEZE.sub('', v))} "]
    return out


def carried(mentions: list[Mention], catalog: dict[str, Any]) -> tuple[list[Mention], list[str]]:
    """A member of a dimension the named metrics lack, carried to the one dimension they have
    that names the same thing in the data (the catalog's `named_by`: `origin` JFK is
    origin_airport_name 'John F Kennedy Intl' for a weather metric), said in a note; else left
    as read (the layer refuses it, naming the dimensions the metric has)."""
    metrics = catalog.get("metrics") or {}
    dims = catalog.get("dimensions") or {}
    mentions = _same_thing(mentions, dims)
    named = [metrics.get(m.name) or {} for m in mentions if m.kind == "metric"]
    if not named:
        return mentions, []

    def has(dim: str) -> bool:
        return all(dim in (info.get("dimensions") or ()) for info in named)

    out, notes = [], []
    for m in mentions:
        names = (dims.get(m.name) or {}).get("named_by") or {}
        to = [d for d in names if m.member in names[d] and has(d)] \
            if m.kind == "member" and not has(m.name) else []
        if len(to) != 1:
            out.append(m)
            continue
        if any(o.kind == "member" and o.span == m.span and has(o.name) for o in mentions):
            continue  # 'Newark': the same words already read a member the metric has
        member = names[to[0]][m.member]
        out.append(Mention("member", to[0], member, m.words, m.span, m.how))
        notes.append(f"{m.words!r} is {m.name} {m.member}, read as {to[0]} = {member} (the "
                     f"metric has no {m.name})")
    return out, notes


def _same_thing(mentions: list[Mention], dims: dict[str, Any]) -> list[Mention]:
    """'La Guardia': origin LGA and origin_airport_name 'La Guardia' on one span are one
    airport (`named_by` says LGA's name is 'La Guardia'): the code's reading is kept."""
    coded = {(m.span, n, names.get(m.member or "")) for m in mentions if m.kind == "member"
             for n, names in ((dims.get(m.name) or {}).get("named_by") or {}).items()}
    return [m for m in mentions if m.kind != "member" or (m.span, m.name, m.member) not in coded]


_WORD_BEFORE = re.compile(r"([A-Za-z][\w'’-]*)\s+$")


def names_before_codes(text: str, members: list[Mention], catalog: dict[str, Any]
                       ) -> list[ReadSpan]:
    """'Chicago ORD', 'Newark EWR': words right before a code that are words of the name the
    data gives that code (the catalog's `named_by`: ORD is 'Chicago Ohare Intl') say which
    place the code is, read with it; a word of no such name ('Boston ORD') stays unread."""
    from showwork.protocol.reading.account import ReadSpan

    dims = catalog.get("dimensions") or {}
    out = []
    for m in members:
        names = [str(n.get(m.member or "") or "") for n in
                 ((dims.get(m.name) or {}).get("named_by") or {}).values()]
        words = {w.lower() for n in names for w in re.findall(r"[\w'’-]+", n)}
        at = m.span[0]
        while (said := _WORD_BEFORE.search(text, 0, at)) and said.group(1).lower() in words:
            at = said.start()
        if at < m.span[0]:
            end = at + len(text[at:m.span[0]].rstrip())
            out.append(ReadSpan(text[at:end], (at, end), "qualifier",
                                f"{text[at:end]}: a word of {m.member}'s name ({names[0]})"))
    return out


def place_notes(members: tuple[Mention, ...], catalog: dict[str, Any], metrics: tuple[str, ...]
                ) -> tuple[str, ...]:
    """'Atlanta' read as the one airport of that name the metrics' facts reach, where the
    dimension's table holds several: said, with how many others the word names."""
    out = []
    for m in members:
        if m.how != "said" or m.member is None:
            continue
        every = holding(m.words, catalog, m.name)
        if len(every) > 1:
            out.append(f"{m.words!r} is {m.member}: of the {len(every)} {m.name} values named "
                       f"so, the one with {' and '.join(metrics)} data")
    return tuple(dict.fromkeys(out))


def prefix_doubts(members: list[Mention], catalog: dict[str, Any], metrics: tuple[str, ...]
                  ) -> tuple[ReadSpan, ...]:
    """A member named exactly whose name begins other members' of its dimension ('Airbus':
    AIRBUS, and AIRBUS INDUSTRIE; among the values the metrics' facts reach): read as the
    member named, flagged, with the others named."""
    from showwork.protocol.reading.account import ReadSpan

    dims = with_facts(catalog, metrics).get("dimensions") or {}
    out = []
    for m in members:
        if m.how != "member" or m.member is None:
            continue
        info = dims.get(m.name) or {}
        head = key(m.member) + " "
        longer = [str(v) for v in info.get("members") or info.get("values") or ()
                  if key(str(v)).startswith(head)]
        if longer:
            out.append(ReadSpan(m.words, m.span, "member",
                                f"{m.name} = {m.member}; {m.name} also has "
                                f"{', '.join(longer[:5])}{' …' if len(longer) > 5 else ''}"))
    return tuple(dict.fromkeys(out))


def find_members(text: str, catalog: dict[str, Any], named: list[tuple[int, int]] | None = None,
                 metrics: tuple[str, ...] = ()) -> list[Mention]:
    """Members of every dimension the text names, leftmost-longest (one value in two dimensions
    gives two mentions on one span). `named`: spans a closed list's member or member synonym
    already names ('Boeing' the manufacturer, 'La Guardia' the origin), which are no part of a
    place's name. A part of a place's name is matched among the values the named `metrics`'
    facts reach (`with_facts`): 'Atlanta' is the one airport of that name with flights."""
    table, longest = member_table(catalog)
    if not table:
        return []
    reached = with_facts(catalog, metrics)
    out = _quoted(text, table)
    taken = [m.span for m in out]
    tokens = list(_TOKEN.finditer(text))
    low = [t.group(0).lower() for t in tokens]
    i = 0
    while i < len(tokens):
        found = _longest_at(text, tokens, low, i, longest, table)
        if found is None or any(s < found[1][1] and found[1][0] < e for s, e in taken):
            i += 1
            continue
        size, span, entries = found
        entries = _reaching(entries, reached)
        if not entries:  # 'Orlando': an airport named so that no flight reaches
            i += 1
            continue
        out += [Mention("member", e.dimension, e.member, text[span[0]:span[1]], span, "member")
                for e in entries]
        i += size
    return out + _places(text, reached, [m.span for m in out] + list(named or ()), catalog)


def _reaching(entries: list[_Entry], reached: dict[str, Any]) -> list[_Entry]:
    """The values the named metrics' facts reach, of an indexed dimension whose reach is known
    (`with_facts`): 'Orlando' names the airport called Orlando, which no flight reaches, so the
    name is left to the place reading ('Orlando Intl', the one with flights)."""
    dims = reached.get("dimensions") or {}
    out = []
    for e in entries:
        info = dims.get(e.dimension) or {}
        if info.get("with_facts") and info.get("values") is not None and \
                e.member not in set(map(str, info["values"])):
            continue
        out.append(e)
    return out


_PROPER = re.compile(r"[A-Z][A-Za-z'’]*(?:[ -]+[A-Z][A-Za-z'’]*){0,3}")
_SQUEEZE = re.compile(r"['’]")


def _places(text: str, catalog: dict[str, Any], taken: list[tuple[int, int]],
            full: dict[str, Any] | None = None) -> list[Mention]:
    """'San Francisco', 'Chicago O'Hare': a proper name of two or more words written as part of
    exactly one value of the data's name columns ('San Francisco Intl'), apostrophes aside
    ('O'Hare' is 'Ohare'); the longest such part of a run of capitalised words, else nothing.
    One word alone is not enough: 'Boston' is part of 'Boston Back Bay Station' (a station in
    the airports table), 'Boeing' of 'Boeing Field King County Intl'."""
    parts = _part_table(_entries(catalog) + _closed(catalog))
    if not parts:
        return []
    out = []
    for run in _PROPER.finditer(text):
        words = [w for w in re.finditer(r"[A-Za-z'’]+", run.group(0))
                 if not _plain_word(text, run.start() + w.start(), w.group(0))]
        if len(words) != len(re.findall(r"[A-Za-z'’]+", run.group(0))):
            words = _tail_run(words, run)
        found = _longest_part(run, words, parts, taken)
        if found is not None:  # one value in several dimensions (origin, destination): each
            span, hits = found
            # one word ('Denver') is 'said': part of one value's name, not the value's name
            how: How = "said" if not re.search(r"\W", text[span[0]:span[1]].strip()) else "member"
            span = _placed_before(run, words, span, hits, full or catalog, parts, taken)
            out += [Mention("member", dim, member, text[span[0]:span[1]], span, how)
                    for dim, member in sorted(hits)]
            taken = [*taken, span]
    return out


def _placed_before(run: re.Match[str], words: list[re.Match[str]], span: tuple[int, int],
                   hits: set[tuple[str, str]], full: dict[str, Any],
                   parts: dict[str, set[tuple[str, str]]], taken: list[tuple[int, int]]
                   ) -> tuple[int, int]:
    """'Boston Logan': capitalised words just before the place read that are words of its
    dimension's other values in the data ('Boston Back Bay Station', an airport no flight
    reaches) and of none the metric's facts reach: the place's own qualifier, read with it
    (never a second place)."""
    dims = {d for d, _v in hits}
    values = [key(_SQUEEZE.sub("", v)) for dim, vs, indexed in _entries(full)
              if indexed and dim in dims for v in vs]
    whole = set(values)  # 'Orlando Logan': Orlando is an airport of its own, no qualifier
    names = {w for v in values for w in v.split()} - whole
    start = span[0]
    for w in reversed([w for w in words if run.start() + w.end() <= start]):
        at = (run.start() + w.start(), run.start() + w.end())
        form = key(_SQUEEZE.sub("", w.group(0)))
        if run.string[at[1]:start].strip() or form not in names or form in parts or \
                any(s < at[1] and at[0] < e for s, e in taken):
            break
        start = at[0]
    return start, span[1]


def _longest_part(run: re.Match[str], words: list[re.Match[str]],
                  parts: dict[str, set[tuple[str, str]]], taken: list[tuple[int, int]]
                  ) -> tuple[tuple[int, int], set[tuple[str, str]]] | None:
    for size in range(len(words), 0, -1):
        for i in range(len(words) - size + 1):
            span = (run.start() + words[i].start(), run.start() + words[i + size - 1].end())
            if any(s < span[1] and span[0] < e for s, e in taken):
                continue
            form = key(_SQUEEZE.sub("", run.string[span[0]:span[1]]))
            hits = parts.get(form) or set()
            if len({v for _, v in hits}) == 1 and form not in COMMON_WORDS and len(form) >= 4 \
                    and (size > 1 or _whole_word(form, hits)):
                return span, hits
    return None


def _whole_word(form: str, hits: set[tuple[str, str]]) -> bool:
    """One word names a value alone when it is a whole word of the value's name that no other
    value shares ('Denver' of 'Denver Intl'), and a word of at least five letters ('Intl',
    'Field' are parts of many names, and so never one value's alone)."""
    return len(form) >= 5 and all(form in key(_SQUEEZE.sub("", v)).split() for _d, v in hits)


def _plain_word(text: str, at: int, word: str) -> bool:
    """A capitalised word that is no name: the sentence's first word, a month or weekday, or a
    word of the reading's grammar ('Show', 'In', 'March')."""
    from showwork.protocol.reading.account import _GRAMMAR, FUNCTION_WORDS
    from showwork.protocol.reading.periods import MONTHS

    first = not text[:at].strip() or text[:at].rstrip()[-1] in ".?!:;"
    low = word.lower()  # the words themselves, not their stems ('Los' is no form of 'lost')
    return first or low in MONTHS or low[:3] in _WEEKDAYS or low in FUNCTION_WORDS \
        or low in _GRAMMAR


_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _tail_run(words: list[re.Match[str]], run: re.Match[str]) -> list[re.Match[str]]:
    """The kept words that stand together at the end of the run (a dropped word splits it)."""
    out: list[re.Match[str]] = []
    for w in words:
        if out and run.group(0)[out[-1].end():w.start()].strip(" -"):
            out = []
        out.append(w)
    return out


@lru_cache(maxsize=16)
def _part_table(entries: tuple[tuple[str, tuple[str, ...], bool], ...]
                ) -> dict[str, set[tuple[str, str]]]:
    """Every run of one to three words of each indexed value (apostrophes removed), to the
    (dimension, value) pairs it is part of."""
    table: dict[str, set[tuple[str, str]]] = {}
    for dim, values, indexed in entries:
        if not indexed:
            continue
        for value in values:
            tokens = key(_SQUEEZE.sub("", value)).split()
            for size in range(1, min(3, len(tokens)) + 1):
                for i in range(len(tokens) - size + 1):
                    table.setdefault(" ".join(tokens[i:i + size]), set()).add((dim, value))
    return table


def _longest_at(text: str, tokens: list[re.Match[str]], low: list[str], i: int, longest: int,
                table: dict[str, list[_Entry]]) -> tuple[int, tuple[int, int], list[_Entry]] | None:
    for size in range(min(longest, len(tokens) - i), 0, -1):
        found = table.get(" ".join(low[i:i + size]))
        if not found:
            continue
        span = (tokens[i].start(), tokens[i + size - 1].end())
        written = text[span[0]:span[1]]
        if _ACROSS.search(written):
            continue  # words across a comma or a bracket are no one member
        entries = [e for e in found if e.free and (not e.caps or written.isupper() or (
            _ROUTE_BEFORE.search(text, 0, span[0]) and _ROUTE_AFTER.match(text, span[1])))]
        if entries:
            return size, span, _distinct(entries)
    return None


_ROUTE_BEFORE = re.compile(r"(?i)\b(?:to|from|into|out\s+of|via)\s+$")
_ROUTE_AFTER = re.compile(r"(?i)\s*(?:$|[,.;:?!)]|(?:in|on|for|during|last|this|from|to|and|or|at|"
                          r"between|since|over|with|vs|versus|compared|by|of|before|after|"
                          r"were|was|did|had)\b|[0-9])")
"""Right before a code written in lower case ('flights from jfk to lax', 'to sfo in May'): the
words of a route name a place there, so the code is the place's, as 'LAX' in capitals is, when
the place ends with it (the next words start another part of the question: 'to san francisco'
is no SAN); elsewhere a lower-case code may be a word ('lax', 'den')."""


def _quoted(text: str, table: dict[str, list[_Entry]]) -> list[Mention]:
    out = []
    for m in _QUOTED.finditer(text):
        for e in _distinct(table.get(key(m.group(1)), [])):
            out.append(Mention("member", e.dimension, e.member, m.group(1), m.span(1), "member"))
    return out


def _distinct(entries: list[_Entry]) -> list[_Entry]:
    seen: dict[tuple[str, str], _Entry] = {}
    for e in entries:
        seen.setdefault((e.dimension, e.member), e)
    return list(seen.values())


def _dimension_named(dims: dict[str, Any], name: str) -> str:
    """The dimension a name means: itself, else the one dimension whose attribute or label it
    is ('dest' → 'trip__dest')."""
    if name in dims:
        return name
    wanted = key(name)
    found = [d for d, info in dims.items() if key(d.rpartition("__")[2]) == wanted
             or key(info.get("label") or "") == wanted]
    return found[0] if len(found) == 1 else name


def search_members(catalog: dict[str, Any], dimension: str, query: str = "",
                   limit: int = 20) -> dict[str, Any]:
    """A dimension's members matching `query` (case-insensitive: every word of the query in the
    value, else fuzzy), the closest values on a miss, and whether the list is complete."""
    dims = catalog.get("dimensions") or {}
    dimension = _dimension_named(dims, dimension)
    if dimension not in dims:
        close = difflib.get_close_matches(dimension, list(dims), n=3, cutoff=0.5)
        raise KeyError(f"Unknown dimension {dimension!r}; dimensions: {', '.join(dims)}"
                       + (f" (closest: {', '.join(close)})" if close else "") + ".")
    info = dims[dimension]
    values = [str(v) for v in (info.get("values") or info.get("members") or ())]
    complete = bool(info.get("members")) or bool(info.get("values_complete"))
    wanted = key(query)
    matches = [v for v in values if all(w in key(v).split() or w in key(v) for w in
                                        wanted.split())] if wanted else values
    closest: list[str] = []
    if wanted and not matches:
        by_key = {key(v): v for v in values}
        closest = [by_key[k] for k in difflib.get_close_matches(wanted, list(by_key), n=5,
                                                                cutoff=0.5)]
    return {"dimension": dimension, "query": query, "matches": matches[:limit],
            "more": max(0, len(matches) - limit), "closest": closest, "complete": complete,
            "pattern": info.get("pattern"), "count": len(values)}
