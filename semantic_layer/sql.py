"""SQL fragments as sqlglot expressions: the model's trusted exprs read from a table alias,
date literals and windows, calendar truncation per dialect, member literals; hand-written SQL
moved between dialects."""

from __future__ import annotations

import calendar
import datetime as dt
import threading
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.expressions.datatypes import DType
from sqlglot.helper import name_sequence

from showwork.semantic_layer.errors import ExecutionError
from showwork.semantic_layer.windows import Window

HAND_DIALECT = "duckdb"
"""The dialect hand-written SQL (gold queries, benchmark baselines) is written in."""


_POSITIONS = ("line", "col", "start", "end")
DATE = DType.DATE
DOUBLE = DType.DOUBLE


@lru_cache(maxsize=1024)
def parse_trusted(text: str) -> exp.Expr:
    return unplaced(sqlglot.parse_one(text, read="duckdb"))


def unplaced(tree: exp.Expr) -> exp.Expr:
    """The tree without the parser's token positions: every copy of a node deep-copies its
    metadata, and a compile copies the model's parsed exprs hundreds of times."""
    for node in tree.walk():
        meta = node._meta
        if meta:
            for key in _POSITIONS:
                meta.pop(key, None)
            if not meta:
                node._meta = None
    return tree


def cast(value: exp.Expr, to: DType) -> exp.Expr:
    """exp.cast(value, to) without its copies and without parsing the type: `value` itself
    when it is already cast to `to` (exp.cast decides that case)."""
    if isinstance(value, exp.Cast):
        return exp.cast(value, to, copy=False)
    data_type = exp.DataType(this=to, nested=False)
    out = exp.Cast(this=value, to=data_type)
    out.type = data_type
    return out


_writers = threading.local()


def write(tree: exp.Expr, dialect: str | None = None) -> str:
    """tree.sql(dialect) without copying the tree first (the caller does not need it as it was:
    a dialect's generator may rewrite it in place) and with this thread's generator for the
    dialect, made once: making one per call took a tenth of a compile."""
    made = _writers.__dict__
    key = dialect or ""
    generator = made.get(key)
    if generator is None:
        generator = made[key] = Dialect.get_or_raise(dialect).generator()
    generator._next_name = name_sequence("_t")  # the names it makes up start over, as new
    return generator.generate(tree, copy=False)


def binary(klass: type[exp.Binary], left: exp.Expr, right: exp.Expr) -> exp.Expr:
    """`left <op> right` as sqlglot's operators build it (a binary operand in parentheses), the
    operands not copied (built for this query alone)."""
    if not isinstance(left, klass) and not isinstance(right, klass):
        left = exp.Paren(this=left) if isinstance(left, exp.Binary) else left
        right = exp.Paren(this=right) if isinstance(right, exp.Binary) else right
    return klass(this=left, expression=right)


def named(value: exp.Expr, name: str) -> exp.Expr:
    """`value AS name`, `value` not copied (built for this query alone)."""
    return exp.alias_(value, name, copy=False)


def join(select: exp.Select, table: exp.Expr, kind: str, on: exp.Expr | None = None) -> exp.Select:
    """`select` joined in place to `table`: Select.join without parsing the join's kind.
    `kind`: left, full outer or cross."""
    side, _, how = kind.upper().partition(" ")
    args: dict[str, object] = {"this": table}
    if side == "CROSS":
        args["kind"] = side
    else:
        args["side"] = side
        if how:
            args["kind"] = how
    if on is not None:
        args["on"] = on
    select.append("joins", exp.Join(**args))
    return select


@lru_cache(maxsize=256)
def _table(name: str) -> exp.Table:
    read = exp.to_table(name)
    unplaced(read)
    return read


def table(name: str) -> exp.Table:
    """exp.to_table(name), the name parsed once."""
    return _table(name).copy()


def to_dialect(sql: str, dialect: str, read: str = HAND_DIALECT) -> str:
    """Hand-written SQL in `read`'s dialect as `dialect` writes it (unchanged when they agree);
    ExecutionError naming the SQL if sqlglot cannot read it.

    >>> to_dialect("SELECT count(x)::DOUBLE FROM t", "spark")
    'SELECT CAST(COUNT(x) AS DOUBLE) FROM t'
    """
    if dialect == read:
        return sql
    try:
        statements = sqlglot.transpile(sql, read=read, write=dialect)
    except sqlglot.errors.SqlglotError as exc:
        raise ExecutionError(f"Hand-written SQL must be in {read}'s dialect to run on "
                             f"{dialect}; sqlglot could not read it ({str(exc).splitlines()[0]}): "
                             f"{sql[:80]}") from exc
    if len(statements) != 1:
        raise ExecutionError(f"Hand-written SQL runs exactly one SELECT; got {len(statements)} "
                             f"statements: {sql[:80]}")
    return statements[0]


def qualify(text: str, alias: str, table: str | None = None) -> exp.Expr:
    """A model expr with its bare columns (and columns qualified by its own table) read from
    `alias`, so a join never makes a column ambiguous."""
    return _qualified(text, alias, table).copy()


@lru_cache(maxsize=4096)
def _qualified(text: str, alias: str, table: str | None) -> exp.Expr:
    tree = parse_trusted(text).copy()
    for col in tree.find_all(exp.Column):
        if not col.table or col.table in (table, alias):
            col.set("table", exp.to_identifier(alias))
    return tree


_STRICT_UNARY = (exp.Cast, exp.TryCast, exp.Paren, exp.Neg, exp.Not, exp.Lower, exp.Upper,
                 exp.Length, exp.Abs, exp.Floor, exp.Ceil, exp.Round, exp.DateTrunc,
                 exp.TimestampTrunc, exp.Like, exp.ILike)
_STRICT_BINARY = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.IntDiv, exp.EQ, exp.NEQ,
                  exp.GT, exp.GTE, exp.LT, exp.LTE, exp.DPipe)


def null_on_null(tree: exp.Expr) -> bool:
    """True when the expression is NULL wherever every column it reads is NULL, as on a row a
    LEFT JOIN found no match for: a column, and casts, arithmetic and comparisons of one. A
    constant, a CASE, a COALESCE, an IS NULL or an unknown function may not be, so an expr of a
    joined model that is not is read under the join's match (MetricFlow's subquery per model).

    >>> null_on_null(sqlglot.parse_one("CAST(a AS INT) + 1")), null_on_null(sqlglot.parse_one("1"))
    (True, False)
    >>> null_on_null(sqlglot.parse_one("CASE WHEN a > 1 THEN 'x' ELSE 'y' END"))
    False
    """
    if isinstance(tree, exp.Column):
        return True
    if isinstance(tree, exp.DateTrunc | exp.TimestampTrunc):
        return null_on_null(tree.this)
    if isinstance(tree, _STRICT_UNARY):
        return tree.this is not None and null_on_null(tree.this)
    if isinstance(tree, _STRICT_BINARY):
        return null_on_null(tree.this) or null_on_null(tree.expression)
    return False


def date_literal(day: dt.date) -> exp.Expr:
    """CAST('…' AS DATE), built without exp.cast's copies (VALUES rows hold hundreds)."""
    return exp.Cast(this=exp.Literal.string(day.isoformat()),
                    to=exp.DataType(this=DATE, nested=False))


def in_window(col: exp.Expr, w: Window) -> exp.Expr:
    return exp.and_(binary(exp.GTE, col.copy(), date_literal(w.start)),
                    binary(exp.LT, col.copy(), date_literal(w.end_exclusive)), copy=False)


def week_start(col: exp.Expr, dialect: str) -> exp.Expr:
    """The Monday of the ISO week holding `col`, as a DATE, in every dialect."""
    day = cast(col, DATE)
    if dialect == "bigquery":
        return exp.DateTrunc(this=day, unit=exp.var("ISOWEEK"))
    if dialect == "snowflake":
        # DATE_TRUNC('WEEK') follows the WEEK_START session parameter there; this does not.
        offset = exp.Sub(this=exp.Literal.number(1), expression=exp.DayOfWeekIso(this=day.copy()))
        return exp.DateAdd(this=day, expression=offset, unit=exp.var("DAY"))
    return cast(exp.DateTrunc(this=_trunc_input(day, dialect), unit=exp.Literal.string("WEEK")),
                DATE)


def truncate(col: exp.Expr, grain: str, dialect: str) -> exp.Expr:
    """The first day of the grain's period holding `col`, as a DATE."""
    if grain == "day":
        return cast(col, DATE)
    if grain == "week":
        return week_start(col, dialect)
    trunc = exp.DateTrunc(this=_trunc_input(cast(col, DATE), dialect),
                          unit=exp.Literal.string(grain.upper()))
    return cast(trunc, DATE)


def date_part(col: exp.Expr, part: str, dialect: str) -> exp.Expr:
    """The part of the day holding `col` as an integer, as MetricFlow renders it per engine:
    EXTRACT, the day of the week ISO's (Monday 1 … Sunday 7) everywhere."""
    day = cast(col, DATE)
    name = {"dow": "ISODOW", "doy": "DOY"}.get(part, part.upper())
    if part == "dow":
        name = {"snowflake": "DAYOFWEEKISO", "databricks": "DAYOFWEEK_ISO",
                "spark": "DAYOFWEEK_ISO", "bigquery": "DAYOFWEEK"}.get(dialect, name)
    elif part == "doy" and dialect == "bigquery":
        name = "DAYOFYEAR"
    value: exp.Expr = exp.Extract(this=exp.var(name), expression=day)
    if part == "dow" and dialect == "bigquery":  # Sunday 1 … Saturday 7 there
        value = exp.Case().when(exp.EQ(this=value, expression=exp.Literal.number(1)),
                                exp.Literal.number(7)).else_(
            exp.Sub(this=value.copy(), expression=exp.Literal.number(1)))
    return cast(value, DType.BIGINT)


def _trunc_input(day: exp.Expr, dialect: str) -> exp.Expr:
    """PostgreSQL truncates a DATE as a TIMESTAMP WITH TIME ZONE (a zone lookup per row); the
    day as a plain TIMESTAMP truncates to the same day without one."""
    return cast(day, DType.TIMESTAMP) if dialect == "postgres" else day


def shift(day: dt.date, count: int, grain: str) -> dt.date:
    """`day` moved by `count` grains (months clamp to the month's last day).

    >>> shift(dt.date(2026, 3, 31), -1, "month")
    datetime.date(2026, 2, 28)
    """
    if grain in ("day", "week"):
        return day + dt.timedelta(days=count * (7 if grain == "week" else 1))
    months = count * {"month": 1, "quarter": 3, "year": 12}[grain]
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last))


def conjuncts(tree: exp.Expr | None) -> list[exp.Expr]:
    if tree is None:
        return []
    while isinstance(tree, exp.Paren):
        tree = tree.this
    return list(tree.flatten()) if isinstance(tree, exp.And) else [tree]


def bare_booleans(tree: exp.Expr) -> exp.Expr:
    """A column compared with TRUE or FALSE as the column itself or its NOT: the same rows on
    every engine (a null stays null), but DuckDB guesses `x = false` keeps half a table and
    `NOT x` a fifth, and a wrong guess builds a join's hash table on the larger side.

    >>> bare_booleans(sqlglot.parse_one("o.is_test = false AND TRUE <> paid")).sql()
    'NOT o.is_test AND NOT paid'
    """
    def bare(node: exp.Expr) -> exp.Expr:
        if not isinstance(node, exp.EQ | exp.NEQ):
            return node
        column, value = node.this, node.expression
        if isinstance(column, exp.Boolean):
            column, value = value, column
        if not isinstance(column, exp.Column) or not isinstance(value, exp.Boolean):
            return node
        keep = value.this == isinstance(node, exp.EQ)
        return column.copy() if keep else exp.Not(this=column.copy())

    return tree.transform(bare)


def bare_null_tests(tree: exp.Expr) -> exp.Expr:
    """A null test of a time column truncated to a grain as a test of the column itself: the
    truncation is null exactly when the column is, and the engine casts no row to find out.

    >>> bare_null_tests(sqlglot.parse_one(
    ...     "CAST(DATE_TRUNC('MONTH', CAST(r.t AS DATE)) AS DATE) IS NOT NULL")).sql()
    'NOT r.t IS NULL'
    """
    def bare(node: exp.Expr) -> exp.Expr:
        if not isinstance(node, exp.Is) or not isinstance(node.expression, exp.Null):
            return node
        inner = node.this
        while _truncation(inner):
            inner = inner.this
        return exp.Is(this=inner.copy(), expression=exp.Null()) if isinstance(
            inner, exp.Column) and inner is not node.this else node

    return tree.transform(bare)


def _truncation(node: exp.Expr) -> bool:
    """A step of `truncate`: CAST(… AS DATE) (not TRY_CAST, which nulls what it cannot read) or
    DATE_TRUNC."""
    if type(node) is exp.Cast:
        return node.to.this == exp.DataType.Type.DATE
    return isinstance(node, exp.DateTrunc)


def non_null_of(condition: exp.Expr) -> exp.Expr | None:
    """`e` when the condition is `e IS NOT NULL`, else None.

    >>> non_null_of(sqlglot.parse_one("r.opened_at IS NOT NULL")).sql()
    'r.opened_at'
    """
    if isinstance(condition, exp.Not) and isinstance(condition.this, exp.Is) and isinstance(
            condition.this.expression, exp.Null):
        return condition.this.this
    return None


def literal(value: object, as_date: bool) -> exp.Expr:
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, int | float):
        return exp.Literal.number(value)
    if as_date:
        return date_literal(dt.date.fromisoformat(str(value)[:10]))
    return exp.Literal.string(str(value))


def coalesce(key: str, scans: list[str]) -> exp.Expr:
    columns = [exp.column(key, scan) for scan in scans]
    return columns[0] if len(columns) == 1 else exp.Coalesce(this=columns[0], expressions=columns[1:])
