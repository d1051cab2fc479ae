"""Every word of a question accounted for: what each span was read as, and what nothing read.

A span is read when the catalog (a metric, member or dimension name, a named metric's own words)
or the grammar (periods, shapes, rankings, qualifiers of quantity) consumed it. Function words
(articles, pronouns, auxiliaries, prepositions, question words) are LISTED here, not guessed;
anything else no reader consumed is an unread content span, quoted back to the asker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from showwork.protocol.reading._words import Span, overlaps
from showwork.protocol.reading.asks import _LEAST, _MOST, FALL, GRAINS, MOVES, RISE
from showwork.protocol.reading.gaps import NEUTRAL
from showwork.protocol.reading.mentions import DURATION, Mention
from showwork.protocol.reading.periods import MONTHS, NUMBERS

if TYPE_CHECKING:
    from showwork.protocol.reading._reader import Reading

ReadAs = Literal["metric", "member", "dimension", "window", "shape", "qualifier", "unreadable"]

FUNCTION_WORDS = frozenset(re.findall(r"\S+", """
a an the this that these those such some any all each every both either neither no none own
i me my we us our ours you your he him his she her it its they them their theirs one ones
who whom whose which what when where why how whether
am is are was were be been being do does did done doing have has had having
can could may might must shall should will would
of in on at by for from to into onto out off over under with without within across
about above below between among through thru throughout during before after since until till
upon via per than versus vs against toward towards around along beyond behind
and or nor but so yet also too then else as if because while though although
not only just very much many more most less least lot lots
there here please show tell give list me let see find report display compare
thanks thank thx cheers hi hello hey
get got gotten take took taken make made record recorded log logged have
come comes came bring brought go went gone going leave left happen happened count counted
use used using create created generate generated produce produced see saw seen
fly flew flown flying travel travelled traveled operate operated run ran serve served
overall total totals altogether combined whole entire full statewide nationwide
company companywide business-wide
number numbers count counts amount amounts value values level levels figure figures
sum quantity volume size
end ending start starting beginning begin close closing middle past recent recently ago
current coming
time times period periods so far date
once twice ever again non
everyone everybody anyone anybody someone somebody nobody people person persons account accounts
really actually exactly roughly approximately about around
how's what's who's where's it's that's there's we've we'd i'd
"""))
"""Words that carry no content of their own: they never need a catalog entry."""

_GRAMMAR = frozenset(re.findall(r"\S+", """
change changes changed changing move moved moves movement trend trends trending series
compared compare comparison versus vs against relative previous prior preceding before
top bottom rank ranked ranking ranks highest lowest largest smallest biggest greatest best
worst leading fewest most least more less rank order ordered sorted first last next
share fraction percentage percent proportion portion pct ratio part
cumulative cumulatively running to-date ytd mtd qtd
breakdown broken split grouped segmented group by per each every differ differed differs
difference differences vary varied varies
why explain explained explains explanation reason reasons cause caused causes drove driven
drivers driver behind led due because affect affected impact impacted
week weeks month months quarter quarters year years day days half halves
daily weekly monthly quarterly yearly annual annually hourly
dollars dollar usd cents cent euros euro eur pounds pound gbp sterling yen percentages
"""))
"""Words the shape and period grammar consumes."""

MEANINGFUL = frozenset(re.findall(r"\S+", """
all each every both either neither no none not nor non only just
which whether
between before after since until till through thru than versus vs against without per by
compare more most less least
overall total totals altogether combined whole entire full statewide nationwide
company companywide business-wide
end ending start starting beginning begin close closing middle past recent recently ago
current coming so far once twice ever again running
exclude excluding excluded except excepting
many number numbers count counts amount amounts value values sum quantity volume size
"""))
"""Words of FUNCTION_WORDS that can change the answer to a question about data (a ranking, a
breakdown, a second period, a whole, a negation): read only where a rule used them, never
quieted by the list (issue 42)."""
FILLER = FUNCTION_WORDS - MEANINGFUL
"""Words that carry no meaning in a question about data: articles, auxiliaries, pronouns,
question words, politeness, prepositions that only join, verbs of asking."""

_IRREGULAR = {"sold": "sell", "bought": "buy", "flew": "fly", "flown": "fly", "took": "take",
              "taken": "take", "left": "leave", "went": "go", "gone": "go", "brought": "bring",
              "made": "make", "spent": "spend", "paid": "pay", "sent": "send", "got": "get",
              "came": "come", "ran": "run", "won": "win", "lost": "lose", "gave": "give",
              "given": "give", "saw": "see", "seen": "see", "kept": "keep", "held": "hold",
              "bore": "bear", "wrote": "write", "written": "write", "rode": "ride",
              "drove": "drive", "driven": "drive", "grew": "grow", "grown": "grow",
              "fell": "fall", "fallen": "fall", "rose": "rise", "risen": "rise",
              "began": "begin", "begun": "begin", "chose": "choose", "chosen": "choose"}
"""English's irregular verbs: 'were sold' is a word of a metric whose synonym says 'sell'."""
_SIBILANT = re.compile(r"(?:s|x|z|ch|sh)$")
_WORD = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9'’]*[A-Za-z0-9])?(?:[-.&][A-Za-z0-9]+)*|(?<![\w.])%")
"""A word, or a percent sign standing for one ('% of transactions'): read only where a rule
took it, as 'percent' is."""


@dataclass(frozen=True)
class ReadSpan:
    """One span of the text and what it was read as."""

    words: str
    span: Span
    read_as: ReadAs
    detail: str
    """The catalog entry or grammar it was read as: 'dest = LAX', 'July 2013', 'ranking of 3'."""


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """A rough stem, the same for a word's forms: 'sold' and 'sell', 'departed' and 'depart',
    'flights' and 'flight', 'cancelled' and 'cancel'.

    >>> lemma("sold") == lemma("selling") == lemma("sells")
    True
    >>> lemma("departed") == lemma("departs"), lemma("stores") == lemma("store")
    (True, True)
    """
    w = word.lower().replace("’", "'").removesuffix("'s")
    w = _IRREGULAR.get(w, w)
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif len(w) > 4 and (w.endswith("ed") or w.endswith("es") and _SIBILANT.search(w[:-2])):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2]:
        w = w[:-1]
    return w


def entry_words(catalog: dict[str, Any], metrics: list[str], dimensions: list[str]) -> set[str]:
    """The lemmas of the words the catalog itself uses for what the text names: the named
    metrics' entries (name, label, synonyms, previous names, description) and a ratio's parts',
    the named dimensions' entries, and every entity of the catalog ('users', 'customers': the
    nouns its dimensions belong to). 'Average' and 'mean' read when a named metric is a ratio
    or an average. A sibling's words ('real' of 'real value moments' beside 'value moments')
    are not the named metric's: they are read where they point it at the sibling
    (_reader.py `_qualifying`), else unread."""
    entries = catalog.get("metrics") or {}
    named = set(metrics) | {part for m in metrics for part in _parts(entries.get(m) or {})}
    out = {w for m in named for w in _words_of(m, entries.get(m) or {})}
    out |= {v for m in named for v in verbs_of_nouns(m, entries.get(m) or {})}
    dims = catalog.get("dimensions") or {}
    for d in dimensions:
        out |= _words_of(d, dims.get(d) or {})
    out |= entity_lemmas(tuple(str(info.get("qualified") or d) for d, info in dims.items()))
    if any(_averaged(entries.get(m) or {}) for m in metrics):
        out |= {"averag", "mean"}
    if any(DURATION.search(m) for m in metrics):  # 'how long', 'how many days' it takes
        out |= {lemma(w) for w in ("long", "days", "hours", "minutes")}
    return out


_OF_VERB = re.compile(r"(?P<verb>[a-z]{3,})ments?")
"""A noun made of a verb and '-ment' ('payment' of 'pay', 'settlement' of 'settle')."""


def verbs_of_nouns(name: str, info: dict[str, Any]) -> frozenset[str]:
    """The lemmas of the verbs a metric's own name, label or synonyms hold as a noun made with
    '-ment' ('loss payment amount': 'pay', so 'loss payments paid out' says the payments'
    own event): never its description's words, which say more than the metric is.

    >>> sorted(verbs_of_nouns("loss_payment_amount", {}))
    ['pay']
    """
    texts = (name.replace("_", " "), str(info.get("label") or ""),
             *(str(s) for s in info.get("synonyms") or ()))
    return frozenset(lemma(m["verb"]) for t in texts
                     for m in (_OF_VERB.fullmatch(w) for w in re.findall(r"[a-z]+", t.lower()))
                     if m is not None)


@lru_cache(maxsize=64)
def entity_lemmas(qualified: tuple[str, ...]) -> frozenset[str]:
    """The words of every entity the dimensions belong to ('origin_airport__name': origin,
    airport)."""
    words = [w for q in qualified for e in q.split("__")[:-1] for w in e.split("_")]
    # 'insured objects' of `insurable_object`: the verb an '-able' word is made of
    return frozenset([*(lemma(w) for w in words),
                      *(lemma(m["verb"]) for m in map(_ABLE.fullmatch, words) if m is not None)])


_ABLE = re.compile(r"(?P<verb>[a-z]{3,})able")
"""An adjective made of a verb and '-able' ('insurable' of 'insure')."""


def _words_of(name: str, info: dict[str, Any]) -> frozenset[str]:
    texts = (name, info.get("label") or "", info.get("description") or "",
             *(info.get("synonyms") or ()), *(info.get("previous_names") or ()))
    return _lemmas(texts)


@lru_cache(maxsize=4096)
def _lemmas(texts: tuple[str, ...]) -> frozenset[str]:
    return frozenset(lemma(w) for t in texts for w in re.findall(r"[A-Za-z]+", t))


def _parts(info: dict[str, Any]) -> list[str]:
    """A ratio's numerator and denominator: a rate is said in its parts' words."""
    formula = info.get("formula") or {}
    return [str(p) for p in (formula.get("numerator"), formula.get("denominator")) if p]


def _averaged(info: dict[str, Any]) -> bool:
    # a name's own short form counts ('avg_time_to_settle_claim': 'on average')
    said = f"{info.get('label') or ''} {info.get('description') or ''}".lower().replace("_", " ")
    return info.get("type") in ("ratio", "derived") or re.search(
        r"\b(?:average|avg|mean|per)\b", said) is not None


_GRAMMAR_LEMMAS = frozenset(lemma(w) for w in _GRAMMAR | MOVES | FALL | RISE | set(GRAINS)
                            | _MOST | _LEAST)
_FUNCTION_LEMMAS = frozenset(lemma(w) for w in FUNCTION_WORDS | NEUTRAL)


def _listed(word: str) -> bool:
    w = word.lower().replace("’", "'")
    if w in FUNCTION_WORDS or w in _GRAMMAR or w in MOVES or w in FALL or w in RISE \
            or w in GRAINS or w in MONTHS or w in NUMBERS or w in NEUTRAL:
        return True
    if re.fullmatch(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th|s|%)?|[qh][1-4]|w\d{1,2}", w):
        return True
    stem = lemma(w)
    return stem in _FUNCTION_LEMMAS or stem in _GRAMMAR_LEMMAS


_FILLER_LEMMAS = frozenset(lemma(w) for w in FILLER | NEUTRAL) - frozenset(
    lemma(w) for w in MEANINGFUL)


_MEANING_LEMMAS = frozenset(lemma(w) for w in MEANINGFUL)
"""A metric's description may say 'excluding' or 'not': the question's word is still read only
where a rule used it."""


def _filler(word: str) -> bool:
    """A word no rule needs to use: it carries no meaning about data. Grammar words (a grain, a
    superlative, a verb of change, 'share', 'running'), numbers and months are not filler: they
    are read only where a span of the reading took them."""
    w = word.lower().replace("’", "'")
    if w in MEANINGFUL:
        return False
    return w in FILLER or w in NEUTRAL or lemma(w) in _FILLER_LEMMAS


def is_listed(word: str) -> bool:
    """A listed function or grammar word (its lemma included): never content."""
    return _listed(word)


def unread_spans(text: str, taken: list[Span], own: set[str]) -> list[tuple[str, Span]]:
    """Runs of content words no reader took: not inside a taken span, not a listed function or
    grammar word, and not a word of what the text names (`own`, lemmas)."""
    out: list[tuple[str, Span]] = []
    run: list[re.Match[str]] = []
    for m in _WORD.finditer(text):
        parts = re.split(r"[-.&]", m.group(0))
        free = not overlaps(m.span(), taken) and not all(
            _filler(p) or (lemma(p) in own and lemma(p) not in _MEANING_LEMMAS)
            for p in parts if p)
        if free:
            run.append(m)
            continue
        if run:
            out.append(_joined(text, run))
            run = []
    if run:
        out.append(_joined(text, run))
    return out


def _joined(text: str, run: list[re.Match[str]]) -> tuple[str, Span]:
    span = (run[0].start(), run[-1].end())
    return text[span[0]:span[1]], span


def mention_span(m: Mention) -> ReadSpan:
    detail = f"{m.name} = {m.member}" if m.kind == "member" else m.name
    return ReadSpan(m.words, m.span, m.kind, detail)


def read_as_line(reading: Reading) -> str:
    """What a question was read as, in one line a person checks at a glance:
    'Read as: flights · dest = LAX · July 2013 · level', then the unread words, if any."""
    parts = list(dict.fromkeys(m.name for m in reading.metrics)) or ["no metric"]
    seen: set[tuple[int, int]] = set()
    for m in reading.members:
        if m.span not in seen:
            seen.add(m.span)
            parts.append(f"{m.name} = {m.member}")
    ranged: dict[tuple[int, int], list[str]] = {}
    for m in reading.ranges:  # 'after 9pm': the hours from 21 on
        ranged.setdefault(m.span, []).append(m.member or "")
    parts += [f"{reading.ranges[0].name} in {', '.join(v)}" for v in ranged.values()]
    for m in reading.excluded:  # 'excluding Delta': every other member
        if m.span not in seen:
            seen.add(m.span)
            parts.append(f"{m.name} != {m.member}")
    if reading.asks.compare == "explicit" and len(reading.periods) >= 2:
        parts.append(" versus ".join(p.words for p in reading.periods[:2]))
    elif reading.periods:
        parts += [p.words for p in reading.periods]
    else:
        parts.append("all the data (no window named)")
    parts += list(dict.fromkeys(s.detail for s in reading.spans  # 'all three airports'
                                if s.read_as == "qualifier" and s.detail.endswith(": no filter")))
    parts += [f"by {d}" for d in reading.asks.breakdown]
    ranking = reading.asks.ranking
    grain = f" by {ranking.grain}" if ranking is not None and ranking.grain else ""
    if reading.asks.cumulative and reading.asks.grain and not grain:
        grain = f" by {reading.asks.grain}"  # a running total period by period
    judged = [s.detail.partition(": ")[2] for s in reading.spans if s.detail.startswith("change: ")]
    parts.append(reading.asks.shape + (" as a difference" if reading.asks.difference else "")
                 + grain + (f" ({'; '.join(judged)})" if judged else ""))
    line = "Read as: " + " · ".join([*parts, *reading.notes])
    unread = [w for w in reading.unread if w not in {d.words for d in reading.doubts}]
    if unread:
        line += " · unread: " + ", ".join(repr(w) for w in unread)
    if reading.doubts:
        line += " · in doubt: " + "; ".join(f"{d.words!r} read as {d.detail}"
                                            for d in reading.doubts)
    return line
