"""MetricFlow where filters: `{{ Dimension('customer__country') }} = 'MX'`.

Two uses. A metric's own `filter` is trusted model configuration: its references are resolved
against the semantic model and it is rendered to SQL (`render`). A `--where` typed by a person is
not: `parse_where` accepts only references compared with literals, IN lists, AND and OR, and
turns them into the layer's structured filters; anything else is a clear error.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sqlglot
from sqlglot import exp

from showwork.semantic_layer.errors import InvalidFilter
from showwork.semantic_layer.model import GRAINS, SemanticModelFile
from showwork.semantic_layer.sql import bare_booleans, bare_null_tests, unplaced
from showwork.semantic_layer.windows import Window, period_end, period_start

REWRITES = (bare_booleans, bare_null_tests)
"""What a rendered metric filter goes through: the same rows, in SQL engines plan better."""
_TOKEN = "__sw_ref_{}__"
_TOKEN_RE = re.compile(r"__sw_ref_(\d+)__")
MAX_FILTER = 2000


@dataclass(frozen=True)
class Ref:
    """One `{{ Dimension(…) }}`, `{{ TimeDimension(…) }}` or `{{ Entity(…) }}` in a filter."""

    kind: str
    """dimension, time_dimension or entity."""
    name: str
    """The full dundered name, entity path included (customer__country__region)."""
    grain: str | None = None


class _Item:
    """What a reference renders to inside the Jinja sandbox: a token, plus MetricFlow's
    builder methods."""

    def __init__(self, refs: list[Ref], ref: Ref) -> None:
        self._refs, self._index = refs, len(refs)
        refs.append(ref)

    def grain(self, name: str) -> _Item:
        self._refs[self._index] = Ref(self._refs[self._index].kind, self._refs[self._index].name,
                                      _grain(name))
        return self

    def descending(self, _flag: bool = True) -> _Item:
        return self

    def date_part(self, name: str) -> _Item:
        raise InvalidFilter(f"date_part({name!r}) in a filter is not supported yet.")

    def __str__(self) -> str:
        return _TOKEN.format(self._index)


def _grain(name: str | None) -> str | None:
    if name is None:
        return None
    g = name.lower()
    if g not in GRAINS:
        raise InvalidFilter(f"Grain {name!r} is not supported; supported: {', '.join(GRAINS)}.")
    return g


def _named(name: str) -> str:
    """`name` if MetricFlow reads it as a Dimension's or TimeDimension's: one entity link, then
    the element (and perhaps a grain), or metric_time; else its refusal (ParameterSetFactory:
    a longer path goes in entity_path)."""
    parts = name.split("__")
    if len(parts) > 1 and parts[-1].lower() in GRAINS:
        parts = parts[:-1]
    if len(parts) != 2 and parts[-1] != "metric_time":
        raise InvalidFilter(f"Name is in an incorrect format: {name!r}. It should be of the form: "
                            "<primary entity name>__<dimension_name> (as MetricFlow reads it; "
                            "a longer path goes in entity_path=[…]).")
    return name


def _path(name: str, entity_path: Any) -> str:
    if not isinstance(name, str):
        raise InvalidFilter(f"A reference names an element with a string, got {name!r}.")
    if entity_path:
        if not isinstance(entity_path, list | tuple) or not all(isinstance(e, str) for e in entity_path):
            raise InvalidFilter(f"entity_path must be a list of entity names, got {entity_path!r}.")
        # Dimension('country__region', entity_path=['customer']) is customer__country__region
        return "__".join([*entity_path, name])
    return name


def references(template: str) -> tuple[str, list[Ref]]:
    """The template with each reference replaced by a token, and the references in order."""
    if len(template) > MAX_FILTER:
        raise InvalidFilter(f"A filter is at most {MAX_FILTER} characters.")
    if "{%" in template or "{#" in template:
        raise InvalidFilter("A filter holds {{ … }} references only, no Jinja statements.")
    simple = plain_references(template)
    return simple if simple is not None else rendered_references(template)


_PLAIN_REF = re.compile(
    r"\{\{\s*(Dimension|TimeDimension|Entity)\(\s*(?:'(\w+)'|\"(\w+)\")"
    r"(?:\s*,\s*(?:'(\w+)'|\"(\w+)\"))?\s*\)\s*\}\}", re.ASCII)
"""`{{ Dimension('x') }}`, `{{ TimeDimension('x', 'day') }}`, `{{ Entity('x') }}`: a call with
plain quoted names (no escapes), the only form most filters use."""


def plain_references(template: str) -> tuple[str, list[Ref]] | None:
    """What `rendered_references` gives, for a template Jinja would read as plain text and
    `_PLAIN_REF` calls only, without loading Jinja; None for anything else.

    Jinja reads such a template the same way: with no brace outside the calls it finds no other
    delimiter and passes the text through as it is, save two things it rewrites, so those fall
    back to it: a carriage return (newlines normalised) and a final newline (dropped)."""
    if "\r" in template or template.endswith("\n"):
        return None
    calls = list(_PLAIN_REF.finditer(template))
    outside = "".join(template[a.end() if a else 0:b.start() if b else None]
                      for a, b in zip([None, *calls], [*calls, None], strict=True))
    if "{" in outside or "}" in outside:
        return None
    if any(m.group(1) != "TimeDimension" and (m.group(4) or m.group(5)) for m in calls):
        return None  # a second argument there is an entity path: Jinja's error says so
    refs = [Ref(_KINDS[m.group(1)], _checked(m.group(1), m.group(2) or m.group(3)),
                _grain(m.group(4) or m.group(5))) for m in calls]
    counter = iter(range(len(calls)))
    return _PLAIN_REF.sub(lambda _m: _TOKEN.format(next(counter)), template), refs


_KINDS = {"Dimension": "dimension", "TimeDimension": "time_dimension", "Entity": "entity"}


def _checked(call: str, name: str) -> str:
    return name if call == "Entity" else _named(name)


def rendered_references(template: str) -> tuple[str, list[Ref]]:
    """`references` by rendering the template in Jinja's sandbox with MetricFlow's builders."""
    from jinja2 import StrictUndefined, TemplateError
    from jinja2.sandbox import SandboxedEnvironment

    refs: list[Ref] = []

    def dimension(name: str, entity_path: Any = ()) -> _Item:
        return _Item(refs, Ref("dimension", _path(_named(str(name)), entity_path)))

    def time_dimension(name: str, time_granularity_name: str | None = None, entity_path: Any = (),
                       descending: bool | None = None, date_part_name: str | None = None) -> _Item:
        if date_part_name:
            raise InvalidFilter(f"date_part_name={date_part_name!r} is not supported yet.")
        return _Item(refs, Ref("time_dimension", _path(_named(str(name)), entity_path),
                               _grain(time_granularity_name)))

    def entity(name: str, entity_path: Any = ()) -> _Item:
        return _Item(refs, Ref("entity", _path(name, entity_path)))

    def metric(name: str, group_by: Any = ()) -> _Item:
        raise InvalidFilter(f"Filtering on a metric ({{{{ Metric({name!r}, …) }}}}) is not supported yet.")

    try:
        text = SandboxedEnvironment(undefined=StrictUndefined).from_string(template).render(
            Dimension=dimension, TimeDimension=time_dimension, Entity=entity, Metric=metric)
    except TemplateError as exc:
        raise InvalidFilter(f"The filter is not a valid MetricFlow template: {exc}.") from exc
    except TypeError as exc:
        raise InvalidFilter(f"A reference in the filter has the wrong arguments: {exc}.") from exc
    return text, refs


def parse_sql(text: str) -> exp.Expr:
    try:
        trees = [t for t in sqlglot.parse(text, read="duckdb") if t is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise InvalidFilter(f"The filter is not valid SQL: {' '.join(str(exc).split())[:200]}.") from exc
    if len(trees) != 1:
        raise InvalidFilter(f"The filter is one SQL condition; found {len(trees)} statements.")
    return trees[0]


@lru_cache(maxsize=1024)
def _parsed(template: str) -> tuple[exp.Expr, tuple[Ref, ...]]:
    """A trusted template read once (Jinja and sqlglot take most of a filter's compile)."""
    text, refs = references(template)
    return unplaced(parse_sql(text)), tuple(refs)


def render(template: str, resolve: Callable[[Ref], exp.Expr]) -> exp.Expr:
    """A trusted metric filter as a SQL expression, each reference replaced by `resolve(ref)`,
    then through REWRITES."""
    parsed, refs = _parsed(template)
    tree = parsed.copy()

    def swap(node: exp.Expr) -> exp.Expr:
        m = _TOKEN_RE.fullmatch(node.name) if isinstance(node, exp.Column) and not node.table else None
        if m is None:
            return node
        value = resolve(refs[int(m.group(1))])
        atomic = isinstance(value, exp.Column | exp.Cast | exp.Func | exp.Literal | exp.Paren)
        return value if atomic else exp.paren(value, copy=False)

    tree = tree.transform(swap)
    for rewrite in REWRITES:
        tree = rewrite(tree)
    return tree


# -- the safe subset (a person's --where) -------------------------------------------------------
@dataclass(frozen=True)
class Comparison:
    """`reference op literal(s)` from a --where."""

    ref: Ref
    op: str
    """in, not_in, ge, gt, le, lt, is_null, not_null."""
    values: tuple[Any, ...]


@dataclass(frozen=True)
class ParsedWhere:
    """A --where as the layer's structured filters, plus any metric_time bounds it sets."""

    where: list[dict[str, Any]]
    """Items for a governed call's `where`: filters, or {"any_of": [filters]} for an OR."""
    start: dt.date | None = None
    """First day metric_time may take (inclusive)."""
    end: dt.date | None = None
    """Last day metric_time may take (inclusive)."""
    mixed: tuple[str, ...] = ()
    """When the metric_time bounds share the filter with other conditions, the grains they
    compare at: MetricFlow reads such a filter as one, which for an offset input it applies
    before the shift (check_where_reads)."""

    def apply(self, args: dict[str, Any], model: SemanticModelFile | None = None,
              refuse_empty: bool = True) -> dict[str, Any]:
        """Query arguments with these filters added and the window narrowed to the bounds.

        A window asked with whole_periods is widened to whole periods first, as MetricFlow widens
        --start/--end and then filters on the bounds; a bound on one side only leaves the other
        side open (the layer closes it at the sources' coverage). With the model, a filter
        MetricFlow reads otherwise for the metrics asked is refused (check_where_reads). Bounds
        that leave no day are refused, or with refuse_empty=False (a caller answering as
        MetricFlow does: SemanticLayer.call's) give the window they cross, which that call
        answers with no rows and a note."""
        out = dict(args, where=[*args.get("where", []), *self.where])
        if not (self.start or self.end):
            return out
        w = dict(out.get("window") or {})
        asked = [_day(w.get("start")), _day(w.get("end"))]
        if asked[0] and asked[1] and out.get("whole_periods") and out.get("grain"):
            asked = [period_start(asked[0], out["grain"]),
                     period_end(period_start(asked[1], out["grain"]), out["grain"])]
            out["whole_periods"] = False
        starts = [d for d in (self.start, asked[0]) if d]
        ends = [d for d in (self.end, asked[1]) if d]
        start, end = max(starts or [dt.date.min]), min(ends or [dt.date.max])
        if start > end and refuse_empty:
            raise InvalidFilter(f"The metric_time bounds and the window leave no day to read "
                                f"(from {start} to {end}); there is nothing to answer.")
        if model is not None and self.mixed and start <= end:
            # (bounds that cross keep no row before the shift or after it: nothing to refuse)
            from showwork.semantic_layer.validate import check_where_reads

            check_where_reads(model, list(out.get("metrics", [])), out.get("grain"),
                              Window(asked[0], asked[1]) if asked[0] and asked[1] else None,
                              Window(self.start or dt.date.min, self.end or dt.date.max),
                              self.mixed)
        out["window"] = {"start": start.isoformat(), "end": end.isoformat()}
        named = {f["dimension"] for item in self.where for f in item.get("any_of") or [item]}
        if self.mixed and (set(self.mixed) != {out.get("grain")}
                           or not named <= set(out.get("group_by") or [])):
            # one filter with other conditions, naming something the query does not group by
            # (metric_time at another grain, or a dimension): MetricFlow applies it to a
            # spine-joined metric's rows only, not again after the join, so the spine's
            # periods stay the asked window's
            out["spine_window"] = {"start": (asked[0] or dt.date.min).isoformat(),
                                   "end": (asked[1] or dt.date.max).isoformat()}
        return out


def _day(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def parse_where(text: str) -> ParsedWhere:
    """A MetricFlow `--where` as structured filters; InvalidFilter for anything outside the
    safe subset (references compared with literals, BETWEEN, IN lists, IS [NOT] NULL, AND,
    OR)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidFilter("The where filter is empty.")
    sql, refs = references(text)
    if not refs:
        raise InvalidFilter("The where filter references nothing; use {{ Dimension('entity__name') }}.")
    tree = _bool(parse_sql(sql), refs)
    conjuncts = _cnf(tree)
    start = end = None
    where: list[dict[str, Any]] = []
    others, grains = False, set()
    for clause in conjuncts:
        times = [c for c in clause if _is_metric_time(c.ref)]
        if times and len(clause) > 1:
            raise InvalidFilter("metric_time bounds may only be AND-ed, not OR-ed with other conditions.")
        if times:
            start, end = _bound(times[0], start, end)
            grains.add(_bound_grain(times[0].ref))
            continue
        filters = [_filter(c) for c in clause]
        where.append(filters[0] if len(filters) == 1 else {"any_of": filters})
        others = True
    mixed = tuple(sorted(grains, key=GRAINS.index)) if others else ()
    return ParsedWhere(where, start, end, mixed)


def _is_metric_time(ref: Ref) -> bool:
    return ref.name.split("__")[0] == "metric_time"


def _bool(node: exp.Expr, refs: list[Ref]) -> Any:
    """('and'|'or', parts) trees over Comparison leaves."""
    if isinstance(node, exp.Paren):
        return _bool(node.this, refs)
    if isinstance(node, exp.And | exp.Or):
        return ("and" if isinstance(node, exp.And) else "or",
                [_bool(node.left, refs), _bool(node.right, refs)])
    negated = node.this.unnest() if isinstance(node, exp.Not) else None
    if _is_token(node) or _is_token(negated):
        # a bare boolean dimension (WHERE is_instant; WHERE NOT is_instant): = TRUE / = FALSE,
        # null rows kept by neither, as SQL keeps them
        ref = _ref(node if _is_token(node) else negated, refs)  # type: ignore[arg-type]
        if ref.kind == "time_dimension" or _is_metric_time(ref):
            raise InvalidFilter(f"{ref.name!r} alone is not a condition; compare it with a date.")
        return Comparison(ref, "in", (_is_token(node),))
    if isinstance(node, exp.Not) and isinstance(node.this, exp.In):
        leaf = _bool(node.this, refs)
        return Comparison(leaf.ref, "not_in", leaf.values)
    if isinstance(node, exp.Between):  # lo <= x AND x <= hi, as SQL reads it
        ref = _ref(node.this, refs)
        return ("and", [Comparison(ref, "ge", (_literal(node.args["low"]),)),
                        Comparison(ref, "le", (_literal(node.args["high"]),))])
    if isinstance(node, exp.Not) and isinstance(node.this.unnest(), exp.Between):
        low, high = _bool(node.this.unnest(), refs)[1]
        return ("or", [Comparison(low.ref, "lt", low.values), Comparison(high.ref, "gt",
                                                                         high.values)])
    null_test = _null_test(node)
    if null_test is not None:
        negated_test, inner = null_test
        return Comparison(_ref(inner, refs), "not_null" if negated_test else "is_null", ())
    if isinstance(node, exp.In):
        if node.args.get("query") or node.args.get("unnest") or node.args.get("field"):
            raise InvalidFilter("IN takes a list of literals, not a subquery.")
        return Comparison(_ref(node.this, refs), "in", tuple(_literal(v) for v in node.expressions))
    ops = {exp.EQ: "in", exp.NEQ: "not_in", exp.GTE: "ge", exp.GT: "gt", exp.LTE: "le", exp.LT: "lt"}
    for cls, op in ops.items():
        if type(node) is cls:
            left, right = node.left, node.right
            if _is_token(right) and not _is_token(left):
                left, right = right, left
                op = {"ge": "le", "gt": "lt", "le": "ge", "lt": "gt"}.get(op, op)
            return Comparison(_ref(left, refs), op, (_literal(right),))
    raise InvalidFilter(
        f"Unsupported in a where filter: {node.sql(dialect='duckdb')[:80]!r}. Use references "
        "compared with literals (=, !=, <, <=, >, >=, BETWEEN), IN (…) lists, IS [NOT] NULL, "
        "AND and OR.")


def _null_test(node: exp.Expr) -> tuple[bool, exp.Expr] | None:
    """(negated, the tested expression) of `x IS NULL`, `x IS NOT NULL`, `NOT x IS NULL`."""
    negated = isinstance(node, exp.Not)
    inner = node.this.unnest() if negated else node
    if isinstance(inner, exp.Not) and not negated:  # sqlglot: x IS NOT NULL = NOT (x IS NULL)
        negated, inner = True, inner.this.unnest()
    if isinstance(inner, exp.Is) and isinstance(inner.expression, exp.Null):
        return negated, inner.this
    return None


def _is_token(node: exp.Expr | None) -> bool:
    return isinstance(node, exp.Column) and not node.table and bool(_TOKEN_RE.fullmatch(node.name))


def _ref(node: exp.Expr, refs: list[Ref]) -> Ref:
    if not _is_token(node):
        raise InvalidFilter(
            f"{node.sql(dialect='duckdb')[:80]!r} is not a reference; compare "
            "{{ Dimension('entity__name') }}, {{ TimeDimension(…) }} or {{ Entity(…) }} with literals.")
    return refs[int(_TOKEN_RE.fullmatch(node.name).group(1))]  # type: ignore[union-attr]


def _literal(node: exp.Expr) -> Any:
    if isinstance(node, exp.Cast) and isinstance(node.this, exp.Literal) and node.this.is_string:
        node = node.this  # DATE '2024-01-01'
    if isinstance(node, exp.Literal):
        if node.is_string:
            return node.this
        number = float(node.this)
        return int(number) if number.is_integer() and "." not in node.this else number
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
        return -_literal(node.this)
    raise InvalidFilter(f"{node.sql(dialect='duckdb')[:80]!r} is not a literal (a string, number "
                        "or boolean).")


def _cnf(tree: Any) -> list[list[Comparison]]:
    """An AND of ORs of comparisons."""
    if isinstance(tree, Comparison):
        return [[tree]]
    op, parts = tree
    left, right = _cnf(parts[0]), _cnf(parts[1])
    if op == "and":
        return left + right
    out = [a + b for a in left for b in right]
    if len(out) > 10:
        raise InvalidFilter("The where filter is too complex (more than 10 AND-ed conditions).")
    return out


def _filter(c: Comparison) -> dict[str, Any]:
    name = f"{c.ref.name}__{c.ref.grain}" if c.ref.kind == "time_dimension" and c.ref.grain else c.ref.name
    return {"dimension": name, "op": c.op, "values": list(c.values)}


def _bound_grain(ref: Ref) -> str:
    """The grain a metric_time reference compares at (metric_time__month, or its argument)."""
    return ref.grain or (ref.name.split("__")[1] if "__" in ref.name else "day")


def _bound(c: Comparison, start: dt.date | None,
           end: dt.date | None) -> tuple[dt.date | None, dt.date | None]:
    """The days a metric_time comparison keeps. At a grain (TimeDimension('metric_time',
    'month')) the period's start is compared, as MetricFlow truncates before comparing."""
    if c.op in ("is_null", "not_null"):
        raise InvalidFilter("metric_time is never null: compare it with a date (=, <, <=, >, "
                            ">=, BETWEEN).")
    (value,) = c.values if len(c.values) == 1 else (None,)
    try:
        day = dt.date.fromisoformat(str(value)[:10])
    except ValueError as exc:
        raise InvalidFilter(f"metric_time is compared with {value!r}; give an ISO date.") from exc
    if c.op in ("not_in", "is_null", "not_null") or (c.op == "in" and len(c.values) != 1):
        raise InvalidFilter("metric_time takes =, <, <=, >, >= or BETWEEN with dates.")
    grain = _bound_grain(c.ref)
    one = dt.timedelta(days=1)
    if grain == "day":
        lo = {"ge": day, "gt": day + one, "in": day}.get(c.op)
        hi = {"le": day, "lt": day - one, "in": day}.get(c.op)
    else:  # period_start(d) compared with the day
        def first_at_or_after(x: dt.date) -> dt.date:
            p = period_start(x, grain)
            return p if p == x else period_end(p, grain) + one

        lo = {"ge": first_at_or_after(day), "gt": first_at_or_after(day + one),
              "in": day if period_start(day, grain) == day else day + one}.get(c.op)
        hi = {"le": period_end(period_start(day, grain), grain),
              "lt": period_end(period_start(day - one, grain), grain),
              "in": period_end(day, grain) if period_start(day, grain) == day else day}.get(c.op)
    if lo:
        start = max(start, lo) if start else lo
    if hi:
        end = min(end, hi) if end else hi
    return start, end
