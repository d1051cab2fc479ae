"""What a text names in a catalog: governed metrics, dimension members, dimensions.

Matching is by word, case-insensitive, longest phrase first: "weekly value moments" is one metric,
not also "value moments"; "New York 5th Ave" is one member, not also "New York".

Member rule: a member of at most three letters that is also a common English word ("US", "IN",
"us", "in") matches only written exactly as the catalog writes it, so "the US" names the member
and "tell us" does not; when the catalog writes such a member in lower case, it matches only
followed by its dimension's word ("the in channel"). Every other member matches in any case, and
a lower-case word member also as its plural ("jaffles").

Across kinds the longer phrase wins an overlap ("plus price", a metric, over "plus", a member);
on a tie a metric beats a member, and a member beats a dimension.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from showwork.protocol.reading._literals import fit, tried_at, written_at
from showwork.protocol.reading._words import (
    HEAD,
    SEP,
    Span,
    first_word,
    is_case_locked,
    norm,
    overlaps,
    phrase_pattern,
    plural,
    singular,
)
from showwork.protocol.reading.continents import continent_names
from showwork.protocol.reading.countries import country_names
from showwork.protocol.reading.states import state_names

Kind = Literal["metric", "member", "dimension"]
How = Literal["name", "label", "synonym", "previous_name", "member", "member_synonym", "said",
              "abbreviation", "counted"]
"""'said': a metric read from a sentence in other words than its entries (phrasings.py);
'abbreviation': a metric's name or label abbreviated, or written out (`_abbreviations`);
'counted': a metric's name or label without the word that says it sums or counts
(`_counted`)."""
_KIND_RANK = {"metric": 0, "member": 1, "dimension": 2}
_HOW_RANK = {"name": 0, "member": 0, "label": 1, "member_synonym": 1, "synonym": 2, "previous_name": 3,
             "abbreviation": 3, "counted": 3}


@dataclass(frozen=True)
class Mention:
    """One phrase of the text that names something the catalog governs."""

    kind: Kind
    name: str
    """The metric's name; for a member or a dimension, the dimension's name."""
    member: str | None
    """The member as the catalog writes it (member mentions only)."""
    words: str
    """The words as the text writes them."""
    span: Span
    """Start and end offsets of the words in the text."""
    how: How
    """Which catalog entry the words matched: name, label, synonym, previous name, member, …"""

    @property
    def key(self) -> str | tuple[str, str]:
        """The metric name, or (dimension, member), or the dimension name."""
        return (self.name, self.member) if self.member is not None else self.name


@dataclass(frozen=True)
class _Phrase:
    text: str
    kind: Kind
    name: str
    member: str | None
    how: How
    pattern: str
    locked: bool = False
    """Matched only in the case the catalog writes it."""


def _phrase(text: str, kind: Kind, name: str, member: str | None, how: How, *,
            sep: str = SEP) -> _Phrase | None:
    pattern = phrase_pattern(text.lower(), sep=sep)
    return _Phrase(text, kind, name, member, how, pattern) if pattern else None


Hit = tuple[Span, list[_Phrase]]


_PARTS = 8
"""Part-alternations a table compiles before it compiles its whole one instead."""


def _alternation(patterns: list[str]) -> str:
    return HEAD + "(?:" + "|".join(f"(?:{x})" for x in patterns) + ")"


class _Table:
    """One alternation, longest phrase first, behind one word boundary.

    Compiling a catalog's whole alternation is a reader's dearest start-up step (a metric
    catalog's is some 4,000 characters: tens of milliseconds), so a scan compiles only the
    alternatives whose first word the scanned text holds, in their order: an alternative
    whose first word is nowhere in the text matches nowhere in it, so the matches are the
    whole alternation's (tests/protocol/test_reading.py, TestScanning)."""

    def __init__(self, phrases: list[_Phrase], *, fold: bool) -> None:
        self.owners: dict[str, list[_Phrase]] = {}
        patterns: list[str] = []
        firsts: list[str] = []
        for p in phrases:
            rows = self.owners.setdefault(norm(p.text, fold=fold), [])
            if all((r.name, r.member) != (p.name, p.member) for r in rows):
                rows.append(p)
            if p.pattern not in patterns:
                patterns.append(p.pattern)
                # a folded table's patterns spell the lower-cased phrase (`_phrase`)
                firsts.append(first_word(p.text.lower() if fold else p.text))
        self.fold = fold
        self.patterns = patterns
        self.firsts = firsts
        self.distinct = tuple(dict.fromkeys(firsts))
        """Each first word once (a metric's name, label and synonyms often share one)."""
        self.body = _alternation(patterns) if patterns else None
        self._parts: dict[str, re.Pattern[str]] = {}
        self._by_held: dict[frozenset[str], re.Pattern[str]] = {}
        """Each set of first words a text held → its alternation's compiled part."""
        self._whole: re.Pattern[str] | None = None
        self._ignoring_case: re.Pattern[str] | None = None

    def ignoring_case(self) -> re.Pattern[str] | None:
        """Compiled on first need (text whose lower case changes its length): rarely. The
        whole alternation: case-insensitive, a word may match text that spells it otherwise.
        Kept by hand, not a cached_property: the mypyc build compiles this module."""
        if self._ignoring_case is None and self.body is not None:
            self._ignoring_case = re.compile(self.body, re.IGNORECASE)
        return self._ignoring_case

    def _regex(self, held: frozenset[str]) -> re.Pattern[str]:
        """The alternation of the alternatives whose first word is `held` (the first words a
        text holds, at least one); past `_PARTS` different ones, the whole alternation,
        compiled once (a reader of many texts, an audit of a file of runs, pays one compile,
        not one per text)."""
        if self._whole is not None:
            return self._whole
        part = self._by_held.get(held)
        if part is not None:  # the same first words: the same alternation, not joined again
            return part
        found = [x for x, first in zip(self.patterns, self.firsts, strict=True) if first in held]
        body = _alternation(found)
        part = self._parts.get(body)
        if part is None:
            if len(self._parts) == _PARTS:
                self._whole = re.compile(self.body or "")
                return self._whole
            part = self._parts[body] = re.compile(body)
        self._by_held[held] = part
        return part

    def hits(self, text: str) -> list[Hit]:
        if self.body is None:
            return []
        lowered = text.lower() if self.fold else text
        # scanning lower-cased text is several times faster than IGNORECASE; fall back to it
        # where lower-casing changes the length (and so the offsets)
        if len(lowered) != len(text):
            regex = self.ignoring_case()
            if regex is None:
                return []
            return [(m.span(), self._owners(m.group(0))) for m in regex.finditer(text)]
        held = frozenset(first for first in self.distinct if first in lowered)
        if not held:
            return []
        regex = fit(self._regex(held), lowered)
        # each alternative starts with its first word as written: a match starts where one of
        # them does, and is tried only there (behind the look-behind of `HEAD` re finds no
        # prefix to skip to, and tries every place of the text)
        at = written_at(lowered, held)
        found = regex.finditer(lowered) if at is None else tried_at(regex, lowered, at)
        return [(m.span(), self._owners(m.group(0))) for m in found]

    def _owners(self, said: str) -> list[_Phrase]:
        """The phrases the words match: as written, else without the articles a name of three
        or more words may hold between its own ('time to settle a claim')."""
        found = self.owners.get(norm(said, fold=self.fold))
        if found is None:
            found = self.owners.get(norm(_ARTICLE_WORDS.sub(" ", said), fold=self.fold))
        return found or []


class Scanner:
    """The phrases of one kind: a scan finds leftmost, then longest, matches without overlaps."""

    def __init__(self, phrases: list[_Phrase | None]) -> None:
        ordered = sorted((p for p in phrases if p is not None),
                         key=lambda p: (-len(norm(p.text)), _HOW_RANK[p.how]))
        self._folded = _Table([p for p in ordered if not p.locked], fold=True)
        self._locked = _Table([p for p in ordered if p.locked], fold=False)

    def scan(self, text: str, *, first_owner: bool = False) -> list[Mention]:
        hits = self._folded.hits(text)
        locked = self._locked.hits(text)
        if locked:
            hits = _leftmost_longest(hits + locked)
        return [Mention(p.kind, p.name, p.member, text[span[0]:span[1]], span, p.how)
                for span, rows in hits for p in (rows[:1] if first_owner else rows)]


def _leftmost_longest(hits: list[Hit]) -> list[Hit]:
    out: list[Hit] = []
    for span, rows in sorted(hits, key=lambda h: (h[0][0], -h[0][1])):
        if not out or span[0] >= out[-1][0][1]:
            out.append((span, rows))
    return out


def _metric_key(catalog: dict[str, Any]) -> tuple:
    return tuple((name, m.get("label") or name, tuple(m.get("synonyms") or ()),
                  tuple(m.get("previous_names") or ()))
                 for name, m in (catalog.get("metrics") or {}).items())


def _metric_phrases(name: str, label: str, synonyms: tuple, previous: tuple
                    ) -> list[_Phrase | None]:
    clean_label = re.sub(r"\s*\(.*?\)", "", label).strip()
    written: list[tuple[str, How]] = [(name, "name"), (clean_label, "label")]
    written += [(s, "synonym") for s in synonyms] + [(p, "previous_name") for p in previous]
    rows = [_phrase(text, "metric", name, None, how) for text, how in written]
    written += [(long, how) for text, how in written if (long := _unabbreviated(text)) != text]
    rows += [_phrase(long, "metric", name, None, how) for long, how in written[len(rows):]]
    for text, how in written:
        spoken = text.replace("_", " ").strip()
        if how == "name" and len(spoken.split()) >= 3:  # 'time to settle a claim': an article
            # between a snake name's words (a label or synonym is written as it is said)
            rows.append(_phrase(spoken, "metric", name, None, how, sep=_ARTICLED))
            rows.append(_phrase(plural(spoken), "metric", name, None, how, sep=_ARTICLED))
    rows += _duration_phrases(name)
    for text, how in written:
        spoken = text.replace("_", " ").strip()
        if spoken.endswith("s") and " " in spoken:  # "new user" names new_users too
            rows.append(_phrase(spoken[:-1], "metric", name, None, how, sep=r"\s+"))
        elif " " in spoken and re.search(r"[a-z]$", spoken):  # "cancellation rates", "open rates"
            rows.append(_phrase(plural(spoken), "metric", name, None, how, sep=r"\s+"))
    return rows


DURATION = re.compile(r"(?:^|_)(?:time|days|hours|minutes)_to_(?P<verb>[a-z]+)(?P<rest>(?:_[a-z]+)*)$")
"""A metric named as the time something takes (`avg_time_to_settle_claim`, `days_to_ship`)."""


def _duration_phrases(name: str) -> list[_Phrase | None]:
    """A duration metric named by what takes the time: 'to settle a claim', 'to settle' for
    `avg_time_to_settle_claim` ('how many days does it take to settle a claim', 'which claim
    took the longest to settle')."""
    m = DURATION.search(name)
    if m is None:
        return []
    rest = m.group("rest").replace("_", " ").strip()
    said = [f"to {m.group('verb')}"] + ([f"to {m.group('verb')} {rest}"] if rest else [])
    return [_phrase(text, "metric", name, None, "name", sep=_ARTICLED) for text in said]


_SHORT = {"avg": "average", "amt": "amount", "qty": "quantity", "cnt": "count", "num": "number",
          "nbr": "number", "pct": "percent", "perc": "percent", "tot": "total"}
"""Naming's own short forms of English words, as column and metric names write them
(`avg_time_to_settle_claim`): a name's token is also read as the word it shortens. No domain's
words: the forms any warehouse's names use."""
_ARTICLED = r"[\s_\-]+(?:(?:a|an|the)\s+)?"
_ARTICLE_WORDS = re.compile(r"(?<=\s)(?:a|an|the)\s+", re.IGNORECASE)
"""Between the words of a name of three or more: 'time to settle a claim' is
`time_to_settle_claim`."""


def _unabbreviated(text: str) -> str:
    """The name with naming's short forms spelt out ('avg_time_to_settle_claim' → 'average time
    to settle claim'); the name itself when it has none."""
    words = re.split(r"[\s_]+", text.strip())
    if not any(w.lower() in _SHORT for w in words):
        return text
    return " ".join(_SHORT.get(w.lower(), w) for w in words)


_TOTALLED = re.compile(r"^(?:total|sum|count|number|num|tot)(?:[\s_]+of)?[\s_]+(?P<rest>.+)$",
                       re.IGNORECASE)
_COUNTED = re.compile(r"^(?P<rest>.+?)[\s_]+(?:count|number)$", re.IGNORECASE)


def _counted_forms(text: str) -> list[str]:
    """The words a name says its metric sums or counts, without the word that says so:
    'total_revenue' → 'revenue', 'Number of Orders' → 'orders', 'order_count' → 'orders'.

    >>> _counted_forms("total_revenue"), _counted_forms("order_count"), _counted_forms("revenue")
    (['revenue'], ['orders'], [])
    """
    spoken = text.replace("_", " ").strip()
    if m := _TOTALLED.match(spoken):
        return [m.group("rest")]
    if m := _COUNTED.match(spoken):
        return [plural(m.group("rest"))]
    return []


_AMOUNTED = re.compile(r"^(?P<rest>.+?)[\s_]+amount$", re.IGNORECASE)


def _amount_forms(text: str, name: str, said: dict[str, set[str]]) -> list[str]:
    """'Loss Payment Amount' → 'loss payment': the amount of what the other words name, where
    their last word is no other metric's ('Transaction Amount' beside 'Transactions' names the
    things that metric counts, never this amount)."""
    m = _AMOUNTED.match(text.replace("_", " ").strip())
    if m is None or _TOTALLED.match(m.group("rest")):
        return []
    last = singular(m.group("rest").split()[-1].lower())
    return [m.group("rest")] if said.get(last, set()) == {name} else []


def whole_amount_forms(text: str, name: str, said: dict[str, set[str]], key: tuple) -> list[str]:
    """'Loss Amount' → 'loss', 'losses', where the other metrics that say 'loss' say a kind of
    it ('Loss Payment Amount', 'Loss Reserve Amount'), none the word alone: the amount of the
    one word is the whole, its kinds the parts. A metric named by the word ('Transactions'
    beside 'Transaction Amount') keeps it: the word names the things it counts.

    >>> whole_amount_forms("Loss Amount", "total_loss_amount",
    ...                    {"loss": {"total_loss_amount", "loss_reserve_amount"}},
    ...                    (("loss_reserve_amount", "Loss Reserve Amount", (), ()),))
    ['Loss', 'Losses']
    """
    m = _AMOUNTED.match(text.replace("_", " ").strip())
    if m is None or _TOTALLED.match(m.group("rest")) or " " in m.group("rest").strip():
        return []
    word = singular(m.group("rest").strip().lower())
    others = said.get(word, set()) - {name}
    alone = [n for n, label, *_rest in key if n in others and word in (
        singular(n.replace("_", " ").lower()), singular(str(label or "").lower()))]
    rest = m.group("rest").strip()
    return [rest, plural(rest)] if others and not alone else []


def _counted(key: tuple) -> list[_Phrase | None]:
    """Each metric by what its name or label sums or counts ('revenue' for total_revenue,
    'orders' for order_count), as people name a total, only where those words name exactly
    one metric; an entry that spells them wins over this reading (the scanner's rank)."""
    owners: dict[str, set[str]] = {}
    said: dict[str, set[str]] = {}  # each word of a metric's name or label: the metrics saying it
    for name, label, _synonyms, _previous in key:
        for w in re.findall(r"[a-z]+", f"{name} {label}".lower().replace("_", " ")):
            said.setdefault(singular(w), set()).add(name)
    for name, label, _synonyms, _previous in key:
        for written in (name, re.sub(r"\s*\(.*?\)", "", label)):
            for form in _counted_forms(written) + _amount_forms(written, name, said):
                owners.setdefault(form.lower(), set()).add(name)
                if re.search(r"[a-rt-z]$", form):  # 'all policy amounts' for total_policy_amount
                    owners.setdefault(plural(form).lower(), set()).add(name)
            for form in whole_amount_forms(written, name, said, key):  # 'total losses'
                owners.setdefault(form.lower(), set()).add(name)
    return [_phrase(form, "metric", next(iter(names)), None, "counted")
            for form, names in owners.items() if len(names) == 1]


@lru_cache(maxsize=16)
def _metric_scanner(key: tuple) -> Scanner:
    return Scanner([p for row in key for p in _metric_phrases(*row)] + _counted(key))


def metric_scanner(catalog: dict[str, Any]) -> Scanner:
    """The metric scanner of a catalog (built once per distinct set of names)."""
    return _metric_scanner(_metric_key(catalog))


def dimension_words(name: str, info: dict[str, Any]) -> list[tuple[str, How]]:
    """The words that name a dimension: name, label, synonyms, and plurals of each.

    A MetricFlow name `store__store_name` is also "store name", and "store": the name of an
    entity stands for it ('which store').
    """
    written: list[tuple[str, How]] = [(name, "name")]
    entity, _, attribute = name.rpartition("__")
    if entity:
        written.append((attribute, "name"))
        if attribute in (f"{entity}_name", "name"):
            written.append((entity, "name"))
        written += [(w, "name") for w in _entity_label_words(entity, attribute)]
    written.append((info.get("label") or name, "label"))
    written += [(s, "synonym") for s in info.get("synonyms") or ()]
    return written + [(plural(w), how) for w, how in written if re.search(r"[a-z]$", w)]


_KEY_SUFFIX = re.compile(r"_(?:identifier|id|key)$")


def _entity_label_words(entity: str, attribute: str) -> list[str]:
    """The words for an entity's own number or name column, as people name the thing: for
    `claim_identifier__company_claim_number`, 'claim number' and 'claim' ('by claim number',
    'which claim'); for `policy__policy_number`, 'policy'. The entity's id is a key no one
    says; its number or name is how the thing is named (as `store__store_name` is 'store').

    >>> _entity_label_words("claim_identifier", "company_claim_number")
    ['claim number', 'claim']
    >>> _entity_label_words("policy", "policy_number"), _entity_label_words("order", "status")
    (['policy'], [])
    """
    thing = _KEY_SUFFIX.sub("", entity.rpartition("__")[2])
    m = re.fullmatch(rf"(?:\w+_)?{re.escape(thing)}_(?P<kind>number|no|name)", attribute)
    if not thing or m is None or attribute in (f"{entity}_name", "name"):
        return []
    spoken = f"{thing.replace('_', ' ')} {m.group('kind')}"
    return ([spoken] if attribute != spoken.replace(" ", "_") else []) + [thing.replace("_", " ")]


def _dimension_key(catalog: dict[str, Any]) -> tuple:
    return tuple((name, info.get("label"), tuple(info.get("synonyms") or ()),
                  tuple(info.get("members") or ()),
                  tuple(sorted((info.get("member_synonyms") or {}).items())))
                 for name, info in (catalog.get("dimensions") or {}).items())


def _member_phrase(word: str, dim: str, member: str, how: How, dim_words: list[str]
                   ) -> _Phrase | None:
    if not is_case_locked(word):
        return _phrase(word, "member", dim, member, how)
    before = ""
    if word.islower():
        spoken = [p for p in (phrase_pattern(w.lower()) for w in dim_words) if p]
        before = f"(?=(?i:{SEP}(?:{'|'.join(spoken)})))"
    pattern = phrase_pattern(word, before=before)
    return _Phrase(word, "member", dim, member, how, pattern, locked=True) if pattern else None


def _member_forms(word: str) -> list[str]:
    """A member, the plural of a lower-case word member ("jaffle" → "jaffles"), a name
    without its apostrophes ("O'Hare Airport" → "OHare Airport", which reads "ohare airport"),
    and a code of two lower-case words joined by '_' in either order, as people say it
    ("return_pending" → "pending return", "pending returns"): a code's order is its writer's,
    a name's ("Quick Buy") is the one people say, and is kept."""
    if re.fullmatch(r"[a-z]{3,}", word) and not word.endswith("s"):
        return [word, plural(word)]
    code = _CODE.fullmatch(word)
    if code:
        turned = f"{code['second']} {code['first']}"
        return [word, turned, *([f"{code['second']} {plural(code['first'])}"]
                                if not code["first"].endswith("s") else [])]
    squeezed = re.sub(r"(?<=\w)['’](?=\w)", "", word)
    forms = [word, squeezed] if squeezed != word else [word]
    several = _LAST_WORD.fullmatch(word)  # its plural on the last ('Chai Lattes', 'Turbo-props')
    if several and not several["last"].endswith("s") and not several["last"].isupper():
        forms.append(several["head"] + plural(several["last"]))
    return forms


_LAST_WORD = re.compile(r"(?P<head>.*[\s-])(?P<last>[A-Za-z]{3,})")
"""A name of several words and its last word."""
_CODE = re.compile(r"(?P<first>[a-z]{3,})_(?P<second>[a-z]{3,})")
"""A code of two lower-case words joined by '_' ('return_pending', 'paid_search')."""


_STATE = re.compile(r"(?:is|has)[ _](?P<state>[a-z]+(?:[ _][a-z]+)?)", re.IGNORECASE)


def _state_word(name: str, label: str | None, members: tuple[Any, ...]) -> list[str]:
    """'Large' of a true-or-false dimension named 'is large' (`is_large`): the rows it holds
    true of ('large transactions'), as its one member synonym; '' when it is no such flag."""
    if {str(m).lower() for m in members} != {"true", "false"}:
        return []
    said = _STATE.fullmatch(str(label or "")) or _STATE.fullmatch(name.split("__")[-1])
    return [said["state"].replace("_", " ").lower()] if said else []


_FLAG_MEMBERS = ({"1"}, {"0", "1"})
"""The members of a flag kept as a number: 1 where it holds (0, or no row, where not)."""


def flag_words(name: str, label: str | None, members: tuple[Any, ...]) -> list[tuple[str, str]]:
    """'Premium' of a flag named 'has premium' (`has_premium`, 1 where a row is a premium): the
    rows it holds of ('premiums', 'excluding premiums'), as the synonym of its member 1, as
    `_state_word` reads a true-or-false one; none when it is no such flag.

    >>> flag_words("policy_amount__has_premium", "has premium", ("1",))
    [('premium', '1')]
    >>> flag_words("policy__fireplace", None, ("no", "yes"))
    []
    """
    if {str(m).lower() for m in members} not in _FLAG_MEMBERS:
        return []
    said = _STATE.fullmatch(str(label or "")) or _STATE.fullmatch(name.split("__")[-1])
    return [(said["state"].replace("_", " ").lower(), "1")] if said else []


@lru_cache(maxsize=16)
def _dimension_scanners(key: tuple) -> tuple[Scanner, Scanner]:
    dim_rows: list[_Phrase | None] = []
    member_rows: list[_Phrase | None] = []
    # the catalog's own names come first: a country another dimension's governance names
    # ('canada' of the customers' country) is named there alone, not by the standard's names
    # in a second dimension ('orders in canada' is no question of the stores' country)
    named = {(name, str(m)) for name, *_rest, member_synonyms in key for _w, m in member_synonyms}
    for name, label, synonyms, members, member_synonyms in key:
        words = dimension_words(name, {"label": label, "synonyms": synonyms})
        dim_rows += [_phrase(w, "dimension", name, None, how) for w, how in words]
        spoken = [w for w, _how in words]
        written: list[tuple[str, str, How]] = [(str(m), str(m), "member") for m in members]
        written += [(w, str(m), "member_synonym") for w, m in member_synonyms]
        written += [(w, m, "member_synonym") for w, m in country_names(name, label, members)
                    if not any(m == code and dim != name for dim, code in named)]
        written += [(w, "true", "member_synonym") for w in _state_word(name, label, members)]
        written += [(w, m, "member_synonym") for w, m in flag_words(name, label, members)]
        written += [(w, m, "member_synonym") for w, m in state_names(name, label, members)
                    if not any(m == code and dim != name for dim, code in named)]
        written += [(w, m, "member_synonym") for w, m in continent_names(name, label, members)]
        for word, member, how in written:
            member_rows += [_member_phrase(w, name, member, how, spoken)
                            for w in _member_forms(word)]
    return Scanner(member_rows), Scanner(dim_rows)


class _Scanners:
    """A catalog's scanners: its metrics, their abbreviations, its members and dimensions."""

    def __init__(self, catalog: dict[str, Any]) -> None:
        key = _metric_key(catalog)
        self.metrics = _metric_scanner(key)
        self.abbreviations = _abbreviation_key(key)
        self.members, self.dimensions = _dimension_scanners(_dimension_key(catalog))


_SCANNERS: dict[int, tuple[dict[str, Any], _Scanners]] = {}
"""Each catalog object's scanners, by its id (the entry holds the catalog, so no other takes
the id while it is kept): as members.member_table keeps its tables, a catalog read is not
changed in place. Before, each text's reading built the tuples of every metric's and
dimension's names (and their members) again, and hashed them to find the scanners."""


def _scanners(catalog: dict[str, Any]) -> _Scanners:
    found = _SCANNERS.get(id(catalog))
    if found is not None and found[0] is catalog:
        return found[1]
    scanners = _Scanners(catalog)
    if len(_SCANNERS) >= 32:
        _SCANNERS.clear()
    _SCANNERS[id(catalog)] = (catalog, scanners)
    return scanners


def find_metrics(text: str, catalog: dict[str, Any]) -> list[Mention]:
    """The governed metrics the text names, leftmost-longest, without overlaps; a metric
    abbreviated, or its abbreviated name written out, where no entry is named there."""
    scanners = _scanners(catalog)
    named = scanners.metrics.scan(text, first_owner=True)
    spans = [m.span for m in named]
    more = [m for m in _abbreviations(text, scanners.abbreviations)
            if not overlaps(m.span, spans)]
    return sorted(named + more, key=lambda m: m.span) if more else named


def contested(text: str, catalog: dict[str, Any], metrics: list[Mention]
              ) -> list[tuple[str, Span, str]]:
    """(words, span, other metric) of the words after a metric named that, with its last
    words, name another metric: 'total transaction amount' reads 'total transaction'
    (leftmost), and 'amount' ends 'transaction amount'. Those words are not read by the metric
    taken, whatever list they are on."""
    out = []
    for m in metrics:
        first = _WORD.search(text, m.span[0])
        if first is None or first.end() >= m.span[1]:
            continue
        blanked = text[:first.start()] + " " * (first.end() - first.start()) + text[first.end():]
        for other in find_metrics(blanked, catalog):
            if other.name != m.name and m.span[0] < other.span[0] < m.span[1] < other.span[1]:
                out.append((text[m.span[1]:other.span[1]].strip(), (m.span[1], other.span[1]),
                            other.name))
    return out


_WORD = re.compile(r"[A-Za-z]+")
_ACRONYM = re.compile(r"(?<![A-Za-z0-9_])[A-Z]{3,6}(?![A-Za-z0-9_])")


@lru_cache(maxsize=16)
def _abbreviation_key(metrics: tuple) -> tuple[tuple[tuple[str, str], ...],
                                               tuple[tuple[str, str], ...]]:
    """(initials → metric) of the metrics named in two or more words, and (short name →
    metric) of those named in one short word (`cpi`, `packpc`), each kept only where it names
    one metric."""
    initials: dict[str, set[str]] = {}
    short: dict[str, set[str]] = {}
    for name, label, _synonyms, _previous in metrics:
        for written in {name, re.sub(r"\s*\(.*?\)", "", label)}:
            words = _WORD.findall(written.replace("_", " "))
            if len(words) >= 3:
                initials.setdefault("".join(w[0] for w in words).lower(), set()).add(name)
            elif len(words) == 1 and 3 <= len(words[0]) <= 8:
                short.setdefault(words[0].lower(), set()).add(name)
    return (tuple(sorted((k, next(iter(v))) for k, v in initials.items() if len(v) == 1)),
            tuple(sorted((k, next(iter(v))) for k, v in short.items() if len(v) == 1)))


def _abbreviations(text: str, key: tuple[tuple[tuple[str, str], ...],
                                         tuple[tuple[str, str], ...]]) -> list[Mention]:
    """Metrics named the way analysts abbreviate, read from the catalog's own names:

    - an acronym written in capitals, of three to six letters, that spells the initials of a
      metric named in three or more words ("AOV" → average_order_value);
    - two or more words that spell a metric's one-word name, each word giving its initial or
      itself, whole or in the singular, at least two by their initials ("consumer price index"
      → cpi, "packs per capita" → packpc).

    Either counts only where it names exactly one metric; it never outranks an entry, nor a
    member or dimension on the same words (find_mentions).

    >>> key = (( ("aov", "average_order_value"),), (("cpi", "cpi"), ("packpc", "packpc")))
    >>> [(m.name, m.words) for m in _abbreviations("AOV and the consumer price index", key)]
    [('average_order_value', 'AOV'), ('cpi', 'consumer price index')]
    >>> [(m.name, m.words) for m in _abbreviations("packs per capita; aov; price index", key)]
    [('packpc', 'packs per capita')]
    >>> _abbreviations("by order status", ((), (("orders", "order_count"),)))
    []
    """
    initials, short = dict(key[0]), dict(key[1])
    out: list[Mention] = []
    if initials:
        for m in _ACRONYM.finditer(text):
            name = initials.get(m.group(0).lower())
            if name:
                out.append(Mention("metric", name, None, m.group(0), m.span(), "abbreviation"))
    if short:
        words = [(m.group(0).lower(), m.span()) for m in _WORD.finditer(text)]
        # words spell a name only from its first letter on (`_spelled`): each word tries the
        # names that start with its first letter, in the catalog's order
        by_letter: dict[str, list[tuple[str, str]]] = {}
        for abbr, name in short.items():
            by_letter.setdefault(abbr[0], []).append((abbr, name))
        at = 0
        while at < len(words):
            found = next(((name, end) for abbr, name in by_letter.get(words[at][0][0], ())
                          if (end := _spelled(abbr, words, at)) is not None), None)
            if found is None:
                at += 1
                continue
            name, end = found
            span = (words[at][1][0], words[end - 1][1][1])
            out.append(Mention("metric", name, None, text[span[0]:span[1]], span,
                               "abbreviation"))
            at = end
    return sorted(out, key=lambda m: m.span)


def _spelled(abbr: str, words: list[tuple[str, Span]], at: int) -> int | None:
    """The end (exclusive word index) of the words from `at` that spell `abbr`, each by its
    initial or by itself whole or singular, two initials at least ('packs per capita' spells
    packpc; 'order status' does not spell orders: one initial is a plural's 's')."""
    def spell(rest: str, j: int, initials: int) -> int | None:
        if not rest:
            return j if initials >= 2 else None
        if j == len(words) or (j > at and words[j][1][0] - words[j - 1][1][1] > 1):
            return None  # words of one run: one space between them, no punctuation
        word = words[j][0]
        for whole in {word, word[:-1] if word.endswith("s") else word}:
            if len(whole) >= 3 and rest.startswith(whole):
                end = spell(rest[len(whole):], j + 1, initials)
                if end is not None:
                    return end
        return spell(rest[1:], j + 1, initials + 1) if rest[0] == word[0] else None
    return spell(abbr, at, 0)


def find_mentions(text: str, catalog: dict[str, Any]) -> list[Mention]:
    """Metrics, members and dimensions the text names; the longer phrase wins an overlap."""
    from showwork.protocol.reading.members import find_members

    scanners = _scanners(catalog)
    members, dimensions = scanners.members, scanners.dimensions
    scanned = members.scan(text)
    found = find_metrics(text, catalog)
    asked = tuple(dict.fromkeys(m.name for m in found if m.how != "abbreviation"))
    known = {(m.span, m.name, m.member) for m in scanned}
    scanned += [m for m in find_members(text, catalog, [m.span for m in scanned], asked)
                if (m.span, m.name, m.member) not in known]
    dims = dimensions.scan(text)
    named = [m for m in scanned if not _verb(text, m) and not _bare_number(text, m, dims)
             and not _bare_grain(text, m, dims)]
    said = [m.span for m in named + dims]
    metrics = [m for m in found if m.how != "abbreviation" or not overlaps(m.span, said)]
    metrics = _not_a_member_label(text, metrics, named, dims)
    candidates = metrics + named + dims
    return resolve(candidates)


def _not_a_member_label(text: str, metrics: list[Mention], members: list[Mention],
                        dims: list[Mention]) -> list[Mention]:
    """'Quick buy transaction Quick Buy': words that name both a metric (quick_buy_transactions)
    and a dimension (its label 'quick buy transaction'), right before a member of that
    dimension, are the dimension's, naming its member ('store Brooklyn'); the metric is not
    said there."""
    def labels_member(m: Mention) -> bool:
        return any(d.span == m.span and any(
            x.name == d.name and text[m.span[1]:x.span[0]].strip() == "" and x.span[0] >= m.span[1]
            for x in members) for d in dims)
    return [m for m in metrics if not labels_member(m)]


_NUMBER = re.compile(r"[\d\s./:-]+")
_BESIDE = re.compile(r"[\s:=#,-]*(?:(?:of|is|was|=)\s+)?(?:(?:no|nos|num|nbr)\.?(?!\w)\s*#?\s*)?")


def _bare_number(text: str, member: Mention, dims: list[Mention]) -> bool:
    """A member that is a number (a year built, an hour, an engine count, a claim number) names
    it only beside its dimension's words ('year built 2004', 'departure hour 5', '4 engines',
    'By claim number, 12312701') or written as a label no value takes: with a possessive
    ('12312701's', never a year's '2013's') or listed right before a value ('highest first:
    12312702 25; 12312701 16'). A bare number is a date's, a count's or a ranking's ('July 2013',
    'top 5')."""
    return bool(_NUMBER.fullmatch(member.member or "")) and not _beside(text, member, dims) \
        and not _labelled(text, member) and not _said_in_words(member)


def _said_in_words(member: Mention) -> bool:
    """A number member said by a synonym of words ('premium' of a flag's 1): no date's or
    count's number, so not bare."""
    return member.how == "member_synonym" and not any(c.isdigit() for c in member.words)


def _labelled(text: str, member: Mention) -> bool:
    """A number member written as a label: possessed ('12312701's'; a year's possessive is a
    date's) or a list's item before its value (after ':', ';' or '(')."""
    start, end = member.span
    if _POSSESSIVE.match(text, end) is not None:
        return _YEAR.fullmatch(member.words) is None
    return _LIST_OPEN.search(text, 0, start) is not None and _ROW_VALUE.match(text, end) is not None


_POSSESSIVE = re.compile(r"['’]s\b")
_YEAR = re.compile(r"(?:1[89]|2[01])\d\d")
_LIST_OPEN = re.compile(r"[:;(]\s*$")
_ROW_VALUE = re.compile(r"\s*:?\s*[$£€]?-?\d")  # as numbers.py reads a listed row's member


_GRAIN_WORD = re.compile(r"(?:day|week|month|quarter|year)s?", re.IGNORECASE)


def _bare_grain(text: str, member: Mention, dims: list[Mention]) -> bool:
    """A member that is a calendar word (an amount type `Year`) names it only beside its
    dimension's words ('amount type Year') or written as a code in capitals (the airport
    `DAY`): 'by year', 'which year', 'each year' ask for a grain."""
    return bool(_GRAIN_WORD.fullmatch(member.member or "")) and not member.words.isupper() \
        and not _beside(text, member, dims)


def _beside(text: str, member: Mention, dims: list[Mention]) -> bool:
    """The member is said beside its dimension's words ('year built 2004', '4 engines')."""
    for d in dims:
        if d.name != member.name:
            continue
        gap = (text[d.span[1]:member.span[0]] if d.span[1] <= member.span[0]
               else text[member.span[1]:d.span[0]] if member.span[1] <= d.span[0] else None)
        if gap is not None and _BESIDE.fullmatch(gap):
            return True
    return False


_VERB_AFTER = re.compile(r"\s+(?:a|an|the|some|any|our|their|his|her|its)\b", re.IGNORECASE)


def _verb(text: str, member: Mention) -> bool:
    """A lower-case member followed by an article is a verb, not a filter ('buyers placed an
    order', where `placed` is also an order status)."""
    if not member.words.islower():
        return False
    if _VERB_AFTER.match(text, member.span[1]) is not None:
        return True
    # 'how many orders have business customers placed?': the clause's last word after 'have'
    clause = _CLAUSE_STOP.split(text[:member.span[0]])[-1]
    return member.words.endswith("ed") and _CLAUSE_END.match(text, member.span[1]) is not None \
        and _AUXILIARY.search(clause) is not None


_CLAUSE_END = re.compile(r"\s*(?:[,;:.!?]|$|(?:in|on|during|for|since|before|after|by|from)\b)",
                         re.IGNORECASE)
_CLAUSE_STOP = re.compile(r"[,;:.!?]")
_AUXILIARY = re.compile(r"\b(?:have|has|had|did|do|does)\b", re.IGNORECASE)


def resolve(candidates: list[Mention]) -> list[Mention]:
    """Keep the longest of overlapping mentions (metric, then member, then dimension on a tie);
    mentions on the very same span (one member in two dimensions) are all kept."""
    ranked = sorted(candidates, key=lambda c: (c.span[0] - c.span[1], _KIND_RANK[c.kind],
                                               c.span[0]))
    kept: list[Mention] = []
    for c in ranked:
        rivals = [k.span for k in kept if k.span != c.span or k.kind != c.kind]
        if not overlaps(c.span, rivals):
            kept.append(c)
    return sorted(kept, key=lambda c: (c.span[0], _KIND_RANK[c.kind]))
