"""What `showwork init` drafts from a profiled warehouse: each column's role and why, then dbt
semantic models, metrics and a governance draft that answer.

Roles come from a column's type, name, values and uniqueness:
- identifiers and codes are never summed: keys and links become entities (links also count
  distinct), short codes become dimensions;
- additive amounts are summed (and averaged); prices, rates, scores and delays are averaged, as
  ratio metrics sum / count, so a change in them decomposes exactly (tree.with_model_edges);
- flags become share metrics; a delay also gets the share over 15 minutes;
- snapshots (inventory, balances) are levels at the end of the period, not sums over time;
  medians and percentiles are too, and may not be rolled up across the table's grain;
- free text (long or wordy values, or values that address the reader) is never a dimension,
  and its values never reach a file, the catalog or a prompt;
- time is a DATE/TIMESTAMP, a year/month/day triple, or text that reads as a timestamp.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from showwork.semantic_layer.draft.docs import (
    documented_average,
    head,
    identified,
    plural,
    row_noun,
    without_storage_type,
)
from showwork.semantic_layer.draft.profile import (
    BIG_TABLE,
    ESTIMATE_SLACK,
    FEW_VALUES,
    PERIODS,
    Column,
    Key,
    Keys,
    Link,
    Numbering,
    Source,
    Table,
    col,
    period_expr,
    sample,
    stem,
    table_ref,
)

MEMBER_LIST = 200
"""A dimension with at most this many values gets its members listed in the governance draft
(questions name them: LAX, JetBlue Airways)."""
MAX_DIMENSION = 2_000
"""A text column with more distinct values is an identifier (counted distinct), not a
dimension."""
DELAYED_MINUTES = 15
FEW_ROWS = 12
"""A free-text name with more distinct values than this is free text (notes, comments)."""
TIME_NAMES = ("_at", "_ts", "_date", "_time", "date", "time", "_on")
"""Name endings that make a time column the default time of its table, in order of preference."""

WORDS = {"dep": "departure", "arr": "arrival", "dest": "destination", "orig": "origin",
         "qty": "quantity", "amt": "amount", "avg": "average", "num": "number",
         "pct": "percent", "cust": "customer", "prod": "product", "temp": "temperature",
         "humid": "humidity", "visib": "visibility", "dewp": "dew point",
         "precip": "precipitation", "sched": "scheduled", "ccy": "currency", "rev": "revenue",
         "usd": "USD", "eur": "EUR", "gbp": "GBP", "qtr": "quarter", "yr": "year",
         "inv": "inventory", "bal": "balance", "cnt": "count", "tot": "total",
         "pop": "population", "exp": "expectancy", "percap": "per capita",
         "pc": "per capita", "occ": "occupancy", "idx": "index"}
"""Abbreviations a name is read with, for labels and synonyms."""
SAID = {"precipitation": ("rain", "rainfall"), "temperature": ("temp",),
        "quantity": ("units",), "revenue": ("sales",), "distance": ("miles",),
        "plane": ("aircraft",), "customer": ("client",), "product": ("item",)}
"""Everyday words for a measure's spelled name (synonyms, never names)."""

_PART = {"year": ("year", "yr"), "quarter": ("quarter", "qtr", "q"),
         "month": ("month", "mon", "mo"), "day": ("day", "dd", "dom")}
_TIME_PARTS = {"year", "yr", "month", "mon", "mo", "day", "dd", "dom", "hour", "hr", "minute",
               "min", "second", "sec", "week", "wk", "quarter", "qtr", "weekday", "dow",
               "day_of_week"}
_MEDIAN = re.compile(r"(^|_)(median|p\d\d|pctl|percentile|quantile)($|_)")
_SNAPSHOT = re.compile(r"(^|_)(balance|bal|inventory|inv|stock|on_hand|level|headcount|backlog|"
                       r"outstanding|open_orders|snapshot)($|_)")
_DELAY = re.compile(r"(^|_)(delay|delays|late|lateness|wait)($|_)")
_AVERAGED = re.compile(r"(^|_)(price|prices|rate|rates|score|scores|rating|pct|percent|ratio|avg|"
                       r"occupancy|occ|share|percentage|per_capita|percap|pc|per_head|"
                       r"expectancy|yield|log|ln|"
                       r"mean|temp|temperature|speed|humid|humidity|pressure|visib|dewp|wind|"
                       r"lat|lon|latitude|longitude|alt|altitude|age|fx|exchange|margin|"
                       r"probability|prob|unit_price|"
                       r"per_\d+(?:_\d{3})*|per_(?:hundred|thousand|million))($|_)")
_SUMMED = re.compile(r"(^|_)(total|totals|sum|number|count|amount|volume)($|_)")
"""Words of a documented sum: 'Total sales price' is summed whatever else it says."""
_FLAG = re.compile(r"^(is|has|was|did|flag|cancel|cancelled|canceled|returned|refunded|churned|"
                   r"active|deleted)(_|$)|_(flag|ind)$")
_IDENTIFIER = re.compile(r"(^|_)(id|key|code|num|number|no|sku|uuid|zip|zipcode|postcode|phone|"
                         r"ean|isbn)$")
_MONEY = re.compile(r"(^|_)(amount|amt|price|revenue|rev|sales|cost|costs|total|fee|fees|tax|paid|"
                    r"spend|value|balance|income|profit|margin|payment|charge|subtotal)($|_)")
_CREATED = re.compile(r"(^|_)(signup|signed_up|sign_up|created|registered|registration|joined|"
                      r"onboarded|first_seen|opened)($|_)")
"""A table's default time that dates each row's creation: its count is of new rows."""
_RATE = re.compile(r"(^|_)(rate|rates|occupancy|occ|share|ratio|percentage|utilisation|"
                   r"utilization|participation|penetration)($|_)")
"""Names of a rate: with values up to 100, a percentage."""
_UNIT_WORDS = {"percent", "pct", "percentage", "usd", "USD", "eur", "EUR", "gbp", "GBP", "cents",
               "minutes", "mins"}
_YES = {"y", "yes", "true", "t", "1"}
_NO = {"n", "no", "false", "f", "0"}
_CURRENCY_NAME = re.compile(r"(^|_)(currency|ccy|cur|currency_code)$")
_CURRENCIES = {"USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "CNY", "INR", "BRL", "MXN",
               "SEK", "NOK", "DKK", "NZD", "SGD", "HKD", "KRW", "ZAR", "PLN", "TRY", "RUB"}
_TEXT_NAMES = re.compile(r"(^|_)(note|notes|comment|comments|description|desc|text|body|review|"
                         r"message|tweet|remarks|feedback|bio|summary|content)($|_)")
_INSTRUCTION = re.compile(r"\b(ignore|disregard|instruction|instructions|system prompt|you are|"
                          r"assistant|prompt|respond|reply with|say that|answer with)\b", re.I)


@dataclass(frozen=True)
class Role:
    """What init decided a column is, and why (printed as column → role → reason)."""

    table: str
    column: str
    role: str
    reason: str


@dataclass
class TimeDim:
    """A time dimension the draft offers."""

    name: str
    expr: str
    columns: tuple[str, ...]
    """The warehouse columns it is made from."""
    native: bool
    """A DATE/TIMESTAMP column (preferred as the table's default time)."""
    grain: str = "day"


@dataclass
class Drafted:
    """Everything drafted: files' contents, roles and warnings."""

    models: list[dict[str, Any]] = field(default_factory=list)
    metrics: list[dict[str, Any]] = field(default_factory=list)
    governance: dict[str, Any] = field(default_factory=lambda: {
        "version": 1, "metrics": {}, "dimensions": {}, "coverage": {}})
    roles: list[Role] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)
    edges: list[dict[str, Any]] = field(default_factory=list)
    """The metric tree's product edges (governance metric_tree.exact)."""
    aliases: set[str] = field(default_factory=set)


# -- names ----------------------------------------------------------------------------------------
def snake(text: str) -> str:
    """A MetricFlow name for a warehouse name.

    >>> snake("Order Date"), snake("2nd-Value"), snake("a__b"), snake("lifeExp"), snake("t")
    ('order_date', 'c_2nd_value', 'a_b', 'life_exp', 'c_t')
    >>> snake("Sales (USD)"), snake("2021")
    ('sales_usd', 'c_2021')
    """
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)  # camelCase: life_exp
    name = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "column"
    # MetricFlow wants a letter first and two characters at least
    return f"c_{name}" if name[0].isdigit() or len(name) == 1 else name


def singular(name: str) -> str:
    """The entity a table name holds rows of: orders → order, categories → category."""
    if name.endswith("ies"):
        return name[:-3] + "y"
    return name[:-1] if name.endswith("s") and not name.endswith(("ss", "us", "is")) else name


def _reserved() -> set[str]:
    """Names MetricFlow refuses: SQL keywords, time granularities, its own (metric_time)."""
    from dbt_semantic_interfaces.type_enums import TimeGranularity
    from dbt_semantic_interfaces.validations.reserved_keywords import RESERVED_KEYWORDS

    return ({k.lower() for k in RESERVED_KEYWORDS} | {g.lower() for g in
                                                       TimeGranularity.list_names()}
            | {"metric_time", "mf_internal_uuid"})


RESERVED = _reserved()


def words(name: str) -> str:
    """A name read as words, abbreviations spelled out: dep_delay → departure delay."""
    return " ".join(WORDS.get(w, w) for w in snake(name).split("_") if w)


class Names:
    """Names taken in one namespace; a reserved or taken name gets a prefix, then a number."""

    def __init__(self, taken: set[str] | None = None) -> None:
        self.taken = set(taken or ())

    def claim(self, name: str, prefix: str | None = None) -> str:
        base = snake(name)
        candidates = [base] if base not in RESERVED else []
        if prefix:
            candidates.append(f"{prefix}_{base}")
        candidate = next((c for c in candidates if c not in self.taken and c not in RESERVED),
                         None)
        n = 2
        while candidate is None or candidate in self.taken:
            candidate, n = f"{candidates[-1] if candidates else base + '_value'}_{n}", n + 1
        self.taken.add(candidate)
        return candidate


COMMENT_WORDS = 6
"""A column comment this short is a synonym too (longer ones only describe)."""


def commented(c: Column) -> list[str]:
    """The column's comment as a synonym, when it is short, and never when it reads as an
    instruction to the reader (a comment is text someone typed, like free text)."""
    text = without_storage_type(" ".join((c.comment or "").split())).strip(" .")
    if not text or _INSTRUCTION.search(text):
        return []
    return list(dict.fromkeys([*([text.lower()] if len(text.split()) <= COMMENT_WORDS else []),
                               *c.names]))


def documented_rate(description: str | None) -> bool:
    """The description's naming part says rate, ratio, percent, per capita, price, … (the words
    that make a column's name averaged) and no word of a sum ('total', 'number of'):
    'Unemployment rate', 'Per capita personal income', 'Percent of southern baptist', 'Infant
    deaths per 1000'."""
    named = snake(head(description or ""))
    return bool(named) and bool(_AVERAGED.search(named)) and not _SUMMED.search(named)


def digits_apart(name: str) -> str:
    """A name with its letters and digits apart ('pop1517' → 'pop_1517'), so a word that
    numbers run into still reads as the word."""
    return re.sub(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])", "_", snake(name))


def _averaging(said: list[str]) -> list[str]:
    """'average x' for each name, a name that already says average kept as it is."""
    return [x if documented_average(x) else f"average {x}" for x in said]


def _documented_quantity(c: Column) -> list[str]:
    """The names the column's documentation gives it without their 'average' ('average
    price' → 'price')."""
    return [x.split(" ", 1)[1] for x in _names(c) if documented_average(x) and " " in x]


def _said(c: Column) -> str | None:
    """The column's comment, unless it reads as an instruction (then it steers nothing)."""
    return c.comment if c.comment and not _INSTRUCTION.search(c.comment) else None


def _names(c: Column) -> tuple[str, ...]:
    """The names the column's comment gives it (none from one that reads as an instruction)."""
    return c.names if _said(c) else ()


def described(c: Column) -> str:
    """The comment for a description (left out when it reads as an instruction)."""
    text = " ".join((c.comment or "").split())
    return f" ({text[:200]})" if text and not _INSTRUCTION.search(text) else ""


def expr_of(column: str) -> str:
    """The column as SQL: bare when it is a plain name, quoted otherwise."""
    plain = snake(column) == column and column not in RESERVED
    return column if plain else exp.column(column, quoted=True).sql("duckdb")


# -- roles of single columns ----------------------------------------------------------------------
def free_text(c: Column, values: tuple[Any, ...] = ()) -> str | None:
    """Why a text column is free text, or None: long or wordy values, a free-text name, or a
    value that addresses the reader (an injected instruction)."""
    if c.kind != "text":
        return None
    if any(isinstance(v, str) and _INSTRUCTION.search(v) and len(v.split()) >= 4
           for v in values):
        return "a value addresses the reader like an instruction"
    if (c.mean_length or 0) > 40:
        return f"long values (mean {c.mean_length:.0f} characters)"
    if c.wordy > 0.3:
        return f"sentences ({c.wordy:.0%} of values have five words or more)"
    if _TEXT_NAMES.search(snake(c.name)) and (c.distinct or 0) > FEW_ROWS:
        return "named as free text, with many distinct values"
    return None



def time_part(c: Column) -> str | None:
    """year, month or day for an integer column named so whose values fit, else None."""
    name = snake(c.name)
    for part, names in _PART.items():
        if name in names and c.kind in ("integer", "number") and c.integral:
            low, high = {"year": (1800, 2200), "quarter": (1, 4), "month": (1, 12)}.get(
                part, (1, 31))
            if c.low is not None and low <= float(c.low) and float(c.high) <= high:
                return part
    return None


def constant(c: Column, t: Table) -> tuple[str, str] | None:
    """('constant', why) for a number with one value in every row of a table of two rows or
    more: nothing to sum, average or compare, so never a measure; else None."""
    if t.rows < 2 or c.non_null < t.rows or c.low is None or c.low != c.high:
        return None
    return "constant", f"one value ({c.low}) in every row: not a measure"


def numeric_role(c: Column, entity: str, fact: bool) -> tuple[str, str]:
    """(role, reason) for a number column that is no key, link or time part."""
    name = snake(c.name)
    if not fact:
        return "attribute", "a number describing the row of a table without time: not summed"
    if c.clock:
        return "clock time", "named *time* and every value reads as HHMM: not summed"
    if name in _TIME_PARTS:
        return "time part", f"{name!r} is a part of a date, not an amount"
    if c.integral and c.distinct == 2 and float(c.low) == 0 and float(c.high) == 1:
        return "flag", "only 0 and 1: a share metric"
    if _IDENTIFIER.search(name) or name == entity or name == f"{entity}_number":
        return "identifier", "named as an identifier: never summed"
    if _MEDIAN.search(name):
        return "median", "a median or percentile: a level per row, never summed or rolled up"
    if _SNAPSHOT.search(name):
        return "snapshot", "a level (balance, inventory): its value at the end of the period"
    if _DELAY.search(name) and not _MONEY.search(name):  # late fees are money, not a delay
        return "delay", "a delay: averaged (sum / count) and its share over 15 minutes"
    if _AVERAGED.search(name) or _AVERAGED.search(snake(words(name))):  # life_exp: expectancy
        return "average", "a price, rate or score: averaged (sum / count), never summed"
    if documented_average(_said(c)):
        return "average", (f"documented as an average ({head(c.comment or '')!r}): averaged "
                           "(sum / count), never summed")
    if documented_rate(_said(c)):
        return "average", (f"documented as a rate, ratio or price ({head(c.comment or '')!r}): "
                           "averaged (sum / count), never summed")
    if not c.integral and c.low is not None and float(c.low) >= 0 and float(c.high) <= 1:
        return "average", "values between 0 and 1 (a fraction): averaged, never summed"
    return "amount", "an additive amount: summed, and averaged"


def text_role(c: Column, values: tuple[Any, ...]) -> tuple[str, str]:
    """(role, reason) for a text column that is no key, link or free text."""
    name = snake(c.name)
    if c.dates >= 0.95:
        return "time", f"text that reads as a timestamp ({c.dates:.0%} of values)"
    if c.period:
        example = next((str(v) for v in values), "")
        return "time", (f"text periods ({example!r}): {c.period.replace('_', ' + ')}, "
                        f"{PERIODS[c.period][1]} grain")
    if len(values) == 2 and {str(v).lower() for v in values} <= _YES | _NO:
        return "flag", "yes or no in text: a share metric"
    if _CURRENCY_NAME.search(name) or (values and len(values) >= 1 and all(
            isinstance(v, str) and v.upper() in _CURRENCIES for v in values)):
        return "currency", "currency codes: amounts beside it are not summed across currencies"
    if (c.distinct or 0) > MAX_DIMENSION:
        return "identifier", f"{c.distinct:,} distinct values: counted distinct, not a dimension"
    if (c.mean_length or 0) <= 12 and " " not in "".join(str(v) for v in values):
        return "code", "a short code: a dimension, never summed"
    return "dimension", f"{c.distinct:,} distinct values: a dimension"


# -- the draft of one table -----------------------------------------------------------------------
@dataclass
class TableDraft:
    table: Table
    entity: str
    key: Key | None
    links: list[Link]
    roles: dict[str, Role] = field(default_factory=dict)
    times: list[TimeDim] = field(default_factory=list)
    values: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """Member lists of small dimensions (at most MEMBER_LIST values)."""
    composite: tuple[str, ...] = ()
    """Columns unique together, when the table has no key: its primary entity's expr."""
    nearest: tuple[tuple[str, ...], int] | None = None
    """With neither a key nor columns unique together: the closest combination, and its
    duplicate rows (for the warning's fix)."""
    numbering: Numbering | None = None
    """The small integer numbering the rows of each parent (order lines), when one does."""
    weights: dict[str, tuple[str, str]] = field(default_factory=dict)
    """rate column → (the count it is a share of, the evidence): averaged weighted by it."""
    quantity: str | None = None
    """What every number of the table is, when its name says so (commodity_prices: price)."""
    observed: tuple[str, ...] | None = None
    """Members the table holds one row of per period (state for a state × quarter panel; ()
    for a series, one row per period), or None for a table of events."""
    dimension_of: dict[str, str] = field(default_factory=dict)
    """column → its categorical dimension, as MetricFlow names it (entity__dimension)."""
    link_entity: dict[str, str] = field(default_factory=dict)
    """link column → the entity it joins as (a role entity for origin/destination)."""
    joined: dict[str, Any] = field(default_factory=dict)
    """text link column → the target's readable names (Names_)."""
    names_for: list[str] = field(default_factory=list)
    """Columns of other tables that point here named as this table's key (carrier)."""
    name_column: str | None = None
    """This table's readable name column, when it has one."""
    repeated: dict[str, str] = field(default_factory=dict)
    """stock column → the member it repeats across (a state's population on each disease's
    row): counted once per member of it, not summed across it."""

    @property
    def default_time(self) -> TimeDim | None:
        native = [t for t in self.times if t.native]
        for ending in TIME_NAMES:
            named = [t for t in native if t.name.endswith(ending)]
            if named:
                return named[0]
        built = [t for t in self.times if len(t.columns) > 1]
        found = native or built or self.times
        return found[0] if found else None

    def role(self, column: str) -> str:
        return self.roles[column].role

    def set(self, column: str, role: str, reason: str) -> None:
        self.roles[column] = Role(self.table.name, column, role, reason)


def read_roles(source: Source, d: TableDraft, entity_of: dict[str, str],
               dims: Names) -> None:
    """Every column's role, and the table's time dimensions."""
    t = d.table
    if d.key:
        d.set(d.key.column, "key", "unique and never null" + (
            f" but for {d.key.duplicates:,} duplicate rows" if d.key.duplicates else ""))
    for link in d.links:
        d.set(link.column, "foreign key", f"{link.matched:.0%} of its values are keys of "
              f"{link.target}.{link.key} (entity {entity_of[link.target]})")
        if t.column(link.column).kind == "text":  # a code people name: LAX, UA
            d.values[link.column] = _member_values(source, t, t.column(link.column))
    _triple(source, d, dims)
    if d.numbering is not None and d.numbering.column not in d.roles:
        n = d.numbering
        keyed = f"part of the key {n.parent} × {n.column}" if set(d.composite) == {
            n.parent, n.column} else f"a key with {n.parent}"
        d.set(n.column, "line number", f"numbers the rows of each {n.parent} ({n.low}–{n.high}, "
              f"from {n.low} again for every {n.parent}, unique with it): {keyed}, never an "
              "amount")
    for c in t.columns:
        if c.name in d.roles:
            continue
        if c.kind == "time":
            d.times.append(TimeDim(dims.claim(c.name, d.entity), expr_of(c.name), (c.name,), True,
                                   c.spacing or "day"))
            d.set(c.name, "time", f"a {c.type} column" + (
                f", every value a {c.spacing}'s first day: {c.spacing} grain"
                if c.spacing else ""))
        elif c.kind == "text":
            values = _member_values(source, t, c)
            why = free_text(c, values) or _addresses_reader(source, t, c, values)
            if why:
                d.set(c.name, "free text", why + ": never a dimension, never shown")
                continue
            role, reason = text_role(c, values)
            d.set(c.name, role, reason)
            if role == "time" and c.period:
                d.times.append(TimeDim(dims.claim(c.name, d.entity),
                                       period_expr(c.name, c.period).sql(source.dialect),
                                       (c.name,), False, PERIODS[c.period][1]))
            elif role == "time":
                cast = exp.Cast(this=col(c.name), to=exp.DataType.build("timestamp"))
                d.times.append(TimeDim(dims.claim(c.name, d.entity), cast.sql(source.dialect),
                                       (c.name,), False, c.spacing or "day"))
            elif values and role != "identifier":
                d.values[c.name] = values
        elif c.kind == "bool":
            d.set(c.name, "flag", "true or false: a share metric")
        elif c.kind in ("integer", "number"):
            d.set(c.name, *(constant(c, t) or numeric_role(c, d.entity, fact=True)))
        else:
            d.set(c.name, "unused", f"type {c.type} is not drafted")
    if d.default_time is not None and (found := first_event_missing(source, d)):
        c, with_it = found
        d.set(c.name, "cancelled when missing", f"{c.name} is missing in "
              f"{1 - c.non_null / t.rows:.1%} of rows, and there {', '.join(with_it)} are "
              "missing too: the row's first event never happened (cancelled), counted and "
              "shared")
    if d.default_time is not None:
        _panel_roles(source, d)
        if d.observed is None:
            _levels_of_events(d)
        d.weights = denominators(source, d)
        for rate, (count, why) in d.weights.items():
            d.set(rate, "average", f"{d.roles[rate].reason}; weighted by {count}, its "
                  f"denominator: {why}")
    if d.default_time is None:  # a table without time describes things; its numbers are not summed
        for c in t.columns:  # its text keeps the role that says what it is (a name, a code)
            if c.kind in ("integer", "number") and d.roles[c.name].role in (
                    "amount", "average", "delay", "median", "snapshot", "clock time",
                    "identifier", "time part"):
                d.set(c.name, *numeric_role(c, d.entity, fact=False))


def _triple(source: Source, d: TableDraft, dims: Names) -> None:
    """A date from year, month and day columns (year and month alone: the month's first day;
    year and quarter: the quarter's; a year alone, in a panel with no other time — one row per
    member of a text column per year — the year's; a year in a table of things, the year a
    plane was built, is an attribute)."""
    parts = {p: c for c in d.table.columns if (p := time_part(c)) is not None}
    if "year" not in parts:
        return
    y, m, day, q = parts["year"], parts.get("month"), parts.get("day"), parts.get("quarter")
    if m is not None:
        made = exp.func("make_date", col(y.name), col(m.name),
                        col(day.name) if day else exp.Literal.number(1))
        used = (y.name, m.name, *((day.name,) if day else ()))
        name, grain = (f"{d.entity}_date", "day") if day else (f"{d.entity}_month", "month")
    elif q is not None:
        first = exp.Sub(this=exp.Mul(this=col(q.name), expression=exp.Literal.number(3)),
                        expression=exp.Literal.number(2))
        made = exp.func("make_date", col(y.name), first, exp.Literal.number(1))
        used, name, grain = (y.name, q.name), f"{d.entity}_quarter", "quarter"
    elif not any(c.kind == "time" or c.dates >= 0.95 or c.period for c in d.table.columns) \
            and _panel_of(source, d.table, y):
        year = exp.Cast(this=col(y.name), to=exp.DataType.build("int"))
        made = exp.func("make_date", year, exp.Literal.number(1), exp.Literal.number(1))
        used, name, grain = (y.name,), f"{d.entity}_year", "year"
    else:
        return
    d.times.append(TimeDim(dims.claim(name), made.sql("duckdb"), used, False, grain))
    for c in used:
        d.set(c, "time part", f"with {', '.join(x for x in used if x != c)}: one date"
              if len(used) > 1 else f"a year ({y.low}–{y.high}): the year's first day")


_QUANTITY = re.compile(r"prices?|rates?|yields?|index|indices|scores?|ratios?")
"""Table-name words that say what every number in it is."""
_QUANTITY_COLUMN = re.compile(r"(^|_)(qty|quantity|units|count|n|number|pieces|items)($|_)")
"""A column saying how many units a row sold: a price times it is the money taken."""
_TIME_NUMBER = re.compile(r"(^|_)(date|time|period|t|c_t|yearmon|yearqtr|decimal_year|"
                          r"time_index)$")
"""Names of a number that encodes the period itself (a decimal year 2000.04 named date)."""
_INDEX = re.compile(r"(^|_)(index|idx|cpi|ppi|hpi|deflator)($|_)")
"""Names of an index: a price or volume index is averaged across members, never summed."""
_STOCK = re.compile(r"(^|_)(population|pop|headcount|count|counts|n|number|num|employees|staff|"
                    r"residents|members|stock|inventory|balance|level|holdings|outstanding|"
                    r"enrolment|enrollment|listings|units_on_hand)($|_)")
"""Names of a level per member per period in a panel: population, headcount, a count."""
_LEVEL = re.compile(r"(^|_)(population|headcount|employees|staff|residents|members|stock|"
                    r"inventory|balance|holdings|outstanding|enrolment|enrollment)($|_)")
"""A documented level ('Population, 15 through 17 years old'). Not 'number of …': documented
counts of events in a period (fatalities) are flows as often as levels."""
_COUNTED = re.compile(r"^(count|counts|n|number|num|total|cnt)$")
"""A panel's column named only as a count: the number of the table's things (prisoners)."""


def _estimate(source: Source, t: Table, columns: tuple[str, ...]) -> int:
    """The approximate distinct count of the columns together (one scan, no sort)."""
    select = exp.select(exp.ApproxDistinct(this=exp.Tuple(expressions=[col(c) for c in columns])))
    ((n,),) = source.rows(select.from_(table_ref(t.name)).sql(source.dialect))
    return int(n)


def _unique(source: Source, t: Table, columns: tuple[str, ...]) -> int:
    inner = exp.select(*(col(c) for c in columns)).distinct().from_(table_ref(t.name))
    ((n,),) = source.rows(exp.select(exp.Count(this=exp.Star())).from_(
        inner.subquery("k")).sql(source.dialect))
    return int(n)


PANEL_DENSITY = 0.5
"""A panel has a row for at least this share of its members × periods."""
OBSERVATION_CHECKS = 12
"""Distinct counts tried before a table is taken for events (each is a query over the table)."""


def observations(source: Source, d: TableDraft) -> tuple[str, ...] | None:
    """The members the table has one row of per period of its default time: () for a series,
    (state,) for a state × quarter panel, three columns at most, most combinations present;
    None for events."""
    time = d.default_time
    t = d.table
    if time is None or not t.rows:
        return None
    period = tuple(time.columns)
    # the profile's distinct count of a one-column time, before any query (a big events
    # table is ruled out here: no combination of its columns is near its row count)
    counted = t.column(period[0]).distinct if len(period) == 1 else None
    periods = counted if counted is not None else _unique(source, t, period)
    slack = 1.0 if counted is None or t.column(period[0]).exact else 0.9  # approximate counts
    if periods >= slack * t.rows and _unique(source, t, period) == t.rows:
        return ()
    members = [c for c in t.columns if c.kind in ("text", "integer", "bool")
               and c.name not in period and c.non_null == t.rows
               and d.roles.get(c.name) and d.role(c.name) in ("code", "dimension", "foreign key",
                                                              "identifier", "flag")
               and 1 < (c.distinct or 0) < t.rows][:6]
    # one row each for most members and periods: a panel; events unique by nature (a flight
    # number per carrier, airport and day) leave most combinations empty
    for combo in _dense(members, periods, slack * t.rows, t.rows / PANEL_DENSITY / slack):
        names = (*combo, *period)
        if slack < 1.0 and _estimate(source, t, names) < ESTIMATE_SLACK * t.rows:
            continue  # a big table: estimated first, counted exactly only when it may fit
        if _unique(source, t, names) == t.rows:
            return combo
    return None


def _dense(members: list[Column], periods: int, low: float, high: float
           ) -> Iterator[tuple[str, ...]]:
    """Combinations of one to three members whose distinct counts times the periods fall
    between `low` and `high` (as many cells as a panel of the table's rows would have), the
    first OBSERVATION_CHECKS of them: each is then counted, a query over the table."""
    fitting = (combo for size in (1, 2, 3) for combo in itertools.combinations(members, size)
               if low <= periods * math.prod(c.distinct or 1 for c in combo) <= high)
    for combo in itertools.islice(fitting, OBSERVATION_CHECKS):
        yield tuple(c.name for c in combo)


def _panel_roles(source: Source, d: TableDraft) -> None:
    """In a panel or series (one row per member per period) a column named as a level or a
    count is a stock: summed across members, its last period over time; an integer that one
    period determines (a quarter number) is a part of the time."""
    d.observed = observations(source, d)
    if d.observed is None:
        return
    time = d.default_time
    assert time is not None
    periods = _unique(source, d.table, tuple(time.columns))
    # a table named for what its numbers are (commodity_prices): each column is one of them
    named = [w for w in snake(d.table.name).split("_") if _QUANTITY.fullmatch(w)]
    d.quantity = singular(named[-1]) if named else None
    for c in d.table.columns:
        role = d.roles[c.name].role
        held_in: str | None = None
        if d.quantity and role == "amount" and c.kind in ("integer", "number"):
            d.set(c.name, "average", f"a column of {d.table.name}: a {d.quantity}, averaged "
                  "over time and members, never summed")
            role = "average"
        if c.kind not in ("integer", "number") or role not in ("amount", "identifier", "average",
                                                                "snapshot"):
            continue
        name = snake(c.name)
        numbered = c.kind == "integer" and c.low is not None and (c.distinct or 0) == periods \
            and int(c.low) in (0, 1) and int(c.high) - int(c.low) + 1 == periods
        if numbered and _unique(source, d.table, (c.name, *time.columns)) == periods:
            d.set(c.name, "time part", f"numbers the {time.grain}s ({c.low}–{c.high}), one "
                  f"per {time.grain}: a period number, not an amount")
        elif role in ("amount", "identifier") and c.integral \
                and (member := _member_number(source, d, c)) is not None:
            d.set(c.name, "attribute", f"one value per {words(member)}, the same every "
                  f"{time.grain}: a number the {words(member)} carries (a code, a region), "
                  "not summed")
        elif _TIME_NUMBER.search(name) and (c.distinct or 0) <= periods \
                and _unique(source, d.table, (c.name, *time.columns)) == periods:
            d.set(c.name, "time part", f"named as a time, one value per {time.grain} "
                  f"({c.low}–{c.high}): the period as a number, not an amount")
        elif _INDEX.search(name) or (d.observed and role != "identifier" and not c.integral
                                     and _same_across(source, d, c.name, periods)):
            d.set(c.name, "index", "an index" + (
                f": the same value across every {words(d.observed[0])} at each {time.grain}"
                if d.observed else "") + "; averaged across members, its last period over time, "
                "never summed")
        elif _STOCK.search(digits_apart(name)) and role == "amount" and _documented_total(c):
            d.set(c.name, "amount", f"documented as a total ('{head(_said(c) or '')}'): what "
                  f"each {time.grain} adds, summed across members and over time")
        elif (_STOCK.search(digits_apart(name)) or _LEVEL.search(snake(head(_said(c) or "")))
              or (held_in := _documented_held(c)) is not None) \
                and role not in ("average", "identifier", "snapshot"):
            across = _repeated_across(source, d, c)
            held = "".join(f"{words(m)} per " for m in d.observed if m != across)
            if across:
                d.repeated[c.name] = across
            said = f"documented as a number of things held in a state ('{held_in}'): " \
                if held_in else ""
            d.set(c.name, "stock", f"{said}a level per {held}{time.grain}" + (
                f", the same on each {words(across)}'s row (counted once)"
                if across else " (one row each)") + ": summed across members, its last period "
                "over time (non_additive_dimension)")


def _member_number(source: Source, d: TableDraft, c: Column) -> str | None:
    """The panel's member that alone gives a whole-number column its value, the same in every
    period (a state's FIPS code, its census region): the member's own number, never a flow or
    a level of it. A column that varies over time, or takes one value in all rows, is none."""
    if not d.observed or (c.distinct or 0) < 2:
        return None
    for member in d.observed:
        if _unique(source, d.table, (member, c.name)) == _unique(source, d.table, (member,)):
            return member
    return None


def _repeated_across(source: Source, d: TableDraft, c: Column) -> str | None:
    """The one member of a panel's several (disease of disease × state) across which the
    column repeats: the other members and the period give it one value (a state's population
    on each disease's row). Only when every other member has a row for each of its members in
    every period (balanced), so that counting it once per member is exact in every grouping."""
    time = d.default_time
    if time is None or not d.observed or len(d.observed) < 2:
        return None
    period = tuple(time.columns)
    for across in d.observed:
        rest = tuple(m for m in d.observed if m != across)
        if _unique(source, d.table, (*rest, *period, c.name)) != _unique(
                source, d.table, (*rest, *period)) or not _balanced(source, d.table, rest,
                                                                     across, period):
            continue
        return across
    return None


def _balanced(source: Source, t: Table, rest: tuple[str, ...], across: str,
              period: tuple[str, ...]) -> bool:
    """Every combination of `rest` has as many rows in a period as `across` has members in it."""
    rows = exp.select(*(col(x) for x in (*rest, *period)), exp.Count(this=exp.Star()).as_("n")) \
        .from_(table_ref(t.name)).group_by(*(col(x) for x in (*rest, *period))).subquery("a")
    members = exp.select(*(col(x) for x in period), exp.Count(this=exp.Distinct(
        expressions=[col(across)])).as_("k")).from_(table_ref(t.name)).group_by(
        *(col(x) for x in period)).subquery("b")
    select = exp.select(exp.Count(this=exp.Star())).from_(rows).join(
        members, using=list(period)).where(exp.NEQ(this=exp.column("n", "a"),
                                                   expression=exp.column("k", "b")))
    ((n,),) = source.rows(select.sql(source.dialect))
    return int(n) == 0


_HELD_IN = re.compile(r"^(?:the\s+)?number\s+of\s+(?P<things>[a-z][a-z\s-]*?)\s+(?:in|on)\s+"
                      r"(?:the\s+)?(?P<state>[a-z][a-z\s-]*?)\s*\.?$")
"""'Number of Black men in prison', 'number of patients in hospital': a count of things held
in a state, described by nothing else."""
_WHEN = re.compile(r"\b(?:t|time|times|period|periods|year|years|quarter|quarters|month|months|"
                   r"week|weeks|day|days|season|seasons|window|interval|total)\b")
"""Words that make 'in …' a period, not a state ('number of births in the year')."""


def _documented_held(c: Column) -> str | None:
    """The column's documentation when it counts things held in a state ('Number of Black men
    in prison', 'number of children in school'): people or things that are somewhere at a
    date, a level, not events that happen in a period. None when 'in …' names a time ('in t',
    'in the year') or the column holds a negative number (a count never does; a half here and
    there is an interpolated count: texas's bmprison holds one 3648.5)."""
    said = " ".join(without_storage_type(_said(c) or "").lower().split())
    m = _HELD_IN.match(said)
    if m is None or _WHEN.search(m["state"]) or c.low is None or float(c.low) < 0:
        return None
    return said.rstrip(" .")


def _documented_total(c: Column) -> bool:
    """The documentation names the column a total and no level ('Total number of reported
    cases'): each period's count adds up over time, whatever its name ('count') says; 'total
    population' stays a level."""
    said = head(_said(c) or "").split()
    return bool(said) and said[0] == "total" and not _LEVEL.search("_".join(said))


def _levels_of_events(d: TableDraft) -> None:
    """In a table of events (no member has a row each period) a level named so (a loan's
    current balance) is the level of each row's own thing: summed across rows like an amount.
    Its value 'at the end of the period' would add only the rows dated on the period's last day.
    Only a panel or series holds a level per member per period (city_months.inventory)."""
    for c in d.table.columns:
        if d.roles.get(c.name) and d.role(c.name) == "snapshot":
            d.set(c.name, "amount", f"{d.roles[c.name].reason.split(':')[0]} of each row's own "
                  "thing, in a table of events (no member has a row each period): summed "
                  "across rows, and averaged")


def _same_across(source: Source, d: TableDraft, column: str, periods: int) -> bool:
    """Every period has one value of the column across its members (a national price index
    repeated on each state's row), and the column varies over time."""
    time = d.default_time
    assert time is not None
    c = d.table.column(column)
    return (c.distinct or 0) > 1 and periods < d.table.rows and c.non_null == d.table.rows \
        and _unique(source, d.table, (column, *time.columns)) == periods


def _panel_of(source: Source, t: Table, period: Column) -> tuple[str, ...] | None:
    """The text columns, one to three, that with `period` are unique (a country × year table;
    a disease × state × year one): the members. Only a combination whose distinct counts
    multiply to between the rows and the rows over PANEL_DENSITY is counted (fewer cannot be
    unique; many more leave most combinations empty: things, not a panel), at most
    OBSERVATION_CHECKS of them (each is a query over the table)."""
    texts = [c for c in t.columns
             if c.kind == "text" and c.non_null == t.rows and 1 < (c.distinct or 0) < t.rows]
    for names in _dense(texts, period.distinct or 1, t.rows, t.rows / PANEL_DENSITY):
        if _unique(source, t, (*names, period.name)) == t.rows:
            return names
    return None


def _addresses_reader(source: Source, t: Table, c: Column, values: tuple[Any, ...]
                      ) -> str | None:
    """Why a text column that may become a dimension is unsafe to show: one of its values reads
    as an instruction. Its values were read when it has few; else its distinct values are
    searched (an identifier with more than MAX_DIMENSION values is never shown, so not read)."""
    if values or (c.distinct or 0) > MAX_DIMENSION:
        return None
    spaces = exp.Sub(this=exp.Length(this=col(c.name)), expression=exp.Length(this=exp.func(
        "replace", col(c.name), exp.Literal.string(" "), exp.Literal.string(""))))
    found = exp.RegexpLike(this=col(c.name), expression=exp.Literal.string(
        "(?i)" + _INSTRUCTION.pattern))
    # four words or more first: codes and names (Clerk#000000001) leave no value to compare
    distinct = exp.select(col(c.name)).distinct().from_(table_ref(t.name)).where(
        exp.GTE(this=spaces, expression=exp.Literal.number(3))).subquery("v")
    select = exp.select(exp.Count(this=exp.Star())).from_(distinct).where(found)
    ((n,),) = source.rows(select.sql(source.dialect))
    return f"{n:,} value(s) address the reader like an instruction" if n else None


def _member_values(source: Source, t: Table, c: Column) -> tuple[Any, ...]:
    """The column's distinct values when it has at most MEMBER_LIST (for member lists, the
    free-text check and currencies)."""
    if c.values or not c.distinct or c.distinct > MEMBER_LIST:
        return c.values
    select = (exp.select(col(c.name)).distinct().from_(table_ref(t.name))
              .where(exp.Is(this=col(c.name), expression=exp.Null()).not_())
              .order_by(col(c.name)).limit(MEMBER_LIST + 1))
    return tuple(v for (v,) in source.rows(select.sql(source.dialect)))


# -- semantic model, measures and metrics of one table --------------------------------------------
@dataclass
class Built:
    """The pieces of one table's semantic model and its metrics."""

    dimensions: list[dict[str, Any]] = field(default_factory=list)
    measures: list[dict[str, Any]] = field(default_factory=list)
    metrics: list[dict[str, Any]] = field(default_factory=list)
    governance: dict[str, dict[str, Any]] = field(default_factory=dict)
    dim_governance: dict[str, dict[str, Any]] = field(default_factory=dict)
    labels: set[str] = field(default_factory=set)
    """Metric labels taken across the project (MetricFlow wants them unique)."""
    table: str = ""
    edges: list[dict[str, Any]] = field(default_factory=list)
    """Exact product edges (a sum is count × average, a flagged count is count × share)."""
    aliases: set[str] = field(default_factory=set)
    """Dimension aliases taken across the project."""
    why: str = ""
    """The inference the metrics being built rest on (a column's role and its reason)."""


def build_model(d: TableDraft, entity_of: dict[str, str], measures: Names, metrics: Names,
                dims: Names, out: Drafted) -> dict[str, Any] | None:
    """One dbt semantic model (or None when nothing in the table can be used)."""
    t, b = d.table, Built(labels=out.labels, table=d.table.name, aliases=out.aliases)
    time = d.default_time
    for td in d.times:
        reason = "; ".join(d.roles[c].reason for c in td.columns if c in d.roles)
        b.dimensions.append({"name": td.name, "type": "time", "expr": td.expr,
                             "type_params": {"time_granularity": td.grain},
                             "config": {"meta": {"showwork": {"draft": (
                                 f"time from {', '.join(td.columns)} at {td.grain} grain"
                                 + (f" ({reason})" if reason else ""))}}}})
    _categorical(d, b, dims)
    entities = _entities(d, entity_of, out)
    if time is not None:
        _measures(d, time, entity_of, b, measures, metrics)
        if dated := _dated_by(time):
            for m in b.metrics:
                m["description"] += f", by {dated} date"
    if not b.dimensions and not b.measures and len(entities) < 2:
        return None
    model: dict[str, Any] = {
        "name": snake(t.name),
        "description": _description(d),
        "model": f"ref('{t.name}')",
        "config": {"meta": {"showwork": {"draft": True}}}}
    if time is not None:
        model["defaults"] = {"agg_time_dimension": time.name}
    if (d.key is None or d.key.duplicates) and not d.composite:
        model["primary_entity"] = d.entity
    if entities:
        model["entities"] = entities
    if b.dimensions:
        model["dimensions"] = b.dimensions
    if b.measures:
        model["measures"] = b.measures
    out.metrics.extend(b.metrics)
    out.governance["metrics"].update(b.governance)
    out.governance["dimensions"].update(b.dim_governance)
    out.edges.extend(b.edges)
    return model


def _dated_by(time: TimeDim) -> str | None:
    """The event a metric's time dimension dates, when its column's name says one beside its
    time words (issue_month: issue; ordered_at: ordered): the metric's description says it, so
    "loans issued in March" reads its verb as the metric's own time, not as a state to filter."""
    if len(time.columns) != 1:
        return None
    said = [w for w in snake(time.columns[0]).split("_")
            if w and w not in _TIME_PARTS and f"_{w}" not in TIME_NAMES and w not in TIME_NAMES]
    return " ".join(said) or None


def _entities(d: TableDraft, entity_of: dict[str, str], out: Drafted) -> list[dict[str, Any]]:
    ents: list[dict[str, Any]] = []
    if d.key and not d.key.duplicates:
        ents.append({"name": d.entity, "type": "primary", "expr": expr_of(d.key.column)})
    elif d.composite:  # unique together: one text key made of them
        parts = [exp.Cast(this=col(c), to=exp.DataType.build("varchar")) for c in d.composite]
        ents.append({"name": d.entity, "type": "primary",
                     "expr": exp.func("concat_ws", exp.Literal.string("|"), *parts).sql("duckdb")})
    elif not d.links:
        near = f"; nearest: {' × '.join(d.nearest[0])}, unique but for {d.nearest[1]:,} " \
            f"duplicate row(s) — dedupe them, or add a column that tells them apart" \
            if d.nearest else " — add a key column"
        out.warnings.append(f"{d.table.name} has no key, no columns unique together and no "
                            f"link: MetricFlow offers its dimensions with no metric{near}")
    seen = {d.entity}
    for link in sorted(d.links, key=lambda x: -(d.table.column(x.column).distinct or 0)):
        entity = d.link_entity.get(link.column, entity_of[link.target])
        if entity in seen:
            out.warnings.append(f"{d.table.name}.{link.column} also points to {link.target}; "
                                "MetricFlow joins an entity once per semantic model, so it is a "
                                "dimension only")
            continue
        seen.add(entity)
        ents.append({"name": entity, "type": "foreign", "expr": expr_of(link.column)})
    return ents


def _categorical(d: TableDraft, b: Built, dims: Names) -> None:
    linked = {x.column for x in d.links}
    for c in d.table.columns:
        role = d.role(c.name)
        keep = role in ("code", "dimension", "currency", "flag") and c.kind in ("text", "bool")
        keep = keep or (role == "foreign key" and c.kind == "text" and c.name in linked
                        and (c.distinct or 0) <= MAX_DIMENSION)
        if not keep:
            continue
        link = next((x for x in d.links if x.column == c.name), None)
        names = d.joined.get(c.name) if link else None
        # the target's own key (carrier → airlines.carrier) is that thing's code: people who
        # say "carrier" mean the airline, whose readable name is the dimension they get
        own_key = names is not None and link is not None and snake(link.column) == snake(link.key)
        # a code named as an entity (store, campaign) is that entity's code
        wanted = f"{c.name}_code" if snake(c.name) in dims.taken or own_key else c.name
        name = dims.claim(wanted, d.entity)
        d.dimension_of[c.name] = f"{d.entity}__{name}"
        b.dimensions.append({"name": name, "type": "categorical", "expr": expr_of(c.name),
                             "config": {"meta": {"showwork": {"draft": (
                                 f"{c.name} read as {role} ({d.roles[c.name].reason})")}}}})
        gov: dict[str, Any] = {}
        spelled = words(c.name)
        synonyms = [spelled] if spelled != c.name.replace("_", " ") else []
        joins_as = d.link_entity.get(c.name, "")
        if link is not None and joins_as.startswith(snake(c.name) + "_"):  # origin airport
            synonyms.append(f"{spelled} {words(joins_as.removeprefix(snake(c.name) + '_'))}")
            if joins_as not in b.aliases:  # one dimension per alias: the first table's
                b.aliases.add(joins_as)
                gov["alias"] = joins_as
        values = d.values.get(c.name)
        # a long list of short codes is left to the warehouse's own member index: written as
        # a closed list, a code that is also a word (DAY, Dayton) would be read in "each day"
        codes = role in ("code", "foreign key") and len(values or ()) > FEW_VALUES
        if values and len(values) <= MEMBER_LIST and c.kind == "text" and not codes:
            gov["members"] = [str(v) for v in values]
            # a handful of codes people call by their place (EWR: newark, laguardia); a longer
            # list is read through its names dimension (dest_airport__name)
            if names is not None and not own_key and len(values) <= FEW_VALUES:
                said = name_synonyms({str(v): names.by_key[str(v)] for v in values
                                      if str(v) in names.by_key}, whole=False)
                if said:
                    gov["member_synonyms"] = said
        if c.name == d.name_column and d.names_for:  # airlines.name: airline, carrier
            synonyms += [words(d.entity), f"{words(d.entity)} name",
                         *(words(x) for x in d.names_for)]
            if values and len(values) <= MEMBER_LIST:
                said = name_synonyms({str(v): str(v) for v in values})
                if said:
                    gov["member_synonyms"] = said
        synonyms += commented(c)
        if d.default_time is None:  # a thing's attribute: plane manufacturer, aircraft …
            synonyms += [f"{w} {spelled}" for w in (words(d.entity), *SAID.get(d.entity, ()))]
        synonyms = list(dict.fromkeys(x for x in synonyms if x != name.replace("_", " ")))
        if synonyms:
            gov["synonyms"] = synonyms
        if gov:
            b.dim_governance[f"{d.entity}__{name}"] = gov


def _measures(d: TableDraft, time: TimeDim, entity_of: dict[str, str], b: Built,
              measures: Names, metrics: Names) -> None:
    t = d.table
    noun = _documented_rows(d)
    things = plural(noun) if noun else words(t.name)
    b.why = "" if d.observed is not None else f"a row read as one of the {things}" + (
        f" (its columns' documentation calls each a part of a {noun})" if noun else "")
    count = _count(d, b, measures, metrics, things)
    currency = next((c.name for c in t.columns if d.role(c.name) == "currency"), None)
    for c in t.columns:
        role = d.role(c.name)
        b.why = f"{c.name} read as {role} ({d.roles[c.name].reason})"
        if role == "foreign key" or role == "identifier" and c.kind == "text":
            _distinct(d, c, entity_of, b, measures, metrics)
        elif role in ("amount", "average", "delay"):
            _averaged(d, c, role, count, b, measures, metrics, things, currency)
        elif role == "flag":
            _flag(d, c, count, b, measures, metrics, things)
        elif role == "cancelled when missing":
            _never_happened(d, c, count, b, measures, metrics, things)
        elif role in ("snapshot", "median", "stock", "index"):
            _level(d, c, role, time, b, measures, metrics, things)
            if role in ("stock", "index"):
                _mean_level(d, c, role, b, measures, metrics)


def _metric(b: Built, name: str, label: str, description: str, type_: str,
            params: dict[str, Any], gov: dict[str, Any]) -> str:
    label = next(x for x in (label, f"{label} in {words(b.table)}",
                             *(f"{label} ({n})" for n in range(2, 99))) if x not in b.labels)
    b.labels.add(label)
    inference = f"{description}; {b.why}" if b.why else description
    b.metrics.append({"name": name, "label": label, "description": f"Draft: {description}",
                      "type": type_, "type_params": params,
                      "config": {"meta": {"showwork": {"draft": inference}}}})
    b.governance[name] = gov
    return name


def _documented_rows(d: TableDraft) -> str | None:
    """What a row of an events table is, when its columns' documentation says (a pizza)."""
    if d.observed is not None:
        return None
    described = {c.name: said for c in d.table.columns if (said := _said(c))}
    return row_noun(described, {c.name: words(c.name) for c in d.table.columns})


def _count(d: TableDraft, b: Built, measures: Names, metrics: Names, things: str) -> str:
    """The table's count: rows, or distinct keys when the key repeats."""
    m = measures.claim(f"{d.entity}_count")
    duplicated = d.key is not None and d.key.duplicates > 0
    b.measures.append({"name": m, "agg": "count_distinct" if duplicated else "count",
                       "expr": expr_of(d.key.column) if d.key else "1",
                       "description": (f"Distinct {d.key.column} of {d.table.name} (the key "
                                       "repeats on duplicate rows)." if duplicated and d.key
                                       else f"Rows of {d.table.name}.")})
    one = singular(things)
    time = d.default_time
    # rows counted by the day they were created are the new ones: new customers
    new = [f"new {things}", f"{things} who signed up", f"{one} signups"] if time and \
        _CREATED.search(time.name) else []
    if (d.observed is not None or _count_column(d)) and not duplicated:
        # one row per member per period: a row is an observation, not one of the things the
        # table is about, so its count says rows and takes none of their words
        held = (f"one per {' and '.join(words(x) for x in d.observed) or 'period'} per "
                f"{time.grain if time else ''}" if d.observed is not None else
                f"each standing for its {_count_column(d).name} {things}")  # type: ignore[union-attr]
        return _metric(b, metrics.claim(f"{d.entity}_rows"), f"rows of {things}",
                       f"rows of {d.table.name} ({held})",
                       "simple", {"measure": m}, {"synonyms": [f"{things} rows", "observations"],
                                                  "unit": "count"})
    # a row that is one unit sold at its price is a thing sold: "pizzas sold"
    sold = [f"{things} sold", f"number of {things} sold", "units sold"] if any(
        _takings(d, c, d.role(c.name)) for c in d.table.columns if c.name in d.roles) else []
    named = words(d.table.name)
    table = [f"number of {named}", f"{named} count", f"count of {named}"] \
        if named != things else []
    count = _metric(b, metrics.claim(m), things, f"number of {things}", "simple",
                    {"measure": m}, {"synonyms": [f"number of {things}", f"{one} count",
                                                  f"count of {things}", *new, *sold, *table],
                                     "unit": "count"})
    if not duplicated:
        return count
    # sums run over every row, so averages and shares divide by rows too (consistent, and
    # the duplicates are reported)
    rows = measures.claim(f"{d.entity}_rows")
    b.measures.append({"name": rows, "agg": "count", "expr": "1",
                       "description": f"Rows of {d.table.name}, duplicates included."})
    return _metric(b, metrics.claim(rows), f"{things} rows (duplicates included)",
                   f"rows of {d.table.name}", "simple", {"measure": rows}, {"unit": "count"})


def _distinct(d: TableDraft, c: Column, entity_of: dict[str, str], b: Built, measures: Names,
              metrics: Names) -> None:
    link = next((x for x in d.links if x.column == c.name), None)
    noun = f"{words(c.name)} values"
    thing = identified(_said(c)) if link is None else None
    if thing:  # 'The ID for the order': distinct ids are orders
        noun = plural(thing)
        said = [noun, f"number of {noun}", f"{thing} count", f"count of {noun}"]
        b.why += f"; documented as the id of the {thing}"
    if link is not None:
        own = snake(c.name) in (entity_of[link.target], snake(link.key),
                                f"{entity_of[link.target]}_id")
        noun = words(link.target) if own else f"{words(c.name)} {words(link.target)}"
    m = measures.claim(f"distinct_{snake(c.name)}")
    b.measures.append({"name": m, "agg": "count_distinct", "expr": expr_of(c.name),
                       "description": f"Distinct {c.name} of {d.table.name}."})
    _metric(b, metrics.claim(m), f"distinct {noun}",
            f"distinct {c.name} in {d.table.name}", "simple", {"measure": m},
            {"synonyms": [f"number of distinct {noun}", f"unique {noun}",
                          *(said if thing else [])], "unit": "count"})


def _averaged(d: TableDraft, c: Column, role: str, count: str, b: Built, measures: Names,
              metrics: Names, things: str, currency: str | None) -> None:
    """Sum and average (amounts), or the average alone (prices, rates, delays): a ratio metric
    sum / count of the rows that have a value, so it decomposes."""
    spelled = words(c.name)
    # occupancy_pct is asked for as "occupancy": the name without its unit word
    bare = " ".join(w for w in spelled.split() if w not in _UNIT_WORDS)
    bare = bare if bare != spelled else ""
    unit = unit_of(c, role, d, currency)
    mixed = currency and len(d.values.get(currency, ())) != 1 and _MONEY.search(snake(c.name))
    rollup = {"not_aggregable_over": [d.dimension_of[currency]]} if mixed and currency else {}
    weight = _weight_of(d, c, role)
    if weight is not None:
        _weighted(d, c, weight, b, measures, metrics, unit)
        return
    total = measures.claim(f"{snake(c.name)}_total" if role != "amount" else c.name, d.entity)
    b.measures.append({"name": total, "agg": "sum", "expr": expr_of(c.name),
                       "description": f"Sum of {d.table.name}.{c.name}{described(c)}."})
    label = f"total {spelled}" if role == "amount" else f"sum of {spelled} (for its average)"
    # a total named last (paid_total) is asked for with 'total' first; not when the rest names
    # the table's things (order_total: "total orders" asks how many orders)
    rest = " ".join(spelled.split()[:-1])
    totalled = [f"total {rest}"] if spelled.split()[-1:] == ["total"] and rest and singular(
        rest) not in (singular(things), singular(words(d.entity)), singular(words(d.table.name))) \
        else []
    said = [spelled, *totalled, *SAID.get(spelled, ()),
            *(x for x in commented(c) if not documented_average(x))] if role == "amount" else []
    if role == "amount" and _COUNTED.match(c.name.lower()):  # count: the number of the things
        said += [f"number of {things}", things, f"{singular(things)} count",
                 f"count of {things}"]
    if _takings(d, c, role):  # one price per row sold, one unit each: its sum is the money taken
        label, said = f"total {spelled}", [f"total {spelled}", *_TAKEN]
        b.why += f"; each row one unit sold at its {c.name}, so the sum is the money taken"
    numerator = _metric(b, metrics.claim(total), label, f"sum of {d.table.name}.{c.name}",
                        "simple", {"measure": total},
                        {**({"synonyms": said} if said else {}),
                         **({"unit": unit} if unit else {}), **rollup})
    denominator = count
    if c.non_null < d.table.rows:
        n = measures.claim(f"{snake(c.name)}_n")
        b.measures.append({"name": n, "agg": "count", "expr": expr_of(c.name),
                           "description": f"Rows of {d.table.name} with a {c.name}."})
        denominator = _metric(b, metrics.claim(n), f"{things} with a {spelled}",
                              f"rows of {d.table.name} with a {c.name}", "simple",
                              {"measure": n}, {"unit": "count"})
    avg = metrics.claim(f"avg_{snake(c.name)}")
    quantity = _quantity_words(spelled, d.quantity) if d.quantity else []
    _metric(b, avg, f"average {spelled}", f"average {c.name} over the {things} that have one "
            f"({numerator} / {denominator})", "ratio",
            {"numerator": numerator, "denominator": denominator},
            {"synonyms": [f"mean {spelled}", f"avg {spelled}",
                          f"average {singular(things)} {spelled}",
                          *([f"{singular(things)} {spelled}"] if role != "amount" else []),
                          *([bare, f"average {bare}"] if bare and role != "amount" else []),
                          *quantity, *(f"average {x}" for x in quantity),
                          *([spelled, *SAID.get(spelled, ())] if role != "amount" else []),
                          *_averaging(commented(c)),
                          # a rate's own documented name, bare ('unemployment rate'), as its
                          # column name is: averaging is what a rate over members means
                          *(commented(c) if role != "amount" else []),
                          *(x for q in _documented_quantity(c) for x in (
                              f"{singular(things)} {q}", f"average {singular(things)} {q}")),
                          *(x for n in _names(c) for x in ([f"{n} {d.quantity}",
                                                          f"average {n} {d.quantity}",
                                                          f"{d.quantity} of {n}"]
                                                         if d.quantity else []))],
             **({"unit": unit} if unit else {}), **rollup})
    # a sum is its count times its average: "more rows, or a higher average?"
    b.edges.append({"parent": numerator, "op": "multiply", "factors": [denominator, avg]})
    if role == "delay":
        _over(d, c, denominator, b, measures, metrics, things)


_PER_HEAD = re.compile(r"(^|_)(per_capita|percap|per_head|pc|per_person)($|_)")
_PEOPLE = re.compile(r"(^|_)(population|pop|headcount|residents|people|persons)($|_)")


def _weight_of(d: TableDraft, c: Column, role: str) -> Column | None:
    """The evident denominator of an averaged value: a per-head value's population in a panel
    (GDP per capita over countries is weighted by their populations), or the count a rate is
    a share of (denominators)."""
    if role != "average":
        return None
    if c.name in d.weights:
        return d.table.column(d.weights[c.name][0])
    if d.observed is None or not _PER_HEAD.search(snake(c.name)):
        return None
    return next((x for x in d.table.columns if x.name != c.name and d.roles.get(x.name)
                 and d.role(x.name) == "stock" and _PEOPLE.search(snake(x.name))), None)


WHOLE = 0.01
"""A rate times its count is a whole number within this (a rate stored to four decimals)."""
FITS, BY_CHANCE = 0.99, 0.5
"""A count is a rate's denominator when the product is whole in this share of rows, and in at
most BY_CHANCE of rows with another row's count (else every product is whole: counts in
hundreds, rates in hundredths)."""
DENOMINATOR_CHECKS = 12


def _rate_scale(c: Column, d: TableDraft) -> int | None:
    """1 for a fraction, 100 for a percentage (as unit_of reads them), else None."""
    unit = unit_of(c, "average", d, None)
    return 1 if unit == "fraction" else 100 if unit == "percent" else None


def denominators(source: Source, d: TableDraft) -> dict[str, tuple[str, str]]:
    """rate column → (the count column it is a share of, why): a whole-number count of the
    same table (an amount or a stock) whose product with the rate is a whole number in almost
    every row and not with another row's count (conversion_rate × visits = conversions), or
    one the rate's description names ('share of visits …'). Tried on a sample of a big table
    and confirmed once on the whole."""
    rates = [(c, scale) for c in d.table.columns if d.roles.get(c.name)
             and d.role(c.name) == "average" and (scale := _rate_scale(c, d))]
    counts = [w for w in d.table.columns if d.roles.get(w.name) and d.role(w.name) in (
        "amount", "stock") and w.integral and w.low is not None and float(w.low) >= 0
        and float(w.high) >= 2]
    out: dict[str, tuple[str, str]] = {}
    for c, _ in rates:  # a description naming the count ('percentage of visits converted')
        said = _said(c) or ""
        named = next((w for w in counts if re.search(
            rf"\b(of|per|among)\s+(the\s+|all\s+)?{re.escape(words(w.name))}\b", said, re.I)), None)
        if named is not None:
            out[c.name] = (named.name, f"its description says so ({head(said)!r})")
    pairs = [(c, scale, w) for c, scale in rates if c.name not in out for w in counts
             if w.name != c.name][:DENOMINATOR_CHECKS]
    if not pairs:
        return out
    sampled = d.table.rows > BIG_TABLE
    shares = _whole_products(source, d.table, pairs, sampled)
    for (c, scale, w), (fit, chance) in zip(pairs, shares, strict=True):
        if c.name in out or fit < FITS or chance > BY_CHANCE:
            continue
        if sampled:  # confirmed once on the whole table, whose figures are printed
            ((fit, chance),) = _whole_products(source, d.table, [(c, scale, w)], False)
            if fit < FITS or chance > BY_CHANCE:
                continue
        out[c.name] = (w.name, f"{c.name}{' / 100' if scale == 100 else ''} × {w.name} is a "
                               f"whole number in {fit:.0%} of rows, in {chance:.0%} with another "
                               f"row's {w.name}")
    return out


def _whole_products(source: Source, t: Table, pairs: list[tuple[Column, int, Column]],
                    sampled: bool) -> list[tuple[float, float]]:
    """Per (rate, scale, count): the share of rows where rate / scale × count is a whole
    number, and the share where it is with the count of the row before in the rate's order."""
    inner, select = exp.select(), exp.select()
    for i, (c, scale, w) in enumerate(pairs):
        before = exp.Window(this=exp.Lag(this=col(w.name)), order=exp.Order(expressions=[
            exp.Ordered(this=col(c.name))]))
        inner = inner.select(col(c.name).as_(f"r{i}", quoted=True),
                             col(w.name).as_(f"w{i}", quoted=True),
                             before.as_(f"o{i}", quoted=True))
        rate = exp.column(f"r{i}", quoted=True)
        for count in (exp.column(f"w{i}", quoted=True), exp.column(f"o{i}", quoted=True)):
            product = exp.Div(this=exp.Mul(this=rate.copy(), expression=count.copy()),
                              expression=exp.Literal.number(scale))
            gap = exp.Abs(this=exp.Sub(this=product.copy(), expression=exp.Round(
                this=product.copy())))
            whole = exp.If(this=exp.LTE(this=gap, expression=exp.Literal.number(WHOLE)),
                           true=exp.Literal.number(1.0), false=exp.Literal.number(0.0))
            counted = exp.and_(exp.GT(this=count.copy(), expression=exp.Literal.number(0)),
                               exp.Is(this=rate.copy(), expression=exp.Null()).not_())
            select = select.select(exp.Avg(this=exp.If(this=counted, true=whole)))
    table = sample(t) if sampled else table_ref(t.name)
    ((*values,),) = source.rows(select.from_(inner.from_(table).subquery("q")).sql(
        source.dialect))
    it = iter(float(v or 0.0) for v in values)
    return [(next(it), next(it)) for _ in pairs]


def _weighted(d: TableDraft, c: Column, w: Column, b: Built, measures: Names,
              metrics: Names, unit: str | None) -> None:
    """A per-head value averaged over members weighted by their population: sum(x × pop) /
    sum(pop), an exact ratio (the sum is the weight's total times the average)."""
    spelled, by = words(c.name), words(w.name)
    if c.name not in d.weights:  # a rate's role says what weighs it, and why
        b.why += f"; weighted by {w.name}: its denominator"
    product = exp.Mul(this=col(c.name), expression=col(w.name)).sql("duckdb")
    top = measures.claim(f"{snake(c.name)}_x_{snake(w.name)}")
    b.measures.append({"name": top, "agg": "sum", "expr": product,
                       "description": f"Sum of {c.name} × {w.name} over rows of {d.table.name}."})
    bottom = measures.claim(f"{snake(w.name)}_weight")
    b.measures.append({"name": bottom, "agg": "sum", "expr": expr_of(w.name),
                       "description": f"Sum of {w.name}, the weights of {c.name}."})
    numerator = _metric(b, metrics.claim(top), f"{spelled} × {by} (for its weighted average)",
                        f"sum of {c.name} × {w.name}", "simple", {"measure": top}, {})
    denominator = _metric(b, metrics.claim(bottom), f"{by} summed as a weight",
                          f"sum of {w.name} (over the periods asked)", "simple",
                          {"measure": bottom}, {})
    avg = metrics.claim(f"avg_{snake(c.name)}")
    _metric(b, avg, f"average {spelled} (weighted by {by})",
            f"{c.name} averaged over members weighted by {w.name} ({numerator} / "
            f"{denominator})", "ratio", {"numerator": numerator, "denominator": denominator},
            {"synonyms": [spelled, f"average {spelled}", f"mean {spelled}"],
             **({"unit": unit} if unit else {})})
    b.edges.append({"parent": numerator, "op": "multiply", "factors": [denominator, avg]})


_TAKEN = ("revenue", "takings", "total revenue", "sales revenue", "money taken")


def _count_column(d: TableDraft) -> Column | None:
    """A number column named only as a count (count, n, number): the table's rows are groups
    of its things, so that column — not the rows — is how many there are."""
    return next((c for c in d.table.columns if c.kind in ("integer", "number")
                 and _COUNTED.match(c.name.lower()) and d.roles.get(c.name)
                 and d.role(c.name) in ("amount", "stock")), None)


def _takings(d: TableDraft, c: Column, role: str) -> bool:
    """An events table's one price column, with no column of units sold: each row is one unit
    sold at that price, so the price's sum is the money taken (revenue)."""
    if role != "average" or d.observed is not None or not re.search(
            r"(^|_)(price|prices|unit_price)($|_)", snake(c.name)):
        return False
    prices = [x for x in d.table.columns if d.roles.get(x.name) and d.role(x.name) == "average"
              and re.search(r"(^|_)(price|prices)($|_)", snake(x.name))]
    units = [x for x in d.table.columns if _QUANTITY_COLUMN.search(snake(x.name))
             and x.kind in ("integer", "number")]
    return len(prices) == 1 and not units


def _quantity_words(spelled: str, quantity: str) -> list[str]:
    """How people name one column of a table of prices: 'oil brent' is the Brent oil price,
    the price of Brent oil, the oil brent price (word order and plurals as people say them)."""
    parts = spelled.split()
    names = {spelled, " ".join(reversed(parts)), " ".join(singular(w) for w in parts),
             " ".join(singular(w) for w in reversed(parts))}
    return sorted({x for n in names for x in (f"{n} {quantity}", f"{quantity} of {n}")})


def _over(d: TableDraft, c: Column, denominator: str, b: Built, measures: Names,
          metrics: Names, things: str) -> None:
    """The share of rows whose delay is over DELAYED_MINUTES."""
    spelled = words(c.name)
    case = exp.Case(ifs=[exp.If(this=exp.GT(this=col(c.name), expression=exp.Literal.number(
        DELAYED_MINUTES)), true=exp.Literal.number(1))], default=exp.Literal.number(0))
    m = measures.claim(f"{snake(c.name)}_over_{DELAYED_MINUTES}")
    b.measures.append({"name": m, "agg": "sum", "expr": case.sql("duckdb"),
                       "description": f"Rows of {d.table.name} with {c.name} over "
                                      f"{DELAYED_MINUTES}."})
    # late departures, delayed arrivals; the table's first delay is also "delayed flights"
    event = spelled.split()[0] if len(spelled.split()) > 1 else ""
    first = next(x.name for x in d.table.columns if d.roles[x.name].role == "delay") == c.name
    said = [f"{w} {event}s" for w in ("late", "delayed") if event]
    said += [f"delayed {things}", f"late {things}", f"{things} delayed"] if first else []
    over = _metric(b, metrics.claim(m), f"{things} with {spelled} over {DELAYED_MINUTES} minutes",
                   f"rows with {c.name} > {DELAYED_MINUTES}", "simple", {"measure": m},
                   {"synonyms": said, "unit": "count"})
    share = metrics.claim(f"{m}_share")
    _metric(b, share,
            f"share of {things} with {spelled} over {DELAYED_MINUTES} minutes",
            f"{over} / {denominator}", "ratio",
            {"numerator": over, "denominator": denominator},
            {"synonyms": [f"{spelled} over {DELAYED_MINUTES} minutes rate",
                          *(f"share of {x}" for x in said),
                          *(["delay rate", "delayed share"] if first else [])],
             "unit": "fraction"})
    b.edges.append({"parent": over, "op": "multiply", "factors": [denominator, share]})


def _flag(d: TableDraft, c: Column, count: str, b: Built, measures: Names, metrics: Names,
          things: str) -> None:
    spelled = words(c.name)
    said = re.sub(r"^(is|has|was|did) ", "", spelled)
    m = measures.claim(f"{snake(c.name)}_rows")
    agg = "sum_boolean" if c.kind == "bool" else "sum"
    expr = expr_of(c.name)
    if c.kind == "text":  # 'Y' / 'N': one for a yes
        yes = exp.In(this=exp.Lower(this=col(c.name)),
                     expressions=[exp.Literal.string(v) for v in sorted(_YES)])
        expr = exp.Case(ifs=[exp.If(this=yes, true=exp.Literal.number(1))],
                        default=exp.Literal.number(0)).sql("duckdb")
    b.measures.append({"name": m, "agg": agg, "expr": expr,
                       "description": f"Rows of {d.table.name} where {c.name} is true."})
    flagged = _metric(b, metrics.claim(m), f"{things} {said}",
                      f"rows of {d.table.name} where {c.name}", "simple", {"measure": m},
                      {"unit": "count"})
    share = _metric(b, metrics.claim(f"{snake(c.name)}_share"), f"share of {things} {said}",
                    f"{flagged} / {count}", "ratio", {"numerator": flagged, "denominator": count},
                    {"synonyms": [f"{said} rate", f"{said} share", f"share {said}",
                          *(f"share {x}" for x in commented(c))],
                     "unit": "fraction"})
    b.edges.append({"parent": flagged, "op": "multiply", "factors": [count, share]})


def _never_happened(d: TableDraft, c: Column, count: str, b: Built, measures: Names,
                    metrics: Names, things: str) -> None:
    """Rows whose first event has no time: cancelled, counted and as a share of all rows."""
    spelled = words(c.name)
    missing = exp.Case(ifs=[exp.If(this=exp.Is(this=col(c.name), expression=exp.Null()),
                                   true=exp.Literal.number(1))], default=exp.Literal.number(0))
    m = measures.claim(f"no_{snake(c.name)}")
    b.measures.append({"name": m, "agg": "sum", "expr": missing.sql("duckdb"),
                       "description": f"Rows of {d.table.name} with no {c.name} (the event "
                                      "never happened: cancelled)."})
    flagged = _metric(b, metrics.claim(f"cancelled_{snake(d.table.name)}"),
                      f"cancelled {things}", f"rows of {d.table.name} with no {c.name}",
                      "simple", {"measure": m},
                      {"synonyms": [f"{things} with no {spelled}", "cancellations", "cancelled",
                                    f"{things} cancelled", f"canceled {things}"],
                       "unit": "count"})
    share = _metric(b, metrics.claim("cancellation_rate"), f"share of {things} cancelled",
                    f"{flagged} / {count}", "ratio", {"numerator": flagged, "denominator": count},
                    {"synonyms": ["cancellation rate", "cancel rate", f"cancelled {things} share",
                                  f"share of {things} with no {spelled}"], "unit": "fraction"})
    b.edges.append({"parent": flagged, "op": "multiply", "factors": [count, share]})


NEVER_HAPPENED = (0.001, 0.5)
"""A first event missing in this share of rows (more than none, fewer than half) may mean the
row's event never happened."""


def first_event_missing(source: Source, d: TableDraft) -> tuple[Column, list[str]] | None:
    """The time column whose NULL means the row's event never happened: the one most often
    filled (the first event) of the nullable time and clock-time columns, missing in some rows,
    and wherever it is missing at least two other nullable numbers are missing too (a flight
    with no departure time has no delay, arrival or air time: it was cancelled). With the
    columns that are missing with it."""
    t = d.table
    times = [c for c in t.columns if d.roles.get(c.name) and d.role(c.name) in (
        "clock time", "time") and NEVER_HAPPENED[0] * t.rows < t.rows - c.non_null
        < NEVER_HAPPENED[1] * t.rows]
    others = [c for c in t.columns if c.kind in ("integer", "number", "time")
              and c.non_null < t.rows]
    for c in sorted(times, key=lambda x: -x.non_null):
        rest = [o for o in others if o.name != c.name]
        if len(rest) < 2:
            continue
        select = exp.select(*(exp.Count(this=col(o.name)) for o in rest)).from_(
            table_ref(t.name)).where(exp.Is(this=col(c.name), expression=exp.Null()))
        ((*filled,),) = source.rows(select.sql(source.dialect))
        with_it = [o.name for o, n in zip(rest, filled, strict=True) if int(n) == 0]
        if len(with_it) >= 2:
            return c, with_it
        return None  # the first event's gaps are not the row's: no rule
    return None


def _level(d: TableDraft, c: Column, role: str, time: TimeDim, b: Built, measures: Names,
           metrics: Names, things: str = "") -> None:
    """A level at the end of the period (non-additive over time); a median is also not rolled
    up across the table's finest dimension."""
    spelled = words(c.name)
    m = measures.claim(c.name, d.entity)
    b.measures.append({"name": m, "agg": "average" if role in ("median", "index") else "sum",
                       "expr": expr_of(c.name),
                       "description": f"{d.table.name}.{c.name} at the end of the period.",
                       "non_additive_dimension": {"name": time.name, "window_choice": "max"}})
    gov: dict[str, Any] = {"point_in_time": True}
    params: dict[str, Any] = {"measure": m}
    if c.name in d.repeated:  # the sum over the rows, over the members it repeats across
        params = _once_per_member(d, c, d.repeated[c.name], m, time, b, measures, metrics)
    if role == "stock":  # population, headcount; a bare count is the number of the table's things
        counted = [f"number of {things}", things, f"{singular(things)} count",
                   f"count of {things}"] if _COUNTED.match(c.name.lower()) and things else []
        said = [spelled, *counted, *SAID.get(spelled, ()), *commented(c)]
        gov["synonyms"] = list(dict.fromkeys(x for x in said if x and x != snake(c.name)))
        gov["unit"] = "count" if c.integral else None
        gov = {k: v for k, v in gov.items() if v is not None}
    if role == "median":
        grain = _finest_dimension(d)
        if grain:
            gov["not_aggregable_over"] = [grain]
    if role == "index":
        gov["synonyms"] = [x for x in (spelled, *commented(c)) if x != snake(c.name)]
    _metric(b, metrics.claim(m), spelled if role in ("median", "stock", "index") else
            f"{spelled} (end of period)",
            f"{c.name} at the end of the period" + (
                "; a median per row is never rolled up" if role == "median" else "") + (
                f", once per {words(d.repeated[c.name])}" if c.name in d.repeated else ""),
            "ratio" if "numerator" in params else "simple", params, gov)


def _once_per_member(d: TableDraft, c: Column, across: str, summed: str, time: TimeDim,
                     b: Built, measures: Names, metrics: Names) -> dict[str, Any]:
    """A ratio's parameters: the column's sum at the period's end over the number of members
    of `across` that carry it then (a state's population, on each of five diseases' rows, is
    its sum over five)."""
    n = measures.claim(f"{snake(c.name)}_{snake(across)}s", d.entity)
    b.measures.append({
        "name": n, "agg": "count_distinct",
        "expr": exp.Case(ifs=[exp.If(this=exp.Not(this=exp.Is(
            this=exp.column(c.name, quoted=expr_of(c.name) != c.name),
            expression=exp.Null())), true=exp.column(across, quoted=expr_of(across) != across))
        ]).sql("duckdb"),
        "description": f"{words(across)} members with a {c.name} at the end of the period.",
        "non_additive_dimension": {"name": time.name, "window_choice": "max"}})
    numerator = _metric(b, metrics.claim(f"{snake(c.name)}_rows_sum"),
                        f"sum of {words(c.name)} over its rows",
                        f"sum of {d.table.name}.{c.name} at the end of the period, once per "
                        f"row: never its value by itself", "simple", {"measure": summed}, {})
    denominator = _metric(b, metrics.claim(n), f"{words(across)} members with a {words(c.name)}",
                          f"{words(across)} members with a {c.name}", "simple", {"measure": n},
                          {"unit": "count"})
    return {"numerator": numerator, "denominator": denominator}


def _mean_level(d: TableDraft, c: Column, role: str, b: Built, measures: Names,
                metrics: Names) -> None:
    """A level's mean over the rows of a window (the average CPI of 2013: the mean of its
    months; the average population of 1990: the mean over the states), beside its value at
    the window's end: sum / rows that have one, so it never adds levels up."""
    spelled = words(c.name)
    why = b.why
    b.why += "; its mean over the window's rows (sum / rows with a value), beside its last period"
    total = measures.claim(f"{snake(c.name)}_total", d.entity)
    n = measures.claim(f"{snake(c.name)}_n", d.entity)
    b.measures += [{"name": total, "agg": "sum", "expr": expr_of(c.name),
                    "description": f"Sum of {d.table.name}.{c.name} (for its mean)."},
                   {"name": n, "agg": "count", "expr": expr_of(c.name),
                    "description": f"Rows of {d.table.name} with a {c.name}."}]
    numerator = _metric(b, metrics.claim(total), f"sum of {spelled} (for its mean)",
                        f"sum of {d.table.name}.{c.name}, never a {role}'s value by itself",
                        "simple", {"measure": total}, {})
    denominator = _metric(b, metrics.claim(n), f"rows with a {spelled}",
                          f"rows of {d.table.name} with a {c.name}", "simple", {"measure": n},
                          {"unit": "count"})
    named = [x for x in (spelled, *commented(c)) if x]
    _metric(b, metrics.claim(f"avg_{snake(c.name)}"), f"average {spelled}",
            f"mean {c.name} over the rows of the window ({numerator} / {denominator})", "ratio",
            {"numerator": numerator, "denominator": denominator},
            {"synonyms": list(dict.fromkeys(x for n in named for x in (f"average {n}",
                                                                       f"mean {n}")))})
    b.why = why


def _finest_dimension(d: TableDraft) -> str | None:
    """The categorical dimension with the most values (a median per city: city)."""
    cats = [c for c in d.table.columns if d.role(c.name) in ("code", "dimension")]
    if not cats:
        return None
    finest = max(cats, key=lambda c: c.distinct or 0)
    return d.dimension_of.get(finest.name)


def unit_of(c: Column, role: str, d: TableDraft, currency: str | None) -> str | None:
    """A unit from the name and the values: usd, cents, percent, fraction, minutes."""
    name = snake(c.name)
    if "cents" in name.split("_"):
        return "cents"
    for code in ("usd", "eur", "gbp"):
        if code in name.split("_"):
            return code
    if currency and len(d.values.get(currency, ())) == 1:
        return str(d.values[currency][0]).lower()
    if re.search(r"(^|_)(pct|percent)($|_)", name):
        return "percent"
    said = snake(head(_said(c) or ""))  # 'Percentage of the population that is Black'
    if role == "average" and (_RATE.search(name) or _RATE.search(said)
                              or re.search(r"(^|_)(percent|pct)($|_)", said)) \
            and c.low is not None and float(c.low) >= 0 and 1 < float(c.high) <= 100:
        return "percent"  # occupancy 65 of 100: a rate written on a 0-100 scale
    if c.low is not None and not c.integral and float(c.low) >= 0 and float(c.high) <= 1:
        return "fraction"
    if role == "delay" or re.search(r"(^|_)(minutes|mins|min)($|_)", name):
        return "minutes"
    return None


def _description(d: TableDraft) -> str:
    rows = f"{d.table.rows:,} row{'' if d.table.rows == 1 else 's'}"
    text = (f"Draft by showwork init from table {d.table.name} ({rows}); review the keys, "
            "dimensions and measures before trusting answers.")
    left = [c for c, r in d.roles.items() if r.role == "free text"]
    if left:
        text += " Free text, left out: " + ", ".join(left) + "."
    return text


# -- the whole warehouse --------------------------------------------------------------------------
def draft(source: Source, tables: list[Table], keys: Keys,
          coverage: Callable[[TableDraft, TimeDim], tuple[Any, Any]]) -> Drafted:
    """Roles, semantic models, metrics and governance for every usable table."""
    out = Drafted(warnings=list(keys.warnings))
    entities = Names()
    entity_of = {t.name: entities.claim(singular(snake(t.name))) for t in tables}
    drafts = [TableDraft(t, entity_of[t.name], keys.primary.get(t.name),
                         keys.links.get(t.name, []), composite=keys.composite.get(t.name, ()),
                         nearest=keys.nearest.get(t.name), numbering=keys.numbered.get(t.name))
              for t in tables]
    measures, metrics = Names(), Names(set(entity_of.values()))
    dims_of = {}
    for d in drafts:
        dims_of[d.table.name] = Names(set(entity_of.values()))
        read_roles(source, d, entity_of, dims_of[d.table.name])
        out.roles.extend(d.roles[c.name] for c in d.table.columns)
    roles = role_entities(drafts, entity_of, entities)
    named = {d.table.name: n for d in drafts if (n := joined_names(source, d))}
    by_table = {d.table.name: d for d in drafts}
    for d in drafts:
        d.link_entity = {link.column: roles.get((d.table.name, link.column),
                                                entity_of[link.target]) for link in d.links}
        d.joined = {link.column: named[link.target] for link in d.links
                    if link.target in named and d.table.column(link.column).kind == "text"}
        d.names_for = [link.column for t in drafts for link in t.links
                       if link.target == d.table.name and link.column == link.key]
        d.name_column = named[d.table.name].column if d.table.name in named else None
        model = build_model(d, entity_of, measures, metrics, dims_of[d.table.name], out)
        if model is None:
            out.warnings.append(_unmodelled(d))
            continue
        out.models.append(model)
        time = d.default_time
        if time is not None and model.get("measures"):
            start, end = coverage(d, time)
            if start is not None:
                out.governance["coverage"][model["name"]] = {"from": start, "through": end}
    for (table, column), role in sorted(roles.items(), key=lambda x: x[1]):
        _role_model(out, by_table, next(x.target for x in by_table[table].links
                                        if x.column == column), role, column)
    return out


def _unmodelled(d: TableDraft) -> str:
    """Why a table got no semantic model, and the one-line fix."""
    return (f"{d.table.name}: no model drafted — it has no time, no dimension and no column "
            "holding another table's key, so nothing in it can be asked; name a column for the "
            "key it holds (customer_id → customers.id) or declare its key in the model file")


def role_entities(drafts: list[TableDraft], entity_of: dict[str, str], entities: Names
                  ) -> dict[tuple[str, str], str]:
    """(table, link column) → a role entity, for a table pointed to under two or more names
    (a flight's origin and destination are both airports): origin_airport, dest_airport. A
    link named as the target's key (carrier → airlines.carrier) keeps the plain entity."""
    names: dict[str, set[str]] = {}
    for d in drafts:
        for link in d.links:  # c_nationkey and s_nationkey are one name, prefixes stripped
            if stem(snake(link.column)) != stem(snake(link.key)):
                names.setdefault(link.target, set()).add(stem(snake(link.column)))
    out = {}
    claimed: dict[str, str] = {}
    for d in drafts:
        for link in d.links:
            column = snake(link.column)
            if len(names.get(link.target, ())) < 2 or stem(column) not in names[link.target]:
                continue
            role = f"{column}_{entity_of[link.target]}"
            if role not in claimed:
                claimed[role] = entities.claim(role)
            out[(d.table.name, link.column)] = claimed[role]
    return out


def _role_model(out: Drafted, by_table: dict[str, TableDraft], target: str, role: str,
                column: str) -> None:
    """The target's semantic model once more, under the role entity (origin_airports), so a
    flight's origin and destination each have their names: origin_airport__name."""
    base = next((m for m in out.models if m["name"] == snake(target)), None)
    if base is None or any(m["name"] == f"{role}s" for m in out.models):
        return
    entity = by_table[target].entity
    model = {**base, "name": f"{role}s", "description": f"{base['description']} In the role "
             f"of {words(column)}: {role}.",
             "entities": [{**e, "name": role} if e["type"] == "primary" else e
                          for e in base.get("entities", [])]}
    model.pop("measures", None)
    if "primary_entity" in model:
        model["primary_entity"] = role
    out.models.append(model)
    for dim in base.get("dimensions", []):
        gov = dict(out.governance["dimensions"].get(f"{entity}__{dim['name']}") or {})
        gov.pop("member_synonyms", None)
        gov["synonyms"] = [f"{words(column)} {words(entity)} {words(dim['name'])}"]
        out.governance["dimensions"][f"{role}__{dim['name']}"] = gov


@dataclass(frozen=True)
class Names_:
    """A table's readable name column: key value → name (airports.faa → airports.name)."""

    column: str
    by_key: dict[str, str]


GENERIC = {"intl", "international", "airport", "airports", "regional", "county", "municipal",
           "the", "air", "airlines", "airways", "new", "north", "south", "east", "west", "city",
           "saint", "fort", "port", "lake", "santa", "inc", "corp", "company", "group", "store",
           "shop", "general", "united states"}
"""Words too common to stand for one member alone."""
NAMES_READ = 5_000
"""A name column is read (key → name) for tables with at most this many rows."""


def joined_names(source: Source, d: TableDraft) -> Names_ | None:
    """The table's readable name: a text dimension, unique (or nearly) per key, named `name`
    or *_name (else the first such column), read key → name when the table is small."""
    if d.key is None or d.key.duplicates or not d.table.rows or d.table.rows > NAMES_READ:
        return None
    found = [c for c in d.table.columns if c.kind == "text" and c.name != d.key.column
             and d.roles.get(c.name) and d.role(c.name) in ("dimension", "code")
             and (c.distinct or 0) >= 0.9 * d.table.rows]
    if not found:
        return None
    found.sort(key=lambda c: (not (snake(c.name) == "name" or snake(c.name).endswith("_name")),))
    name = found[0]
    select = exp.select(col(d.key.column), col(name.name)).from_(table_ref(d.table.name)).where(
        exp.Is(this=col(name.name), expression=exp.Null()).not_())
    rows = source.rows(select.sql(source.dialect))
    return Names_(name.name, {str(k): str(v) for k, v in rows})


def name_synonyms(names: dict[str, str], whole: bool = True) -> dict[str, str]:
    """Words people say for members, from their names: the name (unless `whole` is False: a
    names dimension has it already), the name run together (La Guardia: laguardia), and its
    first word when no other member's name starts with it (United Air Lines Inc.: united;
    Newark Liberty Intl: newark)."""
    first: dict[str, list[str]] = {}
    for member, name in names.items():
        word = re.split(r"[\s/,-]+", name.strip())[0].lower()
        first.setdefault(word, []).append(member)
    out = {}
    for member, name in names.items():
        spelled = " ".join(name.lower().split())
        if whole and spelled and spelled != member.lower():
            out[spelled] = member
        joined = spelled.replace(" ", "")
        if joined != spelled and len(joined) >= 4:
            out.setdefault(joined, member)
        word = re.split(r"[\s/,-]+", spelled)[0]
        if (len(first.get(word, ())) == 1 and len(word) >= 4 and word.isalpha()
                and word not in GENERIC and word != member.lower()):
            out.setdefault(word, member)
    return out
