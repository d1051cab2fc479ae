"""The shop example (examples/shop): a deterministic generator, gold questions that run on its
warehouse, the stories its README tells, and dbt YAML that dbt-semantic-interfaces accepts."""

from __future__ import annotations

import datetime as dt
import importlib.util
import math
import os
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import duckdb
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
CACHE = Path(os.environ.get("SHOWWORK_TEST_CACHE", ROOT / ".showwork" / "test-cache"))
GOVERNED = "NOT o.is_test AND o.status <> 'cancelled'"


def _validator() -> ModuleType:
    """examples/validate_models.py, the examples' standalone dbt-semantic-interfaces check."""
    spec = importlib.util.spec_from_file_location("examples_validate_models",
                                                  SHOP.parent / "validate_models.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"shop_{name}", SHOP / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


generate = _module("generate")
QUESTIONS = yaml.safe_load((SHOP / "questions.yaml").read_text(encoding="utf-8"))["questions"]
BY_ID = {q["id"]: q for q in QUESTIONS}
GOVERNANCE = yaml.safe_load((SHOP / "governance.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def shop_db() -> Path:
    """The shop warehouse (default seed), cached across runs by generator version."""
    path = CACHE / f"shop-v{generate.GENERATOR_VERSION}-seed{generate.DEFAULT_SEED}.duckdb"
    if not path.exists():
        generate.build(path, seed=generate.DEFAULT_SEED)
    return path


@pytest.fixture(scope="module")
def con(shop_db: Path):
    connection = duckdb.connect(str(shop_db), read_only=True)
    yield connection
    connection.close()


def _fingerprint(path: Path) -> dict[str, object]:
    connection = duckdb.connect(str(path), read_only=True)
    try:
        return {t: connection.execute(f"SELECT count(*), sum(hash(COLUMNS(*))) FROM {t}").fetchone()
                for t in generate.SCHEMAS}
    finally:
        connection.close()


def _one(con, sql: str):
    (row,) = con.execute(sql).fetchall()
    return row[0] if len(row) == 1 else row


# -- the generator ------------------------------------------------------------------------------
class TestGenerator:
    def test_same_seed_same_tables(self, shop_db: Path, tmp_path: Path) -> None:
        """A rebuild with the default seed is identical table by table; another seed differs."""
        again = generate.build(tmp_path / "again.duckdb", seed=generate.DEFAULT_SEED)
        other = generate.build(tmp_path / "other.duckdb", seed=generate.DEFAULT_SEED + 1)
        assert _fingerprint(again) == _fingerprint(shop_db)
        assert _fingerprint(other)["orders"] != _fingerprint(shop_db)["orders"]
        assert _fingerprint(other)["stores"] == _fingerprint(shop_db)["stores"]

    def test_tables_and_types(self, con) -> None:
        """The raw tables have the documented columns and types."""
        rows = con.execute("SELECT table_name, column_name, data_type FROM information_schema.columns "
                           "WHERE table_schema = 'main'").fetchall()
        found: dict[str, dict[str, str]] = {}
        for table, column, kind in rows:
            found.setdefault(table, {})[column] = kind
        for table, columns in generate.SCHEMAS.items():
            assert found[table] == columns, table

    def test_sizes(self, con) -> None:
        """About 45k orders over 18 months, two lines per order, and thousands of customers."""
        assert 30_000 < _one(con, "SELECT count(*) FROM orders") < 60_000
        assert 1.5 < _one(con, "SELECT count(*) FROM order_items") / _one(con, "SELECT count(*) FROM orders") < 2.5
        assert 4_000 < _one(con, "SELECT count(*) FROM customers") < 8_000
        first, last = _one(con, "SELECT min(ordered_at)::DATE, max(ordered_at)::DATE FROM orders")
        assert (first, last) == (dt.date(2018, 2, 1), dt.date(2019, 8, 14))

    def test_members_that_need_quoting(self, con) -> None:
        """Store and product names carry quotes, commas and punctuation, and one contains another."""
        stores = {r[0] for r in con.execute("SELECT store_name FROM stores").fetchall()}
        products = {r[0] for r in con.execute("SELECT product_name FROM products").fetchall()}
        assert {"O'Hare Airport", "Online", "Toronto (Queen St. W)", "New York 5th Ave"} <= stores
        assert {"nutellaphone who dis?", 'Mel\'s "mocha"', "Mug, 12 oz", "Chai", "Chai Latte",
                "chai and mighty"} <= products

    def test_order_total_is_the_sum_of_its_items(self, con) -> None:
        """The mart column the semantic model sums equals the item lines the gold SQL sums."""
        assert _one(con, """SELECT count(*) FROM orders o JOIN (SELECT order_id, sum(quantity * unit_price) AS s
                            FROM order_items GROUP BY 1) i ON i.order_id = o.order_id
                            WHERE i.s <> o.order_total""") == 0
        assert _one(con, "SELECT count(*) FROM orders WHERE order_id NOT IN (SELECT order_id FROM order_items)") == 0


# -- the question file --------------------------------------------------------------------------
KIND_OF = {"lookup": "lookup", "comparison": "lookup", "breakdown": "breakdown", "ranking": "ranking",
           "series": "series", "diagnostic": "diagnostic"}
FACTORS = ("order_count", "average_order_value")


class TestQuestionFile:
    def test_counts_per_kind(self) -> None:
        """At least 40 questions, with 5 or more of every kind, and unique ids."""
        kinds = Counter(KIND_OF[q["category"]] if q["answerable"] else "refusal" for q in QUESTIONS)
        assert len(QUESTIONS) >= 40
        assert all(kinds[k] >= 5 for k in ("lookup", "breakdown", "ranking", "series", "diagnostic",
                                           "refusal")), kinds
        assert len(BY_ID) == len(QUESTIONS)

    def test_gold_shape_per_category(self) -> None:
        """Each kind carries the gold its category needs, and refusals carry none."""
        need = {"lookup": "sql", "comparison": "sql", "breakdown": "table_sql", "series": "table_sql",
                "ranking": "members", "diagnostic": "driver"}
        for q in QUESTIONS:
            if not q["answerable"]:
                assert "gold" not in q, q["id"]
                continue
            assert need[q["category"]] in q["gold"], q["id"]
        assert {q["gold"]["driver"] for q in QUESTIONS if q["category"] == "diagnostic"} <= set(FACTORS)

    def test_project_file_points_at_its_parts(self) -> None:
        """showwork.yaml names the models folder, governance, questions and the generated warehouse."""
        project = yaml.safe_load((SHOP / "showwork.yaml").read_text(encoding="utf-8"))
        assert project["name"] == "shop"
        assert project["as_of"] == generate.DATA_THROUGH + dt.timedelta(days=1) == dt.date(2019, 8, 15)
        assert (SHOP / project["semantic_models"]).is_dir()
        assert (SHOP / project["governance"]).is_file() and (SHOP / project["questions"]).is_file()
        assert project["warehouse"] == {"duckdb": "warehouse.duckdb"}
        assert "*.duckdb" in (SHOP / ".gitignore").read_text(encoding="utf-8").split()


def _with_gold(key: str) -> list[str]:
    return [q["id"] for q in QUESTIONS if key in (q.get("gold") or {})]


@pytest.mark.parametrize("qid", _with_gold("sql"))
def test_gold_sql_returns_one_scalar(con, qid: str) -> None:
    """Every `sql` gold runs on the raw tables and returns one finite, non-null number."""
    rows = con.execute(BY_ID[qid]["gold"]["sql"]).fetchall()
    assert len(rows) == 1 and len(rows[0]) == 1 and rows[0][0] is not None
    assert math.isfinite(float(rows[0][0]))


@pytest.mark.parametrize("qid", _with_gold("table_sql"))
def test_gold_table_sql_returns_keys_and_values(con, qid: str) -> None:
    """Every `table_sql` gold returns two columns: distinct non-null keys (period starts for a
    series) and finite values."""
    q = BY_ID[qid]
    rows = con.execute(q["gold"]["table_sql"]).fetchall()
    assert len(rows) >= 2 and all(len(r) == 2 for r in rows)
    keys = [r[0] for r in rows]
    assert None not in keys and len(set(keys)) == len(keys)
    assert all(r[1] is not None and math.isfinite(float(r[1])) for r in rows)
    if q["category"] == "series":
        assert all(type(k) is dt.date for k in keys)
    else:
        assert all(isinstance(k, str) for k in keys)


# The SQL behind each ranking gold (the comment above it in questions.yaml): member, value, ordered.
def _rank(select: str, joins: str, where: str, order: str = "DESC") -> str:
    return (f"SELECT {select} FROM order_items i JOIN orders o ON o.order_id = i.order_id {joins} "
            f"WHERE {GOVERNED} AND {where} GROUP BY 1 ORDER BY 2 {order}")


def _days(a: str, b: str) -> str:
    return f"CAST(o.ordered_at AS DATE) BETWEEN DATE '{a}' AND DATE '{b}'"


PRODUCTS = "JOIN products p ON p.product_id = i.product_id"
RANKINGS = {
    "ranking-001": _rank("p.product_name, sum(i.quantity)", PRODUCTS, _days("2019-07-01", "2019-07-31")),
    "ranking-002": _rank("p.product_name, sum(i.quantity * i.unit_price)", PRODUCTS,
                         _days("2019-04-01", "2019-06-30")),
    "ranking-003": f"""SELECT s.store_name, sum(o.order_total) FROM orders o JOIN stores s ON s.store_id = o.store_id
                       WHERE {GOVERNED} AND {_days('2019-07-01', '2019-07-31')} GROUP BY 1 ORDER BY 2 DESC""",
    "ranking-004": f"""SELECT r.region_name, sum(o.order_total) FROM orders o
                       JOIN customers c ON c.customer_id = o.customer_id JOIN regions r ON r.region_id = c.region_id
                       WHERE {GOVERNED} AND {_days('2019-01-01', '2019-06-30')} GROUP BY 1 ORDER BY 2 DESC""",
    "ranking-005": f"""SELECT s.store_name, count(*) FROM orders o JOIN stores s ON s.store_id = o.store_id
                       WHERE {GOVERNED} AND {_days('2019-05-01', '2019-05-31')} GROUP BY 1 ORDER BY 2 DESC""",
    "ranking-006": _rank("p.product_name, sum(i.quantity)", PRODUCTS, _days("2019-01-01", "2019-03-31"),
                         "ASC"),
    "ranking-007": f"""SELECT s.store_name, sum(o.order_total) / count(*) FROM orders o
                       JOIN stores s ON s.store_id = o.store_id
                       WHERE {GOVERNED} AND {_days('2019-05-01', '2019-05-31')} GROUP BY 1 ORDER BY 2 DESC""",
}


def test_every_ranking_has_its_sql() -> None:
    """Each ranking question in the file is re-checked below, and nothing else is."""
    assert set(RANKINGS) == {q["id"] for q in QUESTIONS if q["category"] == "ranking"}


@pytest.mark.parametrize("qid", sorted(RANKINGS))
def test_ranking_members_from_raw_sql(con, qid: str) -> None:
    """Each pasted ranking is the raw-SQL order, with no tie at its cut-off."""
    members = BY_ID[qid]["gold"]["members"]
    rows = con.execute(RANKINGS[qid]).fetchall()
    assert [r[0] for r in rows[:len(members)]] == members
    values = [r[1] for r in rows]
    assert len(set(values[:len(members) + 1])) == min(len(values), len(members) + 1)


# Each diagnostic: (current window, previous window, extra joins, extra condition).
STORE = "JOIN stores s ON s.store_id = o.store_id"
REGION = ("JOIN customers c ON c.customer_id = o.customer_id "
          "JOIN regions r ON r.region_id = c.region_id")
MAY, APRIL = ("2019-05-01", "2019-05-31"), ("2019-04-01", "2019-04-30")
OCTOBER, SEPTEMBER = ("2018-10-01", "2018-10-31"), ("2018-09-01", "2018-09-30")
DIAGNOSTICS = {
    "diag-001": (MAY, APRIL, "", ""),
    "diag-002": (MAY, APRIL, STORE, "s.store_name = 'Online'"),
    "diag-003": (MAY, APRIL, STORE, "s.store_name = 'New York 5th Ave'"),
    "diag-004": (OCTOBER, SEPTEMBER, "", ""),
    "diag-005": (("2018-12-01", "2018-12-31"), ("2018-11-01", "2018-11-30"), "", ""),
    "diag-006": (("2019-01-01", "2019-01-31"), ("2018-12-01", "2018-12-31"), "", ""),
    "diag-007": (("2019-06-01", "2019-06-30"), MAY, "", ""),
    "diag-008": (("2019-02-01", "2019-02-28"), ("2019-01-01", "2019-01-31"), "", ""),
    "diag-009": (MAY, APRIL, REGION, "r.region_name = 'South'"),
    "diag-010": (OCTOBER, SEPTEMBER, REGION, "r.region_name = 'Northeast'"),
}


def _revenue_and_orders(con, window: tuple[str, str], joins: str, cond: str) -> tuple[float, int]:
    """Governed revenue (from item lines) and order count, from raw SQL alone."""
    extra = f"AND {cond}" if cond else ""
    revenue, orders = con.execute(f"""
        SELECT sum(i.quantity * i.unit_price), count(DISTINCT o.order_id)
        FROM order_items i JOIN orders o ON o.order_id = i.order_id {joins}
        WHERE {GOVERNED} AND {_days(*window)} {extra}""").fetchone()
    return float(revenue), orders


def lmdi_driver(now: tuple[float, int], before: tuple[float, int]) -> tuple[str, dict[str, float]]:
    """The factor of revenue = order_count x average_order_value with the largest LMDI
    contribution in the direction of the move, and every contribution."""
    (r1, n1), (r0, n0) = now, before
    weight = (r1 - r0) / (math.log(r1) - math.log(r0))
    parts = {"order_count": weight * math.log(n1 / n0),
             "average_order_value": weight * math.log((r1 / n1) / (r0 / n0))}
    same = {k: v for k, v in parts.items() if v * (r1 - r0) > 0}
    return max(same, key=lambda k: abs(same[k])), parts


def test_every_diagnostic_has_its_windows() -> None:
    """Each diagnostic question in the file is re-checked below, and nothing else is."""
    assert set(DIAGNOSTICS) == {q["id"] for q in QUESTIONS if q["category"] == "diagnostic"}


@pytest.mark.parametrize("qid", sorted(DIAGNOSTICS))
def test_diagnostic_driver_from_raw_sql(con, qid: str) -> None:
    """Each diagnostic gold driver is the LMDI driver computed from raw SQL, and the two
    contributions add up to the move exactly."""
    current, previous, joins, cond = DIAGNOSTICS[qid]
    now, before = (_revenue_and_orders(con, w, joins, cond) for w in (current, previous))
    driver, parts = lmdi_driver(now, before)
    assert driver == BY_ID[qid]["gold"]["driver"]
    assert math.isclose(sum(parts.values()), now[0] - before[0], rel_tol=1e-9)


# -- the stories --------------------------------------------------------------------------------
def _month(con, a: str, b: str, cond: str = "TRUE") -> tuple[float, int]:
    return _revenue_and_orders(con, (a, b), STORE, cond)


class TestStories:
    def test_story1_sale_lowers_aov_while_orders_rise(self, con) -> None:
        """May 2019: orders rise, average order value falls more, revenue falls; AOV drives it."""
        (r1, n1), (r0, n0) = _month(con, *MAY), _month(con, *APRIL)
        assert r1 < r0 and n1 > 1.1 * n0
        assert (r1 / n1) / (r0 / n0) < 0.85
        assert lmdi_driver((r1, n1), (r0, n0))[0] == "average_order_value" == BY_ID["diag-001"]["gold"]["driver"]

    def test_story1_sale_prices_are_online_in_may_only(self, con) -> None:
        """Every real Online line in May 2019 sells at 70 % of list; no other line is discounted."""
        discounted = con.execute("""
            SELECT DISTINCT s.store_name, strftime(o.ordered_at, '%Y-%m')
            FROM order_items i JOIN orders o ON o.order_id = i.order_id JOIN stores s ON s.store_id = o.store_id
            JOIN products p ON p.product_id = i.product_id WHERE i.unit_price <> p.list_price""").fetchall()
        assert discounted == [("Online", "2019-05")]
        assert _one(con, f"""SELECT bool_and(i.unit_price = p.list_price * 0.7) FROM order_items i
                            JOIN orders o ON o.order_id = i.order_id JOIN products p ON p.product_id = i.product_id
                            WHERE o.store_id = 5 AND NOT o.is_test AND {_days('2019-05-01', '2019-05-31')}""")

    def test_story2_new_customers_lift_orders(self, con) -> None:
        """October 2018: sign-ups more than triple and orders rise over 30 %, AOV steady."""
        signups = con.execute("""SELECT count(*) FILTER (WHERE signup_date >= DATE '2018-10-01'),
                                 count(*) FILTER (WHERE signup_date < DATE '2018-10-01') FROM customers
                                 WHERE signup_date BETWEEN DATE '2018-09-01' AND DATE '2018-10-31'""").fetchone()
        assert signups[0] > 3 * signups[1]
        (r1, n1), (r0, n0) = _month(con, *OCTOBER), _month(con, *SEPTEMBER)
        assert n1 > 1.3 * n0 and abs((r1 / n1) / (r0 / n0) - 1) < 0.03

    def test_story3_test_orders_inflate_the_legacy_metric_only(self, con) -> None:
        """Week of 2019-06-10: total orders (legacy) jump over 4x; governed orders stay within 10 %."""
        now, before, governed_now, governed_before = con.execute(f"""
            SELECT count(*) FILTER (WHERE o.ordered_at >= DATE '2019-06-10'),
                   count(*) FILTER (WHERE o.ordered_at < DATE '2019-06-10'),
                   count(*) FILTER (WHERE o.ordered_at >= DATE '2019-06-10' AND {GOVERNED}),
                   count(*) FILTER (WHERE o.ordered_at < DATE '2019-06-10' AND {GOVERNED})
            FROM orders o WHERE {_days('2019-06-03', '2019-06-16')}""").fetchone()
        assert now > 4 * before
        assert abs(governed_now / governed_before - 1) < 0.1
        assert _one(con, "SELECT count(*) FROM orders WHERE is_test AND customer_id IS NOT NULL") == 0

    def test_story4_last_month_and_week_are_partial(self, con) -> None:
        """Data ends on Wednesday 2019-08-14: August looks halved against July though the daily
        rate holds, and the week of 2019-08-12 has three days."""
        last = _one(con, "SELECT max(ordered_at)::DATE FROM orders")
        assert last == dt.date(2019, 8, 14) and last.weekday() == 2
        (r_aug, _), (r_jul, _) = _month(con, "2019-08-01", "2019-08-31"), _month(con, "2019-07-01", "2019-07-31")
        assert r_aug < 0.5 * r_jul
        assert abs((r_aug / 14) / (r_jul / 31) - 1) < 0.1
        assert _one(con, "SELECT count(DISTINCT ordered_at::DATE) FROM orders WHERE ordered_at >= DATE '2019-08-12'") == 3

    def test_orphan_orders_exist_and_left_joins_keep_them(self, con) -> None:
        """Orders of deleted customers match no customer row, all before November 2018, and a
        LEFT join to customers keeps every order."""
        orphans, last = con.execute("""SELECT count(*), max(o.ordered_at)::DATE FROM orders o
                                       LEFT JOIN customers c ON c.customer_id = o.customer_id
                                       WHERE o.customer_id IS NOT NULL AND c.customer_id IS NULL""").fetchone()
        assert orphans >= 100 and last < generate.DELETED_BEFORE
        assert _one(con, "SELECT count(*) FROM orders o LEFT JOIN customers c USING (customer_id)") == \
            _one(con, "SELECT count(*) FROM orders")


# -- the semantic model -------------------------------------------------------------------------
class TestModels:
    def test_dbt_yaml_passes_dbt_semantic_interfaces(self) -> None:
        """The dbt YAML parses with dbt-semantic-interfaces and its validator finds no error."""
        pytest.importorskip("dbt_semantic_interfaces",
                            reason="dbt-semantic-interfaces is not installed (pip install dbt-semantic-interfaces)")
        validate_models = _validator()
        manifest = validate_models.build_manifest(SHOP / "models")
        errors, _warnings = validate_models.validate(SHOP / "models")
        assert errors == []
        assert {m.name for m in manifest.metrics} >= {"revenue", "order_count", "average_order_value",
                                                      "total_orders", "new_customers", "customer_base"}

    def test_validator_catches_a_broken_reference(self, tmp_path: Path) -> None:
        """A ratio whose denominator names no metric is an error, so a pass means something."""
        pytest.importorskip("dbt_semantic_interfaces",
                            reason="dbt-semantic-interfaces is not installed (pip install dbt-semantic-interfaces)")
        validate_models = _validator()
        for f in (SHOP / "models").glob("*.yml"):
            text = f.read_text(encoding="utf-8").replace("denominator: order_count", "denominator: orderz")
            (tmp_path / f.name).write_text(text, encoding="utf-8")
        errors, _warnings = validate_models.validate(tmp_path)
        assert any("orderz" in e for e in errors)

    def test_governance_names_metrics_the_models_define(self) -> None:
        """Every metric the governance file or the tree names is a dbt metric."""
        defined = {m["name"] for m in yaml.safe_load((SHOP / "models" / "metrics.yml").read_text())["metrics"]}
        tree = GOVERNANCE["metric_tree"]
        named = set(GOVERNANCE["metrics"]) | {e["parent"] for e in tree["exact"]}
        named |= {f for e in tree["exact"] for f in e["factors"]}
        named |= {x for e in tree["influence"] for x in (e["source"], e["target"])}
        assert named <= defined
        assert tree["exact"] == [{"parent": "revenue", "op": "multiply", "factors": list(FACTORS)}]

    @pytest.mark.parametrize("dimension, sql", [
        ("store__store_name", "SELECT store_name FROM stores"),
        ("order__store__store_name", "SELECT store_name FROM stores"),
        ("product__product_name", "SELECT product_name FROM products"),
        ("product__product_type", "SELECT product_type FROM products"),
        ("customer__segment", "SELECT segment FROM customers"),
        ("customer__region__region_name", "SELECT region_name FROM regions"),
        ("customer__region__country", "SELECT country FROM regions"),
        ("order__status", "SELECT status FROM orders"),
    ])
    def test_closed_member_lists_match_the_data(self, con, dimension: str, sql: str) -> None:
        """Each closed member list in the governance file is exactly the warehouse's distinct values,
        and every member synonym points at a member."""
        governed = GOVERNANCE["dimensions"][dimension]
        assert set(governed["members"]) == {r[0] for r in con.execute(sql).fetchall()}
        assert set(governed.get("member_synonyms", {}).values()) <= set(governed["members"])
