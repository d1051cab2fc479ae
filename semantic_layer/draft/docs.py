"""Documentation shipped with a data file, read as the columns' comments.

A folder of exports often carries the data's own documentation beside each file (`sales.csv`
and `sales.md`, a package's help page, a data dictionary): the words its authors used for each
column ("oil_brent: crude oil, UK Brent 38 API ($/bbl)"), as a warehouse keeps them in column
comments. Only definitions are read — a column's name standing alone on its line (a definition
list, as R's help pages give it) with its paragraph after, a `name: text` or `name - text` line,
or a table row `| name | text |` — and only for the file's own columns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

DOC_SUFFIXES = (".md", ".txt", ".rst")
"""A documentation file beside `data.csv` is `data.md`, `data.txt` or `data.rst`."""

DOC_CHARS = 2_000
"""A description longer than this is cut (a column's comment is a sentence or two)."""

_MARKUP = re.compile(r"^[`*]+|[`*]+$")
"""Markdown around a name (`oil_brent`, **pop**); underscores inside a name are the name's."""


def doc_file(data: Path) -> Path | None:
    """The documentation shipped beside a data file, when there is one."""
    for suffix in DOC_SUFFIXES:
        for candidate in (data.with_suffix(suffix), data.with_suffix(suffix.upper())):
            if candidate.is_file():
                return candidate
    return None


def column_docs(text: str, columns: Iterable[str]) -> dict[str, str]:
    """column → its description in the documentation, for the columns it defines.

    >>> column_docs("pop\\n\\n  state population\\n\\nyear: the year", ["pop", "year", "tax"])
    {'pop': 'state population', 'year': 'the year'}
    """
    wanted = {c.lower(): c for c in columns}
    lines = text.splitlines()
    out: dict[str, str] = {}
    said: set[int] = set()
    """Lines that are a description, though they spell a name (state: 'state')."""
    for n, line in enumerate(lines):
        name, rest = _defined(line, wanted)
        if name is None or name in out or n in said:
            continue
        description, stop = (rest, n) if rest else _paragraph_after(lines, n + 1, wanted)
        if description:
            out[name] = description[:DOC_CHARS]
        elif stop < len(lines):  # the paragraph is one word that is a name: it says, not defines
            said.add(stop)
    return out


def _bare(text: str) -> str:
    return _MARKUP.sub("", text.strip().strip("|").strip()).strip().lower()


def _defined(line: str, wanted: dict[str, str]) -> tuple[str | None, str]:
    """(the column a line defines, the text on the same line) or (None, '')."""
    stripped = line.strip().lstrip("-*+ ").strip()
    if stripped.startswith("|"):  # a table row: | name | text |
        cells = [c.strip() for c in stripped.strip("|").split("|")]
        if len(cells) >= 2 and _bare(cells[0]) in wanted:
            return wanted[_bare(cells[0])], " ".join(cells[1:]).strip()
        return None, ""
    if _bare(stripped) in wanted:  # the name alone: its paragraph follows
        return wanted[_bare(stripped)], ""
    m = re.match(r"^([`*]*[\w.]+[`*]*)\s*(?::|\s-\s|\s—\s|\s–\s)\s*(\S.*)$", stripped)
    if m and _bare(m.group(1)) in wanted:
        return wanted[_bare(m.group(1))], m.group(2).strip()
    # a list item 'name. Text' (R's itemized help pages: '* count. Total number of reported
    # cases.'); only an item with text, so a sentence that opens with a column's name, or an
    # empty item ('* year.'), defines nothing
    m = re.match(r"^[-*+]\s+([`*]*\w+[`*]*)\.\s+(\S.*)$", line.strip())
    if m and _bare(m.group(1)) in wanted:
        return wanted[_bare(m.group(1))], m.group(2).strip()
    return None, ""


def _paragraph_after(lines: list[str], start: int, wanted: dict[str, str]) -> tuple[str, int]:
    """The first paragraph after a definition's name: the next non-blank lines, up to a blank
    line, a heading or the next column's name; with the line it stopped at."""
    text: list[str] = []
    n = start
    for n in range(start, len(lines)):
        stripped = lines[n].strip()
        if not stripped:
            if text:
                break
            continue
        if stripped.startswith("#") or _defined(lines[n], wanted)[0] is not None:
            break
        text.append(stripped)
    else:
        n = len(lines)
    return " ".join(text), n


# -- the names a description gives its column ---------------------------------------------------
NAME_WORDS = 6
"""A description's head this short is a name for the column (longer ones only describe)."""

_HEAD_END = re.compile(r"[;:()\[\]]|(?<!\d)[,.]|[,.](?!\d)|\s[-–—]\s")
"""Where a description's naming part ends: punctuation, or a comma or point that is no part
of a number ('AIDS mortality per 100,000', 'per 1.5 km' keep their number whole)."""
_CUT = {"during", "for", "in", "at", "from", "including", "excluding", "with", "where", "which",
        "that", "and", "expressed", "under", "since", "until", "as", "when", "who", "whose",
        "on", "by", "is", "are", "was", "were", "been", "be", "has", "have", "had"}
"""Words after which a description stops naming and starts qualifying (a preposition, a
conjunction, or a verb's auxiliary: 'weeks counts were reported that year')."""
_STORAGE_LEAD = re.compile(r"^(numeric|integer|int|double|float|factor|ordered factor|character|"
                           r"logical|boolean|bool|string|text|date)\s*[.:]\s+(?=\S)", re.I)
"""A description that opens with its storage type as a sentence of its own, as R's help pages
write each column ('numeric. Unemployment rate.'): the type names nothing."""
_ARTICLES = {"the", "a", "an"}
_AVERAGE = {"average", "mean", "avg"}
_SPELLING = 5
"""A word of at least this many letters, one letter off a name's word, is the same word spelled
as the documentation spells it (columbo: Colombo)."""


def head(description: str) -> str:
    """The description's naming part, lower case: up to its first comma or parenthesis, and
    up to a word that starts a qualification ('average price during fiscal year' → 'average
    price'), articles dropped.

    >>> head("The price of the pizza and the amount that it sold for (in USD).")
    'price of pizza'
    >>> head("crude oil, UK Brent 38 API ($/bbl)")
    'crude oil'
    >>> head("numeric. Unemployment rate.")
    'unemployment rate'
    >>> head("AIDS mortality per 100,000 in t")
    'aids mortality per 100,000'
    """
    first = _HEAD_END.split(_plain(description), maxsplit=1)[0]
    out: list[str] = []
    for word in first.lower().split():
        if word in _CUT:
            break
        if word not in _ARTICLES:
            out.append(word.strip("`'\""))
    return " ".join(w for w in out if w)


def _plain(description: str) -> str:
    """The description without markup and without a storage type opening it."""
    return without_storage_type(_MARKUP.sub("", description.strip()))


def without_storage_type(description: str) -> str:
    """The description without a storage type opening it as a sentence of its own ('numeric.
    Unemployment rate.' → 'Unemployment rate.'), as R's help pages write each column."""
    return _STORAGE_LEAD.sub("", description) or description


def documented_average(description: str | None) -> bool:
    """The description names the column an average ('average price during fiscal year')."""
    words = head(description or "").split()
    return bool(words) and words[0] in _AVERAGE


def doc_names(described: dict[str, str], spelled: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """column → the names its description gives it: the head when short, its shorter endings
    that keep a word of the column's name ('state personal income' → 'personal income'), the
    column's own name with a word widened by the head ('oil brent' and 'crude oil' → 'brent
    crude oil'), or respelled as the documentation spells it ('tea columbo' → 'colombo tea'); a
    head several columns share, with what qualifies it in each ('crude oil uk brent'). A name
    that holds another column's name, or that another column's description uses too, is
    ambiguous and names neither ('crude oil' describes oil_brent and oil_dubai alike).

    >>> doc_names({"oil_brent": "crude oil, UK Brent", "oil_dubai": "crude oil, Dubai"},
    ...           {"oil_brent": "oil brent", "oil_dubai": "oil dubai"})["oil_brent"]
    ('crude oil of uk brent', 'crude oil uk brent', 'brent crude oil', 'crude oil brent')
    """
    out = {}
    others_words = {c: set(s.split()) for c, s in spelled.items()}
    heads = {c: _counted(head(t)) for c, t in described.items()}
    for column, text in described.items():
        own = spelled.get(column, column.lower())
        # its whole head is its own name when no other column's head is the same words: other
        # descriptions holding it only qualify it ('vehicle fatalities' of 'night-time vehicle
        # fatalities', 'unemployment rate' of 'US unemployment rate')
        alike = [c for c, h in heads.items() if h == heads[column]]
        whole = heads[column] if 1 < len(heads[column].split()) <= NAME_WORDS and (
            alike == [column] or [c for c in alike if _unqualified(described[c])] == [column]) \
            else None
        # a count's name without its qualifiers too ('number of reported cases': cases), what
        # 'how many cases' says
        counted = whole if whole and whole != head(text) else None
        # a documented count of what its name names ('weeks_reporting': 'Number of weeks
        # counts …') is asked for as 'number of' its name
        number = [f"number of {own}"] if heads[column] != head(text) and not _COUNT_WORDS & set(
            own.split()) and _shares(heads[column].split(), own.split()) else []
        names = [n for n in [*_candidates(text, own), *([whole] if whole else []),
                             *_endings(counted), *number] if n != own]
        # a head several columns share is named with what qualifies it in each
        qualified = _qualified(text, heads[column]) if len(alike) > 1 else []
        out[column] = tuple(dict.fromkeys([*qualified, *(
            n for n in names if not _held_by_others(n, column, described, others_words,
                                                    own_phrase=n == whole))]))
    return {c: n for c, n in out.items() if n}


_COUNT_WORDS = {"count", "counts", "n", "number", "num", "cnt", "total"}
"""A name that already says it counts ('count', 'n'): no 'number of' before it."""


def _endings(whole: str | None) -> list[str]:
    """The shorter endings of a count's own documented name, its head noun last ('reported
    cases' → 'cases'; none that opens on a joining word): what a question says for it when
    nothing else the documentation describes uses those words (checked by the caller, as for
    any name).

    >>> _endings("reported cases")
    ['cases']
    >>> _endings("packs per capita")
    []
    """
    words = (whole or "").split()
    return [" ".join(words[i:]) for i in range(1, len(words))
            if words[i] not in _JOINING and words[i - 1] not in ("per",)]


_QUALIFIER = re.compile(r"^[^,;:()]+,\s*(?P<q>[a-z0-9][a-z0-9 \-]*?)\s*\.?\s*$")
"""A description that is a head and, after one comma, what qualifies it to its end
('Population, 15-17 year olds.')."""


def _qualified(description: str, shared: str) -> list[str]:
    """Names of a column whose documented head other columns share, from the qualifier that
    ends its description ('Number of vehicle fatalities, 18-20 year olds.': 'vehicle
    fatalities of 18-20 year olds'); none when something else follows or the qualifier is long.

    >>> _qualified("numeric. Population, 15-17 year olds.", "population")
    ['population of 15-17 year olds', 'population 15-17 year olds']
    >>> _qualified("crude oil, UK Brent 38 API ($/bbl)", "crude oil")
    []
    """
    m = _QUALIFIER.match(_plain(description).lower())
    if m is None or not shared or not 0 < len(m.group("q").split()) <= QUALIFIER_WORDS:
        return []
    return [f"{shared} of {m.group('q')}", f"{shared} {m.group('q')}"]


QUALIFIER_WORDS = 4
"""The longest qualifier read as part of a name ('18-20 year olds')."""


def _unqualified(description: str) -> bool:
    """The description is its head and nothing more ('Number of vehicle fatalities.', not
    'Number of vehicle fatalities, 18-20 year olds.')."""
    text = _plain(description).strip(" .").lower()
    return head(description) == " ".join(w for w in text.split() if w not in _ARTICLES)


def _counted(named: str) -> str:
    """A head without the words that say it is counted ('number of vehicle fatalities' →
    'vehicle fatalities'): what a 'how many' question names."""
    return re.sub(r"^(number|count|total number|numbers) of ", "", named)


def _candidates(text: str, own: str) -> list[str]:
    words = own.split()
    said = head(text).split()
    out = []
    if 0 < len(said) <= NAME_WORDS and (len(said) > 1 or _shares(said, words)):
        out.append(" ".join(said))
        out += [" ".join(said[i:]) for i in range(1, len(said) - 1)
                if said[i] not in _JOINING and _shares(said[i:], words)]
        lacking = [w for w in words if not _shares([w], said)]
        if len(said) > 1 and lacking and any(_same_word(said[-1], x) for x in words):
            out += _widened(words, said)
    out += _respelled(words, text)
    out += _reordered(words, text)
    out += _unjoined(words, text)
    return out


_JOINED_PART = 3
"""The shortest word read out of a name run together ('tax' of 'beertax')."""


def _unjoined(words: list[str], text: str) -> list[str]:
    """A one-word name run together from two words its documentation uses apart ('beertax':
    'Tax on case of beer'), spaced as the name reads.

    >>> _unjoined(["beertax"], "numeric. Tax on case of beer.")
    ['beer tax']
    >>> _unjoined(["milestot"], "Total vehicle miles (millions).")
    []
    """
    if len(words) != 1 or len(words[0]) < 2 * _JOINED_PART:
        return []
    found = re.findall(r"[a-z]+", text[:DOC_CHARS].lower())
    [w] = words
    return [f"{w[:i]} {w[i:]}" for i in range(_JOINED_PART, len(w) - _JOINED_PART + 1)
            if any(_same_word(w[:i], x) for x in found) and any(_same_word(w[i:], x)
                                                                 for x in found)]


def _reordered(words: list[str], text: str) -> list[str]:
    """The column's own words in the order the documentation says them, when it says them all
    together ('paid_interest': 'the amount of interest paid so far'; 'paid_late_fees': 'late
    fees paid by the applicant').

    >>> _reordered(["paid", "late", "fees"], "Late fees paid by the applicant.")
    ['late fees paid']
    """
    found = re.findall(r"[a-z0-9]+", text[:DOC_CHARS].lower())
    n = len(words)
    if n < 2:
        return []
    runs = (found[i:i + n] for i in range(len(found) - n + 1))
    return list(dict.fromkeys(" ".join(run) for run in runs if run != words
                              and _shares_each(run, words) and _shares_each(words, run)))


def _shares_each(these: list[str], those: list[str]) -> bool:
    return all(any(_same_word(a, b) for b in those) for a in these)


_JOINING = {"of", "or", "and", "per", "to", "by", "on", "in", "for"}


def _shares(said: list[str], words: list[str]) -> bool:
    return any(_same_word(w, x) for w in said for x in words)


def _widened(words: list[str], said: list[str]) -> list[str]:
    """The column's name with its word that ends the head replaced by the head, in both
    orders people say a two-part name."""
    out = []
    for order in (list(reversed(words)), words):
        out.append(" ".join(" ".join(said) if _same_word(said[-1], w) else w for w in order))
    return out


def _respelled(words: list[str], text: str) -> list[str]:
    out = []
    for found in {w.lower() for w in re.findall(r"[A-Za-z]+", text[:DOC_CHARS])}:
        for w in words:
            if len(w) >= _SPELLING and found != w and _one_off(found, w):
                for order in (list(reversed(words)), words):
                    out.append(" ".join(found if x == w else x for x in order))
    return out


def _same_word(a: str, b: str) -> bool:
    """The same word, plural or not (taxes, tax)."""
    def stem(w: str) -> str:
        return w[:-2] if w.endswith(("ses", "xes", "ches", "shes")) else w.rstrip("s")
    return a == b or stem(a) == stem(b)


def _one_off(a: str, b: str) -> bool:
    """One letter changed (same length), not added or dropped: a spelling, not a plural."""
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b, strict=True)) == 1


def _held_by_others(name: str, column: str, described: dict[str, str],
                    others_words: dict[str, set[str]], own_phrase: bool = False) -> bool:
    """The name holds another column's name, or (unless it is the column's own whole head)
    another column's description uses it too."""
    words = name.split()
    own = others_words.get(column, set())
    joined = next(iter(own)) if len(own) == 1 else ""
    # a name run together from another's and a word ('milestot': miles, tot) holds that name
    # as its own ('taxs' is no such pair: one letter is no word)
    own = own | {x for xs in others_words.values() for x in xs
                 if len(x) >= 3 and len(joined) - len(x) >= 2
                 and (joined.startswith(x) or joined.endswith(x))}
    # the column's own whole head holds another's name only when it holds a one-word name
    # ('average state': state); 'current balance' holds no name of current_installment_accounts
    if any(_same_word(w, x) for other, xs in others_words.items() if other != column
           and (len(xs) == 1 or not own_phrase) for x in xs if x not in own for w in words):
        return True
    return not own_phrase and any(_phrase_in(words, text) for other, text in described.items()
                                  if other != column)


def _phrase_in(words: list[str], text: str) -> bool:
    found = re.findall(r"[a-z0-9]+", text.lower())
    n = len(words)
    return any(all(_same_word(a, b) for a, b in zip(words, found[i:i + n], strict=True))
               for i in range(len(found) - n + 1))


# -- what a row is, what an identifier identifies -----------------------------------------------
_OF_THING = re.compile(r"^(?:the |a |an )?(?:[a-z]+ (?:or )?)?([a-z]+) (?:of|for) "
                       r"(?:the |a |an |each )?([a-z]+)(?:$| (?:" + "|".join(sorted(_CUT | _ARTICLES))
                       + r")\b)")
"""A description that opens naming its column a part of a thing: 'The size of the pizza',
'The category or type of pizza', 'Quarter of observation in numerical format', 'The amount of
the loan the applicant received' (a clause without its 'that')."""
_IDENTIFYING = re.compile(r"^(?:the |a |an |unique )*(?:id|identifier|key|code|number) "
                          r"(?:of|for) (?:the |a |an |each )?([a-z]+)\b")
ROW_NOUN_COLUMNS = 2
"""How many columns' descriptions must call themselves a part of the same thing (the size of
the pizza, the price of the pizza) before a row is read as one of those things."""


def row_noun(described: dict[str, str], spelled: dict[str, str]) -> str | None:
    """The thing a table's rows are, when the documentation says so: the noun that at least
    two columns' descriptions name their column a part of ('the size of the pizza', 'the
    short name for the pizza': a row is a pizza), and no identifier's description names.

    >>> row_noun({"size": "The size of the pizza", "price": "The price of the pizza",
    ...           "id": "The ID for the order"}, {"size": "size", "price": "price", "id": "id"})
    'pizza'
    """
    counted: dict[str, int] = {}
    ids = {identified(x) for x in described.values()} - {None}
    for column, text in described.items():
        own = spelled.get(column, column.lower()).split()
        m = _OF_THING.match(_HEAD_END.split(" ".join(text.lower().split()), maxsplit=1)[0]
                            .strip())
        if m and any(_same_word(m.group(1), w) for w in own) and m.group(2) not in ids \
                and not any(_same_word(m.group(2), w) for w in own):
            counted[m.group(2)] = counted.get(m.group(2), 0) + 1
    best = sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))
    if not best or best[0][1] < ROW_NOUN_COLUMNS or (len(best) > 1 and best[1][1] == best[0][1]):
        return None
    return best[0][0]


def identified(description: str | None) -> str | None:
    """What an identifier's description says it identifies ('The ID for the order': order).

    >>> identified("The ID for the order, which consists of one or more pizzas")
    'order'
    """
    m = _IDENTIFYING.match(" ".join((description or "").lower().split()))
    return m.group(1) if m else None


def plural(noun: str) -> str:
    """A noun's plural, as a count names its things.

    >>> [plural(x) for x in ("pizza", "order", "box", "category", "day")]
    ['pizzas', 'orders', 'boxes', 'categories', 'days']
    """
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"
