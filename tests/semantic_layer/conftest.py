"""Fixtures of the semantic-layer tests: the conformance project (conformance/project, a dbt
MetricFlow project) and a DuckDB warehouse built from its seed CSVs, as dbt would build it."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from showwork.semantic_layer import SemanticLayer, load_model

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "conformance" / "project"
TYPES = {
    "countries": {"country_code": "VARCHAR", "country_name": "VARCHAR", "region": "VARCHAR"},
    "customers": {"customer_id": "INTEGER", "country_code": "VARCHAR", "signup_date": "DATE",
                  "segment": "VARCHAR", "is_vip": "BOOLEAN"},
    "transactions": {"transaction_id": "INTEGER", "customer_id": "INTEGER",
                     "ordered_at": "TIMESTAMP", "channel": "VARCHAR", "amount": "DOUBLE",
                     "quantity": "INTEGER", "is_gift": "BOOLEAN", "status": "VARCHAR"},
    "visits": {"visit_id": "INTEGER", "customer_id": "INTEGER", "visited_on": "DATE",
               "pages": "INTEGER"},
    "refunds": {"refund_id": "INTEGER", "transaction_id": "INTEGER", "refunded_on": "VARCHAR",
                "refund_amount": "DOUBLE"},
    "balances": {"account_id": "INTEGER", "customer_id": "INTEGER", "balance_date": "DATE",
                 "balance": "DOUBLE"},
}


@pytest.fixture(scope="session")
def shop_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The conformance project's tables in a DuckDB file (what `dbt seed && dbt run` builds)."""
    path = tmp_path_factory.mktemp("shop") / "shop.duckdb"
    con = duckdb.connect(str(path))
    try:
        for table, columns in TYPES.items():
            struct = "{" + ", ".join(f"'{c}': '{t}'" for c, t in columns.items()) + "}"
            con.execute(f"CREATE TABLE {table} AS SELECT * FROM read_csv(?, header=true, "
                        f"columns={struct})", [str(PROJECT / "seeds" / f"raw_{table}.csv")])
        spine = (PROJECT / "models" / "metricflow_time_spine.sql").read_text(encoding="utf-8")
        con.execute(f"CREATE TABLE metricflow_time_spine AS {spine}")  # dbt run builds it too
    finally:
        con.close()
    return path


@pytest.fixture(scope="session")
def shop(shop_db: Path) -> SemanticLayer:
    """The semantic layer over the conformance project (dbt YAML, governance inferred)."""
    layer = SemanticLayer(load_model(PROJECT / "models"), shop_db)
    yield layer
    layer.close()


@pytest.fixture(scope="session")
def shop_sql(shop: SemanticLayer):
    """A cursor for hand-written SQL over the same tables."""
    cursor = shop.connection.cursor()
    yield cursor
    cursor.close()
