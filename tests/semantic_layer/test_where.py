"""MetricFlow's --where form, read into the layer's structured filters: only references compared
with literals, IN lists, AND and OR; anything else is a clear error, and nothing is run. A
metric's own filter is rendered through rewrites that keep its rows."""

from __future__ import annotations

import datetime as dt
import random
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from sqlglot import exp

from showwork.semantic_layer import SemanticLayer, errors, where
from showwork.semantic_layer.errors import InvalidFilter
from showwork.semantic_layer.where import Ref, parse_where, render

H1 = {"start": "2024-01-01", "end": "2024-06-30"}


class TestParse:
    def test_equality(self) -> None:
        """`{{ Dimension('customer__country') }} = 'MX'` is one IN filter."""
        parsed = parse_where("{{ Dimension('customer__country') }} = 'MX'")
        assert parsed.where == [{"dimension": "customer__country", "op": "in", "values": ["MX"]}]
        assert parsed.start is parsed.end is None

    def test_and_in_not_in(self) -> None:
        """AND joins filters; IN lists and != / NOT IN become in and not_in."""
        parsed = parse_where("{{ Dimension('a__b') }} IN ('x', 'y') AND {{ Dimension('a__c') }} != 3"
                             " AND {{ Entity('customer') }} NOT IN (1, 2)")
        assert parsed.where == [
            {"dimension": "a__b", "op": "in", "values": ["x", "y"]},
            {"dimension": "a__c", "op": "not_in", "values": [3]},
            {"dimension": "customer", "op": "not_in", "values": [1, 2]}]

    def test_or_becomes_any_of(self) -> None:
        """OR across references is an any_of group; an AND inside an OR is distributed."""
        parsed = parse_where("{{ Dimension('a__b') }} = 'x' OR ({{ Dimension('a__c') }} = 'y' "
                             "AND {{ Dimension('a__d') }} = true)")
        assert parsed.where == [
            {"any_of": [{"dimension": "a__b", "op": "in", "values": ["x"]},
                        {"dimension": "a__c", "op": "in", "values": ["y"]}]},
            {"any_of": [{"dimension": "a__b", "op": "in", "values": ["x"]},
                        {"dimension": "a__d", "op": "in", "values": [True]}]}]

    def test_entity_path_and_metric_time(self) -> None:
        """entity_path joins the name; metric_time comparisons narrow the window."""
        parsed = parse_where("{{ Dimension('country__region', entity_path=['customer']) }} = 'EU'"
                             " AND {{ TimeDimension('metric_time', 'day') }} >= '2024-02-01'"
                             " AND {{ TimeDimension('metric_time', 'day') }} < '2024-03-01'")
        assert parsed.where == [{"dimension": "customer__country__region", "op": "in",
                                 "values": ["EU"]}]
        assert (parsed.start, parsed.end) == (dt.date(2024, 2, 1), dt.date(2024, 2, 29))
        args = parsed.apply({"metrics": ["revenue"], "window": H1})
        assert args["window"] == {"start": "2024-02-01", "end": "2024-02-29"}

    @pytest.mark.parametrize(("text", "message"), [
        ("{{ Dimension('a__b') }} LIKE 'x%'", "Unsupported in a where filter"),
        ("{{ Dimension('a__b') }} = {{ Dimension('a__c') }}", "is not a literal"),
        ("amount > 3", "references nothing"),
        ("{{ Dimension('a__b') }} = 'x' AND amount > 3", "is not a reference"),
        ("{{ Dimension('a__b') }} IN (SELECT 1)", "not a subquery"),
        ("{{ Dimension('a__b') }} = lower('X')", "is not a literal"),
        ("{% for x in y %}{% endfor %}", "no Jinja statements"),
        ("{{ Dimension('a__b').__class__ }} = 1", "not a valid MetricFlow template"),
        ("{{ Metric('revenue', group_by=['a']) }} > 1", "Filtering on a metric"),
        ("{{ Dimension('a__b') }} = 'x'; DROP TABLE t", "found 2 statements"),
        ("{{ TimeDimension('metric_time') }} >= 'soon'", "give an ISO date"),
        ("{{ TimeDimension('metric_time') }} > '2024-01-01' OR {{ Dimension('a__b') }} = 'x'",
         "may only be AND-ed"),
        ("", "empty"),
    ])
    def test_anything_else_is_refused(self, text: str, message: str) -> None:
        """Outside the safe subset: a typed error saying what is accepted."""
        with pytest.raises(errors.InvalidFilter, match=message):
            parse_where(text)


class TestRun:
    def test_where_runs_like_structured_filters(self, shop: SemanticLayer) -> None:
        """A parsed --where gives the numbers of the same structured filter."""
        text = ("{{ Dimension('customer__segment') }} = 'enterprise' AND "
                "{{ Dimension('transaction__channel') }} IN ('web', 'phone')")
        parsed = parse_where(text).apply({"metrics": ["revenue"], "window": H1})
        direct = {"metrics": ["revenue"], "window": H1, "where": [
            {"dimension": "customer__segment", "values": ["enterprise"]},
            {"dimension": "transaction__channel", "values": ["web", "phone"]}]}
        assert shop.call("query", parsed).rows == shop.call("query", direct).rows

    def test_or_runs(self, shop: SemanticLayer, shop_sql) -> None:
        """An OR across two dimensions is one OR in SQL."""
        args = parse_where("{{ Dimension('transaction__channel') }} = 'web' OR "
                           "{{ Dimension('customer__segment') }} = 'enterprise'").apply(
            {"metrics": ["orders"], "window": H1})
        (row,) = shop.call("query", args).rows
        (expected,) = shop_sql.execute(
            "SELECT count(*) FROM transactions t LEFT JOIN customers c USING (customer_id) "
            "WHERE (t.channel = 'web' OR c.segment = 'enterprise') "
            "AND ordered_at < DATE '2024-07-01'").fetchone()
        assert row.values["orders"]["value"] == expected

    def test_members_are_still_checked(self, shop: SemanticLayer) -> None:
        """A --where member outside the closed list is refused like any filter."""
        args = parse_where("{{ Dimension('transaction__channel') }} = 'fax'").apply(
            {"metrics": ["orders"], "window": H1})
        with pytest.raises(errors.UnknownMember, match="members: phone, store, web"):
            shop.call("query", args)

    def test_entity_filter(self, shop: SemanticLayer, shop_sql) -> None:
        """`{{ Entity('customer') }} = 7` filters on the foreign key."""
        args = parse_where("{{ Entity('customer') }} = 7").apply(
            {"metrics": ["orders"], "window": H1})
        (row,) = shop.call("query", args).rows
        (expected,) = shop_sql.execute("SELECT count(*) FROM transactions WHERE customer_id = 7"
                                       ).fetchone()
        assert row.values["orders"]["value"] == expected


def _read(ref: Ref) -> exp.Expr:
    """A reference as the compiler reads it from table t: a column, truncated for a grain."""
    col = exp.column(ref.name.split("__")[-1], "t")
    if ref.grain == "day":
        return exp.cast(col, "DATE")
    if ref.grain:
        return exp.cast(exp.DateTrunc(this=exp.cast(col, "DATE"),
                                      unit=exp.Literal.string(ref.grain.upper())), "DATE")
    return col


def _as_written(ref: Ref) -> exp.Expr:
    """The same, parenthesized: no rewrite sees through it, so the filter runs as written."""
    return exp.paren(_read(ref))


@pytest.fixture(scope="module")
def tiny() -> duckdb.DuckDBPyConnection:
    """Table t with a boolean and a timestamp column, each with a null."""
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, true, 'x', TIMESTAMP '2024-01-05'), "
                "(2, false, 'x', NULL), (3, NULL, 'x', TIMESTAMP '2024-02-01'), "
                "(4, false, 'y', TIMESTAMP '2024-03-09')) v(id, is_test, status, shipped_at)")
    return con


class TestRewrites:
    @pytest.mark.parametrize(("template", "rendered"), [
        ("{{ Dimension('order__is_test') }} = false", "NOT t.is_test"),
        ("{{ Dimension('order__is_test') }} = TRUE", "t.is_test"),
        ("false <> {{ Dimension('order__is_test') }}", "t.is_test"),
        ("{{ Dimension('order__is_test') }} != true AND {{ Dimension('order__status') }} = 'x'",
         "NOT t.is_test AND t.status = 'x'"),
        ("{{ TimeDimension('order__shipped_at', 'day') }} IS NOT NULL", "NOT t.shipped_at IS NULL"),
        ("{{ TimeDimension('order__shipped_at', 'month') }} IS NULL", "t.shipped_at IS NULL"),
    ])
    def test_rewritten_filter_keeps_its_rows(self, tiny: duckdb.DuckDBPyConnection, template: str,
                                             rendered: str) -> None:
        """A column compared with TRUE or FALSE is written bare, and a null test of a truncated
        time column tests the column; each selects the rows the filter as written selects."""
        assert render(template, _read).sql("duckdb") == rendered
        ids = [tiny.execute("SELECT list(id ORDER BY id) FROM t WHERE "
                            + render(template, read).sql("duckdb")).fetchone()
               for read in (_read, _as_written)]
        assert ids[0] == ids[1]


def test_one_sided_metric_time_bound_leaves_the_other_side_open() -> None:
    """No window and one metric_time bound: the other side stays open (the layer closes it at
    the sources' coverage); with a window, the bound narrows it."""
    from showwork.semantic_layer import parse_where

    parsed = parse_where("{{ TimeDimension('metric_time', 'day') }} >= '2024-03-01'")
    assert parsed.apply({"metrics": ["revenue"]})["window"] == {"start": "2024-03-01",
                                                                "end": dt.date.max.isoformat()}
    narrowed = parsed.apply({"metrics": ["revenue"], "window": {"start": "2024-01-01",
                                                                "end": "2024-06-30"}})
    assert narrowed["window"] == {"start": "2024-03-01", "end": "2024-06-30"}


def test_a_bound_cuts_the_widened_window() -> None:
    """MetricFlow widens --start/--end to whole periods, then filters on the bound: the bound
    is not widened back to the period's start."""
    from showwork.semantic_layer import parse_where

    parsed = parse_where("{{ TimeDimension('metric_time', 'day') }} >= '2024-03-10'")
    out = parsed.apply({"metrics": ["revenue"], "grain": "month", "whole_periods": True,
                        "window": {"start": "2024-03-05", "end": "2024-06-12"}})
    assert out["window"] == {"start": "2024-03-10", "end": "2024-06-30"}
    assert out["whole_periods"] is False


@pytest.mark.parametrize(("text", "window"), [
    (">= '2024-03-15'", ("2024-04-01", None)), (">= '2024-03-01'", ("2024-03-01", None)),
    ("> '2024-03-01'", ("2024-04-01", None)), ("<= '2024-03-15'", (None, "2024-03-31")),
    ("< '2024-03-01'", (None, "2024-02-29")), ("< '2024-03-02'", (None, "2024-03-31")),
    ("= '2024-03-01'", ("2024-03-01", "2024-03-31")),
])
def test_a_bound_at_a_grain_compares_the_period_start(text: str, window: tuple) -> None:
    """TimeDimension('metric_time', 'month') >= X keeps the days whose month starts on or after
    X, as MetricFlow's truncated comparison does."""
    parsed = parse_where("{{ TimeDimension('metric_time', 'month') }} " + text)
    got = (parsed.start and parsed.start.isoformat(), parsed.end and parsed.end.isoformat())
    assert got == window


@pytest.mark.parametrize(("text", "value"), [("{{ Dimension('user__is_test') }}", True),
                                             ("NOT {{ Dimension('user__is_test') }}", False),
                                             ("NOT ({{ Dimension('user__is_test') }})", False)])
def test_a_bare_boolean_dimension_is_a_condition(text: str, value: bool) -> None:
    """WHERE is_instant, as MetricFlow's own cases write it: = TRUE (NOT: = FALSE)."""
    assert parse_where(text).where == [{"dimension": "user__is_test", "op": "in",
                                        "values": [value]}]


def test_a_bare_time_dimension_is_not_a_condition() -> None:
    with pytest.raises(errors.InvalidFilter, match="compare it with a date"):
        parse_where("{{ TimeDimension('metric_time', 'day') }}")


def _demo_with_a_flag(tmp_path, demo_db):
    """The demo's models with a boolean dimension on events (the demo has none the analyst may
    filter on)."""
    import shutil

    import yaml

    from showwork.semantic_layer import load_model
    from showwork.semantic_layer.model import default_model_path

    folder = tmp_path / "models"
    shutil.copytree(Path(default_model_path()).parent / "models", folder)
    events = folder / "events.yml"
    doc = yaml.safe_load(events.read_text())
    sm = doc["semantic_models"][0]
    sm["dimensions"].append({"name": "is_open", "type": "categorical",
                             "expr": "event_type = 'app_open'"})
    events.write_text(yaml.safe_dump(doc, sort_keys=False))
    model = load_model(folder, database=demo_db)
    metric = next(n for n in sorted(model.metric_index)
                  if f"{sm['entities'][0]['name']}__is_open" in model.supported_dimensions(n))
    return SemanticLayer(model, demo_db), metric, f"{sm['entities'][0]['name']}__is_open"


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_a_bare_boolean_filters_as_equal_true(request: pytest.FixtureRequest, tmp_path,
                                              domain: str) -> None:
    """The same numbers as = true and = false, on the demo and the shop."""
    if domain == "demo":
        layer, metric, flag = _demo_with_a_flag(tmp_path, request.getfixturevalue("demo_db"))
    else:
        layer, metric, flag = request.getfixturevalue("shop"), "customers", "customer__is_vip"

    def total(where: str):
        rows = layer.call("query", parse_where(where).apply({"metrics": [metric]})).rows
        return rows[0].values[metric]["value"] if rows else None

    ref = f"{{{{ Dimension('{flag}') }}}}"
    assert total(ref) == total(f"{ref} = true") != total(f"NOT {ref}")
    assert total(f"NOT {ref}") == total(f"{ref} = false")


def _outcome(read, template: str) -> tuple:
    """What a reader makes of a template: its text and references, or its error and message."""
    try:
        text, refs = read(template)
        return ("ok", text, tuple(refs))
    except InvalidFilter as exc:
        return ("error", str(exc))


def _templates(count: int, seed: int) -> list[str]:
    """Filters built from the pieces MetricFlow filters are made of, and the ones a plain reading
    could get wrong: braces, whitespace control, newlines, escapes, bad grains and arguments."""
    rng = random.Random(seed)
    calls = ["Dimension", "TimeDimension", "Entity", "Metric", "Dimensio"]
    names = ["customer__country", "order__ordered_at", "metric_time", "x", "a b", "", "é", "c'd"]
    grains = ["day", "month", "MONTH", "fortnight", "", None]
    opens, closes = ["{{ ", "{{", "{{\n  ", "{{- ", "{{{ "], [" }}", "}}", "\n}}", " -}}", " }}}"]
    texts = [" = 'MX'", " IN ('a', 'b')", " >= '2024-01-01'", " AND ", " OR ", " LIKE '%x%'",
             " IS NULL", "\n", "\r\n", " {", "} ", " # ", " %} ", "", " = \"q\""]

    def call() -> str:
        q = rng.choice(["'", '"'])
        args = f"{q}{rng.choice(names)}{q}"
        grain = rng.choice(grains)
        if grain is not None:
            args += f", {q}{grain}{q}" if rng.random() < 0.8 else f", entity_path=['{grain}']"
        tail = rng.choice(["", "", "", ".grain('week')", ".descending()"])
        return f"{rng.choice(opens)}{rng.choice(calls)}({args}){tail}{rng.choice(closes)}"

    return ["".join(call() if rng.random() < 0.5 else rng.choice(texts)
                    for _ in range(rng.randint(1, 6))) for _ in range(count)]


class TestPlainReferences:
    EDGES = ("", "x = 1", "{{ Dimension('x') }}", "{{ Dimension('x') }}\n", "{{{ Dimension('x') }}",
             "{{ Dimension('x') }}}", "{{ Dimension('x', 'day') }}", "{{ Dimension('x', entity_path=['c']) }}",
             "{{ TimeDimension('t', 'fortnight') }} > 1 AND {{ Dimension('x') }} {",
             "{{ TimeDimension('t') }}\r\n= 1", "{{ Entity(\"e\") }} = 2 OR {{ Dimension('d') }} = 'a'")

    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_plain_reading_is_jinjas(self, seed: int) -> None:
        """Over thousands of generated filters and the edge cases, `references` (which reads the
        simple ones without Jinja) gives exactly what rendering in Jinja's sandbox gives, result
        or error; and the plain reading is what served the simple ones."""
        templates = [*self.EDGES, *_templates(1500, seed)]
        plain = 0
        for template in templates:
            assert _outcome(where.references, template) == _outcome(where.rendered_references,
                                                                     template), template
            try:
                plain += where.plain_references(template) is not None
            except InvalidFilter:
                plain += 1
        assert plain >= len(templates) // 20

    def test_simple_filters_load_no_jinja(self) -> None:
        """A metric filter in the common form reads without importing Jinja."""
        probe = ("import sys; from showwork.semantic_layer.where import references; "
                 "references(\"{{ Dimension('customer__country') }} = 'MX' AND "
                 "{{ TimeDimension('order__ordered_at', 'month') }} >= '2024-01-01'\"); "
                 "print('jinja2' in sys.modules)")
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "False"


class TestRangeAndNullFilters:
    """=, !=, <, <=, >, >=, BETWEEN, IS [NOT] NULL on any dimension (categorical, time at a
    grain, an entity, through entity paths), as MetricFlow passes them to SQL: each run equals
    the raw tables' own answer (the conformance project and the shop example)."""

    @pytest.mark.parametrize(("text", "condition"), [
        ("{{ TimeDimension('customer__signup_date', 'day') }} >= '2023-06-01'",
         "c.signup_date >= DATE '2023-06-01'"),
        ("{{ TimeDimension('customer__signup_date', 'month') }} < '2023-07-01'",
         "date_trunc('month', c.signup_date) < DATE '2023-07-01'"),
        ("{{ Dimension('customer__segment') }} IS NULL", "c.segment IS NULL"),
        ("{{ Dimension('customer__segment') }} IS NOT NULL AND "
         "{{ Dimension('transaction__channel') }} != 'store'",
         "c.segment IS NOT NULL AND t.channel <> 'store'"),
        ("{{ Entity('customer') }} BETWEEN 3 AND 9", "t.customer_id BETWEEN 3 AND 9"),
        ("{{ Entity('customer') }} NOT BETWEEN 3 AND 9", "t.customer_id NOT BETWEEN 3 AND 9"),
        ("{{ Dimension('country__region', entity_path=['customer']) }} > 'E' OR "
         "{{ Dimension('transaction__channel') }} <= 'phone'",
         "(k.region > 'E' OR t.channel <= 'phone')"),
        ("NOT {{ TimeDimension('transaction__ordered_at', 'day') }} IS NULL AND "
         "{{ TimeDimension('transaction__ordered_at', 'day') }} > '2024-03-15'",
         "CAST(t.ordered_at AS DATE) > DATE '2024-03-15'"),
        # a time dimension at a grain: null tests, IN, NOT IN, = and BETWEEN on its periods
        ("{{ TimeDimension('customer__signup_date', 'month') }} IS NULL", "c.signup_date IS NULL"),
        ("{{ TimeDimension('customer__signup_date', 'month') }} IS NOT NULL",
         "c.signup_date IS NOT NULL"),
        ("{{ TimeDimension('customer__signup_date', 'month') }} IN ('2023-06-01', '2023-09-01')",
         "date_trunc('month', c.signup_date) IN (DATE '2023-06-01', DATE '2023-09-01')"),
        ("{{ TimeDimension('customer__signup_date', 'month') }} NOT IN ('2023-06-01')",
         "date_trunc('month', c.signup_date) NOT IN (DATE '2023-06-01')"),
        ("{{ TimeDimension('customer__signup_date', 'quarter') }} = '2023-04-01'",
         "date_trunc('quarter', c.signup_date) = DATE '2023-04-01'"),
        ("{{ TimeDimension('customer__signup_date', 'quarter') }} BETWEEN '2023-04-01' AND "
         "'2023-07-01'", "date_trunc('quarter', c.signup_date) BETWEEN DATE '2023-04-01' AND "
                         "DATE '2023-07-01'"),
    ])
    def test_conformance(self, shop: SemanticLayer, shop_sql, text: str, condition: str) -> None:
        args = parse_where(text).apply({"metrics": ["revenue", "orders"], "window": H1})
        (row,) = shop.call("query", args).rows
        want = shop_sql.execute(
            "SELECT sum(amount), count(*) FROM transactions t LEFT JOIN customers c USING "
            "(customer_id) LEFT JOIN countries k ON k.country_code = c.country_code WHERE "
            f"{condition} AND t.ordered_at >= DATE '2024-01-01' "
            "AND t.ordered_at < DATE '2024-07-01'").fetchone()
        assert row.values["revenue"]["value"] == pytest.approx(want[0], rel=1e-9)
        assert row.values["orders"]["value"] == want[1]

    @pytest.mark.parametrize(("text", "condition"), [
        ("{{ TimeDimension('order__ordered_at', 'day') }} BETWEEN '2019-06-01' AND "
         "'2019-06-15'", "CAST(o.ordered_at AS DATE) BETWEEN DATE '2019-06-01' AND "
                         "DATE '2019-06-15'"),
        ("{{ TimeDimension('customer__signup_date', 'day') }} <= '2018-12-31'",
         "CAST(c.signup_date AS DATE) <= DATE '2018-12-31'"),
        ("{{ Dimension('customer__segment') }} IS NULL", "c.segment IS NULL"),
        ("{{ TimeDimension('customer__signup_date', 'month') }} IS NOT NULL",
         "c.signup_date IS NOT NULL"),
        ("{{ TimeDimension('customer__signup_date', 'month') }} NOT IN ('2018-06-01', "
         "'2018-07-01')", "date_trunc('month', c.signup_date) NOT IN (DATE '2018-06-01', "
                          "DATE '2018-07-01')"),
        ("{{ TimeDimension('customer__signup_date', 'year') }} IN ('2018-01-01')",
         "date_trunc('year', c.signup_date) IN (DATE '2018-01-01')"),
        ("{{ TimeDimension('customer__signup_date', 'quarter') }} BETWEEN '2018-04-01' AND "
         "'2018-10-01'", "date_trunc('quarter', c.signup_date) BETWEEN DATE '2018-04-01' AND "
                         "DATE '2018-10-01'"),
    ])
    def test_shop(self, shop_layer: SemanticLayer, text: str, condition: str) -> None:
        args = parse_where(text).apply({"metrics": ["revenue"],
                                        "window": {"start": "2018-01-01", "end": "2019-08-14"}})
        (row,) = shop_layer.call("query", args).rows
        cursor = shop_layer.connection.cursor()
        try:
            (want,) = cursor.execute(
                "SELECT sum(order_total) FROM orders o LEFT JOIN customers c USING "
                f"(customer_id) WHERE {condition} AND NOT o.is_test AND o.status <> 'cancelled' "
                "AND o.ordered_at >= DATE '2018-01-01' AND o.ordered_at < DATE '2019-08-15'"
            ).fetchone()
        finally:
            cursor.close()
        assert want is not None  # rows pass the filter
        assert float(row.values["revenue"]["value"]) == pytest.approx(float(want), rel=1e-9)

    def test_a_bound_need_not_be_a_member(self, shop: SemanticLayer) -> None:
        """A comparison's value is a bound, not a member: `channel > 'p'` passes a closed
        member list (an = on a value outside it is still refused)."""
        args = parse_where("{{ Dimension('transaction__channel') }} > 'p'").apply(
            {"metrics": ["orders"], "window": H1})
        assert shop.call("query", args).rows
        with pytest.raises(errors.UnknownMember):
            shop.call("query", parse_where("{{ Dimension('transaction__channel') }} = 'p'")
                      .apply({"metrics": ["orders"], "window": H1}))

    @pytest.mark.parametrize(("where", "message"), [
        ({"dimension": "transaction__channel", "op": "ge", "values": ["a", "b"]}, "one value"),
        ({"dimension": "transaction__channel", "op": "is_null", "values": ["a"]}, "no values"),
        ({"dimension": "transaction__channel", "op": "in", "values": []}, "at least one"),
    ])
    def test_arity_is_checked(self, shop: SemanticLayer, where: dict, message: str) -> None:
        with pytest.raises(errors.InvalidArguments, match=message):
            shop.call("query", {"metrics": ["orders"], "window": H1, "where": [where]})

    def test_metric_time_null_test_refused(self) -> None:
        """metric_time IS NULL: refused with the reason (metric_time is never null)."""
        with pytest.raises(errors.InvalidFilter, match="never null"):
            parse_where("{{ TimeDimension('metric_time', 'day') }} IS NULL")

    def test_metric_time_between_bounds(self) -> None:
        """BETWEEN on metric_time bounds the window on both sides."""
        parsed = parse_where("{{ TimeDimension('metric_time', 'day') }} BETWEEN '2024-02-03' "
                             "AND '2024-02-20'")
        assert (parsed.start, parsed.end) == (dt.date(2024, 2, 3), dt.date(2024, 2, 20))


class TestMetricFlowNames:
    """A Dimension or TimeDimension in a filter is named as MetricFlow reads it: one entity
    link, a longer path in entity_path; else refused with MetricFlow's reason (its
    ParameterSetFactory), on the conformance project and the shop example's names."""

    @pytest.mark.parametrize("text", [
        "{{ Dimension('customer__country__region') }} = 'EU'",
        "{{ Dimension('channel') }} = 'web'",
        "{{ TimeDimension('order__customer__signup_date', 'day') }} >= '2019-01-01'",
    ])
    def test_refused_with_the_reason(self, text: str) -> None:
        with pytest.raises(InvalidFilter, match="Name is in an incorrect format"):
            parse_where(text)

    @pytest.mark.parametrize(("text", "name"), [
        ("{{ Dimension('country__region', entity_path=['customer']) }} = 'EU'",
         "customer__country__region"),
        ("{{ TimeDimension('metric_time', 'month') }} >= '2024-01-01'", None),
        ("{{ TimeDimension('customer__signup_date__month') }} >= '2019-01-01'",
         "customer__signup_date__month"),
        ("{{ Dimension('order__store__store_name') }} = 'x' OR {{ Dimension('order__status') }} "
         "= 'placed'", "refused"),
    ])
    def test_accepted_forms(self, text: str, name: str | None) -> None:
        if name == "refused":
            with pytest.raises(InvalidFilter, match="incorrect format"):
                parse_where(text)
            return
        parsed = parse_where(text)
        assert [f["dimension"] for f in parsed.where] == ([name] if name else [])
