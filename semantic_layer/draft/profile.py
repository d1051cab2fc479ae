"""What `showwork init` reads from a warehouse before it drafts: each table's row count and each
column's type, distinct and non-null counts, range and text shape, and the keys that join them.

Big tables are profiled with the engine's approximate distinct count and their text columns on
a sample; a column that looks unique approximately is counted exactly before it becomes a key.
Every query is a sqlglot expression written in the source's dialect.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sqlglot import exp

BIG_TABLE = 200_000
"""Rows above which distinct counts are approximate and text is read on a sample."""
TEXT_SAMPLE = 20_000
"""Rows of a big table whose text columns are read for length, words and dates."""
FEW_VALUES = 12
"""A column with at most this many distinct values has them read (flags, currencies)."""
FK_MATCH = 0.8
"""A foreign key: at least this share of a column's values are the target's keys (orphans
happen: deleted customers keep their orders, planes missing from a registry)."""
CLOCK_NAMES = re.compile(r"(^|_)(time|clock)($|_)")
PERIODS = {
    "year_quarter": (r"^\s*(\d{4})\s*[-/ ]?\s*[Qq]([1-4])\s*$", "quarter"),
    "quarter_year": (r"^\s*[Qq]([1-4])\s*[-/ ]?\s*(\d{4})\s*$", "quarter"),
    "year_month": (r"^\s*(\d{4})\s*(?:[Mm]|-|/)\s*(0?[1-9]|1[0-2])\s*$", "month"),
    "month_year": (r"^\s*(?i:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\.?"
                   r"[-/ ]\s*(\d{4})\s*$", "month"),
}
"""Periods as people write them in text, and their grain: '1998 Q1', '2016-Q3', 'Q3 2016',
'Q42010', '2016M03', '2016-03', 'Mar-2016', 'March 2016'."""
PERIOD_LENGTH = 24
"""Characters at most in a period as PERIODS reads it ('September 2016' is 14, with room for
spaces around it); longer text is never matched against them, which halves a wide table's scan."""
PERIOD_SHARE = 0.95
"""A text column is a period when at least this share of its values is written one such way."""
_MONTHS = "janfebmaraprmayjunjulaugsepoctnovdec"


class Source(Protocol):
    """A warehouse to draft from: its catalog, and SQL over it."""

    @property
    def dialect(self) -> str: ...

    def tables(self) -> dict[str, list[tuple[str, str]]]: ...

    def rows(self, sql: str) -> list[tuple[Any, ...]]: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    kind: str
    """time, integer, number, text, bool or other."""
    distinct: int | None
    """Distinct non-null values (None: not counted)."""
    non_null: int
    low: Any = None
    """The smallest value (numbers and times)."""
    high: Any = None
    mean_length: float | None = None
    """Text: the mean length of a value."""
    wordy: float = 0.0
    """Text: the share of values with five words or more."""
    dates: float = 0.0
    """Text: the share of values that read as a timestamp."""
    integral: bool = False
    """Numbers: every value is a whole number."""
    clock: bool = False
    """Numbers named *time*: every value reads as HHMM (minutes below 60, up to 2359)."""
    values: tuple[Any, ...] = ()
    """Text: the distinct values, when there are at most FEW_VALUES."""
    exact: bool = True
    """False when `distinct` is the engine's approximation."""
    comment: str | None = None
    """The warehouse's comment on the column (COMMENT ON COLUMN), when it has one."""
    names: tuple[str, ...] = ()
    """The names its comment gives it, no other column's (draft.docs.doc_names)."""
    period: str | None = None
    """Text: the way of writing a period that almost every value follows (a PERIODS key:
    '1998 Q1' is year_quarter), or None."""
    spacing: str | None = None
    """Times: the coarsest grain every value starts (all first days of a quarter: quarter)."""


@dataclass(frozen=True)
class Table:
    name: str
    rows: int
    columns: tuple[Column, ...]

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


def kind_of(sql_type: str) -> str:
    """The draft's reading of a warehouse type.

    >>> [kind_of(t) for t in ("DECIMAL(10,2)", "BIGINT", "TIMESTAMP WITH TIME ZONE", "varchar")]
    ['number', 'integer', 'time', 'text']
    """
    t = sql_type.upper()
    if t == "DATE" or t.startswith("TIMESTAMP"):
        return "time"
    if re.match(r"(U?(BIG|SMALL|TINY|HUGE)?INT(EGER)?|LONG|SHORT|BYTE)\b", t):
        return "integer"
    if re.match(r"(DECIMAL|NUMERIC|DOUBLE|FLOAT|REAL)", t):
        return "number"
    if re.match(r"(VARCHAR|STRING|TEXT|CHAR)", t):
        return "text"
    return "bool" if t.startswith("BOOL") else "other"


def table_ref(name: str, alias: str | None = None) -> exp.Table:
    return exp.table_(name, quoted=True, alias=alias)


def col(name: str, table: str | None = None) -> exp.Column:
    return exp.column(name, table, quoted=True)


# -- profiling ----------------------------------------------------------------------------------
def profile(source: Source, name: str, columns: list[tuple[str, str]]) -> Table:
    """The table's row count and every column's counts, range and text shape."""
    kinds = [(c, t, kind_of(t)) for c, t in columns]
    rows, counted = _counts(source, name, kinds)
    text = _text_shape(source, name, [c for c, _, k in kinds if k == "text"], rows)
    numbers = _number_shape(source, name, [c for c, _, k in kinds if k in ("integer", "number")],
                            rows)
    dated = {c for c, shape in text.items() if shape["dates"] >= 0.95}  # text timestamps
    spacing = _time_spacing(source, name, [c for c, _, k in kinds if k == "time" or c in dated],
                            dated, rows)
    out = []
    for column, sql_type, kind in kinds:
        distinct, non_null, low, high = counted[column]
        c = Column(column, sql_type, kind, distinct, non_null, low, high,
                   exact=rows <= BIG_TABLE, **text.get(column, {}), **numbers.get(column, {}),
                   **spacing.get(column, {}))
        out.append(c)
    table = Table(name, rows, tuple(out))
    # only text is read by its values (flags written Y/N, currencies, member lists)
    few = [c.name for c in table.columns if c.kind == "text" and c.distinct is not None
           and 0 < c.distinct <= FEW_VALUES]
    return _with_values(source, table, few)


def _counts(source: Source, name: str, kinds: list[tuple[str, str, str]]
            ) -> tuple[int, dict[str, tuple[int | None, int, Any, Any]]]:
    """Rows, and per column (distinct, non-null, min, max), in one query."""
    ((rows,),) = source.rows(exp.select(exp.Count(this=exp.Star())).from_(table_ref(name))
                             .sql(source.dialect))
    big = int(rows) > BIG_TABLE
    select = exp.select(exp.Count(this=exp.Star()))
    shape = []
    for column, _, kind in kinds:
        ref = col(column)
        select = select.select(exp.Count(this=ref))
        counted = kind in ("integer", "text", "bool", "number", "time")
        if counted:
            select = select.select(exp.ApproxDistinct(this=ref.copy()) if big else
                                   exp.Count(this=exp.Distinct(expressions=[ref.copy()])))
        ranged = kind in ("integer", "number", "time")
        if ranged:
            select = select.select(exp.Min(this=ref.copy()), exp.Max(this=ref.copy()))
        shape.append((column, counted, ranged))
    ((_, *values),) = source.rows(select.from_(table_ref(name)).sql(source.dialect))
    it = iter(values)
    out: dict[str, tuple[int | None, int, Any, Any]] = {}
    for column, counted, ranged in shape:
        non_null = int(next(it))
        distinct = int(next(it)) if counted else None
        low, high = (next(it), next(it)) if ranged else (None, None)
        out[column] = (min(distinct, non_null) if distinct is not None else None, non_null,
                       low, high)
    return int(rows), out


def sample(t: Table) -> exp.Expression:
    """The table, or its first TEXT_SAMPLE rows when it is big (as a subquery)."""
    return _sample(t.name, t.rows)


def _sample(name: str, rows: int) -> exp.Expression:
    """The table, or its first TEXT_SAMPLE rows when it is big."""
    select = exp.select("*").from_(table_ref(name))
    return (select.limit(TEXT_SAMPLE) if rows > BIG_TABLE else select).subquery("s")


def _text_shape(source: Source, name: str, columns: list[str], rows: int
                ) -> dict[str, dict[str, Any]]:
    """Per text column: mean length, the share of wordy values and of timestamp-like ones."""
    if not columns:
        return {}
    # each row's pieces once (a projection), so a value that is no period is tried against one
    # regex of them all, not each: a quarter of the regex work on a table of names
    inner, select = exp.select(), exp.select()
    any_period = "|".join(f"(?:{pattern})" for pattern, _ in PERIODS.values())
    for i, c in enumerate(columns):
        ref = col(c)
        inner = inner.select(
            ref.copy().as_(f"v{i}", quoted=True),
            exp.Length(this=ref.copy()).as_(f"n{i}", quoted=True),
            exp.Length(this=exp.func("replace", ref.copy(), exp.Literal.string(" "),
                                     exp.Literal.string(""))).as_(f"b{i}", quoted=True),
            # a value like '2019' or '42' casts to nothing useful; dates need a separator
            exp.RegexpLike(this=ref.copy(), expression=exp.Literal.string(
                r"^\d{4}-\d{1,2}-\d{1,2}")).as_(f"d{i}", quoted=True),
            exp.and_(exp.LTE(this=exp.Length(this=ref.copy()), expression=exp.Literal.number(
                PERIOD_LENGTH)), exp.RegexpLike(this=ref.copy(), expression=exp.Literal.string(
                    any_period))).as_(f"p{i}", quoted=True))  # a long value: a name, an address
        value, length = exp.column(f"v{i}", quoted=True), exp.column(f"n{i}", quoted=True)
        spaces = exp.Sub(this=length.copy(), expression=exp.column(f"b{i}", quoted=True))
        wordy = exp.If(this=exp.GTE(this=spaces, expression=exp.Literal.number(4)),
                       true=exp.Literal.number(1.0), false=exp.Literal.number(0.0))
        dated = exp.If(this=exp.Is(this=exp.TryCast(this=value.copy(), to=exp.DataType.build(
            "timestamp")), expression=exp.Null()).not_(), true=exp.Literal.number(1.0),
            false=exp.Literal.number(0.0))
        dated = exp.If(this=exp.column(f"d{i}", quoted=True), true=dated,
                       false=exp.Literal.number(0.0))
        select = select.select(exp.Avg(this=length), exp.Avg(this=wordy), exp.Avg(this=dated))
        for pattern, _ in PERIODS.values():
            matched = exp.If(this=exp.and_(exp.column(f"p{i}", quoted=True), exp.RegexpLike(
                this=value.copy(), expression=exp.Literal.string(pattern))),
                true=exp.Literal.number(1.0), false=exp.Literal.number(0.0))
            select = select.select(exp.Avg(this=matched))
    select = select.from_(inner.from_(_sample(name, rows)).subquery("r"))
    ((*values,),) = source.rows(select.sql(source.dialect))
    it = iter(values)
    out = {}
    for c in columns:
        mean, wordy_share, dated_share = next(it), next(it), next(it)
        shares = {kind: float(next(it) or 0.0) for kind in PERIODS}
        period = next((k for k, v in shares.items() if v >= PERIOD_SHARE), None)
        out[c] = {"mean_length": float(mean) if mean is not None else None,
                  "wordy": float(wordy_share or 0.0), "dates": float(dated_share or 0.0),
                  "period": period}
    return out


def period_expr(column: str, kind: str) -> exp.Expr:
    """The first day of the period a text value names, as SQL ('Q3 2016' → 2016-07-01)."""
    pattern = PERIODS[kind][0]

    def part(group: int) -> exp.Expr:
        return exp.RegexpExtract(this=col(column), expression=exp.Literal.string(pattern),
                                 group=exp.Literal.number(group))

    def number(group: int) -> exp.Expr:
        return exp.Cast(this=part(group), to=exp.DataType.build("int"))

    if kind in ("year_quarter", "quarter_year"):
        year, quarter = (number(1), number(2)) if kind == "year_quarter" else (number(2),
                                                                               number(1))
        month: exp.Expr = exp.Sub(this=exp.Mul(this=quarter, expression=exp.Literal.number(
            3)), expression=exp.Literal.number(2))
    elif kind == "year_month":
        year, month = number(1), number(2)
    else:  # Mar-2016: the month's place in jan…dec
        year = number(2)
        where = exp.func("strpos", exp.Literal.string(_MONTHS), exp.Lower(this=part(1)))
        month = exp.IntDiv(this=exp.Paren(this=exp.Add(this=where, expression=exp.Literal.number(
            2))), expression=exp.Literal.number(3))
    return exp.func("make_date", year, month, exp.Literal.number(1))


def _time_spacing(source: Source, name: str, columns: list[str], text: set[str] | None = None,
                  rows: int = 0) -> dict[str, dict[str, Any]]:
    """Per DATE/TIMESTAMP column (or text column of timestamps, named in `text`): the coarsest
    grain whose period starts hold every value (a quarterly series dated on quarters' first
    days: quarter), when it has two values or more. On a big table a sample is read first: a
    column with a value there that starts no month (or has a time of day) starts no period."""
    if not columns:
        return {}
    out: dict[str, dict[str, Any]] = {}
    if rows > BIG_TABLE:
        sampled = _spacing_parts(source, columns, text or set(), _sample(name, rows))
        out = {c: {"spacing": None} for c, (_, day, _, _, timed) in sampled.items()
               if timed or (day is not None and int(day) != 1)}
        columns = [c for c in columns if c not in out]
    for c, (distinct, day, quarter_month, month, timed) in _spacing_parts(
            source, columns, text or set(), table_ref(name)).items():
        spacing = None
        if distinct and not timed and day is not None:
            spacing = ("year" if int(month) == 1 else "quarter" if int(quarter_month) == 0
                       else "month") if int(day) == 1 else None
        out[c] = {"spacing": spacing}
    return out


def _spacing_parts(source: Source, columns: list[str], text: set[str], table: exp.Expression
                   ) -> dict[str, tuple[Any, ...]]:
    """Per column, over `table`: (two values or more, the latest day of a month, the latest
    month's place in its quarter, the latest month, values with a time of day)."""
    if not columns:
        return {}
    select = exp.select()
    for c in columns:
        value: exp.Expr = exp.TryCast(this=col(c), to=exp.DataType.build("timestamp")) \
            if c in text else col(c)
        day = exp.Cast(this=value.copy(), to=exp.DataType.build("date"))
        select = select.select(
            exp.Min(this=day.copy()).neq(exp.Max(this=day.copy())),  # two values or more
            exp.Max(this=exp.Extract(this=exp.var("day"), expression=day.copy())),
            exp.Max(this=exp.Mod(this=exp.Paren(this=exp.Sub(this=exp.Extract(
                this=exp.var("month"), expression=day.copy()), expression=exp.Literal.number(
                    1))), expression=exp.Literal.number(3))),
            exp.Max(this=exp.Extract(this=exp.var("month"), expression=day.copy())),
            exp.Count(this=exp.Nullif(this=exp.Cast(
                this=value.copy(), to=exp.DataType.build("timestamp")), expression=exp.Cast(
                    this=day.copy(), to=exp.DataType.build("timestamp")))))
    ((*values,),) = source.rows(select.from_(table).sql(source.dialect))
    it = iter(values)
    return {c: tuple(next(it) for _ in range(5)) for c in columns}


def _number_shape(source: Source, name: str, columns: list[str], rows: int
                  ) -> dict[str, dict[str, Any]]:
    """Per numeric column: whether every value is whole, and (for *time* names) HHMM-like (on
    a sample of a big table)."""
    if not columns:
        return {}
    select = exp.select()
    for c in columns:
        ref = col(c)
        fraction = exp.Sub(this=ref.copy(), expression=exp.Floor(this=ref.copy()))
        select = select.select(exp.Max(this=exp.Abs(this=fraction)))
        minutes = exp.Mod(this=exp.Floor(this=ref.copy()), expression=exp.Literal.number(100))
        select = select.select(exp.Max(this=minutes))
    ((*values,),) = source.rows(select.from_(_sample(name, rows)).sql(source.dialect))
    it = iter(values)
    out = {}
    for c in columns:
        fraction, minutes = next(it), next(it)
        out[c] = {"integral": fraction is not None and float(fraction) == 0.0,
                  "clock": CLOCK_NAMES.search(c.lower()) is not None and minutes is not None
                  and float(minutes) < 60}
    return out


def _with_values(source: Source, table: Table, columns: list[str]) -> Table:
    """The table with the distinct values of its few-valued columns read."""
    if not columns:
        return table
    found: dict[str, tuple[Any, ...]] = {}
    for c in columns:
        select = (exp.select(col(c)).distinct().from_(table_ref(table.name))
                  .where(exp.Is(this=col(c), expression=exp.Null()).not_())
                  .order_by(col(c)).limit(FEW_VALUES + 1))
        found[c] = tuple(v for (v,) in source.rows(select.sql(source.dialect)))
    return replace(table, columns=tuple(replace(c, values=found.get(c.name, ()))
                                        for c in table.columns))


def exact_distinct(source: Source, table: Table, column: str) -> int:
    """The exact distinct count (a key candidate of a big table)."""
    select = exp.select(exp.Count(this=exp.Distinct(expressions=[col(column)])))
    ((n,),) = source.rows(select.from_(table_ref(table.name)).sql(source.dialect))
    return int(n)


# -- keys and links -----------------------------------------------------------------------------
@dataclass
class Key:
    """A table's primary key, or the near-key it repeats (duplicate rows)."""

    column: str
    duplicates: int = 0
    """Rows beyond one per key value (0 for a real key)."""


@dataclass(frozen=True)
class Link:
    """A column whose values are another table's key values."""

    column: str
    target: str
    """The table pointed to."""
    key: str
    """The target's key column."""
    matched: float
    """The share of the column's values that are target keys."""


@dataclass
class Keys:
    """What init found about keys across the warehouse."""

    primary: dict[str, Key] = field(default_factory=dict)
    """table → its key."""
    links: dict[str, list[Link]] = field(default_factory=dict)
    """table → its foreign keys."""
    composite: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """table without a key → columns that are unique together (a city × month table)."""
    nearest: dict[str, tuple[tuple[str, ...], int]] = field(default_factory=dict)
    """table with neither → the combination closest to unique, and its duplicate rows."""
    numbered: dict[str, Numbering] = field(default_factory=dict)
    """table → the small integer numbering its rows within a parent (order lines)."""
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Numbering:
    """A small integer numbering the rows of each parent: 1, 2, 3 … again for every parent
    (TPC-H's l_linenumber within l_orderkey). Part of the key with its parent, never an
    amount."""

    column: str
    parent: str
    """The column whose rows it numbers."""
    low: int
    """Where every parent's numbering starts (0 or 1)."""
    high: int


AMOUNT_WORDS = re.compile(r"(^|_)(amount|amt|price|cost|revenue|sales|total|value|qty|quantity|"
                          r"count|cents|fee|paid|spend|balance|income|units)($|_)")
"""Names of an amount: unique by chance over many rows, never a key for that."""
MANY_ROWS = 1_000
"""An integer column unique over at least this many rows is a key, named so or not."""
NEAR_UNIQUE = 0.98
"""A named key column at least this unique is a key with duplicate rows, not a non-key."""
KEY_WORDS = re.compile(r"(^|_)(id|key|code|num|number|no|sku|uuid)$")


def named_key(table: str, column: str, snake: Callable[[str], str]) -> bool:
    """The column's name says it is an identifier: id, *_id, *_key, *code, …"""
    return KEY_WORDS.search(snake(column)) is not None


def find_keys(source: Source, tables: list[Table], snake: Callable[[str], str]) -> Keys:
    """Primary keys by uniqueness (a named one first), then links by value containment."""
    keys = Keys()
    for t in tables:
        key = primary_key(source, t, snake)
        if key is not None:
            keys.primary[t.name] = key
            if key.duplicates:
                keys.warnings.append(
                    f"{t.name}.{key.column}: {key.duplicates:,} duplicate row(s) on the key; "
                    f"counts of {t.name} count distinct {key.column}, but its sums and "
                    "averages still include the duplicates — dedupe the table")
    for t in tables:
        keys.links[t.name] = _links(source, t, tables, keys, snake)
    for t in tables:
        _warn_keyless(source, t, tables, keys, snake)
    for t in tables:
        found = numbering(source, t, keys)
        if found is not None:
            keys.numbered[t.name] = found
        if t.name in keys.primary:
            continue
        together = (tuple(c.name for c in t.columns if c.name in (found.parent, found.column))
                    if found is not None else composite_key(source, t, keys.nearest))
        if together:
            keys.composite[t.name] = together
    return keys


LINE_NUMBERS = 60
"""A line number counts at most this many rows of one parent (lines of an order, legs of a
trip); a wider range is not read as one."""
NUMBERING_CHECKS = 4
"""Column pairs at most whose numbering is confirmed on the whole table (one scan each)."""


def numbering(source: Source, t: Table, keys: Keys) -> Numbering | None:
    """The never-null small integer (from 0 or 1, at most LINE_NUMBERS values) that numbers
    the rows of each value of a parent column: unique together with it, every parent's
    numbering starting at the same first number. Read from the data, not names: the parent
    must have more values than the numbering and few enough rows each for the pair to be
    unique; a number one time column determines is a period number, not a line number.
    Screened on a sample of a big table, confirmed once on the whole."""
    if t.rows < 2:
        return None
    own = keys.primary.get(t.name)
    linked = {x.column for x in keys.links.get(t.name, [])}
    numbers = [c for c in t.columns if _counts_lines(c, t)]
    parents = sorted((c for c in t.columns if c.kind in ("integer", "text")
                      and c.non_null == t.rows and not _free_text(c) and c.dates < 0.5
                      and not c.period and (own is None or c.name != own.column)
                      and 2 <= (c.distinct or 0) < t.rows),
                     key=lambda c: (c.name not in linked, -(c.distinct or 0)))
    pairs = [(n, p) for n in numbers for p in parents
             if p is not n and _may_number(t, n, p)][:NUMBERING_CHECKS]
    times = [c.name for c in t.columns if c.kind == "time" or c.dates >= 0.95 or c.period]
    for n, p in pairs:
        if _screened_numbering(source, t, n, p, times) and _restarts(source, t, n, p):
            return Numbering(n.name, p.name, int(n.low), int(n.high))
    return None


def _counts_lines(c: Column, t: Table) -> bool:
    """An integer never null, from 0 or 1 up to at most LINE_NUMBERS, with two values or more."""
    return c.kind == "integer" and c.non_null == t.rows and c.low is not None \
        and int(c.low) in (0, 1) and 1 <= int(c.high) - int(c.low) < LINE_NUMBERS \
        and (c.distinct or 0) >= 2


def _may_number(t: Table, n: Column, p: Column) -> bool:
    """Whether n can number p's rows: more parents than numbers (a state × month panel's
    month numbers no state's rows), and few enough rows per parent for the pair to be unique
    (rows ≤ numbers × parents, with slack for an approximate count)."""
    span = int(n.high) - int(n.low) + 1
    parents = p.distinct or 0
    slack = 1.0 if p.exact else ESTIMATE_SLACK
    return parents > span and t.rows * slack <= span * parents


def _screened_numbering(source: Source, t: Table, n: Column, p: Column,
                        times: list[str]) -> bool:
    """On a sample of a big table (the whole of a small one): the pair is unique, and no time
    column determines the number (a period number 1…8 beside its quarters)."""
    table = exp.select("*").from_(table_ref(t.name)).limit(KEY_SAMPLE).subquery("s") \
        if t.rows > BIG_TABLE else table_ref(t.name)

    def distinct(*columns: str) -> exp.Expression:
        return exp.Count(this=exp.Distinct(expressions=[exp.Tuple(expressions=[
            col(c) for c in columns])]))

    select = exp.select(exp.Count(this=exp.Star()), distinct(p.name, n.name),
                        *(x for time in times for x in (distinct(time), distinct(time, n.name))))
    ((rows, pairs, *counted),) = source.rows(select.from_(table).sql(source.dialect))
    by_time = [(counted[i], counted[i + 1]) for i in range(0, len(counted), 2)]
    return int(pairs) == int(rows) and all(int(both) > int(alone) for alone, both in by_time)


def _restarts(source: Source, t: Table, n: Column, p: Column) -> bool:
    """On the whole table, in one scan grouped by parent: every parent's numbers start at the
    column's first number and none repeats (a bit per number, counted)."""
    low = exp.Literal.number(int(n.low))
    bit = exp.BitwiseLeftShift(this=exp.Cast(this=exp.Literal.number(1), to=exp.DataType.build(
        "bigint")), expression=exp.Sub(this=col(n.name), expression=low.copy()))
    groups = exp.select(exp.Min(this=col(n.name)).as_("lo"), exp.Count(this=exp.Star()).as_("c"),
                        exp.BitwiseCount(this=exp.BitwiseOrAgg(this=bit)).as_("d")) \
        .from_(table_ref(t.name)).group_by(col(p.name))
    ok = exp.and_(exp.EQ(this=exp.column("lo"), expression=low.copy()),
                  exp.EQ(this=exp.column("d"), expression=exp.column("c")))
    select = exp.select(exp.Count(this=exp.Star()), exp.Sum(this=exp.If(
        this=ok, true=exp.Literal.number(1), false=exp.Literal.number(0)))).from_(
        groups.subquery("g"))
    ((parents, numbered),) = source.rows(select.sql(source.dialect))
    return int(parents) > 0 and int(numbered) == int(parents)


MAX_COMPOSITE_CHECKS = 24
ESTIMATE_SLACK = 0.97
"""A combination whose approximate distinct count is below this share of a big table's rows is
not unique (the estimate errs by a few percent); only the others are counted exactly."""


def composite_key(source: Source, t: Table, nearest: dict[str, Any] | None = None
                  ) -> tuple[str, ...] | None:
    """Two to four never-null columns (times and small categories) unique together. On a big
    table every candidate is estimated in one scan (approximate distinct counts) and only
    those that may be unique are counted exactly. `nearest` gets the closest combination and
    its duplicate rows when none is unique."""
    if not t.rows:
        return None
    parts = [c.name for c in t.columns if c.non_null == t.rows and (
        c.kind == "time" or (c.kind in ("text", "integer", "bool") and not _free_text(c)
                             and (c.distinct or 0) <= max(t.rows // 2, 2)))]
    combos = []
    for size in (2, 3, 4):
        for combo in itertools.combinations(parts, size):
            product = 1
            for name in combo:
                product *= t.column(name).distinct or 1
            if product >= t.rows:  # fewer combinations than rows: cannot be unique
                combos.append(combo)
    combos = combos[:MAX_COMPOSITE_CHECKS]
    if not combos:
        return None
    estimates: dict[tuple[str, ...], int] = {}
    if t.rows > BIG_TABLE:
        combos, nearest_in_sample = _screened(source, t, combos)
        if not combos:  # every combination repeats within the sample: none is unique
            if nearest is not None and nearest_in_sample:
                nearest[t.name] = (nearest_in_sample, t.rows - _exact(source, t,
                                                                      nearest_in_sample))
            return None
        estimates = _estimates(source, t, combos) if len(combos) > 1 else {}
    best: tuple[int, tuple[str, ...]] = (0, ())
    for combo in combos:
        if combo in estimates and estimates[combo] < ESTIMATE_SLACK * t.rows:
            best = max(best, (estimates[combo], combo))
            continue
        n = _exact(source, t, combo)
        if n == t.rows:
            return combo
        best = max(best, (n, combo))
    if nearest is not None and best[1]:
        nearest[t.name] = (best[1], t.rows - best[0])
    return None


def _exact(source: Source, t: Table, combo: tuple[str, ...]) -> int:
    """The exact number of distinct combinations of the columns."""
    inner = exp.select(*(col(c) for c in combo)).distinct().from_(table_ref(t.name))
    select = exp.select(exp.Count(this=exp.Star())).from_(inner.subquery("k"))
    ((n,),) = source.rows(select.sql(source.dialect))
    return int(n)


KEY_SAMPLE = 100_000
"""Rows of a big table read first to rule combinations out: one repeated within them repeats in
the table, so only the combinations unique there are estimated and counted on the whole."""


def _screened(source: Source, t: Table, combos: list[tuple[str, ...]]
              ) -> tuple[list[tuple[str, ...]], tuple[str, ...] | None]:
    """(the combinations unique within a sample of the table, the one with the most distinct
    values there when none is)."""
    sample = exp.select("*").from_(table_ref(t.name)).limit(KEY_SAMPLE).subquery("s")
    select = exp.select(exp.Count(this=exp.Star()), *(
        exp.Count(this=exp.Distinct(expressions=[exp.Tuple(expressions=[col(c) for c in combo])]))
        for combo in combos)).from_(sample)
    ((rows, *counts),) = source.rows(select.sql(source.dialect))
    kept = [combo for combo, n in zip(combos, counts, strict=True) if int(n) == int(rows)]
    most = max(zip(counts, combos, strict=True), key=lambda x: int(x[0]))[1] if combos else None
    return kept, most


def _estimates(source: Source, t: Table, combos: list[tuple[str, ...]]
               ) -> dict[tuple[str, ...], int]:
    """Approximate distinct counts of every combination, in one scan."""
    select = exp.select(*(exp.ApproxDistinct(this=exp.Tuple(expressions=[col(c) for c in combo]))
                          for combo in combos)).from_(table_ref(t.name))
    ((*counts,),) = source.rows(select.sql(source.dialect))
    return {combo: int(n) for combo, n in zip(combos, counts, strict=True)}


def primary_key(source: Source, t: Table, snake: Callable[[str], str]) -> Key | None:
    """The first unique never-null id/code column (named ones first), or a named one that is
    unique but for a few duplicate rows."""
    if not t.rows:
        return None
    candidates = [c for c in t.columns if c.kind in ("integer", "text") and c.non_null == t.rows
                  and not _free_text(c) and c.dates < 0.5]
    # named ones first, then those named for the table, then the shortest (codes before names)
    named = sorted(candidates, key=lambda c: (not named_key(t.name, c.name, snake),
                                              _own_name(t.name, c.name, snake),
                                              c.mean_length or 0))
    for c in named:
        looks_unique = (c.distinct or 0) >= t.rows * (0.97 if not c.exact else 1.0)
        # an integer unique over many rows, or numbering them, is a key whatever its name says
        # (o_orderkey, rownames); a few unique integers may be amounts
        numbered = c.kind == "integer" and c.low is not None and not AMOUNT_WORDS.search(
            snake(c.name)) and (t.rows >= MANY_ROWS or int(c.high) - int(c.low) + 1 == t.rows)
        may_be_key = c.kind == "text" or named_key(t.name, c.name, snake) or numbered
        if looks_unique and may_be_key and exact_distinct(source, t, c.name) == t.rows:
            return Key(c.name)
    for c in named:
        if named_key(t.name, c.name, snake) and (c.distinct or 0) >= NEAR_UNIQUE * t.rows:
            distinct = exact_distinct(source, t, c.name)
            if NEAR_UNIQUE * t.rows <= distinct < t.rows:
                return Key(c.name, t.rows - distinct)
    return None


def _own_name(table: str, column: str, snake: Callable[[str], str]) -> int:
    """0 when the column is named for its table (`order_id` in orders), else 1."""
    base = snake(column).removesuffix("_id")
    return 0 if snake(table).startswith(base) or snake(column) == "id" else 1


def _free_text(c: Column) -> bool:
    return (c.mean_length or 0) > 40 or c.wordy > 0.3


def _links(source: Source, t: Table, tables: list[Table], keys: Keys,
           snake: Callable[[str], str]) -> list[Link]:
    """Columns of t whose values are contained in another table's key."""
    own = keys.primary.get(t.name)
    targets = [(other, other.column(key.column)) for other in tables
               if other is not t and (key := keys.primary.get(other.name)) is not None
               and not key.duplicates]
    out: list[Link] = []
    for c in t.columns:
        if (own and c.name == own.column) or c.kind not in ("integer", "text") or not c.distinct:
            continue
        if c.kind == "text" and _free_text(c):
            continue
        found = (_integer_link(source, t, c, targets, snake) if c.kind == "integer" else
                 _text_link(source, t, c, targets))
        if found is not None:
            out.append(found)
    return out


def _text_link(source: Source, t: Table, c: Column, targets: list[tuple[Table, Column]]
               ) -> Link | None:
    """The first text key holding the column's values (codes: LAX, UA)."""
    for other, key in targets:
        if key.kind != "text" or (c.distinct or 0) > (key.distinct or 0) * 2:
            continue
        if (c.distinct or 0) < 2 or _free_text(key):
            continue
        matched = matched_share(source, t, c.name, other, key.name, unique=True)
        if matched >= FK_MATCH:
            return Link(c.name, other.name, key.name, matched)
    return None


MANY_VALUES = 1_000
"""An integer column with at least this many distinct values, contained in exactly one key,
links there whatever its name (a few small integers are contained in any id range; a column
contained in several keys is a quantity that fits them all, unless its name chooses one)."""
GENERIC_STEMS = {"id", "key", "code", "no", "num", "number", "nr"}
"""Stems that name no table: two columns called `x_id` and `y_id` are not one key."""


def _integer_link(source: Source, t: Table, c: Column, targets: list[tuple[Table, Column]],
                  snake: Callable[[str], str]) -> Link | None:
    """The integer key that holds the column's values. Containment is read from the data; a
    name that says so (l_orderkey → orders.o_orderkey) chooses among several containing keys
    and admits few-valued columns; without one, the column needs MANY_VALUES and exactly one
    containing key, found on a sample of a big table and confirmed once on the whole."""
    fits = [(o, k) for o, k in targets if k.kind == "integer" and _overlaps(c, k)
            and (c.distinct or 0) <= (k.distinct or 0) * 2]
    named = [(o, k) for o, k in fits if names_link(c.name, o.name, k.name, snake)]
    for other, key in named:  # a name that says so is counted on the whole table at once
        matched = _key_share(source, t, c, other, key, whole=True)
        if matched >= FK_MATCH:
            return Link(c.name, other.name, key.name, matched)
    if (c.distinct or 0) < MANY_VALUES or AMOUNT_WORDS.search(snake(c.name)) or c.clock:
        return None
    containing: list[tuple[Table, Column, float]] = []
    for other, key in fits:
        if (other, key) in named or not _within(c, key):
            continue
        matched = _key_share(source, t, c, other, key)
        if matched >= FK_MATCH:
            containing.append((other, key, matched))
            if len(containing) > 1:  # ps_availqty 1..9,999 is in every id range that long
                return None
    return _confirmed(source, t, c, *containing[0]) if containing else None


def _key_share(source: Source, t: Table, c: Column, other: Table, key: Column,
               whole: bool = False) -> float:
    """The share of the integer column's values that are the other table's keys: all of them,
    with no query, when the key holds every whole number of its range (a unique key with as
    many rows as numbers from its lowest to its highest: part keys 1…200,000) and the column's
    values lie in it; else counted (on a sample of a big table unless `whole`)."""
    if key.low is not None and int(key.high) - int(key.low) + 1 == other.rows and _within(c, key):
        return 1.0
    return matched_share(source, t, c.name, other, key.name, whole=whole, unique=True)


def _within(c: Column, key: Column) -> bool:
    """The column's range lies inside the key's."""
    return c.low is not None and key.low is not None and float(key.low) <= float(c.low) \
        and float(c.high) <= float(key.high)


def _overlaps(c: Column, key: Column) -> bool:
    """The column's range meets the key's (orphans may lie outside it)."""
    if c.low is None or key.low is None:
        return True
    return float(c.low) <= float(key.high) and float(c.high) >= float(key.low)


def _confirmed(source: Source, t: Table, c: Column, other: Table, key: Column,
               sampled: float) -> Link | None:
    """The link, its share counted once on the whole table when a big table was sampled."""
    matched = _key_share(source, t, c, other, key, whole=True) if t.rows > BIG_TABLE \
        else sampled
    return Link(c.name, other.name, key.name, matched) if matched >= FK_MATCH else None


def names_link(column: str, table: str, key: str, snake: Callable[[str], str]) -> bool:
    """The column's name says it holds the table's key: the key's own name, `<entity>_id`, or
    the key's stem once a short table prefix is stripped from both (TPC-H: l_orderkey and
    o_custkey hold orders.o_orderkey and customer.c_custkey).

    >>> [names_link(c, t, k, str.lower) for c, t, k in (("l_orderkey", "orders", "o_orderkey"),
    ...  ("customer_id", "customers", "id"), ("x_id", "other", "y_id"), ("qty", "part", "p_partkey"))]
    [True, True, False, False]
    """
    name, target, entity = snake(column), snake(key), snake(table)
    if name == target != "id" or name.removesuffix("_id") in (entity, entity.rstrip("s")):
        return True
    base = stem(name)
    return base == stem(target) and base not in GENERIC_STEMS


def stem(name: str) -> str:
    """The name without a short table prefix: l_orderkey → orderkey, ps_partkey → partkey."""
    return re.sub(r"^[a-z]{1,3}_(?=[a-z])", "", name)


def _warn_keyless(source: Source, t: Table, tables: list[Table], keys: Keys,
                  snake: Callable[[str], str]) -> None:
    """A column of t whose values are in a same-named column of a table with no key: no join
    can be drafted, and a warning says so (once per pair of tables)."""
    own = keys.primary.get(t.name)
    linked = {x.column for x in keys.links.get(t.name, [])}
    for other in tables:
        if other is t or other.name in keys.primary or other.rows > t.rows:
            continue
        for c in t.columns:
            if (own and c.name == own.column) or c.name in linked:
                continue
            same = next((o for o in other.columns if o.name == c.name and o.kind == c.kind), None)
            if same is None or not (named_key(t.name, c.name, snake) or c.kind == "text"):
                continue
            if (c.distinct or 0) < 2 or _free_text(c):
                continue
            if matched_share(source, t, c.name, other, same.name, distinct=True) >= FK_MATCH:
                keys.warnings.append(
                    f"{t.name}.{c.name} matches {other.name}.{same.name}, but {other.name} has "
                    f"no primary key (no unique column): no join drafted — give {other.name} a "
                    "key to join it")
                break


def matched_share(source: Source, fact: Table, column: str, target: Table, key: str,
                  distinct: bool = False, whole: bool = False, unique: bool = False) -> float:
    """The share of a column's non-null values (rows, or distinct values) found in the target's
    column; on a big table, within a sample of its rows unless `whole`. `unique`: the target's
    column is its key, read without DISTINCT."""
    left = col(column, "f")
    values = (exp.select(left.copy()).distinct().from_(table_ref(fact.name, "f"))
              .where(exp.Is(this=left.copy(), expression=exp.Null()).not_()))
    if not distinct:
        values = (exp.select(left.copy()).from_(table_ref(fact.name, "f"))
                  .where(exp.Is(this=left.copy(), expression=exp.Null()).not_()))
    if fact.rows > BIG_TABLE and not whole:
        values = values.limit(TEXT_SAMPLE * 5)
    read = exp.select(col(key)).from_(table_ref(target.name))
    keys = (read if unique else read.distinct()).subquery("t")
    v, k = exp.column(column, "v", quoted=True), exp.column(key, "t", quoted=True)
    select = (exp.select(exp.Count(this=exp.Star()), exp.Count(this=k.copy()))
              .from_(values.subquery("v"))
              .join(keys, on=exp.EQ(this=v, expression=k), join_type="left"))
    ((n, matched),) = source.rows(select.sql(source.dialect))
    return int(matched) / int(n) if n else 0.0
