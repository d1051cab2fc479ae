"""A metric said in other words than its entry (a verb form, a state, a threshold, an average),
and a member or a dimension word read by its role.

The phrase scanner (mentions.py) finds a metric written as its name, label or synonym. People
also say it as a sentence: "how many flights did Envoy Air cancel" (cancelled flights), "how many
customers signed up" (sign-ups), "how many users were active" (users active), "flights that left
more than 15 minutes late" (the metric whose description says "more than 15 minutes"). Each rule
here reads one such phrasing, and only from the catalog's own words:

- **Inflected entries.** An entry of a metric whose words, by stem, are a run of the text's free
  words (auxiliaries like "were", "had been" may stand between them), when the text inflects at
  least one of them otherwise, or puts an auxiliary among them ("users were active").
- **A state on a named metric.** The text names metric M ("reminders") and, elsewhere, a verb
  whose stem with M's words makes an entry of another metric ("reminders opened"): that metric.
  The verb is said in another form than the entry's, or the entry's word is a participle (an
  adjective, "real … value moments", is a qualifier left to qualifiers.py); it is free (no other
  name took it), no listed function or grammar word ("all", "total"), no neutral participle
  ("operate", "placed") and no dimension's or entity's word: "revenue from customers" stays
  revenue, "customer" is an entity, never a state of revenue.
- **A threshold.** "more than 15 minutes late" where one metric's description says "more than
  15 minutes": that metric, in place of the count metric it qualifies.
- **On average.** "How late, on average, did flights depart": an averaged metric whose entry's
  other words the text says in other forms ("depart" for "departure"; "late" for "delay", which
  the catalog itself pairs in "late flights" / "delayed flights"); "how long" says a time or a
  length. The count named is the population averaged over.
- **A ratio of two named metrics**, one per each of the other, asked "on average" ("how many
  active days did each active user have on average"): the governed ratio of the two.
- **Roles.** One member in two dimensions of one kind (origin and destination): "to X" / "from
  X" pick the role the dimension's words say; with none, the dimension whose data holds the
  member commonly (`values_rare`). A word several dimensions share ("airports") is the one the
  text names, else the one a verb gives the role ("received": the destination).

The longest entry wins (the most words matched); on a tie, the entry written in the text's own
forms ("delayed departures" over "departure delay" for "departures were delayed").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from showwork.protocol.reading._words import Span, overlaps, plural
from showwork.protocol.reading.gaps import NEUTRAL
from showwork.protocol.reading.mentions import Mention

_TOKEN = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?")
_AUXILIARY = frozenset(re.findall(r"\S+", """
am is are was were be been being do does did have has had get got gets getting"""))
"""Words that may stand between an entry's words when the text says it as a clause."""
_FUNCTION = frozenset(re.findall(r"\S+", """
a an the of in on at by for from to with and or per that which who were was are is be been
had has have did do does that's its their our"""))
"""Words an entry's stem set leaves out ('share of flights delayed': share, flight, delay)."""
_PARTICLES = ("up", "out", "in", "on", "off")


def stem(word: str) -> str:
    """The lemma of a word, with a trailing particle's plural folded ('sign-ups': sign, up)."""
    from showwork.protocol.reading.account import lemma

    w = word.lower()
    if w.endswith("s") and w[:-1] in _PARTICLES:
        return w[:-1]
    return lemma(w)


@lru_cache(maxsize=1)
def _neutral() -> frozenset[str]:
    """Stems of the participles that add no state ('operate', 'schedule', 'sign')."""
    return frozenset(stem(w) for w in NEUTRAL)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _TOKEN.findall(text)]


@lru_cache(maxsize=16)
def _entries(key: tuple) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """(metric, stems of the entry's content words, the words as written) for every label,
    name and synonym."""
    out = []
    for name, label, synonyms in key:
        clean = re.sub(r"\s*\(.*?\)", "", label or name)
        for written in (name.replace("_", " "), clean, *synonyms):
            words = [w for w in _words(written.replace("-", " ")) if w not in _FUNCTION]
            if words:
                out.append((name, tuple(stem(w) for w in words), tuple(words)))
    return tuple(out)


def _metric_key(catalog: dict[str, Any]) -> tuple:
    return tuple((name, info.get("label") or name, tuple(info.get("synonyms") or ()))
                 for name, info in (catalog.get("metrics") or {}).items())


@lru_cache(maxsize=16)
def _not_states(key: tuple) -> frozenset[str]:
    """Stems of the words that name a dimension or an entity: never a metric's state."""
    return frozenset(stem(w) for text in key for w in _words(text.replace("_", " ")))


def _dimension_key(catalog: dict[str, Any]) -> tuple:
    out: list[str] = []
    for name, info in (catalog.get("dimensions") or {}).items():
        out += [name, str(info.get("qualified") or ""), str(info.get("label") or "")]
        out += [str(s) for s in info.get("synonyms") or ()]
    return tuple(out)


class _Token:
    __slots__ = ("word", "stem", "span")

    def __init__(self, word: str, span: Span) -> None:
        self.word = word.lower()
        self.stem = stem(self.word)
        self.span = span


def restate(text: str, mentions: list[Mention], catalog: dict[str, Any],
            taken: list[Span]) -> list[Mention]:
    """The mentions with the metrics said in other words read as the catalog's metrics."""
    metrics = catalog.get("metrics") or {}
    if not metrics:
        return mentions
    entries = _entries(_metric_key(catalog))
    blocked = [m.span for m in mentions] + taken
    tokens = [_Token(m.group(0), m.span()) for m in _TOKEN.finditer(text)]
    free = [t for t in tokens if not overlaps(t.span, blocked)]
    mentions = _thresholds(text, mentions, metrics)
    mentions, free = _on_average(text, mentions, free, entries, catalog)
    mentions = mentions + _inflected(tokens, free, entries)
    mentions = _states(text, mentions, free, entries, _not_states(_dimension_key(catalog)))
    mentions = _ratio_of_two(text, mentions, metrics)
    return sorted(roles(text, mentions, catalog), key=lambda m: m.span)


_HOW_LONG = re.compile(r"\bhow\s+long\b", re.IGNORECASE)
"""'How long' asks for a time or a length: the words an average's entry says it with."""
_ON_AVERAGE = re.compile(r"\bon\s+average\b", re.IGNORECASE)
_AVERAGE_WORDS = frozenset({"averag", "mean", "avg"})


@lru_cache(maxsize=16)
def _equivalents(entries: tuple) -> frozenset[tuple[str, str]]:
    """Word pairs the catalog itself treats as one: two entries of one metric that differ in one
    word only ('late flights', 'delayed flights': late and delay)."""
    by_metric: dict[str, list[tuple[str, ...]]] = {}
    for name, stems, _written in entries:
        by_metric.setdefault(name, []).append(stems)
    out: set[tuple[str, str]] = set()
    for rows in by_metric.values():
        for a in rows:
            for b in rows:
                if len(a) == len(b) >= 2 and a != b:
                    diff = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
                    if len(diff) == 1 and not set(diff[0]) & _AVERAGE_WORDS:
                        out.add(diff[0])
    return frozenset(out)


def _alike(entry: str, said: str, same: frozenset[tuple[str, str]]) -> bool:
    """One word by stem, by the catalog's own pairs, or a verb and its noun ('depart',
    'departure'; 'arrive', 'arrival': the shorter stem of five letters or more begins the other)."""
    if entry == said or (entry, said) in same:
        return True
    short, long = sorted((entry, said), key=len)
    return len(short) >= 5 and long.startswith(short)


def _on_average(text: str, mentions: list[Mention], free: list[_Token], entries: tuple,
                catalog: dict[str, Any]) -> tuple[list[Mention], list[_Token]]:
    """'How late, on average, did JetBlue flights depart': 'on average' asks for an averaged
    metric, and its entry's other words are said as other forms ('late' for 'delay', the
    catalog pairs them; 'depart' for 'departure'): that metric, over the flights named (the
    count named is the population averaged over, no second metric)."""
    said = _ON_AVERAGE.search(text)
    if said is None:
        return mentions, free
    metrics = catalog.get("metrics") or {}
    same = _equivalents(entries)
    best: tuple[int, int, str, list[_Token]] | None = None
    said_words = [t for t in free if t.stem not in _AVERAGE_WORDS]
    said_words += [_Token(w, m.span()) for m in _HOW_LONG.finditer(text) for w in ("time", "length")]
    for name, stems, _written in entries:
        info = metrics.get(name) or {}
        if info.get("type") not in ("ratio", "derived"):
            continue
        wanted = [s for s in stems if s not in _AVERAGE_WORDS]
        used: list[_Token] = []
        for w in wanted:
            t = next((t for t in said_words if t not in used and _alike(w, t.stem, same)), None)
            if t is None:
                break
            used.append(t)
        if not wanted or len(used) != len(wanted):
            continue
        direct = sum(_alike(w, t.stem, frozenset()) for w, t in zip(wanted, used, strict=True))
        if best is None or (len(used), direct) > best[:2]:
            best = (len(used), direct, name, used)
    if best is None:
        return mentions, free
    _size, _direct, name, used = best
    counted = {n for n, info in metrics.items() if info.get("unit") == "count"}
    kept = [m for m in mentions if not (m.kind == "metric" and m.name in counted)]
    said_here = [Mention("metric", name, None, text[t.span[0]:t.span[1]], t.span, "said")
                 for t in used]
    said_here.append(Mention("metric", name, None, said.group(0), said.span(), "said"))
    return kept + said_here, [t for t in free if t not in used]


def _inflected(tokens: list[_Token], free: list[_Token],
               entries: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
               ) -> list[Mention]:
    """Entries said with other inflections, or as a clause with auxiliaries among their words."""
    free_at = {id(t): i for i, t in enumerate(tokens)}
    is_free = {id(t) for t in free}
    found: list[tuple[int, int, Span, str]] = []
    said = {t.stem for t in free}
    for name, stems, written in entries:
        if not said.issuperset(stems):
            continue
        size = len(stems)
        for t in tokens:
            if id(t) not in is_free or t.stem not in stems:
                continue
            run, j, aux = [t], free_at[id(t)] + 1, False
            while len(run) < size and j < len(tokens):
                nxt = tokens[j]
                if nxt.word in _AUXILIARY and id(nxt) in is_free:
                    aux, j = True, j + 1
                    continue
                if id(nxt) not in is_free:
                    break
                run.append(nxt)
                j += 1
            if len(run) != size or sorted(r.stem for r in run) != sorted(stems):
                continue
            inflected = any(not _same_word(r.word, w) for r, w in _paired(run, written))
            if aux or inflected:
                exact = sum(r.word in written for r in run)
                found.append((size, exact, (run[0].span[0], run[-1].span[1]), name))
    out: list[Mention] = []
    for _size, _exact, span, name in sorted(found, key=lambda f: (-f[0], -f[1], f[2])):
        if not overlaps(span, [m.span for m in out]):
            out.append(Mention("metric", name, None, "", span, "said"))
    return out


def _paired(run: list[_Token], written: tuple[str, ...]) -> list[tuple[_Token, str]]:
    by_stem = {stem(w): w for w in written}
    return [(r, by_stem.get(r.stem, r.word)) for r in run]


def _same_word(a: str, b: str) -> bool:
    """The same word, or only its number changed ('order', 'orders'): no verb form."""
    return a == b or plural(a) == b or plural(b) == a


def _verb_form(said: str, entry: str) -> bool:
    """The text says the entry's word as a verb: in another form ('open' for 'opened', 'cancel'
    for 'cancelled'), or the entry's word is a participle ('delayed'). An adjective said as the
    entry says it ('real') is a qualifier (qualifiers.py), not a state."""
    return not _same_word(said, entry) or entry.endswith(("ed", "en"))


def listed(word: str) -> bool:
    """A function or grammar word ('all', 'total', 'each'): no metric's state."""
    from showwork.protocol.reading.account import is_listed

    return is_listed(word)


def _states(text: str, mentions: list[Mention], free: list[_Token], entries: tuple,
            not_states: frozenset[str]) -> list[Mention]:
    """'How many reminders did web users open': reminders (named) + open (free) is the entry
    'reminders opened' of another metric."""
    by_stem: dict[str, list[_Token]] = {}
    neutral = _neutral()
    said_neutral = [t for t in free if t.stem in neutral]
    for t in free:
        if t.stem not in not_states and t.word not in _AUXILIARY | _FUNCTION \
                and t.stem not in neutral and not listed(t.word):
            by_stem.setdefault(t.stem, []).append(t)
    if not by_stem:
        return mentions
    out = list(mentions)
    for k, m in enumerate(mentions):
        if m.kind != "metric":
            continue
        own = {stem(w) for w in _words(m.words) if w not in _FUNCTION}
        if not own:
            continue
        best: tuple[int, int, str, list[_Token]] | None = None
        for name, stems, written in entries:
            state = set(stems) - own
            if name == m.name or not state or not own <= set(stems):
                continue
            entry_word = dict(zip(stems, written, strict=True))
            verbs = {x: [t for t in by_stem.get(x, ()) if _verb_form(t.word, entry_word[x])]
                     for x in state}
            if not all(verbs.values()):
                continue
            exact = sum(any(t.word in written for t in verbs[x]) for x in state)
            rank = (len(state), exact, name, [verbs[x][0] for x in sorted(state)])
            if best is None or rank[:2] > best[:2]:
                best = rank
        own_entry = _own_entry_said(text, m.name, entries, [*best[3], *said_neutral]) \
            if best else None
        if own_entry is not None:
            # 'flights scheduled to depart': the verb and the participle say the named metric's
            # own entry ('departures scheduled'), no other metric's state
            out += [Mention("metric", m.name, None, t.word, t.span, "said") for t in own_entry]
        elif best is not None:
            out[k] = Mention("metric", best[2], None, m.words, m.span, "said")
            # the state's words are the same metric, said where the verb stands
            out += [Mention("metric", best[2], None, t.word, t.span, "said") for t in best[3]]
    return out


_TO_VERB = re.compile(r"\s+to\s+(?:be\s+)?", re.IGNORECASE)
"""'scheduled to depart', 'scheduled to be delivered': the verb after the participle is planned,
not a state that happened."""


def _own_entry_said(text: str, name: str, entries: tuple, said: list[_Token]
                    ) -> list[_Token] | None:
    """The tokens saying one of the metric's own entries of two words or more as a participle
    the reader would pass over as neutral, then 'to' and a verb ('departures scheduled' said as
    'scheduled to depart'); None when no entry of the metric is said so."""
    neutral = _neutral()
    for entry_name, stems, _written in entries:
        if entry_name != name or len(stems) < 2:
            continue
        used: list[_Token] = []
        for s in stems:
            t = next((t for t in said if t not in used and _alike(s, t.stem, frozenset())), None)
            if t is None:
                break
            used.append(t)
        if len(used) == len(stems) and any(
                a.stem in neutral and b.stem not in neutral
                and _TO_VERB.fullmatch(text, a.span[1], b.span[0]) for a in used for b in used):
            return used
    return None


_EACH = re.compile(r"\b(?:on\s+average|average|mean)\b", re.IGNORECASE)
_EACH_BEFORE = re.compile(r"\b(?:each|every|per|a|an)\s+$", re.IGNORECASE)


def _ratio_of_two(text: str, mentions: list[Mention], metrics: dict[str, Any]) -> list[Mention]:
    """'On average, how many active days did each active user have': both parts of a governed
    ratio named, one of them per each of the other, is the ratio."""
    named = {m.name: m for m in mentions if m.kind == "metric"}
    if len(named) < 2:
        return mentions
    for name, info in metrics.items():
        formula = info.get("formula") or {}
        top, bottom = formula.get("numerator"), formula.get("denominator")
        if formula.get("op") != "divide" or top not in named or bottom not in named:
            continue
        per = _EACH_BEFORE.search(text[:named[bottom].span[0]])
        if per is None or _EACH.search(text) is None:
            continue
        return [Mention("metric", name, None, m.words, m.span, "said")
                if m.kind == "metric" and m.name in (top, bottom) else m for m in mentions]
    return mentions


_THRESHOLD = re.compile(r"\b(?:more|longer|later|greater|over)\s+than\s+(\d+(?:\.\d+)?)\s+"
                        r"([a-z]+)(?:\s+(?:late|early|behind(?:\s+schedule)?|delayed|long))?\b"
                        r"|\bover\s+(\d+(?:\.\d+)?)\s+([a-z]+)\s+(?:late|behind)\b",
                        re.IGNORECASE)


def _thresholds(text: str, mentions: list[Mention], metrics: dict[str, Any]) -> list[Mention]:
    """'flights that left more than 15 minutes late': the count metric whose description says
    'more than 15 minutes', in place of the metric it qualifies."""
    for m in _THRESHOLD.finditer(text):
        number, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        said = re.compile(rf"\b(?:more|longer|later|greater|over)\s+than\s+{re.escape(number)}\s+"
                          rf"{re.escape(unit.lower().rstrip('s'))}s?\b", re.IGNORECASE)
        owners = [n for n, info in metrics.items() if said.search(info.get("description") or "")]
        if len(owners) != 1:
            continue
        [owner] = owners
        before = [x for x in mentions if x.kind == "metric" and x.span[1] <= m.start()]
        if not before:
            continue
        head = before[-1]
        if head.name == owner:
            return mentions + [Mention("metric", owner, None, m.group(0), m.span(), "said")]
        replaced = Mention("metric", owner, None, head.words, head.span, "said")
        return [replaced if x is head else x for x in mentions] + \
            [Mention("metric", owner, None, m.group(0), m.span(), "said")]
    return mentions


# -- roles: one member or one word in two dimensions of one kind (origin and destination) ------
_TOWARD_BEFORE = re.compile(r"\b(?:to|into|towards?|bound\s+for|(?:arriv|land)(?:ing|ed|s)?\s+"
                            r"(?:at|in)|reach(?:ing|ed)?)\s+(?:the\s+)?$", re.IGNORECASE)
_AWAY_BEFORE = re.compile(r"\b(?:from|out\s+of|leaving|left|depart(?:ing|ed|s)?(?:\s+from)?)\s+"
                          r"(?:the\s+)?$", re.IGNORECASE)
_TOWARD_VERB = re.compile(r"\b(?:receiv(?:e|ed|es|ing)|arriv(?:e|ed|es|ing)|land(?:ed|s|ing)?|"
                          r"(?:went|go|goes|flew|fly|flying|headed|heading|sent|shipped|"
                          r"delivered)\s+to|bound\s+for|inbound)\b", re.IGNORECASE)
_AWAY_VERB = re.compile(r"\b(?:left|leav(?:e|es|ing)|depart(?:ed|s|ing)?|dispatch(?:ed|es|ing)?|"
                        r"(?:flew|fly|flying|sent|shipped)\s+(?:from|out\s+of)|outbound)\b",
                        re.IGNORECASE)
ROLE_WORDS = {"toward": re.compile(r"\b(?:dest|destination|arrival|arriving|inbound|target)\b"),
              "away": re.compile(r"\b(?:origin|departure|departing|source|outbound)\b")}
"""The words a dimension's name, label or synonyms use for the end a trip goes to, or leaves."""


def dimension_said(info: dict[str, Any], name: str) -> str:
    return " ".join([name.replace("_", " "), str(info.get("label") or ""),
                     *(str(s) for s in info.get("synonyms") or ())]).lower()


def with_role(dims: list[str], way: str | None, catalog: dict[str, Any]) -> list[str]:
    """The dimensions among `dims` whose words say the role ('toward': destination)."""
    if way is None:
        return []
    entries = catalog.get("dimensions") or {}
    return [d for d in dims if ROLE_WORDS[way].search(dimension_said(entries.get(d) or {}, d))]


def role_before(text: str, at: int) -> str | None:
    """'to X', 'arriving at X' name the destination role; 'from X', 'out of X', 'left X' the
    origin role."""
    before = text[:at]
    if re.search(r"\bfor\s+(?:the\s+)?$", before, re.IGNORECASE) and _AWAY_VERB.search(before):
        return "toward"  # 'left New York for ATL'
    return "toward" if _TOWARD_BEFORE.search(before) else \
        "away" if _AWAY_BEFORE.search(before) else None


def role_verb(text: str) -> str | None:
    """The role a verb of the text gives the thing asked about ('which airports received' →
    destination); None when no verb says one, or verbs say both."""
    toward, away = _TOWARD_VERB.search(text), _AWAY_VERB.search(text)
    return "toward" if toward and not away else "away" if away and not toward else None


def roles(text: str, mentions: list[Mention], catalog: dict[str, Any]) -> list[Mention]:
    """One member on one span in several dimensions: the one the words before it give the role
    ('from LGA': the origin); with no role said, the dimensions whose data holds it commonly
    over those that hold it on a handful of rows (`values_rare`: one flight ever went to LGA).
    Otherwise every dimension stays, and the caller asks which."""
    dims = catalog.get("dimensions") or {}
    on_span: dict[Span, list[Mention]] = {}
    for m in mentions:
        if m.kind == "member":
            on_span.setdefault(m.span, []).append(m)
    dropped: set[int] = set()
    for span, named in on_span.items():
        if len(named) == 1 and _against_role(text, named[0], catalog):
            dropped.add(id(named[0]))  # 'out of Chicago Midway': no origin holds it
            continue
        if len(named) < 2:
            continue
        names = [m.name for m in named]
        kept = with_role(names, role_before(text, span[0]), catalog)
        if not kept:
            common = [m.name for m in named
                      if m.member not in ((dims.get(m.name) or {}).get("values_rare") or ())]
            kept = common or names
        dropped |= {id(m) for m in named if m.name not in kept}
    return [m for m in mentions if id(m) not in dropped]


def _against_role(text: str, m: Mention, catalog: dict[str, Any]) -> bool:
    """A member read in a dimension of one role where the words before it say the other ('out
    of Chicago Midway' read as the destination, the data holding it as no origin): read so, it
    would answer another question, so it is left unread."""
    way = role_before(text, m.span[0])
    if way is None:
        return False
    other = "away" if way == "toward" else "toward"
    return bool(with_role([m.name], other, catalog)) and not with_role([m.name], way, catalog)


_COUNTS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six",
                                        "seven", "eight", "nine", "ten", "eleven", "twelve"))}


def dimension_of_word(word: str, text: str, mentions: list[Mention], catalog: dict[str, Any]
                      ) -> str | None:
    """A word several dimensions share ('airport': origin airport, destination airport, …): the
    one of them the text names elsewhere ('the New York airports, airport by airport'), else the
    one a verb gives the role ('which airports received …': the destination), the fewest words
    of its name first, then of its label ('destination' before 'destination_airport_name',
    'dest_airport' before 'dest_airport__name')."""
    if "_" in word or not word:
        return None
    dims = catalog.get("dimensions") or {}
    said = re.compile(rf"\b{re.escape(word)}s?\b")
    # a word of the join path only ('order' of order__store__store_name) names the entity the
    # dimension is reached through, never the dimension: 'revenue per order at each store'
    candidates = [d for d, info in dims.items()
                  if said.search(dimension_said(info, d.rpartition("__")[2]))]
    if not candidates:
        return None
    named = list(dict.fromkeys(m.name for m in mentions if m.kind == "dimension"
                               and m.name in candidates))
    if len(named) == 1:
        return named[0]
    counted = re.search(rf"\beach\s+of\s+(?:the\s+)?(\d{{1,3}}|{'|'.join(_COUNTS)})\s+"
                        rf"{re.escape(word)}s\b", text, re.IGNORECASE)
    if counted is not None:  # 'each of the three airports': the one with three members
        n = int(counted.group(1)) if counted.group(1).isdigit() else _COUNTS[counted.group(1).lower()]
        sized = [d for d in candidates if len((dims.get(d) or {}).get("members") or []) == n]
        if len(sized) == 1:
            return sized[0]
    own = [d for d in candidates if word.lower() in _heads_of(d, dims)]
    if len(own) == 1:  # 'countries': customer_country, not the region of a customer's country
        return own[0]
    kept = with_role(candidates, role_verb(text), catalog)
    if not kept:
        return None
    return min(kept, key=lambda d: (len(_words(d.replace("_", " "))),
                                    len(_words(str((dims.get(d) or {}).get("label") or d)))))


def _heads_of(dimension: str, dims: dict[str, Any]) -> set[str]:
    """The last word of a dimension's own attribute and of its label: the noun it is
    ('customer__customer_country': country; 'customer__country__region': region)."""
    label = str((dims.get(dimension) or {}).get("label") or "")
    return {t.split()[-1].lower() for t in (dimension.rpartition("__")[2].replace("_", " "), label)
            if t.split()}
