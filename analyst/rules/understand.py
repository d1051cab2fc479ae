"""What a question asks, read against the catalog by `protocol.reading` (no demo words here)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from showwork.analyst.rules import catalog as cat
from showwork.analyst.rules import offers
from showwork.analyst.rules.dates import ALL_DATA, AllData, whole_periods, window_of
from showwork.analyst.rules.metrics import metrics_of
from showwork.analyst.rules.shape import dimension_for, read_shape
from showwork.analyst.rules.shares import read_share
from showwork.protocol.reading import (
    Gap,
    Mention,
    Period,
    Reading,
    previous_period,
    rate_metrics,
    read_text,
    split_instruction,
)
from showwork.protocol.reading._words import COMMON_WORDS
from showwork.semantic_layer.windows import Window, iso_week, periods

DATA_WORDS = re.compile(r"\b(?:how many|how much|what (?:was|were|is|are)|number of|count|rate|"
                        r"average|total|sum|change|drop|rise|trend|metric)\b")
SUMMED = re.compile(r"\b(?:summed|sum of|sum up|add(?:ed)? up|added together)\b")
BLOCKING = ("member", "qualifier", "period")
"""Gaps the governed layer cannot be asked about: answering anyway would answer another question.
(Unknown metrics, dimensions, grains and members of a named dimension go to the layer, which
refuses them with its own reason.)"""
_PERCENT = {"percent", "percentage", "percentages", "%"}


@dataclass
class Understood:
    """A question as the rules analyst reads it."""

    text: str
    intent: str = "lookup"
    """lookup, compare, table, share, period_share, diagnostic or refuse"""
    metrics: list[str] = field(default_factory=list)
    group_by: list[str] = field(default_factory=list)
    filters: list[dict[str, Any]] = field(default_factory=list)
    grain: str | None = None
    aggregate: str | None = None
    window: Window | None = None
    previous: Window | None = None
    explicit: bool = False
    """Two named periods compared ('from May to June', 'May versus June'), not a period and
    the one before it."""
    difference: bool = False
    """The change asked as a difference ('how many more … in May than in April'): answered
    with the cited `delta`, not the percent change."""
    rank: str | None = None
    """most or least, for rankings"""
    top: int | None = None
    """How many members a ranking asks for ('top 3' → 3); None for all."""
    part: str | None = None
    """A share: the member of group_by[0] whose share of the total is asked (None: every
    member's)."""
    part_window: Window | None = None
    """A share of a whole across periods: the part period, inside `window` (the whole)."""
    refusal: str | None = None
    """Refuse without asking the layer (not a data question, or dictating the answer)."""
    unknown_metric: str | None = None
    """A metric-like phrase the catalog does not govern: the layer is asked, and will refuse."""
    assumed: list[str] = field(default_factory=list)
    """Defaults taken (e.g. no window named: the whole covered range)."""
    ignored: str | None = None
    """An instruction appended to the data question, dropped (the answer says so)."""
    unread: list[str] = field(default_factory=list)
    """Words of the question the catalog cannot read."""
    gap: tuple[str, str] | None = None
    """Two members of group_by[0] set apart ('how many more flights to LAX than to SFO'): the
    answer is the first's value less the second's."""
    guessed: list[tuple[str, str, str]] = field(default_factory=list)
    """(words, dimension, member) of filters read from one word of a member's name ('Denver'
    of 'Denver Intl'): with no data, the answer refuses rather than say 'no value'."""

    @property
    def notes(self) -> list[str]:
        """What the answer must say it assumed or ignored."""
        out = [f"(Assumed {a}.)" for a in self.assumed]
        if self.ignored:
            out.append(f"(Ignored an instruction in the question, {self.ignored!r}: I report only "
                       "what governed queries return.)")
        return out


def understand(text: str, catalog: dict[str, Any]) -> Understood:
    q = Understood(text)
    spoken, q.ignored = split_instruction(" ".join(text.split()))
    if q.ignored and not _data_question(spoken, catalog):
        q.ignored, q.intent = None, "refuse"
        q.refusal = ("The question tries to dictate the answer; I report only what governed "
                     "queries return.")
        return q
    reading = read_text(spoken, catalog)
    q.unread = reading.unread
    q.metrics = metrics_of(reading, catalog)
    read_shape(q, reading, catalog)
    _filters(q, reading, catalog)
    defaulted = _windows(q, reading, catalog)
    # 'by how many did X change in March' (against February) asks the difference too
    q.difference = reading.asks.difference and q.previous is not None
    _gap(q, reading, catalog)
    _intent(q, reading, catalog)
    if defaulted and _over_periods(q):
        q.window = _periods_touched(q.window, q.grain)
    else:
        _snap(q, catalog)
    if defaulted:
        q.assumed.append(_default_said(q, catalog))
    _refusals(q, reading, spoken.lower(), catalog)
    return q


def _gap(q: Understood, reading: Reading, catalog: dict[str, Any]) -> None:
    """The two members a difference sets apart, in its order, when both are the rows of the
    one dimension the answer is split by."""
    if reading.asks.gap is None or q.previous is not None or not q.group_by:
        return
    named = {span: member for span, dim, member in
             _each_member(q, reading, reading.members, catalog, "mean") if dim == q.group_by[0]}
    first, second = (named.get(span) for span in reading.asks.gap)
    if first is not None and second is not None and first != second:
        q.gap = (first, second)


def _intent(q: Understood, reading: Reading, catalog: dict[str, Any]) -> None:
    """Diagnostic, compare, table or lookup; a trend with no grain named gets one."""
    if reading.asks.series and not q.grain and q.previous is None and q.window is not None:
        q.grain = "week" if q.window.days <= SERIES_WEEKS * 7 else "month"
    q.intent = ("diagnostic" if reading.asks.why else "compare" if q.previous is not None
                else "running" if reading.asks.cumulative and q.grain and not q.group_by
                and reading.asks.share is None
                else "table" if q.group_by or q.grain else "lookup")
    if SUMMED.search(reading.text.lower()) and not _own_total(q, catalog):
        q.aggregate, q.grain, q.intent = "sum", q.grain or "week", "lookup"


def _own_total(q: Understood, catalog: dict[str, Any]) -> bool:
    """'The sum of all policy amounts' of metrics that add up (sums and counts, none a value at
    a point in time) with no grain named: their own total, no sum over weeks (whose window,
    cut to whole weeks, had dropped the covered range's first and last days)."""
    return not q.grain and bool(q.metrics) and all(
        cat.info(catalog, m).get("additive") and not cat.point_in_time(catalog, m)
        for m in q.metrics)


SERIES_WEEKS = 13
"""A trend over at most this many weeks is read week by week, a longer one month by month."""


def _over_periods(q: Understood) -> bool:
    """A series, or a ranking of periods, asked over no window."""
    return q.intent == "table" and bool(q.grain) and not q.group_by \
        and not isinstance(q.window, AllData)


def _periods_touched(window: Window | None, grain: str | None) -> Window | None:
    """The periods of the grain the covered range reaches into, whole: a series lists its
    partial first and last periods (caveated, answered to date), and a ranking of periods says
    which it leaves out. Snapped inside the range, 'the whole covered range' had left out a
    year the data reaches into without a word."""
    if window is None or grain is None:
        return window
    touched = periods(window, grain)
    return Window(touched[0].start, touched[-1].end)


def _snap(q: Understood, catalog: dict[str, Any]) -> None:
    """A level or table over whole periods of its grain ('weekly … in March': its full weeks;
    a weekly-only metric: whole weeks)."""
    if q.intent in ("lookup", "table", "share"):
        known = [m for m in q.metrics if cat.info(catalog, m)]
        grain = q.grain or (cat.finest_grain(catalog, known) if known else None)
        q.window = whole_periods(q.window, grain)


def _data_question(text: str, catalog: dict[str, Any]) -> bool:
    """The words before an instruction ask about governed data on their own: they name a
    metric, and a period or something to measure ('how many', 'compare', 'by store')."""
    if not text:
        return False
    reading = read_text(text, catalog)
    asks = reading.asks
    asked = (DATA_WORDS.search(text.lower()) is not None or bool(reading.periods) or asks.why
             or asks.change or asks.series or bool(asks.breakdown) or asks.ranking is not None)
    return bool(reading.metrics) and asked


def _filters(q: Understood, reading: Reading, catalog: dict[str, Any]) -> None:
    """Filters from named members ('android users', 'the plus plan', 'in the US'), and from
    words in a dimension's member slot ('the windows platform'), which the layer will check.
    Two or more members of one dimension ('android and ios') set them side by side."""
    named = _each_member(q, reading, reading.members, catalog, "mean")
    several = {d for _s, d, _m in named if sum(1 for _x, e, _y in named if e == d) > 1}
    for span, dim, member in named:
        # 'which airport had more, JFK or LGA': the two named are the ones ranked
        if dim not in q.group_by or dim in several:
            _add_filter(q, dim, member)
            if any(m.span == span and m.how == "said" for m in reading.members):
                q.guessed.append((reading.text[span[0]:span[1]], dim, member))
    for _span, dim, member in _each_member(q, reading, reading.excluded, catalog,
                                           "mean to leave out"):
        _add_filter(q, dim, member, op="not_in")  # 'excluding Delta': every other member
    ranged = {m.name for m in reading.ranges}
    for m in reading.ranges:  # 'after 9pm': one filter keeping the hours from 21 on
        _add_filter(q, m.name, m.member or "")
    for gap in reading.gaps:
        if gap.kind == "member" and gap.dimension and gap.dimension not in q.group_by \
                and not any(f["dimension"] == gap.dimension for f in q.filters):
            _add_filter(q, gap.dimension, gap.term)
    side_by_side = [f["dimension"] for f in q.filters
                    if len(f["values"]) > 1 and f["op"] == "in" and f["dimension"] not in ranged]
    if side_by_side and not q.group_by:
        q.group_by = side_by_side[:1]


def _rival_dimensions(dims: list[str], metrics: list[str], catalog: dict[str, Any]) -> list[str]:
    """The distinct attributes among the dimensions a member word names that the metrics can
    be filtered by ('Online' in store and in order__store__store_name is one attribute)."""
    out: list[str] = []
    for dim in dims:
        if cat.supports(catalog, metrics, dim) and not any(
                cat.same_attribute(catalog, dim, o) or o == dim for o in out):
            out.append(dim)
    return out


_TOWARD = re.compile(r"\b(?:to|into|for|towards?|bound for|arriving (?:at|in)|reaching)\s+"
                     r"(?:the\s+)?$", re.IGNORECASE)
_AWAY = re.compile(r"\b(?:from|out of|leaving|departing|left)\s+(?:the\s+)?$", re.IGNORECASE)
_ROLE = {"toward": re.compile(r"\b(?:dest|destination|arrival|arriving|inbound|to|target)\b"),
         "away": re.compile(r"\b(?:origin|departure|departing|source|from|outbound)\b")}


def _by_direction(before: str, dims: list[str], catalog: dict[str, Any]) -> list[str]:
    """One member in two roles of one table ('San Francisco Intl' as origin and destination):
    'to X' names the role whose words say destination, 'from X' the one that says origin."""
    way = "toward" if _TOWARD.search(before) else "away" if _AWAY.search(before) else None
    if way is None:
        return []
    entries = catalog.get("dimensions") or {}
    said = {d: " ".join([d.replace("_", " "), str((entries.get(d) or {}).get("label") or ""),
                         *((entries.get(d) or {}).get("synonyms") or ())]).lower() for d in dims}
    return [d for d in dims if _ROLE[way].search(said[d])]


def _each_member(q: Understood, reading: Reading, mentions: tuple[Mention, ...],
                 catalog: dict[str, Any], verb: str) -> list[tuple[tuple[int, int], str, str]]:
    """(span, dimension, member) of each member named: one word may name members of several
    dimensions, read as the one the metrics can be filtered by, or the role a verb gives
    ('to X': destination); else the question is asked back ('which one do you mean?')."""
    spans: dict[tuple[int, int], dict[str, str]] = {}
    for m in mentions:
        if m.member is not None:
            spans.setdefault(m.span, {})[m.name] = m.member
    out = []
    for span, named in spans.items():
        rivals = _rival_dimensions(list(named), q.metrics, catalog)
        if len(rivals) > 1:
            rivals = _by_direction(reading.text[:span[0]], rivals, catalog) or rivals
        if len(rivals) > 1 and q.refusal is None:
            words = reading.text[span[0]:span[1]]
            q.intent, q.refusal = "refuse", (
                f"{words!r} is a member of {' and of '.join(rivals)}; which one do you {verb}? "
                f"Ask again naming the dimension ({' or '.join(rivals)}).")
        dim = rivals[0] if len(rivals) == 1 else dimension_for(list(named), q.metrics, catalog)
        out.append((span, dim, named.get(dim, next(iter(named.values())))))
    return out


def _add_filter(q: Understood, dim: str, member: str, op: str = "in") -> None:
    for f in q.filters:
        if f["dimension"] == dim and f["op"] == op:
            if member not in f["values"]:
                f["values"].append(member)
            return
    q.filters.append({"dimension": dim, "op": op, "values": [member]})


def _apart(a: Period, b: Period) -> bool:
    """Two periods neither of which holds the other ('1970' and '1980'; not 'March' within
    '2019', which names one period)."""
    return a.end < b.start or b.end < a.start


def _windows(q: Understood, reading: Reading, catalog: dict[str, Any]) -> bool:
    """The window named, and for a change the one before: two periods named are compared,
    the earlier as the previous ('from the end of February to the end of March'). True when
    none was named and the whole covered range is taken."""
    asks = reading.asks
    moved = asks.compare is not None or asks.why or asks.change
    periods = [p.period for p in reading.periods]
    if asks.cumulative and not moved:
        return _running(q, reading, catalog)
    if periods:
        # 'in 1970 and 1980': two periods named side by side are each asked for, never the
        # first alone (the second had been dropped without a word): both, set side by side
        if moved and len(periods) >= 2 or len(periods) == 2 and not asks.series \
                and _apart(periods[0], periods[1]):
            earlier, later = sorted(periods[:2], key=lambda p: (p.start, p.end))
            q.window, q.previous = window_of(later), window_of(earlier)
            q.explicit = True
        else:
            q.window = window_of(periods[0])
            q.previous = window_of(previous_period(periods[0])) if moved else None
        return False
    if moved:
        _last_whole_week(q, catalog)
        return False
    _whole_coverage(q, catalog)
    return True


def _running(q: Understood, reading: Reading, catalog: dict[str, Any]) -> bool:
    """A running total: from the start of the data (or of the period a 'to date' names) to the
    end of the period named (or of the data). Never a default: the window is what was asked."""
    known = [m for m in q.metrics if cat.info(catalog, m)]
    covered = cat.coverage(catalog, known) if known else None
    named = reading.periods[-1].period if reading.periods else None
    # a running total period by period ('month by month, in Q4 2018') runs within the period
    to_date = named is not None and (named.grain == "range" or q.grain is not None)
    start = named.start if to_date and named else covered.start if covered else None
    end = named.end if named else covered.end if covered else None
    if covered is not None and end is not None:
        end = min(end, covered.end) if to_date else end
    if start is None or end is None:
        _whole_coverage(q, catalog)
        return True
    q.window = Window(start, end)
    return False


def _last_whole_week(q: Understood, catalog: dict[str, Any]) -> None:
    """A change with no window named: the last whole week against the week before."""
    as_of = dt.date.fromisoformat(catalog["as_of"])
    q.window = iso_week(as_of - dt.timedelta(days=7))
    q.previous = Window(q.window.start - dt.timedelta(days=7), q.window.end - dt.timedelta(days=7))
    q.assumed.append(f"no window named: the last whole week, {q.window}, against the week before")


def _whole_coverage(q: Understood, catalog: dict[str, Any]) -> None:
    """No window named: the range every named metric's data covers; all the data when a named
    metric's data has no covered range (its time column holds no dates: no window nobody asked
    for); the last whole week when no metric is known."""
    known = [m for m in q.metrics if cat.info(catalog, m)]
    covered = cat.coverage(catalog, known) if known else None
    if covered is None and any(not (cat.info(catalog, m).get("coverage") or {}).get("start")
                               for m in known):
        covered = ALL_DATA
    if covered is None:
        covered = iso_week(dt.date.fromisoformat(catalog["as_of"]) - dt.timedelta(days=7))
    q.window = covered


def _default_said(q: Understood, catalog: dict[str, Any]) -> str:
    """What the answer says it assumed (a point-in-time metric: its value at the end)."""
    known = [m for m in q.metrics if cat.info(catalog, m)]
    assert q.window is not None
    if isinstance(q.window, AllData):
        return "no window named: all the data"
    if known and all(cat.point_in_time(catalog, m) for m in known) and q.intent == "lookup":
        return f"no window named: the value at the end of coverage, {q.window.end}"
    return f"no window named: the whole covered range, {q.window}"


def _refusals(q: Understood, reading: Reading, lowered: str, catalog: dict[str, Any]) -> None:
    """No governed metric (and none asked for), or words the catalog cannot read."""
    if q.refusal is not None:  # a member of two dimensions: asked back already
        q.intent = "refuse"
        return
    if not q.metrics:
        rates = rate_metrics(catalog)
        if any(re.fullmatch(r"(?i)rates?", w) for w in reading.unread) and len(rates) > 1:
            q.intent, q.refusal = "refuse", (  # 'the rates': several governed, asked back
                f"Which rate do you mean: {' or '.join(rates)}? Ask again naming it.")
            return
        phrase = next((g.term for g in reading.gaps if g.kind == "metric"), None)
        if phrase and DATA_WORDS.search(lowered):
            q.unknown_metric = phrase
        else:
            q.intent, q.refusal = "refuse", ("This is not a question about the governed data: it "
                                             "names no governed metric.")
        return
    blocking = [g for g in (*reading.gaps, *_unread_members(reading))
                if g.kind in BLOCKING and not g.dimension and not _change_unit(g, q)]
    if blocking:
        q.intent, q.refusal = "refuse", _unread_refusal(blocking, catalog, q.metrics)
    elif reading.unread_content:
        q.intent, q.refusal = "refuse", offers.unread_refusal(reading, q.metrics, catalog)
    elif reading.asks.share is not None:
        read_share(q, reading)  # the layer's share_of_total, or a refusal saying why not


def _change_unit(gap: Gap, q: Understood) -> bool:
    """'in percent' of a change asks for its percent change, not the metric in another unit."""
    return gap.kind == "qualifier" and gap.term in _PERCENT and q.previous is not None


_OF_WORDS = re.compile(r"\s+of\s+(?:(?:the|our|all|each|every|a|an)\s+)*([A-Za-z][\w'-]*)")
_OF_SKIP = {"each", "every", "all", "the", "our", "which", "what", "them", "it", "those", "these",
            "time", "course"}


def _unread_members(reading: Reading) -> list[Gap]:
    """'units of espresso': a word after a metric's 'of' where a member would stand, that no
    dimension has (nor any other governed name, period or common word)."""
    taken = [m.span for m in (*reading.metrics, *reading.members, *reading.dimensions)] + \
        [p.span for p in reading.periods] + [g.span for g in reading.gaps]
    out = []
    for metric in reading.metrics:
        m = _OF_WORDS.match(reading.text, metric.span[1])
        if m is None or m.group(1).lower() in _OF_SKIP:
            continue
        span = m.span(1)
        if any(s <= span[0] < e for s, e in taken) or _common(m.group(1)) or not any(
                u.span[0] <= span[0] < u.span[1] for u in reading.unread_content):
            continue  # a word the reading accounts for ('the air time of flights')
        out.append(Gap("member", m.group(1), span, m.group(1),
                       reason="no dimension has this member"))
    return out


def _common(word: str) -> bool:
    return word.lower() in COMMON_WORDS


def _closest(words: str, catalog: dict[str, Any], metrics: list[str]) -> str:
    close = offers.closest(words, catalog, metrics=tuple(metrics))
    said = f"; closest: {', '.join(close)}" if close else ""
    idle = offers.without_facts(words, catalog, metrics)
    if idle:  # 'Boston': only a station no flight left from holds the word
        said += (f"; named so in the data only by {', '.join(idle[:3])}"
                 f"{' …' if len(idle) > 3 else ''}, which {' and '.join(metrics)} has no data for")
    return said


def _unread_refusal(gaps: list[Gap], catalog: dict[str, Any], metrics: list[str]) -> str:
    said = "; ".join(f"{g.words!r} ({g.reason}{_closest(g.words, catalog, metrics)})"
                     for g in gaps)
    return (f"The question says {said}, which the governed catalog cannot read; answering without "
            "it would answer a different question.")
